//! Who uses a definition: the files outside the change whose reference to a name resolves to
//! the changed file that defines it — through an import or a qualified path naming its module,
//! the package both share, or the class the name belongs to — rather than every file where the
//! word appears. Counted by name, a test-only gson change that defines a `Point` helper class
//! had a blast radius of 182: every file of the repository that mentions any `Point` or `Entry`.
//!
//! The index records names, not scopes, so resolution reads the user's own text: its import
//! lines (and, for Rust, its `module::` paths). It is deliberately conservative: a use reached
//! only through a chain of re-exports the text does not name is not counted.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use super::lazy_index::LazyIndex;
use super::paths::{language_family, parent_dir};
use crate::diff::is_test_path;

/// Directory names that say where code sits, not which module it is: naming one in an import
/// resolves nothing (every Rust file is under `src/`, every JVM class under `java/`).
const ROOT_DIRS: &[&str] = &[
    "src",
    "lib",
    "source",
    "sources",
    "main",
    "java",
    "kotlin",
    "scala",
    "pkg",
    "internal",
    "tests",
    "test",
    "testing",
    "__tests__",
    "spec",
    "benches",
    "examples",
    "packages",
    "app",
];

/// Resolves references to definitions, reading each user's text once.
pub(super) struct Users<'a> {
    worktree: &'a Path,
    index: &'a LazyIndex,
    /// By path: the file's import lines, and its whole text (`None`: unreadable).
    texts: HashMap<String, Option<(String, String)>>,
    go_module: Option<Option<String>>,
}

impl<'a> Users<'a> {
    pub(super) fn new(worktree: &'a Path, index: &'a LazyIndex) -> Users<'a> {
        Users {
            worktree,
            index,
            texts: HashMap::new(),
            go_module: None,
        }
    }

    /// The files outside `changed` whose references to `name` resolve to its definition in
    /// one of `definers`.
    pub(super) fn of(
        &mut self,
        name: &str,
        definers: &[&str],
        changed: &BTreeSet<&str>,
    ) -> BTreeSet<String> {
        let index = self.index;
        let defined_in = index.defined_in(name);
        index
            .referenced_in(name)
            .into_iter()
            // A file that defines the name itself means its own.
            .filter(|user| !changed.contains(user) && !defined_in.contains(user))
            .filter(|user| {
                definers
                    .iter()
                    .any(|definer| self.resolves(user, definer, defined_in.len()))
            })
            .map(str::to_string)
            .collect()
    }

    /// Whether `user`'s reference reaches the definition in `definer` (of a name the index
    /// knows `definitions` definitions of).
    fn resolves(&mut self, user: &str, definer: &str, definitions: usize) -> bool {
        let family = language_family(definer);
        if language_family(user) != family {
            return false;
        }
        // Test code is built into no product: only other test code can use its definitions.
        if is_test_path(definer) && !is_test_path(user) {
            return false;
        }
        let same_dir = parent_dir(user) == parent_dir(definer);
        match family {
            // One package per directory, visible without an import; others import its path.
            "go" => same_dir || self.go_imports(user, definer),
            // A class's members are reached through the class: its name in the user's text
            // (an import, or the same package's type name).
            "jvm" => {
                let class = stem(definer);
                self.text(user)
                    .is_some_and(|(_, text)| has_word(text, class))
            }
            "c" => self
                .text(user)
                .is_some_and(|(imports, _)| has_word(imports, stem(definer))),
            // pytest hands a conftest's fixtures by parameter name to the tests below it.
            "python" if stem(definer) == "conftest" => user.starts_with(parent_dir(definer)),
            "rust" | "python" | "js" => {
                let segments = module_segments(definer, family);
                self.text(user).is_some_and(|(imports, text)| {
                    segments.iter().any(|segment| {
                        has_word(imports, segment)
                            || (family == "rust" && text.contains(&format!("{segment}::")))
                    })
                })
            }
            // Languages whose namespaces do not follow files: a name the index knows in one
            // file only resolves to it.
            _ => {
                definitions == 1
                    || self.text(user).is_some_and(|(imports, _)| {
                        has_word(imports, stem(definer)) || has_word(imports, last_dir(definer))
                    })
            }
        }
    }

    /// Whether `user` imports the Go package in `definer`'s directory.
    fn go_imports(&mut self, user: &str, definer: &str) -> bool {
        let dir = parent_dir(definer).to_string();
        let wanted = if dir.is_empty() {
            match self.go_module() {
                Some(module) => format!("\"{module}\""),
                None => return false,
            }
        } else {
            format!("/{dir}\"")
        };
        self.text(user)
            .is_some_and(|(_, text)| text.contains(&wanted))
    }

    /// The module path `go.mod` declares at the worktree's root.
    fn go_module(&mut self) -> Option<String> {
        if self.go_module.is_none() {
            let text = std::fs::read_to_string(self.worktree.join("go.mod")).unwrap_or_default();
            self.go_module = Some(
                text.lines()
                    .find_map(|line| line.trim().strip_prefix("module "))
                    .map(|m| m.trim().trim_matches('"').to_string()),
            );
        }
        self.go_module.clone().flatten()
    }

    fn text(&mut self, path: &str) -> Option<&(String, String)> {
        if !self.texts.contains_key(path) {
            let read = std::fs::read(self.worktree.join(path)).ok().map(|bytes| {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                (import_lines(&text), text)
            });
            self.texts.insert(path.to_string(), read);
        }
        self.texts.get(path).and_then(Option::as_ref)
    }
}

