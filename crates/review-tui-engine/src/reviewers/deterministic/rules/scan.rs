//! Running the catalog over a diff: file rules on every file, line rules on the added (RIGHT)
//! and, for LEFT rules, removed lines of the files worth reading.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use super::catalog::Catalog;
use super::checks::{Check, CheckContext, file_name, first_changed_line};
use super::constant_command::{assigned_from_constants, built_from_constants};
use super::coverage::{CappedRule, Coverage, SkipReason, SkippedFile, skip_reason};
use super::finding::{Location, as_sample_note, node};
use super::go_results::GoResults;
use super::house::{Asked, House, asks_anyway};
use super::line_facts::LineFacts;
use super::printer::in_printer;
use super::repo::Repo;
use super::rule::{LineLogic, Logic};
use super::samples::Samples;
use super::seen_before::SeenBefore;
use super::spec::ContextScope;
use super::sql_builder::{builds_sql, reads_outside_input};
use super::sql_tag::tagged_by_sql;
use super::statement::statement_at;
use super::syntax::{CodeAt, Syntax};
use super::unsafe_before::UnsafeBefore;
use crate::diff::{
    CodeLexer, Diff, FileDiff, FileStatus, Hunk, Language, Line, LineKind, LineStart, Side,
    is_test_path,
};
use crate::review::fingerprint::{normalize_code, normalize_line};
use crate::review::node::{Category, ReviewNode};

#[derive(Debug, Clone, PartialEq)]
pub struct ScanOptions {
    /// Findings of one rule in one file beyond this are counted in the coverage, not listed,
    /// so a generated or pasted file cannot flood the findings.
    pub max_findings_per_rule_per_file: usize,
    /// Files adding more lines than this are not read line by line.
    pub max_added_lines_per_file: usize,
    /// Read vendored and generated files too.
    pub scan_generated: bool,
    /// Every path in the head revision, when known. Checks that need to know whether a file
    /// exists outside the diff (is there a lock file?) stay silent without it.
    pub repo_files: Option<BTreeSet<String>>,
    /// The worktree at the head: line rules read each changed file whole to know which lines
    /// are test code or comments (a hunk may start inside either). Without it, the hunks.
    pub worktree: Option<PathBuf>,
    /// The change's author is a bot account.
    pub author_is_bot: bool,
    /// The change's title (a PR's, or a range's head commit subject): what it says it is.
    pub title: String,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            max_findings_per_rule_per_file: 20,
            max_added_lines_per_file: 20_000,
            scan_generated: false,
            repo_files: None,
            worktree: None,
            author_is_bot: false,
            title: String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScanResult {
    /// In diff order: by file, then by line.
    pub nodes: Vec<ReviewNode>,
    pub coverage: Coverage,
}

impl Catalog {
    pub fn scan(&self, diff: &Diff, options: &ScanOptions) -> ScanResult {
        let mut scan = Scan {
            catalog: self,
            options,
            nodes: Vec::new(),
            coverage: Coverage {
                rules_run: self.len(),
                rules_disabled: self.disabled().to_vec(),
                notes: self.notes().to_vec(),
                ..Coverage::default()
            },
            moved: MovedLines::new(diff),
            imported: super::coverage::imported_roots(diff),
            folds: Vec::new(),
            repeats: HashMap::new(),
            seen_before: SeenBefore::default(),
            go_results: GoResults::default(),
            house: House::default(),
            unsafe_before: UnsafeBefore::default(),
            samples: Samples::new(diff, repo(options)),
            manifests: diff
                .files
                .iter()
                .filter(|f| file_name(&f.path) == "package.json")
                .map(|f| (f.path.as_str(), f))
                .collect(),
        };
        if options.repo_files.is_none()
            && let Some(rule) = self
                .rules()
                .iter()
                .find(|rule| matches!(&rule.logic, Logic::File(check) if check.needs_repo_files()))
        {
            scan.coverage.notes.push(format!(
                "{} did not run: it needs the repository's file list",
                rule.id
            ));
        }
        let context = CheckContext {
            diff,
            repo_files: options.repo_files.as_ref(),
            worktree: options.worktree.as_deref(),
            head_tests: Default::default(),
            whole_diff: Default::default(),
            author_is_bot: options.author_is_bot,
            title: &options.title,
        };
        for file in &diff.files {
            scan.file(file, &context);
        }
        scan.unread_code(diff);
        scan.write_folds();
        scan.write_repeats();
        scan.write_quiet();
        ScanResult {
            nodes: scan.nodes,
            coverage: scan.coverage,
        }
    }
}

struct Scan<'a> {
    catalog: &'a Catalog,
    options: &'a ScanOptions,
    nodes: Vec<ReviewNode>,
    coverage: Coverage,
    moved: MovedLines<'a>,
    /// Directories the change imports whole from another repository: read as vendored.
    imported: Vec<String>,
    /// The first finding of each folding rule, and what folded into it.
    folds: Vec<Fold>,
    /// What the rules with `seen_before` found before the change.
    seen_before: SeenBefore,
    /// The repository's Go signatures, for rules about what a `_` drops.
    go_results: GoResults,
    /// What the project asks of the rules that stand for an opt-in lint.
    house: House,
    /// What was unsafe before the change, for the rules about `unsafe` blocks.
    unsafe_before: UnsafeBefore,
    /// Which files are sample code no package ships.
    samples: Samples<'a>,
    /// The package manifests the change touches, by path: what a package says it is counts
    /// as it was before the change too.
    manifests: HashMap<&'a str, &'a FileDiff>,
    /// Each line rule's findings by the code they quote: the node of the first, and where the
    /// same code was found again in the change.
    repeats: HashMap<(usize, String), (usize, Vec<String>)>,
}

