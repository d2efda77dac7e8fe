//! Java: how a file's exported items are read.

pub(crate) mod class_variables;
pub(crate) mod closed;
pub(crate) mod erasure;
pub(crate) mod extract;
pub(crate) mod generified;
pub(crate) mod manifest;
pub(crate) mod raw;
pub(crate) mod scope;
pub(crate) mod wildcard;

use tree_sitter::Node;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) struct Java;

pub(crate) static JAVA: Java = Java;

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
