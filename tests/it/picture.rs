//! The picture of the cockpit in the README (`docs/cockpit.svg`) is the demo's first screen as
//! the cockpit's own code draws it: a headless demo review records the round, the session opens
//! the space again as the cockpit would, and the screen is drawn on ratatui's `TestBackend`.
//! The test fails when the committed picture differs; after a change to the cockpit or the demo,
//! write it again with
//!
//! ```text
//! REVIEW_TUI_UPDATE_SVG=1 cargo test --test it picture
//! ```

use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use review_tui::config::Config;
use review_tui::publish::{PublishOptions, Publishing, Selection};
use review_tui::session::ReviewOptions;
use review_tui::session::{PrepareOptions, prepare};
use review_tui::session::{Session, SessionSetup};
use review_tui::ui::{Keymap, Theme, ViewContext};

use crate::cli::review_tui;
use crate::support::svg;

const PICTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cockpit.svg");
const WIDTH: u16 = 120;
const HEIGHT: u16 = 32;
/// Where a person's own demo lives with the default data directory on Linux: the header shows
/// it in place of this test's temporary directory.
const SHOWN_PATH: &str = "~/.local/share/review-tui/demo/acme-client";

/// The demo reviewed once, headless, in `data`: the space the cockpit reopens.
fn reviewed_demo(data: &Path) {
    let mut command = review_tui();
    command
        .args(["--demo", "--headless", "--format", "json"])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", data.join("no-config.toml"));
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
    ] {
        command.env_remove(var);
    }
    let out = command.output().unwrap();
    assert!(
        !matches!(out.status.code(), Some(1..=4)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The cockpit's first screen on the demo's reviewed space, as an SVG picture.
fn first_screen(data: &Path) -> String {
    let demo = review_tui::demo::build(&data.join("demo").join("acme-client")).unwrap();
    let reference =
        review_tui::pr::reference::parse(&demo.reference(), None, None).expect("the reference");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let options = PrepareOptions {
        data_dir: Some(data.to_path_buf()),
        ..PrepareOptions::default()
    };
    let prepared = runtime
        .block_on(prepare(reference, &options))
        .expect("the demo's space");
    let setup = SessionSetup {
        review: ReviewOptions::default(),
        fix_command: None,
        person: "you".into(),
        room: None,
    };
    let publisher = Publishing::new(
        PublishOptions::from_config(&Config::default(), Selection::AllOpen),
        None,
        None,
    );
    let mut session = Session::new(prepared, setup, publisher);
    let cohorts = runtime.block_on(session.cohorts());
    let opening = session.opening();
    let mut state = review_tui::ui::app::reopened_state(&opening, cohorts.as_ref(), "you");
    let path = demo.path.display().to_string();
    state.pr.repo = state.pr.repo.replace(&path, SHOWN_PATH);

    let theme = Theme::builtin("dark").unwrap();
    let cx = ViewContext::new(theme, Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    // Twice: the first frame measures the layout the second one relies on.
    for _ in 0..2 {
        let mut layout = None;
        terminal
            .draw(|frame| layout = Some(review_tui::ui::view::draw(frame, &state, &cx)))
            .unwrap();
        state.layout = layout.unwrap();
    }
    let screen = terminal.backend().buffer().clone();
    let text: String = screen.content().iter().map(|c| c.symbol()).collect();
    assert!(
        !text.contains(&path) && !text.contains(&data.display().to_string()),
        "a temporary path is on screen:\n{}",
        terminal.backend()
    );
    svg::render(
        &screen,
        "#2b303b",
        "#c0c5ce",
        "review-tui's cockpit on the bundled demo pull request",
    )
}

#[test]
fn the_readme_picture_is_the_demos_first_screen() {
    let data = tempfile::tempdir().unwrap();
    reviewed_demo(data.path());
    let picture = first_screen(data.path());
    // The same space drawn twice is the same picture: nothing in it depends on the clock.
    assert_eq!(picture, first_screen(data.path()));
    for shown in [
        "BLOCK",
        "Findings",
        "Reviewers",
        "engineer",
        "Hardcoded secret",
    ] {
        assert!(picture.contains(shown), "{shown} is not in the picture");
    }
    if std::env::var_os("REVIEW_TUI_UPDATE_SVG").is_some() {
        std::fs::write(PICTURE, &picture).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(PICTURE).unwrap_or_default();
    assert!(
        committed == picture,
        "docs/cockpit.svg is not the demo's first screen as the cockpit draws it now: run \
         REVIEW_TUI_UPDATE_SVG=1 cargo test --test it picture, look at it, and commit it"
    );
}
