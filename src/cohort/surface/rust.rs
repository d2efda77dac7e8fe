//! Rust: `pub` items (not `pub(crate)`), their fields, variants, trait members and inherent
//! methods. `#[doc(hidden)]` items and items behind `cfg(test)` or an opt-in unstable `cfg`
//! flag are not part of the stable surface.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::text::{Src, named, strip_lifetimes};
use super::{Item, Param, ParamKind, Surface};

pub fn extract(root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
    items(root, src, exported, out, "");
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

/// Whether the attributes take an item out of the stable surface.
fn hidden(attributes: &[String]) -> bool {
    attributes.iter().any(|a| {
        let a = a.replace(' ', "");
        if a.contains("doc(hidden)") {
            return true;
        }
        let Some(predicate) = a.strip_prefix("#[cfg(") else {
            return false;
        };
        // `not(...)` parts select the stable variant; only what the rest requires counts.
        let mut required = predicate.to_string();
        while let Some(start) = required.find("not(") {
            let mut depth = 0;
            let mut end = required.len();
            for (i, c) in required[start + 3..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = start + 3 + i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            required.replace_range(start..end, "");
        }
        required
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|flag| {
                flag == "test" || flag == "loom" || flag == "fuzzing" || flag.contains("unstable")
            })
    })
}

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

fn generics(node: Node, src: Src) -> String {
    let mut parts = Vec::new();
    for field in ["type_parameters", "bounds"] {
        if let Some(n) = node.child_by_field_name(field) {
            parts.push(src.canonical(n));
        }
    }
    if let Some(w) = named(node).into_iter().find(|c| c.kind() == "where_clause") {
        parts.push(src.canonical(w));
    }
    strip_lifetimes(&parts.join(" "))
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
    for (node, attributes) in &children {
        let node = *node;
        if hidden(attributes) {
            continue;
        }
        if node.kind() == "use_declaration" {
            if is_pub(node, src)
                && let Some(argument) = node.child_by_field_name("argument")
            {
                use_names(argument, src, &mut out.reexports);
            }
            continue;
        }
        if node.kind() == "impl_item" {
            if node.child_by_field_name("trait").is_none() {
                inherent(node, src, exported, out, prefix, &private_types);
            }
            continue;
        }
        let Some(name) = src.field(node, "name") else {
            continue;
        };
        if !is_pub(node, src) || (prefix.is_empty() && !exported(name)) {
            continue;
        }
        let key = format!("{prefix}{name}");
        match node.kind() {
            "function_item" => out.add(key.clone(), function(node, src, "fn", &key, None)),
            "struct_item" | "union_item" => structure(node, src, &key, attributes, out),
            "enum_item" => enumeration(node, src, &key, attributes, out),
            "trait_item" => trait_items(node, src, &key, out),
            "type_item" => {
                let mut item = Item::new("type", &key, src.canonical(node));
                item.generics = generics(node, src);
                item.shape = ty(src, node.child_by_field_name("type")).unwrap_or_default();
                if item.generics.is_empty() && !item.shape.is_empty() {
                    out.aliases.insert(name.to_string(), item.shape.clone());
                }
                out.add(key, item);
            }
            "const_item" | "static_item" => {
                // The value is not the contract; the type is.
                let skip: Vec<Node> = node.child_by_field_name("value").into_iter().collect();
                let mut item = Item::new("const", &key, src.canonical_without(node, &skip));
                item.shape = ty(src, node.child_by_field_name("type")).unwrap_or_default();
                out.add(key, item);
            }
            "mod_item" => {
                if let Some(body) = node.child_by_field_name("body") {
                    items(body, src, &|_| true, out, &format!("{key}::"));
                }
            }
            _ => {}
        }
    }
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
    item.shape = named(node)
        .into_iter()
        .find(|c| c.kind() == "function_modifiers")
        .map(|m| src.canonical(m))
        .unwrap_or_default();
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
                if hidden(&attrs) {
                    all_public = false;
                    continue;
                }
                let name = src.field(field, "name").unwrap_or("?");
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
        if variant.kind() != "enum_variant" || hidden(&attrs) {
            continue;
        }
        let Some(name) = src.field(variant, "name") else {
            continue;
        };
        let skip: Vec<Node> = variant.child_by_field_name("value").into_iter().collect();
        let vkey = format!("{key}::{name}");
        let mut v = Item::new("variant", &vkey, src.canonical_without(variant, &skip));
        v.shape = strip_lifetimes(&src.canonical_field(variant, "body"));
        v.parent = Some(key.to_string());
        out.add(vkey, v);
    }
}

fn trait_items(node: Node, src: Src, key: &str, out: &mut Surface) {
    let body = node.child_by_field_name("body");
    let mut item = Item::new(
        "trait",
        key,
        src.canonical_without(node, &body.into_iter().collect::<Vec<_>>()),
    );
    item.generics = generics(node, src);
    out.add(key.to_string(), item);
    let Some(body) = body else { return };
    for (member, attrs) in with_attributes(body, src) {
        if hidden(&attrs) {
            continue;
        }
        let Some(name) = src.field(member, "name") else {
            continue;
        };
        let mkey = format!("{key}::{name}");
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

fn inherent(
    node: Node,
    src: Src,
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
    prefix: &str,
    private_types: &BTreeSet<&str>,
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
    if private_types.contains(name) || (prefix.is_empty() && !exported(name)) {
        return;
    }
    let type_key = format!("{prefix}{name}");
    let impl_generics = generics(node, src);
    let Some(body) = node.child_by_field_name("body") else {
        return;
    };
    for (member, attrs) in with_attributes(body, src) {
        if member.kind() != "function_item" || !is_pub(member, src) || hidden(&attrs) {
            continue;
        }
        let Some(method) = src.field(member, "name") else {
            continue;
        };
        let key = format!("{type_key}::{method}");
        let mut item = function(member, src, "method", &key, None);
        if !impl_generics.is_empty() {
            item.generics = format!("{impl_generics} {}", item.generics)
                .trim()
                .to_string();
        }
        out.add(key, item);
    }
}
