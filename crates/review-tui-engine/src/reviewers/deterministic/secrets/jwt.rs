//! Whether a JSON Web Token found in test code looks issued by a service, or is a sample.
//!
//! Tests of JWT handling carry tokens by the dozen (go-playground/validator #783:
//! `{"alg":"HS256"}.{"name":"gopher"}`; jwt.io's `{"sub":"1234567890","name":"John Doe"}`).
//! A token a real service issued names who issued it or for whom (`iss`, `aud`: OIDC, Auth0,
//! Firebase, Supabase keys all do). Outside test code every token is reported, and redaction
//! takes every token out of what leaves, sample or not.

/// Whether the token's payload names an issuer or an audience and has not expired, or cannot
/// be read (then it is not known to be a sample and stays a finding). A token whose `exp` is
/// past opens nothing, whoever issued it (golang-jwt #279: an example's expected output,
/// `{"iss":"test","exp":1516239022}`, January 2018).
pub(super) fn issued_by_someone(token: &str) -> bool {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    issued_and_live_at(token, now)
}

/// [`issued_by_someone`] at the time `now` (seconds since the Unix epoch).
fn issued_and_live_at(token: &str, now: u64) -> bool {
    let Some(payload) = token.split('.').nth(1) else {
        return true;
    };
    let Some(json) = crate::base64::decode_url(payload) else {
        return true;
    };
    match serde_json::from_slice::<serde_json::Value>(&json) {
        Ok(serde_json::Value::Object(claims)) => {
            let expired = claims
                .get("exp")
                .and_then(serde_json::Value::as_f64)
                .is_some_and(|exp| exp < now as f64);
            !expired && (claims.contains_key("iss") || claims.contains_key("aud"))
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::{issued_and_live_at, issued_by_someone};

    #[test]
    fn samples_name_no_issuer_or_audience() {
        // validator #783's test table and jwt.io's example.
        assert!(!issued_by_someone(
            "eyJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiZ29waGVyIn0.O_bROM_szPq9qBql-XDHMranHwP48ODdoLICWzqBr_U"
        ));
        assert!(!issued_by_someone(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
        ));
        // A Supabase-style key names its issuer; an unreadable payload is not known to be a
        // sample.
        let claims =
            crate::base64::encode(br#"{"iss":"supabase","ref":"abcd","role":"service_role"}"#);
        let claims = claims
            .trim_end_matches('=')
            .replace('+', "-")
            .replace('/', "_");
        assert!(issued_by_someone(&format!(
            "eyJhbGciOiJIUzI1NiJ9.{claims}.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
        )));
        assert!(issued_by_someone("eyJhbGciOiJIUzI1NiJ9.ey!!notbase64.sig"));
        assert!(issued_by_someone("eyJhbGciOiJIUzI1NiJ9"));
    }

    #[test]
    fn an_expired_token_is_a_sample_whoever_issued_it() {
        // golang-jwt #279's example output: `{"foo":"bar","iss":"test","exp":1516239022}`.
        let expired = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJmb28iOiJiYXIiLCJpc3MiOiJ0ZXN0IiwiZXhwIjoxNTE2MjM5MDIyfQ.xVuY2FZ_MRXMIEgVQ7J-TFtaucVFRXUzHm9LmV41goM";
        assert!(!issued_and_live_at(expired, 1_516_239_023));
        // The same token before it expired was live.
        assert!(issued_and_live_at(expired, 1_516_239_021));
        assert!(!issued_by_someone(expired));
    }
}
