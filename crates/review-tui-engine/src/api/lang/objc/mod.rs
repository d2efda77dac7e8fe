//! Objective-C: read from tags; its API is in headers (read as C).

pub(crate) mod header;

use super::TagReading;
use super::tagged::Tagged;
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) static OBJECTIVE_C: Tagged = Tagged {
    grammars: &[Grammar::ObjectiveC],
    reading: TagReading {
        name: "Objective-C",
        removals_proven: false,
    },
    scope,
    manifests: &[],
};

/// Headers (`.h`, read as C) declare an Objective-C class's API; an implementation file
/// (`.m`) defines it and its class extensions are private.
fn scope(_path: &str, _dirs: &[&str], _source: &str, _read: Read) -> Visibility {
    Visibility::NotApi("an implementation file (its API is in headers)")
}

/// Whether an Objective-C header is public, as the build settings say: under a SwiftPM
/// target's `include/` (or its `publicHeadersPath`), a framework's `Headers/`, a folder named
/// `Public`, it is; under `Private`/`Internal`, or named `*+Private.h`/`*_Private.h`, it is
/// not. Otherwise it is undecided: read, never a proven removal.
pub(crate) fn header_scope(path: &str, dirs: &[&str], read: Read) -> Visibility {
    let file = path.rsplit('/').next().unwrap_or(path);
    let private = |d: &str| {
        let d = d.to_ascii_lowercase();
        d.starts_with("private") || d.starts_with("internal")
    };
    if file.ends_with("+Private.h")
        || file.ends_with("_Private.h")
        || dirs.iter().any(|d| private(d))
    {
        return Visibility::NotApi("a private Objective-C header");
    }
    let named_public = dirs
        .iter()
        .any(|d| matches!(*d, "include" | "Headers" | "Public" | "PublicHeaders"));
    if named_public || under_public_headers_path(dirs, read) {
        return Visibility::Exported;
    }
    Visibility::Undecided("an Objective-C header its build settings do not call public")
}

/// Whether `dirs` run through a `publicHeadersPath` the root Package.swift names.
fn under_public_headers_path(dirs: &[&str], read: Read) -> bool {
    let Some(manifest) = read("Package.swift") else {
        return false;
    };
    manifest
        .split("publicHeadersPath:")
        .skip(1)
        .filter_map(|rest| rest.split('"').nth(1))
        .map(|p| p.trim_matches('/'))
        .filter(|p| !p.is_empty() && *p != ".")
        .any(|p| {
            let wanted: Vec<&str> = p.split('/').collect();
            dirs.windows(wanted.len()).any(|w| w == wanted.as_slice())
        })
}
