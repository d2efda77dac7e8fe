//! go.mod: the module path names the package and carries its major version (`/v2`); the
//! numbered versions are the repository's tags.

use crate::api::lang::{Manifest, Versioning};
use crate::api::visibility::Read;

pub(crate) static MANIFESTS: &[Manifest] = &[Manifest {
    file: "go.mod",
    names,
    version: module,
    versioning: Versioning::ModulePath,
}];

fn names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(module) = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("module "))
        .map(|m| m.trim().trim_matches('"'))
    {
        names.push(module.to_string());
        let mut parts = module.rsplit('/');
        let last = parts.next().unwrap_or(module);
        let is_major = last
            .strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        names.extend(if is_major { parts.next() } else { Some(last) }.map(str::to_string));
    }
    names
}

/// The module path: its major suffix is the version a break must change.
fn module(text: &str, _root: &str, _read: Read) -> Option<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("module "))
        .map(|m| m.trim().to_string())
}
