//! Lock files and manifests that should change together.
//!
//! A lock file changing alone is usually `cargo update` or a merge gone wrong: worth a
//! question. A manifest's dependency lines changing while its lock file stays put means CI and
//! colleagues build with versions nobody resolved, but only if the repository commits a lock
//! file at all, which only the repository's file list can tell.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{Hit, file_name, first_changed_line, parent_dir};
use crate::diff::{Diff, FileDiff, FileStatus, LineKind, Side, is_test_path};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ecosystem {
    Cargo,
    Npm,
    Python,
    Pipenv,
    Go,
    Ruby,
}

const ECOSYSTEMS: [Ecosystem; 6] = [
    Ecosystem::Cargo,
    Ecosystem::Npm,
    Ecosystem::Python,
    Ecosystem::Pipenv,
    Ecosystem::Go,
    Ecosystem::Ruby,
];

impl Ecosystem {
    fn locks(self) -> &'static [&'static str] {
        match self {
            Ecosystem::Cargo => &["Cargo.lock"],
            Ecosystem::Npm => &[
                "package-lock.json",
                "npm-shrinkwrap.json",
                "yarn.lock",
                "pnpm-lock.yaml",
                "bun.lock",
                // bun's binary lock, before its text `bun.lock`.
                "bun.lockb",
            ],
            Ecosystem::Python => &["poetry.lock", "uv.lock", "pdm.lock"],
            Ecosystem::Pipenv => &["Pipfile.lock"],
            Ecosystem::Go => &["go.sum"],
            Ecosystem::Ruby => &["Gemfile.lock"],
        }
    }

    fn manifests(self) -> &'static [&'static str] {
        match self {
            Ecosystem::Cargo => &["Cargo.toml"],
            Ecosystem::Npm => &["package.json"],
            Ecosystem::Python => &["pyproject.toml"],
            Ecosystem::Pipenv => &["Pipfile"],
            Ecosystem::Go => &["go.mod"],
            Ecosystem::Ruby => &["Gemfile"],
        }
    }

    fn of_lock(name: &str) -> Option<Ecosystem> {
        ECOSYSTEMS.into_iter().find(|e| e.locks().contains(&name))
    }

    fn of_manifest(name: &str) -> Option<Ecosystem> {
        ECOSYSTEMS
            .into_iter()
            .find(|e| e.manifests().contains(&name))
    }
}

