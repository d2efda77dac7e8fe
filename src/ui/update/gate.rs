//! The approval gate and the publish preview: fix, ignore, publish, and nothing posted
//! without the person.

use crate::review::ReviewNode;
use crate::space::Ladder;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, InputPurpose, MessageKind, Overlay};

use super::component::Component;
use super::scroll::scroll_overlay;
use super::{Effect, info, message};

/// The approval gate: its keys stay on screen; what is above them scrolls.
pub(super) struct Gate;

impl Component for Gate {
    fn context(&self) -> Context {
        Context::Gate
    }

    fn available(&self, state: &AppState, command: Command) -> bool {
        match command {
            Command::GateFix => chosen(state).iter().any(|n| has_fix(n)),
            Command::GateIgnore => !ignore_targets(state).is_empty(),
            // A published round again only for what changed since (the triage, or thread
            // drafts not posted yet).
            Command::GatePublish => state.published.is_none() || state.something_new(),
            Command::GateWhy => !state.holding().is_empty(),
            Command::ViewPatch => state.patch.is_some(),
            _ => true,
        }
    }

    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
        if let Some(effects) = scroll_overlay(state, command) {
            return Some(effects);
        }
        match command {
            Command::GateFix
            | Command::GateIgnore
            | Command::GatePublish
            | Command::GateDetails
            | Command::GateWhy
            | Command::GateAbort
            | Command::HandBack => Some(gate_command(state, command)),
            _ => None,
        }
    }
}

fn gate_command(state: &mut AppState, command: Command) -> Vec<Effect> {
    match command {
        Command::GateFix => return gate_fix(state),
        Command::GateIgnore => gate_ignore(state),
        Command::GatePublish => {
            if let (Some(target), false) = (&state.published, state.something_new()) {
                let text = format!(
                    "round {} was published: {target}; nothing changed since",
                    state.round
                );
                message(state, MessageKind::Warn, text);
                return Vec::new();
            }
            if matches!(state.top_overlay(), Some(Overlay::Gate { .. })) {
                state.overlays.push(Overlay::PreviewPending);
                return vec![Effect::PreviewPublish];
            }
        }
        Command::HandBack => {
            info(state, "writing the prompt for the agent…".to_string());
            return vec![Effect::HandBack];
        }
        Command::GateWhy => gate_why(state),
        Command::GateDetails => {
            if let Some(Overlay::Gate { details, .. }) = state.overlays.last_mut() {
                *details = !*details;
            }
        }
        // Its label says "leave without publishing": the gate closes, the cockpit stays.
        Command::GateAbort => {
            if matches!(state.top_overlay(), Some(Overlay::Gate { .. })) {
                state.overlays.pop();
                // What was published stays published: leaving says so, never the opposite.
                let text = match &state.published {
                    Some(target) => {
                        format!(
                            "left the gate: round {} is published ({target})",
                            state.round
                        )
                    }
                    None => "left the gate: nothing was published".to_string(),
                };
                info(state, text);
            }
        }
        _ => {}
    }
    Vec::new()
}

