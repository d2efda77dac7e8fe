//! The secret rules review-tui ships with: precise formats that are almost never anything but a
//! credential (confidence 0.95), plus one generic `password = "…"` rule gated by entropy and a
//! placeholder list, with lower confidence so alone it holds a merge rather than blocking it.

use super::re2;
use super::rule::{Allowlist, RegexTarget, RuleRegex, SecretGroup, SecretRule};

struct Builtin {
    name: &'static str,
    label: &'static str,
    description: &'static str,
    regex: &'static str,
    keywords: &'static [&'static str],
    entropy: Option<f64>,
    confidence: f64,
    /// Files the rule reports in (a secret scan of a diff); redaction applies it everywhere.
    path: Option<&'static str>,
    /// Matches (the whole regex match) that are not secrets.
    allow: &'static [&'static str],
    /// Also refuse obvious placeholders (`changeme`, `${VAR}`, `<password>`).
    placeholders: bool,
    /// Files whose matches are not secrets (the generic rules' translation catalogues).
    allow_paths: &'static [&'static str],
}

/// The unset optional fields of a built-in.
const PLAIN: (Option<&str>, &[&str], bool) = (None, &[], false);

/// Confidence for formats with a fixed, specific prefix and shape.
const SPECIFIC: f64 = 0.95;
/// Confidence for the generic assignment rule: 0.6 keeps it under the verdict's block threshold
/// (0.7), so an unconfirmed generic match holds the merge for a person instead of blocking.
pub(super) const GENERIC: f64 = 0.6;

