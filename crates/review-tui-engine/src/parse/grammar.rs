//! The twenty-one grammars with a symbol index, and the tag queries run over them.
//!
//! Each grammar crate ships a `tags.scm` query (definitions with `@definition.*`, uses with
//! `@reference.*`). The stock queries only see calls, so a type used in a signature or a
//! function imported by `use` would not join two files; the small queries appended here add
//! those uses. Queries are compiled once per process: compiling the TypeScript one takes
//! milliseconds, parsing a file takes microseconds.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tree_sitter::{Language as TsLanguage, Query};

use crate::diff::Language;

/// A grammar with a tag query. TypeScript and TSX are two grammars of one crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grammar {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    CSharp,
    Ruby,
    Php,
    Kotlin,
    Swift,
    Dart,
    Scala,
    Elixir,
    Lua,
    Haskell,
    ObjectiveC,
    Zig,
    OCaml,
    /// `.mli`: an OCaml interface, a grammar of its own in the same crate.
    OCamlInterface,
}

impl Grammar {
    pub const ALL: [Grammar; 23] = [
        Grammar::Rust,
        Grammar::Python,
        Grammar::JavaScript,
        Grammar::TypeScript,
        Grammar::Tsx,
        Grammar::Go,
        Grammar::Java,
        Grammar::C,
        Grammar::Cpp,
        Grammar::CSharp,
        Grammar::Ruby,
        Grammar::Php,
        Grammar::Kotlin,
        Grammar::Swift,
        Grammar::Dart,
        Grammar::Scala,
        Grammar::Elixir,
        Grammar::Lua,
        Grammar::Haskell,
        Grammar::ObjectiveC,
        Grammar::Zig,
        Grammar::OCaml,
        Grammar::OCamlInterface,
    ];

    /// The grammar for a file the diff model classified as `language`; `None` for languages
    /// without an index (they are grouped by path, never mixed into semantic cohorts).
    pub fn for_file(path: &str, language: Language) -> Option<Grammar> {
        Some(match language {
            Language::Rust => Grammar::Rust,
            Language::Python => Grammar::Python,
            Language::JavaScript => Grammar::JavaScript,
            Language::TypeScript if path.to_ascii_lowercase().ends_with(".tsx") => Grammar::Tsx,
            Language::TypeScript => Grammar::TypeScript,
            Language::Go => Grammar::Go,
            Language::Java => Grammar::Java,
            Language::C => Grammar::C,
            Language::Cpp => Grammar::Cpp,
            Language::CSharp => Grammar::CSharp,
            Language::Ruby => Grammar::Ruby,
            Language::Php => Grammar::Php,
            Language::Kotlin => Grammar::Kotlin,
            Language::Swift => Grammar::Swift,
            Language::Dart => Grammar::Dart,
            Language::Scala => Grammar::Scala,
            Language::Elixir => Grammar::Elixir,
            Language::Lua => Grammar::Lua,
            Language::Haskell => Grammar::Haskell,
            Language::ObjectiveC => Grammar::ObjectiveC,
            Language::Zig => Grammar::Zig,
            Language::OCaml if path.to_ascii_lowercase().ends_with(".mli") => {
                Grammar::OCamlInterface
            }
            Language::OCaml => Grammar::OCaml,
            _ => return None,
        })
    }

    /// The grammar for a path found while walking the worktree (by name only).
    pub fn for_path(path: &str) -> Option<Grammar> {
        Grammar::for_file(path, Language::from_path(path))
    }