/// `w`: the gate closes on the next finding that holds the verdict (after the selected one,
/// wrapping), revealed and selected in the list, where the person's dismissal with a reason
/// (`x`) is the only override: the verdict by code is never set by hand.
fn gate_why(state: &mut AppState) {
    let ids: Vec<String> = state.holding().iter().map(|n| n.id.clone()).collect();
    // A gated axis not cleared holds the verdict with no finding in the list: the gate's
    // details say which and why (each break, with its file and line).
    let axes: Vec<String> = state
        .axes
        .iter()
        .filter(|a| a.gated && !a.verdict.clears_gate())
        .map(|a| format!("{} is {}", a.name, a.verdict))
        .collect();
    if ids.is_empty() {
        if axes.is_empty() {
            info(state, "nothing holds the verdict".to_string());
            return;
        }
        if let Some(Overlay::Gate { details, .. }) = state.overlays.last_mut() {
            *details = true;
        }
        let text = format!(
            "no finding holds the verdict: the gated axis {} does (the details above say why; its row at the top of the list lists each break and d opens it in the diff)",
            axes.join(", the gated axis ")
        );
        info(state, text);
        return;
    }
    let at = state
        .selected_node()
        .and_then(|n| ids.iter().position(|id| *id == n.id));
    let id = match at {
        Some(i) => ids[(i + 1) % ids.len()].clone(),
        None => ids[0].clone(),
    };
    state.overlays.clear();
    super::selection::reveal(state, &id);
    state.findings.selected = Some(crate::ui::state::RowKey::Node(id.clone()));
    state.detail.scroll = 0;
    // The list, on screen (a zoomed detail would hide it).
    state.detail.zoomed = false;
    state.focus = crate::ui::state::Pane::Findings;
    let position = ids.iter().position(|i| *i == id).unwrap_or(0) + 1;
    let also = if axes.is_empty() {
        String::new()
    } else {
        format!(
            "; also held by the gated axis {} (the gate's details)",
            axes.join(", ")
        )
    };
    let text = format!(
        "holds the verdict ({position} of {}): {} — x dismisses it with a reason, d opens its diff, w in the gate goes to the next{also}",
        ids.len(),
        state.label(&id)
    );
    info(state, text);
}

/// The publish preview, and the wait for it: enter publishes exactly what is shown.
pub(super) struct Preview;

impl Component for Preview {
    fn context(&self) -> Context {
        Context::Preview
    }

    fn available(&self, state: &AppState, command: Command) -> bool {
        let raised = match state.top_overlay() {
            Some(Overlay::Preview { data, .. }) => data.already_raised.len(),
            _ => 0,
        };
        match command {
            Command::PublishConfirm => matches!(state.top_overlay(), Some(Overlay::Preview { .. })),
            Command::IncludeRaised => raised > 0,
            Command::NextFinding | Command::PrevFinding => raised > 1,
            _ => true,
        }
    }

    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
        if let Some(effects) = scroll_overlay(state, command) {
            return Some(effects);
        }
        match command {
            Command::PublishConfirm | Command::PublishCancel => {
                Some(preview_command(state, command))
            }
            Command::IncludeRaised => Some(include_raised(state)),
            Command::NextFinding | Command::PrevFinding => {
                if let Some(Overlay::Preview { data, raised, .. }) = state.overlays.last_mut() {
                    let n = data.already_raised.len().max(1);
                    *raised = match command {
                        Command::NextFinding => (*raised + 1) % n,
                        _ => (*raised + n - 1) % n,
                    };
                }
                Some(Vec::new())
            }
            _ => None,
        }
    }
}

/// The include key: the selected finding an open thread already raises is posted, or left
/// out again. The choice is the person's, kept in the space and undone with `u` like a
/// triage change; the preview is asked for again, since what it shows changed, and `enter`
/// waits for it: what is published is always what is shown.
fn include_raised(state: &mut AppState) -> Vec<Effect> {
    let Some(Overlay::Preview {
        data,
        scroll,
        raised,
    }) = state.top_overlay()
    else {
        return Vec::new();
    };
    let Some(row) = data.already_raised.get(*raised).cloned() else {
        return Vec::new();
    };
    state.preview_at = Some((*scroll, *raised));
    let include = !row.included;
    let effects = set_raised(state, &row.fingerprint, include);
    state.undo.push(crate::ui::state::Undoable {
        steps: Vec::new(),
        drafts: vec![crate::ui::state::DraftStep::Raised {
            fingerprint: row.fingerprint,
            what: row.location.clone(),
            included: include,
        }],
        room: None,
    });
    state.redo.clear();
    let text = match include {
        true => format!("included {}: posted on its line", row.location),
        false => format!("left out again: {}", row.location),
    };
    info(state, text);
    if let Some(top) = state.overlays.last_mut() {
        *top = Overlay::PreviewPending;
    }
    effects
        .into_iter()
        .chain([Effect::PreviewPublish])
        .collect()
}

/// The person's choice on a finding already raised, on screen and to the session.
pub(super) fn set_raised(state: &mut AppState, fingerprint: &str, include: bool) -> Vec<Effect> {
    match include {
        true => state.include_raised.insert(fingerprint.to_string()),
        false => state.include_raised.remove(fingerprint),
    };
    vec![Effect::IncludeRaised {
        fingerprint: fingerprint.to_string(),
        include,
    }]
}

