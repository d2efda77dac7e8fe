//! Secrets never reach a model: one true positive of every built-in secret rule is planted in a
//! real repository's pull request — on added lines, on unchanged lines the diff shows as
//! context, in the PR's title and description (the commit messages, for a local PR), and in the
//! shapes that stress redaction (a line longer than the tools show, a key inside a JSON string)
//! — then the binary reviews it against the recording OpenAI-compatible server, whose scripted
//! engineer reads every one of those files through its tools. No request body may hold a
//! planted secret or any 8-character piece of its hidden part; the report and state.json show
//! the secret findings, redacted.
//!
//! Every secret is generated at run time from a fixed seed (fake, with a real one's shape and
//! entropy), never written as a literal, so this file does not trip the scanners that guard
//! this repository.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::models::{finish, marker, pass_defaults, requests_for, review_in, reviewer};
use crate::support::git_repo::GitRepo;
use crate::support::openai_server::{OpenAiServer, Reply, tool_messages};

const UPPER32: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const DIGITS: &str = "0123456789";
const URLSAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The shortest piece of a secret's hidden part that must not appear anywhere. Redaction shows
/// four characters by design (`ghp_…`, or the first four of a password); eight random
/// characters of the hidden part would be a leak.
const PIECE: usize = 8;

/// Deterministic pseudo-random text (xorshift64*), as in the secret scan's unit tests.
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

/// One planted secret: the rule that must find it, the line(s) it is written in, and the parts
/// of it that are secret (its public type prefix, such as `ghp_`, is not).
struct Planted {
    rule: &'static str,
    lines: Vec<String>,
    hidden: Vec<String>,
}

/// One true positive per format of the built-in rules (`src/reviewers/deterministic/secrets/builtin.rs`), named
/// by the rule of the default set that reports it (gitleaks' where it has one), all distinct
/// for each `seed`, so a leak names the place it came from.
fn every_rule(seed: u64) -> Vec<Planted> {
    let s = |n: u64| seed * 100 + n;
    let one = |rule, line: String, hidden: &[&str]| Planted {
        rule,
        lines: vec![line],
        hidden: hidden.iter().map(|h| h.to_string()).collect(),
    };
    let aws_id = fake(UPPER32, 16, s(1));
    let aws_secret = fake(BASE64, 40, s(2));
    let github = crate::support::tokens::checksummed("", &fake(ALNUM, 30, s(3)));
    let fine = fake(ALNUM, 82, s(4));
    let gitlab = fake(ALNUM, 20, s(5));
    let slack = (
        fake(DIGITS, 11, s(6)),
        fake(DIGITS, 12, s(7)),
        fake(ALNUM, 24, s(8)),
    );
    let hook = (
        fake(UPPER32, 8, s(9)),
        fake(UPPER32, 8, s(10)),
        fake(ALNUM, 24, s(11)),
    );
    let stripe = fake(ALNUM, 24, s(12));
    let google = fake(URLSAFE, 35, s(13));
    let jwt = (fake(ALNUM, 40, s(14)), fake(URLSAFE, 43, s(15)));
    let password = format!("{}9{}", fake(ALNUM, 10, s(16)), fake(ALNUM, 6, s(17)));
    let key_body: Vec<String> = (0..4).map(|i| fake(BASE64, 64, s(18 + i))).collect();
    let mut pem = vec!["-----BEGIN RSA PRIVATE KEY-----".to_string()];
    pem.extend(key_body.iter().cloned());
    pem.push("-----END RSA PRIVATE KEY-----".to_string());
    vec![
        one(
            "secret/aws-access-token",
            format!("AWS_KEY_ID = \"AKIA{aws_id}\""),
            &[&aws_id],
        ),
        one(
            "secret/aws-secret-access-key",
            format!("aws_secret_access_key = \"{aws_secret}\""),
            &[&aws_secret],
        ),
        one(
            "secret/github-pat",
            format!("GITHUB = \"ghp_{github}\""),
            &[&github],
        ),
        one(
            "secret/github-fine-grained-pat",
            format!("GH_FINE = \"github_pat_{fine}\""),
            &[&fine],
        ),
        one(
            "secret/gitlab-pat",
            format!("GITLAB = \"glpat-{gitlab}\""),
            &[&gitlab],
        ),
        one(
            "secret/slack-bot-token",
            format!("SLACK = \"xoxb-{}-{}-{}\"", slack.0, slack.1, slack.2),
            &[&format!("{}-{}-{}", slack.0, slack.1, slack.2)],
        ),
        one(
            "secret/slack-webhook-url",
            format!(
                "HOOK = \"https://hooks.slack.com/services/T{}/B{}/{}\"",
                hook.0, hook.1, hook.2
            ),
            &[&format!("T{}/B{}/{}", hook.0, hook.1, hook.2)],
        ),
        one(
            "secret/stripe-access-token",
            format!("STRIPE = 'sk_live_{stripe}'"),
            &[&stripe],
        ),
        one(
            "secret/gcp-api-key",
            format!("MAPS = 'AIza{google}'"),
            &[&google],
        ),
        Planted {
            rule: "secret/private-key",
            lines: pem,
            hidden: key_body,
        },
        one(
            "secret/jwt",
            format!(
                "SESSION = \"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{}.{}\"",
                jwt.0, jwt.1
            ),
            &[&jwt.0, &jwt.1],
        ),
        one(
            "secret/generic-api-key",
            format!("DB_PASSWORD = \"{password}\""),
            &[&password[4..]],
        ),
    ]
}

