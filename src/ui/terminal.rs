//! Terminal setup and teardown: raw mode, the alternate screen, mouse capture, and a panic hook
//! that restores the terminal before the panic message is printed (so it is readable).

use std::io::{self, Stdout, stdout};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Takes over the terminal. Call `restore` when done (also on error paths).
pub fn enter() -> io::Result<Tui> {
    install_panic_hook();
    enable_raw_mode()?;
    if let Err(err) = execute!(stdout(), EnterAlternateScreen, EnableMouseCapture) {
        let _ = restore();
        return Err(err);
    }
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    terminal.clear()?;
    Ok(terminal)
}

/// Gives the terminal back: mouse capture off, main screen, cooked mode, cursor shown.
/// Safe to call more than once.
pub fn restore() -> io::Result<()> {
    let screen = execute!(
        stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let raw = disable_raw_mode();
    screen.and(raw)
}

/// Takes the terminal back after `restore` (a child program had it): raw mode, the alternate
/// screen and mouse capture again.
pub fn resume() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)
}

/// Restores the terminal before the previous hook prints the panic.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = restore();
        previous(info);
    }));
}
