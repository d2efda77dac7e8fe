//! `[api_contract]` advisory declarations through the binary: a repository that declares the
//! API of its Lua files advisory gets a warning with its reason in every report, read from
//! the base branch, so a PR cannot declare its own change advisory.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::GitRepo;

fn run(data: &Path, config: &Path, args: &[&str]) -> Output {
    review_tui()
        .args(args)
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", config)
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OLLAMA_HOST")
        .output()
        .unwrap()
}

const PLUGIN: &str = "local M = {}\n\nfunction M.setup(opts)\n  return opts\nend\n\nfunction M.run()\n  return 1\nend\n\nreturn M\n";
/// `M.setup` removed: a real break of the module's public table.
const PLUGIN_WITHOUT_SETUP: &str =
    "local M = {}\n\nfunction M.run()\n  return 1\nend\n\nreturn M\n";

/// A repository with a Lua plugin, the declaration on `main` when `at_base`, or only in the PR
/// when not; the PR removes a public function.
fn lua_repository(at_base: bool) -> (GitRepo, String) {
    let repo = GitRepo::init();
    let declaration = "[api_contract]\nadvisory_languages = [\"lua\"]\n";
    repo.write("lua/plugin.lua", PLUGIN);
    if at_base {
        repo.write(".review-tui.toml", declaration);
    }
    repo.commit_all("plugin");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    if !at_base {
        repo.write(".review-tui.toml", declaration);
    }
    repo.write("lua/plugin.lua", PLUGIN_WITHOUT_SETUP);
    repo.commit_all("drop setup");
    let range = format!("{}#main..feature", repo.path().display());
    (repo, range)
}

fn report(range: &str, format: &str, config: &Path) -> (i32, String) {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        data.path(),
        config,
        &[
            range,
            "--headless",
            "--deterministic-only",
            "--format",
            format,
        ],
    );
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn api_axis(json: &Value) -> &Value {
    json["verdict"]["axes"]
        .as_array()
        .unwrap_or_else(|| panic!("no axes: {json}"))
        .iter()
        .find(|a| a["name"] == "apiContract")
        .unwrap()
}

const REASON: &str =
    "the repository's .review-tui.toml (on the base branch) declares the API of lua files advisory";

#[test]
fn a_repository_declaring_lua_advisory_warns_and_every_report_says_why() {
    let (_repo, range) = lua_repository(true);
    let no_user_config = tempfile::tempdir().unwrap();
    let config = no_user_config.path().join("config.toml");

    let (code, json) = report(&range, "json", &config);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(code, 0, "{json}");
    let axis = api_axis(&json);
    assert_eq!(axis["verdict"], "warn", "{axis}");
    assert!(axis["detail"].as_str().unwrap().contains(REASON), "{axis}");
    let notes = json["coverage"]["notes"].to_string();
    assert!(
        notes.contains("apiContract not gated for lua/plugin.lua"),
        "{notes}"
    );

    let (code, text) = report(&range, "text", &config);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("axis apiContract warn (gated)"), "{text}");
    assert!(text.contains(REASON), "{text}");

    let (code, markdown) = report(&range, "markdown", &config);
    assert_eq!(code, 0, "{markdown}");
    assert!(markdown.contains(REASON), "{markdown}");
}

#[test]
fn a_pr_cannot_declare_its_own_change_advisory() {
    let (_repo, range) = lua_repository(false);
    let no_user_config = tempfile::tempdir().unwrap();
    let config = no_user_config.path().join("config.toml");
    let (code, json) = report(&range, "json", &config);
    let json: Value = serde_json::from_str(&json).unwrap();
    // Held (unreadable API) or blocked (a public function removed): never cleared.
    assert!(code == 5 || code == 6, "exit {code}: {json}");
    let axis = api_axis(&json);
    assert!(
        !axis["verdict"]
            .as_str()
            .is_some_and(|v| v == "pass" || v == "warn"),
        "{axis}"
    );
    assert!(!json.to_string().contains("declares the API"), "{json}");
}

#[test]
fn the_person_may_declare_it_for_their_own_runs() {
    let (_repo, range) = lua_repository(false);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[api_contract]\nadvisory = [\"lua/**\"]\n").unwrap();
    let (code, json) = report(&range, "json", &config);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(code, 0, "{json}");
    let detail = api_axis(&json)["detail"].as_str().unwrap().to_string();
    assert!(
        detail.contains("the reviewer's own config file declares the API of `lua/**` advisory"),
        "{detail}"
    );
}
