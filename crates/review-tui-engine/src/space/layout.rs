//! Where things live under the data root. Every path the space layer uses comes from here, so
//! the same key always resolves to the same directory.
//!
//! ```text
//! <root>/spaces/<site>/<owner>/<repo>/pr-<n>/            one space per PR
//! <root>/spaces/local/<repo-dir>-<hash>/<base>..<head>-<hash>/
//! <root>/mirrors/<site>/<owner>/<repo>.git               one bare mirror per repository
//! <root>/mirrors/local/<repo-dir>-<hash>.git
//! ```
//! The site is the forge's name for the installation (`pr::hosted::ForgeKind::site`): `github`
//! for github.com, `github-<host>` for a GitHub Enterprise host.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::key::{SpaceKey, path_bytes, short_hash};
use crate::path_component::sanitize_component;

#[derive(Debug, Error)]
pub enum LayoutError {
    #[error("no data directory: set --data-dir or REVIEW_TUI_DATA_DIR (the platform has no home)")]
    NoDataDir,
    #[error("data directory {path}: {source}")]
    Path {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The data root: `explicit` (from `--data-dir` or `REVIEW_TUI_DATA_DIR`, which the caller
/// resolves) or the platform's data directory for review-tui. Made absolute because worktrees
/// record the paths of their mirror, and a relative path would break from another cwd.
pub fn data_root(explicit: Option<&Path>) -> Result<PathBuf, LayoutError> {
    let root = match explicit {
        Some(path) => path.to_path_buf(),
        None => directories::ProjectDirs::from("", "", "review-tui")
            .ok_or(LayoutError::NoDataDir)?
            .data_dir()
            .to_path_buf(),
    };
    std::path::absolute(&root).map_err(|source| LayoutError::Path { path: root, source })
}

/// The space directory for `key`: the one function that decides it.
pub fn space_dir(root: &Path, key: &SpaceKey) -> PathBuf {
    let spaces = root.join("spaces");
    match key {
        SpaceKey::Hosted(pr) => spaces
            .join(site_dir(&pr.site))
            .join(sanitize_component(&pr.owner))
            .join(sanitize_component(&pr.repo))
            .join(format!("pr-{}", pr.number)),
        SpaceKey::Local { repo, base, head } => spaces
            .join("local")
            .join(local_repo_name(repo))
            .join(format!(
                "{}..{}-{}",
                sanitize_component(base),
                sanitize_component(head),
                key.short_hash()
            )),
    }
}

/// The bare mirror for `key`'s repository, shared by every PR of that repository.
pub fn mirror_dir(root: &Path, key: &SpaceKey) -> PathBuf {
    let mirrors = root.join("mirrors");
    match key {
        SpaceKey::Hosted(pr) => mirrors
            .join(site_dir(&pr.site))
            .join(sanitize_component(&pr.owner))
            .join(format!("{}.git", sanitize_component(&pr.repo))),
        SpaceKey::Local { repo, .. } => mirrors
            .join("local")
            .join(format!("{}.git", local_repo_name(repo))),
    }
}

/// The site as the forge named it when it is already one plain component (the forge built it
/// from sanitized parts, and its length is its own business: shortening it would move existing
/// spaces); sanitized otherwise, so no forge's name can walk out of the root.
fn site_dir(site: &str) -> String {
    let plain = !site.is_empty()
        && !site.starts_with('.')
        && site
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if plain && site != "local" {
        site.to_string()
    } else {
        // `local` would share the local ranges' folder.
        format!("_{}", sanitize_component(site))
    }
}

/// `<dir name>-<hash of the canonical path>`: readable, and unique for two checkouts that
/// happen to share a directory name.
fn local_repo_name(repo: &Path) -> String {
    let name = repo
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(
        "{}-{}",
        sanitize_component(&name),
        short_hash(&[&path_bytes(repo)])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::key::tests::github_key;
    use crate::space::test_repo::{TestRepo, git};

    #[test]
    fn github_layout() {
        let root = Path::new("/data");
        let key = github_key("Owner", "Repo", 42);
        assert_eq!(
            space_dir(root, &key),
            Path::new("/data/spaces/github/owner/repo/pr-42")
        );
        assert_eq!(
            mirror_dir(root, &key),
            Path::new("/data/mirrors/github/owner/repo.git")
        );
        let ghe = SpaceKey::hosted(
            crate::pr::reference::parse("https://ghe.example.com/o/r/pull/1", None, None)
                .map(|r| match r {
                    crate::pr::reference::PrRef::Hosted(pr) => pr,
                    other => panic!("{other}"),
                })
                .unwrap(),
        )
        .unwrap();
        assert_eq!(
            space_dir(root, &ghe),
            Path::new("/data/spaces/github-ghe.example.com/o/r/pr-1")
        );
    }

    #[test]
    fn same_key_same_dir_and_prs_share_a_mirror() {
        let root = Path::new("/data");
        let a = github_key("o", "r", 1);
        let b = github_key("O", "r.git", 1);
        let c = github_key("o", "r", 2);
        assert_eq!(space_dir(root, &a), space_dir(root, &b));
        assert_ne!(space_dir(root, &a), space_dir(root, &c));
        assert_eq!(mirror_dir(root, &a), mirror_dir(root, &c));
    }

    #[test]
    fn hostile_names_stay_under_the_root() {
        let root = Path::new("/data");
        // Names no forge's parser lets through, and sites no forge would choose.
        let hostile = |site: &str| {
            SpaceKey::hosted(crate::pr::hosted::HostedPr {
                forge: "x".into(),
                site: site.into(),
                host: "../..".into(),
                owner: "..".into(),
                repo: "../../etc/passwd".into(),
                number: 1,
            })
            .unwrap()
        };
        let keys = ["..", "../up", "local", ".hidden", "a/b"].map(hostile);
        let paths = keys
            .iter()
            .flat_map(|key| [space_dir(root, key), mirror_dir(root, key)]);
        for path in paths {
            assert!(path.starts_with(root));
            assert!(
                !path.starts_with("/data/spaces/local") && !path.starts_with("/data/mirrors/local"),
                "{path:?}"
            );
            assert!(path.components().count() <= 7, "{path:?}");
            assert!(
                path.components()
                    .all(|c| !matches!(c, std::path::Component::ParentDir)),
                "{path:?}"
            );
        }
        let local = SpaceKey::Local {
            repo: PathBuf::from("/"),
            base: "../../..".into(),
            head: "/etc/passwd".into(),
        };
        let dir = space_dir(root, &local);
        assert!(dir.starts_with("/data/spaces/local/"));
        assert_eq!(dir.components().count(), 6, "{dir:?}");
    }

    #[cfg(unix)]
    #[test]
    fn local_spellings_resolve_to_one_space() {
        let repo = TestRepo::new();
        let dir = &repo.path();
        git(dir, &["checkout", "-q", "-b", "feature"]);
        let root = Path::new("/data");
        let canonical = SpaceKey::local(dir, "main", "feature").unwrap();
        let expected = space_dir(root, &canonical);

        let trailing = PathBuf::from(format!("{}/", dir.display()));
        let dotted = dir.join("sub").join("..");
        std::fs::create_dir(dir.join("sub")).unwrap();
        let link = repo.scratch().join("link");
        std::os::unix::fs::symlink(dir, &link).unwrap();
        let relative = pathdiff(dir);

        for spelling in [trailing, dotted, link.clone(), dir.join("sub"), relative] {
            let key = SpaceKey::local(&spelling, "main", "feature").unwrap();
            assert_eq!(space_dir(root, &key), expected, "spelling {spelling:?}");
            assert_eq!(mirror_dir(root, &key), mirror_dir(root, &canonical));
        }

        let other = SpaceKey::local(&link, "main", "other").unwrap();
        assert_ne!(space_dir(root, &other), expected);
        let slash = SpaceKey::local(dir, "main", "feature/x").unwrap();
        let dash = SpaceKey::local(dir, "main", "feature-x").unwrap();
        assert_ne!(space_dir(root, &slash), space_dir(root, &dash));
    }

    #[test]
    fn explicit_root_is_made_absolute() {
        let root = data_root(Some(Path::new("some/dir"))).unwrap();
        assert!(root.is_absolute());
        assert!(root.ends_with("some/dir"));
    }

    /// `path` relative to the current directory, climbing with `..` as needed.
    fn pathdiff(path: &Path) -> PathBuf {
        let cwd = std::fs::canonicalize(std::env::current_dir().unwrap()).unwrap();
        let target = std::fs::canonicalize(path).unwrap();
        let common = cwd
            .components()
            .zip(target.components())
            .take_while(|(a, b)| a == b)
            .count();
        let mut rel = PathBuf::new();
        for _ in cwd.components().skip(common) {
            rel.push("..");
        }
        for part in target.components().skip(common) {
            rel.push(part);
        }
        rel
    }
}
