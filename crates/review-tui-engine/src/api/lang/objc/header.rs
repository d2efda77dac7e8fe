//! An Objective-C header's surface, read with the Objective-C grammar: its classes, categories
//! and protocols, their methods keyed by selector (`DDLog.-initWithFrame:style:`, `+` for a
//! class method), their properties (the getter, and the setter `setName:` unless `readonly`,
//! so readwrite → readonly is a setter removed and readonly → readwrite one added), and the
//! C declarations beside them (functions, typedefs, enums and their constants, `extern`
//! variables). A member marked unavailable (`NS_UNAVAILABLE`, `__attribute__((unavailable))`)
//! cannot be called, so it is not on the surface: marking one is removing it.

use tree_sitter::{Node, Parser};

use crate::api::text::Src;
use crate::api::{Item, Surface, Unreadable};
use crate::parse::grammar::Grammar;

/// Whether a header (`.h`, which the index reads as C) declares Objective-C: a line opening
/// an `@interface` or an `@protocol`.
pub(crate) fn declares_objective_c(source: &[u8]) -> bool {
    String::from_utf8_lossy(source).lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("@interface") || line.starts_with("@protocol")
    })
}

/// Adds the header's public declarations to `out`; `exported` answers for each top-level name.
pub(crate) fn extract(
    source: &[u8],
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
) -> Result<(), Unreadable> {
    let mut parser = Parser::new();
    parser
        .set_language(&Grammar::ObjectiveC.language())
        .map_err(|_| Unreadable)?;
    let source = without_macros(source);
    let tree = parser.parse(&source, None).ok_or(Unreadable)?;
    let src = Src(&source);
    let mut reader = Reader { src, exported, out };
    reader.walk(tree.root_node());
    Ok(())
}

struct Reader<'a> {
    src: Src<'a>,
    exported: &'a dyn Fn(&str) -> bool,
    out: &'a mut Surface,
}