/// `dir` and every directory above it, nearest first; `""` is the root.
fn self_and_ancestors(dir: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(dir);
    std::iter::from_fn(move || {
        let current = next?;
        next = (!current.is_empty()).then(|| parent_dir(current));
        Some(current)
    })
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Whether `path` is in `dir` or below it.
fn is_within(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A lock file changed with no manifest of its ecosystem. Not asked when the lock's change
/// has a reason the diff or the repository shows: a bot's lock-only bump (updating the lock
/// is what the PR is for), a lock no manifest of its ecosystem sits beside (a build tool's own
/// generated lock: Kotlin/JS writes `kotlin-js-store/yarn.lock` from Gradle), or changes only
/// to the repository's own packages (an editable or workspace member's version, which moves
/// with the project, not with a dependency). A change whose title says it updates the
/// dependencies or the lock (`chore(deps): bump …`, "Update Cargo.lock", `cargo update`) is
/// that update, by a bot or a person (poetry-core #878 "update dev dependencies"), unless the
/// lock now fetches from a host it did not name before: what the title cannot vouch for. Nor
/// is a lock that only moved its resolutions inside its manifest's ranges
/// ([`super::lock_refresh`]): it speaks when its root dependencies disagree with the manifest.
pub(super) fn lock_without_manifest(
    file: &FileDiff,
    diff: &Diff,
    repo_files: Option<&BTreeSet<String>>,
    author_is_bot: bool,
    title: &str,
    worktree: Option<&std::path::Path>,
) -> Vec<Hit> {
    let name = file_name(&file.path);
    let Some(ecosystem) = Ecosystem::of_lock(name) else {
        return Vec::new();
    };
    if file.status == FileStatus::Deleted || author_is_bot {
        return Vec::new();
    }
    if says_dependency_update(title) && !names_new_host(file, worktree) {
        return Vec::new();
    }
    if repo_files.is_some_and(|files| !has_own_manifest(&file.path, ecosystem, files))
        || only_own_packages(file)
    {
        return Vec::new();
    }
    // Workspaces: a member's manifest (below the lock's directory) explains a root lock change.
    let dir = parent_dir(&file.path);
    // The first lock the repository tracks for a manifest it already had (resty #375 committed
    // the go.sum it used to ignore) records that manifest's resolution: nothing changed alone.
    // A lock added where another of its ecosystem already locks the manifest (a second package
    // manager beside it, a stray lock in a workspace member whose root has one) still asks.
    if file.status == FileStatus::Added
        && repo_files.is_some_and(|files| {
            let beside =
                |dir: &str, names: &[&str]| names.iter().any(|n| files.contains(&join(dir, n)));
            beside(dir, ecosystem.manifests())
                && !self_and_ancestors(dir).any(|above| {
                    ecosystem.locks().iter().any(|lock| {
                        join(above, lock) != file.path && files.contains(&join(above, lock))
                    })
                })
        })
    {
        return Vec::new();
    }
    let explained = diff.files.iter().any(|other| {
        ecosystem.manifests().contains(&file_name(&other.path)) && is_within(&other.path, dir)
    });
    if explained || follows_a_manifest_elsewhere(file, diff, ecosystem) {
        return Vec::new();
    }
    // A lock that existed and only moved its resolutions is a refresh; one added where none
    // was (a second package manager's lock in a workspace) is a decision worth a question.
    if file.status != FileStatus::Added
        && !names_new_host(file, worktree)
        && super::lock_refresh::is_refresh(file, worktree, repo_files)
    {
        return Vec::new();
    }
    vec![Hit {
        line: first_changed_line(file),
        code: String::new(),
        detail: format!(
            "{name} changed; no {} changed in {}",
            ecosystem.manifests().join(" or "),
            if dir.is_empty() {
                "the repository"
            } else {
                dir
            }
        ),
    }]
}

/// A title that says the change updates dependencies or the lock: conventional commits'
/// `deps` scope, Dependabot's "Bump X from A to B", Renovate's "Update … to vN", a person's
/// "update dev dependencies", "Update Cargo.lock", the update commands of the package managers.
static DEPENDENCY_UPDATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^\s*(chore|build|fix|deps)\(deps(-dev)?\)|\b(bump|bumps|bumped|update|updates|updated|upgrade|upgrades|upgraded|refresh|refreshed|regenerate|relock)\b",
        r".*\b(dep|deps|dependency|dependencies|requirements|packages|crates|lock|lockfile|lock\s+file|locks|[\w.-]+\.lock|package-lock\.json|go\.sum|pnpm-lock\.yaml)\b",
        r"|(?i)\bbump\s+\S+\s+from\s+\S+\s+to\s+\S+",
        r"|(?i)\b(cargo|npm|yarn|pnpm|poetry|uv|pdm|bundle|go\s+mod)\s+(update|upgrade|lock|tidy)\b",
        r"|(?i)^\s*(chore|build|fix|deps)\(deps(-dev)?\)",
    ))
    .expect("valid regex")
});

fn says_dependency_update(title: &str) -> bool {
    DEPENDENCY_UPDATE.is_match(title)
}

/// A JavaScript lock's line that says where a package is fetched from.
static FETCH_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*("resolved"\s*:|resolved\s|resolution:|tarball:)|\btarball:"#)
        .expect("valid regex")
});

static HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[a-z][a-z0-9+.-]*://([^/\s\x22'@]+@)?(?P<host>[^/\s\x22':]+)")
        .expect("valid regex")
});

