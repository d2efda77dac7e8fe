//! The scanner: every rule compiled once, a one-pass keyword prefilter, and matching over runs
//! of consecutive changed lines so multi-line secrets (private keys) are seen whole.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::armour::is_public_label;
use super::builtin::{self, is_patterned_sample, is_placeholder};
use super::checksum::fails_its_checksum;
pub use super::hit::SecretHit;
use super::ignore::IgnoreEntry;
use super::jwt;
use super::mask::{merge_spans, redact_secret, splice};
use super::rule::{Allowlist, Candidate, SecretRule};
use crate::diff::Side;
use crate::diff::{is_sample_path_in, is_test_path};

/// Source files of a language whose literals are quoted: there an unquoted word is a name.
/// (Not shell, YAML, env or config files, where `TOKEN=abc123` is the value itself.)
fn quotes_its_literals(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, extension)| {
        matches!(
            extension,
            "py" | "pyi"
                | "js"
                | "jsx"
                | "mjs"
                | "cjs"
                | "ts"
                | "tsx"
                | "mts"
                | "cts"
                | "go"
                | "rs"
                | "java"
                | "kt"
                | "kts"
                | "scala"
                | "cs"
                | "swift"
                | "rb"
                | "php"
                | "c"
                | "cc"
                | "cpp"
                | "h"
                | "hpp"
                | "dart"
        )
    })
}

/// A line that is a comment in the common languages (`#`, `//`, `/*`, ` * `).
fn is_comment(line: &str) -> bool {
    let line = line.trim_start();
    ["#", "//", "/*", "*", "--"]
        .iter()
        .any(|m| line.starts_with(m))
}

/// A name as code writes one: `Ed25519PrivateKey`, `settings.api_key`.
fn is_identifier(value: &str) -> bool {
    value
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Whether the nearest PEM or PGP armour header above `at` (`-----BEGIN …-----`) opens public
/// material: a certificate, a certificate request or revocation list, a public key, a PGP
/// public key block or signature. A private key's header, or none, is not.
fn public_armour_above(text: &str, at: usize) -> bool {
    let Some(begin) = text[..at].rfind("-----BEGIN ") else {
        return false;
    };
    let label = &text[begin + "-----BEGIN ".len()..];
    let label = &label[..label.find("-----").unwrap_or(label.len()).min(100)];
    if label.contains('\n') {
        return false;
    }
    // A block that ended before `at` says nothing of what follows it.
    if text[begin..at].contains("-----END ") {
        return false;
    }
    is_public_label(label)
}

/// Whether `secret`, found by the rule `source_id` (which refuses placeholders or not), is
/// sample data rather than a credential: for a rule that refuses placeholders, a placeholder
/// anywhere or any value `in_samples` (tests, fixtures, examples, documentation); for a JWT
/// there, a token no real service issued. The one judgement of the built-in scan and of
/// another scanner's report, so installing gitleaks does not bring back what the built-in scan
/// knows for a test vector; redaction asks it with `in_samples` false, so it masks every
/// value but a placeholder.
fn is_sample_data(
    source_id: &str,
    refuses_placeholders: bool,
    in_samples: bool,
    secret: &str,
) -> bool {
    (refuses_placeholders && (in_samples || is_placeholder(secret)))
        || (source_id == "jwt" && in_samples && !jwt::issued_by_a_service(secret))
}

use crate::reviewers::deterministic::scan_input::{ScanFile, ScanLine};

/// A match before it is turned into a hit: byte spans into the scanned text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawMatch {
    pub rule: usize,
    pub secret: (usize, usize),
}

/// Why a text is scanned. A finding can be silenced (`gitleaks:allow`, `.gitleaksignore`, a
/// path allowlist); a redaction cannot: a line marked "not a secret" is still redacted if a
/// rule recognizes one, because over-redacting costs a few characters and a wrong mark costs a
/// credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    Report,
    Redact,
}

/// The marker that silences a finding on its line, as in gitleaks.
pub const GITLEAKS_ALLOW: &str = "gitleaks:allow";

