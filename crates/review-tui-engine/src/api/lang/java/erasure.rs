//! Java's erasure of a written type: what the compiler keeps of it in a method's descriptor,
//! and so what tells two overloads apart (JLS 4.6). Type arguments go, and a type variable
//! becomes the erasure of its first bound (`Object` when it has none): `<T> m(T)` and
//! `<E> m(E)` are one method, `<T> m(T)` and `<T extends Throwable> m(T)` two.

use tree_sitter::Node;

use crate::api::text::{Src, named};

/// The type variables in scope, nearest last, each with the erasure of its first bound as
/// written (resolved when asked, so a bound naming another variable is followed).
#[derive(Debug, Clone, Default)]
pub(crate) struct Erasure {
    variables: Vec<(String, String)>,
}

/// The type variables a `type_parameters` node declares, with their first bound.
pub(crate) fn declared(parameters: Option<Node>, src: Src) -> Vec<(String, String)> {
    let Some(parameters) = parameters else {
        return Vec::new();
    };
    named(parameters)
        .into_iter()
        .filter(|p| p.kind() == "type_parameter")
        .filter_map(|p| {
            let children = named(p);
            let name = children.iter().find(|c| c.kind() == "type_identifier")?;
            let bound = children
                .iter()
                .find(|c| c.kind() == "type_bound")
                .and_then(|b| named(*b).into_iter().next())
                .map(|t| src.canonical(t))
                .unwrap_or_else(|| "Object".to_string());
            Some((src.raw(*name).to_string(), bound))
        })
        .collect()
}

impl Erasure {
    /// The scope of type parameters written as text (`T extends Number & Comparable<T>`, `U`),
    /// each with its first bound.
    pub(crate) fn of_written(parameters: &[String]) -> Erasure {
        let variables = parameters
            .iter()
            .map(|p| match p.split_once(" extends ") {
                Some((name, bounds)) => (
                    name.trim().to_string(),
                    bounds.split('&').next().unwrap_or("").trim().to_string(),
                ),
                None => (p.trim().to_string(), "Object".to_string()),
            })
            .collect();
        Erasure { variables }
    }

    /// Whether `name` is one of the type variables in scope.
    pub(crate) fn declares(&self, name: &str) -> bool {
        self.variables.iter().any(|(n, _)| n == name)
    }

    /// This scope with `variables` declared inside it (they shadow outer ones of their name).
    pub(crate) fn with(&self, variables: Vec<(String, String)>) -> Erasure {
        let mut out = self.clone();
        out.variables.extend(variables);
        out
    }

    /// The erasure of the type written `ty` (`List<? extends T>` → `List`, `T[]` → its
    /// bound's erasure with `[]`, `T...` likewise with `...`).
    pub(crate) fn erase(&self, ty: &str) -> String {
        self.erase_within(ty, 0)
    }

    fn erase_within(&self, ty: &str, depth: usize) -> String {
        let raw = without_type_arguments(ty.trim());
        let core = raw
            .trim_end_matches("...")
            .trim_end_matches("[]")
            .trim_end();
        let suffix = &raw[core.len()..];
        // The nearest declaration of the name; a bound naming a variable (`U extends T`) is
        // followed a few steps (a cycle is not valid Java, the depth only bounds bad input).
        match self.variables.iter().rev().find(|(name, _)| name == core) {
            Some((_, bound)) if depth < 8 => {
                format!("{}{suffix}", self.erase_within(bound, depth + 1))
            }
            _ => raw,
        }
    }
}

/// `ty` with every `<…>` group removed (`Map.Entry<K, V>[]` → `Map.Entry[]`).
fn without_type_arguments(ty: &str) -> String {
    let mut out = String::with_capacity(ty.len());
    let mut depth = 0usize;
    for c in ty.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}