/// A folding rule's first finding in the change and the hits that joined it: one decision
/// (a feature's 24 tests removed with it) is one finding naming the count, not 24.
struct Fold {
    rule: usize,
    /// Where its node is in `Scan::nodes`.
    node_at: usize,
    path: String,
    hit: super::checks::Hit,
    /// The details of the hits folded in, in diff order.
    details: Vec<String>,
    /// The other files they are in.
    files: BTreeSet<String>,
}

/// How many folded findings' details the one finding quotes.
const FOLD_QUOTED: usize = 3;

impl<'a> Scan<'a> {
    fn file(&mut self, file: &'a FileDiff, context: &CheckContext<'_>) {
        let rules = self.catalog.rules();
        let applies: Vec<bool> = rules
            .iter()
            .map(|rule| rule.applies_to(&file.path, file.language))
            .collect();
        let mut counts = Counts::default();

        for (i, rule) in rules.iter().enumerate() {
            let Logic::File(check) = &rule.logic else {
                continue;
            };
            if !applies[i] || (rule.skip_tests && self.test_material(file)) {
                continue;
            }
            for hit in check.run(file, context) {
                if rule.fold && self.fold(i, &file.path, &hit) {
                    continue;
                }
                if rule.fold || counts.admit(i, self.cap(file)) {
                    let code = [hit.code.as_str()];
                    let code: &[&str] = if hit.code.is_empty() { &[] } else { &code };
                    let mut found = node(
                        rule,
                        &Location {
                            path: &file.path,
                            lines: hit.line.map(|(side, n)| (side, n, n)),
                            code,
                            detail: &hit.detail,
                        },
                    );
                    if rule.skip_tests && !rule.fold && self.samples.sample_code(&file.path) {
                        as_sample_note(&mut found);
                    }
                    self.nodes.push(found);
                    if rule.fold {
                        self.folds.push(Fold {
                            rule: i,
                            node_at: self.nodes.len() - 1,
                            path: file.path.clone(),
                            hit,
                            details: Vec::new(),
                            files: BTreeSet::new(),
                        });
                    }
                }
            }
        }

        match skip_reason(
            file,
            self.options.max_added_lines_per_file,
            self.options.scan_generated,
            self.catalog.skip_globs(),
            &self.imported,
        ) {
            Some(SkipReason::Binary) => self.coverage.skipped.push(SkippedFile {
                path: file.path.clone(),
                reason: SkipReason::Binary,
                security_rules_read: false,
            }),
            Some(reason) => {
                // What a file is called does not excuse it from the security rules.
                let security: Vec<bool> = rules
                    .iter()
                    .zip(&applies)
                    .map(|(rule, &applies)| applies && rule.meta.category == Category::Security)
                    .collect();
                self.lines(file, &security, &mut counts);
                self.coverage.skipped.push(SkippedFile {
                    path: file.path.clone(),
                    reason,
                    security_rules_read: true,
                });
            }
            None => {
                self.coverage.files_scanned += 1;
                self.lines(file, &applies, &mut counts);
            }
        }

        for (i, (found, kept)) in counts.over_cap() {
            self.coverage.capped.push(CappedRule {
                rule: rules[i].id.clone(),
                path: file.path.clone(),
                found,
                kept,
            });
        }
    }

    /// Whether a file rule that skips tests skips `file`: test material by its path, as the
    /// lines of a line rule are (see `LineFacts`), so no check keeps a notion of it of its own;
    /// but a Dockerfile a workflow publishes ships, whatever its folder is called.
    fn test_material(&self, file: &FileDiff) -> bool {
        is_test_path(&file.path)
            && !(file.language == Language::Dockerfile
                && super::published::published_image(repo(self.options), &file.path))
    }

    /// Joins `hit` to the rule's first finding in the change, if there is one yet.
    fn fold(&mut self, rule: usize, path: &str, hit: &super::checks::Hit) -> bool {
        let Some(fold) = self.folds.iter_mut().find(|f| f.rule == rule) else {
            return false;
        };
        fold.details.push(hit.detail.clone());
        if path != fold.path {
            fold.files.insert(path.to_string());
        }
        true
    }

    /// Rewrites each folding rule's first finding to name the others: its detail lists the
    /// first few and the count, and the files they are in.
    fn write_folds(&mut self) {
        for fold in std::mem::take(&mut self.folds) {
            if fold.details.is_empty() {
                continue;
            }
            let rule = &self.catalog.rules()[fold.rule];
            let total = fold.details.len() + 1;
            let quoted: Vec<&str> = std::iter::once(fold.hit.detail.as_str())
                .chain(fold.details.iter().map(String::as_str))
                .filter(|d| !d.is_empty())
                .take(FOLD_QUOTED)
                .collect();
            let more = total - quoted.len();
            let files = fold.files.len() + 1;
            let mut detail = quoted.join(", ");
            if more > 0 {
                detail.push_str(&format!(" and {more} more"));
            }
            detail.push_str(&format!(
                " ({total} in this change, in {files} file{})",
                if files == 1 { "" } else { "s" }
            ));
            let code = [fold.hit.code.as_str()];
            let code: &[&str] = if fold.hit.code.is_empty() { &[] } else { &code };
            let mut folded = node(
                rule,
                &Location {
                    path: &fold.path,
                    lines: fold.hit.line.map(|(side, n)| (side, n, n)),
                    code,
                    detail: &detail,
                },
            );
            // A template without `{detail}` still says how many this one stands for.
            if !rule.meta.evidence.contains("{detail}") {
                folded.text.evidence =
                    format!("{} ({total} like it in this change)", folded.text.evidence);
            }
            self.nodes[fold.node_at] = folded;
        }
    }

