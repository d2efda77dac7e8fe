//! Loading rule files, errors that name the file, rule and field, and configuration overrides.

use super::*;
use crate::config::Config;
use crate::review::node::Priority;
use crate::reviewers::deterministic::rules::RuleError;

const EXTRA: &str = r#"
[[rule]]
id = "acme/no-legacy-client"
title = "Use the new payments client"
languages = ["python"]
pattern = '\bLegacyPaymentsClient\('
kind = "suggestion"
priority = "P2"
category = "maintainability"
severity = "low"
effort = "small"
impact = "The legacy client is removed next quarter."
verification = "Use `PaymentsClient`."
[rule.examples]
path = "app/pay.py"
positive = ["    c = LegacyPaymentsClient(key)"]
negative = ["    c = PaymentsClient(key)"]
"#;

fn field_error(text: &str) -> (String, String, String, String) {
    match BUILTIN.clone().extend_from_toml(text, "team-rules.toml") {
        Err(RuleError::Field {
            origin,
            rule,
            field,
            reason,
        }) => (origin, rule, field, reason),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn extra_rule_files_add_rules_that_scan_and_verify() {
    let mut catalog = BUILTIN.clone();
    let before = catalog.len();
    catalog.extend_from_toml(EXTRA, "team-rules.toml").unwrap();
    assert_eq!(catalog.len(), before + 1);
    assert_eq!(
        catalog.get("acme/no-legacy-client").unwrap().origin,
        "team-rules.toml"
    );
    assert!(catalog.verify_examples().is_empty());
}

#[test]
fn a_rule_with_a_known_id_replaces_the_builtin_one() {
    let mut catalog = BUILTIN.clone();
    let before = catalog.len();
    let replaced = EXTRA.replace("acme/no-legacy-client", "rust/dbg-macro");
    catalog
        .extend_from_toml(&replaced, "team-rules.toml")
        .unwrap();
    assert_eq!(catalog.len(), before);
    assert_eq!(
        catalog.get("rust/dbg-macro").unwrap().meta.title,
        "Use the new payments client"
    );
}

#[test]
fn errors_name_the_file_the_rule_and_the_field() {
    let (origin, rule, field, reason) =
        field_error(&EXTRA.replace(r"'\bLegacyPaymentsClient\('", "'(unclosed'"));
    assert_eq!(
        (origin.as_str(), rule.as_str(), field.as_str()),
        ("team-rules.toml", "acme/no-legacy-client", "pattern")
    );
    assert!(reason.contains("invalid regex"), "{reason}");

    let (origin, rule, field, _) =
        field_error(&EXTRA.replace("priority = \"P2\"", "priority = \"P7\""));
    assert!(origin.starts_with("team-rules.toml:"), "{origin}");
    assert_eq!(
        (rule.as_str(), field.as_str()),
        ("acme/no-legacy-client", "priority")
    );

    let (_, rule, field, reason) = field_error(&EXTRA.replace("pattern =", "patern ="));
    assert_eq!(
        (rule.as_str(), field.as_str()),
        ("acme/no-legacy-client", "patern"),
        "{reason}"
    );

    let (_, _, field, reason) = field_error(&EXTRA.replace("\"maintainability\"", "\"style\""));
    assert_eq!(field, "category");
    assert!(reason.contains("`style`"), "{reason}");

    let (_, _, field, _) = field_error(&EXTRA.replace("[\"python\"]", "[\"cobol\"]"));
    assert_eq!(field, "languages");

    let (_, _, field, _) =
        field_error(&EXTRA.replace("languages = [\"python\"]", "exclude = [\"*.{py,pyi}\"]"));
    assert_eq!(field, "exclude");

    let (_, _, field, _) = field_error(&EXTRA.replace("acme/no-legacy-client", "NoNamespace"));
    assert_eq!(field, "id");

    let twice = format!(
        "{EXTRA}\n{}",
        EXTRA
            .replace("[rule.examples]", "[rule.examples]\n")
            .replace("\"app/pay.py\"", "\"app/b.py\"")
    );
    let (_, rule, field, reason) = field_error(&twice);
    assert_eq!(
        (rule.as_str(), field.as_str()),
        ("acme/no-legacy-client", "id")
    );
    assert!(reason.contains("twice"));
}

#[test]
fn a_broken_file_leaves_the_catalog_unchanged() {
    let mut catalog = BUILTIN.clone();
    let before = catalog.len();
    let broken = format!(
        "{EXTRA}\n{}",
        EXTRA
            .replace("acme/no-legacy-client", "acme/b")
            .replace("pattern =", "check = \"no-such-check\"\npattern =")
    );
    let error = catalog
        .extend_from_toml(&broken, "team-rules.toml")
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("team-rules.toml: rule `acme/b`: `check`"),
        "{error}"
    );
    assert_eq!(catalog.len(), before);
    assert!(catalog.get("acme/no-legacy-client").is_none());
}

#[test]
fn a_missing_file_names_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absent.toml");
    let error = Catalog::empty().extend_from_file(&path).unwrap_err();
    assert!(error.to_string().contains("absent.toml"), "{error}");
    std::fs::write(&path, EXTRA).unwrap();
    let mut catalog = Catalog::empty();
    catalog.extend_from_file(&path).unwrap();
    assert_eq!(catalog.len(), 1);
}