// Patterns are written in RE2 syntax and go through the same translation as gitleaks rules, so
// `\w` and `\b` are ASCII here too. The trailing `(?:[^…]|$)` groups stand in for lookahead.
const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "aws-access-key-id",
        label: "AWS access key id",
        description: "An AWS access key id: with its secret key it grants API access to the account.",
        regex: r"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
        keywords: &["akia", "asia", "abia", "acca", "a3t"],
        entropy: Some(3.0),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "aws-secret-access-key",
        label: "AWS secret access key",
        description: "An AWS secret access key assigned in code.",
        regex: r#"(?i)aws.{0,20}?(?:secret|private)?.{0,10}?(?:access)?.{0,5}?key.{0,10}?[=:]\s{0,5}["'`]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$)"#,
        keywords: &["aws"],
        entropy: Some(3.5),
        confidence: 0.9,
        path: PLAIN.0,
        // AWS's documentation writes its sample keys with `EXAMPLE` in them
        // (`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY` beside `AKIAIOSFODNN7EXAMPLE`, which
        // gitleaks' own AWS rule allows): the provider's documented example is no credential,
        // wherever it is pasted. AWS issues no key with the word in it.
        allow: &[r#"[=:]\s{0,5}["'`]?[A-Za-z0-9/+]*EXAMPLE"#],
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "github-token",
        label: "GitHub token",
        description: "A GitHub personal access, OAuth, user-to-server, server-to-server or refresh token.",
        regex: r"\b(gh[pousr]_[A-Za-z0-9]{36,251})\b",
        keywords: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        entropy: Some(3.0),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "github-fine-grained-pat",
        label: "GitHub fine-grained token",
        description: "A GitHub fine-grained personal access token.",
        regex: r"\b(github_pat_[A-Za-z0-9_]{82})\b",
        keywords: &["github_pat_"],
        entropy: Some(3.0),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "gitlab-token",
        label: "GitLab token",
        description: "A GitLab personal, project or group access token.",
        regex: r"\b(glpat-[A-Za-z0-9_-]{20,})",
        keywords: &["glpat-"],
        entropy: Some(3.0),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "slack-token",
        label: "Slack token",
        description: "A Slack bot, user, app, refresh or legacy token.",
        regex: r"\b(xox[abprs]-[A-Za-z0-9-]{10,250})",
        keywords: &["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"],
        entropy: Some(2.5),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "slack-webhook",
        label: "Slack webhook URL",
        description: "A Slack incoming-webhook URL: anyone holding it can post to the channel.",
        regex: r"((?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56})",
        keywords: &["hooks.slack.com"],
        entropy: None,
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "stripe-live-key",
        label: "Stripe live key",
        description: "A Stripe live secret or restricted key: it moves real money.",
        regex: r"\b((?:sk|rk)_live_[A-Za-z0-9]{20,247})\b",
        keywords: &["sk_live_", "rk_live_"],
        entropy: Some(2.0),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "google-api-key",
        label: "Google API key",
        description: "A Google Cloud / Firebase API key.",
        regex: r"\b(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)",
        keywords: &["aiza"],
        entropy: Some(3.0),
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "private-key",
        label: "private key",
        description: "A PEM private key block.",
        // The block up to its END line, or, when the diff shows only part of it, every key-ish
        // line that follows: redaction must cover the body, not just the header. `\` is
        // key-ish too: a key inside a JSON or code string has its line breaks written `\n`
        // (a cloud service-account key file).
        // At least 64 characters of body, as gitleaks asks (an empty block is a template), or
        // the end of the text: a header whose block lies beyond what the diff shows.
        // The label never holds `--`, so a header cannot run into an END line on the same line.
        regex: r"(-----BEGIN(?:[ A-Z0-9_]|-[ A-Z0-9_]){0,100}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:,.\\-]{64,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,.\\-]{64,}|[ \t]*\z))",
        keywords: &["private key"],
        entropy: None,
        confidence: SPECIFIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "jwt",
        label: "JSON Web Token",
        description: "A JSON Web Token: often a live session or service credential.",
        regex: r"\b(ey[A-Za-z0-9]{17,}\.ey[A-Za-z0-9/_-]{17,}\.(?:[A-Za-z0-9/_-]{10,}={0,2})?)(?:[^A-Za-z0-9/_=.-]|$)",
        keywords: &["ey"],
        entropy: Some(3.0),
        confidence: 0.85,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: PLAIN.2,
        allow_paths: &[],
    },
    Builtin {
        name: "private-key-body",
        label: "private key material",
        description: "Lines of a PEM key body without its BEGIN line (a change inside an existing key file, a key block pasted alone).",
        // Two or more full-width base64 lines (PEM wraps at 64, some tools at 76) and the short
        // last line: what a hunk inside a key file shows. An optional diff marker, so a
        // rendered diff is redacted too. Only in key files for the scan (a certificate bundle
        // is base64 too); everywhere for redaction.
        regex: r"(?m)((?:^[+ -]?[ \t]*[A-Za-z0-9+/]{60,76}[ \t]*(?:\n|\z)){2,}(?:^[+ -]?[ \t]*[A-Za-z0-9+/]{1,75}={0,2}[ \t]*$)?)",
        keywords: &[],
        entropy: Some(4.5),
        // Below the whole-block rules: where a block's header is in view, they name it.
        confidence: 0.9,
        path: Some(KEY_FILES),
        allow: &[],
        placeholders: false,
        allow_paths: &[],
    },
    Builtin {
        name: "config-password",
        label: "password in a config file",
        description: "A password, secret or token assigned in an env or configuration file: a credential whatever it looks like.",
        // `KEY=value`, `key: value`, `export KEY="value"` with the key naming a credential;
        // no entropy floor (`hunter2hunter2` is a password), placeholders and references refused.
        regex: r#"(?im)^[ \t]*(?:export[ \t]+)?["']?[\w.-]*(?:password|passwd|passphrase|pwd|secret|token|api[_.-]?key|apikey|auth[_.-]?key|private[_.-]?key|credentials?)[\w.-]*["']?[ \t]*[:=][ \t]*["']?([^\s"'#()<>\[\]{};,]{6,200})["']?[ \t]*(?:[#;].*)?$"#,
        keywords: &["pass", "pwd", "secret", "token", "key", "credential"],
        entropy: None,
        confidence: 0.8,
        path: Some(CONFIG_FILES),
        allow: &[
            // Keys that name something about a credential, not the credential.
            r"(?i)^[ \t]*(?:export[ \t]+)?[\x22']?[\w.-]*?(?:ttl|expiry|expires?(?:_in)?|timeout|length|size|name|file|path|dir|url|uri|endpoint|host|port|id|header|type|enabled|min|max|count|policy|algorithm|mode|format|version|prefix|env|var|ref|source)[\x22']?[ \t]*[:=]",
            // Values that are words people write where a password goes.
            r#"(?i)[:=][ \t]*["']?(?:password|passwd|secret|token|admin|test(?:ing)?|root|user(?:name)?|default|none|null|nil|empty|todo|tbd|fixme|true|false|yes|no|on|off|required|optional|string|redacted|masked|hidden)\d*["']?[ \t]*(?:[#;].*)?$"#,
            // A keyword of the file's own format: GitHub Actions' `secrets: inherit` hands a
            // called workflow the caller's secrets by reference, it holds none.
            r#"(?i)^[ \t]*secrets[ \t]*:[ \t]*inherit[ \t]*(?:#.*)?$"#,
            // Numbers, durations and sizes; YAML tags (`!vault`), secret-manager references.
            r#"[:=][ \t]*["']?(?:\d+(?:\.\d+)?[smhdwkKmMgG]?[bB]?|![\w!-]+|(?:vault|arn|ssm|secretsmanager|op|awssm|gcpsm|azkv|ref\+\w+):.*)["']?[ \t]*(?:[#;].*)?$"#,
        ],
        placeholders: true,
        allow_paths: TRANSLATIONS,
    },
    Builtin {
        name: "generic-assignment",
        label: "hardcoded credential",
        description: "A password, secret, API key or token assigned a literal value.",
        regex: r#"(?i)[\w.-]*(?:password|passwd|pwd|secret|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key|token)[\w.-]*["']?\s{0,5}(?::=|=>|=|:)\s{0,5}(?:"([^"\s]{8,200})"|'([^'\s]{8,200})'|`([^`\s]{8,200})`|([A-Za-z0-9+/=_!@#%^*~-]{12,200})(?:[\s;,]|$))"#,
        keywords: &["pass", "pwd", "secret", "key", "token"],
        entropy: Some(3.0),
        confidence: GENERIC,
        path: PLAIN.0,
        allow: PLAIN.1,
        placeholders: true,
        allow_paths: TRANSLATIONS,
    },
];