fn preview_command(state: &mut AppState, command: Command) -> Vec<Effect> {
    match command {
        Command::PublishConfirm => {
            if matches!(state.top_overlay(), Some(Overlay::Preview { .. })) {
                state.overlays.clear();
                info(state, "publishing…".to_string());
                return vec![Effect::Publish];
            }
        }
        Command::PublishCancel => {
            if matches!(
                state.top_overlay(),
                Some(Overlay::Preview { .. } | Overlay::PreviewPending)
            ) {
                state.overlays.pop();
                info(state, "publish cancelled: nothing was posted".to_string());
            }
        }
        _ => {}
    }
    Vec::new()
}

pub(super) fn open_gate(state: &mut AppState) {
    // A published round's gate stays readable: it says where the round went.
    let published = state.ladder == Ladder::Completed && state.published.is_some();
    if state.ladder != Ladder::AwaitingApproval && !published {
        message(
            state,
            MessageKind::Warn,
            format!(
                "the approval gate opens when the review is awaiting approval (it is {})",
                state.ladder
            ),
        );
        return;
    }
    if !matches!(state.top_overlay(), Some(Overlay::Gate { .. })) {
        state.overlays.push(Overlay::Gate {
            details: false,
            scroll: 0,
        });
    }
}

fn has_fix(node: &ReviewNode) -> bool {
    node.fix.as_ref().is_some_and(|f| {
        f.replacement.is_some() || f.prompt.as_deref().is_some_and(|p| !p.trim().is_empty())
    })
}

/// The findings the fix works on: the marked ones, or (nothing marked) the counted ones, one
/// per problem, exactly as the verdict counts them (the gate's "counted N").
fn chosen(state: &AppState) -> Vec<&ReviewNode> {
    if state.findings.marked.is_empty() {
        state
            .verdict
            .iter()
            .flat_map(|v| v.counted.iter())
            .filter_map(|id| state.node(id))
            .collect()
    } else {
        state
            .board
            .nodes
            .iter()
            .filter(|n| state.findings.marked.contains(&n.id))
            .collect()
    }
}

/// The findings ignore dismisses: the marked active ones, or the selected one when active.
fn ignore_targets(state: &AppState) -> Vec<String> {
    let mut node_ids: Vec<String> = state
        .board
        .nodes
        .iter()
        .filter(|n| state.findings.marked.contains(&n.id) && n.status.is_active())
        .map(|n| n.id.clone())
        .collect();
    if node_ids.is_empty()
        && let Some(node) = state.selected_node()
        && node.status.is_active()
    {
        node_ids.push(node.id.clone());
    }
    node_ids
}

fn gate_fix(state: &mut AppState) -> Vec<Effect> {
    let chosen = chosen(state);
    // Which findings, said the same way in every message about them.
    let which = if state.findings.marked.is_empty() {
        format!(
            "the {} counted (nothing is marked)",
            crate::ui::text::plural(chosen.len(), "finding")
        )
    } else {
        format!("the {} marked", chosen.len())
    };
    let node_ids: Vec<String> = chosen
        .iter()
        .filter(|n| has_fix(n))
        .map(|n| n.id.clone())
        .collect();
    if node_ids.is_empty() {
        message(
            state,
            MessageKind::Warn,
            format!("no fix: none of {which} has replacement lines or a fix prompt"),
        );
        return Vec::new();
    }
    // Only what was asked: the session's answer (a patch written, or why not) is the outcome,
    // and replaces this line.
    info(
        state,
        format!("fix: working on {} of {which}…", node_ids.len()),
    );
    vec![Effect::WritePatch { node_ids }]
}

fn gate_ignore(state: &mut AppState) {
    let node_ids = ignore_targets(state);
    if node_ids.is_empty() {
        message(
            state,
            MessageKind::Warn,
            "select a finding, or mark several with space, to ignore".to_string(),
        );
        return;
    }
    state
        .overlays
        .push(Overlay::input(InputPurpose::Dismiss { node_ids }, ""));
}