#[test]
fn overrides_disable_by_id_namespace_or_category_and_reprioritise() {
    let mut config = Config {
        disabled_rules: vec![
            "rust/dbg-macro".into(),
            "js/*".into(),
            "tests/*".into(),
            "nothing/*".into(),
        ],
        ..Config::default()
    };
    config
        .rule_priorities
        .insert("python/bare-except".into(), Priority::P1);
    config.rule_priorities.insert("go/*".into(), Priority::P3);
    let catalog = BUILTIN.clone().with_overrides(&config);
    assert!(catalog.get("rust/dbg-macro").is_none());
    assert!(catalog.rules().iter().all(|r| !r.id.starts_with("js/")));
    assert!(
        catalog
            .rules()
            .iter()
            .all(|r| r.meta.category.as_str() != "tests")
    );
    assert!(catalog.get("rust/unwrap-outside-tests").is_some());
    assert!(
        catalog
            .disabled()
            .contains(&"rust/ignored-test".to_string())
    );
    assert_eq!(
        catalog.get("python/bare-except").unwrap().meta.priority,
        Priority::P1
    );
    assert!(
        catalog
            .rules()
            .iter()
            .filter(|r| r.id.starts_with("go/"))
            .all(|r| r.meta.priority == Priority::P3)
    );
    assert_eq!(
        catalog.notes(),
        ["disabled_rules: `nothing/*` names no rule"]
    );

    let result = catalog.scan(&diff(
        "diff --git a/src/a.rs b/src/a.rs\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.rs\n@@ -0,0 +1,1 @@\n+dbg!(x);\n",
    ), &ScanOptions::default());
    assert!(result.nodes.is_empty());
    assert!(
        result
            .coverage
            .rules_disabled
            .contains(&"rust/dbg-macro".to_string())
    );
    assert_eq!(result.coverage.rules_run, catalog.len());
}

#[test]
fn verify_examples_reports_missing_and_misbehaving_examples() {
    let mut catalog = Catalog::empty();
    let wrong = EXTRA
        .replace(
            "positive = [\"    c = LegacyPaymentsClient(key)\"]",
            "positive = [\"    c = PaymentsClient(key)\"]",
        )
        .replace("negative = [\"    c = PaymentsClient(key)\"]", "");
    catalog.extend_from_toml(&wrong, "team-rules.toml").unwrap();
    let problems: Vec<String> = catalog
        .verify_examples()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("no negative example"));
    assert!(problems[1].contains("positive example was not flagged"));
}

