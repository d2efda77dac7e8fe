//! Scala: read from tags; `private` and `private[pkg]` are not API.

use super::tagged::{Tagged, every_file};
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::parse::grammar::Grammar;

pub(crate) static SCALA: Tagged = Tagged {
    grammars: &[Grammar::Scala],
    reading: TagReading {
        name: "Scala",
        removals_proven: true,
    },
    scope: every_file,
    manifests: &[Manifest {
        file: "build.sbt",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    }],
};