/// Every piece of `hidden` long enough to be a leak.
fn pieces(hidden: &str) -> Vec<&str> {
    let indices: Vec<usize> = hidden
        .char_indices()
        .map(|(i, _)| i)
        .chain([hidden.len()])
        .collect();
    if indices.len() <= PIECE {
        return vec![hidden];
    }
    indices
        .windows(PIECE + 1)
        .map(|w| &hidden[w[0]..w[PIECE]])
        .collect()
}

/// Each planted secret of which `text` holds the hidden part or a piece of it, with the piece.
fn leaks(text: &str, planted: &[(&str, &Planted)]) -> Vec<String> {
    let mut found = Vec::new();
    for (place, secret) in planted {
        for hidden in &secret.hidden {
            if let Some(piece) = pieces(hidden).into_iter().find(|p| text.contains(p)) {
                found.push(format!(
                    "{} ({place}): {piece:?} of its hidden part {hidden:?}",
                    secret.rule
                ));
                break;
            }
        }
    }
    found
}

/// The same secrets, written on one line each the way a minified bundle or a JSON key file
/// holds them: a GitHub token past the 2000 characters `read_file` shows of a line, a Stripe key
/// past the 300 a `search_text` match shows, and a private key inside a JSON string, its line
/// breaks written `\n` (a cloud service-account key file).
fn awkward(seed: u64) -> (Vec<String>, Vec<Planted>) {
    let github = crate::support::tokens::checksummed("", &fake(ALNUM, 30, seed * 100 + 1));
    let stripe = fake(ALNUM, 24, seed * 100 + 2);
    let key_body: Vec<String> = (0..4)
        .map(|i| fake(BASE64, 64, seed * 100 + 3 + i))
        .collect();
    let filler = |n: usize| "x".repeat(n);
    let bundle = vec![
        format!("var a=\"{}\",t=\"ghp_{github}\";", filler(1964)),
        format!(
            "var p=\"{}\";var STRIPE_KEY='sk_live_{stripe}';",
            filler(251)
        ),
    ];
    let json_key = format!(
        "{{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n\"}}",
        key_body.join("\\n")
    );
    let planted = vec![
        Planted {
            rule: "secret/github-pat",
            lines: Vec::new(),
            hidden: vec![github],
        },
        Planted {
            rule: "secret/stripe-access-token",
            lines: Vec::new(),
            hidden: vec![stripe],
        },
        Planted {
            rule: "secret/private-key",
            lines: Vec::new(),
            hidden: key_body,
        },
    ];
    let mut lines = bundle;
    lines.push(json_key);
    (lines, planted)
}

