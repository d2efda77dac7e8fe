//! Rust: `pub` items (not `pub(crate)`), their fields, variants, trait members and inherent
//! methods. `#[doc(hidden)]` items, items behind `cfg(test)` or an opt-in unstable `cfg`
//! flag, and inline modules whose docs withdraw them from the crate's promise are not part of
//! the stable surface.

use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::api::text::{Src, named, strip_lifetimes};
use crate::api::{Item, Param, ParamKind, Surface};
use crate::parse::reparse::advance;

/// `root`'s exported items; `tree`, when given, is `root`'s whole tree, from which the text
/// with macro bodies spliced in is reparsed rather than parsed afresh.
pub(crate) fn extract(
    root: Node,
    tree: Option<&tree_sitter::Tree>,
    src: Src,
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
) {
    match macro_bodies_spliced(root, tree, src) {
        Some((spliced, Some(tree))) => {
            items(tree.root_node(), Src(spliced.as_bytes()), exported, out, "")
        }
        _ => items(root, src, exported, out, ""),
    }
}

/// The attribute [`macro_bodies_spliced`] writes before each item it takes out of a macro
/// call, naming the macro: `#[in_macro(cfg_metrics)]`.
const IN_MACRO: &str = "in_macro";

/// The macros an item was written in, from its attributes (see [`IN_MACRO`]).
fn macros_of(attributes: &[String]) -> BTreeSet<String> {
    attributes
        .iter()
        .filter_map(|a| {
            let a = a.replace(' ', "");
            a.strip_prefix(&format!("#[{IN_MACRO}("))
                .and_then(|rest| rest.strip_suffix(")]"))
                .map(str::to_string)
        })
        .collect()
}

/// Records that the items `out` gained since it held `before` keys were written in `macros`.
fn mark_in_macro(out: &mut Surface, before: &BTreeSet<String>, macros: &BTreeSet<String>) {
    let added: Vec<String> = out
        .items
        .keys()
        .filter(|key| !before.contains(*key))
        .cloned()
        .collect();
    for key in added {
        out.in_macro
            .entry(key)
            .or_default()
            .extend(macros.iter().cloned());
    }
}

/// How deep macro calls holding items are opened inside one another (`cfg_rt! { impl X {
/// cfg_windows! { pub fn … } } }` is two).
const MACRO_DEPTH: usize = 4;

/// The file's text with each macro call in item position whose body is itself items
/// (`cfg_windows! { … }`, a crate's own `macro_rules!` wrapping items with a `cfg`,
/// `pin_project! { pub struct … }`) replaced by that body: the items are there, under the
/// `cfg` the macro implies, which for a platform or a feature is a build users choose (tokio
/// 1.27 moved `Child::raw_handle` from `#[cfg(windows)]` into `cfg_windows! { … }`). A call
/// named as an unstable opt-in (`cfg_unstable! { … }`) is left out, as `#[cfg(tokio_unstable)]`
/// would be. `None` when the file has no such call. A `bitflags!` body is read as the struct
/// and associated consts it defines ([`bitflags_items`]); any other body that does not parse
/// as items on its own (expressions, `cfg_if!`) stays a call. With the text, its syntax tree
/// (`None` when it does not parse): the last pass parsed it already.
///
/// Each pass's text is reparsed from the tree of the text before it, edited where the pass
/// spliced (tokio's files are mostly `cfg_*! { … }` calls: a fresh parse of every pass was a
/// tenth of a large range's CPU); a reparse whose tree holds an error is done again from
/// scratch, so error recovery is always tree-sitter's fresh one (the reparsed tree is the
/// fresh one, node for node, otherwise).
fn macro_bodies_spliced(
    root: Node,
    tree: Option<&tree_sitter::Tree>,
    src: Src,
) -> Option<(String, Option<tree_sitter::Tree>)> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .ok()?;
    let mut bodies = Bodies::new();
    // The last pass's text and its tree (`None` before the first: `src` and `root`).
    let mut text: Option<String> = None;
    let mut reparsed: Option<tree_sitter::Tree> = None;
    for _ in 0..MACRO_DEPTH {
        let current = text.as_deref().map(str::as_bytes).unwrap_or(src.0);
        let root = reparsed.as_ref().map_or(root, |t| t.root_node());
        let mut edits = Vec::new();
        splice_edits(root, Src(current), &mut parser, &mut bodies, &mut edits);
        if edits.is_empty() {
            return text.map(|t| (t, reparsed));
        }
        // The tree of `current` to reparse from: only when the text below is `current`'s
        // bytes edited (a text that is not UTF-8 is not: its lossy copy moves the offsets).
        let old = match (
            &reparsed,
            text.is_some() || std::str::from_utf8(current).is_ok(),
        ) {
            (Some(tree), _) => Some(tree.clone()),
            (None, true) => tree.cloned(),
            (None, false) => None,
        }
        .map(|mut old| {
            for edit in input_edits(current, &edits).iter().rev() {
                old.edit(edit);
            }
            old
        });
        let mut next = String::from_utf8_lossy(current).into_owned();
        for (range, replacement) in edits.into_iter().rev() {
            next.replace_range(range, &replacement);
        }
        let tree = match old.and_then(|old| parser.parse(&next, Some(&old))) {
            Some(tree) if !tree.root_node().has_error() => Some(tree),
            _ => parser.parse(&next, None),
        };
        let Some(tree) = tree else {
            return Some((next, None));
        };
        text = Some(next);
        reparsed = Some(tree);
    }
    // Still splicing after the last pass: its text, parsed above.
    text.map(|t| (t, reparsed))
}

/// `edits` (ascending, apart, in `text`'s offsets) as tree-sitter edits of `text`'s tree, to
/// be applied from the last.
fn input_edits(
    text: &[u8],
    edits: &[(std::ops::Range<usize>, String)],
) -> Vec<tree_sitter::InputEdit> {
    let mut out = Vec::with_capacity(edits.len());
    let (mut at, mut point) = (0usize, tree_sitter::Point { row: 0, column: 0 });
    for (range, replacement) in edits {
        point = advance(point, &text[at..range.start]);
        at = range.start;
        out.push(tree_sitter::InputEdit {
            start_byte: range.start,
            old_end_byte: range.end,
            new_end_byte: range.start + replacement.len(),
            start_position: point,
            old_end_position: advance(point, &text[range.clone()]),
            new_end_position: advance(point, replacement.as_bytes()),
        });
    }
    out
}

