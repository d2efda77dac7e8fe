//! C (and Objective-C headers): read from tags; a header elsewhere may decide what is public, so changes only warn.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::cohort::grammar::Grammar;

pub static C: Tagged = Tagged {
    grammars: &[Grammar::C],
    reading: TagReading {
        name: "C",
        removals_proven: false,
    },
    scope: every_file,
    manifests: &[],
};
