#!/usr/bin/env python3
"""Checks that two builds reviewed alike: for every DIR/<name>-bin0.json, the report
DIR/<name>-bin1.json (as `REPORTS=DIR scripts/bench-vs-git.sh` keeps them) must have the same
verdict (decision, reasons, counts, the apiContract and testGap axes), cohorts, findings,
disagreements, files and coverage. Paths of the data directory differ between runs and are
not compared. Prints one line per report and exits 1 when any differs.

Usage: scripts/same-reports.py DIR
"""
import json
import pathlib
import sys

COMPARED = ["verdict", "cohorts", "findings", "disagreements", "files", "totals", "coverage"]


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    differ = 0
    pairs = sorted(root.glob("*-bin0.json"))
    for before in pairs:
        after = before.with_name(before.name.replace("-bin0.json", "-bin1.json"))
        name = before.name[: -len("-bin0.json")]
        if not after.exists():
            print(f"{name}: no report of bin1")
            differ += 1
            continue
        a, b = json.loads(before.read_text()), json.loads(after.read_text())
        bad = [key for key in COMPARED if a.get(key) != b.get(key)]
        decision = a["verdict"]["decision"]
        axes = {x["name"]: x["verdict"] for x in a["verdict"].get("axes", [])}
        summary = (
            f"{decision}, {len(a['cohorts'])} cohorts, {len(a['findings'])} findings, "
            f"apiContract {axes.get('apiContract')}"
        )
        if bad:
            differ += 1
            print(f"{name}: DIFFERENT in {', '.join(bad)} (bin0: {summary})")
        else:
            print(f"{name}: identical ({summary})")
    print(f"{len(pairs) - differ} of {len(pairs)} identical")
    return 1 if differ or not pairs else 0


if __name__ == "__main__":
    sys.exit(main())