/// Every regular file under `dir`, skipping git checkouts and mirrors (they hold the code under
/// review, secrets and all, by design).
fn written_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        if at.join(".git").exists() || at.extension().is_some_and(|e| e == "git") {
            continue;
        }
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn no_planted_secret_reaches_the_model_and_findings_show_them_redacted() {
    let added = every_rule(1);
    let context = every_rule(2);
    let described = every_rule(3);
    let titled = every_rule(4);
    let (awkward_lines, awkward) = awkward(5);

    // main: the context secrets, each beside a line the PR changes, so the diff shows them.
    let repo = GitRepo::init();
    let mut settings = String::new();
    for (n, secret) in context.iter().enumerate() {
        settings.push_str(&format!("# setting {n}\n"));
        for line in &secret.lines {
            settings.push_str(line);
            settings.push('\n');
        }
    }
    settings.push_str("# end\n");
    repo.write("config/settings.py", &settings);
    repo.write("README.md", "A service.\n");
    repo.commit_all("settings");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    let changed = settings
        .lines()
        .map(|line| match line.strip_prefix("# ") {
            Some(rest) => format!("# {rest} (reviewed)\n"),
            None => format!("{line}\n"),
        })
        .collect::<String>();
    repo.write("config/settings.py", &changed);
    let secrets_py: String = added
        .iter()
        .flat_map(|s| s.lines.iter())
        .map(|line| format!("{line}\n"))
        .collect();
    repo.write("config/secrets.py", &secrets_py);
    repo.write(
        "web/bundle.min.js",
        &format!("{}\n{}\n", awkward_lines[0], awkward_lines[1]),
    );
    repo.write(
        "config/service-account.json",
        &format!("{}\n", awkward_lines[2]),
    );
    // The title is the head commit's subject; the description, its messages.
    let title = format!("Deploy with {}", titled[2].lines[0]);
    let body: String = described
        .iter()
        .flat_map(|s| s.lines.iter())
        .map(|line| format!("{line}\n"))
        .collect();
    repo.commit_all(&format!("{title}\n\nCredentials for the deploy:\n{body}"));
    repo.git(&["checkout", "--quiet", "main"]);

    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", "review"),
        [
            Reply::tool_calls(&[
                ("read_file", json!({"path": "config/secrets.py"})),
                ("read_file", json!({"path": "config/settings.py"})),
                ("read_file", json!({"path": "web/bundle.min.js"})),
                ("read_file", json!({"path": "config/service-account.json"})),
                (
                    "search_text",
                    json!({"regex": "STRIPE_KEY|DB_PASSWORD|GITHUB"}),
                ),
                ("get_diff", json!({"path": "config/settings.py"})),
                ("get_diff", json!({"path": "config/secrets.py"})),
                ("get_diff", json!({"path": "config/service-account.json"})),
            ]),
            finish("credentials are committed"),
        ],
    );
    pass_defaults(&server);
    let dir = tempfile::tempdir().unwrap();
    let run = review_in(dir.path(), &repo, Some(&server), "", &["--level", "light"]);
    let report = &run.report;
    assert_eq!(
        run.code, 6,
        "Block from the secrets: {report}\n{}",
        run.stderr
    );
    assert_eq!(reviewer(report, "engineer")["outcome"], "ok", "{report}");

    let planted: Vec<(&str, &Planted)> = [
        ("added line", &added),
        ("context line", &context),
        ("PR description", &described),
        ("long line or JSON string", &awkward),
    ]
    .into_iter()
    .flat_map(|(place, set)| set.iter().map(move |s| (place, s)))
    .chain([("PR title", &titled[2])])
    .collect();

    // The test reached the model: the context, then every tool result, each holding redactions.
    let requests = server.requests();
    let conversation = requests_for(&server, &marker("engineer", "review"));
    assert_eq!(conversation.len(), 2, "{}", run.stderr);
    let first = &conversation[0].raw;
    assert!(
        first.contains("Deploy with GITH"),
        "the title is in the context"
    );
    assert!(
        first.contains("Credentials for the deploy"),
        "the description is too"
    );
    assert!(first.contains("config/settings.py"));
    let results = tool_messages(&conversation[1].body);
    assert_eq!(results.len(), 8, "{results:?}");
    for result in results.values() {
        assert!(
            result.contains('…'),
            "a tool result with nothing redacted: {result}"
        );
    }
    let mut leaked: Vec<String> = requests
        .iter()
        .flat_map(|request| leaks(&request.raw, &planted))
        .collect();
    leaked.sort();
    leaked.dedup();
    assert!(
        leaked.is_empty(),
        "secrets reached the model:\n{}",
        leaked.join("\n")
    );

    // Every built-in rule found its secret on the added lines, and says so redacted.
    let findings = report["findings"].as_array().unwrap();
    for secret in &added {
        let found = findings.iter().find(|f| {
            f["rule"] == secret.rule
                && f["reviewer"] == "secret scan"
                && f["anchor"]["path"] == "config/secrets.py"
        });
        let found = found.unwrap_or_else(|| panic!("no {} finding: {report}", secret.rule));
        assert_eq!(found["priority"], "P0");
        let evidence = found["evidence"].as_str().unwrap();
        assert!(
            evidence.ends_with('…') || evidence.ends_with("…\"") || evidence.ends_with("…'"),
            "{found}"
        );
    }
    let stdout = serde_json::to_string(report).unwrap();
    assert_eq!(leaks(&stdout, &planted), Vec::<String>::new());
    // Nor in the review space: state.json keeps the secret findings, redacted. (Its `pr` record
    // is the PR's metadata as the forge gave it, kept beside the checkout of the code itself.)
    let files = written_files(&dir.path().join("data"));
    let state: Vec<&PathBuf> = files
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "state.json"))
        .collect();
    assert_eq!(state.len(), 1, "{files:?}");
    let mut saved: Value =
        serde_json::from_str(&std::fs::read_to_string(state[0]).unwrap()).unwrap();
    let nodes = saved["nodes"].as_array().unwrap();
    for secret in &added {
        assert!(
            nodes.iter().any(|n| n["rule"] == secret.rule
                && n["text"]["evidence"].as_str().unwrap().contains('…')),
            "state.json has no redacted {} finding",
            secret.rule
        );
    }
    saved.as_object_mut().unwrap().remove("pr");
    assert_eq!(leaks(&saved.to_string(), &planted), Vec::<String>::new());
    for file in files.iter().filter(|f| !state.contains(f)) {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        assert_eq!(
            leaks(&text, &planted),
            Vec::<String>::new(),
            "{}",
            file.display()
        );
    }
}

