//! Go: how a file's exported items are read.

pub mod extract;
pub mod manifest;

use tree_sitter::Node;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::cohort::grammar::Grammar;

pub struct Go;

pub static GO: Go = Go;

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
        Visibility::Exported
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }

    /// Go before modules (GOPATH; echo v2 and testify v1 in 2016-17): with no `go.mod` above
    /// a file, the repository's own tags are its versions, as `go get` read them.
    fn tags_version_a_bare_repository(&self) -> bool {
        true
    }
}

/// Whether the package in `dirs` sits under a `cmd` directory that a command runs: a `main.go`
/// of `package main` in the directory above `cmd` or in one between it and the package (cobra
/// 1.3's `cobra/main.go` running `cobra/cmd`; `cmd/server/main.go` above `cmd/server/app`).
/// Go keeps commands under `cmd/`, and what a command's `main` imports from there is how it
/// runs, not a library's contract. A package named `cmd` that no command runs (kubectl's
/// `pkg/cmd`, imported by other programs) is read as any other.
fn command_package(dirs: &[&str], read: Read) -> bool {
    let Some(at) = dirs.iter().position(|d| *d == "cmd") else {
        return false;
    };
    (at..dirs.len()).any(|depth| {
        let main = if depth == 0 {
            "main.go".to_string()
        } else {
            format!("{}/main.go", dirs[..depth].join("/"))
        };
        read(&main).is_some_and(|text| {
            text.lines()
                .map(str::trim)
                .any(|line| line == "package main")
        })
    })
}
