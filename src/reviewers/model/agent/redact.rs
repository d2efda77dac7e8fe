//! The hook through which every text bound for a provider passes first. The secret scanner
//! plugs in here; the agent loop calls it on the brief, the context and every tool result.

/// Returns `text` with anything that must not leave the machine replaced.
pub trait Redactor: Send + Sync {
    fn redact(&self, text: &str) -> String;
}

impl<F> Redactor for F
where
    F: Fn(&str) -> String + Send + Sync,
{
    fn redact(&self, text: &str) -> String {
        self(text)
    }
}

/// Sends text as is. Only for tests and for providers that never leave the machine.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRedaction;

impl Redactor for NoRedaction {
    fn redact(&self, text: &str) -> String {
        text.to_owned()
    }
}