    /// Names, in each line finding whose code the change holds again elsewhere, how many and
    /// where.
    fn write_repeats(&mut self) {
        for (node_at, again) in std::mem::take(&mut self.repeats).into_values() {
            if again.is_empty() {
                continue;
            }
            let mut places: Vec<&str> =
                again.iter().take(FOLD_QUOTED).map(String::as_str).collect();
            let more = again.len() - places.len();
            let more_text = format!("and {more} more");
            if more > 0 {
                places.push(&more_text);
            }
            let evidence = &mut self.nodes[node_at].text.evidence;
            *evidence = format!(
                "{evidence} (the same code {} more time{} in this change: {})",
                again.len(),
                if again.len() == 1 { "" } else { "s" },
                places.join(", ")
            );
        }
    }

    /// Says, for each rule that stood for an opt-in lint the project does not ask for, how
    /// many matches it left quiet and how to ask for them.
    fn write_quiet(&mut self) {
        let rules = self.catalog.rules();
        let mut quiet: Vec<(usize, usize)> = self.house.quiet.drain().collect();
        quiet.sort_unstable();
        for (i, count) in quiet {
            let rule = &rules[i];
            let Logic::Line(logic) = &rule.logic else {
                continue;
            };
            let lints: Vec<String> = logic.asked_by.iter().map(|c| c.display()).collect();
            self.coverage.notes.push(format!(
                "{} stayed quiet on {count} line{}: the project does not ask for it ({} is not \
                 enabled in its lint configuration{}); `[rules] enable = [\"{}\"]` asks it",
                rule.id,
                if count == 1 { "" } else { "s" },
                lints.join(", "),
                if logic.house_marker.is_some() {
                    ", nor do the file's other matches follow that convention"
                } else {
                    ""
                },
                rule.id
            ));
        }
    }

    /// When every changed code file was skipped, the rules read none of the change's code:
    /// say so as a finding (P1 in the catalog, so the verdict holds) rather than report a clean
    /// scan of nothing.
    fn unread_code(&mut self, diff: &Diff) {
        let Some(rule) = self
            .catalog
            .rules()
            .iter()
            .find(|rule| matches!(rule.logic, Logic::File(Check::UnreadCode)))
        else {
            return;
        };
        let code: Vec<&FileDiff> = diff
            .files
            .iter()
            .filter(|f| !f.binary && is_code(f.language))
            .collect();
        let skipped = |path: &str| self.coverage.skipped.iter().find(|s| s.path == path);
        if code.is_empty() || code.iter().any(|f| skipped(&f.path).is_none()) {
            return;
        }
        let mut listed: Vec<String> = code
            .iter()
            .take(5)
            .filter_map(|f| skipped(&f.path))
            .map(|s| format!("{} ({})", s.path, s.reason))
            .collect();
        if code.len() > 5 {
            listed.push(format!("and {} more", code.len() - 5));
        }
        let detail = format!(
            "{} changed code file(s), all skipped: {}",
            code.len(),
            listed.join(", ")
        );
        let first = code[0];
        self.nodes.push(node(
            rule,
            &Location {
                path: &first.path,
                lines: first_changed_line(first).map(|(side, n)| (side, n, n)),
                code: &[],
                detail: &detail,
            },
        ));
    }

    /// A deleted file's removed tests are one question, not one per test.
    fn cap(&self, file: &FileDiff) -> usize {
        if file.hunks.iter().all(|h| h.new_count == 0) && file.deletions > 0 {
            1
        } else {
            self.options.max_findings_per_rule_per_file
        }
    }