/// What a macro call's body splices in, by the macro's name and the body's text: a call left
/// as it is (its body not items) is met again in every pass, and parsed once.
type Bodies = std::collections::HashMap<(String, String), Option<String>>;

/// Node kinds that stand where an item can: items, their attributes and comments, and macro
/// calls (the body of a call made of expressions is not items).
fn item_syntax(kind: &str) -> bool {
    kind.ends_with("_item")
        || kind.ends_with("_declaration")
        || kind.contains("comment")
        || matches!(
            kind,
            "macro_invocation" | "macro_definition" | "associated_type"
        )
}

/// The replacements [`macro_bodies_spliced`] makes in one pass, in text order: for each macro
/// call among the items of `container` (and of the modules, impls and traits it holds).
fn splice_edits(
    container: Node,
    src: Src,
    parser: &mut tree_sitter::Parser,
    bodies: &mut Bodies,
    edits: &mut Vec<(std::ops::Range<usize>, String)>,
) {
    for child in named(container) {
        match child.kind() {
            "mod_item" | "impl_item" | "trait_item" => {
                if let Some(body) = child.child_by_field_name("body") {
                    splice_edits(body, src, parser, bodies, edits);
                }
            }
            "macro_invocation" => {
                let Some(body) = named(child).into_iter().find(|n| n.kind() == "token_tree") else {
                    continue;
                };
                let raw = src.raw(body);
                let Some(inner) = raw.strip_prefix('{').and_then(|b| b.strip_suffix('}')) else {
                    continue;
                };
                let name = src.field(child, "macro").unwrap_or("");
                let name = name.rsplit("::").next().unwrap_or(name);
                if name.to_ascii_lowercase().contains("unstable") {
                    edits.push((child.byte_range(), String::new()));
                    continue;
                }
                let key = (name.to_string(), inner.to_string());
                let body = match bodies.get(&key) {
                    Some(body) => body.clone(),
                    None => {
                        let body = spliced_body(name, inner, parser);
                        bodies.insert(key, body.clone());
                        body
                    }
                };
                if let Some(body) = body {
                    edits.push((child.byte_range(), body));
                }
            }
            _ => {}
        }
    }
}

/// The text a call of macro `name` with items body `inner` is replaced by: the items, each
/// marked with the macro; `None` when the body is not items (the call stays).
fn spliced_body(name: &str, inner: &str, parser: &mut tree_sitter::Parser) -> Option<String> {
    let tree = parser.parse(inner, None)?;
    // A body in bitflags' syntax is read as the items it defines.
    let (inner, tree) = if items_only(&tree) {
        (inner.to_string(), tree)
    } else {
        let text = bitflags_items(inner)?;
        match parser.parse(&text, None) {
            Some(tree) if items_only(&tree) => (text, tree),
            _ => return None,
        }
    };
    let inner = inner.as_str();
    let children = named(tree.root_node());
    // Each item marked with the macro it came from (see `IN_MACRO`): what `cfg`
    // the macro implies is read from its definition, elsewhere in the crate.
    let mut body = String::with_capacity(inner.len() + 64);
    let mut at = 0;
    for item in children.iter().filter(|n| {
        n.kind().ends_with("_item") && n.kind() != "attribute_item"
            || n.kind() == "macro_invocation"
    }) {
        body.push_str(&inner[at..item.start_byte()]);
        body.push_str(&format!("#[{IN_MACRO}({name})] "));
        at = item.start_byte();
    }
    body.push_str(&inner[at..]);
    Some(body)
}

/// Whether a macro body parsed on its own is items only (see [`item_syntax`]).
fn items_only(tree: &tree_sitter::Tree) -> bool {
    let root = tree.root_node();
    let children = named(root);
    !root.has_error()
        && !children.is_empty()
        && children.iter().all(|n| {
            item_syntax(n.kind())
                // `other_macro!(…);` among the items.
                || (n.kind() == "expression_statement"
                    && named(*n)
                        .iter()
                        .all(|e| e.kind() == "macro_invocation"))
        })
}

/// A `bitflags!` body written as the items it defines: `pub struct Ready: u8 { const
/// READABLE = 0b01; }` is a struct with private bits, whose flags are associated consts
/// (`Ready::READABLE`) and whose `bits()` returns the written type; bitflags 2's `impl Ready:
/// u8 { … }` (the struct written outside) defines the same consts and `bits()` on it. `None`
/// when the body has no such definition. Anything else in it is left as written, for the
/// parser to judge.
fn bitflags_items(inner: &str) -> Option<String> {
    static HEADER: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"\b(struct|impl)\s+([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([A-Za-z_][A-Za-z0-9_:<>, ]*?)\s*\{",
        )
        .ok()
    });
    static FLAG: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\bconst\s+([A-Za-z_][A-Za-z0-9_]*)\s*=").ok()
    });
    let (header, flag) = (HEADER.as_ref()?, FLAG.as_ref()?);
    let mut out = String::with_capacity(inner.len() + 128);
    let mut at = 0;
    for found in header.captures_iter(inner) {
        let (Some(whole), Some(keyword), Some(name), Some(bits)) =
            (found.get(0), found.get(1), found.get(2), found.get(3))
        else {
            continue;
        };
        if whole.start() < at {
            continue;
        }
        let open = whole.end();
        let close = braced_end(inner, open)?;
        out.push_str(&inner[at..whole.start()]);
        let (name, bits) = (name.as_str(), bits.as_str().trim());
        if keyword.as_str() == "struct" {
            out.push_str(&format!("struct {name} {{ bits: {bits} }}\nimpl {name} {{"));
        } else {
            out.push_str(&format!("impl {name} {{"));
        }
        out.push_str(&flag.replace_all(&inner[open..close], "pub const $1: Self ="));
        out.push_str(&format!(
            "\n    pub fn bits(&self) -> {bits} {{ loop {{}} }}\n}}"
        ));
        at = close + 1;
    }
    if at == 0 {
        return None;
    }
    out.push_str(&inner[at..]);
    Some(out)
}

/// Where the block whose body starts at `open` (just after its `{`) closes: the index of its
/// `}`. Braces inside strings and comments are not told apart (flag values are expressions).
fn braced_end(text: &str, open: usize) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Attributes written before each item, as canonical text.
fn with_attributes<'t>(container: Node<'t>, src: Src) -> Vec<(Node<'t>, Vec<String>)> {
    let mut pending = Vec::new();
    let mut result = Vec::new();
    for child in named(container) {
        match child.kind() {
            "attribute_item" => pending.push(src.canonical(child)),
            k if k.contains("comment") => {}
            _ => result.push((child, std::mem::take(&mut pending))),
        }
    }
    result
}

