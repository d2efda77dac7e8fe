//! A Java method re-signed with new type parameters and the same erasure (commons-cli's
//! `Object createValue(String, Class<?>)` → `<T> T createValue(String, Class<T>)`): compiled
//! callers see the same descriptor, and whether every old *source* still compiles is a
//! question of inference (JLS 18) and of overriding (JLS 8.4.2, 8.4.8.3), answered here from
//! the text alone.
//!
//! Each new type parameter `T` (bound `B`) is inferred at every call. The old call fits a new
//! parameter when the old parameter's type is the new one with `T` replaced by what every
//! argument already satisfies: `B` for a whole parameter (`Object` → `T`: a lower bound on
//! `T`), `?` under a wildcard bound (`Function<?, ?>` → `Function<?, ? extends T>`: a lower
//! bound), `?` for a whole type argument (`Class<?>` → `Class<T>`: `T` is the argument's
//! captured type, so no other argument may bind it) or `? super T` (an upper bound, alone for
//! the same reason). Lower bounds from several arguments are met by their least upper bound.
//!
//! The result is then the new one with the inferred `T`, no longer necessarily `B`: it still
//! fits where the old one was used only when it is a subtype of the old result for every `T`
//! (`Object` → `T`, `List<?>` → `List<T>` or `List<? extends T>`). A result that holds `T` as
//! an exact type argument (assertj #3673: `ListAssert<…, Object, …>` → `ListAssert<…, T, …>`)
//! is another type once `T` is inferred from the arguments, and a call chained on it (`.contains
//! (anObject)`) no longer compiles, though an assignment to the old type still does.
//!
//! A subclass's override written against the old signature still overrides only when that
//! signature is the new one's erasure (JLS 8.4.2): a parameter or result the change wrote with
//! type arguments (`Class<?>` → `Class<T>`) is a name clash in every override, so a method that
//! can be overridden (neither `static` nor `final`) counts only when no such type changed.

use std::collections::BTreeMap;

use super::wildcard::{Argument, argument, parameterised};
use crate::api::Item;
use crate::api::text::map_words;

/// How a re-signed method's old calls fare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Generified {
    /// Not a re-signature of this kind.
    No,
    /// Every old call and override still compiles.
    Compatible,
    /// Every old call's arguments still fit, but the result's type now varies with the named
    /// type parameter: a call whose result is used as the old type may not compile.
    ResultVaries(String),
}

/// Where a type stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Parameter,
    Result,
}

/// How a parameter's type binds a new type parameter at an old call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Binding {
    /// Bounded below by the argument (any number of them meet).
    Lower,
    /// Equal to its bound, as before.
    Bound,
    /// Equal to the argument's captured type, or bounded above by it: no other argument may
    /// bind it.
    Alone,
}

/// `old` → `new` read as above. `old_parameters` and `new_parameters` are the methods' type
/// parameters as written (`T extends Number`); the new ones must be the old ones followed by
/// those added.
pub(crate) fn generified(
    old: &Item,
    new: &Item,
    old_parameters: &[String],
    new_parameters: &[String],
) -> Generified {
    if new_parameters.len() <= old_parameters.len()
        || new_parameters[..old_parameters.len()] != old_parameters[..]
    {
        return Generified::No;
    }
    let mut fresh = BTreeMap::new();
    for parameter in &new_parameters[old_parameters.len()..] {
        let (name, bound) = match parameter.split_once(" extends ") {
            Some((name, bounds)) => (name.trim(), bounds.split('&').next().unwrap_or("").trim()),
            None => (parameter.trim(), "Object"),
        };
        // An intersection or a generic bound erases to something the text does not say.
        if bound.is_empty()
            || bound.contains('<')
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            return Generified::No;
        }
        fresh.insert(name.to_string(), bound.to_string());
    }
    let fits = Fits { fresh: &fresh };
    let (Some(before), Some(after)) = (&old.params, &new.params) else {
        return Generified::No;
    };
    if before.len() != after.len() {
        return Generified::No;
    }
    let overridable =
        new.kind == "method" && !has_modifier(new, "static") && !has_modifier(new, "final");
    let mut bindings: Vec<(String, Binding)> = Vec::new();
    let mut changed = false;
    for (a, b) in before.iter().zip(after) {
        if a.kind != b.kind {
            return Generified::No;
        }
        match (&a.ty, &b.ty) {
            (x, y) if x == y => {}
            (Some(x), Some(y)) => {
                if overridable && x.contains('<') {
                    return Generified::No;
                }
                if !fits.fit(y.trim(), x.trim(), Side::Parameter, 0, &mut bindings) {
                    return Generified::No;
                }
                changed = true;
            }
            _ => return Generified::No,
        }
    }
    for (name, binding) in &bindings {
        let occurrences = bindings.iter().filter(|(n, _)| n == name).count();
        if *binding == Binding::Alone && occurrences > 1 {
            return Generified::No;
        }
    }
    match (&old.ret, &new.ret) {
        (x, y) if x == y => {}
        (Some(x), Some(y)) => {
            if overridable && x.contains('<') {
                return Generified::No;
            }
            if !fits.fit(y.trim(), x.trim(), Side::Result, 0, &mut Vec::new()) {
                // The arguments fit only if the result is the old one once `T` is its bound.
                let at_bound = fits.at_bound(y);
                let varies = fresh.keys().find(|name| fits.mentions(y, name));
                return match varies {
                    Some(name) if same_type(&at_bound, x) => Generified::ResultVaries(name.clone()),
                    _ => Generified::No,
                };
            }
            changed = true;
        }
        _ => return Generified::No,
    }
    if changed {
        Generified::Compatible
    } else {
        Generified::No
    }
}

