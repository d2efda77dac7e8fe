//! A file under the tests that the project publishes all the same: a Dockerfile that a
//! workflow builds and pushes to a registry is an image users run, whatever its folder is
//! called. A change cannot hide an unpinned base image by filing its Dockerfile under
//! `test/fixtures/` while the release workflow still pushes it.

use std::sync::LazyLock;

use regex::Regex;

use super::checks::parent_dir;
use super::repo::Repo;
use crate::space::worktree_file;

/// Where the workflows live.
const WORKFLOWS: &str = ".github/workflows";

/// A step that sends an image to a registry.
static PUSH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)\b(?:docker|podman|buildah|crane)\s+(?:image\s+)?push\b|^\s*push\s*:\s*true\b|\s--push\b")
        .expect("valid regex")
});

/// Whether a workflow at the head names the folder of the Dockerfile at `path` and pushes an
/// image. Without the head (no worktree), nothing is known: no.
pub(super) fn published_image(repo: Repo, path: &str) -> bool {
    let Some(root) = repo.worktree else {
        return false;
    };
    let dir = parent_dir(path);
    if dir.is_empty() {
        return false;
    }
    let workflows: Vec<String> = match repo.files {
        Some(files) => files
            .iter()
            .filter(|f| f.starts_with(WORKFLOWS))
            .cloned()
            .collect(),
        None => worktree_file::list(root, WORKFLOWS)
            .unwrap_or_default()
            .into_iter()
            .map(|name| format!("{WORKFLOWS}/{name}"))
            .collect(),
    };
    workflows
        .iter()
        .filter(|f| f.ends_with(".yml") || f.ends_with(".yaml"))
        .filter_map(|f| worktree_file::read(root, f).ok())
        .filter_map(|bytes| String::from_utf8(bytes).ok())
        .any(|text| names_dir(&text, dir) && PUSH.is_match(&text))
}

/// Whether `text` names the folder `dir` as a whole path (not `dir` as the start of a longer
/// name).
fn names_dir(text: &str, dir: &str) -> bool {
    text.match_indices(dir).any(|(at, _)| {
        let after = text[at + dir.len()..].chars().next();
        let before = text[..at].chars().next_back();
        !after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
            && !before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-'))
    })
}
