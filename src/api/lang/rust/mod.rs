//! Rust: how a file's exported items are read.

pub mod extract;
pub mod foreign;
pub mod manifest;
pub mod renamed;

use tree_sitter::Node;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::cohort::grammar::Grammar;

pub struct Rust;

pub static RUST: Rust = Rust;

impl Language for Rust {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Rust]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }
}