#[derive(Clone)]
pub struct SecretScanner {
    rules: Vec<SecretRule>,
    global: Vec<Allowlist>,
    /// Every distinct keyword, matched ASCII-case-insensitively in one pass over the text (an
    /// Aho-Corasick automaton, as in gitleaks): a rule's regex runs only where one of its
    /// keywords occurs.
    keywords: AhoCorasick,
    /// For each keyword, the rules it unlocks.
    keyword_rules: Vec<Vec<usize>>,
    /// Rules with a regex and no keyword: they always run.
    unconditional: Vec<usize>,
    /// `.gitleaksignore` entries: findings they name are not reported.
    ignored: Vec<IgnoreEntry>,
    /// Files known to hold a private key: any base64 line changed in them is key material.
    key_files: BTreeSet<String>,
    /// Per changed file, the head's lines inside public armour (a certificate, a public key):
    /// base64 changed there is no key material, though the hunk does not show the BEGIN line.
    public_armour: BTreeMap<String, Vec<(u32, u32)>>,
    /// The folders that are Python packages: a folder of examples inside one is the package's
    /// module, not sample code (see [`SecretScanner::holds_samples`]).
    python_packages: BTreeSet<String>,
    /// [`builtin::KEY_BODY_LINES`] compiled, with the index of the rule it reports under.
    key_body: Option<(usize, Regex)>,
    /// The literal values of the secrets found in the change under review: redacted wherever
    /// they appear again, in any shape. A model that read `ADMIN_PASSWORD=hunter2…` and writes
    /// "the password hunter2… is committed" has lost the context every rule needs.
    known: Option<AhoCorasick>,
}

/// The keywords' automaton. A DFA: with gitleaks' ~250 keywords the automatic choice is an
/// NFA, and the one pass over every added line took half the scan; the kinds find the same.
fn keyword_automaton(keywords: &[String], kind: AhoCorasickKind) -> AhoCorasick {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .kind(Some(kind))
        .build(keywords)
        .expect("a few hundred short literals always build")
}

/// A secret value (or one line of a multi-line one) shorter than this is not redacted by value:
/// short strings occur by chance in ordinary text, and rules still catch them in context.
const MIN_KNOWN_LEN: usize = 8;

impl std::fmt::Debug for SecretScanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretScanner")
            .field("rules", &self.rules.len())
            .field("global_allowlists", &self.global.len())
            .finish()
    }
}

/// Evidence keeps this many characters on each side of a secret: enough context to recognize
/// the line, not a whole minified bundle.
const CONTEXT_CHARS: usize = 160;

impl SecretScanner {
    /// The built-in rules only.
    pub fn builtin() -> SecretScanner {
        SecretScanner::new(builtin::rules(), Vec::new())
    }

    pub fn new(rules: Vec<SecretRule>, global: Vec<Allowlist>) -> SecretScanner {
        let mut distinct: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut unconditional = Vec::new();
        for (index, rule) in rules.iter().enumerate() {
            if rule.regex.is_none() {
                continue;
            }
            if rule.keywords.is_empty() {
                unconditional.push(index);
            }
            for keyword in &rule.keywords {
                match distinct.iter().position(|k| k == keyword) {
                    Some(at) => keyword_rules[at].push(index),
                    None => {
                        distinct.push(keyword.clone());
                        keyword_rules.push(vec![index]);
                    }
                }
            }
        }
        let keywords = keyword_automaton(&distinct, AhoCorasickKind::DFA);
        let key_body = rules
            .iter()
            .position(|r| r.source_id == builtin::KEY_BODY_RULE)
            .map(|index| {
                let regex = super::re2::compile(builtin::KEY_BODY_LINES)
                    .expect("the key-body pattern compiles");
                (index, regex)
            });
        SecretScanner {
            rules,
            global,
            keywords,
            keyword_rules,
            unconditional,
            ignored: Vec::new(),
            key_files: BTreeSet::new(),
            public_armour: BTreeMap::new(),
            python_packages: BTreeSet::new(),
            key_body,
            known: None,
        }
    }

