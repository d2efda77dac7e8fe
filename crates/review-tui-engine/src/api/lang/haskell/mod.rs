//! Haskell: read from tags; a module's export list names its API. The package's `.cabal` file
//! (or hpack's `package.yaml`) versions it by the Package Versioning Policy.

pub(crate) mod manifest;

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::parse::grammar::Grammar;

pub(crate) static HASKELL: Tagged = Tagged {
    grammars: &[Grammar::Haskell],
    reading: TagReading {
        name: "Haskell",
        removals_proven: true,
    },
    scope: every_file,
    manifests: manifest::MANIFESTS,
};