/// The lines that bring other modules into scope, in the syntax of the common languages:
/// `use`, `mod`, `import`, `from … import`, `require(…)`, `#include`, `using`; a statement
/// continued over several lines (`use a::{\n b,\n};`) is kept whole.
fn import_lines(text: &str) -> String {
    let mut out = String::new();
    let mut open = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let starts = [
            "use ",
            "pub use ",
            "pub(crate) use ",
            "mod ",
            "pub mod ",
            "import ",
            "from ",
            "export ",
            "#include",
            "using ",
            "require",
            "extern crate ",
        ]
        .iter()
        .any(|p| trimmed.starts_with(p))
            || trimmed.contains("require(")
            || trimmed.contains("import(");
        if starts || open {
            out.push_str(trimmed);
            out.push('\n');
            let ended = trimmed.ends_with(';')
                || (!trimmed.ends_with('{') && !trimmed.ends_with('(') && !trimmed.ends_with(','));
            open = if starts {
                !ended
            } else {
                !ended && !trimmed.is_empty()
            };
            if open && trimmed.contains('}') && trimmed.ends_with(';') {
                open = false;
            }
        }
    }
    out
}

/// The names an import or qualified path writes to reach `path`'s module: its file stem
/// (`mod`, `lib`, `__init__` and `index` files: their directory) and its parent modules, less
/// the directories every file sits under (`src`, `tests`, `java`).
fn module_segments(path: &str, family: &str) -> Vec<String> {
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or_default();
    let file_stem = file.split('.').next().unwrap_or(file);
    // A Rust module path starts inside its crate's `src/` (or a test or example crate root).
    let start = match family {
        "rust" => parts
            .iter()
            .rposition(|d| matches!(*d, "src" | "tests" | "benches" | "examples"))
            .map_or(0, |at| at + 1),
        _ => 0,
    };
    let crate_dir = start
        .checked_sub(2)
        .and_then(|at| parts.get(at))
        .map(|d| d.replace('-', "_"));
    let mut segments: Vec<String> = parts[start..]
        .iter()
        .filter(|d| !ROOT_DIRS.contains(d))
        .map(|d| d.to_string())
        .collect();
    if !matches!(file_stem, "mod" | "lib" | "main" | "__init__" | "index") {
        segments.push(file_stem.to_string());
    }
    if family == "js" {
        // A relative import names the file (or the directory of an `index`), not its parents.
        segments = segments.split_off(segments.len().saturating_sub(1));
    }
    if segments.is_empty()
        && family == "rust"
        && let Some(krate) = crate_dir
    {
        // `lib.rs` re-exports the crate's API: `use tokio::spawn`.
        segments.push(krate);
    }
    segments.retain(|s| !s.is_empty());
    segments
}

fn stem(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.split('.').next().unwrap_or(file)
}

fn last_dir(path: &str) -> &str {
    parent_dir(path).rsplit('/').next().unwrap_or("")
}

/// Whether `word` occurs in `text` with no identifier character on either side.
pub fn has_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + word.len()..].chars().next().is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_segments_name_what_an_import_writes() {
        assert_eq!(
            module_segments("tokio/src/sync/mutex.rs", "rust"),
            vec!["sync", "mutex"]
        );
        assert_eq!(module_segments("tokio/src/lib.rs", "rust"), vec!["tokio"]);
        assert_eq!(
            module_segments("tokio-util/src/lib.rs", "rust"),
            vec!["tokio_util"]
        );
        assert_eq!(
            module_segments("tests/support/mod.rs", "rust"),
            vec!["support"]
        );
        assert_eq!(
            module_segments("httpx/_models.py", "python"),
            vec!["httpx", "_models"]
        );
        assert_eq!(
            module_segments("src/click/__init__.py", "python"),
            vec!["click"]
        );
        assert_eq!(
            module_segments("source/types/hooks.ts", "js"),
            vec!["hooks"]
        );
        assert_eq!(
            module_segments("lib/adapters/index.js", "js"),
            vec!["adapters"]
        );
    }

    #[test]
    fn import_lines_keep_statements_over_several_lines() {
        let text = "use std::io;\nuse crate::{\n    sync::Mutex,\n    task,\n};\nfn main() {\n    let sync = 1;\n}\nimport x from './hooks';\nconst a = require('../lib/http');\n";
        let imports = import_lines(text);
        assert!(imports.contains("sync::Mutex"));
        assert!(imports.contains("'./hooks'"));
        assert!(imports.contains("../lib/http"));
        assert!(!imports.contains("let sync"));
    }

    #[test]
    fn words_are_whole() {
        assert!(has_word("from httpx._models import Request", "_models"));
        assert!(!has_word(
            "from httpx._models_old import Request",
            "_models"
        ));
        assert!(has_word("import x from './hooks.js'", "hooks"));
        assert!(!has_word("useHooks", "Hooks"));
    }
}
