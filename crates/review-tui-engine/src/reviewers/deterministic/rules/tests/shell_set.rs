//! `rm -rf "$VAR/…"` deletes from the root only when VAR may be empty: a variable the script
//! gives a non-empty value on every path to the line is not a finding.

use super::*;

const RULE: &str = "shell/rm-rf-unguarded-variable";

/// The lines of the rule's findings when `script` is added as a shell script.
fn found(script: &str) -> Vec<u32> {
    let lines: Vec<&str> = script.lines().collect();
    rule_lines(RULE, "scripts/clean.sh", &lines)
}

#[test]
fn rm_rf_on_a_variable_given_a_value_on_every_path_is_no_finding() {
    for script in [
        "DIR=/opt/app\nrm -rf \"$DIR/build\"",
        "DIR=\"${DIR:-/opt/app}\"\nrm -rf \"$DIR/build\"",
        ": \"${DIR:=/opt/app}\"\nrm -rf \"$DIR/build\"",
        "export DIR=\"$HOME/.cache/app\"\nrm -rf \"$DIR/build\"",
        // A default whose last fallback is a literal, through nested defaults.
        "SDK=\"${ANDROID_HOME:-${ANDROID_SDK_ROOT:-/usr/local/lib/android/sdk}}\"\nif [ -d \"$SDK/latest-2\" ]; then\n  rm -rf \"$SDK/latest\"\nfi",
        // A variable set from another that is itself set.
        "BASE=/opt\nDIR=\"$BASE\"\nrm -rf \"$DIR/build\"",
        "DIR=/opt/app; rm -rf \"$DIR/build\"",
        "DIR=/opt/app\nexport DIR\nrm -rf \"$DIR/build\"",
        // Set again, to something else that is never empty.
        "DIR=/opt/app\nif [ -n \"$X\" ]; then\n  DIR=/srv/app\nfi\nrm -rf \"$DIR/build\"",
        // The shell sets the working directory's variable itself.
        "rm -rf $PWD/reports\nmkdir $PWD/reports",
    ] {
        assert_eq!(found(script), Vec::<u32>::new(), "{script}");
    }
}

#[test]
fn rm_rf_on_a_variable_that_may_be_empty_on_some_path_is_a_finding() {
    for (script, line) in [
        ("rm -rf \"$DIR/build\"", 1),
        // Set on one branch only.
        (
            "if [ -n \"$X\" ]; then\n  DIR=/opt/app\nfi\nrm -rf \"$DIR/build\"",
            4,
        ),
        (
            "if [ -n \"$X\" ]; then\n  DIR=/opt/app\nelse\n  rm -rf \"$DIR/build\"\nfi",
            4,
        ),
        // Set in a dead branch.
        (
            "if false; then\n  DIR=/opt/app\nfi\nrm -rf \"$DIR/build\"",
            4,
        ),
        // Set after the line, or only where a command succeeds.
        ("rm -rf \"$DIR/build\"\nDIR=/opt/app", 1),
        ("cd /srv && DIR=/opt/app\nrm -rf \"$DIR/build\"", 2),
        // Set for one command's environment only.
        ("DIR=/opt/app make\nrm -rf \"$DIR/build\"", 2),
        // Set to what may be empty: another unset variable, a command's output, nothing.
        ("DIR=\"$OTHER\"\nrm -rf \"$DIR/build\"", 2),
        ("DIR=$(find_dir)\nrm -rf \"$DIR/build\"", 2),
        ("DIR=\nrm -rf \"$DIR/build\"", 2),
        ("DIR=\"${OTHER:+/opt}\"\nrm -rf \"$DIR/build\"", 2),
        // Set, then emptied or read anew somewhere.
        (
            "DIR=/opt/app\nif [ -n \"$X\" ]; then\n  DIR=\"\"\nfi\nrm -rf \"$DIR/build\"",
            5,
        ),
        ("DIR=/opt/app\nunset DIR\nrm -rf \"$DIR/build\"", 3),
        ("DIR=/opt/app\nread -r DIR\nrm -rf \"$DIR/build\"", 3),
        ("PWD=\"$1\"\nrm -rf \"$PWD/build\"", 2),
        // Set outside a function that runs later, when anything may have changed it.
        ("DIR=/opt/app\nclean() {\n  rm -rf \"$DIR/build\"\n}", 3),
        // Set in a loop body that may not run, in a subshell, in a pipeline.
        (
            "while read -r x; do\n  DIR=/opt/app\ndone\nrm -rf \"$DIR/build\"",
            4,
        ),
        ("(DIR=/opt/app)\nrm -rf \"$DIR/build\"", 2),
        ("DIR=/opt/app | cat\nrm -rf \"$DIR/build\"", 2),
        // Emptied by a function the script may call before the line.
        (
            "reset() { DIR=; }\nDIR=/opt/app\nreset\nrm -rf \"$DIR/build\"",
            4,
        ),
        // The root spelled out, or all that is left when another variable is empty.
        ("DIR=/\nrm -rf \"$DIR/\"*", 2),
        ("DIR=\"$BASE/\"\nrm -rf \"$DIR/build\"", 2),
        // A name for another variable, which may be empty.
        ("declare -n DIR=OTHER\nrm -rf \"$DIR/build\"", 2),
        // Another file's or a string's commands may change it.
        ("DIR=/opt/app\n. ./settings.sh\nrm -rf \"$DIR/build\"", 3),
        ("DIR=/opt/app\neval \"$SETUP\"\nrm -rf \"$DIR/build\"", 3),
        // Run later by a trap, not here.
        ("DIR=/opt/app\ntrap 'rm -rf \"$DIR/build\"' EXIT", 2),
    ] {
        assert_eq!(found(script), vec![line], "{script}");
    }
}

