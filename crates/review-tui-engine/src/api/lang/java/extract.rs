//! Java: `public` types (and members of interfaces, public unless `private`), their public
//! methods, constructors, fields and enum constants. Overloads are separate items keyed by
//! their parameter types' erasure, as the compiler tells them apart (`m(T)` with `<T extends
//! Number>` is `m(Number)` whatever the parameter is named). Annotations (`@Override`, `@SuppressWarnings`, `@Nullable`) and
//! parameter names are not the contract.

use tree_sitter::Node;

use super::closed;
use super::erasure::{Erasure, declared};
use crate::api::text::{Src, all, named};
use crate::api::{Item, Param, ParamKind, Surface};

pub(crate) fn extract(root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
    for node in named(root) {
        if let Some(name) = src.field(node, "name")
            && is_type(node)
            && modifiers(node, src).iter().any(|m| m == "public")
            && exported(name)
        {
            type_items(node, src, name, &Erasure::default(), out);
        }
    }
}

fn is_type(node: Node) -> bool {
    matches!(
        node.kind(),
        "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration"
    )
}

/// The keyword modifiers (`public`, `static`, `final`...), annotations left out.
fn modifiers(node: Node, src: Src) -> Vec<String> {
    named(node)
        .into_iter()
        .filter(|c| c.kind() == "modifiers")
        .flat_map(|m| {
            all(m)
                .into_iter()
                .filter(|c| !c.is_named())
                .map(|c| src.raw(c).to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The names of the annotations written on a declaration, as written (`ApiStatus.NonExtendable`).
fn annotations(node: Node, src: Src) -> Vec<String> {
    named(node)
        .into_iter()
        .filter(|c| c.kind() == "modifiers")
        .flat_map(named)
        .filter(|c| matches!(c.kind(), "marker_annotation" | "annotation"))
        .filter_map(|a| src.field(a, "name").map(str::to_string))
        .collect()
}

/// The modifiers that change what a user may do: subclass, override, call without an
/// instance.
fn contract_modifiers(mods: &[String]) -> String {
    let kept: Vec<&str> = mods
        .iter()
        .map(String::as_str)
        .filter(|m| {
            matches!(
                *m,
                "static" | "final" | "abstract" | "sealed" | "non-sealed"
            )
        })
        .collect();
    kept.join(" ")
}

fn type_text(src: Src, node: Node) -> String {
    let mut text = src.canonical_field(node, "type");
    if let Some(dims) = node.child_by_field_name("dimensions") {
        text.push_str(&src.canonical(dims));
    }
    text
}

fn parameters(list: Option<Node>, src: Src) -> Vec<Param> {
    let Some(list) = list else { return Vec::new() };
    named(list)
        .into_iter()
        .filter_map(|p| match p.kind() {
            "formal_parameter" => Some(Param {
                name: None,
                ty: Some(type_text(src, p)),
                kind: ParamKind::Positional,
                optional: false,
            }),
            "spread_parameter" => {
                let ty = named(p)
                    .into_iter()
                    .find(|c| {
                        !matches!(c.kind(), "modifiers" | "variable_declarator")
                            && !c.kind().contains("annotation")
                    })
                    .map(|t| src.canonical(t))
                    .unwrap_or_default();
                Some(Param {
                    name: None,
                    ty: Some(format!("{ty}...")),
                    kind: ParamKind::Variadic,
                    optional: false,
                })
            }
            _ => None,
        })
        .collect()
}

/// Whether a class's constructors are all private or package-private: its users can neither
/// extend nor instantiate it, so `abstract`, `final` and `sealed` say nothing to them
/// (javapoet's `ClassName`, abstract with a private constructor, then final).
fn closed_by_constructors(body: Option<Node>, src: Src) -> bool {
    let constructors: Vec<Node> = body
        .map(|b| {
            named(b)
                .into_iter()
                .filter(|m| m.kind() == "constructor_declaration")
                .collect()
        })
        .unwrap_or_default();
    !constructors.is_empty()
        && constructors.iter().all(|c| {
            !modifiers(*c, src)
                .iter()
                .any(|m| m == "public" || m == "protected")
        })
}

/// `scope`: the type variables of the enclosing types, with what each erases to.
fn type_items(node: Node, src: Src, key: &str, scope: &Erasure, out: &mut Surface) {
    let kind = match node.kind() {
        "interface_declaration" => "interface",
        "enum_declaration" => "enum",
        "record_declaration" => "record",
        "annotation_type_declaration" => "annotation",
        _ => "class",
    };
    let body = node.child_by_field_name("body");
    let mut mods = modifiers(node, src);
    if kind == "class" && closed_by_constructors(body, src) {
        mods.retain(|m| !matches!(m.as_str(), "abstract" | "final" | "sealed" | "non-sealed"));
    }
    let mut item = Item::new(
        kind,
        key,
        format!("{} {kind} {key}", contract_modifiers(&mods))
            .trim()
            .to_string(),
    );
    item.generics = src.canonical_field(node, "type_parameters");
    item.shape = contract_modifiers(&mods);
    // Only the subtypes it permits, released with it, implement a `sealed` type.
    item.sealed = mods.iter().any(|m| m == "sealed");
    if kind == "record" {
        item.params = Some(parameters(node.child_by_field_name("parameters"), src));
    }
    out.add(key.to_string(), item);
    out.bases.insert(key.to_string(), bases(node, src));
    let Some(body) = body else { return };
    let interface = kind == "interface" || kind == "annotation";
    let scope = scope.with(declared(node.child_by_field_name("type_parameters"), src));
    let mut members = named(body);
    if let Some(declarations) = members
        .iter()
        .find(|m| m.kind() == "enum_body_declarations")
        .copied()
    {
        members.extend(named(declarations));
    }
    // Closed to implementation by an annotation users are told to respect: its package may
    // add members every implementation must provide (see `closed`).
    let annotations = annotations(node, src);
    let closed_by_name = annotations.iter().any(|a| closed::by_name(a));
    if !closed_by_name && !annotations.is_empty() {
        out.annotated.insert(key.to_string(), annotations);
    }
    for member in members {
        let mods = modifiers(member, src);
        let public = mods.iter().any(|m| m == "public")
            || (interface && !mods.iter().any(|m| m == "private"));
        match member.kind() {
            "enum_constant" => {
                let Some(name) = src.field(member, "name") else {
                    continue;
                };
                let mkey = format!("{key}.{name}");
                let mut v = Item::new("constant", &mkey, mkey.clone());
                v.parent = Some(key.to_string());
                out.add(mkey, v);
            }
            _ if !public => {}
            "method_declaration" | "constructor_declaration" => {
                let constructor = member.kind() == "constructor_declaration";
                let name = if constructor {
                    "<init>"
                } else {
                    src.field(member, "name").unwrap_or("?")
                };
                let params = parameters(member.child_by_field_name("parameters"), src);
                let types: Vec<String> = params.iter().filter_map(|p| p.ty.clone()).collect();
                let family = format!("{key}.{name}");
                let own = scope.with(declared(member.child_by_field_name("type_parameters"), src));
                let erased: Vec<String> = types.iter().map(|t| own.erase(t)).collect();
                let mkey = format!("{family}({})", erased.join(","));
                let ret = (!constructor).then(|| type_text(src, member));
                let display = if constructor {
                    key.rsplit('.').next().unwrap_or(key)
                } else {
                    name
                };
                let generics = src.canonical_field(member, "type_parameters");
                // The type parameters are part of what a reader compares: a bound changed
                // inside them is otherwise the same text on both sides.
                let form = [
                    contract_modifiers(&mods),
                    generics.clone(),
                    ret.clone().unwrap_or_default(),
                    format!("{display}({})", types.join(", ")),
                ]
                .iter()
                .filter(|part| !part.is_empty())
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
                let mut m = Item::new(
                    if constructor { "constructor" } else { "method" },
                    &family,
                    form,
                );
                m.params = Some(params);
                m.ret = ret;
                m.generics = generics;
                m.shape = contract_modifiers(&mods);
                let has_body = member.child_by_field_name("body").is_some();
                m.required = !closed_by_name
                    && ((interface && !has_body && !mods.iter().any(|x| x == "static"))
                        || mods.iter().any(|x| x == "abstract"));
                m.parent = Some(key.to_string());
                out.add(mkey, m);
            }
            "field_declaration" | "constant_declaration" => {
                let ty = type_text(src, member);
                let mut cursor = member.walk();
                let names: Vec<String> = member
                    .children_by_field_name("declarator", &mut cursor)
                    .filter_map(|d| src.field(d, "name").map(str::to_string))
                    .collect();
                for name in names {
                    let mkey = format!("{key}.{name}");
                    let mut f = Item::new("field", &mkey, format!("{ty} {name}"));
                    f.shape = format!("{ty} {}", contract_modifiers(&mods))
                        .trim()
                        .to_string();
                    f.parent = Some(key.to_string());
                    out.add(mkey, f);
                }
            }
            _ if is_type(member) => {
                if let Some(name) = src.field(member, "name") {
                    type_items(member, src, &format!("{key}.{name}"), &scope, out);
                }
            }
            _ => {}
        }
    }
}

/// The class a type extends and the interfaces it implements or extends, as written without
/// type arguments (`AbstractList<E>` is `AbstractList`): a member it no longer declares may
/// still be inherited from one of them.
fn bases(node: Node, src: Src) -> Vec<String> {
    let mut out = Vec::new();
    for clause in named(node) {
        let types = match clause.kind() {
            "superclass" => named(clause),
            "super_interfaces" | "extends_interfaces" => named(clause)
                .into_iter()
                .filter(|c| c.kind() == "type_list")
                .flat_map(named)
                .collect(),
            _ => continue,
        };
        for ty in types {
            let text = src.canonical(ty);
            out.push(text.split('<').next().unwrap_or(&text).to_string());
        }
    }
    out
}
