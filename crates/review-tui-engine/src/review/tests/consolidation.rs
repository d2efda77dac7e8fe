use super::*;
use crate::review::consolidate::{apply, consolidate, join_names};

fn secret(id: &str, reviewer: &str, rule: &str, line: u32) -> ReviewNode {
    let mut n = from_source(
        at(
            node(id, reviewer, Priority::P0, 1.0),
            "config.py",
            line,
            line,
        ),
        reviewer,
        Source::Scanner,
    );
    n.rule = Some(rule.into());
    n.triage.category = Category::Security;
    n
}

#[test]
fn same_fingerprint_is_one_problem_with_the_highest_severity_first() {
    let mut a = node("a", "qa", Priority::P2, 0.6);
    let mut b = node("b", "engineer", Priority::P0, 0.9);
    a.fingerprint = "fp".into();
    b.fingerprint = "fp".into();
    b.text.evidence = "line 12 reuses `token`".into();
    let problems = consolidate(&[a, b]);
    assert_eq!(problems.len(), 1);
    let p = &problems[0];
    assert_eq!(p.primary, "b");
    assert_eq!(p.members, vec!["b", "a"]);
    assert_eq!(p.found_by, vec!["engineer", "qa"]);
    assert_eq!(p.found_by_phrase(), "engineer and qa");
    assert_eq!(p.evidence.len(), 2);
}

#[test]
fn same_place_and_rule_is_one_problem() {
    let mut a = node("a", "rules", Priority::P2, 1.0);
    let mut b = node("b", "sarif:clippy", Priority::P2, 1.0);
    a.rule = Some("rust/unwrap".into());
    b.rule = Some("rust/unwrap".into());
    assert_eq!(consolidate(&[a.clone(), b.clone()]).len(), 1);
    b.rule = Some("rust/expect".into());
    assert_eq!(consolidate(&[a, b]).len(), 2);
}

#[test]
fn every_secret_is_the_same_problem_whoever_found_it() {
    let a = secret("a", "secret scan", "secret/aws-access-key", 3);
    let b = secret("b", "gitleaks", "secret/generic-api-key", 3);
    let far = secret("c", "gitleaks", "secret/generic-api-key", 40);
    let problems = consolidate(&[a, b, far]);
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].found_by_phrase(), "secret scan and gitleaks");
}

#[test]
fn a_model_finding_on_a_scanners_spot_with_the_same_category_is_folded() {
    let scanner = secret("s", "secret scan", "secret/aws-access-key", 3);
    let mut model = at(node("m", "engineer", Priority::P1, 0.8), "config.py", 2, 4);
    model.triage.category = Category::Security;
    let mut other_category = model.clone();
    other_category.id = "o".into();
    other_category.triage.category = Category::Maintainability;
    let problems = consolidate(&[scanner, model, other_category]);
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].members, vec!["s", "m"]);
}

#[test]
fn two_models_on_the_same_lines_are_not_duplicates_by_place_alone() {
    let a = node("a", "engineer", Priority::P1, 0.8);
    let b = node("b", "qa", Priority::P1, 0.8);
    assert_eq!(consolidate(&[a, b]).len(), 2);
}

#[test]
fn closed_nodes_stand_alone_and_duplicates_are_demoted_not_deleted() {
    let mut a = node("a", "qa", Priority::P1, 0.6);
    let mut b = node("b", "engineer", Priority::P1, 0.9);
    let mut c = node("c", "architect", Priority::P1, 0.9);
    for n in [&mut a, &mut b, &mut c] {
        n.fingerprint = "fp".into();
    }
    c.status = Status::Dismissed;
    let mut nodes = vec![a, b, c];
    let problems = consolidate(&nodes);
    assert_eq!(problems.len(), 2);
    apply(&mut nodes, &problems);
    assert_eq!(nodes.len(), 3);
    assert_eq!(nodes[0].duplicate_of.as_deref(), Some("b"));
    assert_eq!(nodes[1].duplicate_of, None);
    assert_eq!(nodes[2].duplicate_of, None);
}

#[test]
fn names_join_like_a_sentence() {
    let names = |v: &[&str]| join_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(names(&[]), "");
    assert_eq!(names(&["a"]), "a");
    assert_eq!(names(&["a", "b", "c"]), "a, b and c");
}
