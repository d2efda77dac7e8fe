//! Python: module-level functions, classes and names without a leading underscore (or the
//! names in `__all__` when the module declares it), public methods and class attributes.
//! Arguments bind by position and by name, so parameter names are part of the contract;
//! type hints are not (Python does not enforce them), nor are default values.

use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::api::text::{Src, named};
use crate::api::{Item, OVERLOADED, Param, ParamKind, Surface};

pub(crate) fn extract(root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
    let declared = dunder_all(root, src);
    out.declared_names = declared.clone();
    let public = |name: &str| match &declared {
        Some(names) => names.contains(name),
        None => !name.starts_with('_'),
    };
    // Left out of a declared `__all__` but public by name: still importable by its name
    // (requests 2.34 added `__all__` without `check_compatibility`), only no longer promised,
    // as a Rust `#[doc(hidden)]` item.
    let withheld = |name: &str| declared.is_some() && !public(name) && !name.starts_with('_');
    let mut top = Vec::new();
    let mut checkers_only = Vec::new();
    flatten(root, src, &mut top, &mut checkers_only);
    for node in checkers_only {
        let (definition, _) = undecorate(node, src);
        match definition.kind() {
            "expression_statement" => out.typing_only.extend(assigned(definition, src)),
            _ => out
                .typing_only
                .extend(src.field(definition, "name").map(str::to_string)),
        }
    }
    // `try: import rich / except ImportError: rich = None` (typer): the fallback assignment is
    // the import's binding, a module the file uses, not a value it offers.
    let import_bound: BTreeSet<String> = top
        .iter()
        .filter(|n| matches!(n.kind(), "import_from_statement" | "import_statement"))
        .flat_map(|n| imported(*n, src))
        .collect();
    out.served = served(&top, src);
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
                    if withheld(&name) && exported(&name) {
                        out.hidden.insert(name.clone());
                    }
                    if public(&name)
                        && exported(&name)
                        && name != "__all__"
                        && !import_bound.contains(&name)
                    {
                        let mut item = Item::new("variable", &name, name.clone());
                        if type_expression(node, src) {
                            item.shape = TYPE_EXPRESSION.to_string();
                        }
                        out.add(name.clone(), item);
                    }
                }
            }
            _ => {
                let (definition, decorators) = undecorate(node, src);
                let Some(name) = src.field(definition, "name") else {
                    continue;
                };
                if withheld(name) && exported(name) {
                    out.hidden.insert(name.to_string());
                }
                if !public(name) || !exported(name) {
                    continue;
                }
                // `def pytest_addoption(parser)`: a pytest plugin's hook implementation, found
                // and called by pytest through its name (pluggy's protocol, signatures set by
                // pytest's hook specifications), never by users' code.
                if definition.kind() == "function_definition"
                    && name.starts_with("pytest_")
                    && declared.as_ref().is_none_or(|names| !names.contains(name))
                {
                    continue;
                }
                definition_items(definition, &decorators, src, name, None, out);
            }
        }
    }
    fold_overloads(out);
}

/// The shape of a module-level name bound to a type expression (`AmqpDsn =
/// Annotated[Url, UrlConstraints(…)]`, `Json = Union[…]`, `x: TypeAlias = …`): a type, used in
/// annotations as a class of its name would be.
pub(crate) const TYPE_EXPRESSION: &str = "type expression";

/// Whether an assignment statement binds a type expression: its value subscripts a typing
/// construct or names a class (CamelCase), or it is annotated `TypeAlias`.
fn type_expression(statement: Node, src: Src) -> bool {
    let Some(assignment) = named(statement)
        .into_iter()
        .find(|n| n.kind() == "assignment")
    else {
        return false;
    };
    if src
        .field(assignment, "type")
        .is_some_and(|t| t.trim().ends_with("TypeAlias"))
    {
        return true;
    }
    let Some(value) = assignment.child_by_field_name("right") else {
        return false;
    };
    // `AnyUrl = Url`: another class's name (CamelCase, not a CONSTANT) bound again.
    if matches!(value.kind(), "identifier" | "attribute") {
        let name = src.raw(value);
        let last = name.rsplit('.').next().unwrap_or(name);
        return last.starts_with(|c: char| c.is_ascii_uppercase())
            && last.chars().any(|c| c.is_ascii_lowercase());
    }
    value.kind() == "subscript"
        && src.field(value, "value").is_some_and(|base| {
            let base = base.rsplit('.').next().unwrap_or(base);
            matches!(
                base,
                "Annotated" | "Union" | "Optional" | "Literal" | "Callable" | "Type" | "type"
            )
        })
}

