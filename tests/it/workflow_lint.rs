//! The GitHub Actions workflow review-tui ships (`assets/github-workflow.yml`) must work as
//! shipped: read structurally (YAML, no network), it runs only on `pull_request` (never
//! `pull_request_target`), installs review-tui with `--locked` from the repository it lives in
//! (or the repository variables that name another), never from a placeholder, gives each job
//! only the permissions it needs, references actions by a version, names only contexts Actions
//! has, and every `run:` script is valid bash.

use std::collections::BTreeSet;
use std::process::Command;

use regex::Regex;
use yaml_rust::{Yaml, YamlLoader};

const WORKFLOW: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/github-workflow.yml");

fn workflow() -> Yaml {
    let text = std::fs::read_to_string(WORKFLOW).unwrap();
    let mut documents = YamlLoader::load_from_str(&text).expect("the workflow is valid YAML");
    assert_eq!(documents.len(), 1, "one YAML document");
    documents.remove(0)
}

fn key<'a>(map: &'a Yaml, name: &str) -> &'a Yaml {
    &map[name]
}

fn jobs(workflow: &Yaml) -> Vec<(String, &Yaml)> {
    workflow["jobs"]
        .as_hash()
        .expect("jobs")
        .iter()
        .map(|(name, job)| (name.as_str().unwrap().to_string(), job))
        .collect()
}

fn steps(job: &Yaml) -> &Vec<Yaml> {
    job["steps"].as_vec().expect("steps")
}

/// Every string in the document.
fn strings(yaml: &Yaml, out: &mut Vec<String>) {
    match yaml {
        Yaml::String(s) => out.push(s.clone()),
        Yaml::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Yaml::Hash(map) => map.iter().for_each(|(k, v)| {
            strings(k, out);
            strings(v, out);
        }),
        _ => {}
    }
}

#[test]
fn the_workflow_runs_on_pull_request_only() {
    let workflow = workflow();
    let on = key(&workflow, "on");
    assert!(!on["pull_request"].is_badvalue(), "on: pull_request");
    let mut all = Vec::new();
    strings(&workflow, &mut all);
    assert!(
        !all.iter().any(|s| s == "pull_request_target"),
        "pull_request_target runs fork code beside the repository's secrets"
    );
    // Only the top-level read permission, widened per job.
    assert_eq!(workflow["permissions"]["contents"].as_str(), Some("read"));
}

