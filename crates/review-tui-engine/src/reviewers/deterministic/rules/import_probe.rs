//! Optional-import feature detection: a Python `try` whose body only imports modules and uses
//! what it imported asks "is this installed, and does it work here?", and a handler that
//! passes answers "no" (loguru's `try: import ipykernel; import IPython; ipython =
//! IPython.get_ipython(); is_jupyter_stream = isinstance(stream, ipykernel.iostream.OutStream)`
//! … `except Exception: pass` … `else:`). Nothing of the program's own is lost there.
//!
//! A `try` that also does the program's own work is no probe: its body calls, reads an
//! attribute of, or stores into anything it did not import (`cache.refresh()`,
//! `self.ip = …`), or hands the program's values to the module it imported
//! (`shutil.rmtree(path)` does the program's work with a module, it asks nothing of it). The
//! program's values may only be inspected, by the built-ins that ask about a value
//! (`isinstance(stream, …)`, `hasattr`, `getattr`). A body of any other statement (`if`,
//! `return`, a loop) is the program's logic, not a probe.

use std::collections::HashSet;

use tree_sitter::Node;

/// Built-ins that ask about a value or convert it: the program's values may be passed to them,
/// and their answers are the probe's.
const INSPECTING: &[&str] = &[
    "isinstance",
    "issubclass",
    "hasattr",
    "getattr",
    "callable",
    "type",
    "id",
    "len",
    "repr",
    "str",
    "int",
    "float",
    "bool",
    "tuple",
    "list",
    "dict",
    "set",
    "frozenset",
    "__import__",
];

/// Whether `statement` is a `try` whose body imports at least one module and does nothing but
/// import and use what it imported (see the module's documentation).
pub(super) fn only_probes(statement: Node, source: &str) -> bool {
    if statement.kind() != "try_statement" {
        return false;
    }
    let Some(body) = statement.child_by_field_name("body") else {
        return false;
    };
    let mut bound: HashSet<&str> = HashSet::new();
    let mut imports = false;
    let mut cursor = body.walk();
    for child in body.named_children(&mut cursor) {
        match child.kind() {
            "comment" | "pass_statement" => {}
            "import_statement" | "import_from_statement" | "future_import_statement" => {
                imports = true;
                bind_imported(child, source, &mut bound);
            }
            "expression_statement" => {
                if !uses_only_what_it_imported(child, source, &mut bound) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    imports
}

/// Adds the names an import binds: `import a.b` binds `a`, `import a.b as c` and `from m
/// import b as c` bind `c`, `from m import b` binds `b`. A wildcard binds nothing known.
fn bind_imported<'s>(import: Node, source: &'s str, bound: &mut HashSet<&'s str>) {
    let mut cursor = import.walk();
    for name in import.children_by_field_name("name", &mut cursor) {
        let local = match name.kind() {
            "aliased_import" => name.child_by_field_name("alias"),
            _ => name.named_child(0),
        };
        if let Some(local) = local {
            bound.insert(&source[local.byte_range()]);
        }
    }
}

/// Whether an expression statement (an assignment to plain names, or an expression) reads
/// only what the body imported or bound from it, and the program's values only where an
/// inspecting built-in asks about them; its plain targets are bound for what follows.
fn uses_only_what_it_imported<'s>(
    statement: Node,
    source: &'s str,
    bound: &mut HashSet<&'s str>,
) -> bool {
    let Some(mut node) = statement.named_child(0) else {
        return true;
    };
    let mut targets = Vec::new();
    // `a = b = value`: every left side a plain name (or names), the last right side the value.
    while node.kind() == "assignment" {
        let (Some(left), Some(right)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            return false;
        };
        if !plain_names(left, source, &mut targets) {
            return false;
        }
        node = right;
    }
    // `x += …` reads and writes a name; `yield` hands control to the caller: program logic.
    if matches!(node.kind(), "augmented_assignment" | "yield")
        || !reads_only_what_it_may(node, source, bound)
    {
        return false;
    }
    bound.extend(targets);
    true
}

/// Collects the names an assignment target binds, when it is only names (`x`, `a, b`).
fn plain_names<'s>(target: Node, source: &'s str, names: &mut Vec<&'s str>) -> bool {
    match target.kind() {
        "identifier" => {
            names.push(&source[target.byte_range()]);
            true
        }
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            let mut cursor = target.walk();
            target
                .named_children(&mut cursor)
                .all(|part| plain_names(part, source, names))
        }
        _ => false,
    }
}

/// Whether every name `expression` reads is bound by the body, a name bound inside the
/// expression itself (a comprehension's variable, a lambda's parameter), an inspecting
/// built-in, or a value of the program handed to one.
fn reads_only_what_it_may(expression: Node, source: &str, bound: &HashSet<&str>) -> bool {
    let text = |node: Node| &source[node.byte_range()];
    let mut local: HashSet<&str> = HashSet::new();
    let mut names = Vec::new();
    collect(expression, &mut |node| {
        if node.kind() != "identifier" {
            return;
        }
        let Some(parent) = node.parent() else {
            return;
        };
        let field = |name: &str| parent.child_by_field_name(name) == Some(node);
        match parent.kind() {
            // `value.attribute`, `f(name=value)`: the names right of the dot and left of the
            // `=` are no reads.
            "attribute" if field("attribute") => {}
            "keyword_argument" if field("name") => {}
            "for_in_clause" if field("left") => {
                local.insert(text(node));
            }
            "lambda_parameters" | "default_parameter" | "typed_parameter" => {
                local.insert(text(node));
            }
            _ => names.push(node),
        }
    });
    names.into_iter().all(|node| {
        let name = text(node);
        bound.contains(name)
            || local.contains(name)
            || INSPECTING.contains(&name)
            || handed_to_an_inspecting_builtin(node, source)
    })
}

/// Whether `name` is an argument, as it stands, of a call to an inspecting built-in
/// (`isinstance(stream, …)`).
fn handed_to_an_inspecting_builtin(name: Node, source: &str) -> bool {
    let Some(arguments) = name.parent().filter(|p| p.kind() == "argument_list") else {
        return false;
    };
    arguments
        .parent()
        .filter(|call| call.kind() == "call")
        .and_then(|call| call.child_by_field_name("function"))
        .is_some_and(|function| {
            function.kind() == "identifier" && INSPECTING.contains(&&source[function.byte_range()])
        })
}

/// Calls `visit` on `node` and every node under it.
fn collect<'t>(node: Node<'t>, visit: &mut impl FnMut(Node<'t>)) {
    visit(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect(child, visit);
    }
}