#[test]
fn every_builtin_rule_has_a_unique_namespaced_id_and_known_category() {
    let catalog = BUILTIN.clone();
    let mut ids: Vec<&str> = catalog.rules().iter().map(|r| r.id.as_str()).collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count);
    for rule in catalog.rules() {
        assert!(
            crate::reviewers::deterministic::rules::RULE_CATEGORIES.contains(&rule.meta.category),
            "{}",
            rule.id
        );
        assert!(rule.origin.starts_with("builtin:"), "{}", rule.id);
    }
}

/// Two rules of a user's file, one shipped switched off (`enabled = false`).
const SHIPPED_OFF: &str = r#"
[[rule]]
id = "team/noisy"
title = "Noisy question"
pattern = 'noisy'
enabled = false
kind = "question"
priority = "P3"
category = "maintainability"
severity = "low"
effort = "trivial"
impact = "Often wrong."
verification = "Look."
[rule.examples]
positive = ["noisy()"]
negative = ["quiet()"]

[[rule]]
id = "team/quiet"
title = "Quiet question"
pattern = 'quiet'
kind = "question"
priority = "P3"
category = "maintainability"
severity = "low"
effort = "trivial"
impact = "Rarely wrong."
verification = "Look."
[rule.examples]
positive = ["quiet()"]
negative = ["noisy()"]
"#;

#[test]
fn a_rule_shipped_off_runs_only_when_the_configuration_enables_it() {
    let mut catalog = Catalog::empty();
    catalog.extend_from_toml(SHIPPED_OFF, "team.toml").unwrap();
    let off = catalog.clone().with_overrides(&Config::default());
    assert!(off.get("team/noisy").is_none(), "ran without being enabled");
    assert_eq!(off.disabled(), ["team/noisy"]);
    assert!(off.get("team/quiet").is_some());
    let config = Config {
        enabled_rules: vec!["team/noisy".into(), "nothing/x".into()],
        ..Config::default()
    };
    let on = catalog.clone().with_overrides(&config);
    assert!(on.get("team/noisy").is_some());
    assert_eq!(on.notes(), ["enabled_rules: `nothing/x` names no rule"]);
    // A namespace enables every rule of it that ships off; `disable` still wins, and disabling
    // a rule that ships off is no configuration mistake.
    let config = Config {
        enabled_rules: vec!["team/*".into()],
        ..Config::default()
    };
    let namespace = catalog.clone().with_overrides(&config);
    assert!(namespace.get("team/noisy").is_some());
    let config = Config {
        enabled_rules: vec!["team/*".into()],
        disabled_rules: vec!["team/noisy".into()],
        ..Config::default()
    };
    assert!(
        catalog
            .clone()
            .with_overrides(&config)
            .get("team/noisy")
            .is_none()
    );
    let config = Config {
        disabled_rules: vec!["team/noisy".into()],
        ..Config::default()
    };
    let disabled = catalog.with_overrides(&config);
    assert!(disabled.get("team/noisy").is_none());
    assert!(disabled.notes().is_empty(), "{:?}", disabled.notes());
}

#[test]
fn only_a_config_that_tunes_rules_can_leave_a_note_on_the_catalog() {
    // The flag check compiles the catalog only when `tunes_rules` says so: every setting that
    // can name nothing must make it true, and a config without one leaves no note.
    let untuned = Config::default();
    assert!(!untuned.tunes_rules());
    assert!(BUILTIN.clone().with_overrides(&untuned).notes().is_empty());
    let nothing = || vec!["nothing/x".to_string()];
    for config in [
        Config {
            enabled_rules: nothing(),
            ..Config::default()
        },
        Config {
            disabled_rules: nothing(),
            ..Config::default()
        },
        Config {
            rule_priorities: [("nothing/x".to_string(), Priority::P1)].into(),
            ..Config::default()
        },
        Config {
            skip_paths: vec!["[".to_string()],
            ..Config::default()
        },
    ] {
        assert!(config.tunes_rules(), "{config:?}");
        assert!(
            !BUILTIN.clone().with_overrides(&config).notes().is_empty(),
            "{config:?}"
        );
    }
}
