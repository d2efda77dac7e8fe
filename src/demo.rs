//! The demo: a small repository with a pull request that has real planted problems (an
//! expired-token retry bug, a hard-coded secret, unchecked errors), built from `assets/demo/`
//! into a directory so a new user sees the whole flow offline.

use std::path::{Path, PathBuf};

use git2::{Repository, Signature, Time};
use serde::Deserialize;
use thiserror::Error;

/// (path inside the repo, contents) of the base branch.
const BASE: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../assets/demo/base/Cargo.toml")),
    ("src/lib.rs", include_str!("../assets/demo/base/src/lib.rs")),
    (
        "src/auth.rs",
        include_str!("../assets/demo/base/src/auth.rs"),
    ),
    (
        "src/client.rs",
        include_str!("../assets/demo/base/src/client.rs"),
    ),
];

/// The pull request's version of the tree.
const PR: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../assets/demo/pr/Cargo.toml")),
    ("src/lib.rs", include_str!("../assets/demo/pr/src/lib.rs")),
    ("src/auth.rs", include_str!("../assets/demo/pr/src/auth.rs")),
    (
        "src/client.rs",
        include_str!("../assets/demo/pr/src/client.rs"),
    ),
    (
        "src/config.rs",
        include_str!("../assets/demo/pr/src/config.rs"),
    ),
    (
        "src/session.rs",
        include_str!("../assets/demo/pr/src/session.rs"),
    ),
];

const MANIFEST: &str = include_str!("../assets/demo/manifest.toml");

/// The model reviewers' recorded session on the demo PR, replayed by `--demo` so the whole flow
/// runs offline. Produced by `tests/it/demo.rs` against the scripted model server; regenerate it
/// with `REVIEW_TUI_UPDATE_CASSETTE=1 cargo test --test it demo::`.
pub const CASSETTE: &str = include_str!("../assets/demo/cassette.json");

#[derive(Debug, Error)]
pub enum DemoError {
    #[error("building the demo repository in {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("building the demo repository: {0}")]
    Git(#[from] git2::Error),
    #[error("the bundled demo manifest is broken: {0}")]
    Manifest(String),
}

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub title: String,
    pub body: String,
    pub author: String,
    pub base_branch: String,
    pub head_branch: String,
}

pub fn manifest() -> Result<Manifest, DemoError> {
    toml::from_str(MANIFEST).map_err(|e| DemoError::Manifest(e.to_string()))
}

/// The demo repository on disk.
#[derive(Debug, Clone)]
pub struct DemoRepo {
    pub path: PathBuf,
    pub manifest: Manifest,
}

impl DemoRepo {
    /// The local PR reference for the demo: `PATH#main..retry-and-sessions`.
    pub fn reference(&self) -> String {
        format!(
            "{}#{}..{}",
            self.path.display(),
            self.manifest.base_branch,
            self.manifest.head_branch
        )
    }
}

/// Builds (or rebuilds, if it already exists with the same commits) the demo repository in
/// `dir`. Commits use fixed authors and dates, so the SHAs — and so the review space — are the
/// same on every machine.
pub fn build(dir: &Path) -> Result<DemoRepo, DemoError> {
    let manifest = manifest()?;
    std::fs::create_dir_all(dir).map_err(|source| DemoError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let repo = match Repository::open(dir) {
        Ok(repo) => repo,
        Err(_) => Repository::init(dir)?,
    };
    let (name, email) = manifest
        .author
        .split_once('@')
        .map(|(user, _)| (user.to_string(), manifest.author.clone()))
        .unwrap_or_else(|| (manifest.author.clone(), manifest.author.clone()));
    let base_time = Time::new(1_764_000_000, 0);
    let head_time = Time::new(1_764_003_600, 0);
    let base = commit_tree(
        &repo,
        BASE,
        None,
        "Token-authenticated client",
        &Signature::new(&name, &email, &base_time)?,
    )?;
    let head = commit_tree(
        &repo,
        PR,
        Some(base),
        &format!("{}\n\n{}", manifest.title, manifest.body.trim()),
        &Signature::new(&name, &email, &head_time)?,
    )?;
    repo.reference(
        &format!("refs/heads/{}", manifest.base_branch),
        base,
        true,
        "demo base",
    )?;
    repo.reference(
        &format!("refs/heads/{}", manifest.head_branch),
        head,
        true,
        "demo head",
    )?;
    repo.set_head(&format!("refs/heads/{}", manifest.head_branch))?;
    repo.checkout_head(Some(git2::build::CheckoutBuilder::new().force()))?;
    Ok(DemoRepo {
        path: dir.canonicalize().map_err(|source| DemoError::Io {
            path: dir.display().to_string(),
            source,
        })?,
        manifest,
    })
}

fn commit_tree(
    repo: &Repository,
    files: &[(&str, &str)],
    parent: Option<git2::Oid>,
    message: &str,
    signature: &Signature<'_>,
) -> Result<git2::Oid, DemoError> {
    let mut index = git2::Index::new()?;
    for (path, contents) in files {
        let blob = repo.blob(contents.as_bytes())?;
        let mut entry = git2::IndexEntry {
            ctime: git2::IndexTime::new(0, 0),
            mtime: git2::IndexTime::new(0, 0),
            dev: 0,
            ino: 0,
            mode: 0o100644,
            uid: 0,
            gid: 0,
            file_size: contents.len() as u32,
            id: blob,
            flags: 0,
            flags_extended: 0,
            path: path.as_bytes().to_vec(),
        };
        entry.flags = (path.len().min(0xfff)) as u16;
        index.add(&entry)?;
    }
    let tree = repo.find_tree(index.write_tree_to(repo)?)?;
    let parents: Vec<git2::Commit<'_>> = parent
        .map(|oid| repo.find_commit(oid))
        .transpose()?
        .into_iter()
        .collect();
    let parent_refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
    Ok(repo.commit(None, signature, signature, message, &tree, &parent_refs)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_builds_the_same_commits_every_time() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let first = build(a.path()).unwrap();
        let second = build(b.path()).unwrap();
        let head = |repo: &DemoRepo| {
            Repository::open(&repo.path)
                .unwrap()
                .revparse_single(&repo.manifest.head_branch)
                .unwrap()
                .id()
        };
        assert_eq!(head(&first), head(&second));
        // Rebuilding in place is idempotent.
        let again = build(a.path()).unwrap();
        assert_eq!(head(&again), head(&first));
        assert!(a.path().join("src/session.rs").is_file());
        assert!(first.reference().ends_with("#main..retry-and-sessions"));
    }

    #[test]
    fn the_pr_changes_what_the_manifest_says() {
        let dir = tempfile::tempdir().unwrap();
        let demo = build(dir.path()).unwrap();
        let repo = Repository::open(&demo.path).unwrap();
        let diff = crate::diff::git::merge_base_diff(&repo, "main", "retry-and-sessions").unwrap();
        let paths: Vec<&str> = diff.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "src/client.rs",
                "src/config.rs",
                "src/lib.rs",
                "src/session.rs"
            ]
        );
    }
}
