//! A compiled secret rule and the allowlists that silence it, with gitleaks' semantics: the
//! rule's regex finds a candidate, a capture group picks the secret out of the match, then an
//! entropy floor and the allowlists decide whether it is reported.

use std::sync::{Arc, OnceLock};

use regex::Regex;

use super::entropy::shannon;

/// Which text an allowlist's regexes are tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RegexTarget {
    /// The secret alone (gitleaks' default).
    #[default]
    Secret,
    /// The whole regex match.
    Match,
    /// The full line(s) the match sits on.
    Line,
}

/// How an allowlist's criteria combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Condition {
    /// Any criterion allows the finding.
    #[default]
    Or,
    /// Every criterion the allowlist sets must hold.
    And,
}

#[derive(Debug, Clone, Default)]
pub struct Allowlist {
    pub description: String,
    pub condition: Condition,
    pub regex_target: RegexTarget,
    pub regexes: Vec<RuleRegex>,
    pub paths: Vec<RuleRegex>,
    /// Lowercase; a secret containing one is allowed.
    pub stopwords: Vec<String>,
    /// Commit hashes cannot be checked against a diff's lines: a commit-only allowlist never
    /// allows, and under `AND` a commit criterion makes the whole allowlist never allow. A
    /// finding reported once too often is better than a secret hidden by an unverifiable rule.
    pub has_commits: bool,
    /// For global allowlists: the rule ids (gitleaks' own ids) it applies to; empty = all.
    pub target_rules: Vec<String>,
}

/// What an allowlist is asked about one candidate.
pub struct Candidate<'a> {
    /// `None` when redacting free text that belongs to no file.
    pub path: Option<&'a str>,
    pub secret: &'a str,
    pub matched: &'a str,
    pub line: &'a str,
}

impl Allowlist {
    pub fn applies_to(&self, rule_source_id: &str) -> bool {
        self.target_rules.is_empty() || self.target_rules.iter().any(|r| r == rule_source_id)
    }

    pub fn path_allowed(&self, path: &str) -> bool {
        self.paths.iter().any(|re| re.regex().is_match(path))
    }

    pub fn allows(&self, candidate: &Candidate<'_>) -> bool {
        let target = match self.regex_target {
            RegexTarget::Secret => candidate.secret,
            RegexTarget::Match => candidate.matched,
            RegexTarget::Line => candidate.line,
        };
        let regex = self.regexes.iter().any(|re| re.regex().is_match(target));
        let lower = candidate.secret.to_lowercase();
        let stopword = self.stopwords.iter().any(|w| lower.contains(w.as_str()));
        let path = candidate.path.is_some_and(|p| self.path_allowed(p));
        match self.condition {
            Condition::Or => regex || stopword || path,
            Condition::And => {
                let sets_something = !self.regexes.is_empty()
                    || !self.stopwords.is_empty()
                    || !self.paths.is_empty();
                sets_something
                    && !self.has_commits
                    && (self.regexes.is_empty() || regex)
                    && (self.stopwords.is_empty() || stopword)
                    && (self.paths.is_empty() || path)
            }
        }
    }
}

/// A rule's regex, path or allowlist pattern. Compiling gitleaks' few hundred default patterns
/// is most of a small PR's secret scan, and a rule's regex only runs where one of its keywords
/// occurs (its path and allowlists only where it found a candidate), so the bundled and
/// built-in patterns (which a test compiles, every one) are compiled the first time a scan
/// needs them: the first redaction of a PR's title, on the way to its checkout, compiled 85
/// allowlist patterns (50 ms) that a small PR never used. A configuration's own patterns are
/// compiled when it is loaded, so a bad one is reported then, with the rule's name.
#[derive(Debug, Clone)]
pub struct RuleRegex {
    /// The pattern in the `regex` crate's dialect (see `re2::translate`).
    pattern: Arc<str>,
    compiled: Arc<OnceLock<Regex>>,
}

impl RuleRegex {
    /// A pattern compiled already.
    pub fn compiled(regex: Regex) -> RuleRegex {
        RuleRegex {
            pattern: regex.as_str().into(),
            compiled: Arc::new(OnceLock::from(regex)),
        }
    }

    /// A translated pattern known to compile (a bundled one), compiled on first use.
    pub(super) fn deferred(translated: String) -> RuleRegex {
        RuleRegex {
            pattern: translated.into(),
            compiled: Arc::new(OnceLock::new()),
        }
    }

    /// The compiled regex. Clones share it: a rule compiled by one scan is compiled for all.
    pub fn regex(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            super::re2::compile_translated(&self.pattern).unwrap_or_else(|e| {
                panic!("bundled secret pattern {} is invalid: {e}", self.pattern)
            })
        })
    }

    #[cfg(test)]
    pub(super) fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// The translated pattern: what identifies the rule's regex without compiling it.
    pub fn as_str(&self) -> &str {
        &self.pattern
    }
}

/// Which capture group holds the secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretGroup {
    /// The first capture group that matched, or the whole match when there is none.
    FirstNonEmpty,
    Index(usize),
}

#[derive(Debug, Clone)]
pub struct SecretRule {
    /// Our rule id: `secret/<name>`.
    pub id: String,
    /// The name in its source (the gitleaks id, or the built-in's name), used by `targetRules`.
    pub source_id: String,
    /// Short human name for titles.
    pub label: String,
    pub description: String,
    pub regex: Option<RuleRegex>,
    pub secret_group: SecretGroup,
    /// Findings whose secret has this entropy or less are dropped.
    pub entropy: Option<f64>,
    /// Lowercase; the regex runs only on text containing one of them (none = always runs).
    pub keywords: Vec<String>,
    pub path: Option<RuleRegex>,
    pub tags: Vec<String>,
    pub allowlists: Vec<Allowlist>,
    pub confidence: f64,
    /// Built-in generic assignments also refuse obvious placeholders.
    pub refuse_placeholders: bool,
}

impl SecretRule {
    /// The secret's span inside the text, if the captures yield one.
    pub fn secret_span(&self, caps: &regex::Captures<'_>) -> Option<(usize, usize)> {
        let group = match self.secret_group {
            SecretGroup::Index(n) => caps.get(n),
            SecretGroup::FirstNonEmpty => caps
                .iter()
                .skip(1)
                .flatten()
                .find(|m| !m.is_empty())
                .or_else(|| caps.get(0)),
        }?;
        (!group.is_empty()).then_some((group.start(), group.end()))
    }

    /// Entropy floor and gitleaks' rule that a generic secret must contain a digit.
    pub fn passes_entropy(&self, secret: &str) -> bool {
        let Some(floor) = self.entropy else {
            return true;
        };
        if shannon(secret) <= floor {
            return false;
        }
        !self.source_id.starts_with("generic") || secret.chars().any(|c| c.is_ascii_digit())
    }
}
