//! Swift: read from tags; `public` and `open` name the API. Packages carry no version in Package.swift: their tags are it.

use super::tagged::{Tagged, every_file};
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::parse::grammar::Grammar;

pub(crate) static SWIFT: Tagged = Tagged {
    grammars: &[Grammar::Swift],
    reading: TagReading {
        name: "Swift",
        removals_proven: true,
    },
    scope: every_file,
    manifests: &[Manifest {
        file: "Package.swift",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    }],
};
