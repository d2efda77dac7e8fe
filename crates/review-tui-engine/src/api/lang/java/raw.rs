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

/// How the old sources of a method re-signed with type arguments fare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Raw {
    /// Not a re-signature of this kind, or a break.
    No,
    /// Every old call, use of the result and override still compiles.
    Compatible,
    /// Every old call and override still compiles; old code that assigned the raw result to
    /// a parameterised type compiles only where inference agrees with it (why).
    Undecided(String),
}

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
) -> Raw {
    if new_parameters.len() < old_parameters.len()
        || new_parameters[..old_parameters.len()] != old_parameters[..]
    {
        return Raw::No;
    }
    let added = Erasure::of_written(&new_parameters[old_parameters.len()..]);
    let (before, after) = (
        Erasure::of_written(old_parameters),
        Erasure::of_written(new_parameters),
    );
    let (Some(old_params), Some(new_params)) = (&old.params, &new.params) else {
        return Raw::No;
    };
    if old_params.len() != new_params.len() {
        return Raw::No;
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
            return Raw::No;
        };
        if a.kind != b.kind {
            return Raw::No;
        }
        if x == y {
            continue;
        }
        if x.contains('<') || after.erase(y) != before.erase(x) {
            return Raw::No;
        }
        match takes_every_old_argument(y, &added) {
            Some(Taken::Whole(name)) => whole.push(name),
            Some(Taken::Inside(names)) => inside.extend(names),
            None => return Raw::No,
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
        return Raw::No;
    }
    // A new type parameter inside a type argument is the argument's own type: no other
    // parameter may bind it.
    for name in &inside {
        let uses = whole.iter().chain(&inside).filter(|n| *n == name).count();
        if uses > 1 {
            return Raw::No;
        }
    }
    let mut undecided = None;
    match (&old.ret, &new.ret) {
        (x, y) if x == y => {}
        (Some(x), Some(y)) => {
            if x.contains('<') || after.erase(y) != before.erase(x) {
                return Raw::No;
            }
            match result_given_arguments(y, &added, generic_at_base) {
                Raw::No => return Raw::No,
                Raw::Undecided(why) => undecided = Some(why),
                Raw::Compatible => {}
            }
            changed = true;
        }
        _ => return Raw::No,
    }
    match (changed, undecided) {
        (false, _) => Raw::No,
        (true, Some(why)) => Raw::Undecided(why),
        (true, None) => Raw::Compatible,
    }
}

/// A raw result `y` now written with type arguments, the erasure the same. A new type
/// parameter in the place of its bound (`OutputStream` → `T`) is a subtype of it; every
/// `C<…>` is a raw `C`, and old code could not have assigned the result to a parameterised `C<X>`
/// when `C` declared no type parameters at the base. When it did, or it is not known, a `C<?>`
/// fits no `C<X>`, and a `C<T>` with `T` new is inferred from the arguments and the target:
/// `C<X> c = m(out)` still compiles when `out` is an `X`, which only the caller knows.
fn result_given_arguments(
    y: &str,
    added: &Erasure,
    generic_at_base: &dyn Fn(&str) -> Option<bool>,
) -> Raw {
    let core = y.trim_end_matches("...").trim_end_matches("[]").trim_end();
    if added.declares(core) {
        return Raw::Compatible;
    }
    let Some((raw, arguments, _)) = parameterised(y) else {
        return Raw::No;
    };
    if generic_at_base(raw) == Some(false) {
        return Raw::Compatible;
    }
    if arguments.iter().all(|a| added.declares(a.trim())) {
        return Raw::Undecided(format!(
            "the raw result is now `{y}`, its type arguments inferred: every old call and \
             override still compiles, and old code that assigned the result to a \
             parameterised `{raw}<…>` compiles only where its arguments agree"
        ));
    }
    Raw::No
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
