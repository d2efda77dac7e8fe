#!/usr/bin/env python3
"""Run review-tui's apiContract axis over cargo-semver-checks' labelled test crates.

Each test_crates/X holds old/ and new/ versions of one crate (same version number). A pair is
labelled *major* when a lint whose `required_update` is Major fires on it
(test_outputs/query_execution/<lint>.snap lists the crates each lint fires on), *compatible*
when no lint with a Major requirement fires. Each pair becomes a git repository with the old
crate as the base commit and the new one as the head; `publish = false` is dropped from the
manifests (the corpus marks its fixtures unpublished, review-tui would rightly skip them).

usage: semver-corpus.py CARGO_SEMVER_CHECKS_CHECKOUT REVIEW_TUI_BINARY OUTDIR
       (the checkout needs test_crates/, test_outputs/query_execution/ and src/lints/)
Prints the counts and every major pair that did not fail and every compatible pair that did.
"""
import json, os, re, shutil, subprocess, sys, tempfile

corpus, binary, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)

required = {}
for name in os.listdir(os.path.join(corpus, "src/lints")):
    if name.endswith(".ron"):
        text = open(os.path.join(corpus, "src/lints", name)).read()
        m = re.search(r"required_update:\s*(\w+)", text)
        required[name[:-4]] = m.group(1) if m else "?"
fires = {}
snaps = os.path.join(corpus, "test_outputs/query_execution")
for name in os.listdir(snaps):
    lint = name[:-5]
    for crate in re.findall(r'"\./test_crates/([^/"]+)/"', open(os.path.join(snaps, name)).read()):
        fires.setdefault(crate, set()).add(lint)

def git(cwd, *args):
    subprocess.run(["git", "-C", cwd, *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})

def copy(src, dst):
    for entry in os.listdir(dst):
        if entry != ".git":
            p = os.path.join(dst, entry)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    shutil.copytree(src, dst, dirs_exist_ok=True)
    for root, _, files in os.walk(dst):
        if ".git" in root:
            continue
        for f in files:
            if f == "Cargo.toml":
                p = os.path.join(root, f)
                text = open(p).read()
                open(p, "w").write(re.sub(r"(?m)^publish\s*=\s*false\s*$", "", text))

rows = []
crates = os.path.join(corpus, "test_crates")
for crate in sorted(os.listdir(crates)):
    old, new = os.path.join(crates, crate, "old"), os.path.join(crates, crate, "new")
    if not (os.path.isdir(old) and os.path.isdir(new)):
        continue
    lints = fires.get(crate, set())
    major = sorted(l for l in lints if required.get(l) == "Major")
    label = "major" if major else "compatible"
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        git(repo, "init", "-q", "-b", "main")
        copy(old, repo)
        git(repo, "add", "-A"); git(repo, "commit", "-q", "--allow-empty", "-m", "old")
        copy(new, repo)
        git(repo, "add", "-A"); git(repo, "commit", "-q", "--allow-empty", "-m", "new")
        p = subprocess.run([binary, f"{repo}#HEAD~1..HEAD", "--headless", "--deterministic-only",
                            "--format", "json", "--force", "--data-dir", os.path.join(tmp, "data")],
                           capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(p.stdout)
        axis = next(a for a in report["verdict"]["axes"] if a["name"] == "apiContract")
        verdict, detail = axis["verdict"], axis.get("detail", "")
    except (ValueError, KeyError, StopIteration):
        verdict, detail = "error", p.stderr.strip()[-300:]
    rows.append({"crate": crate, "label": label, "major_lints": major, "verdict": verdict, "detail": detail})
json.dump(rows, open(os.path.join(out, "semver-corpus.json"), "w"), indent=1)

majors = [r for r in rows if r["label"] == "major"]
compatible = [r for r in rows if r["label"] == "compatible"]
caught = [r for r in majors if r["verdict"] == "fail"]
false = [r for r in compatible if r["verdict"] == "fail"]
held = [r for r in compatible if r["verdict"] in ("partial", "unavailable", "error")]
print(f"major pairs: {len(caught)}/{len(majors)} fail ({100 * len(caught) // max(1, len(majors))} %)")
print(f"compatible pairs: {len(false)}/{len(compatible)} fail, {len(held)} partial/unavailable/error")
print("\nmajor pairs not failing:")
for r in majors:
    if r["verdict"] != "fail":
        print(f"  {r['crate']} [{', '.join(r['major_lints'])}]: {r['verdict']} {r['detail'][:160]}")
print("\ncompatible pairs failing or held:")
for r in false + held:
    print(f"  {r['crate']}: {r['verdict']} {r['detail'][:300]}")
