//! The inbox screen: every review waiting for the person, by section, from the session's list
//! (`session::inbox`). The cached list is drawn at once; the refresh runs on the runtime and
//! the screen says "refreshing…" until it lands, so no frame waits on the network. `enter`
//! leaves the screen with the row to open: the caller runs the cockpit on it and opens the
//! inbox again with [`InboxResume`], so the row comes back with its space's new state.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use tokio::sync::mpsc;

use crate::session::inbox::filter::{self, Sort};
use crate::session::inbox::render::size;
use crate::session::inbox::{InboxList, InboxRow, InboxSource, Waiting, age};
use crate::ui::command::Command;
use crate::ui::keymap::{Context, Key, Keymap};
use crate::ui::text::{shown, truncate, width};
use crate::ui::view::ViewContext;

/// Where the person was, to open the inbox again as they left it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InboxResume {
    pub filter: String,
    pub sort: Sort,
    /// The reference of the selected row.
    pub selected: Option<String>,
    /// Said once on the next frame (why the last PR could not be opened).
    pub message: Option<String>,
}

/// How the inbox screen ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxExit {
    Quit,
    /// Open the cockpit on this reference, then come back with `resume`.
    Open {
        reference: String,
        resume: InboxResume,
    },
}

/// What the screen shows and where the cursor is.
struct View {
    list: InboxList,
    /// Indices into `list.rows` that pass the filter, in the chosen order.
    visible: Vec<usize>,
    selected: usize,
    filter: String,
    /// The filter being typed, when `/` was pressed.
    typing: Option<String>,
    sort: Sort,
    refreshing: bool,
    message: Option<String>,
    help: bool,
}

impl View {
    fn new(list: InboxList, resume: InboxResume) -> View {
        let mut view = View {
            list,
            visible: Vec::new(),
            selected: 0,
            filter: resume.filter,
            typing: None,
            sort: resume.sort,
            refreshing: false,
            message: resume.message,
            help: false,
        };
        view.arrange(resume.selected.as_deref());
        view
    }

    fn selected_reference(&self) -> Option<String> {
        self.visible
            .get(self.selected)
            .map(|&i| self.list.rows[i].reference.clone())
    }

    /// Sorts and filters again, keeping the row `keep` selected when it is still shown.
    fn arrange(&mut self, keep: Option<&str>) {
        let sections = self.list.sections.clone();
        self.sort.apply(&mut self.list.rows, &sections);
        let filter = self.typing.as_deref().unwrap_or(&self.filter).to_string();
        let mut bad = None;
        self.visible = (0..self.list.rows.len())
            .filter(|&i| match filter::matches(&self.list.rows[i], &filter) {
                Ok(pass) => pass,
                Err(e) => {
                    bad = Some(e.to_string());
                    true
                }
            })
            .collect();
        if let Some(bad) = bad {
            self.message = Some(bad);
        }
        self.selected = keep
            .and_then(|r| {
                self.visible
                    .iter()
                    .position(|&i| self.list.rows[i].reference == r)
            })
            .unwrap_or(self.selected)
            .min(self.visible.len().saturating_sub(1));
    }

    fn replace(&mut self, list: InboxList) {
        let keep = self.selected_reference();
        self.list = list;
        self.arrange(keep.as_deref());
    }

    fn resume(&self) -> InboxResume {
        InboxResume {
            filter: self.filter.clone(),
            sort: self.sort,
            selected: self.selected_reference(),
            message: None,
        }
    }
}

/// The screen's first frame for `list` on `terminal`, as the inbox draws it before any key
/// (the benchmark measures this from the cache).
pub fn first_frame<B: ratatui::backend::Backend>(
    terminal: &mut ratatui::Terminal<B>,
    list: InboxList,
    cx: &ViewContext,
) -> Result<(), B::Error> {
    let view = View::new(list, InboxResume::default());
    terminal.draw(|frame| draw(frame, &view, cx)).map(drop)
}

enum Input {
    Key(event::KeyEvent),
    Resize,
}

/// Runs the inbox on the terminal until the person quits or opens a row.
pub async fn run_inbox_screen(
    source: Arc<InboxSource>,
    cx: &ViewContext,
    resume: InboxResume,
    refresh_first: bool,
) -> io::Result<InboxExit> {
    let mut terminal = crate::ui::terminal::enter()?;
    let ended = screen_loop(&mut terminal, source, cx, resume, refresh_first).await;
    crate::ui::terminal::restore()?;
    ended
}

