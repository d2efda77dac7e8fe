//! Canonical text of syntax nodes: the tokens without comments, joined so that whitespace,
//! line wrapping and trailing commas never make two forms differ.

use tree_sitter::Node;

#[derive(Clone, Copy)]
pub(super) struct Src<'a>(pub &'a [u8]);

impl<'a> Src<'a> {
    /// The node's raw text.
    pub(super) fn raw(self, node: Node) -> &'a str {
        node.utf8_text(self.0).unwrap_or("")
    }

    /// The text of the named field `field` of `node`, raw.
    pub(super) fn field(self, node: Node, field: &str) -> Option<&'a str> {
        node.child_by_field_name(field).map(|n| self.raw(n))
    }

    /// The node's tokens, comments left out, joined canonically.
    pub(super) fn canonical(self, node: Node) -> String {
        let mut tokens = Vec::new();
        leaves(node, self, &mut tokens);
        join(&tokens)
    }

    /// The node's tokens without the children in `skip` (a body, attributes).
    pub(super) fn canonical_without(self, node: Node, skip: &[Node]) -> String {
        let mut tokens = Vec::new();
        for child in all(node) {
            if !skip.iter().any(|s| s.id() == child.id()) {
                leaves(child, self, &mut tokens);
            }
        }
        join(&tokens)
    }

    /// [`Src::canonical`] of the named field, empty when it is absent.
    pub(super) fn canonical_field(self, node: Node, field: &str) -> String {
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
    if FUNCTION_TYPES.contains(&node.kind()) {
        function_type(node, src, out);
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        leaves(child, src, out);
    }
}

/// Syntax of a function *type* (Go `func(cmd *Command) error`, TypeScript `(a: string) => T`
/// and the signatures of an object type, Rust `fn(x: u8)`): a value of it is called through
/// the type, so the parameter names written there bind no caller and two types that differ
/// only in them are the same type.
const FUNCTION_TYPES: &[&str] = &[
    "function_type",
    "constructor_type",
    "call_signature",
    "construct_signature",
    "method_signature",
];

/// The tokens of a function type with every parameter name left out.
fn function_type<'a>(node: Node, src: Src<'a>, out: &mut Vec<&'a str>) {
    let mut cursor = node.walk();
    let mut more = cursor.goto_first_child();
    while more {
        let child = cursor.node();
        match (child.kind(), cursor.field_name()) {
            // Go: `(n int)` and `int` are one result.
            ("parameter_list", Some("result")) if parameter_count(child) == 1 => {
                for p in named(child) {
                    parameter(p, src, out);
                }
            }
            ("parameter_list" | "parameters" | "formal_parameters", _) => {
                for token in all(child) {
                    if token.is_named() {
                        parameter(token, src, out);
                    } else {
                        leaves(token, src, out);
                    }
                }
            }
            _ => leaves(child, src, out),
        }
        more = cursor.goto_next_sibling();
    }
}

/// How many values a Go parameter list declares (`a, b int` is two).
fn parameter_count(list: Node) -> usize {
    named(list)
        .iter()
        .filter(|p| p.kind().ends_with("parameter_declaration"))
        .map(|p| {
            let mut cursor = p.walk();
            p.children_by_field_name("name", &mut cursor).count().max(1)
        })
        .sum()
}

/// One parameter of a function type, its name left out: Go writes the type once per name
/// (`a, b int` is `int, int`), TypeScript keeps `...` and `?`, Rust keeps the type.
fn parameter<'a>(p: Node, src: Src<'a>, out: &mut Vec<&'a str>) {
    match p.kind() {
        "parameter_declaration" | "variadic_parameter_declaration" => {
            let mut cursor = p.walk();
            let names = p.children_by_field_name("name", &mut cursor).count().max(1);
            for i in 0..names {
                if i > 0 {
                    out.push(",");
                }
                if p.kind() == "variadic_parameter_declaration" {
                    out.push("...");
                }
                if let Some(ty) = p.child_by_field_name("type") {
                    leaves(ty, src, out);
                }
            }
        }
        "required_parameter" | "optional_parameter" => {
            let pattern = p.child_by_field_name("pattern");
            if pattern.is_some_and(|n| n.kind() == "rest_pattern") {
                out.push("...");
            }
            // `this: Window` is not a parameter a caller passes but the receiver's type.
            if pattern.is_some_and(|n| src.raw(n) == "this") {
                out.push("this:");
            }
            if p.kind() == "optional_parameter" {
                out.push("?");
            }
            match p.child_by_field_name("type") {
                Some(annotation) => {
                    for token in all(annotation) {
                        if token.kind() != ":" {
                            leaves(token, src, out);
                        }
                    }
                }
                None => out.push("any"),
            }
        }
        "parameter" => match p.child_by_field_name("type") {
            Some(ty) => leaves(ty, src, out),
            None => leaves(p, src, out),
        },
        _ => leaves(p, src, out),
    }
}

