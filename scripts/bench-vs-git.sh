#!/usr/bin/env bash
# Compares review-tui's headless deterministic review against git itself on the same range:
#   baseline: `git diff BASE..HEAD > /dev/null` + `git worktree add` (what any review must do)
#   cold:     review-tui on a fresh data dir (mirror, worktree, index, scan, cohorts, verdict)
#   warm:     review-tui again on the same data dir (a new round at the same head)
# Prints the median of RUNS (default 5) runs of each, the ratios, and peak RSS (/usr/bin/time -v).
#
# Usage: scripts/bench-vs-git.sh REPO BASE HEAD   (build first: cargo build --release)
#        scripts/bench-vs-git.sh --small-prs REPO [N]
#   The small-PR case: the last N (default 10) squash-merged PRs of REPO's first-parent history
#   ("subject (#123)") that change 2-10 files, each reviewed for the first time in one data dir
#   whose mirror is already there (one review of an older commit warms it first), against
#   `git diff` + `git worktree add` of the same range; prints each, the medians and the ratio.
#   The sweep is repeated RUNS times (default 3), each on a fresh data dir; each PR counts with
#   the median of its repetitions.
#        scripts/bench-vs-git.sh --batch REPO [N]
#   The pre-review of a batch (what `inbox --review-all --jobs 2` does): the same N (default 20)
#   small PRs reviewed JOBS (default 2) at a time in one data dir whose mirror is warmed first,
#   against N sequential `git worktree add` + `git diff`; the wall time of the whole batch,
#   median of RUNS (default 3), each on a fresh data dir.
#        scripts/bench-vs-git.sh --first-frame REPO BASE HEAD
#   Time from starting the cockpit (in a tmux pane of FRAME_SIZE, default 200x50) on a cold
#   space to the first screen showing FRAME_TEXT (default: the first 30 characters of HEAD's
#   subject, the PR's title in the header; `changed files` waits for the file list, `findings`
#   for the list after the verdict), read by polling `tmux capture-pane` every 5 ms; the median
#   of RUNS (default 5). The mirror is warmed first (as for the small PRs).
#
# REPORTS=DIR keeps each binary's JSON report (the small PRs' first repetition, the range's
# first cold run) as DIR/<pr>-bin<N>.json or DIR/<repo>-<base>..<head>-bin<N>.json, to check
# that two builds agree (scripts/same-reports.py DIR).
#
# REVIEW_TUI_BIN names the binary; several, separated by spaces (e.g. "before/review-tui
# after/review-tui"), are measured side by side: each repetition runs every binary in turn, so
# a busy machine slows them alike. The load average is printed before and after.
# Scratch space comes from mktemp: on a disk, file creation after many runs makes git's own time
# (and so every ratio) drift.
#        scripts/bench-vs-git.sh --tmpfs DIR [--small-prs|--batch|--first-frame] REPO ...
#   Measures on a RAM disk (DIR on tmpfs, e.g. /dev/shm): REPO is copied there first and every
#   data dir, worktree and report lives there too, so git and review-tui are timed on their CPU
#   work, stable from run to run. The copy is deleted at the end.
set -euo pipefail
[ -z "${REPORTS:-}" ] || mkdir -p "$REPORTS"

tmpfs=
if [ "${1:-}" = --tmpfs ]; then
  tmpfs=${2:?usage: $0 --tmpfs DIR [--small-prs|--batch|--first-frame] REPO ...}
  [ -d "$tmpfs" ] || { echo "--tmpfs $tmpfs: no such directory (a tmpfs mount such as /dev/shm)" >&2; exit 4; }
  shift 2
fi

mode=range
case "${1:-}" in
  --small-prs) mode=small; shift ;;
  --batch) mode=batch; shift ;;
  --first-frame) mode=frame; shift ;;
esac

read -r -a bins <<< "${REVIEW_TUI_BIN:-$(dirname "$0")/../target/release/review-tui}"
for bin in "${bins[@]}"; do
  [ -x "$bin" ] || { echo "no binary at $bin: run cargo build --release (or set REVIEW_TUI_BIN)" >&2; exit 4; }
