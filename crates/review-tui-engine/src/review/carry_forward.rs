//! Carrying what a round owes into the next one. A model reviewer's validated blocking finding
//! (in scope, P0/P1 or of no known cause) counts until a person closes it or a later round's
//! deterministic re-check shows its anchor is gone: a model that simply does not report it
//! again in the next round takes nothing out of the verdict. So every such finding of the
//! previous round that nobody closed is carried into the new round, its anchor re-checked
//! against the new head:
//! - the file is gone, or the anchored lines' text is nowhere in it → resolved, "anchor gone at
//!   <head>", by the anchor check (the one closer that is not a person, and it reads only code);
//! - the text moved → re-anchored on the lines that now hold it;
//! - else kept where it was.
//!
//! A model's findings a person decided on (dismissed, resolved, confirmed, disputed) are carried
//! too, as records, so the person's word still meets the problem when a model reports it again
//! rounds later (`carry::carry_over` moves it onto the re-report).
//!
//! Rules, scanners and the injection scan are not carried: they run again every round from the
//! code itself, and their silence is that deterministic re-check.

use std::collections::HashSet;

use super::node::{Actor, Anchor, CarriedFrom, ReviewNode, Source, Stance, Status, Transition};
use super::print::normalize_line;

/// Who resolves a carried finding whose anchor is gone.
pub(crate) const ANCHOR_CHECK: &str = "anchor check";

/// What the re-check found at the new head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AnchorCheck {
    /// The anchored text is where it was.
    Same,
    /// The anchored text now stands on these lines (1-based, inclusive).
    Moved { start_line: u32, end_line: u32 },
    /// The file is gone, or the anchored text is nowhere in it.
    Gone,
    /// Nothing to compare (no anchor, the old text unreadable or blank, a removed line): the
    /// finding stays where it was, as found.
    Unchecked,
}

/// Where the anchored text `old` (the lines the anchor held at the head that found it) stands
/// in `now` (the file at the new head; `None` when it is gone). Whitespace does not count (as
/// for fingerprints): blank lines and indentation can change around the same code. Of several
/// places, the one nearest the old anchor.
pub(crate) fn recheck(anchor: &Anchor, old: &[String], now: Option<&str>) -> AnchorCheck {
    let wanted: Vec<_> = old
        .iter()
        .map(|l| normalize_line(l))
        .filter(|l| !l.is_empty())
        .collect();
    if wanted.is_empty() {
        return AnchorCheck::Unchecked;
    }
    let Some(now) = now else {
        return AnchorCheck::Gone;
    };
    let lines: Vec<(u32, std::borrow::Cow<'_, str>)> = now
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, normalize_line(l)))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let places = lines.windows(wanted.len()).filter(|window| {
        window
            .iter()
            .zip(&wanted)
            .all(|((_, have), want)| have == want)
    });
    let nearest = places
        .map(|w| (w[0].0, w[w.len() - 1].0))
        .min_by_key(|(start, _)| start.abs_diff(anchor.start_line));
    match nearest {
        None => AnchorCheck::Gone,
        Some((start, _)) if start == anchor.start_line => AnchorCheck::Same,
        Some((start_line, end_line)) => AnchorCheck::Moved {
            start_line,
            end_line,
        },
    }
}

/// Whether the verdict counts `node` as blocking: active, in scope, and holding the merge.
pub(crate) fn counts(node: &ReviewNode) -> bool {
    node.counts()
}

/// Whether the next round owes `node`: a model's or an imported (SARIF) finding that counts,
/// or one a person decided on (kept as the record of that decision). The rules, the secret
/// scan and the injection scan run again on every round and are not carried: their silence is
/// the deterministic re-check. A model's silence is not, and neither is a SARIF log that was
/// not passed again (or that a tool produced differently): only a person or a gone anchor
/// takes a blocking finding out.
pub(crate) fn owed(node: &ReviewNode) -> bool {
    (node.origin.source == Source::Model || imported(node))
        && (counts(node) || decided_by_person(node))
}

/// A finding imported from another tool's SARIF log (`sarif:<tool>`).
fn imported(node: &ReviewNode) -> bool {
    node.origin.source == Source::Scanner && node.origin.reviewer.starts_with("sarif:")
}

fn decided_by_person(node: &ReviewNode) -> bool {
    let person = |a: &Actor| matches!(a, Actor::Person(_));
    node.history.iter().any(|t| person(&t.by))
        || node.confirmations.iter().any(|s| person(&s.by))
        || node.disputes.iter().any(|s| person(&s.by))
}

