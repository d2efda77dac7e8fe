//! A file under the tests that the project publishes all the same: a Dockerfile that a
//! workflow, another CI, a Makefile or a release script builds and pushes to a registry is an
//! image users run, whatever its folder is called. A change cannot hide an unpinned base image by filing its Dockerfile under
//! `test/fixtures/` while the release workflow still pushes it.

use std::sync::LazyLock;

use regex::Regex;

use super::checks::{file_name, parent_dir};
use super::repo::Repo;
use crate::diff::is_test_path;
use crate::space::worktree_file;

/// Where the workflows live.
const WORKFLOWS: &str = ".github/workflows";

/// Files of continuous integration and build tools, by name wherever they sit.
const CI_FILES: &[&str] = &[
    ".gitlab-ci.yml",
    ".travis.yml",
    "Jenkinsfile",
    "azure-pipelines.yml",
    "bitbucket-pipelines.yml",
    "cloudbuild.yaml",
    "cloudbuild.yml",
    "Makefile",
    "justfile",
    "Taskfile.yml",
];

/// How many such files are read at most, and how much of each.
const MAX_FILES: usize = 300;
const MAX_BYTES: u64 = 512 * 1024;

/// A step that sends an image to a registry.
static PUSH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)\b(?:docker|podman|buildah|crane)\s+(?:image\s+)?push\b|^\s*push\s*:\s*true\b|\s--push\b")
        .expect("valid regex")
});

/// Whether a file that may publish images at the head (a workflow, another CI's
/// configuration, a Makefile, a shell script; none of them test material) names the folder of
/// the Dockerfile at `path` and pushes an image. Without the head (no worktree), nothing is
/// known: no.
pub(super) fn published_image(repo: Repo, path: &str) -> bool {
    let Some(root) = repo.worktree else {
        return false;
    };
    let dir = parent_dir(path);
    if dir.is_empty() {
        return false;
    }
    let candidates: Vec<String> = match repo.files {
        Some(files) => files.iter().cloned().collect(),
        None => [WORKFLOWS, ""]
            .iter()
            .flat_map(|folder| {
                worktree_file::list(root, folder)
                    .unwrap_or_default()
                    .into_iter()
                    .map(move |name| match *folder {
                        "" => name,
                        folder => format!("{folder}/{name}"),
                    })
            })
            .collect(),
    };
    candidates
        .iter()
        .filter(|f| may_publish(f))
        .take(MAX_FILES)
        .filter_map(|f| {
            worktree_file::read_at_most(root, f, MAX_BYTES)
                .ok()
                .flatten()
        })
        .filter_map(|bytes| String::from_utf8(bytes).ok())
        .any(|text| names_dir(&text, dir) && PUSH.is_match(&text))
}

/// Whether the file at `path` is one that may build and push images: a workflow, another
/// CI's configuration, a build file or a shell script, outside the tests.
fn may_publish(path: &str) -> bool {
    let name = file_name(path);
    let workflow =
        path.starts_with(WORKFLOWS) && (name.ends_with(".yml") || name.ends_with(".yaml"));
    (workflow
        || CI_FILES.contains(&name)
        || path == ".circleci/config.yml"
        || name.ends_with(".sh")
        || name.ends_with(".bash"))
        && !is_test_path(path)
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
