//! A compiled rule: the spec's regexes and globs built once, its metadata checked.

use regex::Regex;

use super::checks::Check;
use super::counterpart::Counterpart;
use super::error::RuleError;
use super::glob::{self, Glob};
use super::spec::{ContextScope, ExampleSpec, ExamplesSpec, RuleSpec};
use crate::diff::{Language, Side};
use crate::review::node::{Category, Effort, Kind, Priority, Severity};
use crate::review::validate::{MAX_TITLE_CHARS, is_rule_id};

/// Precise rules (a pattern with little room for doubt) say so with this; heuristics set less.
pub const DEFAULT_CONFIDENCE: f64 = 0.9;

/// The triage categories a rule may file its findings under (DESIGN §4).
pub const RULE_CATEGORIES: [Category; 8] = [
    Category::Security,
    Category::Stability,
    Category::Correctness,
    Category::Performance,
    Category::Maintainability,
    Category::Compatibility,
    Category::Tests,
    Category::Docs,
];

/// One rule of the catalog.
#[derive(Debug, Clone)]
pub struct Rule {
    /// `namespace/name`, e.g. `rust/unwrap-outside-tests`. The namespace groups rules for
    /// `disable = ["rust/*"]`; the triage category is `meta.category`.
    pub id: String,
    /// The file the rule came from (`builtin:rust.toml`, or a user's path).
    pub origin: String,
    /// RIGHT rules read added lines; LEFT rules read removed lines.
    pub side: Side,
    /// Off unless the configuration enables it (`enabled = false` in its file).
    pub enabled_by_default: bool,
    /// The rule's findings in one change fold into one naming their count (`fold = true`).
    pub fold: bool,
    /// Stay quiet in test material: for a line rule, test paths and Rust code after
    /// `#[cfg(test)]`/`mod tests`; for a file rule, a file at a test path. Decided for both in
    /// the scan, so no check keeps its own notion of test material.
    pub skip_tests: bool,
    pub meta: RuleMeta,
    pub(crate) target: Target,
    pub(crate) logic: Logic,
    pub(crate) examples: Examples,
}

/// What a finding of the rule says and how it is triaged.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleMeta {
    pub title: String,
    pub body: String,
    pub kind: Kind,
    pub priority: Priority,
    pub category: Category,
    pub severity: Severity,
    pub effort: Effort,
    pub confidence: f64,
    /// May contain `{line}` (the matched code), `{path}` and `{detail}` (a file check's facts).
    pub evidence: String,
    pub impact: String,
    pub verification: String,
    /// A fix prompt, when the fix is mechanical enough to describe.
    pub fix: Option<String>,
}

impl Rule {
    pub fn is_file_rule(&self) -> bool {
        matches!(self.logic, Logic::File(_))
    }

    /// Whether the rule looks at a file with this path and language at all.
    pub fn applies_to(&self, path: &str, language: Language) -> bool {
        self.target.applies(path, language)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub languages: Vec<Language>,
    pub include: Vec<Glob>,
    pub exclude: Vec<Glob>,
}

impl Target {
    pub(crate) fn applies(&self, path: &str, language: Language) -> bool {
        (self.languages.is_empty() || self.languages.contains(&language))
            && (self.include.is_empty() || glob::any_matches(&self.include, path))
            && !glob::any_matches(&self.exclude, path)
    }