/// The previous round, as the new one needs it.
pub(crate) struct Previous<'a> {
    /// The nodes the previous round recorded (with the person's decisions since).
    pub nodes: &'a [ReviewNode],
    /// Its number: a finding it found itself is carried "from round N".
    pub round: u32,
}

/// The findings `previous` owes that `fresh` (this round's findings, the person's decisions
/// already carried onto them) does not report again, carried into this round and re-checked
/// with `check` against `head`. A re-report folds with the carried finding only when it counts
/// at least as strictly (in scope, blocking, no lower priority): a re-report a model labelled
/// out of scope or lowered never takes the carried one out of the verdict.
pub(crate) fn carry_forward(
    previous: Previous<'_>,
    fresh: &[ReviewNode],
    check: impl Fn(&ReviewNode) -> AnchorCheck,
    head: &str,
    at: &str,
) -> Vec<ReviewNode> {
    let mut taken: HashSet<String> = fresh.iter().map(|n| n.id.clone()).collect();
    let mut out = Vec::new();
    for old in previous.nodes.iter().filter(|n| owed(n)) {
        let reported_again = fresh.iter().any(|f| {
            f.origin == old.origin
                && f.prints().any(|p| old.prints().any(|q| p == q))
                && (!counts(old) || (counts(f) && f.priority <= old.priority))
        });
        if reported_again {
            continue;
        }
        let mut node = old.clone();
        let from = node.carried.clone().unwrap_or_else(|| CarriedFrom {
            round: previous.round,
            id: old.id.clone(),
            gone_at: None,
        });
        // Ids are reused every round (engineer-1): the carried one gets its own, stable
        // across the rounds it is carried through, and never one this round already gave.
        let mut id = format!("{}@r{}", from.id, from.round);
        let mut n = 1;
        while taken.contains(&id) {
            n += 1;
            id = format!("{}@r{}~{n}", from.id, from.round);
        }
        taken.insert(id.clone());
        node.id = id;
        node.carried = Some(from);
        node.duplicate_of = None;
        // What the automated passes said is recomputed each round; only the person's stays.
        let person = |s: &Stance| matches!(s.by, Actor::Person(_));
        node.confirmations.retain(person);
        node.disputes.retain(person);
        if node.status == Status::ConsensusReady && !node.has_peer_confirmation() {
            node.status = Status::Open;
        }
        // An anchor found gone points at nothing: not read again (a person may have
        // reopened the finding since, or decided on it; their word stands).
        let checked = match node.carried.as_ref().and_then(|c| c.gone_at.as_ref()) {
            Some(_) => AnchorCheck::Unchecked,
            None => check(&node),
        };
        let short: String = head.chars().take(12).collect();
        match checked {
            AnchorCheck::Gone => {
                if let Some(from) = node.carried.as_mut() {
                    from.gone_at = Some(short.clone());
                }
            }
            AnchorCheck::Moved {
                start_line,
                end_line,
            } => {
                if let Some(anchor) = node.anchor.as_mut() {
                    anchor.start_line = start_line;
                    anchor.end_line = end_line;
                }
            }
            AnchorCheck::Same | AnchorCheck::Unchecked => {}
        }
        if checked == AnchorCheck::Gone && counts(&node) {
            node.history.push(Transition {
                from: node.status,
                to: Status::Resolved,
                by: Actor::Reviewer(ANCHOR_CHECK.to_string()),
                at: at.to_string(),
                reason: Some(format!("anchor gone at {short}")),
                counted: None,
            });
            node.status = Status::Resolved;
        }
        out.push(node);
    }
    out
}

