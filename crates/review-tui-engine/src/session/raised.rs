//! The person's choice, in the publish preview, to post a finding an open thread of someone
//! else already raises (`publish::raised` leaves such findings out by default), or to leave it
//! out again. Kept in the space by fingerprint, so it survives a restart and a new round.

use super::publisher::Publisher;
use super::service::{Session, SessionError};

impl<P: Publisher> Session<P> {
    /// Posts (`include`) or leaves out the finding `fingerprint` though already raised. The
    /// last preview no longer shows what would be posted: it is dropped, so a publish needs
    /// a new one.
    pub fn include_raised(&mut self, fingerprint: &str, include: bool) -> Result<(), SessionError> {
        self.preview = None;
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                if include {
                    state.include_raised.insert(fingerprint.to_string());
                } else {
                    state.include_raised.remove(fingerprint);
                }
                Ok(())
            })
    }
}
