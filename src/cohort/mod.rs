//! Cohorts: changed files grouped by the symbols that join them, ranked by blast radius.
