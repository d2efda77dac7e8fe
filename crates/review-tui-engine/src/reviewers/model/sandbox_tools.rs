//! The glue between the sandboxed tools (`reviewers::model::tools::Sandbox`) and the agent loop's
//! [`ToolBox`], and between the cohort symbol index and `find_symbol`.

use std::sync::Arc;

use serde_json::Value;

use crate::cohort::{OnDemandIndex, SymbolIndex};
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

/// The full index, built on the first look-up; a head that could not be indexed answers
/// nothing.
impl SymbolLookup for OnDemandIndex {
    fn defined_in(&self, name: &str) -> Vec<String> {
        self.get()
            .map(|index| SymbolLookup::defined_in(index, name))
            .unwrap_or_default()
    }

    fn referenced_in(&self, name: &str) -> Vec<String> {
        self.get()
            .map(|index| SymbolLookup::referenced_in(index, name))
            .unwrap_or_default()
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

    #[test]
    fn the_full_index_is_built_on_the_first_find_symbol_and_only_then() {
        let repo = crate::space::test_repo::TestRepo::new();
        repo.commit("src/store.rs", "pub fn open_store() -> u8 { 1 }\n", "store");
        let head = repo.commit(
            "src/app.rs",
            "use crate::store::open_store;\npub fn run() -> u8 { open_store() }\n",
            "app",
        );
        let index = Arc::new(OnDemandIndex::new(
            repo.path().join(".git"),
            repo.path(),
            head.parse().unwrap(),
        ));
        let store = repo.path().join(".git/review-tui-tags");
        let tools = SandboxTools::new(
            Sandbox::new(&repo.path())
                .unwrap()
                .with_symbols(index.clone()),
        );
        tools
            .call("read_file", &json!({"path": "src/app.rs"}))
            .unwrap();
        tools.call("list_files", &json!({})).unwrap();
        assert_eq!(index.builds(), 0, "no find_symbol yet: nothing built");
        assert!(!store.exists(), "nothing parsed yet");

        let found = tools
            .call("find_symbol", &json!({"name": "open_store"}))
            .unwrap();
        assert!(
            found.contains("defined in (1 files):\n  src/store.rs"),
            "{found}"
        );
        assert!(
            found.contains("referenced in (1 files):\n  src/app.rs"),
            "{found}"
        );
        assert_eq!(index.builds(), 1);
        // Built from the mirror: what it parsed is kept by blob for the next head.
        assert!(store.is_dir());
        let again = tools.call("find_symbol", &json!({"name": "run"})).unwrap();
        assert!(again.contains("src/app.rs"), "{again}");
        assert_eq!(index.builds(), 1, "built once, then kept");
    }
}