    pub fn language(self) -> TsLanguage {
        match self {
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Grammar::Go => tree_sitter_go::LANGUAGE.into(),
            Grammar::Java => tree_sitter_java::LANGUAGE.into(),
            Grammar::C => tree_sitter_c::LANGUAGE.into(),
            Grammar::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Grammar::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Grammar::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            // `.php` files open in HTML mode (`<?php` … `?>`): the grammar with the text.
            Grammar::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Grammar::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
            Grammar::Swift => tree_sitter_swift::LANGUAGE.into(),
            Grammar::Dart => tree_sitter_dart::LANGUAGE.into(),
            Grammar::Scala => tree_sitter_scala::LANGUAGE.into(),
            Grammar::Elixir => tree_sitter_elixir::LANGUAGE.into(),
            Grammar::Lua => tree_sitter_lua::LANGUAGE.into(),
            Grammar::Haskell => tree_sitter_haskell::LANGUAGE.into(),
            Grammar::ObjectiveC => tree_sitter_objc::LANGUAGE.into(),
            Grammar::Zig => tree_sitter_zig::LANGUAGE.into(),
            // `.mli` interfaces have a grammar of their own.
            Grammar::OCaml => tree_sitter_ocaml::LANGUAGE_OCAML.into(),
            Grammar::OCamlInterface => tree_sitter_ocaml::LANGUAGE_OCAML_INTERFACE.into(),
        }
    }

    /// The stock tags query followed by ours. TypeScript's own `tags.scm` only lists what it
    /// adds to JavaScript's (the tree-sitter CLI layers them), so both are included.
    pub(crate) fn query_source(self) -> String {
        let parts: &[&str] = match self {
            Grammar::Rust => &[tree_sitter_rust::TAGS_QUERY, RUST_EXTRA],
            Grammar::Python => &[tree_sitter_python::TAGS_QUERY, PYTHON_EXTRA],
            Grammar::JavaScript => &[tree_sitter_javascript::TAGS_QUERY, JS_EXTRA, JS_ONLY_EXTRA],
            Grammar::TypeScript | Grammar::Tsx => &[
                tree_sitter_javascript::TAGS_QUERY,
                tree_sitter_typescript::TAGS_QUERY,
                JS_EXTRA,
                TS_EXTRA,
            ],
            Grammar::Go => &[tree_sitter_go::TAGS_QUERY],
            Grammar::Java => &[tree_sitter_java::TAGS_QUERY, JAVA_EXTRA],
            Grammar::C => &[tree_sitter_c::TAGS_QUERY, C_EXTRA],
            Grammar::Cpp => &[tree_sitter_cpp::TAGS_QUERY, C_EXTRA],
            Grammar::CSharp => &[tree_sitter_c_sharp::TAGS_QUERY],
            Grammar::Ruby => &[tree_sitter_ruby::TAGS_QUERY],
            Grammar::Php => &[tree_sitter_php::TAGS_QUERY],
            // The crate ships no tags query: ours is the whole of it.
            Grammar::Kotlin => &[KOTLIN_TAGS],
            Grammar::Swift => &[SWIFT_TAGS],
            Grammar::Dart => &[tree_sitter_dart::TAGS_QUERY, DART_EXTRA],
            Grammar::Scala => &[SCALA_TAGS],
            Grammar::Elixir => &[tree_sitter_elixir::TAGS_QUERY],
            Grammar::Lua => &[tree_sitter_lua::TAGS_QUERY, LUA_EXTRA],
            Grammar::OCaml | Grammar::OCamlInterface => {
                &[tree_sitter_ocaml::TAGS_QUERY, OCAML_EXTRA]
            }
            // These crates ship no tags query: ours is the whole of it.
            Grammar::Haskell => &[HASKELL_TAGS],
            Grammar::ObjectiveC => &[OBJC_TAGS, C_EXTRA],
            Grammar::Zig => &[ZIG_TAGS],
        };
        parts.join("\n")
    }

    /// The compiled tag query. Panics only if our own query text does not compile against the
    /// grammar, which `every_query_compiles` rules out.
    pub fn query(self) -> &'static Query {
        static QUERIES: [OnceLock<Query>; Grammar::ALL.len()] =
            [const { OnceLock::new() }; Grammar::ALL.len()];
        QUERIES[self as usize].get_or_init(|| {
            Query::new(&self.language(), &self.query_source())
                .unwrap_or_else(|e| panic!("the {self:?} tag query does not compile: {e}"))
        })
    }
}

