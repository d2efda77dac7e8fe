//! What a step of a GitHub Actions workflow can reach, for rules whose finding is only worth a
//! reviewer's time when a third party's code could take something (`reach = true`): an action
//! taken from a branch runs whatever its owner pushes there next, and what that costs is what
//! the job holds. A secret anywhere in the job (a step's input or environment, the job's or
//! the workflow's `env`) is readable by every step of it (they share the runner, whose tools an
//! earlier step can replace), `github.token` hands over the repository's token, `write`
//! permissions make that token a writer, and `pull_request_target` and `workflow_run` run
//! with secrets and a writing token by design. A job with none of these (OSS-Fuzz's CIFuzz on
//! `pull_request`, `dtolnay/rust-toolchain@master` installing a compiler) gives a moved branch
//! nothing the pull request's own code does not already have. A file that is no workflow (a
//! composite action's `action.yml`) is reached by whatever calls it: it always answers yes.

/// Whether the job holding line `line` (1-based) of the workflow `text` reaches a secret or a
/// writing token.
pub(super) fn job_reaches(text: &str, line: u32) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let Some(jobs_at) = lines.iter().position(|l| l.trim_end() == "jobs:") else {
        return true;
    };
    let at = (line as usize).saturating_sub(1);
    if at <= jobs_at || at >= lines.len() {
        return true;
    }
    // The workflow's own keys (`on`, `env`, `permissions`) outside `jobs:`.
    let workflow_end = lines[jobs_at + 1..]
        .iter()
        .position(|l| indent(l) == Some(0))
        .map_or(lines.len(), |i| jobs_at + 1 + i);
    let top: Vec<&str> = lines[..jobs_at]
        .iter()
        .chain(&lines[workflow_end..])
        .copied()
        .collect();
    if holds_reach(&top) || privileged_trigger(&top) {
        return true;
    }
    // The job: the key under `jobs:` above the line, to the next key at its indent.
    let Some(job_indent) = lines[jobs_at + 1..workflow_end]
        .iter()
        .find_map(|l| indent(l).filter(|&i| i > 0))
    else {
        return true;
    };
    let Some(start) = (jobs_at + 1..=at)
        .rev()
        .find(|&i| indent(lines[i]) == Some(job_indent))
    else {
        return true;
    };
    let end = (start + 1..workflow_end)
        .find(|&i| indent(lines[i]).is_some_and(|n| n <= job_indent))
        .unwrap_or(workflow_end);
    holds_reach(&lines[start..end])
}

/// The indentation of a line that holds a YAML key or item; `None` for blank and comment lines.
fn indent(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    (!trimmed.is_empty() && !trimmed.starts_with('#')).then(|| line.len() - trimmed.len())
}

/// A secret, the repository's token, or a `write` permission in these lines.
fn holds_reach(lines: &[&str]) -> bool {
    lines.iter().any(|line| {
        let code = line.split(" #").next().unwrap_or(line);
        code.contains("secrets.")
            || code.contains("secrets[")
            || code.contains("github.token")
            || code.contains("write-all")
            || (code.trim_start().split(':').nth(1).map(str::trim) == Some("write"))
    })
}

/// Triggers that run with the base repository's secrets and a writing token whatever the
/// workflow declares: `pull_request_target`, `workflow_run`.
fn privileged_trigger(lines: &[&str]) -> bool {
    lines
        .iter()
        .any(|line| line.contains("pull_request_target") || line.contains("workflow_run"))
}

#[cfg(test)]
mod tests {
    use super::job_reaches;

    #[test]
    fn a_job_reaches_what_it_or_its_workflow_holds() {
        let fuzz = "name: CIFuzz\non: [pull_request]\njobs:\n  Fuzzing:\n    runs-on: ubuntu-latest\n    steps:\n    - uses: google/oss-fuzz/infra/cifuzz/actions/build_fuzzers@master\n      with:\n        language: go\n";
        assert!(!job_reaches(fuzz, 7));
        let coverage = "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: dtolnay/rust-toolchain@master\n  coverage:\n    steps:\n      - uses: coverallsapp/github-action@master\n        with:\n          github-token: ${{ secrets.COVERALLS_TOKEN }}\n";
        assert!(!job_reaches(coverage, 6));
        assert!(job_reaches(coverage, 9));
        let writes = "on: push\npermissions:\n  contents: write\njobs:\n  a:\n    steps:\n      - uses: x/y@main\n";
        assert!(job_reaches(writes, 7));
        let env = "on: push\nenv:\n  TOKEN: ${{ secrets.NPM }}\njobs:\n  a:\n    steps:\n      - uses: x/y@main\n";
        assert!(job_reaches(env, 7));
        let target =
            "on:\n  pull_request_target:\njobs:\n  a:\n    steps:\n      - uses: x/y@main\n";
        assert!(job_reaches(target, 6));
        // A composite action is reached by whatever calls it.
        assert!(job_reaches(
            "runs:\n  using: composite\n  steps:\n    - uses: x/y@main\n",
            4
        ));
    }
}
