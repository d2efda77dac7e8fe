//! The languages, one folder each, behind [`Language`]. A new language is one folder here
//! implementing it and one line in [`LANGUAGES`]: the grammars it reads, which of its files
//! and names are exported ([`Language::scope`]), its surface (a structural rule of its own, or
//! the symbol index's tags through [`tagged::Tagged`], a small table per language), and the
//! manifests that name and version its packages ([`Manifest`]).

pub(super) mod c;
pub(super) mod cpp;
pub(super) mod csharp;
pub(super) mod dart;
pub(super) mod elixir;
pub(super) mod go;
pub(super) mod haskell;
pub(super) mod java;
pub(super) mod kotlin;
pub(super) mod lua;
pub(super) mod manifest;
pub(super) mod objc;
pub(super) mod ocaml;
pub(super) mod php;
pub(super) mod python;
pub(super) mod ruby;
pub(super) mod rust;
pub(super) mod scala;
pub(super) mod script;
pub(super) mod swift;
pub(super) mod tagged;
pub(super) mod zig;

use tree_sitter::{Node, Tree};

use super::Surface;
use super::text::Src;
use super::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

/// One language's rules.
pub(super) trait Language: Sync {
    /// The grammars whose files it reads.
    fn grammars(&self) -> &'static [Grammar];

    /// Read from the symbol index's tags, not by a surface rule of its own: how (see
    /// [`tagged`]). `None` for the languages that implement [`Language::extract`].
    fn tags(&self) -> Option<TagReading> {
        None
    }

    /// Adds the exported items of the file whose syntax tree is `root` to `out`. `exported`
    /// answers whether a top-level name counts (see [`super::scope`]).
    fn extract(
        &self,
        _root: Node,
        _src: Src,
        _exported: &dyn Fn(&str) -> bool,
        _out: &mut Surface,
    ) {
    }

    /// [`Language::extract`] from the whole syntax tree `tree`: a language that parses an
    /// edited copy of the file (Rust, its macro bodies spliced in) reparses it from this tree.
    fn extract_tree(
        &self,
        tree: &Tree,
        src: Src,
        exported: &dyn Fn(&str) -> bool,
        out: &mut Surface,
    ) {
        self.extract(tree.root_node(), src, exported, out)
    }

    /// Whether the file at `path` (in the folders `dirs`, its text `source`) carries an API by
    /// the language's own rule, once the rules for every language have let it through (see
    /// [`super::scope::scope`]). Every file does unless the language says otherwise.
    fn scope(&self, _path: &str, _dirs: &[&str], _source: &str, _read: Read) -> Visibility {
        Visibility::Exported
    }

    /// The manifests that may name and version a package of the language, in the order they
    /// are tried in one folder.
    fn manifests(&self) -> &'static [Manifest] {
        &[]
    }

    /// The version of the package holding `path`, as its sources write it, when the manifest
    /// in `root` reads it from there at build time: the file it is written in and the version.
    fn version_in_sources(
        &self,
        _path: &str,
        _root: &str,
        _read: Read,
    ) -> Option<(String, String)> {
        None
    }

    /// Whether a package with no manifest above it at all is versioned by the repository's
    /// own tags (Go before modules).
    fn tags_version_a_bare_repository(&self) -> bool {
        false
    }

    /// Whether a package of the language is released by its version tags alone, with no
    /// registry that publishes an untagged version: before its first tag nothing was released,
    /// so nothing can break a user.
    fn released_by_tags_alone(&self) -> bool {
        false
    }
}

/// How a language is read from tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TagReading {
    /// The language's name, for the report.
    pub name: &'static str,
    /// Whether the tags read its visibility rule exactly: whether a name is public is written
    /// on its definition (`public`, `pub`, `def`/`defp`, a leading `_`, an access modifier),
    /// in an export list or an interface file, never implied by a build setting, a header
    /// elsewhere or a naming habit. Then a public name gone is a proven removal.
    pub removals_proven: bool,
}

/// A manifest file: it names a package and writes its version.
pub(super) struct Manifest {
    /// Its file name, or `*.EXT` for any file of the folder with that extension (a Cabal
    /// package's `NAME.cabal`, a rockspec's `NAME-VERSION-REVISION.rockspec`).
    pub file: &'static str,
    /// The names it gives the package, as its release tags may carry them.
    pub names: fn(text: &str) -> Vec<String>,
    /// The version it writes. `root` is its folder; `read` reads other files (a workspace's
    /// root manifest).
    pub version: fn(text: &str, root: &str, read: Read) -> Option<String>,
    /// How its version says a break is allowed.
    pub versioning: Versioning,
}

/// How a manifest's version allows a break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Versioning {
    /// A semantic version: the major, or the minor below 1.0 (Cargo's rule).
    Semantic,
    /// Go: the module path's major suffix (`/v2`); the numbered versions are the tags.
    ModulePath,
    /// Haskell's Package Versioning Policy: `A.B` is the major version (`1.2.3.0` → `1.3.0.0`
    /// may break).
    Pvp,
}

/// The registered languages.
pub(super) static LANGUAGES: &[&dyn Language] = &[
    &rust::RUST,
    &python::PYTHON,
    &script::SCRIPT,
    &go::GO,
    &java::JAVA,
    &c::C,
    &cpp::CPP,
    &csharp::CSHARP,
    &ruby::RUBY,
    &php::PHP,
    &kotlin::KOTLIN,
    &swift::SWIFT,
    &dart::DART,
    &scala::SCALA,
    &elixir::ELIXIR,
    &lua::LUA,
    &haskell::HASKELL,
    &objc::OBJECTIVE_C,
    &zig::ZIG,
    &ocaml::OCAML,
];

/// The registered language reading `grammar`'s files.
pub(super) fn of(grammar: Grammar) -> Option<&'static dyn Language> {
    LANGUAGES
        .iter()
        .copied()
        .find(|language| language.grammars().contains(&grammar))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_grammar_has_one_language() {
        for grammar in Grammar::ALL {
            let readers = LANGUAGES
                .iter()
                .filter(|language| language.grammars().contains(&grammar))
                .count();
            assert_eq!(readers, 1, "{grammar:?} is read by {readers} languages");
        }
    }
}
