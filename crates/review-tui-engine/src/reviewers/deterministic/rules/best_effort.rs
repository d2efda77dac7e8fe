//! Best-effort cleanup: a Python `try` whose failure a handler may swallow because all it
//! did was release something. Either its body is one releasing call on a plain name
//! (`self._sock.close()`, `os.unlink(path)`, `await writer.wait_closed()`,
//! `shutil.rmtree(path)`, `proc.kill()`), or the `try` sits where the program tears down
//! (a `finally:` block, a method named `close`, `__exit__`, `__del__` and the like) and its
//! body hands nothing back. A failed cleanup there must not hide the program's result or the
//! error already on its way; there is nothing the caller could do with it.
//!
//! A body that does the program's work is no cleanup: a second statement, a call hidden in
//! the receiver or the arguments (`self.connect().close()`, `os.unlink(self.export())`), and
//! in a teardown place a body that returns or yields a value or computes into a local name.

use tree_sitter::Node;

/// Calls that release a resource, by the name called: closing, shutting down, killing,
/// deleting files.
const RELEASING: &[&str] = &[
    "close",
    "aclose",
    "shutdown",
    "wait_closed",
    "kill",
    "terminate",
    "unlink",
    "rmdir",
    "rmtree",
    "write_history_file",
];

/// Names that release only as a module's function (`os.remove(path)`), not as any object's
/// method (`items.remove(item)` changes the program's data).
const OS_RELEASING: &[&str] = &["remove", "removedirs"];

/// The receivers of [`OS_RELEASING`].
const OS_MODULES: &[&str] = &["os", "os.path"];

/// Calls that only build a path or convert a value, allowed in a releasing call's arguments.
const PURE: &[&str] = &["os.path.join", "os.fspath", "str", "Path"];

/// Teardown methods, by name (less leading underscores): where the program lets go.
const TEARDOWN: &[&str] = &[
    "close",
    "aclose",
    "cleanup",
    "shutdown",
    "stop",
    "teardown",
    "__del__",
    "__exit__",
    "__aexit__",
];

/// Whether `statement` is a `try` of best-effort cleanup (see the module's documentation).
pub(super) fn only_cleans_up(statement: Node, source: &str) -> bool {
    if statement.kind() != "try_statement" {
        return false;
    }
    let Some(body) = statement.child_by_field_name("body") else {
        return false;
    };
    single_releasing_call(body, source)
        || (in_teardown(statement, source) && hands_nothing_back(body))
}

/// Whether `body` holds one statement (comments aside), a releasing call.
fn single_releasing_call(body: Node, source: &str) -> bool {
    let mut cursor = body.walk();
    let statements: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|s| !matches!(s.kind(), "comment" | "pass_statement"))
        .collect();
    let [statement] = statements.as_slice() else {
        return false;
    };
    if statement.kind() != "expression_statement" || statement.named_child_count() != 1 {
        return false;
    }
    let Some(mut call) = statement.named_child(0) else {
        return false;
    };
    if call.kind() == "await" {
        let Some(awaited) = call.named_child(0) else {
            return false;
        };
        call = awaited;
    }
    call.kind() == "call" && releases(call, source)
}

/// Whether `call` releases something, called on a plain name with plain arguments.
fn releases(call: Node, source: &str) -> bool {
    let text = |node: Node| &source[node.byte_range()];
    let (Some(function), Some(arguments)) = (
        call.child_by_field_name("function"),
        call.child_by_field_name("arguments"),
    ) else {
        return false;
    };
    let named = match function.kind() {
        "identifier" => RELEASING.contains(&text(function)),
        "attribute" => {
            let (Some(receiver), Some(name)) = (
                function.child_by_field_name("object"),
                function.child_by_field_name("attribute"),
            ) else {
                return false;
            };
            plain_name(receiver)
                && (RELEASING.contains(&text(name))
                    || (OS_RELEASING.contains(&text(name)) && OS_MODULES.contains(&text(receiver))))
        }
        _ => false,
    };
    named && plain_arguments(arguments, source)
}

/// A name or a chain of attributes of one (`self._sock`): reading it does no work.
fn plain_name(node: Node) -> bool {
    match node.kind() {
        "identifier" => true,
        "attribute" => node.child_by_field_name("object").is_some_and(plain_name),
        _ => false,
    }
}

/// Whether the arguments call nothing but path builders and conversions ([`PURE`]), and
/// await, yield or assign nothing.
fn plain_arguments(arguments: Node, source: &str) -> bool {
    let mut plain = true;
    visit(arguments, &mut |node| match node.kind() {
        "call" => {
            plain &= node
                .child_by_field_name("function")
                .is_some_and(|f| PURE.contains(&&source[f.byte_range()]));
        }
        "await" | "yield" | "named_expression" => plain = false,
        _ => {}
    });
    plain
}

/// Whether the `try` lies in a `finally:` block or a teardown method, within the function
/// holding it.
fn in_teardown(statement: Node, source: &str) -> bool {
    let mut node = statement;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "finally_clause" => return true,
            "function_definition" => {
                return parent.child_by_field_name("name").is_some_and(|name| {
                    let name = &source[name.byte_range()];
                    TEARDOWN.contains(&name) || TEARDOWN.contains(&name.trim_start_matches('_'))
                });
            }
            "class_definition" | "lambda" => return false,
            _ => node = parent,
        }
    }
    false
}

/// Whether `body` neither returns nor yields a value nor computes into a local name: it only
/// acts (calls, resets the object's state, deletes).
fn hands_nothing_back(body: Node) -> bool {
    let mut acts = true;
    visit(body, &mut |node| match node.kind() {
        "return_statement" | "yield" => acts = false,
        "assignment" | "augmented_assignment" => {
            acts &= node
                .child_by_field_name("left")
                .is_some_and(|left| matches!(left.kind(), "attribute" | "subscript"));
        }
        _ => {}
    });
    acts
}

/// Calls `each` on `node` and every node under it, nested functions and lambdas left out
/// (their code runs elsewhere).
fn visit<'t>(node: Node<'t>, each: &mut impl FnMut(Node<'t>)) {
    each(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if !matches!(
            child.kind(),
            "function_definition" | "lambda" | "class_definition"
        ) {
            visit(child, each);
        }
    }
}