/// Whether an added line of the lock names a host that no line it held before names (its
/// removed and context lines, and the head file's lines the change did not add): a
/// dependency now fetched from elsewhere. In the JavaScript locks only the lines that say where
/// a package is fetched from count (`"resolved"`, yarn's `resolved`, pnpm's `tarball`): a
/// package's `funding` or `homepage` URL is fetched by nobody (faraday's `npm audit fix`
/// brought an `opencollective.com` funding link).
fn names_new_host(file: &FileDiff, worktree: Option<&std::path::Path>) -> bool {
    let fetch_lines_only = matches!(
        file_name(&file.path),
        "package-lock.json" | "npm-shrinkwrap.json" | "yarn.lock" | "pnpm-lock.yaml"
    );
    let hosts_of = |text: &str| -> Vec<String> {
        if fetch_lines_only && !FETCH_LINE.is_match(text) {
            return Vec::new();
        }
        HOST.captures_iter(text)
            .map(|c| c["host"].to_ascii_lowercase())
            .collect()
    };
    let lines = || file.hunks.iter().flat_map(|h| &h.lines);
    let added: BTreeSet<String> = lines()
        .filter(|l| l.kind == LineKind::Added)
        .flat_map(|l| hosts_of(&l.text))
        .collect();
    if added.is_empty() {
        return false;
    }
    let mut before: BTreeSet<String> = lines()
        .filter(|l| l.kind != LineKind::Added)
        .flat_map(|l| hosts_of(&l.text))
        .collect();
    let added_numbers: BTreeSet<u32> = lines()
        .filter(|l| l.kind == LineKind::Added)
        .filter_map(|l| l.new_line)
        .collect();
    if let Some(root) = worktree
        && let Ok(bytes) = crate::space::worktree_file::read(root, &file.path)
    {
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in (1u32..).zip(text.lines()) {
            if !added_numbers.contains(&n) {
                before.extend(hosts_of(line));
            }
        }
    }
    added.iter().any(|h| !before.contains(h))
}

/// Whether a manifest of `ecosystem` sits in the lock's directory or above it in `files`: a
/// lock with none is another tool's.
fn has_own_manifest(lock: &str, ecosystem: Ecosystem, files: &BTreeSet<String>) -> bool {
    self_and_ancestors(parent_dir(lock)).any(|dir| {
        ecosystem
            .manifests()
            .iter()
            .any(|manifest| files.contains(&join(dir, manifest)))
    })
}

/// A TOML lock entry's source that is the repository itself: uv/pdm `editable`/`virtual`/
/// `directory`, poetry's `develop`/`directory`, a path or workspace source.
static OWN_SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(source\s*=\s*\{\s*(editable|virtual|directory|path|workspace)\s*=|develop\s*=\s*true|type\s*=\s*"directory")"#)
        .expect("valid regex")
});
static OTHER_SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*source\s*=|^\s*checksum\s*=|^\s*"resolved"\s*:"#).expect("valid regex")
});

/// Every changed line of a TOML lock lies in an entry the hunk shows to be the repository's
/// own: an editable/virtual/workspace source (uv, pdm, poetry), or a Cargo entry whose
/// `version` line is not followed by `source` (Cargo writes `name`, `version`, `source`,
/// `checksum` in that order; a workspace member has no source). Entries the hunk does not show
/// enough of count as dependencies.
fn only_own_packages(file: &FileDiff) -> bool {
    let name = file_name(&file.path);
    if !matches!(name, "Cargo.lock" | "uv.lock" | "poetry.lock" | "pdm.lock") {
        return false;
    }
    let cargo = name == "Cargo.lock";
    let mut any = false;
    for hunk in &file.hunks {
        // The hunk's lines split into entries at `[[package]]` headers.
        let mut entries: Vec<Vec<&crate::diff::Line>> = vec![Vec::new()];
        for line in &hunk.lines {
            if line.text.trim_start().starts_with("[[package]]") {
                entries.push(Vec::new());
            }
            entries.last_mut().expect("one entry at least").push(line);
        }
        for entry in &entries {
            if entry.iter().all(|l| l.kind == LineKind::Context) {
                continue;
            }
            any = true;
            let new_side: Vec<&str> = entry
                .iter()
                .filter(|l| l.kind != LineKind::Removed)
                .map(|l| l.text.as_str())
                .collect();
            // A member's changed lines are its version's: its dependency list is what its
            // manifest asks for, and changing alone it disagrees with the manifest.
            let own = if cargo {
                new_side
                    .iter()
                    .position(|l| l.trim_start().starts_with("version ="))
                    .and_then(|at| new_side.get(at + 1))
                    .is_some_and(|next| !OTHER_SOURCE.is_match(next))
                    && entry
                        .iter()
                        .filter(|l| l.kind != LineKind::Context)
                        .all(|l| l.text.trim_start().starts_with("version ="))
            } else {
                new_side.iter().any(|l| OWN_SOURCE.is_match(l))
            };
            if !own {
                return false;
            }
        }
    }
    any
}

