//! The public surface of one source file, read from its syntax tree: every exported item with
//! the parts of it a caller depends on (kind, parameters, return type, generics, public fields,
//! variants, members), and nothing else. Bodies, comments, docs, formatting, private members,
//! constant values and attributes that do not change the contract never reach it, so two
//! versions of a file compare structurally (`compare`).
//!
//! One folder per language under `lang`, each implementing `lang::Language` and registered
//! in `lang::LANGUAGES`: Rust, Python, JavaScript and TypeScript, Go and Java have surface
//! rules of their own; the others have the symbol index's public definitions only
//! (`lang::tagged`), whose changed signatures warn and never fail. Which files and modules
//! are exported at all is [`scope`]'s question, answered by each language's rule; the deterministic `apiContract` axis that compares two versions' surfaces is
//! `contract`, with the releases and version bumps it weighs (`releases`, `version`).

pub(crate) mod advisory;
pub(crate) mod callers;
mod changelog;
pub(crate) mod compare;
pub(crate) mod contract;
pub mod declared;
mod deleted;
mod dotnet_program;
mod lang;
mod paths;
mod promise;
pub(crate) mod releases;
pub(crate) mod scope;
pub(crate) mod sources;
#[cfg(test)]
mod tests;
mod text;
pub(crate) mod version;
pub(crate) mod visibility;

pub use scope::scope;

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::{Parser, Tree};

use crate::parse::grammar::Grammar;
use lang::script;

/// How a parameter binds at a call site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `self`, `&self`, `&mut self`; a Go receiver is not a parameter.
    Receiver,
    /// Binds by position only (every language but Python's ordinary parameters).
    Positional,
    /// JavaScript's untyped parameter: binds by position, and a call may leave it out (it is
    /// then `undefined`): the language checks no arity, so whether a call without it still
    /// works is the body's to say.
    Unchecked,
    /// Python: by position or by name.
    PositionalOrKeyword,
    /// Python after `*` or `*args`.
    KeywordOnly,
    /// `...rest`, `*args`, `T...`: any number of trailing positional arguments.
    Variadic,
    /// Python `**kwargs`.
    VariadicKeyword,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: Option<String>,
    /// Canonical type text where the language writes one (see [`text::canonical`]).
    pub ty: Option<String>,
    pub kind: ParamKind,
    /// Has a default or is marked optional: callers may leave it out.
    pub optional: bool,
}

/// One exported item. Members (fields, variants, methods) are items of their own, keyed
/// `Parent::member`, so a change to one of them is reported by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// `fn`, `struct`, `enum`, `trait`, `field`, `variant`, `method`, `class`, `interface`,
    /// `type`, `const`, `property`...
    pub kind: &'static str,
    /// Parameters of a callable; `None` for data.
    pub params: Option<Vec<Param>>,
    /// The return type where written.
    pub ret: Option<String>,
    /// Type parameters, bounds and where clauses, canonical.
    pub generics: String,
    /// Everything else a user depends on: a field's type, an alias's target, modifiers that
    /// change the contract (`async`, `unsafe`, `static`, `final`, `abstract`).
    pub shape: String,
    /// A member an implementor must provide (a trait method without a default, an abstract
    /// interface method): adding one breaks every implementation.
    pub required: bool,
    /// Adding a member breaks users: an exhaustive Rust enum (matches), a struct whose fields
    /// are all public (struct literals), a Java interface (implementations).
    pub closed: bool,
    /// Only its own package can implement it (a Rust trait with a supertrait users cannot
    /// name, a Go interface with an unexported method, a Java `sealed` type): a member every
    /// implementation must now provide breaks none outside.
    pub sealed: bool,
    /// The parent item's key for members.
    pub parent: Option<String>,
    /// Overloaded languages (Java) key each overload by its parameter types; the family is the
    /// key without them, so a changed overload can be matched to the one it replaced.
    pub family: String,
    /// The item as a person reads it, on one line, for the report.
    pub form: String,
}

impl Item {
    pub fn new(kind: &'static str, family: &str, form: String) -> Item {
        Item {
            kind,
            params: None,
            ret: None,
            generics: String::new(),
            shape: String::new(),
            required: false,
            closed: false,
            sealed: false,
            parent: None,
            family: family.to_string(),
            form,
        }
    }
}

