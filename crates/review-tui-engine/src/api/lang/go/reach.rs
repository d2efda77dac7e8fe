//! What another package can reach of a Go package: the types it can name, the values it can
//! obtain, and the fields a selector finds through embedded structs. A type is written in
//! another package only by an exported name (its own, or an exported alias's), so a function
//! type or an interface whose signatures name an unexported type of the package is written
//! and implemented by the package alone; and a call can pass such a parameter nothing but
//! `nil`, unless the API hands out values of the type (a result, an exported field or
//! variable). A field moved into an embedded struct is still selected by its name, by Go's
//! promotion rules: the shallowest depth holding the name decides, and two there are
//! ambiguous.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use super::extract::{callable, exported_name, receiver_type};
use crate::api::text::{Src, has_token, map_words, named};
use crate::api::visibility::{List, Read};
use crate::api::{Item, Param, Surface};

/// How deep embedded structs are followed for a promoted field.
const MOST_DEPTH: usize = 8;

/// One field of a struct the package declares.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    /// Canonical type text (`any` for `interface{}`, as the surface writes it).
    ty: String,
    embedded: bool,
}

/// What the files of one package declare, read at one side.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    /// Unexported type names the package declares.
    unexported: BTreeSet<String>,
    /// Names an exported alias stands for (`type Settings = options`): other packages write
    /// them through the alias.
    aliased: BTreeSet<String>,
    /// Identifiers written in what the package hands out to other packages: results of
    /// exported functions and methods (on any receiver), exported fields, variables and
    /// constants (their written types and initialisers).
    handed_out: BTreeSet<String>,
    structs: BTreeMap<String, Vec<Field>>,
    /// Method names by receiver type: methods are promoted, and collide, as fields do.
    methods: BTreeMap<String, BTreeSet<String>>,
}

/// The unqualified identifiers of a type or expression text (`map[string]*opts` → `map`,
/// `string`, `opts`; `pkg.T` gives `pkg` only).
fn words(text: &str) -> BTreeSet<String> {
    let found = RefCell::new(BTreeSet::new());
    map_words(text, |word| {
        found.borrow_mut().insert(word.to_string());
        None
    });
    found.into_inner()
}

/// `interface{}` and `any` are one type, as the surface reads them.
fn same(text: &str) -> String {
    text.replace("interface{}", "any")
}

impl Reach {
    /// Adds what the Go file `source` declares; an unparsable file adds nothing.
    pub(crate) fn read(&mut self, source: &str) {
        let Some(tree) = super::parse(source) else {
            return;
        };
        let src = Src(source.as_bytes());
        for node in named(tree.root_node()) {
            match node.kind() {
                "type_declaration" => named(node)
                    .into_iter()
                    .for_each(|spec| self.read_type(spec, src)),
                "function_declaration" | "method_declaration" => self.read_function(node, src),
                "var_declaration" | "const_declaration" => self.read_values(node, src),
                _ => {}
            }
        }
    }

    fn read_type(&mut self, spec: Node, src: Src) {
        let Some(name) = src.field(spec, "name") else {
            return;
        };
        let ty = spec.child_by_field_name("type");
        if !exported_name(name) {
            self.unexported.insert(name.to_string());
        } else if spec.kind() == "type_alias"
            && let Some(target) = ty
        {
            self.aliased.insert(src.raw(target).to_string());
        }
        let Some(ty) = ty else { return };
        // Exported fields (of any struct, nested ones too) and the results of function types
        // and interface methods hand their types out.
        self.hand_out_within(ty, src);
        if ty.kind() == "struct_type" {
            let fields = struct_fields(ty, src);
            self.structs.insert(name.to_string(), fields);
        }
    }

    fn hand_out_within(&mut self, node: Node, src: Src) {
        match node.kind() {
            "field_declaration" => {
                let mut cursor = node.walk();
                let exported = node
                    .children_by_field_name("name", &mut cursor)
                    .any(|n| exported_name(src.raw(n)));
                if exported && let Some(ty) = node.child_by_field_name("type") {
                    self.handed_out.extend(words(src.raw(ty)));
                }
            }
            "function_type" | "method_elem" => {
                if let Some(result) = node.child_by_field_name("result") {
                    self.handed_out.extend(words(src.raw(result)));
                }
            }
            _ => {}
        }
        for child in named(node) {
            self.hand_out_within(child, src);
        }
    }

