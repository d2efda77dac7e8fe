//! Lua: read from tags; a module's API is the table it returns.

use super::TagReading;
use super::tagged::{Tagged, every_file};
use crate::cohort::grammar::Grammar;

pub static LUA: Tagged = Tagged {
    grammars: &[Grammar::Lua],
    reading: TagReading {
        name: "Lua",
        removals_proven: true,
    },
    scope: every_file,
    manifests: &[],
};
