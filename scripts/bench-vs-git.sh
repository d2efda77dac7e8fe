#!/usr/bin/env bash
# Compares review-tui's headless deterministic review against git itself on the same range:
#   baseline: `git diff BASE..HEAD > /dev/null` + `git worktree add` (what any review must do)
#   cold:     review-tui on a fresh data dir (mirror, worktree, index, scan, cohorts, verdict)
#   warm:     review-tui again on the same data dir (a new round at the same head)
# Prints the median of 5 runs of each, the ratios, and peak RSS (from /usr/bin/time -v).
# Usage: scripts/bench-vs-git.sh REPO BASE HEAD   (build first: cargo build --release)
#        scripts/bench-vs-git.sh --small-prs REPO [N]
#   The small-PR case: the last N (default 10) squash-merged PRs of REPO's first-parent history
#   ("subject (#123)") that change 2-10 files, each reviewed for the first time in one data dir
#   whose mirror is already there (one review of an older commit warms it first), against
#   `git diff` + `git worktree add` of the same range; prints each, the medians and the ratio.
# Scratch space comes from mktemp: TMPDIR=/dev/shm (with REPO there too) measures CPU work on
# tmpfs, stable from run to run; on a disk, file creation after many runs makes git's own time
# (and so every ratio) drift.
set -euo pipefail

if [ "${1:-}" = "--small-prs" ]; then
  repo=$(cd "${2:?usage: $0 --small-prs REPO [N]}" && pwd)
  n=${3:-10}
  bin=${REVIEW_TUI_BIN:-$(dirname "$0")/../target/release/review-tui}
  [ -x "$bin" ] || { echo "no binary at $bin: run cargo build --release (or set REVIEW_TUI_BIN)" >&2; exit 4; }
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"; git -C "$repo" worktree prune' EXIT
  now() { date +%s.%N; }
  median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  picked=()
  while IFS='|' read -r sha parents subject; do
    [ "$(wc -w <<< "$parents")" -eq 1 ] || continue
    case "$subject" in *"(#"*")") ;; *) continue ;; esac
    files=$(git -C "$repo" diff --name-only "$sha^1" "$sha" | wc -l)
    [ "$files" -ge 2 ] && [ "$files" -le 10 ] && picked+=("$sha")
    [ ${#picked[@]} -ge "$n" ] && break
  done < <(git -C "$repo" log --first-parent --format='%H|%P|%s' HEAD)
  [ ${#picked[@]} -gt 0 ] || { echo "no squash-merged PR of 2-10 files in $repo" >&2; exit 4; }
  data="$scratch/data"
  # The mirror is there before the first measured review, as for anyone who reviewed this
  # repository before: warm it with a review of an older commit.
  oldest=${picked[-1]}
  "$bin" "$repo#$oldest~20..$oldest~19" --headless --deterministic-only --force --format json \
    --data-dir "$data" > /dev/null 2>&1 || true
  git_times=(); tui_times=()
  printf '%-10s %7s %7s %6s\n' pr git tui ratio
  for sha in "${picked[@]}"; do
    wt="$scratch/wt-$sha"
    t0=$(now)
    git -C "$repo" diff "$sha^1..$sha" > /dev/null
    git -C "$repo" worktree add --quiet --detach "$wt" "$sha"
    t1=$(now)
    git -C "$repo" worktree remove --force "$wt"
    "$bin" "$repo#$sha^1..$sha" --headless --deterministic-only --force --format json \
      --data-dir "$data" > /dev/null 2> "$scratch/stderr" || [ $? -le 7 ]
    t2=$(now)
    g=$(echo "$t1 - $t0" | bc); t=$(echo "$t2 - $t1" | bc)
    git_times+=("$g"); tui_times+=("$t")
    printf '%-10s %7.3f %7.3f %5.1fx\n' "${sha:0:10}" "$g" "$t" "$(echo "$t / $g" | bc -l)"
  done
  g=$(printf '%s\n' "${git_times[@]}" | median)
  t=$(printf '%s\n' "${tui_times[@]}" | median)
  printf 'median   git %.3f s, review-tui %.3f s: %.1fx git (%d PRs)\n' "$g" "$t" \
    "$(echo "$t / $g" | bc -l)" ${#picked[@]}
  exit 0
fi

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