/// A person's own finding, into the next round. It is the person's word and no reviewer
/// reports it again, so it is carried as it stands (its id, status and history stay), with its
/// anchor re-checked like a model's (`check`, against `head`): moved text is re-anchored on the
/// lines that now hold it; gone text is said so on it (`gone_at`, and a line in its history by
/// the anchor check) and not read again. Unlike a model's finding, a gone anchor does not
/// resolve it: only the person takes their finding out, and while it is open it counts.
pub(crate) fn carry_person(
    node: &ReviewNode,
    round: u32,
    check: impl Fn(&ReviewNode) -> AnchorCheck,
    head: &str,
    at: &str,
) -> ReviewNode {
    let mut node = node.clone();
    if node.carried.as_ref().is_some_and(|c| c.gone_at.is_some()) {
        return node;
    }
    let short: String = head.chars().take(12).collect();
    match check(&node) {
        AnchorCheck::Gone => {
            let from = node.carried.get_or_insert_with(|| CarriedFrom {
                round,
                id: node.id.clone(),
                gone_at: None,
            });
            from.gone_at = Some(short.clone());
            node.history.push(Transition {
                from: node.status,
                to: node.status,
                by: Actor::Reviewer(ANCHOR_CHECK.to_string()),
                at: at.to_string(),
                reason: Some(format!(
                    "anchor gone at {short}: the commented lines are no longer in the file (still yours: edit or delete it)"
                )),
                counted: None,
            });
        }
        AnchorCheck::Moved {
            start_line,
            end_line,
        } => {
            if let Some(anchor) = node.anchor.as_mut() {
                anchor.start_line = start_line;
                anchor.end_line = end_line;
            }
        }
        AnchorCheck::Same | AnchorCheck::Unchecked => {}
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::{Priority, Scope};
    use crate::review::status::{Change, apply};
    use crate::review::tests::{at, node};

    fn model_p0(id: &str, print: &str) -> ReviewNode {
        let mut n = at(node(id, "engineer", Priority::P0, 0.9), "src/a.rs", 3, 3);
        n.fingerprint = print.into();
        n
    }

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn the_anchor_is_found_where_it_is_where_it_moved_or_not_at_all() {
        let anchor = model_p0("a", "p").anchor.unwrap();
        let old = lines(&["let x = v[v.len()];"]);
        let same = "fn f() {\n  x();\nlet   x = v[v.len()];\n}\n";
        assert_eq!(recheck(&anchor, &old, Some(same)), AnchorCheck::Same);
        let moved = "// one\n// two\nfn f() {\n  x();\n    let x = v[v.len()];\n}\n";
        assert_eq!(
            recheck(&anchor, &old, Some(moved)),
            AnchorCheck::Moved {
                start_line: 5,
                end_line: 5
            }
        );
        assert_eq!(
            recheck(&anchor, &old, Some("fn f() {}\n")),
            AnchorCheck::Gone
        );
        assert_eq!(recheck(&anchor, &old, None), AnchorCheck::Gone);
        assert_eq!(
            recheck(&anchor, &lines(&["   "]), None),
            AnchorCheck::Unchecked
        );
        // Blank lines pushed inside a block do not hide it.
        let old = lines(&["a();", "b();"]);
        assert_eq!(
            recheck(&anchor, &old, Some("x\ny\na();\n\n  b();\n")),
            AnchorCheck::Same
        );
    }

    #[test]
    fn a_silent_round_carries_the_blocking_finding_under_an_id_of_its_own() {
        let p0 = model_p0("engineer-1", "fp");
        // This round's engineer-1 is another finding altogether.
        let mut other = model_p0("engineer-1", "other");
        other.priority = Priority::P3;
        let previous = [p0];
        let carried = carry_forward(
            Previous {
                nodes: &previous,
                round: 1,
            },
            std::slice::from_ref(&other),
            |_| AnchorCheck::Same,
            "abc",
            "t1",
        );
        assert_eq!(carried.len(), 1);
        assert_eq!(carried[0].id, "engineer-1@r1");
        assert_eq!(carried[0].status, Status::Open);
        assert_eq!(
            carried[0].carried,
            Some(CarriedFrom {
                round: 1,
                id: "engineer-1".into(),
                gone_at: None,
            })
        );
        // Carried again: the same id, the same origin round.
        let again = carry_forward(
            Previous {
                nodes: &carried,
                round: 2,
            },
            &[],
            |_| AnchorCheck::Same,
            "def",
            "t2",
        );
        assert_eq!(again[0].id, "engineer-1@r1");
        assert_eq!(again[0].carried.as_ref().unwrap().round, 1);
    }

    #[test]
    fn a_sarif_p0_is_carried_when_its_log_is_not_given_again_and_a_rule_is_not() {
        let mut sarif = model_p0("sarif:semgrep-1", "fp-sarif");
        sarif.origin.reviewer = "sarif:semgrep".into();
        sarif.origin.source = Source::Scanner;
        let mut secret = model_p0("secrets-1", "fp-secret");
        secret.origin.reviewer = "secrets".into();
        secret.origin.source = Source::Scanner;
        let mut rule = model_p0("rules-1", "fp-rule");
        rule.origin.reviewer = "rules".into();
        rule.origin.source = Source::Deterministic;
        let previous = [sarif, secret, rule];
        let carried = carry_forward(
            Previous {
                nodes: &previous,
                round: 1,
            },
            &[],
            |_| AnchorCheck::Same,
            "abc",
            "t1",
        );
        let ids: Vec<&str> = carried.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["sarif:semgrep-1@r1"]);
        assert!(counts(&carried[0]));
    }

    #[test]
    fn only_a_re_report_as_strict_folds_the_carried_finding() {
        let previous = [model_p0("engineer-1", "fp")];
        let prev = || Previous {
            nodes: &previous,
            round: 1,
        };
        let same = model_p0("engineer-2", "fp");
        assert!(carry_forward(prev(), &[same], |_| AnchorCheck::Same, "h", "t").is_empty());
        let mut out = model_p0("engineer-2", "fp");
        out.scope = Scope::OutOfScope;
        let mut lowered = model_p0("engineer-3", "fp");
        lowered.priority = Priority::P2;
        let mut other_reviewer = model_p0("qa-1", "fp");
        other_reviewer.origin.reviewer = "qa".into();
        for weaker in [out, lowered, other_reviewer] {
            let carried = carry_forward(prev(), &[weaker], |_| AnchorCheck::Same, "h", "t");
            assert_eq!(carried.len(), 1, "{carried:?}");
            assert!(counts(&carried[0]));
        }
    }

    #[test]
    fn an_anchor_gone_resolves_by_the_anchor_check_and_a_dismissal_stays() {
        let previous = [model_p0("engineer-1", "fp")];
        let carried = carry_forward(
            Previous {
                nodes: &previous,
                round: 1,
            },
            &[],
            |_| AnchorCheck::Gone,
            "0123456789abcdef",
            "t",
        );
        assert_eq!(carried[0].status, Status::Resolved);
        let last = carried[0].history.last().unwrap();
        assert_eq!(last.reason.as_deref(), Some("anchor gone at 0123456789ab"));
        assert_eq!(last.by, Actor::Reviewer(ANCHOR_CHECK.into()));
        // Resolved: the next round owes nothing.
        assert!(
            carry_forward(
                Previous {
                    nodes: &carried,
                    round: 2
                },
                &[],
                |_| AnchorCheck::Same,
                "h",
                "t"
            )
            .is_empty()
        );

        let mut dismissed = model_p0("engineer-1", "fp");
        apply(
            &mut dismissed,
            Change::Dismiss {
                reason: "by design".into(),
            },
            &Actor::Person("ana".into()),
            "t0",
        )
        .unwrap();
        let kept = carry_forward(
            Previous {
                nodes: std::slice::from_ref(&dismissed),
                round: 1,
            },
            &[],
            |_| AnchorCheck::Moved {
                start_line: 9,
                end_line: 9,
            },
            "h",
            "t",
        );
        assert_eq!(kept[0].status, Status::Dismissed);
        assert_eq!(kept[0].anchor.as_ref().unwrap().start_line, 9);
    }

    #[test]
    fn a_persons_finding_is_re_anchored_or_said_gone_and_still_counts() {
        use crate::review::node::{Origin, Source};
        let mut mine = at(node("person-1", "ana", Priority::P1, 1.0), "src/a.rs", 3, 4);
        mine.origin = Origin {
            reviewer: "ana".into(),
            source: Source::Person,
        };
        let moved = carry_person(
            &mine,
            1,
            |_| AnchorCheck::Moved {
                start_line: 7,
                end_line: 8,
            },
            "abcdef0123456789",
            "t",
        );
        assert_eq!(moved.id, "person-1");
        let anchor = moved.anchor.as_ref().unwrap();
        assert_eq!((anchor.start_line, anchor.end_line), (7, 8));
        assert_eq!(moved.history, mine.history);

        let gone = carry_person(&moved, 2, |_| AnchorCheck::Gone, "abcdef0123456789", "t");
        assert_eq!(gone.id, "person-1");
        assert_eq!(gone.status, mine.status);
        assert!(counts(&gone), "a person's open finding still counts");
        assert_eq!(
            gone.carried.as_ref().unwrap().gone_at.as_deref(),
            Some("abcdef012345")
        );
        let said = gone.history.last().unwrap().reason.clone().unwrap();
        assert!(said.contains("anchor gone at abcdef012345"), "{said}");
        // Not read again once gone.
        let again = carry_person(&gone, 3, |_| panic!("re-read"), "ffff", "t");
        assert_eq!(again, gone);
    }
}
