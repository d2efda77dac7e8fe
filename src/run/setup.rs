//! What the binary adds to the library's set-up (`cli::setup`): the cockpit's look and keys,
//! and the lines said on stderr before a review starts.

use review_tui::config::Config;
use review_tui::pr::Notices;
use review_tui::pr::reference;

use super::output::say;

/// The cockpit's theme (`--theme`, or the configuration's) and the person's keymap.
pub(crate) fn view_context(
    theme: Option<review_tui::ui::Theme>,
    config: &Config,
) -> anyhow::Result<review_tui::ui::ViewContext> {
    use review_tui::ui::{Keymap, Theme, ViewContext};
    let theme = match theme {
        Some(theme) => theme,
        None => Theme::load(&config.theme)?,
    };
    let theme = theme.for_terminal(|name| std::env::var(name).ok());
    let keymap = match review_tui::config::user_config_path()
        .map(|p| p.with_file_name("keymap.toml"))
        .filter(|p| p.exists())
    {
        Some(path) => Keymap::load(&path)?,
        None => Keymap::default(),
    };
    Ok(ViewContext::new(theme, keymap))
}

/// A review reads commits: changes only in the work tree (a modified file with a password, an
/// untracked file) are not part of it, and the person is told first.
pub(crate) fn warn_uncommitted(reference: &reference::PrRef) {
    if let Some(warning) = review_tui::cli::setup::uncommitted_warning(reference) {
        say(warning);
    }
}

/// Stderr as the library's notices: a slow or retried forge call, a line of the headless flow.
pub(crate) fn on_stderr() -> Notices {
    Notices::new(|notice: String| say(notice))
}
