//! The demo: a small repository with a pull request that has real planted problems (an
//! expired-token retry bug, a hard-coded secret, unchecked errors), built from `assets/demo/`
//! into a directory so a new user sees the whole flow offline.

use std::path::{Path, PathBuf};

use git2::{Repository, Signature, Time};
use serde::Deserialize;
use thiserror::Error;

/// (path inside the repo, contents) of the base branch.
const BASE: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("../../../assets/demo/base/Cargo.toml"),
    ),
    (
        "src/lib.rs",
        include_str!("../../../assets/demo/base/src/lib.rs"),
    ),
    (
        "src/auth.rs",
        include_str!("../../../assets/demo/base/src/auth.rs"),
    ),
    (
        "src/client.rs",
        include_str!("../../../assets/demo/base/src/client.rs"),
    ),
];

/// The pull request's version of the tree.
const PR: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("../../../assets/demo/pr/Cargo.toml"),
    ),
    (
        "src/lib.rs",
        include_str!("../../../assets/demo/pr/src/lib.rs"),
    ),
    (
        "src/auth.rs",
        include_str!("../../../assets/demo/pr/src/auth.rs"),
    ),
    (
        "src/client.rs",
        include_str!("../../../assets/demo/pr/src/client.rs"),
    ),
    (
        "src/config.rs",
        include_str!("../../../assets/demo/pr/src/config.rs"),
    ),
    (
        "src/session.rs",
        include_str!("../../../assets/demo/pr/src/session.rs"),
    ),
];

const MANIFEST: &str = include_str!("../../../assets/demo/manifest.toml");

/// The model reviewers' recorded session on the demo PR, replayed by `--demo` so the whole flow
/// runs offline. Produced by `tests/it/demo.rs` against the scripted model server; regenerate it
/// with `REVIEW_TUI_UPDATE_CASSETTE=1 cargo test --test it demo::`.
pub const CASSETTE: &str = include_str!("../../../assets/demo/cassette.json");

/// The review room's recorded answers on the demo PR: to the first question on engineer-1 and
/// on qa-2 (whose answer proposes to withdraw it), and to the first question about the whole
/// change. Written by hand in the cassette format, keyed by what is asked about.
pub const ANSWERS: &str = include_str!("../../../assets/demo/answers.json");

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

/// The file, written last into a finished demo repository's git directory (not its working
/// tree, where it would be an uncommitted file), that names what it was built from.
fn built_marker(dir: &Path) -> PathBuf {
    dir.join(".git").join("review-tui-demo")
}

/// What the bundled demo is made of: a demo repository built from anything else is rebuilt.
fn fingerprint() -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (MANIFEST, BASE, PR).hash(&mut hasher);
    format!("{} {:016x}\n", env!("CARGO_PKG_VERSION"), hasher.finish())
}

/// Builds the demo repository in `dir`, or keeps the one there when it was finished from the
/// same bundle. Commits use fixed authors and dates, so the SHAs — and so the review space —
/// are the same on every machine. A build happens in a sibling directory renamed into place
/// when finished: a process killed while building (git's `HEAD.lock` and `refs/*.lock` left
/// behind made every later `--demo` fail) leaves only a leftover the next build clears.
pub fn build(dir: &Path) -> Result<DemoRepo, DemoError> {
    let manifest = manifest()?;
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| DemoError::Io { path, source }
    };
    let expected = fingerprint();
    let finished = |dir: &Path| {
        std::fs::read_to_string(built_marker(dir)).is_ok_and(|built| built == expected)
    };
    if !finished(dir) {
        let parent = dir.parent().unwrap_or(Path::new("."));
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "demo".into());
        std::fs::create_dir_all(parent).map_err(io(parent))?;
        // Leftovers of builds killed midway, this process's own included.
        let leftover = format!(".{name}.building-");
        if let Ok(entries) = std::fs::read_dir(parent) {
            for entry in entries.flatten() {
                if entry.file_name().to_string_lossy().starts_with(&leftover) {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let staging = parent.join(format!("{leftover}{}", std::process::id()));
        write_repo(&staging, &manifest)?;
        std::fs::write(built_marker(&staging), &expected).map_err(io(&staging))?;
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(io(dir))?;
        }
        if let Err(source) = std::fs::rename(&staging, dir) {
            // Another demo finished first: its build is as good as ours.
            let _ = std::fs::remove_dir_all(&staging);
            if !finished(dir) {
                return Err(DemoError::Io {
                    path: dir.display().to_string(),
                    source,
                });
            }
        }
    }
    Ok(DemoRepo {
        path: dir.canonicalize().map_err(io(dir))?,
        manifest,
    })
}

/// Writes the demo repository into the new directory `dir`.
fn write_repo(dir: &Path, manifest: &Manifest) -> Result<(), DemoError> {
    std::fs::create_dir_all(dir).map_err(|source| DemoError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let repo = Repository::init(dir)?;
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
    Ok(())
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

    #[test]
    fn a_demo_build_killed_midway_leaves_nothing_that_stops_the_next() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("acme-client");
        // What a kill during the old in-place build left: a repository with git's locks and
        // no finished marker, and a staging directory of a killed build.
        let half = Repository::init(&dir).unwrap();
        std::fs::write(half.path().join("HEAD.lock"), "").unwrap();
        std::fs::create_dir_all(half.path().join("refs/heads")).unwrap();
        std::fs::write(half.path().join("refs/heads/main.lock"), "").unwrap();
        let leftover = root.path().join(".acme-client.building-4242");
        std::fs::create_dir_all(leftover.join(".git")).unwrap();
        let demo = build(&dir).unwrap();
        let repo = Repository::open(&demo.path).unwrap();
        assert!(repo.revparse_single(&demo.manifest.head_branch).is_ok());
        assert!(!repo.path().join("HEAD.lock").exists());
        assert!(!leftover.exists());
        // A finished one is kept as it is.
        let marker = built_marker(&dir);
        let written = std::fs::metadata(&marker).unwrap().modified().unwrap();
        std::fs::write(dir.join("untouched"), "x").unwrap();
        build(&dir).unwrap();
        assert!(dir.join("untouched").exists());
        assert_eq!(
            std::fs::metadata(&marker).unwrap().modified().unwrap(),
            written
        );
        // One from another bundle is rebuilt.
        std::fs::write(&marker, "0.0.0 0\n").unwrap();
        build(&dir).unwrap();
        assert!(!dir.join("untouched").exists());
    }
}
