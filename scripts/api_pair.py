"""What the corpus scripts (semver-corpus.py, griffe-corpus.py) share: committing an old/new
pair into a scratch repository and reading review-tui's apiContract axis on HEAD~1..HEAD."""
import json, os, subprocess


def git(cwd, *args):
    subprocess.run(["git", "-C", cwd, *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})


def api_axis(binary, repo, data_dir):
    """(verdict, detail) of the apiContract axis for the repository's last commit, or
    ("error", the end of stderr) when the binary gave no report."""
    p = subprocess.run([binary, f"{repo}#HEAD~1..HEAD", "--headless", "--deterministic-only",
                        "--format", "json", "--force", "--data-dir", data_dir],
                       capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(p.stdout)
        axis = next(a for a in report["verdict"]["axes"] if a["name"] == "apiContract")
        return axis["verdict"], axis.get("detail", "")
    except (ValueError, KeyError, StopIteration):
        return "error", p.stderr.strip()[-300:]
