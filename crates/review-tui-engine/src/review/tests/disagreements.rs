use super::*;
use crate::review::disagreement::{DisagreementKind, disagreements};

#[test]
fn priorities_two_levels_apart_on_overlapping_lines_disagree() {
    let a = at(node("a", "engineer", Priority::P0, 0.9), "x.rs", 10, 12);
    let b = at(node("b", "qa", Priority::P2, 0.9), "x.rs", 12, 14);
    let found = disagreements(&[a, b]);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].kind,
        DisagreementKind::Priority {
            a: Priority::P0,
            b: Priority::P2
        }
    );
}

#[test]
fn one_level_apart_or_apart_in_lines_or_files_does_not() {
    let a = at(node("a", "engineer", Priority::P0, 0.9), "x.rs", 10, 12);
    let near = at(node("b", "qa", Priority::P1, 0.9), "x.rs", 10, 12);
    let below = at(node("c", "qa", Priority::P3, 0.9), "x.rs", 13, 20);
    let elsewhere = at(node("d", "qa", Priority::P3, 0.9), "y.rs", 10, 12);
    assert!(disagreements(&[a, near, below, elsewhere]).is_empty());
}

#[test]
fn bug_against_suggestion_disagrees() {
    let a = node("a", "engineer", Priority::P1, 0.9);
    let mut b = node("b", "architect", Priority::P2, 0.9);
    b.kind = Kind::Suggestion;
    assert_eq!(
        disagreements(&[a, b])[0].kind,
        DisagreementKind::BugOrSuggestion
    );
}

#[test]
fn a_reviewer_does_not_disagree_with_itself_nor_closed_nodes_count() {
    let a = node("a", "engineer", Priority::P0, 0.9);
    let b = node("b", "engineer", Priority::P3, 0.9);
    assert!(disagreements(&[a.clone(), b]).is_empty());
    let mut c = node("c", "qa", Priority::P3, 0.9);
    c.status = Status::Dismissed;
    assert!(disagreements(&[a, c]).is_empty());
}

#[test]
fn different_sides_are_different_numberings() {
    let a = node("a", "engineer", Priority::P0, 0.9);
    let mut b = node("b", "qa", Priority::P3, 0.9);
    b.anchor.as_mut().unwrap().side = crate::review::side::Side::Left;
    assert!(disagreements(&[a, b]).is_empty());
}