#[test]
fn a_workflow_step_sets_its_variable_in_its_own_script() {
    let workflow = |second: &str| {
        format!(
            "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Tools\n        run: |\n          SDK=\"${{ANDROID_HOME:-/usr/local/lib/android/sdk}}\"\n          if [ -d \"$SDK/latest-2\" ]; then\n            rm -rf \"$SDK/latest\"\n          fi\n      - name: Again\n        run: |\n{second}\n"
        )
    };
    let findings = |text: &str| {
        rule_findings(
            &[(".github/workflows/ci.yml", "on: push\n")],
            &[(".github/workflows/ci.yml", text)],
            RULE,
        )
    };
    // The first step sets SDK on every path; the second step is another shell, where SDK is
    // whatever the environment holds.
    let text = workflow("          rm -rf \"$SDK/old\"");
    assert_eq!(first_lines(&findings(&text)), vec![14]);
    let text = workflow("          SDK=/opt/sdk\n          rm -rf \"$SDK/old\"");
    assert_eq!(first_lines(&findings(&text)), Vec::<u32>::new());
}

/// The lines of the rule's findings when the CI file `path` is added holding `text`.
fn found_in(path: &str, text: &str) -> Vec<u32> {
    first_lines(&rule_findings(
        &[("README.md", "x\n")],
        &[(path, text)],
        RULE,
    ))
}

#[test]
fn a_variable_the_ci_runner_sets_is_set_in_its_scripts() {
    for (path, text) in [
        (
            ".github/workflows/ci.yml",
            "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          rm -rf \"$HOME/.cache/tool\"\n          rm -rf \"$RUNNER_TEMP/dist\"\n      - run: rm -rf \"$GITHUB_WORKSPACE/build\"\n",
        ),
        (
            ".gitlab-ci.yml",
            "build:\n  script:\n    - rm -rf \"$CI_PROJECT_DIR/build\"\n    - make\n    - rm -rf \"${HOME}/.cache/pip\"\n",
        ),
        (
            ".travis.yml",
            "language: java\ninstall:\n- rm -rf \"$HOME/.m2/repository/org/example\"\nscript:\n  - rm -rf $TRAVIS_BUILD_DIR/target\n",
        ),
        (
            ".cirrus.yml",
            "task:\n  test_script:\n    - . $HOME/.cargo/env\n  before_cache_script:\n    - rm -rf $HOME/.cargo/registry/index\n",
        ),
        // An earlier item of the same list sets it.
        (
            ".gitlab-ci.yml",
            "build:\n  script:\n    - export OUT=\"$CI_PROJECT_DIR/out\"\n    - |\n      if [ -d \"$OUT/old\" ]; then\n        rm -rf \"$OUT/old\"\n      fi\n",
        ),
    ] {
        assert_eq!(found_in(path, text), Vec::<u32>::new(), "{path}\n{text}");
    }
}

#[test]
fn a_variable_no_runner_sets_or_one_the_file_may_empty_is_still_a_finding() {
    for (path, text, line) in [
        // Set by no runner; set in another list (another shell for this reading).
        (
            ".gitlab-ci.yml",
            "build:\n  script:\n    - rm -rf \"$DIR/build\"\n",
            3,
        ),
        (
            ".gitlab-ci.yml",
            "build:\n  before_script:\n    - export DIR=/opt/x\n  script:\n    - rm -rf \"$DIR/build\"\n",
            5,
        ),
        // The file gives the runner's variable a value of its own, which may be empty.
        (
            ".gitlab-ci.yml",
            "variables:\n  HOME: \"\"\nbuild:\n  script:\n    - rm -rf \"$HOME/.cache\"\n",
            5,
        ),
        (
            ".github/workflows/ci.yml",
            "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"HOME=\" >> \"$GITHUB_ENV\"\n      - run: rm -rf \"$HOME/.cache\"\n",
            7,
        ),
        (
            ".travis.yml",
            "install:\n  - unset HOME\n  - rm -rf \"$HOME/.m2\"\n",
            3,
        ),
        // No CI runs a shell script's lines with its variables set.
        ("scripts/clean.sh", "rm -rf \"$HOME/.cache\"\n", 1),
        // An item this reading does not follow leaves the list unread.
        (
            ".gitlab-ci.yml",
            "build:\n  script:\n    - !reference [.setup, script]\n    - rm -rf \"$HOME/.cache\"\n",
            4,
        ),
    ] {
        assert_eq!(found_in(path, text), vec![line], "{path}\n{text}");
    }
}
