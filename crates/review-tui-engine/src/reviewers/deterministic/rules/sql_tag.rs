//! A template literal handed to a SQL tag is parameterised, not interpolated: the tag
//! function receives the literal's strings and its values apart and sends the values as
//! bind parameters (`sql` of postgres.js, Drizzle, db0, `@vercel/postgres`, Slonik;
//! Prisma's `$queryRaw` and `$executeRaw`). What the rule about interpolated SQL points to is
//! exactly what such a tag already does.
//!
//! Read from the syntax tree (JavaScript, TypeScript), not the line: the tag is often a method
//! (`db.sql`), given type arguments (`db.sql<Row>`), followed by a `/* sql */` comment that
//! editors read to highlight the query, or written on the line above the query. The matched
//! template must be the `arguments` of a tagged template whose tag's own name (a plain name or
//! the last property of a member) is one of those tags; a call that merely passes a template
//! on (`db.query(\`…${id}\`)`), a tag that is itself a call's result, or any other tag keeps
//! the finding. Prisma's `…Unsafe` variants are functions, not tags, and never match.

use tree_sitter::Node;

use super::syntax::{CodeAt, Syntax};
use crate::diff::Language;

/// The names of tags that bind a template's values as parameters.
const SQL_TAGS: &[&str] = &["sql", "SQL", "$queryRaw", "$executeRaw"];

/// Whether the template literal at `code` (the column of its opening backtick, or any column
/// inside it) is the template of a tagged template written to a SQL tag.
pub(super) fn tagged_by_sql(syntax: &Syntax, code: CodeAt) -> bool {
    if !matches!(
        syntax.language(),
        Language::JavaScript | Language::TypeScript
    ) {
        return false;
    }
    syntax
        .with_line(code, |parsed, point| {
            let template = parsed.enclosing(point, &["template_string"])?;
            let tag = tag_of(template)?;
            let name = match tag.kind() {
                "identifier" => tag,
                "member_expression" => tag.child_by_field_name("property")?,
                _ => return Some(false),
            };
            Some(SQL_TAGS.contains(&parsed.text(name)))
        })
        .unwrap_or(false)
}

/// The tag of the tagged template whose template is `template`, if it is one.
fn tag_of(template: Node) -> Option<Node> {
    let parent = template.parent()?;
    let operator = |node: Node| node.child_by_field_name("operator").map(|o| o.kind());
    match parent.kind() {
        "call_expression" if parent.child_by_field_name("arguments")? == template => {
            parent.child_by_field_name("function")
        }
        // TypeScript's grammar reads a tag given type arguments (`db.sql<Row>`…``) as two
        // comparisons (`db.sql < Row > `…``), which no program means: comparing a boolean
        // with a string. Read as what it is, the tag is left of `<` (`await` binds to it).
        "binary_expression"
            if operator(parent) == Some(">")
                && parent.child_by_field_name("right")? == template =>
        {
            let left = parent.child_by_field_name("left")?;
            if left.kind() != "binary_expression" || operator(left) != Some("<") {
                return None;
            }
            let tag = left.child_by_field_name("left")?;
            if tag.kind() == "await_expression" {
                tag.named_child(0)
            } else {
                Some(tag)
            }
        }
        _ => None,
    }
}
