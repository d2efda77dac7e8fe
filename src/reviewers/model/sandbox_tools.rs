//! The glue between the sandboxed tools (`reviewers::model::tools::Sandbox`) and the agent loop's
//! [`ToolBox`], and between the cohort symbol index and `find_symbol`.

use std::sync::Arc;

use serde_json::Value;

use crate::cohort::SymbolIndex;
use crate::reviewers::model::provider::ToolSpec;
use crate::reviewers::model::toolbox::{FileText, ToolBox, ToolError, ToolResult};
use crate::reviewers::model::tools::{Sandbox, SymbolLookup};

/// A [`Sandbox`] as the agent loop sees it. Refusals (a path outside the worktree, a symlink
/// escape) come back as failed calls whose text the model reads, so it can correct itself.
#[derive(Debug, Clone)]
pub struct SandboxTools {
    sandbox: Sandbox,
}

impl SandboxTools {
    pub fn new(sandbox: Sandbox) -> SandboxTools {
        SandboxTools { sandbox }
    }
}

impl ToolBox for SandboxTools {
    fn specs(&self) -> Vec<ToolSpec> {
        self.sandbox
            .specs()
            .into_iter()
            .map(|spec| ToolSpec {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                parameters: spec.parameters,
            })
            .collect()
    }

    fn call(&self, name: &str, args: &Value) -> ToolResult {
        self.sandbox.call(name, &args.to_string())
    }

    fn diff(&self) -> Option<Arc<crate::diff::Diff>> {
        self.sandbox.diff()
    }

    fn read_text(&self, path: &str) -> Result<FileText, ToolError> {
        self.sandbox.read_text(path)
    }
}

impl SymbolLookup for SymbolIndex {
    fn defined_in(&self, name: &str) -> Vec<String> {
        SymbolIndex::defined_in(self, name)
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    fn referenced_in(&self, name: &str) -> Vec<String> {
        SymbolIndex::referenced_in(self, name)
            .into_iter()
            .map(str::to_owned)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refusals_reach_the_model_as_failed_calls() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rs"), "fn a() {}\n").unwrap();
        let tools = SandboxTools::new(Sandbox::new(dir.path()).unwrap());
        let names: Vec<String> = tools.specs().into_iter().map(|s| s.name).collect();
        assert!(names.contains(&"read_file".to_string()), "{names:?}");
        let read = tools.call("read_file", &json!({"path": "a.rs"})).unwrap();
        assert!(read.contains("1 | fn a() {}"), "{read}");
        let escape = tools
            .call("read_file", &json!({"path": "../../etc/passwd"}))
            .unwrap_err()
            .to_string();
        assert!(escape.contains("escapes the worktree"), "{escape}");
    }
}
