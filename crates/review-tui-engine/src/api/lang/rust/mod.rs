//! Rust: how a file's exported items are read.

pub(crate) mod compiled;
pub(crate) mod extract;
pub(crate) mod foreign;
pub(crate) mod generated;
pub(crate) mod impl_trait;
pub(crate) mod manifest;
pub(crate) mod modules;
mod promise;
pub(crate) mod registry_dependency;
pub(crate) mod renamed;
pub(crate) mod rooted;
pub(crate) mod scope;

use tree_sitter::{Node, Tree};

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) struct Rust;

pub(crate) static RUST: Rust = Rust;

impl Language for Rust {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Rust]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, None, src, exported, out);
        // `::Level` is the crate's own root item in every edition; what else starts at the
        // root depends on the crate's manifest, read where the file's path is known.
        rooted::respell(out, rooted::Root::default());
    }

    fn extract_tree(
        &self,
        tree: &Tree,
        src: Src,
        exported: &dyn Fn(&str) -> bool,
        out: &mut Surface,
    ) {
        extract::extract(tree.root_node(), Some(tree), src, exported, out);
        rooted::respell(out, rooted::Root::default());
    }

    fn scope(&self, path: &str, _dirs: &[&str], _source: &str, read: Read) -> Visibility {
        scope::scope(path, read)
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }
}