done
nbins=${#bins[@]}
if [ -n "$tmpfs" ]; then scratch=$(mktemp -d "$tmpfs/bench-vs-git.XXXXXX"); else scratch=$(mktemp -d); fi
repo=
cleanup() {
  rm -rf "$scratch"
  [ -z "$repo" ] || [ ! -d "$repo" ] || git -C "$repo" worktree prune
}
trap cleanup EXIT
# The repository to measure: REPO itself, or (--tmpfs) its copy in the scratch dir.
use_repo() {
  local given
  given=$(cd "$1" && pwd)
  repo_name=$(basename "$given")
  if [ -n "$tmpfs" ]; then
    cp -a "$given" "$scratch/repo"
    repo="$scratch/repo"
    git -C "$repo" worktree prune
  else
    repo=$given
  fi
}

now() { date +%s.%N; }
# Seconds from $1 to $2, and $1 / $2, always with a leading digit (bc prints `.896`).
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", a / b }'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
peak_kb() { awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$1"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
label() { [ "$nbins" -eq 1 ] && echo "review-tui" || echo "bin$1"; }
echo "load average at start: $(load) ($(nproc) cores)${tmpfs:+, on tmpfs ($tmpfs)}"
for b in $(seq 0 $((nbins - 1))); do
  [ "$nbins" -eq 1 ] || echo "bin$b = ${bins[$b]}"
done

# Warms the mirror of data dir $2 with binary $1: a review of an older commit of the repository.
warm_mirror() {
  local oldest=$3
  "$1" "$repo#$oldest~20..$oldest~19" --headless --deterministic-only --force --format json \
    --data-dir "$2" > /dev/null 2>&1 || true
}

if [ "$mode" = small ] || [ "$mode" = batch ]; then
  use_repo "${1:?usage: $0 --small-prs|--batch REPO [N]}"
  if [ "$mode" = small ]; then n=${2:-10}; else n=${2:-20}; fi
  runs=${RUNS:-3}
  picked=()
  while IFS='|' read -r sha parents subject; do
    [ "$(wc -w <<< "$parents")" -eq 1 ] || continue
    case "$subject" in *"(#"*")") ;; *) continue ;; esac
    files=$(git -C "$repo" diff --name-only "$sha^1" "$sha" | wc -l)
    [ "$files" -ge 2 ] && [ "$files" -le 10 ] && picked+=("$sha")
    [ ${#picked[@]} -ge "$n" ] && break
  done < <(git -C "$repo" log --first-parent --format='%H|%P|%s' HEAD)
  [ ${#picked[@]} -gt 0 ] || { echo "no squash-merged PR of 2-10 files in $repo" >&2; exit 4; }
  oldest=${picked[-1]}
fi

if [ "$mode" = batch ]; then
  jobs=${JOBS:-2}
  [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "JOBS is a number of reviews at a time, not '$jobs'" >&2; exit 4; }
  declare -A batch
  gits=()
  for run in $(seq "$runs"); do
    t0=$(now)
    for sha in "${picked[@]}"; do
      git -C "$repo" diff "$sha^1..$sha" > /dev/null
      git -C "$repo" worktree add --quiet --detach "$scratch/wt-$sha" "$sha"
    done
    t1=$(now)
    for sha in "${picked[@]}"; do git -C "$repo" worktree remove --force "$scratch/wt-$sha"; done
    gits+=("$(elapsed "$t0" "$t1")")
    for b in $(seq 0 $((nbins - 1))); do
      data="$scratch/batch-$run-$b"
      warm_mirror "${bins[$b]}" "$data" "$oldest"
      t0=$(now)
      # Each review's outcome is its exit code (0-7); only an error (above 7) stops the batch.
      printf '%s\n' "${picked[@]}" | xargs -P "$jobs" -I{} sh -c \
        '"$1" "$2#$3^1..$3" --headless --deterministic-only --force --format json --data-dir "$4" > /dev/null 2>&1; [ $? -le 7 ] || exit 255' \
        _ "${bins[$b]}" "$repo" {} "$data"
      t1=$(now)
      batch[$b]+="$(elapsed "$t0" "$t1") "
      rm -rf "$data"
    done
  done
  g=$(printf '%s\n' "${gits[@]}" | median)
  printf 'batch of %d small PRs: git %.3f s sequential (diff + worktree add each, median of %d)\n' \
    ${#picked[@]} "$g" "$runs"
  for b in $(seq 0 $((nbins - 1))); do
    t=$(printf '%s\n' ${batch[$b]} | median)
    printf '%-10s %.3f s, %d at a time: %sx git   (%s)\n' "$(label "$b")" "$t" "$jobs" "$(ratio "$t" "$g")" "${batch[$b]}"
  done
  echo "load average at end: $(load)"
  exit 0
fi

if [ "$mode" = small ]; then
  # times/<pr>-git and times/<pr>-<bin>: one line per repetition.
  mkdir -p "$scratch/times"
  for run in $(seq "$runs"); do
    for b in $(seq 0 $((nbins - 1))); do
      data="$scratch/data-$run-$b"
      # The mirror is there before the first measured review, as for anyone who reviewed this
      # repository before.
      warm_mirror "${bins[$b]}" "$data" "$oldest"
    done
    for sha in "${picked[@]}"; do
      wt="$scratch/wt-$sha"
      t0=$(now)
      git -C "$repo" diff "$sha^1..$sha" > /dev/null
      git -C "$repo" worktree add --quiet --detach "$wt" "$sha"
      t1=$(now)
      git -C "$repo" worktree remove --force "$wt"
      elapsed "$t0" "$t1" >> "$scratch/times/$sha-git"
      for b in $(seq 0 $((nbins - 1))); do
        t1=$(now)
        "${bins[$b]}" "$repo#$sha^1..$sha" --headless --deterministic-only --force --format json \
          --data-dir "$scratch/data-$run-$b" > "$scratch/report.json" 2> "$scratch/stderr" || [ $? -le 7 ]
        t2=$(now)
        [ -z "${REPORTS:-}" ] || [ "$run" -ne 1 ] || cp "$scratch/report.json" "$REPORTS/${sha:0:10}-bin$b.json"
        elapsed "$t1" "$t2" >> "$scratch/times/$sha-$b"
      done
    done
  done
  printf '%-10s %5s %7s' pr files git
  for b in $(seq 0 $((nbins - 1))); do printf ' %14s' "$(label "$b")"; done
  echo
  git_medians=()
  declare -A tui_medians
  for sha in "${picked[@]}"; do
    g=$(median < "$scratch/times/$sha-git")
    git_medians+=("$g")
    printf '%-10s %5d %7.3f' "${sha:0:10}" "$(git -C "$repo" diff --name-only "$sha^1" "$sha" | wc -l)" "$g"
    for b in $(seq 0 $((nbins - 1))); do
      t=$(median < "$scratch/times/$sha-$b")
      tui_medians[$b]+="$t "
      printf ' %7.3f %5sx' "$t" "$(ratio "$t" "$g")"
    done
    echo
  done
  g=$(printf '%s\n' "${git_medians[@]}" | median)
  for b in $(seq 0 $((nbins - 1))); do
    t=$(printf '%s\n' ${tui_medians[$b]} | median)
    printf 'median   git %.3f s, %s %.3f s: %sx git (%d PRs, %d runs each)\n' "$g" \
      "$(label "$b")" "$t" "$(ratio "$t" "$g")" ${#picked[@]} "$runs"
  done
  echo "load average at end: $(load)"
  exit 0
fi

use_repo "${1:?usage: $0 REPO BASE HEAD}"
base=${2:?usage: $0 REPO BASE HEAD}
head=${3:?usage: $0 REPO BASE HEAD}
# A report's file is named by its repository and range, so the reports of several ranges can
# share REPORTS: `tokio-tokio-1.30.0..tokio-1.40.0-bin0.json` (`/` and other odd characters of
# a ref name become `_`).
range_name=$(printf '%s-%s..%s' "$repo_name" "$base" "$head" | tr -c 'A-Za-z0-9._~^-' '_')

if [ "$mode" = frame ]; then
  command -v tmux > /dev/null || { echo "tmux is needed for --first-frame" >&2; exit 4; }
  runs=${RUNS:-5}
  socket="review-tui-bench-$$"
  tm() { tmux -L "$socket" -f /dev/null "$@"; }
  trap 'tm kill-server 2> /dev/null || true; cleanup' EXIT
  oldest=$(git -C "$repo" rev-parse "$base")
  want=${FRAME_TEXT:-$(git -C "$repo" log -1 --format=%s "$head" | cut -c1-30)}
  size=${FRAME_SIZE:-200x50}
  [[ "$size" =~ ^[0-9]+x[0-9]+$ ]] || { echo "FRAME_SIZE is COLSxROWS, e.g. 80x24, not '$size'" >&2; exit 4; }
  declare -A frames
  for run in $(seq "$runs"); do
    for b in $(seq 0 $((nbins - 1))); do
      data="$scratch/frame-$run-$b"
      warm_mirror "${bins[$b]}" "$data" "$oldest"
      tm kill-server 2> /dev/null || true
      t0=$(now)
      tm new-session -d -x "${size%x*}" -y "${size#*x}" -e LANG=C.UTF-8 \
        "${bins[$b]} '$repo#$base..$head' --deterministic-only --force --data-dir '$data'; sleep 60"
      until tm capture-pane -p 2> /dev/null | grep -qF -- "$want"; do
        sleep 0.005
        awk -v a="$t0" -v b="$(now)" 'BEGIN { exit !(b - a > 60) }' && { echo "no '$want' within 60 s" >&2; exit 4; }
      done
      t1=$(now)
      tm kill-server 2> /dev/null || true
      frames[$b]+="$(elapsed "$t0" "$t1") "
    done
  done
  printf "first cockpit frame (%s) showing '%s', %s..%s, cold space, warm mirror (median of %d)\n" "$size" "$want" "$base" "$head" "$runs"
  for b in $(seq 0 $((nbins - 1))); do
    printf '%-10s %.3f s   (%s)\n' "$(label "$b")" "$(printf '%s\n' ${frames[$b]} | median)" "${frames[$b]}"
  done
  echo "load average at end: $(load)"
  exit 0
fi

runs=${RUNS:-5}
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed for peak RSS: apt-get install time" >&2; exit 4; }

git_run() {
  local wt="$scratch/wt-$1"
  local t0 t1
  t0=$(now)
  git -C "$repo" diff "$base..$head" > /dev/null
  git -C "$repo" worktree add --quiet --detach "$wt" "$head"
  t1=$(now)
  git -C "$repo" worktree remove --force "$wt"
  elapsed "$t0" "$t1"
}

tui_run() { # $1: binary, $2: data dir, $3: rss file
  local t0 t1
  t0=$(now)
  /usr/bin/time -v -o "$3" "$1" "$repo#$base..$head" --headless --deterministic-only --force \
    --format json --data-dir "$2" > "$3.json" 2> "$3.stderr" || [ $? -le 7 ]
  t1=$(now)
  elapsed "$t0" "$t1"
}

git_times=()
declare -A cold_times warm_times cold_rss warm_rss
for i in $(seq "$runs"); do
  git_times+=("$(git_run "$i")")
  for b in $(seq 0 $((nbins - 1))); do
    d="$scratch/cold-$i-$b"
    cold_times[$b]+="$(tui_run "${bins[$b]}" "$d" "$scratch/rss-cold-$i-$b") "
    warm_times[$b]+="$(tui_run "${bins[$b]}" "$d" "$scratch/rss-warm-$i-$b") "
    [ -z "${REPORTS:-}" ] || [ "$i" -ne 1 ] || cp "$scratch/rss-cold-$i-$b.json" "$REPORTS/$range_name-bin$b.json"
    c=$(peak_kb "$scratch/rss-cold-$i-$b"); w=$(peak_kb "$scratch/rss-warm-$i-$b")
    [ "$c" -le "${cold_rss[$b]:-0}" ] || cold_rss[$b]=$c
    [ "$w" -le "${warm_rss[$b]:-0}" ] || warm_rss[$b]=$w
    rm -rf "$d"
  done
done

g=$(printf '%s\n' "${git_times[@]}" | median)
changed=$(git -C "$repo" diff --shortstat "$base...$head")
printf 'range    %s..%s (%s)\n' "$base" "$head" "${changed# }"
printf 'git      %.3f s  (diff + worktree add, median of %d)\n' "$g" "$runs"
for b in $(seq 0 $((nbins - 1))); do
  c=$(printf '%s\n' ${cold_times[$b]} | median)
  w=$(printf '%s\n' ${warm_times[$b]} | median)
  printf '%-10s cold %.3f s  %sx git  peak RSS %d MB   (%s)\n' "$(label "$b")" "$c" \
    "$(ratio "$c" "$g")" $((cold_rss[$b] / 1024)) "${cold_times[$b]}"
  printf '%-10s warm %.3f s  %sx git  peak RSS %d MB\n' "$(label "$b")" "$w" \
    "$(ratio "$w" "$g")" $((warm_rss[$b] / 1024))
done
echo "load average at end: $(load)"
