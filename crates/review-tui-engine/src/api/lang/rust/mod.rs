//! Rust: how a file's exported items are read.

pub mod extract;
pub mod foreign;
pub mod manifest;
pub mod modules;
pub mod renamed;
pub mod scope;

use tree_sitter::{Node, Tree};

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::cohort::grammar::Grammar;

pub struct Rust;

pub static RUST: Rust = Rust;

impl Language for Rust {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Rust]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, None, src, exported, out)
    }

    fn extract_tree(
        &self,
        tree: &Tree,
        src: Src,
        exported: &dyn Fn(&str) -> bool,
        out: &mut Surface,
    ) {
        extract::extract(tree.root_node(), Some(tree), src, exported, out)
    }

    fn scope(&self, path: &str, _dirs: &[&str], _source: &str, read: Read) -> Visibility {
        scope::scope(path, read)
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }
}
