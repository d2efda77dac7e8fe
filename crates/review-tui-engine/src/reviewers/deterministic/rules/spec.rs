//! The rule file as written: `[[rule]]` tables in TOML. Only shape is checked here; meaning
//! (regexes, globs, languages, categories) is checked when a spec is compiled into a rule.

use serde::Deserialize;

use crate::diff::Side;
use crate::review::node::{Effort, Kind, Priority, Severity};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleFile {
    #[serde(default)]
    pub rule: Vec<RuleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RuleSpec {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub body: String,
    /// Language names (`rust`, `python`, …); empty means every language.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Path globs the file must match; empty means every path.
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    /// A line rule's regex, tried on each added (or, with `side = "LEFT"`, removed) line.
    pub pattern: Option<String>,
    /// A file rule: the name of a check implemented in code.
    pub check: Option<String>,
    pub require: Option<String>,
    #[serde(default)]
    pub forbid: OneOrMany,
    pub context_require: Option<String>,
    pub context_forbid: Option<String>,
    #[serde(default)]
    pub context: ContextScope,
    #[serde(default)]
    pub join_next: bool,
    /// Python: stay quiet where the statement holding the line (`context = "statement"`) is a
    /// `try` whose body only imports and uses what it imported: optional-import feature
    /// detection (see `import_probe`).
    #[serde(default)]
    pub import_probe_ok: bool,
    /// Python: stay quiet where the statement holding the line (`context = "statement"`) is a
    /// `try` of best-effort cleanup (see `best_effort`).
    #[serde(default)]
    pub cleanup_ok: bool,
    /// JavaScript and TypeScript: stay quiet on a line in a function that does nothing but
    /// print, the project's own printer (see `printer`).
    #[serde(default)]
    pub printer_ok: bool,
    /// JavaScript, TypeScript and Python: stay quiet where the command the matched call runs
    /// is built from constants only, read in the file's syntax tree (see `constant_command`).
    #[serde(default)]
    pub constant_command_ok: bool,
    /// JavaScript and TypeScript: stay quiet where the value the matched assignment stores is
    /// built from constants only (`el.innerHTML = SPINNER`, a module's `const` of a literal;
    /// see `constant_command`).
    #[serde(default)]
    pub constant_value_ok: bool,
    /// JavaScript and TypeScript: stay quiet in the library code of a package whose own
    /// manifest says it builds or drives SQL (a query builder, ORM or driver: composing SQL
    /// text is its job), unless the line reads input from outside the program (see
    /// `sql_builder`).
    #[serde(default)]
    pub sql_builder_ok: bool,
    /// JavaScript and TypeScript: stay quiet where the matched template literal is written to
    /// a SQL tag, which binds its values as parameters (`db.sql<Row>\`…${id}\``; see
    /// `sql_tag`).
    #[serde(default)]
    pub sql_tag_ok: bool,
    #[serde(default)]
    pub skip_tests: bool,
    /// Stay quiet in sample code no package ships (see `crate::diff::is_sample_path_in`): an
    /// example or demo program, a benchmark, documentation, whose output is what it shows.
    #[serde(default)]
    pub skip_samples: bool,
    /// Stay quiet on a line that begins inside a string literal opened above: the string's
    /// data (a test's fixture text), not the file's own lines.
    #[serde(default)]
    pub skip_strings: bool,
    /// Only library code: stay quiet in files of a binary, example, bench or build target, as
    /// the file's package manifest says (Rust: the nearest `Cargo.toml` and its targets;
    /// Python: outside a `backend-path` of `pyproject.toml`; JavaScript and TypeScript: not a
    /// `bin` of the nearest `package.json`, nor a file its `scripts` run with Node).
    #[serde(default)]
    pub library_only: bool,
    /// Stay quiet in a package nobody receives yet: unpublished and at a pre-release version
    /// (see `crate::api::scope::rust_work_in_progress`): unfinished by its own word.
    #[serde(default)]
    pub skip_unreleased: bool,
    /// Stay quiet on a line whose code appears on the other side of the diff (moved, not new
    /// or removed). On unless a rule says `moved_ok = false`.
    pub moved_ok: Option<bool>,
    /// A rule about Rust `unsafe` blocks: stay quiet on a block whose every line of code was
    /// unsafe code before the change (see `unsafe_before`): an `unsafe fn`'s body wrapped in
    /// a block, a block split or narrowed, unsafe code moved.
    #[serde(default)]
    pub unsafe_restated_ok: bool,
    /// A regex with a `subject` group, as the pattern has: a match whose subject the
    /// repository already held on a line this regex matches, before the change (an unchanged
    /// file the rule reads, or a context or removed line), is not new (an action the workflows
    /// already take from a branch).
    pub seen_before: Option<String>,
    /// `reach = true` (GitHub workflows): fire only where the job holding the line reaches a
    /// secret or a writing token (see `workflow_reach`); read from the head file.
    #[serde(default)]
    pub reach: bool,
    /// Shell: stay quiet where the variable the pattern's `var` group names holds a non-empty
    /// value on every path to the line, as the script holding it says (see `shell_set`).
    #[serde(default)]
    pub set_var_ok: bool,
    /// Go: the `_` that ends the matched assignment must stand where the callee (the
    /// pattern's `callee` group) returns this type (`error`), read from the callee's signature
    /// (see `go_results`): `block, _ = pem.Decode(key)` drops `rest []byte`, no error.
    pub drops_result: Option<String>,
    /// Read lines inside comments and docstrings too (a rule about comments); by default a
    /// line that holds no code is not read.
    #[serde(default)]
    pub comments: bool,
    /// `strings = false`: a rule about a code construct (`todo!()`, `console.log(`) does not
    /// fire where the match starts inside a string literal, which only quotes the code (a
    /// build probe, a test fixture, a template). On by default: what a string holds (a URL, a
    /// query, a command) is what many rules are about.
    #[serde(default = "enabled_by_default")]
    pub strings: bool,
    pub side: Option<Side>,
    pub kind: Kind,
    pub priority: Priority,
    pub category: String,
    pub severity: Severity,
    pub effort: Effort,
    pub confidence: Option<f64>,
    #[serde(default)]
    pub evidence: String,
    pub impact: String,
    pub verification: String,
    pub fix: Option<String>,
    /// The rule's measured precision, how and on which PRs (documentation: a rule below 70 %
    /// is off by default or P3 advisory until improved).
    #[allow(dead_code)]
    pub precision: Option<String>,
    /// `enabled = false`: off unless the configuration's `[rules] enable` names it (a rule
    /// measured below 70 % that a P3 advisory would still make noise with).
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    /// `fold = true`: the rule's findings in one change are one decision (a feature's tests
    /// removed with it, a batch of fixtures added; for a line rule, the same code written in
    /// several places): reported once, at the first, naming how many there are and where,
    /// rather than once each.
    #[serde(default)]
    pub fold: bool,
    /// The linter rules this rule stands for, `tool:lint` (`clippy:panic`, `eslint:no-console`,
    /// `ruff:T201`): lints their linter keeps opt-in. Set, the rule fires only where the
    /// project asks for it: its lint configuration enables one of them (or `house_marker`
    /// shows the convention), or the configuration's `[rules] enable` names the rule.
    #[serde(default)]
    pub asked_by: Vec<String>,
    /// With `asked_by`: a regex that, found in the paragraph of most of the rule's other
    /// matches in the file, shows the house convention the rule asks for (`// SAFETY:`).
    pub house_marker: Option<String>,
    /// With `asked_by`: a regex that, found in what the match opens (for an
    /// `unsafe_restated_ok` rule the whole `unsafe` block, else the matched lines), makes the
    /// rule fire whatever the house asks: an operation whose soundness is never a matter of
    /// style (`ptr::read` duplicating ownership, `mem::forget`).
    pub asked_anyway: Option<String>,
    /// With `asked_anyway`: a regex read on the line of each of its matches; a match inside
    /// one of this regex's matches is no such operation (`mem::zeroed()` of a C plain-data
    /// type, for which all zero bytes is a valid value).
    pub asked_anyway_unless: Option<String>,
    pub max_lines: Option<usize>,
    pub max_bytes: Option<usize>,
    pub examples: Option<ExamplesSpec>,
}

fn enabled_by_default() -> bool {
    true
}

/// `forbid = "x"` and `forbid = ["x", "y"]` both read naturally; accept both.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl Default for OneOrMany {
    fn default() -> Self {
        OneOrMany::Many(Vec::new())
    }
}