/// File names that hold keys: PEM and DER files, SSH identities, PKCS#8, PuTTY keys.
const KEY_FILES: &str = r"(?i)(?:\.(?:pem|key|p8|pk8|ppk|der|asc|gpg|keystore)$|(?:^|/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_[\w-]+)?$|private[\w.-]*key)";

/// Env and configuration files, where any credential-named assignment holds a credential.
/// Translation catalogues: a key naming a credential there holds its label in another language
/// (sidekiq's `web/locales/ta.yml`, `Token: டோக்கன்`), never the credential. The generic rules
/// skip them; a provider's token format is still found there.
const TRANSLATIONS: &[&str] = &[
    r"(?i)(?:^|/)(?:locales?|i18n|l10n|translations?|lang|langs|languages)/",
    r"(?i)\.(?:po|pot|xliff|xlf)$",
];

const CONFIG_FILES: &str = r"(?i)(?:(?:^|/)\.env(?:\.[\w.-]+)?$|\.env$|(?:^|/)\.envrc$|\.(?:ini|cfg|conf|config|cnf|properties|prefs|toml|ya?ml|tfvars|env\.example)$|(?:^|/)(?:credentials|secrets?)$)";

/// In a file known to hold a private key, any run of base64 lines is key material, even one
/// line: a change to a single line of a key shows only that line.
pub(crate) const KEY_BODY_LINES: &str =
    r"(?m)((?:^[ \t]*[A-Za-z0-9+/]{16,76}={0,2}[ \t]*(?:\n|\z))+)";

/// The generic assignment rule's name.
pub(crate) const GENERIC_ASSIGNMENT: &str = "generic-assignment";

/// The rule key material found by [`KEY_BODY_LINES`] is reported under.
pub(crate) const KEY_BODY_RULE: &str = "private-key-body";

