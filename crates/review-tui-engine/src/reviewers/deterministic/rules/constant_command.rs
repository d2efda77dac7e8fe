//! A shell command built only from constants is no injection: `exec(\`tsc ${watch ? '-w' :
//! ''} --declaration\`)` interpolates one of two literals, whatever chooses between them. What
//! an attacker controls has to reach the string: a function's parameter, the environment, the
//! command line, a request, a file read, anything imported or global.
//!
//! Read from the syntax tree of the file (JavaScript, TypeScript, Python): the command is the
//! first argument of the call the rule matched, and it is constant when every value it takes
//! is a literal, a choice between constants (`c ? 'a' : 'b'`, `'a' if c else 'b'`: the
//! condition picks, it is not written in), constants joined (`+`, a template, an f-string,
//! `%`, `.format` of a literal), or a name bound once in the whole file, by a `const` (Python:
//! a module-level assignment) whose value is constant, in a scope holding the call. A name
//! bound anywhere else too (a parameter of the same name, a reassignment, an import), a name
//! read inside a JavaScript `with` block or in a Python module that writes its own namespace
//! (`globals()`, `setattr`), and anything not listed, leaves the finding.
//!
//! The same reading serves markup: `el.innerHTML = SPINNER`, where `SPINNER` is a module's
//! `const` bound to a literal, inserts the file's own markup, not data (JavaScript,
//! TypeScript).

use tree_sitter::Node;

use super::syntax::{CodeAt, Parsed, Syntax};
use crate::diff::Language;

/// How many names deep a value may lead (`const a = b`, `const b = 'x'`).
const MAX_DEPTH: usize = 8;

/// Whether the command the call at `code` runs is built from constants only.
pub(super) fn built_from_constants(syntax: &Syntax, code: CodeAt) -> bool {
    let language = syntax.language();
    let call_kind = match language {
        Language::JavaScript | Language::TypeScript => "call_expression",
        Language::Python => "call",
        _ => return false,
    };
    syntax
        .with_line(code, |parsed, point| {
            let call = parsed.enclosing(point, &[call_kind])?;
            let command = first_argument(call)?;
            let reader = Reader { parsed, language };
            Some(reader.constant(command, 0))
        })
        .unwrap_or(false)
}

/// Whether the value the assignment at `code` stores (`el.innerHTML = MARKUP`) is built from
/// constants only.
pub(super) fn assigned_from_constants(syntax: &Syntax, code: CodeAt) -> bool {
    let language = syntax.language();
    if !matches!(language, Language::JavaScript | Language::TypeScript) {
        return false;
    }
    syntax
        .with_line(code, |parsed, point| {
            let assignment = parsed.enclosing(
                point,
                &["assignment_expression", "augmented_assignment_expression"],
            )?;
            let value = assignment.child_by_field_name("right")?;
            let reader = Reader { parsed, language };
            Some(reader.constant(value, 0))
        })
        .unwrap_or(false)
}

/// The call's first positional argument.
fn first_argument(call: Node) -> Option<Node> {
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let first = arguments
        .named_children(&mut cursor)
        .find(|n| n.kind() != "comment")?;
    (first.kind() != "keyword_argument").then_some(first)
}

struct Reader<'p> {
    parsed: &'p Parsed,
    language: Language,
}

