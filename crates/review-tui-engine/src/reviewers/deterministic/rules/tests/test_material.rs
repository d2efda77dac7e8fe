//! File rules honour `skip_tests` as line rules do: one place decides what is test material.

use super::*;

#[test]
fn a_file_rule_skipping_tests_is_quiet_on_a_test_fixture() {
    // A Dockerfile a test suite starts (a proxy server for its tests) is test material: its
    // base image is what the tests run against, not what a user's deployment runs.
    let fixture = added(
        "test/fixtures/docker/proxy/Dockerfile",
        &["FROM alpine:latest", "RUN apk add --no-cache dante-server"],
    );
    assert_eq!(rules(&scan(&fixture)), Vec::<&str>::new());
    // The same file where the project builds its images is asked about.
    let shipped = added(
        "docker/proxy/Dockerfile",
        &["FROM alpine:latest", "RUN apk add --no-cache dante-server"],
    );
    assert_eq!(rules(&scan(&shipped)), vec!["docker/base-image-unpinned"]);
}
#[test]
fn every_file_rule_that_skips_tests_says_so_in_its_spec() {
    // The binary checks once decided test material in their own code; the catalog's
    // `skip_tests` is the one place now, for file rules as for line rules.
    for id in [
        "docker/base-image-unpinned",
        "any/binary-file-added",
        "any/key-store-added",
    ] {
        let rule = BUILTIN
            .rules()
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{id} is in the catalog"));
        assert!(rule.is_file_rule(), "{id} is a file rule");
        assert!(rule.skip_tests, "{id} skips test material");
    }
}

#[test]
fn a_dockerfile_under_the_tests_that_a_workflow_publishes_ships() {
    const RULE: &str = "docker/base-image-unpinned";
    let dockerfile = (
        "test/fixtures/app/Dockerfile",
        "FROM alpine:latest\nCOPY . /app\n",
    );
    let workflow = |steps: &str| {
        format!("on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n{steps}")
    };
    // Built to run the tests against: test material.
    let tests =
        workflow("      - run: docker build -t proxy test/fixtures/app\n      - run: npm test\n");
    let found = rule_findings(
        &[("README.md", "x\n")],
        &[dockerfile, (".github/workflows/ci.yml", &tests)],
        RULE,
    );
    assert_eq!(first_lines(&found), Vec::<u32>::new());
    // Built and pushed to a registry: whatever its folder is called, users run that image.
    let published = workflow(
        "      - uses: docker/build-push-action@v6\n        with:\n          context: test/fixtures/app\n          push: true\n          tags: acme/app:latest\n",
    );
    let found = rule_findings(
        &[("README.md", "x\n")],
        &[dockerfile, (".github/workflows/release.yml", &published)],
        RULE,
    );
    assert_eq!(first_lines(&found), vec![1]);
}

#[test]
fn a_dockerfile_under_the_tests_that_any_ci_or_build_file_pushes_ships() {
    const RULE: &str = "docker/base-image-unpinned";
    let dockerfile = (
        "tests/fixtures/app/Dockerfile",
        "FROM alpine:latest\nCOPY . /app\n",
    );
    for (path, text) in [
        (
            ".gitlab-ci.yml",
            "release:\n  script:\n    - docker build -t acme/app tests/fixtures/app\n    - docker push acme/app\n",
        ),
        (
            "Makefile",
            "image:\n\tdocker build -t acme/app tests/fixtures/app\n\tdocker push acme/app\n",
        ),
        (
            "scripts/release.sh",
            "#!/bin/sh\ndocker buildx build --push -t acme/app tests/fixtures/app\n",
        ),
    ] {
        let found = rule_findings(&[("README.md", "x\n")], &[dockerfile, (path, text)], RULE);
        assert_eq!(first_lines(&found), vec![1], "{path}");
    }
    // A test helper script that pushes to a local registry for the tests is test material.
    let found = rule_findings(
        &[("README.md", "x\n")],
        &[
            dockerfile,
            (
                "tests/run.sh",
                "docker build -t localhost:5000/app tests/fixtures/app\ndocker push localhost:5000/app\n",
            ),
        ],
        RULE,
    );
    assert_eq!(first_lines(&found), Vec::<u32>::new());
}