    fn read_function(&mut self, node: Node, src: Src) {
        let Some(name) = src.field(node, "name") else {
            return;
        };
        if node.kind() == "method_declaration" {
            let receiver = receiver_type(node)
                .map(|t| src.raw(t).trim_start_matches('*').to_string())
                .unwrap_or_default();
            let receiver = receiver.split('[').next().unwrap_or("").to_string();
            self.methods
                .entry(receiver)
                .or_default()
                .insert(name.to_string());
        }
        // A method of an unexported type is still called through a value the API hands out.
        if exported_name(name)
            && let Some(result) = node.child_by_field_name("result")
        {
            self.handed_out.extend(words(src.raw(result)));
        }
    }

    fn read_values(&mut self, node: Node, src: Src) {
        let mut specs = Vec::new();
        for child in named(node) {
            if child.kind() == "var_spec_list" {
                specs.extend(named(child));
            } else {
                specs.push(child);
            }
        }
        for spec in specs {
            let mut cursor = spec.walk();
            let exported = spec
                .children_by_field_name("name", &mut cursor)
                .any(|n| exported_name(src.raw(n)));
            if exported {
                // `var Default = &options{}` hands out what its initialiser builds.
                self.handed_out.extend(words(src.raw(spec)));
            }
        }
    }

    /// Whether no other package can write the type `name`: the package declares it
    /// unexported, and no exported alias names it.
    pub(crate) fn unnameable(&self, name: &str) -> bool {
        self.unexported.contains(name) && !self.aliased.contains(name)
    }

    /// Whether no other package can write the type `name` nor obtain a value of it from the
    /// API: a parameter of it takes nothing but `nil` from them.
    pub(crate) fn unreachable(&self, name: &str) -> bool {
        self.unnameable(name) && !self.handed_out.contains(name)
    }

    /// The unnameable types a type text names.
    pub(crate) fn unnameable_in(&self, text: &str) -> Vec<String> {
        words(text)
            .into_iter()
            .filter(|w| self.unnameable(w))
            .collect()
    }

