//! Where the selection is: kept on a visible row as the list changes, moved to the next open
//! finding, and unfolding what hides a finding it is sent to.

use crate::ui::rows::{self, Row, Unfold};
use crate::ui::state::{AppState, MessageKind, Pane, RowKey};

use super::{Effect, info, message};

/// Keeps the selection on a visible row: a node hidden by a fold selects the fold that hides
/// it; a node gone (filtered out) selects the first finding. Also keeps it in the viewport.
pub(super) fn reconcile_selection(state: &mut AppState) {
    let visible = rows::rows(state);
    let in_view = state
        .findings
        .selected
        .as_ref()
        .and_then(|key| rows::position(&visible, key));
    // Until the person moves, the list starts at its first finding, however the findings
    // streamed in: the same review opens on the same row.
    let untouched = state.findings.auto_selected.is_some()
        && state.findings.auto_selected == state.findings.selected;
    let index = match in_view {
        Some(i) if !untouched => Some(i),
        _ if untouched => {
            let first = visible
                .iter()
                .position(|r| matches!(r, Row::Node { .. } | Row::Rule { .. }))
                .or((!visible.is_empty()).then_some(0));
            state.findings.selected = first.map(|i| visible[i].key());
            state.findings.auto_selected = state.findings.selected.clone();
            first
        }
        _ => {
            let fallback = state
                .findings
                .selected
                .clone()
                .and_then(|key| containing_fold(state, &visible, &key));
            let first = || {
                visible
                    .iter()
                    .find(|r| matches!(r, Row::Node { .. } | Row::Rule { .. }))
                    .or(visible.first())
                    .map(Row::key)
            };
            match fallback {
                Some(fold) => state.findings.selected = Some(fold),
                None => {
                    state.findings.selected = first();
                    // Nobody chose it: it follows the list's top until someone does.
                    state.findings.auto_selected = state.findings.selected.clone();
                }
            }
            state
                .findings
                .selected
                .as_ref()
                .and_then(|key| rows::position(&visible, key))
        }
    };
    let height = crate::ui::rows::list_height(state.layout.findings);
    // A taller terminal (after a resize) shows rows from the top again rather than keeping
    // the small screen's offset with empty lines below the last row.
    state.findings.offset = state
        .findings
        .offset
        .min(visible.len().saturating_sub(height));
    if let Some(i) = index
        && height > 0
    {
        if i < state.findings.offset {
            state.findings.offset = i;
        } else if i >= state.findings.offset + height {
            state.findings.offset = i + 1 - height;
        }
    }
    if state.disagreements.selected.is_some() {
        let all = &state.disagreements();
        let still = all.iter().any(|d| {
            Some((&d.a, &d.b)) == state.disagreements.selected.as_ref().map(|(a, b)| (a, b))
        });
        if !still {
            state.disagreements.selected = all.first().map(|d| (d.a.clone(), d.b.clone()));
        }
    }
}

/// The visible fold (collapsed cohort, folded below-threshold group, folded rule, folded
/// problem) that hides `key`, if it is hidden by one.
fn containing_fold(state: &AppState, visible: &[Row], key: &RowKey) -> Option<RowKey> {
    let RowKey::Node(_) = key else {
        return None;
    };
    let all = rows::build(state, Unfold::All);
    let at = rows::position(&all, key)?;
    folds_above(&all, at)
        .into_iter()
        .find(|fold| rows::position(visible, fold).is_some())
}

/// The folds that hold row `at` of the fully unfolded `all`, innermost first: its problem
/// (for a duplicate), its rule fold, its below-threshold group, its cohort.
fn folds_above(all: &[Row], at: usize) -> Vec<RowKey> {
    // The problem the row belongs to (found above a duplicate), and whether it is below
    // threshold. A rule fold's own row sits in no rule fold.
    let (mut problem, mut find_primary, below) = match &all[at] {
        Row::Node {
            id,
            duplicate,
            below,
            ..
        } => ((!duplicate).then_some(id), *duplicate, *below),
        Row::Rule { below, .. } => (None, false, *below),
        _ => return Vec::new(),
    };
    let mut folds = Vec::new();
    for row in all[..at].iter().rev() {
        match row {
            Row::Node {
                id: primary,
                duplicate: false,
                ..
            } if find_primary => {
                folds.push(row.key());
                problem = Some(primary);
                find_primary = false;
            }
            Row::Rule { members, .. } if problem.is_some_and(|p| members.contains(p)) => {
                folds.push(row.key());
            }
            Row::Below { .. } if below => folds.push(row.key()),
            Row::Cohort { .. } => {
                folds.push(row.key());
                break;
            }
            _ => {}
        }
    }
    folds
}