pub(super) fn manifest_without_lock(
    file: &FileDiff,
    diff: &Diff,
    repo_files: &BTreeSet<String>,
    worktree: Option<&std::path::Path>,
) -> Vec<Hit> {
    let name = file_name(&file.path);
    let Some(ecosystem) = Ecosystem::of_manifest(name) else {
        return Vec::new();
    };
    if file.status == FileStatus::Deleted {
        return Vec::new();
    }
    let dir = parent_dir(&file.path);
    let lock_paths: Vec<String> = self_and_ancestors(dir)
        .flat_map(|d| ecosystem.locks().iter().map(move |lock| join(d, lock)))
        .collect();
    let Some(lock) = lock_paths.iter().find(|p| repo_files.contains(*p)) else {
        return Vec::new();
    };
    // A manifest under the tests whose own folder has no lock is a fixture (poetry-core's
    // `tests/fixtures/sample_project/pyproject.toml`): its dependencies are data the tests
    // read, and the project's lock further up never locked them.
    if is_test_path(&file.path) && parent_dir(lock) != dir {
        return Vec::new();
    }
    if diff
        .files
        .iter()
        .any(|other| lock_paths.contains(&other.path))
    {
        return Vec::new();
    }
    // A dependency on one of the repository's own packages (a workspace member, a path) is
    // linked, not locked from a registry: changesets' "Version Packages" bumps a sibling's
    // range in every member that uses it, and the lock has nothing to say.
    let mut own: Option<BTreeSet<String>> = None;
    let unmatched = dependency_changes_unmatched(file, ecosystem, records_peers(lock), worktree);
    let satisfied = already_locked(&unmatched, ecosystem, &file.path, lock, worktree);
    let Some((side, number, text)) = unmatched
        .into_iter()
        .filter(|(_, _, text)| {
            dependency_name(ecosystem, text).is_none_or(|name| !satisfied.contains(&name))
        })
        .find(|&(_, _, text)| {
            !links_own_package(ecosystem, text, &mut || {
                own.get_or_insert_with(|| own_npm_packages(repo_files, worktree))
                    .clone()
            })
        })
    else {
        return Vec::new();
    };
    vec![Hit {
        line: Some((side, number)),
        code: text.to_string(),
        detail: format!("{} changed dependencies; {lock} did not change", file.path),
    }]
}

/// The lock changed with a dependency that a manifest of its ecosystem elsewhere in the change
/// changed too: a module it uses by a local path (bubbletea #354 bumped `cancelreader` in the
/// root `go.mod`; `tutorials/go.sum` followed, its `go.mod` replacing the root module with
/// `../`). A lock changed with no manifest anywhere still asks its question.
fn follows_a_manifest_elsewhere(lock: &FileDiff, diff: &Diff, ecosystem: Ecosystem) -> bool {
    let names: BTreeSet<String> = diff
        .files
        .iter()
        .filter(|other| ecosystem.manifests().contains(&file_name(&other.path)))
        .flat_map(|manifest| dependency_changes(manifest, ecosystem))
        .filter_map(|(_, _, text)| dependency_name(ecosystem, text))
        .collect();
    if names.is_empty() {
        return false;
    }
    lock.hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind != LineKind::Context)
        .any(|l| names.iter().any(|name| mentions_package(&l.text, name)))
}

/// `text` names the package `name` whole (`cancelreader` is not `cancelreader-x`); a version
/// may follow an `@` (`left-pad@^1.3.0:` in a yarn.lock).
fn mentions_package(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    text.match_indices(name).any(|(at, _)| {
        !text[..at].ends_with(|c: char| part(c) || c == '@')
            && !text[at + name.len()..].starts_with(part)
    })
}

static QUOTED_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"["']([@A-Za-z0-9][\w./@-]*?)["'\[\s=<>~!@]"#).expect("valid regex")
});

