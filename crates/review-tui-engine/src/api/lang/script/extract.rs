//! JavaScript and TypeScript: what the module `export`s (declarations, `export { a as b }`
//! of local names, `export default`), with class, interface, object-type and enum members.
//! An arrow function's body is not its signature; a JSDoc comment is not part of a type.

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use crate::api::text::{Src, has_token, named};
use crate::api::{Item, Param, ParamKind, Surface};

pub(crate) fn extract(root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
    // `export { local as name }` exports a declaration written without `export`.
    let mut local_exports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for statement in named(root) {
        if statement.kind() != "export_statement" {
            continue;
        }
        let from_elsewhere = statement.child_by_field_name("source").is_some();
        for clause in named(statement) {
            match clause.kind() {
                "export_clause" => {
                    for spec in named(clause)
                        .into_iter()
                        .filter(|s| s.kind() == "export_specifier")
                    {
                        let name = src.field(spec, "name").unwrap_or("").to_string();
                        let alias = src
                            .field(spec, "alias")
                            .map(str::to_string)
                            .unwrap_or(name.clone());
                        if from_elsewhere {
                            out.reexports.insert(alias);
                        } else {
                            local_exports.entry(name).or_default().push(alias);
                        }
                    }
                }
                "namespace_export" => {
                    out.reexports.insert(
                        src.raw(clause)
                            .rsplit(' ')
                            .next()
                            .unwrap_or("*")
                            .to_string(),
                    );
                }
                _ => {}
            }
        }
        if from_elsewhere && !named(statement).iter().any(|c| c.kind() == "export_clause") {
            out.reexports.insert("*".to_string());
        }
    }
    for statement in named(root) {
        let (declaration, names) = match statement.kind() {
            "export_statement" => {
                let default = src
                    .raw(statement)
                    .trim_start()
                    .starts_with("export default");
                match statement.child_by_field_name("declaration") {
                    Some(d) => (
                        d,
                        if default {
                            Some("default".to_string())
                        } else {
                            None
                        },
                    ),
                    None => {
                        if default && let Some(value) = statement.child_by_field_name("value") {
                            declare(value, src, "default", out);
                        }
                        continue;
                    }
                }
            }
            _ => {
                // A local declaration exported by a clause elsewhere in the file.
                (statement, Some(String::new()))
            }
        };
        let mut declaration = declaration;
        if declaration.kind() == "ambient_declaration"
            && let Some(inner) = named(declaration).into_iter().next()
        {
            declaration = inner;
        }
        let names_of = |name: &str| -> Vec<String> {
            match &names {
                None => vec![name.to_string()],
                Some(n) if n == "default" => vec!["default".to_string()],
                Some(_) => local_exports.get(name).cloned().unwrap_or_default(),
            }
        };
        if matches!(
            declaration.kind(),
            "lexical_declaration" | "variable_declaration"
        ) {
            for declarator in named(declaration)
                .into_iter()
                .filter(|d| d.kind() == "variable_declarator")
            {
                let Some(name_node) = declarator.child_by_field_name("name") else {
                    continue;
                };
                // `export const [metrics, tracing] = …` (lru-cache) binds each name it holds;
                // what each one's type is, the pattern does not say.
                if name_node.kind() != "identifier" {
                    for name in pattern_names(name_node, src) {
                        for key in names_of(&name) {
                            if exported(&key) {
                                let mut item = Item::new("const", &key, format!("const {key}"));
                                item.shape = String::new();
                                out.add(key.clone(), item);
                            }
                        }
                    }
                    continue;
                }
                let name = src.raw(name_node);
                for key in names_of(name) {
                    if exported(&key) {
                        variable(declarator, src, &key, out);
                    }
                }
            }
            continue;
        }
        let Some(name) = src.field(declaration, "name") else {
            continue;
        };
        for key in names_of(name) {
            if exported(&key) {
                declare(declaration, src, &key, out);
            }
        }
    }
}

/// The names a destructuring pattern binds (`[a, b]`, `{a, b: c, ...rest}`, nested, with
/// defaults): not the keys it reads (`b` in `b: c`).
fn pattern_names(pattern: Node, src: Src) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![pattern];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                names.push(src.raw(node).to_string())
            }
            "pair_pattern" => stack.extend(node.child_by_field_name("value")),
            "assignment_pattern" | "object_assignment_pattern" => {
                stack.extend(node.child_by_field_name("left"))
            }
            _ => stack.extend(named(node)),
        }
    }
    names.reverse();
    names
}

fn type_text(src: Src, annotation: Option<Node>) -> Option<String> {
    let annotation = annotation?;
    let inner = if annotation.kind().ends_with("annotation") {
        named(annotation).into_iter().next().unwrap_or(annotation)
    } else {
        annotation
    };
    Some(src.canonical(inner))
}

