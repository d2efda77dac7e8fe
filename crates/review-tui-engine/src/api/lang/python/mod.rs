//! Python: how a file's exported items are read.

pub(crate) mod application;
pub(crate) mod declared;
pub(crate) mod documented;
pub(crate) mod extract;
pub(crate) mod manifest;
pub(crate) mod scope;

use tree_sitter::Node;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) struct Python;

pub(crate) static PYTHON: Python = Python;

impl Language for Python {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Python]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }

    fn scope(&self, path: &str, dirs: &[&str], source: &str, read: Read) -> Visibility {
        scope::scope(path, dirs, source, read)
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }

    fn version_in_sources(&self, path: &str, root: &str, read: Read) -> Option<(String, String)> {
        manifest::package_version(path, root, read)
    }
}