/// The dependencies among `changes` whose new requirement the lock at the head already
/// resolves (see [`super::lock_satisfies`]): a Cargo requirement changed on a dependency the
/// manifest had, whose locked version satisfies it; an npm range a classic yarn.lock already
/// has an entry for; a Go module go.mod replaces by a local path, or whose hashes at the new
/// version go.sum already holds. Their lines, added and removed, ask the lock for nothing.
fn already_locked(
    changes: &[(Side, u32, &str)],
    ecosystem: Ecosystem,
    manifest: &str,
    lock: &str,
    worktree: Option<&std::path::Path>,
) -> BTreeSet<String> {
    let mut satisfied = BTreeSet::new();
    let yarn = file_name(lock) == "yarn.lock";
    let read_lock = matches!(ecosystem, Ecosystem::Cargo | Ecosystem::Go)
        || (ecosystem == Ecosystem::Npm && yarn);
    if !read_lock {
        return satisfied;
    }
    let read = |path: &str| {
        worktree
            .and_then(|root| crate::space::worktree_file::read(root, path).ok())
            .and_then(|bytes| String::from_utf8(bytes).ok())
    };
    let Some(mut lock_text) = read(lock) else {
        return satisfied;
    };
    let go_mod = if ecosystem == Ecosystem::Go {
        lock_text.push('\n');
        lock_text.push_str(&super::lock_satisfies::go_workspace_sums(manifest, &read));
        read(manifest).unwrap_or_default()
    } else {
        String::new()
    };
    let names_on = |side: Side| -> BTreeSet<String> {
        changes
            .iter()
            .filter(|c| c.0 == side)
            .filter_map(|c| dependency_name(ecosystem, c.2))
            .collect()
    };
    let (removed, added) = (names_on(Side::Left), names_on(Side::Right));
    for &(side, _, text) in changes {
        // A Go requirement removed asks nothing of go.sum: the go command reads only the hashes
        // it needs and never fails on more (`go mod tidy` drops them later), and a module the
        // base replaced by a local path had none.
        if ecosystem == Ecosystem::Go && side == Side::Left {
            // Only a module no longer required: a version moved is read on its new line.
            satisfied.extend(dependency_name(ecosystem, text).filter(|name| !added.contains(name)));
            continue;
        }
        let Some(name) = dependency_name(ecosystem, text).filter(|_| side == Side::Right) else {
            continue;
        };
        let locked = match ecosystem {
            // A dependency new to the manifest joins its package's entry in the lock.
            Ecosystem::Cargo => {
                removed.contains(&name)
                    && cargo_version(text).is_some_and(|version| {
                        super::lock_satisfies::cargo_lock_satisfies(&lock_text, &name, version)
                    })
            }
            Ecosystem::Go => requirement(ecosystem, text)
                .split_whitespace()
                .nth(1)
                .is_some_and(|version| {
                    super::lock_satisfies::go_sum_satisfies(&go_mod, &lock_text, &name, version)
                }),
            _ => JSON_DEPENDENCY.captures(text).is_some_and(|c| {
                let range = text[c.get(3).map_or(0, |m| m.start())..]
                    .split('"')
                    .next()
                    .unwrap_or_default();
                super::lock_satisfies::yarn_lock_has(&lock_text, &name, range)
            }),
        };
        if locked {
            satisfied.insert(name);
        }
    }
    satisfied
}

/// The version requirement of a Cargo dependency line: `name = "0.3"` or `version = "0.3"`
/// in its table.
fn cargo_version(text: &str) -> Option<&str> {
    if text.contains('{') {
        let at = text.find("version")?;
        let rest = &text[at..];
        let start = rest.find('"')? + 1;
        let end = rest[start..].find('"')?;
        return Some(&rest[start..start + end]);
    }
    let (_, value) = text.split_once('=')?;
    Some(value.trim().trim_end_matches(',').trim_matches('"'))
}