#[test]
fn review_tui_is_installed_locked_from_the_repository_the_workflow_lives_in() {
    let workflow = workflow();
    let env = &workflow["env"];
    let git = env["REVIEW_TUI_GIT"].as_str().expect("env REVIEW_TUI_GIT");
    let rev = env["REVIEW_TUI_REV"].as_str().expect("env REVIEW_TUI_REV");
    // As shipped, the repository the workflow runs in; a repository variable may name another.
    assert!(
        git.contains("github.repository") && git.contains("github.server_url"),
        "{git}"
    );
    assert!(git.contains("vars.REVIEW_TUI_GIT"), "{git}");
    // The PR's base, never its head.
    assert!(rev.contains("github.event.pull_request.base.sha"), "{rev}");
    assert!(!rev.contains("head"), "{rev}");
    let mut all = Vec::new();
    strings(&workflow, &mut all);
    assert!(
        !all.iter()
            .any(|s| s.contains("your-org") || s.contains("OWNER/")),
        "a placeholder a user would have to replace"
    );
    for (name, job) in jobs(&workflow) {
        let installs: Vec<&str> = steps(job)
            .iter()
            .filter_map(|s| s["run"].as_str())
            .filter(|run| run.contains("cargo install"))
            .collect();
        assert_eq!(installs.len(), 1, "job {name} installs review-tui once");
        let install = installs[0];
        for needed in [
            "--locked",
            "--git \"$REVIEW_TUI_GIT\"",
            "--rev \"$REVIEW_TUI_REV\"",
            "review-tui",
        ] {
            assert!(
                install.contains(needed),
                "job {name}: {needed} missing from {install}"
            );
        }
        // A Rust toolchain comes first.
        let first = &steps(job)[0];
        assert!(
            first["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("dtolnay/rust-toolchain@")),
            "job {name}: the toolchain step first"
        );
    }
}

#[test]
fn each_job_has_only_the_permissions_it_needs() {
    let workflow = workflow();
    let jobs = jobs(&workflow);
    assert_eq!(jobs.len(), 2, "the same-repository job and the fork job");
    for (name, job) in jobs {
        let condition = job["if"].as_str().unwrap_or_default();
        let permissions = job["permissions"].as_hash().expect("per-job permissions");
        let granted: BTreeSet<(String, String)> = permissions
            .iter()
            .map(|(k, v)| (k.as_str().unwrap().into(), v.as_str().unwrap().into()))
            .collect();
        let env_of = |step: &Yaml, var: &str| step["env"][var].as_str().map(str::to_string);
        if condition.contains("!=") {
            // Forks: read-only, no secret, nothing published, no token.
            let expected: BTreeSet<_> = [("contents".to_string(), "read".to_string())].into();
            assert_eq!(granted, expected, "job {name}");
            for step in steps(job) {
                let run = step["run"].as_str().unwrap_or_default();
                assert!(!run.contains("--publish"), "job {name} publishes");
                let mut texts = Vec::new();
                strings(step, &mut texts);
                assert!(
                    !texts.iter().any(|t| t.contains("secrets.")),
                    "job {name} reads a secret"
                );
                if run.contains("review-tui \"$pr\"") {
                    assert!(run.contains("--deterministic-only"), "job {name}: {run}");
                    assert_eq!(env_of(step, "GH_TOKEN").as_deref(), Some(""));
                }
            }
        } else {
            assert!(condition.contains("=="), "job {name}: {condition}");
            assert!(
                granted.contains(&("pull-requests".into(), "write".into())),
                "job {name}"
            );
            assert!(
                !granted
                    .iter()
                    .any(|(k, v)| v == "write" && k != "pull-requests"),
                "job {name}: {granted:?}"
            );
        }
    }
}

#[test]
fn actions_are_pinned_and_expressions_name_real_contexts() {
    let text = std::fs::read_to_string(WORKFLOW).unwrap();
    let workflow = workflow();
    for (name, job) in jobs(&workflow) {
        assert!(job["runs-on"].as_str().is_some(), "job {name}: runs-on");
        for step in steps(job) {
            assert!(
                step["uses"].as_str().is_some() || step["run"].as_str().is_some(),
                "job {name}: a step that neither uses an action nor runs a script"
            );
            if let Some(uses) = step["uses"].as_str() {
                let (_, version) = uses.split_once('@').expect("an action with a version");
                assert!(
                    ![
                        "main", "master", "HEAD", "latest", "dev", "develop", "trunk"
                    ]
                    .contains(&version),
                    "job {name}: {uses} follows a branch"
                );
            }
        }
    }
    let expression = Regex::new(r"\$\{\{\s*(.*?)\s*\}\}").unwrap();
    let context = Regex::new(r"(^|[^\w.'])([a-z_]+)\.").unwrap();
    let known = [
        "github", "secrets", "vars", "runner", "env", "steps", "job", "matrix", "inputs",
    ];
    let quoted = Regex::new(r"'[^']*'").unwrap();
    let mut seen = 0;
    for found in expression.captures_iter(&text) {
        seen += 1;
        // Quoted text inside an expression ('{0}/{1}') is not a context.
        let code = quoted.replace_all(&found[1], "''");
        for name in context.captures_iter(&code) {
            assert!(
                known.contains(&&name[2]),
                "unknown context {} in {}",
                &name[2],
                &found[0]
            );
        }
    }
    assert!(seen > 5, "only {seen} expressions");
}

#[test]
fn every_run_script_is_valid_bash() {
    let workflow = workflow();
    let expression = Regex::new(r"\$\{\{[^}]*\}\}").unwrap();
    let mut checked = 0;
    for (name, job) in jobs(&workflow) {
        for step in steps(job) {
            let Some(run) = step["run"].as_str() else {
                continue;
            };
            // Expressions are replaced by Actions before bash sees the script.
            let script = expression.replace_all(run, "x");
            let out = Command::new("bash")
                .args(["-n", "-c", &script])
                .output()
                .expect("bash");
            assert!(
                out.status.success(),
                "job {name}: {}\n{script}",
                String::from_utf8_lossy(&out.stderr)
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} scripts");
}
