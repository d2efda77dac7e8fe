//! Dart: read from tags; a leading `_` is private, and a package's API is its `lib/` folder.

use super::tagged::Tagged;
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) static DART: Tagged = Tagged {
    grammars: &[Grammar::Dart],
    reading: TagReading {
        name: "Dart",
        removals_proven: true,
    },
    scope,
    manifests: &[Manifest {
        file: "pubspec.yaml",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    }],
};

fn scope(path: &str, dirs: &[&str], _source: &str, read: Read) -> Visibility {
    // A package's API is what `lib/` holds; `bin/`, `tool/` and the rest are its programs.
    if dirs.first() != Some(&"lib") {
        return Visibility::NotApi("outside the package's lib/ folder");
    }
    // `lib/src` is the package's own unless its library exports the file.
    if dirs.get(1) != Some(&"src") {
        return Visibility::Exported;
    }
    let inside = path.strip_prefix("lib/").unwrap_or(path);
    let library = read("pubspec.yaml").and_then(|pubspec| {
        let name = pubspec
            .lines()
            .find_map(|l| l.strip_prefix("name:"))?
            .trim()
            .to_string();
        read(&format!("lib/{name}.dart"))
    });
    let exported = library.is_some_and(|library| {
        library.lines().any(|line| {
            let line = line.trim();
            line.starts_with("export ")
                && (line.contains(&format!("'{inside}'"))
                    || line.contains(&format!("\"{inside}\"")))
        })
    });
    if exported {
        Visibility::Exported
    } else {
        Visibility::NotApi("in lib/src and not exported by the package's library")
    }
}
