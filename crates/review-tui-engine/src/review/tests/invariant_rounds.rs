//! The verdict's invariant across rounds (docs/verdict.md, "Carried findings"): for any sequence
//! of rounds in which model reviewers report, drop, re-report weaker or re-report as strict, a
//! person dismisses, resolves, reopens, lowers or raises a finding, and pushes move, remove or restore the anchored code
//! or delete its file, the set of validated in-scope blocking problems shrinks only by a
//! person's closing or lowering or by a deterministic re-check finding the anchor gone; while it is not
//! empty the verdict never Ships; a person's dismissal stays with its problem; and a round's
//! ids are unique. Each round is carried as the session carries it: the person's decisions onto
//! the re-reports (`carry::carry_over`), then what the previous round owes
//! (`carry_forward::carry_forward`, its anchors re-checked against the files at the new head).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::{T0, at, node};
use crate::review::carry::carry_over;
use crate::review::carry_forward::{AnchorCheck, Previous, carry_forward, counts, recheck};
use crate::review::derived::{self, Context};
use crate::review::node::*;
use crate::review::reclassify;
use crate::review::status::{self, Change};
use crate::review::verdict::Decision;

/// Problems 0..PROBLEMS, each a line `bug{k}();` of one file, reported by one model reviewer.
const PROBLEMS: usize = 4;
const FILES: [&str; 2] = ["src/a.rs", "src/b.rs"];
const REVIEWERS: [&str; 2] = ["engineer", "qa"];

fn file_of(k: usize) -> &'static str {
    FILES[k % 2]
}

fn code(k: usize) -> String {
    format!("bug{k}();")
}

fn print(k: usize) -> String {
    format!("fp-{k}")
}

#[derive(Debug, Clone)]
enum Push {
    /// Lines above everything: every anchor of the file moves.
    Shift {
        file: usize,
        lines: u8,
    },
    Remove {
        problem: usize,
    },
    Restore {
        problem: usize,
    },
    DeleteFile {
        file: usize,
    },
}

#[derive(Debug, Clone)]
struct Report {
    problem: usize,
    priority: Priority,
    in_scope: bool,
}

#[derive(Debug, Clone)]
struct PersonAct {
    target: usize,
    action: u8,
}

#[derive(Debug, Clone)]
struct Round {
    pushes: Vec<Push>,
    reports: Vec<Report>,
    person: Vec<PersonAct>,
}

fn round() -> impl Strategy<Value = Round> {
    let push = prop_oneof![
        (0..FILES.len(), 1u8..4).prop_map(|(file, lines)| Push::Shift { file, lines }),
        (0..PROBLEMS).prop_map(|problem| Push::Remove { problem }),
        (0..PROBLEMS).prop_map(|problem| Push::Restore { problem }),
        (0..FILES.len()).prop_map(|file| Push::DeleteFile { file }),
    ];
    let report = (
        0..PROBLEMS,
        prop::sample::select(Priority::ALL.to_vec()),
        prop::bool::weighted(0.8),
    )
        .prop_map(|(problem, priority, in_scope)| Report {
            problem,
            priority,
            in_scope,
        });
    let person = (0usize..8, 0u8..5).prop_map(|(target, action)| PersonAct { target, action });
    (
        prop::collection::vec(push, 0..3),
        prop::collection::vec(report, 0..5),
        prop::collection::vec(person, 0..2),
    )
        .prop_map(|(pushes, reports, person)| Round {
            pushes,
            reports,
            person,
        })
}

type Files = BTreeMap<&'static str, Vec<String>>;

fn line_of(files: &Files, k: usize) -> Option<u32> {
    files
        .get(file_of(k))?
        .iter()
        .position(|l| *l == code(k))
        .map(|i| i as u32 + 1)
}