/// The package a dependency line names, as its lock file writes it.
fn dependency_name(ecosystem: Ecosystem, text: &str) -> Option<String> {
    match ecosystem {
        Ecosystem::Go => text
            .split_whitespace()
            .find(|word| !matches!(*word, "require" | "replace" | "("))
            .map(str::to_string),
        Ecosystem::Cargo | Ecosystem::Pipenv | Ecosystem::Python => {
            // `alias = { package = "real", … }` locks `real`.
            if let Some(real) = TOML_VALUE.captures_iter(text).find(|k| &k[1] == "package") {
                return Some(real[2].trim_matches('"').to_string());
            }
            TOML_DEPENDENCY
                .captures(text)
                .map(|c| c[1].to_string())
                .or_else(|| QUOTED_NAME.captures(text).map(|c| c[1].to_string()))
        }
        Ecosystem::Npm => JSON_DEPENDENCY.captures(text).map(|c| c[1].to_string()),
        Ecosystem::Ruby => QUOTED_NAME.captures(text).map(|c| c[1].to_string()),
    }
}

/// The first added or removed line that declares a dependency the other side of the diff
/// does not declare too. A dependency moved within the manifest with the same name and version
/// requirement (axum #3784 moved `tokio = { version = "1.44", … }` from `[dependencies]` into
/// two `[target.'cfg(…)'.dependencies]` tables; bubbletea #963 moved `termenv v0.15.2` to the
/// `// indirect` block) resolves to what the lock already holds.
/// Whether the lock file `lock` records the package's own peer dependency ranges. pnpm's and
/// yarn's locks hold what was installed, by the ranges that asked for it; a package's own
/// `peerDependencies` are its users' to install, so widening them (`"^6 || ^7"`) leaves the
/// lock as it was. npm's and bun's locks copy the root package's `peerDependencies`.
fn records_peers(lock: &str) -> bool {
    !matches!(file_name(lock), "pnpm-lock.yaml" | "yarn.lock")
}

/// The changed dependency lines of `file` whose requirement the other side does not hold
/// too; of peer dependencies only when `peers`.
fn dependency_changes_unmatched<'f>(
    file: &'f FileDiff,
    ecosystem: Ecosystem,
    peers: bool,
    worktree: Option<&std::path::Path>,
) -> Vec<(Side, u32, &'f str)> {
    let head = worktree
        .and_then(|root| crate::space::worktree_file::read(root, &file.path).ok())
        .and_then(|bytes| String::from_utf8(bytes).ok());
    let changes = dependency_changes_in(file, ecosystem, peers, head.as_deref());
    let on = |side: Side| -> Vec<String> {
        changes
            .iter()
            .filter(|c| c.0 == side)
            .map(|c| requirement(ecosystem, c.2))
            .collect()
    };
    let (added, removed) = (on(Side::Right), on(Side::Left));
    changes
        .into_iter()
        .filter(|&(side, _, text)| {
            let other = if side == Side::Right {
                &removed
            } else {
                &added
            };
            !other.contains(&requirement(ecosystem, text))
        })
        .collect()
}

/// Whether a dependency line names the repository's own package: a local protocol (`workspace:`,
/// `link:`, `file:`, a TOML `path = …`), or, for npm, the name of a `package.json` of the
/// repository (`own`, asked only then).
fn links_own_package(
    ecosystem: Ecosystem,
    text: &str,
    own: &mut dyn FnMut() -> BTreeSet<String>,
) -> bool {
    match ecosystem {
        Ecosystem::Npm => JSON_DEPENDENCY.captures(text).is_some_and(|c| {
            matches!(&c[3], "workspace:" | "link:" | "file:") || own().contains(&c[1])
        }),
        Ecosystem::Cargo | Ecosystem::Python | Ecosystem::Pipenv => {
            TOML_VALUE.captures_iter(text).any(|k| &k[1] == "path")
        }
        Ecosystem::Go | Ecosystem::Ruby => false,
    }
}

