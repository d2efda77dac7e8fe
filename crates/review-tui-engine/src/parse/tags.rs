//! One file's symbols: what it defines (with spans and signatures) and what it references.

use std::collections::HashSet;

use tree_sitter::{Node, Parser, QueryCursor, StreamingIterator, Tree};

use super::grammar::Grammar;
use super::overload;
use super::rust_tags::Found;

/// A definition found by the tag query. Rows are 1-based, like diff line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Definition {
    pub name: String,
    /// The tag kind after `definition.`: `function`, `method`, `class`, ...
    pub kind: String,
    pub first_row: u32,
    pub last_row: u32,
    /// The rows of the signature: the whole item for data shapes, up to the body otherwise.
    pub signature_rows: (u32, u32),
    /// The signature's text with runs of whitespace collapsed, so re-indenting or moving the
    /// item does not read as a change.
    pub signature: String,
    /// Part of the public API by the language's rule (see [`is_public`]).
    pub public: bool,
    /// In a language that overloads by parameter types (C#), the part of the signature that
    /// tells this definition from others of its name (`(string,object[])`, see
    /// [`overload::parameter_types`]).
    pub overload: Option<String>,
}

/// A reference: a use of `name` on `row` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reference {
    pub name: String,
    pub row: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FileTags {
    pub definitions: Vec<Definition>,
    pub references: Vec<Reference>,
}

/// Why a file has no usable tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParseFailure {
    /// Tree-sitter recovers from almost anything, so an error node alone is not a failure: a
    /// file counts as unparsed when its tree has errors *and* the query found nothing in it.
    Unparsable,
}

/// A parser and a query cursor, reused across files by one thread.
pub(crate) struct Tagger {
    parser: Parser,
    cursor: QueryCursor,
    grammar: Option<Grammar>,
}

impl Default for Tagger {
    fn default() -> Self {
        Tagger {
            parser: Parser::new(),
            cursor: QueryCursor::new(),
            grammar: None,
        }
    }
}

impl Tagger {
    pub(crate) fn tags(
        &mut self,
        grammar: Grammar,
        source: &[u8],
    ) -> Result<FileTags, ParseFailure> {
        self.tags_and_tree(grammar, source).map(|(tags, _)| tags)
    }

    /// [`Tagger::tags`], and the syntax tree they were read from (the apiContract axis reads
    /// the file's surface from the same tree instead of parsing it again).
    pub(crate) fn tags_and_tree(
        &mut self,
        grammar: Grammar,
        source: &[u8],
    ) -> Result<(FileTags, Tree), ParseFailure> {
        let tree = self
            .parse(grammar, source, None)
            .ok_or(ParseFailure::Unparsable)?;
        let tags = self.tags_of(grammar, &tree, source)?;
        Ok((tags, tree))
    }

    /// The syntax tree of `source`. With `old`, the tree of an earlier version already edited
    /// to `source`'s offsets ([`Tree::edit`]), tree-sitter reparses only what changed.
    pub(crate) fn parse(
        &mut self,
        grammar: Grammar,
        source: &[u8],
        old: Option<&Tree>,
    ) -> Option<Tree> {
        if self.grammar != Some(grammar) {
            self.parser.set_language(&grammar.language()).ok()?;
            self.grammar = Some(grammar);
        }
        self.parser.parse(source, old)
    }

    /// The tags of `tree`, the syntax tree of `source` in `grammar`.
    pub(crate) fn tags_of(
        &mut self,
        grammar: Grammar,
        tree: &Tree,
        source: &[u8],
    ) -> Result<FileTags, ParseFailure> {
        let found = match grammar {
            // The same matches as the query's, in one walk (see `rust_tags`).
            Grammar::Rust => {
                let mut found = Vec::new();
                super::rust_tags::matches(tree, source, &mut found);
                found
            }
            _ => self.query_matches(grammar, tree, source, std::iter::once(0..usize::MAX))?,
        };
        tags_from(grammar, tree, source, found, Precheck::Spans)
    }

    /// The tags of the matches of `tree` that reach into `ranges` (byte ranges, ascending and
    /// apart), each once: every definition whose node reaches into them, and every reference
    /// whose match does. The base side of a changed file only needs these (see
    /// [`crate::cohort::changes`]). A tree with errors is read whole: whether it failed depends on
    /// all of it.
    pub(crate) fn tags_within(
        &mut self,
        grammar: Grammar,
        tree: &Tree,
        source: &[u8],
        ranges: &[std::ops::Range<usize>],
    ) -> Result<FileTags, ParseFailure> {
        if tree.root_node().has_error() {
            return self.tags_of(grammar, tree, source);
        }
        if grammar == Grammar::Rust {
            // The same matches as a query cursor's per range, in one walk (see `rust_tags`).
            let mut found = Vec::new();
            super::rust_tags::matches_within(tree, source, ranges, &mut found);
            return tags_from(grammar, tree, source, found, Precheck::Spans);
        }
        self.tags_checked(
            grammar,
            tree,
            source,
            ranges.iter().cloned(),
            Precheck::Spans,
        )
    }

    /// The tags of the query's matches reaching into `ranges`, with the configuration check
    /// asked of every reference ([`Precheck::None`]) or only of those inside a configuration
    /// span.
    fn tags_checked(
        &mut self,
        grammar: Grammar,
        tree: &Tree,
        source: &[u8],
        ranges: impl Iterator<Item = std::ops::Range<usize>>,
        precheck: Precheck,
    ) -> Result<FileTags, ParseFailure> {
        let found = self.query_matches(grammar, tree, source, ranges)?;
        tags_from(grammar, tree, source, found, precheck)
    }

