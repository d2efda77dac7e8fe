//! The secret scan measured against gitleaks' own rule test cases: the true and false positives
//! its rule generators define (`cmd/generate/config/rules/*.go`), extracted by
//! `scripts/gitleaks-cases.py` into `tests/fixtures/secrets/gitleaks-cases.json`. Each case is
//! reviewed as its own added file through the default scan (gitleaks' default rules plus the
//! built-ins), as a pull request adding it would be.
//!
//! gitleaks checks each case against the one rule it was written for; here every rule runs. Two
//! false-positive figures follow: *strict*, any finding on a false-positive case; and *for the
//! rule*, a finding by the case's own rule or by a generic rule (one that claims a secret without
//! a specific format). A rule's false positives are often another format's true positives (a
//! Cloudflare global key is a false positive of the origin-CA rule, a JWT in a curl header one of
//! the curl rule): a specific rule of that other format finding it is right.

use std::collections::BTreeMap;

use review_tui::reviewers::deterministic::scan_input::ScanFile;
use review_tui::reviewers::deterministic::secrets::default_scanner;

use crate::support::tokens::holds_a_failing_checksum;

/// What the default scan must reach. The figures measured are printed by the test and stated in
/// docs/dev/measurements.md ("The secret scan").
const MIN_RECALL: f64 = 0.98;
const MAX_FALSE_POSITIVES: f64 = 0.05;
/// Strict false positives, as measured (see the module comment).
const MAX_STRICT_FALSE_POSITIVES: f64 = 0.10;

/// Rules that claim a secret without a specific format.
fn is_generic(rule: &str) -> bool {
    let name = rule.trim_start_matches("secret/");
    name.starts_with("generic") || name == "config-password" || name == "private-key-body"
}

struct Case {
    rule: String,
    tp: bool,
    path: Option<String>,
    text: String,
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text.bytes().filter(|&b| b != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)) << (18 - 6 * i);
        }
        let produced = chunk.len() * 6 / 8;
        for i in 0..produced {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/secrets/gitleaks-cases.json"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the corpus is there"))
            .expect("the corpus is JSON");
    json["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|case| Case {
            rule: case["rule"].as_str().expect("rule").to_string(),
            tp: case["kind"] == "tp",
            path: case["path"].as_str().map(str::to_string),
            text: String::from_utf8(decode_base64(case["text_b64"].as_str().expect("text")))
                .expect("UTF-8 text"),
        })
        .collect()
}

#[test]
fn the_default_scan_finds_gitleaks_true_positives_and_spares_its_false_positives() {
    let cases = cases();
    assert!(cases.len() > 6_000, "{} cases", cases.len());
    let scanner = default_scanner();
    // (found, total) per rule and kind.
    let mut tp: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut fp: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut missed = Vec::new();
    let mut flagged = Vec::new();
    let mut for_the_rule = 0usize;
    let mut never_issued = 0usize;
    for (n, case) in cases.iter().enumerate() {
        // One file per case; a neutral name unless the generator gave one (path rules).
        let path = case
            .path
            .clone()
            .unwrap_or_else(|| format!("corpus/case-{n}.txt"));
        let lines: Vec<&str> = case.text.split('\n').collect();
        let hits = scanner.scan(&[ScanFile::added(&path, 1, &lines)]);
        // gitleaks' generator draws a GitHub or npm token's 36 characters at random, so its
        // checksum fails: no service issued it, and the scan spares it. Counted apart.
        if case.tp && holds_a_failing_checksum(&case.text) {
            never_issued += 1;
            assert!(hits.is_empty(), "#{n} {}: {:?}", case.rule, hits[0].rule);
            continue;
        }
        let entry = if case.tp { &mut tp } else { &mut fp }
            .entry(case.rule.as_str())
            .or_default();
        entry.1 += 1;
        if !hits.is_empty() {
            entry.0 += 1;
        }
        if case.tp && hits.is_empty() {
            missed.push(format!("{} #{n}", case.rule));
        }
        if !case.tp && !hits.is_empty() {
            flagged.push(format!("{} #{n} by {}", case.rule, hits[0].rule));
            let own = format!("secret/{}", case.rule);
            if hits.iter().any(|h| h.rule == own || is_generic(&h.rule)) {
                for_the_rule += 1;
            }
        }
    }
    let sum = |m: &BTreeMap<&str, (usize, usize)>| {
        m.values().fold((0, 0), |(a, b), (x, y)| (a + x, b + y))
    };
    let (found, tps) = sum(&tp);
    let (wrong, fps) = sum(&fp);
    let recall = found as f64 / tps as f64;
    let strict = wrong as f64 / fps as f64;
    let false_positives = for_the_rule as f64 / fps as f64;
    eprintln!(
        "gitleaks corpus: recall {found}/{tps} = {:.1} %, false positives for the rule \
         {for_the_rule}/{fps} = {:.1} %, strict {wrong}/{fps} = {:.1} %",
        recall * 100.0,
        false_positives * 100.0,
        strict * 100.0
    );
    eprintln!("missed: {missed:?}");
    eprintln!("true positives never issued (their own checksum fails), spared: {never_issued}");
    eprintln!("flagged: {flagged:?}");
    assert!(recall >= MIN_RECALL, "recall {recall:.3}");
    assert!(
        false_positives <= MAX_FALSE_POSITIVES,
        "false positives for the rule {false_positives:.3}"
    );
    assert!(
        strict <= MAX_STRICT_FALSE_POSITIVES,
        "strict false positives {strict:.3}"
    );
}