fn parameters(list: Option<Node>, src: Src) -> Vec<Param> {
    let Some(list) = list else { return Vec::new() };
    let mut params = Vec::new();
    for p in named(list) {
        let pattern = p.child_by_field_name("pattern").unwrap_or(p);
        let (kind, optional) = match (p.kind(), pattern.kind()) {
            (_, "rest_pattern") => (ParamKind::Variadic, false),
            ("optional_parameter", _) => (ParamKind::Positional, true),
            ("required_parameter", _) => (
                ParamKind::Positional,
                p.child_by_field_name("value").is_some(),
            ),
            ("assignment_pattern", _) => (ParamKind::Positional, true),
            // JavaScript: untyped, and no call is checked against it.
            ("identifier" | "object_pattern" | "array_pattern", _) => (ParamKind::Unchecked, false),
            _ => continue,
        };
        // `this: T` is not an argument.
        if src.raw(pattern) == "this" {
            continue;
        }
        params.push(Param {
            name: None,
            ty: type_text(src, p.child_by_field_name("type")),
            kind,
            optional,
        });
    }
    params
}

pub(super) fn callable(
    node: Node,
    src: Src,
    kind: &'static str,
    key: &str,
    form_name: &str,
) -> Item {
    let params_node = node
        .child_by_field_name("parameters")
        .or_else(|| node.child_by_field_name("parameter"));
    let params = match params_node {
        Some(p) if p.kind() == "identifier" => vec![Param {
            name: None,
            ty: None,
            kind: ParamKind::Positional,
            optional: false,
        }],
        other => parameters(other, src),
    };
    let ret = type_text(src, node.child_by_field_name("return_type"));
    let generics = src.canonical_field(node, "type_parameters");
    let form = format!(
        "{kind} {form_name}{generics}{}{}",
        params_node
            .map(|p| src.canonical(p))
            .map(|p| if p.starts_with('(') {
                p
            } else {
                format!("({p})")
            })
            .unwrap_or_else(|| "()".into()),
        ret.as_ref().map(|r| format!(": {r}")).unwrap_or_default()
    );
    let mut item = Item::new(kind, key, form);
    item.params = Some(params);
    item.ret = ret;
    item.generics = generics;
    // `async` only says how the body is written once the return type is (a declaration file
    // never writes it): the written `Promise<T>` is the contract. Without one, `async` is the
    // inferred return type, so it stays in the shape and, like everything compared, in the form.
    if has_token(node, "async") && item.ret.is_none() {
        item.shape = "async".into();
        item.form = format!("async {}", item.form);
    }
    item
}

fn variable(declarator: Node, src: Src, key: &str, out: &mut Surface) {
    // A written type is the contract (`const f: Handler = (a) => …`): the compiler checks the
    // initialiser against it, and callers call the type, whatever parameters the arrow lists.
    let typed = declarator.child_by_field_name("type").is_some();
    match declarator.child_by_field_name("value") {
        Some(value)
            if !typed
                && matches!(
                    value.kind(),
                    "arrow_function" | "function_expression" | "function"
                ) =>
        {
            out.add(key.to_string(), callable(value, src, "function", key, key));
        }
        Some(value) if value.kind() == "class" => declare(value, src, key, out),
        _ => {
            let ty = type_text(src, declarator.child_by_field_name("type"));
            let mut item = Item::new(
                "const",
                key,
                format!(
                    "const {key}{}",
                    ty.as_ref().map(|t| format!(": {t}")).unwrap_or_default()
                ),
            );
            item.shape = ty.unwrap_or_default();
            out.add(key.to_string(), item);
        }
    }
}

