#!/usr/bin/env python3
"""Builds a git repository shaped like a large real pull request, for benchmarks:
~750 Rust files in a workspace, a `feature` branch that changes ~475 of them with ~21k added
and ~6k removed lines (with the usual mix: new functions, edits, a few unwraps and TODOs).

Usage: scripts/make-large-pr.py DIR [--files 750] [--changed 475]
Then:  scripts/bench-vs-git.sh DIR main feature
"""
import argparse
import os
import random
import subprocess


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid")
    subprocess.run(["git", "-C", repo, *args], check=True, env=env, stdout=subprocess.DEVNULL)


def module(i, lines, rng):
    out = [f"//! Module {i}.", "", "use std::collections::HashMap;", ""]
    n = 0
    while len(out) < lines:
        out += [
            f"pub fn compute_{i}_{n}(input: &HashMap<String, u64>, key: &str) -> Option<u64> {{",
            f"    let base = input.get(key).copied()?;",
            f"    let scaled = base.checked_mul({rng.randint(2, 9)})?;",
            f"    Some(scaled + helper_{i}_{n}(base))",
            "}",
            "",
            f"fn helper_{i}_{n}(value: u64) -> u64 {{",
            f"    value.rotate_left({rng.randint(1, 7)}) ^ {rng.randint(1, 999)}",
            "}",
            "",
        ]
        n += 1
    return out[:lines]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--changed", type=int, default=475)
    args = parser.parse_args()
    rng = random.Random(7)
    repo = args.dir
    os.makedirs(repo, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    sources = {}
    for i in range(args.files):
        path = f"crates/core_{i % 25}/src/module_{i}.rs"
        sources[path] = module(i, 60, rng)
    for path, lines in sources.items():
        os.makedirs(os.path.join(repo, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(repo, path), "w") as f:
            f.write("\n".join(lines) + "\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "feature")
    for path in rng.sample(sorted(sources), args.changed):
        lines = sources[path]
        # Remove ~20 lines and add ~55 (≈6k removed, ≈21k added over 475 files).
        start = rng.randint(4, 30)
        del lines[start:start + 20]
        i = path.split("_")[-1].split(".")[0]
        added = []
        for k in range(5):
            added += [
                f"pub fn added_{i}_{k}(items: &[u64]) -> u64 {{",
                "    let mut total = 0;",
                "    for item in items {",
                "        total += item.saturating_mul(3);",
                "    }",
                "    // TODO: batch this" if k == 0 and rng.random() < 0.2 else "    total = total.wrapping_add(1);",
                "    let parsed: u64 = \"7\".parse().unwrap();" if k == 1 and rng.random() < 0.3 else "    let parsed: u64 = 7;",
                "    total + parsed",
                "}",
                "",
                f"pub fn added_{i}_{k}_again(x: u64) -> u64 {{ x + {k} }}",
            ]
        lines[start:start] = added[:55]
        with open(os.path.join(repo, path), "w") as f:
            f.write("\n".join(lines) + "\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature: a large change")
    print(subprocess.run(["git", "-C", repo, "diff", "--shortstat", "main...feature"],
                         capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
