//! Disagreements, above the findings: where reviewers diverge, both sides side by side.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::{ViewContext, pad};
use crate::review::disagreement::{Disagreement, DisagreementKind};
use crate::ui::state::{AppState, Pane};

pub fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    disagreements: &[Disagreement],
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    let focused = state.focus == Pane::Disagreements && state.overlays.is_empty();
    let block = Block::bordered()
        .title(Span::styled(
            format!(" Disagreements ({}) ", disagreements.len()),
            theme.disagreement,
        ))
        .border_style(theme.border_for(focused));
    let inner = block.inner(area);
    let columns = inner.width as usize;
    let place_width = 18.min(columns / 4);
    let side_width = columns.saturating_sub(place_width + 4) / 2;
    let mut lines = Vec::new();
    let height = inner.height as usize;
    for d in disagreements {
        // The pane does not scroll: lines past its height would never show.
        if lines.len() >= height {
            break;
        }
        let (Some(a), Some(b)) = (state.node(&d.a), state.node(&d.b)) else {
            continue;
        };
        let line = a
            .anchor
            .as_ref()
            .map(|x| format!("{}:{}", short_path(&x.path), x.start_line))
            .unwrap_or_default();
        let side = |n: &crate::review::ReviewNode| {
            pad(
                &format!(
                    "{} {} {}: {}",
                    n.priority,
                    n.kind.as_str(),
                    n.origin.reviewer,
                    n.text.title
                ),
                side_width,
            )
        };
        let why = match d.kind {
            DisagreementKind::Priority { .. } => "≠",
            DisagreementKind::BugOrSuggestion => "≈",
            DisagreementKind::ConfirmedAndDisputed { .. } => "⇄",
        };
        let selected =
            focused && state.selected_disagreement.as_ref() == Some(&(d.a.clone(), d.b.clone()));
        let mut spans = vec![
            Span::styled(pad(&line, place_width), theme.muted),
            Span::raw(" "),
            Span::styled(side(a), theme.priority(a.priority)),
            Span::styled(format!(" {why} "), theme.disagreement),
            Span::styled(side(b), theme.priority(b.priority)),
        ];
        if selected {
            spans = spans
                .into_iter()
                .map(|s| s.patch_style(theme.selection))
                .collect();
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The last two components of a path: `ui/view.rs`.
fn short_path(path: &str) -> String {
    let parts: Vec<&str> = path.rsplitn(3, '/').collect();
    match parts.as_slice() {
        [file, dir, _] => format!("{dir}/{file}"),
        _ => path.to_string(),
    }
}
