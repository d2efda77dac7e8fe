//! The cockpit at scale: one full frame with 10k findings, one frame of the diff view on a
//! 10k-line changed file, and one triage keypress, on a 200×60 `TestBackend`. The state is
//! built the way the app builds it: engine actions through `update`, selection by row key.

use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::hint::black_box;

use review_tui::diff::Side;
use review_tui::review::*;
use review_tui::review::{Axis, AxisVerdict};
use review_tui::review::{EventKind, ReviewEvent, RunId};
use review_tui::space::Ladder;
use review_tui::ui::rows::{self, Row};
use review_tui::ui::state::{CohortView, Overlay, RowKey};
use review_tui::ui::view::{self, ViewContext};
use review_tui::ui::{Action, AppState, Command, Keymap, PrHeader, Report, Theme, update};

const NODES: usize = 10_000;
const MODULES: usize = 300;
/// Modules per cohort; the last few modules belong to no cohort ("other files").
const COHORT_SIZE: usize = 4;
const COHORTS: usize = 60;
const REVIEWERS: [&str; 5] = ["engineer", "qa", "architect", "rules", "secret scan"];
const RUN: RunId = RunId(1);
/// The big changed file of the diff view: 40 hunks of 250 lines.
const BIG: &str = "src/generated/tables.rs";
const HUNKS: usize = 40;
const HUNK_LINES: usize = 250;
const WIDTH: u16 = 200;
const HEIGHT: u16 = 60;

fn module(i: usize) -> String {
    format!("src/module_{i}.rs")
}

