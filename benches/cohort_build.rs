//! Cohort build on a large pull request: a generated 750-file Rust repository with 475 changed
//! files, with a cold symbol index (no cache: every file parsed) and a warm one (read from
//! the cache file). The target is under a second for scan + cohorts on two cores.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use review_tui::cohort::CohortInput;
use review_tui::session::cohort_build::build;
use std::hint::black_box;

const FILES: usize = 750;
const CHANGED: usize = 475;
const MODULE_SIZE: usize = 25;

fn path_of(i: usize) -> String {
    format!("src/mod_{}/file_{i}.rs", i / MODULE_SIZE)
}

/// One ~60-line file that calls into two others, so the symbol graph is connected the way a
/// real crate's is: some long chains, many small clusters.
fn source(i: usize, changed: bool) -> String {
    let a = (i * 7 + 3) % FILES;
    let b = (i * 13 + 11) % FILES;
    let mut text = format!(
        "use crate::mod_{}::file_{a}::compute_{a};\n\
         use crate::mod_{}::file_{b}::Record{b};\n\n\
         pub struct Record{i} {{\n    pub value: u32,\n    pub label: String,\n}}\n\n",
        a / MODULE_SIZE,
        b / MODULE_SIZE
    );
    // A tenth of the changes touch a public signature, the rest a body line.
    let widen = changed && i.is_multiple_of(10);
    let parameter = if widen { "x: u64" } else { "x: u32" };
    let body = if changed {
        format!("    let y = x as u32 + {i} + 1;\n")
    } else {
        format!("    let y = x as u32 + {i};\n")
    };
    text.push_str(&format!(
        "pub fn compute_{i}({parameter}) -> u32 {{\n{body}    compute_{a}(y) + helper_{i}(y)\n}}\n\n"
    ));
    text.push_str(&format!(
        "fn helper_{i}(x: u32) -> u32 {{\n    let record = Record{b} {{ value: x, label: String::new() }};\n    record.value * 2\n}}\n\n"
    ));
    for k in 0..6 {
        text.push_str(&format!(
            "pub fn extra_{i}_{k}(items: &[u32]) -> u32 {{\n    let mut total = 0;\n    for item in items {{\n        total += item * {k};\n    }}\n    total\n}}\n\n"
        ));
    }
    text
}

/// A git-style unified diff of two versions with the same number of lines, 3 lines of
/// context, hunks merged when their context overlaps.
fn diff_text(path: &str, old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    assert_eq!(old.len(), new.len());
    let changed: Vec<usize> = (0..old.len()).filter(|&n| old[n] != new[n]).collect();
    let mut text = format!(
        "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"
    );
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &n in &changed {
        let (start, end) = (n.saturating_sub(3), (n + 3).min(old.len() - 1));
        match groups.last_mut() {
            Some(last) if start <= last.1 + 1 => last.1 = end,
            _ => groups.push((start, end)),
        }
    }
    for (start, end) in groups {
        let count = end - start + 1;
        text.push_str(&format!(
            "@@ -{},{count} +{},{count} @@\n",
            start + 1,
            start + 1
        ));
        for n in start..=end {
            if old[n] == new[n] {
                text.push_str(&format!(" {}\n", old[n]));
            } else {
                text.push_str(&format!("-{}\n+{}\n", old[n], new[n]));
            }
        }
    }
    text
}

/// Writes the head worktree into `root` and returns the pull request's diff text.
fn generate(root: &Path) -> String {
    let mut diff = String::new();
    for i in 0..FILES {
        let path = path_of(i);
        let changed = i < CHANGED;
        let head = source(i, changed);
        let full = root.join(&path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, &head).unwrap();
        if changed {
            diff.push_str(&diff_text(&path, &source(i, false), &head));
        }
    }
    diff
}

fn cohort_build(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let worktree = dir.path().join("worktree");
    let cache = dir.path().join("cache");
    let diff = review_tui::diff::parse(&generate(&worktree)).unwrap();
    assert_eq!(diff.files.len(), CHANGED);
    let head_sha: review_tui::commit_id::CommitId =
        "0123456789abcdef0123456789abcdef01234567".parse().unwrap();
    let input = |cache_dir| CohortInput {
        diff: &diff,
        worktree: &worktree,
        base: None,
        cache_dir,
        head_sha: &head_sha,
        api_advisory: &[],
        pr: None,
    };

    let report = build(input(Some(&cache))).unwrap();
    assert!(!report.index_stats.from_cache);
    assert_eq!(report.index_stats.files_indexed, FILES);
    eprintln!(
        "{} cohorts, largest {} files, top blast radius {}, apiContract {}",
        report.cohorts.len(),
        report
            .cohorts
            .iter()
            .map(|c| c.files.len())
            .max()
            .unwrap_or(0),
        report.cohorts.first().map_or(0, |c| c.blast_radius),
        report.axes[0].verdict
    );

    // Wall time on a shared CI box depends on its neighbours; CPU time per build does not.
    // Only the cold build is measured here: the index is read lazily from the worktree on
    // every `build` (the symbols-<sha>.json cache is gone); what makes a repeat review warm, the
    // mirror's tag store and the space's cohort report cache, needs a repository and is
    // measured on real ones by `scripts/bench-vs-git.sh`.
    for (name, cache_dir) in [("cold", None::<&std::path::Path>)] {
        if let Some(before) = cpu_seconds() {
            for _ in 0..5 {
                black_box(build(input(cache_dir)).unwrap());
            }
            let per_build = (cpu_seconds().unwrap_or(before) - before) / 5.0;
            eprintln!("{name}: {:.0} ms of CPU per build", per_build * 1000.0);
        }
    }

    let mut group = c.benchmark_group("cohort_build_750_files_475_changed");
    group.sample_size(10);
    group.bench_function("cold_index", |b| {
        b.iter(|| black_box(build(input(None)).unwrap()))
    });
    group.finish();
}

/// User + system CPU time of this process so far, from `/proc` (Linux; 10 ms resolution).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

criterion_group!(benches, cohort_build);
criterion_main!(benches);
