//! The catalog: built-in rule files compiled into the binary, extended by the user's rule files
//! and adjusted by configuration (`disabled_rules`, `rule_priorities`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use regex::RegexSet;

use super::error::RuleError;
use super::glob::Glob;
use super::rule::{Logic, Rule};
use super::spec::RuleFile;
use crate::config::Config;
use crate::diff::{Language, Side};

/// The built-in rule files, one per language family.
const BUILTIN: [(&str, &str); 8] = [
    (
        "rust.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/rust.toml"
        )),
    ),
    (
        "python.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/python.toml"
        )),
    ),
    (
        "javascript.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/javascript.toml"
        )),
    ),
    (
        "go.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/go.toml"
        )),
    ),
    (
        "java.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/java.toml"
        )),
    ),
    (
        "shell.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/shell.toml"
        )),
    ),
    (
        "docker-yaml.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/docker-yaml.toml"
        )),
    ),
    (
        "any.toml",
        include_str!(concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/assets/rules/any.toml"
        )),
    ),
];

/// An ordered set of rules with unique ids, and the prefilters that make scanning fast.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    rules: Vec<Rule>,
    pub(crate) index: Index,
    notes: Vec<String>,
    disabled: Vec<String>,
    /// `[rules] skip` of the configuration: paths only the security rules read.
    skip: Vec<Glob>,
}

impl Catalog {
    /// A catalog with no rules, to build up from files.
    pub fn empty() -> Catalog {
        Catalog::default()
    }

    /// The rules that ship with review-tui.
    pub fn builtin() -> Catalog {
        let mut catalog = Catalog::empty();
        for (name, text) in BUILTIN {
            // The built-in files are part of the program; `builtin_rule_files_load` proves them.
            catalog
                .add_file(text, &format!("builtin:{name}"))
                .unwrap_or_else(|e| panic!("a built-in rule file is broken: {e}"));
        }
        catalog.reindex();
        catalog
    }

    /// Adds the rules of one TOML rule file. A rule whose id is already in the catalog
    /// replaces it (that is how a user overrides a built-in rule). The file is taken whole or
    /// not at all: on error the catalog is unchanged.
    pub fn extend_from_toml(&mut self, text: &str, origin: &str) -> Result<(), RuleError> {
        self.add_file(text, origin)?;
        self.reindex();
        Ok(())
    }

    fn add_file(&mut self, text: &str, origin: &str) -> Result<(), RuleError> {
        let file: RuleFile = toml::from_str(text).map_err(|e| toml_error(&e, text, origin))?;
        let mut compiled: Vec<Rule> = Vec::with_capacity(file.rule.len());
        for spec in file.rule {
            let rule = Rule::compile(spec, origin)?;
            if compiled.iter().any(|other| other.id == rule.id) {
                return Err(RuleError::field(
                    origin,
                    &rule.id,
                    "id",
                    "defined twice in this file",
                ));
            }
            compiled.push(rule);
        }
        for rule in compiled {
            match self.rules.iter_mut().find(|r| r.id == rule.id) {
                Some(existing) => *existing = rule,
                None => self.rules.push(rule),
            }
        }
        Ok(())
    }

    /// Adds the rules of a rule file on disk; errors name the path.
    pub fn extend_from_file(&mut self, path: &Path) -> Result<(), RuleError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| RuleError::Read {
            path: origin.clone(),
            source,
        })?;
        self.extend_from_toml(&text, &origin)
    }

    /// Applies the configuration: `disabled_rules`, `enabled_rules` and `rule_priorities`
    /// entries name a rule id or end in `/*`, which selects a namespace (`rust/*`) or a triage
    /// category (`maintainability/*`). A rule that ships switched off stays off unless
    /// `enabled_rules` selects it. Entries that select nothing are kept as notes for the coverage.
    pub fn with_overrides(mut self, config: &Config) -> Catalog {
        for selector in &config.enabled_rules {
            if !self.rules.iter().any(|rule| selects(selector, rule)) {
                self.notes
                    .push(format!("enabled_rules: `{selector}` names no rule"));
            }
        }
        for selector in &config.disabled_rules {
            let before = self.rules.len();
            let (off, on): (Vec<Rule>, Vec<Rule>) = std::mem::take(&mut self.rules)
                .into_iter()
                .partition(|rule| selects(selector, rule));
            self.rules = on;
            self.disabled.extend(off.into_iter().map(|rule| rule.id));
            if self.rules.len() == before {
                self.notes
                    .push(format!("disabled_rules: `{selector}` names no rule"));
            }
        }
        // A rule named in `enabled_rules` is asked wherever it applies, whatever the project's
        // own lint configuration says.
        for rule in &mut self.rules {
            let named = config
                .enabled_rules
                .iter()
                .any(|selector| selects(selector, rule));
            if let Logic::Line(logic) = &mut rule.logic
                && named
            {
                logic.asked_by.clear();
                logic.house_marker = None;
            }
        }
        // After `disabled_rules`, so disabling a rule that ships off is not "names no rule".
        let (off, on): (Vec<Rule>, Vec<Rule>) = std::mem::take(&mut self.rules)
            .into_iter()
            .partition(|rule| {
                !rule.enabled_by_default
                    && !config
                        .enabled_rules
                        .iter()
                        .any(|selector| selects(selector, rule))
            });
        self.rules = on;
        self.disabled.extend(off.into_iter().map(|rule| rule.id));
        for pattern in &config.skip_paths {
            match Glob::new(pattern) {
                Ok(glob) => self.skip.push(glob),
                Err(reason) => self.notes.push(format!(
                    "rules skip: `{pattern}` is not a valid glob ({reason})"
                )),
            }
        }
        for (selector, priority) in &config.rule_priorities {
            let mut matched = false;
            for rule in self.rules.iter_mut().filter(|rule| selects(selector, rule)) {
                rule.meta.priority = *priority;
                matched = true;
            }
            if !matched {
                self.notes
                    .push(format!("rule_priorities: `{selector}` names no rule"));
            }
        }
        self.reindex();
        self
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn get(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|rule| rule.id == id)
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Rules switched off by [`Catalog::with_overrides`].
    pub fn disabled(&self) -> &[String] {
        &self.disabled
    }

    /// The configured paths that only the security rules read.
    pub(crate) fn skip_globs(&self) -> &[Glob] {
        &self.skip
    }

    /// Remarks about the configuration (overrides that matched nothing).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    fn reindex(&mut self) {
        self.index = Index::build(&self.rules);
    }
}

