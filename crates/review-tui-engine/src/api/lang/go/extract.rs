//! Go: capitalised top-level names (the package path decides the rest, see `scope`), exported
//! struct fields and embedded types, interface methods, and methods on exported types.
//! Parameter names are not the contract; their types and the results are.

use tree_sitter::Node;

use crate::api::text::{Src, named};
use crate::api::{Item, Param, ParamKind, Surface};

pub(super) fn exported_name(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// The `shape` of a Go method with a pointer receiver.
pub(in crate::api) const GO_POINTER_RECEIVER: &str = "pointer-receiver";

/// Type literals a defined type may stand for (`type CompletionFunc func(…)`), whose values are
/// assignable to and from the defined type.
const LITERALS: &[&str] = &[
    "function_type",
    "struct_type",
    "slice_type",
    "array_type",
    "map_type",
    "channel_type",
    "pointer_type",
    "interface_type",
];

pub(crate) fn extract(root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
    let public = |name: &str| exported_name(name) && exported(name);
    for node in named(root) {
        match node.kind() {
            "function_declaration" => {
                let Some(name) = src.field(node, "name") else {
                    continue;
                };
                if public(name) {
                    out.add(name.to_string(), callable(node, src, "func", name, None));
                }
            }
            "method_declaration" => {
                let Some(name) = src.field(node, "name") else {
                    continue;
                };
                // `func (s *Server[T]) Close()`: the receiver's type, without `*` or arguments.
                let receiver_type = receiver_type(node)
                    .map(|t| src.canonical(t))
                    .unwrap_or_default();
                let pointer = receiver_type.starts_with('*');
                let type_name = receiver_type
                    .trim_start_matches('*')
                    .split('[')
                    .next()
                    .unwrap_or("")
                    .to_string();
                if !public(&type_name) || !exported_name(name) {
                    continue;
                }
                let key = format!("{type_name}.{name}");
                let mut item = callable(node, src, "method", &key, None);
                item.shape = if pointer {
                    GO_POINTER_RECEIVER.into()
                } else {
                    String::new()
                };
                out.add(key, item);
            }
            "type_declaration" => {
                for spec in named(node) {
                    let Some(name) = src.field(spec, "name") else {
                        continue;
                    };
                    if public(name) {
                        type_spec(spec, src, name, out);
                    } else if spec.kind() == "type_spec"
                        && spec.child_by_field_name("type_parameters").is_none()
                        && let Some(ty) = spec.child_by_field_name("type")
                        && LITERALS.contains(&ty.kind())
                    {
                        // An unexported defined type is still the literal it names (logrus
                        // 1.10's `exitFunc` → `func(int)`): comparisons read it through.
                        out.underlying.insert(name.to_string(), src.canonical(ty));
                    }
                }
            }
            "const_declaration" | "var_declaration" => {
                let mut specs = Vec::new();
                for child in named(node) {
                    if child.kind() == "var_spec_list" {
                        specs.extend(named(child));
                    } else {
                        specs.push(child);
                    }
                }
                let kind = if node.kind() == "const_declaration" {
                    "const"
                } else {
                    "var"
                };
                for spec in specs {
                    let ty = spec.child_by_field_name("type").map(|t| src.canonical(t));
                    let mut cursor = spec.walk();
                    let names: Vec<&str> = spec
                        .children_by_field_name("name", &mut cursor)
                        .map(|n| src.raw(n))
                        .collect();
                    for name in names {
                        if !public(name) {
                            continue;
                        }
                        let mut item = Item::new(
                            kind,
                            name,
                            format!(
                                "{kind} {name}{}",
                                ty.as_ref().map(|t| format!(" {t}")).unwrap_or_default()
                            ),
                        );
                        item.shape = ty.clone().unwrap_or_default();
                        out.add(name.to_string(), item);
                    }
                }
            }
            _ => {}
        }
    }
    // `any` is Go's alias of `interface{}` (gin v1.11.0 rewrote one as the other): one type
    // however it is written.
    let same = |text: &str| text.replace("interface{}", "any");
    for item in out.items.values_mut() {
        for param in item.params.iter_mut().flatten() {
            param.ty = param.ty.as_deref().map(same);
        }
        item.ret = item.ret.as_deref().map(same);
        item.shape = same(&item.shape);
    }
}

/// Parameter types in order, each name of `a, b int` counting once.
/// The type node of a method declaration's receiver (`*Server[T]` in
/// `func (s *Server[T]) Close()`).
pub(super) fn receiver_type(method: Node) -> Option<Node> {
    method
        .child_by_field_name("receiver")
        .and_then(|r| {
            named(r)
                .into_iter()
                .find(|p| p.kind() == "parameter_declaration")
        })
        .and_then(|p| p.child_by_field_name("type"))
}

fn parameters(list: Option<Node>, src: Src) -> Vec<Param> {
    let Some(list) = list else { return Vec::new() };
    let mut params = Vec::new();
    for p in named(list) {
        let kind = match p.kind() {
            "parameter_declaration" => ParamKind::Positional,
            "variadic_parameter_declaration" => ParamKind::Variadic,
            _ => continue,
        };
        let ty = p.child_by_field_name("type").map(|t| src.canonical(t));
        let mut cursor = p.walk();
        let count = p.children_by_field_name("name", &mut cursor).count().max(1);
        for _ in 0..count {
            params.push(Param {
                name: None,
                ty: ty.clone().map(|t| {
                    if kind == ParamKind::Variadic {
                        format!("...{t}")
                    } else {
                        t
                    }
                }),
                kind,
                optional: false,
            });
        }
    }
    params
}

pub(super) fn callable(
    node: Node,
    src: Src,
    kind: &'static str,
    key: &str,
    parent: Option<&str>,
) -> Item {
    let skip: Vec<Node> = node.child_by_field_name("body").into_iter().collect();
    let mut item = Item::new(kind, key, src.canonical_without(node, &skip));
    item.params = Some(parameters(node.child_by_field_name("parameters"), src));
    item.ret = node.child_by_field_name("result").map(|r| {
        if r.kind() == "parameter_list" {
            let types: Vec<String> = parameters(Some(r), src)
                .into_iter()
                .filter_map(|p| p.ty)
                .collect();
            // `(err error)` and `error` are one result.
            match types.as_slice() {
                [one] => one.clone(),
                _ => format!("({})", types.join(", ")),
            }
        } else {
            src.canonical(r)
        }
    });
    item.generics = src.canonical_field(node, "type_parameters");
    item.parent = parent.map(str::to_string);
    item
}

fn type_spec(spec: Node, src: Src, name: &str, out: &mut Surface) {
    let ty = spec.child_by_field_name("type");
    let generics = src.canonical_field(spec, "type_parameters");
    match ty.map(|t| t.kind()) {
        Some("struct_type") if spec.kind() == "type_spec" => {
            let mut item = Item::new("struct", name, format!("type {name}{generics} struct"));
            item.generics = generics;
            out.add(name.to_string(), item);
            let Some(list) = ty.and_then(|t| {
                named(t)
                    .into_iter()
                    .find(|c| c.kind() == "field_declaration_list")
            }) else {
                return;
            };
            for field in named(list)
                .into_iter()
                .filter(|f| f.kind() == "field_declaration")
            {
                let field_type = field
                    .child_by_field_name("type")
                    .map(|t| src.canonical(t))
                    .unwrap_or_default();
                let mut cursor = field.walk();
                let mut names: Vec<String> = field
                    .children_by_field_name("name", &mut cursor)
                    .map(|n| src.raw(n).to_string())
                    .collect();
                if names.is_empty() {
                    // An embedded type is a field named by its type.
                    names.push(
                        field_type
                            .trim_start_matches('*')
                            .rsplit('.')
                            .next()
                            .unwrap_or("")
                            .split('[')
                            .next()
                            .unwrap_or("")
                            .to_string(),
                    );
                }
                for field_name in names.into_iter().filter(|n| exported_name(n)) {
                    let key = format!("{name}.{field_name}");
                    let mut f = Item::new("field", &key, format!("{field_name} {field_type}"));
                    f.shape = field_type.clone();
                    f.parent = Some(name.to_string());
                    out.add(key, f);
                }
            }
        }
        Some("interface_type") if spec.kind() == "type_spec" => {
            let mut item = Item::new(
                "interface",
                name,
                format!("type {name}{generics} interface"),
            );
            item.generics = generics;
            // An unexported method: no other package can implement it (save by embedding
            // the interface, which keeps implementing it whatever it gains).
            item.sealed = named(ty.unwrap_or(spec)).into_iter().any(|member| {
                member.kind() == "method_elem"
                    && src.field(member, "name").is_some_and(|m| !exported_name(m))
            });
            out.add(name.to_string(), item);
            for member in named(ty.unwrap_or(spec)) {
                match member.kind() {
                    "method_elem" => {
                        let Some(method) = src.field(member, "name") else {
                            continue;
                        };
                        let key = format!("{name}.{method}");
                        let mut m = callable(member, src, "method", &key, Some(name));
                        // Every implementation must have every method; unexported ones too,
                        // but only exported ones are reported by name.
                        m.required = true;
                        if exported_name(method) {
                            out.add(key, m);
                        }
                    }
                    "type_elem" => {
                        let key = format!("{name}.{}", src.canonical(member));
                        let mut e = Item::new("embedded", &key, src.canonical(member));
                        e.parent = Some(name.to_string());
                        e.required = true;
                        out.add(key, e);
                        // Its methods are this interface's (the method set is the union).
                        let embedded = src.canonical(member);
                        let embedded = embedded.split('[').next().unwrap_or(&embedded).trim();
                        out.bases
                            .entry(name.to_string())
                            .or_default()
                            .push(embedded.to_string());
                    }
                    _ => {}
                }
            }
        }
        _ => {
            let target = ty.map(|t| src.canonical(t)).unwrap_or_default();
            let alias = spec.kind() == "type_alias";
            let mut item = Item::new(
                "type",
                name,
                format!(
                    "type {name}{generics} {}{target}",
                    if alias { "= " } else { "" }
                ),
            );
            if alias && generics.is_empty() {
                out.aliases.insert(name.to_string(), target.clone());
            }
            let literal = ty.is_some_and(|t| LITERALS.contains(&t.kind()));
            if !alias && literal && generics.is_empty() {
                out.underlying.insert(name.to_string(), target.clone());
            }
            item.generics = generics;
            item.shape = target;
            out.add(name.to_string(), item);
        }
    }
}
