//! Loads a gitleaks configuration (`.gitleaks.toml`): rules, rule allowlists (`[[rules.allowlists]]`
//! and the older `[rules.allowlist]`), global allowlists (`[allowlist]`, `[[allowlists]]` with
//! `targetRules`), and `[extend] useDefault`.
//!
//! Every rule is either loaded or reported with the reason it was not; nothing is skipped
//! silently. A rule whose allowlist has a bad regex is kept without that regex (and reported):
//! a false positive is visible and dismissable, a dropped rule is a secret nobody sees.
//!
//! The default set is gitleaks' own default configuration (bundled, MIT) plus our built-in
//! rules. As in gitleaks, a configuration with `[extend] useDefault = true` extends that
//! default (its rules are added, a rule with a default's id replaces it, `disabledRules` removes
//! defaults) and one without it replaces gitleaks' rules. The built-ins gitleaks has no rule
//! for stay in both cases (`disabledRules` can remove them by name): key blocks without their
//! END line, key bodies without their header, passwords in env files, generic assignments. `[extend] path`/`url` are not
//! followed: the loader reads text, not files, and says so in the notes.

use std::sync::OnceLock;

use serde::Deserialize;
use thiserror::Error;

use super::builtin;
use super::re2;
use super::rule::{Allowlist, Condition, RegexTarget, RuleRegex, SecretGroup, SecretRule};
use super::scanner::SecretScanner;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("the gitleaks configuration is not valid TOML: {0}")]
    Toml(String),
}

/// A rule (or allowlist) that could not be loaded as written, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleProblem {
    /// The rule's gitleaks id, `rules[N]` when it has none, or `allowlist` for global ones.
    pub rule: String,
    pub reason: String,
    /// True when the rule itself is missing from the scanner; false when only part of it
    /// (an allowlist regex) was dropped.
    pub rule_dropped: bool,
}

#[derive(Debug)]
pub struct LoadedConfig {
    pub scanner: SecretScanner,
    pub problems: Vec<RuleProblem>,
    pub notes: Vec<String>,
}

impl LoadedConfig {
    /// Ids of the rules that are not in the scanner.
    pub fn dropped_rules(&self) -> Vec<&str> {
        self.problems
            .iter()
            .filter(|p| p.rule_dropped)
            .map(|p| p.rule.as_str())
            .collect()
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct RawExtend {
    use_default: bool,
    path: Option<String>,
    url: Option<String>,
    disabled_rules: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct RawRule {
    id: Option<String>,
    description: String,
    regex: Option<String>,
    secret_group: Option<i64>,
    entropy: Option<f64>,
    keywords: Vec<String>,
    path: Option<String>,
    tags: Vec<String>,
    allowlist: Option<RawAllowlist>,
    allowlists: Vec<RawAllowlist>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct RawAllowlist {
    description: String,
    condition: Option<String>,
    regex_target: Option<String>,
    regexes: Vec<String>,
    paths: Vec<String>,
    stopwords: Vec<String>,
    commits: Vec<String>,
    target_rules: Vec<String>,
}

/// Confidence given to rules from a configuration, which carries none: high for the specific
/// formats that make up almost all of gitleaks' rules, the generic level for `generic*` rules.
const CONFIG_RULE_CONFIDENCE: f64 = 0.9;

/// gitleaks' default configuration, bundled (`assets/secrets/`, with its MIT licence).
pub const GITLEAKS_DEFAULT_TOML: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/secrets/gitleaks.toml"
));

/// One configuration's own rules and global allowlists, before it is laid over the defaults.
struct Parsed {
    extend: RawExtend,
    rules: Vec<SecretRule>,
    global: Vec<Allowlist>,
    problems: Vec<RuleProblem>,
    notes: Vec<String>,
}

/// The bundled default's rules and allowlists, parsed once.
fn bundled() -> &'static (Vec<SecretRule>, Vec<Allowlist>) {
    static BUNDLED: OnceLock<(Vec<SecretRule>, Vec<Allowlist>)> = OnceLock::new();
    BUNDLED.get_or_init(|| {
        let parsed = parse(GITLEAKS_DEFAULT_TOML, Compile::OnFirstUse)
            .expect("the bundled gitleaks config is TOML");
        debug_assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        (parsed.rules, parsed.global)
    })
}

/// The default scan: gitleaks' default rules and global allowlist plus the built-ins. Built
/// once per process; cloning it is cheap (compiled regexes are shared).
pub fn default_scanner() -> &'static SecretScanner {
    static DEFAULT: OnceLock<SecretScanner> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let (rules, global) = bundled();
        SecretScanner::new(compose(rules, Vec::new(), &[]), global.clone())
    })
}

