//! Ruby: read from tags; dynamic dispatch keeps changes to warnings.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::parse::grammar::Grammar;

pub(crate) static RUBY: Tagged = Tagged {
    grammars: &[Grammar::Ruby],
    reading: TagReading {
        name: "Ruby",
        removals_proven: false,
    },
    scope: every_file,
    manifests: &[],
};
