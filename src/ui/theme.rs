//! Themes with semantic roles: views ask for `priority_p0` or `diff_add`, never for a colour.
//! Three built-in themes live in `themes/*.toml`; a user theme file may `extends` one and
//! override single roles. `NO_COLOR` (set and non-empty) drops every colour, keeping only text
//! attributes (bold, reversed…) so the selection and the focus stay visible.

use std::path::Path;
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

macro_rules! roles {
    ($($role:ident),* $(,)?) => {
        /// A theme: one style per semantic role, and the syntect theme for code.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Theme {
            pub name: String,
            /// A syntect theme name (`base16-ocean.dark`, `InspiredGitHub`, …).
            pub syntax_theme: String,
            /// False under `NO_COLOR` or `TERM=dumb`: code is shown without syntax colours.
            pub colors: bool,
            /// False unless `COLORTERM` announces 24-bit colour: every RGB colour drawn is
            /// then shown as the nearest of the 256 colours all terminals have.
            pub truecolor: bool,
            $(pub $role: Style,)*
        }

        /// Every role a theme file can set.
        pub const ROLES: &[&str] = &[$(stringify!($role)),*];

        impl Theme {
            fn blank(name: &str) -> Theme {
                Theme {
                    name: name.to_string(),
                    syntax_theme: "base16-ocean.dark".to_string(),
                    colors: true,
                    truecolor: true,
                    $($role: Style::default(),)*
                }
            }

            fn role_mut(&mut self, role: &str) -> Option<&mut Style> {
                match role {
                    $(stringify!($role) => Some(&mut self.$role),)*
                    _ => None,
                }
            }

            fn each_role_mut(&mut self, mut f: impl FnMut(&mut Style)) {
                $(f(&mut self.$role);)*
            }
        }
    };
}

roles! {
    text,
    muted,
    title,
    border,
    border_focused,
    selection,
    marked,
    key_hint,
    diff_add,
    diff_del,
    diff_context,
    anchor_line,
    line_number,
    priority_p0,
    priority_p1,
    priority_p2,
    priority_p3,
    verdict_ship,
    verdict_hold,
    verdict_block,
    verdict_inconclusive,
    ladder_done,
    ladder_current,
    ladder_todo,
    status_open,
    status_consensus,
    status_resolved,
    status_dismissed,
    reviewer_queued,
    reviewer_reading,
    reviewer_done,
    reviewer_failed,
    axis_pass,
    axis_warn,
    axis_fail,
    disagreement,
    fallback,
    message_info,
    message_warn,
    message_error,
}

#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error("unknown theme `{0}`: use dark, light, high-contrast or a path to a theme file")]
    Unknown(String),
    #[error("reading the theme {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("theme {name}: {reason}")]
    Invalid { name: String, reason: String },
}

/// A colour name or value a theme file gives that the terminal palette does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown colour `{0}`")]
pub struct UnknownColour(String);

/// The nearest colour of the xterm 256-colour palette (its 6×6×6 cube or its grey ramp).
pub fn to_256(color: Color) -> Color {
    let Color::Rgb(r, g, b) = color else {
        return color;
    };
    let level = |v: u8| ((u16::from(v) * 5 + 127) / 255) as u8;
    let cube_value = |l: u8| if l == 0 { 0 } else { 55 + 40 * l };
    let (lr, lg, lb) = (level(r), level(g), level(b));
    let cube = (cube_value(lr), cube_value(lg), cube_value(lb));
    let grey_index = ((u16::from(r) + u16::from(g) + u16::from(b)) / 3).saturating_sub(3) / 10;
    let grey_index = grey_index.min(23) as u8;
    let grey = 8 + 10 * grey_index;
    let distance = |(x, y, z): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(x, r) + d(y, g) + d(z, b)
    };
    if distance((grey, grey, grey)) < distance(cube) {
        Color::Indexed(232 + grey_index)
    } else {
        Color::Indexed(16 + 36 * lr + 6 * lg + lb)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: Option<String>,
    extends: Option<String>,
    syntax_theme: Option<String>,
    #[serde(default)]
    roles: toml::Table,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    bold: bool,
    #[serde(default)]
    dim: bool,
    #[serde(default)]
    italic: bool,
    #[serde(default)]
    underline: bool,
    #[serde(default)]
    reversed: bool,
}