/// Constants, trait method signatures, and the uses the stock query misses: calls through a
/// path (`diff::parse(..)`), names brought in by `use`, types named in signatures and
/// `Type::method` paths (capitalised, so `module::f` is not read as a type). Macro arguments
/// are unparsed token trees, and tests live in `assert!`s: a name directly followed by a
/// parenthesised group there is read as a call. `@configuration` captures no symbol: the
/// attributes and macro invocations a reference must lie in to be a configuration predicate
/// (see `tags::in_configuration`), so that the others skip the check.
const RUST_EXTRA: &str = r#"
((token_tree (identifier) @name . (token_tree)) @reference.call)
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(function_signature_item name: (identifier) @name) @definition.method
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
(use_declaration argument: (scoped_identifier name: (identifier) @name)) @reference.use
(use_list (identifier) @name) @reference.use
(use_list (scoped_identifier name: (identifier) @name)) @reference.use
(use_as_clause path: (scoped_identifier name: (identifier) @name)) @reference.use
((scoped_identifier path: (identifier) @name) @reference.type (#match? @name "^[A-Z]"))
(type_identifier) @name @reference.type
(attribute_item) @configuration
(inner_attribute_item) @configuration
(macro_invocation) @configuration
"#;

const PYTHON_EXTRA: &str = r#"
(import_from_statement name: (dotted_name (identifier) @name)) @reference.import
(import_from_statement name: (aliased_import name: (dotted_name (identifier) @name))) @reference.import
(class_definition superclasses: (argument_list (identifier) @name)) @reference.class
(type (identifier) @name) @reference.type
"#;

const JS_EXTRA: &str = r#"
(import_specifier name: (identifier) @name) @reference.import
"#;

const JS_ONLY_EXTRA: &str = r#"
(class_heritage (identifier) @name) @reference.class
"#;

const TS_EXTRA: &str = r#"
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.type
(generic_type name: (type_identifier) @name) @reference.type
(extends_clause value: (identifier) @name) @reference.class
(implements_clause (type_identifier) @name) @reference.implementation
"#;

const JAVA_EXTRA: &str = r#"
(enum_declaration name: (identifier) @name) @definition.type
(record_declaration name: (identifier) @name) @definition.class
(type_identifier) @name @reference.type
((method_invocation object: (identifier) @name) @reference.type (#match? @name "^[A-Z]"))
"#;

/// Calls and the types named in declarations (`struct config *c`, `Config c`): the stock C and
/// C++ queries see only definitions.
const C_EXTRA: &str = r#"
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(type_identifier) @name @reference.type
"#;

/// Kotlin: classes, objects, functions, properties and type aliases; calls and named types.
const KOTLIN_TAGS: &str = r#"
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(property_declaration (variable_declaration (identifier) @name)) @definition.constant
(type_alias type: (identifier) @name) @definition.type
(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression (identifier) @name .)) @reference.call
(user_type (identifier) @name) @reference.type
(import (qualified_identifier (identifier) @name .)) @reference.import
"#;

/// Swift: the stock query's class patterns capture the whole class for each method, so the
/// definitions are ours: types, protocols, functions, properties, aliases; calls (direct and
/// through a member) and named types.
const SWIFT_TAGS: &str = r#"
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(property_declaration (pattern (simple_identifier) @name)) @definition.property
(typealias_declaration name: (type_identifier) @name) @definition.type
(call_expression (simple_identifier) @name) @reference.call
(call_expression (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call
(user_type (type_identifier) @name) @reference.type
"#;

/// Dart's stock query defines only: calls and named types.
const DART_EXTRA: &str = r#"
(type_identifier) @name @reference.type
(call_expression function: (identifier) @name) @reference.call
(member_expression property: (identifier) @name) @reference.call
"#;

/// Scala: the stock query's definitions and uses, without its package clause (every file of a
/// package would define the package's name and join each other through it).
const SCALA_TAGS: &str = r#"
(trait_definition name: (identifier) @name) @definition.interface
(enum_definition name: (identifier) @name) @definition.enum
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.object
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(val_definition pattern: (identifier) @name) @definition.variable
(var_definition pattern: (identifier) @name) @definition.variable
(given_definition name: (identifier) @name) @definition.variable
(type_definition name: (type_identifier) @name) @definition.type
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (identifier) @name)) @reference.call
(type_identifier) @name @reference.type
(import_declaration path: (identifier) @name .) @reference.import
"#;

/// Lua: a module table's functions as fields of the table constructor are in the stock query;
/// `require` names and plain `local function`s too. A field of the module table assigned at the
/// file's top level is defined whatever its value: another function under the name
/// (`M.bind = require("plenary.functional").partial`, plenary v0.1.4) or a constant.
const LUA_EXTRA: &str = r#"
(function_declaration name: (dot_index_expression field: (identifier) @name)) @definition.function
(chunk (assignment_statement
  (variable_list . name: (dot_index_expression field: (identifier) @name))
  (expression_list . value: [(identifier) (dot_index_expression) (bracket_index_expression) (method_index_expression) (function_call) (parenthesized_expression)])) @definition.function)
(chunk (assignment_statement
  (variable_list . name: (dot_index_expression field: (identifier) @name))
  (expression_list . value: [(string) (number) (table_constructor) (true) (false) (nil) (binary_expression) (unary_expression)])) @definition.constant)
"#;

/// OCaml: values (`let`, `val`, `external`), which the stock query leaves out.
const OCAML_EXTRA: &str = r#"
(value_definition (let_binding pattern: (value_name) @name)) @definition.function
(value_specification (value_name) @name) @definition.function
(external (value_name) @name) @definition.function
(value_path (value_name) @name) @reference.call
"#;

/// Haskell: functions with their signatures, data types, newtypes, classes, synonyms;
/// variables applied and named types.
const HASKELL_TAGS: &str = r#"
(declarations (function name: (variable) @name) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)
(declarations (signature name: (variable) @name) @definition.function)
(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synonym name: (name) @name) @definition.type
(class name: (name) @name) @definition.interface
(apply function: (variable) @name) @reference.call
(name) @name @reference.type
"#;

/// Objective-C: interfaces, implementations, protocols and methods; messages sent.
const OBJC_TAGS: &str = r#"
(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface
(method_declaration . (identifier) @name) @definition.method
(method_declaration (method_type) . (identifier) @name) @definition.method
(method_definition (method_type) . (identifier) @name) @definition.method
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(message_expression method: (identifier) @name) @reference.call
"#;

/// Zig: functions and constants (types are constants: `const Parser = struct {…}`); calls and
/// fields called through.
const ZIG_TAGS: &str = r#"
(function_declaration name: (identifier) @name) @definition.function
(variable_declaration . (identifier) @name) @definition.constant
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression member: (identifier) @name)) @reference.call
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles() {
        for grammar in Grammar::ALL {
            let query = grammar.query();
            assert!(query.pattern_count() > 0, "{grammar:?}");
            assert!(
                query.capture_index_for_name("name").is_some(),
                "{grammar:?}"
            );
        }
    }

    #[test]
    fn the_languages_with_an_index_have_a_grammar() {
        assert_eq!(Grammar::for_path("a/b.tsx"), Some(Grammar::Tsx));
        assert_eq!(Grammar::for_path("a/b.ts"), Some(Grammar::TypeScript));
        assert_eq!(Grammar::for_path("a/b.mjs"), Some(Grammar::JavaScript));
        assert_eq!(Grammar::for_path("README.md"), None);
        assert_eq!(Grammar::for_path("lib/x.c"), Some(Grammar::C));
        assert_eq!(Grammar::for_path("x.rb"), Some(Grammar::Ruby));
        assert_eq!(Grammar::for_path("src/A.cs"), Some(Grammar::CSharp));
        assert_eq!(Grammar::for_path("app/B.kt"), Some(Grammar::Kotlin));
        assert_eq!(Grammar::for_path("src/C.php"), Some(Grammar::Php));
        assert_eq!(Grammar::for_path("x.swift"), Some(Grammar::Swift));
        assert_eq!(Grammar::for_path("lib/a.ex"), Some(Grammar::Elixir));
        assert_eq!(Grammar::for_path("a.mli"), Some(Grammar::OCamlInterface));
        assert_eq!(Grammar::for_path("a.ml"), Some(Grammar::OCaml));
        assert_eq!(Grammar::for_path("a.pl"), None);
    }
}