impl Reader<'_> {
    fn text(&self, node: Node) -> String {
        String::from_utf8_lossy(&self.src.0[node.byte_range()])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn add(&mut self, kind: &'static str, key: String, parent: Option<String>, form: String) {
        let mut item = Item::new(kind, &key, form.clone());
        item.shape = form;
        item.parent = parent;
        self.out.add(key, item);
    }

    /// Declarations at the top level, also inside `#if` blocks and `extern "C"`.
    fn walk(&mut self, node: Node) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "class_interface" => self.container(child, true),
                "protocol_declaration" => self.container(child, false),
                "declaration" => self.declaration(child),
                "type_definition" => self.type_definition(child),
                "enum_specifier" => self.enumeration(child),
                "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
                // An unknown macro (`NS_ASSUME_NONNULL_BEGIN`) leaves the rest in an error node.
                | "linkage_specification" | "declaration_list" | "ERROR" => self.walk(child),
                _ => {}
            }
        }
    }

    /// An `@interface` (a class, or a category: `Name (Category)`) or an `@protocol`.
    fn container(&mut self, node: Node, interface: bool) {
        let Some(name) = first_identifier(node).map(|n| self.text(n)) else {
            return;
        };
        if !(self.exported)(&name) {
            return;
        }
        let category = node.child_by_field_name("category").map(|c| self.text(c));
        // A forward declaration (`@protocol Foo;`) declares nothing.
        if !interface && !self.text(node).contains("@end") {
            return;
        }
        let (kind, key) = match (&category, interface) {
            (Some(category), _) => ("category", format!("{name}({category})")),
            (None, true) => ("class", name.clone()),
            (None, false) => ("protocol", name.clone()),
        };
        // Its head: what is written before its first member, a comment or an instance
        // variable block (the tree may hold members in error nodes, the text does not).
        let raw = String::from_utf8_lossy(&self.src.0[node.byte_range()]);
        let end = ["/*", "//", "{", "\n-", "\n+", "\n@", "\n#"]
            .iter()
            .filter_map(|mark| raw.find(mark))
            .min()
            .unwrap_or(raw.len());
        let head = raw[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let head = head.trim_end_matches("@end").trim_end().to_string();
        self.add(kind, key, None, head);
        // A category's members are the class's: moving one into the class keeps it.
        self.members(node, &name);
    }

    fn members(&mut self, node: Node, owner: &str) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "method_declaration" => self.method(child, owner),
                "property_declaration" => self.property(child, owner),
                "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif"
                | "declaration_list"
                | "qualified_protocol_interface_declaration" => self.members(child, owner),
                _ => {}
            }
        }
    }

    fn method(&mut self, node: Node, owner: &str) {
        let form = self.text(node);
        if unavailable(&form) {
            return;
        }
        let scope = if form.starts_with('+') { '+' } else { '-' };
        // `- (id)initWithFrame:(CGRect)f style:(int)s`: each keyword precedes a parameter.
        let mut cursor = node.walk();
        let parts: Vec<Node> = node.named_children(&mut cursor).collect();
        let mut selector = String::new();
        for (i, part) in parts.iter().enumerate() {
            if part.kind() == "identifier"
                && parts
                    .get(i + 1)
                    .is_some_and(|n| n.kind() == "method_parameter")
            {
                selector.push_str(&self.text(*part));
                selector.push(':');
            }
        }
        if selector.is_empty()
            && let Some(name) = parts.iter().find(|p| p.kind() == "identifier")
        {
            selector = self.text(*name);
        }
        if selector.is_empty() {
            return;
        }
        self.add(
            "method",
            format!("{owner}.{scope}{selector}"),
            Some(owner.to_string()),
            form,
        );
    }

    fn property(&mut self, node: Node, owner: &str) {
        let form = self.text(node);
        if unavailable(&form) {
            return;
        }
        let Some(name) = declared_name(node).map(|n| self.text(n)) else {
            return;
        };
        let attributes = form
            .split_once('(')
            .filter(|_| {
                form.trim_start_matches("@property")
                    .trim_start()
                    .starts_with('(')
            })
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(attributes, _)| attributes.to_string())
            .unwrap_or_default();
        let attributes: Vec<&str> = attributes.split(',').map(str::trim).collect();
        let class = attributes.contains(&"class");
        let scope = if class { "+" } else { "" };
        self.add(
            "property",
            format!("{owner}.{scope}{name}"),
            Some(owner.to_string()),
            form.clone(),
        );
        if attributes.contains(&"readonly") {
            return;
        }
        let setter = attributes
            .iter()
            .find_map(|a| {
                a.strip_prefix("setter")
                    .map(|s| s.trim_start_matches([' ', '=']))
            })
            .map(str::to_string)
            .unwrap_or_else(|| {
                let mut chars = name.chars();
                let first = chars.next().map(|c| c.to_uppercase().to_string());
                format!("set{}{}:", first.unwrap_or_default(), chars.as_str())
            });
        let scope = if class { '+' } else { '-' };
        self.add(
            "method",
            format!("{owner}.{scope}{setter}"),
            Some(owner.to_string()),
            format!("the setter of {form}"),
        );
    }

    /// A C declaration: a function, or an `extern` variable.
    fn declaration(&mut self, node: Node) {
        let form = self.text(node);
        if unavailable(&form) {
            return;
        }
        let mut cursor = node.walk();
        for child in node.children_by_field_name("declarator", &mut cursor) {
            let function = contains_kind(child, "function_declarator");
            let external = form.starts_with("extern")
                || form
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w.ends_with("EXPORT") || w.ends_with("EXTERN"));
            if !function && !external {
                continue;
            }
            let Some(name) = declared_name(child).map(|n| self.text(n)) else {
                continue;
            };
            if (self.exported)(&name) {
                self.add(
                    if function { "fn" } else { "const" },
                    name,
                    None,
                    form.clone(),
                );
            }
        }
        if let Some(ty) = node.child_by_field_name("type") {
            self.enumeration(ty);
        }
    }

    fn type_definition(&mut self, node: Node) {
        let form = self.text(node);
        let mut cursor = node.walk();
        for child in node.children_by_field_name("declarator", &mut cursor) {
            if let Some(name) = declared_name(child).map(|n| self.text(n))
                && (self.exported)(&name)
            {
                let head = form.split('{').next().unwrap_or(&form).trim().to_string();
                self.add("type", name, None, head);
            }
        }
        if let Some(ty) = node.child_by_field_name("type") {
            self.enumeration(ty);
        }
        // `typedef NS_ENUM(NSInteger, Level) { … }`: the macro reads as a call, its body as
        // an initializer list; the constants are what users name.
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.enumerators(child);
        }
    }

    fn enumeration(&mut self, node: Node) {
        if node.kind() == "enum_specifier"
            && let Some(body) = node.child_by_field_name("body")
        {
            if let Some(name) = node.child_by_field_name("name").map(|n| self.text(n))
                && (self.exported)(&name)
            {
                let form = self.text(node);
                let head = form.split('{').next().unwrap_or(&form).trim().to_string();
                self.add("type", name, None, head);
            }
            self.enumerators(body);
        }
    }

    fn enumerators(&mut self, node: Node) {
        if node.kind() == "enumerator" {
            if let Some(name) = node.child_by_field_name("name").map(|n| self.text(n))
                && (self.exported)(&name)
            {
                let form = self.text(node);
                self.add("const", name, None, form);
            }
            return;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.enumerators(child);
        }
    }
}

