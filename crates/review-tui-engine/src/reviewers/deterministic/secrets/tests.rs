//! Secret scan tests. Every secret here is generated at run time from a fixed seed: fake, but
//! with the shape and entropy of a real one, and never a literal in the source (so this file
//! does not trip the secret scanners that guard this repository).

use super::*;
use crate::diff::Side;
use crate::review::consolidate::consolidate;
use crate::review::fingerprint::fingerprint;
use crate::review::{Category, Priority, Scope, Source};
use crate::reviewers::deterministic::scan_input::ScanFile;
use crate::reviewers::redact::{redact_json, redact_node, redact_text};

const GITLEAKS_TOML: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/secrets/gitleaks.toml"
));

const UPPER32: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER_ALNUM: &str = "abcdefghijklmnopqrstuvwxyz0123456789";
const DIGITS: &str = "0123456789";
const URLSAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Deterministic pseudo-random text (xorshift64*).
fn fake(alphabet: &str, len: usize, seed: u64) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let n = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33;
            chars[n as usize % chars.len()]
        })
        .collect()
}

struct Samples {
    aws_key_id: String,
    aws_secret: String,
    github_pat: String,
    github_oauth: String,
    github_fine: String,
    gitlab: String,
    slack_bot: String,
    slack_webhook: String,
    stripe: String,
    google: String,
    jwt: String,
    npm: String,
    password: String,
    key_body: Vec<String>,
}

fn samples() -> Samples {
    Samples {
        aws_key_id: format!("AKIA{}", fake(UPPER32, 16, 1)),
        aws_secret: fake(BASE64, 40, 2),
        github_pat: super::checksum::checksummed("ghp_", &fake(ALNUM, 30, 3)),
        github_oauth: super::checksum::checksummed("gho_", &fake(ALNUM, 30, 4)),
        github_fine: format!("github_pat_{}", fake(ALNUM, 82, 5)),
        gitlab: format!("glpat-{}", fake(ALNUM, 20, 6)),
        slack_bot: format!(
            "xoxb-{}-{}-{}",
            fake(DIGITS, 11, 7),
            fake(DIGITS, 12, 8),
            fake(ALNUM, 24, 9)
        ),
        slack_webhook: format!(
            "https://hooks.slack.com/services/T{}/B{}/{}",
            fake(UPPER32, 8, 10),
            fake(UPPER32, 8, 11),
            fake(ALNUM, 24, 12)
        ),
        stripe: format!("sk_live_{}", fake(ALNUM, 24, 13)),
        google: format!("AIza{}", fake(URLSAFE, 35, 14)),
        jwt: format!(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{}.{}",
            fake(ALNUM, 40, 15),
            fake(URLSAFE, 43, 16)
        ),
        npm: super::checksum::checksummed("npm_", &fake(LOWER_ALNUM, 30, 17)),
        password: format!("{}9{}", fake(ALNUM, 10, 18), fake(ALNUM, 6, 19)),
        key_body: (0..4).map(|i| fake(BASE64, 64, 20 + i)).collect(),
    }
}

fn key_block(s: &Samples) -> Vec<String> {
    let mut lines = vec!["-----BEGIN RSA PRIVATE KEY-----".to_string()];
    lines.extend(s.key_body.iter().cloned());
    lines.push("-----END RSA PRIVATE KEY-----".to_string());
    lines
}

fn gitleaks() -> LoadedConfig {
    load_gitleaks_config(GITLEAKS_TOML).expect("the default gitleaks config loads")
}

/// Scans one added line at line 10 of `path` and returns the rule of the hit there, if any.
fn rule_at(scanner: &SecretScanner, path: &str, line: &str) -> Option<String> {
    let file = ScanFile::added(path, 10, &[line]);
    let hits = scanner.scan(&[file]);
    assert!(hits.len() <= 1, "one secret, one hit: {hits:?}");
    hits.first().map(|h| {
        assert_eq!((h.start_line, h.end_line), (10, 10));
        h.rule.clone()
    })
}

#[test]
fn every_rule_of_the_gitleaks_default_config_compiles() {
    let loaded = gitleaks();
    assert_eq!(loaded.problems, Vec::<RuleProblem>::new());
    assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
    // The built-ins gitleaks has no rule for run beside its 222, but for `private-key`, which
    // the configuration's rule of that id replaces.
    let beside = super::builtin::beside_gitleaks().len();
    assert_eq!(loaded.scanner.rules().len(), 222 + beside - 1);
    assert!(
        loaded
            .scanner
            .rules()
            .iter()
            .all(|r| r.id.starts_with("secret/"))
    );
    assert_eq!(loaded.scanner.global_allowlists().len(), 1);
    for rule in loaded.scanner.rules() {
        assert!(
            crate::review::validate::is_rule_id(&rule.id),
            "{} is not a rule id",
            rule.id
        );
    }
}

#[test]
fn gitleaks_rules_find_known_true_positives() {
    let s = samples();
    let scanner = gitleaks().scanner;
    let cases = [
        (
            format!("aws_access_key_id = {}", s.aws_key_id),
            "secret/aws-access-token",
        ),
        (format!("token: {}", s.github_pat), "secret/github-pat"),
        (
            format!("oauth = \"{}\"", s.github_oauth),
            "secret/github-oauth",
        ),
        (
            format!("GH={}", s.github_fine),
            "secret/github-fine-grained-pat",
        ),
        (format!("gitlab: {}", s.gitlab), "secret/gitlab-pat"),
        (
            format!("SLACK = \"{}\"", s.slack_bot),
            "secret/slack-bot-token",
        ),
        (
            format!("hook = \"{}\"", s.slack_webhook),
            "secret/slack-webhook-url",
        ),
        (
            format!("stripe.api_key = \"{}\";", s.stripe),
            "secret/stripe-access-token",
        ),
        (format!("maps_key: \"{}\"", s.google), "secret/gcp-api-key"),
        (format!("Authorization: Bearer {}", s.jwt), "secret/jwt"),
        (
            format!("//registry.npmjs.org/:_authToken={}", s.npm),
            "secret/npm-access-token",
        ),
        (
            format!("db_password = \"{}\"", s.password),
            "secret/generic-api-key",
        ),
    ];
    for (line, expected) in &cases {
        assert_eq!(
            rule_at(&scanner, "src/config.py", line).as_deref(),
            Some(*expected),
            "for {}",
            redact_text(line, &scanner).0
        );
    }
    let block = key_block(&s);
    let lines: Vec<&str> = block.iter().map(String::as_str).collect();
    let hits = scanner.scan(&[ScanFile::added("deploy/id_rsa", 1, &lines)]);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].rule, "secret/private-key");
    assert_eq!((hits[0].start_line, hits[0].end_line), (1, 6));
}

#[test]
fn gitleaks_allowlists_and_placeholders_do_not_fire() {
    let s = samples();
    let scanner = gitleaks().scanner;
    let negatives = [
        (
            "src/a.py",
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE".to_string(),
        ),
        ("src/a.py", "password = \"${DB_PASSWORD}\"".to_string()),
        ("src/a.py", "api_key = changeme".to_string()),
        (
            "src/a.py",
            "secret_name = \"database-password\"".to_string(),
        ),
        ("src/a.py", "let tokenizer = new_tokenizer();".to_string()),
        // The global allowlist excludes lock files and vendored code.
        (
            "package-lock.json",
            format!("\"token\": \"{}\"", s.github_pat),
        ),
        ("web/node_modules/x/index.js", format!("k = '{}'", s.stripe)),
    ];
    for (path, line) in &negatives {
        assert_eq!(rule_at(&scanner, path, line), None, "{path}: {line}");
    }
}

#[test]
fn a_providers_documented_example_and_a_formats_keyword_are_no_secrets() {
    let scanner = default_scanner();
    // dotenv #1040's benchmark fixture: AWS's documented example pair, in a test and a script.
    for path in ["tests/test-parse-perf.js", "scripts/parse-perf.js"] {
        let line = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        assert_eq!(rule_at(scanner, path, line), None, "{path}");
    }
    // A real-looking key in the same place is still one.
    assert_eq!(
        rule_at(
            scanner,
            "scripts/parse-perf.js",
            "AWS_SECRET_ACCESS_KEY=Xq8vLmW2pXk9Hn4Rt8Yq2Lm6Bc3DzP1sT7uV0wYa",
        )
        .as_deref(),
        Some("secret/aws-secret-access-key")
    );
    // time-rs' release workflow calls another workflow with `secrets: inherit`.
    let workflow = ".github/workflows/build.yaml";
    assert_eq!(rule_at(scanner, workflow, "    secrets: inherit"), None);
    assert_eq!(
        rule_at(scanner, workflow, "    secrets: inheritance-Pa55w0rd").as_deref(),
        Some("secret/config-password")
    );
}

#[test]
fn builtin_rules_find_each_format() {
    let s = samples();
    let scanner = SecretScanner::builtin();
    let cases = [
        (
            format!("key = {}", s.aws_key_id),
            "secret/aws-access-key-id",
        ),
        (
            format!("aws_secret_access_key = \"{}\"", s.aws_secret),
            "secret/aws-secret-access-key",
        ),
        (format!("t = \"{}\"", s.github_pat), "secret/github-token"),
        (format!("t = \"{}\"", s.github_oauth), "secret/github-token"),
        (
            format!("t = {}", s.github_fine),
            "secret/github-fine-grained-pat",
        ),
        (format!("t = {}", s.gitlab), "secret/gitlab-token"),
        (format!("t = {}", s.slack_bot), "secret/slack-token"),
        (format!("url = {}", s.slack_webhook), "secret/slack-webhook"),
        (format!("k = '{}'", s.stripe), "secret/stripe-live-key"),
        (format!("k = '{}'", s.google), "secret/google-api-key"),
        (format!("jwt: {}", s.jwt), "secret/jwt"),
        (
            format!("DB_PASSWORD=\"{}\"", s.password),
            "secret/generic-assignment",
        ),
        (
            format!("\"api_key\": \"{}\"", s.password),
            "secret/generic-assignment",
        ),
        (
            format!("SECRET_KEY={}x1", s.password),
            "secret/generic-assignment",
        ),
    ];
    for (line, expected) in &cases {
        assert_eq!(
            rule_at(&scanner, "app/settings.py", line).as_deref(),
            Some(*expected),
            "for {}",
            redact_text(line, &scanner).0
        );
    }
    for placeholder in [
        "password = \"changeme\"",
        "password = \"xxxxxxxxxxxx\"",
        "api_key = \"${API_KEY}\"",
        "api_key: \"<your-key>\"",
        "token = \"{{ .Values.token }}\"",
        "secret = os.environ[\"SECRET\"]",
        "password = settings.database_password",
        "token = \"aaaaaaaaaaaaaaaa\"",
        "password = \"short1\"",
    ] {
        assert_eq!(
            rule_at(&scanner, "app/settings.py", placeholder),
            None,
            "{placeholder}"
        );
    }
}