/// Unfolds whatever hides node `id`: its cohort, its below-threshold group, its rule fold,
/// its problem.
pub(crate) fn reveal(state: &mut AppState, id: &str) {
    reveal_row(state, &RowKey::Node(id.to_string()));
}

/// Unfolds whatever hides the row `key` names (a finding or a rule fold).
fn reveal_row(state: &mut AppState, key: &RowKey) {
    let all = rows::build(state, Unfold::All);
    let Some(at) = rows::position(&all, key) else {
        return;
    };
    for fold in folds_above(&all, at) {
        match fold {
            RowKey::Node(primary) => {
                state.findings.expanded.insert(primary);
            }
            RowKey::Rule(key) => {
                state.findings.rules_open.insert(key);
            }
            RowKey::Below(cohort) => {
                state.findings.below_open.insert(cohort);
            }
            RowKey::Cohort(key) => {
                state.findings.collapsed.remove(&key);
            }
            RowKey::Reason(_) => {}
        }
    }
}

/// `n`/`N`: the next or previous *open* finding in the main lists (duplicates and
/// below-threshold findings are skipped; a folded rule with an open finding is one stop),
/// wrapping around the list and unfolding a collapsed cohort to show it.
pub(super) fn jump_finding(state: &mut AppState, forward: bool) {
    let all = rows::build(state, Unfold::All);
    let current = state
        .findings
        .selected
        .as_ref()
        .and_then(|key| rows::position(&all, key));
    match next_open(state, &all, current, forward) {
        Some((key, wrapped)) => {
            reveal_row(state, &key);
            state.findings.selected = Some(key);
            state.detail.scroll = 0;
            if wrapped {
                let text = if forward {
                    "wrapped to the first open finding"
                } else {
                    "wrapped to the last open finding"
                };
                info(state, text.to_string());
            }
        }
        None => message(state, MessageKind::Warn, "no open findings".to_string()),
    }
}

/// The open finding (or folded rule holding one) after (or before) row `current` of the
/// fully unfolded `all`, and whether the search wrapped around the end.
fn next_open(
    state: &AppState,
    all: &[Row],
    current: Option<usize>,
    forward: bool,
) -> Option<(RowKey, bool)> {
    let is_open = |id: &String| {
        state
            .node(id)
            .is_some_and(|n| n.status == crate::review::Status::Open)
    };
    // A rule fold the person has not unfolded is one stop; an unfolded one, its findings.
    let mut in_closed_fold = false;
    let mut open: Vec<(usize, RowKey)> = Vec::new();
    for (i, row) in all.iter().enumerate() {
        match row {
            Row::Rule {
                key,
                members,
                below: false,
                ..
            } => {
                in_closed_fold = !state.findings.rules_open.contains(key);
                if in_closed_fold && members.iter().any(is_open) {
                    open.push((i, row.key()));
                }
            }
            Row::Node {
                id,
                duplicate: false,
                below: false,
                in_rule,
                ..
            } if !(*in_rule && in_closed_fold) && is_open(id) => open.push((i, row.key())),
            _ => {}
        }
    }
    let found = match (current, forward) {
        (None, true) => open.first().map(|f| (f, false)),
        (None, false) => open.last().map(|f| (f, false)),
        (Some(at), true) => open
            .iter()
            .find(|(i, _)| *i > at)
            .map(|f| (f, false))
            .or_else(|| open.first().filter(|(i, _)| *i != at).map(|f| (f, true))),
        (Some(at), false) => open
            .iter()
            .rev()
            .find(|(i, _)| *i < at)
            .map(|f| (f, false))
            .or_else(|| open.last().filter(|(i, _)| *i != at).map(|f| (f, true))),
    };
    found.map(|((_, key), wrapped)| (key.clone(), wrapped))
}

/// After a triage key on the list worked, the cursor goes on to the next open finding, the
/// way a reviewer works down a list (it stays when none is left).
pub(super) fn move_on(state: &mut AppState, id: &str, effects: &[Effect]) {
    if effects.is_empty() || state.focus != Pane::Findings {
        return;
    }
    let all = rows::build(state, Unfold::All);
    let at = rows::position(&all, &RowKey::Node(id.to_string()));
    if let Some((next, _)) = next_open(state, &all, at, true) {
        reveal_row(state, &next);
        state.findings.selected = Some(next);
        state.detail.scroll = 0;
    }
}