/// Each function with `@overload` signatures read as their set (see [`OVERLOADED`]): its
/// shape lists them, and its parameters are whatever a call passes, as the implementation's
/// own (`*args, **kwargs` behind the overloads) is no contract.
fn fold_overloads(out: &mut Surface) {
    for (key, mut forms) in std::mem::take(&mut out.overloads) {
        let Some(item) = out.items.get_mut(&key) else {
            continue;
        };
        forms.sort();
        forms.dedup();
        item.shape = format!("{OVERLOADED}{}", forms.join(" | "));
        let any = |name: &str, kind| Param {
            name: Some(name.to_string()),
            ty: None,
            kind,
            optional: true,
        };
        let receiver = item
            .params
            .as_ref()
            .and_then(|params| params.first())
            .filter(|p| p.kind == ParamKind::Receiver)
            .cloned();
        item.params = Some(
            receiver
                .into_iter()
                .chain([
                    any("args", ParamKind::Variadic),
                    any("kwargs", ParamKind::VariadicKeyword),
                ])
                .collect(),
        );
        item.ret = None;
    }
}

/// Module-level statements, looking inside `if`/`try`/`with` blocks (conditional imports and
/// definitions are still module-level names). What only type checkers see, under
/// `if TYPE_CHECKING:`, is not there when the module runs: the `else` branch is.
fn flatten<'t>(node: Node<'t>, src: Src, out: &mut Vec<Node<'t>>, checkers: &mut Vec<Node<'t>>) {
    for child in named(node) {
        if child.kind() == "if_statement" && type_checking_only(child, src) {
            if let Some(consequence) = child.child_by_field_name("consequence") {
                let mut ignored = Vec::new();
                flatten(consequence, src, checkers, &mut ignored);
            }
            let mut cursor = child.walk();
            for alternative in child.children_by_field_name("alternative", &mut cursor) {
                flatten(alternative, src, out, checkers);
            }
            continue;
        }
        match child.kind() {
            "if_statement" | "try_statement" | "with_statement" | "else_clause" | "elif_clause"
            | "except_clause" | "finally_clause" | "block" => flatten(child, src, out, checkers),
            _ => out.push(child),
        }
    }
}

/// The names a module-level `__getattr__` (PEP 562) answers with a value: the strings an
/// `if`/`elif` condition in it tests (`name == "LazyFile"`, `name in {"LazyFile", …}`, or a
/// module-level collection it names, `name in _DEPRECATED`) when that branch returns. A branch
/// that only raises (`if name in _REMOVED: raise AttributeError(…)`) serves nothing.
fn served(top: &[Node], src: Src) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let hook = top.iter().find(|n| {
        n.kind() == "function_definition" && src.field(**n, "name") == Some("__getattr__")
    });
    let Some(body) = hook.and_then(|h| h.child_by_field_name("body")) else {
        return names;
    };
    // Module-level collections a condition may name.
    let collection = |identifier: &str| {
        top.iter()
            .filter(|n| n.kind() == "expression_statement")
            .flat_map(|n| named(*n))
            .filter(|a| a.kind() == "assignment" && src.field(*a, "left") == Some(identifier))
            .filter_map(|a| a.child_by_field_name("right"))
            .find(|right| matches!(right.kind(), "set" | "list" | "tuple" | "dictionary"))
    };
    let mut branches = Vec::new();
    collect_branches(body, &mut branches);
    for (condition, consequence) in branches {
        if !returns(consequence) {
            continue;
        }
        let mut stack = vec![condition];
        while let Some(node) = stack.pop() {
            match node.kind() {
                "string" => names.extend(string_value(node, src)),
                "identifier" => {
                    if let Some(values) = collection(src.raw(node)) {
                        // A dictionary's keys are the names asked for; its values are what
                        // they map to.
                        if values.kind() == "dictionary" {
                            stack.extend(
                                named(values)
                                    .into_iter()
                                    .filter_map(|pair| pair.child_by_field_name("key")),
                            );
                        } else {
                            stack.extend(named(values));
                        }
                    }
                }
                _ => stack.extend(named(node)),
            }
        }
    }
    names
}

/// The `(condition, consequence)` of each `if` and `elif` in a function body, nested blocks
/// included, nested functions and classes not.
fn collect_branches<'t>(node: Node<'t>, out: &mut Vec<(Node<'t>, Node<'t>)>) {
    for child in named(node) {
        match child.kind() {
            "function_definition" | "class_definition" | "decorated_definition" | "lambda" => {
                continue;
            }
            "if_statement" | "elif_clause" => {
                if let (Some(condition), Some(consequence)) = (
                    child.child_by_field_name("condition"),
                    child.child_by_field_name("consequence"),
                ) {
                    out.push((condition, consequence));
                }
            }
            _ => {}
        }
        collect_branches(child, out);
    }
}