#[test]
fn a_private_key_is_one_hit_over_its_lines_and_its_body_never_shows() {
    let s = samples();
    let mut lines = vec!["const KEY: &str = r\"".to_string()];
    lines.extend(key_block(&s));
    lines.push("\";".to_string());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let hits = SecretScanner::builtin().scan(&[ScanFile::added("src/key.rs", 20, &refs)]);
    assert_eq!(hits.len(), 1);
    let hit = &hits[0];
    assert_eq!(hit.rule, "secret/private-key");
    assert_eq!((hit.start_line, hit.end_line), (21, 26));
    assert_eq!(hit.redacted, "----…");
    for body in &s.key_body {
        assert!(!hit.evidence.contains(&body[..16]));
    }
    // A partial block (the END line outside the diff) still redacts everything after BEGIN.
    let partial = format!("{}\n{}", lines[1], s.key_body[0]);
    let (redacted, count) = redact_text(&partial, &SecretScanner::builtin());
    assert_eq!((redacted.as_str(), count), ("----…", 1));
}

#[test]
fn a_private_key_inside_a_json_string_is_redacted_whole() {
    // A cloud service-account key file: the key's line breaks are written `\n`.
    let s = samples();
    let line = format!(
        "{{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n\", \"client_id\": \"1\"}}",
        s.key_body.join("\\n")
    );
    let scanner = SecretScanner::builtin();
    let (redacted, count) = redact_text(&line, &scanner);
    assert_eq!(count, 1);
    assert_eq!(
        redacted,
        "{\"type\": \"service_account\", \"private_key\": \"----…\\n\", \"client_id\": \"1\"}"
    );
    let hits = scanner.scan(&[ScanFile::added("sa.json", 1, &[&line])]);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].rule, "secret/private-key");
    for body in &s.key_body {
        assert!(
            !hits[0].evidence.contains(&body[..12]),
            "{}",
            hits[0].evidence
        );
    }
}

#[test]
fn hits_and_nodes_never_hold_the_secret() {
    let s = samples();
    let scanner = SecretScanner::builtin();
    let line = format!(
        "    client = Client(token=\"{}\", key=\"{}\")  ",
        s.github_pat, s.stripe
    );
    let hits = scanner.scan(&[ScanFile::added("src/client.py", 7, &[&line])]);
    assert_eq!(hits.len(), 2);
    let expected_evidence = "client = Client(token=\"ghp_…\", key=\"sk_l…\")";
    for hit in &hits {
        assert_eq!(hit.evidence, expected_evidence);
        assert_eq!(hit.side, Side::Right);
    }
    let nodes = to_nodes(&hits, SECRET_SCAN);
    for node in &nodes {
        let json = serde_json::to_string(node).unwrap();
        for secret in [&s.github_pat, &s.stripe] {
            assert!(!json.contains(secret.as_str()));
            assert!(
                !json.contains(&secret[4..12]),
                "no fragment of the hidden part"
            );
        }
        assert_eq!(node.priority, Priority::P0);
        assert_eq!(node.kind, crate::review::Kind::Bug);
        assert_eq!(*node.category(), Category::Security);
        assert_eq!(node.origin.source, Source::Scanner);
        assert_eq!(node.origin.reviewer, "secret scan");
        assert!(node.confidence >= 0.9);
        assert_eq!(node.scope, Scope::InScope);
        assert!(node.validate().is_ok(), "{:?}", node.validate());
        // The fingerprint is computable from the redacted line alone.
        assert_eq!(
            node.fingerprint,
            fingerprint(
                node.rule.as_deref().unwrap(),
                "src/client.py",
                &[expected_evidence]
            )
        );
    }
    assert_ne!(nodes[0].id, nodes[1].id);
}

#[test]
fn the_fingerprint_survives_moves_and_reindentation_but_not_another_rule_or_file() {
    let s = samples();
    let scanner = SecretScanner::builtin();
    let node_for = |path: &str, line_no: u32, line: &str| {
        let hits = scanner.scan(&[ScanFile::added(path, line_no, &[line])]);
        to_nodes(&hits, SECRET_SCAN).remove(0).fingerprint
    };
    let line = format!("TOKEN = \"{}\"", s.github_pat);
    let base = node_for("a.py", 3, &line);
    assert_eq!(base, node_for("a.py", 90, &format!("        {line}")));
    assert_ne!(base, node_for("b.py", 3, &line));
    // Rotating to another token of the same kind at the same spot is the same problem.
    let rotated = format!(
        "TOKEN = \"{}\"",
        super::checksum::checksummed("ghp_", &fake(ALNUM, 30, 99))
    );
    assert_eq!(base, node_for("a.py", 3, &rotated));
}

#[test]
fn redact_text_replaces_every_recognized_secret() {
    let s = samples();
    let scanner = gitleaks().scanner;
    let text = format!(
        "Deploy with {}\nand AWS {} then call {}.\nNothing else: changeme, ${{TOKEN}}.",
        s.gitlab, s.aws_key_id, s.slack_webhook
    );
    let (redacted, count) = redact_text(&text, &scanner);
    assert_eq!(count, 3);
    assert_eq!(
        redacted,
        "Deploy with glpa…\nand AWS AKIA… then call http….\nNothing else: changeme, ${TOKEN}."
    );
    assert_eq!(
        redact_text("no secrets here", &scanner),
        ("no secrets here".to_string(), 0)
    );
}

#[test]
fn removed_lines_are_not_scanned_by_default() {
    let s = samples();
    let line = format!("token = \"{}\"", s.github_pat);
    let file = ScanFile::new("a.py", [(Side::Left, 4, line.as_str())]);
    let scanner = SecretScanner::builtin();
    assert!(scanner.scan(std::slice::from_ref(&file)).is_empty());
    let removed = scanner.scan_side(&[file], Side::Left);
    assert_eq!(removed.len(), 1);
    let node = to_nodes(&removed, SECRET_SCAN).remove(0);
    assert_eq!(node.scope, Scope::OutOfScope);
    assert_eq!(node.anchor.unwrap().side, Side::Left);
}

#[test]
fn a_secret_the_change_only_moves_or_reindents_is_not_what_it_leaks() {
    let s = samples();
    let scanner = SecretScanner::builtin();
    let old = format!("  token = \"{}\"", s.github_pat);
    let reindented = format!("    token = \"{}\"", s.github_pat);
    let moved = [
        (Side::Left, 4, old.as_str()),
        (Side::Right, 9, reindented.as_str()),
    ];
    let file = ScanFile::new("client.py", moved);
    let hits = scanner.scan(std::slice::from_ref(&file));
    assert_eq!(hits.len(), 1, "the scan itself still sees it: {hits:?}");
    assert!(scanner.only_moved(std::slice::from_ref(&file), "client.py", 9, 9));
    // gitleaks' report of the same line is left out the same way.
    let report = serde_json::json!([{
        "RuleID": "github-pat", "Description": "GitHub PAT", "File": "/tmp/scan/src/client.py",
        "StartLine": 9, "EndLine": 9, "Secret": s.github_pat, "Match": s.github_pat, "Tags": []
    }])
    .to_string();
    let files = [file];
    assert!(
        report_to_nodes(&report, "/tmp/scan/src", &files, &scanner)
            .unwrap()
            .is_empty()
    );
    // A rotated key (a new value where the old was removed) is new, and so is a secret moved
    // in from another file.
    let rotated_value = super::checksum::checksummed("ghp_", &fake(ALNUM, 30, 98));
    assert_ne!(rotated_value, s.github_pat);
    let rotated = format!("    token = \"{rotated_value}\"");
    let file = ScanFile::new(
        "client.py",
        [
            (Side::Left, 4, old.as_str()),
            (Side::Right, 9, rotated.as_str()),
        ],
    );
    assert_eq!(scanner.scan(std::slice::from_ref(&file)).len(), 1);
    assert!(!scanner.only_moved(std::slice::from_ref(&file), "client.py", 9, 9));
    let elsewhere = [
        ScanFile::new("old.py", [(Side::Left, 4, old.as_str())]),
        ScanFile::new("client.py", [(Side::Right, 9, reindented.as_str())]),
    ];
    assert!(!scanner.only_moved(&elsewhere, "client.py", 9, 9));
}

#[test]
fn secrets_split_by_unchanged_lines_are_separate_runs() {
    let s = samples();
    let begin = "-----BEGIN RSA PRIVATE KEY-----";
    let file = ScanFile::new(
        "k.pem",
        [
            (Side::Right, 1, begin),
            (Side::Right, 5, s.key_body[0].as_str()),
        ],
    );
    let hits = SecretScanner::builtin().scan(&[file]);
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].start_line, hits[0].end_line), (1, 1));
}

#[test]
fn use_default_extends_the_builtins_and_disabled_rules_remove_them() {
    let config = r#"
[extend]
useDefault = true
disabledRules = ["jwt"]

[[rules]]
id = "internal-token"
description = "Our internal service token"
regex = '''\b(itk_[a-z0-9]{24})\b'''
keywords = ["itk_"]
"#;
    let loaded = load_gitleaks_config(config).unwrap();
    let ids: Vec<&str> = loaded
        .scanner
        .rules()
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    assert!(ids.contains(&"secret/internal-token"));
    assert!(ids.contains(&"secret/github-pat"));
    assert!(ids.contains(&"secret/config-password"));
    assert!(!ids.contains(&"secret/jwt"));

    // Without useDefault the configuration replaces gitleaks' rules; the built-ins it has no
    // rule for stay.
    let alone = load_gitleaks_config(&config.replace("useDefault = true", "")).unwrap();
    assert_eq!(
        alone.scanner.rules().len(),
        1 + super::builtin::beside_gitleaks().len()
    );
    assert!(
        alone
            .scanner
            .rules()
            .iter()
            .all(|r| r.id != "secret/github-pat")
    );
    let token = format!("itk_{}", fake(LOWER_ALNUM, 24, 40));
    assert_eq!(
        rule_at(&alone.scanner, "a.go", &format!("t := \"{token}\"")).as_deref(),
        Some("secret/internal-token")
    );
}

