//! The parts of a pull request URL every forge's parser checks the same way: the host, and the
//! names (owner, group, repository) that become API path segments. A URL is typed or pasted,
//! often from someone else's message, so nothing in it may walk a path or smuggle a user name.

use super::ref_error::RefError;

/// The parts of an `https://` or `http://` URL: its host, then each path segment, without
/// its query and fragment. `None` for text that is no such URL.
pub(crate) fn url_parts(given: &str) -> Option<Vec<&str>> {
    let rest = given
        .strip_prefix("https://")
        .or_else(|| given.strip_prefix("http://"))?;
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    Some(rest.split('/').collect())
}

/// `part` as a host in its one spelling (lower case), or the error naming it.
pub(crate) fn check_host(given: &str, part: &str) -> Result<String, RefError> {
    let host = part.to_ascii_lowercase();
    if is_host(&host) {
        Ok(host)
    } else {
        // `github.com@evil.example` is evil.example with a user name: say so rather than guess.
        Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("{host:?} is not a host name (letters, digits, dots, dashes, a :port)"),
        })
    }
}

/// A pull request's number: a whole number above zero. `what` names it in the error (`pull
/// request`, `merge request`).
pub(crate) fn check_number(given: &str, what: &str, text: &str) -> Result<u64, RefError> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("`{text}` is not a {what} number"),
        }),
    }
}

/// `HOST` or `HOST:PORT`, nothing else a URL's authority may hold (user names, brackets).
pub(crate) fn is_host(host: &str) -> bool {
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
pub(crate) fn check_name(given: &str, what: &str, name: &str) -> Result<(), RefError> {
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
        assert_eq!(
            url_parts("https://h.example/o/r/pull/3/files?x=1#c"),
            Some(vec!["h.example", "o", "r", "pull", "3", "files"])
        );
        assert_eq!(url_parts("o/r#3"), None);
        assert_eq!(
            check_host("u", "Git.Example:3000").unwrap(),
            "git.example:3000"
        );
        assert!(check_host("u", "a@evil.example").is_err());
        assert_eq!(check_number("u", "pull request", "12"), Ok(12));
        assert_eq!(
            check_number("u", "merge request", "0")
                .unwrap_err()
                .to_string(),
            "`u`: `0` is not a merge request number"
        );
    }
}
