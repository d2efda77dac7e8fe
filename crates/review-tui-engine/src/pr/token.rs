//! A forge's token: a type that refuses to print it, and how a forge's own command-line tool
//! is asked for its stored one. Where each forge looks first is the forge's own (`pr/<forge>`).

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

/// What `program ARGS…` prints, when `program` is on the given `PATH` and succeeds: how a
/// forge's own command-line tool hands over its stored token (`gh auth token`). Any failure
/// (not logged in, not installed, odd output) means "no token": anonymous access is still
/// worth trying.
pub(crate) fn tool_output(
    path_var: Option<&OsStr>,
    program: &str,
    args: &[&str],
) -> Option<String> {
    let tool = find_on_path(path_var?, program)?;
    let output = Command::new(tool)
        .args(args)
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

/// An environment of the given variables, for tests of where a token is found that must not
/// touch the process's own.
#[cfg(test)]
pub(crate) fn env_of(
    pairs: &'static [(&'static str, &'static str)],
) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| (*v).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[cfg(unix)]
    #[test]
    fn a_tools_token_is_what_the_tool_on_path_prints() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let gh = dir.path().join("gh");
        std::fs::write(
            &gh,
            "#!/bin/sh\n[ \"$1 $2\" = 'auth token' ] && echo gho_fromcli\n",
        )
        .unwrap();
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
        let token = tool_output(Some(dir.path().as_os_str()), "gh", &["auth", "token"]).unwrap();
        assert_eq!(token.trim(), "gho_fromcli");
        assert!(tool_output(Some(dir.path().as_os_str()), "gh", &["other"]).is_none());
        let empty = tempfile::tempdir().unwrap();
        assert!(tool_output(Some(empty.path().as_os_str()), "gh", &["auth", "token"]).is_none());
    }
}