#[test]
fn allowlist_conditions_targets_and_stopwords_follow_gitleaks() {
    let config = r#"
[[rules]]
id = "demo"
regex = '''demo_([a-z0-9]{16})'''
keywords = ["demo_"]
[[rules.allowlists]]
condition = "AND"
paths = ['''^tests/''']
regexTarget = "line"
regexes = ['''fixture''']
[[rules.allowlists]]
stopwords = ["0000"]

[[allowlists]]
targetRules = ["other"]
regexes = ['''.*''']
[[allowlists]]
regexTarget = "match"
regexes = ['''^demo_ok''']
"#;
    let loaded = load_gitleaks_config(config).unwrap();
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let scanner = &loaded.scanner;
    let secret = format!("demo_{}", fake(LOWER_ALNUM, 16, 50));
    let fires = |path: &str, line: String| rule_at(scanner, path, &line).is_some();
    assert!(fires("src/a.rs", format!("x = {secret}")));
    // AND: the path alone or the line alone is not enough.
    assert!(fires("tests/a.rs", format!("x = {secret}")));
    assert!(fires("src/a.rs", format!("fixture = {secret}")));
    assert!(!fires("tests/a.rs", format!("fixture = {secret}")));
    // Stopwords are matched in the secret, case-insensitively.
    assert!(!fires("src/a.rs", "x = demo_ab0000cdefghijkl".into()));
    // A global allowlist targeted at another rule does not apply; an untargeted one does.
    assert!(!fires("src/a.rs", "x = demo_okabcdefgh123456".into()));
}

#[test]
fn broken_rules_are_reported_by_id_never_skipped_silently() {
    let config = r#"
[[rules]]
id = "lookahead"
regex = '''secret(?=[a-z])'''

[[rules]]
id = "group-too-far"
regex = '''k_([a-z]+)'''
secretGroup = 3

[[rules]]
description = "no id"
regex = '''x'''

[[rules]]
id = "nothing"

[[rules]]
id = "entropy-is-text"
regex = '''y'''
entropy = "high"

[[rules]]
id = "fine"
regex = '''fine_[0-9]{8}'''
[[rules.allowlists]]
regexes = ['''(?<!x)y''']
"#;
    let loaded = load_gitleaks_config(config).unwrap();
    let summary: Vec<(String, bool)> = loaded
        .problems
        .iter()
        .map(|p| (p.rule.clone(), p.rule_dropped))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("lookahead".to_string(), true),
            ("group-too-far".to_string(), true),
            ("rules[2]".to_string(), true),
            ("nothing".to_string(), true),
            ("entropy-is-text".to_string(), true),
            ("fine".to_string(), false),
        ]
    );
    assert!(
        loaded.problems[0].reason.contains("look-around"),
        "{:?}",
        loaded.problems[0]
    );
    assert!(loaded.problems[1].reason.contains("secretGroup 3"));
    assert_eq!(loaded.dropped_rules().len(), 5);
    assert_eq!(
        loaded.scanner.rules().len(),
        1 + super::builtin::beside_gitleaks().len()
    );

    assert!(matches!(
        load_gitleaks_config("[[rules]\nid = 1"),
        Err(ConfigError::Toml(_))
    ));
}

#[test]
fn a_large_diff_is_scanned_in_one_pass() {
    let s = samples();
    let scanner = gitleaks().scanner;
    let filler: Vec<String> = (0..20_000)
        .map(|i| format!("    let value_{i} = compute(input_{i}, {i}); // keep"))
        .collect();
    let mut lines: Vec<&str> = filler.iter().map(String::as_str).collect();
    let secret_line = format!("    let token = \"{}\";", s.github_pat);
    lines[12_345] = &secret_line;
    let hits = scanner.scan(&[ScanFile::added("src/big.rs", 1, &lines)]);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].start_line, 12_346);
    assert_eq!(hits[0].rule, "secret/github-pat");
}

#[test]
fn the_scan_and_gitleaks_at_one_place_are_one_problem() {
    let s = samples();
    let scanner = gitleaks().scanner;
    let line = format!("TOKEN = \"{}\"", s.github_pat);
    let files = [ScanFile::added("src/app.py", 12, &[line.as_str()])];
    let mut nodes = to_nodes(&scanner.scan(&files), SECRET_SCAN);
    let report = serde_json::json!([{
        "Description": "Uncovered a GitHub Personal Access Token",
        "StartLine": 12, "EndLine": 12, "StartColumn": 10, "EndColumn": 49,
        "Match": s.github_pat, "Secret": s.github_pat,
        "File": "/tmp/scan/src/src/app.py", "SymlinkFile": "", "Commit": "",
        "Entropy": 5.1, "Author": "", "Email": "", "Date": "", "Message": "",
        "Tags": [], "RuleID": "github-pat",
        "Fingerprint": "src/app.py:github-pat:12"
    }])
    .to_string();
    let from_gitleaks = report_to_nodes(&report, "/tmp/scan/src", &files, &scanner).unwrap();
    assert_eq!(from_gitleaks.len(), 1);
    let theirs = &from_gitleaks[0];
    assert_eq!(theirs.origin.reviewer, "gitleaks");
    assert_eq!(theirs.anchor.as_ref().unwrap().path, "src/app.py");
    assert_eq!(theirs.text.evidence, "TOKEN = \"ghp_…\"");
    assert!(
        !serde_json::to_string(theirs)
            .unwrap()
            .contains(&s.github_pat)
    );
    // Same rule, same redacted line: the same fingerprint as the built-in scan's node.
    assert_eq!(theirs.fingerprint, nodes[0].fingerprint);
    nodes.extend(from_gitleaks);
    let problems = consolidate(&nodes);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].found_by_phrase(), "secret scan and gitleaks");
}

#[test]
fn gitleaks_findings_pass_the_same_sample_judgement_as_the_scan() {
    // golang-jwt's test tokens: gitleaks reports them under `jwt` (and a generic key beside
    // them); the built-in scan reads them as test data, and so must its second opinion.
    let scanner = gitleaks().scanner;
    let claims = crate::base64::encode(br#"{"foo":"bar","iss":"test","aud":"single"}"#);
    let claims = claims
        .trim_end_matches('=')
        .replace('+', "-")
        .replace('/', "_");
    let token = format!(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.{claims}.htEBUf7BVbfSmVoTFjXf5y6DLmDbBfV6r0n7cVOw_aA"
    );
    let key = "Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D";
    let report_for = |path: &str| {
        serde_json::json!([
            {"RuleID": "jwt", "Description": "JWT", "File": format!("/tmp/scan/src/{path}"),
             "StartLine": 3, "EndLine": 3, "Secret": token, "Match": token, "Tags": []},
            {"RuleID": "generic-api-key", "Description": "generic",
             "File": format!("/tmp/scan/src/{path}"), "StartLine": 4, "EndLine": 4,
             "Secret": key, "Match": format!("apiKey := \"{key}\""), "Tags": []}
        ])
        .to_string()
    };
    let token_line = format!("\ttokenString := \"{token}\"");
    let key_line = format!("\tapiKey := \"{key}\"");
    let lines = [token_line.as_str(), key_line.as_str()];
    for path in ["parser_test.go", "examples/verify/main.go"] {
        let files = [ScanFile::added(path, 3, &lines)];
        let nodes = report_to_nodes(&report_for(path), "/tmp/scan/src", &files, &scanner).unwrap();
        assert!(nodes.is_empty(), "{path}: {nodes:?}");
    }
    // In the library's own code both stay findings.
    let files = [ScanFile::added("parser.go", 3, &lines)];
    let nodes =
        report_to_nodes(&report_for("parser.go"), "/tmp/scan/src", &files, &scanner).unwrap();
    let mut rules: Vec<&str> = nodes.iter().filter_map(|n| n.rule.as_deref()).collect();
    rules.sort();
    assert_eq!(rules, ["secret/generic-api-key", "secret/jwt"]);
}

#[test]
fn gitleaks_reports_parse_with_secrets_redacted() {
    let s = samples();
    let report = serde_json::json!([
        {"RuleID": "aws-access-token", "Description": "AWS", "File": "a/b.tf",
         "StartLine": 3, "EndLine": 3, "Secret": s.aws_key_id, "Match": s.aws_key_id,
         "Tags": ["aws"]},
        {"RuleID": "private-key", "Description": "key", "File": "k.pem",
         "StartLine": 1, "EndLine": 6, "Secret": "-----BEGIN", "Match": "-----BEGIN", "Tags": null}
    ])
    .to_string();
    let findings = parse_report(&report).unwrap();
    assert_eq!(findings.len(), 2);
    assert_eq!(findings[0].redacted, "AKIA…");
    assert_eq!(findings[0].tags, vec!["aws".to_string()]);
    assert_eq!((findings[1].start_line, findings[1].end_line), (1, 6));
    assert!(!format!("{findings:?}").contains(&s.aws_key_id));
    assert!(parse_report("").unwrap().is_empty());
    assert!(
        parse_report("{\"not\": \"a list\"}")
            .unwrap_err()
            .to_string()
            .contains("not a JSON list")
    );
}

#[tokio::test]
async fn a_missing_gitleaks_is_skipped_with_a_note() {
    let s = samples();
    let line = format!("t = \"{}\"", s.github_pat);
    let files = [ScanFile::added("a.py", 1, &[line.as_str()])];
    let run = run_gitleaks(
        "gitleaks-that-is-not-installed",
        &files,
        None,
        &SecretScanner::builtin(),
        std::time::Duration::from_secs(30),
    )
    .await;
    assert!(run.nodes.is_empty());
    assert_eq!(run.notes.len(), 1);
    assert!(run.notes[0].contains("not installed"), "{:?}", run.notes);
}

/// A stand-in gitleaks executable (a shell script) checks the command line it is given and
/// writes a report, exercising the real runner end to end: directory layout, arguments,
/// report reading and conversion.
#[cfg(unix)]
#[tokio::test]
async fn an_installed_gitleaks_is_run_on_the_added_lines() {
    use std::os::unix::fs::PermissionsExt;
    let s = samples();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("gitleaks");
    let body = format!(
        r#"#!/bin/sh
[ "$1" = dir ] || {{ echo "expected dir, got $1" >&2; exit 3; }}
src="$2"; shift 2
while [ $# -gt 0 ]; do
  case "$1" in --report-path) report="$2"; shift;; esac; shift
done
grep -q '{token}' "$src/app/settings.py" || {{ echo "line missing" >&2; exit 4; }}
line=$(grep -n '{token}' "$src/app/settings.py" | cut -d: -f1)
printf '[{{"RuleID":"github-pat","Description":"GitHub PAT","File":"%s/app/settings.py","StartLine":%s,"EndLine":%s,"Secret":"{token}","Match":"{token}"}}]' "$src" "$line" "$line" > "$report"
"#,
        token = s.github_pat
    );
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();

    let line = format!("GITHUB_TOKEN = \"{}\"", s.github_pat);
    let files = [ScanFile::added(
        "app/settings.py",
        41,
        &["import os", line.as_str()],
    )];
    let run = run_gitleaks(
        script.to_str().unwrap(),
        &files,
        None,
        &SecretScanner::builtin(),
        std::time::Duration::from_secs(60),
    )
    .await;
    assert!(run.notes.is_empty(), "{:?}", run.notes);
    assert_eq!(run.nodes.len(), 1);
    let node = &run.nodes[0];
    assert_eq!(node.rule.as_deref(), Some("secret/github-pat"));
    assert_eq!(node.anchor.as_ref().unwrap().start_line, 42);
    assert_eq!(node.text.evidence, "GITHUB_TOKEN = \"ghp_…\"");

    // A failing gitleaks is a note, with anything secret in its message redacted.
    let failing = dir.path().join("gitleaks-broken");
    std::fs::write(
        &failing,
        format!(
            "#!/bin/sh\necho \"bad input near {}\" >&2\nexit 2\n",
            s.github_pat
        ),
    )
    .unwrap();
    std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = run_gitleaks(
        failing.to_str().unwrap(),
        &files,
        None,
        &SecretScanner::builtin(),
        std::time::Duration::from_secs(60),
    )
    .await;
    assert!(run.nodes.is_empty());
    assert_eq!(run.notes.len(), 1);
    assert!(run.notes[0].contains("gitleaks failed"), "{:?}", run.notes);
    assert!(run.notes[0].contains("ghp_…"));
    assert!(!run.notes[0].contains(&s.github_pat));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_config_loader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = load_gitleaks_config(&text);
        }

        #[test]
        fn config_shaped_input_never_panics(
            regex in "[\\\\\\[\\]{}()a-z0-9?*+|^$.:,-]{0,24}",
            group in -2i64..4,
            entropy in -1.0f64..8.0,
        ) {
            let config = format!(
                "[[rules]]\nid = \"p\"\nregex = '''{regex}'''\nsecretGroup = {group}\nentropy = {entropy}\n"
            );
            if let Ok(loaded) = load_gitleaks_config(&config) {
                let _ = loaded.scanner.scan(&[ScanFile::added("a", 1, &["p = abc123XYZ", "x"])]);
            }
        }

        #[test]
        fn redaction_never_leaves_a_found_secret(seed in any::<u64>()) {
            let token = format!("ghp_{}", fake(ALNUM, 36, seed));
            let text = format!("a {token} b {token}");
            let (redacted, count) = redact_text(&text, &SecretScanner::builtin());
            prop_assert_eq!(count, 2);
            prop_assert!(!redacted.contains(&token[4..]));
        }
    }
}