async fn screen_loop(
    terminal: &mut crate::ui::terminal::Tui,
    source: Arc<InboxSource>,
    cx: &ViewContext,
    resume: InboxResume,
    refresh_first: bool,
) -> io::Result<InboxExit> {
    let mut view = View::new(source.cached(), resume);
    let (keys_tx, mut keys) = mpsc::unbounded_channel();
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                match event::poll(Duration::from_millis(50)) {
                    Ok(true) => match event::read() {
                        Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                            if keys_tx.send(Input::Key(key)).is_err() {
                                return;
                            }
                        }
                        Ok(Event::Resize(..)) => {
                            let _ = keys_tx.send(Input::Resize);
                        }
                        Ok(_) => {}
                        Err(_) => return,
                    },
                    Ok(false) => {}
                    Err(_) => return,
                }
            }
        })
    };
    let (lists_tx, mut lists) = mpsc::unbounded_channel();
    let refresh = |view: &mut View| {
        if view.refreshing {
            return;
        }
        view.refreshing = true;
        let (source, lists_tx) = (source.clone(), lists_tx.clone());
        tokio::spawn(async move {
            let _ = lists_tx.send(source.refresh().await);
        });
    };
    if refresh_first {
        refresh(&mut view);
    }
    let exit = loop {
        terminal.draw(|frame| draw(frame, &view, cx))?;
        tokio::select! {
            input = keys.recv() => {
                let Some(input) = input else { break InboxExit::Quit };
                let Input::Key(key) = input else { continue };
                match on_key(&mut view, &cx.keymap, key) {
                    Step::Stay => {}
                    Step::Refresh => refresh(&mut view),
                    Step::Leave(exit) => break exit,
                }
            }
            list = lists.recv() => {
                if let Some(list) = list {
                    view.refreshing = false;
                    view.replace(list);
                }
            }
        }
    };
    stop.store(true, Ordering::Relaxed);
    let _ = reader.join();
    Ok(exit)
}

enum Step {
    Stay,
    Refresh,
    Leave(InboxExit),
}

fn on_key(view: &mut View, keymap: &Keymap, key: event::KeyEvent) -> Step {
    if let Some(typed) = view.typing.as_mut() {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Step::Leave(InboxExit::Quit);
        }
        match key.code {
            KeyCode::Enter => {
                view.filter = view.typing.take().unwrap_or_default();
            }
            KeyCode::Esc => {
                view.typing = None;
            }
            KeyCode::Backspace => {
                typed.pop();
            }
            KeyCode::Char(c) => typed.push(c),
            _ => {}
        }
        view.message = None;
        let keep = view.selected_reference();
        view.arrange(keep.as_deref());
        return Step::Stay;
    }
    view.message = None;
    view.help = false;
    let last = view.visible.len().saturating_sub(1);
    let Some(command) = keymap.lookup(Context::Inbox, Key::from_event(&key)) else {
        return Step::Stay;
    };
    match command {
        Command::Quit => return Step::Leave(InboxExit::Quit),
        Command::Close if !view.filter.is_empty() => {
            view.filter.clear();
            let keep = view.selected_reference();
            view.arrange(keep.as_deref());
        }
        Command::Close => return Step::Leave(InboxExit::Quit),
        Command::MoveDown => view.selected = (view.selected + 1).min(last),
        Command::MoveUp => view.selected = view.selected.saturating_sub(1),
        Command::Top => view.selected = 0,
        Command::Bottom => view.selected = last,
        Command::PageDown => view.selected = (view.selected + 10).min(last),
        Command::PageUp => view.selected = view.selected.saturating_sub(10),
        Command::Filter => view.typing = Some(view.filter.clone()),
        Command::Sort => {
            view.sort = view.sort.next();
            let keep = view.selected_reference();
            view.arrange(keep.as_deref());
            view.message = Some(format!("sorted by {}", view.sort.name()));
        }
        Command::Refresh => return Step::Refresh,
        Command::Help => view.help = true,
        Command::OpenPr => {
            if let Some(reference) = view.selected_reference() {
                return Step::Leave(InboxExit::Open {
                    reference,
                    resume: view.resume(),
                });
            }
        }
        _ => {}
    }
    Step::Stay
}

