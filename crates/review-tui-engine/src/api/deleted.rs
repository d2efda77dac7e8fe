//! A package deleted whole from the repository (its manifest and its files, replaced by a
//! dependency) publishes no new version: its released versions stay as they were, so nothing
//! its users have breaks. Its files' removals are withdrawn, like a package made unpublished,
//! not compared.
//!
//! A deleted manifest alone proves nothing: the code may have moved under another manifest of
//! the same package, whose next version still answers to its users. So the package counts as
//! deleted only when no manifest of its language at the head gives any of its names, and every doubt
//! (no head commit to list, a manifest that cannot be read) answers "still published".

use std::cell::RefCell;
use std::collections::HashMap;

use crate::parse::grammar::Grammar;

use super::lang::Manifest;
use super::sources::Sources;
use super::version::{Files, Owner, owner_of};

/// Packages deleted whole, each decided once by its manifest at the base: a change that
/// deletes a package deletes all its files, and each would walk the head's tree.
pub(crate) struct DeletedPackages<'s> {
    sources: &'s Sources<'s>,
    /// The paths the change touches (a manifest not yet committed is read from the worktree).
    changed: Vec<&'s str>,
    decided: RefCell<HashMap<(String, Grammar), Option<String>>>,
}

impl<'s> DeletedPackages<'s> {
    pub(crate) fn new(sources: &'s Sources<'s>, changed: Vec<&'s str>) -> Self {
        DeletedPackages {
            sources,
            changed,
            decided: RefCell::default(),
        }
    }

    /// Why the file at `path`, deleted at the head, no longer publishes anything: its
    /// package's manifest at the base is gone at the head and no manifest there names the
    /// package.
    pub(crate) fn withdrawn(&self, path: &str, grammar: Grammar) -> Option<String> {
        let sources = self.sources;
        let read_base = |p: &str| sources.base(p);
        let list_base = |dir: &str| sources.base_names(dir);
        let base = Files {
            read: &read_base,
            list: &list_base,
        };
        let owner = owner_of(path, grammar, base)?;
        let key = (owner.manifest.clone(), grammar);
        if let Some(known) = self.decided.borrow().get(&key) {
            return known.clone();
        }
        let why = self.decide(&owner, grammar);
        self.decided.borrow_mut().insert(key, why.clone());
        why
    }

    fn decide(&self, owner: &Owner, grammar: Grammar) -> Option<String> {
        let sources = self.sources;
        if sources.head(&owner.manifest).is_some() {
            return None;
        }
        // Any manifest of the language may publish the name (a `pyproject.toml` replaced by a
        // `setup.py` elsewhere).
        let kinds = super::lang::of(grammar)?.manifests();
        let is_any = |path: &str| kinds.iter().find(|kind| is_manifest(kind, path));
        let mut at_head: Vec<(String, &Manifest)> = manifests_at_head(&is_any, sources)?;
        at_head.extend(
            self.changed
                .iter()
                .filter_map(|path| Some((path.to_string(), is_any(path)?))),
        );
        let still_named = at_head.iter().any(|(manifest, kind)| {
            sources.head(manifest).is_some_and(|text| {
                (kind.names)(&text)
                    .iter()
                    .any(|name| owner.names.contains(name))
            })
        });
        (!still_named).then(|| {
            format!(
                "its package {} was deleted with {}",
                owner.names.join(", "),
                owner.manifest
            )
        })
    }
}

/// Whether the file at `path` is a manifest of kind `kind` by its name.
pub(super) fn is_manifest(kind: &Manifest, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match kind.file.strip_prefix('*') {
        Some(extension) => name.len() > extension.len() && name.ends_with(extension),
        None => name == kind.file,
    }
}

/// The head commit's files that `is_any` takes for a manifest, with its kind; `None` when the
/// head commit's tree cannot be read.
fn manifests_at_head<'k>(
    is_any: &dyn Fn(&str) -> Option<&'k Manifest>,
    sources: &Sources<'_>,
) -> Option<Vec<(String, &'k Manifest)>> {
    let (repo, _) = sources.base_commit()?;
    let tree = repo.find_commit(sources.head_commit()?).ok()?.tree().ok()?;
    let mut found = Vec::new();
    tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
        if entry.kind() == Some(git2::ObjectType::Blob)
            && let Ok(name) = entry.name()
            && let Some(kind) = is_any(name)
        {
            found.push((format!("{dir}{name}"), kind));
        }
        git2::TreeWalkResult::Ok
    })
    .ok()?;
    Some(found)
}
