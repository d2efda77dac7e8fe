//! What tells a definition from the others of its name in a language that overloads by
//! parameter types (C#): `Write(string)` and `Write(string, object)` are two members, and a
//! caller binds to one of them. The tags name both `Write`; this reads the part of their
//! signatures the compiler tells them apart by, so each is compared with itself.

use tree_sitter::Node;

use super::grammar::Grammar;

/// The parameter types of the method `node` as the language's overload rule reads them
/// (`(string,object[])`), or `None` where the language does not overload by them or the node
/// is not a method.
pub(crate) fn parameter_types(grammar: Grammar, node: Node, source: &[u8]) -> Option<String> {
    match grammar {
        Grammar::CSharp if node.kind() == "method_declaration" => csharp(node, source),
        _ => None,
    }
}

/// C# (ECMA-334 §7.6, "signatures and overloading"): a method's signature is its name, its
/// number of type parameters and each parameter's type and kind (by value, `ref`, `out`,
/// `in`); not its return type, parameter names, `params` or `this`. Its own type parameters
/// are numbered by position, so renaming one (`<T> M(T)` → `<U> M(U)`) is the same method.
fn csharp(node: Node, source: &[u8]) -> Option<String> {
    let text = |n: Node| n.utf8_text(source).unwrap_or("");
    let list = node.child_by_field_name("parameters")?;
    let own: Vec<&str> = node
        .child_by_field_name("type_parameters")
        .map(|t| {
            named(t)
                .into_iter()
                .filter(|p| p.kind() == "type_parameter")
                .filter_map(|p| p.child_by_field_name("name").or_else(|| last_identifier(p)))
                .map(text)
                .collect()
        })
        .unwrap_or_default();
    let mut types = Vec::new();
    let count = u32::try_from(list.child_count()).unwrap_or(u32::MAX);
    for i in 0..count {
        let Some(child) = list.child(i) else {
            continue;
        };
        let field = list.field_name_for_child(i);
        let ty = |t: Node| numbered(&collapsed(text(t)), &own);
        if child.kind() == "parameter" {
            let kind = named(child)
                .into_iter()
                .filter(|c| c.kind() == "modifier")
                .map(text)
                .find(|m| matches!(*m, "ref" | "out" | "in"));
            let ty = child
                .child_by_field_name("type")
                .map(ty)
                .unwrap_or_default();
            types.push(match kind {
                Some(kind) => format!("{kind} {ty}"),
                None => ty,
            });
        } else if field == Some("type") {
            // `params object[] values` sits in the list itself, its type a field of the list.
            types.push(ty(child));
        }
    }
    let arity = if own.is_empty() {
        String::new()
    } else {
        format!("`{}", own.len())
    };
    Some(format!("{arity}({})", types.join(",")))
}

fn named(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

fn last_identifier(node: Node) -> Option<Node> {
    named(node)
        .into_iter()
        .rev()
        .find(|c| c.kind() == "identifier")
}

/// `text` without whitespace: `Dictionary<string, int>` and `Dictionary<string,int>` are one
/// type.
fn collapsed(text: &str) -> String {
    text.split_whitespace().collect()
}

/// `ty` with each of the method's own type parameters written as its position (`!!0`).
fn numbered(ty: &str, own: &[&str]) -> String {
    if own.is_empty() {
        return ty.to_string();
    }
    let mut out = String::with_capacity(ty.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match own.iter().position(|p| p == word) {
            Some(i) => out.push_str(&format!("!!{i}")),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in ty.chars() {
        if c.is_alphanumeric() || c == '_' || c == '@' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}
