//! JavaScript and TypeScript: how a file's exported items are read.

pub(crate) mod call_types;
pub(crate) mod defaults;
pub(crate) mod entry_points;
pub(crate) mod extract;
pub(crate) mod manifest;
pub(crate) mod nominal;
pub(crate) mod programs;
pub(crate) mod runtime;

use tree_sitter::Node;

use super::{Language, Manifest};
use crate::api::Surface;
use crate::api::text::Src;
use crate::api::visibility::{Read, Visibility};
use crate::parse::grammar::Grammar;

pub(crate) struct Script;

pub(crate) static SCRIPT: Script = Script;

impl Language for Script {
    fn grammars(&self) -> &'static [Grammar] {
        &[Grammar::JavaScript, Grammar::TypeScript, Grammar::Tsx]
    }

    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface) {
        extract::extract(root, src, exported, out)
    }

    /// Not an `internal` or `__mocks__` module; within a package whose entry points are known,
    /// what they reach.
    fn scope(&self, path: &str, dirs: &[&str], _source: &str, read: Read) -> Visibility {
        if dirs.iter().any(|d| *d == "internal" || *d == "__mocks__") {
            return Visibility::NotApi("an internal module");
        }
        entry_points::script_scope(path, read).unwrap_or(Visibility::Exported)
    }

    fn manifests(&self) -> &'static [Manifest] {
        manifest::MANIFESTS
    }
}
