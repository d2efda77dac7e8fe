//! Java: how a file's exported items are read.

pub mod closed;
pub mod erasure;
pub mod extract;
pub mod manifest;
pub mod scope;
pub mod wildcard;

use tree_sitter::Node;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::cohort::grammar::Grammar;

pub struct Java;

pub static JAVA: Java = Java;

impl Language for Java {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Java]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }

    fn scope(&self, _path: &str, dirs: &[&str], _source: &str, read: Read) -> Visibility {
        scope::scope(dirs, read)
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }
}
