//! A Cabal package's `NAME.cabal` (any name, in the package's root folder) and hpack's
//! `package.yaml`: the package's name and version as their top-level fields write them.
//! Cabal's field names are case-insensitive (`Name:`, `Version:` in older files).

use crate::api::lang::{Manifest, Versioning};
use crate::api::visibility::Read;

pub(crate) static MANIFESTS: &[Manifest] = &[
    Manifest {
        file: "*.cabal",
        names,
        version,
        versioning: Versioning::Pvp,
    },
    Manifest {
        file: "package.yaml",
        names,
        version,
        versioning: Versioning::Pvp,
    },
];

fn names(text: &str) -> Vec<String> {
    field(text, "name")
        .filter(|name| !name.is_empty())
        .into_iter()
        .collect()
}

fn version(text: &str, _root: &str, _read: Read) -> Option<String> {
    field(text, "version").filter(|v| v.starts_with(|c: char| c.is_ascii_digit()))
}

/// The value of the top-level field `key` (a line at the first column; `cabal-version` is
/// another field), without quotes.
fn field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim_end()
            .eq_ignore_ascii_case(key)
            .then(|| value.trim().trim_matches(['"', '\'']).to_string())
    })
}