/// The words the inbox's key line puts after a key.
fn help_word(command: Command) -> &'static str {
    match command {
        Command::OpenPr => "open in the cockpit",
        Command::Close => "clear",
        Command::Top => "top",
        Command::Bottom => "bottom",
        other => crate::ui::keymap::short(other),
    }
}

/// Column widths for a terminal `total` columns wide: the place, the author, the age, the
/// size (hidden below 100 columns), the CI mark and the space's state; the title takes the
/// rest.
struct Columns {
    place: usize,
    author: usize,
    size: usize,
    state: usize,
}

impl Columns {
    fn for_width(total: usize) -> Columns {
        if total >= 100 {
            Columns {
                place: 26,
                author: 12,
                size: 14,
                state: 32,
            }
        } else {
            Columns {
                place: 20,
                author: 9,
                size: 0,
                state: 22,
            }
        }
    }
}

fn draw(frame: &mut Frame, view: &View, cx: &ViewContext) {
    let theme = &cx.theme;
    let area = frame.area();
    let now = SystemTime::now();
    let mut header = vec![Span::styled(" Inbox", theme.title)];
    if let Some(at) = &view.list.fetched_at {
        header.push(Span::styled(
            format!(" · fetched {} ago", age(at, now)),
            theme.muted,
        ));
    }
    header.push(Span::styled(
        format!(" · sort: {}", view.sort.name()),
        theme.muted,
    ));
    if view.refreshing {
        header.push(Span::styled(" · refreshing…", theme.message_info));
    }
    let mut lines = vec![Line::from(header)];
    if let Some(offline) = &view.list.offline {
        lines.push(Line::styled(
            truncate(offline, area.width as usize),
            theme.message_warn,
        ));
    }
    for notice in view.list.notices.iter().take(2) {
        lines.push(Line::styled(
            truncate(notice, area.width as usize),
            theme.muted,
        ));
    }
    let columns = Columns::for_width(area.width as usize);
    let body_height = (area.height as usize).saturating_sub(lines.len() + 1);
    // Every section's title and rows, then a window around the selected row.
    let mut body: Vec<(Line, bool)> = Vec::new();
    let mut selected_at = 0;
    for section in &view.list.sections {
        let rows: Vec<(usize, &InboxRow)> = view
            .visible
            .iter()
            .enumerate()
            .filter(|(_, i)| view.list.rows[**i].section == *section)
            .map(|(at, i)| (at, &view.list.rows[*i]))
            .collect();
        body.push((
            Line::styled(format!("{} ({})", section.title(), rows.len()), theme.title),
            false,
        ));
        for (at, row) in rows {
            if at == view.selected {
                selected_at = body.len();
            }
            let line = row_line(row, &columns, area.width as usize, now, cx);
            body.push((line, at == view.selected));
        }
    }
    let top = selected_at.saturating_sub(body_height.saturating_sub(2));
    for (line, selected) in body.into_iter().skip(top).take(body_height) {
        lines.push(if selected {
            line.style(theme.selection)
        } else {
            line
        });
    }
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            height: area.height.saturating_sub(1),
            ..area
        },
    );
    let footer = if let Some(typed) = &view.typing {
        Line::from(vec![
            Span::styled("/", theme.key_hint),
            Span::raw(shown(typed)),
            Span::styled(
                "  (words, @author, is:moved|team|draft|failing|…; enter keeps, esc cancels)",
                theme.muted,
            ),
        ])
    } else if let Some(message) = &view.message {
        Line::styled(shown(message), theme.message_warn)
    } else if view.help {
        // Every key of the inbox, from the keymap (a user's keymap file rebinds them).
        let keys: Vec<String> = [
            Command::MoveDown,
            Command::MoveUp,
            Command::Top,
            Command::Bottom,
            Command::OpenPr,
            Command::Filter,
            Command::Close,
            Command::Sort,
            Command::Refresh,
            Command::Quit,
        ]
        .iter()
        .map(|&c| format!("{} {}", cx.keymap.keys_for(Context::Inbox, c), help_word(c)))
        .collect();
        Line::styled(keys.join(" · "), theme.key_hint)
    } else {
        let filter = if view.filter.is_empty() {
            String::new()
        } else {
            format!("filter: {} · ", shown(&view.filter))
        };
        let key = |c| cx.keymap.key(Context::Inbox, c);
        Line::styled(
            format!(
                "{filter}{} open · {} filter · {} sort · {} refresh · {} keys · {} quit",
                key(Command::OpenPr),
                key(Command::Filter),
                key(Command::Sort),
                key(Command::Refresh),
                key(Command::Help),
                key(Command::Quit)
            ),
            theme.key_hint,
        )
    };
    frame.render_widget(
        Paragraph::new(footer),
        Rect {
            y: area.y + area.height.saturating_sub(1),
            height: 1.min(area.height),
            ..area
        },
    );
}