fn has_modifier(item: &Item, modifier: &str) -> bool {
    item.shape.split_whitespace().any(|m| m == modifier)
}

/// `?` and `? extends Object` are one wildcard (JLS 4.5.1); spaces do not count.
fn same_type(a: &str, b: &str) -> bool {
    let unify = |t: &str| t.replace(' ', "").replace("?extendsObject", "?");
    unify(a) == unify(b)
}

struct Fits<'a> {
    /// The new type parameters and their bounds.
    fresh: &'a BTreeMap<String, String>,
}

impl Fits<'_> {
    /// Whether the type written `new` (at nesting `depth`: 0 a whole parameter or result, 1 a
    /// type argument of it) takes what `old` did, recording how each new type parameter is
    /// bound on the way.
    fn fit(
        &self,
        new: &str,
        old: &str,
        side: Side,
        depth: usize,
        bindings: &mut Vec<(String, Binding)>,
    ) -> bool {
        if same_type(new, old) && !self.fresh.keys().any(|name| self.mentions(new, name)) {
            return true;
        }
        // A wildcard that contains every type within `bound` (a result may widen to it)…
        let contains_all = |t: &str, bound: &str| match argument(t) {
            Argument::Any => true,
            Argument::Extends(b) => b == bound,
            _ => false,
        };
        // …and one that holds only such types (every old argument is within the bound).
        let within = |t: &str, bound: &str| match argument(t) {
            Argument::Any => bound == "Object",
            Argument::Extends(b) => b == bound,
            _ => false,
        };
        // A whole type parameter, with the same array or varargs suffix.
        let core = new
            .trim_end_matches("...")
            .trim_end_matches("[]")
            .trim_end();
        if let Some(bound) = self.fresh.get(core) {
            let suffix = &new[core.len()..];
            return match (depth, side) {
                (0, _) => {
                    let Some(old_core) = old.strip_suffix(suffix) else {
                        return false;
                    };
                    if old_core.trim() != bound {
                        return false;
                    }
                    bindings.push((core.to_string(), Binding::Lower));
                    true
                }
                (1, Side::Parameter) if suffix.is_empty() && within(old, bound) => {
                    bindings.push((core.to_string(), Binding::Alone));
                    true
                }
                (1, Side::Parameter) if suffix.is_empty() && old.trim() == bound => {
                    bindings.push((core.to_string(), Binding::Bound));
                    true
                }
                (1, Side::Result) => suffix.is_empty() && contains_all(old, bound),
                _ => false,
            };
        }
        if depth == 1 {
            let fresh = |name: &str| self.fresh.contains_key(name).then(|| name.to_string());
            let (extends, supers) = match argument(new) {
                Argument::Extends(name) => (fresh(name), None),
                Argument::Super(name) => (None, fresh(name)),
                _ => (None, None),
            };
            if let Some(name) = extends.as_deref() {
                let bound = &self.fresh[name];
                let fits = match side {
                    Side::Parameter => within(old, bound),
                    Side::Result => contains_all(old, bound),
                };
                if fits {
                    if side == Side::Parameter {
                        bindings.push((name.to_string(), Binding::Lower));
                    }
                    return true;
                }
                return false;
            }
            if let Some(name) = supers.as_deref() {
                if within(old, "Object") && self.fresh[name] == "Object" {
                    if side == Side::Parameter {
                        bindings.push((name.to_string(), Binding::Alone));
                    }
                    return true;
                }
                return false;
            }
            // Deeper, a type argument is invariant: it must be the old one exactly.
            return false;
        }
        if depth > 0 {
            return false;
        }
        let (Some((raw_new, args_new, rest_new)), Some((raw_old, args_old, rest_old))) =
            (parameterised(new), parameterised(old))
        else {
            return false;
        };
        raw_new == raw_old
            && rest_new == rest_old
            && args_new.len() == args_old.len()
            && args_new
                .iter()
                .zip(&args_old)
                .all(|(n, o)| self.fit(n, o, side, depth + 1, bindings))
    }

    /// `ty` with each new type parameter written as its bound.
    fn at_bound(&self, ty: &str) -> String {
        map_words(ty, |word| self.fresh.get(word).cloned())
    }

    /// Whether `ty` names the type parameter `name`.
    fn mentions(&self, ty: &str, name: &str) -> bool {
        ty.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .any(|word| word == name)
    }
}