impl Reader<'_> {
    /// Whether the value of `node` is one of a set of constants.
    fn constant(&self, node: Node, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match node.kind() {
            "number" | "integer" | "float" | "true" | "false" | "null" | "undefined" | "none"
            | "string_fragment" | "escape_sequence" => true,
            // JavaScript strings hold fragments and escapes; Python strings also their
            // interpolations, which must be constant.
            "string" => {
                let mut cursor = node.walk();
                let parts: Vec<Node> = node.named_children(&mut cursor).collect();
                parts.iter().all(|part| match part.kind() {
                    "interpolation" => part
                        .child_by_field_name("expression")
                        .is_some_and(|e| self.constant(e, depth)),
                    _ => true,
                })
            }
            "concatenated_string" | "template_string" | "template_substitution" => {
                self.all_constant(node, depth)
            }
            "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression" => node.named_child(0).is_some_and(|n| self.constant(n, depth)),
            "binary_expression" | "binary_operator" | "boolean_operator" => {
                let sides = [
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ];
                sides
                    .iter()
                    .all(|side| side.is_some_and(|n| self.constant(n, depth)))
            }
            "tuple" if self.language == Language::Python => self.all_constant(node, depth),
            // The condition chooses; only the choices are written in.
            "ternary_expression" => [
                node.child_by_field_name("consequence"),
                node.child_by_field_name("alternative"),
            ]
            .iter()
            .all(|side| side.is_some_and(|n| self.constant(n, depth))),
            "conditional_expression" => [node.named_child(0), node.named_child(2)]
                .iter()
                .all(|side| side.is_some_and(|n| self.constant(n, depth))),
            // `"git log {}".format(REF)`: a constant template's method over constants.
            "call" => self.constant_format(node, depth),
            "identifier" => self.constant_name(node, depth),
            _ => false,
        }
    }

    /// Whether every named child of `node` is constant.
    fn all_constant(&self, node: Node, depth: usize) -> bool {
        let mut cursor = node.walk();
        let parts: Vec<Node> = node.named_children(&mut cursor).collect();
        parts.iter().all(|part| self.constant(*part, depth))
    }

    /// `"…".format(…)` whose string and every argument are constant.
    fn constant_format(&self, call: Node, depth: usize) -> bool {
        let Some(function) = call.child_by_field_name("function") else {
            return false;
        };
        let (Some(object), Some(method)) = (
            function.child_by_field_name("object"),
            function.child_by_field_name("attribute"),
        ) else {
            return false;
        };
        if function.kind() != "attribute" || self.parsed.text(method) != "format" {
            return false;
        }
        let Some(arguments) = call.child_by_field_name("arguments") else {
            return false;
        };
        let mut cursor = arguments.walk();
        let values: Vec<Node> = arguments
            .named_children(&mut cursor)
            .filter(|n| n.kind() != "comment")
            .map(|n| match n.kind() {
                "keyword_argument" => n.child_by_field_name("value").unwrap_or(n),
                _ => n,
            })
            .collect();
        self.constant(object, depth) && values.iter().all(|v| self.constant(*v, depth))
    }

    /// Whether the name `node` uses is bound once in the file, to a constant, in a scope that
    /// holds the use.
    fn constant_name(&self, node: Node, depth: usize) -> bool {
        if self.dynamic_names(node) {
            return false;
        }
        let name = self.parsed.text(node);
        let mut bindings = Vec::new();
        self.bindings_of(self.root(node), name, &mut bindings);
        let [binding] = bindings.as_slice() else {
            return false;
        };
        let Some(value) = self.constant_binding(*binding, node) else {
            return false;
        };
        self.constant(value, depth + 1)
    }

    /// Whether what a name means at `node` can be decided at run time: inside a JavaScript
    /// `with` block (its object's properties come first), or in a Python module that writes
    /// its own namespace (`globals()[…] =`, `setattr(sys.modules[__name__], …)`).
    fn dynamic_names(&self, node: Node) -> bool {
        match self.language {
            Language::Python => ["globals()", "setattr(", "vars()", "__dict__"]
                .iter()
                .any(|writes| self.parsed.source.contains(writes)),
            _ => {
                let mut at = node.parent();
                while let Some(n) = at {
                    if n.kind() == "with_statement" {
                        return true;
                    }
                    at = n.parent();
                }
                false
            }
        }
    }

    fn root<'t>(&self, node: Node<'t>) -> Node<'t> {
        let mut root = node;
        while let Some(parent) = root.parent() {
            root = parent;
        }
        root
    }

    /// Every identifier named `name` under `node` standing where a value is bound to it.
    fn bindings_of<'t>(&self, node: Node<'t>, name: &str, found: &mut Vec<Node<'t>>) {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            let identifier = matches!(
                child.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            );
            if identifier && self.parsed.text(child) == name && self.binds(child) {
                found.push(child);
            }
            if child.child_count() > 0 {
                self.bindings_of(child, name, found);
            }
        }
    }

    /// Whether the identifier `node` stands where a value is bound to its name: a declaration,
    /// a parameter, an assignment's target, an import, a loop variable.
    fn binds(&self, node: Node) -> bool {
        if node.kind() == "shorthand_property_identifier_pattern" {
            return true;
        }
        let Some(parent) = node.parent() else {
            return false;
        };
        let field_is = |field: &str| {
            parent
                .child_by_field_name(field)
                .is_some_and(|n| n.id() == node.id())
        };
        match parent.kind() {
            "variable_declarator"
            | "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "class_declaration"
            | "class"
            | "function_definition"
            | "class_definition"
            | "default_parameter"
            | "typed_default_parameter"
            | "named_expression" => field_is("name"),
            "assignment_expression"
            | "augmented_assignment_expression"
            | "assignment_pattern"
            | "assignment"
            | "augmented_assignment"
            | "for_in_statement"
            | "for_statement"
            | "for_in_clause" => field_is("left"),
            "arrow_function" => field_is("parameter"),
            "catch_clause" => field_is("parameter"),
            "required_parameter" | "optional_parameter" => field_is("pattern"),
            "pair_pattern" => field_is("value"),
            "formal_parameters"
            | "parameters"
            | "lambda_parameters"
            | "typed_parameter"
            | "object_pattern"
            | "array_pattern"
            | "rest_pattern"
            | "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "dictionary_splat_pattern"
            | "as_pattern_target"
            | "update_expression"
            | "import_specifier"
            | "import_clause"
            | "namespace_import"
            | "aliased_import"
            | "global_statement"
            | "nonlocal_statement"
            | "dotted_name" => true,
            _ => false,
        }
    }

    /// The value of the one binding of a name, when it is a constant declaration (JavaScript,
    /// TypeScript: `const`; Python: an assignment at the module's top level) in a scope
    /// holding `used`.
    fn constant_binding<'t>(&self, binding: Node<'t>, used: Node<'t>) -> Option<Node<'t>> {
        let parent = binding.parent()?;
        match self.language {
            Language::JavaScript | Language::TypeScript => {
                let declaration = parent.parent()?;
                let kind = declaration.child_by_field_name("kind")?;
                if parent.kind() != "variable_declarator"
                    || declaration.kind() != "lexical_declaration"
                    || self.parsed.text(kind) != "const"
                {
                    return None;
                }
                let scope = declaration.parent()?;
                let scope = if scope.kind() == "export_statement" {
                    scope.parent()?
                } else {
                    scope
                };
                holds(scope, used).then_some(())?;
                parent.child_by_field_name("value")
            }
            Language::Python => {
                let statement = parent.parent()?;
                if parent.kind() != "assignment"
                    || statement.kind() != "expression_statement"
                    || statement.parent()?.kind() != "module"
                {
                    return None;
                }
                parent.child_by_field_name("right")
            }
            _ => None,
        }
    }
}

/// Whether `scope` is `node` or one of its ancestors.
fn holds(scope: Node, node: Node) -> bool {
    let mut at = Some(node);
    while let Some(n) = at {
        if n.id() == scope.id() {
            return true;
        }
        at = n.parent();
    }
    false
}