    /// The field `field` a selector on the struct `structure` finds by promotion, as the
    /// type it has and the embedded field of `structure` it comes through: `None` when the
    /// struct declares it itself (not promoted), when no field or two at the shallowest depth
    /// holding the name answer (absent or ambiguous), when a method answers, or when an
    /// embedded type the package does not declare as a struct (another package's) or an
    /// embedded pointer is met on the way (fields not read; a nil pointer's field panics).
    pub(crate) fn promoted(&self, structure: &str, field: &str) -> Option<(String, String)> {
        // Each type at this depth, with the embedded field of `structure` it was reached by.
        let mut frontier: Vec<(String, Option<String>)> = vec![(structure.to_string(), None)];
        for _ in 0..=MOST_DEPTH {
            let mut found = Vec::new();
            let mut next = Vec::new();
            for (ty, via) in &frontier {
                let fields = self.structs.get(ty)?;
                if self.methods.get(ty).is_some_and(|m| m.contains(field)) {
                    return None;
                }
                for f in fields {
                    if f.name == field {
                        found.push((f.ty.clone(), via.clone()));
                    }
                    if f.embedded {
                        let inner = f.ty.trim_start_matches('*');
                        // Another package's type: its fields are not read. Through a pointer,
                        // the zero value's selector panics where the old field read zero.
                        if inner.contains('.') || f.ty.starts_with('*') {
                            next.push((String::new(), None));
                        } else {
                            let via = via.clone().unwrap_or_else(|| f.name.clone());
                            next.push((inner.split('[').next()?.to_string(), Some(via)));
                        }
                    }
                }
            }
            match found.as_slice() {
                [] => {}
                [(ty, Some(via))] => return Some((ty.clone(), via.clone())),
                _ => return None,
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }
}

fn struct_fields(ty: Node, src: Src) -> Vec<Field> {
    let Some(list) = named(ty)
        .into_iter()
        .find(|c| c.kind() == "field_declaration_list")
    else {
        return Vec::new();
    };
    let mut fields = Vec::new();
    for field in named(list)
        .into_iter()
        .filter(|f| f.kind() == "field_declaration")
    {
        let ty = field
            .child_by_field_name("type")
            .map(|t| same(&src.canonical(t)))
            .unwrap_or_default();
        let mut cursor = field.walk();
        let names: Vec<String> = field
            .children_by_field_name("name", &mut cursor)
            .map(|n| src.raw(n).to_string())
            .collect();
        if names.is_empty() {
            // An embedded field is named by its type's last segment, without arguments; the
            // grammar writes an embedded pointer's `*` beside its type.
            let ty = if has_token(field, "*") && !ty.starts_with('*') {
                format!("*{ty}")
            } else {
                ty
            };
            let name = ty
                .trim_start_matches('*')
                .rsplit('.')
                .next()
                .unwrap_or("")
                .split('[')
                .next()
                .unwrap_or("")
                .to_string();
            fields.push(Field {
                name,
                ty,
                embedded: true,
            });
        } else {
            fields.extend(names.into_iter().map(|name| Field {
                name,
                ty: ty.clone(),
                embedded: false,
            }));
        }
    }
    fields
}

/// What the package of the Go file at `path` declares, read at one side with `read` and
/// `list` (see [`super::package_texts`]).
pub(crate) fn reach_of(path: &str, read: Read, list: List) -> Reach {
    let mut reach = Reach::default();
    for text in super::package_texts(path, read, list) {
        reach.read(&text);
    }
    reach
}

/// Marks sealed each exported interface of `surface` one of whose methods names a type no
/// other package can write (`Apply(*state) error`): no other package can declare that method,
/// so every implementation is the package's own (or embeds one of its values, which keeps
/// implementing it whatever it gains), as with an unexported method.
pub(crate) fn seal_over_unnameable_types(surface: &mut Surface, reach: &Reach) {
    let sealed: BTreeSet<String> = surface
        .items
        .values()
        .filter(|item| item.kind == "method" && item.required)
        .filter(|item| signature_names_unnameable(item, reach))
        .filter_map(|item| item.parent.clone())
        .collect();
    for name in sealed {
        if let Some(item) = surface.items.get_mut(&name)
            && item.kind == "interface"
        {
            item.sealed = true;
        }
    }
}

fn signature_names_unnameable(item: &Item, reach: &Reach) -> bool {
    let params = item.params.iter().flatten().filter_map(|p| p.ty.as_deref());
    params
        .chain(item.ret.as_deref())
        .any(|ty| !reach.unnameable_in(ty).is_empty())
}

/// The parameters and result of a function type's text (`func(*opts) error`), read as a
/// function declaration is; `None` for any other type.
fn signature(shape: &str) -> Option<(Vec<Param>, Option<String>)> {
    let rest = shape.strip_prefix("func(")?;
    let source = format!("package p\n\nfunc F({rest} {{}}\n");
    let tree = super::parse(&source)?;
    let src = Src(source.as_bytes());
    let declaration = named(tree.root_node())
        .into_iter()
        .find(|n| n.kind() == "function_declaration")?;
    let item = callable(declaration, src, "func", "F", None);
    Some((item.params?, item.ret.map(|r| same(&r))))
}

/// Whether `nil` is a value of the type text `ty` (a pointer, slice, map, channel, function or
/// interface; a named type's kind is not read, so it is not).
fn takes_nil(ty: &str) -> bool {
    [
        "*",
        "[]",
        "map[",
        "chan ",
        "chan<-",
        "<-chan",
        "func(",
        "any",
        "interface{",
    ]
    .iter()
    .any(|start| ty.starts_with(start))
        || ty == "error"
}

/// The first type a parameter of `params` names that other packages can neither name nor
/// obtain: they pass it nothing but `nil`.
fn nil_only(params: &[Param], reach: &Reach) -> Option<String> {
    params
        .iter()
        .filter_map(|p| p.ty.as_deref())
        .flat_map(|ty| reach.unnameable_in(ty))
        .find(|name| reach.unreachable(name))
}

/// Whether every call other packages could write against the old signature compiles against
/// the new one: the same arity and results, and each changed parameter one that took only
/// `nil` (see [`nil_only`]) and still takes `nil`.
fn calls_with_nil_still_compile(
    (old_params, old_ret): (&[Param], Option<&str>),
    (new_params, new_ret): (&[Param], Option<&str>),
    reach: &Reach,
) -> bool {
    old_params.len() == new_params.len()
        && old_ret.map(same) == new_ret.map(same)
        && old_params.iter().zip(new_params).all(|(old, new)| {
            let (old, new) = (old.ty.as_deref(), new.ty.as_deref());
            old.map(same) == new.map(same)
                || old.zip(new).is_some_and(|(old, new)| {
                    nil_only(std::slice::from_ref(&param(old)), reach).is_some()
                        && takes_nil(old)
                        && takes_nil(new)
                })
        })
}

fn param(ty: &str) -> Param {
    Param {
        name: None,
        ty: Some(ty.to_string()),
        kind: crate::api::ParamKind::Positional,
        optional: false,
    }
}

/// How a function type of the package changed into another function type reaches other
/// packages, from its base and head type texts and the base package's [`Reach`]: `None` when
/// no parameter of its base signature takes only `nil` from them (see [`nil_only`]), and the
/// usual rules apply. Otherwise no other package could write a function of the type, and a
/// call could pass such parameters nothing but `nil`: `Some((true, why))` when every such
/// call still compiles, `Some((false, why))` when one that reads a result or passes `nil`
/// where it is no longer a value might not.
pub(crate) fn function_type_reach(
    base_shape: &str,
    head_shape: &str,
    reach: &Reach,
) -> Option<(bool, String)> {
    let (old_params, old_ret) = signature(base_shape)?;
    let first = nil_only(&old_params, reach)?;
    let why = format!(
        "other packages cannot name `{first}`: they cannot write a function of this type, and \
         can call one only with `nil` for it"
    );
    let Some((new_params, new_ret)) = signature(head_shape) else {
        return Some((false, why));
    };
    if calls_with_nil_still_compile(
        (&old_params, old_ret.as_deref()),
        (&new_params, new_ret.as_deref()),
        reach,
    ) {
        Some((true, format!("{why}, which the new signature still takes")))
    } else {
        Some((false, format!("{why}: only such calls could notice")))
    }
}

/// Why a function or method whose changed parameters took only `nil` from other packages
/// (see [`nil_only`]) still takes every call they could write, `None` when it may not. Its
/// callers are every user (a `nil` may mean "the defaults"), so anything else that changed
/// is weighed as usual.
pub(crate) fn called_with_nil_alike(old: &Item, new: &Item, reach: &Reach) -> Option<String> {
    let (old_params, new_params) = (old.params.as_deref()?, new.params.as_deref()?);
    let first = nil_only(old_params, reach)?;
    calls_with_nil_still_compile(
        (old_params, old.ret.as_deref()),
        (new_params, new.ret.as_deref()),
        reach,
    )
    .then(|| {
        format!(
            "other packages cannot name or obtain `{first}`: they pass it only `nil`, which \
             the new parameter type still takes"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(texts: &[&str]) -> Reach {
        let mut reach = Reach::default();
        texts.iter().for_each(|t| reach.read(t));
        reach
    }

    #[test]
    fn promotion_follows_depth_and_ambiguity() {
        let package = reach(&[
            "package p\n\ntype Info struct {\n\tTier\n\t*Extra\n\tName string\n}\n\ntype Tier struct {\n\tMemory uint64\n\tUsage\n}\n\ntype Extra struct {\n\tMemory uint64\n\tStore int\n}\n\ntype Usage struct {\n\tStore int\n\tDeep string\n}\n",
        ]);
        // Two at depth 1: ambiguous.
        assert_eq!(package.promoted("Info", "Memory"), None);
        // Depth 1 (`Tier.Usage`'s fields are depth 2), but through the pointer `*Extra`.
        assert_eq!(package.promoted("Info", "Store"), None);
        assert_eq!(package.promoted("Info", "Deep"), None);
        let by_value = reach(&[
            "package p\n\ntype Info struct {\n\tTier\n\tExtra\n}\n\ntype Tier struct {\n\tUsage\n}\n\ntype Extra struct {\n\tStore int\n}\n\ntype Usage struct {\n\tStore int\n\tDeep string\n}\n",
        ]);
        // Depth 1 (`Extra.Store`) wins over depth 2 (`Tier.Usage.Store`).
        assert_eq!(
            by_value.promoted("Info", "Store"),
            Some(("int".into(), "Extra".into()))
        );
        assert_eq!(
            by_value.promoted("Info", "Deep"),
            Some(("string".into(), "Tier".into()))
        );
        // Its own field is not promoted.
        assert_eq!(package.promoted("Info", "Name"), None);
        assert_eq!(package.promoted("Info", "Missing"), None);
    }

    #[test]
    fn what_other_packages_can_name_and_obtain() {
        let package = reach(&[
            "package p\n\ntype opts struct{}\ntype state struct{}\ntype shown struct{}\ntype Settings = shown\n\nfunc (s *state) Get() *handed { return nil }\ntype handed struct{}\nvar Default = &kept{}\ntype kept struct{}\n",
        ]);
        assert!(package.unreachable("opts"));
        assert!(!package.unnameable("shown"));
        assert!(package.unnameable("handed") && !package.unreachable("handed"));
        assert!(!package.unreachable("kept"));
        assert!(!package.unnameable("Settings"));
    }
}