    /// The matches of `grammar`'s tag query in `tree` that reach into `ranges`, by the query
    /// cursor, in its order.
    fn query_matches<'t>(
        &mut self,
        grammar: Grammar,
        tree: &'t Tree,
        source: &[u8],
        ranges: impl Iterator<Item = std::ops::Range<usize>>,
    ) -> Result<Vec<Found<'t>>, ParseFailure> {
        let query = grammar.query();
        let names = query.capture_names();
        let Some(name_index) = query.capture_index_for_name("name") else {
            return Err(ParseFailure::Unparsable);
        };
        let configuration_index = query.capture_index_for_name("configuration");
        let mut out = Vec::new();
        for range in ranges {
            self.cursor.set_byte_range(range);
            let mut matches = self.cursor.matches(query, tree.root_node(), source);
            while let Some(found) = matches.next() {
                if let Some(span) = found
                    .captures
                    .iter()
                    .find(|c| Some(c.index) == configuration_index)
                {
                    out.push(Found::Configuration(span.node));
                    continue;
                }
                let name_node = found
                    .captures
                    .iter()
                    .find(|c| c.index == name_index)
                    .map(|c| c.node);
                let tag = found.captures.iter().find_map(|c| {
                    let capture = names[c.index as usize];
                    capture
                        .strip_prefix("definition.")
                        .map(|kind| (true, kind, c.node))
                        .or_else(|| {
                            capture
                                .strip_prefix("reference.")
                                .map(|kind| (false, kind, c.node))
                        })
                });
                // Go's query also captures package and import names without a tag: not symbols.
                let (Some(name), Some((definition, kind, node))) = (name_node, tag) else {
                    continue;
                };
                out.push(Found::Tag {
                    name,
                    definition,
                    kind,
                    node,
                });
            }
        }
        self.cursor.set_byte_range(0..usize::MAX);
        Ok(out)
    }
}

/// The tags of the query's matches `found` (in the query's order).
fn tags_from(
    grammar: Grammar,
    tree: &Tree,
    source: &[u8],
    found: Vec<Found<'_>>,
    precheck: Precheck,
) -> Result<FileTags, ParseFailure> {
    let mut configuration = Spans::default();
    let mut tags = FileTags::default();
    let mut definition_names = HashSet::new();
    let mut pending_references = Vec::new();
    // A match reaching into two ranges is found twice: a reference is kept once by its
    // name's place.
    let mut reference_nodes = HashSet::new();
    for found in found {
        let (name_node, is_definition, kind, node) = match found {
            Found::Configuration(span) => {
                if is_configuration(span, source) {
                    configuration.push(span.byte_range());
                }
                continue;
            }
            Found::Tag {
                name,
                definition,
                kind,
                node,
            } => (name, definition, kind, node),
        };
        let Ok(name) = name_node.utf8_text(source) else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        if is_definition {
            // Rust methods match both the method and the function pattern.
            if definition_names.insert(name_node.byte_range()) {
                tags.definitions
                    .push(definition(grammar, kind, name, node, source));
            }
        } else if reference_nodes.insert((name_node.id(), name_node.start_byte())) {
            pending_references.push((name_node, name.to_string(), row(name_node)));
        }
    }
    let configuration = configuration.done();

    // A definition's own name is not a use of it (the broad type-identifier patterns see
    // every declared type name too).
    let mut seen = HashSet::new();
    for (node, name, row) in pending_references {
        // Only a name inside an attribute or a `cfg!` can be a configuration predicate
        // (each of its ancestors holds it): the others skip the walk up the tree, which
        // descends from the root once per step in tree-sitter.
        let maybe = match precheck {
            Precheck::Spans => configuration.contain(node.byte_range()),
            Precheck::None => true,
        };
        if maybe && in_configuration(grammar, node, source) {
            continue;
        }
        let range = node.byte_range();
        if definition_names.contains(&range) || !seen.insert((name.clone(), row)) {
            continue;
        }
        tags.references.push(Reference { name, row });
    }
    if tags.definitions.is_empty() && tags.references.is_empty() && mostly_errors(tree) {
        return Err(ParseFailure::Unparsable);
    }
    Ok(tags)
}

/// Whether most of a tree is error: most of the root's statements, or most of its bytes. A
/// file that defines and uses nothing (an index of `export * from "./x.js"` lines) is not
/// unreadable for one statement the grammar does not know (date-fns's `export type * from
/// "./types.js"`, TypeScript 5.0).
fn mostly_errors(tree: &Tree) -> bool {
    let root = tree.root_node();
    if !root.has_error() {
        return false;
    }
    if root.is_error() || root.named_child_count() == 0 {
        return true;
    }
    let mut cursor = root.walk();
    let (mut errors, mut children, mut error_bytes) = (0usize, 0usize, 0usize);
    for child in root.named_children(&mut cursor) {
        children += 1;
        if child.is_error() || child.is_missing() {
            errors += 1;
            error_bytes += child.byte_range().len();
        }
    }
    errors * 2 > children || error_bytes * 2 > root.byte_range().len()
}

/// Which references [`in_configuration`] is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Precheck {
    /// Those inside a configuration span.
    Spans,
    /// Every one (the oracle of the pre-check's test).
    #[cfg_attr(not(test), allow(dead_code))]
    None,
}

/// Whether a `@configuration` capture can hold configuration predicates: every attribute, and
/// the invocations of `cfg!` (as [`in_configuration`] tells them).
fn is_configuration(node: Node, source: &[u8]) -> bool {
    node.kind() != "macro_invocation" || is_cfg_macro(node, source)
}

fn is_cfg_macro(invocation: Node, source: &[u8]) -> bool {
    invocation
        .child_by_field_name("macro")
        .and_then(|m| m.utf8_text(source).ok())
        .is_some_and(|m| m == "cfg" || m.ends_with("::cfg"))
}

/// Byte spans, asked whether one of them contains a range.
#[derive(Default)]
struct Spans {
    spans: Vec<std::ops::Range<usize>>,
    /// After [`Spans::done`]: the largest end among the spans up to each (sorted by start).
    reach: Vec<usize>,
}

impl Spans {
    fn push(&mut self, span: std::ops::Range<usize>) {
        self.spans.push(span);
    }

    fn done(mut self) -> Self {
        self.spans.sort_unstable_by_key(|span| span.start);
        let mut reach = 0;
        self.reach = self
            .spans
            .iter()
            .map(|span| {
                reach = reach.max(span.end);
                reach
            })
            .collect();
        self
    }

    /// Whether a span contains `range`: one starting at or before it reaches its end.
    fn contain(&self, range: std::ops::Range<usize>) -> bool {
        let starting_before = self.spans.partition_point(|span| span.start <= range.start);
        starting_before > 0 && self.reach[starting_before - 1] >= range.end
    }
}