fn play(rounds: &[Round]) -> Result<(), TestCaseError> {
    let mut files: Files = BTreeMap::new();
    for (i, file) in FILES.iter().enumerate() {
        let mut lines = vec!["fn f() {".to_string()];
        lines.extend((0..PROBLEMS).filter(|k| k % 2 == i).map(code));
        lines.push("}".into());
        files.insert(file, lines);
    }
    let mut state: Vec<ReviewNode> = Vec::new();
    // The problems the invariant keeps counted, and those a person closed (not reopened).
    let mut kept: BTreeSet<usize> = BTreeSet::new();
    let mut closed: BTreeSet<usize> = BTreeSet::new();
    // The problems whose person's last word is a closing of what counted: it binds every
    // later report of the problem (a closing of what did not count binds none that counts).
    let mut bound: BTreeSet<usize> = BTreeSet::new();
    // The person's last reclassification of each problem (from, to), which the next report of
    // the problem takes: a raise always, a lowering when the report is no more severe than the
    // one the person lowered (a more severe report is a claim the person has not judged).
    let mut class: BTreeMap<usize, (Priority, Priority)> = BTreeMap::new();
    // Whether each closing the person made (by its time) closed what counted, as seen then.
    let mut closings: BTreeMap<String, bool> = BTreeMap::new();
    let person = Actor::Person("ana".into());
    for (number, r) in rounds.iter().enumerate() {
        let number = number as u32 + 1;
        // Between rounds: the person decides on the recorded round's findings.
        for (nth, act) in r.person.iter().enumerate() {
            if state.is_empty() {
                break;
            }
            // The person's acts happen one after another, as a clock says them.
            let when = format!("2026-01-01T00:{:02}:{:02}Z", number, nth);
            let i = act.target % state.len();
            let k: usize = state[i].fingerprint[3..].parse().unwrap();
            if act.action >= 3 {
                // The person reclassifies a finding, open or closed: lowers it to P3 or raises it
                // to P0.
                let from = state[i].priority;
                let to = if act.action == 3 {
                    Priority::P3
                } else {
                    Priority::P0
                };
                reclassify::reclassify(
                    &mut state[i],
                    (to, Kind::Bug),
                    "why",
                    person.clone(),
                    &when,
                );
                class.insert(k, (from, to));
                // The person's last word on the problem is now on this finding; its status is
                // the person's last status decision on it: a closing binds when it counted.
                let last_closing = state[i]
                    .history
                    .iter()
                    .rev()
                    .filter(|t| t.by == person && reclassify::read(t).is_none())
                    .find(|t| t.from != t.to)
                    .filter(|t| !t.to.is_active())
                    .and_then(|t| closings.get(&t.at).copied());
                if state[i].status.is_active() || last_closing != Some(true) {
                    bound.remove(&k);
                    closed.remove(&k);
                } else {
                    bound.insert(k);
                }
                let still = state.iter().any(|n| n.fingerprint == print(k) && counts(n));
                if !still {
                    kept.remove(&k);
                } else if line_of(&files, k).is_some() {
                    kept.insert(k);
                }
                continue;
            }
            let change = match act.action {
                0 => Change::Dismiss {
                    reason: "not a problem".into(),
                },
                1 => Change::Resolve { note: None },
                _ => Change::Reopen,
            };
            // A closing binds the problem only when what the person closed counted: closing a
            // P0 labelled out of scope (or a P2 duplicate) says nothing about the problem
            // reported later in scope, which the person has not seen counted.
            let counted = counts(&state[i]);
            if let Ok(applied) = status::apply(&mut state[i], change, &person, &when)
                && let Some(t) = applied.transition
            {
                // A status decision (one that took effect) on a finding the person never
                // reclassified: the carry takes the problem's class from it (none), as it
                // takes its status.
                if reclassify::last_by_person(&state[i]).is_none() {
                    class.remove(&k);
                }
                if !t.to.is_active() {
                    closings.insert(when.clone(), counted);
                }
                if !t.to.is_active() && counted {
                    bound.insert(k);
                } else {
                    bound.remove(&k);
                }
                let still = state.iter().any(|n| n.fingerprint == print(k) && counts(n));
                if !t.to.is_active() && !still && counted {
                    kept.remove(&k);
                    closed.insert(k);
                } else if t.to.is_active() {
                    closed.remove(&k);
                    if counts(&state[i]) && line_of(&files, k).is_some() {
                        kept.insert(k);
                    }
                } else if !counted {
                    // The person's last word is now a closing of what did not count (a twin
                    // labelled out of scope): it binds no report that counts, so an earlier
                    // closing of a counting twin no longer speaks for the problem.
                    closed.remove(&k);
                }
            }
        }
        // The push.
        let old = files.clone();
        for push in &r.pushes {
            match *push {
                Push::Shift { file, lines } => {
                    if let Some(text) = files.get_mut(FILES[file]) {
                        for _ in 0..lines {
                            text.insert(0, "// note".into());
                        }
                    }
                }
                Push::Remove { problem } => {
                    if let Some(text) = files.get_mut(file_of(problem)) {
                        text.retain(|l| *l != code(problem));
                    }
                    kept.remove(&problem);
                }
                Push::Restore { problem } => {
                    let text = files.entry(file_of(problem)).or_default();
                    if !text.contains(&code(problem)) {
                        text.push(code(problem));
                    }
                }
                Push::DeleteFile { file } => {
                    files.remove(FILES[file]);
                    kept.retain(|k| file_of(*k) != FILES[file]);
                }
            }
        }
        // The round: the models report (ids reused every round), what a person decided
        // follows its problem, and what the last round owes is carried.
        let mut fresh = Vec::new();
        for (i, report) in r.reports.iter().enumerate() {
            let Some(line) = line_of(&files, report.problem) else {
                continue;
            };
            let reviewer = REVIEWERS[report.problem % 2];
            let mut n = at(
                node(
                    &format!("{reviewer}-{}", i + 1),
                    reviewer,
                    report.priority,
                    0.9,
                ),
                file_of(report.problem),
                line,
                line,
            );
            n.fingerprint = print(report.problem);
            n.scope = if report.in_scope {
                Scope::InScope
            } else {
                Scope::OutOfScope
            };
            // A report that counts is in the verdict unless the person's last word on the
            // problem closed it while it counted: a closing of what did not count (a P2 twin,
            // an out-of-scope label) is no word on this report.
            let mut classed = n.clone();
            if let Some(&(from, to)) = class.get(&report.problem)
                && (to <= from || report.priority >= from)
            {
                classed.priority = to;
            }
            if counts(&classed) && !bound.contains(&report.problem) {
                kept.insert(report.problem);
            }
            fresh.push(n);
        }
        let mut nodes = carry_over(&state, fresh);
        let check = |n: &ReviewNode| {
            let Some(anchor) = &n.anchor else {
                return AnchorCheck::Unchecked;
            };
            let path = anchor.path.as_str();
            let before: Vec<String> = old
                .get(path)
                .map(|lines| {
                    lines
                        .iter()
                        .skip(anchor.start_line as usize - 1)
                        .take((anchor.end_line - anchor.start_line + 1) as usize)
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            let now = files.get(path).map(|l| l.join("\n"));
            recheck(anchor, &before, now.as_deref())
        };
        let owed = carry_forward(
            Previous {
                nodes: &state,
                round: number - 1,
            },
            &nodes,
            check,
            "headsha",
            T0,
        );
        nodes.extend(owed);

        let ids: BTreeSet<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        prop_assert_eq!(ids.len(), nodes.len(), "duplicate ids in round {}", number);
        for n in nodes.iter().filter(|n| counts(n)) {
            let k: usize = n.fingerprint[3..].parse().unwrap();
            if line_of(&files, k).is_some() {
                kept.insert(k);
            }
        }
        for k in &kept {
            prop_assert!(
                nodes
                    .iter()
                    .any(|n| n.fingerprint == print(*k) && counts(n)),
                "round {}: problem {} left the verdict with nobody closing it and its line still there: {:#?}",
                number,
                k,
                nodes
            );
        }
        for k in &closed {
            prop_assert!(
                !nodes
                    .iter()
                    .any(|n| n.fingerprint == print(*k) && counts(n)),
                "round {}: the person's closing of problem {} was lost: {:#?}",
                number,
                k,
                nodes
            );
        }
        let derived = derived::derive(&mut nodes, Context::default());
        if !kept.is_empty() {
            prop_assert!(
                derived.verdict.decision >= Decision::Hold,
                "round {}: {:?} while {:?} counts",
                number,
                derived.verdict.decision,
                kept
            );
        }
        // What is anchored is anchored on its problem's line (but what a person reopened
        // after its anchor was found gone: it stands where the person left it).
        for n in nodes.iter().filter(|n| {
            n.status.is_active() && n.carried.as_ref().is_none_or(|c| c.gone_at.is_none())
        }) {
            let k: usize = n.fingerprint[3..].parse().unwrap();
            let anchor = n.anchor.as_ref().unwrap();
            if let Some(line) = line_of(&files, k) {
                prop_assert_eq!(anchor.start_line, line, "{:?}", n);
            }
        }
        state = nodes;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn across_rounds_only_a_person_or_a_gone_anchor_takes_a_blocking_finding_out(
        rounds in prop::collection::vec(round(), 1..8),
    ) {
        play(&rounds)?;
    }
}
