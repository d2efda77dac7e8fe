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
    /// main`.
    fn scope(&self, _path: &str, dirs: &[&str], source: &str, _read: Read) -> Visibility {
        if dirs.contains(&"internal") {
            return Visibility::NotApi("an internal package");
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
