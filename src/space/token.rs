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

/// Standard base64 with padding (RFC 4648); small enough not to warrant a dependency.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected);
        }
    }

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
