//! Zig: read from tags; `pub` names the API.

use super::tagged::{Tagged, every_file};
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::parse::grammar::Grammar;

pub(crate) static ZIG: Tagged = Tagged {
    grammars: &[Grammar::Zig],
    reading: TagReading {
        name: "Zig",
        removals_proven: true,
    },
    scope: every_file,
    manifests: &[Manifest {
        file: "build.zig.zon",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    }],
};
