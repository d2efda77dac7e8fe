//! `find_symbol`: where a name is defined and used, from a symbol index when one is given
//! (the cohort index implements [`SymbolLookup`]), else from a bounded word search.

use std::path::Path;

use super::error::{ToolError, shown};
use super::glob::Glob;
use super::search::{compile, search};
use super::{Limits, Redact};

/// A symbol index over the worktree. Paths are worktree-relative.
pub trait SymbolLookup: Send + Sync {
    fn defined_in(&self, name: &str) -> Vec<String>;
    fn referenced_in(&self, name: &str) -> Vec<String>;
}

const MAX_NAME_BYTES: usize = 200;
/// The fallback is a whole-worktree search: fewer matches than `search_text` keeps it cheap.
const FALLBACK_MATCHES: usize = 100;

pub(super) fn find_symbol(
    root: &Path,
    limits: &Limits,
    redact: Option<&Redact>,
    lookup: Option<&dyn SymbolLookup>,
    name: &str,
) -> Result<String, ToolError> {
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME_BYTES
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | ':' | '.' | '-' | '@' | '#'));
    if !valid {
        return Err(ToolError::BadSymbol(shown(name)));
    }
    match lookup {
        Some(lookup) => Ok(from_index(limits, lookup, name)),
        None => Ok(from_search(root, limits, redact, name)),
    }
}

fn from_index(limits: &Limits, lookup: &dyn SymbolLookup, name: &str) -> String {
    let mut out = format!("symbol {name}\n");
    for (label, paths) in [
        ("defined in", lookup.defined_in(name)),
        ("referenced in", lookup.referenced_in(name)),
    ] {
        out.push_str(&format!("{label} ({} files):\n", paths.len()));
        for (index, path) in paths.iter().enumerate() {
            if index == limits.list_entries || out.len() + path.len() + 3 > limits.output_bytes {
                out.push_str(&format!(
                    "  [truncated: {index} of {} files shown]\n",
                    paths.len()
                ));
                break;
            }
            out.push_str(&format!("  {path}\n"));
        }
    }
    out
}

fn from_search(root: &Path, limits: &Limits, redact: Option<&Redact>, name: &str) -> String {
    let escaped = regex::escape(name);
    // `\b` only means "word boundary" next to a word character; `$x` or `x?` keep their edge.
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let before = if word(name.chars().next()) { r"\b" } else { "" };
    let after = if word(name.chars().last()) { r"\b" } else { "" };
    let pattern = format!("{before}{escaped}{after}");
    let everything = Glob::new("").expect("the empty glob is valid");
    let found = match compile(&pattern, limits) {
        Ok(regex) => search(root, limits, redact, &regex, &everything, FALLBACK_MATCHES),
        Err(e) => return format!("{e}\n"),
    };
    format!(
        "no symbol index for this repository: these are word matches for {name}, not \
         resolved definitions and references\n{}",
        found.render(limits)
    )
}