/// Loads `text` as gitleaks does: laid over the default set with `[extend] useDefault`,
/// replacing gitleaks' default rules without it; the built-ins stay either way.
pub fn load_gitleaks_config(text: &str) -> Result<LoadedConfig, ConfigError> {
    let parsed = parse(text, Compile::Now)?;
    let disabled = &parsed.extend.disabled_rules;
    let mut global = Vec::new();
    let default = if parsed.extend.use_default {
        let (default_rules, default_global) = bundled();
        global.extend(default_global.iter().cloned());
        default_rules.as_slice()
    } else {
        &[]
    };
    let rules = compose(default, parsed.rules, disabled);
    global.extend(parsed.global);
    Ok(LoadedConfig {
        scanner: SecretScanner::new(rules, global),
        problems: parsed.problems,
        notes: parsed.notes,
    })
}

/// The rules a scan runs: gitleaks' `default` rules (none when a configuration replaces them),
/// a configuration's `own` rules, then the built-ins gitleaks has no rule for, less `disabled`.
/// An own rule replaces a default's or a built-in's of the same id; a built-in replaces a
/// default's (`private-key`: the built-in also finds a block whose END line the diff does not
/// show). Built-ins come last so that where two rules of equal confidence find one secret,
/// gitleaks' names it.
fn compose(default: &[SecretRule], own: Vec<SecretRule>, disabled: &[String]) -> Vec<SecretRule> {
    let builtins = builtin::beside_gitleaks();
    let taken = |id: &str, by: &[SecretRule]| by.iter().any(|r| r.source_id == id);
    let mut rules: Vec<SecretRule> = default
        .iter()
        .filter(|r| !taken(&r.source_id, &own) && !taken(&r.source_id, &builtins))
        .cloned()
        .map(|mut r| {
            builtin::describe_like_builtin(&mut r);
            r
        })
        .collect();
    let builtins: Vec<SecretRule> = builtins
        .into_iter()
        .filter(|b| !taken(&b.source_id, &own))
        .collect();
    rules.extend(own);
    rules.extend(builtins);
    rules.retain(|r| !disabled.contains(&r.source_id));
    share_generic_filters(&mut rules);
    rules
}

/// With gitleaks' `generic-api-key` present, our generic assignment rule is its complement: it
/// takes gitleaks' filters (stopwords, the allowlisted key names) and reports only values
/// gitleaks' rule cannot hold (`Zq8!vR2#…`, with characters outside `[\w.=-]`), so the two
/// never report the same thing twice and ours adds no false positive gitleaks' filters remove.
fn share_generic_filters(rules: &mut [SecretRule]) {
    let Some(filters) = rules
        .iter()
        .find(|r| r.source_id == "generic-api-key")
        .map(|r| r.allowlists.clone())
    else {
        return;
    };
    let gitleaks_values =
        RuleRegex::deferred(re2::translate(r"^[\w.=/+:-]+$").expect("a plain class translates"));
    for rule in rules
        .iter_mut()
        .filter(|r| r.source_id == builtin::GENERIC_ASSIGNMENT)
    {
        rule.allowlists.extend(filters.iter().cloned());
        rule.allowlists.push(Allowlist {
            description: "values gitleaks' generic-api-key judges".into(),
            regexes: vec![gitleaks_values.clone()],
            ..Allowlist::default()
        });
    }
}

/// When a rule's patterns (its regex, path and allowlists') are compiled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Compile {
    /// When loaded: a configuration's pattern that does not compile is a problem to report.
    Now,
    /// When a scan first needs it: the bundled configuration, every pattern of which a test
    /// compiles. Its syntax is still translated (and so checked) at load.
    OnFirstUse,
}