pub const BUILTIN: [(&str, &str); 3] = [
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
];

impl Default for Theme {
    fn default() -> Theme {
        Theme::builtin("dark").expect("the built-in dark theme parses")
    }
}

impl Theme {
    pub fn builtin(name: &str) -> Result<Theme, ThemeError> {
        let (_, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| ThemeError::Unknown(name.to_string()))?;
        Theme::parse(name, text)
    }

    /// A built-in theme by name, or a theme file by path.
    pub fn load(name_or_path: &str) -> Result<Theme, ThemeError> {
        if BUILTIN.iter().any(|(n, _)| *n == name_or_path) {
            return Theme::builtin(name_or_path);
        }
        let path = Path::new(name_or_path);
        if !path.exists() {
            return Err(ThemeError::Unknown(name_or_path.to_string()));
        }
        let text = std::fs::read_to_string(path).map_err(|source| ThemeError::Read {
            path: name_or_path.to_string(),
            source,
        })?;
        Theme::parse(name_or_path, &text)
    }

    /// Parses a theme file; `extends` starts from a built-in theme.
    pub fn parse(name: &str, text: &str) -> Result<Theme, ThemeError> {
        let invalid = |reason: String| ThemeError::Invalid {
            name: name.to_string(),
            reason,
        };
        let file: ThemeFile = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        let mut theme = match &file.extends {
            Some(base) if base != name => Theme::builtin(base)?,
            Some(base) => return Err(invalid(format!("a theme cannot extend itself ({base})"))),
            None => Theme::blank(name),
        };
        theme.name = file.name.unwrap_or_else(|| name.to_string());
        if let Some(syntax) = file.syntax_theme {
            theme.syntax_theme = syntax;
        }
        for (role, value) in file.roles {
            let spec: StyleSpec = value
                .try_into()
                .map_err(|e: toml::de::Error| invalid(format!("role {role}: {e}")))?;
            let style = spec
                .style()
                .map_err(|e| invalid(format!("role {role}: {e}")))?;
            let slot = theme
                .role_mut(&role)
                .ok_or_else(|| invalid(format!("unknown role `{role}`")))?;
            *slot = style;
        }
        Ok(theme)
    }

    /// Every colour dropped, attributes kept.
    pub fn without_color(mut self) -> Theme {
        self.colors = false;
        self.each_role_mut(|style| {
            style.fg = None;
            style.bg = None;
            style.underline_color = None;
        });
        // Without colour the selection and the focus must still show.
        self.selection = self.selection.add_modifier(Modifier::REVERSED);
        self.border_focused = self.border_focused.add_modifier(Modifier::BOLD);
        self
    }

    /// Applies `NO_COLOR` from the environment (set and non-empty).
    pub fn respecting_no_color(self) -> Theme {
        match std::env::var_os("NO_COLOR") {
            Some(value) if !value.is_empty() => self.without_color(),
            _ => self,
        }
    }

    /// Fits the theme to the terminal as its environment describes it: no colour under
    /// `NO_COLOR` (set, non-empty) or `TERM=dumb` (or no `TERM`); 24-bit colour only when
    /// `COLORTERM` is `truecolor` or `24bit`, else the 256-colour palette.
    pub fn for_terminal(self, env: impl Fn(&str) -> Option<String>) -> Theme {
        let set = |name: &str| env(name).filter(|v| !v.is_empty());
        let dumb = set("TERM").is_none_or(|term| term == "dumb");
        if set("NO_COLOR").is_some() || dumb {
            return self.without_color();
        }
        let truecolor = set("COLORTERM")
            .is_some_and(|c| matches!(c.to_ascii_lowercase().as_str(), "truecolor" | "24bit"));
        Theme { truecolor, ..self }
    }

    /// Every RGB colour of a drawn frame as the nearest 256-palette colour, unless the
    /// terminal takes 24-bit colour (syntax colours included: they are drawn as RGB).
    pub fn fit_frame(&self, buffer: &mut ratatui::buffer::Buffer) {
        if self.truecolor {
            return;
        }
        for cell in buffer.content.iter_mut() {
            cell.fg = to_256(cell.fg);
            cell.bg = to_256(cell.bg);
        }
    }

