//! The cockpit: a thin ratatui view over engine state plus keyboard actions.
