//! The pure review policy at scale: consolidation, disagreements and the verdict over 10k
//! findings from several reviewers on a few hundred files, and the secret scan (gitleaks' default
//! rules plus the built-ins) over a 21k-line and a 6,000-file change.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use review_tui::diff::Side;
use review_tui::review::consolidate;
use review_tui::review::disagreements;
use review_tui::review::*;
use review_tui::review::{VerdictFinding, VerdictInput, decide};
use review_tui::reviewers::deterministic::scan_input::ScanFile;
use review_tui::reviewers::deterministic::secrets::default_scanner;

const NODES: usize = 10_000;
const REVIEWERS: [&str; 5] = ["engineer", "qa", "architect", "rules", "secret scan"];

fn nodes() -> Vec<ReviewNode> {
    (0..NODES)
        .map(|i| {
            let reviewer = REVIEWERS[i % REVIEWERS.len()];
            let source = if reviewer == "rules" || reviewer == "secret scan" {
                Source::Deterministic
            } else {
                Source::Model
            };
            let line = (i / 7 % 400) as u32 + 1;
            let mut node = ReviewNode::from_draft(
                format!("n{i}"),
                Origin {
                    reviewer: reviewer.into(),
                    source,
                },
                NodeDraft {
                    reasoning: String::new(),
                    kind: if i % 3 == 0 {
                        Kind::Suggestion
                    } else {
                        Kind::Bug
                    },
                    priority: Priority::ALL[i % 4],
                    triage: Triage {
                        category: Category::KNOWN[i % 8].clone(),
                        severity: Severity::Medium,
                        effort: Effort::Small,
                    },
                    rule: (i % 2 == 0).then(|| format!("rust/rule-{}", i % 13)),
                    anchor: Some(Anchor {
                        path: review_tui::repo_path::RepoPath::parse(&format!(
                            "src/module_{}.rs",
                            i % 300
                        ))
                        .unwrap(),
                        side: Side::Right,
                        start_line: line,
                        end_line: line + (i % 3) as u32,
                    }),
                    text: NodeText {
                        title: format!("finding {i}"),
                        evidence: "evidence".into(),
                        impact: "impact".into(),
                        verification: "verify".into(),
                        ..NodeText::default()
                    },
                    fix: None,
                    confidence: (i % 10) as f64 / 10.0,
                    scope: Scope::InScope,
                },
            );
            node.fingerprint = format!("{:016x}", (i % 9_000) * 2_654_435_761);
            node
        })
        .collect()
}

fn policy(c: &mut Criterion) {
    let nodes = nodes();
    let mut group = c.benchmark_group("review_policy_10k");
    group.throughput(Throughput::Elements(NODES as u64));
    group.bench_function("consolidate", |b| b.iter(|| consolidate(black_box(&nodes))));
    group.bench_function("disagreements", |b| {
        b.iter(|| disagreements(black_box(&nodes)))
    });
    group.bench_function("verdict", |b| {
        b.iter(|| {
            decide(black_box(&VerdictInput {
                findings: nodes.iter().map(VerdictFinding::from).collect(),
                ..VerdictInput::default()
            }))
        })
    });
    group.finish();
}

/// `files` files of `lines` added lines each, a few holding secrets, as in a large PR.
fn changed_files(files: usize, lines: usize) -> Vec<(String, Vec<String>)> {
    (0..files)
        .map(|f| {
            let lines = (0..lines)
                .map(|i| match (f * lines + i) % 997 {
                    0 => format!("    let key = \"AKIAZ4DEMQ7Q2LXWRT{:02}\";", i % 100),
                    1 => "    password = \"hunter2-but-much-longer-7Hq2\"".to_string(),
                    2 => format!("    let api_token = config.get(\"token_{i}\")?;"),
                    _ => format!("    let value_{i} = compute(&state, {f}).map_err(Error::from)?;"),
                })
                .collect();
            (format!("src/file_{f}.rs"), lines)
        })
        .collect()
}

fn secret_scan(c: &mut Criterion) {
    // The default set: gitleaks' 222 rules plus the built-ins, behind the keyword prefilter.
    let scanner = default_scanner();
    let mut group = c.benchmark_group("secret_scan");
    for (name, files, lines) in [("added_lines_21k", 475, 45), ("files_6000", 6_000, 12)] {
        let texts = changed_files(files, lines);
        let scan: Vec<ScanFile<'_>> = texts
            .iter()
            .map(|(path, lines)| {
                let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
                ScanFile::added(path, 1, &refs)
            })
            .collect();
        group.throughput(Throughput::Elements((files * lines) as u64));
        group.bench_function(name, |b| b.iter(|| scanner.scan(black_box(&scan))));
    }
    group.finish();
}

criterion_group!(benches, policy, secret_scan);
criterion_main!(benches);