    pub fn priority(&self, priority: crate::review::Priority) -> Style {
        use crate::review::Priority::*;
        match priority {
            P0 => self.priority_p0,
            P1 => self.priority_p1,
            P2 => self.priority_p2,
            P3 => self.priority_p3,
        }
    }

    pub fn decision(&self, decision: crate::review::Decision) -> Style {
        use crate::review::Decision::*;
        match decision {
            Ship => self.verdict_ship,
            Hold => self.verdict_hold,
            Block => self.verdict_block,
            Inconclusive => self.verdict_inconclusive,
        }
    }

    pub fn status(&self, status: crate::review::Status) -> Style {
        use crate::review::Status::*;
        match status {
            Open => self.status_open,
            ConsensusReady => self.status_consensus,
            Resolved => self.status_resolved,
            Dismissed => self.status_dismissed,
        }
    }

    pub fn border_for(&self, focused: bool) -> Style {
        if focused {
            self.border_focused
        } else {
            self.border
        }
    }
}

impl StyleSpec {
    fn style(&self) -> Result<Style, UnknownColour> {
        let color = |text: &Option<String>| -> Result<Option<Color>, UnknownColour> {
            text.as_deref()
                .map(|t| Color::from_str(t).map_err(|_| UnknownColour(t.to_string())))
                .transpose()
        };
        let mut style = Style::default();
        if let Some(fg) = color(&self.fg)? {
            style = style.fg(fg);
        }
        if let Some(bg) = color(&self.bg)? {
            style = style.bg(bg);
        }
        for (on, modifier) in [
            (self.bold, Modifier::BOLD),
            (self.dim, Modifier::DIM),
            (self.italic, Modifier::ITALIC),
            (self.underline, Modifier::UNDERLINED),
            (self.reversed, Modifier::REVERSED),
        ] {
            if on {
                style = style.add_modifier(modifier);
            }
        }
        Ok(style)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_terminal_decides_how_much_colour() {
        let dumb =
            Theme::default().for_terminal(env(&[("TERM", "dumb"), ("COLORTERM", "truecolor")]));
        assert!(!dumb.colors);
        assert_eq!(dumb.diff_add.fg, None);
        let no_term = Theme::default().for_terminal(env(&[]));
        assert!(!no_term.colors);
        let plain = Theme::default().for_terminal(env(&[("TERM", "xterm-256color")]));
        assert!(plain.colors && !plain.truecolor);
        let full = Theme::default()
            .for_terminal(env(&[("TERM", "xterm-256color"), ("COLORTERM", "24bit")]));
        assert!(full.truecolor);
        let no_color = Theme::default().for_terminal(env(&[
            ("TERM", "xterm"),
            ("NO_COLOR", "1"),
            ("COLORTERM", "truecolor"),
        ]));
        assert!(!no_color.colors);
    }

    #[test]
    fn rgb_becomes_the_nearest_palette_colour() {
        assert_eq!(to_256(Color::Rgb(0, 0, 0)), Color::Indexed(16));
        assert_eq!(to_256(Color::Rgb(255, 255, 255)), Color::Indexed(231));
        assert_eq!(to_256(Color::Rgb(255, 0, 0)), Color::Indexed(196));
        assert_eq!(to_256(Color::Rgb(128, 128, 128)), Color::Indexed(244));
        assert_eq!(to_256(Color::Red), Color::Red);
        let mut buffer = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 2, 1));
        buffer.content[0].fg = Color::Rgb(0, 255, 0);
        let theme = Theme::default().for_terminal(env(&[("TERM", "xterm")]));
        theme.fit_frame(&mut buffer);
        assert_eq!(buffer.content[0].fg, Color::Indexed(46));
    }

    #[test]
    fn every_builtin_theme_sets_every_role_and_a_known_syntax_theme() {
        let syntax = syntect::highlighting::ThemeSet::load_defaults();
        for (name, text) in BUILTIN {
            let file: ThemeFile = toml::from_str(text).unwrap();
            for role in ROLES {
                assert!(file.roles.contains_key(*role), "{name} lacks {role}");
            }
            let theme = Theme::builtin(name).unwrap();
            assert!(
                syntax.themes.contains_key(&theme.syntax_theme),
                "{name}: syntect has no theme {}",
                theme.syntax_theme
            );
        }
    }

    #[test]
    fn no_color_drops_colours_and_keeps_attributes() {
        let theme = Theme::builtin("dark").unwrap().without_color();
        assert_eq!(theme.diff_add.fg, None);
        assert_eq!(theme.selection.bg, None);
        assert!(theme.selection.add_modifier.contains(Modifier::REVERSED));
        assert!(!theme.colors);
    }

    #[test]
    fn a_user_theme_extends_a_builtin_one_and_unknown_roles_fail() {
        let theme = Theme::parse(
            "mine",
            "extends = \"light\"\n[roles]\ndiff_add = { fg = \"#00ff00\", bold = true }\n",
        )
        .unwrap();
        assert_eq!(theme.diff_add.fg, Some(Color::Rgb(0, 255, 0)));
        assert_eq!(theme.diff_del, Theme::builtin("light").unwrap().diff_del);
        let err = Theme::parse("bad", "[roles]\ngreen = { fg = \"green\" }\n").unwrap_err();
        assert!(err.to_string().contains("unknown role `green`"), "{err}");
        let err = Theme::parse("bad", "[roles]\nmuted = { fg = \"nope\" }\n").unwrap_err();
        assert!(err.to_string().contains("unknown colour"), "{err}");
    }
}

