use std::time::{Duration, SystemTime};

/// A bearer token and the moment it stops being accepted.
#[derive(Debug, Clone)]
pub struct Token {
    pub value: String,
    pub expires_at: SystemTime,
}

impl Token {
    pub fn is_expired(&self, now: SystemTime) -> bool {
        now >= self.expires_at
    }
}

/// Issues tokens; in production this talks to the identity service.
pub trait Issuer {
    fn issue(&self) -> Result<Token, String>;
}

pub fn lifetime() -> Duration {
    Duration::from_secs(15 * 60)
}
