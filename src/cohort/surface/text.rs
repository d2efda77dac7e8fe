//! Canonical text of syntax nodes: the tokens without comments, joined so that whitespace,
//! line wrapping and trailing commas never make two forms differ.

use tree_sitter::Node;

#[derive(Clone, Copy)]
pub struct Src<'a>(pub &'a [u8]);

impl<'a> Src<'a> {
    /// The node's raw text.
    pub fn raw(self, node: Node) -> &'a str {
        node.utf8_text(self.0).unwrap_or("")
    }

    /// The text of the named field `field` of `node`, raw.
    pub fn field(self, node: Node, field: &str) -> Option<&'a str> {
        node.child_by_field_name(field).map(|n| self.raw(n))
    }

    /// The node's tokens, comments left out, joined canonically.
    pub fn canonical(self, node: Node) -> String {
        let mut tokens = Vec::new();
        leaves(node, self, &mut tokens);
        join(&tokens)
    }

    /// The node's tokens without the children in `skip` (a body, attributes).
    pub fn canonical_without(self, node: Node, skip: &[Node]) -> String {
        let mut tokens = Vec::new();
        for child in all(node) {
            if !skip.iter().any(|s| s.id() == child.id()) {
                leaves(child, self, &mut tokens);
            }
        }
        join(&tokens)
    }

    /// [`Src::canonical`] of the named field, empty when it is absent.
    pub fn canonical_field(self, node: Node, field: &str) -> String {
        node.child_by_field_name(field)
            .map(|n| self.canonical(n))
            .unwrap_or_default()
    }
}

fn is_comment(node: Node) -> bool {
    node.kind().contains("comment")
}

fn leaves<'a>(node: Node, src: Src<'a>, out: &mut Vec<&'a str>) {
    if is_comment(node) {
        return;
    }
    // Strings are one token even where the grammar splits them into fragments.
    if node.child_count() == 0
        || matches!(
            node.kind(),
            "string"
                | "string_literal"
                | "template_string"
                | "interpreted_string_literal"
                | "raw_string_literal"
        )
    {
        let text = src.raw(node).trim();
        if !text.is_empty() {
            out.push(text);
        }
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        leaves(child, src, out);
    }
}

fn wordy(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '"' || c == '\''
}

/// Tokens joined with a space only where two words would otherwise run together, and a comma
/// before a closing bracket dropped: `Vec<u8>`, `impl Iterator<Item=u8>`, `&mut self`.
pub fn join(tokens: &[&str]) -> String {
    let mut out = String::new();
    for (i, token) in tokens.iter().enumerate() {
        if *token == "," || *token == ";" {
            let next = tokens.get(i + 1).copied().unwrap_or("");
            if matches!(next, ")" | ">" | "]" | "}" | "") {
                continue;
            }
        }
        let joins =
            out.chars().last().is_some_and(wordy) && token.chars().next().is_some_and(wordy);
        let after_colon = out.ends_with(':') && !out.ends_with("::") && !token.starts_with(':');
        if joins
            || after_colon
            || out.ends_with(',')
            || *token == "->"
            || *token == "=>"
            || out.ends_with("->")
            || out.ends_with("=>")
        {
            out.push(' ');
        }
        out.push_str(token);
    }
    out.trim().to_string()
}

/// `text` without lifetime names (`&'a str` is `&str` to a caller; `'static` stays), so
/// naming or eliding a lifetime does not read as a change.
pub fn strip_lifetimes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let rest = &text[i..];
        let is_lifetime = c == '\''
            && rest[1..].starts_with(|n: char| n.is_alphabetic() || n == '_')
            && !rest.starts_with("'static")
            && rest[1..].chars().nth(1).is_none_or(|n| n != '\'');
        if !is_lifetime {
            out.push(c);
            continue;
        }
        while chars
            .peek()
            .is_some_and(|(_, n)| n.is_alphanumeric() || *n == '_')
        {
            chars.next();
        }
        // The separator that followed the lifetime goes with it.
        if chars.peek().is_some_and(|(_, n)| *n == ',') {
            chars.next();
        }
        while chars.peek().is_some_and(|(_, n)| *n == ' ') {
            chars.next();
        }
    }
    out.replace("<>", "")
        .replace("+ >", ">")
        .replace(", >", ">")
        .trim()
        .to_string()
}

/// Named children of `node`.
pub fn named<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// All children of `node`, anonymous tokens included.
pub fn all<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// Whether `node` has an anonymous token child `token` (`?`, `static`, `async`).
pub fn has_token(node: Node, token: &str) -> bool {
    all(node).iter().any(|c| !c.is_named() && c.kind() == token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_without_layout() {
        assert_eq!(join(&["Vec", "<", "u8", ">"]), "Vec<u8>");
        assert_eq!(join(&["&", "mut", "self"]), "&mut self");
        assert_eq!(join(&["(", "a", ",", "b", ",", ")"]), "(a, b)");
        assert_eq!(join(&["fn", "f", "(", ")", "->", "u8"]), "fn f() -> u8");
        assert_eq!(join(&["name", ":", "&", "str"]), "name: &str");
        assert_eq!(join(&["a", "::", "B"]), "a::B");
        assert_eq!(strip_lifetimes("&'a str"), "&str");
        assert_eq!(strip_lifetimes("Foo<'a, T>"), "Foo<T>");
        assert_eq!(strip_lifetimes("Foo<'a>"), "Foo");
        assert_eq!(strip_lifetimes("&'static str"), "&'static str");
    }
}
