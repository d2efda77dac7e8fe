//! The findings list as rows, derived from the state on demand: cohorts, their problems (one
//! row per consolidated problem, duplicates folded under it), and per cohort a "below threshold
//! (N)" fold decided by the level. Within a group, the problems one rule raised three times or
//! more fold into one row ("16× `unsafe` block without a SAFETY: comment"). Nothing is ever dropped:
//! a level or a fold only moves rows; the verdict never reads them.

use std::collections::HashMap;

use crate::review::Placement;
use crate::review::Priority;
use crate::review::Problem;
use crate::review::{Actor, ReviewNode, Status};
use ratatui::layout::Rect;

use crate::ui::state::{AppState, RowKey};

/// The group findings fall into when no cohort lists their file.
pub const OTHER_COHORT: &str = "~other";

#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    /// A reason of the verdict that no finding carries ("why BLOCK: apiContract — 3 breaks"),
    /// above every cohort.
    Reason(crate::ui::reasons::Reason),
    Cohort {
        key: String,
        label: String,
        fallback: bool,
        blast_radius: Option<u32>,
        /// Problems in the cohort (main and below threshold) that pass the filter.
        problems: usize,
        collapsed: bool,
    },
    Below {
        cohort: String,
        count: usize,
        open: bool,
    },
    /// The problems one rule raised [`RULE_FOLD`] times or more in one cohort's group (main or below
    /// threshold), as one row; unfolded, its problems follow it.
    Rule {
        key: String,
        rule: String,
        /// The problems it folds, by primary node id, in list order.
        members: Vec<String>,
        below: bool,
        open: bool,
    },
    Node {
        id: String,
        /// A duplicate shown under its problem.
        duplicate: bool,
        /// Listed under an unfolded rule fold.
        in_rule: bool,
        /// How many duplicates the problem folds (0 for a lone finding or a duplicate row).
        duplicates: usize,
        /// Who found it (the problem's reviewers, for a primary row).
        found_by: Vec<String>,
        /// Peers who confirmed it (reviewers or the person).
        confirmed_by: Vec<String>,
        below: bool,
    },
}

impl Row {
    pub fn key(&self) -> RowKey {
        match self {
            Row::Reason(reason) => RowKey::Reason(reason.key.clone()),
            Row::Cohort { key, .. } => RowKey::Cohort(key.clone()),
            Row::Below { cohort, .. } => RowKey::Below(cohort.clone()),
            Row::Node { id, .. } => RowKey::Node(id.clone()),
            Row::Rule { key, .. } => RowKey::Rule(key.clone()),
        }
    }

    /// Whether this row is the one `key` names; unlike comparing with `key()`, it allocates
    /// nothing, which matters when looking through thousands of rows.
    pub fn has_key(&self, key: &RowKey) -> bool {
        match (self, key) {
            (Row::Reason(reason), RowKey::Reason(b)) => reason.key == *b,
            (Row::Cohort { key: a, .. }, RowKey::Cohort(b)) => a == b,
            (Row::Below { cohort: a, .. }, RowKey::Below(b)) => a == b,
            (Row::Node { id: a, .. }, RowKey::Node(b)) => a == b,
            (Row::Rule { key: a, .. }, RowKey::Rule(b)) => a == b,
            _ => false,
        }
    }
}

/// How far to unfold while building rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfold {
    /// As the person left the folds.
    AsState,
    /// Everything open: used to find where a finding lives.
    All,
}

/// The visible rows.
pub fn rows(state: &AppState) -> Vec<Row> {
    build(state, Unfold::AsState)
}

/// Where a problem sorts within its group: priority, then the most confident, then id. Not
/// its status: a row stays where it is when it is confirmed, dismissed or resolved, so the
/// list does not move under the cursor during triage. Computed once per problem, so sorting
/// compares plain values.
type Order<'s> = (Priority, std::cmp::Reverse<i64>, &'s str);

