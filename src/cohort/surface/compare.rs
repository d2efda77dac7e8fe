//! Base against head, item by item: what was removed, what changed incompatibly, what was
//! added or widened.

use super::{Item, Param, ParamKind, Surface};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Code that compiled (or ran) against the base may not against the head.
    Incompatible,
    /// Added or widened: every old use still works.
    Compatible,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiChange {
    pub key: String,
    pub severity: Severity,
    /// Why, in a few words: `removed`, `a required parameter added`, `return type changed`.
    pub why: String,
    pub base: Option<String>,
    pub head: Option<String>,
}

/// Every difference between the two surfaces of one file. A key missing from the head is
/// `removed`; the caller decides whether it moved elsewhere (see `api_contract`).
pub fn compare(base: &Surface, head: &Surface) -> Vec<ApiChange> {
    let mut changes = Vec::new();
    for (key, old) in &base.items {
        match head.items.get(key) {
            Some(new) => {
                if let Some((severity, why)) = item_change(old, new) {
                    changes.push(change(key, severity, why, Some(old), Some(new)));
                }
            }
            None => {
                // Members of a removed parent are reported once, with the parent.
                if old
                    .parent
                    .as_ref()
                    .is_some_and(|p| base.items.contains_key(p) && !head.items.contains_key(p))
                {
                    continue;
                }
                // An overload replaced by one every old call still fits (a varargs added).
                let replaced = head.items.iter().find(|(k, new)| {
                    new.family == old.family
                        && !base.items.contains_key(*k)
                        && new.ret == old.ret
                        && matches!(
                            (&old.params, &new.params),
                            (Some(a), Some(b)) if positional(a, b).is_none()
                        )
                });
                match replaced {
                    Some((_, new)) => changes.push(change(
                        key,
                        Severity::Compatible,
                        "widened".into(),
                        Some(old),
                        Some(new),
                    )),
                    None if head.reexports.contains(&old.family) => changes.push(change(
                        key,
                        Severity::Compatible,
                        "now re-exported from elsewhere".into(),
                        Some(old),
                        None,
                    )),
                    None => {
                        // Another form under the same name (a Java overload whose parameter
                        // types changed) is the one that replaced it.
                        let successor = head
                            .items
                            .iter()
                            .find(|(k, new)| {
                                new.family == old.family && !base.items.contains_key(*k)
                            })
                            .map(|(_, new)| new);
                        let why = if successor.is_some() {
                            "signature changed"
                        } else {
                            "removed"
                        };
                        changes.push(change(
                            key,
                            Severity::Incompatible,
                            why.into(),
                            Some(old),
                            successor,
                        ));
                    }
                }
            }
        }
    }
    for (key, new) in &head.items {
        if base.items.contains_key(key) {
            continue;
        }
        let parent = new.parent.as_ref().and_then(|p| base.items.get(p));
        let (severity, why) = match parent {
            Some(_) if new.required => (
                Severity::Incompatible,
                format!(
                    "a member every implementation of `{}` must now provide",
                    new.family_parent()
                ),
            ),
            Some(parent) if parent.closed && matches!(new.kind, "field" | "variant") => (
                Severity::Incompatible,
                format!(
                    "a {} added to `{}`, which users build or match exhaustively",
                    new.kind,
                    new.family_parent()
                ),
            ),
            _ => (Severity::Compatible, "added".to_string()),
        };
        changes.push(change(key, severity, why, None, Some(new)));
    }
    changes
}

impl Item {
    fn family_parent(&self) -> &str {
        self.parent.as_deref().unwrap_or(&self.family)
    }
}

fn change(
    key: &str,
    severity: Severity,
    why: String,
    old: Option<&Item>,
    new: Option<&Item>,
) -> ApiChange {
    ApiChange {
        key: key.to_string(),
        severity,
        why,
        base: old.map(|i| i.form.clone()),
        head: new.map(|i| i.form.clone()),
    }
}

