//! Python: module-level functions, classes and names without a leading underscore (or the
//! names in `__all__` when the module declares it), public methods and class attributes.
//! Arguments bind by position and by name, so parameter names are part of the contract;
//! type hints are not (Python does not enforce them), nor are default values.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::text::{Src, named};
use super::{Item, Param, ParamKind, Surface};

pub fn extract(root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
    let declared = dunder_all(root, src);
    let public = |name: &str| match &declared {
        Some(names) => names.contains(name),
        None => !name.starts_with('_'),
    };
    let mut top = Vec::new();
    flatten(root, src, &mut top);
    // `try: import rich / except ImportError: rich = None` (typer): the fallback assignment is
    // the import's binding, a module the file uses, not a value it offers.
    let import_bound: BTreeSet<String> = top
        .iter()
        .filter(|n| matches!(n.kind(), "import_from_statement" | "import_statement"))
        .flat_map(|n| imported(*n, src))
        .collect();
    for node in top {
        match node.kind() {
            "import_from_statement" | "import_statement" => {
                for name in imported(node, src) {
                    out.reexports.insert(name);
                }
            }
            // `T = TypeVar("T")` names a variable of signatures, not a value callers use
            // (click 8.4.2 renamed `ParamTypeValue` to `_ValueT_co`).
            "expression_statement" if type_variable(node, src) => {}
            "expression_statement" => {
                for name in assigned(node, src) {
                    if public(&name)
                        && exported(&name)
                        && name != "__all__"
                        && !import_bound.contains(&name)
                    {
                        let item = Item::new("variable", &name, name.clone());
                        out.add(name.clone(), item);
                    }
                }
            }
            _ => {
                let (definition, decorators) = undecorate(node, src);
                let Some(name) = src.field(definition, "name") else {
                    continue;
                };
                if !public(name) || !exported(name) {
                    continue;
                }
                definition_items(definition, &decorators, src, name, None, out);
            }
        }
    }
}

/// Module-level statements, looking inside `if`/`try`/`with` blocks (conditional imports and
/// definitions are still module-level names). What only type checkers see, under
/// `if TYPE_CHECKING:`, is not there when the module runs: the `else` branch is.
fn flatten<'t>(node: Node<'t>, src: Src, out: &mut Vec<Node<'t>>) {
    for child in named(node) {
        if child.kind() == "if_statement" && type_checking_only(child, src) {
            let mut cursor = child.walk();
            for alternative in child.children_by_field_name("alternative", &mut cursor) {
                flatten(alternative, src, out);
            }
            continue;
        }
        match child.kind() {
            "if_statement" | "try_statement" | "with_statement" | "else_clause" | "elif_clause"
            | "except_clause" | "finally_clause" | "block" => flatten(child, src, out),
            _ => out.push(child),
        }
    }
}

/// `if TYPE_CHECKING:`, `if t.TYPE_CHECKING:`, `if typing.TYPE_CHECKING:`.
fn type_checking_only(statement: Node, src: Src) -> bool {
    src.field(statement, "condition")
        .is_some_and(|c| c.rsplit('.').next() == Some("TYPE_CHECKING"))
}

/// Whether a statement binds a type variable: `T = TypeVar("T")`, `P = t.ParamSpec("P")`.
fn type_variable(statement: Node, src: Src) -> bool {
    named(statement).into_iter().any(|a| {
        a.kind() == "assignment"
            && a.child_by_field_name("right").is_some_and(|right| {
                right.kind() == "call"
                    && src.field(right, "function").is_some_and(|f| {
                        matches!(
                            f.rsplit('.').next(),
                            Some("TypeVar" | "ParamSpec" | "TypeVarTuple")
                        )
                    })
            })
    })
}

/// The names of `__all__ = [...]` (and `+=`), when the module declares it.
fn dunder_all(root: Node, src: Src) -> Option<BTreeSet<String>> {
    let mut names: Option<BTreeSet<String>> = None;
    for statement in named(root) {
        if statement.kind() != "expression_statement" {
            continue;
        }
        for assignment in named(statement) {
            if !matches!(assignment.kind(), "assignment" | "augmented_assignment")
                || src.field(assignment, "left") != Some("__all__")
            {
                continue;
            }
            let Some(right) = assignment.child_by_field_name("right") else {
                continue;
            };
            let set = names.get_or_insert_with(BTreeSet::new);
            let mut stack = vec![right];
            while let Some(node) = stack.pop() {
                if node.kind() == "string" {
                    let text = src.raw(node).trim_matches(|c| c == '"' || c == '\'');
                    set.insert(text.to_string());
                } else {
                    stack.extend(named(node));
                }
            }
        }
    }
    names
}