fn declare(node: Node, src: Src, key: &str, out: &mut Surface) {
    match node.kind() {
        "function_declaration"
        | "generator_function_declaration"
        | "function_signature"
        | "function_expression"
        | "arrow_function"
        | "function" => {
            out.add(key.to_string(), callable(node, src, "function", key, key));
        }
        "class_declaration" | "abstract_class_declaration" | "class" => {
            let body = node.child_by_field_name("body");
            let skip: Vec<Node> = body.into_iter().collect();
            let mut item = Item::new("class", key, src.canonical_without(node, &skip));
            item.generics = src.canonical_field(node, "type_parameters");
            out.add(key.to_string(), item);
            out.bases.insert(key.to_string(), bases(node, src));
            if let Some(body) = body {
                members(body, src, key, out);
            }
        }
        "interface_declaration" => {
            let body = node.child_by_field_name("body");
            let skip: Vec<Node> = body.into_iter().collect();
            let mut item = Item::new("interface", key, src.canonical_without(node, &skip));
            item.generics = src.canonical_field(node, "type_parameters");
            out.add(key.to_string(), item);
            out.bases.insert(key.to_string(), bases(node, src));
            if let Some(body) = body {
                members(body, src, key, out);
            }
        }
        "type_alias_declaration" => {
            let value = node.child_by_field_name("value");
            let mut item = Item::new("type", key, String::new());
            item.generics = src.canonical_field(node, "type_parameters");
            match value {
                Some(v) if v.kind() == "object_type" => {
                    item.form = format!("type {key}{} = {{…}}", item.generics);
                    item.shape = "{}".into();
                    out.add(key.to_string(), item);
                    members(v, src, key, out);
                }
                _ => {
                    item.shape = value.map(|v| src.canonical(v)).unwrap_or_default();
                    item.form = format!("type {key}{} = {}", item.generics, item.shape);
                    if item.generics.is_empty() && !item.shape.is_empty() {
                        out.aliases.insert(key.to_string(), item.shape.clone());
                    }
                    out.add(key.to_string(), item);
                }
            }
        }
        "enum_declaration" => {
            out.add(
                key.to_string(),
                Item::new("enum", key, format!("enum {key}")),
            );
            if let Some(body) = node.child_by_field_name("body") {
                for member in named(body) {
                    let name = match member.kind() {
                        "enum_assignment" => src.field(member, "name").unwrap_or(""),
                        _ => src.raw(member),
                    };
                    if name.is_empty() || member.kind().contains("comment") {
                        continue;
                    }
                    let mkey = format!("{key}.{name}");
                    let mut m = Item::new("variant", &mkey, format!("{key}.{name}"));
                    m.parent = Some(key.to_string());
                    out.add(mkey, m);
                }
            }
        }
        // `declare namespace pino { … }` beside `declare function pino(…)` (pino.d.ts):
        // declaration merging adds the namespace's members to the function or class, which
        // stays the item (see `Surface::add`). Its members are not read.
        "internal_module" | "module" => {
            out.add(
                key.to_string(),
                Item::new(NAMESPACE, key, format!("namespace {key}")),
            );
        }
        "identifier" => {
            let mut item = Item::new("const", key, format!("export default {}", src.raw(node)));
            item.shape = String::new();
            out.add(key.to_string(), item);
        }
        // `export default isSupported && (async (config) => {…})` (axios #6371): a value
        // computed when the module loads, still exported.
        _ if key == "default" && node.is_named() => {
            let text = src.canonical(node);
            let short: String = text.chars().take(60).collect();
            let form = format!(
                "export default {short}{}",
                if short.len() < text.len() { "…" } else { "" }
            );
            out.add(key.to_string(), Item::new(EXPRESSION, key, form));
        }
        _ => {}
    }
}

/// The kind of a default export computed by an expression.
pub(in crate::api) const EXPRESSION: &str = "expression";

/// The kind of a TypeScript namespace, which merges into a function or class of its name.
pub(in crate::api) const NAMESPACE: &str = "namespace";

/// Public members of a class body, interface body or object type.
fn members(body: Node, src: Src, parent: &str, out: &mut Surface) {
    let mut seen_methods = BTreeSet::new();
    let setters: BTreeSet<String> = named(body)
        .into_iter()
        .filter(|member| accessor(*member) == Some("set"))
        .filter_map(|member| src.field(member, "name").map(str::to_string))
        .collect();
    for member in named(body) {
        let private = named(member).iter().any(|c| {
            c.kind() == "accessibility_modifier" && matches!(src.raw(*c), "private" | "protected")
        });
        let name = match member.kind() {
            "call_signature" => "()".to_string(),
            "construct_signature" => "new()".to_string(),
            "index_signature" => "[]".to_string(),
            _ => match src.field(member, "name") {
                Some(n) => n.to_string(),
                None => continue,
            },
        };
        if private || name.starts_with('#') {
            continue;
        }
        // `constructor() {}` in a class that extends nothing is the constructor every such
        // class has: one removed or added changes no call (hono 4.13.3's `TrieRouter`).
        if member.kind() == "method_definition"
            && name == "constructor"
            && !body.parent().is_some_and(|class| extends_a_class(class))
            && member
                .child_by_field_name("parameters")
                .is_some_and(|p| p.named_child_count() == 0)
        {
            continue;
        }
        let key = format!("{parent}.{name}");
        let mut item = match member.kind() {
            "method_definition" | "method_signature" | "abstract_method_signature"
                if accessor(member).is_some() =>
            {
                // A getter and its setter are one property.
                if !seen_methods.insert(name.clone()) {
                    continue;
                }
                accessor_property(member, src, &key, &name, setters.contains(&name))
            }
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                // Overload signatures and the implementation are one method.
                if !seen_methods.insert(name.clone()) && member.kind() == "method_definition" {
                    continue;
                }
                // What the shape compares, the form shows: a change is never reported
                // between two identical texts.
                let optional = if has_token(member, "?") { "?" } else { "" };
                let mut m = callable(member, src, "method", &key, &format!("{name}{optional}"));
                if has_token(member, "static") {
                    m.shape.push_str(" static");
                    m.form = format!("static {}", m.form);
                }
                if !optional.is_empty() {
                    m.shape.push_str(" optional");
                }
                m
            }
            "property_signature" | "public_field_definition" => {
                let ty = type_text(src, member.child_by_field_name("type")).unwrap_or_default();
                let optional = if has_token(member, "?") { "?" } else { "" };
                let readonly = if is_readonly(member, src) {
                    READONLY
                } else {
                    ""
                };
                let mut p = Item::new(
                    "property",
                    &key,
                    format!("{readonly}{name}{optional}: {ty}"),
                );
                p.shape = format!("{readonly}{optional}{ty}");
                if has_token(member, "static") {
                    p.shape.push_str(" static");
                    p.form = format!("static {}", p.form);
                }
                p
            }
            "call_signature" | "construct_signature" | "index_signature" => {
                let mut s = Item::new("signature", &key, src.canonical(member));
                s.shape = src.canonical(member);
                s
            }
            _ => continue,
        };
        item.parent = Some(parent.to_string());
        out.add(key, item);
    }
}