/// Whether a block returns a value somewhere (outside nested functions).
fn returns(block: Node) -> bool {
    named(block).into_iter().any(|child| match child.kind() {
        "function_definition" | "class_definition" | "decorated_definition" | "lambda" => false,
        "return_statement" => child.named_child_count() > 0,
        _ => returns(child),
    })
}

/// The text of a plain string literal (`"LazyFile"`, `'LazyFile'`); f-strings and
/// concatenations name no one name.
fn string_value(node: Node, src: Src) -> Option<String> {
    let raw = src.raw(node);
    let quote = raw.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let text = raw.trim_matches(quote);
    (!text.is_empty() && !text.contains(quote)).then(|| text.to_string())
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

/// The names a module's `__all__` lists, when it declares one that can be read: literal
/// lists and tuples of plain strings assigned, added with `+=`, or passed to `.append` and
/// `.extend` (a `.remove` is taken as in some environment only), at the top level or in its
/// `if`/`try` blocks. `None` without one,
/// and when any of them is computed (`[n for n in dir() …]`, `[…] + other.__all__`, an f-string):
/// what it lists is then unknown, so every public name counts and no removal goes unseen.
fn dunder_all(root: Node, src: Src) -> Option<BTreeSet<String>> {
    let (mut statements, mut checkers) = (Vec::new(), Vec::new());
    flatten(root, src, &mut statements, &mut checkers);
    statements.extend(checkers);
    let mut names: Option<BTreeSet<String>> = None;
    for statement in statements {
        if statement.kind() != "expression_statement" {
            continue;
        }
        for expression in named(statement) {
            match expression.kind() {
                "assignment" | "augmented_assignment"
                    if src.field(expression, "left") == Some("__all__") =>
                {
                    let listed = expression
                        .child_by_field_name("right")
                        .and_then(|right| literal_strings(right, src))?;
                    // Assignments in different branches each list what one environment
                    // exports: their union is what some user may import.
                    names.get_or_insert_with(BTreeSet::new).extend(listed);
                }
                "call" => {
                    let Some(method) = src
                        .field(expression, "function")
                        .and_then(|f| f.strip_prefix("__all__."))
                    else {
                        continue;
                    };
                    let arguments: Vec<Node> = expression
                        .child_by_field_name("arguments")
                        .map(named)
                        .unwrap_or_default();
                    let [argument] = arguments[..] else {
                        return None;
                    };
                    let set = names.get_or_insert_with(BTreeSet::new);
                    match method {
                        "append" => set.insert(string_value(argument, src)?),
                        "extend" => {
                            set.extend(literal_strings(argument, src)?);
                            true
                        }
                        // Perhaps only in some environment: still listed in the others.
                        "remove" => string_value(argument, src).is_some(),
                        _ => return None,
                    };
                }
                _ => {}
            }
        }
    }
    names
}

/// The strings of a list or tuple literal whose every element is a plain string; `None` for
/// anything else.
fn literal_strings(node: Node, src: Src) -> Option<Vec<String>> {
    let node = if node.kind() == "parenthesized_expression" {
        named(node).into_iter().next()?
    } else {
        node
    };
    if !matches!(node.kind(), "list" | "tuple") {
        return None;
    }
    named(node)
        .into_iter()
        .filter(|element| !element.kind().contains("comment"))
        .map(|element| {
            (element.kind() == "string")
                .then(|| string_value(element, src))
                .flatten()
        })
        .collect()
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
        .map(|d| {
            // The decorator's expression, without a comment on its line (pydantic 2.10's
            // `@overload  # `default` argument set`).
            named(d)
                .into_iter()
                .find(|e| !e.kind().contains("comment"))
                .map_or_else(
                    || src.raw(d).trim_start_matches('@').trim().to_string(),
                    |e| src.raw(e).trim().to_string(),
                )
        })
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
            if decorated("overload") {
                let skip: Vec<Node> = node.child_by_field_name("body").into_iter().collect();
                out.overloads
                    .entry(key)
                    .or_default()
                    .push(src.canonical_without(node, &skip));
                return;
            }
            if decorators
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
            let mut params = without_private(
                node.child_by_field_name("parameters")
                    .map(|p| parameters(p, src, receiver))
                    .unwrap_or_default(),
            );
            // The interpreter calls a protocol method (`__exit__`, `__eq__`, `__getitem__`)
            // with positional arguments: its parameter names bind no caller (click 8.1.x
            // wrote `__exit__(self, exc_type, exc_value, tb)` as `__exit__(self, *_)`).
            if parent.is_some() && protocol_method(name) {
                for param in &mut params {
                    if param.kind == ParamKind::PositionalOrKeyword {
                        param.kind = ParamKind::Positional;
                    }
                }
            }
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
            // An `async def` that yields is an async generator function: a call returns the
            // async iterator at once, as a plain `def` returning one does (jinja 3.1.5's
            // `auto_aiter`); only a coroutine must be awaited.
            item.shape = if is_async && !yields(node) {
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
            // Members defined in branches of the class body count: a method defined under
            // `if not TYPE_CHECKING:` (pydantic 2.11's `__replace__`), an attribute declared
            // for type checkers with its runtime value in the `else` (2.6's
            // `model_computed_fields`).
            let (mut members, mut checkers) = (Vec::new(), Vec::new());
            flatten(body, src, &mut members, &mut checkers);
            members.extend(checkers);
            for member in members {
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

/// The parameters without the private ones callers never pass: optional, named with one
/// leading underscore like a private name (rich 14.3's `cell_len(text, _cell_len=…)` became
/// `cell_len(text, unicode_version="auto")`), keyword-only or after every public positional
/// one (a caller passing a later one by position would pass the private one too). A
/// required one is passed by every caller, and `__name` is positional-only by convention.
fn without_private(params: Vec<Param>) -> Vec<Param> {
    let private = |p: &Param| {
        p.optional
            && p.name
                .as_deref()
                .is_some_and(|n| n.starts_with('_') && !n.starts_with("__"))
    };
    let positional = |p: &Param| {
        matches!(
            p.kind,
            ParamKind::Positional | ParamKind::PositionalOrKeyword
        )
    };
    let keep: Vec<bool> = params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let dropped = private(p)
                && match p.kind {
                    ParamKind::KeywordOnly => true,
                    ParamKind::Positional | ParamKind::PositionalOrKeyword => params[i + 1..]
                        .iter()
                        .all(|later| !positional(later) || private(later)),
                    _ => false,
                };
            !dropped
        })
        .collect();
    params
        .into_iter()
        .zip(keep)
        .filter_map(|(p, keep)| keep.then_some(p))
        .collect()
}

/// A special method the interpreter invokes with positional arguments for an operation
/// (`with`, `==`, `x[i]`, `x + y`, `copy.deepcopy`, `pickle`...). Not the ones that pass a
/// caller's own arguments on, by name too: `__init__`, `__new__`, `__call__`,
/// `__init_subclass__`, `__replace__` (`copy.replace(obj, **changes)`), `__prepare__`.
fn protocol_method(name: &str) -> bool {
    const NAMED: &[&str] = &[
        "enter",
        "exit",
        "aenter",
        "aexit",
        "getattr",
        "getattribute",
        "setattr",
        "delattr",
        "get",
        "set",
        "delete",
        "set_name",
        "getitem",
        "setitem",
        "delitem",
        "missing",
        "contains",
        "len",
        "length_hint",
        "iter",
        "next",
        "reversed",
        "aiter",
        "anext",
        "await",
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "hash",
        "bool",
        "repr",
        "str",
        "bytes",
        "format",
        "neg",
        "pos",
        "abs",
        "invert",
        "complex",
        "int",
        "float",
        "index",
        "round",
        "trunc",
        "floor",
        "ceil",
        "reduce",
        "reduce_ex",
        "getstate",
        "setstate",
        "getnewargs",
        "getnewargs_ex",
        "copy",
        "deepcopy",
        "instancecheck",
        "subclasscheck",
        "class_getitem",
        "dir",
        "sizeof",
        "fspath",
        "buffer",
        "release_buffer",
        "del",
    ];
    /// Binary operators, each also reflected (`__radd__`) and in place (`__iadd__`).
    const OPERATORS: &[&str] = &[
        "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod", "pow", "lshift",
        "rshift", "and", "xor", "or",
    ];
    let Some(inner) = name.strip_prefix("__").and_then(|n| n.strip_suffix("__")) else {
        return false;
    };
    NAMED.contains(&inner)
        || OPERATORS.contains(&inner)
        || inner
            .strip_prefix('r')
            .or_else(|| inner.strip_prefix('i'))
            .is_some_and(|op| OPERATORS.contains(&op))
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

/// Whether the function `node` yields: a `yield` in its own body, not in a function, class or
/// lambda defined inside it.
fn yields(node: Node) -> bool {
    let Some(body) = node.child_by_field_name("body") else {
        return false;
    };
    let mut stack = vec![body];
    while let Some(at) = stack.pop() {
        if at.kind() == "yield" {
            return true;
        }
        if matches!(
            at.kind(),
            "function_definition" | "class_definition" | "lambda"
        ) {
            continue;
        }
        let mut cursor = at.walk();
        stack.extend(at.children(&mut cursor));
    }
    false
}
