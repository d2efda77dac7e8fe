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

impl<T: Transport, I: Issuer> Client<T, I> {
    pub fn new(transport: T, issuer: I) -> Result<Self, String> {
        let token = issuer.issue()?;
        Ok(Client { transport, issuer, token })
    }

    pub fn get(&mut self, url: &str) -> Response {
        self.transport.get(url, &self.token.value)
    }
}
