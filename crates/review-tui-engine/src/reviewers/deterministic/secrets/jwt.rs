//! Whether a JSON Web Token found in test or example code looks issued by a service, or is a
//! sample.
//!
//! Tests of JWT handling carry tokens by the dozen (go-playground/validator #783:
//! `{"alg":"HS256"}.{"name":"gopher"}`; jwt.io's `{"sub":"1234567890","name":"John Doe"}`;
//! golang-jwt's examples `{"foo":"bar","iss":"test","aud":"single"}` and its parser table's
//! `{"aud":["test",1]}`). A token a real service issued says where it came from: OpenID
//! Connect requires the issuer to be an `https` URL (Google, Auth0, Firebase, Azure AD,
//! Cognito, Supabase's `https://<ref>.supabase.co/auth/v1`, a cluster's
//! `https://kubernetes.default.svc`), and audiences are the URLs or host names of the APIs it
//! opens. A bare word (`test`, `single`) names no place a token could be used. Outside test
//! and example code every token is reported, and redaction takes every token out of what
//! leaves, sample or not.

/// Whether the token's payload names an issuer or an audience by a URL or host name that is
/// not reserved for examples or this machine, and has not expired. A payload that is not a
/// JSON object is no token any service accepts (a parser's malformed-input cases), and a
/// token whose `exp` is past opens nothing, whoever issued it (golang-jwt #279: an example's
/// expected output, `{"iss":"test","exp":1516239022}`, January 2018).
pub(super) fn issued_by_a_service(token: &str) -> bool {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    issued_and_live_at(token, now)
}

/// [`issued_by_a_service`] at the time `now` (seconds since the Unix epoch).
fn issued_and_live_at(token: &str, now: u64) -> bool {
    let Some(json) = token.split('.').nth(1).and_then(crate::base64::decode_url) else {
        return false;
    };
    let Ok(serde_json::Value::Object(claims)) = serde_json::from_slice::<serde_json::Value>(&json)
    else {
        return false;
    };
    let expired = claims
        .get("exp")
        .and_then(serde_json::Value::as_f64)
        .is_some_and(|exp| exp < now as f64);
    let names_a_place = |claim: &str| match claims.get(claim) {
        Some(serde_json::Value::String(value)) => a_real_place(value),
        Some(serde_json::Value::Array(values)) => values
            .iter()
            .filter_map(serde_json::Value::as_str)
            .any(a_real_place),
        _ => false,
    };
    !expired && (names_a_place("iss") || names_a_place("aud"))
}

/// A URL or a host name (`https://auth.acme.io/`, `securetoken.google.com/project`,
/// `api.acme.io`) whose host is not one RFC 2606 and RFC 6761 reserve for examples, tests or
/// this machine (`example.com`, `*.test`, `*.invalid`, `localhost`, `127.0.0.1`).
fn a_real_place(value: &str) -> bool {
    let value = value.trim().to_ascii_lowercase();
    let rest = value
        .split_once("://")
        .map_or(value.as_str(), |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    let host = host.trim_end_matches('.');
    let labels: Vec<&str> = host.split('.').collect();
    // Top-level domains are letters: `1.0` is a version, not a host.
    let top = labels.last().copied().unwrap_or_default();
    let valid = labels.len() >= 2
        && top.chars().any(|c| c.is_ascii_alphabetic())
        && labels.iter().all(|label| {
            !label.is_empty()
                && label
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        });
    let reserved_top = ["test", "example", "invalid", "localhost", "local"];
    let reserved_domain = ["example.com", "example.org", "example.net"];
    let domain = labels[labels.len().saturating_sub(2)..].join(".");
    valid && !reserved_top.contains(&top) && !reserved_domain.contains(&domain.as_str())
}

#[cfg(test)]
mod tests {
    use super::{a_real_place, issued_and_live_at, issued_by_a_service};

    /// A token with `claims` as its payload (the signature is made up).
    fn token(claims: &str) -> String {
        let claims = crate::base64::encode(claims.as_bytes());
        let claims = claims
            .trim_end_matches('=')
            .replace('+', "-")
            .replace('/', "_");
        format!("eyJhbGciOiJIUzI1NiJ9.{claims}.c2lnbmF0dXJlLXNpZ25hdHVyZQ")
    }

    #[test]
    fn samples_name_no_issuer_or_audience() {
        // validator #783's test table and jwt.io's example.
        assert!(!issued_by_a_service(
            "eyJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiZ29waGVyIn0.O_bROM_szPq9qBql-XDHMranHwP48ODdoLICWzqBr_U"
        ));
        assert!(!issued_by_a_service(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
        ));
        // A payload that is no JSON object is no token a service accepts.
        assert!(!issued_by_a_service(
            "eyJhbGciOiJIUzI1NiJ9.ey!!notbase64.sig"
        ));
        assert!(!issued_by_a_service("eyJhbGciOiJIUzI1NiJ9"));
    }

    #[test]
    fn an_issuer_or_audience_named_by_a_word_is_a_sample() {
        // golang-jwt's examples and its parser table (HS256 with the tests' own key).
        assert!(!issued_by_a_service(&token(
            r#"{"foo":"bar","iss":"test","aud":"single"}"#
        )));
        assert!(!issued_by_a_service(&token(r#"{"aud":["test",1]}"#)));
        // Hosts reserved for examples, tests and this machine name no service either.
        for place in [
            "https://example.com/",
            "https://auth.example.org",
            "http://localhost:8080/realms/test",
            "https://issuer.test",
            "https://127.0.0.1:9000",
            "1.0",
        ] {
            assert!(!a_real_place(place), "{place}");
        }
    }

    #[test]
    fn an_issuer_or_audience_at_a_real_host_is_a_service_token() {
        assert!(issued_by_a_service(&token(
            r#"{"iss":"https://auth.acme.io/","sub":"svc-deploy"}"#
        )));
        assert!(issued_by_a_service(&token(
            r#"{"iss":"supabase","aud":["https://abcdefghijklmnop.supabase.co"]}"#
        )));
        for place in [
            "https://securetoken.google.com/my-project",
            "accounts.google.com",
            "https://login.microsoftonline.com/tenant/v2.0",
            "https://kubernetes.default.svc",
        ] {
            assert!(a_real_place(place), "{place}");
        }
    }

    #[test]
    fn an_expired_token_is_a_sample_whoever_issued_it() {
        let expired = token(r#"{"iss":"https://auth.acme.io/","exp":1516239022}"#);
        assert!(!issued_and_live_at(&expired, 1_516_239_023));
        // The same token before it expired was live.
        assert!(issued_and_live_at(&expired, 1_516_239_021));
        assert!(!issued_by_a_service(&expired));
    }
}