/// Whether a Rust name sits in an attribute (`#[cfg(all(unix, feature = "x"))]`) or a
/// `cfg!(…)`: configuration predicates, not uses. Read as calls, `all` and `any` joined most of
/// tokio into one cohort (115 of 260 files on 1.52..1.53), every file with a `cfg` attribute.
fn in_configuration(grammar: Grammar, node: Node, source: &[u8]) -> bool {
    if grammar != Grammar::Rust {
        return false;
    }
    let mut at = node.parent();
    while let Some(parent) = at {
        match parent.kind() {
            "attribute_item" | "inner_attribute_item" => return true,
            "macro_invocation" => return is_cfg_macro(parent, source),
            "token_tree" | "attribute" => at = parent.parent(),
            _ => return false,
        }
    }
    false
}

fn children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

fn row(node: Node) -> u32 {
    u32::try_from(node.start_position().row).map_or(u32::MAX, |r| r.saturating_add(1))
}

fn end_row(node: Node) -> u32 {
    u32::try_from(node.end_position().row).map_or(u32::MAX, |r| r.saturating_add(1))
}

fn definition(grammar: Grammar, kind: &str, name: &str, node: Node, source: &[u8]) -> Definition {
    // Rust data shapes are their fields: changing one changes the contract. For everything
    // else the signature ends where the body begins.
    let whole = grammar == Grammar::Rust
        && matches!(
            node.kind(),
            "struct_item" | "enum_item" | "union_item" | "type_item"
        );
    let body = if whole {
        None
    } else {
        node.child_by_field_name("body").or_else(|| match grammar {
            // `defmodule X do … end`, `def f(x) do … end`: the block is a child, not a field.
            Grammar::Elixir => children(node).into_iter().find(|c| c.kind() == "do_block"),
            // An equation's right-hand side (`= expr`, guards) is its body.
            Grammar::Haskell => node.child_by_field_name("match"),
            _ => None,
        })
    };
    let (end_byte, last_signature_row) = match body.and_then(|b| b.prev_sibling()) {
        Some(before_body) => (
            body.map_or(node.end_byte(), |b| b.start_byte()),
            end_row(before_body),
        ),
        None => (node.end_byte(), end_row(node)),
    };
    let text = String::from_utf8_lossy(&source[node.start_byte()..end_byte]);
    Definition {
        name: name.to_string(),
        kind: kind.to_string(),
        first_row: row(node),
        last_row: end_row(node),
        signature_rows: (row(node), last_signature_row.max(row(node))),
        signature: text.split_whitespace().collect::<Vec<_>>().join(" "),
        public: is_public(grammar, name, node, source),
        overload: overload::parameter_types(grammar, node, source),
    }
}

/// The public-API rule of each language: Rust `pub` (not `pub(crate)`), Python top-level names
/// without a leading underscore, Go capitalised names, Java `public`, JS/TS `export`; C and C++
/// everything without `static` outside an anonymous namespace, C# `public` or `protected` (an
/// interface's members without a modifier), Kotlin and PHP everything not `private`,
/// `internal` or `protected`-only by keyword, Ruby methods not under a bare `private` or
/// `protected` in their class body.
pub(super) fn is_public(grammar: Grammar, name: &str, node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    if is_local(grammar, node) {
        return false;
    }
    match grammar {
        Grammar::Rust => {
            let mut cursor = node.walk();
            node.children(&mut cursor).any(|child| {
                child.kind() == "visibility_modifier" && child.utf8_text(source) == Ok("pub")
            })
        }
        Grammar::Python => python_public(name, node),
        Grammar::Go => name.chars().next().is_some_and(char::is_uppercase),
        Grammar::Java => {
            let mut cursor = node.walk();
            node.children(&mut cursor).any(|child| {
                child.kind() == "modifiers"
                    && child
                        .utf8_text(source)
                        .is_ok_and(|m| m.split_whitespace().any(|w| w == "public"))
            })
        }
        Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx => {
            has_ancestor(node, |current| current.kind() == "export_statement")
        }
        Grammar::C | Grammar::Cpp => c_public(node, source),
        Grammar::CSharp => csharp_public(node, source),
        Grammar::Kotlin => !children(node)
            .into_iter()
            .filter(|c| c.kind() == "modifiers")
            .flat_map(children)
            .any(|m| {
                m.kind() == "visibility_modifier" && matches!(text(m), "private" | "internal")
            }),
        Grammar::Php => !children(node)
            .into_iter()
            .any(|c| c.kind() == "visibility_modifier" && text(c) == "private"),
        Grammar::Ruby => ruby_public(name, node, source),
        Grammar::Swift => swift_public(node, source),
        // A leading underscore is library-private.
        Grammar::Dart => !name.starts_with('_'),
        // `private`, `private[pkg]`, `protected` and `protected[pkg]` are not the API.
        Grammar::Scala => !children(node)
            .into_iter()
            .filter(|c| c.kind() == "modifiers")
            .flat_map(children)
            .any(|m| m.kind() == "access_modifier"),
        Grammar::Elixir => elixir_public(node, source),
        Grammar::Lua => lua_public(node, source),
        Grammar::Zig => children(node).iter().any(|c| text(*c) == "pub"),
        Grammar::Haskell => haskell_exported(name, node, source),
        // Implementation files carry no API (see `surface::scope`); headers are read as C.
        Grammar::ObjectiveC => true,
        // What a module defines is public unless an `.mli` narrows it (then the `.ml` is not
        // read as API at all); what an interface declares is public.
        Grammar::OCaml | Grammar::OCamlInterface => true,
    }
}

/// Whether an ancestor of `node` (not `node` itself) is one `is` accepts.
fn has_ancestor(node: Node, is: impl Fn(Node) -> bool) -> bool {
    let mut ancestor = node.parent();
    while let Some(current) = ancestor {
        if is(current) {
            return true;
        }
        ancestor = current.parent();
    }
    false
}

/// Python: a module-level name (decorated or not) without a leading underscore.
fn python_public(name: &str, node: Node) -> bool {
    let mut parent = node.parent();
    if parent.is_some_and(|p| p.kind() == "decorated_definition") {
        parent = parent.and_then(|p| p.parent());
    }
    !name.starts_with('_') && parent.is_some_and(|p| p.kind() == "module")
}

