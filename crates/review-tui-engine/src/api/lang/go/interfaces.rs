//! A Go interface's contract is its method set, not its text: the methods it declares and
//! those of the interfaces it embeds, flattened through the interfaces of its own package
//! (exported or not). An embedded interface renamed with the same methods (`gearsCmdable` →
//! `GearsCmdable` inside an exported interface) leaves every user's code compiling, and so
//! does an interface kept as an alias (`type Old = New`) or a defined type over one (`type
//! Old New`), whose method set is the named interface's.

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use super::extract::{callable, exported_name};
use crate::api::text::{Src, named};
use crate::api::visibility::{List, Read};
use crate::api::{Item, Surface};

/// How deep embedded interfaces are followed: deeper chains are left as written.
const MOST_DEPTH: usize = 16;

/// One interface a package declares: its own methods, by name, and the interfaces it
/// embeds by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Interface {
    methods: BTreeMap<String, Item>,
    embeds: Vec<String>,
}

/// What the files of one package declare, read at one side: its interfaces by name, and the
/// types declared as another type of the package by name (`type Old = New`, `type Old New`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Package {
    interfaces: BTreeMap<String, Interface>,
    named_as: BTreeMap<String, String>,
}

impl Package {
    /// Adds what the Go file `source` declares; an unparsable file adds nothing.
    pub(crate) fn read(&mut self, source: &str) {
        let Some(tree) = super::parse(source) else {
            return;
        };
        let src = Src(source.as_bytes());
        for declaration in named(tree.root_node()) {
            if declaration.kind() != "type_declaration" {
                continue;
            }
            for spec in named(declaration) {
                self.read_spec(spec, src);
            }
        }
    }

    fn read_spec(&mut self, spec: Node, src: Src) {
        let Some(name) = src.field(spec, "name") else {
            return;
        };
        // Generic interfaces are left as written: their methods name type parameters.
        if spec.child_by_field_name("type_parameters").is_some() {
            return;
        }
        let Some(ty) = spec.child_by_field_name("type") else {
            return;
        };
        match ty.kind() {
            "interface_type" if spec.kind() == "type_spec" => {
                let mut interface = Interface::default();
                for member in named(ty) {
                    match member.kind() {
                        "method_elem" => {
                            if let Some(method) = src.field(member, "name") {
                                let key = format!("{name}.{method}");
                                let item = callable(member, src, "method", &key, Some(name));
                                interface.methods.insert(method.to_string(), item);
                            }
                        }
                        "type_elem" => interface.embeds.push(src.canonical(member)),
                        _ => {}
                    }
                }
                self.interfaces.insert(name.to_string(), interface);
            }
            "type_identifier" => {
                self.named_as
                    .insert(name.to_string(), src.raw(ty).to_string());
            }
            _ => {}
        }
    }

    /// The method set of the package's interface `name`, through the interfaces of the
    /// package it embeds, and what it embeds from elsewhere (another package's, a type
    /// constraint): `None` when the package declares no such interface.
    fn method_set(&self, name: &str) -> Option<(BTreeMap<String, Item>, Vec<String>)> {
        let mut methods = BTreeMap::new();
        let mut elsewhere = Vec::new();
        let mut seen = BTreeSet::new();
        let mut pending = vec![(self.interface_named(name)?, 0usize)];
        while let Some((interface, depth)) = pending.pop() {
            if !seen.insert(interface) {
                continue;
            }
            let Some(declared) = self.interfaces.get(interface) else {
                continue;
            };
            for (method, item) in &declared.methods {
                methods
                    .entry(method.clone())
                    .or_insert_with(|| item.clone());
            }
            for embedded in &declared.embeds {
                match self.interface_named(embedded) {
                    Some(found) if depth < MOST_DEPTH => pending.push((found, depth + 1)),
                    _ => elsewhere.push(embedded.clone()),
                }
            }
        }
        Some((methods, elsewhere))
    }

    /// The interface of the package a name stands for: itself, or the interface an alias or
    /// defined type of the package names (`type Old = New`).
    fn interface_named<'p>(&'p self, name: &str) -> Option<&'p str> {
        let mut name = name;
        for _ in 0..MOST_DEPTH {
            if let Some((key, _)) = self.interfaces.get_key_value(name) {
                return Some(key.as_str());
            }
            name = self.named_as.get(name)?;
        }
        None
    }
}

/// What the package of the Go file at `path` declares, read at one side with `read` and
/// `list` (see [`super::package_texts`]).
pub(crate) fn package_of(path: &str, read: Read, list: List) -> Package {
    let mut package = Package::default();
    for text in super::package_texts(path, read, list) {
        package.read(&text);
    }
    package
}