/// WCAG 2 contrast of each decision's badge (its text on its background) in every builtin
/// theme: at least 4.5:1, and each decision its own background, so no two read alike.
#[cfg(test)]
mod contrast {
    use ratatui::style::Color;

    use super::Theme;
    use crate::review::Decision;

    /// The sRGB of a colour; named colours as xterm draws them by default.
    fn rgb(color: Color) -> (u8, u8, u8) {
        match color {
            Color::Rgb(r, g, b) => (r, g, b),
            Color::Black => (0, 0, 0),
            Color::Red => (205, 0, 0),
            Color::Green => (0, 205, 0),
            Color::Yellow => (205, 205, 0),
            Color::Blue => (0, 0, 238),
            Color::Magenta => (205, 0, 205),
            Color::Cyan => (0, 205, 205),
            Color::Gray => (229, 229, 229),
            Color::DarkGray => (127, 127, 127),
            Color::LightRed => (255, 0, 0),
            Color::LightGreen => (0, 255, 0),
            Color::LightYellow => (255, 255, 0),
            Color::LightBlue => (92, 92, 255),
            Color::LightMagenta => (255, 0, 255),
            Color::LightCyan => (0, 255, 255),
            Color::White => (255, 255, 255),
            other => panic!("a badge colour the test cannot place: {other:?}"),
        }
    }

    /// WCAG 2 relative luminance.
    fn luminance(color: Color) -> f64 {
        let (r, g, b) = rgb(color);
        let linear = |v: u8| {
            let c = f64::from(v) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    pub(super) fn ratio(a: Color, b: Color) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn the_ratio_is_wcags() {
        assert!((ratio(Color::Black, Color::White) - 21.0).abs() < 0.01);
        assert!((ratio(Color::Rgb(0x77, 0x77, 0x77), Color::White) - 4.48).abs() < 0.01);
    }

    #[test]
    fn every_decision_badge_reads_at_4_5_to_1_and_has_its_own_colour_in_every_theme() {
        const DECISIONS: [Decision; 4] = [
            Decision::Ship,
            Decision::Hold,
            Decision::Inconclusive,
            Decision::Block,
        ];
        for name in ["dark", "light", "high-contrast"] {
            let theme = Theme::builtin(name).unwrap();
            let mut backgrounds = Vec::new();
            for decision in DECISIONS {
                let style = theme.decision(decision);
                let (fg, bg) = (style.fg.expect("a text colour"), style.bg.expect("a badge"));
                let contrast = ratio(fg, bg);
                assert!(
                    contrast >= 4.5,
                    "{name}: {decision:?} is {contrast:.2}:1 ({fg:?} on {bg:?})"
                );
                assert!(
                    !backgrounds.contains(&rgb(bg)),
                    "{name}: {decision:?} shares its badge colour"
                );
                backgrounds.push(rgb(bg));
            }
        }
    }
}
