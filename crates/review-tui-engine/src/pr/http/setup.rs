//! What every forge's client is built on: the HTTP client itself (this tool's user agent, the
//! call's timeout, how redirects are taken), the token's header value, and endpoints under the
//! API base.

use std::time::Duration;

use reqwest::Url;
use reqwest::header::HeaderValue;

/// An HTTP client whose calls (the answer's body included) end after `timeout`, and whose
/// connection attempts after 10 s. `redirects` is the forge's: one whose token goes in a
/// header of its own takes none, since a redirect could carry that header to another host.
pub(crate) fn http_client(
    timeout: Duration,
    redirects: reqwest::redirect::Policy,
) -> Result<reqwest::Client, reqwest::Error> {
    // reqwest is built without a default crypto provider so the binary picks one; a second
    // install (another client, a test) fails harmlessly.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .user_agent(concat!("review-tui/", env!("CARGO_PKG_VERSION")))
        .timeout(timeout)
        .connect_timeout(Duration::from_secs(10))
        .redirect(redirects)
        .build()
}

/// The header value that carries a token, marked sensitive so that nothing prints it; `None`
/// when the token holds characters a header cannot.
pub(crate) fn secret_header(value: &str) -> Option<HeaderValue> {
    let mut value = HeaderValue::from_str(value).ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// `segments` under the API base `api`, percent-encoded one by one, so that a name can never
/// add path components (`group/project` is one `group%2Fproject` segment).
pub(crate) fn endpoint(api: &Url, segments: &[&str]) -> Url {
    let mut url = api.clone();
    url.path_segments_mut()
        .expect("parse_api_url only accepts http(s) URLs, which have a path")
        .pop_if_empty()
        .extend(segments);
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded_one_by_one_under_the_base() {
        let api = Url::parse("https://git.example/api/v4/").unwrap();
        assert_eq!(
            endpoint(&api, &["projects", "g/p", "merge_requests"]).as_str(),
            "https://git.example/api/v4/projects/g%2Fp/merge_requests"
        );
        assert!(secret_header("token abc").unwrap().is_sensitive());
        assert!(secret_header("line\nbreak").is_none());
    }
}