fn imported(node: Node, src: Src) -> Vec<String> {
    let mut names = Vec::new();
    let module = node.child_by_field_name("module_name").map(|m| m.id());
    for child in named(node) {
        if Some(child.id()) == module {
            continue;
        }
        match child.kind() {
            "aliased_import" => names.extend(src.field(child, "alias").map(str::to_string)),
            "dotted_name" => names.extend(src.raw(child).rsplit('.').next().map(str::to_string)),
            "wildcard_import" => names.push("*".to_string()),
            _ => {}
        }
    }
    names
}

/// Names bound by a plain `name = ...` or `name: T` statement; attributes (`obj.x = ...`)
/// and subscripts are not definitions.
fn assigned(statement: Node, src: Src) -> Vec<String> {
    named(statement)
        .into_iter()
        .filter(|a| a.kind() == "assignment")
        .filter_map(|a| a.child_by_field_name("left"))
        .filter(|left| left.kind() == "identifier")
        .map(|left| src.raw(left).to_string())
        .collect()
}

/// The names a class's methods assign on their receiver (`self.limit = …`, `self.a, self.b =
/// …`), anywhere in their bodies; nested classes and functions have receivers of their own.
fn instance_assignments(body: Node, src: Src) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for member in named(body) {
        let (definition, _) = undecorate(member, src);
        if definition.kind() != "function_definition" {
            continue;
        }
        let receiver = definition
            .child_by_field_name("parameters")
            .and_then(|list| named(list).into_iter().next())
            .filter(|first| first.kind() == "identifier")
            .map(|first| src.raw(first).to_string());
        let (Some(receiver), Some(code)) = (receiver, definition.child_by_field_name("body"))
        else {
            continue;
        };
        collect_receiver_assignments(code, &receiver, src, &mut names);
    }
    names
}

fn collect_receiver_assignments(
    node: Node,
    receiver: &str,
    src: Src,
    names: &mut BTreeSet<String>,
) {
    for child in named(node) {
        match child.kind() {
            "function_definition" | "class_definition" | "lambda" => continue,
            "assignment" | "augmented_assignment" => {
                if let Some(left) = child.child_by_field_name("left") {
                    let targets = if left.kind() == "attribute" {
                        vec![left]
                    } else {
                        named(left)
                    };
                    for target in targets {
                        if target.kind() == "attribute"
                            && target
                                .child_by_field_name("object")
                                .is_some_and(|o| o.kind() == "identifier" && src.raw(o) == receiver)
                            && let Some(attribute) = target.child_by_field_name("attribute")
                        {
                            names.insert(src.raw(attribute).to_string());
                        }
                    }
                }
            }
            _ => {}
        }
        collect_receiver_assignments(child, receiver, src, names);
    }
}

fn undecorate<'t>(node: Node<'t>, src: Src) -> (Node<'t>, Vec<String>) {
    if node.kind() != "decorated_definition" {
        return (node, Vec::new());
    }
    let decorators = named(node)
        .into_iter()
        .filter(|c| c.kind() == "decorator")
        .map(|d| src.raw(d).trim_start_matches('@').trim().to_string())
        .collect();
    (
        node.child_by_field_name("definition").unwrap_or(node),
        decorators,
    )
}