/// Whether `surface` has an interface whose members [`flatten`] may rewrite: one embedding
/// another by a bare name, or a type declared as another type of its package.
pub(crate) fn embeds_by_name(surface: &Surface) -> bool {
    surface.items.values().any(|item| {
        (item.kind == "embedded" && bare(&item.form))
            || (item.kind == "type" && bare(&item.shape) && item.generics.is_empty())
    })
}

/// A name of this package: an identifier, not `io.Reader`, `Set[T]`, `~int | string` or a
/// predeclared type (`type Level uint32` is never an interface).
fn bare(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !super::PREDECLARED_TYPES.contains(&name)
}

/// Rewrites the members of `surface`'s exported interfaces, and of its exported types that
/// stand for an interface of the package, as their flattened method sets (see the module's
/// documentation): an embedded interface of the package becomes the methods it brings, while
/// one from elsewhere stays an `embedded` member. An unexported method brought in seals the
/// interface, as one declared in it does.
pub(crate) fn flatten(surface: &mut Surface, package: &Package) {
    let owners: Vec<String> = surface
        .items
        .iter()
        .filter(|(key, item)| {
            !key.contains('.')
                && (item.kind == "interface"
                    || (item.kind == "type" && bare(&item.shape) && item.generics.is_empty()))
        })
        .map(|(key, _)| key.clone())
        .collect();
    for owner in owners {
        let Some((methods, elsewhere)) = package.method_set(&owner) else {
            continue;
        };
        let prefix = format!("{owner}.");
        let members: Vec<String> = surface
            .items
            .range(prefix.clone()..)
            .take_while(|(key, _)| key.starts_with(&prefix))
            .map(|(key, _)| key.clone())
            .collect();
        for key in members {
            surface.items.remove(&key);
        }
        for (method, item) in &methods {
            if !exported_name(method) {
                continue;
            }
            let key = format!("{prefix}{method}");
            let mut member = item.clone();
            member.family = key.clone();
            member.parent = Some(owner.clone());
            member.required = true;
            surface.items.insert(key, member);
        }
        for embedded in elsewhere {
            let key = format!("{prefix}{embedded}");
            let mut member = Item::new("embedded", &key, embedded.clone());
            member.parent = Some(owner.clone());
            member.required = true;
            surface.items.insert(key, member);
        }
        if let Some(item) = surface.items.get_mut(&owner) {
            item.sealed |= methods.keys().any(|m| !exported_name(m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::extract;
    use crate::parse::grammar::Grammar;

    fn flattened(file: &str, others: &[&str]) -> Surface {
        let mut package = Package::default();
        for text in std::iter::once(&file).chain(others) {
            package.read(text);
        }
        let mut surface = extract(Grammar::Go, file.as_bytes(), &|_| true).unwrap();
        flatten(&mut surface, &package);
        surface
    }

    #[test]
    fn a_go_interfaces_method_set_is_flattened_through_its_packages_interfaces() {
        let file = "package p\n\ntype Cmdable interface {\n\tPing() error\n\tgearsCmdable\n\tio.Reader\n}\n";
        let other = "package p\n\ntype gearsCmdable interface {\n\tLoad(name string) error\n\tsecret()\n\tbaseCmdable\n}\n\ntype baseCmdable interface {\n\tClose() error\n}\n";
        let surface = flattened(file, &[other]);
        let keys: Vec<&str> = surface.items.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "Cmdable",
                "Cmdable.Close",
                "Cmdable.Load",
                "Cmdable.Ping",
                "Cmdable.io.Reader"
            ]
        );
        assert!(surface.items["Cmdable"].sealed);
        assert_eq!(
            surface.items["Cmdable.Load"].parent.as_deref(),
            Some("Cmdable")
        );
        // Renamed, same methods: the same members.
        let renamed = flattened(
            &file.replace("gearsCmdable", "GearsCmdable"),
            &[&other.replace("gearsCmdable", "GearsCmdable")],
        );
        let renamed_keys: Vec<&str> = renamed
            .items
            .keys()
            .map(String::as_str)
            .filter(|k| k.starts_with("Cmdable"))
            .collect();
        assert_eq!(renamed_keys, keys);
        // An alias of an interface has its methods.
        let alias = flattened(
            "package p\n\ntype Old = New\n",
            &["package p\n\ntype New interface {\n\tRun() error\n}\n"],
        );
        assert!(
            alias.items.contains_key("Old.Run"),
            "{:?}",
            alias.items.keys()
        );
    }
}