fn parse(text: &str, compile: Compile) -> Result<Parsed, ConfigError> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ConfigError::Toml(e.message().to_string()))?;
    let mut problems = Vec::new();
    let mut notes = Vec::new();

    let extend = match table.get("extend") {
        None => RawExtend::default(),
        Some(value) => RawExtend::deserialize(value.clone()).unwrap_or_else(|e| {
            notes.push(format!("[extend] ignored: {}", e.message()));
            RawExtend::default()
        }),
    };
    if let Some(path) = extend.path.as_deref().or(extend.url.as_deref()) {
        notes.push(format!(
            "[extend] {path} is not followed: only useDefault extends the built-in rules"
        ));
    }

    let mut rules: Vec<SecretRule> = Vec::new();

    let raw_rules = match table.get("rules") {
        None => Vec::new(),
        Some(toml::Value::Array(items)) => items.clone(),
        Some(_) => {
            problems.push(RuleProblem {
                rule: "rules".into(),
                reason: "`rules` must be an array of tables ([[rules]])".into(),
                rule_dropped: true,
            });
            Vec::new()
        }
    };
    for (index, value) in raw_rules.into_iter().enumerate() {
        let name = value
            .get("id")
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .unwrap_or_else(|| format!("rules[{index}]"));
        let raw = match RawRule::deserialize(value) {
            Ok(raw) => raw,
            Err(e) => {
                problems.push(RuleProblem {
                    rule: name,
                    reason: e.message().to_string(),
                    rule_dropped: true,
                });
                continue;
            }
        };
        match build_rule(raw, &name, compile, &mut problems) {
            Ok(rule) => {
                rules.retain(|r| r.source_id != rule.source_id);
                rules.push(rule);
            }
            Err(reason) => problems.push(RuleProblem {
                rule: name,
                reason: reason.to_string(),
                rule_dropped: true,
            }),
        }
    }

    let mut global = Vec::new();
    let mut raw_globals = Vec::new();
    if let Some(value) = table.get("allowlist") {
        raw_globals.push(("allowlist".to_string(), value.clone()));
    }
    if let Some(toml::Value::Array(items)) = table.get("allowlists") {
        for (i, value) in items.iter().enumerate() {
            raw_globals.push((format!("allowlists[{i}]"), value.clone()));
        }
    }
    for (name, value) in raw_globals {
        match RawAllowlist::deserialize(value) {
            Ok(raw) => global.push(build_allowlist(raw, &name, compile, &mut problems)),
            Err(e) => problems.push(RuleProblem {
                rule: name,
                reason: e.message().to_string(),
                rule_dropped: false,
            }),
        }
    }

    Ok(Parsed {
        extend,
        rules,
        global,
        problems,
        notes,
    })
}

/// Why one `[[rules]]` entry is dropped (the load report names the rule and this).
#[derive(Debug, Error)]
enum RuleError {
    #[error("no id")]
    NoId,
    #[error("regex: {0}")]
    Regex(re2::Re2Error),
    #[error("path: {0}")]
    Path(re2::Re2Error),
    #[error("neither a regex nor a path")]
    NothingToMatch,
    #[error("secretGroup {0} is negative")]
    NegativeGroup(i64),
    #[error("secretGroup {group} but the regex has {groups} capture groups")]
    NoSuchGroup { group: usize, groups: usize },
}

fn build_rule(
    raw: RawRule,
    name: &str,
    compile: Compile,
    problems: &mut Vec<RuleProblem>,
) -> Result<SecretRule, RuleError> {
    let id = raw
        .id
        .filter(|id| !id.trim().is_empty())
        .ok_or(RuleError::NoId)?;
    let regex = match raw.regex.as_deref().filter(|r| !r.is_empty()) {
        Some(pattern) => Some(lazy_or_now(pattern, compile).map_err(RuleError::Regex)?),
        None => None,
    };
    let path = match raw.path.as_deref().filter(|p| !p.is_empty()) {
        Some(pattern) => Some(lazy_or_now(pattern, compile).map_err(RuleError::Path)?),
        None => None,
    };
    if regex.is_none() && path.is_none() {
        return Err(RuleError::NothingToMatch);
    }
    let secret_group = match raw.secret_group {
        None | Some(0) => SecretGroup::FirstNonEmpty,
        Some(n) if n < 0 => return Err(RuleError::NegativeGroup(n)),
        Some(n) => {
            let n = n as usize;
            // Counting groups compiles a deferred regex (one bundled rule sets secretGroup).
            let groups = regex.as_ref().map_or(0, |r| r.regex().captures_len() - 1);
            if n > groups {
                return Err(RuleError::NoSuchGroup { group: n, groups });
            }
            SecretGroup::Index(n)
        }
    };
    let mut allowlists = Vec::new();
    for raw_list in raw.allowlist.into_iter().chain(raw.allowlists) {
        allowlists.push(build_allowlist(raw_list, name, compile, problems));
    }
    let generic = id.starts_with("generic");
    let confidence = if generic {
        builtin::GENERIC
    } else {
        CONFIG_RULE_CONFIDENCE
    };
    Ok(SecretRule {
        id: format!("secret/{}", sanitize(&id)),
        label: id.clone(),
        description: raw.description,
        regex,
        secret_group,
        entropy: raw.entropy.filter(|e| *e != 0.0),
        keywords: raw.keywords.iter().map(|k| k.to_lowercase()).collect(),
        path,
        tags: raw.tags,
        allowlists,
        confidence,
        // A generic rule reads like the built-in generic one: placeholders are not secrets, and
        // in test code only a provider's exact format counts (uvicorn #1816's test sends RFC
        // 6455's sample `sec-websocket-key`, which generic-api-key held as a P0).
        refuse_placeholders: generic,
        source_id: id,
    })
}

