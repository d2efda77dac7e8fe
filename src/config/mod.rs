//! Configuration: built-in defaults, the user's config file, the repository's
//! `.review-tui.toml` as it is on the base branch, then flags.
