#!/usr/bin/env python3
"""Run review-tui's apiContract axis over griffe's labelled breaking-change cases.

griffe (mkdocstrings/griffe) tests its `find_breaking_changes` on pairs of module sources:
`test_diff.py`'s parametrised (old_code, new_code, expected_breakages) cases, and one pair where
a method moves to a parent class (no breakage). Each pair becomes a git repository holding a
package `pkg` (version 1.0.0 on both sides, so no version allows a break) with the old code as
`pkg/mod.py` in the base commit and the new code in the head.

A pair is labelled *break* when griffe expects a breakage that breaks callers, *compatible*
when it expects none. griffe also reports changes that break no call: a different value of an
attribute or of a parameter's default (ATTRIBUTE_CHANGED_VALUE, PARAMETER_CHANGED_DEFAULT).
review-tui does not read values as the contract; those pairs are counted apart as *value*,
each with what review-tui said.

usage: griffe-corpus.py GRIFFE_CHECKOUT REVIEW_TUI_BINARY OUTDIR
       (the checkout needs packages/griffelib/tests/test_diff.py)
"""
import ast, json, os, sys, tempfile, textwrap

from api_pair import api_axis, git

checkout, binary, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
VALUE_KINDS = {"ATTRIBUTE_CHANGED_VALUE", "PARAMETER_CHANGED_DEFAULT"}

source = open(os.path.join(checkout, "packages/griffelib/tests/test_diff.py")).read()
tree = ast.parse(source)
pairs = []
for node in ast.walk(tree):
    if isinstance(node, ast.FunctionDef) and node.name == "test_diff_griffe":
        cases = node.decorator_list[0].args[1]
        for case in cases.elts:
            old, new, kinds = case.elts
            kinds = [k.attr for k in kinds.elts]
            pairs.append((ast.literal_eval(old), ast.literal_eval(new), kinds))
    if isinstance(node, ast.FunctionDef) and node.name == "test_moving_members_in_parent_classes":
        texts = [ast.literal_eval(a.value) for a in node.body if isinstance(a, ast.Assign)]
        pairs.append((textwrap.dedent(texts[0]), textwrap.dedent(texts[1]), []))

rows = []
for i, (old, new, kinds) in enumerate(pairs):
    label = ("compatible" if not kinds else
             "value" if set(kinds) <= VALUE_KINDS else "break")
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "pkg"))
        git(repo, "init", "-q", "-b", "main")
        open(os.path.join(repo, "pyproject.toml"), "w").write(
            '[project]\nname = "pkg"\nversion = "1.0.0"\n')
        open(os.path.join(repo, "pkg/__init__.py"), "w").write("")
        open(os.path.join(repo, "pkg/mod.py"), "w").write(old + "\n")
        git(repo, "add", "-A"); git(repo, "commit", "-q", "-m", "old")
        open(os.path.join(repo, "pkg/mod.py"), "w").write(new + "\n")
        git(repo, "add", "-A"); git(repo, "commit", "-q", "--allow-empty", "-m", "new")
        verdict, detail = api_axis(binary, repo, os.path.join(tmp, "data"))
    rows.append({"case": i, "old": old, "new": new, "kinds": kinds, "label": label,
                 "verdict": verdict, "detail": detail})
json.dump(rows, open(os.path.join(out, "griffe-corpus.json"), "w"), indent=1)

breaks = [r for r in rows if r["label"] == "break"]
compatible = [r for r in rows if r["label"] == "compatible"]
values = [r for r in rows if r["label"] == "value"]
caught = [r for r in breaks if r["verdict"] == "fail"]
false = [r for r in compatible if r["verdict"] not in ("pass", "warn")]
print(f"break pairs: {len(caught)}/{len(breaks)} fail ({100 * len(caught) // max(1, len(breaks))} %)")
print(f"compatible pairs: {len(false)}/{len(compatible)} fail or held")
print(f"value-only pairs (counted apart): {len(values)}")
for title, group in (("break pairs not failing", [r for r in breaks if r["verdict"] != "fail"]),
                     ("compatible pairs failing or held", false), ("value-only pairs", values)):
    print(f"\n{title}:")
    for r in group:
        print(f"  {r['old']!r} -> {r['new']!r} [{', '.join(r['kinds'])}]: {r['verdict']} {r['detail'][:200]}")