fn wordy(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '"' || c == '\''
}

/// Tokens joined with a space only where two words would otherwise run together, and a comma
/// before a closing bracket dropped: `Vec<u8>`, `impl Iterator<Item=u8>`, `&mut self`.
pub(super) fn join(tokens: &[&str]) -> String {
    let mut out = String::new();
    for (i, token) in tokens.iter().enumerate() {
        if *token == "," || *token == ";" {
            let next = tokens.get(i + 1).copied().unwrap_or("");
            if matches!(next, ")" | ">" | "]" | "}" | "") {
                continue;
            }
        }
        // A Rust lifetime is two tokens, `'` and its name: `&'a self`, never `&' a self`
        // (which `strip_lifetimes` would not recognise).
        let lifetime_tick = i > 0 && tokens[i - 1] == "'";
        let joins = !lifetime_tick
            && out.chars().last().is_some_and(wordy)
            && token.chars().next().is_some_and(wordy);
        // `level: ::Level` (a path from the root after a type's colon), never `level:::Level`.
        let after_colon = out.ends_with(':')
            && !out.ends_with("::")
            && (!token.starts_with(':') || *token == "::");
        // A word after a closed list or type (`-> Foo<T> where`, `impl<T> Trait`, `) where`)
        // is a new part of the declaration, never glued to it.
        let after_close = (out.ends_with('>') && !out.ends_with("->") && !out.ends_with("=>")
            || out.ends_with(')'))
            && token
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
        if joins
            || after_colon
            || after_close
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
pub(super) fn strip_lifetimes(text: &str) -> String {
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
pub(super) fn named<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// All children of `node`, anonymous tokens included.
pub(super) fn all<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// Whether `node` has an anonymous token child `token` (`?`, `static`, `async`).
pub(super) fn has_token(node: Node, token: &str) -> bool {
    all(node).iter().any(|c| !c.is_named() && c.kind() == token)
}

/// `text` split at `separator` outside brackets and strings (`->` and `=>` close nothing).
pub(in crate::api) fn top_level_split(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut quoted, mut previous) = (0i32, 0, false, ' ');
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '<' | '[' | '{' if !quoted => depth += 1,
            '>' if !quoted && matches!(previous, '-' | '=') => {}
            ')' | '>' | ']' | '}' if !quoted => depth -= 1,
            c if c == separator && depth == 0 && !quoted => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
        previous = c;
    }
    parts.push(&text[start..]);
    parts
}

/// Replaces each unqualified identifier of `text` for which `f` answers.
pub(crate) fn map_words(text: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        let qualified = out.ends_with('.') || out.ends_with("::");
        let starts_like_name = word.chars().next().is_some_and(|c| !c.is_ascii_digit());
        match f(word) {
            Some(target) if !qualified && starts_like_name => out.push_str(&target),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || c == '$' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
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
        assert_eq!(join(&["&", "'", "a", "self"]), "&'a self");
        assert_eq!(
            join(&[
                "fn", "f", "<", "T", ">", "(", ")", "->", "Foo", "<", "T", ">", "where", "T", ":",
                "Copy"
            ]),
            "fn f<T>() -> Foo<T> where T: Copy"
        );
        assert_eq!(join(&["impl", "<", "T", ">", "Trait"]), "impl<T> Trait");
        assert_eq!(
            strip_lifetimes(&join(&[
                "Option", "<", "SpanRef", "<", "'", "_", ",", "Self", ">", ">"
            ])),
            "Option<SpanRef<Self>>"
        );
        assert_eq!(strip_lifetimes("&'a str"), "&str");
        assert_eq!(strip_lifetimes("Foo<'a, T>"), "Foo<T>");
        assert_eq!(strip_lifetimes("Foo<'a>"), "Foo");
        assert_eq!(strip_lifetimes("&'static str"), "&'static str");
    }
}
