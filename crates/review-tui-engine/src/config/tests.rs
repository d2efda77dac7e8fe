use super::*;
use std::process::Command;

#[test]
fn later_layers_change_only_what_they_name() {
    let mut config = Config::default();
    let user = Layer::parse(
        r#"
level = "thorough"
theme = "light"
[presentation]
collapse = ["low", "info"]
[rules]
disable = ["debug/console-log"]
"#,
        "user config",
    )
    .unwrap();
    config.apply(user, "user config");
    let repo = Layer::parse(
        r#"
level = "light"
[rules]
disable = ["rust/todo"]
enable = ["rust/expect-outside-tests"]
priority = { "rust/unwrap" = "P1" }
[review]
instructions = "Errors must carry context."
"#,
        "repo",
    )
    .unwrap();
    config.apply_repo(repo.into_repo(), "repo");
    assert_eq!(config.level, Level::Light);
    assert_eq!(config.theme, "light");
    assert!(config.approve_on_ship);
    assert_eq!(config.collapse, vec![Severity::Low, Severity::Info]);
    assert_eq!(
        config.disabled_rules,
        vec!["debug/console-log", "rust/todo"]
    );
    assert_eq!(config.enabled_rules, vec!["rust/expect-outside-tests"]);
    assert_eq!(config.rule_priorities["rust/unwrap"], Priority::P1);
    assert_eq!(config.instructions, "Errors must carry context.");
    assert_eq!(
        config.sources,
        vec!["built-in defaults", "user config", "repo"]
    );
}

#[test]
fn unknown_keys_and_bad_values_name_the_file_and_the_key() {
    let err = Layer::parse("levle = \"light\"", "~/.config/review-tui/config.toml").unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with("~/.config/review-tui/config.toml: "),
        "{message}"
    );
    assert!(message.contains("levle"), "{message}");
    let err = Layer::parse("level = \"heavy\"", "x")
        .unwrap_err()
        .to_string();
    assert!(err.contains("heavy") || err.contains("variant"), "{err}");
}

#[test]
fn a_missing_user_file_is_no_layer() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(read_layer(&dir.path().join("absent.toml")).unwrap(), None);
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "theme = \"high-contrast\"").unwrap();
    assert_eq!(
        read_layer(&path).unwrap().unwrap().theme.as_deref(),
        Some("high-contrast")
    );
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn the_repository_layer_is_read_from_the_base_not_the_head() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join(REPO_FILE), "[rules]\ndisable = []\n").unwrap();
    git(root, &["add", "."]);
    git(root, &["commit", "-qm", "base"]);
    let base = git(root, &["rev-parse", "HEAD"]);
    git(root, &["checkout", "-qb", "pr"]);
    // The PR tries to switch off the secret scan for itself.
    std::fs::write(
        root.join(REPO_FILE),
        "[rules]\ndisable = [\"secret/aws-access-key\"]\n",
    )
    .unwrap();
    git(root, &["commit", "-qam", "quietly disable checks"]);
    let head = git(root, &["rev-parse", "HEAD"]);

    let repo = git2::Repository::open(root).unwrap();
    let at_base = repo_layer_at(&repo, &base).unwrap().unwrap();
    assert!(at_base.shared.rules.unwrap().disable.is_empty());
    let at_head = repo_layer_at(&repo, &head).unwrap().unwrap();
    assert_eq!(
        at_head.shared.rules.unwrap().disable,
        vec!["secret/aws-access-key"]
    );

    // A base without the file has no repository layer.
    git(root, &["checkout", "-q", "--orphan", "empty"]);
    git(root, &["rm", "-rfq", "."]);
    std::fs::write(root.join("x"), "x").unwrap();
    git(root, &["add", "x"]);
    git(root, &["commit", "-qm", "empty"]);
    let empty = git(root, &["rev-parse", "HEAD"]);
    assert_eq!(repo_layer_at(&repo, &empty).unwrap(), None);
}

#[test]
fn the_repository_layer_cannot_choose_models_or_prompt_files() {
    let dir = tempfile::tempdir().unwrap();
    let repo = git2::Repository::init(dir.path()).unwrap();
    let blob = repo
        .blob(b"[models]\nurl = \"https://evil.example/v1\"\n[prompts]\nqa = \"/etc/passwd\"\n")
        .unwrap();
    let mut tree = repo.treebuilder(None).unwrap();
    tree.insert(REPO_FILE, blob, 0o100644).unwrap();
    let tree = repo.find_tree(tree.write().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    let commit = repo.commit(None, &sig, &sig, "base", &tree, &[]).unwrap();
    let mut config = load_user().unwrap();
    config.apply_repository(&repo, &commit.to_string()).unwrap();
    // Whatever the user's own file says, the repository's values never arrive.
    assert_ne!(
        config.models.url.as_deref(),
        Some("https://evil.example/v1")
    );
    assert!(
        !config
            .prompts
            .values()
            .any(|p| p == std::path::Path::new("/etc/passwd"))
    );
    let notes = config.notes.join("\n");
    assert!(
        notes.contains("[models]") && notes.contains("[prompts]"),
        "{notes}"
    );
}
