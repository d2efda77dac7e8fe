//! Base against head, item by item: what was removed, what changed incompatibly, what was
//! added or widened, and what changed in a way the syntax alone cannot decide.
//!
//! Only a change proven to break a caller is [`Severity::Incompatible`]: a removed item, a
//! removed or newly required parameter, a changed positional order or kind, a type changed to
//! a different nominal or primitive type once aliases are resolved. A type written differently
//! in a structurally typed language (TypeScript), a type from another package that may be an
//! alias of the old one, or a data member read the same way in another form (an attribute now
//! a property) is [`Severity::Undecided`]: reported, never gating.

use std::collections::{BTreeMap, BTreeSet};

use super::lang::go::extract::GO_POINTER_RECEIVER;
use super::lang::java;
use super::lang::java::class_variables::ReadRaw;
use super::lang::java::generified::Generified;
use super::lang::java::raw::Raw;
use super::lang::java::wildcard;
use super::lang::rust::extract::{join_generics, split_generics};
use super::lang::rust::generated::generated_by_macro;
use super::lang::rust::impl_trait;
use super::lang::{python, rust, script};
use super::text::map_words;
use super::{Item, Param, ParamKind, Surface};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Severity {
    /// Code that compiled (or ran) against the base may not against the head.
    Incompatible,
    /// Changed, but whether old uses still work cannot be decided from the syntax.
    Undecided,
    /// Added or widened: every old use still works.
    Compatible,
}

/// What comparing types needs to know about the language and the code around the file.
pub(crate) struct Types<'a> {
    /// Types are compatible by structure (TypeScript, JavaScript): two texts that differ may
    /// accept the same values, so only a change between different primitives is proven.
    pub structural: bool,
    /// Generics are erased at run time and `?` and `Object` take any type (Java): a method
    /// generified with the same erasure (`Object get()` → `<T> T get()`) is the same method to
    /// compiled callers and still fits every old call.
    pub erased: bool,
    /// The target of a transparent alias by its name (`Completion` → `string`), looked up in
    /// the changed files and the rest of the package.
    pub alias: &'a dyn Fn(&str) -> Option<String>,
    /// The type literal a defined type stands for (`CompletionFunc` → `func(…) (…)`).
    pub underlying: &'a dyn Fn(&str) -> Option<String>,
    /// The member `name` of the class named `base` (as written in a class's bases), itself or
    /// inherited, looked up in the rest of the repository: `Some(None)` when that class has
    /// no such member, `None` when the class is not found there (another package's class).
    pub inherits: &'a dyn Fn(&str, &str) -> Option<Option<Item>>,
    /// The generics a type declares, by its name (`Shared` → `<T> where T: ?Sized, T:
    /// Pointable`), looked up like aliases: a bound its declaration puts on a type parameter
    /// holds for every type argument a caller can write.
    pub declared: &'a dyn Fn(&str) -> Option<String>,
    /// Whether the Java type named `name` declared type parameters at the base (`None` when
    /// its declaration is not in the repository): code written against a type that had none
    /// could only name it raw.
    pub generic_at_base: &'a dyn Fn(&str) -> Option<bool>,
}

impl Types<'_> {
    /// Nominal typing without aliases: every changed type text is a changed type.
    #[cfg(test)]
    pub(crate) fn nominal() -> Types<'static> {
        Types {
            structural: false,
            erased: false,
            alias: &|_| None,
            underlying: &|_| None,
            inherits: &|_, _| None,
            declared: &|_| None,
            generic_at_base: &|_| None,
        }
    }

    /// `text` with every alias written in it replaced by its target (chains followed a few
    /// steps; a qualified name `pkg.Name` belongs to another package and is left alone).
    fn resolve(&self, text: &str) -> String {
        let mut current = text.to_string();
        for _ in 0..4 {
            let next = map_words(&current, |word| (self.alias)(word));
            if next == current {
                break;
            }
            current = next;
        }
        current
    }
}

/// How a type written at the base compares with the one written at the head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TypeChange {
    /// The same type (possibly written through an alias).
    Same,
    /// Accepts everything the old one did.
    Widened,
    /// Written differently; whether it is the same or compatible is not decidable here.
    Undecided,
    /// A different type.
    Different,
}

fn type_change(old: &str, new: &str, types: &Types) -> TypeChange {
    if old == new {
        return TypeChange::Same;
    }
    // A tuple of results (Go's `(T, bool)`, a Rust tuple) is values assigned one by one:
    // each compares on its own, and the tuple changed as much as its most changed value.
    if let (Some(a), Some(b)) = (tuple_values(old), tuple_values(new))
        && a.len() == b.len()
        && a.len() > 1
    {
        return a
            .iter()
            .zip(&b)
            .map(|(x, y)| type_change(x, y, types))
            .max_by_key(|change| match change {
                TypeChange::Same => 0,
                TypeChange::Widened => 1,
                TypeChange::Undecided => 2,
                TypeChange::Different => 3,
            })
            .unwrap_or(TypeChange::Same);
    }
    // The same name written with its path or through a `use`, before aliases resolve one of
    // them (tokio 1.22: `gid_t` from `use libc::gid_t` → `unix::gid_t`, whose module
    // defines `type gid_t = u32`): which item each names is not in the syntax.
    let spelled_alike = named_another_way(old, new);
    let (old, new) = (types.resolve(old), types.resolve(new));
    if old == new || std_aliases_spelled(&old) == std_aliases_spelled(&new) {
        return TypeChange::Same;
    }
    if widened(&old, &new)
        || unsized_allowed(&old, &new)
        || (types.erased && wildcard::subtype(&old, &new))
    {
        return TypeChange::Widened;
    }
    // A type literal now a named type over the same literal, or back (Go's
    // `func(…)` → `CompletionFunc`): values are assignable both ways, save from another
    // named type over the same literal, which the syntax here cannot see.
    let literal_of = |name: &str| (types.underlying)(name.trim()).map(|t| types.resolve(&t));
    if literal_of(&old).is_some_and(|u| u == new) || literal_of(&new).is_some_and(|u| u == old) {
        return TypeChange::Undecided;
    }
    if types.structural {
        return match (primitive(&old), primitive(&new)) {
            (Some(a), Some(b)) if a != b => TypeChange::Different,
            _ => TypeChange::Undecided,
        };
    }
    // A name from another package (`flag.ParseErrorsWhitelist` → `flag.ParseErrorsAllowlist`)
    // may be an alias of the old one there: renamed types usually keep the old name so.
    let (a, b) = (qualified_names(&old), qualified_names(&new));
    let differing =
        a.iter().filter(|n| !b.contains(n)).count() + b.iter().filter(|n| !a.contains(n)).count();
    if differing > 0 && without(&old, &a) == without(&new, &b) {
        return TypeChange::Undecided;
    }
    // The same name written with its path or through a `use` (log #662:
    // `std::borrow::Cow<'v, str>` → `Cow<'v, str>`): which item it names is not in the syntax.
    if (differing > 0 && last_segments(&old, &a) == last_segments(&new, &b)) || spelled_alike {
        return TypeChange::Undecided;
    }
    TypeChange::Different
}

/// Whether `old` and `new` differ only in the paths of qualified names whose last segments
/// agree (`serde::Deserializer` → `serde_core::Deserializer`, `io::Result` → `std::io::Result`).
fn named_another_way(old: &str, new: &str) -> bool {
    let (a, b) = (qualified_names(old), qualified_names(new));
    a != b && last_segments(old, &a) == last_segments(new, &b)
}

/// `text` with each of the qualified `names` written as its last segment (`io::Error` →
/// `Error`).
fn last_segments(text: &str, names: &[String]) -> String {
    let mut out = text.to_string();
    for name in names {
        let last = name.rsplit([':', '.']).next().unwrap_or(name);
        out = out.replace(name.as_str(), last);
    }
    out
}

/// Names written with a package or module path (`flag.Value`, `io::Error`).
/// The values of a tuple type `(A, B)`, trimmed; `None` when `text` is not one parenthesised
/// list (a TypeScript function type `(a) => b` starts with `(` but is not).
fn tuple_values(text: &str) -> Option<Vec<&str>> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    Some(
        rust::extract::top_level_split(inner, ',')
            .into_iter()
            .map(str::trim)
            .collect(),
    )
}

fn qualified_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_alphanumeric() || c == '_' || c == '.' || c == ':' {
            current.push(c);
        } else {
            let trimmed = current.trim_matches(|c| c == '.' || c == ':');
            if trimmed.contains('.') || trimmed.contains("::") {
                names.push(trimmed.to_string());
            }
            current.clear();
        }
    }
    names
}

/// `text` with the given names blanked, to see whether they are all that differs.
fn without(text: &str, names: &[String]) -> String {
    let mut out = text.to_string();
    for name in names {
        out = out.replace(name.as_str(), "_");
    }
    out
}

