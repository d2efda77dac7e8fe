//! What calling a value of a named TypeScript type looks like, from the type's declaration:
//! `type Upgrade<T> = (create: …, options?: U) => …` and `interface Factory { (args: …): … }`
//! have call signatures, each read as a function's (several are overloads); an object type,
//! a class or a primitive has none; a type computed from others (`typeof f`, an
//! intersection, an interface extending another) may have one the declaration does not show.

use tree_sitter::{Node, Parser};

use super::extract::callable;
use crate::api::Item;
use crate::api::text::{Src, named};
use crate::parse::grammar::Grammar;

/// How a value of a named type is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Call {
    /// Its call signatures (overloads when several), each as a function item (its
    /// parameters and return type).
    Signatures(Vec<Item>),
    /// Callable or not, the declaration does not say (computed, extended, merged).
    Unknown,
    /// Not callable: data, a class, a primitive.
    NotCallable,
}

/// The calls of the type `name` as `source` (TypeScript) declares it at its top level,
/// exported or not; `None` when it declares no type of that name.
pub(crate) fn call_of(source: &str, grammar: Grammar, name: &str) -> Option<Call> {
    let mut parser = Parser::new();
    parser.set_language(&grammar.language()).ok()?;
    let tree = parser.parse(source, None)?;
    let src = Src(source.as_bytes());
    let declarations = named(tree.root_node()).into_iter().map(|statement| {
        match statement.child_by_field_name("declaration") {
            Some(inner) if statement.kind() == "export_statement" => inner,
            _ => statement,
        }
    });
    let mut found = declarations.filter(|d| src.field(*d, "name") == Some(name));
    let declaration = found.next()?;
    // Two declarations of one name merge (interfaces): not read here.
    if found.next().is_some() {
        return Some(Call::Unknown);
    }
    Some(match declaration.kind() {
        "type_alias_declaration" => match declaration.child_by_field_name("value") {
            Some(value) => of_type(value, src, name),
            None => Call::Unknown,
        },
        "interface_declaration" => {
            let extends = named(declaration)
                .iter()
                .any(|c| c.kind() == "extends_type_clause");
            match declaration.child_by_field_name("body") {
                Some(body) if !extends => signatures(body, src, name),
                _ => Call::Unknown,
            }
        }
        "class_declaration" | "abstract_class_declaration" | "enum_declaration" => {
            Call::NotCallable
        }
        _ => Call::Unknown,
    })
}

fn of_type(ty: Node, src: Src, name: &str) -> Call {
    match ty.kind() {
        "function_type" => Call::Signatures(vec![callable(ty, src, "function", name, name)]),
        "parenthesized_type" => named(ty)
            .into_iter()
            .next()
            .map_or(Call::Unknown, |inner| of_type(inner, src, name)),
        "object_type" => signatures(ty, src, name),
        "predefined_type"
        | "literal_type"
        | "tuple_type"
        | "array_type"
        | "template_literal_type" => Call::NotCallable,
        _ => Call::Unknown,
    }
}

/// The call signatures of an object type or interface body.
fn signatures(body: Node, src: Src, name: &str) -> Call {
    let calls: Vec<Item> = named(body)
        .into_iter()
        .filter(|m| m.kind() == "call_signature")
        .map(|call| callable(call, src, "function", name, name))
        .collect();
    if calls.is_empty() {
        Call::NotCallable
    } else {
        Call::Signatures(calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_signatures_of_named_types() {
        let source = "interface Factory {\n  (args: { id: string }): readonly [string]\n}\nexport type Upgrade<T = unknown> = (create: (c: T) => void, options?: number) => void\ninterface Data { id: string }\ntype Query = typeof f\nexport interface Wide extends Factory {}\n";
        let sig = |name: &str| match call_of(source, Grammar::TypeScript, name) {
            Some(Call::Signatures(items)) => items[0].params.as_ref().map(Vec::len),
            _ => None,
        };
        assert_eq!(sig("Factory"), Some(1));
        assert_eq!(sig("Upgrade"), Some(2));
        assert_eq!(
            call_of(source, Grammar::TypeScript, "Data"),
            Some(Call::NotCallable)
        );
        assert_eq!(
            call_of(source, Grammar::TypeScript, "Query"),
            Some(Call::Unknown)
        );
        assert_eq!(
            call_of(source, Grammar::TypeScript, "Wide"),
            Some(Call::Unknown)
        );
        assert_eq!(call_of(source, Grammar::TypeScript, "Missing"), None);
    }
}
