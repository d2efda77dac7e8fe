//! Paths from the crate root spelled another way: a 2015-edition crate names its own root
//! items `::Level` or `::inner::Mode`, the 2018 edition writes `crate::Level`, and the root
//! module also `self::Level`. One item is one type, so the compared texts (parameters, return
//! types, generics, field types; never the form shown) spell each such path `crate::…`.

use std::cell::RefCell;
use std::rc::Rc;

use crate::api::Surface;
use crate::api::lang::rust::scope::crate_of;
use crate::api::visibility::Read;
use crate::remembered::{Remembered, remembered};

/// How the paths of one side's file name the crate root.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(in crate::api) struct Root {
    /// The crate is on the 2015 edition, where every `::a::B` starts at the crate root (in
    /// later editions `::a` is the external crate `a`).
    pub edition_2015: bool,
    /// The file is the library's root module, where `self::X` is `crate::X`.
    pub crate_root: bool,
}

impl Root {
    /// The root of the Rust file at `path`, from the nearest `Cargo.toml` above it; the
    /// defaults (a later edition, not the root) when none can be read.
    pub(in crate::api) fn of(path: &str, read: Read) -> Root {
        let Some((_, manifest, relative)) = crate_of(path, read) else {
            return Root::default();
        };
        // Asked for each changed file at each side, of the same few manifests.
        let (edition_2015, lib) = remembered(&MANIFESTS, &manifest, manifest_facts);
        Root {
            edition_2015,
            crate_root: relative == &*lib,
        }
    }
}

thread_local! {
    /// [`manifest_facts`] of the manifests read on this thread.
    static MANIFESTS: RefCell<Remembered<(bool, Rc<str>)>> =
        RefCell::new(Remembered::new(64, 1024 * 1024));
}

/// Whether the package of the manifest `text` is on the 2015 edition, and its library's root.
fn manifest_facts(text: &str) -> (bool, Rc<str>) {
    #[cfg(test)]
    tests::PARSES.with(|parses| parses.set(parses.get() + 1));
    let table: toml::Table = toml::from_str(text).unwrap_or_default();
    // Cargo's default edition is 2015; a workspace-inherited one (`edition.workspace`)
    // is not read here and counts as a later one.
    let edition_2015 = match table.get("package").and_then(|p| p.get("edition")) {
        None => table.contains_key("package"),
        Some(edition) => edition.as_str() == Some("2015"),
    };
    let lib = table
        .get("lib")
        .and_then(|l| l.get("path"))
        .and_then(toml::Value::as_str)
        .map_or("src/lib.rs", |p| p.trim_start_matches("./"));
    (edition_2015, lib.into())
}

/// Respells the compared texts of every item of `surface` (see [`spelled_from_the_crate`]).
pub(in crate::api) fn respell(surface: &mut Surface, root: Root) {
    let spell = |text: &mut String| {
        if text.contains("::") {
            *text = spelled_from_the_crate(text, root);
        }
    };
    for item in surface.items.values_mut() {
        for param in item.params.iter_mut().flatten() {
            if let Some(ty) = param.ty.as_mut() {
                spell(ty);
            }
        }
        if let Some(ret) = item.ret.as_mut() {
            spell(ret);
        }
        spell(&mut item.generics);
        spell(&mut item.shape);
    }
    for target in surface.aliases.values_mut() {
        spell(target);
    }
}

/// `text` with each path that starts at the crate root written `crate::…`: `::X` with a single
/// segment always (a type is never a crate, so in any edition it is the crate's own `X`),
/// `::a::B` on the 2015 edition only, and `self::X` in the root module.
pub(in crate::api) fn spelled_from_the_crate(text: &str, root: Root) -> String {
    let path_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while !rest.is_empty() {
        // A path starts where no path, lifetime or qualified type (`<T as Tr>::X`) ends.
        let starts_path = out
            .trim_end()
            .chars()
            .last()
            .is_none_or(|c| !(path_char(c) || matches!(c, ':' | '>' | '\'')));
        if starts_path && let Some(after) = rest.strip_prefix("::") {
            let segment_end = after.find(|c: char| !path_char(c)).unwrap_or(after.len());
            let single = segment_end > 0 && !after[segment_end..].starts_with("::");
            if single || root.edition_2015 {
                out.push_str("crate::");
                rest = after;
                continue;
            }
        }
        if starts_path
            && root.crate_root
            && let Some(after) = rest.strip_prefix("self::")
        {
            out.push_str("crate::");
            rest = after;
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// How many manifests this thread parsed (not from what it remembers).
        pub(super) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Every changed file of a crate asks for its root at each side: the crate's manifest is
    /// parsed once on a thread, and each file still gets its own answer (only the library's
    /// root module is the crate root; another manifest is read on its own).
    #[test]
    fn a_crates_manifest_is_parsed_once_for_all_its_files() {
        let files = |path: &str| match path {
            "core/Cargo.toml" => Some(
                "[package]\nname = \"core\"\nedition = \"2015\"\n[lib]\npath = \"./src/core.rs\"\n"
                    .to_string(),
            ),
            "extra/Cargo.toml" => {
                Some("[package]\nname = \"extra\"\nedition = \"2021\"\n".to_string())
            }
            _ => None,
        };
        let parses = || PARSES.with(std::cell::Cell::get);
        let before = parses();
        for n in 0..20 {
            let root = Root::of(&format!("core/src/module_{n}.rs"), &files);
            assert_eq!(
                root,
                Root {
                    edition_2015: true,
                    crate_root: false
                }
            );
        }
        let root = Root::of("core/src/core.rs", &files);
        assert!(root.edition_2015 && root.crate_root);
        assert_eq!(parses() - before, 1);
        assert_eq!(
            Root::of("extra/src/lib.rs", &files),
            Root {
                edition_2015: false,
                crate_root: true
            }
        );
        assert_eq!(parses() - before, 2);
    }

    #[test]
    fn paths_from_the_root_are_spelled_from_the_crate_by_edition() {
        let later = Root::default();
        let old = Root {
            edition_2015: true,
            crate_root: false,
        };
        let root_module = Root {
            edition_2015: false,
            crate_root: true,
        };
        assert_eq!(spelled_from_the_crate("::Level", later), "crate::Level");
        assert_eq!(
            spelled_from_the_crate("Option<&::Level>", later),
            "Option<&crate::Level>"
        );
        // In a later edition `::serde` is the external crate.
        assert_eq!(
            spelled_from_the_crate("::serde::Value", later),
            "::serde::Value"
        );
        assert_eq!(
            spelled_from_the_crate("::inner::Mode", old),
            "crate::inner::Mode"
        );
        // Not path starts: a qualified type's item, a path's own separators, `self` elsewhere.
        assert_eq!(
            spelled_from_the_crate("<T as Tr>::Out", old),
            "<T as Tr>::Out"
        );
        assert_eq!(spelled_from_the_crate("io::Error", old), "io::Error");
        assert_eq!(spelled_from_the_crate("self::Level", later), "self::Level");
        assert_eq!(
            spelled_from_the_crate("self::Level", root_module),
            "crate::Level"
        );
        assert_eq!(
            spelled_from_the_crate("inner::self::X", root_module),
            "inner::self::X"
        );
    }
}
