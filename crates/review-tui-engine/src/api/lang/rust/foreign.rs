//! Inherent methods written in another file than their type's: `mod render;` holding `impl
//! Terminal { pub fn draw … }`, the type public in `terminal.rs`. Rust makes a type's inherent
//! methods public wherever their `impl` block lives, so such a file's surface holds them when
//! the type is public where it is defined, though the file itself exports nothing.

use crate::api::Surface;

/// Drops from `surface` the methods of each type in `surface.foreign_impls` that `public`
/// says is not part of the API (a private or `pub(crate)` type of another module).
pub(crate) fn keep_public(surface: &mut Surface, public: &dyn Fn(&str) -> bool) {
    let private: Vec<String> = surface
        .foreign_impls
        .iter()
        .filter(|name| !public(name))
        .cloned()
        .collect();
    for name in private {
        let prefix = format!("{name}::");
        surface.items.retain(|key, _| !key.starts_with(&prefix));
        surface.hidden.retain(|key| !key.starts_with(&prefix));
        surface.foreign_impls.remove(&name);
    }
}

/// Whether `text` defines `name` as a `pub` type (not `pub(crate)`) at the start of a line.
pub(crate) fn defines_public_type(text: &str, name: &str) -> bool {
    ["struct", "enum", "union", "type"].iter().any(|keyword| {
        let written = format!("{keyword} {name}");
        text.match_indices(&written).any(|(at, _)| {
            let after = text[at + written.len()..].chars().next();
            let whole = !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
            let line = text[..at].rsplit('\n').next().unwrap_or("");
            whole && line.trim() == "pub"
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_type_is_one_written_pub() {
        assert!(defines_public_type("pub struct Terminal<B> {", "Terminal"));
        assert!(defines_public_type("    pub enum Terminal {", "Terminal"));
        assert!(!defines_public_type(
            "pub(crate) struct Terminal;",
            "Terminal"
        ));
        assert!(!defines_public_type("struct Terminal;", "Terminal"));
        assert!(!defines_public_type(
            "pub struct TerminalOptions;",
            "Terminal"
        ));
    }
}