/// 10k findings from five reviewers on 300 files and the big file: every priority and kind,
/// confidences from 0 to 0.9 (so a good share falls below the balanced threshold), and about
/// one in ten sharing a fingerprint with another (folded as duplicates).
fn nodes() -> Vec<ReviewNode> {
    (0..NODES)
        .map(|i| {
            let reviewer = REVIEWERS[i % REVIEWERS.len()];
            let source = if reviewer == "rules" || reviewer == "secret scan" {
                Source::Deterministic
            } else {
                Source::Model
            };
            let (path, line) = if i % 20 == 0 {
                // On the big file's added and context lines (see `big_diff`).
                (BIG.to_string(), big_new_line(i / 20 % (HUNKS * HUNK_LINES)))
            } else {
                (module(i % MODULES), (i / 7 % 400) as u32 + 1)
            };
            let mut node = ReviewNode::from_draft(
                format!("n{i}"),
                Origin {
                    reviewer: reviewer.into(),
                    source,
                },
                NodeDraft {
                    reasoning: "Read the caller and the callee before deciding.".into(),
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
                        path: review_tui::repo_path::RepoPath::parse(&path).unwrap(),
                        side: Side::Right,
                        start_line: line,
                        end_line: line + (i % 3) as u32,
                    }),
                    text: NodeText {
                        title: format!("finding {i}: the result of compute() is dropped"),
                        evidence: "`let _ = compute(&state);` discards the error".into(),
                        impact: "Failures pass silently.".into(),
                        verification: "Run the module's tests with a failing compute().".into(),
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

fn cohorts() -> Vec<CohortView> {
    let mut cohorts: Vec<CohortView> = (0..COHORTS)
        .map(|c| {
            let files: Vec<String> = (0..COHORT_SIZE)
                .map(|k| module(c * COHORT_SIZE + k))
                .collect();
            let fallback = c % 7 == 3;
            let symbols: Vec<String> = if fallback {
                Vec::new()
            } else {
                vec![format!("Table{c}"), format!("compute_{c}")]
            };
            let edges = symbols
                .iter()
                .flat_map(|s| {
                    files
                        .windows(2)
                        .map(|w| (w[0].clone(), w[1].clone(), s.clone()))
                })
                .collect();
            CohortView {
                key: format!("c{c}"),
                label: format!("module_{}::Table{c}", c * COHORT_SIZE),
                files,
                fallback,
                blast_radius: (c * 7 % 50) as u32,
                symbols,
                edges,
            }
        })
        .collect();
    cohorts.insert(
        0,
        CohortView {
            key: "c-big".into(),
            label: "generated::tables".into(),
            files: vec![BIG.into()],
            fallback: false,
            blast_radius: 120,
            symbols: vec!["TABLE".into()],
            edges: Vec::new(),
        },
    );
    cohorts
}

/// The new-side number of the `n`-th line of the big file's diff that has one (added or
/// context), so findings land on lines the view marks.
fn big_new_line(n: usize) -> u32 {
    let (hunk, within) = (n / HUNK_LINES, n % HUNK_LINES);
    let start = hunk_start(hunk).1;
    let before = (0..within).filter(|k| k % 5 != 0).count();
    // Line `within` may be a removed one: use the next line with a new number.
    start + before as u32
}

/// (old start, new start) of a hunk: 10 unchanged lines between hunks; each hunk removes 50
/// and adds 50 lines, so both sides advance alike.
fn hunk_start(hunk: usize) -> (u32, u32) {
    let per_hunk = (HUNK_LINES - HUNK_LINES / 5) as u32 + 10;
    let start = 1 + hunk as u32 * per_hunk;
    (start, start)
}

/// A modified Rust file with 10 000 diff lines (40 hunks: context, removed, added), plus one
/// small file so the document has more than one file.
fn big_diff() -> String {
    let mut text = format!(
        "diff --git a/{BIG} b/{BIG}\nindex 1111111..2222222 100644\n--- a/{BIG}\n+++ b/{BIG}\n"
    );
    let kept = HUNK_LINES - HUNK_LINES / 5;
    for hunk in 0..HUNKS {
        let (old, new) = hunk_start(hunk);
        text.push_str(&format!(
            "@@ -{old},{kept} +{new},{kept} @@ pub fn table_{hunk}(input: &[u8]) -> Result<Table, Error> {{\n"
        ));
        for k in 0..HUNK_LINES {
            let marker = match k % 5 {
                0 => '-',
                1 => '+',
                _ => ' ',
            };
            text.push_str(&format!(
                "{marker}    let entry_{hunk}_{k} = Table::lookup(input, {k}).map_err(|e| Error::at({hunk}, e))?;\n"
            ));
        }
    }
    let small = module(0);
    text.push_str(&format!(
        "diff --git a/{small} b/{small}\n--- a/{small}\n+++ b/{small}\n@@ -1,2 +1,3 @@\n fn a() {{}}\n+fn b() {{}}\n fn c() {{}}\n"
    ));
    text
}

/// The big file at head, for the detail pane's code.
fn big_code() -> Vec<String> {
    let lines = hunk_start(HUNKS).1 as usize + 10;
    (0..lines)
        .map(|i| format!("    let entry_{i} = Table::lookup(input, {i}).map_err(Error::from)?;"))
        .collect()
}

fn event(reviewer: &str, kind: EventKind) -> Action {
    Action::Engine(Report::Event(ReviewEvent::new(RUN, reviewer, kind)))
}

/// A finished round awaiting approval, with 10k findings loaded as from a reopened space.
fn cockpit() -> AppState {
    let mut state = AppState::new(
        PrHeader {
            repo: "acme/payments".into(),
            number: "4242".into(),
            title: "Regenerate the lookup tables".into(),
            base: "main".into(),
            head: "tables".into(),
            author: "alice".into(),
        },
        "alice",
    );
    state.now = "2026-11-29T10:00:00Z".into();
    let mut actions = vec![
        Action::Engine(Report::Cohorts(cohorts())),
        Action::Engine(Report::Ladder(Ladder::InProgress)),
        Action::Engine(Report::RunStarted {
            run: RUN,
            round: 1,
            reviewers: REVIEWERS.iter().map(|r| (r.to_string(), true)).collect(),
            deterministic_only: false,
        }),
    ];
    for reviewer in REVIEWERS {
        actions.push(event(reviewer, EventKind::Started { required: true }));
        actions.push(event(
            reviewer,
            EventKind::Done {
                summary: "done".into(),
            },
        ));
    }
    actions.extend([
        Action::Engine(Report::Findings(nodes())),
        Action::Engine(Report::Axes(vec![Axis {
            name: "correctness".into(),
            verdict: AxisVerdict::Fail,
            gated: false,
            detail: String::new(),
        }])),
        Action::Engine(Report::Code {
            path: BIG.into(),
            lines: Arc::new(big_code()),
        }),
        Action::Engine(Report::Diff(Arc::new(
            review_tui::diff::parse(&big_diff()).expect("the generated diff parses"),
        ))),
        Action::Engine(Report::Ladder(Ladder::AwaitingApproval)),
    ]);
    for action in actions {
        update(&mut state, action);
    }
    // Some below-threshold groups unfolded, as a person going through them would leave them.
    for cohort in state.cohorts.iter().step_by(3) {
        state.findings.below_open.insert(cohort.key.clone());
    }
    state
}

fn context() -> ViewContext {
    ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default())
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap()
}

/// Draws one frame and keeps its layout, as the loop does.
fn frame(terminal: &mut Terminal<TestBackend>, state: &mut AppState, cx: &ViewContext) {
    let mut layout = None;
    terminal
        .draw(|frame| layout = Some(view::draw(frame, state, cx)))
        .unwrap();
    state.layout = layout.unwrap();
}

/// The cockpit with a finding in the middle of the list selected (the list scrolled to it).
fn cockpit_mid_list(terminal: &mut Terminal<TestBackend>, cx: &ViewContext) -> AppState {
    let mut state = cockpit();
    frame(terminal, &mut state, cx);
    let visible = rows::rows(&state);
    let middle = visible[visible.len() / 2..]
        .iter()
        .find(|row| matches!(row, Row::Node { .. }))
        .map(Row::key)
        .expect("a finding in the second half of the list");
    state.findings.selected = Some(middle);
    // An action through `update` scrolls the list to the selection.
    update(&mut state, Action::Tick);
    frame(terminal, &mut state, cx);
    state
}

fn cockpit_frame(c: &mut Criterion) {
    let cx = context();
    let mut terminal = terminal();
    let mut state = cockpit_mid_list(&mut terminal, &cx);
    assert!(
        state.layout.finding_rows.len() > 10,
        "the findings pane shows rows"
    );
    let mut group = c.benchmark_group("ui_frame");
    group.bench_function("cockpit_10k_findings", |b| {
        b.iter(|| frame(&mut terminal, black_box(&mut state), &cx))
    });
    group.finish();
}

fn diff_frame(c: &mut Criterion) {
    let cx = context();
    let mut terminal = terminal();
    let mut state = cockpit();
    frame(&mut terminal, &mut state, &cx);
    // The finding nearest the middle of the big file, opened with `d`.
    let middle = big_new_line(HUNKS * HUNK_LINES / 2);
    let id = state
        .board
        .nodes
        .iter()
        .filter(|n| n.duplicate_of.is_none() && n.status.is_active())
        .filter(|n| n.anchor.as_ref().is_some_and(|a| a.path == BIG))
        .min_by_key(|n| n.anchor.as_ref().unwrap().start_line.abs_diff(middle))
        .map(|n| n.id.clone())
        .unwrap();
    state.findings.selected = Some(RowKey::Node(id));
    update(&mut state, Action::Command(Command::OpenDiff));
    frame(&mut terminal, &mut state, &cx);
    assert!(state.layout.diff.height > 40, "the diff view is open");
    let mut group = c.benchmark_group("ui_frame");
    group.bench_function("diff_10k_lines_middle", |b| {
        b.iter(|| frame(&mut terminal, black_box(&mut state), &cx))
    });
    // A redraw of the same lines reuses their highlighting; paging shows lines not seen
    // before (back to the top at the end), so this is the frame that highlights a full page.
    group.bench_function("diff_page_down_and_frame", |b| {
        b.iter(|| {
            let before = diff_cursor(&state);
            update(&mut state, Action::Command(Command::PageDown));
            if diff_cursor(&state) == before {
                update(&mut state, Action::Command(Command::Top));
            }
            frame(&mut terminal, black_box(&mut state), &cx)
        })
    });
    // What a person paging through a diff sees: the cockpit highlights the next page while
    // they read (`prefetch_next_page` on an idle tick), so the key only draws. The prefetch is
    // outside the timing.
    group.bench_function("diff_page_down_after_idle_and_frame", |b| {
        b.iter_custom(|iterations| {
            let mut spent = std::time::Duration::ZERO;
            for _ in 0..iterations {
                view::prefetch_next_page(&state, &cx);
                let started = std::time::Instant::now();
                let before = diff_cursor(&state);
                update(&mut state, Action::Command(Command::PageDown));
                if diff_cursor(&state) == before {
                    update(&mut state, Action::Command(Command::Top));
                }
                frame(&mut terminal, black_box(&mut state), &cx);
                spent += started.elapsed();
            }
            spent
        })
    });
    group.finish();
}

fn diff_cursor(state: &AppState) -> usize {
    match state.top_overlay() {
        Some(Overlay::Diff(view)) => view.cursor,
        _ => panic!("the diff view is open"),
    }
}

fn keypress(c: &mut Criterion) {
    let cx = context();
    let mut terminal = terminal();
    let state = cockpit_mid_list(&mut terminal, &cx);
    let mut group = c.benchmark_group("ui_keypress_10k");
    for (name, action) in [
        ("confirm", Action::Command(Command::Confirm)),
        ("move_down", Action::Command(Command::MoveDown)),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || state.clone(),
                |mut state| {
                    update(&mut state, black_box(action.clone()));
                    state
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, cockpit_frame, diff_frame, keypress);
criterion_main!(benches);
