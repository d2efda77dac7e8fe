//! C (and Objective-C headers): read from tags; a header elsewhere may decide what is public, so changes only warn.

use super::TagReading;
use super::tagged::Tagged;
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) static C: Tagged = Tagged {
    grammars: &[Grammar::C],
    reading: TagReading {
        name: "C",
        removals_proven: false,
    },
    scope,
    manifests: &[],
};

/// Every C file carries an API; a header declaring Objective-C does where its build settings
/// make it public (see [`super::objc::header_scope`]).
fn scope(path: &str, dirs: &[&str], source: &str, read: Read) -> Visibility {
    if path.ends_with(".h") && super::objc::header::declares_objective_c(source.as_bytes()) {
        return super::objc::header_scope(path, dirs, read);
    }
    Visibility::Exported
}