/// The scan's hits on one added file of `lines` at `path`.
fn scan_file(scanner: &SecretScanner, path: &str, lines: &[&str]) -> Vec<SecretHit> {
    scanner.scan(&[ScanFile::added(path, 1, lines)])
}

#[test]
fn key_bodies_without_their_header_are_key_material() {
    let s = samples();
    let scanner = default_scanner();
    let body: Vec<&str> = s.key_body.iter().map(String::as_str).collect();
    // A hunk inside an existing key file: body lines only.
    let hits = scan_file(scanner, "deploy/server.pem", &body);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].rule, "secret/private-key-body");
    assert_eq!((hits[0].start_line, hits[0].end_line), (1, 4));
    // Outside key files a base64 block is not reported (a certificate bundle, an image)…
    assert!(scan_file(scanner, "src/fixtures.rs", &body).is_empty());
    // …unless the file is known to hold a key, where even one changed line is.
    let known = scanner
        .clone()
        .with_key_files(["config/bundle.txt".to_string()]);
    let one = scan_file(&known, "config/bundle.txt", &body[1..2]);
    assert_eq!(one.len(), 1, "{one:?}");
    assert_eq!(one[0].rule, "secret/private-key-body");
    // Redaction takes the block wherever it is, rendered diff markers and all.
    let diff = format!(" {}\n+{}\n {}\n", body[0], body[1], body[2]);
    let (redacted, count) = redact_text(&diff, scanner);
    assert_eq!(count, 1, "{redacted}");
    for line in &body[..3] {
        assert!(!redacted.contains(&line[8..24]), "{redacted}");
    }
    // Lines of ordinary code are not key material.
    let code =
        "    let value = compute(&state, 42).map_err(Error::from)?; // a long comment here ok";
    assert!(scan_file(scanner, "deploy/server.pem", &[code, code]).is_empty());
}

#[test]
fn passwords_in_env_and_config_files_are_secrets_whatever_their_entropy() {
    let scanner = default_scanner();
    let fires = |path: &str, line: &str| !scan_file(scanner, path, &[line]).is_empty();
    for (path, line) in [
        (".env", "ADMIN_PASSWORD=hunter2hunter2"),
        (
            "deploy/.env.production",
            "export DB_PASSWORD=\"correcthorse\"",
        ),
        ("config/app.yml", "  smtp_password: 'letmein99'"),
        (
            "src/main/resources/app.properties",
            "db.password=swordfish1",
        ),
        ("settings.ini", "api_token = qwertyuiop"),
    ] {
        assert!(fires(path, line), "{path}: {line}");
        let hit = &scan_file(scanner, path, &[line])[0];
        assert_eq!(hit.rule, "secret/config-password", "{path}: {line}");
        assert!(!hit.evidence.contains("hunter2h"));
    }
    for (path, line) in [
        (".env", "ADMIN_PASSWORD=changeme"),
        (".env", "ADMIN_PASSWORD=${ADMIN_PASSWORD}"),
        (".env", "ADMIN_PASSWORD=<your-password>"),
        (".env", "DB_PASSWORD="),
        (".env", "TOKEN_TTL=3600000"),
        (".env", "PASSWORD_FILE=/run/secrets/db"),
        ("config/app.yml", "  password: !vault |"),
        ("config/app.yml", "  secretName: my-app-secret"),
        ("config/app.yml", "  password: password123"),
        ("config/app.yml", "  token: vault:secret/data/app#token"),
        // Not a config file: the generic rules judge it, with their entropy floor.
        ("src/app.py", "ADMIN_PASSWORD=hunter2hunter2"),
    ] {
        assert!(!fires(path, line), "{path}: {line}");
    }
}

#[test]
fn gitleaks_allow_silences_a_line_but_never_its_redaction() {
    let s = samples();
    let scanner = default_scanner();
    let line = format!("token = \"{}\" # gitleaks:allow", s.github_pat);
    assert!(scan_file(scanner, "src/a.py", &[&line]).is_empty());
    let (redacted, count) = redact_text(&line, scanner);
    assert_eq!(count, 1);
    assert!(!redacted.contains(&s.github_pat[4..]));
}

#[test]
fn gitleaksignore_fingerprints_silence_exactly_their_finding() {
    let s = samples();
    let line = format!("token = \"{}\"", s.github_pat);
    let lines = ["x = 1", line.as_str()];
    let (entries, notes) =
        parse_gitleaksignore("src/a.py:github-pat:2\nsrc/b.py:github-pat:2\nsrc/a.py:jwt:2\n");
    assert!(notes.is_empty());
    let scanner = default_scanner().clone().with_ignored(entries);
    assert!(scan_file(&scanner, "src/a.py", &lines).is_empty());
    // Another file, or another line, is still reported.
    assert_eq!(scan_file(&scanner, "src/c.py", &lines).len(), 1);
    assert_eq!(scan_file(&scanner, "src/a.py", &[line.as_str()]).len(), 1);
}

#[test]
fn curl_credentials_are_recognized_for_redaction() {
    let user = format!("deploy:{}", fake(ALNUM, 14, 90));
    let basic = fake(BASE64, 28, 91);
    let scanner = default_scanner();
    for text in [
        format!("curl -k -u {user} https://ci.example.com/api"),
        format!("curl -H 'Authorization: Basic {basic}' https://ci.example.com/api"),
    ] {
        let (redacted, count) = redact_text(&text, scanner);
        assert!(count >= 1, "{text}");
        assert!(!redacted.contains(&user[8..16]), "{redacted}");
        assert!(!redacted.contains(&basic[4..12]), "{redacted}");
    }
}

#[test]
fn every_text_of_a_node_and_a_report_is_redacted() {
    let s = samples();
    let scanner = default_scanner();
    let quoted = format!("curl -u admin:{} https://x", s.password);
    let mut node = to_nodes(
        &scan_file(scanner, "src/a.py", &[&format!("t = \"{}\"", s.github_pat)]),
        "rules",
    )
    .remove(0);
    node.text.evidence = quoted.clone();
    node.text.body = format!("the token {} leaks", s.github_pat);
    node.reasoning = quoted.clone();
    node.fix = Some(crate::review::Fix {
        replacement: Some(vec![quoted.clone()]),
        diff: Some(quoted.clone()),
        prompt: Some(quoted.clone()),
    });
    node.root_cause = Some(quoted.clone());
    redact_node(&mut node, scanner);
    let json = serde_json::to_string(&node).unwrap();
    assert!(!json.contains(&s.password[4..12]), "{json}");
    assert!(!json.contains(&s.github_pat[4..12]), "{json}");

    let mut report = serde_json::json!({"a": [quoted.clone(), {"b": quoted}], "n": 1});
    redact_json(&mut report, scanner);
    let text = report.to_string();
    assert!(!text.contains(&s.password[4..12]), "{text}");
    assert_eq!(report["n"], 1);
}

#[test]
fn in_test_code_and_fixtures_only_a_providers_exact_format_is_a_secret() {
    let scanner = SecretScanner::builtin();
    // A WHATWG URL test vector and a stub's token: generic assignments in test files.
    for (path, line) in [
        (
            "tests/models/whatwg.json",
            "    \"password\": \"%20!%22$%&'()*+,-.%3A%3B%3C%3D%3E%40%5B\",",
        ),
        ("src/client_test.go", "\ttoken := \"xq7-token-123-Zk9vR2\""),
    ] {
        assert_eq!(rule_at(&scanner, path, line), None, "{path}: {line}");
    }
    // The same value outside tests is still reported, and a provider's format in a test is too.
    assert_eq!(
        rule_at(
            &scanner,
            "src/client.go",
            "\ttoken := \"xq7-token-123-Zk9vR2\""
        )
        .as_deref(),
        Some("secret/generic-assignment")
    );
    assert_eq!(
        rule_at(
            &scanner,
            "tests/test_api.py",
            &format!("KEY = \"{}\"", samples().github_pat)
        )
        .as_deref(),
        Some("secret/github-token")
    );
}

