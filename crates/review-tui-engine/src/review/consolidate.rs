//! Consolidation: several reviewers pointing at the same defect is the system working; listing it
//! three times is the system leaking its architecture into the reader's inbox. Duplicates are
//! folded into one problem that keeps the highest severity and every source's evidence. Duplicate
//! nodes are demoted (`duplicate_of`), never deleted, and folding is presentation only: the
//! verdict weighs every in-scope member of a problem, whichever member stands for it.

use std::collections::HashMap;

use super::node::{ReviewNode, Source};

/// One problem and the nodes that reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The node that stands for the problem (see `primary_order`).
    pub primary: String,
    /// Every node of the problem, primary first.
    pub members: Vec<String>,
    /// Reviewer names in order of first appearance, without repeats.
    pub found_by: Vec<String>,
    /// (reviewer, evidence) from each member that gave evidence.
    pub evidence: Vec<(String, String)>,
}

impl Problem {
    pub fn is_consolidated(&self) -> bool {
        self.members.len() > 1
    }

    /// "engineer", "engineer and secret scan", "engineer, qa and rules".
    pub fn found_by_phrase(&self) -> String {
        join_names(&self.found_by)
    }
}

pub fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why two nodes are the same problem, or `None`.
pub(crate) fn duplicate_reason(a: &ReviewNode, b: &ReviewNode) -> Option<&'static str> {
    if !a.fingerprint.is_empty() && a.fingerprint == b.fingerprint {
        return Some("same fingerprint");
    }
    let (Some(anchor_a), Some(anchor_b)) = (&a.anchor, &b.anchor) else {
        return None;
    };
    if anchor_a.path == anchor_b.path
        && anchor_a.side == anchor_b.side
        && anchor_a.start_line == anchor_b.start_line
        && a.rule.is_some()
        && a.rule == b.rule
    {
        return Some("same place and rule");
    }
    if !anchor_a.overlaps(anchor_b) {
        return None;
    }
    if a.is_secret() && b.is_secret() {
        return Some("the same secret");
    }
    let model_and_tool = (a.origin.source == Source::Model) != (b.origin.source == Source::Model)
        && a.origin.source != Source::Person
        && b.origin.source != Source::Person;
    if model_and_tool && a.triage.category == b.triage.category {
        return Some("a model finding on a scanner's spot");
    }
    None
}

/// Which member stands for a problem, first first: an in-scope member before any out-of-scope
/// one, then the most severe, then a rule's, a scanner's or a person's before a model's, then the
/// most confident. A model's label can put its own finding out of scope, never in front of an
/// in-scope one; and it takes a rule's or a scanner's place only by claiming a stricter
/// priority. Presentation only: the verdict weighs every in-scope member (see
/// `verdict::decide`), so no choice of primary hides one.
pub(crate) fn primary_order(a: &ReviewNode, b: &ReviewNode) -> std::cmp::Ordering {
    let model = |n: &ReviewNode| n.origin.source == Source::Model;
    (!a.in_scope(), a.priority, model(a))
        .cmp(&(!b.in_scope(), b.priority, model(b)))
        .then(b.confidence.total_cmp(&a.confidence))
}

/// Groups the active nodes into problems. Closed (resolved, dismissed) nodes each stand alone:
/// a person's decision on one node is not silently extended to another.
pub fn consolidate(nodes: &[ReviewNode]) -> Vec<Problem> {
    let active: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].status.is_active())
        .collect();
    let mut sets = DisjointSets::new(nodes.len());

    let mut by_fingerprint: HashMap<&str, usize> = HashMap::new();
    let mut by_path: HashMap<&str, Vec<usize>> = HashMap::new();
    for &i in &active {
        let node = &nodes[i];
        if !node.fingerprint.is_empty() {
            match by_fingerprint.get(node.fingerprint.as_str()) {
                Some(&first) => sets.union(first, i),
                None => {
                    by_fingerprint.insert(&node.fingerprint, i);
                }
            }
        }
        if let Some(anchor) = &node.anchor {
            by_path.entry(anchor.path.as_str()).or_default().push(i);
        }
    }
    // Pairwise checks only within one file: 10k findings spread over files stay cheap.
    for members in by_path.values() {
        for (k, &i) in members.iter().enumerate() {
            for &j in &members[k + 1..] {
                if duplicate_reason(&nodes[i], &nodes[j]).is_some() {
                    sets.union(i, j);
                }
            }
        }
    }

    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of_root: HashMap<usize, usize> = HashMap::new();
    for (i, node) in nodes.iter().enumerate() {
        if !node.status.is_active() {
            groups.push(vec![i]);
            continue;
        }
        let root = sets.find(i);
        match group_of_root.get(&root) {
            Some(&g) => groups[g].push(i),
            None => {
                group_of_root.insert(root, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups
        .into_iter()
        .map(|mut group| {
            group.sort_by(|&x, &y| primary_order(&nodes[x], &nodes[y]).then(x.cmp(&y)));
            let mut found_by: Vec<String> = Vec::new();
            let mut evidence = Vec::new();
            for &i in &group {
                let node = &nodes[i];
                if !found_by.contains(&node.origin.reviewer) {
                    found_by.push(node.origin.reviewer.clone());
                }
                if !node.text.evidence.trim().is_empty() {
                    evidence.push((node.origin.reviewer.clone(), node.text.evidence.clone()));
                }
            }
            Problem {
                primary: nodes[group[0]].id.clone(),
                members: group.iter().map(|&i| nodes[i].id.clone()).collect(),
                found_by,
                evidence,
            }
        })
        .collect()
}

/// Marks every non-primary member as `duplicate_of` its problem's primary, and clears the mark
/// on nodes that are no longer duplicates (a status change can split a problem).
pub(crate) fn apply(nodes: &mut [ReviewNode], problems: &[Problem]) {
    let mut primary_of: HashMap<&str, &str> = HashMap::new();
    for problem in problems {
        for member in &problem.members[1..] {
            primary_of.insert(member, &problem.primary);
        }
    }
    for node in nodes.iter_mut() {
        node.duplicate_of = primary_of.get(node.id.as_str()).map(|p| p.to_string());
    }
}

struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    fn new(n: usize) -> Self {
        DisjointSets {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // Keep the earlier node as root so group order follows input order.
            let (low, high) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[high] = low;
        }
    }
}
