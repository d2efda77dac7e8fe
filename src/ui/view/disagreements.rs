//! Disagreements, above the findings: where reviewers diverge, both sides side by side.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use super::{ViewContext, pad, truncate, width};
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
            // The marks' meaning where they are read, as long as the pane is wide enough.
            format!(
                " Disagreements ({}) · ≠ priority ≈ kind ⇄ disputed ",
                disagreements.len()
            ),
            theme.disagreement,
        ))
        .border_style(theme.border_for(focused));
    let inner = block.inner(area);
    let columns = inner.width as usize;
    // The line number is what tells two rows on one file apart: the place is cut from the
    // left (the directory goes first), never the number.
    let place_width = 18.min(columns / 4);
    let mut lines = Vec::new();
    let mut selected_row = None;
    // Every row is built: the pane shows those around the selection and says where it is
    // (`rows 1–1 of 4`) when they do not all fit.
    for d in disagreements {
        let (Some(a), Some(b)) = (state.node(&d.a), state.node(&d.b)) else {
            continue;
        };
        // Where each side is: two rows that pair one finding with two others on the same
        // file differ by where the other one is, so that comes before any title.
        let line = a
            .anchor
            .as_ref()
            .map(|x| {
                tail(
                    &format!("{}:{}", short_path(&x.path), lines_of(x)),
                    place_width,
                )
            })
            .unwrap_or_default();
        let other_place = match (&a.anchor, &b.anchor) {
            (Some(x), Some(y)) if x.path == y.path && lines_of(x) == lines_of(y) => String::new(),
            (Some(x), Some(y)) if x.path == y.path => format!(" :{}", lines_of(y)),
            (_, Some(y)) => format!(" {}:{}", short_path(&y.path), lines_of(y)),
            (_, None) => String::new(),
        };
        // Who says what first (short, so two rows differ where they differ), then the title.
        let side = |n: &crate::review::ReviewNode| {
            format!(
                "{} {} {}",
                n.priority,
                crate::ui::text::kind_label(n.kind),
                n.origin.reviewer
            )
        };
        let why = match d.kind {
            DisagreementKind::Priority { .. } => "≠",
            DisagreementKind::BugOrSuggestion => "≈",
            // Both are a dispute the person settles (`✗` is the list's dismissed mark).
            DisagreementKind::ConfirmedAndDisputed { .. } | DisagreementKind::Disputed { .. } => {
                "⇄"
            }
        };
        let selected =
            focused && state.disagreements.selected.as_ref() == Some(&(d.a.clone(), d.b.clone()));
        // A dispute is one finding paired with itself: its other side is who disputed it (and
        // the peer who confirmed it), never its author a second time.
        let right = match &d.kind {
            DisagreementKind::Disputed { disputed_by } => disputed_by.clone(),
            DisagreementKind::ConfirmedAndDisputed {
                confirmed_by,
                disputed_by,
            } => format!("{disputed_by} (✓ {confirmed_by})"),
            _ => format!("{}{other_place}", side(b)),
        };
        let left = side(a);
        let used = place_width + 1 + width(&left) + 3 + width(&right) + 2;
        let title = if a.text.title == b.text.title {
            a.text.title.clone()
        } else {
            format!("{} / {}", a.text.title, b.text.title)
        };
        let mut spans = vec![
            Span::styled(pad(&line, place_width), theme.muted),
            Span::raw(" "),
            Span::styled(left, theme.priority(a.priority)),
            Span::styled(format!(" {why} "), theme.disagreement),
            Span::styled(right, theme.priority(b.priority)),
            Span::styled(
                format!("  {}", truncate(&title, columns.saturating_sub(used))),
                theme.text,
            ),
        ];
        if state.disagreements.selected.as_ref() == Some(&(d.a.clone(), d.b.clone())) {
            selected_row = Some(lines.len());
        }
        if selected {
            spans = spans
                .into_iter()
                .map(|s| s.patch_style(theme.selection))
                .collect();
        }
        lines.push(Line::from(spans));
    }
    super::list_pane(frame, area, block, lines, selected_row, cx);
}

/// `8` or `8-9`: the lines an anchor covers.
fn lines_of(anchor: &crate::review::node::Anchor) -> String {
    if anchor.end_line > anchor.start_line {
        format!("{}-{}", anchor.start_line, anchor.end_line)
    } else {
        anchor.start_line.to_string()
    }
}

/// The last two components of a path: `ui/view.rs`.
fn short_path(path: &str) -> String {
    let parts: Vec<&str> = path.rsplitn(3, '/').collect();
    match parts.as_slice() {
        [file, dir, _] => format!("{dir}/{file}"),
        _ => path.to_string(),
    }
}

/// The last `max` columns of `text`, with `…` in front when cut.
fn tail(text: &str, max: usize) -> String {
    if width(text) <= max || max == 0 {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let kept: String = chars[chars.len().saturating_sub(max - 1)..]
        .iter()
        .collect();
    format!("…{kept}")
}