/// The exported items of one file, by key, and the names it re-exports from elsewhere (a name
/// that moved out of this file but is still re-exported here has not been removed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surface {
    pub items: BTreeMap<String, Item>,
    pub reexports: BTreeSet<String>,
    /// Transparent aliases this file declares, name → target (`type Completion = string` in
    /// Go, TypeScript and Rust): a type written through one is the same type, so comparisons
    /// resolve them first (see `compare::Types`).
    pub aliases: BTreeMap<String, String>,
    /// Items that exist but are hidden from the documented surface (Rust `#[doc(hidden)]`):
    /// one that becomes hidden is still there for its callers, and one that is no longer
    /// hidden is not new.
    pub hidden: BTreeSet<String>,
    /// Members a method assigns on the instance (Python `self.limit = limit`), keyed like a
    /// member (`Parser.limit`): not declared on the class, yet every instance has them, so a
    /// class attribute that moved into `__init__` is still read the same from an instance.
    pub instance_attributes: BTreeSet<String>,
    /// Defined types over a type literal, name → literal (Go `type CompletionFunc func(…)`): a
    /// value of the literal type is assignable to the named one and back.
    pub underlying: BTreeMap<String, String>,
    /// The base classes of each class, by the class's key, as written (`click.Group`): a
    /// method a class no longer overrides may still be inherited from one of them.
    pub bases: BTreeMap<String, Vec<String>>,
    /// Module-level names a Python module's `__getattr__` (PEP 562) still answers with a value
    /// (`if name in {"LazyFile", …}: warn(…); return …`): a definition renamed, moved or
    /// deprecated this way is still importable and readable under its old name.
    pub served: BTreeSet<String>,
    /// Items bound under one key in kinds that differ, each as read (structlog's
    /// `rich_traceback`: a `def` raising when Rich is missing, else a formatter instance):
    /// definitions in alternative branches, of which the environment picks one.
    pub alternatives: BTreeMap<String, Vec<Item>>,
    /// Module-level names a Python module defines only for type checkers (under `if
    /// TYPE_CHECKING:`): there for annotations, gone at run time (tomlkit's `Encoder`, a
    /// `Callable` alias made a `Protocol` class for type checkers).
    pub typing_only: BTreeSet<String>,
    /// The names a Python module's `__all__` lists, when it declares one that can be read:
    /// its public names, as the module states them.
    pub declared_names: Option<BTreeSet<String>>,
    /// Rust items written inside macro calls, by key, with the names of those macros
    /// (`cfg_metrics! { … }`): whether a macro puts its items behind an opt-in `cfg` is read
    /// from its definition, elsewhere in the crate (see `lang::rust::scope::crate_unstable_macros`).
    pub in_macro: BTreeMap<String, BTreeSet<String>>,
    /// Rust macro calls inside a type's inherent `impl` blocks, by the type's key: a method
    /// the head no longer writes may still be generated by one (see `lang::rust::generated`).
    pub(crate) impl_macros: BTreeMap<String, Vec<lang::rust::generated::ImplMacro>>,
    /// Rust types defined in another file whose inherent methods this file's `impl` blocks
    /// define (`mod render;` holding `impl Terminal { pub fn draw … }`), though the file does
    /// not export their names: those methods are public wherever they live if the type is,
    /// which only the type's own file tells (see `lang::rust::foreign`).
    pub foreign_impls: BTreeSet<String>,
    /// Java types by key with the annotations written on them that do not by their name
    /// close the type to implementation (`@Internal`, `@Beta`): a project's own annotation may
    /// say so in its documentation (see `lang::java::closed`).
    pub annotated: BTreeMap<String, Vec<String>>,
    /// Python `@overload` signatures by the key of the function they describe, as read; folded
    /// into that function's item once the file is read (see [`OVERLOADED`]).
    pub overloads: BTreeMap<String, Vec<String>>,
    /// Read from the symbol index's tags (names and signature text), not by a surface rule of
    /// the language: a change to it is reported, never a proven break (see [`tagged`]).
    pub by_tags: bool,
    /// Read from tags by a visibility rule that names the public items exactly (Swift
    /// `public`, Elixir `def`, a Haskell export list…): a public name gone from the file is a
    /// proven removal, while a changed signature text still only warns.
    pub removals_proven: bool,
    /// Whether the file's names are API at all is undecided, and why (a Go file only a build
    /// given its own tag compiles): every change is named, none proven a break.
    pub undecided_scope: Option<&'static str>,
}

/// How the shape of an overloaded Python function begins: its typed contract is the set of
/// its `@overload` signatures (written after this), not the implementation's own signature,
/// which type checkers never show callers (pydantic's `Field`, `field_serializer`).
pub const OVERLOADED: &str = "overloads: ";