struct Group<'s> {
    key: String,
    label: String,
    fallback: bool,
    blast_radius: Option<u32>,
    main: Vec<(Order<'s>, &'s Problem, &'s ReviewNode)>,
    below: Vec<(Order<'s>, &'s Problem, &'s ReviewNode)>,
}

pub fn build(state: &AppState, unfold: Unfold) -> Vec<Row> {
    let filter = Filter::parse(&state.findings.filter);
    let mut groups: Vec<Group> = state
        .cohorts
        .iter()
        .map(|c| Group {
            key: c.key.clone(),
            label: c.label.clone(),
            fallback: c.fallback,
            blast_radius: Some(c.blast_radius),
            main: Vec::new(),
            below: Vec::new(),
        })
        .collect();
    let mut cohort_of_file: HashMap<&str, usize> = HashMap::new();
    for (i, cohort) in state.cohorts.iter().enumerate() {
        for file in &cohort.files {
            cohort_of_file.entry(file.as_str()).or_insert(i);
        }
    }
    let other_label = if state.cohorts.is_empty() {
        "all findings"
    } else {
        "other files"
    };
    let mut other = Group {
        key: OTHER_COHORT.to_string(),
        label: other_label.to_string(),
        fallback: false,
        blast_radius: None,
        main: Vec::new(),
        below: Vec::new(),
    };

    for problem in state.problems() {
        let Some(primary) = state.node(&problem.primary) else {
            continue;
        };
        if !filter.is_empty()
            && !problem
                .members
                .iter()
                .any(|m| state.node(m).is_some_and(|n| filter.matches(n)))
        {
            continue;
        }
        let group = match primary
            .anchor
            .as_ref()
            .and_then(|a| cohort_of_file.get(a.path.as_str()))
        {
            Some(&i) => &mut groups[i],
            None => &mut other,
        };
        let order = (
            primary.priority,
            std::cmp::Reverse(confidence_key(primary.confidence)),
            primary.id.as_str(),
        );
        match state.level.placement(primary) {
            Placement::Main => group.main.push((order, problem, primary)),
            Placement::BelowThreshold => group.below.push((order, problem, primary)),
        }
    }
    groups.push(other);

    // Room for every problem and its group's two header rows up front: growing a vector of
    // 10k rows copies it over and over.
    let mut rows = Vec::with_capacity(state.problems().len() + 2 * groups.len());
    rows.extend(
        crate::ui::reasons::reasons(state)
            .into_iter()
            .map(Row::Reason),
    );
    for mut group in groups {
        let total = group.main.len() + group.below.len();
        if total == 0 {
            continue;
        }
        group.main.sort_by(|a, b| a.0.cmp(&b.0));
        group.below.sort_by(|a, b| a.0.cmp(&b.0));
        let collapsed = unfold == Unfold::AsState && state.findings.collapsed.contains(&group.key);
        rows.push(Row::Cohort {
            key: group.key.clone(),
            label: group.label.clone(),
            fallback: group.fallback,
            blast_radius: group.blast_radius,
            problems: total,
            collapsed,
        });
        if collapsed {
            continue;
        }
        push_group(&mut rows, state, &group.key, &group.main, false, unfold);
        if !group.below.is_empty() {
            let open = unfold == Unfold::All || state.findings.below_open.contains(&group.key);
            rows.push(Row::Below {
                cohort: group.key.clone(),
                count: group.below.len(),
                open,
            });
            if open {
                push_group(&mut rows, state, &group.key, &group.below, true, unfold);
            }
        }
    }
    rows
}

/// How many problems of one rule in one group fold into one row: two rows are read at a
/// glance, and folding them would only hide one behind a key.
pub const RULE_FOLD: usize = 3;

/// The key of the fold of `rule`'s problems in `cohort`'s main list or below threshold.
pub fn rule_key(cohort: &str, below: bool, rule: &str) -> String {
    let place = if below { "below" } else { "main" };
    format!("{cohort}\u{1f}{place}\u{1f}{rule}")
}

/// One group's problems, sorted: a rule that raised several of them folds them into one row
/// where its first (most urgent) problem sorts.
fn push_group(
    rows: &mut Vec<Row>,
    state: &AppState,
    cohort: &str,
    problems: &[(Order<'_>, &Problem, &ReviewNode)],
    below: bool,
    unfold: Unfold,
) {
    let mut by_rule: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (_, _, primary)) in problems.iter().enumerate() {
        if let Some(rule) = primary.rule.as_deref().filter(|r| !r.is_empty()) {
            by_rule.entry(rule).or_default().push(i);
        }
    }
    let mut folded: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (_, problem, primary) in problems {
        let fold = primary.rule.as_deref().and_then(|rule| {
            by_rule
                .get(rule)
                .filter(|m| m.len() >= RULE_FOLD)
                .map(|m| (rule, m))
        });
        let Some((rule, members)) = fold else {
            push_problem(rows, state, problem, primary, below, false, unfold);
            continue;
        };
        if !folded.insert(rule) {
            continue;
        }
        let key = rule_key(cohort, below, rule);
        let open = unfold == Unfold::All || state.findings.rules_open.contains(&key);
        rows.push(Row::Rule {
            key,
            rule: rule.to_string(),
            members: members
                .iter()
                .map(|&i| problems[i].1.primary.clone())
                .collect(),
            below,
            open,
        });
        if open {
            for &i in members {
                let (_, problem, primary) = problems[i];
                push_problem(rows, state, problem, primary, below, true, unfold);
            }
        }
    }
}

fn push_problem(
    rows: &mut Vec<Row>,
    state: &AppState,
    problem: &Problem,
    primary: &ReviewNode,
    below: bool,
    in_rule: bool,
    unfold: Unfold,
) {
    rows.push(Row::Node {
        id: problem.primary.clone(),
        duplicate: false,
        in_rule,
        duplicates: problem.members.len() - 1,
        found_by: problem.found_by.clone(),
        confirmed_by: confirmers(primary),
        below,
    });
    let expanded = unfold == Unfold::All || state.findings.expanded.contains(&problem.primary);
    if expanded {
        for member in &problem.members[1..] {
            let Some(node) = state.node(member) else {
                continue;
            };
            rows.push(Row::Node {
                id: member.clone(),
                duplicate: true,
                in_rule,
                duplicates: 0,
                found_by: vec![node.origin.reviewer.clone()],
                confirmed_by: confirmers(node),
                below,
            });
        }
    }
}

fn confirmers(node: &ReviewNode) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for stance in &node.confirmations {
        let name = match &stance.by {
            Actor::Reviewer(name) => name.clone(),
            Actor::Person(name) => format!("{name} (you)"),
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Confidence as an orderable integer (0–1000).
fn confidence_key(confidence: f64) -> i64 {
    (confidence * 1000.0).round() as i64
}

/// The finding the selected row stands for: the selected finding, or a rule fold's first
/// (most urgent) finding.
pub fn row_node(state: &AppState) -> Option<&ReviewNode> {
    match &state.findings.selected {
        Some(key @ RowKey::Rule(_)) => {
            let first = rule_members(state, key).into_iter().next()?;
            state.node(&first)
        }
        _ => state.selected_node(),
    }
}

/// The findings (problems, by primary id) the rule fold `key` holds, in list order; empty for
/// any other row or a fold no longer listed.
pub fn rule_members(state: &AppState, key: &RowKey) -> Vec<String> {
    if !matches!(key, RowKey::Rule(_)) {
        return Vec::new();
    }
    build(state, Unfold::All)
        .into_iter()
        .find_map(|row| match row {
            Row::Rule { members, .. } if row.has_key(key) => Some(members),
            _ => None,
        })
        .unwrap_or_default()
}

/// Where a row sits in `rows`, by key.
pub fn position(rows: &[Row], key: &RowKey) -> Option<usize> {
    rows.iter().position(|row| row.has_key(key))
}

/// How many problems the level puts in the main list and below threshold (ignoring the filter).
pub fn placement_counts(state: &AppState) -> (usize, usize) {
    let mut counts = (0, 0);
    for problem in state.problems() {
        if let Some(node) = state.node(&problem.primary) {
            match state.level.placement(node) {
                Placement::Main => counts.0 += 1,
                Placement::BelowThreshold => counts.1 += 1,
            }
        }
    }
    counts
}

/// The findings filter: `@reviewer` (found or confirmed by), `p0`…`p3`, `is:open` (a status),
/// and words matched against title, path, rule, category and kind. Terms of one class are
/// alternatives (`p0 p1`); classes and words must all match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    reviewers: Vec<String>,
    priorities: Vec<crate::review::Priority>,
    statuses: Vec<Status>,
    words: Vec<String>,
    /// Terms that look like a priority or a status but are none (`p9`, `is:bogus`): they
    /// would silently match nothing, so the cockpit says what is wrong instead.
    pub problems: Vec<String>,
}

/// `is:` names, the list's words first (`ready`), prefixes allowed (`is:dis`).
const STATUS_NAMES: [(&str, Status); 5] = [
    ("open", Status::Open),
    ("ready", Status::ConsensusReady),
    ("consensus_ready", Status::ConsensusReady),
    ("resolved", Status::Resolved),
    ("dismissed", Status::Dismissed),
];

impl Filter {
    pub fn parse(text: &str) -> Filter {
        let mut filter = Filter::default();
        for term in text.split_whitespace() {
            let lower = term.to_lowercase();
            if let Some(name) = lower.strip_prefix('@') {
                if !name.is_empty() {
                    filter.reviewers.push(name.to_string());
                }
            } else if lower.len() == 2
                && lower.starts_with('p')
                && lower[1..].chars().all(|c| c.is_ascii_digit())
            {
                match crate::review::Priority::parse(&lower) {
                    Some(priority) => filter.priorities.push(priority),
                    None => filter
                        .problems
                        .push(format!("`{term}` is no priority: p0, p1, p2 or p3")),
                }
            } else if let Some(status) = lower.strip_prefix("is:") {
                let found: Vec<Status> = STATUS_NAMES
                    .iter()
                    .filter(|(name, _)| !status.is_empty() && name.starts_with(status))
                    .map(|(_, s)| *s)
                    .collect();
                if found.is_empty() {
                    filter.problems.push(format!(
                        "`{term}` is no status: is:open, is:ready, is:resolved or is:dismissed"
                    ));
                }
                filter.statuses.extend(found);
            } else {
                filter.words.push(lower);
            }
        }
        filter
    }

    pub fn is_empty(&self) -> bool {
        self.reviewers.is_empty()
            && self.priorities.is_empty()
            && self.statuses.is_empty()
            && self.problems.is_empty()
            && self.words.is_empty()
    }

    pub fn matches(&self, node: &ReviewNode) -> bool {
        if !self.problems.is_empty() {
            return false;
        }
        if !self.reviewers.is_empty() {
            let by = |name: &str| {
                let name = name.to_lowercase();
                self.reviewers.iter().any(|r| name.contains(r.as_str()))
            };
            let found =
                by(&node.origin.reviewer) || node.confirmations.iter().any(|s| by(s.by.name()));
            if !found {
                return false;
            }
        }
        if !self.priorities.is_empty() && !self.priorities.contains(&node.priority) {
            return false;
        }
        if !self.statuses.is_empty() && !self.statuses.contains(&node.status) {
            return false;
        }
        if self.words.is_empty() {
            return true;
        }
        let haystack = format!(
            "{} {} {} {} {}",
            node.text.title,
            node.location(),
            node.rule.as_deref().unwrap_or(""),
            node.triage.category,
            node.kind.as_str()
        )
        .to_lowercase();
        self.words.iter().all(|w| haystack.contains(w.as_str()))
    }
}

/// Whether the list has room for its column header: above a few rows it always does.
pub(crate) fn header_rows(inner_height: u16) -> u16 {
    u16::from(inner_height >= 4)
}

/// How many findings rows the list shows in a pane of `area` (borders and header off).
pub(crate) fn list_height(area: Rect) -> usize {
    let inner = area.height.saturating_sub(2);
    (inner - header_rows(inner)) as usize
}
