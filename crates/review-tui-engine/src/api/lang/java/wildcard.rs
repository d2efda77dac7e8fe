//! Java subtyping through wildcard type arguments (JLS 4.5.1, 4.10.2): `List<T>` is a
//! `List<? extends T>`, `List<Number>` a `List<? super Number>`, anything a `List<?>`. A
//! parameter whose type now contains the old one takes every old argument; a result whose type
//! is now contained in the old one still fits every variable callers assigned it to.
//!
//! Only what the text proves: the same raw type with the same number of arguments, each
//! contained in the other's. Subtyping between two named classes needs their declarations
//! and is never assumed.

/// Whether every value of the type written `narrow` is a value of the type written `wide`.
pub(crate) fn subtype(narrow: &str, wide: &str) -> bool {
    subtype_within(narrow.trim(), wide.trim(), 0)
}

fn subtype_within(narrow: &str, wide: &str, depth: usize) -> bool {
    if narrow == wide {
        return true;
    }
    if depth > 8 {
        return false;
    }
    let (Some((raw_a, args_a, rest_a)), Some((raw_b, args_b, rest_b))) =
        (parameterised(narrow), parameterised(wide))
    else {
        return false;
    };
    raw_a == raw_b
        && rest_a == rest_b
        // An array of a subtype is an array of the supertype, but the suffix after the
        // arguments must be the same for the raw types to be the same.
        && args_a.len() == args_b.len()
        && args_a
            .iter()
            .zip(&args_b)
            .all(|(a, b)| contains(b, a, depth + 1))
}

/// A wildcard's bound as written: `?` (none), `? extends X`, `? super X`.
pub(crate) enum Argument<'a> {
    Exact(&'a str),
    Any,
    Extends(&'a str),
    Super(&'a str),
}

pub(crate) fn argument(text: &str) -> Argument<'_> {
    let Some(rest) = text.trim().strip_prefix('?') else {
        return Argument::Exact(text.trim());
    };
    let rest = rest.trim_start();
    if rest.is_empty() {
        Argument::Any
    } else if let Some(bound) = rest.strip_prefix("extends") {
        match bound.trim() {
            "Object" | "java.lang.Object" => Argument::Any,
            bound => Argument::Extends(bound),
        }
    } else if let Some(bound) = rest.strip_prefix("super") {
        Argument::Super(bound.trim())
    } else {
        Argument::Exact(text.trim())
    }
}

/// Whether the type argument `wide` contains `narrow` (JLS 4.5.1).
fn contains(wide: &str, narrow: &str, depth: usize) -> bool {
    use Argument::*;
    match (argument(wide), argument(narrow)) {
        (Exact(a), Exact(b)) => a == b,
        (Any, _) => true,
        (Extends(bound), Exact(t) | Extends(t)) => subtype_within(t, bound, depth),
        (Super(bound), Exact(t) | Super(t)) => subtype_within(bound, t, depth),
        _ => false,
    }
}

/// `Raw<A, B>rest` split into `Raw`, its top-level arguments and what follows the closing
/// `>` (`[]`); `None` when the type has no arguments.
pub(crate) fn parameterised(ty: &str) -> Option<(&str, Vec<&str>, &str)> {
    let open = ty.find('<')?;
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut start = open + 1;
    for (i, c) in ty.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    args.push(ty[start..i].trim());
                    return Some((ty[..open].trim(), args, ty[i + 1..].trim()));
                }
            }
            ',' if depth == 1 => {
                args.push(ty[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}