/// C and C++: not `static`, and outside an anonymous namespace.
fn c_public(node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    // The tag is on the declarator; `static` is on the declaration around it.
    let mut declaration = node;
    while !matches!(
        declaration.kind(),
        "function_definition" | "declaration" | "field_declaration" | "type_definition"
    ) {
        match declaration.parent() {
            Some(parent) if parent.kind() != "translation_unit" => declaration = parent,
            _ => break,
        }
    }
    let is_static = children(declaration)
        .iter()
        .any(|c| c.kind() == "storage_class_specifier" && text(*c) == "static");
    let anonymous_namespace = has_ancestor(node, |current| {
        current.kind() == "namespace_definition" && current.child_by_field_name("name").is_none()
    });
    !anonymous_namespace && !is_static
}

/// C#: `public` or `protected`; an interface's members without a modifier; namespaces.
fn csharp_public(node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    if node.kind().contains("namespace_declaration") {
        return true;
    }
    let modifiers: Vec<&str> = children(node)
        .into_iter()
        .filter(|c| c.kind() == "modifier")
        .map(text)
        .collect();
    if modifiers.is_empty() {
        // Interface members are public without a modifier.
        return node
            .parent()
            .and_then(|p| p.parent())
            .is_some_and(|p| p.kind() == "interface_declaration");
    }
    modifiers
        .iter()
        .any(|m| matches!(*m, "public" | "protected"))
}

/// Ruby: a method not under `private def` nor after a bare `private` (or `protected`) earlier
/// in the same body, and without a leading underscore.
fn ruby_public(name: &str, node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    // `private def helper` or a bare `private` earlier in the same body.
    if node
        .parent()
        .and_then(|p| p.parent())
        .filter(|p| p.kind() == "call")
        .and_then(|p| p.child_by_field_name("method"))
        .is_some_and(|m| text(m) == "private")
    {
        return false;
    }
    let mut sibling = node.prev_named_sibling();
    while let Some(current) = sibling {
        if current.kind() == "identifier" && matches!(text(current), "private" | "protected") {
            return false;
        }
        if current.kind() == "identifier" && text(current) == "public" {
            return true;
        }
        sibling = current.prev_named_sibling();
    }
    !name.starts_with('_')
}

/// Swift: `public` and `open`; the default (`internal`) is the module's own. A protocol's
/// requirements are as public as the protocol.
fn swift_public(node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    if node.kind() == "protocol_function_declaration"
        || node.parent().is_some_and(|p| p.kind() == "protocol_body")
    {
        return true;
    }
    let modifiers = children(node)
        .into_iter()
        .filter(|c| c.kind() == "modifiers")
        .flat_map(children);
    modifiers
        .filter(|m| m.kind() == "visibility_modifier")
        .any(|m| matches!(text(m).split('(').next(), Some("public" | "open")))
}

/// Lua: a module's API is its table's functions (`function M.setup()`, `M.run = function`);
/// a `local function helper` or `local helper = function` is the file's own.
fn lua_public(node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    let local_function = node.kind() == "function_declaration"
        && children(node).first().is_some_and(|c| text(*c) == "local");
    let local_variable = node
        .parent()
        .is_some_and(|p| p.kind() == "variable_declaration");
    !local_function && !local_variable
}

/// Whether a definition lies in a function's (or a value's) body: a local, never API, where
/// the language's rule would make the same definition written as a member public (a Scala or
/// Kotlin member is public unless marked, an OCaml `let` unless an interface narrows it). The
/// others mark their locals already (Swift, C#, Lua) or have none the tags see (Dart); and in Zig a function returning `struct { pub fn … }` is how a
/// generic type is written, so its members are API.
fn is_local(grammar: Grammar, node: Node) -> bool {
    let bodies: &[&str] = match grammar {
        Grammar::Scala => &["function_definition", "val_definition", "var_definition"],
        Grammar::Kotlin => &[
            "function_declaration",
            "property_declaration",
            "anonymous_function",
            "lambda_literal",
            "getter",
            "setter",
        ],
        // A structure passed to a functor (`Make (struct let loc = … end)`) is its argument.
        Grammar::OCaml | Grammar::OCamlInterface => {
            &["let_expression", "value_definition", "module_application"]
        }
        _ => return false,
    };
    let mut ancestor = node.parent();
    while let Some(current) = ancestor {
        if bodies.contains(&current.kind()) {
            return true;
        }
        ancestor = current.parent();
    }
    false
}

/// Elixir: `def`, `defmacro`, `defguard`, `defdelegate` and `defstruct` are public, their `p`
/// forms private; `@doc false` just before a function hides it from the documented API.
fn elixir_public(node: Node, source: &[u8]) -> bool {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    let Some(target) = node.child_by_field_name("target") else {
        return true;
    };
    match text(target) {
        "defmodule" | "defprotocol" => {}
        "defp" | "defmacrop" | "defguardp" | "defnp" => return false,
        _ => {
            let mut sibling = node.prev_named_sibling();
            while let Some(previous) = sibling {
                let attribute = text(previous);
                if !attribute.starts_with('@') {
                    break;
                }
                let words: Vec<&str> = attribute.split_whitespace().collect();
                // `@doc false` hides it; `@impl` marks a behaviour's callback (`terminate`,
                // `init`), which the behaviour calls, not the module's users.
                if words == ["@doc", "false"] || words.first() == Some(&"@impl") {
                    return false;
                }
                sibling = previous.prev_named_sibling();
            }
        }
    }
    true
}