/// One row: `forge/repo#N  title  author  age  size  CI  state, verdict`, every text from the
/// forge escaped and cut to its column.
fn row_line(
    row: &InboxRow,
    columns: &Columns,
    total: usize,
    now: SystemTime,
    cx: &ViewContext,
) -> Line<'static> {
    let theme = &cx.theme;
    let pad = |text: String, w: usize| {
        let text = truncate(&text, w);
        let fill = w.saturating_sub(width(&text));
        format!("{text}{}", " ".repeat(fill))
    };
    // A local range: its repository's folder name and the range (`app#main..feature`); its
    // full path would crowd the range out of the column.
    let place = if row.forge == "local" {
        let folder = std::path::Path::new(&row.repo)
            .file_name()
            .map_or_else(|| row.repo.clone(), |n| n.to_string_lossy().into_owned());
        format!("{folder}#{}", row.number)
    } else {
        format!(
            "{}/{}{}",
            row.forge.to_ascii_lowercase(),
            row.repo,
            row.number
        )
    };
    let ci = match row.ci.as_deref() {
        Some("success") => ("✓", theme.axis_pass),
        Some("failure") => ("✗", theme.axis_fail),
        Some(_) => ("…", theme.axis_warn),
        None => (" ", Style::default()),
    };
    let (state, state_style) = match &row.space {
        Some(space) => {
            let verdict = space
                .verdict
                .as_deref()
                .map(|v| format!(", {v}"))
                .unwrap_or_default();
            let style = if space.moved {
                theme.message_warn
            } else {
                theme.muted
            };
            (format!("{}{verdict}", space.label()), style)
        }
        None => match &row.waiting {
            Some(Waiting::TeamRequested { team }) => (format!("team {team}"), theme.muted),
            _ => (String::new(), theme.muted),
        },
    };
    let fixed = columns.place
        + columns.author
        + 5
        + if columns.size > 0 {
            columns.size + 1
        } else {
            0
        }
        + 2
        + columns.state
        + 6;
    let title_width = total.saturating_sub(fixed).max(8);
    let mut title = row.title.clone();
    if row.draft {
        title = format!("[draft] {title}");
    }
    let mut spans = vec![
        Span::raw(" "),
        Span::styled(pad(place, columns.place), theme.text),
        Span::raw(" "),
        Span::styled(pad(title, title_width), theme.text),
        Span::raw(" "),
        Span::styled(pad(row.author.clone(), columns.author), theme.muted),
        Span::raw(" "),
        Span::styled(pad(age(&row.updated_at, now), 4), theme.muted),
    ];
    if columns.size > 0 {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            pad(size(row).unwrap_or_default(), columns.size),
            theme.muted,
        ));
    }
    spans.push(Span::raw(" "));
    spans.push(Span::styled(ci.0, ci.1));
    spans.push(Span::raw(" "));
    spans.push(Span::styled(pad(state, columns.state), state_style));
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::inbox::{InboxRow, SCHEMA_VERSION, Section};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn row(n: u64, title: &str) -> InboxRow {
        InboxRow {
            section: Section::Requested,
            forge: "GitHub".into(),
            repo: "acme/app".into(),
            number: format!("#{n}"),
            title: title.into(),
            author: "octocat".into(),
            reference: format!("acme/app#{n}"),
            updated_at: "2026-01-01T00:00:00Z".into(),
            draft: false,
            head_sha: None,
            additions: Some(3),
            deletions: Some(1),
            changed_files: Some(1),
            ci: Some("failure".into()),
            waiting: None,
            space: None,
        }
    }

    fn list(rows: Vec<InboxRow>) -> InboxList {
        InboxList {
            schema_version: SCHEMA_VERSION,
            fetched_at: None,
            offline: None,
            notices: Vec::new(),
            sections: Section::ALL.to_vec(),
            rows,
        }
    }

    fn screen(view: &View, w: u16, h: u16) -> String {
        let cx = ViewContext::new(
            crate::ui::Theme::builtin("dark").unwrap(),
            crate::ui::Keymap::default(),
        );
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| draw(f, view, &cx)).unwrap();
        let buffer = terminal.backend().buffer().clone();
        (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_local_range_is_named_by_its_folder_and_range() {
        let mut local = row(1, "feature");
        local.section = Section::Spaces;
        local.forge = "local".into();
        local.repo = "/srv/src/app".into();
        local.number = "main..feature".into();
        let view = View::new(list(vec![local]), InboxResume::default());
        let shown = screen(&view, 80, 24);
        assert!(shown.contains("app#main..feature"), "{shown}");
        assert!(!shown.contains("local//srv"), "{shown}");
    }

    #[test]
    fn a_title_cannot_drive_the_terminal_and_the_filter_narrows_the_rows() {
        let mut view = View::new(
            list(vec![
                row(1, "Parser \u{1b}[2J\u{202e}evil"),
                row(2, "Lexer fix"),
            ]),
            InboxResume::default(),
        );
        for (w, h) in [(80, 24), (120, 40)] {
            let shown = screen(&view, w, h);
            assert!(!shown.contains('\u{1b}'), "{shown}");
            assert!(!shown.contains('\u{202e}'), "{shown}");
            assert!(shown.contains("review requested (2)"), "{shown}");
            assert!(shown.contains("github/acme/app#2"), "{shown}");
        }
        view.filter = "lexer".into();
        view.arrange(None);
        let shown = screen(&view, 80, 24);
        assert!(shown.contains("review requested (1)"), "{shown}");
        assert!(!shown.contains("Parser"), "{shown}");
        assert_eq!(view.selected_reference().as_deref(), Some("acme/app#2"));
    }

    #[test]
    fn enter_leaves_with_the_selected_row_and_where_the_person_was() {
        let mut view = View::new(
            list(vec![row(1, "One"), row(2, "Two")]),
            InboxResume::default(),
        );
        let key = |c| event::KeyEvent::new(c, KeyModifiers::NONE);
        assert!(matches!(
            on_key(&mut view, &Keymap::default(), key(KeyCode::Char('j'))),
            Step::Stay
        ));
        match on_key(&mut view, &Keymap::default(), key(KeyCode::Enter)) {
            Step::Leave(InboxExit::Open { reference, resume }) => {
                assert_eq!(reference, view.list.rows[view.visible[1]].reference);
                assert_eq!(resume.selected.as_deref(), Some(reference.as_str()));
            }
            _ => panic!("enter did not open the row"),
        }
        assert!(matches!(
            on_key(&mut view, &Keymap::default(), key(KeyCode::Char('r'))),
            Step::Refresh
        ));
    }

    #[test]
    fn the_inbox_keys_come_from_the_keymap_and_a_keymap_file_rebinds_them() {
        let mut view = View::new(
            list(vec![row(1, "One"), row(2, "Two")]),
            InboxResume::default(),
        );
        let key = |c| event::KeyEvent::new(c, KeyModifiers::NONE);
        let keymap = Keymap::with_overrides("refresh = \"R\"\nopen_pr = \"o\"").unwrap();
        // `r` no longer refreshes; `R` does; `o` opens, and enter does nothing.
        assert!(matches!(
            on_key(&mut view, &keymap, key(KeyCode::Char('r'))),
            Step::Stay
        ));
        assert!(matches!(
            on_key(&mut view, &keymap, key(KeyCode::Char('R'))),
            Step::Refresh
        ));
        assert!(matches!(
            on_key(&mut view, &keymap, key(KeyCode::Enter)),
            Step::Stay
        ));
        assert!(matches!(
            on_key(&mut view, &keymap, key(KeyCode::Char('o'))),
            Step::Leave(InboxExit::Open { .. })
        ));
        // The key line says the keys as bound.
        let cx = ViewContext::new(crate::ui::theme::Theme::default(), keymap);
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 10)).unwrap();
        terminal.draw(|frame| draw(frame, &view, &cx)).unwrap();
        let text: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect();
        assert!(
            text.contains("o open") && text.contains("R refresh"),
            "{text}"
        );
    }
}