#[test]
fn gitleaks_generic_rules_also_read_only_a_providers_format_in_test_code() {
    // uvicorn #1816: RFC 6455's sample nonce in a websocket test was a P0 generic-api-key.
    let scanner = default_scanner();
    let line = "            \"sec-websocket-key\": \"dGhlIHNhbXBsZSBub25jZQ==\",";
    assert_eq!(
        rule_at(scanner, "tests/protocols/test_websocket.py", line),
        None
    );
    // Outside tests the same line is still read by gitleaks' rule.
    assert_eq!(
        rule_at(scanner, "uvicorn/protocols/websocket.py", line).as_deref(),
        Some("secret/generic-api-key")
    );
    // Not a finding in a test, yet still taken out of whatever quotes it: a real key pasted
    // into a test leaks all the same.
    let lines = ["api_key = \"Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D\""];
    let files = [ScanFile::added("tests/test_client.py", 1, &lines)];
    assert!(scanner.scan(&files).is_empty());
    let known = scanner.known_values(&files);
    assert!(
        known
            .iter()
            .any(|v| v.contains("Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D")),
        "{known:?}"
    );
    let quoting = scanner.clone().with_known(known);
    let (redacted, n) = quoting.redact("the model says: Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D");
    assert!(
        n > 0 && !redacted.contains("Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D"),
        "{redacted}"
    );
}

#[test]
fn the_values_of_the_secrets_in_a_change_are_redacted_wherever_they_are_quoted() {
    let scanner = default_scanner();
    let lines = [
        "ADMIN_PASSWORD=Zq7vLmW2pXk9",
        "curl -u deploy:Hn4Rt8Yq2Lm6 https://deploy.example.com",
        "PIN=1234",
    ];
    let files = [ScanFile::added("deploy/.env", 1, &lines)];
    let known = scanner.known_values(&files);
    assert!(!known.is_empty());
    let quoting = scanner.clone().with_known(known);
    let prose = "The password Zq7vLmW2pXk9 and the deploy user's Hn4Rt8Yq2Lm6 are committed; \
                 PIN 1234 too.";
    let (redacted, count) = redact_text(prose, &quoting);
    assert!(!redacted.contains("Zq7vLmW2pXk9"), "{redacted}");
    assert!(!redacted.contains("Hn4Rt8Yq2Lm6"), "{redacted}");
    assert_eq!(count, 2, "{redacted}");
    // Without the change's values, prose gives a rule nothing to hold on to.
    assert!(redact_text(prose, scanner).0.contains("Zq7vLmW2pXk9"));
    // Short values are not redacted by value: they would take ordinary words and numbers.
    assert!(redacted.contains("PIN 1234"), "{redacted}");
}