/// The primitive a TypeScript type is (a literal counts as its primitive), if it is one.
fn primitive(text: &str) -> Option<&'static str> {
    let t = text.trim().trim_start_matches('?').trim();
    let t = t.strip_suffix(" static").unwrap_or(t).trim();
    Some(match t {
        "string" => "string",
        "number" => "number",
        "boolean" | "true" | "false" => "boolean",
        "bigint" => "bigint",
        "symbol" => "symbol",
        "undefined" | "void" => "undefined",
        "null" => "null",
        _ if t.starts_with(['"', '\'', '`']) => "string",
        _ if t.ends_with('n') && t[..t.len() - 1].parse::<i128>().is_ok() => "bigint",
        _ if t.trim_start_matches('-').parse::<f64>().is_ok() => "number",
        _ => return None,
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApiChange {
    pub key: String,
    pub severity: Severity,
    /// Why, in a few words: `removed`, `a required parameter added`, `return type changed`.
    pub why: String,
    pub base: Option<String>,
    pub head: Option<String>,
}

/// Every difference between the two surfaces of one file. A key missing from the head is
/// `removed`; the caller decides whether it moved elsewhere (see `api_contract`).
pub(crate) fn compare(base: &Surface, head: &Surface, types: &Types) -> Vec<ApiChange> {
    // A file every build compiled, now compiled only when asked (a Go file given a build tag
    // of its own): what it declares is gone from the default build, as if removed.
    let hidden = Surface::default();
    let head = if head.undecided_scope.is_some() && base.undecided_scope.is_none() {
        &hidden
    } else {
        head
    };
    let mut changes = compare_items(base, head, types);
    // Names whose being API at all is undecided (at the base: what users may have had).
    if let Some(why) = base.undecided_scope {
        for change in &mut changes {
            if change.severity == Severity::Incompatible {
                change.severity = Severity::Undecided;
                change.why = format!("{} ({why}: not proven a break)", change.why);
            }
        }
    }
    // Names and signature text from the tags are not a contract read by the language's rules:
    // what changed is reported, and never called a break.
    if base.by_tags || head.by_tags {
        // Where visibility is exact, a public name gone from the file is a removal (moves to
        // another file are the caller's to find, as for every language).
        let proven = base.removals_proven && (head.removals_proven || !head.by_tags);
        for change in &mut changes {
            if change.severity == Severity::Incompatible && !(proven && change.why == "removed") {
                change.severity = Severity::Undecided;
                change.why = format!(
                    "{} (compared by name and signature text only, not proven a break)",
                    change.why
                );
            }
        }
    }
    changes
}

fn compare_items(base: &Surface, head: &Surface, types: &Types) -> Vec<ApiChange> {
    let mut changes = Vec::new();
    for (key, old) in &base.items {
        match head.items.get(key) {
            Some(new) => {
                // The form shown stays as written: only the types compared are renamed.
                let renamed = with_base_enclosing_names(old, new, base, head);
                let new = renamed.as_ref().unwrap_or(new);
                let defaulted = types
                    .structural
                    .then(|| with_enclosing_defaults(key, old, new, base, head))
                    .flatten();
                let new = defaulted.as_ref().unwrap_or(new);
                let change = first_type_parameters(key, old, new, base, head, types)
                    .or_else(|| members_read_raw(key, old, new, base, head, types))
                    .unwrap_or_else(|| kept(key, old, new, head, types));
                changes.extend(change);
            }
            None => changes.extend(gone(key, old, base, head, types)),
        }
    }
    for (key, new) in &head.items {
        if !base.items.contains_key(key) {
            changes.push(added(key, new, base, head));
        }
    }
    changes
}

/// A Java type that gained its first type parameters, read as old code reads it: raw (see
/// [`java::raw::first_type_parameters`]); the rest of its declaration still compares. `None`
/// when that does not apply.
fn first_type_parameters(
    key: &str,
    old: &Item,
    new: &Item,
    base: &Surface,
    head: &Surface,
    types: &Types,
) -> Option<Option<ApiChange>> {
    let members = head
        .items
        .iter()
        .filter(|(k, m)| m.parent.as_deref() == Some(key) && base.items.contains_key(*k))
        .map(|(_, m)| m);
    if !types.erased || !java::raw::first_type_parameters(old, new, members) {
        return None;
    }
    let raw = Item {
        generics: String::new(),
        ..new.clone()
    };
    Some(Some(match kept(key, old, &raw, head, types) {
        Some(other) => other,
        None => change(
            key,
            Severity::Compatible,
            "now generic: old code names it raw, which is still legal, and none of its \
             instance members has type arguments a raw use would lose"
                .into(),
            Some(old),
            Some(new),
        ),
    }))
}

/// A Java member whose types became type variables of its class, which had none at the base
/// (see [`java::class_variables`]). `None` when that does not apply.
fn members_read_raw(
    key: &str,
    old: &Item,
    new: &Item,
    base: &Surface,
    head: &Surface,
    types: &Types,
) -> Option<Option<ApiChange>> {
    if !types.erased {
        return None;
    }
    let fresh = fresh_class_variables(new.parent.as_deref()?, base, head)?;
    let (own, final_class) = (
        type_parameter_list(&new.generics),
        new.parent
            .as_ref()
            .and_then(|p| head.items.get(p))
            .is_some_and(|p| p.shape.split_whitespace().any(|m| m == "final")),
    );
    let (severity, why) = match java::class_variables::read_raw(old, new, &fresh, &own, final_class)
    {
        ReadRaw::No => return None,
        ReadRaw::Compatible => (
            Severity::Compatible,
            "now a type variable of the class, which had none: old code names the class raw, \
             and a raw type's members are their erasures, the old types"
                .to_string(),
        ),
        ReadRaw::Undecided(why) => (Severity::Undecided, why.to_string()),
    };
    Some(Some(change(key, severity, why, Some(old), Some(new))))
}

/// The type parameters (as written) that the Java type `key` and the types enclosing it as
/// inner classes declare at the head and did not at the base. `None` when one of them was
/// already generic and changed its type parameters (old code wrote it parameterised), or is
/// not in both surfaces.
fn fresh_class_variables(key: &str, base: &Surface, head: &Surface) -> Option<Vec<String>> {
    let mut fresh = Vec::new();
    let mut current = key;
    loop {
        let (old, new) = (base.items.get(current)?, head.items.get(current)?);
        if old.generics.is_empty() {
            fresh.extend(type_parameter_list(&new.generics));
        } else if old.generics != new.generics {
            return None;
        }
        // Only an inner class sees the type variables of the type around it.
        let inner = new.kind == "class" && !new.shape.split_whitespace().any(|m| m == "static");
        match current.rsplit_once('.') {
            Some((outer, _)) if inner && head.items.contains_key(outer) => current = outer,
            _ => return Some(fresh),
        }
    }
}

/// An item in both surfaces: how it changed, if it did.
fn kept(key: &str, old: &Item, new: &Item, head: &Surface, types: &Types) -> Option<ApiChange> {
    // Bound in kinds that differ, in alternative branches: a use of the base's
    // item still works where one of them takes it.
    let alternative = head.alternatives.get(key).is_some_and(|all| {
        all.iter().any(|alt| {
            item_change(old, alt, types)
                .is_none_or(|(severity, _)| severity == Severity::Compatible)
        })
    });
    // A sealed trait's methods are implemented only here: users only call them.
    let only_called = |item: &Item| Item {
        parent: None,
        ..item.clone()
    };
    let sealed = new
        .parent
        .as_ref()
        .and_then(|p| head.items.get(p))
        .is_some_and(|p| p.kind == "trait" && p.sealed);
    let verdict = if sealed {
        item_change(&only_called(old), &only_called(new), types)
    } else {
        item_change(old, new, types)
    };
    match verdict {
        Some((severity, _)) if severity != Severity::Compatible && alternative => Some(change(
            key,
            Severity::Compatible,
            "now defined in other forms as well, one of them as before".into(),
            Some(old),
            Some(new),
        )),
        Some((severity, why)) => Some(change(key, severity, why, Some(old), Some(new))),
        None => None,
    }
}

/// An item of the base no longer under its key at the head: removed, or still reached
/// another way (an alias, an inherited member, a replacing overload, a re-export…).
fn gone(key: &str, old: &Item, base: &Surface, head: &Surface, types: &Types) -> Option<ApiChange> {
    // Members of a removed parent are reported once, with the parent.
    if old
        .parent
        .as_ref()
        .is_some_and(|p| base.items.contains_key(p) && !head.items.contains_key(p))
    {
        return None;
    }
    if let Some(change) = through_an_alias(key, old, base, head, types) {
        return Some(change);
    }
    if let Some(change) = through_inheritance(key, old, head, types) {
        return Some(change);
    }
    Some(removed_or_replaced(key, old, base, head, types))
}

/// A member whose type is now an alias: still reached through it, or not listed.
fn through_an_alias(
    key: &str,
    old: &Item,
    base: &Surface,
    head: &Surface,
    types: &Types,
) -> Option<ApiChange> {
    // A TypeScript type now written as a computed alias (`type Options =
    // Merge<A, B>`, `A & B`): its members are whatever the operands give, which
    // the syntax cannot list (got #946).
    if let Some(alias) = old
        .parent
        .as_ref()
        .and_then(|p| head.items.get(p))
        .filter(|p| types.structural && p.kind == "type" && p.shape != "{}")
    {
        return Some(change(
            key,
            Severity::Undecided,
            format!(
                "its type is now `{}`, whose members the syntax cannot list",
                alias.shape
            ),
            Some(old),
            None,
        ));
    }
    // A type now an alias of another (tower #567: `pub struct ReadyAnd` became
    // `pub type ReadyAnd<…> = Ready<…>`): its members are the target's, reached
    // through the alias. A target defined elsewhere is not listed here.
    if let Some((owner, member)) = key.rsplit_once("::").or_else(|| key.rsplit_once('.'))
        && let Some(alias) = head.items.get(owner).filter(|p| {
            !types.structural
                && p.kind == "type"
                && p.form.contains('=')
                && base.items.get(owner).is_some_and(|b| b.kind != "type")
        })
    {
        let written = alias.shape.split(['<', '[']).next().unwrap_or("").trim();
        let target = written.rsplit(['.', ':']).next().unwrap_or(written);
        let reached = [format!("{target}::{member}"), format!("{target}.{member}")]
            .iter()
            .any(|k| head.items.contains_key(k));
        if reached {
            return Some(change(
                key,
                Severity::Compatible,
                format!("still reached through `{owner}`, now an alias of `{target}`"),
                Some(old),
                None,
            ));
        }
        // A target defined here lists its members: without this one, it is gone.
        if !head.items.contains_key(target) {
            return Some(change(
                key,
                Severity::Undecided,
                format!(
                    "`{owner}` is now an alias of `{}`, whose members are not listed \
                     here",
                    alias.shape
                ),
                Some(old),
                None,
            ));
        }
    }
    None
}

/// Why a member of a type now kept only as a hidden alias (`#[doc(hidden)] pub type Context =
/// ContextV1;`) is still there: its target, defined beside it, has the member.
fn through_a_hidden_alias(key: &str, head: &Surface) -> Option<String> {
    let (owner, member) = key.rsplit_once("::")?;
    if !head.hidden.contains(owner) {
        return None;
    }
    let (module, name) = owner.rsplit_once("::").unwrap_or(("", owner));
    let written = head.aliases.get(name)?;
    let target = written.split('<').next().unwrap_or(written).trim();
    let target = target.rsplit("::").next().unwrap_or(target);
    let module = if module.is_empty() {
        String::new()
    } else {
        format!("{module}::")
    };
    let reached = format!("{module}{target}::{member}");
    (head.items.contains_key(&reached) || head.hidden.contains(&reached))
        .then(|| format!("still reached through `{owner}`, now a hidden alias of `{target}`"))
}

/// A method no longer overridden: what the class inherits in its place.
fn through_inheritance(key: &str, old: &Item, head: &Surface, types: &Types) -> Option<ApiChange> {
    let inherited = old
        .parent
        .as_ref()
        .filter(|p| head.items.contains_key(*p) && head.bases.contains_key(*p))
        .map(|p| inherited(head, p, &key[p.len() + 1..], types, 0));
    match inherited {
        // The inherited member returns another type than the override did
        // (Java's covariant `Child copy()` over `Base copy()`): callers that
        // used the narrower result no longer compile.
        Some(Inherited::Yes(from, ret))
            if ret != old.ret
                && matches!(
                    (&old.ret, &ret),
                    (Some(a), Some(b)) if type_change(a, b, types) != TypeChange::Same
                ) =>
        {
            let why = format!(
                "no longer overridden; the one inherited from `{from}` returns `{}`",
                ret.unwrap_or_default()
            );
            let severity = if types.structural {
                Severity::Undecided
            } else {
                Severity::Incompatible
            };
            return Some(change(key, severity, why, Some(old), None));
        }
        Some(Inherited::Yes(from, _)) => {
            return Some(change(
                key,
                Severity::Compatible,
                format!("no longer overridden; still inherited from `{from}`"),
                Some(old),
                None,
            ));
        }
        // anyio #1053 removed `BlockingPortal.__new__(cls)`: `object`'s own
        // still creates the instance, and takes every call the removed one took.
        Some(Inherited::No) if inherited_from_object(old) => {
            return Some(change(
                key,
                Severity::Compatible,
                "no longer overridden; still inherited from `object`".into(),
                Some(old),
                None,
            ));
        }
        // commons-io 2.18 removed an enum's `toString()`: every Java, Kotlin and C# class,
        // enum, record and interface still has its root object's.
        _ if overrides_a_root_object_method(old) => {
            return Some(change(
                key,
                Severity::Compatible,
                "no longer overridden; still inherited from `Object`".into(),
                Some(old),
                None,
            ));
        }
        Some(Inherited::Unknown(from)) => {
            return Some(change(
                key,
                Severity::Undecided,
                format!(
                    "removed here; may still be inherited from `{from}`, a class \
                     outside this repository"
                ),
                Some(old),
                None,
            ));
        }
        _ => {}
    }
    None
}

/// A gone item that neither an alias nor inheritance reaches: replaced by a form every old
/// use fits, kept under its name another way, or removed.
fn removed_or_replaced(
    key: &str,
    old: &Item,
    base: &Surface,
    head: &Surface,
    types: &Types,
) -> ApiChange {
    // An overload replaced by one every old call still fits (a varargs added).
    // Its type parameters renamed (a Java key spells them) is the same overload.
    let replaced = head.items.iter().find(|(k, new)| {
        let renamed = with_base_type_parameter_names(old, new);
        let new = renamed.as_ref().unwrap_or(new);
        new.family == old.family
            && !base.items.contains_key(*k)
            && ((types.erased && new.shape == old.shape && generified(old, new))
                || new.ret == old.ret
                    // Its type parameters still take every old type argument (`<T>` →
                    // `<T extends Throwable>` binds a `T` the old calls do not fit).
                    && (new.generics == old.generics
                        || generics_relaxed(old, new).is_some()
                        || java_bounds_widened(&old.generics, &new.generics))
                    && matches!(
                        (&old.params, &new.params),
                        (Some(a), Some(b)) if positional(a, b, types).is_none()
                    ))
    });
    let hidden_alias = through_a_hidden_alias(key, head);
    match replaced {
        // starlette #2815: `max_part_size = 1MB` on the class became an `__init__`
        // parameter stored as `self.max_part_size`.
        _ if head.instance_attributes.contains(key) && READ_ALIKE.contains(&old.kind) => change(
            key,
            Severity::Undecided,
            "now assigned on each instance instead of the class: read from an \
                 instance the same; read or set on the class (or overridden in a \
                 subclass body) it no longer reaches instances"
                .into(),
            Some(old),
            None,
        ),
        // click #3695 renamed `LazyFile` to `_LazyFile` and kept the old name
        // answered, with a deprecation warning, by the module's `__getattr__`.
        // A module variable (a type alias such as `Encoder = Callable[…]`, which
        // code names in annotations); a class or function is used at run time.
        _ if old.kind == "variable" && head.typing_only.contains(key) => change(
            key,
            Severity::Undecided,
            "now defined for type checkers only (under `if TYPE_CHECKING:`): \
                 annotations still name it, code that imports it at run time breaks"
                .into(),
            Some(old),
            None,
        ),
        _ if head.served.contains(key) => change(
            key,
            Severity::Compatible,
            "still served under its name by the module's `__getattr__`".into(),
            Some(old),
            None,
        ),
        _ if let Some(alias) = hidden_alias.as_ref() => {
            change(key, Severity::Compatible, alias.clone(), Some(old), None)
        }
        _ if head.hidden.contains(key) => change(
            key,
            Severity::Compatible,
            "now hidden from the documentation (still there for callers)".into(),
            Some(old),
            None,
        ),
        Some((_, new)) => {
            let same = with_base_type_parameter_names(old, new).is_some_and(|r| {
                r.params == old.params && r.ret == old.ret && r.generics == old.generics
            });
            let why = if same {
                "type parameters renamed"
            } else if types.erased && generified(old, new) {
                "generified with the same erasure (every old call still compiles)"
            } else {
                "widened"
            };
            change(key, Severity::Compatible, why.into(), Some(old), Some(new))
        }
        None if head.reexports.contains(&old.family) => change(
            key,
            Severity::Compatible,
            "now re-exported from elsewhere".into(),
            Some(old),
            None,
        ),
        // time 0.3.48: `impl Day { builder_methods! { fn with_padding(…); } }`.
        None if let Some((still, why)) = generated_by_macro(key, &head.impl_macros) => change(
            key,
            if still {
                Severity::Compatible
            } else {
                Severity::Undecided
            },
            why,
            Some(old),
            None,
        ),
        // anyio 4.12: `__all__` declared, the helpers it leaves out renamed `_private`.
        None if let Some(why) = python::declared::left_out_of_new_all(key, base, head) => {
            change(key, Severity::Undecided, why, Some(old), None)
        }
        None => {
            // Another form under the same name (a Java overload whose parameter
            // types changed) is the one that replaced it.
            let successor = head
                .items
                .iter()
                .find(|(k, new)| new.family == old.family && !base.items.contains_key(*k))
                .map(|(_, new)| new);
            let why = if successor.is_some() {
                "signature changed"
            } else {
                "removed"
            };
            change(
                key,
                Severity::Incompatible,
                why.into(),
                Some(old),
                successor,
            )
        }
    }
}

/// An item new at the head: compatible, unless every implementation or literal of its
/// parent must now provide it.
fn added(key: &str, new: &Item, base: &Surface, head: &Surface) -> ApiChange {
    let parent = new.parent.as_ref().and_then(|p| base.items.get(p));
    let (severity, why) = match parent {
        // It was there, hidden: implementations and users already had it.
        _ if base.hidden.contains(key) => (Severity::Compatible, "no longer hidden".to_string()),
        // Sealed before and after: every implementation is the package's own.
        Some(parent)
            if new.required
                && parent.sealed
                && new
                    .parent
                    .as_ref()
                    .and_then(|p| head.items.get(p))
                    .is_some_and(|p| p.sealed) =>
        {
            (
                Severity::Compatible,
                format!(
                    "added to `{}`, which only its own package can implement (sealed)",
                    new.family_parent()
                ),
            )
        }
        // Go: an interface now embedding one whose methods it already had (logrus 1.10's
        // `FieldLogger` embedding `DebugLogger`): implementations already have them all.
        Some(_) if new.kind == "embedded" && embeds_only_known_methods(new, base, head) => (
            Severity::Compatible,
            format!(
                "`{}` now embeds `{}`, whose methods it already had",
                new.family_parent(),
                new.form
            ),
        ),
        Some(_) if new.required => (
            Severity::Incompatible,
            format!(
                "a member every implementation of `{}` must now provide",
                new.family_parent()
            ),
        ),
        // A `#[doc(hidden)] __Nonexhaustive` variant is how enums were left open before
        // `#[non_exhaustive]` (regex-syntax's `ErrorKind`, std's `io::ErrorKind` once): a
        // match must have a `_` arm unless it names the hidden variant.
        Some(_) if new.kind == "variant" && has_hidden_member(&base.hidden, new) => (
            Severity::Compatible,
            format!(
                "added; `{}` has a hidden variant, so matches on it already need a `_` arm",
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
    change(key, severity, why, None, Some(new))
}

/// Whether the interface `embedded` is defined at the head (with what it embeds in turn) and
/// every method it brings was already its parent's at the base, declared or embedded.
fn embeds_only_known_methods(embedded: &Item, base: &Surface, head: &Surface) -> bool {
    let Some(parent) = embedded.parent.as_deref() else {
        return false;
    };
    let mut pending = vec![embedded.form.clone()];
    let mut seen = BTreeSet::new();
    while let Some(interface) = pending.pop() {
        if !seen.insert(interface.clone()) || seen.len() > 16 {
            continue;
        }
        if !head.items.contains_key(&interface) {
            return false;
        }
        let prefix = format!("{interface}.");
        for (key, item) in head.items.range(prefix.clone()..) {
            let Some(method) = key.strip_prefix(&prefix) else {
                break;
            };
            let had = |surface: &Surface| {
                surface.items.contains_key(&format!("{parent}.{method}"))
                    || surface
                        .bases
                        .get(parent)
                        .into_iter()
                        .flatten()
                        .any(|b| surface.items.contains_key(&format!("{b}.{method}")))
            };
            match item.kind {
                "method" if !had(base) => return false,
                "embedded" => pending.push(item.form.clone()),
                _ => {}
            }
        }
    }
    true
}

/// Whether `member`'s parent has a member of its own hidden from the documentation.
fn has_hidden_member(hidden: &BTreeSet<String>, member: &Item) -> bool {
    let Some(parent) = member.parent.as_deref() else {
        return false;
    };
    hidden.iter().any(|key| {
        key.strip_prefix(parent)
            .and_then(|rest| rest.strip_prefix("::"))
            .is_some_and(|name| !name.contains("::"))
    })
}

/// Whether a Python method no longer overridden still takes every call through the one
/// `object` defines: an operator or protocol method `object` has (`__eq__`, `__repr__`,
/// `__hash__`…), which the interpreter calls with the same arguments, or a `__new__` or
/// `__init__` that took nothing beyond the receiver.
/// A method with the name, parameters and result of one the root object of Java
/// (`java.lang.Object`), Kotlin (`Any`) or C# (`object`) declares publicly: removing its
/// override leaves the root's in place, which takes every call the override took.
fn overrides_a_root_object_method(old: &Item) -> bool {
    if old.kind != "method" {
        return false;
    }
    // The family is the key without its parameter types (`Mode.equals`).
    let name = old.family.rsplit(['.', ':']).next().unwrap_or(&old.family);
    let params: Vec<&str> = old
        .params
        .iter()
        .flatten()
        .filter(|p| p.kind != ParamKind::Receiver)
        .map(|p| p.ty.as_deref().unwrap_or("").trim())
        .collect();
    let ret = old.ret.as_deref().unwrap_or("").trim();
    match (name, params.as_slice()) {
        ("toString", []) => ret == "String",
        ("hashCode", []) => matches!(ret, "int" | "Int"),
        ("equals", [ty]) => {
            matches!(*ty, "Object" | "java.lang.Object" | "Any?")
                && matches!(ret, "boolean" | "Boolean")
        }
        ("ToString", []) => matches!(ret, "string" | "String"),
        ("GetHashCode", []) => ret == "int",
        ("Equals", [ty]) => matches!(*ty, "object" | "object?" | "Object") && ret == "bool",
        _ => false,
    }
}

fn inherited_from_object(old: &Item) -> bool {
    const OBJECT: &[&str] = &[
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__repr__",
        "__str__",
        "__format__",
        "__reduce__",
        "__reduce_ex__",
        "__getstate__",
        "__setattr__",
        "__delattr__",
        "__getattribute__",
        "__dir__",
        "__sizeof__",
    ];
    let python = old.kind == "method"
        && (old.form.starts_with("def ") || old.form.starts_with("async def "));
    let name = old.family.rsplit('.').next().unwrap_or(&old.family);
    let bare = old
        .params
        .as_ref()
        .is_some_and(|params| params.iter().all(|p| p.kind == ParamKind::Receiver));
    python && (OBJECT.contains(&name) || (matches!(name, "__new__" | "__init__") && bare))
}

/// Whether a class still has a member it no longer defines, through its bases.
enum Inherited {
    /// From this base, with this return type.
    Yes(String, Option<String>),
    /// Not from any base this repository defines; maybe from this one, defined elsewhere.
    Unknown(String),
    No,
}

fn inherited(
    surface: &Surface,
    class: &str,
    member: &str,
    types: &Types,
    depth: usize,
) -> Inherited {
    let mut unknown = None;
    for base in surface.bases.get(class).into_iter().flatten() {
        if base == "object" || depth > 8 {
            continue;
        }
        if surface.items.contains_key(base.as_str()) {
            if let Some(item) = surface.items.get(&format!("{base}.{member}")) {
                return Inherited::Yes(base.clone(), item.ret.clone());
            }
            match inherited(surface, base, member, types, depth + 1) {
                Inherited::No => {}
                found => return found,
            }
            continue;
        }
        match (types.inherits)(base, member) {
            Some(Some(item)) => return Inherited::Yes(base.clone(), item.ret),
            Some(None) => {}
            None => {
                unknown.get_or_insert_with(|| base.clone());
            }
        }
    }
    unknown.map_or(Inherited::No, Inherited::Unknown)
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

/// Kinds of data a caller reads as `x.name` whatever form they take.
const READ_ALIKE: &[&str] = &["attribute", "property", "variable", "field", "var"];

/// Kinds of a free function, called as `name(…)`.
const CALLABLE: &[&str] = &["fn", "func", "function", "def"];

/// Kinds that bind a name to a value, which may be a function.
const BINDING: &[&str] = &["var", "variable", "const", "static", "attribute"];

/// Whether a written type is a function type (`func(*Command) error`, `fn(u8) -> u8`,
/// `(a: A) => B`, `Callable[[A], B]`).
fn function_type(ty: &str) -> bool {
    let ty = ty.trim_start_matches(['&', '*', ' ']);
    ty.starts_with("func")
        || ty.starts_with("fn")
        || ty.contains("=>")
        || ty.starts_with("Callable")
}

/// Kinds whose `shape` is the type of the value (with markers `?` and ` static` in scripts).
const TYPED: &[&str] = &[
    "field",
    "property",
    "const",
    "static",
    "var",
    "variable",
    "attribute",
    "type",
];

/// How the item `old` changed into `new` (one key, read from two versions of a file).
pub(crate) fn item_severity(old: &Item, new: &Item, types: &Types) -> Option<Severity> {
    item_change(old, new, types).map(|(severity, _)| severity)
}

/// How one item changed, `None` when its contract is the same.
/// The change of an item that is now of another kind (a function now a variable, a
/// class now a type alias…).
fn kind_change(old: &Item, new: &Item) -> Option<(Severity, String)> {
    use Severity::*;
    // `struct X` becoming `type X = other::X` keeps the name; what it aliases is not
    // resolved here, so it is not called a break.
    if new.kind == "type" || new.kind == "reexport" {
        return Some((Compatible, format!("now a {} alias", new.kind)));
    }
    if new.kind == script::extract::EXPRESSION || old.kind == script::extract::EXPRESSION {
        return Some((
            Undecided,
            format!(
                "a {} is now a {} (what it evaluates to is not in the syntax)",
                old.kind, new.kind
            ),
        ));
    }
    // A name bound to a type expression now a class of that name, or back (pydantic
    // 2.10's `AmqpDsn = Annotated[Url, …]` → `class AmqpDsn(AnyUrl)`): annotations read
    // it alike; what the class accepts and offers is not in the syntax.
    let type_like =
        |item: &Item| item.kind == "class" || item.shape == python::extract::TYPE_EXPRESSION;
    if type_like(old) && type_like(new) {
        return Some((
            Undecided,
            format!(
                "a {} is now a {} (a type either way; what it accepts is not in the syntax)",
                old.kind, new.kind
            ),
        ));
    }
    // A type alias made an interface of the same name (`type Decoration = Partial<Op> & {
    // hide?: boolean }` → `interface Decoration extends Partial<Op> { hide?: boolean }`):
    // annotations name it alike, and an interface restating an object type accepts what it
    // did; whether it restates it (a union or a primitive alias has no interface form) is in
    // types not compared here. The other way is an alias, above.
    if old.kind == "type" && new.kind == "interface" {
        return Some((
            Undecided,
            "a type alias is now an interface (named alike; whether it has the alias's \
             members is not compared)"
                .to_string(),
        ));
    }
    // A function now a variable holding one (urfave/cli #2150: `func ShowAppHelp(…)` became
    // `var ShowAppHelp = showAppHelp`, so callers may swap it): every call still compiles
    // if the value is a function of the same signature, which an untyped binding does not
    // say. A binding typed as something other than a function is a break. And back: a
    // name bound to a function now a `def` of its own (more-itertools 10.2's `batched =
    // _batched` → `def batched(iterable, n, *, strict=False)`) is a callable either way.
    // The same for a class's members: markupsafe's `capitalize = _simple_escaping_wrapper(
    // "capitalize")` became `def capitalize(self, /)`; `obj.capitalize()` either way.
    let holds_function = |item: &Item| {
        BINDING.contains(&item.kind) && (item.shape.is_empty() || function_type(&item.shape))
    };
    let callable = |item: &Item| CALLABLE.contains(&item.kind) || item.kind == "method";
    let member = |item: &Item| item.kind == "method" || item.kind == "attribute";
    if (callable(old) && holds_function(new) && member(old) == member(new))
        || (holds_function(old) && callable(new) && member(old) == member(new))
    {
        return Some((
            Undecided,
            format!(
                "a {} is now a {} (still callable if it holds a function of the same \
                 signature, which the syntax does not say)",
                old.kind, new.kind
            ),
        ));
    }
    // A method now a property holding a function, or back (hono #1796: `match(m, p)` →
    // `match: typeof match<…>`): called the same way; whether it takes the same arguments is
    // in a type not resolved here. A property whose type says nothing of a call stays a break.
    let callable_property = |item: &Item| {
        item.kind == "property" && (function_type(&item.shape) || item.shape.starts_with("typeof "))
    };
    if (old.kind == "method" && callable_property(new))
        || (callable_property(old) && new.kind == "method")
    {
        return Some((
            Undecided,
            format!(
                "a {} is now a {} (a function either way, called the same way if it takes the \
                 same arguments, which its type says)",
                old.kind, new.kind
            ),
        ));
    }
    // `app.logger` reads the same from an attribute and a property; only assigning to it
    // may differ, and the syntax does not say whether a setter exists elsewhere.
    if READ_ALIKE.contains(&old.kind) && READ_ALIKE.contains(&new.kind) {
        return Some((
            Undecided,
            format!(
                "a {} is now a {} (read the same way; assigning to it may differ)",
                old.kind, new.kind
            ),
        ));
    }
    Some((
        Incompatible,
        format!("a {} is now a {}", old.kind, new.kind),
    ))
}

pub(crate) fn item_change(old: &Item, new: &Item, types: &Types) -> Option<(Severity, String)> {
    use Severity::*;
    if old.kind != new.kind {
        return kind_change(old, new);
    }
    // An overloaded function's contract is its overloads (see `OVERLOADED`): the same set is
    // the same contract whatever the implementation's signature; another set may still
    // accept every old call through another overload, which the syntax does not decide.
    let overloaded = |item: &Item| item.shape.starts_with(super::OVERLOADED);
    if overloaded(old) || overloaded(new) {
        if old.shape == new.shape {
            return None;
        }
        return Some((
            Undecided,
            "its overload signatures changed (an old call may match another overload)".into(),
        ));
    }
    // `fn new<T: Display>(m: T)` → `fn new(m: impl Display)`: one contract but for a turbofish
    // naming `T` (see `impl_trait`); read alike, the rest of the signature still compares.
    let opened = impl_trait::opened(old, new);
    let closed = impl_trait::opened(new, old);
    let old = opened.as_ref().unwrap_or(old);
    let new = closed.as_ref().unwrap_or(new);
    // `fn f<B>(x: B)` → `fn f<K>(x: K)` is the same function: type parameters bind by
    // position (rayon #932), so the head is read with the base's names.
    let renamed = with_base_type_parameter_names(old, new);
    let new = renamed.as_ref().unwrap_or(new);
    let projected = projections_resolved(old, new);
    let new = projected.as_ref().unwrap_or(new);
    if types.structural
        && let Some(defaults) = script::defaults::appended(&old.generics, &new.generics)
    {
        return Some(defaults_appended(old, new, &defaults, types));
    }
    if approximated(old, new) {
        return Some((
            Undecided,
            "a type is now a type parameter constrained by it (`S ~[]E`): every old call still \
             compiles; a function value instantiated with the old type arguments no longer does"
                .into(),
        ));
    }
    if types.erased && old.shape == new.shape {
        match generified_as(old, new) {
            Generified::Compatible => {
                return Some((
                    Compatible,
                    "generified with the same erasure (every old call still compiles)".into(),
                ));
            }
            Generified::ResultVaries(parameter) => {
                return Some((
                    Incompatible,
                    format!(
                        "generified with the same erasure, but the result's type now holds \
                         `{parameter}`, inferred from the arguments: a call that uses the \
                         result as the old type (a call chained on it) may no longer compile"
                    ),
                ));
            }
            Generified::No => {}
        }
        match java::raw::parameterised_where_raw(
            old,
            new,
            &type_parameter_list(&old.generics),
            &type_parameter_list(&new.generics),
            types.generic_at_base,
        ) {
            Raw::Compatible => {
                return Some((
                    Compatible,
                    "type arguments given where the type was raw, the erasure the same (every \
                     old call, use of the result and override still compiles)"
                        .into(),
                ));
            }
            Raw::Undecided(why) => return Some((Undecided, why)),
            Raw::No => {}
        }
    }
    let mut notes = Notes::default();
    if opened.is_some() {
        notes.undecided = Some(
            "type parameter now `impl Trait`: calls that name it with a turbofish no longer \
             compile"
                .into(),
        );
    }
    if closed.is_some() {
        notes.compatible = Some("`impl Trait` argument now a named type parameter");
    }
    if old.params != new.params
        && let Some(incompatible) = params_change(old, new, types, &mut notes)
    {
        return Some(incompatible);
    }
    if old.ret != new.ret
        && let Some(incompatible) = return_change(old, new, types, &mut notes)
    {
        return Some(incompatible);
    }
    if old.generics != new.generics
        && let Some(incompatible) = generics_change(old, new, types, &mut notes)
    {
        return Some(incompatible);
    }
    if old.shape != new.shape {
        match shape_change(old, new, types) {
            Some((Incompatible, why)) => return Some((Incompatible, why.into())),
            Some((Undecided, why)) => {
                notes.undecided.get_or_insert(why.into());
            }
            Some((Compatible, why)) => notes.compatible = Some(why),
            None => {}
        }
    }
    if old.required != new.required {
        if new.required {
            return Some((Incompatible, "implementations must now provide it".into()));
        }
        notes.compatible = Some("now has a default");
    }
    if !old.sealed && new.sealed {
        return Some((
            Incompatible,
            "now sealed: implementations outside its package no longer compile".into(),
        ));
    }
    if old.closed && !new.closed {
        return Some((
            Incompatible,
            "no longer exhaustive or constructible by users".into(),
        ));
    }
    if let Some(why) = notes.undecided {
        return Some((
            Undecided,
            format!("{why}; compatibility not decidable from the syntax"),
        ));
    }
    notes.compatible.map(|why| (Compatible, why.to_string()))
}

/// TypeScript: type parameters appended with a default (see [`script::defaults`]). Old code
/// reads the head with each default written for its parameter, and the rest of the item
/// compares as usual. Callers that infer nothing for it get the default. Where a parameter's
/// type names it, a call infers it from its arguments instead, and a result that names it
/// too (or is inferred from the body) may then be another type than the default. An instance method is also implemented or
/// overridden, and an implementation written against the old signature (`Promise<X>` where
/// any `R` is now asked for) may no longer fit it: undecided, as the syntax cannot tell
/// whether users implement it.
fn defaults_appended(
    old: &Item,
    new: &Item,
    defaults: &BTreeMap<String, String>,
    types: &Types,
) -> (Severity, String) {
    use Severity::*;
    let read = script::defaults::read_with(new, defaults, &old.generics);
    let rest = item_change(old, &read, types);
    // A result left to inference (no return type written) may name it too.
    let inferred = script::defaults::in_parameters(new, defaults)
        && new
            .ret
            .as_deref()
            .is_none_or(|ret| script::defaults::mentions(ret, defaults));
    let implemented =
        old.kind == "method" && !old.shape.split_whitespace().any(|word| word == "static");
    let (severity, why) = if inferred {
        (
            Undecided,
            "a type parameter with a default added, but a call infers it from its arguments \
             and its result names it: the result may be another type than the default's",
        )
    } else if implemented {
        (
            Undecided,
            "a type parameter with a default added: every old call still compiles, but an \
             implementation or override written with the old signature may not fit the \
             generic one",
        )
    } else {
        (Compatible, "a type parameter with a default added")
    };
    // Only an exact substitution is compatible: anything else that changed is judged by the
    // usual rules, whose heuristics for widened types are no proof once texts were rewritten.
    match rest {
        None if severity == Compatible => (
            Compatible,
            format!("{why} (with the default written for it, the declaration is the old one)"),
        ),
        None => (severity, why.to_string()),
        Some((Incompatible, reason)) => (Incompatible, format!("{why}; {reason}")),
        Some((_, reason)) => (Undecided, format!("{why}; {reason}")),
    }
}

/// What a change of an item's parts found short of a break: the last compatible reason, and
/// the first undecided one.
#[derive(Default)]
struct Notes {
    compatible: Option<&'static str>,
    undecided: Option<String>,
}

/// The parameters changed: a break, or what `notes` should say.
fn params_change(
    old: &Item,
    new: &Item,
    types: &Types,
    notes: &mut Notes,
) -> Option<(Severity, String)> {
    use Severity::*;
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
            // Read with the base's receiver where it was only relaxed: the rest still compares.
            let relaxed = receiver_relaxed(old, a, b);
            let unrelaxed = relaxed.then(|| with_receiver_of(b, a));
            let b = unrelaxed.as_deref().unwrap_or(b);
            let verdict = if python {
                by_name(a, b).map(|why| (Incompatible, why))
            } else {
                positional(a, b, types)
            };
            match verdict {
                Some((Incompatible, why)) => return Some((Incompatible, why)),
                Some((_, why)) => notes.undecided = Some(why),
                None if relaxed => {
                    notes.compatible = Some("receiver relaxed from `&mut self` to `&self`")
                }
                None if same_params(a, b, types) => {}
                None => notes.compatible = Some("parameters widened"),
            }
        }
        _ => return Some((Incompatible, "no longer callable the same way".into())),
    }
    None
}

/// A Rust method whose receiver went from `&mut self` to `&self`: every call that compiled
/// still does (method calls auto-borrow, `&mut T` coerces to `&T`). Only for a method callers
/// only call (inherent, or of a sealed trait, whose `parent` the caller clears): a trait's
/// implementors would have to change their signature.
fn receiver_relaxed(old: &Item, a: &[Param], b: &[Param]) -> bool {
    let receiver = |ps: &[Param]| {
        ps.iter()
            .find(|p| p.kind == ParamKind::Receiver)
            .and_then(|p| p.ty.as_deref())
            .map(|ty| ty.replace(' ', ""))
    };
    old.parent.is_none()
        && matches!(
            (receiver(a).as_deref(), receiver(b).as_deref()),
            (Some("&mutself"), Some("&self")) | (Some("self:&mutSelf"), Some("self:&Self"))
        )
}

/// `params` with the receiver of `from`.
fn with_receiver_of(params: &[Param], from: &[Param]) -> Vec<Param> {
    let receiver = from.iter().find(|p| p.kind == ParamKind::Receiver);
    params
        .iter()
        .map(|p| match receiver {
            Some(r) if p.kind == ParamKind::Receiver => r.clone(),
            _ => p.clone(),
        })
        .collect()
}

/// The return type changed: a break, or what `notes` should say.
fn return_change(
    old: &Item,
    new: &Item,
    types: &Types,
    notes: &mut Notes,
) -> Option<(Severity, String)> {
    use Severity::*;
    let change = match (&old.ret, &new.ret) {
        // `impl Future` → `impl Future<Output=()>`: callers learn more, lose nothing. The
        // other way the output becomes opaque, which matters only to callers that name it.
        (Some(a), Some(b)) if opaque_refined(a, b) => TypeChange::Same,
        (Some(a), Some(b)) if opaque_refined(b, a) => TypeChange::Undecided,
        // Java: `Collector<T, ?, T[]>` → `Collector<T, List<T>, T[]>`, a result every old
        // variable of the old type still holds.
        (Some(a), Some(b)) if types.erased && wildcard::subtype(b, a) => {
            notes.compatible = Some("return type narrowed through a wildcard");
            TypeChange::Same
        }
        (Some(a), Some(b)) if unnameable_indirection(a, b) => {
            notes.undecided.get_or_insert_with(|| {
                "the result is now a value instead of a pointer, or back, of an unexported \
                 type callers cannot name: calls on it compile if its methods still do"
                    .into()
            });
            TypeChange::Same
        }
        (Some(a), Some(b)) => type_change(a, b, types),
        // An annotation dropped or added: the type is inferred from the body.
        _ if types.structural => TypeChange::Undecided,
        _ => TypeChange::Different,
    };
    match change {
        TypeChange::Same => {}
        // A wider result may not fit where callers put it; in a structural language
        // that depends on how they use it.
        TypeChange::Widened | TypeChange::Undecided if types.structural => {
            notes
                .undecided
                .get_or_insert_with(|| "return type written differently".into());
        }
        TypeChange::Undecided => {
            notes.undecided.get_or_insert_with(|| {
                "return type refers to another package's type or an opaque one".into()
            });
        }
        TypeChange::Widened | TypeChange::Different => {
            return Some((Incompatible, "return type changed".into()));
        }
    }
    None
}

/// The type parameters or their bounds changed: a break, or what `notes` should say.
fn generics_change(
    old: &Item,
    new: &Item,
    types: &Types,
    notes: &mut Notes,
) -> Option<(Severity, String)> {
    use Severity::*;
    if java_bounds_widened(&old.generics, &new.generics) {
        // Every caller's type argument still fits, and the erasure is the same; only a
        // method overriding this one in a subclass, written with the old bound, no longer
        // overrides it (a name clash), which static and final methods cannot have.
        let overridable =
            old.kind == "method" && !old.shape.split(' ').any(|m| m == "static" || m == "final");
        if overridable {
            notes.undecided.get_or_insert_with(|| {
                "type parameter bounds widened (callers compile; a subclass overriding it \
                 with the old bound no longer overrides)"
                    .into()
            });
        } else {
            notes.compatible = Some("type parameter bounds widened");
        }
    } else if let Some(why) = generics_relaxed(old, new) {
        notes.compatible = Some(why);
    } else if let Some((old_read, new_read)) = self_arguments_read(old, new, types)
        && generics_relaxed_given(
            &old_read,
            &new_read,
            &|bound| declared_for_self_argument(new, bound, types),
            &self_arguments(new),
        )
        .is_some()
    {
        // hashbrown 0.15.1 → 0.15.3: `impl<K, V> IntoIter<K, V>` → `impl<K, V, A: Allocator>
        // IntoIter<K, V, A>`, where `IntoIter<K, V, A: Allocator = Global>`: every type that
        // had the method (`A` = `Global`) still has it.
        notes.compatible = Some("an impl generalised over a defaulted type parameter");
    } else if generics_relaxed_given(
        old,
        new,
        &|bound| implied_by_parameters(old, bound, types),
        &[],
    )
    .is_some()
    {
        // crossbeam-epoch 0.9.19: `defer_destroy<T>(&self, ptr: Shared<'_, T>)` →
        // `<T: ?Sized + Pointable>`, where `Shared<'g, T: ?Sized + Pointable>` already asks
        // `Pointable` of every `T` a caller can pass.
        notes.compatible = Some("a bound the parameters' own types already require added");
    } else if types.structural {
        notes
            .undecided
            .get_or_insert_with(|| "type parameters written differently".into());
    } else if named_another_way(&old.generics, &new.generics) {
        // uuid 1.19: `D: serde::Deserializer<'de>` → `D: serde_core::Deserializer<'de>`, the
        // trait serde re-exports: one item named through two paths is the same bound, which
        // the syntax cannot confirm (the other crate's source is not here).
        notes.undecided.get_or_insert_with(|| {
            "a bound now names its item through another path (a crate re-exporting another's \
             item is the same bound)"
                .into()
        });
    } else {
        return Some((Incompatible, "generics or bounds changed".into()));
    }
    None
}

/// `new` with its type parameters renamed to `old`'s, position by position, when both declare
/// as many and some names differ: the names are the item's own, so callers (and a turbofish
/// or explicit type argument, which is positional) never see them. Every place a type is
/// written in the item is renamed; `None` when nothing is to rename.
fn with_base_type_parameter_names(old: &Item, new: &Item) -> Option<Item> {
    let renames = positional_renames(&old.generics, &new.generics)?;
    (!renames.is_empty()).then(|| renamed(new, &renames))
}

/// The type parameter names declared by `generics`, in order (`None` for a lifetime or
/// anything unnamed).
pub(super) fn type_parameter_names(generics: &str) -> Vec<Option<String>> {
    type_parameter_list(generics)
        .iter()
        .map(|p| {
            let p = p.trim();
            let p = p.strip_prefix("const ").unwrap_or(p);
            let name: String = p
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Head name → base name of each type parameter renamed at its position; `None` when the
/// two lists do not pair up (another count, a lifetime against a name).
fn positional_renames(old: &str, new: &str) -> Option<BTreeMap<String, String>> {
    let (before, after) = (type_parameter_names(old), type_parameter_names(new));
    if before.len() != after.len() {
        return None;
    }
    let mut renames = BTreeMap::new();
    for (a, b) in before.iter().zip(&after) {
        match (a, b) {
            (Some(a), Some(b)) if a != b => {
                renames.insert(b.clone(), a.clone());
            }
            (Some(_), Some(_)) => {}
            // A lifetime or something unnamed on one side only: not a rename.
            (a, b) if a.is_none() && b.is_none() => {}
            _ => return None,
        }
    }
    Some(renames)
}

/// `new` with the type parameters of the types enclosing it renamed to the base's names
/// (commons-lang 3.13: `FailableStream<O>` → `FailableStream<T>`, every member then written
/// with `T`): a type's parameters bind by position (`FailableStream<String>` either way), so
/// its members are read with the base's names. The nearest declaration of a name wins, and
/// the member's own type parameters shadow its types' (they are renamed by
/// [`with_base_type_parameter_names`]). `None` when nothing is to rename.
fn with_base_enclosing_names(
    old: &Item,
    new: &Item,
    base: &Surface,
    head: &Surface,
) -> Option<Item> {
    let own: BTreeSet<String> = type_parameter_names(&new.generics)
        .into_iter()
        .flatten()
        .collect();
    let mut renames = BTreeMap::new();
    for (a, b) in enclosing(old, base, head) {
        for (from, to) in positional_renames(&a.generics, &b.generics).unwrap_or_default() {
            if !own.contains(&from) {
                renames.entry(from).or_insert(to);
            }
        }
    }
    (!renames.is_empty()).then(|| renamed(new, &renames))
}

/// The types enclosing `old`, nearest first, each as the base and the head declare it; the
/// chain ends at the first the head no longer declares.
fn enclosing<'s>(old: &Item, base: &'s Surface, head: &'s Surface) -> Vec<(&'s Item, &'s Item)> {
    let mut chain = Vec::new();
    let mut parent = old.parent.clone();
    // A parent chain is a few types deep; the bound only guards against a cycle of keys.
    for _ in 0..16 {
        let Some(key) = parent else { break };
        let (Some(a), Some(b)) = (base.items.get(&key), head.items.get(&key)) else {
            break;
        };
        chain.push((a, b));
        parent = a.parent.clone();
    }
    chain
}

/// TypeScript: `new` as old code reads it when the types enclosing it appended type
/// parameters with a default (`interface Box<T>` → `interface Box<T, L = string>`, a member
/// now typed `L`): every `Box<Y>` written before takes the default (see
/// [`script::defaults`]). The member's own type parameters shadow its types'. A constructor
/// infers its class's parameters from its arguments instead, so it is read as written.
fn with_enclosing_defaults(
    key: &str,
    old: &Item,
    new: &Item,
    base: &Surface,
    head: &Surface,
) -> Option<Item> {
    if key.ends_with(".constructor") {
        return None;
    }
    let own: BTreeSet<String> = type_parameter_names(&new.generics)
        .into_iter()
        .flatten()
        .collect();
    let mut defaults = BTreeMap::new();
    for (a, b) in enclosing(old, base, head) {
        for (name, default) in
            script::defaults::appended(&a.generics, &b.generics).unwrap_or_default()
        {
            if !own.contains(&name) {
                defaults.entry(name).or_insert(default);
            }
        }
    }
    (!defaults.is_empty()).then(|| script::defaults::written_with(new, &defaults))
}

/// `item` with the type names of `renames` replaced wherever a type is written in it.
fn renamed(item: &Item, renames: &BTreeMap<String, String>) -> Item {
    let rename = |text: &str| map_words(text, |word| renames.get(word).cloned());
    let mut item = item.clone();
    item.generics = rename(&item.generics);
    item.ret = item.ret.as_deref().map(rename);
    item.shape = rename(&item.shape);
    for param in item.params.iter_mut().flatten() {
        param.ty = param.ty.as_deref().map(rename);
    }
    item
}

/// How `new`, `old` re-signed with new type parameters and the same erasure, fares in a
/// language that erases generics (see [`java::generified`]).
fn generified_as(old: &Item, new: &Item) -> Generified {
    java::generified::generified(
        old,
        new,
        &type_parameter_list(&old.generics),
        &type_parameter_list(&new.generics),
    )
}

/// Whether `new` is `old` re-signed with new type parameters and the same erasure, every old
/// call and override still compiling.
fn generified(old: &Item, new: &Item) -> bool {
    generified_as(old, new) == Generified::Compatible
}

/// Whether `new` is `old` with some types replaced by type parameters added after the old
/// ones and constrained by exactly those types' approximation (Go: `Filter[V any](collection
/// []V, …) []V` → `Filter[V any, Slice ~[]V](collection Slice, …) Slice`, lo #365; the
/// standard `slices` package's `S ~[]E`). Every argument of the old type still fits and is
/// returned as itself.
fn approximated(old: &Item, new: &Item) -> bool {
    let (before, after) = (old.generics.trim(), new.generics.trim());
    if !after.starts_with('[') || !(before.is_empty() || before.starts_with('[')) {
        return false;
    }
    let (old_list, new_list) = (type_parameter_list(before), type_parameter_list(after));
    if new_list.len() <= old_list.len() || new_list[..old_list.len()] != old_list[..] {
        return false;
    }
    let mut replaced = std::collections::BTreeMap::new();
    for parameter in &new_list[old_list.len()..] {
        // `Slice ~[]V` (the canonical text may drop the space).
        let parameter = parameter.trim();
        let name: String = parameter
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(approximated) = parameter[name.len()..].trim().strip_prefix('~') else {
            return false;
        };
        if name.is_empty() {
            return false;
        }
        if approximated.contains('|') {
            return false;
        }
        replaced.insert(name, approximated.trim().to_string());
    }
    let restore = |text: &str| map_words(text, |word| replaced.get(word).cloned());
    let params = new.params.as_ref().map(|list| {
        list.iter()
            .map(|p| Param {
                ty: p.ty.as_deref().map(restore),
                ..p.clone()
            })
            .collect::<Vec<_>>()
    });
    params == old.params && new.ret.as_deref().map(restore) == old.ret && new.shape == old.shape
}

/// The declared type parameters of `generics` as written, in order: `<T, U=i64> where …`
/// (Rust, Java, TypeScript) or Go's `[K comparable, V any]`.
fn type_parameter_list(generics: &str) -> Vec<String> {
    let text = generics.trim();
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return rust::extract::top_level_split(inner, ',')
            .into_iter()
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
    }
    split_generics(text).0
}

/// Whether every use of `old` still fits `new`'s type parameters: the same parameters in the
/// same order, with defaults only added and new ones only at the end with a default, and
/// bounds only removed (a trait's supertraits stay: callers rely on them).
fn generics_relaxed(old: &Item, new: &Item) -> Option<&'static str> {
    generics_relaxed_given(old, new, &|_| false, &[])
}

/// Whether the bound predicate `bound` (`T: Pointable`) on a type parameter of `old` holds
/// for every call of it already: the parameter is a type argument of a parameter's type
/// (`Shared<T>`) whose declaration bounds that position so (`struct Shared<'g, T: ?Sized +
/// Pointable>`), so no caller could pass a type without it.
fn implied_by_parameters(old: &Item, bound: &str, types: &Types) -> bool {
    let Some((left, trait_)) = bound.split_once(':') else {
        return false;
    };
    let (left, trait_) = (left.trim(), trait_.trim());
    let Some(params) = &old.params else {
        return false;
    };
    params
        .iter()
        .filter_map(|p| p.ty.as_deref())
        .flat_map(generic_uses)
        .any(|(name, args)| {
            let Some(position) = args.iter().position(|arg| arg == left) else {
                return false;
            };
            let Some(declared) = (types.declared)(&name) else {
                return false;
            };
            let (declared_params, declared_bounds) = split_generics(&declared);
            declared_params
                .get(position)
                .map(|p| p.split('=').next().unwrap_or(p).trim())
                .is_some_and(|param| declared_bounds.contains(&format!("{param}: {trait_}")))
        })
}

/// The type an inherent method's `impl` block is for, by its name (`IntoIter` of the key
/// `IntoIter::rustc_iter`), and the generics it declares (see [`Types::declared`]).
fn self_type_generics(item: &Item, types: &Types) -> Option<(Vec<String>, Vec<String>)> {
    let (owner, _) = item.family.rsplit_once("::")?;
    let name = owner.rsplit("::").next().unwrap_or(owner);
    // Of the types of that name, the one with as many parameters as the block's type has
    // arguments (hashbrown has a `Drain` in `map.rs`, `set.rs` and `table.rs`).
    let marker = format!("={}", rust::extract::SELF_ARGUMENT);
    let arity = split_generics(&item.generics).0.iter().find_map(|p| {
        p.split_once(&marker)?
            .1
            .split_once('/')
            .map(|(_, n)| n.to_string())
    })?;
    Some(split_generics(&(types.declared)(&format!(
        "{name}/{arity}"
    ))?))
}

/// The position in `Self#2/3`.
fn self_position(at: &str) -> Option<usize> {
    at.split('/').next()?.parse().ok()
}

/// `old` and `new` with each `impl` block parameter written as a type argument of the
/// block's type (`A=Self#2`, see [`rust::extract::SELF_ARGUMENT`]) read through the type's
/// declaration: defaulted where the type declares a default at that position, a plain
/// parameter elsewhere. `None` when neither writes one or the type's declaration is not found.
fn self_arguments_read(old: &Item, new: &Item, types: &Types) -> Option<(Item, Item)> {
    let marker = format!("={}", rust::extract::SELF_ARGUMENT);
    if !new.generics.contains(&marker) && !old.generics.contains(&marker) {
        return None;
    }
    let (declared, _) = self_type_generics(new, types)?;
    let read = |item: &Item| -> Item {
        let (params, predicates) = split_generics(&item.generics);
        let params: Vec<String> = params
            .into_iter()
            .map(|param| match param.split_once(&marker) {
                Some((name, at)) => {
                    let default = self_position(at)
                        .and_then(|at| declared.get(at))
                        .and_then(|d| d.split_once('='))
                        .map(|(_, default)| default.trim().to_string());
                    match default {
                        Some(default) => format!("{name}={default}"),
                        None => name.to_string(),
                    }
                }
                None => param,
            })
            .collect();
        Item {
            generics: join_generics(&params, &predicates),
            ..item.clone()
        }
    };
    Some((read(old), read(new)))
}

/// The names of `item`'s `impl` block parameters written as type arguments of the block's
/// type (see [`rust::extract::SELF_ARGUMENT`]).
fn self_arguments(item: &Item) -> Vec<String> {
    let marker = format!("={}", rust::extract::SELF_ARGUMENT);
    split_generics(&item.generics)
        .0
        .iter()
        .filter_map(|p| Some(p.split_once(&marker)?.0.to_string()))
        .collect()
}

/// Whether the bound predicate `bound` (`A: Allocator`) is on an `impl` block parameter
/// written as a type argument of the block's type (`A=Self#2`) that the type's declaration
/// bounds so at that position (`A: Allocator = Global`): it holds for every such type.
fn declared_for_self_argument(item: &Item, bound: &str, types: &Types) -> bool {
    let Some((left, trait_)) = bound.split_once(':') else {
        return false;
    };
    let (left, trait_) = (left.trim(), trait_.trim());
    let marker = format!("{left}={}", rust::extract::SELF_ARGUMENT);
    let (params, _) = split_generics(&item.generics);
    let Some(at) = params
        .iter()
        .find_map(|p| self_position(p.strip_prefix(&marker)?))
    else {
        return false;
    };
    let Some((declared, bounds)) = self_type_generics(item, types) else {
        return false;
    };
    declared
        .get(at)
        .map(|p| p.split('=').next().unwrap_or(p).trim())
        .is_some_and(|param| bounds.contains(&format!("{param}: {trait_}")))
}

/// Each generic type written in a type text, by its name (the last path segment) with its
/// type arguments: `&crate::atomic::Shared<T>` is `Shared` with `[T]`, nested ones too.
fn generic_uses(text: &str) -> Vec<(String, Vec<String>)> {
    let mut uses = Vec::new();
    for (at, _) in text.match_indices('<') {
        let name: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if name.is_empty() {
            continue;
        }
        let mut depth = 0;
        let Some(close) = text[at..].char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(at + i)
        }) else {
            continue;
        };
        let args = rust::extract::top_level_split(&text[at + 1..close], ',')
            .into_iter()
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect();
        uses.push((name, args));
    }
    uses
}

/// [`generics_relaxed`], counting as required before every bound `implied` answers for.
/// A parameter added with a default may carry any bound, unless it is one of `fixed` (an
/// `impl` block's parameter whose default is its type's: only `implied` covers its bounds).
fn generics_relaxed_given(
    old: &Item,
    new: &Item,
    implied: &dyn Fn(&str) -> bool,
    fixed: &[String],
) -> Option<&'static str> {
    // An `impl` block's parameter written with its position in the block's type is no
    // default of its own (see `self_arguments_read`).
    let marker = format!("={}", rust::extract::SELF_ARGUMENT);
    let plain = |params: Vec<String>| -> Vec<String> {
        params
            .into_iter()
            .map(|p| match p.split_once(&marker) {
                Some((name, _)) => name.to_string(),
                None => p,
            })
            .collect()
    };
    let (old_params, old_bounds) = split_generics(&old.generics);
    let (new_params, new_bounds) = split_generics(&new.generics);
    let (old_params, new_params) = (plain(old_params), plain(new_params));
    if new_params.len() < old_params.len() {
        return None;
    }
    let name = |p: &str| p.split('=').next().unwrap_or(p).trim().to_string();
    for (before, after) in old_params.iter().zip(&new_params) {
        let kept = before == after || (!before.contains('=') && name(after) == *before);
        if !kept {
            return None;
        }
    }
    if new_params[old_params.len()..]
        .iter()
        .any(|p| !p.contains('='))
    {
        return None;
    }
    // Every bound now required was required before, or is a wider one (`I: Iterator` →
    // `I: IntoIterator`), or is a supertrait a sealed trait gains: it has no implementation
    // outside its crate to break, and its users may only call more.
    let sealed_trait = old.kind == "trait" && old.sealed;
    // A bound on a parameter added with a default constrains only those who name it: every
    // use written before it takes the default (clap 4's `Error<F: ErrorFormatter =
    // RichFormatter>`).
    let added: Vec<String> = new_params[old_params.len()..]
        .iter()
        .map(|p| name(p))
        .filter(|p| !fixed.contains(p))
        .collect();
    let covered = |b: &String| {
        old_bounds
            .iter()
            .any(|a| a == b || widened(a, b) || as_into(a) == *b)
            || (sealed_trait && b.starts_with("Self:"))
            // `T: ?Sized` only lets more types in.
            || b.split_once(':').is_some_and(|(_, bound)| bound.trim() == "?Sized")
            || b.split_once(':').is_some_and(|(left, _)| added.iter().any(|a| a == left.trim()))
            || implied(b)
    };
    if !new_bounds.iter().all(covered) {
        return None;
    }
    let supertrait_removed = old.kind == "trait"
        && old_bounds
            .iter()
            .any(|b| b.starts_with("Self:") && !new_bounds.contains(b));
    if supertrait_removed {
        return None;
    }
    Some(if new_params.len() > old_params.len() {
        "a type parameter with a default added"
    } else if new_params != old_params {
        "a default added"
    } else {
        "bounds widened"
    })
}

/// Java type parameters whose bounds only widened, the same parameters in the same order:
/// a bound dropped (`T extends Number` → `T`), one of an intersection dropped
/// (`T extends A & B` → `T extends A`), or a type argument of a bound made a wildcard over
/// itself (`T extends Comparable<T>` → `T extends Comparable<? super T>`, commons-lang's
/// `Range.between`).
fn java_bounds_widened(old: &str, new: &str) -> bool {
    let (old_params, old_rest) = split_generics(old);
    let (new_params, new_rest) = split_generics(new);
    if old_params.len() != new_params.len() || old_rest != new_rest {
        return false;
    }
    let bound = |p: &str| -> Option<(String, Vec<String>)> {
        let (name, bounds) = match p.split_once(" extends ") {
            Some((n, b)) => (n, b.split('&').map(|b| b.trim().to_string()).collect()),
            None => (p, Vec::new()),
        };
        let name = name.trim();
        (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .then(|| (name.to_string(), bounds))
    };
    let mut widened_any = false;
    for (before, after) in old_params.iter().zip(&new_params) {
        if before == after {
            continue;
        }
        let (Some((name_a, bounds_a)), Some((name_b, bounds_b))) = (bound(before), bound(after))
        else {
            return false;
        };
        let covered = |b: &String| bounds_a.iter().any(|a| a == b || wildcard_over(a, b));
        if name_a != name_b || !bounds_b.iter().all(covered) {
            return false;
        }
        widened_any = true;
    }
    widened_any
}

/// Whether `wide` is `narrow` with some of its type arguments turned into wildcards bounded by
/// themselves (`Comparable<T>` → `Comparable<? super T>`, `List<T>` → `List<? extends T>`):
/// every type the narrow one matched, the wide one matches.
fn wildcard_over(narrow: &str, wide: &str) -> bool {
    let (a, b) = (narrow.as_bytes(), wide.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut inserted = false;
    while j < b.len() {
        let at_argument = j > 0 && matches!(b[j - 1], b'<' | b',' | b' ');
        let wildcard = ["? super ", "? extends ", "?super ", "?extends "]
            .into_iter()
            .find(|w| b[j..].starts_with(w.as_bytes()) && !a[i..].starts_with(w.as_bytes()));
        match wildcard {
            Some(w) if at_argument => {
                j += w.len();
                inserted = true;
            }
            _ if i < a.len() && a[i] == b[j] => {
                i += 1;
                j += 1;
            }
            _ => return false,
        }
    }
    inserted && i == a.len()
}

/// Go: `*t` ↔ `t` for an unexported type `t` (lo #839: `If` returned `*ifElse[T]`, now
/// `ifElse[T]`). Callers cannot name the type, so they can only call its methods or pass it
/// on; whether they still compile depends on its method set, not on this signature.
fn unnameable_indirection(old: &str, new: &str) -> bool {
    let (old, new) = (old.trim(), new.trim());
    let value = match (old.strip_prefix('*'), new.strip_prefix('*')) {
        (Some(pointee), None) if pointee == new => new,
        (None, Some(pointee)) if pointee == old => old,
        _ => return false,
    };
    let name = value.split('[').next().unwrap_or(value);
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !super::lang::go::PREDECLARED_TYPES.contains(&name)
        && !matches!(name, "const" | "mut")
}

/// `impl Trait` (nothing said about its associated types) → `impl Trait<…>`.
fn opaque_refined(vague: &str, precise: &str) -> bool {
    vague.starts_with("impl ")
        && !vague.contains('<')
        && precise
            .strip_prefix(vague)
            .is_some_and(|rest| rest.starts_with('<'))
}

/// The same parameters once aliases are resolved (`[]string` and `[]Completion` where
/// `type Completion = string`).
fn same_params(old: &[Param], new: &[Param], types: &Types) -> bool {
    old.len() == new.len()
        && old.iter().zip(new).all(|(a, b)| {
            a.kind == b.kind
                && a.optional == b.optional
                && a.name == b.name
                && match (&a.ty, &b.ty) {
                    (Some(x), Some(y)) => type_change(x, y, types) == TypeChange::Same,
                    (x, y) => x == y,
                }
        })
}

/// A changed `shape`: for data, its type (and in scripts the `?` and ` static` markers); for
/// everything else, the modifiers that change the contract.
fn shape_change(old: &Item, new: &Item, types: &Types) -> Option<(Severity, &'static str)> {
    use Severity::*;
    // Go `type CompareType int` → `type CompareType = compareResult` (testify #1566): the
    // name now stands for another type of this package, which may be defined just as the
    // old one was (then every use still compiles); its definition is not in the surface.
    let go_alias = |item: &Item| item.form.contains(" = ");
    let local_name = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_');
    if old.kind == "type" && !go_alias(old) && go_alias(new) && local_name(&new.shape) {
        return Some((
            Undecided,
            "now an alias of another type of the package (compatible if that one is \
                 defined as this one was, with the same methods)",
        ));
    }
    // A property made read-only (a field now a getter alone) still reads; only assignments
    // stop compiling, which the syntax cannot count. The other way every use still compiles.
    let readonly = |item: &Item| {
        item.shape
            .strip_prefix(script::extract::READONLY)
            .map(str::to_string)
    };
    if old.kind == "property" {
        if readonly(new).is_some_and(|shape| shape == old.shape) {
            return Some((
                Undecided,
                "now read-only (reads still compile, assignments do not)",
            ));
        }
        if readonly(old).is_some_and(|shape| shape == new.shape) {
            return Some((Compatible, "no longer read-only"));
        }
    }
    if !TYPED.contains(&old.kind) {
        // TypeScript overload signatures are one item whose shape holds each signature's
        // digest (see `Surface::add`): one written differently (zod v4.4.0's mapped type
        // `{[k in keyof S]: …}` → `{-readonly[k in keyof S]: …}`) is a type written
        // differently in a structural language, not a changed modifier, even where the
        // first one returns a promise.
        let overloaded = |item: &Item| item.shape.contains(" | ");
        if matches!(old.kind, "fn" | "function" | "method")
            && types.structural
            && (overloaded(old) || overloaded(new))
        {
            return Some((Undecided, "overload signatures written differently"));
        }
        // `async push(x)` → `push(x): Promise<Stream>`: an `async` function returns a promise,
        // inferred where no return type is written; once one side writes a `Promise` the
        // return types compare (see `return_change`) and `async` says only how the body is
        // written.
        if types.structural
            && matches!(old.kind, "function" | "method")
            && promised(old)
            && promised(new)
        {
            let (old, new) = (without_async(old), without_async(new));
            if old.shape == new.shape {
                return None;
            }
            return Some(modifiers_change(&old, &new));
        }
        // A class's shape is its contract modifiers too: jackson-core #1423 made
        // `final class JsonReadContext` open to subclasses, which breaks nobody.
        if matches!(
            old.kind,
            "fn" | "method" | "class" | "interface" | "enum" | "record"
        ) {
            return Some(modifiers_change(old, new));
        }
        // A call, construct or index signature of a TypeScript type (axios's
        // `CustomParamsSerializer`: `params: object` → `Record<string, any>`, a `this`
        // parameter declared): types there are structural.
        if types.structural && old.kind == "signature" {
            return Some((Undecided, "signature written differently"));
        }
        if widened(&old.shape, &new.shape) {
            return Some((Compatible, "type widened"));
        }
        return Some((Incompatible, describe_shape(old.kind)));
    }
    let markers = |shape: &str| {
        let optional = shape.starts_with('?');
        let rest = shape.trim_start_matches('?');
        let is_static = rest.ends_with(" static");
        let ty = rest.strip_suffix(" static").unwrap_or(rest).to_string();
        (optional, is_static, ty)
    };
    let (old_optional, old_static, old_ty) = markers(&old.shape);
    let (new_optional, new_static, new_ty) = markers(&new.shape);
    if old_static != new_static {
        return Some((Incompatible, "static changed"));
    }
    let change = if old_ty.is_empty() || new_ty.is_empty() {
        // A type annotation dropped or added: the type is now inferred or newly written.
        if old_ty == new_ty {
            TypeChange::Same
        } else {
            TypeChange::Undecided
        }
    } else {
        type_change(&old_ty, &new_ty, types)
    };
    match change {
        TypeChange::Different => Some((Incompatible, describe_shape(old.kind))),
        TypeChange::Undecided => Some((Undecided, describe_shape(old.kind))),
        // Optional for readers means handling `undefined`; required for writers means
        // supplying it: which one users are is not in the syntax.
        _ if old_optional != new_optional => Some((
            Undecided,
            if new_optional {
                "now optional"
            } else {
                "now required"
            },
        )),
        TypeChange::Widened => Some((Compatible, "type widened")),
        TypeChange::Same => None,
    }
}

/// Whether a script function returns a promise by its form: `async` (its return type then
/// unwritten, see `script::extract`) or a written `Promise`.
fn promised(item: &Item) -> bool {
    item.shape.split_whitespace().any(|w| w == "async")
        || item
            .ret
            .as_deref()
            .is_some_and(|r| r == "Promise" || r.starts_with("Promise<"))
}

fn without_async(item: &Item) -> Item {
    let shape: Vec<&str> = item
        .shape
        .split_whitespace()
        .filter(|w| *w != "async")
        .collect();
    Item {
        shape: shape.join(" "),
        ..item.clone()
    }
}

/// A function's modifiers: dropping `unsafe` from a function callers only call, or adding
/// `const`, keeps every call working; any other change (`unsafe` added, `async`, `static`,
/// an ABI) may not. A trait's method is also implemented, so there `unsafe` must stay.
fn modifiers_change(old: &Item, new: &Item) -> (Severity, &'static str) {
    let words =
        |shape: &str| -> Vec<String> { shape.split_whitespace().map(str::to_string).collect() };
    let (before, after) = (words(&old.shape), words(&new.shape));
    let removed: Vec<&String> = before.iter().filter(|w| !after.contains(w)).collect();
    let added: Vec<&String> = after.iter().filter(|w| !before.contains(w)).collect();
    let only_called = old.parent.is_none();
    // A Go method whose receiver is no longer a pointer is in the method set of both `T` and
    // `*T`: every call and interface it satisfied still holds.
    // Dropping `abstract` (a method now has a body, a class can be instantiated) or `final` /
    // `sealed` (now open to subclasses and overrides) keeps every call and override working.
    let harmless_removal = removed.iter().all(|w| {
        (*w == "unsafe" && only_called)
            || *w == GO_POINTER_RECEIVER
            || matches!(w.as_str(), "abstract" | "final" | "sealed")
    });
    let harmless_addition = added.iter().all(|w| *w == "const");
    if harmless_removal && harmless_addition {
        (
            Severity::Compatible,
            if removed.is_empty() {
                "now const"
            } else if removed.iter().any(|w| *w == GO_POINTER_RECEIVER) {
                "value receiver (in the method set of both T and *T)"
            } else if removed.iter().any(|w| *w == "unsafe") {
                "no longer unsafe"
            } else {
                "no longer abstract, final or sealed"
            },
        )
    } else if added.iter().any(|w| *w == "unsafe") {
        (Severity::Incompatible, "now unsafe")
    } else {
        (Severity::Incompatible, describe_shape(old.kind))
    }
}

fn describe_shape(kind: &str) -> &'static str {
    match kind {
        "field" | "property" | "const" | "static" | "var" | "variable" | "attribute" => {
            "type changed"
        }
        "variant" => "variant's fields changed",
        "type" => "aliased type changed",
        _ => "declaration changed",
    }
}

/// Positional parameters: every old call must still fit. `Some((Incompatible, why))` when one
/// may not, `Some((Undecided, why))` when a type changed in a way the syntax cannot decide.
pub(super) fn positional(
    old: &[Param],
    new: &[Param],
    types: &Types,
) -> Option<(Severity, String)> {
    let broken = |why: String| Some((Severity::Incompatible, why));
    let receiver = |ps: &[Param]| {
        ps.iter()
            .find(|p| p.kind == ParamKind::Receiver)
            .map(|p| p.ty.clone())
    };
    if receiver(old) != receiver(new) {
        return broken("receiver changed".into());
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
    let mut undecided = None;
    for (i, before) in old.iter().enumerate() {
        let after = match new.get(i).copied().or_else(|| new_variadic.map(|v| new[v])) {
            Some(after) => after,
            None => return broken(format!("parameter {} removed", i + 1)),
        };
        if before.kind == ParamKind::Variadic && after.kind != ParamKind::Variadic {
            return broken(format!("parameter {} no longer variadic", i + 1));
        }
        if let (Some(a), Some(b)) = (&before.ty, &after.ty) {
            // A plain parameter folded into a variadic one of the same element type.
            let spread = after.kind == ParamKind::Variadic
                && (b.trim_start_matches("...") == a
                    || b.trim_end_matches("...") == a
                    || b.trim_end_matches("[]") == a);
            // Go's empty interface takes every argument an old call passed (gin v1.11.0's
            // `Get(key string)` → `Get(key any)`); a result or a field typed so would not be.
            let takes_anything = matches!(b.as_str(), "any" | "interface{}");
            match type_change(a, b, types) {
                TypeChange::Same | TypeChange::Widened => {}
                _ if spread || takes_anything => {}
                TypeChange::Undecided => {
                    undecided.get_or_insert_with(|| format!("parameter {} type changed", i + 1));
                }
                TypeChange::Different => {
                    return broken(format!("parameter {} type changed", i + 1));
                }
            }
        }
        if before.optional && !after.optional && after.kind == ParamKind::Unchecked {
            undecided.get_or_insert_with(|| {
                format!(
                    "parameter {} lost its default (a call without it now passes `undefined`)",
                    i + 1
                )
            });
        } else if before.optional && !after.optional && after.kind != ParamKind::Variadic {
            return broken(format!("parameter {} is now required", i + 1));
        }
    }
    for (i, after) in new.iter().enumerate().skip(old.len()) {
        if !after.optional && after.kind == ParamKind::Unchecked {
            // JavaScript checks no arity: every old call still runs, with `undefined` for
            // it; whether the body copes is not in the signature.
            undecided.get_or_insert_with(|| {
                format!(
                    "parameter {} added (a call without it passes `undefined`)",
                    i + 1
                )
            });
        } else if !after.optional && after.kind != ParamKind::Variadic {
            return broken(format!("a required parameter added (parameter {})", i + 1));
        }
    }
    undecided.map(|why| (Severity::Undecided, why))
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
            // Folded into `*args`: positional calls still bind, calls by name only where a
            // keyword of that name or `**kwargs` takes them.
            Some(after) if after.kind == Variadic => {
                let by_name_kept = takes_any_keyword
                    || new
                        .iter()
                        .any(|p| p.kind == KeywordOnly && name(p) == name(before));
                if before.kind == PositionalOrKeyword && !by_name_kept {
                    return Some(format!(
                        "`{}` can no longer be passed by name",
                        name(before)
                    ));
                }
            }
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
                // Renamed in place, the old name still taken further on as an alias
                // (structlog 25.5's `pad_event` → `pad_event_to`, `pad_event=None` at the
                // end): every later parameter kept its place, so a call by position binds
                // the same parameter under its new name, and a call by name still binds.
                let later_in_place = old_positional.len() > i + 1
                    && old_positional[i + 1..].iter().enumerate().all(|(j, old)| {
                        positional_at(new, i + 1 + j).is_some_and(|p| name(&p) == name(old))
                    });
                let alias_after = new
                    .iter()
                    .filter(|p| matches!(p.kind, Positional | PositionalOrKeyword | Receiver))
                    .position(|p| name(p) == name(before))
                    .is_none_or(|at| at >= old_positional.len());
                let alias = new.iter().find(|p| name(p) == name(before));
                if later_in_place
                    && alias_after
                    && alias.is_some_and(|p| p.optional && p.kind != Positional)
                {
                    continue;
                }
                // Still there further on (uvicorn #2033 put `ws_max_queue` before
                // `ws_ping_interval`): a call by name still binds, a call by position shifts.
                if new.iter().any(|p| name(p) == name(before)) {
                    return Some(format!(
                        "`{}` inserted before `{}` (a caller passing `{}` by position now sets `{}`)",
                        name(&after),
                        name(before),
                        name(before),
                        name(&after)
                    ));
                }
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

/// A bound written with `From`/`TryFrom` as the `Into`/`TryInto` it implies: every `U:
/// TryFrom<T>` makes `T: TryInto<U>` hold (the standard library's blanket impl), with the same
/// `Error` (http 1.2.0: `where HeaderName: TryFrom<K>, <HeaderName as TryFrom<K>>::Error:
/// Into<crate::Error>` became `where K: TryInto<HeaderName>, <K as TryInto<HeaderName>>::Error:
/// …`). Only the old side is rewritten: the other way narrows.
fn as_into(predicate: &str) -> String {
    static BOUND: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^([^<:][^:]*?):\s*(?:[\w:]*::)?(Try)?From<(.+)>$").ok()
    });
    static PROJECTION: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^<\s*(.+?)\s+as\s+(?:[\w:]*::)?(Try)?From<(.+?)>\s*>(::.*)$").ok()
    });
    let predicate = predicate.trim();
    if let Some(c) = PROJECTION.as_ref().and_then(|re| re.captures(predicate)) {
        let try_ = c.get(2).map_or("", |m| m.as_str());
        return format!("<{} as {try_}Into<{}>>{}", &c[3], &c[1], &c[4]);
    }
    if let Some(c) = BOUND.as_ref().and_then(|re| re.captures(predicate)) {
        let try_ = c.get(2).map_or("", |m| m.as_str());
        return format!("{}: {try_}Into<{}>", &c[3], c[1].trim());
    }
    predicate.to_string()
}

