//! Maven's pom.xml and Gradle's build files: the project's name and version.

use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::api::lang::{Manifest, Versioning};
use crate::api::visibility::Read;

pub(crate) static MANIFESTS: &[Manifest] = &[
    Manifest {
        file: "pom.xml",
        names: pom_names,
        version: pom_project_version,
        versioning: Versioning::Semantic,
    },
    Manifest {
        file: "build.gradle",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    },
    Manifest {
        file: "build.gradle.kts",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    },
];

/// The project's own artifactId, and its parent's: a multi-module build is released, and
/// tagged, as the parent.
fn pom_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let artifact = |text: &str| {
        let start = text.find("<artifactId>")? + "<artifactId>".len();
        let end = text[start..].find("</artifactId>")? + start;
        Some(text[start..end].trim().to_string())
    };
    match (text.find("<parent>"), text.find("</parent>")) {
        (Some(a), Some(b)) if a < b => {
            names.extend(artifact(&format!("{}{}", &text[..a], &text[b..])));
            names.extend(artifact(&text[a..b]));
        }
        _ => names.extend(artifact(text)),
    }
    // An artifactId carrying its major version (`commons-collections4`, released as
    // `commons-collections-4.4`): tags name the project without it.
    let unversioned: Vec<String> = names
        .iter()
        .filter_map(|name| {
            let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
            (stem.len() < name.len() && stem.ends_with(|c: char| c.is_ascii_alphabetic()))
                .then(|| stem.to_string())
        })
        .collect();
    names.extend(unversioned);
    names
}

/// The project's own version, or else its parent's, which a module without one inherits
/// (guice's `core/pom.xml`); never a dependency's or a plugin's.
fn pom_project_version(text: &str, _root: &str, _read: Read) -> Option<String> {
    pom_version(text, &["project"]).or_else(|| pom_version(text, &["project", "parent"]))
}

/// The text of the first `<version>` element directly inside the elements `path` (from the
/// root) of a Maven POM. Comments, declarations and self-closed elements are skipped; the
/// scan is of tags, not a full XML parse.
fn pom_version(text: &str, path: &[&str]) -> Option<String> {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.split_once("-->").map_or("", |(_, after)| after);
            continue;
        }
        let end = rest.find('>')?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(closed) = tag.strip_prefix('/') {
            if open.last() == Some(&closed.trim()) {
                open.pop();
            }
            continue;
        }
        let name = tag.split_whitespace().next().unwrap_or("");
        if name == "version" && open == path {
            let value = &rest[..rest.find("</version>")?];
            return Some(value.trim().to_string()).filter(|v| !v.is_empty());
        }
        open.push(name);
    }
    None
}
