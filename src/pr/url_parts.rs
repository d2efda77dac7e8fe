//! The parts of a pull request URL every forge's parser checks the same way: the host, and the
//! names (owner, group, repository) that become API path segments. A URL is typed or pasted,
//! often from someone else's message, so nothing in it may walk a path or smuggle a user name.

use super::ref_error::RefError;

/// `HOST` or `HOST:PORT`, nothing else a URL's authority may hold (user names, brackets).
pub fn is_host(host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && port.is_none_or(|p| !p.is_empty() && p.parse::<u16>().is_ok())
}

/// An owner, group or repository name: letters, digits, `-`, `_`, `.`; never `.` or `..`.
/// `what` names it in the error (`owner`, `GitLab group or project`).
pub fn check_name(given: &str, what: &str, name: &str) -> Result<(), RefError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("`{name}` is not a valid {what} name"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_names_that_could_walk_or_smuggle_are_refused() {
        assert!(is_host("git.example.org"));
        assert!(is_host("127.0.0.1:3000"));
        for bad in ["", "user@host", "host:", "host:99999", "[::1]", "a/b"] {
            assert!(!is_host(bad), "{bad}");
        }
        assert!(check_name("x", "owner", "acme.tools-1_2").is_ok());
        for bad in ["", ".", "..", "a/b", "a%2Fb", "a b"] {
            assert!(check_name("x", "owner", bad).is_err(), "{bad}");
        }
        assert_eq!(
            check_name("u", "owner", "..").unwrap_err().to_string(),
            "`u`: `..` is not a valid owner name"
        );
    }
}
