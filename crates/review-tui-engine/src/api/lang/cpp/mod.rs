//! C++: read from tags; overloads and headers keep changes to warnings.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::parse::grammar::Grammar;

pub(crate) static CPP: Tagged = Tagged {
    grammars: &[Grammar::Cpp],
    reading: TagReading {
        name: "C++",
        removals_proven: false,
    },
    scope: every_file,
    manifests: &[],
};