    fn lines(&mut self, file: &'a FileDiff, applies: &[bool], counts: &mut Counts) {
        let catalog = self.catalog;
        let rules = catalog.rules();
        let right = catalog
            .index
            .prefilter(file.language, Side::Right)
            .filter(|p| !p.is_empty());
        let left = catalog
            .index
            .prefilter(file.language, Side::Left)
            .filter(|p| !p.is_empty());
        let joined: Vec<usize> = catalog
            .index
            .joined
            .iter()
            .copied()
            .filter(|&i| applies[i])
            .collect();
        if right.is_none() && left.is_none() && joined.is_empty() {
            return;
        }
        let cap = self.cap(file);
        let facts = LineFacts::new(file, self.options.worktree.as_deref());
        let syntax = Syntax::new(file, self.options.worktree.as_deref());
        let library = OnceCell::new();
        let sample = OnceCell::new();
        let unreleased = OnceCell::new();
        let sql_builder = OnceCell::new();
        let head_text = OnceCell::new();
        let file_text = SideTexts::default();
        // The line's index among all the lines of the file's hunks, for its facts.
        let mut index = 0;
        // A line and the next, for the rules that read them joined.
        let mut pair = String::new();
        for hunk in &file.hunks {
            let hunk_text = SideTexts::default();
            let rewrapped = OnceCell::new();
            let rewrapped_code = OnceCell::new();
            for (at, line) in hunk.lines.iter().enumerate() {
                let line_index = index;
                index += 1;
                let (side, number, prefilter) = match line.kind {
                    LineKind::Context => continue,
                    LineKind::Added => (Side::Right, line.new_line, right),
                    LineKind::Removed => (Side::Left, line.old_line, left),
                };
                let Some(number) = number else { continue };
                self.coverage.lines_scanned += 1;
                let mut candidates = prefilter.map_or_else(Vec::new, |p| p.candidates(&line.text));
                candidates.extend(joined.iter().filter(|&&i| rules[i].side == side));
                for i in candidates {
                    let rule = &rules[i];
                    let Logic::Line(logic) = &rule.logic else {
                        continue;
                    };
                    if !applies[i] {
                        continue;
                    }
                    let next = if logic.join_next {
                        next_on_side(hunk, at, side)
                    } else {
                        None
                    };
                    let text = match next {
                        Some(next) => {
                            pair.clear();
                            pair.push_str(&line.text);
                            pair.push('\n');
                            pair.push_str(&next.text);
                            pair.as_str()
                        }
                        None => line.text.as_str(),
                    };
                    // A joined rule has had no prefilter: without a match it cannot fire, and
                    // its line's facts need not be read.
                    if logic.join_next && !logic.pattern.is_match(text) {
                        continue;
                    }
                    let here_facts = facts.at(line_index);
                    if (rule.skip_tests && here_facts.in_test)
                        || (logic.skip_strings && here_facts.start.in_string())
                        || (!logic.comments && !here_facts.has_code)
                        || (logic.library_only && !*library.get_or_init(|| self.library_code(file)))
                        || (logic.skip_unreleased
                            && *unreleased.get_or_init(|| self.work_in_progress(file)))
                        || (logic.skip_samples
                            && *sample.get_or_init(|| self.samples.sample_code(&file.path)))
                        || (logic.sql_builder_ok
                            && !reads_outside_input(text)
                            && *sql_builder.get_or_init(|| self.sql_builder_code(file)))
                    {
                        continue;
                    }
                    // Moved-ok rules say nothing of code a run of changes only re-wrapped; a
                    // rule about code, nothing of code whose trailing comment alone changed.
                    if logic.moved_ok
                        && if logic.comments {
                            rewrapped.get_or_init(|| rewrapped_lines(hunk, None))[at]
                        } else {
                            rewrapped_code
                                .get_or_init(|| rewrapped_lines(hunk, Some(file.language)))[at]
                        }
                    {
                        continue;
                    }
                    let here = LineAt {
                        file,
                        hunk,
                        at,
                        line,
                        next,
                        side,
                        start: here_facts.start,
                    };
                    let texts = Texts {
                        file: &file_text,
                        hunk: &hunk_text,
                        syntax: &syntax,
                    };
                    if !self.fires(logic, &here, text, &texts)
                        || self.held_before(i, logic, text)
                        || !self.drops_wanted(logic, text)
                        || (logic.reach && !self.reaches(file, side, number, &head_text))
                        || (logic.set_var_ok && self.var_set(logic, file, number, text, &head_text))
                        || self.restated_unsafe(logic, file, line)
                    {
                        continue;
                    }
                    if !(self.asked_anyway(logic, file, line, text)
                        || self.asked(i, logic, file, number))
                    {
                        continue;
                    }
                    self.record(i, &here, number, cap, counts);
                }
            }
        }
    }

    /// Records a line rule's finding at `here` (line `number`), unless the rule folds it into
    /// an earlier one or the file has had its share of the rule's findings.
    fn record(
        &mut self,
        i: usize,
        here: &LineAt<'a>,
        number: u32,
        cap: usize,
        counts: &mut Counts,
    ) {
        let catalog = self.catalog;
        let rule = &catalog.rules()[i];
        let (file, line, next, side) = (here.file, here.line, here.next, here.side);
        let code: Vec<&str> = std::iter::once(line.text.as_str())
            .chain(next.map(|n| n.text.as_str()))
            .collect();
        // One decision, one finding, for a rule that says so (`fold = true`): the
        // same code again in the change (a line pasted into two jobs of a workflow,
        // one `Deref` body in seven guards) joins the first finding, which names
        // where else it is. Other rules keep each identical line its own problem,
        // with its own comment that matches itself in later rounds.
        let key = (i, normalize_code(&code));
        if rule.fold
            && let Some((_, again)) = self.repeats.get_mut(&key)
        {
            again.push(format!("{}:{number}", file.path));
            return;
        }
        if !counts.admit(i, cap) {
            return;
        }
        let end = next.map_or(number, |_| number + 1);
        if rule.fold {
            self.repeats.insert(key, (self.nodes.len(), Vec::new()));
        }
        let mut found = node(
            rule,
            &Location {
                path: &file.path,
                lines: Some((side, number, end)),
                code: &code,
                detail: "",
            },
        );
        if rule.skip_tests && self.samples.sample_code(&file.path) {
            as_sample_note(&mut found);
        }
        self.nodes.push(found);
    }

    /// Whether the file is library code by its package's targets (see
    /// [`crate::api::scope::rust_library_code`]); for JavaScript and TypeScript, whether it is
    /// not a command or script the package runs (see
    /// [`crate::api::scope::script_library_code`]); for Python, whether it lies outside an
    /// in-tree build backend (see [`super::build_backend`]); library code when that cannot be
    /// known (no worktree, no manifest, a language without one read here).
    fn library_code(&self, file: &FileDiff) -> bool {
        let Some(root) = self.options.worktree.as_deref() else {
            return true;
        };
        if file.language == Language::Python {
            return !super::build_backend::in_build_backend(root, &file.path);
        }
        let read = |path: &str| read_text(root, path);
        match file.language {
            Language::Rust => crate::api::scope::rust_library_code(&file.path, &read),
            Language::JavaScript | Language::TypeScript => {
                crate::api::scope::script_library_code(&file.path, &read)
            }
            _ => None,
        }
        .unwrap_or(true)
    }

