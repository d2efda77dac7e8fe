//! `review-tui gc` on a real data directory: real reviews of a real repository fill it, then gc
//! lists (dry run) and removes what no space needs, skips a space in use, and never touches a
//! space's decisions.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, SystemTime};

use crate::cli::review_tui;
use crate::support::git_repo::{GitRepo, pr_repository};

fn run(data: &Path, args: &[&str]) -> Output {
    review_tui()
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .env("REVIEW_TUI_CONFIG", data.join("no-config.toml"))
        .env_remove("REVIEW_TUI_DATA_DIR")
        .output()
        .unwrap()
}

/// A headless deterministic review of `range`; returns its exit code.
fn review(data: &Path, repo: &GitRepo, range: &str) -> i32 {
    let reference = format!("{}#{range}", repo.path().display());
    let out = run(
        data,
        &[
            &reference,
            "--headless",
            "--deterministic-only",
            "--force",
            "--format",
            "json",
        ],
    );
    let code = out.status.code().unwrap();
    assert!(
        (0..=7).contains(&code) && code != 2 && code != 4,
        "{range}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    code
}

fn gc(data: &Path, args: &[&str]) -> (i32, String, String) {
    let out = run(data, &[&["gc"], args].concat());
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The space directory whose name holds `head` (`<base>..<head>-<hash>`).
fn space(data: &Path, head: &str) -> PathBuf {
    let root = data.join("spaces/local");
    let repo_dir = std::fs::read_dir(&root)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::read_dir(repo_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with(&format!("main..{head}-"))
        })
        .unwrap_or_else(|| panic!("no space for {head}"))
}

fn mirror(data: &Path) -> PathBuf {
    let dir = data.join("mirrors/local");
    std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

fn refs(mirror: &Path) -> Vec<String> {
    let out = std::process::Command::new("git")
        .arg("--git-dir")
        .arg(mirror)
        .args(["for-each-ref", "--format=%(refname)", "refs/review-tui/"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|read| {
            read.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn gc_lists_then_removes_what_no_space_needs_and_keeps_every_decision() {
    let repo = pr_repository();
    repo.git(&["checkout", "--quiet", "-b", "other", "main"]);
    repo.write("src/other.rs", "pub fn other() -> u32 { 1 }\n");
    repo.commit_all("other: a helper");
    repo.git(&["checkout", "--quiet", "-b", "idle", "main"]);
    repo.write("src/idle.rs", "pub fn idle() -> u32 { 2 }\n");
    repo.commit_all("idle: a helper");
    let data = tempfile::tempdir().unwrap();
    let data = data.path();

    let old_feature = repo.rev_parse("feature");
    review(data, &repo, "main..feature");
    let feature = space(data, "feature");
    let cache = feature.join("cache");
    // What the first head's round left in the cache, kept aside: a round at the next head
    // forgets it, unless that round is killed first, which is what is replayed below.
    let first_head_files: Vec<(String, Vec<u8>)> = files(&cache)
        .into_iter()
        .map(|n| (n.clone(), std::fs::read(cache.join(&n)).unwrap()))
        .collect();
    review(data, &repo, "main..other");
    let idle_code = review(data, &repo, "main..idle");
    // A push to the feature: its space moves to a new head, the old head's caches are stale.
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.write("src/parse.rs", "pub fn parse() -> Option<u32> { None }\n");
    let new_feature = repo.commit_all("feature: parse returns an option");
    review(data, &repo, "main..feature");
    for (name, bytes) in &first_head_files {
        std::fs::write(cache.join(name), bytes).unwrap();
    }

    let other = space(data, "other");
    let idle = space(data, "idle");
    let mirror = mirror(data);
    let stale: Vec<String> = files(&cache)
        .into_iter()
        .filter(|n| n.contains(&old_feature))
        .collect();
    assert!(
        !stale.is_empty(),
        "{old_feature} {new_feature} {:?}",
        files(&cache)
    );
    assert!(files(&cache).iter().any(|n| n.contains(&new_feature)));
    let diffs = mirror.join("review-tui-diffs");
    let stale_diff = files(&diffs)
        .into_iter()
        .find(|n| n.contains(&old_feature))
        .expect("the old head's diff is cached");

    // The `other` space is deleted by hand: its refs and worktree registration are orphans.
    // A space's directory and its refs carry the same hash of its key.
    let name = other.file_name().unwrap().to_string_lossy().into_owned();
    let hash = name.rsplit('-').next().unwrap().to_string();
    let other_refs: Vec<String> = refs(&mirror)
        .into_iter()
        .filter(|r| r.contains(&hash))
        .collect();
    std::fs::remove_dir_all(&other).unwrap();
    // The `idle` space was last opened 60 days ago.
    let sixty_days_ago = SystemTime::now() - Duration::from_secs(60 * 24 * 3600);
    std::fs::File::options()
        .write(true)
        .open(idle.join("state.json"))
        .unwrap()
        .set_modified(sixty_days_ago)
        .unwrap();
    let idle_state = std::fs::read(idle.join("state.json")).unwrap();

    // A dry run lists everything with its size and removes nothing.
    let refs_before = refs(&mirror);
    let (code, out, err) = gc(data, &["--dry-run"]);
    assert_eq!(code, 0, "{err}");
    for name in &stale {
        assert!(out.contains(name.as_str()), "{name} not listed:\n{out}");
    }
    assert!(out.contains(&stale_diff), "{out}");
    assert!(
        out.contains(&format!("{}", idle.join("worktree").display())),
        "{out}"
    );
    assert!(out.contains("would free"), "{out}");
    assert!(out.contains("dry run: nothing was removed"), "{out}");
    assert!(!out.contains("state.json"), "{out}");
    for name in &stale {
        assert!(cache.join(name).exists());
    }
    assert!(idle.join("worktree").is_dir());
    assert_eq!(refs(&mirror), refs_before);

    // The feature's space is in use: gc leaves it alone and says so; the rest goes.
    let lock = std::fs::File::options()
        .read(true)
        .write(true)
        .open(feature.join("lock"))
        .unwrap();
    lock.try_lock().unwrap();
    let (code, out, err) = gc(data, &[]);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(
        out.contains("skipped:") && out.contains("is in use"),
        "{out}"
    );
    for name in &stale {
        assert!(
            cache.join(name).exists(),
            "{name} removed from a space in use"
        );
    }
    // The deleted space's refs and its worktree registration are gone; the others' are kept.
    let after = refs(&mirror);
    assert!(!other_refs.is_empty());
    for name in &other_refs {
        assert!(!after.contains(name), "{name} kept:\n{after:?}");
    }
    assert_eq!(
        after.len(),
        refs_before.len() - other_refs.len(),
        "{after:?}"
    );
    let worktrees = std::process::Command::new("git")
        .arg("--git-dir")
        .arg(&mirror)
        .args(["worktree", "list", "--porcelain"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&worktrees.stdout).into_owned();
    assert!(!listed.contains(other.to_str().unwrap()), "{listed}");
    // The idle space lost its checkout and caches, not its decisions.
    assert!(!idle.join("worktree").exists());
    assert!(files(&idle.join("cache")).is_empty());
    assert_eq!(std::fs::read(idle.join("state.json")).unwrap(), idle_state);
    assert!(!diffs.join(&stale_diff).exists());
    drop(lock);

    // Free again, the feature's old head goes and its current head stays.
    let (code, out, err) = gc(data, &[]);
    assert_eq!(code, 0, "{err}\n{out}");
    for name in &stale {
        assert!(!cache.join(name).exists(), "{name} kept:\n{out}");
    }
    assert!(files(&cache).iter().any(|n| n.contains(&new_feature)));
    assert!(feature.join("worktree").is_dir());
    // Nothing is left to collect.
    let (code, out, _) = gc(data, &["--dry-run"]);
    assert_eq!(code, 0);
    assert!(out.contains("would free: 0 B in 0 item(s)"), "{out}");

    // The idle space opens again: its worktree is checked out anew, the verdict is the same.
    assert_eq!(review(data, &repo, "main..idle"), idle_code);
    assert!(idle.join("worktree/src/idle.rs").is_file());
}

#[test]
fn a_max_age_that_is_not_a_duration_is_one_clear_error() {
    let data = tempfile::tempdir().unwrap();
    let (code, out, err) = gc(data.path(), &["--max-age", "soon"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        err.contains("--max-age \"soon\" is not a duration"),
        "{err}"
    );
}

/// This version's tag store directory in `mirror` (the only one there) and its segments,
/// oldest first, with their bytes.
fn tag_segments(mirror: &Path) -> (PathBuf, Vec<(String, Vec<u8>)>) {
    let root = mirror.join("review-tui-tags");
    let versions = files(&root);
    assert_eq!(versions.len(), 1, "{versions:?}");
    let store = root.join(&versions[0]);
    let segments = files(&store)
        .into_iter()
        .filter(|n| n.starts_with("seg-"))
        .map(|n| (n.clone(), std::fs::read(store.join(&n)).unwrap()))
        .collect();
    (store, segments)
}

/// The blob ids a segment holds, in its order.
fn blobs_in(segment: &[u8]) -> Vec<String> {
    let entries: Vec<serde_json::Value> = serde_json::from_slice(segment).unwrap();
    entries
        .iter()
        .map(|e| e["blob"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_tag_store_over_its_size_bound_keeps_its_newest_entries() {
    let repo = pr_repository();
    repo.git(&["checkout", "--quiet", "-b", "other", "main"]);
    repo.write("src/other.rs", "pub fn other() -> u32 { 1 }\n");
    repo.commit_all("other: a helper");
    let data = tempfile::tempdir().unwrap();
    let data = data.path();
    let feature_code = review(data, &repo, "main..feature");
    review(data, &repo, "main..other");
    let mirror = mirror(data);
    let (store, before) = tag_segments(&mirror);
    // The feature's review wrote the first segment, the other's the newest (its one new blob).
    assert_eq!(before.len(), 2, "{store:?}");
    let feature_blobs = blobs_in(&before[0].1);
    let other_blob = repo.rev_parse("other:src/other.rs");
    assert_eq!(blobs_in(&before[1].1), vec![other_blob.clone()]);
    let newest = before[1].1.len();
    // Room for the newest entry and less than any other beside it.
    let bound = (newest + 10).to_string();

    // A dry run names the store and what would go, and changes nothing.
    let (code, out, err) = gc(data, &["--dry-run", "--max-tag-store", &bound]);
    assert_eq!(code, 0, "{err}\n{out}");
    let listed = format!("the oldest entries of {}", store.display());
    assert!(out.contains(&listed), "{out}");
    assert!(
        out.contains(&format!(
            "{} of {} entries",
            feature_blobs.len(),
            feature_blobs.len() + 1
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("symbol tag stores {newest} B")),
        "{out}"
    );
    assert!(out.contains("dry run: nothing was removed"), "{out}");
    assert_eq!(tag_segments(&mirror).1, before);

    // The config's bound, for real: one segment within it, of the newest entry.
    let config = data.join("no-config.toml");
    std::fs::write(&config, "[cache]\nmax_tag_store = \"0.2kB\"\n").unwrap();
    let (code, out, err) = gc(data, &[]);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains(&listed) && out.contains("removed"), "{out}");
    let (_, after) = tag_segments(&mirror);
    assert_eq!(after.len(), 1, "{out}");
    assert!(after[0].1.len() <= 200, "{}", after[0].1.len());
    assert_eq!(blobs_in(&after[0].1), vec![other_blob.clone()]);
    assert!(
        out.contains(&format!("symbol tag stores {} B", after[0].1.len())),
        "{out}"
    );
    // Within the bound now: nothing more to trim.
    let (code, out, _) = gc(data, &["--dry-run"]);
    assert_eq!(code, 0);
    assert!(!out.contains(&listed), "{out}");

    // The evicted blobs are parsed again by the next build, with the same verdict (the
    // space's cached report is removed first, or the review would build nothing).
    std::fs::remove_dir_all(space(data, "feature").join("cache")).unwrap();
    assert_eq!(review(data, &repo, "main..feature"), feature_code);
    let (_, again) = tag_segments(&mirror);
    let stored: Vec<String> = again.iter().flat_map(|(_, s)| blobs_in(s)).collect();
    for blob in &feature_blobs {
        assert!(stored.contains(blob), "{blob} not parsed again: {stored:?}");
    }

    // The flag overrides the config, even a config value gc could not use.
    std::fs::write(&config, "[cache]\nmax_tag_store = \"lots\"\n").unwrap();
    let (code, out, err) = gc(data, &["--max-tag-store", "1GB"]);
    assert_eq!(code, 0, "{err}\n{out}");
    let (code, out, err) = gc(data, &[]);
    assert_eq!(code, 4, "{out}");
    assert!(
        err.contains("[cache] max_tag_store \"lots\" is not a size (\"40MB\", \"512KB\", \"1GB\")"),
        "{err}"
    );
}

#[test]
fn a_max_tag_store_that_is_not_a_size_is_one_clear_error() {
    let data = tempfile::tempdir().unwrap();
    let (code, out, err) = gc(data.path(), &["--max-tag-store", "40 megs"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        err.contains("--max-tag-store \"40 megs\" is not a size (\"40MB\", \"512KB\", \"1GB\")"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
}