fn definition_items(
    node: Node,
    decorators: &[String],
    src: Src,
    name: &str,
    parent: Option<&str>,
    out: &mut Surface,
) {
    let key = match parent {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    };
    let decorated = |d: &str| {
        decorators
            .iter()
            .any(|x| x == d || x.ends_with(&format!(".{d}")))
    };
    match node.kind() {
        "function_definition" => {
            // Overload stubs describe the implementation that follows; setters and deleters
            // belong to the property.
            if decorated("overload")
                || decorators
                    .iter()
                    .any(|d| d.ends_with(".setter") || d.ends_with(".deleter"))
            {
                return;
            }
            // `@property`, `@cached_property`, `@locked_cached_property`, `@abc.abstractproperty`:
            // a descriptor named for what it is; callers read the attribute either way.
            let descriptor = decorators.iter().any(|d| {
                let name = d.split('(').next().unwrap_or(d).trim();
                name.rsplit('.')
                    .next()
                    .unwrap_or(name)
                    .ends_with("property")
            });
            if descriptor {
                let mut item = Item::new("property", &key, format!("property {name}"));
                item.parent = parent.map(str::to_string);
                out.add(key, item);
                return;
            }
            let receiver = parent.is_some() && !decorated("staticmethod");
            let kind = if parent.is_some() { "method" } else { "def" };
            let params = node
                .child_by_field_name("parameters")
                .map(|p| parameters(p, src, receiver))
                .unwrap_or_default();
            let is_async = src.raw(node).trim_start().starts_with("async");
            let form = format!(
                "{}def {name}{}",
                if is_async { "async " } else { "" },
                node.child_by_field_name("parameters")
                    .map(|p| src.canonical(p))
                    .unwrap_or_default()
            );
            let mut item = Item::new(kind, &key, form);
            item.params = Some(params);
            item.shape = if is_async {
                "async".into()
            } else {
                String::new()
            };
            item.parent = parent.map(str::to_string);
            out.add(key, item);
        }
        "class_definition" => {
            let skip: Vec<Node> = node.child_by_field_name("body").into_iter().collect();
            let mut item = Item::new("class", &key, src.canonical_without(node, &skip));
            item.parent = parent.map(str::to_string);
            out.add(key.clone(), item);
            let bases: Vec<String> = node
                .child_by_field_name("superclasses")
                .map(named)
                .unwrap_or_default()
                .into_iter()
                .filter(|b| matches!(b.kind(), "identifier" | "attribute" | "subscript"))
                .map(|b| {
                    let text = src.canonical(b);
                    // `Generic[T]` is `Generic`.
                    text.split('[').next().unwrap_or(&text).to_string()
                })
                .collect();
            out.bases.insert(key.clone(), bases);
            let Some(body) = node.child_by_field_name("body") else {
                return;
            };
            for attribute in instance_assignments(body, src) {
                if !attribute.starts_with('_') {
                    out.instance_attributes.insert(format!("{key}.{attribute}"));
                }
            }
            for member in named(body) {
                if member.kind() == "expression_statement" {
                    for attribute in assigned(member, src) {
                        if !attribute.starts_with('_') {
                            let akey = format!("{key}.{attribute}");
                            let mut a = Item::new("attribute", &akey, attribute.clone());
                            a.parent = Some(key.clone());
                            out.add(akey, a);
                        }
                    }
                    continue;
                }
                let (definition, decorators) = undecorate(member, src);
                let Some(member_name) = src.field(definition, "name") else {
                    continue;
                };
                let dunder = member_name.starts_with("__") && member_name.ends_with("__");
                if member_name.starts_with('_') && !dunder {
                    continue;
                }
                definition_items(definition, &decorators, src, member_name, Some(&key), out);
            }
        }
        _ => {}
    }
}

fn parameters(list: Node, src: Src, receiver: bool) -> Vec<Param> {
    let mut params = Vec::new();
    let mut keyword_only = false;
    for p in named(list) {
        // A `# type: ignore` between parameters is not one.
        if p.kind() == "comment" {
            continue;
        }
        let (inner, optional) = match p.kind() {
            "default_parameter" | "typed_default_parameter" => {
                (p.child_by_field_name("name").unwrap_or(p), true)
            }
            "typed_parameter" => (named(p).into_iter().next().unwrap_or(p), false),
            _ => (p, false),
        };
        let (kind, name) = match inner.kind() {
            "keyword_separator" => {
                keyword_only = true;
                continue;
            }
            "positional_separator" => {
                // Everything before `/` binds by position only.
                for earlier in params.iter_mut() {
                    let earlier: &mut Param = earlier;
                    if earlier.kind == ParamKind::PositionalOrKeyword {
                        earlier.kind = ParamKind::Positional;
                    }
                }
                continue;
            }
            "list_splat_pattern" => {
                keyword_only = true;
                (ParamKind::Variadic, src.raw(inner).trim_start_matches('*'))
            }
            "dictionary_splat_pattern" => (
                ParamKind::VariadicKeyword,
                src.raw(inner).trim_start_matches('*'),
            ),
            "identifier" if keyword_only => (ParamKind::KeywordOnly, src.raw(inner)),
            // `__name` (not `__name__`) is positional-only by convention (PEP 484), and in a
            // method the compiler mangles it, so no caller can pass it by that name.
            "identifier" if src.raw(inner).starts_with("__") && !src.raw(inner).ends_with("__") => {
                (ParamKind::Positional, src.raw(inner))
            }
            "identifier" => (ParamKind::PositionalOrKeyword, src.raw(inner)),
            _ => (ParamKind::PositionalOrKeyword, src.raw(inner)),
        };
        let kind = if receiver && params.is_empty() && kind == ParamKind::PositionalOrKeyword {
            ParamKind::Receiver
        } else {
            kind
        };
        params.push(Param {
            name: Some(name.to_string()),
            ty: None,
            kind,
            optional,
        });
    }
    params
}