    /// Whether the file is library code of a package whose own manifest says it builds or
    /// drives SQL, and said so before the change (see [`super::sql_builder`]); no when the
    /// manifest cannot be read, or the change adds it.
    fn sql_builder_code(&self, file: &FileDiff) -> bool {
        let Some(root) = self.options.worktree.as_deref() else {
            return false;
        };
        let read = |path: &str| read_text(root, path);
        let said_before = |path: &str, head: &str| match self.manifests.get(path) {
            None => true,
            Some(changed) if changed.status == FileStatus::Added => false,
            Some(changed) => builds_sql(&crate::diff::old_side(changed, head).text),
        };
        matches!(file.language, Language::JavaScript | Language::TypeScript)
            && crate::api::scope::script_manifest(&file.path, &read)
                .is_some_and(|(path, text)| builds_sql(&text) && said_before(&path, &text))
            && self.library_code(file)
    }

    /// Whether the file belongs to a package nobody receives yet (see
    /// [`crate::api::scope::rust_work_in_progress`]); no when its manifest cannot be read.
    fn work_in_progress(&self, file: &FileDiff) -> bool {
        let Some(root) = self.options.worktree.as_deref() else {
            return false;
        };
        let read = |path: &str| read_text(root, path);
        file.language == Language::Rust
            && crate::api::scope::rust_work_in_progress(&file.path, &read).unwrap_or(false)
    }

    /// Whether the project asks the rule of this line: always, unless the rule stands for an
    /// opt-in lint (see [`super::house`]).
    fn asked(&mut self, i: usize, logic: &LineLogic, file: &FileDiff, number: u32) -> bool {
        logic.asked_by.is_empty()
            || self.house.asks(
                &Asked {
                    index: i,
                    counterparts: &logic.asked_by,
                    pattern: &logic.pattern,
                    marker: logic.house_marker.as_ref(),
                },
                repo(self.options),
                file,
                number,
            )
    }

    /// Whether the workflow job holding the line reaches a secret or a writing token (see
    /// [`super::workflow_reach`]); yes when the head file cannot be read.
    fn reaches(
        &self,
        file: &FileDiff,
        side: Side,
        number: u32,
        head_text: &OnceCell<Option<String>>,
    ) -> bool {
        if side != Side::Right {
            return true;
        }
        self.head_text(file, head_text)
            .is_none_or(|text| super::workflow_reach::job_reaches(text, number))
    }