/// `pattern` compiled now, or translated now (so its syntax is checked at load) and compiled
/// when first used.
fn lazy_or_now(pattern: &str, compile: Compile) -> Result<RuleRegex, re2::Re2Error> {
    match compile {
        Compile::Now => re2::compile(pattern).map(RuleRegex::compiled),
        Compile::OnFirstUse => re2::translate(pattern).map(RuleRegex::deferred),
    }
}

fn build_allowlist(
    raw: RawAllowlist,
    owner: &str,
    compile: Compile,
    problems: &mut Vec<RuleProblem>,
) -> Allowlist {
    let mut compile_all = |patterns: &[String], what: &str| {
        patterns
            .iter()
            .filter_map(|p| match lazy_or_now(p, compile) {
                Ok(re) => Some(re),
                Err(e) => {
                    problems.push(RuleProblem {
                        rule: owner.to_string(),
                        reason: format!("allowlist {what} `{p}` dropped: {e}"),
                        rule_dropped: false,
                    });
                    None
                }
            })
            .collect::<Vec<_>>()
    };
    let regexes = compile_all(&raw.regexes, "regex");
    let paths = compile_all(&raw.paths, "path");
    let condition = match raw.condition.as_deref().map(str::to_ascii_uppercase) {
        Some(c) if c == "AND" || c == "&&" => Condition::And,
        _ => Condition::Or,
    };
    let regex_target = match raw.regex_target.as_deref() {
        Some("match") => RegexTarget::Match,
        Some("line") => RegexTarget::Line,
        _ => RegexTarget::Secret,
    };
    Allowlist {
        description: raw.description,
        condition,
        regex_target,
        regexes,
        paths,
        stopwords: raw.stopwords.iter().map(|s| s.to_lowercase()).collect(),
        has_commits: !raw.commits.is_empty(),
        target_rules: raw.target_rules,
    }
}

