//! One API call as errors and notices name it.

use std::fmt;

use reqwest::{Method, Url};

/// One API call, as shown in errors and notices: `GET /api/v4/projects/g%2Fp on gitlab.com`.
/// The host is named because a network error means nothing without it (which server did not
/// answer?); the query is left out: it could carry anything. Kept as its rendered text, which
/// also keeps every error small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call(Box<str>);

impl Call {
    /// `host` is `api.github.com`, `ghe.corp`, `127.0.0.1:8080` (the port only when not the
    /// scheme's default).
    pub fn new(method: &str, path: &str, host: &str) -> Call {
        Call(format!("{method} {path} on {host}").into_boxed_str())
    }

    /// A step that is not one HTTP call (finding a thread among the discussions read).
    pub fn named(what: &str) -> Call {
        Call(what.into())
    }

    pub fn of(method: &Method, url: &Url) -> Call {
        let host = url.host_str().unwrap_or("?");
        match url.port() {
            Some(port) => Call::new(method.as_str(), url.path(), &format!("{host}:{port}")),
            None => Call::new(method.as_str(), url.path(), host),
        }
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_named_with_their_host_and_without_the_query() {
        let url = Url::parse("https://api.github.com/repos/o/r/pulls/1/files?per_page=100&page=2")
            .unwrap();
        assert_eq!(
            Call::of(&Method::GET, &url).to_string(),
            "GET /repos/o/r/pulls/1/files on api.github.com"
        );
        let local = Url::parse("http://127.0.0.1:8080/repos/o/r").unwrap();
        assert_eq!(
            Call::of(&Method::GET, &local).to_string(),
            "GET /repos/o/r on 127.0.0.1:8080"
        );
    }
}