    /// The file at the head, read once per file; None without a worktree or when unreadable.
    fn head_text<'t>(
        &self,
        file: &FileDiff,
        head_text: &'t OnceCell<Option<String>>,
    ) -> Option<&'t str> {
        head_text
            .get_or_init(|| {
                let root = self.options.worktree.as_deref()?;
                crate::space::worktree_file::read(root, &file.path)
                    .ok()
                    .and_then(|bytes| String::from_utf8(bytes).ok())
            })
            .as_deref()
    }

    /// Whether the shell variable the match names (the pattern's `var` group) is set non-empty
    /// on every path to the line (see [`super::shell_set`]), read in the head file, or in an
    /// added file's diff, which is all of it. No when neither is there.
    fn var_set(
        &self,
        logic: &LineLogic,
        file: &FileDiff,
        number: u32,
        text: &str,
        head_text: &OnceCell<Option<String>>,
    ) -> bool {
        let Some(name) = logic.pattern.captures(text).and_then(|c| c.name("var")) else {
            return false;
        };
        let added;
        let whole = match self.head_text(file, head_text) {
            Some(text) => text,
            None if file.status == FileStatus::Added => {
                added = new_side_text(file);
                added.as_str()
            }
            None => return false,
        };
        super::shell_set::set_on_every_path(
            whole,
            file.language,
            &file.path,
            number as usize,
            name.as_str(),
        )
    }

    /// Whether the `_` of the matched Go assignment drops what the rule is about (its callee
    /// returns that type there); always, for a rule that does not say `drops_result`.
    fn drops_wanted(&mut self, logic: &LineLogic, text: &str) -> bool {
        let Some(wanted) = &logic.drops_result else {
            return true;
        };
        let Some(callee) = logic.pattern.captures(text).and_then(|c| c.name("callee")) else {
            return true;
        };
        self.go_results
            .drops(callee.as_str(), wanted, repo(self.options))
    }

    /// Whether what the match opens holds an operation the rule asks about whatever the house
    /// (`asked_anyway`): read in the whole `unsafe` block for a rule about them, else in the
    /// matched lines.
    fn asked_anyway(
        &mut self,
        logic: &LineLogic,
        file: &FileDiff,
        line: &Line,
        text: &str,
    ) -> bool {
        let Some(anyway) = &logic.asked_anyway else {
            return false;
        };
        let block = (logic.unsafe_restated_ok && line.kind == LineKind::Added)
            .then(|| {
                let number = line.new_line?;
                let found = logic.pattern.find(&line.text)?;
                let block = self.unsafe_before.block_text(
                    self.options.worktree.as_deref(),
                    file,
                    number,
                    found.start(),
                )?;
                // From the start of its line: what the block's value is bound to
                // (`let n: DWORD = unsafe { mem::zeroed() }`) is part of what it does.
                Some(format!("{}{block}", &line.text[..found.start()]))
            })
            .flatten();
        asks_anyway(
            anyway,
            logic.asked_anyway_unless.as_ref(),
            block.as_deref().unwrap_or(text),
        )
    }

    /// Whether the `unsafe` block the line opens only restates unsafe code of the old side.
    fn restated_unsafe(&mut self, logic: &LineLogic, file: &FileDiff, line: &Line) -> bool {
        if !logic.unsafe_restated_ok || line.kind != LineKind::Added {
            return false;
        }
        let (Some(number), Some(found)) = (line.new_line, logic.pattern.find(&line.text)) else {
            return false;
        };
        self.unsafe_before.restates(
            self.moved.diff,
            self.options.worktree.as_deref(),
            file,
            number,
            found.start(),
        )
    }

    /// Whether the match's `subject` was in the repository before the change: not new.
    fn held_before(&mut self, i: usize, logic: &LineLogic, text: &str) -> bool {
        let Some(before) = &logic.seen_before else {
            return false;
        };
        let Some(subject) = logic.pattern.captures(text).and_then(|c| c.name("subject")) else {
            return false;
        };
        let rule = &self.catalog.rules()[i];
        self.seen_before.held(
            i,
            rule,
            before,
            self.moved.diff,
            repo(self.options),
            subject.as_str(),
        )
    }

    /// The rule's conditions beyond the prefilter, cheapest first. `text` is the line, and
    /// the next one after a newline when the rule joins them.
    fn fires(&self, logic: &LineLogic, here: &LineAt<'a>, text: &str, texts: &Texts) -> bool {
        let line = here.line.text.as_str();
        // A joined rule must match starting on this line, or the next line would report it too.
        let found = if logic.strings {
            logic.pattern.find(text)
        } else {
            let quoted = CodeLexer::string_spans(here.file.language, here.start, line);
            logic
                .pattern
                .find_iter(text)
                .find(|m| !quoted.iter().any(|span| span.contains(&m.start())))
        };
        let Some(found) = found else {
            return false;
        };
        if here.next.is_some() && found.start() >= line.len() {
            return false;
        }
        if logic.require.as_ref().is_some_and(|re| !re.is_match(text))
            || logic.forbid.iter().any(|re| re.is_match(text))
        {
            return false;
        }
        // The statement holding the line, for the rules that read it: parsed only now that the
        // line matched.
        let code = CodeAt {
            hunk: here.hunk,
            at: here.at,
            column: found.start(),
            side: here.side,
        };
        let statement = (logic.context == ContextScope::Statement)
            .then(|| statement_at(texts.syntax, code))
            .flatten();
        if statement.as_ref().is_some_and(|s| {
            (logic.import_probe_ok && s.import_probe) || (logic.cleanup_ok && s.cleanup)
        }) {
            return false;
        }
        if logic.printer_ok && in_printer(texts.syntax, code) {
            return false;
        }
        if logic.constant_command_ok {
            // The call's name: where the match starts past what precedes it (`(`, a space).
            let name = found
                .as_str()
                .find(|c: char| c.is_alphanumeric() || c == '_')
                .unwrap_or(0);
            let call = CodeAt {
                column: found.start() + name,
                ..code
            };
            if built_from_constants(texts.syntax, call) {
                return false;
            }
        }
        if logic.constant_value_ok && assigned_from_constants(texts.syntax, code) {
            return false;
        }
        if logic.sql_tag_ok && tagged_by_sql(texts.syntax, code) {
            return false;
        }
        if logic.context_require.is_some() || logic.context_forbid.is_some() {
            let paragraph;
            let context = match logic.context {
                ContextScope::File => texts.file.get(here.side, here.file.hunks.iter()),
                ContextScope::Hunk => texts.hunk.get(here.side, std::iter::once(here.hunk)),
                ContextScope::Statement => match &statement {
                    Some(statement) => statement.text.as_str(),
                    None => {
                        paragraph = paragraph_above(here);
                        paragraph.as_str()
                    }
                },
                ContextScope::Above => {
                    paragraph = paragraph_above(here);
                    paragraph.as_str()
                }
                ContextScope::Enclosing => {
                    paragraph = format!("{}\n{}", enclosing_items(here), paragraph_above(here));
                    paragraph.as_str()
                }
            };
            if logic
                .context_require
                .as_ref()
                .is_some_and(|re| !re.is_match(context))
                || logic
                    .context_forbid
                    .as_ref()
                    .is_some_and(|re| re.is_match(context))
            {
                return false;
            }
        }
        // Moved code: every quoted line reappears on the other side somewhere in the diff.
        let moved = logic.moved_ok
            && self.moved.is_moved(here.side, line)
            && here
                .next
                .is_none_or(|next| self.moved.is_moved(here.side, &next.text));
        // A joined rule's match within its first line (`unsafe {` of a block whose next line is
        // read too) is restated as any one-line match is: rayon #815 rewrote an existing
        // `unsafe { … }` block on one line.
        let restated =
            logic.moved_ok && found.end() <= line.len() && restated(logic, here, found.as_str());
        // Moved and edited: the same match on a line the change takes away elsewhere
        // (`return yaml.load(text)` moved to a new module as `return yaml.load(text) or {}`).
        let carried = logic.moved_ok
            && found.end() <= line.len()
            && carried(logic, self.moved.diff, here.side, line, found.start());
        !moved && !restated && !carried
    }
}

