//! The person's override of a gated axis (`review::axis_override`), kept in the space so it
//! survives a restart; only the cockpit's `x` on the axis's reason row sends it.

use super::publisher::Publisher;
use super::service::{Session, SessionError};
use crate::review::axis_override::AxisOverride;

impl<P: Publisher> Session<P> {
    /// Sets the override of `axis` (replacing one made before) or takes it back (`None`). The
    /// last preview no longer shows what would be posted: it is dropped.
    pub fn override_axis(
        &mut self,
        axis: &str,
        over: Option<AxisOverride>,
    ) -> Result<(), SessionError> {
        self.preview = None;
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                state.axis_overrides.retain(|o| o.axis != axis);
                state.axis_overrides.extend(over);
                Ok(())
            })
    }
}
