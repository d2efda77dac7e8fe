//! Whether a JSON Web Token found in test code looks issued by a service, or is a sample.
//!
//! Tests of JWT handling carry tokens by the dozen (go-playground/validator #783:
//! `{"alg":"HS256"}.{"name":"gopher"}`; jwt.io's `{"sub":"1234567890","name":"John Doe"}`).
//! A token a real service issued names who issued it or for whom (`iss`, `aud`: OIDC, Auth0,
//! Firebase, Supabase keys all do). Outside test code every token is reported, and redaction
//! takes every token out of what leaves, sample or not.

/// Whether the token's payload names an issuer or an audience, or cannot be read (then it is
/// not known to be a sample and stays a finding).
pub fn issued_by_someone(token: &str) -> bool {
    let Some(payload) = token.split('.').nth(1) else {
        return true;
    };
    let Some(json) = crate::base64::decode_url(payload) else {
        return true;
    };
    match serde_json::from_slice::<serde_json::Value>(&json) {
        Ok(serde_json::Value::Object(claims)) => {
            claims.contains_key("iss") || claims.contains_key("aud")
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::issued_by_someone;

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
}
