//! `actions/action-on-branch`: an action taken from a branch matters by what its job can reach
//! (a secret, a writing token, a privileged trigger), not by the branch alone.

use super::*;

const ACTION_ON_BRANCH: &str = "actions/action-on-branch";

/// toml #406 added OSS-Fuzz's CIFuzz (`@master`, its only published ref) to a `pull_request`
/// workflow, hashbrown took `dtolnay/rust-toolchain@master`: jobs that hold no secret and no
/// writing token give a moved branch nothing. pino #744 handed `coverallsapp/github-action@master`
/// the repository token: still a finding, as is a branch action in a job holding a secret
/// elsewhere, under a `write` permission, or in a `pull_request_target` workflow.
#[test]
fn an_action_on_a_branch_matters_by_what_its_job_can_reach() {
    let base = [("README.md", "# project\n")];
    let fuzz = "name: CIFuzz\non: [pull_request]\njobs:\n  Fuzzing:\n    runs-on: ubuntu-latest\n    steps:\n    - name: Build Fuzzers\n      uses: google/oss-fuzz/infra/cifuzz/actions/build_fuzzers@master\n      with:\n        oss-fuzz-project-name: 'toml'\n        language: go\n";
    assert!(
        rule_findings(
            &base,
            &[(".github/workflows/cifuzz.yml", fuzz)],
            ACTION_ON_BRANCH
        )
        .is_empty()
    );
    let ci = "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: stable\n  coverage:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm run cov-ci\n      - name: Coveralls\n        uses: coverallsapp/github-action@master\n        with:\n          github-token: ${{ secrets.GITHUB_TOKEN }}\n";
    let found = rule_findings(&base, &[(".github/workflows/ci.yml", ci)], ACTION_ON_BRANCH);
    assert_eq!(first_lines(&found), vec![17], "{found:?}");
    // A secret elsewhere in the job, a write permission, a privileged trigger.
    let publish = "on:\n  release:\njobs:\n  build:\n    steps:\n      - uses: actions/checkout@master\n      - run: gem push *.gem\n        env:\n          GEM_HOST_API_KEY: ${{ secrets.RUBYGEMS_AUTH_TOKEN }}\n";
    let writes = "on: push\npermissions:\n  contents: write\njobs:\n  a:\n    steps:\n      - uses: acme/setup@main\n";
    let target =
        "on:\n  pull_request_target:\njobs:\n  a:\n    steps:\n      - uses: acme/setup@main\n";
    for (name, text) in [("publish", publish), ("writes", writes), ("target", target)] {
        let path = format!(".github/workflows/{name}.yml");
        assert_eq!(
            rule_findings(&base, &[(&path, text)], ACTION_ON_BRANCH).len(),
            1,
            "{name}"
        );
    }
}
