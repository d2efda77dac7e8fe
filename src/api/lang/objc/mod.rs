//! Objective-C: read from tags; its API is in headers (read as C).

use super::TagReading;
use super::tagged::Tagged;
use crate::api::visibility::{Read, Visibility};
use crate::cohort::grammar::Grammar;

pub static OBJECTIVE_C: Tagged = Tagged {
    grammars: &[Grammar::ObjectiveC],
    reading: TagReading {
        name: "Objective-C",
        removals_proven: false,
    },
    scope,
    manifests: &[],
};

/// Headers (`.h`, read as C) declare an Objective-C class's API; an implementation file
/// (`.m`) defines it and its class extensions are private.
fn scope(_path: &str, _dirs: &[&str], _source: &str, _read: Read) -> Visibility {
    Visibility::NotApi("an implementation file (its API is in headers)")
}