/// For each line of `hunk`, whether the run of changed lines holding it only re-wraps code:
/// its removed and its added lines hold the same text once whitespace is left out (rustfmt
/// splitting `unsafe { self.entries.set_len(0); }` over three lines, http #645), and, given
/// the file's language, trailing line comments too (a linter's fix dropping `# noqa: B902`
/// from `except Exception:`, tenacity #571). Nothing a rule reads was written there. Read
/// once per hunk, on its first candidate line.
fn rewrapped_lines(hunk: &Hunk, code_of: Option<Language>) -> Vec<bool> {
    let mut rewrapped = vec![false; hunk.lines.len()];
    for run in hunk.change_runs() {
        let joined = |kind: LineKind| -> String {
            hunk.lines[run.clone()]
                .iter()
                .filter(|l| l.kind == kind)
                .map(|l| match code_of {
                    Some(language) => CodeLexer::without_line_comment(language, &l.text),
                    None => l.text.as_str(),
                })
                .flat_map(str::chars)
                .filter(|c| !c.is_whitespace())
                .collect()
        };
        let (removed, added) = (joined(LineKind::Removed), joined(LineKind::Added));
        if !removed.is_empty() && removed == added {
            rewrapped[run].fill(true);
        }
    }
    rewrapped
}

/// Whether the hunk's other side already held what the rule matched on this line: code
/// refactored in place (httpx 0.28.1 renamed `ssl_context` to `ctx` in its `verify is False`
/// branch, so `ctx.check_hostname = False` is an old line with a new variable, not a new
/// decision). Counted, so a hunk that adds a second such line still reports it: this line is
/// restated when no more lines above it on its side carry the same match than the other side
/// carries in all.
fn restated(logic: &LineLogic, here: &LineAt, matched: &str) -> bool {
    let wanted = normalize_code(&[matched]);
    let other = match here.side {
        Side::Right => LineKind::Removed,
        Side::Left => LineKind::Added,
    };
    let same_match = |line: &Line| {
        logic
            .pattern
            .find(&line.text)
            .is_some_and(|m| normalize_code(&[m.as_str()]) == wanted)
            && !logic.forbid.iter().any(|re| re.is_match(&line.text))
    };
    let before = here.hunk.lines[..here.at]
        .iter()
        .filter(|line| line.kind == here.line.kind && same_match(line))
        .count();
    let held = here
        .hunk
        .lines
        .iter()
        .filter(|line| line.kind == other && same_match(line))
        .count();
    before < held
}

/// Whether the change takes the matched call away from the other side at least as often as
/// it writes it on this one, across the whole diff: a call carried from one file to another
/// (a function moved to a new module and edited on the way), not a new one. The call is
/// compared with its arguments (`yaml.load(text)`), so the same sink given other input is new.
fn carried(logic: &LineLogic, diff: &Diff, side: Side, line: &str, start: usize) -> bool {
    let wanted = normalize_code(&[call_text(line, start)]);
    let (this, other) = match side {
        Side::Right => (LineKind::Added, LineKind::Removed),
        Side::Left => (LineKind::Removed, LineKind::Added),
    };
    let count = |kind: LineKind| {
        diff.files
            .iter()
            .flat_map(|f| f.hunks.iter())
            .flat_map(|h| h.lines.iter())
            .filter(|candidate| {
                candidate.kind == kind
                    && !logic.forbid.iter().any(|re| re.is_match(&candidate.text))
                    && logic
                        .pattern
                        .find_iter(&candidate.text)
                        .any(|m| normalize_code(&[call_text(&candidate.text, m.start())]) == wanted)
            })
            .count()
    };
    let taken = count(other);
    taken > 0 && taken >= count(this)
}

/// The call a match starting at `start` makes: up to the parenthesis closing the first one
/// opened after it, or the rest of the line when it does not close there.
fn call_text(line: &str, start: usize) -> &str {
    let rest = &line[start..];
    let Some(open) = rest.find('(') else {
        return rest;
    };
    let mut depth = 0usize;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &rest[..open + i + 1];
                }
            }
            _ => {}
        }
    }
    rest
}

struct LineAt<'a> {
    file: &'a FileDiff,
    hunk: &'a Hunk,
    /// The line's index in `hunk.lines`.
    at: usize,
    line: &'a Line,
    next: Option<&'a Line>,
    side: Side,
    /// Where the lexer stood when the line began (see [`CodeLexer::string_spans`]).
    start: LineStart,
}

/// The line and the lines of its side directly above it in the hunk, up to a blank line: the
/// statement's paragraph, where a comment about it is written.
fn paragraph_above(here: &LineAt) -> String {
    let other = match here.side {
        Side::Right => LineKind::Removed,
        Side::Left => LineKind::Added,
    };
    let mut lines: Vec<&str> = vec![here.line.text.as_str()];
    for line in here.hunk.lines[..here.at].iter().rev() {
        if line.kind == other {
            continue;
        }
        if line.text.trim().is_empty() {
            break;
        }
        lines.push(&line.text);
    }
    lines.reverse();
    lines.join("\n")
}

/// The openings of the blocks enclosing the line, as far as the hunk shows them, each with
/// the attribute, decorator and comment lines directly above it, outermost first. An opening
/// is the nearest line above that is less indented than everything between: read by
/// indentation, so it holds in every language that indents its blocks.
fn enclosing_items(here: &LineAt) -> String {
    let other = match here.side {
        Side::Right => LineKind::Removed,
        Side::Left => LineKind::Added,
    };
    let above: Vec<&str> = here.hunk.lines[..here.at]
        .iter()
        .filter(|line| line.kind != other)
        .map(|line| line.text.as_str())
        .collect();
    let indent = |text: &str| text.len() - text.trim_start().len();
    let mut depth = indent(&here.line.text);
    let mut items: Vec<&str> = Vec::new();
    let mut at = above.len();
    while depth > 0 && at > 0 {
        at -= 1;
        let text = above[at];
        if text.trim().is_empty() || indent(text) >= depth {
            continue;
        }
        depth = indent(text);
        let mut item = vec![text];
        // What is written on the opening: its attributes, decorators and doc comments, an
        // attribute spread over lines (`#[cfg(all(` … `))]`) whole.
        loop {
            if at > 0 && is_annotation(above[at - 1]) {
                at -= 1;
                item.push(above[at]);
                continue;
            }
            let opens = (at.saturating_sub(MAX_ATTRIBUTE_LINES)..at)
                .rev()
                .find(|&i| above[i].trim_start().starts_with("#["));
            match opens {
                Some(open) if above[at - 1].trim_end().ends_with(']') => {
                    item.extend(above[open..at].iter().rev());
                    at = open;
                }
                _ => break,
            }
        }
        items.extend(item);
    }
    items.reverse();
    items.join("\n")
}

