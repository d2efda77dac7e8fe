//! The context a model reviewer receives.

pub mod diff_text;