/// Built-ins gitleaks' default configuration has rules for (built-in name, gitleaks ids), with
/// its allowlists (AWS's documentation key, Slack's placeholders, Firebase's public examples).
/// In the default set gitleaks' rules speak for these formats, under the built-in's label,
/// description and confidence; the built-in alone serves where no gitleaks rules are loaded.
/// `private-key` is not here: gitleaks' needs the END line, and a diff often shows a block
/// without it, so the built-in stands for both.
const IN_GITLEAKS: &[(&str, &[&str])] = &[
    ("aws-access-key-id", &["aws-access-token"]),
    (
        "github-token",
        &[
            "github-pat",
            "github-oauth",
            "github-app-token",
            "github-refresh-token",
        ],
    ),
    ("github-fine-grained-pat", &["github-fine-grained-pat"]),
    ("gitlab-token", &["gitlab-pat", "gitlab-pat-routable"]),
    (
        "slack-token",
        &[
            "slack-bot-token",
            "slack-user-token",
            "slack-app-token",
            "slack-legacy-token",
            "slack-legacy-bot-token",
            "slack-legacy-workspace-token",
            "slack-config-access-token",
            "slack-config-refresh-token",
        ],
    ),
    ("slack-webhook", &["slack-webhook-url"]),
    ("stripe-live-key", &["stripe-access-token"]),
    ("google-api-key", &["gcp-api-key"]),
    ("jwt", &["jwt"]),
];

/// A gitleaks rule for a format a built-in covers takes the built-in's words and confidence: a
/// person reads "AWS access key id", not `aws-access-token`.
pub(crate) fn describe_like_builtin(rule: &mut SecretRule) {
    let Some((name, _)) = IN_GITLEAKS
        .iter()
        .find(|(_, ids)| ids.contains(&rule.source_id.as_str()))
    else {
        return;
    };
    if let Some(b) = BUILTINS.iter().find(|b| b.name == *name) {
        rule.label = b.label.to_string();
        rule.description = b.description.to_string();
        rule.confidence = b.confidence;
    }
}

/// Every built-in rule.
pub(super) fn rules() -> Vec<SecretRule> {
    compile(BUILTINS.iter())
}

/// The built-ins that gitleaks' default rules do not cover: what is added to them.
pub(super) fn beside_gitleaks() -> Vec<SecretRule> {
    compile(
        BUILTINS
            .iter()
            .filter(|b| !IN_GITLEAKS.iter().any(|(name, _)| *name == b.name)),
    )
}

fn compile<'a>(builtins: impl Iterator<Item = &'a Builtin>) -> Vec<SecretRule> {
    builtins
        .map(|b| SecretRule {
            id: format!("secret/{}", b.name),
            source_id: b.name.to_string(),
            label: b.label.to_string(),
            description: b.description.to_string(),
            regex: Some(RuleRegex::deferred(re2::translate(b.regex).unwrap_or_else(
                |e| panic!("built-in secret rule {} is invalid: {e}", b.name),
            ))),
            secret_group: SecretGroup::FirstNonEmpty,
            entropy: b.entropy,
            keywords: b.keywords.iter().map(|k| k.to_string()).collect(),
            path: b.path.map(|p| {
                RuleRegex::deferred(
                    re2::translate(p)
                        .unwrap_or_else(|e| panic!("built-in path of {} is invalid: {e}", b.name)),
                )
            }),
            tags: Vec::new(),
            allowlists: if b.allow.is_empty() {
                Vec::new()
            } else {
                vec![Allowlist {
                    description: format!("{} placeholders", b.name),
                    regex_target: RegexTarget::Match,
                    regexes: b.allow.iter().map(|p| compiled(b, p)).collect(),
                    ..Allowlist::default()
                }]
            }
            .into_iter()
            .chain((!b.allow_paths.is_empty()).then(|| Allowlist {
                description: format!("{} translation catalogues", b.name),
                paths: b.allow_paths.iter().map(|p| compiled(b, p)).collect(),
                ..Allowlist::default()
            }))
            .collect(),
            confidence: b.confidence,
            refuse_placeholders: b.placeholders,
        })
        .collect()
}

/// One of `b`'s allowlist patterns (line or path), translated from RE2.
fn compiled(b: &Builtin, pattern: &str) -> RuleRegex {
    RuleRegex::deferred(
        re2::translate(pattern)
            .unwrap_or_else(|e| panic!("built-in allowlist of {} is invalid: {e}", b.name)),
    )
}

