//! Lua: read from tags; a module's API is the table it returns. A rockspec names and versions
//! the package.

pub(crate) mod rockspec;

use super::tagged::{Tagged, every_file};
use super::{Manifest, TagReading, Versioning};
use crate::parse::grammar::Grammar;

pub(crate) static LUA: Tagged = Tagged {
    grammars: &[Grammar::Lua],
    reading: TagReading {
        name: "Lua",
        removals_proven: true,
    },
    scope: every_file,
    manifests: &[Manifest {
        file: "*.rockspec",
        names: rockspec::names,
        version: rockspec::version,
        versioning: Versioning::Semantic,
    }],
};