/// `user:password` as an `Authorization: Basic` header carries it.
fn base64(text: &str) -> String {
    review_tui::base64::encode(text.as_bytes())
}

/// Basic-auth credentials (`curl -u user:password`, an `Authorization: Basic` header) and an
/// env-file password, then every reviewer quoting them back: a model's finding (its evidence,
/// body and summary), a SARIF result's message, the rule findings' evidence. Whatever the
/// format asked for and wherever the tool writes — stdout, stderr, the JSON, SARIF, Markdown and
/// text reports, the local publish's review.json and review.md, state.json, the round files —
/// no piece of a credential appears, and none reaches the model.
#[test]
fn credentials_quoted_back_by_every_reviewer_stay_hidden_in_every_output() {
    let user_password = format!("{}7{}", fake(ALNUM, 9, 901), fake(ALNUM, 6, 902));
    let basic = base64(&format!("ops:{}", fake(ALNUM, 18, 903)));
    let env_password = format!("{}4{}", fake(ALNUM, 8, 904), fake(ALNUM, 7, 905));
    let curl_user = format!("curl -u deploy:{user_password} https://deploy.example.com/hook");
    let curl_basic =
        format!("curl -H \"Authorization: Basic {basic}\" https://deploy.example.com/status");
    let planted = [
        Planted {
            rule: "secret/curl-auth-user",
            lines: vec![curl_user.clone()],
            hidden: vec![user_password.clone()],
        },
        Planted {
            rule: "secret/curl-auth-header",
            lines: vec![curl_basic.clone()],
            hidden: vec![basic.clone()],
        },
        Planted {
            rule: "secret/config-password",
            lines: vec![format!("ADMIN_PASSWORD={env_password}")],
            hidden: vec![env_password.clone()],
        },
    ];
    let planted: Vec<(&str, &Planted)> = planted.iter().map(|p| ("quoted back", p)).collect();

    let repo = GitRepo::init();
    repo.write("README.md", "A service.\n");
    repo.commit_all("start");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(
        "scripts/deploy.sh",
        &format!("#!/bin/sh\n{curl_user}\n{curl_basic}\n"),
    );
    repo.write(
        "deploy/.env",
        &format!("ADMIN_PASSWORD={env_password}\nPORT=8080\n"),
    );
    repo.commit_all("Deploy script");
    repo.git(&["checkout", "--quiet", "main"]);

    // The engineer quotes every credential back: in its finding's evidence and body, the
    // way a model that read the file would, and in its summary.
    let mut quoted = crate::models::finding(
        "Credentials are committed in the deploy script",
        "scripts/deploy.sh",
        2,
        "P1",
        "security",
    );
    quoted["text"]["evidence"] = json!(format!("{curl_user}\n{curl_basic}"));
    quoted["text"]["body"] = json!(format!(
        "The script runs `{curl_user}` and the env file sets ADMIN_PASSWORD={env_password}; \
         that password, {env_password}, and the user's, {user_password}, are in the history now."
    ));
    let server = OpenAiServer::start();
    server.route_always(
        &marker("engineer", "review"),
        Reply::tool_calls(&[
            ("add_review_node", quoted),
            ("finish", json!({"summary": format!("found {curl_basic}")})),
        ]),
    );
    pass_defaults(&server);
    server.reply_always(finish("nothing to add"));

    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("scanner.sarif");
    std::fs::write(
        &sarif,
        json!({"version": "2.1.0", "runs": [{
            "tool": {"driver": {"name": "cred-scan", "rules": [{"id": "hardcoded-credential"}]}},
            "results": [{
                "ruleId": "hardcoded-credential",
                "level": "error",
                "message": {"text": format!("Hard-coded credential: {curl_user}")},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": "scripts/deploy.sh"},
                    "region": {"startLine": 2, "snippet": {"text": curl_user}}
                }}]
            }]
        }]})
        .to_string(),
    )
    .unwrap();

    let mut outputs = Vec::new();
    for (format, publish) in [
        ("json", false),
        ("sarif", false),
        ("markdown", false),
        ("text", false),
        ("json", true),
    ] {
        let mut command = crate::models::review_command(dir.path(), &repo, Some(&server), "");
        command.args(["--format", format, "--level", "light"]);
        command.args(["--sarif", sarif.to_str().unwrap()]);
        if publish {
            command.arg("--publish");
        }
        let out = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(6),
            "{format}: Block from the credentials\n{stdout}\n{stderr}"
        );
        outputs.push((format!("{format} stdout"), stdout));
        outputs.push((format!("{format} stderr"), stderr));
    }

    // The reviewers really quoted them: the model's and the SARIF tool's findings are in the
    // report, and the secret scan found each credential itself.
    let report: Value = serde_json::from_str(&outputs[0].1).unwrap();
    let findings = report["findings"].as_array().unwrap();
    let by = |reviewer: &'static str| findings.iter().filter(move |f| f["reviewer"] == reviewer);
    assert_eq!(by("engineer").count(), 1, "{report}");
    assert_eq!(by("sarif:cred-scan").count(), 1, "{report}");
    for secret in [
        "secret/curl-auth-user",
        "secret/curl-auth-header",
        "secret/config-password",
    ] {
        assert!(
            by("secret scan").any(|f| f["rule"] == secret),
            "no {secret} finding: {report}"
        );
    }
    let engineer = by("engineer").next().unwrap();
    assert!(
        engineer["evidence"]
            .as_str()
            .unwrap()
            .contains("curl -u depl…"),
        "the quote is kept, its credential hidden: {engineer}"
    );

    for file in written_files(&dir.path().join("data")) {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        outputs.push((file.display().to_string(), text));
    }
    assert!(
        outputs.iter().any(|(name, _)| name.ends_with("review.md")),
        "the local publish wrote review.md"
    );
    for request in server.requests() {
        outputs.push(("a model request".to_string(), request.raw));
    }
    let leaked: Vec<String> = outputs
        .iter()
        .flat_map(|(name, text)| {
            leaks(text, &planted)
                .into_iter()
                .map(move |leak| format!("{name}: {leak}"))
        })
        .collect();
    assert!(
        leaked.is_empty(),
        "credentials leaked:\n{}",
        leaked.join("\n")
    );
}