/// Whether the attributes take an item out of the stable surface: `#[doc(hidden)]` (see
/// [`doc_hidden`]) or a `cfg` no stable build of a user selects.
fn hidden(attributes: &[String]) -> bool {
    doc_hidden(attributes)
        || attributes.iter().any(|a| {
            let a = a.replace(' ', "");
            a.strip_prefix("#[cfg(")
                .and_then(|p| p.strip_suffix(")]"))
                .is_some_and(|predicate| !stable(predicate))
        })
}

/// `#[doc(hidden)]`: outside the documented surface, yet still there for code that uses it,
/// so hiding an item does not break callers and unhiding one adds nothing new to implement.
fn doc_hidden(attributes: &[String]) -> bool {
    attributes
        .iter()
        .any(|a| a.replace(' ', "").contains("doc(hidden)"))
}

/// Whether a `cfg` predicate holds in some build a user chooses with stable tools: a target
/// (`unix`, `target_os = "…"`) or a Cargo feature, either way. Test builds, flags only
/// `RUSTFLAGS` or a build script can set (`--cfg tokio_unstable`, `crossbeam_loom`, `miri`,
/// `docsrs`, an old compiler's `crossbeam_no_const_fn_trait_bound`) and features named as
/// unstable opt-ins (see [`unstable_feature`]) are off in users' builds, so `not(…)` of one
/// holds and a predicate is read with them off: crossbeam-epoch's `Atomic::null` is a `const
/// fn` under `not(crossbeam_loom)` and a plain `fn` under `crossbeam_loom` (or, before, under
/// `not(all(not(crossbeam_no_const_fn_trait_bound), not(crossbeam_loom)))`), and users only
/// ever build the first. Spaces are not significant.
pub(in crate::api) fn stable(predicate: &str) -> bool {
    cfg_value(predicate) != Cfg::Off
}

/// What a `cfg` predicate is in users' builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cfg {
    /// In every one of them.
    On,
    /// In none.
    Off,
    /// As the user chooses (a feature, a target).
    Either,
}

fn cfg_value(predicate: &str) -> Cfg {
    let predicate = predicate.trim();
    for (combinator, all) in [("all(", true), ("any(", false)] {
        if let Some(inner) = predicate
            .strip_prefix(combinator)
            .and_then(|p| p.strip_suffix(')'))
        {
            let parts: Vec<Cfg> = top_level_split(inner, ',')
                .into_iter()
                .filter(|p| !p.trim().is_empty())
                .map(cfg_value)
                .collect();
            let (decided, undecided) = if all {
                (Cfg::Off, Cfg::On)
            } else {
                (Cfg::On, Cfg::Off)
            };
            return if parts.contains(&decided) {
                decided
            } else if parts.iter().all(|p| *p == undecided) {
                undecided
            } else {
                Cfg::Either
            };
        }
    }
    if let Some(inner) = predicate
        .strip_prefix("not(")
        .and_then(|p| p.strip_suffix(')'))
    {
        return match cfg_value(inner) {
            Cfg::On => Cfg::Off,
            Cfg::Off => Cfg::On,
            Cfg::Either => Cfg::Either,
        };
    }
    const TARGET_FLAGS: &[&str] = &["unix", "windows", "debug_assertions", "proc_macro", "doc"];
    const KEYS: &[&str] = &["feature", "panic", "overflow_checks"];
    let chosen = match predicate.split_once('=') {
        Some((key, value)) if key.trim() == "feature" => !unstable_feature(value),
        Some((key, _)) => KEYS.contains(&key.trim()) || key.trim().starts_with("target_"),
        None => TARGET_FLAGS.contains(&predicate),
    };
    if chosen { Cfg::Either } else { Cfg::Off }
}

