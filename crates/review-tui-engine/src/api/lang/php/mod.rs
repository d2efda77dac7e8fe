//! PHP: read from tags; dynamic dispatch keeps changes to warnings.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::parse::grammar::Grammar;

pub(crate) static PHP: Tagged = Tagged {
    grammars: &[Grammar::Php],
    reading: TagReading {
        name: "PHP",
        removals_proven: false,
    },
    scope: every_file,
    manifests: &[],
};
