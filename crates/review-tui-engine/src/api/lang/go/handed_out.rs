//! A Go interface the API only hands out: the package's functions return it, and no exported
//! function, method or struct field takes one from users. Its implementations are the
//! package's own; one written outside (a test double) was never asked for, so a method added
//! to it breaks no program the API promised to keep compiling. Whether a user-written
//! implementation may be passed anywhere is read from the exported signatures and fields of
//! every Go file (tests aside) that names the interface, at the base and at the head: a
//! change cannot make an interface "only handed out" by dropping the function that took it.

use regex::Regex;

use crate::api::extract;
use crate::parse::grammar::Grammar;

/// Whether an exported signature or field in any of `texts` takes `interface` (by its name,
/// bare or qualified by its package, directly or inside a pointer, slice, map or function
/// type). A text that does not parse counts as taking it: nothing is proven without it.
pub(crate) fn taken_by_the_api(interface: &str, texts: impl IntoIterator<Item = String>) -> bool {
    let Ok(word) = Regex::new(&format!(r"\b{}\b", regex::escape(interface))) else {
        return true;
    };
    let everything = |_: &str| true;
    texts.into_iter().any(|text| {
        if !word.is_match(&text) {
            return false;
        }
        let Ok(surface) = extract(Grammar::Go, text.as_bytes(), &everything) else {
            return true;
        };
        surface.items.values().any(|item| {
            let param_takes = item
                .params
                .iter()
                .flatten()
                .any(|param| param.ty.as_deref().is_some_and(|ty| word.is_match(ty)));
            let field_takes = matches!(item.kind, "field") && word.is_match(&item.shape);
            param_takes || field_takes
        })
    })
}