    /// The same scanner, also redacting these literal values wherever they occur (see
    /// [`SecretScanner::known_values`]); multi-line values are taken line by line, and the
    /// password of a `user:password` on its own.
    pub fn with_known(mut self, values: impl IntoIterator<Item = String>) -> SecretScanner {
        let mut pieces: Vec<String> = values
            .into_iter()
            .flat_map(|value| {
                // A `user:password` credential is quoted back as the password alone too.
                value
                    .lines()
                    .flat_map(|line| {
                        let line = line.trim();
                        let after_colon = line.rsplit_once(':').map(|(_, pass)| pass);
                        [Some(line), after_colon]
                    })
                    .flatten()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .filter(|piece| piece.chars().count() >= MIN_KNOWN_LEN)
            .collect();
        pieces.sort_unstable();
        pieces.dedup();
        self.known = (!pieces.is_empty()).then(|| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&pieces)
                .expect("literal secrets always build")
        });
        self
    }

    /// The raw values of every secret this scanner recognizes on the changed lines of `files`
    /// (both sides, redaction's reading: allowlist marks do not spare a value). They stay in
    /// memory, for [`SecretScanner::with_known`]; nothing stores or shows them.
    pub fn known_values(&self, files: &[ScanFile<'_>]) -> Vec<String> {
        let mut values = Vec::new();
        for file in files {
            for side in [Side::Right, Side::Left] {
                for run in file.runs(side) {
                    let text = run.iter().map(|l| l.text).collect::<Vec<_>>().join("\n");
                    for (start, end) in self.secret_spans(&text, Some(file.path)) {
                        values.push(text[start..end].to_string());
                    }
                }
            }
        }
        values
    }

    /// Whether the secrets on the added lines `start..=end` of `path` were all on the change's
    /// removed lines of that file already: the change only moved, re-indented or re-wrapped them
    /// (resty #620 re-indents a doc comment holding a sample value), so it leaks nothing the base
    /// did not hold. A rotated key (a new value where the old one was removed) is new.
    pub fn only_moved(&self, files: &[ScanFile<'_>], path: &str, start: u32, end: u32) -> bool {
        let Some(file) = files.iter().find(|f| f.path == path) else {
            return false;
        };
        let values = |side: Side, keep: &dyn Fn(u32) -> bool| {
            let mut values = BTreeSet::new();
            for run in file.runs(side) {
                let run: Vec<&str> = run
                    .iter()
                    .filter(|l| keep(l.line))
                    .map(|l| l.text)
                    .collect();
                let text = run.join("\n");
                for (from, to) in self.secret_spans(&text, Some(path)) {
                    values.insert(text[from..to].to_string());
                }
            }
            values
        };
        let added = values(Side::Right, &|line| (start..=end).contains(&line));
        if added.is_empty() {
            return false;
        }
        let removed = values(Side::Left, &|_| true);
        added.is_subset(&removed)
    }

    /// The same scanner, not reporting what `.gitleaksignore` names.
    pub fn with_ignored(mut self, ignored: Vec<IgnoreEntry>) -> SecretScanner {
        self.ignored = ignored;
        self
    }

    /// The same scanner, treating base64 lines changed in these files as key material (their
    /// head or base holds a private key, whatever their name).
    pub fn with_key_files(mut self, paths: impl IntoIterator<Item = String>) -> SecretScanner {
        self.key_files = paths.into_iter().collect();
        self
    }

    /// The same scanner, knowing which lines of these files lie inside public armour at the
    /// head ([`super::public_armour_lines`] of each file's head text).
    pub fn with_public_armour(
        mut self,
        files: impl IntoIterator<Item = (String, Vec<(u32, u32)>)>,
    ) -> SecretScanner {
        self.public_armour = files.into_iter().collect();
        self
    }

    /// The same scanner, knowing which folders are Python packages (see
    /// [`crate::reviewers::deterministic::rules::python_packages`]).
    pub fn with_python_packages(mut self, packages: BTreeSet<String>) -> SecretScanner {
        self.python_packages = packages;
        self
    }

    /// Tests, fixtures and sample code no package ships ([`is_sample_path_in`]: examples,
    /// benchmarks and documentation, outside every source root and Python package): where
    /// credentials are made up to show or exercise something.
    fn holds_samples(&self, path: &str) -> bool {
        is_test_path(path)
            || is_sample_path_in(path, &|dir: &str| self.python_packages.contains(dir))
    }

    /// Whether the key-body match starting on `line` of `path`'s head lies inside a block the
    /// head's armour names public.
    fn in_public_armour(&self, path: &str, side: Side, line: u32) -> bool {
        side == Side::Right
            && self
                .public_armour
                .get(path)
                .is_some_and(|blocks| blocks.iter().any(|&(a, b)| a <= line && line <= b))
    }

    /// Whether a secret another scanner reported (gitleaks, under its rule id) at `path` is one
    /// this scan leaves out as sample data: a JWT in tests, fixtures, examples or documentation
    /// that no real service issued, or a generic credential there or a placeholder anywhere. The
    /// same judgement for both scanners, so installing gitleaks does not bring back a test
    /// vector the built-in scan knows for one. A value of counting runs
    /// ([`is_patterned_sample`]) is a sample under every rule, and so is a token whose own
    /// checksum fails ([`fails_its_checksum`]): no service issued it. Redaction still masks the value.
    pub(crate) fn is_sample(&self, source_id: &str, path: &str, secret: &str) -> bool {
        // A rule this scanner does not hold is judged as its name says: generic or not.
        let refuses_placeholders = self
            .rules
            .iter()
            .find(|rule| rule.source_id == source_id)
            .map_or(source_id.starts_with("generic"), |rule| {
                rule.refuse_placeholders
            });
        is_patterned_sample(secret)
            || fails_its_checksum(secret)
            || is_sample_data(
                source_id,
                refuses_placeholders,
                self.holds_samples(path),
                secret,
            )
    }

    pub fn rules(&self) -> &[SecretRule] {
        &self.rules
    }

    pub fn global_allowlists(&self) -> &[Allowlist] {
        &self.global
    }

    /// Secrets on the added lines.
    pub fn scan(&self, files: &[ScanFile<'_>]) -> Vec<SecretHit> {
        self.scan_side(files, Side::Right)
    }

    /// Secrets on the lines of one side (removed lines are `Side::Left`).
    pub fn scan_side(&self, files: &[ScanFile<'_>], side: Side) -> Vec<SecretHit> {
        let mut hits = Vec::new();
        for file in files {
            let runs = file.runs(side);
            if let Some(first) = runs.first().and_then(|run| run.first()) {
                hits.extend(self.path_only_hits(first));
            }
            for run in runs {
                hits.extend(self.scan_run(&run));
            }
        }
        hits.retain(|hit| !self.ignored.iter().any(|entry| entry.silences(hit)));
        hits
    }

    /// Rules with a path and no regex flag the file itself (a `.p12` keystore being added).
    fn path_only_hits(&self, first: &ScanLine<'_>) -> Vec<SecretHit> {
        self.rules
            .iter()
            .filter(|rule| rule.regex.is_none())
            .filter(|rule| {
                rule.path
                    .as_ref()
                    .is_some_and(|p| p.regex().is_match(first.path))
            })
            .filter(|rule| {
                let candidate = Candidate {
                    path: Some(first.path),
                    secret: "",
                    matched: "",
                    line: "",
                };
                !self.allowed(rule, &candidate)
            })
            .map(|rule| SecretHit {
                rule: rule.id.clone(),
                source_id: rule.source_id.clone(),
                label: rule.label.clone(),
                description: rule.description.clone(),
                path: first.path.to_string(),
                side: first.side,
                start_line: first.line,
                end_line: first.line,
                redacted: String::new(),
                evidence: format!("file {} added", first.path),
                confidence: rule.confidence,
            })
            .collect()
    }

    fn scan_run(&self, run: &[ScanLine<'_>]) -> Vec<SecretHit> {
        let Some(first) = run.first() else {
            return Vec::new();
        };
        let text = run.iter().map(|l| l.text).collect::<Vec<_>>().join("\n");
        let mut raws = self.matches_in(&text, Some(first.path), Purpose::Report);
        if self.key_files.contains(first.path)
            && let Some((rule, regex)) = &self.key_body
        {
            raws.extend(
                regex
                    .find_iter(&text)
                    .filter(|m| {
                        m.as_str().trim().len() >= 16 && !public_armour_above(&text, m.start())
                    })
                    .map(|m| {
                        let trimmed = m.as_str().trim_end();
                        RawMatch {
                            rule: *rule,
                            secret: (m.start(), m.start() + trimmed.len()),
                        }
                    }),
            );
        }
        let line_of = |offset: usize| {
            // In bytes: a secret's last byte (`span.1 - 1`) may sit inside a character (a
            // Tamil translation's value, sidekiq's `ta.yml`), where a `str` slice panics.
            let newlines = text.as_bytes()[..offset]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            first.line + newlines as u32
        };
        raws.retain(|raw| {
            self.rules[raw.rule].source_id != builtin::KEY_BODY_RULE
                || !self.in_public_armour(first.path, first.side, line_of(raw.secret.0))
        });
        if raws.is_empty() {
            return Vec::new();
        }
        let merged = merge_spans(raws.iter().map(|r| r.secret).collect());
        // One hit per secret: when several rules match it, the most confident (then the
        // earliest rule) speaks for it. Consolidation would fold them anyway; this keeps the
        // list free of noise it would have to explain.
        let mut best: Vec<Option<RawMatch>> = vec![None; merged.len()];
        for raw in &raws {
            let slot = merged
                .iter()
                .position(|&(s, e)| s <= raw.secret.0 && raw.secret.1 <= e)
                .expect("every span is inside its merge");
            let better = match best[slot] {
                None => true,
                Some(current) => {
                    let (a, b) = (&self.rules[raw.rule], &self.rules[current.rule]);
                    a.confidence > b.confidence
                        || (a.confidence == b.confidence && raw.rule < current.rule)
                }
            };
            if better {
                best[slot] = Some(*raw);
            }
        }
        best.iter()
            .zip(&merged)
            .filter_map(|(raw, &span)| raw.map(|raw| (raw, span)))
            .map(|(raw, span)| {
                let rule = &self.rules[raw.rule];
                SecretHit {
                    rule: rule.id.clone(),
                    source_id: rule.source_id.clone(),
                    label: rule.label.clone(),
                    description: rule.description.clone(),
                    path: first.path.to_string(),
                    side: first.side,
                    start_line: line_of(span.0),
                    end_line: line_of(span.1 - 1),
                    redacted: redact_secret(&text[span.0..span.1]),
                    evidence: evidence(&text, span, &merged),
                    confidence: rule.confidence,
                }
            })
            .collect()
    }

    /// `text` with every secret these rules (and the known values) recognise replaced by its
    /// redaction, and how many were replaced. Callers go through `crate::reviewers::redact`.
    pub fn redact(&self, text: &str) -> (String, usize) {
        let spans = self.secret_spans(text, None);
        (splice(text, &spans), spans.len())
    }

    /// [`SecretScanner::redact`] that keeps the line count: a secret spanning lines (a key
    /// block) becomes its redaction on its first line and leaves the others empty, so line
    /// numbers computed on the original text still point at the same lines.
    pub fn redact_keeping_lines(&self, text: &str) -> (String, usize) {
        let spans = self.secret_spans(text, None);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for &(start, end) in &spans {
            out.push_str(&text[at..start]);
            let secret = &text[start..end];
            out.push_str(&redact_secret(secret));
            for _ in secret.matches('\n') {
                out.push('\n');
            }
            at = end;
        }
        out.push_str(&text[at..]);
        (out, spans.len())
    }

    /// Byte spans of every reported secret in `text`, sorted and merged.
    pub(crate) fn secret_spans(&self, text: &str, path: Option<&str>) -> Vec<(usize, usize)> {
        let mut spans: Vec<(usize, usize)> = self
            .matches_in(text, path, Purpose::Redact)
            .into_iter()
            .map(|r| r.secret)
            .collect();
        if let Some(known) = &self.known {
            spans.extend(known.find_iter(text).map(|m| (m.start(), m.end())));
        }
        merge_spans(spans)
    }

    /// Compiles now what a redaction of `text` will compile (the rules its keywords unlock),
    /// for a thread that has the time before `text` is written: the words every report holds
    /// unlock gitleaks' generic rules, the largest patterns.
    pub fn compile_for(&self, text: &str) {
        let _ = self.matches_in(text, None, Purpose::Redact);
    }

    /// Every rule match in `text` that survives entropy, placeholders and allowlists. With no
    /// path (free text) path-scoped rules run anyway and path allowlists never apply.
    pub(crate) fn matches_in(
        &self,
        text: &str,
        path: Option<&str>,
        purpose: Purpose,
    ) -> Vec<RawMatch> {
        let mut seen = vec![false; self.keyword_rules.len()];
        let mut candidates: Vec<usize> = self.unconditional.clone();
        for hit in self.keywords.find_overlapping_iter(text) {
            let keyword = hit.pattern().as_usize();
            if !std::mem::replace(&mut seen[keyword], true) {
                candidates.extend(&self.keyword_rules[keyword]);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();

        let mut found = Vec::new();
        for index in candidates {
            let rule = &self.rules[index];
            if let (Some(path), Some(scope)) = (path, &rule.path)
                && !scope.regex().is_match(path)
            {
                continue;
            }
            let Some(regex) = &rule.regex else { continue };
            for caps in regex.regex().captures_iter(text) {
                let whole = caps.get(0).expect("group 0 always matches");
                let Some((start, end)) = rule.secret_span(&caps) else {
                    continue;
                };
                let secret = &text[start..end];
                // Test code and fixtures are full of made-up credentials and test vectors, and
                // documentation of sample ones (FastAPI's tutorials show jwt.io's token, loguru's
                // README `WEBHOOK_TOKEN = "abc123def456"`): there only a provider's exact format
                // is reported, never a generic `password = "…"`. Redaction still takes such a
                // value out of what leaves: a real secret pasted into a test is a leak even when
                // it is not a finding.
                // A value of counting runs (`sk_live_abc123def456`) shows a format in any rule,
                // a provider's too; redaction still masks it.
                // Base64 lines under a public armour header (a certificate, a public key, a
                // PGP public key block) are no private key material, whatever the file is
                // called (a project's `KEYS.asc`, a CA bundle in `certs/ca.pem`).
                if purpose == Purpose::Report
                    && rule.source_id == super::builtin::KEY_BODY_RULE
                    && public_armour_above(text, start)
                {
                    continue;
                }
                // Redaction masks sample data too: only a report asks where the value is.
                let in_samples =
                    purpose == Purpose::Report && path.is_some_and(|path| self.holds_samples(path));
                // In code, an unquoted name after a colon or a comma is a type or a value's
                // name, not a literal (pyjwt's `key: Ed25519PrivateKey | Ed448PrivateKey`,
                // `AllowedPrivateKeys: TypeAlias = …` and `Union[RSAPrivateKey,
                // EllipticCurvePrivateKey, …]`). In a comment it may be a pasted value.
                let before = text[..start].trim_end();
                let name_in_code = purpose == Purpose::Report
                    && path.is_some_and(quotes_its_literals)
                    && before.ends_with([':', ','])
                    && !before.ends_with("::")
                    && is_identifier(secret)
                    && !is_comment(full_lines(text, whole.start(), whole.end()));
                if !rule.passes_entropy(secret)
                    || (purpose == Purpose::Report
                        && (is_patterned_sample(secret) || fails_its_checksum(secret)))
                    || is_sample_data(
                        &rule.source_id,
                        rule.refuse_placeholders,
                        in_samples,
                        secret,
                    )
                    || (rule.refuse_placeholders && name_in_code)
                {
                    continue;
                }
                let line = full_lines(text, whole.start(), whole.end());
                if purpose == Purpose::Report
                    && (line.contains(GITLEAKS_ALLOW)
                        || is_module_checksum(full_lines(text, start, end)))
                {
                    continue;
                }
                let candidate = Candidate {
                    path,
                    secret,
                    matched: whole.as_str(),
                    line,
                };
                if !self.allowed(rule, &candidate) {
                    found.push(RawMatch {
                        rule: index,
                        secret: (start, end),
                    });
                }
            }
        }
        found
    }

    fn allowed(&self, rule: &SecretRule, candidate: &Candidate<'_>) -> bool {
        rule.allowlists.iter().any(|a| a.allows(candidate))
            || self
                .global
                .iter()
                .filter(|a| a.applies_to(&rule.source_id))
                .any(|a| a.allows(candidate))
    }
}

/// Whether `line` is a Go checksum line, `module version[/go.mod] h1:<base64 SHA-256>`: a
/// module's hash, whatever file holds it (gitleaks' path allowlist knows `go.sum` only, and a
/// `-modfile` writes `go_test.sum`). A module named like a credential (`nkeys`) puts a keyword
/// before the hash; the line still holds nothing but a path, a version and a hash.
fn is_module_checksum(line: &str) -> bool {
    let mut parts = line.split_whitespace();
    let (Some(module), Some(version), Some(hash), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let digest = hash.strip_prefix("h1:").unwrap_or("");
    module.contains('/')
        && version.starts_with('v')
        && digest.len() == 44
        && digest.ends_with('=')
        && digest[..43]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// The whole lines that contain `start..end`.
fn full_lines(text: &str, start: usize, end: usize) -> &str {
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[end..].find('\n').map_or(text.len(), |i| end + i);
    &text[from..to]
}

/// The anchored lines of `secret` with every secret in them redacted. Long lines keep
/// `CONTEXT_CHARS` on each side of the secret.
pub(crate) fn evidence(text: &str, secret: (usize, usize), all: &[(usize, usize)]) -> String {
    let lines = full_lines(text, secret.0, secret.1);
    let from = lines.as_ptr() as usize - text.as_ptr() as usize;
    let (mut from, mut to) = (from, from + lines.len());
    // Another secret may straddle the region's edge (a key block starting on this line):
    // widen the region to hold it whole, or its middle would be shown as if it were a start.
    loop {
        let (old_from, old_to) = (from, to);
        for &(s, e) in all {
            if s < to && from < e {
                let widened = full_lines(text, s.min(from), e.max(to));
                from = widened.as_ptr() as usize - text.as_ptr() as usize;
                to = from + widened.len();
            }
        }
        if (from, to) == (old_from, old_to) {
            break;
        }
    }
    let shift = |spans: &[(usize, usize)], lo: usize, hi: usize| -> Vec<(usize, usize)> {
        spans
            .iter()
            .filter(|&&(s, e)| lo <= s && e <= hi)
            .map(|&(s, e)| (s - lo, e - lo))
            .collect()
    };
    let before = splice(&text[from..secret.0], &shift(all, from, secret.0));
    let after = splice(&text[secret.1..to], &shift(all, secret.1, to));
    let before = keep_last_chars(&before, CONTEXT_CHARS);
    let after = keep_first_chars(&after, CONTEXT_CHARS);
    format!(
        "{before}{}{after}",
        redact_secret(&text[secret.0..secret.1])
    )
    .trim()
    .to_string()
}

fn keep_last_chars(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    format!("…{}", s.chars().skip(count - n).collect::<String>())
}

fn keep_first_chars(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    format!("{}…", s.chars().take(n).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every keyword of gitleaks' rules and the built-in ones.
    fn keywords() -> Vec<String> {
        let scanner = super::super::default_scanner();
        let mut all: Vec<String> = scanner
            .rules()
            .iter()
            .flat_map(|rule| rule.keywords.iter().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// Both kinds of the keywords' automaton, built once.
    static AUTOMATA: std::sync::LazyLock<(AhoCorasick, AhoCorasick)> =
        std::sync::LazyLock::new(|| {
            let keywords = keywords();
            assert!(keywords.len() > 100, "gitleaks' keywords are there");
            (
                keyword_automaton(&keywords, AhoCorasickKind::DFA),
                keyword_automaton(&keywords, AhoCorasickKind::ContiguousNFA),
            )
        });

    proptest! {
        /// The DFA finds every keyword the automatically chosen automaton (an NFA) found.
        #[test]
        fn the_keyword_dfa_finds_what_the_nfa_found(
            text in "(api|key|token|secret|passw|ord|AKIA|ghp_|xox|sk_|live|-----BEGIN|PRIVATE|Bearer|[a-zA-Z0-9_=:\"' ]{1,3}){0,24}"
        ) {
            let (dfa, nfa) = &*AUTOMATA;
            prop_assert_eq!(dfa.kind(), AhoCorasickKind::DFA);
            let found = |ac: &AhoCorasick| -> Vec<(usize, usize, usize)> {
                ac.find_overlapping_iter(&text)
                    .map(|m| (m.pattern().as_usize(), m.start(), m.end()))
                    .collect()
            };
            prop_assert_eq!(found(dfa), found(nfa));
        }
    }
}
