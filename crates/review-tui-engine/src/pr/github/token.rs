//! GitHub's token, found the way `gh` finds it.

use std::ffi::OsStr;
use std::fmt;

use crate::pr::token::{Token, tool_output};

/// Where a token was found, so the UI can say "using the token from GH_TOKEN" without showing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenSource {
    GhTokenEnv,
    GithubTokenEnv,
    GhCli,
}

impl fmt::Display for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TokenSource::GhTokenEnv => "GH_TOKEN",
            TokenSource::GithubTokenEnv => "GITHUB_TOKEN",
            TokenSource::GhCli => "`gh auth token`",
        })
    }
}

/// Finds a token the way `gh` itself does: `GH_TOKEN`, then `GITHUB_TOKEN`, then `gh auth token`
/// when a `gh` binary is on `PATH`. `None` is fine: public repositories are readable anonymously.
pub fn discover() -> Option<(Token, TokenSource)> {
    discover_with(
        |name| std::env::var(name).ok(),
        || gh_auth_token(std::env::var_os("PATH").as_deref()),
    )
}

/// `discover` with the environment and the `gh` call passed in, so the precedence is testable
/// without mutating the process environment.
pub(super) fn discover_with(
    env: impl Fn(&str) -> Option<String>,
    gh: impl FnOnce() -> Option<String>,
) -> Option<(Token, TokenSource)> {
    if let Some(token) = env("GH_TOKEN").and_then(Token::new) {
        return Some((token, TokenSource::GhTokenEnv));
    }
    if let Some(token) = env("GITHUB_TOKEN").and_then(Token::new) {
        return Some((token, TokenSource::GithubTokenEnv));
    }
    gh().and_then(Token::new).map(|t| (t, TokenSource::GhCli))
}

/// Runs `gh auth token` if `gh` is on the given `PATH`.
pub(super) fn gh_auth_token(path_var: Option<&OsStr>) -> Option<String> {
    tool_output(path_var, "gh", &["auth", "token"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::token::env_of;

    #[test]
    fn gh_token_wins_over_github_token_and_gh() {
        let found = discover_with(
            env_of(&[("GH_TOKEN", "one"), ("GITHUB_TOKEN", "two")]),
            || Some("three".into()),
        );
        let (token, source) = found.unwrap();
        assert_eq!((token.expose(), source), ("one", TokenSource::GhTokenEnv));
    }

    #[test]
    fn empty_gh_token_falls_through_to_github_token() {
        let found = discover_with(env_of(&[("GH_TOKEN", ""), ("GITHUB_TOKEN", "two")]), || {
            None
        });
        let (token, source) = found.unwrap();
        assert_eq!(
            (token.expose(), source),
            ("two", TokenSource::GithubTokenEnv)
        );
    }

    #[test]
    fn gh_cli_is_the_last_resort() {
        let (token, source) = discover_with(env_of(&[]), || Some("three\n".into())).unwrap();
        assert_eq!((token.expose(), source), ("three", TokenSource::GhCli));
        assert!(discover_with(env_of(&[]), || None).is_none());
    }
}
