//! JavaScript and TypeScript: how a file's exported items are read.

pub mod entry_points;
pub mod extract;

use tree_sitter::Node;

use super::Language;
use crate::api::Surface;
use crate::api::text::Src;
use crate::cohort::grammar::Grammar;

pub struct Script;

pub static SCRIPT: Script = Script;

impl Language for Script {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::JavaScript, Grammar::TypeScript, Grammar::Tsx]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }
}