impl OneOrMany {
    pub(crate) fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(one) => vec![one],
            OneOrMany::Many(many) => many,
        }
    }
}

/// What `context_require` and `context_forbid` read: the new side of the whole file as the diff
/// shows it (added and context lines), only of the hunk around the line, or only the line's
/// paragraph (`above`: the line and the lines directly above it up to a blank line, as far as the
/// hunk shows; what a comment justifying *this* statement sits in), or the paragraph and the
/// items enclosing the line (`enclosing`: each block opening less indented above it, with the
/// attributes, decorators and doc comments written directly above that opening: a
/// `#[cfg(docsrs)]` on the `macro_rules!` whose arm holds the line, the doc of the function
/// holding it), or the statement holding the line (`statement`, Python: the innermost compound
/// statement whose clause the line opens or lies in, from the syntax tree of the head file or
/// of the hunk: an `except` handler's whole `try`; the paragraph above where none is found).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContextScope {
    #[default]
    File,
    Hunk,
    Above,
    Enclosing,
    Statement,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExamplesSpec {
    /// The path snippets are placed at, unless an example names its own.
    pub path: Option<String>,
    #[serde(default)]
    pub positive: Vec<ExampleSpec>,
    #[serde(default)]
    pub negative: Vec<ExampleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum ExampleSpec {
    Snippet(String),
    Case(ExampleCase),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExampleCase {
    pub path: Option<String>,
    pub text: Option<String>,
    /// Repeat `text` this many times: large-file examples without a large file.
    pub repeat: Option<usize>,
    /// A whole unified diff, for checks that look at several files.
    pub diff: Option<String>,
    /// The repository's file list to scan the `diff` with.
    pub repo_files: Option<Vec<String>>,
}
