//! The statement holding a line, for a rule that reads its context there (`context =
//! "statement"`): the innermost compound statement whose clause the line opens or lies in, so
//! an `except` handler is read with its whole `try` (the body, every handler, `else` and
//! `finally`), not only the lines the hunk happens to show above it. Python, from its syntax
//! tree (see [`super::syntax`]).

use super::syntax::{CodeAt, Syntax};
use super::{best_effort, import_probe};
use crate::diff::Language;

/// Node kinds of Python's compound statements: what holds clauses and blocks.
const COMPOUND: &[&str] = &[
    "try_statement",
    "if_statement",
    "for_statement",
    "while_statement",
    "with_statement",
    "match_statement",
    "function_definition",
    "class_definition",
];

/// What a rule learns of the statement holding its line.
pub(super) struct Statement {
    /// The statement's text as written (its first line from its keyword on).
    pub text: String,
    /// It is a `try` whose body only imports and uses what it imported (see
    /// [`import_probe`]).
    pub import_probe: bool,
    /// It is a `try` of best-effort cleanup (see [`best_effort`]).
    pub cleanup: bool,
}

/// The statement holding `code`; `None` outside Python, or where the line lies in no
/// compound statement.
pub(super) fn statement_at(syntax: &Syntax, code: CodeAt) -> Option<Statement> {
    if syntax.language() != Language::Python {
        return None;
    }
    syntax.with_line(code, |parsed, point| {
        let statement = parsed.enclosing(point, COMPOUND)?;
        Some(Statement {
            text: parsed.text(statement).to_string(),
            import_probe: import_probe::only_probes(statement, &parsed.source),
            cleanup: best_effort::only_cleans_up(statement, &parsed.source),
        })
    })
}
