//! A TypeScript class is compared by structure, like an object type, until it declares a
//! member that is not public (`#init`, `private`, `protected`): then only instances of the
//! class (or of subclasses) are of its type, and an object literal no longer is.

use tree_sitter::Parser;

use crate::api::text::{Src, named};
use crate::parse::grammar::Grammar;

/// The first non-public member of the class `name` declared at the top level of `source`, as
/// written (`#init`); `Some(None)` when all its members are public, `None` when `source`
/// declares no such class.
pub(crate) fn private_member(source: &str, grammar: Grammar, name: &str) -> Option<Option<String>> {
    let mut parser = Parser::new();
    parser.set_language(&grammar.language()).ok()?;
    let tree = parser.parse(source, None)?;
    let src = Src(source.as_bytes());
    let class = named(tree.root_node())
        .into_iter()
        .map(
            |statement| match statement.child_by_field_name("declaration") {
                Some(inner) if statement.kind() == "export_statement" => inner,
                _ => statement,
            },
        )
        .find(|d| {
            matches!(d.kind(), "class_declaration" | "abstract_class_declaration")
                && src.field(*d, "name") == Some(name)
        })?;
    let body = class.child_by_field_name("body")?;
    let private = named(body).into_iter().find_map(|member| {
        let member_name = src.field(member, "name")?;
        let modifier = named(member).iter().any(|c| {
            c.kind() == "accessibility_modifier" && matches!(src.raw(*c), "private" | "protected")
        });
        (modifier || member_name.starts_with('#')).then(|| member_name.to_string())
    });
    Some(private)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_with_a_member_that_is_not_public_is_nominal() {
        let source = "export class Open {\n  url: string\n  send() {}\n}\nclass Hash {\n  #init: number\n}\nexport class Kept {\n  protected raw = 1\n}\n";
        let member = |name| private_member(source, Grammar::TypeScript, name);
        assert_eq!(member("Open"), Some(None));
        assert_eq!(member("Hash"), Some(Some("#init".into())));
        assert_eq!(member("Kept"), Some(Some("raw".into())));
        assert_eq!(member("Missing"), None);
    }
}