/// Haskell: a module with an export list exports what it names; one without exports every
/// top-level name.
fn haskell_exported(name: &str, node: Node, source: &[u8]) -> bool {
    let mut root = node;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    let mut cursor = root.walk();
    let exports = root
        .children(&mut cursor)
        .find(|c| c.kind() == "header")
        .and_then(|h| h.child_by_field_name("exports"));
    let Some(exports) = exports else {
        return true;
    };
    let listed = exports.utf8_text(source).unwrap_or("");
    listed
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .any(|word| word == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(grammar: Grammar, source: &str) -> FileTags {
        Tagger::default().tags(grammar, source.as_bytes()).unwrap()
    }

    fn defs(tags: &FileTags) -> Vec<(&str, bool)> {
        tags.definitions
            .iter()
            .map(|d| (d.name.as_str(), d.public))
            .collect()
    }

    fn refs(tags: &FileTags) -> Vec<&str> {
        let mut names: Vec<&str> = tags.references.iter().map(|r| r.name.as_str()).collect();
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn rust_definitions_references_and_visibility() {
        let t = tags(
            Grammar::Rust,
            "use crate::diff::{parse, Diff};\n\
             pub struct Report { diff: Diff }\n\
             pub(crate) fn helper() {}\n\
             pub fn build(text: &str) -> Report {\n    let d = parse(text);\n    Report::from_diff(d)\n}\n",
        );
        assert_eq!(
            defs(&t),
            vec![("Report", true), ("helper", false), ("build", true)]
        );
        assert_eq!(refs(&t), vec!["Diff", "Report", "from_diff", "parse"]);
        let build = &t.definitions[2];
        assert_eq!((build.first_row, build.last_row), (4, 7));
        assert_eq!(build.signature_rows, (4, 4));
        assert_eq!(build.signature, "pub fn build(text: &str) -> Report");
    }

    #[test]
    fn rust_configuration_predicates_are_not_uses() {
        // tokio: `all`/`any` in `cfg` attributes read as calls joined every file with one.
        let t = tags(
            Grammar::Rust,
            "#![cfg_attr(docsrs, feature(doc_cfg))]\n\
             #[cfg(all(unix, any(feature = \"net\", not(loom))))]\n\
             fn open() {\n    if cfg!(all(windows, not(miri))) { spawn(task) }\n    assert!(ready(x));\n}\n",
        );
        assert_eq!(refs(&t), vec!["assert", "ready", "spawn"]);
    }

    /// The configuration check asked only of references inside an attribute or a `cfg!` gives
    /// the tags of asking it of every reference: over tricky cases (nested `cfg_attr`, a path
    /// to `cfg!`, a macro inside an attribute, attributes on expressions and fields) and every
    /// Rust file of this repository, whole and read in ranges.
    #[test]
    fn the_configuration_precheck_changes_no_tag() {
        let tricky = "#![cfg_attr(docsrs, feature(doc_cfg))]\n\
             #[cfg_attr(all(unix, feature = \"x\"), derive(Debug), cfg(any(test, not(loom))))]\n\
             struct S { #[cfg(feature = \"y\")] field: Option<u8> }\n\
             #[doc = concat!(\"a\", stringify!(b(c)))]\n\
             fn f() {\n    if std::cfg!(all(windows, not(miri))) { spawn(task) }\n\
             \x20   if core :: cfg!(any(x(y))) {}\n\
             \x20   let v = #[cfg(unix)] call(one);\n\
             \x20   assert!(ready(cfg!(z(w))));\n    cfg!(q(r));\n    not_cfg!(all(u(v)));\n}\n";
        let mut sources = vec![(
            std::path::PathBuf::from("tricky.rs"),
            tricky.as_bytes().to_vec(),
        )];
        sources.extend(repository_rust_sources());
        assert!(sources.len() > 100, "{} files", sources.len());
        let mut tagger = Tagger::default();
        let mut dropped = 0;
        for (path, source) in &sources {
            let tree = tagger.parse(Grammar::Rust, source, None).unwrap();
            let whole = || std::iter::once(0..usize::MAX);
            // Ranges of 500 bytes, every other one: matches cut by a range's edge.
            let pieces = || (0..source.len()).step_by(1000).map(|at| at..at + 500);
            for (checked, oracle) in [
                (
                    tagger.tags_checked(Grammar::Rust, &tree, source, whole(), Precheck::Spans),
                    tagger.tags_checked(Grammar::Rust, &tree, source, whole(), Precheck::None),
                ),
                (
                    tagger.tags_checked(Grammar::Rust, &tree, source, pieces(), Precheck::Spans),
                    tagger.tags_checked(Grammar::Rust, &tree, source, pieces(), Precheck::None),
                ),
            ] {
                assert_eq!(checked, oracle, "{}", path.display());
            }
            let with_cfg = tagger.tags(Grammar::Rust, source).unwrap().references.len();
            dropped += usize::from(with_cfg < oracle_count(&mut tagger, &tree, source));
        }
        // The check did drop references: the comparison is not between two empty answers.
        assert!(dropped > 10, "{dropped}");
        let t = tags(Grammar::Rust, tricky);
        let found = refs(&t);
        for predicate in [
            "unix", "windows", "miri", "loom", "test", "feature", "q", "r",
        ] {
            assert!(!found.contains(&predicate), "{predicate}: {found:?}");
        }
        for call in ["spawn", "ready", "z", "u", "not_cfg"] {
            assert!(found.contains(&call), "{call}: {found:?}");
        }
    }

    /// Every Rust file of this repository, with its path.
    fn repository_rust_sources() -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let mut sources = Vec::new();
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let mut dirs = vec![
            root.join("src"),
            root.join("crates"),
            root.join("tests"),
            root.join("benches"),
        ];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read(&path).unwrap();
                    sources.push((path, text));
                }
            }
        }
        sources
    }

    /// The walk of `rust_tags` finds the Rust tag query's matches, in its order: on snippets
    /// for each pattern (a name before a group in a macro, with a token or a comment between;
    /// an impl with and without a trait; methods, which two patterns match; use trees; paths
    /// with a capitalised or a lower-case head), on broken and macro-heavy text, and on every
    /// Rust file of this repository, each also cut short (error recovery).
    #[test]
    fn the_walk_finds_what_the_query_finds() {
        let snippets = [
            "macro_rules! m { ($x:ident) => { call($x) }; }\n\
             fn f() { assert!(ready(one), \"x\"); check!(a ! (b)); look!(c /* x */ (d)); look!(e, (f)); }\n",
            "pub struct A<T> { x: T }\npub enum E { V(B) }\nunion U { a: u8 }\ntype T = Vec<u8>;\n\
             trait Tr { fn sig(&self) -> C; const K: u8; }\nimpl Tr for A<u8> { fn sig(&self) -> C { todo!() } }\n\
             impl A<u8> { pub fn m(&self) {} }\nimpl<X> Tr for X where X: Copy {}\nmod inner { pub(crate) fn g() {} }\n\
             static S: u8 = 1;\nconst C2: Option<D> = None;\n",
            "use a::b::{c, d::e, f as g, h::{i, J}};\nuse k::l;\nuse m::n as o;\nuse self::p;\n\
             fn q() { let v = Vec::new(); std::mem::drop(v); x.y.z(1); (w.z)(2); Config::default(); \
             module::func(); <T as Tr>::sig(&t); r#type(); }\n",
            "cfg_rt! { pub fn spawn<F>(f: F) -> JoinHandle<F::Output> { inner(f) } }\n\
             #[cfg(all(unix, feature = \"net\"))]\nimpl AsRawFd for S { fn as_raw_fd(&self) -> RawFd { self.0 } }\n",
            "fn broken( { let x = ; struct }\nimpl for {}\nuse ::{;\npub fn ok() -> Ty { call(1) }\n",
            "",
        ];
        let mut sources: Vec<(String, Vec<u8>)> = snippets
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("snippet {i}"), s.as_bytes().to_vec()))
            .collect();
        for (path, text) in repository_rust_sources() {
            let cut = text[..text.len() / 3].to_vec();
            sources.push((format!("{} (first third)", path.display()), cut));
            sources.push((path.display().to_string(), text));
        }
        assert!(sources.len() > 200, "{} files", sources.len());
        let mut tagger = Tagger::default();
        let mut kinds = std::collections::BTreeSet::new();
        for (what, source) in &sources {
            let tree = tagger.parse(Grammar::Rust, source, None).unwrap();
            let whole = std::iter::once(0..usize::MAX);
            let query = tagger
                .query_matches(Grammar::Rust, &tree, source, whole)
                .unwrap();
            let mut walk = Vec::new();
            super::super::rust_tags::matches(&tree, source, &mut walk);
            assert_eq!(walk, query, "{what}");
            kinds.extend(walk.iter().map(|found| match found {
                Found::Configuration(_) => "configuration".to_string(),
                Found::Tag {
                    definition, kind, ..
                } => format!("{definition} {kind}"),
            }));
        }
        // Every kind of tag the query gives was compared.
        assert_eq!(kinds.len(), 12, "{kinds:?}");
    }

    /// The ranged walk of `rust_tags` finds what a query cursor limited to each range in turn
    /// finds, in its order: on every Rust file of this repository (and each cut short), with
    /// ranges of every length (empty ones, one from the start, one to the end, 0..0 which the
    /// cursor reads as the whole file) at places that vary with the file.
    #[test]
    fn the_ranged_walk_finds_what_the_ranged_query_finds() {
        let mut tagger = Tagger::default();
        let mut compared = 0;
        let mut sources = Vec::new();
        for (path, text) in repository_rust_sources() {
            sources.push((
                format!("{} (first third)", path.display()),
                text[..text.len() / 3].to_vec(),
            ));
            sources.push((path.display().to_string(), text));
        }
        for (what, source) in &sources {
            let tree = tagger.parse(Grammar::Rust, source, None).unwrap();
            let len = source.len();
            // A cheap generator seeded by the file, so each file is cut at other places.
            let mut seed = len.wrapping_mul(2_654_435_761) | 1;
            let mut next = |below: usize| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed % below.max(1)
            };
            let mut cases: Vec<Vec<std::ops::Range<usize>>> = vec![
                vec![0..0],
                vec![0..len.min(10)],
                vec![len.saturating_sub(10)..len],
                // Out of order.
                vec![len / 2..len, 0..len.min(5)],
            ];
            for _ in 0..6 {
                let mut ranges = Vec::new();
                let mut at = next(len / 4 + 1);
                while at < len && ranges.len() < 8 {
                    let end = (at + next(400)).min(len);
                    ranges.push(at..end);
                    at = end + 1 + next(len / 3 + 1);
                }
                cases.push(ranges);
            }
            for ranges in cases {
                let query = tagger
                    .query_matches(Grammar::Rust, &tree, source, ranges.iter().cloned())
                    .unwrap();
                let mut walk = Vec::new();
                super::super::rust_tags::matches_within(&tree, source, &ranges, &mut walk);
                assert_eq!(walk, query, "{what} {ranges:?}");
                compared += query.len();
            }
        }
        assert!(compared > 10_000, "{compared} matches");
    }

    /// The references of `tree` with no configuration check at all.
    fn oracle_count(tagger: &mut Tagger, tree: &Tree, source: &[u8]) -> usize {
        let query = Grammar::Rust.query();
        let name = query.capture_index_for_name("name").unwrap();
        let names = query.capture_names();
        let mut seen = HashSet::new();
        let mut matches = tagger.cursor.matches(query, tree.root_node(), source);
        while let Some(found) = matches.next() {
            let is_reference = found
                .captures
                .iter()
                .any(|c| names[c.index as usize].starts_with("reference."));
            if let Some(c) = found.captures.iter().find(|c| c.index == name)
                && is_reference
            {
                seen.insert((c.node.utf8_text(source).unwrap_or(""), row(c.node)));
            }
        }
        seen.len()
    }

    #[test]
    fn other_languages_public_rules() {
        let py = tags(
            Grammar::Python,
            "def load(p):\n    return _read(p)\n\ndef _read(p):\n    pass\n\nclass A:\n    def m(self):\n        pass\n",
        );
        assert_eq!(
            defs(&py),
            vec![("load", true), ("_read", false), ("A", true), ("m", false)]
        );
        let go = tags(
            Grammar::Go,
            "package p\n\nfunc Parse() int { return helper() }\nfunc helper() int { return 1 }\n",
        );
        assert_eq!(defs(&go), vec![("Parse", true), ("helper", false)]);
        assert_eq!(refs(&go), vec!["helper", "int"]);
        let js = tags(
            Grammar::JavaScript,
            "import { parse } from './p';\nexport function run(x) { return parse(x); }\nfunction local() {}\n",
        );
        assert_eq!(defs(&js), vec![("run", true), ("local", false)]);
        assert_eq!(refs(&js), vec!["parse"]);
        let ts = tags(
            Grammar::TypeScript,
            "export interface Shape { area(): number }\nexport type Id = string;\nfunction f(s: Shape): Id { return s.area() as Id; }\n",
        );
        assert!(defs(&ts).contains(&("Shape", true)));
        assert!(defs(&ts).contains(&("Id", true)));
        assert!(refs(&ts).contains(&"Shape"));
        let java = tags(
            Grammar::Java,
            "public class Box {\n  public int size() { return Util.count(this); }\n  private void hide() {}\n}\n",
        );
        assert_eq!(
            defs(&java),
            vec![("Box", true), ("size", true), ("hide", false)]
        );
        assert!(refs(&java).contains(&"Util"));
    }

    #[test]
    fn the_six_added_languages_definitions_references_and_visibility() {
        let c = tags(
            Grammar::C,
            "#include \"store.h\"\n\nstatic int helper(struct store *s) { return 0; }\n\nint store_get(struct store *s, const char *key) {\n    return lookup(s, key);\n}\n",
        );
        assert_eq!(defs(&c), vec![("helper", false), ("store_get", true)]);
        assert!(refs(&c).contains(&"lookup"), "{:?}", refs(&c));
        assert!(refs(&c).contains(&"store"), "{:?}", refs(&c));
        let cpp = tags(
            Grammar::Cpp,
            "namespace {\nint hidden() { return 1; }\n}\nnamespace kv {\nint open_store(Config c) { return hidden(); }\n}\n",
        );
        assert_eq!(defs(&cpp), vec![("hidden", false), ("open_store", true)]);
        assert!(refs(&cpp).contains(&"Config"), "{:?}", refs(&cpp));
        let cs = tags(
            Grammar::CSharp,
            "namespace Kv {\n  public class Store : IStore {\n    public string Get(string key) { return Lookup(key); }\n    private void Reset() {}\n  }\n  public interface IStore {\n    string Get(string key);\n  }\n}\n",
        );
        let cs_defs = defs(&cs);
        assert!(cs_defs.contains(&("Store", true)), "{cs_defs:?}");
        assert!(cs_defs.contains(&("Reset", false)), "{cs_defs:?}");
        assert_eq!(
            cs_defs.iter().filter(|d| **d == ("Get", true)).count(),
            2,
            "{cs_defs:?}"
        );
        assert!(refs(&cs).contains(&"IStore"), "{:?}", refs(&cs));
        let rb = tags(
            Grammar::Ruby,
            "class Store\n  def fetch(key)\n    lookup(key)\n  end\n\n  private\n\n  def lookup(key)\n  end\nend\n",
        );
        assert_eq!(
            defs(&rb),
            vec![("Store", true), ("fetch", true), ("lookup", false)]
        );
        assert!(refs(&rb).contains(&"lookup"), "{:?}", refs(&rb));
        let php = tags(
            Grammar::Php,
            "<?php\nclass Store {\n    public function fetch($key) { return $this->lookup($key); }\n    private function lookup($key) {}\n}\nfunction make_store() { return new Store(); }\n",
        );
        let php_defs = defs(&php);
        assert!(php_defs.contains(&("fetch", true)), "{php_defs:?}");
        assert!(php_defs.contains(&("lookup", false)), "{php_defs:?}");
        assert!(php_defs.contains(&("make_store", true)), "{php_defs:?}");
        let kt = tags(
            Grammar::Kotlin,
            "package kv\n\nclass Store(private val cfg: Config) {\n    fun fetch(key: String): String? = lookup(key)\n    private fun lookup(key: String): String? = null\n    internal fun reset() {}\n}\n",
        );
        assert_eq!(
            defs(&kt),
            vec![
                ("Store", true),
                ("fetch", true),
                ("lookup", false),
                ("reset", false)
            ]
        );
        assert!(refs(&kt).contains(&"Config"), "{:?}", refs(&kt));
        assert!(refs(&kt).contains(&"lookup"), "{:?}", refs(&kt));
    }

    // date-fns 3.3.1..3.4.0: an index of re-exports (no definitions, no references) with one
    // statement of a syntax newer than the grammar.
    #[test]
    fn an_index_of_reexports_with_one_unknown_statement_is_not_a_parse_failure() {
        let mut tagger = Tagger::default();
        let index = "export * from \"./add/index.js\";\nexport * from \"./addDays/index.js\";\nexport * from \"./addHours/index.js\";\nexport type * from \"./types.js\";\n";
        let tree = tagger
            .parse(Grammar::TypeScript, index.as_bytes(), None)
            .unwrap();
        assert!(
            tree.root_node().has_error(),
            "the grammar learned `export type *`"
        );
        assert!(tagger.tags(Grammar::TypeScript, index.as_bytes()).is_ok());
        // Mostly errors and nothing found: still a failure.
        assert_eq!(
            tagger.tags(Grammar::TypeScript, b"@@@ %%% }}} ((( ### !!!"),
            Err(ParseFailure::Unparsable)
        );
    }

    #[test]
    fn garbage_is_a_parse_failure_but_a_small_error_is_not() {
        let mut tagger = Tagger::default();
        assert_eq!(
            tagger.tags(Grammar::Rust, b"@@@ %%% }}} ((( ### !!!"),
            Err(ParseFailure::Unparsable)
        );
        let recovered = tagger
            .tags(Grammar::Rust, b"fn ok() { call(); }\nfn broken( {\n")
            .unwrap();
        assert!(recovered.definitions.iter().any(|d| d.name == "ok"));
    }
}

