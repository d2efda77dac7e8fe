//! A Java method whose types changed only in their type arguments, the erasure the same: a
//! raw type given type arguments (`register(Class)` → `register(Class<?>)`), a parameter made
//! a new type parameter whose bound is the old type (`create(String, OutputStream)` → `<T
//! extends OutputStream> create(String, T)`), a raw result given type arguments. Compiled
//! callers see the same descriptor; whether every old *source* still compiles is read here.
//!
//! - A call: a raw argument converts to any parameterisation unchecked (JLS 5.1.9, a warning),
//!   and any parameterised one fits a type whose arguments are all `?`. A bounded argument
//!   (`Class<? extends Number>`) refuses an old `Class<String>`, and a type argument nested
//!   deeper is invariant. A new `T` taking the place of its bound as a whole parameter is
//!   inferred from the argument; one that also stands inside another parameter's type
//!   arguments may be bound twice to types that disagree.
//! - The result: every `C<…>` is a raw `C` (JLS 4.10.2), but old code may have assigned a raw
//!   result to a parameterised `C<X>` (an unchecked warning then, an error now) unless `C`
//!   declared no type parameters at the base, when no such `C<X>` could be written.
//! - An override written against the old signature still overrides only when that signature
//!   is the new one's erasure (JLS 8.4.2): every old parameter written without type arguments
//!   and the old method not generic; a raw result still converts unchecked (JLS 8.4.8.3).

use super::erasure::Erasure;
use super::wildcard::{Argument, argument, parameterised};
use crate::api::Item;

/// Whether `old` → `new` only gave type arguments to raw types (and type parameters erasing
/// to the old types) so that every old call, use of the result and override still compiles.
/// `old_parameters` and `new_parameters` are the methods' type parameters as written; the new
/// ones must be the old ones followed by those added. `generic_at_base` answers whether a type
/// declared type parameters at the base (`None`: not known).
pub(crate) fn parameterised_where_raw(
    old: &Item,
    new: &Item,
    old_parameters: &[String],
    new_parameters: &[String],
    generic_at_base: &dyn Fn(&str) -> Option<bool>,
) -> bool {
    if new_parameters.len() < old_parameters.len()
        || new_parameters[..old_parameters.len()] != old_parameters[..]
    {
        return false;
    }
    let added = Erasure::of_written(&new_parameters[old_parameters.len()..]);
    let (before, after) = (
        Erasure::of_written(old_parameters),
        Erasure::of_written(new_parameters),
    );
    let (Some(old_params), Some(new_params)) = (&old.params, &new.params) else {
        return false;
    };
    if old_params.len() != new_params.len() {
        return false;
    }
    let overridable = new.kind == "method"
        && !new
            .shape
            .split_whitespace()
            .any(|m| m == "static" || m == "final");
    let mut changed = false;
    let mut whole = Vec::new();
    let mut inside = Vec::new();
    for (a, b) in old_params.iter().zip(new_params) {
        let (Some(x), Some(y)) = (&a.ty, &b.ty) else {
            return false;
        };
        if a.kind != b.kind {
            return false;
        }
        if x == y {
            continue;
        }
        if x.contains('<') || after.erase(y) != before.erase(x) {
            return false;
        }
        match takes_every_old_argument(y, &added) {
            Some(Taken::Whole(name)) => whole.push(name),
            Some(Taken::Inside(names)) => inside.extend(names),
            None => return false,
        }
        changed = true;
    }
    // An override written against the old signature: the same signature still, or its
    // erasure (neither generic nor with a parameterised parameter), else a name clash.
    let signature_changed = changed || new_parameters.len() > old_parameters.len();
    let erased = old_parameters.is_empty()
        && old_params
            .iter()
            .all(|p| p.ty.as_deref().is_some_and(|t| !t.contains('<')));
    if overridable && signature_changed && !erased {
        return false;
    }
    // A new type parameter inside a type argument is the argument's own type: no other
    // parameter may bind it.
    for name in &inside {
        let uses = whole.iter().chain(&inside).filter(|n| *n == name).count();
        if uses > 1 {
            return false;
        }
    }
    match (&old.ret, &new.ret) {
        (x, y) if x == y => {}
        (Some(x), Some(y)) => {
            if x.contains('<') || after.erase(y) != before.erase(x) {
                return false;
            }
            // A new type parameter in the place of its bound (`OutputStream` → `T`) is a
            // subtype of it; type arguments given to a raw result need a type old code could
            // only name raw.
            let core = y.trim_end_matches("...").trim_end_matches("[]").trim_end();
            if !added.declares(core) {
                let Some((raw, _, _)) = parameterised(y) else {
                    return false;
                };
                if generic_at_base(raw) != Some(false) {
                    return false;
                }
            }
            changed = true;
        }
        _ => return false,
    }
    changed
}

/// How a parameter's new type takes every old argument of its erasure.
enum Taken {
    /// A new type parameter as the whole type (its erasure is the old type).
    Whole(String),
    /// A raw type given arguments that are `?` or new unbounded type parameters (named).
    Inside(Vec<String>),
}

fn takes_every_old_argument(ty: &str, added: &Erasure) -> Option<Taken> {
    let core = ty.trim_end_matches("...").trim_end_matches("[]").trim_end();
    if added.declares(core) {
        return Some(Taken::Whole(core.to_string()));
    }
    let (_, arguments, _) = parameterised(ty)?;
    let mut named = Vec::new();
    for a in arguments {
        match argument(a) {
            Argument::Any => {}
            Argument::Exact(name) if added.declares(name) && added.erase(name) == "Object" => {
                named.push(name.to_string())
            }
            _ => return None,
        }
    }
    Some(Taken::Inside(named))
}

/// Whether the type `old` → `new` (its item, with `members`, its own members at the base and
/// the head) only gained its first type parameters in a way old code cannot tell: old code
/// names it raw, which is still legal, and the members of a raw type are their erasures (JLS
/// 4.8), so an instance method or field whose type holds type arguments (`List<String>
/// names()`) is now raw at every old use and in every old subclass (`for (String s :
/// sink.names())`, an override of `set(List<String>)`, no longer compile).
pub(crate) fn first_type_parameters<'a>(
    old: &Item,
    new: &Item,
    members: impl IntoIterator<Item = &'a Item>,
) -> bool {
    let instance = |m: &&Item| !m.shape.split_whitespace().any(|w| w == "static");
    let parameterised = |m: &Item| match m.kind {
        "method" => {
            m.ret.as_deref().is_some_and(|t| t.contains('<'))
                || m.params
                    .iter()
                    .flatten()
                    .any(|p| p.ty.as_deref().is_some_and(|t| t.contains('<')))
        }
        "field" => m.shape.contains('<'),
        _ => false,
    };
    matches!(old.kind, "class" | "interface")
        && old.kind == new.kind
        && old.generics.is_empty()
        && !new.generics.is_empty()
        && !members.into_iter().filter(instance).any(parameterised)
}
