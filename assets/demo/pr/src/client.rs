use crate::auth::{Issuer, Token};

pub struct Response {
    pub status: u16,
    pub body: String,
}

pub trait Transport {
    fn get(&self, url: &str, bearer: &str) -> Response;
}

pub struct Client<T: Transport, I: Issuer> {
    transport: T,
    issuer: I,
    token: Token,
}

/// How many times a request is tried before giving up.
const ATTEMPTS: usize = 3;

impl<T: Transport, I: Issuer> Client<T, I> {
    pub fn new(transport: T, issuer: I) -> Result<Self, String> {
        let token = issuer.issue()?;
        Ok(Client { transport, issuer, token })
    }

    pub fn get(&mut self, url: &str) -> Response {
        self.transport.get(url, &self.token.value)
    }

    /// Retries on 401 after refreshing the token, and on 5xx.
    pub fn get_with_retry(&mut self, url: &str) -> Response {
        let bearer = self.token.value.clone();
        let mut response = self.transport.get(url, &bearer);
        for _ in 1..ATTEMPTS {
            match response.status {
                401 => {
                    self.token = self.issuer.issue().unwrap();
                }
                500..=599 => {}
                _ => return response,
            }
            response = self.transport.get(url, &bearer);
        }
        response
    }
}
