//! TypeScript: type parameters appended with a default (`getItem(k): Promise<X>` →
//! `getItem<R = X>(k): Promise<R>`, `type Pair<T> = [T, string]` → `type Pair<T, L = string>
//! = [T, L]`). Code written before could pass no type argument for a parameter that did not
//! exist, and type arguments bind by position, so every old annotation and call that infers
//! nothing for it gets the default: the head with each default written for its parameter is
//! what old code sees. Only parameters added after all the old ones, each with a default, the
//! old ones kept as written, qualify: one removed, inserted before, or a default removed
//! changes what an old type argument binds to.

use std::collections::BTreeMap;

use crate::api::Item;
use crate::api::text::{map_words, top_level_split};

/// The type parameters `new` declares after all of `old`'s, by name, each with its default
/// (earlier added defaults written into later ones), when `old`'s are kept as written.
/// `None` when no parameter was appended or one does not qualify.
pub(crate) fn appended(old: &str, new: &str) -> Option<BTreeMap<String, String>> {
    let (before, after) = (parameters(old)?, parameters(new)?);
    if after.len() <= before.len() || after[..before.len()] != before[..] {
        return None;
    }
    let mut defaults = BTreeMap::new();
    for parameter in &after[before.len()..] {
        let (name, default) = name_and_default(parameter)?;
        let default = map_words(&default, |word| defaults.get(word).cloned());
        defaults.insert(name, default);
    }
    Some(defaults)
}

/// `item` as code written before reads it: each parameter of `defaults` written as its
/// default wherever a type is written, and `generics` (the old ones) declared.
pub(crate) fn read_with(item: &Item, defaults: &BTreeMap<String, String>, generics: &str) -> Item {
    let mut item = written_with(item, defaults);
    item.generics = generics.to_string();
    item
}

/// `item` with each parameter of `defaults` written as its default in its parameters' types,
/// result and shape (its own type parameters left as declared).
pub(crate) fn written_with(item: &Item, defaults: &BTreeMap<String, String>) -> Item {
    let write = |text: &str| map_words(text, |word| defaults.get(word).cloned());
    let mut item = item.clone();
    item.ret = item.ret.as_deref().map(write);
    item.shape = write(&item.shape);
    for param in item.params.iter_mut().flatten() {
        param.ty = param.ty.as_deref().map(write);
    }
    item
}

/// Whether one of `names` is written in a type of `item`'s parameters: a call then infers it
/// from its arguments instead of taking the default.
pub(crate) fn in_parameters(item: &Item, names: &BTreeMap<String, String>) -> bool {
    item.params
        .iter()
        .flatten()
        .any(|param| param.ty.as_deref().is_some_and(|ty| mentions(ty, names)))
}

/// Whether one of `names` is written in `text` as a type name.
pub(crate) fn mentions(text: &str, names: &BTreeMap<String, String>) -> bool {
    let found = std::cell::Cell::new(false);
    map_words(text, |word| {
        if names.contains_key(word) {
            found.set(true);
        }
        None
    });
    found.get()
}

/// The type parameters of a `<…>` list as written, in order (`Some(vec![])` for none).
fn parameters(generics: &str) -> Option<Vec<String>> {
    let text = generics.trim();
    if text.is_empty() {
        return Some(Vec::new());
    }
    let inner = text.strip_prefix('<')?.strip_suffix('>')?;
    Some(
        top_level_split(inner, ',')
            .into_iter()
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect(),
    )
}

/// `R extends C = D` (or `const R = D`) → (`R`, `D`); `None` without a default.
fn name_and_default(parameter: &str) -> Option<(String, String)> {
    let parameter = parameter.trim();
    let parameter = parameter.strip_prefix("const ").unwrap_or(parameter);
    let name: String = parameter
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    if name.is_empty() {
        return None;
    }
    // The default follows the first `=` outside brackets that is no arrow (`F = (a: A) => B`).
    let parts = top_level_split(parameter, '=');
    let mut default_at = None;
    let mut offset = 0;
    for part in &parts[..parts.len() - 1] {
        offset += part.len();
        let arrow = parameter[offset + 1..].starts_with('>');
        if !arrow && default_at.is_none() {
            default_at = Some(offset);
        }
        offset += 1;
    }
    let default = parameter[default_at? + 1..].trim();
    (!default.is_empty()).then(|| (name, default.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_parameters_appended_with_a_default_are_read_as_their_default() {
        let found = appended("<T>", "<T, L=string, M=L[]>").unwrap();
        assert_eq!(found.get("L").map(String::as_str), Some("string"));
        assert_eq!(found.get("M").map(String::as_str), Some("string[]"));
        let arrow = appended("", "<F extends (a: string) => void=(a: string) => void>").unwrap();
        assert_eq!(
            arrow.get("F").map(String::as_str),
            Some("(a: string) => void")
        );
        assert!(appended("", "<R=Map<string, number>>").is_some());
        // Without a default, removed, inserted before, or a default removed.
        assert!(appended("", "<R>").is_none());
        assert!(appended("<U extends T>", "").is_none());
        assert!(appended("<T>", "<K=string, T>").is_none());
        assert!(appended("<T, L=string>", "<T, L>").is_none());
        assert!(appended("<T>", "<T>").is_none());
        assert!(appended("<T>", "<T extends string, L=string>").is_none());
    }
}
