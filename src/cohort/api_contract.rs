//! The apiContract axis: did a public item's signature change or disappear, and does anything
//! else in the repository use it?

use std::collections::{BTreeMap, BTreeSet};

use crate::review::axes::{API_CONTRACT, Axis, AxisVerdict};

use super::changes::{ChangedFile, Reading};
use super::index::SymbolIndex;
use super::stoplist::is_common;
use super::tags::{Definition, FileTags};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Change {
    Removed,
    Changed,
}

/// Compares, per file and per public name whose signature holds a changed line, the public
/// signatures in the base and in the head. Added items are compatible and not listed; an item
/// whose signature text is the same on both sides (moved, re-indented) did not change.
pub fn api_contract(files: &[ChangedFile], index: &SymbolIndex) -> Axis {
    let mut parsed = 0;
    let mut unparsed = Vec::new();
    let mut broken = Vec::new();
    let mut quiet = Vec::new();
    let mut common = Vec::new();
    let mut unindexed = Vec::new();
    for file in files {
        let symbols = match &file.reading {
            Reading::Symbols(symbols) if symbols.base_unknown => {
                unparsed.push(file.path.as_str());
                continue;
            }
            Reading::Symbols(symbols) => symbols,
            Reading::Unparsed { .. } => {
                unparsed.push(file.path.as_str());
                continue;
            }
            Reading::NoGrammar => {
                if may_carry_api(&file.language, &file.path) {
                    unindexed.push(file.path.as_str());
                }
                continue;
            }
        };
        parsed += 1;
        for (name, change) in changes(
            symbols.base.as_ref(),
            symbols.head.as_ref(),
            &file.removed,
            &file.added,
        ) {
            let what = match change {
                Change::Removed => "removed",
                Change::Changed => "signature changed",
            };
            let item = format!("{}: `{name}` {what}", file.path);
            if is_common(&name) {
                common.push(item);
                continue;
            }
            let elsewhere = index
                .referenced_in(&name)
                .into_iter()
                .filter(|path| *path != file.path)
                .count();
            if elsewhere > 0 {
                broken.push(format!("{item}, referenced in {elsewhere} other file(s)"));
            } else {
                quiet.push(item);
            }
        }
    }

    let (verdict, mut detail) = if parsed == 0 && unparsed.is_empty() && unindexed.is_empty() {
        (
            AxisVerdict::Pass,
            "no source file changed (documentation, configuration or data only)".to_string(),
        )
    } else if parsed == 0 && unparsed.is_empty() {
        (
            AxisVerdict::Unavailable,
            format!(
                "no symbol index for {}: their public API was not checked",
                unindexed.join(", ")
            ),
        )
    } else if !broken.is_empty() {
        (
            AxisVerdict::Fail,
            format!("public API broken: {}", broken.join("; ")),
        )
    } else if !unparsed.is_empty() || !unindexed.is_empty() {
        let unchecked: Vec<&str> = unparsed.iter().chain(&unindexed).copied().collect();
        (
            AxisVerdict::Partial,
            format!(
                "could not read, parse or index {} (or its base version): its public API was not checked",
                unchecked.join(", ")
            ),
        )
    } else if !quiet.is_empty() {
        (
            AxisVerdict::Warn,
            format!(
                "public API changed, no other file references it: {}",
                quiet.join("; ")
            ),
        )
    } else if !common.is_empty() {
        (AxisVerdict::Warn, "public API changed".to_string())
    } else {
        (
            AxisVerdict::Pass,
            "no public signature changed or removed".to_string(),
        )
    };
    if !common.is_empty() {
        // A by-name count of `new` or `get` says nothing about who calls this one.
        detail.push_str(&format!(
            "; common names, callers not counted: {}",
            common.join("; ")
        ));
    }
    Axis {
        name: API_CONTRACT.to_string(),
        verdict,
        gated: true,
        detail,
    }
}

/// Whether a file without a symbol index could still carry a public API. Documentation,
/// configuration and data cannot; source in a language we do not index (C, Ruby, Kotlin…) can,
/// and so can any file we cannot classify: not knowing is not a pass.
fn may_carry_api(language: &crate::diff::Language, path: &str) -> bool {
    use crate::diff::Language::*;
    match language {
        Markdown | Toml | Yaml | Json | Dockerfile | Shell => false,
        C | Cpp | Ruby => true,
        Rust | Python | JavaScript | TypeScript | Go | Java => true,
        Other => {
            const NOT_CODE: &[&str] = &[
                "txt",
                "rst",
                "adoc",
                "lock",
                "csv",
                "tsv",
                "svg",
                "png",
                "jpg",
                "jpeg",
                "gif",
                "ico",
                "webp",
                "pdf",
                "ini",
                "cfg",
                "conf",
                "env",
                "xml",
                "html",
                "css",
                "gitignore",
                "gitattributes",
                "editorconfig",
                "license",
            ];
            let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
            let extension = name.rsplit('.').next().unwrap_or(&name);
            let plain = matches!(
                name.as_str(),
                "license" | "copying" | "notice" | "authors" | "codeowners"
            );
            !(plain || NOT_CODE.contains(&extension))
        }
    }
}

fn changes(
    base: Option<&FileTags>,
    head: Option<&FileTags>,
    removed: &BTreeSet<u32>,
    added: &BTreeSet<u32>,
) -> Vec<(String, Change)> {
    let public = |tags: Option<&FileTags>| -> BTreeMap<String, Vec<String>> {
        let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for definition in tags.into_iter().flat_map(|t| t.definitions.iter()) {
            if definition.public {
                by_name
                    .entry(definition.name.clone())
                    .or_default()
                    .push(definition.signature.clone());
            }
        }
        by_name.values_mut().for_each(|sigs| sigs.sort());
        by_name
    };
    let touched = |tags: Option<&FileTags>, rows: &BTreeSet<u32>| -> BTreeSet<String> {
        let holds = |d: &Definition| rows.range(d.signature_rows.0..=d.signature_rows.1).next();
        tags.into_iter()
            .flat_map(|t| t.definitions.iter())
            .filter(|d| d.public && holds(d).is_some())
            .map(|d| d.name.clone())
            .collect()
    };
    let before = public(base);
    let after = public(head);
    let mut names = touched(base, removed);
    names.extend(touched(head, added));
    names
        .into_iter()
        .filter_map(|name| {
            let old = before.get(&name)?;
            match after.get(&name) {
                None => Some((name, Change::Removed)),
                Some(new) if new != old => Some((name, Change::Changed)),
                Some(_) => None,
            }
        })
        .collect()
}