/// The person chooses the secret rules, as with gitleaks: `[secrets] gitleaks_config` in their
/// config file names a gitleaks configuration, which stands instead of the repository's
/// `.gitleaks.toml` (said in the coverage); gitleaks' own `GITLEAKS_CONFIG` wins over it; a
/// file that cannot be read stops the review naming the setting; the repository's
/// `.review-tui.toml` cannot choose it.
#[test]
fn the_gitleaks_configuration_the_person_chose_replaces_the_repositorys() {
    let acme = format!("acme_{}", fake(ALNUM, 24, 701).to_lowercase());
    let house = format!("housetok_{}", fake(DIGITS, 14, 702));
    let repo = GitRepo::init();
    repo.write(
        ".gitleaks.toml",
        "[[rules]]\nid = \"house-token\"\nregex = '''housetok_[0-9]{14}'''\nkeywords = [\"housetok_\"]\n",
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let planted_config = elsewhere.path().join("planted.toml");
    std::fs::write(
        &planted_config,
        "[[rules]]\nid = \"planted\"\nregex = '''README'''\n",
    )
    .unwrap();
    repo.write(
        ".review-tui.toml",
        &format!(
            "[secrets]\ngitleaks_config = \"{}\"\n",
            planted_config.display()
        ),
    );
    repo.write("README.md", "A service.\n");
    repo.commit_all("start");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(
        "src/keys.py",
        &format!("ACME = \"{acme}\"\nHOUSE = \"{house}\"\n"),
    );
    repo.commit_all("Keys");
    repo.git(&["checkout", "--quiet", "main"]);
    let rules = |report: &Value| -> Vec<String> {
        let mut rules: Vec<String> = report["findings"]
            .as_array()
            .unwrap_or(&Vec::new())
            .iter()
            .filter(|f| f["reviewer"] == "secret scan")
            .map(|f| f["rule"].as_str().unwrap_or("").to_string())
            .collect();
        rules.sort();
        rules
    };
    let notes = |report: &Value| report["coverage"]["notes"].to_string();

    // The repository's file: its rule runs; its `.review-tui.toml` may not choose the scan.
    let dir = tempfile::tempdir().unwrap();
    let run = review_in(dir.path(), &repo, None, "", &["--deterministic-only"]);
    assert_eq!(
        rules(&run.report),
        ["secret/house-token"],
        "{}\n{}",
        run.report,
        run.stderr
    );
    assert!(
        notes(&run.report).contains("sets [secrets]; ignored"),
        "{}",
        run.report
    );

    // The person's file replaces it.
    let chosen = elsewhere.path().join("mine.toml");
    std::fs::write(
        &chosen,
        "[[rules]]\nid = \"acme-key\"\nregex = '''acme_[a-z0-9]{24}'''\nkeywords = [\"acme_\"]\n",
    )
    .unwrap();
    let setting = format!("[secrets]\ngitleaks_config = \"{}\"\n", chosen.display());
    let dir = tempfile::tempdir().unwrap();
    let run = review_in(dir.path(), &repo, None, &setting, &["--deterministic-only"]);
    assert_eq!(
        rules(&run.report),
        ["secret/acme-key"],
        "{}\n{}",
        run.report,
        run.stderr
    );
    assert!(
        notes(&run.report).contains("[secrets] gitleaks_config"),
        "the coverage names where the rules came from: {}",
        run.report
    );
    assert!(
        !run.report.to_string().contains(&acme[5..]),
        "{}",
        run.report
    );

    // gitleaks' own variable wins, and a file that cannot be read stops the review, named.
    let missing = elsewhere.path().join("missing.toml");
    let dir = tempfile::tempdir().unwrap();
    let mut command = crate::models::review_command(dir.path(), &repo, None, &setting);
    let out = command
        .args(["--format", "json", "--deterministic-only"])
        .env("GITLEAKS_CONFIG", &missing)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("GITLEAKS_CONFIG"), "{stderr}");
    assert!(stderr.contains("missing.toml"), "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let broken = format!("[secrets]\ngitleaks_config = \"{}\"\n", missing.display());
    let run = review_in(dir.path(), &repo, None, &broken, &["--deterministic-only"]);
    assert_ne!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("[secrets] gitleaks_config") && run.stderr.contains("missing.toml"),
        "{}",
        run.stderr
    );
}