/// How far up an attribute written over several lines is looked for.
const MAX_ATTRIBUTE_LINES: usize = 8;

/// An attribute, decorator or comment line: what annotates the item below it.
fn is_annotation(text: &str) -> bool {
    let text = text.trim_start();
    ["#[", "#![", "@", "//", "/*", "*", "#"]
        .iter()
        .any(|start| text.starts_with(start))
}

/// The next line of the same side in the hunk: for RIGHT the next added or context line.
fn next_on_side(hunk: &Hunk, at: usize, side: Side) -> Option<&Line> {
    let other = match side {
        Side::Right => LineKind::Removed,
        Side::Left => LineKind::Added,
    };
    hunk.lines[at + 1..].iter().find(|line| line.kind != other)
}

/// What the context of a line may be read in: its side of the file and of the hunk, and the
/// file's syntax tree.
struct Texts<'t, 'f> {
    file: &'t SideTexts,
    hunk: &'t SideTexts,
    syntax: &'t Syntax<'f>,
}

/// The text context rules read, built on first use: one side of the file (or hunk) as the diff
/// shows it, lines joined by newlines.
#[derive(Default)]
struct SideTexts {
    right: OnceCell<String>,
    left: OnceCell<String>,
}

impl SideTexts {
    fn get<'h>(&self, side: Side, hunks: impl Iterator<Item = &'h Hunk>) -> &str {
        let (cell, other) = match side {
            Side::Right => (&self.right, LineKind::Removed),
            Side::Left => (&self.left, LineKind::Added),
        };
        cell.get_or_init(|| {
            let mut text = String::new();
            for line in hunks
                .flat_map(|h| h.lines.iter())
                .filter(|l| l.kind != other)
            {
                text.push_str(&line.text);
                text.push('\n');
            }
            text
        })
    }
}

/// Findings per rule in the current file, and how many went over the cap.
#[derive(Default)]
struct Counts {
    per_rule: HashMap<usize, (usize, usize)>,
}

impl Counts {
    /// Counts a finding; false when the rule already has `cap` in this file.
    fn admit(&mut self, rule: usize, cap: usize) -> bool {
        let (found, kept) = self.per_rule.entry(rule).or_default();
        *found += 1;
        if *kept < cap {
            *kept += 1;
            true
        } else {
            false
        }
    }

    fn over_cap(self) -> Vec<(usize, (usize, usize))> {
        let mut over: Vec<_> = self
            .per_rule
            .into_iter()
            .filter(|(_, (found, kept))| found > kept)
            .collect();
        over.sort_unstable();
        over
    }
}

/// Normalized lines of each side of the whole diff, built on first use: a removed line that
/// reappears as an added line somewhere was moved, not deleted.
struct MovedLines<'a> {
    diff: &'a Diff,
    added: OnceCell<HashSet<Cow<'a, str>>>,
    removed: OnceCell<HashSet<Cow<'a, str>>>,
}

impl<'a> MovedLines<'a> {
    fn new(diff: &'a Diff) -> MovedLines<'a> {
        MovedLines {
            diff,
            added: OnceCell::new(),
            removed: OnceCell::new(),
        }
    }

    /// Whether `text`, found on `side`, appears on the other side anywhere in the diff.
    fn is_moved(&self, side: Side, text: &str) -> bool {
        let (cell, kind) = match side {
            Side::Left => (&self.added, LineKind::Added),
            Side::Right => (&self.removed, LineKind::Removed),
        };
        let set = cell.get_or_init(|| {
            let lines = || {
                self.diff
                    .files
                    .iter()
                    .flat_map(|f| f.hunks.iter())
                    .flat_map(|h| h.lines.iter())
                    .filter(|l| l.kind == kind)
            };
            // Sized once: grown insert by insert, a 100k-line side rehashed it many times.
            let mut set = HashSet::with_capacity(lines().count());
            set.extend(lines().map(|l| normalize_line(&l.text)));
            set
        });
        set.contains(normalize_line(text).as_ref())
    }
}

/// The new side of a file as its hunks show it: all of an added file.
fn new_side_text(file: &FileDiff) -> String {
    let mut text = String::new();
    for line in file
        .hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.kind != LineKind::Removed)
    {
        text.push_str(&line.text);
        text.push('\n');
    }
    text
}

/// Languages whose files are code a rule would read (not prose, data or configuration).
fn is_code(language: Language) -> bool {
    !matches!(
        language,
        Language::Markdown | Language::Yaml | Language::Toml | Language::Json | Language::Other
    )
}

/// Where the repository is read: the head worktree and its file list, when known.
fn repo(options: &ScanOptions) -> Repo<'_> {
    Repo {
        worktree: options.worktree.as_deref(),
        files: options.repo_files.as_ref(),
    }
}

/// The text of the file at `path` in the worktree at `root`, when it is there and UTF-8.
fn read_text(root: &std::path::Path, path: &str) -> Option<String> {
    crate::space::worktree_file::read(root, path)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
}