/// How a read-only property's shape begins: a getter without a setter, or a `readonly` field.
pub(crate) const READONLY: &str = "readonly ";

/// `get` or `set` when `member` is an accessor: callers read and assign it as a property.
fn accessor(member: Node) -> Option<&'static str> {
    ["get", "set"]
        .into_iter()
        .find(|token| has_token(member, token))
}

/// Whether a field or property signature is declared `readonly` (TypeScript writes it as an
/// accessibility-like modifier node in classes and as a token in signatures).
fn is_readonly(member: Node, src: Src) -> bool {
    has_token(member, "readonly")
        || named(member).iter().any(|c| {
            c.kind() == "readonly" || (c.kind().ends_with("modifier") && src.raw(*c) == "readonly")
        })
}

/// An accessor as the property its callers use: the getter's return type (or the setter's
/// parameter type), read-only when the class declares no setter of that name. It compares
/// with a field of the same type, and a method of the same name is another kind of member.
fn accessor_property(member: Node, src: Src, key: &str, name: &str, has_setter: bool) -> Item {
    let ty = match accessor(member) {
        Some("set") => member
            .child_by_field_name("parameters")
            .and_then(|list| named(list).into_iter().next())
            .and_then(|param| type_text(src, param.child_by_field_name("type"))),
        _ => type_text(src, member.child_by_field_name("return_type")),
    }
    .unwrap_or_default();
    let readonly = if has_setter { "" } else { READONLY };
    let mut item = Item::new("property", key, format!("{readonly}{name}: {ty}"));
    item.shape = format!("{readonly}{ty}");
    if has_token(member, "static") {
        item.shape.push_str(" static");
        item.form = format!("static {}", item.form);
    }
    item
}

/// Whether a class declaration has an `extends` clause (TypeScript's `extends_clause`, or
/// JavaScript's heritage expression); `implements` alone is not one.
fn extends_a_class(class: Node) -> bool {
    named(class)
        .into_iter()
        .filter(|c| c.kind() == "class_heritage")
        .flat_map(named)
        .any(|part| part.kind() != "implements_clause" && !part.kind().contains("comment"))
}

/// What a class extends and implements, or an interface extends, as written without type
/// arguments (`Base<T>` is `Base`): a member it no longer declares may still be inherited.
fn bases(node: Node, src: Src) -> Vec<String> {
    let mut types = Vec::new();
    for clause in named(node) {
        match clause.kind() {
            "class_heritage" => {
                for part in named(clause) {
                    match part.kind() {
                        "extends_clause" => {
                            let mut cursor = part.walk();
                            types.extend(part.children_by_field_name("value", &mut cursor));
                        }
                        "implements_clause" => types.extend(named(part)),
                        // JavaScript: `extends` and the expression directly.
                        _ if !part.kind().contains("comment") => types.push(part),
                        _ => {}
                    }
                }
            }
            "extends_type_clause" => {
                let mut cursor = clause.walk();
                types.extend(clause.children_by_field_name("type", &mut cursor));
            }
            _ => {}
        }
    }
    types
        .into_iter()
        .map(|t| {
            let text = src.canonical(t);
            text.split('<').next().unwrap_or(&text).to_string()
        })
        .collect()
}