/// `text` with the standard library's result aliases written out, without spaces:
/// `io::Result<T>` is `Result<T, io::Error>` and `fmt::Result` is `Result<(), fmt::Error>`
/// (tokio 1.49.0 wrote `Poll<Result<(), io::Error>>` as `Poll<io::Result<()>>`).
fn std_aliases_spelled(text: &str) -> String {
    let qualified =
        |before: &str| before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
    // The standard library's crates named or not (`std::io::Error` is `io::Error`; tokio 1.38
    // wrote `Result<(u64, u64), std::io::Error>` as `io::Result<(u64, u64)>`): a path from
    // a module of its own (`io::`, `fmt::`) names the same item either way.
    let mut text = {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            let krate = [
                "::std::",
                "::core::",
                "::alloc::",
                "std::",
                "core::",
                "alloc::",
            ]
            .into_iter()
            .find(|krate| rest.starts_with(krate));
            match krate {
                Some(krate) if !qualified(&out) => rest = &rest[krate.len()..],
                _ => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        out.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
    };
    while let Some(at) = text
        .find("io::Result<")
        .filter(|at| !qualified(&text[..*at]))
    {
        let open = at + "io::Result".len();
        let mut depth = 0usize;
        let mut close = None;
        for (i, c) in text[open..].char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { break };
        let inner = text[open + 1..close].to_string();
        text.replace_range(at..=close, &format!("Result<{inner},io::Error>"));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("fmt::Result") {
        let after = &rest[at + "fmt::Result".len()..];
        out.push_str(&rest[..at]);
        if qualified(&out)
            || after.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '<')
        {
            out.push_str("fmt::Result");
        } else {
            out.push_str("Result<(),fmt::Error>");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Traits every implementor of another implements through a blanket impl in the standard
/// library or as its supertrait, narrow first, by family: `Iterator` → `IntoIterator`,
/// `Future` → `IntoFuture`, `Fn` → `FnMut` → `FnOnce`, `Copy` → `Clone`.
const WIDER_TRAITS: &[(&str, &[&str])] = &[
    ("iterator", &["Iterator", "IntoIterator"]),
    ("future", &["Future", "IntoFuture"]),
    ("closure", &["Fn", "FnMut", "FnOnce"]),
    // A subtrait's supertrait: every `Copy` type is `Clone` (tokio 1.38's `impl<T: Copy>
    // LocalKey<T>` → `impl<T: Clone>`), every `Eq` is `PartialEq`, every `Ord` `PartialOrd`.
    ("clone", &["Copy", "Clone"]),
    ("equality", &["Eq", "PartialEq"]),
    ("order", &["Ord", "PartialOrd"]),
];

/// Whether `new` is `old` with some of its bounds written as a trait every old type still
/// implements ([`WIDER_TRAITS`], as a bound or `impl Trait`, not a `dyn` object, whose
/// vtable differs): the same text otherwise, and no trait narrowed.
fn traits_widened(old: &str, new: &str) -> bool {
    static TRAIT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b(IntoIterator|Iterator|IntoFuture|Future|FnOnce|FnMut|Fn|Copy|Clone|PartialEq|Eq|PartialOrd|Ord)\b").ok()
    });
    let Some(re) = TRAIT.as_ref() else {
        return false;
    };
    // The text with each such trait a placeholder of its family, and the traits in order.
    let read = |text: &str| -> Option<(String, Vec<(&'static str, usize)>)> {
        let mut skeleton = String::new();
        let mut found = Vec::new();
        let mut last = 0;
        for m in re.find_iter(text) {
            let before = &text[last..m.start()];
            if before.trim_end().ends_with("dyn") {
                return None;
            }
            let (family, rank) = WIDER_TRAITS.iter().find_map(|(family, traits)| {
                traits
                    .iter()
                    .position(|t| *t == m.as_str())
                    .map(|rank| (*family, rank))
            })?;
            skeleton.push_str(before);
            skeleton.push_str(family);
            found.push((family, rank));
            last = m.end();
        }
        skeleton.push_str(&text[last..]);
        Some((skeleton, found))
    };
    let (Some((old_text, old_traits)), Some((new_text, new_traits))) = (read(old), read(new))
    else {
        return false;
    };
    old_text == new_text
        && old_traits != new_traits
        && old_traits
            .iter()
            .zip(&new_traits)
            .all(|((_, before), (_, after))| after >= before)
}

/// `new` with the projections a widened bound introduced read as the type they are for every
/// old argument: where a type parameter bound `P: Future` at the base is `P: IntoFuture` at
/// the head, `P::IntoFuture` is `P` for every type the base accepted (the blanket `impl<F:
/// Future> IntoFuture for F` has `IntoFuture = F`; tokio 1.39's `timeout<F: Future>(…) ->
/// Timeout<F>` → `timeout<F: IntoFuture>(…) -> Timeout<F::IntoFuture>`), and so is
/// `P::IntoIter` for `Iterator` → `IntoIterator`. `None` when there is none.
fn projections_resolved(old: &Item, new: &Item) -> Option<Item> {
    const PROJECTIONS: &[(&str, &str, &str)] = &[
        ("Future", "IntoFuture", "IntoFuture"),
        ("Iterator", "IntoIterator", "IntoIter"),
    ];
    let (_, old_bounds) = split_generics(&old.generics);
    let (_, new_bounds) = split_generics(&new.generics);
    let bound_of = |bounds: &[String], param: &str, trait_: &str| {
        bounds.iter().any(|b| {
            b.split_once(':').is_some_and(|(left, right)| {
                let right = right.trim();
                left.trim() == param
                    && right.rsplit("::").next().is_some_and(|last| {
                        last == trait_ || last.starts_with(&format!("{trait_}<"))
                    })
            })
        })
    };
    let mut resolved = new.clone();
    let mut any = false;
    for param in type_parameter_list(&new.generics) {
        let param = param.split('=').next().unwrap_or(&param).trim().to_string();
        for (narrow, wide, projection) in PROJECTIONS {
            if !(bound_of(&old_bounds, &param, narrow) && bound_of(&new_bounds, &param, wide)) {
                continue;
            }
            let spellings = [
                format!("<{param} as {wide}>::{projection}"),
                format!("<{param} as std::future::{wide}>::{projection}"),
                format!("<{param} as std::iter::{wide}>::{projection}"),
                format!("{param}::{projection}"),
            ];
            let rewrite = |text: &str| -> String {
                let mut text = text.to_string();
                for spelling in &spellings {
                    text = replace_whole(&text, spelling, &param);
                }
                text
            };
            let before = format!("{:?}{:?}{}", resolved.params, resolved.ret, resolved.shape);
            resolved.ret = resolved.ret.as_deref().map(rewrite);
            for p in resolved.params.iter_mut().flatten() {
                p.ty = p.ty.as_deref().map(rewrite);
            }
            resolved.shape = rewrite(&resolved.shape);
            any |= before != format!("{:?}{:?}{}", resolved.params, resolved.ret, resolved.shape);
        }
    }
    any.then_some(resolved)
}

/// `text` with each `from` not inside a longer identifier path replaced by `to`.
fn replace_whole(text: &str, from: &str, to: &str) -> String {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let (before, after) = (&rest[..at], &rest[at + from.len()..]);
        out.push_str(before);
        let whole = !out.ends_with(|c: char| ident(c) || c == ':')
            && !after.starts_with(|c: char| ident(c) || c == ':');
        out.push_str(if whole { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The new type is the old one that now also takes unsized values (chrono 0.4.42: `w: &mut
/// impl Write` → `w: &mut (impl Write + ?Sized)`).
fn unsized_allowed(old: &str, new: &str) -> bool {
    if !new.contains("?Sized") || old.contains("?Sized") {
        return false;
    }
    let bare = |t: &str| -> String {
        t.replace("+?Sized", "")
            .replace("?Sized+", "")
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
            .collect()
    };
    bare(old) == bare(new)
}

/// Whether `new` accepts everything `old` did, by the widenings we can recognise from the
/// text alone: a union that gained members, `Iterator` → `IntoIterator`, `T` → `impl Into<T>`
/// or `impl AsRef<T>` (`?Sized` added is [`unsized_allowed`]; bound removals are not
/// attempted).
pub(crate) fn widened(old: &str, new: &str) -> bool {
    if old == new {
        return true;
    }
    if traits_widened(old, new) {
        return true;
    }
    for wrapper in ["impl Into<", "impl AsRef<", "impl Borrow<"] {
        if let Some(inner) = new.strip_prefix(wrapper).and_then(|t| t.strip_suffix('>'))
            && (inner == old || old.strip_prefix('&') == Some(inner))
        {
            return true;
        }
    }
    if std_converts(old, new) {
        return true;
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
    !before.is_empty() && after.len() > before.len() && before.iter().all(|m| after.contains(m))
}

/// What the standard library converts each Rust type written as a parameter into (`From`,
/// `AsRef` and `ToString` impls of std), as the bound an `impl Trait` parameter names:
/// `&str` is `Into<String>`, `AsRef<Path>`, … Written without spaces, as [`std_converts`]
/// compares them. Borrowed forms are the old type's own lifetime: `Cow<'static, str>` is not
/// among them.
const STD_CONVERSIONS: &[(&str, &[&str])] = &[
    (
        "&str",
        &[
            "Into<String>",
            "Into<Box<str>>",
            "Into<Arc<str>>",
            "Into<Rc<str>>",
            "Into<Cow<str>>",
            "Into<Cow<'_,str>>",
            "Into<PathBuf>",
            "Into<OsString>",
            "Into<Vec<u8>>",
            "AsRef<str>",
            "AsRef<Path>",
            "AsRef<OsStr>",
            "AsRef<[u8]>",
            "ToString",
            "Display",
        ],
    ),
    (
        "String",
        &[
            "Into<Box<str>>",
            "Into<Arc<str>>",
            "Into<Rc<str>>",
            "Into<PathBuf>",
            "Into<OsString>",
            "Into<Vec<u8>>",
            "AsRef<str>",
            "AsRef<Path>",
            "AsRef<OsStr>",
            "AsRef<[u8]>",
            "ToString",
            "Display",
        ],
    ),
    (
        "&Path",
        &[
            "Into<PathBuf>",
            "Into<Box<Path>>",
            "AsRef<Path>",
            "AsRef<OsStr>",
        ],
    ),
    (
        "PathBuf",
        &["AsRef<Path>", "AsRef<OsStr>", "Into<Box<Path>>"],
    ),
    ("&OsStr", &["Into<OsString>", "AsRef<OsStr>", "AsRef<Path>"]),
    (
        "OsString",
        &["AsRef<OsStr>", "AsRef<Path>", "Into<PathBuf>"],
    ),
    (
        "&[u8]",
        &["Into<Vec<u8>>", "Into<Box<[u8]>>", "AsRef<[u8]>"],
    ),
    ("Vec<u8>", &["Into<Box<[u8]>>", "AsRef<[u8]>"]),
];

/// Whether `new`, an `impl Trait` parameter type, names a conversion the standard library
/// has from every value of the old type `old` (see [`STD_CONVERSIONS`]): every old call
/// still compiles (RFC 1105, "generalizing to generics").
fn std_converts(old: &str, new: &str) -> bool {
    let squeeze = |t: &str| t.split_whitespace().collect::<String>();
    let (old, new) = (squeeze(old), squeeze(new));
    let Some(bound) = new.strip_prefix("impl") else {
        return false;
    };
    let old = old
        .strip_prefix("&'_")
        .map_or(old.clone(), |rest| format!("&{rest}"));
    STD_CONVERSIONS
        .iter()
        .any(|(from, into)| *from == old && into.contains(&bound))
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

    /// JavaScript checks no arity: a parameter added, or one that lost its default, leaves
    /// every old call running (with `undefined`); whether the body copes is undecided, not a
    /// break. One removed still drops what old calls pass, and TypeScript still checks calls.
    #[test]
    fn javascript_parameters_are_not_checked_against_calls() {
        use ParamKind::*;
        let untyped = |optional: bool| Param {
            name: None,
            ty: None,
            kind: Unchecked,
            optional,
        };
        let defaulted = Param {
            name: None,
            ty: None,
            kind: Positional,
            optional: true,
        };
        let one = vec![untyped(false)];
        let added = positional(&one, &[untyped(false), untyped(false)], &Types::nominal());
        assert_eq!(
            added.map(|(severity, why)| (severity, why.contains("parameter 2 added"))),
            Some((Severity::Undecided, true))
        );
        let lost_default = positional(
            &[untyped(false), defaulted.clone()],
            &[untyped(false), untyped(false)],
            &Types::nominal(),
        );
        assert_eq!(
            lost_default.map(|(severity, why)| (severity, why.contains("lost its default"))),
            Some((Severity::Undecided, true))
        );
        let removed = positional(&[untyped(false), untyped(false)], &one, &Types::nominal());
        assert_eq!(
            removed.map(|(severity, _)| severity),
            Some(Severity::Incompatible)
        );
        let typed = positional(
            &[p("string", Positional, false)],
            &[
                p("string", Positional, false),
                p("number", Positional, false),
            ],
            &Types::nominal(),
        );
        assert_eq!(
            typed.map(|(severity, _)| severity),
            Some(Severity::Incompatible)
        );
    }

    #[test]
    fn positional_rules() {
        use ParamKind::*;
        let a = vec![p("u8", Positional, false)];
        assert_eq!(positional(&a, &a, &Types::nominal()), None);
        let optional_added = vec![p("u8", Positional, false), p("u16", Positional, true)];
        assert_eq!(positional(&a, &optional_added, &Types::nominal()), None);
        let variadic_added = vec![
            p("u8", Positional, false),
            p("...string[]", Variadic, false),
        ];
        assert_eq!(positional(&a, &variadic_added, &Types::nominal()), None);
        let required_added = vec![p("u8", Positional, false), p("u16", Positional, false)];
        assert!(
            positional(&a, &required_added, &Types::nominal())
                .unwrap()
                .1
                .contains("required")
        );
        assert!(
            positional(&a, &[], &Types::nominal())
                .unwrap()
                .1
                .contains("removed")
        );
        assert!(
            positional(&a, &[p("u16", Positional, false)], &Types::nominal())
                .unwrap()
                .1
                .contains("type")
        );
        assert_eq!(
            positional(
                &a,
                &[p("u8 | string", Positional, false)],
                &Types::nominal()
            ),
            None
        );
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

    /// tokio-postgres 0.7.11: `fn dbname(&mut self, dbname: &str)` → `dbname: impl
    /// Into<String>`: the standard library converts every `&str` into a `String`, so every
    /// old call compiles (RFC 1105: generalising to a trait the old type implements is a minor
    /// change). A conversion the standard library does not have, or one that asks more of the
    /// argument (`Cow<'static, str>` from a borrowed `&str`), is no widening.
    #[test]
    fn a_parameter_generalised_to_a_standard_conversion_of_its_type_is_widened() {
        for (old, new) in [
            ("&str", "impl Into<String>"),
            ("&str", "impl Into<Box<str>>"),
            ("&str", "impl AsRef<Path>"),
            ("&str", "impl AsRef<OsStr>"),
            ("&str", "impl AsRef<[u8]>"),
            ("String", "impl Into<PathBuf>"),
            ("String", "impl AsRef<str>"),
            ("&Path", "impl AsRef<Path>"),
            ("&Path", "impl Into<PathBuf>"),
            ("PathBuf", "impl AsRef<Path>"),
            ("&[u8]", "impl Into<Vec<u8>>"),
            ("&str", "impl ToString"),
        ] {
            assert!(widened(old, new), "{old} → {new}");
        }
        for (old, new) in [
            ("&str", "impl Into<Cow<'static, str>>"),
            ("&str", "impl Into<u32>"),
            ("u32", "impl Into<String>"),
            ("&Path", "impl AsRef<str>"),
            ("&str", "String"),
        ] {
            assert!(!widened(old, new), "{old} → {new}");
        }
    }
}