/// A gitleaks id in our rule-id charset: lowercase letters, digits, `-`, `_`, `.`.
pub(crate) fn sanitize(id: &str) -> String {
    let mapped: String = id
        .trim()
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let trimmed = mapped.trim_matches('-');
    if trimmed.is_empty() {
        "unnamed".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod lazy_tests {
    use super::*;

    fn compiled(rules: &[SecretRule]) -> Vec<&str> {
        rules
            .iter()
            .filter(|r| r.regex.as_ref().is_some_and(|x| x.is_compiled()))
            .map(|r| r.source_id.as_str())
            .collect()
    }

    #[test]
    fn bundled_patterns_are_compiled_when_a_scan_first_needs_them() {
        let parsed = parse(GITLEAKS_DEFAULT_TOML, Compile::OnFirstUse).unwrap();
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        // Only the rule whose secretGroup had to be checked against its groups.
        assert!(
            compiled(&parsed.rules).len() <= 1,
            "{:?}",
            compiled(&parsed.rules)
        );
        let rules = compose(&parsed.rules, Vec::new(), &[]);
        let scanner = SecretScanner::new(rules, parsed.global);
        let before = compiled(scanner.rules()).len();

        // Text holding one rule's keyword compiles a few rules, not the catalogue.
        let text = format!("let token = \"ghp_{}\";", "a1B2c3D4".repeat(5));
        let _ = scanner.secret_spans(&text, Some("src/lib.rs"));
        let after = compiled(scanner.rules());
        assert!(after.len() > before, "a rule with the keyword ran");
        assert!(
            after.len() < 40,
            "{} of {} compiled",
            after.len(),
            scanner.rules().len()
        );
        // Clones share what was compiled.
        let again = scanner.clone();
        assert_eq!(compiled(again.rules()), after);
    }

    #[test]
    fn every_bundled_and_built_in_pattern_compiles() {
        // They are compiled when a scan first needs them, where a bad one could only panic:
        // every one of them (rules' regexes and paths, allowlists') is compiled here.
        let parsed = parse(GITLEAKS_DEFAULT_TOML, Compile::OnFirstUse).unwrap();
        let rules = compose(&parsed.rules, Vec::new(), &[]);
        let allowlists = |lists: &[Allowlist]| -> Vec<RuleRegex> {
            lists
                .iter()
                .flat_map(|a| a.regexes.iter().chain(&a.paths))
                .cloned()
                .collect()
        };
        let mut checked = 0;
        for (owner, patterns) in rules
            .iter()
            .chain(&builtin::rules())
            .map(|rule| {
                let own = rule.regex.iter().chain(&rule.path).cloned();
                (
                    &rule.source_id,
                    own.chain(allowlists(&rule.allowlists)).collect(),
                )
            })
            .chain([(&"global".to_string(), allowlists(&parsed.global))])
            .collect::<Vec<(&String, Vec<RuleRegex>)>>()
        {
            for pattern in patterns {
                assert!(
                    re2::compile_translated(pattern.as_str()).is_ok(),
                    "{owner}: {}",
                    pattern.as_str()
                );
                checked += 1;
            }
        }
        // Rules' regexes, and the global allowlist's paths and regexes are among them.
        assert!(checked > rules.len() + 30, "{checked}");
    }

    #[test]
    fn compile_for_compiles_what_a_redaction_of_the_text_would() {
        let parsed = parse(GITLEAKS_DEFAULT_TOML, Compile::OnFirstUse).unwrap();
        let scanner = SecretScanner::new(compose(&parsed.rules, Vec::new(), &[]), parsed.global);
        let generic = |s: &SecretScanner| compiled(s.rules()).contains(&"generic-api-key");
        assert!(!generic(&scanner));
        scanner.compile_for("the code has no such word");
        assert!(!generic(&scanner));
        scanner.compile_for("secret scan");
        assert!(generic(&scanner), "{:?}", compiled(scanner.rules()));
        // What it compiled is what the redaction then finds compiled: nothing more is.
        let before = compiled(scanner.rules()).len();
        let _ = scanner.secret_spans("secret scan", None);
        assert_eq!(compiled(scanner.rules()).len(), before);
    }

    #[test]
    fn bundled_allowlists_and_paths_are_compiled_when_first_needed() {
        let parsed = parse(GITLEAKS_DEFAULT_TOML, Compile::OnFirstUse).unwrap();
        let lazy = |p: &RuleRegex| !p.is_compiled();
        assert!(!parsed.global.is_empty());
        for list in parsed
            .global
            .iter()
            .chain(parsed.rules.iter().flat_map(|r| &r.allowlists))
        {
            assert!(
                list.regexes.iter().chain(&list.paths).all(lazy),
                "{}",
                list.description
            );
        }
        assert!(
            parsed
                .rules
                .iter()
                .filter_map(|r| r.path.as_ref())
                .all(lazy)
        );
        // A configuration's own patterns are compiled at load, so a bad one is reported then.
        let loaded = load_gitleaks_config(
            "[[rules]]\nid = \"own\"\nregex = \"x\"\npath = \"y\"\n[[rules.allowlists]]\nregexes = [\"z\"]\n",
        )
        .unwrap();
        let own = loaded
            .scanner
            .rules()
            .iter()
            .find(|r| r.source_id == "own")
            .unwrap();
        assert!(own.path.as_ref().is_some_and(RuleRegex::is_compiled));
        assert!(own.allowlists[0].regexes.iter().all(RuleRegex::is_compiled));
    }

    #[test]
    fn a_configured_pattern_that_does_not_compile_is_reported_at_load() {
        let loaded = load_gitleaks_config(
            "[[rules]]\nid = \"broken\"\nregex = \"a{99999999}\"\nkeywords = [\"a\"]\n",
        )
        .unwrap();
        assert!(
            loaded
                .problems
                .iter()
                .any(|p| p.rule == "broken" && p.rule_dropped),
            "{:?}",
            loaded.problems
        );
    }
}