/// The header with the macros the grammar cannot read made plain: a macro alone on its line
/// (`NS_ASSUME_NONNULL_BEGIN`, `NS_HEADER_AUDIT_BEGIN(nullability)`) dropped, and `typedef
/// NS_ENUM(NSInteger, Level)` (also `NS_OPTIONS`, `NS_CLOSED_ENUM`, `CF_ENUM`, `CF_OPTIONS`)
/// written as the enum it declares, `enum Level : NSInteger`.
fn without_macros(source: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(source);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        let name_end = trimmed
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(trimmed.len());
        let rest = &trimmed[name_end..];
        let bare = name_end > 2
            && trimmed.starts_with(|c: char| c.is_ascii_uppercase())
            && (rest.is_empty() || (rest.starts_with('(') && rest.ends_with(')')));
        if bare {
            out.push('\n');
            continue;
        }
        out.push_str(&enum_macro(line).unwrap_or_else(|| line.to_string()));
    }
    out.into_bytes()
}

/// `typedef NS_ENUM(NSInteger, Level) {` as `enum Level : NSInteger {`.
fn enum_macro(line: &str) -> Option<String> {
    let (before, rest) = line.split_once("typedef ")?;
    let (mac, rest) = rest.trim_start().split_once('(')?;
    if !matches!(
        mac.trim(),
        "NS_ENUM" | "NS_OPTIONS" | "NS_CLOSED_ENUM" | "CF_ENUM" | "CF_OPTIONS"
    ) {
        return None;
    }
    let (args, after) = rest.split_once(')')?;
    let (ty, name) = args.split_once(',')?;
    Some(format!(
        "{before}enum {} : {}{after}",
        name.trim(),
        ty.trim()
    ))
}

/// Whether a declaration says it cannot be used.
fn unavailable(form: &str) -> bool {
    form.contains("NS_UNAVAILABLE")
        || form.contains("UNAVAILABLE_ATTRIBUTE")
        || form.contains("__unavailable")
        || form.contains("((unavailable")
}

fn first_identifier(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .find(|c| c.kind() == "identifier" || c.kind() == "type_identifier")
}

/// The name a declarator declares: its innermost identifier.
fn declared_name(node: Node) -> Option<Node> {
    if matches!(
        node.kind(),
        "identifier" | "type_identifier" | "field_identifier"
    ) {
        return Some(node);
    }
    if let Some(inner) = node.child_by_field_name("declarator") {
        return declared_name(inner);
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.named_children(&mut cursor).collect();
    children
        .into_iter()
        .rev()
        .filter(|c| {
            !matches!(
                c.kind(),
                "parameter_list"
                    | "attribute_specifier"
                    | "availability_attribute_specifier"
                    | "type_qualifier"
                    | "property_attributes_declaration"
            )
        })
        .find_map(declared_name)
}

fn contains_kind(node: Node, kind: &str) -> bool {
    if node.kind() == kind {
        return true;
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .any(|c| contains_kind(c, kind))
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_reads_as_classes_protocols_selectors_properties_and_c_declarations() {
        let source = b"#import <Foundation/Foundation.h>\nNS_ASSUME_NONNULL_BEGIN\ntypedef NS_ENUM(NSInteger, DDLogLevel) {\n    DDLogLevelOff = 0\n};\nextern NSString * const DDKey;\nvoid DDFunc(int a);\n@class Foo;\n@protocol DDLogger <NSObject>\n- (void)logMessage:(NSString *)m;\n@optional\n@property (nonatomic, readonly) NSString *name;\n@end\n@interface DDLog : NSObject <DDLogger>\n/** The shared one. */\n@property (class, nonatomic, strong) DDLog *shared;\n@property (nonatomic, copy, nullable) NSString *title API_DEPRECATED(\"x\", macos(10.0, 10.1));\n- (instancetype)init NS_UNAVAILABLE;\n- (instancetype)initWithFrame:(CGRect)f style:(int)s NS_DESIGNATED_INITIALIZER;\n+ (void)add:(id)x __attribute__((unavailable(\"no\")));\n- (void)reset;\n@end\n@interface DDLog (Extra)\n- (void)extra;\n@end\nNS_ASSUME_NONNULL_END\n";
        let mut out = Surface::default();
        extract(source, &|_| true, &mut out).unwrap();
        let keys: Vec<&str> = out.items.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "DDFunc",
                "DDKey",
                "DDLog",
                "DDLog(Extra)",
                "DDLog.+setShared:",
                "DDLog.+shared",
                "DDLog.-extra",
                "DDLog.-initWithFrame:style:",
                "DDLog.-reset",
                "DDLog.-setTitle:",
                "DDLog.title",
                "DDLogLevel",
                "DDLogLevelOff",
                "DDLogger",
                "DDLogger.-logMessage:",
                "DDLogger.name",
            ]
        );
        assert_eq!(
            out.items["DDLog"].form,
            "@interface DDLog : NSObject <DDLogger>"
        );
    }
}