/// The names of the repository's npm packages: every `package.json` at the head outside
/// `node_modules/` and the tests' fixtures, the first 500.
fn own_npm_packages(
    repo_files: &BTreeSet<String>,
    worktree: Option<&std::path::Path>,
) -> BTreeSet<String> {
    let Some(root) = worktree else {
        return BTreeSet::new();
    };
    repo_files
        .iter()
        .filter(|f| file_name(f) == "package.json")
        .filter(|f| !f.contains("node_modules/") && !is_test_path(f))
        .take(500)
        .filter_map(|f| crate::space::worktree_file::read(root, f).ok())
        .filter_map(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .filter_map(|manifest| manifest["name"].as_str().map(str::to_string))
        .collect()
}

/// Every added or removed line that declares a dependency, tracking TOML/JSON sections within
/// each hunk as far as the hunk shows them.
fn dependency_changes(file: &FileDiff, ecosystem: Ecosystem) -> Vec<(Side, u32, &str)> {
    dependency_changes_in(file, ecosystem, true, None)
}

/// The section an npm manifest's line `line` (1-based) of the head text `head` sits in, read
/// above it: a hunk that starts inside `peerDependencies` shows no header of its own. The
/// nearest object key above, less indented than the line, names it.
fn section_above(head: &str, line: u32, ecosystem: Ecosystem) -> Section {
    if ecosystem != Ecosystem::Npm {
        return Section::Unknown;
    }
    let lines: Vec<&str> = head.lines().collect();
    let at = (line as usize).saturating_sub(1).min(lines.len());
    let indent = |text: &str| text.len() - text.trim_start().len();
    let mut within = lines.get(at).map_or(usize::MAX, |text| indent(text));
    for text in lines[..at].iter().rev() {
        if text.trim().is_empty() || indent(text) >= within {
            continue;
        }
        within = indent(text);
        if JSON_OBJECT_KEY.is_match(text) {
            return Section::Unknown.after(ecosystem, text);
        }
    }
    Section::Unknown
}

/// The changed dependency lines of `file`; of peer dependencies only when `peers`.
fn dependency_changes_in<'f>(
    file: &'f FileDiff,
    ecosystem: Ecosystem,
    peers: bool,
    head: Option<&str>,
) -> Vec<(Side, u32, &'f str)> {
    let mut changes: Vec<(Side, u32, &str)> = Vec::new();
    for hunk in &file.hunks {
        let mut section = head.map_or(Section::Unknown, |head| {
            section_above(head, hunk.new_start, ecosystem)
        });
        for line in &hunk.lines {
            section = section.after(ecosystem, &line.text);
            let number = match line.kind {
                LineKind::Context => continue,
                LineKind::Added => line.new_line.map(|n| (Side::Right, n)),
                LineKind::Removed => line.old_line.map(|n| (Side::Left, n)),
            };
            if let Some((side, n)) = number
                && (peers || section != Section::Peers)
                && declares_dependency(ecosystem, section, &line.text)
            {
                changes.push((side, n, &line.text));
            }
        }
    }
    changes
}

static TOML_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\b(package|version|path|git|branch|tag|rev|workspace|registry)\s*=\s*("[^"]*"|true|false)"#)
        .expect("valid regex")
});

/// What a dependency line asks the resolver for: for a TOML table the name and the keys that
/// choose a version or source (`package`, `version`, `path`, `git`, …), not `features` or
/// `optional`; for Go the module and its version (not `require`, nor a `// indirect`
/// comment); otherwise the line without spaces and a trailing comma.
fn requirement(ecosystem: Ecosystem, text: &str) -> String {
    if ecosystem == Ecosystem::Go {
        let code = text.split("//").next().unwrap_or(text);
        let words: Vec<&str> = code
            .split_whitespace()
            .filter(|w| *w != "require")
            .collect();
        return words.join(" ");
    }
    if let Some(c) = TOML_DEPENDENCY.captures(text)
        && text.contains('{')
    {
        let mut keys: Vec<String> = TOML_VALUE
            .captures_iter(text)
            .map(|k| format!("{}={}", &k[1], &k[2]))
            .collect();
        keys.sort();
        return format!("{} {}", &c[1], keys.join(" "));
    }
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(',')
        .to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// The hunk has not shown a section header yet.
    Unknown,
    Dependencies,
    /// npm's `peerDependencies` (and their `peerDependenciesMeta`): dependencies the
    /// package's users install.
    Peers,
    Other,
}