/// How one item changed, `None` when its contract is the same.
fn item_change(old: &Item, new: &Item) -> Option<(Severity, String)> {
    use Severity::*;
    if old.kind != new.kind {
        // `struct X` becoming `type X = other::X` keeps the name; what it aliases is not
        // resolved here, so it is not called a break.
        if new.kind == "type" || new.kind == "reexport" {
            return Some((Compatible, format!("now a {} alias", new.kind)));
        }
        return Some((
            Incompatible,
            format!("a {} is now a {}", old.kind, new.kind),
        ));
    }
    let mut compatible = None;
    if old.params != new.params {
        match (&old.params, &new.params) {
            (Some(a), Some(b)) => {
                let python = a.iter().chain(b).any(|p| {
                    matches!(
                        p.kind,
                        ParamKind::PositionalOrKeyword
                            | ParamKind::KeywordOnly
                            | ParamKind::VariadicKeyword
                    )
                });
                let verdict = if python {
                    by_name(a, b)
                } else {
                    positional(a, b)
                };
                match verdict {
                    Some(why) => return Some((Incompatible, why)),
                    None => compatible = Some("parameters widened"),
                }
            }
            _ => return Some((Incompatible, "no longer callable the same way".into())),
        }
    }
    if old.ret != new.ret {
        return Some((Incompatible, "return type changed".into()));
    }
    if old.generics != new.generics {
        if widened(&old.generics, &new.generics) {
            compatible = Some("bounds widened");
        } else {
            return Some((Incompatible, "generics or bounds changed".into()));
        }
    }
    if old.shape != new.shape {
        if widened(&old.shape, &new.shape) {
            compatible = Some("type widened");
        } else {
            return Some((
                Incompatible,
                format!("{} changed", describe_shape(old.kind)),
            ));
        }
    }
    if old.required != new.required {
        if new.required {
            return Some((Incompatible, "implementations must now provide it".into()));
        }
        compatible = Some("now has a default");
    }
    if old.closed && !new.closed {
        return Some((
            Incompatible,
            "no longer exhaustive or constructible by users".into(),
        ));
    }
    compatible.map(|why| (Compatible, why.to_string()))
}

fn describe_shape(kind: &str) -> &'static str {
    match kind {
        "field" | "property" | "const" | "static" | "var" => "type",
        "variant" => "variant's fields",
        "type" => "aliased type",
        _ => "declaration",
    }
}

/// Positional parameters: every old call must still fit. `Some(why)` when one may not.
pub(super) fn positional(old: &[Param], new: &[Param]) -> Option<String> {
    let receiver = |ps: &[Param]| {
        ps.iter()
            .find(|p| p.kind == ParamKind::Receiver)
            .map(|p| p.ty.clone())
    };
    if receiver(old) != receiver(new) {
        return Some("receiver changed".into());
    }
    let old: Vec<&Param> = old
        .iter()
        .filter(|p| p.kind != ParamKind::Receiver)
        .collect();
    let new: Vec<&Param> = new
        .iter()
        .filter(|p| p.kind != ParamKind::Receiver)
        .collect();
    let new_variadic = new.iter().position(|p| p.kind == ParamKind::Variadic);
    for (i, before) in old.iter().enumerate() {
        let after = match new.get(i).copied().or_else(|| new_variadic.map(|v| new[v])) {
            Some(after) => after,
            None => return Some(format!("parameter {} removed", i + 1)),
        };
        if before.kind == ParamKind::Variadic && after.kind != ParamKind::Variadic {
            return Some(format!("parameter {} no longer variadic", i + 1));
        }
        if let (Some(a), Some(b)) = (&before.ty, &after.ty)
            && a != b
            && !widened(a, b)
        {
            // A plain parameter folded into a variadic one of the same element type.
            let spread = after.kind == ParamKind::Variadic
                && (b.trim_start_matches("...") == a
                    || b.trim_end_matches("...") == a
                    || b.trim_end_matches("[]") == a);
            if !spread {
                return Some(format!("parameter {} type changed", i + 1));
            }
        }
        if before.optional && !after.optional && after.kind != ParamKind::Variadic {
            return Some(format!("parameter {} is now required", i + 1));
        }
    }
    for (i, after) in new.iter().enumerate().skip(old.len()) {
        if !after.optional && after.kind != ParamKind::Variadic {
            return Some(format!("a required parameter added (parameter {})", i + 1));
        }
    }
    None
}

