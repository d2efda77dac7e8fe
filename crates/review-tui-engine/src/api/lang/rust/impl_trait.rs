//! A function's type parameter used only as one argument's type is the contract `impl Trait`
//! with its bounds writes there (`fn new<T: Display>(m: T)`, `fn new(m: impl Display)`):
//! every call that lets the compiler infer it compiles either way. Only a turbofish naming it
//! (`new::<String>(..)`) tells them apart, as an `impl Trait` argument cannot be named.

use super::extract::{join_generics, split_generics};
use crate::api::Item;

/// `item` read with each of its type parameters that `other` writes as `impl Trait` at the
/// same argument written so: the parameter dropped, its bounds on the argument. Only a free
/// function or an inherent method (a trait's implementations must match its generics), and a
/// parameter that is that argument's whole type and named nowhere else in the signature
/// (not in the result, another argument or another bound). `None` when nothing is read so.
pub(in crate::api) fn opened(item: &Item, other: &Item) -> Option<Item> {
    let (Some(params), Some(others)) = (&item.params, &other.params) else {
        return None;
    };
    if item.parent.is_some() || params.len() != others.len() {
        return None;
    }
    let (mut names, mut predicates) = split_generics(&item.generics);
    let mut out = item.clone();
    let mut changed = false;
    for (at, (param, theirs)) in params.iter().zip(others).enumerate() {
        let (Some(ty), Some(their_ty)) = (param.ty.as_deref(), theirs.ty.as_deref()) else {
            continue;
        };
        let Some(their_bounds) = their_ty.strip_prefix("impl ") else {
            continue;
        };
        if !names.iter().any(|n| n == ty) {
            continue;
        }
        let prefix = format!("{ty}: ");
        let bounds: Vec<&str> = predicates
            .iter()
            .filter_map(|p| p.strip_prefix(&prefix))
            .collect();
        // Named anywhere else: the result, another argument, another parameter's default or
        // bound, a bound of its own that names it (`T: PartialEq<T>`).
        let elsewhere = params
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != at)
            .filter_map(|(_, p)| p.ty.as_deref())
            .chain(item.ret.as_deref())
            .chain([item.shape.as_str()])
            .chain(names.iter().filter(|n| *n != ty).map(String::as_str))
            .chain(
                predicates
                    .iter()
                    .filter(|p| !p.starts_with(&prefix))
                    .map(String::as_str),
            )
            .chain(bounds.iter().copied())
            .any(|text| names_word(text, ty));
        if bounds.is_empty() || elsewhere {
            continue;
        }
        // Written in `other`'s order when the bounds are the same set.
        let mut ours: Vec<&str> = bounds.clone();
        let mut written: Vec<&str> = their_bounds.split(" + ").map(str::trim).collect();
        ours.sort_unstable();
        written.sort_unstable();
        let opened = if ours == written {
            their_ty.to_string()
        } else {
            format!("impl {}", ours.join(" + "))
        };
        if let Some(p) = out.params.as_mut().and_then(|ps| ps.get_mut(at)) {
            p.ty = Some(opened);
        }
        let name = ty.to_string();
        names.retain(|n| *n != name);
        predicates.retain(|p| !p.starts_with(&prefix));
        changed = true;
    }
    if !changed {
        return None;
    }
    out.generics = join_generics(&names, &predicates);
    Some(out)
}

/// Whether `text` names `word` as a whole identifier.
fn names_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}