/// Values that are obviously not real secrets: placeholders, templates, environment lookups,
/// masked values. Only the generic rule consults this: a specific format such as `ghp_…` is
/// reported even when it looks like an example, because real tokens get pasted into examples.
pub fn is_placeholder(value: &str) -> bool {
    let v = value.trim().trim_matches(|c| c == '"' || c == '\'');
    let lower = v.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "changeme",
        "change_me",
        "change-me",
        "replace",
        "your",
        "example",
        "placeholder",
        "dummy",
        "sample",
        "redacted",
        "xxxx",
        "****",
        "....",
        "<",
        "${",
        "{{",
        "$(",
        "%(",
        "process.env",
        "os.environ",
        "getenv",
        "env(",
        "secretref",
    ];
    if WORDS.iter().any(|w| lower.contains(w)) {
        return true;
    }
    let first = v.chars().next();
    let one_char_repeated = first.is_some_and(|f| v.chars().all(|c| c == f));
    let env_var = v.starts_with('$')
        && v[1..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '{' || c == '}');
    let identifier_path = v
        .chars()
        .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '.')
        && v.contains(['.', '_']);
    // A regular expression's character class with a range (`[a-zA-Z0-9-…]+`, okhttp's HTTP
    // token grammar in `TOKEN`) describes text; no generated secret holds one.
    let pattern = v.contains('[') && ["a-z", "A-Z", "0-9"].iter().any(|range| v.contains(range));
    one_char_repeated || env_var || identifier_path || pattern
}

/// A value that only looks like a key: its body (what follows the last `_` or `-` of a
/// provider's prefix, `sk_live_abc123def456`) is built wholly of runs that count up, three
/// characters or more each (`abc`, `123`, `def456`, `0123456789`): a shape a writer types to
/// show a format, which a generated key does not take (the chance that 12 random characters
/// fall into such runs is below one in a billion). Unlike [`is_placeholder`] it holds for
/// every rule, a provider's exact format included: it judges the value, not a word in it.
pub(crate) fn is_patterned_sample(value: &str) -> bool {
    let body = value.trim().rsplit(['_', '-']).next().unwrap_or_default();
    let bytes = body.as_bytes();
    if bytes.len() < 6 || !bytes.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let follows = |a: u8, b: u8| {
        let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
        (b == a + 1 && a.is_ascii_digit() == b.is_ascii_digit()) || (a == b'9' && b == b'0')
    };
    let mut run = 1;
    for pair in bytes.windows(2) {
        if follows(pair[0], pair[1]) {
            run += 1;
        } else if run >= 3 {
            run = 1;
        } else {
            return false;
        }
    }
    run >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_of_counting_runs_is_a_sample_and_a_random_one_is_not() {
        // Built at run time: a literal of a provider's prefix would trip gitleaks on this file.
        let prefix = format!("sk_{}_", "live");
        let shown = format!("{prefix}abc123def456");
        let random = format!("{prefix}4eC39HqLyjWDarjtT1zdp7dc");
        for value in [shown.as_str(), "abcdef", "xyz0123456789", "rk_test_ABC123"] {
            assert!(is_patterned_sample(value), "{value}");
        }
        for value in [
            random.as_str(),
            "abc12",
            "abc123d",
            "hX7mN2qP9sT4vB6c",
            "-----BEGIN RSA PRIVATE KEY-----",
        ] {
            assert!(!is_patterned_sample(value), "{value}");
        }
    }

    #[test]
    fn every_builtin_compiles_with_a_keyword() {
        let rules = rules();
        assert_eq!(rules.len(), BUILTINS.len());
        for rule in &rules {
            // A key body has no fixed text to look for; every other rule needs a keyword.
            assert!(
                !rule.keywords.is_empty() || rule.source_id == KEY_BODY_RULE,
                "{} needs a keyword",
                rule.id
            );
            assert!(crate::review::validate::is_rule_id(&rule.id), "{}", rule.id);
        }
    }

    #[test]
    fn placeholders_are_recognized() {
        for value in [
            "changeme",
            "xxxxxxxxxxxx",
            "${DB_PASSWORD}",
            "$DB_PASSWORD",
            "<your-key>",
            "{{ .Values.password }}",
            "your-api-key-here",
            "********",
            "settings.db_password",
        ] {
            assert!(is_placeholder(value), "{value}");
        }
        for value in ["Zq8!vR2#kL9pW4", "hX7mN2qP9sT4vB6c"] {
            assert!(!is_placeholder(value), "{value}");
        }
    }
}
