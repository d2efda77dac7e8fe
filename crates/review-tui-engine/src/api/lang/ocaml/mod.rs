//! OCaml: read from tags; with an `.mli` interface beside a module, the interface is its API.

use super::tagged::Tagged;
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) static OCAML: Tagged = Tagged {
    grammars: &[Grammar::OCaml, Grammar::OCamlInterface],
    reading: TagReading {
        name: "OCaml",
        removals_proven: true,
    },
    scope,
    manifests: &[
        Manifest {
            file: "opam",
            names: assigned_name,
            version: assigned_version,
            versioning: Versioning::Semantic,
        },
        // `NAME.opam` (its name is the file's; dune writes it from `dune-project`).
        Manifest {
            file: "*.opam",
            names: assigned_name,
            version: assigned_version,
            versioning: Versioning::Semantic,
        },
        Manifest {
            file: "dune-project",
            names: dune_name,
            version: dune_version,
            versioning: Versioning::Semantic,
        },
    ],
};

/// `(name ppxlib)` in `dune-project`.
fn dune_name(text: &str) -> Vec<String> {
    dune_field(text, "name").into_iter().collect()
}

/// `(version 0.36.0)` in `dune-project`; most leave it to the release tags.
fn dune_version(text: &str, _root: &str, _read: Read) -> Option<String> {
    dune_field(text, "version").filter(|v| v.starts_with(|c: char| c.is_ascii_digit()))
}

/// The value of a top-level `(field value)` stanza.
fn dune_field(text: &str, field: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix('(')?.strip_prefix(field)?;
        let value = rest
            .strip_prefix(char::is_whitespace)?
            .trim()
            .strip_suffix(')')?;
        Some(value.trim().trim_matches('"').to_string())
    })
}

/// With an interface beside it (`x.ml`'s `x.mli`), the interface is the module's API.
fn scope(path: &str, _dirs: &[&str], _source: &str, read: Read) -> Visibility {
    if read(&format!("{path}i")).is_some() {
        return Visibility::NotApi("a module with an .mli interface (its API is there)");
    }
    Visibility::Exported
}
