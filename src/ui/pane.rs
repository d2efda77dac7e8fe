//! The panes of the main screen. Below the state and the keymap: the state says which has
//! the focus, a binding says in which its hint is shown.

/// The panes that take focus, in tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Pane {
    #[default]
    Findings,
    Detail,
    Reviewers,
    Disagreements,
}

impl Pane {
    pub fn title(self) -> &'static str {
        match self {
            Pane::Findings => "Findings",
            Pane::Detail => "Detail",
            Pane::Reviewers => "Reviewers",
            Pane::Disagreements => "Disagreements",
        }
    }
}
