//! C, C++, C#, Ruby, PHP and Kotlin: the languages with a symbol index but no surface rule of
//! their own here. Their surface is what the tag query finds: each public definition (by the
//! language's visibility rule, see `tags::is_public`), keyed by its name qualified with the
//! definitions around it, with its signature text. That text is not a parsed contract (an
//! overload, a default argument, a mixin or a macro can keep every call working while the
//! text changes or a definition goes), so [`Surface::by_tags`] makes every change to it a
//! warning, never a proven break.

use super::{Item, Surface};
use crate::cohort::grammar::Grammar;
use crate::cohort::tags::{Definition, Tagger};

/// Tag kinds that contain other definitions (`class Foo` around `def bar`).
const CONTAINERS: &[&str] = &[
    "class",
    "module",
    "interface",
    "struct",
    "namespace",
    "object",
];

pub fn extract(
    grammar: Grammar,
    source: &[u8],
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
) -> Result<(), super::Unreadable> {
    let tags = Tagger::default()
        .tags(grammar, source)
        .map_err(|_| super::Unreadable)?;
    out.by_tags = true;
    let definitions = &tags.definitions;
    for (i, definition) in definitions.iter().enumerate() {
        let containers = enclosing(definitions, i);
        // Public only when every definition around it is too (a public method of a private
        // class is not reachable).
        if !definition.public || containers.iter().any(|c| !c.public) {
            continue;
        }
        let top = containers.first().map_or(&definition.name, |c| &c.name);
        if !exported(top) {
            continue;
        }
        let mut key = String::new();
        for container in &containers {
            key.push_str(&container.name);
            key.push('.');
        }
        key.push_str(&definition.name);
        let mut item = Item::new(kind(&definition.kind), &key, definition.signature.clone());
        item.shape = definition.signature.clone();
        item.parent = (!containers.is_empty())
            .then(|| key[..key.len() - definition.name.len() - 1].to_string());
        out.add(key, item);
    }
    Ok(())
}

/// The container definitions around definition `i`, outermost first, by their rows.
fn enclosing(definitions: &[Definition], i: usize) -> Vec<&Definition> {
    let inner = &definitions[i];
    let mut around: Vec<&Definition> = definitions
        .iter()
        .enumerate()
        .filter(|(j, d)| {
            *j != i
                && CONTAINERS.contains(&d.kind.as_str())
                && d.first_row <= inner.first_row
                && d.last_row >= inner.last_row
                && (d.first_row, d.last_row) != (inner.first_row, inner.last_row)
        })
        .map(|(_, d)| d)
        .collect();
    around.sort_by_key(|d| (d.first_row, std::cmp::Reverse(d.last_row)));
    around
}

fn kind(tag: &str) -> &'static str {
    match tag {
        "function" => "fn",
        "method" => "method",
        "class" => "class",
        "module" => "module",
        "interface" => "interface",
        "struct" => "struct",
        "type" => "type",
        "constant" => "const",
        "macro" => "macro",
        _ => "definition",
    }
}