/// What a forge serves about a PR — its title, its description, the discussion on it — is
/// untrusted text written by anyone: a token pasted there reaches the model reviewers only
/// through the one redaction point. A GitHub PR (the GitHub test server) whose title, body,
/// a review and a conversation comment hold a token-shaped secret, reviewed with model
/// reviewers (the model test server): the model sees each text, redacted, never the secret.
#[test]
fn secrets_in_a_github_prs_text_and_discussion_never_reach_the_model() {
    use crate::support::github_server::{
        GithubServer, IssueCommentSpec, PullSpec, ReviewSpec, UserSpec, minute_stamp,
    };
    let pat = crate::support::tokens::checksummed("ghp_", &fake(ALNUM, 30, 801));
    let aws = format!("AKIA{}", fake(UPPER32, 16, 802));
    let repo = crate::publish::planted_repo();
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.title = format!("Parse a port (deploy token {pat})");
    pull.body = Some(format!(
        "Deploy with GH_TOKEN={pat} once merged.\naws_access_key_id = {aws}\n"
    ));
    pull.reviews = vec![ReviewSpec {
        id: 1,
        author: UserSpec::user("hubot"),
        body: format!("Works for me with token {pat}"),
        state: "COMMENTED".into(),
        commit_id: pull.head_sha.clone(),
    }];
    pull.issue_comments = vec![IssueCommentSpec {
        id: 2,
        author: UserSpec::user("octocat"),
        body: format!("CI needs AWS_ACCESS_KEY_ID={aws} in its secrets"),
        created_at: minute_stamp(1),
    }];
    let github = GithubServer::start(repo, pull);
    let token = "ghp_readercanary42";
    github.accept_token(token, "review-bot");

    let models = OpenAiServer::start();
    models.route(&marker("engineer", "review"), [finish("read the PR")]);
    pass_defaults(&models);
    let dir = tempfile::tempdir().unwrap();
    let out = crate::cli::review_tui()
        .args(["acme/widgets#7", "--headless", "--format", "json"])
        .args(["--level", "light", "--api-url", github.url()])
        .args([
            "--model-url",
            &models.base_url(),
            "--model",
            "scripted-model",
        ])
        .env("REVIEW_TUI_DATA_DIR", dir.path().join("data"))
        .env("REVIEW_TUI_CONFIG", crate::models::config(dir.path(), ""))
        .env("GH_TOKEN", token)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(reviewer(&report, "engineer")["outcome"], "ok", "{stderr}");

    // The texts reached the model, each with its secret cut to the redaction marker.
    let conversation = requests_for(&models, &marker("engineer", "review"));
    assert!(!conversation.is_empty(), "{stderr}");
    let first = &conversation[0].raw;
    for (what, shown) in [
        ("the title", "Parse a port (deploy token ghp_…"),
        ("the description", "Deploy with GH_TOKEN="),
        ("the review", "Works for me with token ghp_…"),
        ("the conversation comment", "CI needs AWS_ACCESS_KEY_ID="),
    ] {
        assert!(
            first.contains(shown),
            "{what} is not in the context: {first}"
        );
    }
    // Nothing the model server received holds either secret, whichever request it was.
    let requests = models.requests();
    assert!(requests.len() >= conversation.len());
    for request in &requests {
        for secret in [&pat[4..], &aws[4..], &pat[8..20], &aws[6..16]] {
            assert!(
                !request.raw.contains(secret),
                "a secret of the PR's text reached the model:\n{}",
                request.raw
            );
        }
    }
}