fn selects(selector: &str, rule: &Rule) -> bool {
    match selector.trim().strip_suffix("/*") {
        Some(prefix) => {
            rule.id
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('/'))
                || rule.meta.category.as_str() == prefix
        }
        None => rule.id == selector.trim(),
    }
}

/// Per language and side, one `RegexSet` of the line rules that could apply: a line is read
/// once by the set instead of once per rule, and only the rules it matched are evaluated.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    prefilters: HashMap<(Language, Side), Prefilter>,
    /// Rules that match across two lines: the set cannot prefilter them.
    pub joined: Vec<usize>,
}

#[derive(Debug, Clone)]
pub(crate) struct Prefilter {
    /// Compiled on first use, once for every language sharing it: a review compiles the sets
    /// of the languages its diff holds, not all of them (compiling every set was a large part
    /// of a small PR's review). `None` inside when the set could not be built (too big):
    /// every rule is then tried.
    set: Arc<OnceLock<Option<RegexSet>>>,
    patterns: Arc<Vec<String>>,
    rules: Vec<usize>,
}

impl Prefilter {
    fn build(rules: &[Rule], members: Vec<usize>) -> Prefilter {
        let patterns = members
            .iter()
            .filter_map(|&i| match &rules[i].logic {
                Logic::Line(line) => Some(line.pattern.as_str().to_string()),
                Logic::File(_) => None,
            })
            .collect();
        Prefilter {
            set: Arc::new(OnceLock::new()),
            patterns: Arc::new(patterns),
            rules: members,
        }
    }

    /// Indices (into the catalog) of the rules whose pattern matches `text`.
    pub(crate) fn candidates(&self, text: &str) -> Vec<usize> {
        let set = self
            .set
            .get_or_init(|| RegexSet::new(self.patterns.iter()).ok());
        match set {
            Some(set) if self.rules.len() > 1 => {
                set.matches(text).iter().map(|i| self.rules[i]).collect()
            }
            _ => self.rules.clone(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}

impl Index {
    fn build(rules: &[Rule]) -> Index {
        let mut index = Index::default();
        for (i, rule) in rules.iter().enumerate() {
            if let Logic::Line(line) = &rule.logic
                && line.join_next
            {
                index.joined.push(i);
            }
        }
        // Many languages share the same rules (only the cross-language ones): build each
        // distinct set once.
        let mut built: HashMap<Vec<usize>, Prefilter> = HashMap::new();
        for language in Language::ALL {
            for side in [Side::Left, Side::Right] {
                let members: Vec<usize> = rules
                    .iter()
                    .enumerate()
                    .filter(|(_, rule)| rule.side == side && rule.target.admits_language(language))
                    .filter(|(_, rule)| matches!(&rule.logic, Logic::Line(line) if !line.join_next))
                    .map(|(i, _)| i)
                    .collect();
                let prefilter = built
                    .entry(members.clone())
                    .or_insert_with(|| Prefilter::build(rules, members))
                    .clone();
                index.prefilters.insert((language, side), prefilter);
            }
        }
        index
    }

    pub(crate) fn prefilter(&self, language: Language, side: Side) -> Option<&Prefilter> {
        self.prefilters.get(&(language, side))
    }
}

/// Turns a TOML error into one that names the rule and the field, found from the error's
/// position: the nearest `[[rule]]` table above it and the key on its line.
fn toml_error(error: &toml::de::Error, text: &str, origin: &str) -> RuleError {
    let reason = error.message().trim().to_string();
    let Some(span) = error.span() else {
        return RuleError::File {
            origin: origin.to_string(),
            reason,
        };
    };
    let before = &text[..span.start.min(text.len())];
    let line_number = before.matches('\n').count() + 1;
    let origin = format!("{origin}:{line_number}");
    let Some(table_start) = before.rfind("[[rule]]") else {
        return RuleError::File { origin, reason };
    };
    let rule = text[table_start..]
        .lines()
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .find_map(|line| {
            let (key, value) = line.split_once('=')?;
            (key.trim() == "id").then(|| value.trim().trim_matches(['"', '\'']).to_string())
        })
        .unwrap_or_else(|| "(no id)".to_string());
    let at = span.start.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let field = backticked_after(&reason, "field")
        .or_else(|| {
            let (key, _) = text[line_start..line_end].split_once('=')?;
            Some(key.trim().to_string())
        })
        .unwrap_or_else(|| "(unknown)".to_string());
    RuleError::Field {
        origin,
        rule,
        field,
        reason,
    }
}

/// `unknown field `patern`` → `patern`.
fn backticked_after(message: &str, word: &str) -> Option<String> {
    let rest = &message[message.find(word)? + word.len()..];
    let start = rest.find('`')? + 1;
    let end = start + rest[start..].find('`')?;
    Some(rest[start..end].to_string())
}