impl Surface {
    /// This surface without the items written in any of `macros` (and their members).
    pub fn without_macro_items(&mut self, macros: &BTreeSet<String>) {
        let gone: BTreeSet<String> = self
            .in_macro
            .iter()
            .filter(|(_, names)| names.iter().any(|n| macros.contains(n)))
            .map(|(key, _)| key.clone())
            .collect();
        if gone.is_empty() {
            return;
        }
        self.items.retain(|key, item| {
            !gone.contains(key) && !item.parent.as_ref().is_some_and(|p| gone.contains(p))
        });
    }

    fn add(&mut self, key: String, item: Item) {
        // Two items under one key (a Rust method in two `impl` blocks under different `cfg`s,
        // TypeScript overload signatures) are one item whose form holds both.
        match self.items.get_mut(&key) {
            // TypeScript declaration merging: a namespace adds members to the function or
            // class of its name, which is the item.
            Some(_) if item.kind == script::extract::NAMESPACE => {}
            Some(existing) if existing.kind == script::extract::NAMESPACE => *existing = item,
            Some(existing) if existing != &item => {
                if existing.kind != item.kind {
                    let alternatives = self.alternatives.entry(key.clone()).or_default();
                    if alternatives.is_empty() {
                        alternatives.push(existing.clone());
                    }
                    alternatives.push(item.clone());
                }
                if !existing.form.contains(&item.form) {
                    existing.form = format!("{} | {}", existing.form, item.form);
                    existing.shape = format!("{} | {}", existing.shape, item_digest(&item));
                }
            }
            Some(_) => {}
            None => {
                self.items.insert(key, item);
            }
        }
    }
}

fn item_digest(item: &Item) -> String {
    format!(
        "{:?}{:?}{}{}",
        item.params, item.ret, item.generics, item.shape
    )
}

/// Why a file's surface could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreadable;

/// Extracts the exported items of `source`, written in `grammar`'s language. `exported`
/// answers whether a top-level name counts (the file's module may be private with only some
/// names re-exported, see [`scope`]).
pub fn extract(
    grammar: Grammar,
    source: &[u8],
    exported: &dyn Fn(&str) -> bool,
) -> Result<Surface, Unreadable> {
    // A header declaring Objective-C is read with its own grammar, structurally (the index
    // reads every `.h` as C).
    if grammar == Grammar::C && lang::objc::header::declares_objective_c(source) {
        let mut surface = Surface {
            by_tags: true,
            removals_proven: true,
            ..Surface::default()
        };
        lang::objc::header::extract(source, exported, &mut surface)?;
        return Ok(surface);
    }
    if let Some(reading) = lang::of(grammar).and_then(|language| language.tags()) {
        let mut surface = Surface::default();
        lang::tagged::extract(grammar, reading, source, exported, &mut surface)?;
        return Ok(surface);
    }
    let mut parser = Parser::new();
    parser
        .set_language(&grammar.language())
        .map_err(|_| Unreadable)?;
    let tree = parser.parse(source, None).ok_or(Unreadable)?;
    extract_tree(grammar, &tree, source, exported)
}

/// [`extract`] from `tree`, `source`'s syntax tree in `grammar`, for a language with a surface
/// rule (`by_tags_only(grammar)` is `None`; the others are read from tags, not from a tree).
pub fn extract_tree(
    grammar: Grammar,
    tree: &Tree,
    source: &[u8],
    exported: &dyn Fn(&str) -> bool,
) -> Result<Surface, Unreadable> {
    let root = tree.root_node();
    // Tree-sitter recovers from almost anything; a file that is mostly errors is unreadable.
    if root.has_error() && root.named_child_count() > 0 {
        let mut cursor = root.walk();
        let children: Vec<_> = root.named_children(&mut cursor).collect();
        let errors = children.iter().filter(|c| c.is_error()).count();
        if errors * 2 > children.len() {
            return Err(Unreadable);
        }
    }
    let mut surface = Surface::default();
    // The languages without a rule are read from the tags (see `extract`).
    if let Some(language) = lang::of(grammar) {
        language.extract_tree(tree, text::Src(source), exported, &mut surface);
    }
    Ok(surface)
}

/// The name of a language whose surface is read from the symbol index's tags only, for the
/// report; `None` for the languages with a surface rule.
pub fn by_tags_only(grammar: Grammar) -> Option<&'static str> {
    Some(lang::of(grammar)?.tags()?.name)
}
