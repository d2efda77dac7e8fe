//! OCaml: read from tags; with an `.mli` interface beside a module, the interface is its API.

use super::tagged::Tagged;
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::api::visibility::{Read, Visibility};
use crate::cohort::grammar::Grammar;

pub static OCAML: Tagged = Tagged {
    grammars: &[Grammar::OCaml, Grammar::OCamlInterface],
    reading: TagReading {
        name: "OCaml",
        removals_proven: true,
    },
    scope,
    manifests: &[Manifest {
        file: "opam",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    }],
};

/// With an interface beside it (`x.ml`'s `x.mli`), the interface is the module's API.
fn scope(path: &str, _dirs: &[&str], _source: &str, read: Read) -> Visibility {
    if read(&format!("{path}i")).is_some() {
        return Visibility::NotApi("a module with an .mli interface (its API is there)");
    }
    Visibility::Exported
}
