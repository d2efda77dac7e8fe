#!/usr/bin/env bash
# Compares review-tui's headless deterministic review against git itself on the same range:
#   baseline: `git diff BASE..HEAD > /dev/null` + `git worktree add` (what any review must do)
#   cold:     review-tui on a fresh data dir (mirror, worktree, index, scan, cohorts, verdict)
#   warm:     review-tui again on the same data dir (a new round at the same head)
# Prints the median of 5 runs of each, the ratios, and peak RSS (from /usr/bin/time -v).
# Usage: scripts/bench-vs-git.sh REPO BASE HEAD   (build first: cargo build --release)
# Scratch space comes from mktemp: TMPDIR=/dev/shm (with REPO there too) measures CPU work on
# tmpfs, stable from run to run; on a disk, file creation after many runs makes git's own time
# (and so every ratio) drift.
set -euo pipefail

repo=${1:?usage: $0 REPO BASE HEAD}
base=${2:?usage: $0 REPO BASE HEAD}
head=${3:?usage: $0 REPO BASE HEAD}
bin=${REVIEW_TUI_BIN:-$(dirname "$0")/../target/release/review-tui}
runs=5
[ -x "$bin" ] || { echo "no binary at $bin: run cargo build --release (or set REVIEW_TUI_BIN)" >&2; exit 4; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed for peak RSS: apt-get install time" >&2; exit 4; }
repo=$(cd "$repo" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; git -C "$repo" worktree prune' EXIT

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
peak_kb() { awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$1"; }

git_run() {
  local wt="$scratch/wt-$1"
  local t0 t1
  t0=$(now)
  git -C "$repo" diff "$base..$head" > /dev/null
  git -C "$repo" worktree add --quiet --detach "$wt" "$head"
  t1=$(now)
  git -C "$repo" worktree remove --force "$wt"
  echo "$t1 - $t0" | bc
}

tui_run() { # $1: data dir, $2: rss file
  local t0 t1
  t0=$(now)
  /usr/bin/time -v -o "$2" "$bin" "$repo#$base..$head" --headless --deterministic-only --force \
    --format json --data-dir "$1" > /dev/null 2> "$2.stderr" || [ $? -le 7 ]
  t1=$(now)
  echo "$t1 - $t0" | bc
}

git_times=(); cold_times=(); warm_times=(); cold_rss=0; warm_rss=0
for i in $(seq $runs); do
  git_times+=("$(git_run "$i")")
  cold_times+=("$(tui_run "$scratch/cold-$i" "$scratch/rss-cold-$i")")
  cold_rss=$(( $(peak_kb "$scratch/rss-cold-$i") > cold_rss ? $(peak_kb "$scratch/rss-cold-$i") : cold_rss ))
  warm_times+=("$(tui_run "$scratch/cold-$i" "$scratch/rss-warm-$i")")
  warm_rss=$(( $(peak_kb "$scratch/rss-warm-$i") > warm_rss ? $(peak_kb "$scratch/rss-warm-$i") : warm_rss ))
done

g=$(printf '%s\n' "${git_times[@]}" | median)
c=$(printf '%s\n' "${cold_times[@]}" | median)
w=$(printf '%s\n' "${warm_times[@]}" | median)
changed=$(git -C "$repo" diff --shortstat "$base...$head")
printf 'range    %s..%s (%s)\n' "$base" "$head" "${changed# }"
printf 'git      %.3f s  (diff + worktree add, median of %d)\n' "$g" "$runs"
printf 'cold     %.3f s  %.1fx git  peak RSS %d MB\n' "$c" "$(echo "$c / $g" | bc -l)" $((cold_rss / 1024))
printf 'warm     %.3f s  %.1fx git  peak RSS %d MB\n' "$w" "$(echo "$w / $g" | bc -l)" $((warm_rss / 1024))
