//! Which Rust modules their own documentation withdraws from the crate's compatibility
//! promise (see [`crate::api::promise`]): the module's inner docs (`//!`, `/*! … */`,
//! `#![doc = "…"]` at the top of its file or just inside an inline module's `{`) and the
//! outer docs on its declaration (`///`, `/** … */`, `#[doc = "…"]` above `mod name;`).
//! Read from one side's text, so a module that starts saying so at the head still had its
//! base promise.

use crate::api::promise::declares_no_promise;

/// Whether the module file `text` says, in its inner docs at its top, that it is outside the
/// promise.
pub(super) fn file_withdrawn(text: &str) -> bool {
    declares_no_promise(&inner_doc(text, 0))
}

/// Whether the `mod` declaration of `text` spanning `start..end` (its visibility to just after
/// its `;` or `{`) says, in its outer docs or, for an inline module, its inner ones, that the
/// module is outside the promise.
pub(super) fn declaration_withdrawn(text: &str, start: usize, end: usize) -> bool {
    let inline = text[..end].ends_with('{');
    declares_no_promise(&outer_doc(text, start))
        || (inline && declares_no_promise(&inner_doc(text, end)))
}

/// The inner documentation starting at `at` (a file's start, or just after an inline
/// module's `{`): `//!` lines, `/*! … */` blocks and `#![doc = "…"]` attributes, read past
/// blank lines, plain comments and other inner attributes.
pub(super) fn inner_doc(text: &str, at: usize) -> String {
    let mut doc = String::new();
    let mut rest = text.get(at..).unwrap_or("").trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if let Some(line) = rest.strip_prefix("//!") {
            let (content, after) = line.split_once('\n').unwrap_or((line, ""));
            doc.push_str(content);
            doc.push('\n');
            rest = after;
        } else if let Some(block) = rest.strip_prefix("/*") {
            let (content, after) = block.split_once("*/").unwrap_or((block, ""));
            if let Some(content) = content.strip_prefix('!') {
                doc.push_str(content);
                doc.push('\n');
            }
            rest = after;
        } else if rest.starts_with("//") {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
        } else if rest.starts_with("#![") {
            let end = attribute_end(rest);
            doc.push_str(&doc_attribute(&rest[..end]).unwrap_or_default());
            doc.push('\n');
            rest = &rest[end..];
        } else {
            return doc;
        }
    }
}

/// The outer documentation of the item starting at `at`: its `///` lines, `/** … */` blocks
/// and `#[doc = "…"]` attributes, read upwards past other attributes, plain comments and
/// blank lines, to the end of the item before.
pub(super) fn outer_doc(text: &str, at: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut above = &text[..at];
    // Attributes written on the item's own line before it.
    if let Some((before, same_line)) = above.rsplit_once('\n') {
        lines.extend(doc_attribute(same_line.trim()));
        above = before;
    } else {
        lines.extend(doc_attribute(above.trim()));
        above = "";
    }
    while !above.is_empty() {
        let (before, line) = above.rsplit_once('\n').unwrap_or(("", above));
        let line = line.trim();
        if line.ends_with("*/") {
            // A block comment, perhaps over several lines: a doc one when it opens `/**`.
            let whole = above.trim_end();
            let Some(open) = whole.rfind("/*") else {
                break;
            };
            if let Some(content) = whole[open..whole.len() - 2].strip_prefix("/**") {
                lines.push(content.to_string());
            }
            above = &whole[..open];
            continue;
        }
        if let Some(content) = line.strip_prefix("///") {
            if !content.starts_with('/') {
                lines.push(content.to_string());
            }
        } else if line.starts_with("#[") {
            lines.extend(doc_attribute(line));
        } else if line.ends_with([';', '}', '{']) && !line.starts_with("//") {
            // The end of the item before (or of the block holding this one).
            break;
        }
        above = before;
    }
    lines.reverse();
    lines.join("\n")
}

/// Where the attribute opening `text` (`#[…]` or `#![…]`) closes, just after its `]`; strings
/// in it may hold brackets.
fn attribute_end(text: &str) -> usize {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' if !in_string => depth += 1,
            ']' if !in_string => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The text of a `#[doc = "…"]` or `#![doc = "…"]` attribute (written on one line).
fn doc_attribute(attribute: &str) -> Option<String> {
    let inside = attribute
        .strip_prefix("#![")
        .or_else(|| attribute.strip_prefix("#["))?
        .trim_start();
    let value = inside.strip_prefix("doc")?.trim_start().strip_prefix('=')?;
    let value = value.trim_start().strip_prefix('"')?;
    let end = value.rfind('"')?;
    Some(value[..end].replace("\\n", "\n").replace("\\\"", "\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WITHDRAWN: &str = "This module is unstable: it may change between minor releases.";

    #[test]
    fn a_rust_modules_inner_and_outer_docs_are_read_in_each_of_their_forms() {
        for file in [
            format!("//! Raw access.\n//!\n//! {WITHDRAWN}\n\nuse std::fmt;\n"),
            format!("// Copyright.\n\n#![allow(dead_code)]\n/*! {WITHDRAWN} */\npub fn f() {{}}\n"),
            format!("#![doc = \"{WITHDRAWN}\"]\n"),
        ] {
            assert!(file_withdrawn(&file), "{file}");
        }
        // Docs of an item inside the file, or words after its first item, are not the
        // module's.
        for file in [
            format!("use std::fmt;\n//! {WITHDRAWN}\n"),
            format!("/// {WITHDRAWN}\npub fn f() {{}}\n"),
            format!("// {WITHDRAWN}\npub fn f() {{}}\n"),
        ] {
            assert!(!file_withdrawn(&file), "{file}");
        }
        let declared = |text: &str| {
            let at = text.find("pub mod").unwrap();
            let end = at + text[at..].find([';', '{']).unwrap() + 1;
            declaration_withdrawn(text, at, end)
        };
        for text in [
            format!(
                "pub fn f() {{}}\n/// Internals.\n///\n/// {WITHDRAWN}\n#[cfg(feature = \"x\")]\npub mod raw;\n"
            ),
            format!("/**\n * {WITHDRAWN}\n */\n#[allow(unused)]\npub mod raw;\n"),
            format!("#[doc = \"{WITHDRAWN}\"] pub mod raw;\n"),
            format!("pub mod raw {{\n    //! {WITHDRAWN}\n    pub fn f() {{}}\n}}\n"),
        ] {
            assert!(declared(&text), "{text}");
        }
        for text in [
            format!("/// {WITHDRAWN}\npub fn f() {{}}\npub mod raw;\n"),
            format!("//// {WITHDRAWN}\npub mod raw;\n"),
            format!("pub mod raw {{\n    pub fn f() {{}}\n    //! {WITHDRAWN}\n}}\n"),
            "/// Raw access.\npub mod raw;\n".to_string(),
        ] {
            assert!(!declared(&text), "{text}");
        }
    }
}
