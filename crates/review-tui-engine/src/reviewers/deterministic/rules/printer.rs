//! A function that does nothing but print is the project's printer, and printing is what it is
//! for (dotenv's `function _debug (message) { console.log(…) }`, a `printVersion`, a logger's
//! `info(message)` choosing between `console.error` and `console.log`): a `console.log` there
//! is its output, not a debug leftover. A leftover is a print added to a function that does
//! other work, or to a module's top level. JavaScript and TypeScript, from the syntax tree
//! (see [`super::syntax`]).

use tree_sitter::Node;

use super::syntax::{CodeAt, Parsed, Syntax};
use crate::diff::Language;

/// Node kinds of a function in the JavaScript and TypeScript grammars.
const FUNCTIONS: &[&str] = &[
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "arrow_function",
    "method_definition",
];

/// Whether `code` lies in a function that only prints.
pub(super) fn in_printer(syntax: &Syntax, code: CodeAt) -> bool {
    if !matches!(
        syntax.language(),
        Language::JavaScript | Language::TypeScript
    ) {
        return false;
    }
    syntax
        .with_line(code, |parsed, point| {
            let function = parsed.enclosing(point, FUNCTIONS)?;
            let body = function.child_by_field_name("body")?;
            Some(only_prints(body, parsed))
        })
        .unwrap_or(false)
}

/// Whether `node` (a function's body, or a statement in it) does nothing but print: console
/// calls and writes to `process.stdout`/`process.stderr`, chosen by `if`/`else` or not, and
/// a bare `return`.
fn only_prints(node: Node, parsed: &Parsed) -> bool {
    match node.kind() {
        "statement_block" => {
            let mut cursor = node.walk();
            let statements: Vec<Node> = node
                .named_children(&mut cursor)
                .filter(|s| s.kind() != "comment")
                .collect();
            !statements.is_empty() && statements.iter().all(|s| only_prints(*s, parsed))
        }
        "if_statement" => {
            let branches = [
                node.child_by_field_name("consequence"),
                node.child_by_field_name("alternative")
                    .and_then(|clause| clause.named_child(0)),
            ];
            branches
                .into_iter()
                .flatten()
                .all(|branch| only_prints(branch, parsed))
        }
        "expression_statement" => node
            .named_child(0)
            .is_some_and(|expression| only_prints(expression, parsed)),
        "return_statement" => node.named_child_count() == 0,
        "empty_statement" => true,
        "call_expression" => node
            .child_by_field_name("function")
            .is_some_and(|callee| prints(parsed.text(callee))),
        _ => false,
    }
}

/// Whether a callee is one that prints: `console.log`, `console.error`…, `process.stdout.write`.
fn prints(callee: &str) -> bool {
    let callee: String = callee.chars().filter(|c| !c.is_whitespace()).collect();
    callee
        .strip_prefix("console.")
        .is_some_and(|method| method.chars().all(|c| c.is_ascii_alphabetic()))
        || matches!(
            callee.as_str(),
            "process.stdout.write" | "process.stderr.write"
        )
}
