//! The forge token on its way to `git fetch`: never in argv, never in output, never in an error.

pub use crate::pr::token::Token;

/// Scrubs `text` of `token` when there is one.
pub(crate) fn scrub(text: &str, token: Option<&Token>) -> String {
    match token {
        Some(token) => token.scrub(text),
        None => text.to_string(),
    }
}

/// Credentials written into a URL (`https://user:secret@host/...`) are replaced, so a URL can
/// be shown in an error.
pub(crate) fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_redact() {
        let token = Token::new("ghp_secret123").unwrap();
        assert_eq!(format!("{token:?}"), "Token(***)");
        assert_eq!(format!("{token}"), "***");
        assert_eq!(format!("{:?}", Some(token.clone())), "Some(Token(***))");
    }

    #[test]
    fn scrub_removes_raw_and_encoded_forms() {
        let token = Token::new("ghp_secret123").unwrap();
        let header = token.basic_auth_header();
        let text = format!("fatal: bad ghp_secret123 in {header} (ghp_secret123)");
        let scrubbed = token.scrub(&text);
        assert!(!scrubbed.contains("ghp_secret123"), "{scrubbed}");
        assert!(!scrubbed.contains(&header["Authorization: Basic ".len()..]));
        assert_eq!(scrubbed, "fatal: bad *** in Authorization: Basic *** (***)");
        assert_eq!(scrub("plain", None), "plain");
    }

    #[test]
    fn url_credentials_are_redacted() {
        assert_eq!(
            redact_url("https://x-access-token:abc@github.com/o/r.git"),
            "https://***@github.com/o/r.git"
        );
        assert_eq!(
            redact_url("https://github.com/o/r.git"),
            "https://github.com/o/r.git"
        );
        assert_eq!(redact_url("/local/path"), "/local/path");
    }
}