    /// Whether a file of `language` can ever match, whatever its path.
    pub(crate) fn admits_language(&self, language: Language) -> bool {
        self.languages.is_empty() || self.languages.contains(&language)
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Logic {
    // Boxed: a line rule's regexes outweigh a file check many times over.
    Line(Box<LineLogic>),
    File(Check),
}

#[derive(Debug, Clone)]
pub(crate) struct LineLogic {
    pub pattern: Regex,
    pub require: Option<Regex>,
    pub forbid: Vec<Regex>,
    pub context_require: Option<Regex>,
    pub context_forbid: Option<Regex>,
    pub context: ContextScope,
    /// Match against the line joined with the next one (`except Exception:` + `pass`); the
    /// match must start on the first line so a finding is not reported twice.
    pub join_next: bool,
    /// Stay quiet where the statement holding the line is optional-import feature detection
    /// (see [`super::import_probe`]).
    pub import_probe_ok: bool,
    /// Stay quiet where the statement holding the line is a `try` of best-effort cleanup
    /// (see [`super::best_effort`]).
    pub cleanup_ok: bool,
    /// Stay quiet on a line in a function that only prints (see [`super::printer`]).
    pub printer_ok: bool,
    /// Stay quiet where the matched call's command is built from constants only (see
    /// [`super::constant_command`]).
    pub constant_command_ok: bool,
    /// Stay quiet where the value the matched assignment stores is built from constants only
    /// (see [`super::constant_command`]).
    pub constant_value_ok: bool,
    /// Stay quiet in a SQL builder's, ORM's or driver's own library code, unless the line
    /// reads outside input (see [`super::sql_builder`]).
    pub sql_builder_ok: bool,
    /// Stay quiet where the matched template is written to a SQL tag (see
    /// [`super::sql_tag`]).
    pub sql_tag_ok: bool,
    /// Stay quiet in sample code no package ships (see [`super::samples`]).
    pub skip_samples: bool,
    /// Stay quiet on a line that begins inside a string literal opened above (see
    /// [`crate::diff::LineStart::in_string`]).
    pub skip_strings: bool,
    /// Stay quiet in a file its package builds into a binary, example, bench or build script,
    /// that is an in-tree build backend (Python's `backend-path`), or that a `package.json`
    /// installs as a command or runs from its `scripts`.
    pub library_only: bool,
    /// Stay quiet in a package its manifest keeps unpublished at a pre-release version.
    pub skip_unreleased: bool,
    /// Stay quiet when the same code is on the other side anywhere in the diff: a block moved
    /// within or between files is neither new (RIGHT) nor lost (LEFT).
    pub moved_ok: bool,
    /// Stay quiet on an `unsafe` block whose code was unsafe before the change (see
    /// [`super::unsafe_before`]).
    pub unsafe_restated_ok: bool,
    /// Stay quiet on a match whose `subject` the repository held before the change on a line
    /// this regex matches (see [`super::seen_before`]).
    pub seen_before: Option<Regex>,
    /// Fire only where the workflow job holding the line reaches a secret or a writing token
    /// (see [`super::workflow_reach`]).
    pub reach: bool,
    /// Stay quiet where the shell variable of the pattern's `var` group is set non-empty on
    /// every path to the line (see [`super::shell_set`]).
    pub set_var_ok: bool,
    /// The type the `_` of a Go assignment must drop (`error`), with the pattern's `callee`
    /// group naming the call (see [`super::go_results`]).
    pub drops_result: Option<String>,
    /// Read lines that hold only comments or docstrings (JSDoc `@example` blocks, Python
    /// docstrings, Rust doc comments); off for every rule about code.
    pub comments: bool,
    /// Fire on a match that starts inside a string literal; off for a rule about a code
    /// construct, which a string only quotes.
    pub strings: bool,
    /// The opt-in lints the rule stands for: when any, it fires only where the project asks
    /// (see [`super::house`]); empty once the configuration enables the rule by name.
    pub asked_by: Vec<Counterpart>,
    /// The house convention's mark on the rule's other matches in the file (see `asked_by`).
    pub house_marker: Option<Regex>,
    /// Found in what the match opens, the rule fires whatever the house asks.
    pub asked_anyway: Option<Regex>,
    /// On an `asked_anyway` match's line, what makes that match no such operation.
    pub asked_anyway_unless: Option<Regex>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Examples {
    pub positive: Vec<Example>,
    pub negative: Vec<Example>,
}

#[derive(Debug, Clone)]
pub(crate) enum Example {
    /// Lines placed in one file at `path` (added, or removed for LEFT rules).
    Snippet { path: String, text: String },
    /// A whole unified diff, and the repository's file list when the check needs one.
    Diff {
        text: String,
        repo_files: Option<Vec<String>>,
    },
}

impl Rule {
    pub(crate) fn compile(mut spec: RuleSpec, origin: &str) -> Result<Rule, RuleError> {
        let id = spec.id.trim().to_string();
        let err = |field: &str, reason: String| RuleError::field(origin, &id, field, reason);
        let (title, category, confidence) = checked_meta(&spec, &id, &err)?;
        let target = compile_target(&spec, &err)?;
        let forbid = std::mem::take(&mut spec.forbid).into_vec();
        let logic = compile_logic(&spec, forbid, &err)?;

        Ok(Rule {
            side: spec.side.unwrap_or(Side::Right),
            enabled_by_default: spec.enabled,
            fold: spec.fold,
            skip_tests: spec.skip_tests,
            examples: compile_examples(spec.examples),
            meta: RuleMeta {
                title,
                body: spec.body.trim().to_string(),
                kind: spec.kind,
                priority: spec.priority,
                category,
                severity: spec.severity,
                effort: spec.effort,
                confidence,
                evidence: spec.evidence.trim().to_string(),
                impact: spec.impact.trim().to_string(),
                verification: spec.verification.trim().to_string(),
                fix: spec.fix.map(|f| f.trim().to_string()),
            },
            id,
            origin: origin.to_string(),
            target,
            logic,
        })
    }
}

/// The spec's id and metadata checked: its title, category and confidence. `err` names the
/// field at fault.
fn checked_meta(
    spec: &RuleSpec,
    id: &str,
    err: &dyn Fn(&str, String) -> RuleError,
) -> Result<(String, Category, f64), RuleError> {
    if !is_rule_id(id) {
        return Err(err(
            "id",
            "must look like `namespace/name` (lowercase letters, digits, `-`, `_`, `.`)".into(),
        ));
    }
    let title = spec.title.trim().to_string();
    if title.is_empty() || title.chars().count() > MAX_TITLE_CHARS {
        return Err(err(
            "title",
            format!("must be 1 to {MAX_TITLE_CHARS} characters"),
        ));
    }
    for (field, text) in [
        ("impact", &spec.impact),
        ("verification", &spec.verification),
    ] {
        if text.trim().is_empty() {
            return Err(err(field, "must not be empty".into()));
        }
    }
    let category = Category::parse(&spec.category);
    if !RULE_CATEGORIES.contains(&category) {
        let names: Vec<&str> = RULE_CATEGORIES.iter().map(Category::as_str).collect();
        return Err(err(
            "category",
            format!(
                "`{}` is not one of {}",
                spec.category.trim(),
                names.join(", ")
            ),
        ));
    }
    let confidence = spec.confidence.unwrap_or(DEFAULT_CONFIDENCE);
    if !(0.0..=1.0).contains(&confidence) {
        return Err(err(
            "confidence",
            format!("must be between 0.0 and 1.0, got {confidence}"),
        ));
    }
    Ok((title, category, confidence))
}

/// The files the rule reads: its languages and path globs.
fn compile_target(
    spec: &RuleSpec,
    err: &dyn Fn(&str, String) -> RuleError,
) -> Result<Target, RuleError> {
    let languages = spec
        .languages
        .iter()
        .map(|name| {
            Language::ALL
                .into_iter()
                .find(|l| l.name() == name.trim().to_ascii_lowercase())
                .ok_or_else(|| {
                    let names: Vec<&str> = Language::ALL.iter().map(|l| l.name()).collect();
                    err(
                        "languages",
                        format!("unknown language `{name}`; known: {}", names.join(", ")),
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let globs = |field: &str, patterns: &[String]| {
        patterns
            .iter()
            .map(|p| Glob::new(p).map_err(|reason| err(field, reason.to_string())))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(Target {
        languages,
        include: globs("paths", &spec.paths)?,
        exclude: globs("exclude", &spec.exclude)?,
    })
}

/// What the rule matches: a line rule (`pattern`, with `forbid` its excluding patterns) or a
/// file rule (`check`), never both, each refusing the other's fields.
fn compile_logic(
    spec: &RuleSpec,
    forbid: Vec<String>,
    err: &dyn Fn(&str, String) -> RuleError,
) -> Result<Logic, RuleError> {
    let regex = |field: &str, text: &str| {
        Regex::new(text).map_err(|e| err(field, format!("invalid regex: {e}")))
    };
    let optional =
        |field: &str, text: &Option<String>| text.as_deref().map(|t| regex(field, t)).transpose();

    let logic = match (&spec.pattern, &spec.check) {
        (Some(_), None) if spec.asked_anyway_unless.is_some() && spec.asked_anyway.is_none() => {
            return Err(err(
                "asked_anyway_unless",
                "narrows `asked_anyway`: it needs `asked_anyway`".into(),
            ));
        }
        (Some(_), None) if spec.asked_anyway.is_some() && spec.asked_by.is_empty() => {
            return Err(err(
                "asked_anyway",
                "overrides what the house asks: it needs `asked_by`".into(),
            ));
        }
        (Some(_), None) if spec.house_marker.is_some() && spec.asked_by.is_empty() => {
            return Err(err(
                "house_marker",
                "shows a convention the rule stands for: it needs `asked_by`".into(),
            ));
        }
        (Some(_), None)
            if (spec.import_probe_ok || spec.cleanup_ok)
                && spec.context != ContextScope::Statement =>
        {
            return Err(err(
                if spec.import_probe_ok {
                    "import_probe_ok"
                } else {
                    "cleanup_ok"
                },
                "reads the statement holding the line: it needs `context = \"statement\"`".into(),
            ));
        }
        (Some(_), None)
            if spec.context == ContextScope::Statement
                && (spec.languages.is_empty()
                    || spec
                        .languages
                        .iter()
                        .any(|l| !l.trim().eq_ignore_ascii_case("python"))) =>
        {
            return Err(err(
                "context",
                "`statement` is read from the Python syntax tree: the rule's `languages` must be \
                 `[\"python\"]`"
                    .into(),
            ));
        }
        (Some(pattern), None) => {
            let forbid = forbid
                .iter()
                .enumerate()
                .map(|(i, text)| regex(&format!("forbid[{i}]"), text))
                .collect::<Result<Vec<_>, _>>()?;
            Logic::Line(Box::new(LineLogic {
                pattern: regex("pattern", pattern)?,
                require: optional("require", &spec.require)?,
                forbid,
                context_require: optional("context_require", &spec.context_require)?,
                context_forbid: optional("context_forbid", &spec.context_forbid)?,
                context: spec.context,
                join_next: spec.join_next,
                import_probe_ok: spec.import_probe_ok,
                cleanup_ok: spec.cleanup_ok,
                printer_ok: spec.printer_ok,
                constant_command_ok: spec.constant_command_ok,
                constant_value_ok: spec.constant_value_ok,
                sql_builder_ok: spec.sql_builder_ok,
                sql_tag_ok: spec.sql_tag_ok,
                skip_samples: spec.skip_samples,
                skip_strings: spec.skip_strings,
                library_only: spec.library_only,
                skip_unreleased: spec.skip_unreleased,
                moved_ok: spec.moved_ok.unwrap_or(true),
                unsafe_restated_ok: spec.unsafe_restated_ok,
                seen_before: subject_regexes(pattern, spec.seen_before.as_deref())
                    .map_err(|(field, reason)| err(field, reason))?,
                reach: spec.reach,
                set_var_ok: match spec.set_var_ok {
                    true if !pattern.contains("(?P<var>") => {
                        return Err(err(
                            "set_var_ok",
                            "needs a `var` group in the pattern naming the variable".into(),
                        ));
                    }
                    set => set,
                },
                drops_result: match &spec.drops_result {
                    Some(_) if !pattern.contains("(?P<callee>") => {
                        return Err(err(
                            "drops_result",
                            "needs a `callee` group in the pattern naming the call".into(),
                        ));
                    }
                    other => other.clone(),
                },
                comments: spec.comments,
                strings: spec.strings,
                asked_by: spec
                    .asked_by
                    .iter()
                    .map(|text| Counterpart::parse(text))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|reason| err("asked_by", reason.to_string()))?,
                house_marker: optional("house_marker", &spec.house_marker)?,
                asked_anyway: optional("asked_anyway", &spec.asked_anyway)?,
                asked_anyway_unless: optional("asked_anyway_unless", &spec.asked_anyway_unless)?,
            }))
        }
        (None, Some(name)) => {
            if let Some(field) = line_only_field(spec, &forbid) {
                return Err(err(field, "applies to line rules (`pattern`) only".into()));
            }
            Logic::File(
                Check::parse(name, spec.max_lines, spec.max_bytes)
                    .map_err(|(field, reason)| err(field, reason))?,
            )
        }
        (Some(_), Some(_)) => {
            return Err(err(
                "check",
                "a rule has either a `pattern` (line rule) or a `check` (file rule), not both"
                    .into(),
            ));
        }
        (None, None) => {
            return Err(err(
                "pattern",
                "missing: a line rule needs a `pattern`, a file rule a `check`".into(),
            ));
        }
    };
    if matches!(logic, Logic::Line(_)) && (spec.max_lines.is_some() || spec.max_bytes.is_some()) {
        return Err(err(
            "max_lines",
            "applies to the `large-file-added` check only".into(),
        ));
    }
    Ok(logic)
}

/// The first field a file rule (`check`) sets that only a line rule reads.
fn line_only_field(spec: &RuleSpec, forbid: &[String]) -> Option<&'static str> {
    [
        ("require", spec.require.is_some()),
        ("context_require", spec.context_require.is_some()),
        ("context_forbid", spec.context_forbid.is_some()),
        ("join_next", spec.join_next),
        ("import_probe_ok", spec.import_probe_ok),
        ("cleanup_ok", spec.cleanup_ok),
        ("printer_ok", spec.printer_ok),
        ("constant_command_ok", spec.constant_command_ok),
        ("constant_value_ok", spec.constant_value_ok),
        ("sql_builder_ok", spec.sql_builder_ok),
        ("sql_tag_ok", spec.sql_tag_ok),
        ("library_only", spec.library_only),
        ("skip_unreleased", spec.skip_unreleased),
        ("skip_samples", spec.skip_samples),
        ("moved_ok", spec.moved_ok.is_some()),
        ("unsafe_restated_ok", spec.unsafe_restated_ok),
        ("seen_before", spec.seen_before.is_some()),
        ("drops_result", spec.drops_result.is_some()),
        ("reach", spec.reach),
        ("set_var_ok", spec.set_var_ok),
        ("comments", spec.comments),
        ("strings", !spec.strings),
        ("side", spec.side.is_some()),
        ("asked_by", !spec.asked_by.is_empty()),
        ("house_marker", spec.house_marker.is_some()),
        ("asked_anyway", spec.asked_anyway.is_some()),
        ("asked_anyway_unless", spec.asked_anyway_unless.is_some()),
        ("forbid", !forbid.is_empty()),
    ]
    .into_iter()
    .find_map(|(field, set)| set.then_some(field))
}

/// `seen_before` compiled, when given: both it and the pattern must name a `subject` group,
/// the thing whose earlier presence makes a match not new.
fn subject_regexes(
    pattern: &str,
    seen_before: Option<&str>,
) -> Result<Option<Regex>, (&'static str, String)> {
    let Some(text) = seen_before else {
        return Ok(None);
    };
    let before = Regex::new(text).map_err(|e| ("seen_before", format!("invalid regex: {e}")))?;
    let names_subject = |re: &Regex| re.capture_names().flatten().any(|n| n == "subject");
    if !names_subject(&before) {
        return Err(("seen_before", "must name a `(?P<subject>…)` group".into()));
    }
    if !Regex::new(pattern).is_ok_and(|re| names_subject(&re)) {
        return Err((
            "pattern",
            "must name a `(?P<subject>…)` group when `seen_before` is set".into(),
        ));
    }
    Ok(Some(before))
}

/// Where snippets go when neither the example nor the rule names a path.
const DEFAULT_EXAMPLE_PATH: &str = "src/example.txt";

fn compile_examples(spec: Option<ExamplesSpec>) -> Examples {
    let spec = spec.unwrap_or_default();
    let default_path = spec.path.unwrap_or_else(|| DEFAULT_EXAMPLE_PATH.into());
    let convert = |examples: Vec<ExampleSpec>| {
        examples
            .into_iter()
            .map(|example| match example {
                ExampleSpec::Snippet(text) => Example::Snippet {
                    path: default_path.clone(),
                    text,
                },
                ExampleSpec::Case(case) => match case.diff {
                    Some(text) => Example::Diff {
                        text,
                        repo_files: case.repo_files,
                    },
                    None => {
                        let text = case.text.unwrap_or_default();
                        let text = match case.repeat {
                            Some(times) => vec![text.as_str(); times].join("\n"),
                            None => text,
                        };
                        Example::Snippet {
                            path: case.path.unwrap_or_else(|| default_path.clone()),
                            text,
                        }
                    }
                },
            })
            .collect()
    };
    Examples {
        positive: convert(spec.positive),
        negative: convert(spec.negative),
    }
}
