#!/usr/bin/env python3
"""Run review-tui's apiContract axis over cargo-semver-checks' labelled test crates.

Each test_crates/X holds old/ and new/ versions of one crate (same version number). A pair is
labelled *major* when a lint whose `required_update` is Major fires on it
(test_outputs/query_execution/<lint>.snap lists the crates each lint fires on), *compatible*
when no lint with a Major requirement fires. Each pair becomes a git repository with the old
crate as the base commit and the new one as the head; `publish = false` is dropped from the
manifests (the corpus marks its fixtures unpublished, review-tui would rightly skip them), and
their 0.x versions read as 1.0.0 (a 0.x break whose version is unchanged only warns).

A pair whose old and new trees are identical (fixtures for other parts of the tool) has nothing
to review and is counted apart. A few pairs are labelled compatible only because the corpus
has no lint for what changed; DISPUTED lists them with the break, per the Rust reference, and
they are counted apart too (neither caught nor false), so the figures say what they mean.

usage: semver-corpus.py CARGO_SEMVER_CHECKS_CHECKOUT REVIEW_TUI_BINARY OUTDIR [--only CRATE ...]
       (the checkout needs test_crates/, test_outputs/query_execution/ and src/lints/)
Prints the counts and every major pair that did not fail and every compatible pair that did.
"""
import json, os, re, shutil, subprocess, sys, tempfile

from api_pair import api_axis, git

corpus, binary, out = sys.argv[1], sys.argv[2], sys.argv[3]
only = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--only"]

# Pairs no Major lint fires on that still break code using the old version. Each reason names
# the break; the pair is reported under "disputed" whatever review-tui says about it.
DISPUTED = {
    "trait_requires_more_generic_type_params":
        "`DefaultBecomesRequired<A, B = i64>` -> `<A, B>`, `GenericAdded<T>` -> `<T, U>`: "
        "`dyn GenericAdded<u8>` and `impl DefaultBecomesRequired<u8>` no longer compile (the "
        "corpus's snapshot for the lint of this name lists type_requires_more_generic_type_params)",
    "trait_requires_more_const_generic_params":
        "`NotGeneric` -> `NotGeneric<const COUNT: usize>`: `impl NotGeneric for X` no longer "
        "compiles (the snapshot for the lint of this name lists another crate)",
    "features_no_default":
        "`function_depending_on_B`, behind the non-default feature `B`, is removed: users who "
        "enable `B` lose it (the snapshots run with default features only)",
    "enum_non_exhaustive_tuple_variant_field_added":
        "a field inserted before the last of a #[non_exhaustive] tuple variant: "
        "`TupleVariantWithFieldAdded(i32, u8)` -> `(i32, i64, u8)`, so the pattern "
        "`V(_, b, ..)` now binds an i64 where it bound a u8",
}
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

def copy(src, dst):
    for entry in os.listdir(dst):
        if entry != ".git":
            p = os.path.join(dst, entry)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    # Not copy2: old/ and new/ files often have the same size and modification time, and git
    # would take a changed file for unchanged by its stat data (an empty "new" commit).
    shutil.copytree(src, dst, dirs_exist_ok=True, copy_function=shutil.copyfile)
    for root, _, files in os.walk(dst):
        if ".git" in root:
            continue
        for f in files:
            if f == "Cargo.toml":
                p = os.path.join(root, f)
                text = open(p).read()
                text = re.sub(r"(?m)^publish\s*=\s*false\s*$", "", text)
                # The crates are 0.1.0 on both sides; a 0.x break whose version the change left
                # as it was warns (the next release must bump 0.x). The corpus labels what
                # breaks callers, so both sides are read as 1.0.0, where a break fails.
                text = re.sub(r'(?m)^version\s*=\s*"0\.[0-9.]+"', 'version = "1.0.0"', text)
                open(p, "w").write(text)

rows = []
crates = os.path.join(corpus, "test_crates")
for crate in sorted(os.listdir(crates)):
    old, new = os.path.join(crates, crate, "old"), os.path.join(crates, crate, "new")
    if not (os.path.isdir(old) and os.path.isdir(new)):
        continue
    if only and crate not in only:
        continue
    if subprocess.run(["diff", "-rq", old, new], capture_output=True).returncode == 0:
        rows.append({"crate": crate, "label": "identical", "major_lints": [], "verdict": "-", "detail": ""})
        continue
    lints = fires.get(crate, set())
    major = sorted(l for l in lints if required.get(l) == "Major")
    label = "major" if major else "disputed" if crate in DISPUTED else "compatible"
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        git(repo, "init", "-q", "-b", "main")
        copy(old, repo)
        git(repo, "add", "-A"); git(repo, "commit", "-q", "--allow-empty", "-m", "old")
        copy(new, repo)
        git(repo, "add", "-A"); git(repo, "commit", "-q", "--allow-empty", "-m", "new")
        verdict, detail = api_axis(binary, repo, os.path.join(tmp, "data"))
    rows.append({"crate": crate, "label": label, "major_lints": major, "verdict": verdict, "detail": detail})
json.dump(rows, open(os.path.join(out, "semver-corpus.json"), "w"), indent=1)

majors = [r for r in rows if r["label"] == "major"]
compatible = [r for r in rows if r["label"] == "compatible"]
caught = [r for r in majors if r["verdict"] == "fail"]
false = [r for r in compatible if r["verdict"] == "fail"]
held = [r for r in compatible if r["verdict"] in ("partial", "unavailable", "error")]
disputed = [r for r in rows if r["label"] == "disputed"]
identical = [r for r in rows if r["label"] == "identical"]
print(f"major pairs: {len(caught)}/{len(majors)} fail ({100 * len(caught) // max(1, len(majors))} %)")
print(f"compatible pairs: {len(false)}/{len(compatible)} fail, {len(held)} partial/unavailable/error")
print(f"identical old/new (nothing to review): {len(identical)}; disputed labels: {len(disputed)}")
print("\nmajor pairs not failing:")
for r in majors:
    if r["verdict"] != "fail":
        print(f"  {r['crate']} [{', '.join(r['major_lints'])}]: {r['verdict']} {r['detail'][:160]}")
print("\ncompatible pairs failing or held:")
for r in false + held:
    print(f"  {r['crate']}: {r['verdict']} {r['detail'][:300]}")
print("\ndisputed (labelled compatible, but a break; counted apart):")
for r in disputed:
    print(f"  {r['crate']}: {r['verdict']}; why it breaks: {DISPUTED[r['crate']]}")