/// A Cargo feature whose name says it is an opt-in outside the crate's semver promise
/// (clap_complete's `unstable-dynamic`, `nightly`, `__private`): the names cargo-semver-checks
/// leaves out of its default feature set, as Cargo has no other way to mark one. `no_std`,
/// which it also leaves out, is a real build users choose, so it stays. `value` is the quoted
/// name as written.
fn unstable_feature(value: &str) -> bool {
    let name = value.trim().trim_matches('"');
    matches!(name, "unstable" | "nightly" | "bench")
        || ["_", "unstable-", "unstable_"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

/// Type parameters as the extractors write them: `<T, U=i64> where Self: Base, T: Clone`.
pub(in crate::api) fn split_generics(text: &str) -> (Vec<String>, Vec<String>) {
    let (params, predicates) = match text.split_once(" where ") {
        Some((p, w)) => (p, w),
        None if text.starts_with("where ") => ("", &text[6..]),
        None => (text, ""),
    };
    let list = |t: &str| -> Vec<String> {
        top_level_split(t, ',')
            .into_iter()
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect()
    };
    let inner = params
        .trim()
        .strip_prefix('<')
        .and_then(|p| p.strip_suffix('>'));
    match inner {
        Some(inner) => (list(inner), list(predicates)),
        // Not the `<…>` form (a language that writes something else): compared as text.
        None if !params.trim().is_empty() => (vec![params.trim().to_string()], list(predicates)),
        None => (Vec::new(), list(predicates)),
    }
}

/// Shared with the other languages (see [`crate::api::text::top_level_split`]).
pub(in crate::api) use crate::api::text::top_level_split;

fn is_pub(node: Node, src: Src) -> bool {
    named(node)
        .iter()
        .any(|c| c.kind() == "visibility_modifier" && src.raw(*c).trim() == "pub")
}

fn non_exhaustive(attributes: &[String]) -> bool {
    attributes.iter().any(|a| a.contains("non_exhaustive"))
}

fn ty(src: Src, node: Option<Node>) -> Option<String> {
    node.map(|n| strip_lifetimes(&src.canonical(n)))
}

/// Type parameters, then every bound as one `Left: Bound` predicate, sorted: a bound written
/// inline (`<T: Clone>`), as a supertrait (`trait A: B`) or in a `where` clause is the same
/// contract. The form is `<T, U=i64, const N: usize> where Self: B, T: Clone` (see
/// [`super::compare`] for how two of them compare). Lifetime parameters count, unnamed.
fn generics(node: Node, src: Src) -> String {
    generics_of(&[node], src)
}

/// [`generics`] of several nodes as one: an inherent method's own and its `impl` block's
/// (`impl<K, V> Map<K, V> where K: Ord { fn get<Q>(…) }` is `<K, V, Q> where K: Ord`), so
/// bounds moved between the two, or relaxed on the block, compare as one list.
fn generics_of(nodes: &[Node], src: Src) -> String {
    let mut params = Vec::new();
    let mut predicates = BTreeSet::new();
    for node in nodes {
        collect_generics(*node, src, &mut params, &mut predicates);
    }
    render_generics(&params, predicates)
}

/// How an inherent method's generics write an `impl` block's type parameter that is a type
/// argument of the block's type, with its position: `impl<K, V, A: Allocator> IntoIter<K, V,
/// A>` gives `A=Self#2/3` (its position, and the type's number of arguments). Where the type declares a default at that position (`A = Global`),
/// a block generalised over it keeps every method for every type that had it (hashbrown
/// 0.15.1 → 0.15.3): `compare` reads the declaration (see `Types::declared`).
pub(in crate::api) const SELF_ARGUMENT: &str = "Self#";

/// [`generics_of`] an inherent method and its `impl` block, each block parameter that is a
/// type argument of `self_type` written with its position (see [`SELF_ARGUMENT`]).
fn method_generics(block: Node, method: Node, self_type: &str, src: Src) -> String {
    let mut params = Vec::new();
    let mut predicates = BTreeSet::new();
    collect_generics(block, src, &mut params, &mut predicates);
    let arguments: Vec<String> = self_type
        .split_once('<')
        .and_then(|(_, rest)| rest.strip_suffix('>'))
        .map(|inner| {
            top_level_split(inner, ',')
                .into_iter()
                .map(|a| a.trim().to_string())
                .collect()
        })
        .unwrap_or_default();
    let arity = arguments.len();
    for param in &mut params {
        if let Some(at) = arguments.iter().position(|a| a == param) {
            *param = format!("{param}={SELF_ARGUMENT}{at}/{arity}");
        }
    }
    collect_generics(method, src, &mut params, &mut predicates);
    render_generics(&params, predicates)
}

/// A trait's [`generics`] without the supertraits that seal it: users can neither name nor
/// use a sealing trait, so it is no part of what they rely on (indexmap 2.12.0 turned
/// `RawEntryApiV1<K, V, S>: private::Sealed` into `: Sealed`, a private trait at the top of
/// the file). Whether the trait is sealed at all is compared on its own.
fn trait_generics(node: Node, src: Src, private_modules: &BTreeSet<&str>) -> String {
    let mut params = Vec::new();
    let mut predicates = BTreeSet::new();
    collect_generics(node, src, &mut params, &mut predicates);
    predicates.retain(|predicate| {
        !predicate
            .strip_prefix("Self: ")
            .is_some_and(|bound| sealing(bound, private_modules))
    });
    render_generics(&params, predicates)
}

fn render_generics(params: &[String], predicates: BTreeSet<String>) -> String {
    let list: Vec<String> = predicates.into_iter().collect();
    strip_lifetimes(&join_generics(params, &list))
}

/// Type parameters and predicates written as the extractor writes them, `<T, U> where T:
/// Clone` (the predicates in order); [`split_generics`] reads them back.
pub(in crate::api) fn join_generics(params: &[String], predicates: &[String]) -> String {
    let mut text = String::new();
    if !params.is_empty() {
        text = format!("<{}>", params.join(", "));
    }
    if !predicates.is_empty() {
        text = format!("{text} where {}", predicates.join(", "))
            .trim()
            .to_string();
    }
    text
}

fn collect_generics(
    node: Node,
    src: Src,
    params: &mut Vec<String>,
    predicates: &mut BTreeSet<String>,
) {
    let mut bound = |left: &str, bounds: Option<Node>| {
        if let Some(bounds) = bounds {
            for atom in named(bounds) {
                if !atom.kind().contains("comment") {
                    predicates.insert(format!("{left}: {}", src.canonical(atom)));
                }
            }
        }
    };
    if let Some(list) = node.child_by_field_name("type_parameters") {
        for param in named(list) {
            match param.kind() {
                "type_parameter" => {
                    let name = src.field(param, "name").unwrap_or("?");
                    bound(name, param.child_by_field_name("bounds"));
                    params.push(match param.child_by_field_name("default_type") {
                        Some(default) => format!("{name}={}", src.canonical(default)),
                        None => name.to_string(),
                    });
                }
                "const_parameter" => {
                    let name = src.field(param, "name").unwrap_or("?");
                    let ty = src.canonical_field(param, "type");
                    params.push(match param.child_by_field_name("value") {
                        Some(value) => format!("const {name}: {ty}={}", src.canonical(value)),
                        None => format!("const {name}: {ty}"),
                    });
                }
                "lifetime_parameter" => params.push("'_".to_string()),
                k if k.contains("comment") || k == "attribute_item" => {}
                _ => params.push(src.canonical(param)),
            }
        }
    }
    bound("Self", node.child_by_field_name("bounds"));
    if let Some(clause) = named(node).into_iter().find(|c| c.kind() == "where_clause") {
        for predicate in named(clause) {
            if predicate.kind() == "where_predicate" {
                let left = src.canonical_field(predicate, "left");
                bound(&left, predicate.child_by_field_name("bounds"));
            }
        }
    }
}

fn items(
    container: Node,
    src: Src,
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
    prefix: &str,
) {
    let children = with_attributes(container, src);
    // Types defined here but not public: their methods are not reachable either.
    let private_types: BTreeSet<&str> = children
        .iter()
        .filter(|(n, _)| {
            matches!(
                n.kind(),
                "struct_item" | "enum_item" | "union_item" | "type_item"
            )
        })
        .filter(|(n, a)| !is_pub(*n, src) || hidden(a))
        .filter_map(|(n, _)| src.field(*n, "name"))
        .collect();
    // Every type defined here: a type named by an `impl` and defined nowhere here is another
    // file's.
    let defined: BTreeSet<&str> = children
        .iter()
        .filter(|(n, _)| {
            matches!(
                n.kind(),
                "struct_item" | "enum_item" | "union_item" | "type_item"
            )
        })
        .filter_map(|(n, _)| src.field(*n, "name"))
        .collect();
    // Modules and traits declared here without `pub`: a trait one of those modules holds, or
    // one of those traits, cannot be named outside.
    let private_modules: BTreeSet<&str> = children
        .iter()
        .filter(|(n, _)| matches!(n.kind(), "mod_item" | "trait_item") && !is_pub(*n, src))
        .filter_map(|(n, _)| src.field(*n, "name"))
        .collect();
    // Private modules whose every public name this container re-exports (`pub use
    // v1_support::*;`, uuid's `context`): their items are this container's.
    let globbed: BTreeSet<String> = children
        .iter()
        .filter(|(n, a)| n.kind() == "use_declaration" && is_pub(*n, src) && !hidden(a))
        .filter_map(|(n, _)| n.child_by_field_name("argument"))
        .filter_map(|argument| {
            let path = src.raw(argument).trim();
            let path = path.strip_prefix("self::").unwrap_or(path);
            let module = path.strip_suffix("::*")?.trim();
            private_modules.contains(module).then(|| module.to_string())
        })
        .collect();
    for (node, attributes) in &children {
        if node.kind() == "mod_item"
            && src
                .field(*node, "name")
                .is_some_and(|n| globbed.contains(n))
            && !hidden(attributes)
            && let Some(body) = node.child_by_field_name("body")
        {
            items(body, src, exported, out, prefix);
            continue;
        }
        let macros = macros_of(attributes);
        if macros.is_empty() {
            item(
                *node,
                attributes,
                src,
                exported,
                out,
                prefix,
                &private_types,
                &private_modules,
                &defined,
            );
        } else {
            let before: BTreeSet<String> = out.items.keys().cloned().collect();
            item(
                *node,
                attributes,
                src,
                exported,
                out,
                prefix,
                &private_types,
                &private_modules,
                &defined,
            );
            mark_in_macro(out, &before, &macros);
        }
    }
}

/// One child of an item container, with the attributes written before it.
#[allow(clippy::too_many_arguments)]
fn item(
    node: Node,
    attributes: &[String],
    src: Src,
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
    prefix: &str,
    private_types: &BTreeSet<&str>,
    private_modules: &BTreeSet<&str>,
    defined: &BTreeSet<&str>,
) {
    {
        if hidden(attributes) {
            if doc_hidden(attributes)
                && is_pub(node, src)
                && let Some(name) = src.field(node, "name")
            {
                out.hidden.insert(format!("{prefix}{name}"));
                // A hidden alias is still an alias (uuid 1.23 kept `Context` as one of the
                // renamed `ContextV1`): its target's members are reached through it.
                if node.kind() == "type_item"
                    && node.child_by_field_name("type_parameters").is_none()
                    && let Some(target) = ty(src, node.child_by_field_name("type"))
                {
                    out.aliases.insert(name.to_string(), target);
                }
            }
            // `#[doc(hidden)] impl Timestamp { … }` hides its methods, which are still there
            // for their callers (uuid 1.23 moved the deprecated `from_gregorian` into one).
            let opt_in = attributes.iter().any(|a| {
                let one = std::slice::from_ref(a);
                hidden(one) && !doc_hidden(one)
            });
            if node.kind() == "impl_item"
                && node.child_by_field_name("trait").is_none()
                && doc_hidden(attributes)
                && !opt_in
            {
                let mut methods = Surface::default();
                inherent(
                    node,
                    src,
                    exported,
                    &mut methods,
                    prefix,
                    private_types,
                    defined,
                );
                out.hidden.extend(methods.items.into_keys());
                out.hidden.extend(methods.hidden);
            }
            return;
        }
        if node.kind() == "use_declaration" {
            if is_pub(node, src)
                && let Some(argument) = node.child_by_field_name("argument")
            {
                let mut names = BTreeSet::new();
                use_names(argument, src, &mut names);
                // Inside `pub mod nested`, `pub use` makes `nested::foo`.
                out.reexports
                    .extend(names.into_iter().map(|name| format!("{prefix}{name}")));
            }
            return;
        }
        if node.kind() == "impl_item" {
            if node.child_by_field_name("trait").is_none() {
                inherent(node, src, exported, out, prefix, private_types, defined);
            }
            return;
        }
        // A private inline module's inherent impls still add methods to the types they name
        // (log #662 moved `Value::to_cow_str` into `mod std_support { impl Value { … } }`);
        // the type is one from here (`use super::*`), so its key keeps this prefix.
        if node.kind() == "mod_item"
            && !is_pub(node, src)
            && let Some(body) = node.child_by_field_name("body")
        {
            for (member, member_attributes) in with_attributes(body, src) {
                if member.kind() == "impl_item"
                    && member.child_by_field_name("trait").is_none()
                    && !hidden(&member_attributes)
                {
                    inherent(member, src, exported, out, prefix, private_types, defined);
                }
            }
            return;
        }
        let Some(name) = src.field(node, "name") else {
            return;
        };
        if !is_pub(node, src) || (prefix.is_empty() && !exported(name)) {
            return;
        }
        let key = format!("{prefix}{name}");
        match node.kind() {
            "function_item" => out.add(key.clone(), function(node, src, "fn", &key, None)),
            "struct_item" | "union_item" => structure(node, src, &key, attributes, out),
            "enum_item" => enumeration(node, src, &key, attributes, out),
            "trait_item" => trait_items(node, src, &key, private_modules, out),
            "type_item" => {
                let mut item = Item::new("type", &key, src.canonical(node));
                item.generics = generics(node, src);
                item.shape = ty(src, node.child_by_field_name("type")).unwrap_or_default();
                if item.generics.is_empty() && !item.shape.is_empty() {
                    out.aliases.insert(name.to_string(), item.shape.clone());
                }
                out.add(key, item);
            }
            "const_item" | "static_item" => out.add(key.clone(), constant(node, src, &key)),
            "mod_item" => {
                if let Some(body) = node.child_by_field_name("body")
                    && !withdrawn(node, body, src)
                {
                    items(body, src, &|_| true, out, &format!("{key}::"));
                }
            }
            _ => {}
        }
    }
}

/// Whether the inline module `node` (its body `body`) is one its own docs withdraw from the
/// crate's compatibility promise (see `super::promise`): its items are no API.
fn withdrawn(node: Node, body: Node, src: Src) -> bool {
    std::str::from_utf8(src.0).is_ok_and(|text| {
        super::promise::declaration_withdrawn(text, node.start_byte(), body.start_byte() + 1)
    })
}

/// A `const` or `static`: the value is not the contract; the type is.
fn constant(node: Node, src: Src, key: &str) -> Item {
    let skip: Vec<Node> = node.child_by_field_name("value").into_iter().collect();
    let mut item = Item::new("const", key, src.canonical_without(node, &skip));
    item.shape = ty(src, node.child_by_field_name("type")).unwrap_or_default();
    item
}

/// Names a `pub use` brings in (the alias when renamed; `*` for a glob).
fn use_names(node: Node, src: Src, out: &mut BTreeSet<String>) {
    match node.kind() {
        "identifier" | "type_identifier" => {
            out.insert(src.raw(node).to_string());
        }
        "scoped_identifier" => {
            if let Some(name) = src.field(node, "name") {
                out.insert(name.to_string());
            }
        }
        "use_as_clause" => {
            if let Some(alias) = src.field(node, "alias") {
                out.insert(alias.to_string());
            }
        }
        "use_wildcard" => {
            out.insert("*".to_string());
        }
        "scoped_use_list" => {
            if let Some(list) = node.child_by_field_name("list") {
                use_names(list, src, out);
            }
        }
        "use_list" => {
            for child in named(node) {
                use_names(child, src, out);
            }
        }
        _ => {}
    }
}

fn function(node: Node, src: Src, kind: &'static str, key: &str, parent: Option<&str>) -> Item {
    let skip: Vec<Node> = node.child_by_field_name("body").into_iter().collect();
    let mut item = Item::new(kind, key, src.canonical_without(node, &skip));
    let mut params = Vec::new();
    if let Some(list) = node.child_by_field_name("parameters") {
        for p in named(list) {
            match p.kind() {
                "self_parameter" => {
                    let text = src.canonical(p);
                    let text = text.strip_prefix("mut ").unwrap_or(&text).to_string();
                    params.push(Param {
                        name: Some("self".into()),
                        ty: Some(strip_lifetimes(&text)),
                        kind: ParamKind::Receiver,
                        optional: false,
                    });
                }
                "parameter" => params.push(Param {
                    name: src.field(p, "pattern").map(str::to_string),
                    ty: ty(src, p.child_by_field_name("type")),
                    kind: ParamKind::Positional,
                    optional: false,
                }),
                "variadic_parameter" => params.push(Param {
                    name: None,
                    ty: None,
                    kind: ParamKind::Variadic,
                    optional: false,
                }),
                _ => {}
            }
        }
    }
    item.params = Some(params);
    item.ret = ty(src, node.child_by_field_name("return_type"));
    item.generics = generics(node, src);
    let modifiers = named(node)
        .into_iter()
        .find(|c| c.kind() == "function_modifiers")
        .map(|m| src.canonical(m))
        .unwrap_or_default();
    let mut words: Vec<&str> = modifiers.split_whitespace().collect();
    // `async fn f() -> T` is `fn f() -> impl Future<Output = T>` to a caller.
    if let Some(at) = words.iter().position(|w| *w == "async") {
        words.remove(at);
        let output = item.ret.take().unwrap_or_else(|| "()".into());
        item.ret = Some(format!("impl Future<Output={output}>"));
    }
    item.shape = words.join(" ");
    item.parent = parent.map(str::to_string);
    item
}

fn structure(node: Node, src: Src, key: &str, attributes: &[String], out: &mut Surface) {
    let body = node.child_by_field_name("body");
    let mut fields = Vec::new();
    let mut all_public = true;
    if let Some(body) = body {
        if body.kind() == "field_declaration_list" {
            for (field, attrs) in with_attributes(body, src) {
                if field.kind() != "field_declaration" {
                    continue;
                }
                if !is_pub(field, src) {
                    all_public = false;
                    continue;
                }
                let name = src.field(field, "name").unwrap_or("?");
                // A hidden field is still a public one users may write in a struct literal;
                // one behind an opt-in `cfg` is not there in their builds.
                if hidden(&attrs) {
                    if doc_hidden(&attrs) {
                        out.hidden.insert(format!("{key}::{name}"));
                    }
                    continue;
                }
                fields.push((
                    name.to_string(),
                    ty(src, field.child_by_field_name("type")),
                    src.canonical(field),
                ));
            }
        } else {
            // Tuple fields: the visibility applies to the type after it.
            let mut index = 0;
            let mut public = false;
            for child in named(body) {
                match child.kind() {
                    "visibility_modifier" => public = src.raw(child).trim() == "pub",
                    "attribute_item" => {}
                    k if k.contains("comment") => {}
                    _ => {
                        if public {
                            let t = strip_lifetimes(&src.canonical(child));
                            fields.push((index.to_string(), Some(t.clone()), format!("pub {t}")));
                        } else {
                            all_public = false;
                        }
                        index += 1;
                        public = false;
                    }
                }
            }
        }
    }
    let kind = if node.kind() == "union_item" {
        "union"
    } else {
        "struct"
    };
    let mut form = src.canonical_without(node, &body.into_iter().collect::<Vec<_>>());
    if !fields.is_empty() {
        let list: Vec<&str> = fields.iter().map(|(_, _, f)| f.as_str()).collect();
        form.push_str(&format!(" {{ {} }}", list.join(", ")));
    }
    let mut item = Item::new(kind, key, form);
    item.generics = generics(node, src);
    item.closed = all_public && !non_exhaustive(attributes);
    out.add(key.to_string(), item);
    for (name, field_type, text) in fields {
        let mut field = Item::new("field", &format!("{key}::{name}"), text);
        field.shape = field_type.unwrap_or_default();
        field.parent = Some(key.to_string());
        out.add(format!("{key}::{name}"), field);
    }
}

fn enumeration(node: Node, src: Src, key: &str, attributes: &[String], out: &mut Surface) {
    let body = node.child_by_field_name("body");
    let mut item = Item::new(
        "enum",
        key,
        src.canonical_without(node, &body.into_iter().collect::<Vec<_>>()),
    );
    item.generics = generics(node, src);
    item.closed = !non_exhaustive(attributes);
    out.add(key.to_string(), item);
    let Some(body) = body else { return };
    for (variant, attrs) in with_attributes(body, src) {
        if variant.kind() != "enum_variant" {
            continue;
        }
        let Some(name) = src.field(variant, "name") else {
            continue;
        };
        let vkey = format!("{key}::{name}");
        if hidden(&attrs) {
            if doc_hidden(&attrs) {
                out.hidden.insert(vkey);
            }
            continue;
        }
        // The variant's fields are members of their own, so a field added to a
        // `#[non_exhaustive]` variant (users neither build it nor match it without `..`) is
        // told apart from one added to a variant users build.
        let fields = variant
            .child_by_field_name("body")
            .map(|b| variant_fields(b, src))
            .unwrap_or_default();
        let (open, close, shape) = match variant.child_by_field_name("body").map(|b| b.kind()) {
            Some("field_declaration_list") => ("{", "}", "struct variant"),
            Some(_) => ("(", ")", "tuple variant"),
            None => ("", "", "unit variant"),
        };
        let list: Vec<String> = fields
            .iter()
            .map(|(n, t)| {
                if open == "(" {
                    t.clone()
                } else {
                    format!("{n}: {t}")
                }
            })
            .collect();
        let form = if open.is_empty() {
            name.to_string()
        } else {
            format!("{name}{open}{}{close}", list.join(", "))
        };
        let mut v = Item::new("variant", &vkey, form);
        v.shape = shape.to_string();
        v.parent = Some(key.to_string());
        v.closed = !open.is_empty() && !non_exhaustive(&attrs);
        out.add(vkey.clone(), v);
        for (field_name, field_type) in fields {
            let fkey = format!("{vkey}::{field_name}");
            let mut field = Item::new("field", &fkey, format!("{field_name}: {field_type}"));
            field.shape = field_type;
            field.parent = Some(vkey.clone());
            out.add(fkey, field);
        }
    }
}

/// The fields of a struct or tuple variant, name (or position) and type, attributes and
/// comments left out.
fn variant_fields(body: Node, src: Src) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for child in named(body) {
        match child.kind() {
            "field_declaration" => fields.push((
                src.field(child, "name").unwrap_or("?").to_string(),
                ty(src, child.child_by_field_name("type")).unwrap_or_default(),
            )),
            "attribute_item" | "visibility_modifier" => {}
            k if k.contains("comment") => {}
            _ if body.kind() != "field_declaration_list" => {
                fields.push((
                    fields.len().to_string(),
                    strip_lifetimes(&src.canonical(child)),
                ));
            }
            _ => {}
        }
    }
    fields
}

fn trait_items(
    node: Node,
    src: Src,
    key: &str,
    private_modules: &BTreeSet<&str>,
    out: &mut Surface,
) {
    let body = node.child_by_field_name("body");
    let mut item = Item::new(
        "trait",
        key,
        src.canonical_without(node, &body.into_iter().collect::<Vec<_>>()),
    );
    item.generics = trait_generics(node, src, private_modules);
    item.sealed = supertraits(node, src)
        .iter()
        .any(|bound| sealing(bound, private_modules));
    out.add(key.to_string(), item);
    let Some(body) = body else { return };
    for (member, attrs) in with_attributes(body, src) {
        let Some(name) = src.field(member, "name") else {
            continue;
        };
        let mkey = format!("{key}::{name}");
        if hidden(&attrs) {
            if doc_hidden(&attrs) {
                out.hidden.insert(mkey);
            }
            continue;
        }
        let mut m = match member.kind() {
            "function_signature_item" => {
                let mut m = function(member, src, "method", &mkey, Some(key));
                m.required = true;
                m
            }
            "function_item" => function(member, src, "method", &mkey, Some(key)),
            "associated_type" => {
                let mut m = Item::new("associated type", &mkey, src.canonical(member));
                m.generics = generics(member, src);
                m.required = member.child_by_field_name("default_type").is_none()
                    && !src.raw(member).contains('=');
                m
            }
            "const_item" => {
                let mut m = Item::new("const", &mkey, src.canonical(member));
                m.shape = ty(src, member.child_by_field_name("type")).unwrap_or_default();
                m.required = member.child_by_field_name("value").is_none();
                m
            }
            _ => continue,
        };
        m.parent = Some(key.to_string());
        out.add(mkey, m);
    }
}

/// The traits a trait requires of `Self`: written after `:` or in `where Self: …`.
fn supertraits(node: Node, src: Src) -> Vec<String> {
    let mut out: Vec<String> = node
        .child_by_field_name("bounds")
        .map(named)
        .unwrap_or_default()
        .into_iter()
        .filter(|atom| !atom.kind().contains("comment"))
        .map(|atom| src.canonical(atom))
        .collect();
    if let Some(clause) = named(node).into_iter().find(|c| c.kind() == "where_clause") {
        for predicate in named(clause) {
            if predicate.kind() == "where_predicate"
                && src.canonical_field(predicate, "left") == "Self"
                && let Some(bounds) = predicate.child_by_field_name("bounds")
            {
                out.extend(named(bounds).into_iter().map(|atom| src.canonical(atom)));
            }
        }
    }
    out
}

/// Whether a supertrait seals the trait: users cannot name it, so they cannot implement it
/// nor, then, the trait (the sealed-trait pattern: `pub trait MutableKeys: private::Sealed`
/// with `mod private { pub trait Sealed {} }`, indexmap #335). A path through a module this
/// file declares private, a trait it declares private (`trait Sealed {}`, indexmap 2.12.0), or
/// one that names itself so (`sealed::Sealed`, `__private::Sealed`, `Sealed`), which is how the
/// pattern is written when the module is elsewhere.
fn sealing(bound: &str, private_modules: &BTreeSet<&str>) -> bool {
    let mut path = bound.trim().trim_start_matches("::");
    while let Some(rest) = ["crate::", "self::", "super::", "$crate::"]
        .iter()
        .find_map(|prefix| path.strip_prefix(prefix))
    {
        path = rest;
    }
    let path = path.split('<').next().unwrap_or(path).trim();
    let segments: Vec<&str> = path.split("::").map(str::trim).collect();
    let Some((last, modules)) = segments.split_last() else {
        return false;
    };
    private_modules.contains(modules.first().unwrap_or(last))
        || *last == "Sealed"
        || modules
            .iter()
            .any(|m| m.eq_ignore_ascii_case("sealed") || *m == "private" || m.starts_with("__"))
}

fn inherent(
    node: Node,
    src: Src,
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
    prefix: &str,
    private_types: &BTreeSet<&str>,
    defined_here: &BTreeSet<&str>,
) {
    let Some(self_type) = src.field(node, "type") else {
        return;
    };
    let name = self_type
        .split('<')
        .next()
        .unwrap_or(self_type)
        .rsplit("::")
        .next()
        .unwrap_or(self_type)
        .trim();
    if private_types.contains(name) {
        return;
    }
    // A type of another file, which this one does not export: its methods are kept, and the
    // type's own file decides whether they are public (see `Surface::foreign_impls`).
    if prefix.is_empty() && !exported(name) {
        if defined_here.contains(name) {
            return;
        }
        out.foreign_impls.insert(name.to_string());
    }
    let type_key = format!("{prefix}{name}");
    let Some(body) = node.child_by_field_name("body") else {
        return;
    };
    // `Self` in an inherent impl is the type itself: chrono 0.4.43 wrote
    // `signed_duration_since(self, rhs: NaiveDate)` as `(self, rhs: Self)`, rust-url's
    // `pub const EMPTY: AsciiDenyList` became `EMPTY: Self`. The type is written `Self` on
    // both sides, so an impl whose parameter was renamed (`impl<T> Wrap<T>` → `impl<U>
    // Wrap<U>`) still reads alike.
    let itself = src.canonical_field(node, "type");
    let members = with_attributes(body, src);
    let calls = super::generated::impl_macros(&members, &|attributes| macros_of(attributes), src);
    if !calls.is_empty() {
        out.impl_macros
            .entry(type_key.clone())
            .or_default()
            .extend(calls);
    }
    for (member, attrs) in members {
        if !matches!(member.kind(), "function_item" | "const_item") || !is_pub(member, src) {
            continue;
        }
        let Some(method) = src.field(member, "name") else {
            continue;
        };
        let key = format!("{type_key}::{method}");
        if hidden(&attrs) {
            if doc_hidden(&attrs) {
                out.hidden.insert(key);
            }
            continue;
        }
        let macros = macros_of(&attrs);
        if !macros.is_empty() {
            out.in_macro
                .entry(key.clone())
                .or_default()
                .extend(macros.iter().cloned());
        }
        // An associated const (`Duration::MAX`, a bitflags flag): named by users; its value is
        // not the contract, its type is. `const _` names nothing.
        if member.kind() == "const_item" {
            if method != "_" {
                let mut item = constant(member, src, &key);
                item.shape = as_self(&item.shape, &itself);
                out.add(key.clone(), item);
            }
            continue;
        }
        let mut item = function(member, src, "method", &key, None);
        item.generics = method_generics(node, member, self_type, src);
        for param in item.params.iter_mut().flatten() {
            if let Some(ty) = &param.ty {
                param.ty = Some(as_self(ty, &itself));
            }
        }
        item.ret = item.ret.map(|ret| as_self(&ret, &itself));
        out.add(key, item);
    }
}

/// `ty` with each whole `itself` (the impl's type as written, `Wrap<T>`) written `Self`.
fn as_self(ty: &str, itself: &str) -> String {
    if itself.is_empty() {
        return ty.to_string();
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut out = String::with_capacity(ty.len());
    let mut rest = ty;
    while let Some(at) = rest.find(itself) {
        let (before, after) = (&rest[..at], &rest[at + itself.len()..]);
        out.push_str(before);
        let whole = !out.ends_with(ident) && !after.starts_with(|c: char| ident(c) || c == '<');
        out.push_str(if whole { "Self" } else { itself });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        parser.parse(text, None).unwrap()
    }

    /// Every node of `tree`, named or not, with its kind and where it is.
    fn nodes(tree: &tree_sitter::Tree) -> Vec<String> {
        let mut out = Vec::new();
        let mut cursor = tree.walk();
        loop {
            let node = cursor.node();
            out.push(format!(
                "{} {:?} {:?} {:?} {}",
                node.kind(),
                node.byte_range(),
                node.start_position(),
                node.end_position(),
                node.is_error() || node.is_missing()
            ));
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    return out;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }

    /// The spliced text's tree, reparsed pass after pass from the file's own tree, is what a
    /// fresh parse of that text gives, node for node and position for position: nested calls
    /// (three passes), calls left as they are, a body that does not parse, a text that is not
    /// UTF-8, and a file whose spliced text holds an error.
    #[test]
    fn the_spliced_tree_is_the_fresh_parse_of_the_spliced_text() {
        let nested = "pub struct Child { child: u8 }\n\nimpl Child {\n    cfg_windows! {\n        /// Docs.\n        pub fn raw_handle(&self) -> Option<RawHandle> { None }\n    }\n}\n\n\
            cfg_rt! {\n    cfg_windows! {\n        cfg_net! {\n            pub fn deep(flags: u32) {}\n        }\n        pub fn creation_flags(flags: u32) {}\n    }\n}\n\n\
            thread_local! { static X: u8 = 1; }\n\ncfg_if! { if #[cfg(x)] { fn a() {} } else { fn b() {} } }\n\n\
            cfg_unstable_metrics! {\n    pub fn active_tasks_count() -> usize { 0 }\n}\n\nbitflags! {\n    pub struct Ready: u8 { const A = 1; }\n}\n\
            mod m {\n    cfg_io! { pub struct S; }\n}\n";
        let broken = format!("{nested}\ncfg_fs! {{ pub fn ok() {{}} }}\npub fn unfinished( {{\n");
        let mut not_utf8 = nested.as_bytes().to_vec();
        not_utf8.splice(0..0, b"// \xff\xfe caf\xe9\n".iter().copied());
        let error_in_body = "cfg_rt! { pub fn a() {} }\ncfg_fs! { pub fn broken( }\n";
        let edited = nested
            .replace(
                "pub fn deep(flags: u32)",
                "pub fn deep(flags: u64, more: bool)",
            )
            .replace(
                "mod m {",
                "pub fn added() {}\n\nmod m {\n    cfg_fs! { pub fn f() {} }",
            );
        for text in [
            nested.as_bytes(),
            edited.as_bytes(),
            broken.as_bytes(),
            &not_utf8,
            error_in_body.as_bytes(),
            nested.as_bytes(),
        ] {
            let tree = parse(text);
            let reparsed = macro_bodies_spliced(tree.root_node(), Some(&tree), Src(text));
            let fresh = macro_bodies_spliced(tree.root_node(), None, Src(text));
            let (Some((spliced, Some(spliced_tree))), Some((fresh_text, _))) = (reparsed, fresh)
            else {
                panic!("nothing spliced in {}", String::from_utf8_lossy(text));
            };
            assert_eq!(spliced, fresh_text);
            assert!(spliced.contains("#[in_macro(cfg_"), "{spliced}");
            assert_eq!(
                nodes(&spliced_tree),
                nodes(&parse(spliced.as_bytes())),
                "{spliced}"
            );
        }
    }
}
