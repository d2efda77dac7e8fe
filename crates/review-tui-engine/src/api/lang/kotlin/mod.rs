//! Kotlin: read from tags; overloads by type keep changes to warnings.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::parse::grammar::Grammar;

pub(crate) static KOTLIN: Tagged = Tagged {
    grammars: &[Grammar::Kotlin],
    reading: TagReading {
        name: "Kotlin",
        removals_proven: false,
    },
    scope: every_file,
    manifests: &[],
};
