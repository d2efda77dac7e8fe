//! The GitHub token: where it comes from, and a type that refuses to print it.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A secret API token. `Debug` and `Display` print `***` so that a token can sit inside
/// configs and errors that get logged without ever reaching a terminal or a log file.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Wraps a token; surrounding whitespace (a trailing newline from a file or a CLI) is dropped.
    /// Returns `None` for an empty value, which is what an unset-but-exported variable looks like.
    pub fn new(value: impl Into<String>) -> Option<Self> {
        let value = value.into();
        let trimmed = value.trim();
        if trimmed.is_empty() {
            None
        } else {
            Some(Token(trimmed.to_owned()))
        }
    }

    /// The secret itself. Only the HTTP layer should call this, to build the header.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The HTTP header git sends with every request: GitHub takes the token as the password of
    /// Basic auth with the conventional `x-access-token` user.
    pub(crate) fn basic_auth_header(&self) -> String {
        format!(
            "Authorization: Basic {}",
            crate::base64::encode(format!("x-access-token:{}", self.expose()).as_bytes())
        )
    }

    /// `text` with every form of the token that could appear in it replaced.
    pub fn scrub(&self, text: &str) -> String {
        let basic = crate::base64::encode(format!("x-access-token:{}", self.expose()).as_bytes());
        let mut out = text.to_string();
        // Longest first, so the encoded header is not left half-replaced by the raw token.
        for secret in [basic.as_str(), self.expose()] {
            if !secret.is_empty() {
                out = out.replace(secret, "***");
            }
        }
        out
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(***)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

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
pub fn discover_with(
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

/// Runs `gh auth token` if `gh` is on the given `PATH`. Any failure (not logged in, not
/// installed, odd output) means "no token": anonymous access is still worth trying.
pub fn gh_auth_token(path_var: Option<&OsStr>) -> Option<String> {
    let gh = find_on_path(path_var?, "gh")?;
    let output = Command::new(gh)
        .args(["auth", "token"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    String::from_utf8(output.stdout).ok()
}

fn find_on_path(path_var: &OsStr, program: &str) -> Option<PathBuf> {
    std::env::split_paths(path_var)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.with_extension("exe").is_file() || path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn token_never_prints_itself() {
        let token = Token::new("ghp_secretvalue123").unwrap();
        assert_eq!(format!("{token}"), "***");
        assert_eq!(format!("{token:?}"), "Token(***)");
        assert_eq!(format!("{:?}", Some(&token)), "Some(Token(***))");
        assert_eq!(token.expose(), "ghp_secretvalue123");
    }

    #[test]
    fn empty_and_whitespace_tokens_are_absent() {
        assert!(Token::new("").is_none());
        assert!(Token::new(" \n").is_none());
        assert_eq!(Token::new("abc\n").unwrap().expose(), "abc");
    }

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

    #[cfg(unix)]
    #[test]
    fn gh_auth_token_runs_the_gh_on_path() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let gh = dir.path().join("gh");
        std::fs::write(
            &gh,
            "#!/bin/sh\n[ \"$1 $2\" = 'auth token' ] && echo gho_fromcli\n",
        )
        .unwrap();
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
        let token = gh_auth_token(Some(dir.path().as_os_str())).unwrap();
        assert_eq!(token.trim(), "gho_fromcli");
        let empty = tempfile::tempdir().unwrap();
        assert!(gh_auth_token(Some(empty.path().as_os_str())).is_none());
    }
}