/// Python: arguments bind by position and by name. Every old call must still bind.
fn by_name(old: &[Param], new: &[Param]) -> Option<String> {
    use ParamKind::*;
    let name = |p: &Param| p.name.clone().unwrap_or_default();
    let positional_at = |ps: &[Param], i: usize| -> Option<Param> {
        ps.iter()
            .filter(|p| {
                matches!(
                    p.kind,
                    Positional | PositionalOrKeyword | Variadic | Receiver
                )
            })
            .nth(i)
            .cloned()
            .or_else(|| ps.iter().find(|p| p.kind == Variadic).cloned())
    };
    let takes_any_keyword = new.iter().any(|p| p.kind == VariadicKeyword);
    let takes_any_positional = new.iter().any(|p| p.kind == Variadic);
    let old_positional: Vec<&Param> = old
        .iter()
        .filter(|p| matches!(p.kind, Positional | PositionalOrKeyword | Receiver))
        .collect();
    for (i, before) in old_positional.iter().enumerate() {
        match positional_at(new, i) {
            Some(after) if after.kind == Variadic => {}
            Some(after) if before.optional && !after.optional => {
                return Some(format!("`{}` is now required", name(before)));
            }
            Some(after)
                if before.kind == PositionalOrKeyword
                    && after.kind != PositionalOrKeyword
                    && after.kind != Receiver =>
            {
                return Some(format!(
                    "`{}` can no longer be passed by name",
                    name(before)
                ));
            }
            Some(after)
                if before.kind == PositionalOrKeyword
                    && name(&after) != name(before)
                    && !takes_any_keyword =>
            {
                return Some(format!(
                    "`{}` renamed to `{}` (callers pass it by name)",
                    name(before),
                    name(&after)
                ));
            }
            Some(_) => {}
            None if takes_any_positional => {}
            None => return Some(format!("`{}` removed", name(before))),
        }
    }
    for before in old.iter().filter(|p| p.kind == KeywordOnly) {
        match new.iter().find(|p| {
            name(p) == name(before) && matches!(p.kind, KeywordOnly | PositionalOrKeyword)
        }) {
            Some(after) if before.optional && !after.optional => {
                return Some(format!("`{}` is now required", name(before)));
            }
            Some(_) => {}
            None if takes_any_keyword => {}
            None => return Some(format!("keyword `{}` removed", name(before))),
        }
    }
    for kind in [Variadic, VariadicKeyword] {
        if old.iter().any(|p| p.kind == kind) && !new.iter().any(|p| p.kind == kind) {
            return Some(format!(
                "no longer takes {}",
                if kind == Variadic {
                    "*args"
                } else {
                    "**kwargs"
                }
            ));
        }
    }
    // A new parameter without a default that no old call supplies.
    for after in new {
        if after.optional || matches!(after.kind, Variadic | VariadicKeyword | Receiver) {
            continue;
        }
        let known = old.iter().any(|p| name(p) == name(after))
            || (after.kind != KeywordOnly
                && new
                    .iter()
                    .filter(|p| matches!(p.kind, Positional | PositionalOrKeyword | Receiver))
                    .position(|p| p == after)
                    .is_some_and(|i| i < old_positional.len()));
        if !known {
            return Some(format!("a required parameter `{}` added", name(after)));
        }
    }
    None
}

/// Whether `new` accepts everything `old` did, by the widenings we can recognise from the
/// text alone: a union that gained members, `Iterator` → `IntoIterator`, `T` → `impl Into<T>`
/// or `impl AsRef<T>`, and `?Sized`/bound removals are not attempted.
pub fn widened(old: &str, new: &str) -> bool {
    if old == new {
        return true;
    }
    if new.replace("IntoIterator", "Iterator") == old.replace("IntoIterator", "Iterator")
        && new.matches("IntoIterator").count() >= old.matches("IntoIterator").count()
    {
        return true;
    }
    for wrapper in ["impl Into<", "impl AsRef<", "impl Borrow<"] {
        if let Some(inner) = new.strip_prefix(wrapper).and_then(|t| t.strip_suffix('>'))
            && (inner == old || old.strip_prefix('&') == Some(inner))
        {
            return true;
        }
    }
    // A union that kept every old member (TypeScript `string` → `string | number`).
    let members = |t: &str| -> Vec<String> {
        t.split('|')
            .map(|m| {
                m.trim()
                    .trim_start_matches('(')
                    .trim_end_matches(')')
                    .to_string()
            })
            .filter(|m| !m.is_empty())
            .collect()
    };
    let (before, after) = (members(old), members(new));
    after.len() > before.len() && before.iter().all(|m| after.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(ty: &str, kind: ParamKind, optional: bool) -> Param {
        Param {
            name: Some("x".into()),
            ty: Some(ty.into()),
            kind,
            optional,
        }
    }

    #[test]
    fn positional_rules() {
        use ParamKind::*;
        let a = vec![p("u8", Positional, false)];
        assert_eq!(positional(&a, &a), None);
        let optional_added = vec![p("u8", Positional, false), p("u16", Positional, true)];
        assert_eq!(positional(&a, &optional_added), None);
        let variadic_added = vec![
            p("u8", Positional, false),
            p("...string[]", Variadic, false),
        ];
        assert_eq!(positional(&a, &variadic_added), None);
        let required_added = vec![p("u8", Positional, false), p("u16", Positional, false)];
        assert!(
            positional(&a, &required_added)
                .unwrap()
                .contains("required")
        );
        assert!(positional(&a, &[]).unwrap().contains("removed"));
        assert!(
            positional(&a, &[p("u16", Positional, false)])
                .unwrap()
                .contains("type")
        );
        assert_eq!(positional(&a, &[p("u8 | string", Positional, false)]), None);
    }

    #[test]
    fn widenings() {
        assert!(widened(
            "impl Iterator<Item=u8>",
            "impl IntoIterator<Item=u8>"
        ));
        assert!(!widened(
            "impl IntoIterator<Item=u8>",
            "impl Iterator<Item=u8>"
        ));
        assert!(widened("String", "impl Into<String>"));
        assert!(widened("string", "string | number"));
        assert!(!widened("string | number", "string"));
        assert!(!widened("u8", "u16"));
    }
}