#[test]
fn a_sample_jwt_in_test_code_is_not_a_finding_but_is_still_redacted() {
    // go-playground/validator #783: a JWT validator's test table.
    let scanner = default_scanner();
    let sample =
        "eyJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiZ29waGVyIn0.O_bROM_szPq9qBql-XDHMranHwP48ODdoLICWzqBr_U";
    let line = format!("\t\t{{\"{sample}\", true}},");
    assert_eq!(rule_at(scanner, "validator_test.go", &line), None);
    // Outside test code the same token is a finding.
    assert_eq!(
        rule_at(scanner, "validator.go", &line).as_deref(),
        Some("secret/jwt")
    );
    // A token that names its issuer is a finding in test code too.
    let claims = crate::base64::encode(br#"{"iss":"https://auth.acme.io/","sub":"svc-deploy"}"#);
    let claims = claims
        .trim_end_matches('=')
        .replace('+', "-")
        .replace('/', "_");
    let issued =
        format!("eyJhbGciOiJIUzI1NiJ9.{claims}.O_bROM_szPq9qBql-XDHMranHwP48ODdoLICWzqBr_U");
    assert_eq!(
        rule_at(
            scanner,
            "validator_test.go",
            &format!("\ttoken := \"{issued}\"")
        )
        .as_deref(),
        Some("secret/jwt")
    );
    // Not a finding, yet taken out of whatever quotes it.
    let lines = [line.as_str()];
    let files = [ScanFile::added("validator_test.go", 1, &lines)];
    assert!(scanner.scan(&files).is_empty());
    let quoting = scanner.clone().with_known(scanner.known_values(&files));
    let (redacted, n) = quoting.redact(&format!("the model says: {sample}"));
    assert!(
        n > 0 && !redacted.contains("O_bROM_szPq9qBql"),
        "{redacted}"
    );
}

#[test]
fn a_jwt_in_tests_or_examples_naming_no_real_place_is_test_data() {
    // golang-jwt's `Example…` functions and its parser table: `{"foo":"bar","iss":"test",
    // "aud":"single"}` and `{"aud":["test",1]}`, HS256 with the tests' own key.
    let scanner = default_scanner();
    let jwt = |claims: &str| {
        let claims = crate::base64::encode(claims.as_bytes());
        let claims = claims
            .trim_end_matches('=')
            .replace('+', "-")
            .replace('/', "_");
        format!(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.{claims}.htEBUf7BVbfSmVoTFjXf5y6DLmDbBfV6r0n7cVOw_aA"
        )
    };
    let example = jwt(r#"{"foo":"bar","iss":"test","aud":"single"}"#);
    let table = jwt(r#"{"aud":["test",1]}"#);
    for (path, token) in [
        ("example_test.go", &example),
        ("parser_test.go", &table),
        ("examples/verify/main.go", &example),
    ] {
        let line = format!("\ttokenString := \"{token}\"");
        assert_eq!(rule_at(scanner, path, &line), None, "{path}");
        // In the library's code the same token is a finding.
        assert_eq!(
            rule_at(scanner, "parser.go", &line).as_deref(),
            Some("secret/jwt")
        );
    }
    // A live token from a real issuer pasted into a test file stays a finding.
    let real = jwt(r#"{"iss":"https://securetoken.google.com/acme-prod","aud":"acme-prod"}"#);
    let line = format!("\ttokenString := \"{real}\"");
    for path in ["example_test.go", "examples/verify/main.go"] {
        assert_eq!(
            rule_at(scanner, path, &line).as_deref(),
            Some("secret/jwt"),
            "{path}"
        );
    }
}

#[test]
fn documentation_samples_read_like_test_code() {
    // FastAPI's tutorials (docs/de/docs/tutorial/security/oauth2-jwt.md) show jwt.io's token;
    // loguru's README assigns `WEBHOOK_TOKEN = "abc123def456"` in an example.
    let scanner = default_scanner();
    let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    let assignment = "WEBHOOK_TOKEN = \"Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D\"";
    for path in [
        "docs/de/docs/tutorial/security/oauth2-jwt.md",
        "README.md",
        "docs/usage.rst",
        "docs_src/security/tutorial004.py",
    ] {
        assert_eq!(rule_at(scanner, path, jwt), None, "{path}");
        assert_eq!(rule_at(scanner, path, assignment), None, "{path}");
    }
    // In code they are findings, and in documentation a provider's exact format still is.
    assert_eq!(
        rule_at(scanner, "app/security.py", jwt).as_deref(),
        Some("secret/jwt")
    );
    assert!(rule_at(scanner, "app/notify.py", assignment).is_some());
    let github = format!("token: {}", samples().github_pat);
    assert_eq!(
        rule_at(scanner, "README.md", &github).as_deref(),
        Some("secret/github-pat")
    );
}

/// A credential in a folder of examples that a package ships (below a source root, or in a
/// Python package: `mylib/examples/` beside `mylib/__init__.py`) is the package's, not a
/// made-up sample; at the top of the project it is one.
#[test]
fn a_credential_in_a_sample_folder_a_package_ships_is_not_a_sample() {
    let assignment = "WEBHOOK_TOKEN = \"Zq7vLmW2pXk9Hn4Rt8Yq2Lm6Bc3D\"";
    let scanner = default_scanner();
    assert_eq!(rule_at(scanner, "examples/notify.py", assignment), None);
    assert!(rule_at(scanner, "src/mylib/examples/notify.py", assignment).is_some());
    assert!(rule_at(scanner, "pkg/demo/notify.go", assignment).is_some());
    let packaged = scanner
        .clone()
        .with_python_packages(["mylib".to_string()].into_iter().collect());
    assert!(rule_at(&packaged, "mylib/examples/notify.py", assignment).is_some());
    assert_eq!(rule_at(&packaged, "examples/notify.py", assignment), None);
    // The path alone cannot tell a flat layout's package.
    assert_eq!(
        rule_at(scanner, "mylib/examples/notify.py", assignment),
        None
    );
}

#[test]
fn an_unquoted_name_in_code_is_not_a_generic_secret() {
    // pyjwt #873: a type annotation read by gitleaks' generic-api-key as `key: <value>`.
    let scanner = default_scanner();
    let annotation = "            self, msg: str | bytes, key: Ed25519PrivateKey | Ed448PrivateKey";
    assert_eq!(rule_at(scanner, "jwt/algorithms.py", annotation), None);
    let alias = "    AllowedPrivateKeys: TypeAlias = Union[";
    assert_eq!(rule_at(scanner, "jwt/algorithms.py", alias), None);
    let union =
        "        RSAPrivateKey, EllipticCurvePrivateKey, Ed25519PrivateKey, Ed448PrivateKey";
    assert_eq!(rule_at(scanner, "jwt/algorithms.py", union), None);
    // In a comment the same text may be a pasted value.
    let comment = "# key: Ed25519PrivateKeyZq7vLmW2pXk9";
    assert!(rule_at(scanner, "jwt/algorithms.py", comment).is_some());
    // Quoted, the same word is a literal; in a config file, unquoted is the value itself.
    let quoted = "    api_key = \"Ed25519PrivateKeyZq7vLmW2\"";
    assert!(rule_at(scanner, "app/settings.py", quoted).is_some());
    let config = "API_KEY=Ed25519PrivateKeyZq7vLmW2pXk9";
    assert!(rule_at(scanner, "deploy/.env", config).is_some());
}

/// requests 2.32 regenerated its test certificates and their keys under `tests/certs/`: key
/// material at a test fixture path is a P2 note to check it is only a fixture, never a P0;
/// outside test paths the same key stays a P0, and a provider's token in a test stays one.
#[test]
fn key_material_under_a_test_fixture_path_is_a_note() {
    let s = samples();
    let scanner = default_scanner();
    let block = key_block(&s);
    let lines: Vec<&str> = block.iter().map(String::as_str).collect();
    let priority = |path: &str| {
        let hits = scan_file(scanner, path, &lines);
        assert_eq!(hits.len(), 1, "{path}: {hits:?}");
        let node = &to_nodes(&hits, SECRET_SCAN)[0];
        assert!(node.validate().is_ok(), "{:?}", node.validate());
        node.priority
    };
    assert_eq!(
        priority("tests/certs/expired/server/server.key"),
        Priority::P2
    );
    assert_eq!(priority("src/test/resources/client.pem"), Priority::P2);
    assert_eq!(priority("deploy/server.key"), Priority::P0);
    assert_eq!(priority("certs/server.key"), Priority::P0);
    let token = format!("KEY = \"{}\"", s.github_pat);
    let hits = scan_file(scanner, "tests/test_api.py", &[&token]);
    assert_eq!(to_nodes(&hits, SECRET_SCAN)[0].priority, Priority::P0);
}

/// echo #1793 regenerated its self-signed localhost key in `_fixture/certs/key.pem`, which
/// `echo_test.go` loads: a Block on a merged PR; golang-jwt's `test/ec256-private.pem`, read by
/// `ecdsa_test.go`, then a P3 note nobody needed. A private key in a fixture folder (whatever
/// its prefix: Go skips `_fixture/`) that the project's tests name is no finding; one no test
/// names stays a P2 note; outside fixtures a key stays P0 even when a test reads it, and a
/// provider's token stays P0 in a fixture too.
#[test]
fn a_fixture_key_the_tests_load_is_no_finding() {
    let s = samples();
    let scanner = default_scanner();
    let block = key_block(&s);
    let lines: Vec<&str> = block.iter().map(String::as_str).collect();
    let nodes = |path: &str, read_by: Option<&str>| {
        let hits = scan_file(scanner, path, &lines);
        assert_eq!(hits.len(), 1, "{path}: {hits:?}");
        let mut nodes = to_nodes(&hits, SECRET_SCAN);
        let dropped =
            settle_keys_read_by_tests(&hits, &mut nodes, &|_| read_by.map(str::to_string));
        assert_eq!(dropped + nodes.len(), 1);
        nodes.iter().for_each(|n| assert!(n.validate().is_ok()));
        nodes.first().map(|node| node.priority)
    };
    assert_eq!(nodes("_fixture/certs/key.pem", None), Some(Priority::P2));
    // A key written inside a test's own source is read by it (go-jose's builder_test.go).
    assert_eq!(nodes("jwt/builder_test.go", None), None);
    assert_eq!(nodes("tests/fixtures/key.pem", None), Some(Priority::P2));
    for (key, test) in [
        ("_fixture/certs/key.pem", "echo_test.go"),
        ("test/ec256-private.pem", "ecdsa_test.go"),
        ("internal/testdata/server.key", "internal/tls_test.go"),
        ("pkg/.fixtures/tls/key.pem", "pkg/tls_test.go"),
    ] {
        assert_eq!(nodes(key, Some(test)), None, "{key}");
    }
    // Outside a fixture folder a key is a leak, whoever reads it.
    assert_eq!(
        nodes("certs/server.key", Some("server_test.go")),
        Some(Priority::P0)
    );
    assert_eq!(
        nodes("fixture_loader/key.pem", Some("a_test.go")),
        Some(Priority::P0)
    );
    // A provider's token in a fixture folder is live wherever it is.
    let token = format!("KEY = \"{}\"", s.github_pat);
    let hits = scan_file(scanner, "_fixture/config.py", &[&token]);
    let mut token_nodes = to_nodes(&hits, SECRET_SCAN);
    settle_keys_read_by_tests(&hits, &mut token_nodes, &|_| Some("a_test.go".into()));
    assert_eq!(token_nodes[0].priority, Priority::P0);
    assert!(fixture_dir("_fixture") && fixture_dir("testdata") && fixture_dir("tests"));
    assert!(!fixture_dir("certs") && !fixture_dir("fixture_loader"));
    // rustls keeps its test certificate authorities' keys in `test-ca/eddsa/*.key`: a folder
    // named `test-…` holds material made for the tests.
    assert_eq!(nodes("test-ca/eddsa/end.key", None), Some(Priority::P2));
    assert!(fixture_dir("test-ca") && fixture_dir("test_certs"));
    assert!(!fixture_dir("testing-tools") && !fixture_dir("contest"));
}

/// puma 6.5.0 regenerated the TLS fixtures its tests load from `examples/puma/` (the client
/// certificates' CA, the chain's intermediate, the server's key pair): 11 P0s blocked a
/// compatible release. A key in a folder of examples that the tests load (by its path, its
/// folder's or its certificate's: `read_by`) is a P3 note naming the test; one no test loads
/// stays a P0, as does a key outside fixtures and examples whoever reads it, and a provider's
/// token in an examples folder.
#[test]
fn a_key_in_a_folder_of_examples_the_tests_load_is_a_note() {
    let s = samples();
    let scanner = default_scanner();
    let block = key_block(&s);
    let lines: Vec<&str> = block.iter().map(String::as_str).collect();
    let node = |path: &str, read_by: Option<&str>| {
        let hits = scan_file(scanner, path, &lines);
        assert_eq!(hits.len(), 1, "{path}: {hits:?}");
        let mut nodes = to_nodes(&hits, SECRET_SCAN);
        settle_keys_read_by_tests(&hits, &mut nodes, &|_| read_by.map(str::to_string));
        assert!(nodes[0].validate().is_ok(), "{:?}", nodes[0].validate());
        nodes.remove(0)
    };
    let test = Some("test/test_puma_server_ssl.rb");
    for path in [
        "examples/puma/client_certs/ca.key",
        "examples/puma/puma_keypair.pem",
        "packages/server/example/tls/server.key",
        "demo/certs/localhost.key",
    ] {
        let read = node(path, test);
        assert_eq!(read.priority, Priority::P3, "{path}");
        assert_eq!(read.triage.severity, crate::review::Severity::Low, "{path}");
        assert!(read.fix.is_none(), "{path}");
        assert!(
            read.text.title.contains("test/test_puma_server_ssl.rb"),
            "{}",
            read.text.title
        );
        // No test loads it: an example's key may be anyone's.
        assert_eq!(node(path, None).priority, Priority::P0, "{path}");
    }
    // Outside fixtures and examples a key is a leak, whoever reads it.
    for path in [
        "certs/server.key",
        "config/jwt/private.pem",
        "examples_old.key",
    ] {
        assert_eq!(node(path, test).priority, Priority::P0, "{path}");
    }
    // A provider's token in an examples folder is live wherever it is.
    let token = format!("KEY = \"{}\"", s.github_pat);
    let hits = scan_file(scanner, "examples/app/config.py", &[&token]);
    let mut token_nodes = to_nodes(&hits, SECRET_SCAN);
    settle_keys_read_by_tests(&hits, &mut token_nodes, &|_| test.map(str::to_string));
    assert_eq!(token_nodes[0].priority, Priority::P0);
    assert!(sample_dir("examples") && sample_dir("demo") && !sample_dir("exampled"));
}

/// tonic 0.14.3 regenerated the TLS keys of its examples with a script beside them
/// (`examples/data/tls/create.sh`), and its interop suite's server key came from a Terraform
/// `cert-generator/`: 6 P0s. A private key the repository's own script generates, or that its
/// example, test or interop programs load ([`KeyOrigin`]), is a P3 note naming the script or
/// the reader; one with no such origin (a real key beside a script that does not write it,
/// one the shipped code loads: `origin` answers `None`) stays a P0, as does a provider's token
/// whatever generates the file, and a fixture key keeps its own settlement.
#[test]
fn a_key_the_repository_generates_or_its_samples_load_is_a_p3_note_saying_why() {
    let s = samples();
    let scanner = default_scanner();
    let block = key_block(&s);
    let lines: Vec<&str> = block.iter().map(String::as_str).collect();
    let node = |path: &str, origin: Option<KeyOrigin>| {
        let hits = scan_file(scanner, path, &lines);
        assert_eq!(hits.len(), 1, "{path}: {hits:?}");
        let mut nodes = to_nodes(&hits, SECRET_SCAN);
        let settled = settle_sample_keys(&hits, &mut nodes, &|_| origin.clone());
        assert_eq!(settled, usize::from(nodes[0].priority == Priority::P3));
        assert!(nodes[0].validate().is_ok(), "{:?}", nodes[0].validate());
        nodes.remove(0)
    };
    let generated = || {
        Some(KeyOrigin::Generated {
            script: "examples/data/tls/create.sh".into(),
        })
    };
    for path in [
        "examples/data/tls/server.key",
        "interop/data/server1.key",
        "certs/dev.key",
    ] {
        let note = node(path, generated());
        assert_eq!(note.priority, Priority::P3, "{path}");
        assert_eq!(note.triage.severity, crate::review::Severity::Low, "{path}");
        assert!(note.fix.is_none(), "{path}");
        assert!(
            note.text.title.contains("examples/data/tls/create.sh"),
            "{}",
            note.text.title
        );
        assert!(note.text.body.contains("generates"), "{}", note.text.body);
    }
    let loaded = node(
        "examples/data/tls/client1.key",
        Some(KeyOrigin::LoadedBy {
            reader: "examples/src/tls_client_auth/client.rs".into(),
        }),
    );
    assert_eq!(loaded.priority, Priority::P3);
    assert!(
        loaded
            .text
            .title
            .contains("examples/src/tls_client_auth/client.rs")
    );
    // No origin: a real key stays a P0, in examples or elsewhere.
    for path in ["examples/data/tls/server.key", "deploy/prod.key"] {
        assert_eq!(node(path, None).priority, Priority::P0, "{path}");
    }
    // A fixture key is settled by the tests that read it, not here.
    let hits = scan_file(scanner, "tests/certs/key.pem", &lines);
    let mut nodes = to_nodes(&hits, SECRET_SCAN);
    assert_eq!(settle_sample_keys(&hits, &mut nodes, &|_| generated()), 0);
    assert_eq!(nodes[0].priority, Priority::P2);
    // A provider's token is never a key.
    let token = format!("KEY = \"{}\"", s.github_pat);
    let hits = scan_file(scanner, "examples/app/config.py", &[&token]);
    let mut nodes = to_nodes(&hits, SECRET_SCAN);
    assert_eq!(settle_sample_keys(&hits, &mut nodes, &|_| generated()), 0);
    assert_eq!(nodes[0].priority, Priority::P0);
}

/// Public armour is not private key material: a certificate, a public key or a PGP public key
/// block in a key-named file (`KEYS.asc`, `ca.pem`) is base64 like a key body.
#[test]
fn certificates_and_public_keys_are_not_private_keys() {
    let s = samples();
    let scanner = default_scanner();
    for header in [
        "PGP PUBLIC KEY BLOCK",
        "CERTIFICATE",
        "PUBLIC KEY",
        "RSA PUBLIC KEY",
    ] {
        let mut lines = vec![format!("-----BEGIN {header}-----"), String::new()];
        lines.extend(s.key_body.iter().cloned());
        lines.push(format!("-----END {header}-----"));
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        for path in ["KEYS.asc", "certs/ca.pem", "release/signing.gpg"] {
            let hits = scan_file(scanner, path, &lines);
            assert!(hits.is_empty(), "{header} in {path}: {hits:?}");
        }
    }
    // A private key after a certificate in one file is still found.
    let mut lines = vec!["-----BEGIN CERTIFICATE-----".to_string()];
    lines.extend(s.key_body.iter().cloned());
    lines.push("-----END CERTIFICATE-----".to_string());
    lines.extend(key_block(&s));
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let hits = scan_file(scanner, "deploy/bundle.pem", &lines);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(
        to_nodes(&hits, SECRET_SCAN)[0].priority,
        Priority::P0,
        "{hits:?}"
    );
}

/// echo #1793 regenerated `_fixture/certs/cert.pem`: the hunk kept the `BEGIN CERTIFICATE`
/// line as context and showed only body lines, which the key-body rule read as a private key
/// (a P0). The head's armour names what a body is, whether or not the hunk shows it; a
/// private key's body in the same file is still key material.
#[test]
fn a_body_inside_public_armour_at_the_head_is_no_key_though_the_hunk_hides_the_begin_line() {
    let s = samples();
    let scanner = default_scanner();
    let body: Vec<&str> = s.key_body.iter().map(String::as_str).collect();
    let path = "_fixture/certs/cert.pem";
    let hunk = || vec![ScanFile::added(path, 2, &body)];
    // Without the head's armour the body reads as key material, as it did on main.
    assert_eq!(scanner.scan(&hunk())[0].rule, "secret/private-key-body");
    let mut head = vec!["-----BEGIN CERTIFICATE-----".to_string()];
    head.extend(s.key_body.iter().cloned());
    head.push("-----END CERTIFICATE-----".to_string());
    let head = head.join("\n");
    let armoured = scanner
        .clone()
        .with_public_armour([(path.to_string(), public_armour_lines(&head))]);
    let hits = armoured.scan(&hunk());
    assert!(hits.is_empty(), "{hits:?}");
    // A bundle: the certificate's body is public, the private key's body after it is not.
    let bundle = "deploy/bundle.pem";
    let mut head = vec!["-----BEGIN CERTIFICATE-----".to_string()];
    head.extend(s.key_body.iter().cloned());
    head.push("-----END CERTIFICATE-----".to_string());
    head.push("-----BEGIN PRIVATE KEY-----".to_string());
    head.extend(s.key_body.iter().cloned());
    head.push("-----END PRIVATE KEY-----".to_string());
    let head = head.join("\n");
    let armoured = scanner
        .clone()
        .with_key_files([bundle.to_string()])
        .with_public_armour([(bundle.to_string(), public_armour_lines(&head))]);
    let cert_hunk = armoured.scan(&[ScanFile::added(bundle, 2, &body)]);
    assert!(cert_hunk.is_empty(), "{cert_hunk:?}");
    let key_hunk = armoured.scan(&[ScanFile::added(bundle, 8, &body)]);
    assert_eq!(key_hunk.len(), 1, "{key_hunk:?}");
    assert_eq!(key_hunk[0].rule, "secret/private-key-body");
    // Removed lines are read against no head: the armour of the head says nothing of them.
    let removed = ScanFile::new(
        path,
        body.iter()
            .enumerate()
            .map(|(i, t)| (Side::Left, 2 + i as u32, *t)),
    );
    let armoured = scanner
        .clone()
        .with_public_armour([(path.to_string(), vec![(1, 6)])]);
    assert_eq!(armoured.scan_side(&[removed], Side::Left).len(), 1);
}

/// Throw-away service containers in CI (a Postgres, MinIO or Redis the tests talk to on
/// localhost) have credentials in the workflow: at most a P3 note. A generic credential in a
/// workflow with no such service, and a provider's token anywhere, stay P0.
#[test]
fn ci_service_container_credentials_are_notes() {
    let s = samples();
    let scanner = default_scanner();
    let workflow = format!(
        "jobs:\n  test:\n    services:\n      postgres:\n        image: postgres:16\n        env:\n          POSTGRES_PASSWORD: {pw}\n    env:\n      DATABASE_URL: postgres://postgres@localhost:5432/test\n",
        pw = s.password
    );
    let lines: Vec<&str> = workflow.lines().collect();
    let path = ".github/workflows/ci.yml";
    let hits = scanner.scan(&[ScanFile::added(path, 1, &lines)]);
    assert!(!hits.is_empty(), "the password is found");
    let nodes = to_nodes_reading(&hits, SECRET_SCAN, &|p| {
        (p == path).then(|| workflow.clone())
    });
    for node in &nodes {
        assert_eq!(node.priority, Priority::P3, "{}", node.text.title);
        assert!(node.validate().is_ok(), "{:?}", node.validate());
    }
    // Without a service or a local host: a deployment's password.
    let deploy = format!(
        "jobs:\n  deploy:\n    env:\n      DEPLOY_PASSWORD: {pw}\n",
        pw = s.password
    );
    let lines: Vec<&str> = deploy.lines().collect();
    let hits = scanner.scan(&[ScanFile::added(path, 1, &lines)]);
    assert!(!hits.is_empty());
    let nodes = to_nodes_reading(&hits, SECRET_SCAN, &|_| Some(deploy.clone()));
    assert!(nodes.iter().all(|n| n.priority == Priority::P0));
    // A provider's token beside a service is still a leak.
    let token = format!("{workflow}      GITHUB_PAT: {}\n", s.github_pat);
    let lines: Vec<&str> = token.lines().collect();
    let hits = scanner.scan(&[ScanFile::added(path, 1, &lines)]);
    let nodes = to_nodes_reading(&hits, SECRET_SCAN, &|_| Some(token.clone()));
    assert!(
        nodes.iter().any(|n| n.priority == Priority::P0
            && n.rule.as_deref().is_some_and(|r| r.contains("github"))),
        "{:?}",
        nodes
            .iter()
            .map(|n| (&n.rule, n.priority))
            .collect::<Vec<_>>()
    );
}

/// A documentation site hands its search provider's key to the browser (Algolia DocSearch:
/// `apiKey` beside `appId` and `indexName`, pydantic's `docs/extra/algolia.js`): public by the
/// service's design, a P2 note to make sure it is search-only, never a P0. An admin-named key,
/// the same key outside a docs site's config or browser assets (a server's code, the docs'
/// own build plugin, an arbitrary file beside an `indexName`), and another provider's secret
/// in the same script stay P0.
#[test]
fn a_search_key_in_a_docs_sites_config_is_a_note() {
    let s = samples();
    let scanner = default_scanner();
    let key = fake("0123456789abcdef", 32, 40);
    let priorities = |path: &str, text: &str| -> Vec<Priority> {
        let lines: Vec<&str> = text.lines().collect();
        let hits = scanner.scan(&[ScanFile::added(path, 1, &lines)]);
        assert!(!hits.is_empty(), "{path}: the key is found");
        to_nodes_reading(&hits, SECRET_SCAN, &|p| {
            (p == path).then(|| text.to_string())
        })
        .iter()
        .map(|node| {
            assert!(node.validate().is_ok(), "{:?}", node.validate());
            node.priority
        })
        .collect()
    };
    let script = format!(
        "const ALGOLIA_APP_ID = 'KPPUDTIAVX';\nconst ALGOLIA_API_KEY = '{key}';\n\
         const ALGOLIA_INDEX_NAME = 'acme-docs';\n\
         const searchClient = algoliasearch(ALGOLIA_APP_ID, ALGOLIA_API_KEY);\n"
    );
    let docusaurus = format!(
        "module.exports = {{\n  themeConfig: {{\n    algolia: {{\n      appId: 'BH4D9OD16A',\n      \
         apiKey: '{key}',\n      indexName: 'acme',\n    }},\n  }},\n}};\n"
    );
    let mkdocs = format!(
        "site_name: Acme\nextra:\n  algolia:\n    app_id: BH4D9OD16A\n    api_key: {key}\n    \
         index_name: acme\n"
    );
    let sphinx = format!(
        "docsearch_app_id = 'BH4D9OD16A'\ndocsearch_algolia_api_key = '{key}'\n\
         docsearch_index_name = 'acme'\n"
    );
    // A site component rendered for the browser (an Astro navbar initialising DocSearch).
    let astro = format!(
        "<div id=\"docsearch\"></div>\n<script>\n  import docsearch from '@docsearch/js';\n  \
         docsearch({{\n    appId: 'NRR2XU4QSP',\n    apiKey: '{key}',\n    indexName: 'acme',\n    \
         container: '#docsearch',\n  }});\n</script>\n"
    );
    for (path, text) in [
        ("docs/extra/algolia.js", &script),
        ("website/docusaurus.config.js", &docusaurus),
        ("mkdocs.yml", &mkdocs),
        ("docs/source/conf.py", &sphinx),
        ("website/src/components/Navbar.astro", &astro),
    ] {
        assert_eq!(priorities(path, text), vec![Priority::P2], "{path}");
    }
    let hits = scanner.scan(&[ScanFile::added(
        "docs/extra/algolia.js",
        1,
        &script.lines().collect::<Vec<_>>(),
    )]);
    let node = &to_nodes_reading(&hits, SECRET_SCAN, &|_| Some(script.clone()))[0];
    assert!(
        node.text.title.contains("search key") && node.text.body.contains("search-only"),
        "{:?}",
        node.text
    );
    // An admin key in the same place, and the same key in a server's code, the docs' build
    // plugin or a file that is no docs site's, stay P0.
    let admin = script.replace("ALGOLIA_API_KEY", "ALGOLIA_ADMIN_API_KEY");
    assert_eq!(
        priorities("docs/extra/algolia.js", &admin),
        vec![Priority::P0]
    );
    let write = docusaurus.replace("apiKey", "writeApiKey");
    assert_eq!(
        priorities("website/docusaurus.config.js", &write),
        vec![Priority::P0]
    );
    for path in [
        "src/search/client.js",
        "docs/plugins/algolia.py",
        "config/search.js",
        "app/static/search.js",
    ] {
        assert_eq!(priorities(path, &script), vec![Priority::P0], "{path}");
    }
    // Another provider's secret in the docs' search script is a leak all the same.
    let aws = format!("{script}const AWS = '{}';\n", s.aws_key_id);
    let found = priorities("docs/extra/algolia.js", &aws);
    assert!(found.contains(&Priority::P0), "{found:?}");
}

#[test]
fn a_translation_catalogue_names_credentials_in_words_and_a_multibyte_value_is_read_whole() {
    let scanner = SecretScanner::builtin();
    // A locale file's `Token:` is the label "token" in Tamil (sidekiq's `web/locales/ta.yml`).
    assert_eq!(
        rule_at(&scanner, "web/locales/ta.yml", "  Token: டோக்கன்"),
        None
    );
    assert_eq!(
        rule_at(&scanner, "config/i18n/de.yml", "  secret_label: Geheimnis"),
        None
    );
    // The same value in a configuration file is a password, and its last character being
    // several bytes long never breaks reading where it ends.
    assert_eq!(
        rule_at(&scanner, "config/app.yml", "  password: டோக்கன்"),
        Some("secret/config-password".to_string())
    );
    // A provider's token format is still found in a catalogue.
    let s = samples();
    assert!(
        rule_at(
            &scanner,
            "web/locales/en.yml",
            &format!("  token: {}", s.github_pat)
        )
        .is_some()
    );
}

/// pyjwt's `docs/usage.rst` shows the RSA and EC keys its examples sign with: five P0s blocked
/// a compatible release. A private key in documentation (a docs folder, prose markup) is a P3
/// note, whoever reads it; in a folder of examples a key no test loads stays a P0, and outside
/// sample code a key stays a P0.
#[test]
fn a_key_shown_in_documentation_is_a_note() {
    let s = samples();
    let scanner = default_scanner();
    let block = key_block(&s);
    let lines: Vec<&str> = block.iter().map(String::as_str).collect();
    let node = |path: &str| {
        let hits = scan_file(scanner, path, &lines);
        assert_eq!(hits.len(), 1, "{path}: {hits:?}");
        let mut nodes = to_nodes(&hits, SECRET_SCAN);
        settle_keys_read_by_tests(&hits, &mut nodes, &|_| None);
        assert!(nodes[0].validate().is_ok(), "{:?}", nodes[0].validate());
        nodes.remove(0)
    };
    for path in ["docs/usage.rst", "README.md", "docs_src/tutorial/keys.py"] {
        let shown = node(path);
        assert_eq!(shown.priority, Priority::P3, "{path}");
        assert!(shown.text.title.contains("documentation"), "{path}");
    }
    for path in ["examples/app/server.key", "src/keys.py", "certs/server.key"] {
        assert_eq!(node(path).priority, Priority::P0, "{path}");
    }
}

/// insta's commit message showed its redaction feature on `sk_live_abc123def456`: a P0 "Stripe
/// live key" blocked a release. A value built of counting runs only looks like a key: no
/// finding under any rule, a provider's format included, in code or in PR text; a random value
/// of the same format stays a P0, and redaction still masks the sample.
#[test]
fn a_key_of_counting_runs_is_a_sample_under_every_rule() {
    let s = samples();
    let scanner = default_scanner();
    let shown = format!("sk_{}_abc123def456", "live");
    for path in ["src/billing.py", "the commit message abc1234"] {
        let line = format!("STRIPE_KEY = \"{shown}\"");
        assert!(scan_file(scanner, path, &[&line]).is_empty(), "{path}");
        let real = format!("STRIPE_KEY = \"{}\"", s.stripe);
        assert_eq!(scan_file(scanner, path, &[&real]).len(), 1, "{path}");
    }
    assert!(scanner.is_sample("stripe-access-token", "src/billing.py", &shown));
    assert!(!scanner.is_sample("stripe-access-token", "src/billing.py", &s.stripe));
    assert!(
        !scanner
            .redact(&format!("key {shown}"))
            .0
            .contains("abc123def456")
    );
}

/// A Go checksum line (`module version[/go.mod] h1:<base64 SHA-256>=`) holds a module's hash,
/// whatever the file is called: `go_test.sum` (the sums of a `-modfile=go_test.mod`) is not
/// `go.sum`, which gitleaks' path allowlist spares, and a module named `nkeys` put the generic
/// rule's keyword in front of the hash (a false P1 on every dependency bump). A secret assigned
/// in such a file is still found.
#[test]
fn go_checksum_lines_are_hashes_whatever_the_file_is_called() {
    let scanner = default_scanner();
    let lines = [
        "github.com/nats-io/nkeys v0.4.16 h1:rd5oAuLOb8mnAycB0xleuEBNS1pVVnN0fv/FF34Eypg=",
        "github.com/nats-io/nkeys v0.4.16/go.mod h1:llLgWoI0o4z/Q57q2R1kHfmocyhGV6VG/U18Glg1Afs=",
    ];
    for path in ["go_test.sum", "tools/go.tools.sum"] {
        let hits = scan_file(scanner, path, &lines);
        assert!(hits.is_empty(), "{path}: {hits:?}");
    }
    let s = samples();
    let leaked = format!("GITHUB_TOKEN={}", s.github_pat);
    let hits = scan_file(scanner, "go_test.sum", &[lines[0], leaked.as_str()]);
    assert_eq!(hits.len(), 1, "{hits:?}");
}

/// okhttp #8804: `private const val TOKEN = "([a-zA-Z0-9-!#$%&'*+.^_`{|}~]+)"` is the HTTP
/// token grammar as a regular expression, a pattern describing text, not a credential (a P0).
/// A character class with a range says so; a value without one is still read.
#[test]
fn a_regular_expression_assigned_to_a_secret_name_is_a_pattern_not_a_value() {
    let scanner = default_scanner();
    let pattern = "    private const val TOKEN = \"([a-zA-Z0-9-!#$%&'*+.^_`{|}~]+)\"";
    assert_eq!(
        rule_at(scanner, "okhttp/src/main/kotlin/MediaType.kt", pattern),
        None
    );
    let s = samples();
    let value = format!("    private const val TOKEN = \"{}\"", s.password);
    assert!(rule_at(scanner, "okhttp/src/main/kotlin/MediaType.kt", &value).is_some());
}

/// Composer's tests list the token shapes its client must accept (`'ghp_ flat token' =>
/// ['ghp_n3K9…']`), written by hand: GitHub's and npm's tokens carry a CRC-32 of their random
/// part, and none of these passes it, so none was ever issued. A token that passes is reported
/// wherever it sits.
#[test]
fn a_token_whose_own_checksum_fails_was_never_issued() {
    let scanner = SecretScanner::builtin();
    let hand_written = [
        "ghp_n3K9wQ2eL5bV8mY1pX4cZ7aR0fT6sH3uJ8oI",
        "gho_M2pQ7vR4xL9eK6bN1cT8aZ0sJ3wY5fH7uG2d",
        "ghs_K7bN3pV5mL8eR2tY9wA1xC4sH6uJ0gD3fQ8z",
    ];
    for token in hand_written {
        let line = format!("            'flat token' => ['{token}'],");
        let hits = scanner.scan(&[ScanFile::added("tests/IO/BaseIOTest.php", 42, &[&line])]);
        assert!(hits.is_empty(), "{token}: {hits:?}");
        // Redaction still masks it: what leaves the machine is never judged by a checksum.
        let (redacted, count) = redact_text(&line, &scanner);
        assert_eq!(count, 1, "{redacted}");
    }
    let issued = super::checksum::checksummed("ghp_", "n3K9wQ2eL5bV8mY1pX4cZ7aR0fT6sH");
    for path in ["tests/IO/BaseIOTest.php", "src/Client.php"] {
        let line = format!("            'flat token' => ['{issued}'],");
        let hits = scanner.scan(&[ScanFile::added(path, 42, &[&line])]);
        assert_eq!(hits.len(), 1, "{path}: {hits:?}");
    }
}

/// A CI report upload token in its service's own configuration file (Codecov's `codecov.token`
/// in `.codecov.yml`, Coveralls' `repo_token` in `.coveralls.yml`), documented as able only to
/// upload coverage reports, is a P3 note naming the service. The same token in a workflow,
/// under another key of the file, in another file named like it, a value not shaped like the
/// service's token, and a provider's token under the documented key stay P0.
#[test]
fn a_report_upload_token_in_its_services_config_file_is_a_note() {
    let s = samples();
    let scanner = default_scanner();
    let hex = "0123456789abcdef";
    let uuid = format!(
        "{}-{}-{}-{}-{}",
        fake(hex, 8, 41),
        fake(hex, 4, 42),
        fake(hex, 4, 43),
        fake(hex, 4, 44),
        fake(hex, 12, 45)
    );
    let repo_token = fake(ALNUM, 33, 46);
    let nodes = |path: &str, text: &str| -> Vec<crate::review::ReviewNode> {
        let lines: Vec<&str> = text.lines().collect();
        let hits = scanner.scan(&[ScanFile::added(path, 1, &lines)]);
        assert!(!hits.is_empty(), "{path}: the token is found in {text}");
        to_nodes_reading(&hits, SECRET_SCAN, &|p| {
            (p == path).then(|| text.to_string())
        })
    };
    let priorities = |path: &str, text: &str| -> Vec<Priority> {
        nodes(path, text).iter().map(|n| n.priority).collect()
    };
    let codecov = format!(
        "coverage:\n  status:\n    project: off\n\ncodecov:\n  # upload from forks too\n  token: {uuid}  # repo-scoped\n"
    );
    for path in [".codecov.yml", "codecov.yml", ".github/codecov.yml"] {
        let notes = nodes(path, &codecov);
        assert!(notes.iter().all(|n| n.priority == Priority::P3), "{path}");
        assert!(notes.iter().all(|n| n.text.title.contains("Codecov")));
        assert!(notes.iter().all(|n| n.validate().is_ok()));
    }
    let coveralls = format!("service_name: github\nrepo_token: {repo_token}\n");
    assert_eq!(priorities(".coveralls.yml", &coveralls), vec![Priority::P3]);
    // The same token in a workflow or a file named like the config elsewhere.
    let workflow = format!("jobs:\n  cov:\n    env:\n      CODECOV_TOKEN: {uuid}\n");
    assert!(
        priorities(".github/workflows/ci.yml", &workflow)
            .iter()
            .all(|p| *p == Priority::P0)
    );
    assert!(
        priorities("deploy/codecov.yml", &codecov)
            .iter()
            .all(|p| *p == Priority::P0)
    );
    // Another key of the file, the token key at the top level, a value not shaped like the
    // service's token, a provider's token under the documented key.
    for text in [
        format!("codecov:\n  api_token: {uuid}\n"),
        format!("token: {uuid}\n"),
        format!("codecov:\n  token: {repo_token}\n"),
        format!("codecov:\n  token: {}\n", s.github_pat),
    ] {
        let found = priorities(".codecov.yml", &text);
        assert!(found.contains(&Priority::P0), "{text}: {found:?}");
    }
}