#[cfg(test)]
mod new_languages {
    use super::*;

    fn defs(grammar: Grammar, source: &str) -> Vec<(String, bool)> {
        Tagger::default()
            .tags(grammar, source.as_bytes())
            .unwrap()
            .definitions
            .iter()
            .map(|d| (d.name.clone(), d.public))
            .collect()
    }

    fn refs(grammar: Grammar, source: &str) -> Vec<String> {
        let mut names: Vec<String> = Tagger::default()
            .tags(grammar, source.as_bytes())
            .unwrap()
            .references
            .into_iter()
            .map(|r| r.name)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn has(defs: &[(String, bool)], name: &str, public: bool) -> bool {
        defs.iter().any(|(n, p)| n == name && *p == public)
    }

    /// A grammar, a source, the definitions expected with their visibility, and uses.
    type Case<'a> = (Grammar, &'a str, &'a [(&'a str, bool)], &'a [&'a str]);

    #[test]
    fn each_new_language_tags_definitions_uses_and_visibility() {
        let cases: &[Case] = &[
            (
                Grammar::Swift,
                "public struct Parser {\n  public func parse() -> Command { helper() }\n  func helper() -> Int { 1 }\n}\nopen class Base {}\ninternal func local() {}\n",
                &[
                    ("Parser", true),
                    ("parse", true),
                    ("helper", false),
                    ("Base", true),
                    ("local", false),
                ],
                &["Command", "helper"],
            ),
            (
                Grammar::Dart,
                "class Parser {\n  Command parse() => _helper();\n}\nint _helper() => 1;\nvoid run() {}\n",
                &[("Parser", true), ("_helper", false), ("run", true)],
                &["Command"],
            ),
            (
                Grammar::Scala,
                "package a.b\nclass Parser {\n  def parse(): Command = helper()\n  private def helper(): Int = 1\n  private[b] def pkg(): Int = 2\n}\nobject Main\n",
                &[
                    ("Parser", true),
                    ("parse", true),
                    ("helper", false),
                    ("pkg", false),
                    ("Main", true),
                ],
                &["Command", "helper"],
            ),
            (
                Grammar::Elixir,
                "defmodule Parser do\n  def parse(x), do: helper(x)\n  defp helper(x), do: x\n  @doc false\n  def internal(x), do: x\nend\n",
                &[
                    ("Parser", true),
                    ("parse", true),
                    ("helper", false),
                    ("internal", false),
                ],
                &["helper"],
            ),
            (
                Grammar::Lua,
                "local M = {}\nlocal function helper() return 1 end\nfunction M.setup(opts) return helper() end\nreturn M\n",
                &[("helper", false), ("setup", true)],
                &["helper"],
            ),
            (
                Grammar::Zig,
                "pub fn parse() u32 {\n    return helper();\n}\nfn helper() u32 {\n    return 1;\n}\npub const Parser = struct {};\n",
                &[("parse", true), ("helper", false), ("Parser", true)],
                &["helper"],
            ),
            (
                Grammar::Haskell,
                "module Parser (parse, Command) where\n\ndata Command = Run\n\nparse :: String -> Command\nparse s = helper s\n\nhelper :: String -> Command\nhelper _ = Run\n",
                &[("Command", true), ("parse", true), ("helper", false)],
                &["helper"],
            ),
            (
                Grammar::OCaml,
                "let parse s = helper s\ntype command = Run\nmodule Inner = struct end\n",
                &[("parse", true), ("command", true), ("Inner", true)],
                &["helper"],
            ),
            (
                Grammar::OCamlInterface,
                "val parse : string -> command\ntype command\n",
                &[("parse", true), ("command", true)],
                &[],
            ),
            (
                Grammar::ObjectiveC,
                "@implementation Parser\n- (void)parse {\n  [self helper];\n}\n@end\n",
                &[("Parser", true), ("parse", true)],
                &["helper"],
            ),
        ];
        for (grammar, source, expected, uses) in cases {
            let found = defs(*grammar, source);
            for (name, public) in *expected {
                assert!(
                    has(&found, name, *public),
                    "{grammar:?} {name} {public}: {found:?}"
                );
            }
            let used = refs(*grammar, source);
            for name in *uses {
                assert!(
                    used.iter().any(|u| u == name),
                    "{grammar:?} uses {name}: {used:?}"
                );
            }
        }
    }

    /// Definitions expected, with their visibility.
    type Expected<'a> = &'a [(&'a str, bool)];

    /// What a function's (or a value's) body defines is local, never API, though the same
    /// definition written as a member would be public (os-lib #369 removed a `val` inside
    /// `def zip`, which blocked as a removed member). A Zig function returning `struct { pub
    /// fn … }` is a generic type: its members stay public. A Lua module table's field is
    /// defined at the top level whatever its value (plenary v0.1.4 made `M.bind` an alias),
    /// and `local f = function` is the file's own. An OCaml structure passed to a functor
    /// is its argument (ppxlib #518).
    #[test]
    fn definitions_in_a_body_are_local() {
        let cases: &[(Grammar, &str, Expected)] = &[
            (
                Grammar::Scala,
                "object zip {\n  def apply(x: Int): Int = {\n    val mtimeOpt = x\n    def inner(): Int = 1\n    mtimeOpt\n  }\n  val size = { val tmp = 1; tmp }\n}\n",
                &[
                    ("apply", true),
                    ("mtimeOpt", false),
                    ("inner", false),
                    ("size", true),
                    ("tmp", false),
                ],
            ),
            (
                Grammar::Kotlin,
                "class Zip {\n  fun apply(x: Int): Int {\n    val local = x\n    fun inner() = 1\n    return local\n  }\n  val size = 1\n}\n",
                &[
                    ("apply", true),
                    ("local", false),
                    ("inner", false),
                    ("size", true),
                ],
            ),
            (
                Grammar::OCaml,
                "let parse s =\n  let helper x = x in\n  helper s\nmodule Inner = struct\n  let size = 1\nend\nmodule type S = sig\n  include module type of Make (struct\n    let loc = none\n  end)\nend\n",
                &[
                    ("parse", true),
                    ("helper", false),
                    ("size", true),
                    ("loc", false),
                ],
            ),
            (
                Grammar::Lua,
                "local M = {}\nlocal helper = function() return 1 end\nM.bind = require(\"plenary.functional\").partial\nM.VERSION = \"1.0\"\nfunction M.run()\n  M.state = 1\nend\nreturn M\n",
                &[
                    ("helper", false),
                    ("bind", true),
                    ("VERSION", true),
                    ("run", true),
                ],
            ),
            (
                Grammar::Zig,
                "pub fn List(comptime T: type) type {\n    return struct {\n        pub fn append(self: *@This(), x: T) void { _ = self; _ = x; }\n    };\n}\n",
                &[("List", true), ("append", true)],
            ),
        ];
        for (grammar, source, expected) in cases {
            let found = defs(*grammar, source);
            for (name, public) in *expected {
                assert!(
                    has(&found, name, *public),
                    "{grammar:?} {name} {public}: {found:?}"
                );
            }
        }
    }

    /// A module's or an equation's signature stops where its body begins: editing the body
    /// is not a declaration change.
    #[test]
    fn elixir_and_haskell_signatures_stop_at_the_body() {
        let signatures = |grammar: Grammar, source: &str| -> Vec<String> {
            Tagger::default()
                .tags(grammar, source.as_bytes())
                .unwrap()
                .definitions
                .into_iter()
                .map(|d| d.signature)
                .collect()
        };
        assert_eq!(
            signatures(
                Grammar::Elixir,
                "defmodule Parser do\n  def parse(x) do\n    x\n  end\nend\n"
            ),
            ["defmodule Parser", "def parse(x)"]
        );
        let haskell = signatures(
            Grammar::Haskell,
            "module P where\n\nparse :: Int -> Int\nparse x = x + 1\n",
        );
        assert!(haskell.iter().any(|s| s == "parse x"), "{haskell:?}");
    }
}
