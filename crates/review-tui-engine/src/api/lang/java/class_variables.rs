//! A member of a Java class that had no type parameters and now has some, its types now those
//! class variables where the old types were their erasure (`Encoder(OutputStream, Codec)` →
//! `Encoder(OutputStream, C)` with `class Encoder<C extends Codec>`, a raw `Manager` now
//! `Manager<C>`). Compiled callers see the
//! same descriptor. Old sources could only name the class raw, and the constructors, instance
//! methods and fields of a raw type are their erasures (JLS 4.8): the old signatures, so every
//! raw call and every raw subclass's override (JLS 8.4.8.1) still compiles.
//!
//! The class may now also be seen parameterised where old code did not write it: a subclass
//! of the library that now `extends Encoder<Base64Codec>`, a result now `Encoder<?>`. Through
//! it a class variable is that argument, so
//! - a parameter takes only it (an old call passing another `Codec` no longer compiles),
//! - an overridable result is it, and an old override through that subclass returning the
//!   old type no longer does,
//! - a field is written only with it.
//!
//! A constructor is never inherited, and a final method's result or a final field only read
//! (a subtype of the old type through any view): those are compatible; the others are
//! reported, not proven breaks. A type written with type arguments (`List<Codec>` →
//! `List<C>`) is a raw `List` at every old use, and a bound that is not the old type changes
//! the erasure: those are not this change.

use super::erasure::Erasure;
use crate::api::Item;

/// How old code fares with a member whose types became its class's new type variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadRaw {
    /// Not a change of this kind.
    No,
    /// Every old use still compiles.
    Compatible,
    /// Every old raw use still compiles; through a parameterised view it may not (why).
    Undecided(&'static str),
}

/// `old` → `new`, a member of a type whose enclosing types that had no type parameters at the
/// base declare `fresh` at the head (as written: `C extends Codec`). `own` are the member's
/// own type parameters (unchanged: they shadow class variables of their names); `final_class`
/// whether the class can have no subclass.
pub(crate) fn read_raw(
    old: &Item,
    new: &Item,
    fresh: &[String],
    own: &[String],
    final_class: bool,
) -> ReadRaw {
    if fresh.is_empty() || old.kind != new.kind || old.generics != new.generics {
        return ReadRaw::No;
    }
    let scope = Erasure::of_written(&[fresh, own].concat());
    let shadowed = Erasure::of_written(own);
    // A type naming a class variable (`C`, `C[]`, `Manager<C>`) and erasing to the old type,
    // written without type arguments: a raw use reads it as written at the base.
    let erased_to = |old: &str, new: &str| {
        let names = new
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .any(|word| scope.declares(word) && !shadowed.declares(word));
        names && !old.contains('<') && scope.erase(new) == old.trim()
    };
    let modifier = |item: &Item, m: &str| item.shape.split_whitespace().any(|w| w == m);
    match new.kind {
        "constructor" | "method" => {
            if old.shape != new.shape || modifier(new, "static") {
                return ReadRaw::No;
            }
            let (Some(before), Some(after)) = (&old.params, &new.params) else {
                return ReadRaw::No;
            };
            if before.len() != after.len() {
                return ReadRaw::No;
            }
            let mut parameter = false;
            for (a, b) in before.iter().zip(after) {
                match (&a.ty, &b.ty) {
                    _ if a.kind != b.kind => return ReadRaw::No,
                    (x, y) if x == y => {}
                    (Some(x), Some(y)) if erased_to(x, y) => parameter = true,
                    _ => return ReadRaw::No,
                }
            }
            let result = match (&old.ret, &new.ret) {
                (x, y) if x == y => false,
                (Some(x), Some(y)) if erased_to(x, y) => true,
                _ => return ReadRaw::No,
            };
            let overridable = !modifier(new, "final") && !final_class;
            match (new.kind, parameter, result) {
                (_, false, false) => ReadRaw::No,
                ("constructor", ..) => ReadRaw::Compatible,
                (_, true, _) => ReadRaw::Undecided(
                    "a parameter is now a type variable of the class, which had none: old code \
                     names the class raw and passes what it did (the erasure is the old type), \
                     but through a subclass or result that now gives the class type arguments \
                     it takes only those",
                ),
                (_, false, true) if overridable => ReadRaw::Undecided(
                    "the result is now a type variable of the class, which had none: every old \
                     call still compiles, but an old override through a subclass that now gives \
                     the class type arguments returns the old type where it must return those",
                ),
                _ => ReadRaw::Compatible,
            }
        }
        "field" => {
            let (Some((x, old_mods)), Some((y, new_mods))) = (field_type(old), field_type(new))
            else {
                return ReadRaw::No;
            };
            if x == y || old_mods != new_mods || !erased_to(x, y) {
                return ReadRaw::No;
            }
            if modifier(new, "static") {
                return ReadRaw::No;
            }
            if modifier(new, "final") {
                ReadRaw::Compatible
            } else {
                ReadRaw::Undecided(
                    "the field's type is now a type variable of the class, which had none: old \
                     code names the class raw and reads and writes it as before, but through a \
                     subclass or result that now gives the class type arguments it is written \
                     only with those",
                )
            }
        }
        _ => ReadRaw::No,
    }
}

/// A Java field's type and its modifiers, as the extractor writes them (form `{type}
/// {name}`, shape `{type} {modifiers}`).
fn field_type(item: &Item) -> Option<(&str, &str)> {
    let name = item.family.rsplit('.').next()?;
    let ty = item.form.strip_suffix(name)?.trim_end();
    let modifiers = item.shape.strip_prefix(ty)?.trim();
    Some((ty, modifiers))
}
