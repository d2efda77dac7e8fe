//! The languages with a symbol index but no surface rule of their own (C, C++, C#, Ruby, PHP,
//! Kotlin, Swift, Dart, Scala, Elixir, Lua, Haskell, Objective-C, Zig, OCaml), one
//! [`Tagged`] table each. Their surface is what the tag query finds: each public definition
//! (by the language's visibility rule, see `tags::is_public`), keyed by its name qualified
//! with the definitions around it (and, in a language that overloads by parameter types, by
//! those types), with its signature text. That text is not a parsed
//! contract (an overload, a default argument, a mixin or a macro can keep every call working
//! while the text changes or a definition goes), so [`Surface::by_tags`] makes every change to
//! it a warning, never a proven break; a public name gone is a proven removal only where the
//! tags read the visibility rule exactly ([`TagReading::removals_proven`]).

use super::{Language, Manifest, TagReading};
use crate::api::visibility::{Read, Visibility};
use crate::api::{Item, Surface, Unreadable};
use crate::parse::grammar::Grammar;
use crate::parse::tags::{Definition, Tagger};

/// A language read from tags, as a table.
pub(crate) struct Tagged {
    pub grammars: &'static [Grammar],
    pub reading: TagReading,
    /// Which files carry an API (see [`Language::scope`]); [`every_file`] unless the language
    /// keeps it elsewhere.
    pub scope: fn(path: &str, dirs: &[&str], source: &str, read: Read) -> Visibility,
    pub manifests: &'static [Manifest],
}

/// Every file outside test, example and fixture code carries an API.
pub(crate) fn every_file(_path: &str, _dirs: &[&str], _source: &str, _read: Read) -> Visibility {
    Visibility::Exported
}

impl Language for Tagged {
    fn grammars(&self) -> &'static [Grammar] {
        self.grammars
    }

    fn tags(&self) -> Option<TagReading> {
        Some(self.reading)
    }

    fn scope(&self, path: &str, dirs: &[&str], source: &str, read: Read) -> Visibility {
        (self.scope)(path, dirs, source, read)
    }

    fn manifests(&self) -> &'static [Manifest] {
        self.manifests
    }
}

/// Tag kinds that contain other definitions (`class Foo` around `def bar`).
const CONTAINERS: &[&str] = &[
    "class",
    "module",
    "interface",
    "struct",
    "namespace",
    "object",
];

/// Adds the public definitions the tags of `source` (in `grammar`, read as `reading` says)
/// find to `out`.
pub(crate) fn extract(
    grammar: Grammar,
    reading: TagReading,
    source: &[u8],
    exported: &dyn Fn(&str) -> bool,
    out: &mut Surface,
) -> Result<(), Unreadable> {
    let tags = Tagger::default()
        .tags(grammar, source)
        .map_err(|_| Unreadable)?;
    out.by_tags = true;
    out.removals_proven = reading.removals_proven;
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
        let mut family = String::new();
        for container in &containers {
            family.push_str(&container.name);
            family.push('.');
        }
        family.push_str(&definition.name);
        let parent = (!containers.is_empty())
            .then(|| family[..family.len() - definition.name.len() - 1].to_string());
        // Overloads are members of their own, keyed by their parameter types: a change to one
        // is not a change to its siblings.
        let key = match &definition.overload {
            Some(parameters) => format!("{family}{parameters}"),
            None => family.clone(),
        };
        let mut item = Item::new(
            kind(&definition.kind),
            &family,
            definition.signature.clone(),
        );
        item.shape = definition.signature.clone();
        item.parent = parent;
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
