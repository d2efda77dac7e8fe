//! Python: how a file's exported items are read.

pub mod declared;
pub mod extract;

use tree_sitter::Node;

use super::Language;
use crate::api::Surface;
use crate::api::text::Src;
use crate::cohort::grammar::Grammar;

pub struct Python;

pub static PYTHON: Python = Python;

impl Language for Python {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::Python]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }
}