static TOML_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$").expect("valid regex"));
static JSON_OBJECT_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^\s*"([^"]+)"\s*:\s*\{"#).expect("valid regex"));
static TOML_DEPENDENCY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*([\w.-]+)\s*=\s*(\{[^}]*\b(version|path|git|workspace)\s*=|"[\^~=<>*]*\d)"#)
        .expect("valid regex")
});
static PEP508: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*["'][A-Za-z0-9][\w.-]*(\[[\w,.\s-]+\])?\s*(==|>=|<=|~=|!=|>|<|@)"#)
        .expect("valid regex")
});
static JSON_DEPENDENCY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*"(@?[\w.-]+(/[\w.-]+)?)"\s*:\s*"(\^|~|>=|<=|>|<|=|\*|\d|workspace:|npm:|file:|link:|github:|git\+|https?:)"#)
        .expect("valid regex")
});
static GO_REQUIREMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(require\s+|replace\s+)?[\w.-]+\.[\w.-]+/[\w./~-]*\s+v\d")
        .expect("valid regex")
});
static GEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^\s*gem\s+['"]"#).expect("valid regex"));

/// Keys that look like `name = "1.0"` but describe the package itself.
const PACKAGE_KEYS: [&str; 7] = [
    "resolver",
    "version",
    "rust-version",
    "edition",
    "python",
    "node",
    "requires-python",
];

impl Section {
    fn after(self, ecosystem: Ecosystem, text: &str) -> Section {
        let header = match ecosystem {
            Ecosystem::Cargo | Ecosystem::Python | Ecosystem::Pipenv => TOML_HEADER
                .captures(text)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str()),
            Ecosystem::Npm => JSON_OBJECT_KEY
                .captures(text)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str()),
            Ecosystem::Go | Ecosystem::Ruby => None,
        };
        match header {
            Some(name) if ecosystem == Ecosystem::Npm && name.starts_with("peerDependencies") => {
                Section::Peers
            }
            // npm writes its objects in camel case (`devDependencies`, `peerDependencies`).
            Some(name)
                if name.to_ascii_lowercase().contains("dependencies")
                    || name.ends_with("packages") =>
            {
                Section::Dependencies
            }
            // `[project]` holds `dependencies = [...]`: leave the lines to the PEP 508 test.
            Some("project") => Section::Unknown,
            Some(_) => Section::Other,
            None => self,
        }
    }
}

fn declares_dependency(ecosystem: Ecosystem, section: Section, text: &str) -> bool {
    if section == Section::Other {
        return false;
    }
    match ecosystem {
        Ecosystem::Cargo | Ecosystem::Pipenv => toml_dependency(section, text),
        Ecosystem::Python => toml_dependency(section, text) || PEP508.is_match(text),
        // Outside an object known to list dependencies, only a version range names one: a
        // URL or a path there is a setting (jest's `"testURL": "http://localhost"`), and so is
        // a value that starts like a version but is none (a bundle budget's `"12.6 kB"`).
        Ecosystem::Npm => JSON_DEPENDENCY.captures(text).is_some_and(|c| {
            matches!(section, Section::Dependencies | Section::Peers)
                || (!PACKAGE_KEYS.contains(&&c[1])
                    && is_version_requirement(&c[3])
                    && is_npm_range(json_string_value(text)))
        }),
        Ecosystem::Go => GO_REQUIREMENT.is_match(text),
        Ecosystem::Ruby => GEM.is_match(text),
    }
}

/// The start of a version requirement, as `JSON_DEPENDENCY` captured it (not a protocol).
fn is_version_requirement(start: &str) -> bool {
    start
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || "^~<>=*".contains(c))
}

/// The string value of a `"key": "value"` line.
fn json_string_value(text: &str) -> &str {
    text.split_once(':')
        .map(|(_, value)| value.trim().trim_end_matches(',').trim_matches('"'))
        .unwrap_or_default()
}

static NPM_RANGE_PART: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\^|~|>=|<=|>|<|=)?v?(\d+|[xX*])(\.(\d+|[xX*])){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$|^(\^|~|>=|<=|>|<|=|-|\|\|)$")
        .expect("valid regex")
});

/// Whether `value` is an npm semver range: comparators (`^1.2.3`, `>= 1.0 <2`, `1.x`),
/// hyphen ranges and `||` alternatives, every word of it.
fn is_npm_range(value: &str) -> bool {
    !value.trim().is_empty()
        && value
            .split_whitespace()
            .all(|part| NPM_RANGE_PART.is_match(part))
}

fn toml_dependency(section: Section, text: &str) -> bool {
    TOML_DEPENDENCY
        .captures(text)
        .is_some_and(|c| section == Section::Dependencies || !PACKAGE_KEYS.contains(&&c[1]))
}
