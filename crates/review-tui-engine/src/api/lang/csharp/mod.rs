//! C#: read from tags; overloads by type keep changes to warnings.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::parse::grammar::Grammar;

pub(crate) static CSHARP: Tagged = Tagged {
    grammars: &[Grammar::CSharp],
    reading: TagReading {
        name: "C#",
        removals_proven: false,
    },
    scope: every_file,
    manifests: &[],
};
