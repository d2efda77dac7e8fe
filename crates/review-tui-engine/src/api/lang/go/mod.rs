//! Go: how a file's exported items are read.

pub(crate) mod build_constraint;
pub(crate) mod extract;
pub(crate) mod handed_out;
pub(crate) mod interfaces;
pub(crate) mod manifest;
pub(crate) mod reach;

use tree_sitter::{Node, Parser, Tree};

use build_constraint::DefaultBuild;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{List, Read, Visibility};
use crate::cohort::paths::parent_dir;
use crate::parse::grammar::Grammar;

/// Go's predeclared type names: never a type the package declares (`type Level uint32` is no
/// interface of it) and never an unexported type of its own.
pub(crate) const PREDECLARED_TYPES: &[&str] = &[
    "bool",
    "byte",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "any",
    "comparable",
];

/// Files of one package read for what it declares; a larger package is read in part, and
/// what only the files left out declare is not known.
const MOST_FILES: usize = 512;

/// The texts of the package of the Go file at `path`, read at one side with `read` and
/// `list`: every `.go` file of its directory but tests (at most [`MOST_FILES`]).
pub(crate) fn package_texts(path: &str, read: Read, list: List) -> Vec<String> {
    let dir = parent_dir(path);
    list(dir)
        .into_iter()
        .filter(|name| name.ends_with(".go") && !name.ends_with("_test.go"))
        .take(MOST_FILES)
        .filter_map(|name| {
            if dir.is_empty() {
                read(&name)
            } else {
                read(&format!("{dir}/{name}"))
            }
        })
        .collect()
}

pub(crate) struct Go;

pub(crate) static GO: Go = Go;

impl Language for Go {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Go]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }

    /// Not an `internal` package (the compiler keeps it to its parent's tree), not `package
    /// main`, not the implementation of a command (see [`command_package`]).
    fn scope(&self, _path: &str, dirs: &[&str], source: &str, read: Read) -> Visibility {
        if dirs.contains(&"internal") {
            return Visibility::NotApi("an internal package");
        }
        // The go command reads `vendor/` as copies of other modules (gorilla/websocket's
        // `vendor/golang.org/x/net/proxy`): their API is those modules', not this one's.
        if dirs.contains(&"vendor") {
            return Visibility::NotApi("a vendored copy of another module");
        }
        if command_package(dirs, read) {
            return Visibility::NotApi("a command's implementation package (under cmd/)");
        }
        let package = source
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("package "))
            .unwrap_or("");
        if package == "package main" {
            return Visibility::NotApi("package main");
        }
        match build_constraint::default_build(source) {
            DefaultBuild::Compiled => Visibility::Exported,
            DefaultBuild::OnlyWith(_) => {
                Visibility::Undecided("a file only a build given its own tag compiles")
            }
            DefaultBuild::Never => Visibility::NotApi("a file no build compiles (`ignore`)"),
        }
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }

    /// Go before modules (GOPATH; echo v2 and testify v1 in 2016-17): with no `go.mod` above
    /// a file, the repository's own tags are its versions, as `go get` read them.
    fn tags_version_a_bare_repository(&self) -> bool {
        true
    }

    /// A Go module is fetched at its tags; an untagged commit is a `v0.0.0-…` pseudo-version,
    /// which Go's compatibility rule makes no promise for.
    fn released_by_tags_alone(&self) -> bool {
        true
    }
}

/// Whether the package in `dirs` is the implementation of a command: it sits below a
/// directory whose `main.go` is `package main`, either inside the module (cobra 1.3's
/// `cobra/main.go`, the generator command, with its `cobra/cmd` and `cobra/tpl`), or under a
/// `cmd` directory of the module's root (`main.go` beside `cmd/`; `cmd/server/main.go` above
/// `cmd/server/app`). What a command's `main` imports from its own tree is how it runs, not a
/// library's contract. A module whose root is a command keeps its other packages as API, and
/// a package named `cmd` that no command runs (kubectl's `pkg/cmd`) is read as any other.
fn command_package(dirs: &[&str], read: Read) -> bool {
    let under_cmd = |depth: usize| dirs[depth..].contains(&"cmd");
    (0..dirs.len()).any(|depth| {
        let dir = dirs[..depth].join("/");
        let at = |file: &str| {
            if dir.is_empty() {
                file.to_string()
            } else {
                format!("{dir}/{file}")
            }
        };
        let command = read(&at("main.go")).is_some_and(|text| {
            text.lines()
                .map(str::trim)
                .any(|line| line == "package main")
        });
        // The repository's root, or a nested module's: the command is the module itself.
        let module_root = depth == 0 || read(&at("go.mod")).is_some();
        command && (!module_root || under_cmd(depth))
    })
}

/// The syntax tree of the Go text `source`; `None` when the grammar cannot be loaded or the
/// parse gives up. One place for the readers of a package's files (`interfaces`, `reach`).
pub(crate) fn parse(source: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(&Grammar::Go.language()).ok()?;
    parser.parse(source, None)
}
