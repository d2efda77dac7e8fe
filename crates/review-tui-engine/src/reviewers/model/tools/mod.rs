//! The reviewers' read-only tools, confined to the review space's worktree: `read_file`,
//! `search_text`, `list_files`, `get_diff` and `find_symbol`.
//!
//! A [`Sandbox`] is made once per review from the worktree path and answers
//! [`Sandbox::call`] with the text the model sees, or a [`ToolError`] whose message the model
//! sees instead. Calls do blocking file IO: run them in `spawn_blocking`.

mod confine;
mod diff;
mod error;
mod glob;
mod read;
mod search;
mod spec;
mod symbol;
mod walk;

#[cfg(test)]
mod escape_tests;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::diff::Diff;

pub use confine::{MAX_COMPONENT_BYTES, MAX_PATH_BYTES};
pub use error::ToolError;
pub use read::FileText;
pub use spec::{FIND_SYMBOL, GET_DIFF, LIST_FILES, READ_FILE, SEARCH_TEXT, ToolSpec};
pub use symbol::SymbolLookup;

/// Output and work caps. Every tool states in its result when it hit one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one tool result.
    pub output_bytes: usize,
    /// Lines one `read_file` call returns.
    pub read_lines: usize,
    /// Characters of one line in `read_file` output.
    pub line_chars: usize,
    /// Matching lines one `search_text` call returns.
    pub search_matches: usize,
    /// Paths one `list_files` (or `find_symbol` list) returns.
    pub list_entries: usize,
    /// Files larger than this are skipped by searches and read only this far by `read_file`.
    pub file_bytes: usize,
    /// Bytes of file content one search reads in all.
    pub search_bytes: usize,
    /// Directory entries one walk visits.
    pub walk_entries: usize,
    /// Compiled size of a model's regex.
    pub regex_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            output_bytes: 64 * 1024,
            read_lines: 500,
            line_chars: 2000,
            search_matches: 200,
            list_entries: 1000,
            file_bytes: 4 << 20,
            search_bytes: 256 << 20,
            walk_entries: 200_000,
            regex_bytes: 1 << 20,
        }
    }
}

/// Replaces the secrets in a file's text before any of it is shown, keeping its line count
/// (a secret spanning lines leaves those lines empty), so line numbers still hold.
pub type Redact = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// The tools of one review, confined to one worktree.
#[derive(Clone)]
pub struct Sandbox {
    root: PathBuf,
    limits: Limits,
    diff: Option<Arc<Diff>>,
    symbols: Option<Arc<dyn SymbolLookup>>,
    redact: Option<Redact>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("root", &self.root)
            .field("limits", &self.limits)
            .field("diff_files", &self.diff.as_ref().map(|d| d.files.len()))
            .field("symbols", &self.symbols.is_some())
            .field("redacts", &self.redact.is_some())
            .finish()
    }
}

impl Sandbox {
    /// A sandbox over `worktree`, which is canonicalized once here: every later check compares
    /// canonical paths against this root.
    pub fn new(worktree: &Path) -> Result<Sandbox, ToolError> {
        let root = std::fs::canonicalize(worktree).map_err(|source| ToolError::Worktree {
            path: worktree.display().to_string(),
            source,
        })?;
        if !root.is_dir() {
            return Err(ToolError::Worktree {
                path: worktree.display().to_string(),
                source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
            });
        }
        Ok(Sandbox {
            root,
            limits: Limits::default(),
            diff: None,
            symbols: None,
            redact: None,
        })
    }

    pub fn with_limits(mut self, limits: Limits) -> Sandbox {
        self.limits = limits;
        self
    }

    /// The pull request's diff, for `get_diff`.
    pub fn with_diff(mut self, diff: Arc<Diff>) -> Sandbox {
        self.diff = Some(diff);
        self
    }

    /// The pull request's diff as text (as a forge sends it), for `get_diff`.
    pub fn with_diff_text(self, text: &str) -> Result<Sandbox, ToolError> {
        let diff = crate::diff::parse(text)?;
        Ok(self.with_diff(Arc::new(diff)))
    }

    /// A symbol index for `find_symbol`; without one it falls back to a word search.
    pub fn with_symbols(mut self, symbols: Arc<dyn SymbolLookup>) -> Sandbox {
        self.symbols = Some(symbols);
        self
    }

    /// Redacts file text before `read_file`, `search_text` and `find_symbol` number, slice or
    /// cut it: a secret is recognised whole (a key block read from its middle, a token past the
    /// line cut), where redacting the tool's output afterwards would see only a fragment.
    pub fn with_redactor(mut self, redact: Redact) -> Sandbox {
        self.redact = Some(redact);
        self
    }

    /// The canonical worktree root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The tools this sandbox offers: `get_diff` only when a diff was given.
    pub fn specs(&self) -> Vec<ToolSpec> {
        let mut specs = vec![
            spec::read_file(),
            spec::search_text(),
            spec::list_files(),
            spec::find_symbol(),
        ];
        if self.diff.is_some() {
            specs.insert(3, spec::get_diff());
        }
        specs
    }

    /// The pull request's diff, when one was given.
    pub fn diff(&self) -> Option<Arc<Diff>> {
        self.diff.clone()
    }

    /// A whole file through the same confinement, cap and redaction as `read_file`.
    pub fn read_text(&self, path: &str) -> Result<FileText, ToolError> {
        read::read_text(&self.root, &self.limits, self.redact.as_ref(), path)
    }

    /// Runs tool `name` with the JSON arguments the model sent.
    pub fn call(&self, name: &str, args_json: &str) -> Result<String, ToolError> {
        let root = self.root.as_path();
        let limits = &self.limits;
        let redact = self.redact.as_ref();
        match name {
            READ_FILE => {
                let args: ReadArgs = parse_args(READ_FILE, args_json)?;
                read::read_file(root, limits, redact, &args.path, args.start, args.end)
            }
            SEARCH_TEXT => {
                let args: SearchArgs = parse_args(SEARCH_TEXT, args_json)?;
                search::search_text(
                    root,
                    limits,
                    redact,
                    &args.regex,
                    args.glob.as_deref().unwrap_or(""),
                )
            }
            LIST_FILES => {
                let args: ListArgs = parse_args(LIST_FILES, args_json)?;
                search::list_files(root, limits, redact, args.glob.as_deref().unwrap_or(""))
            }
            GET_DIFF if self.diff.is_some() => {
                let args: PathArgs = parse_args(GET_DIFF, args_json)?;
                diff::get_diff(self.diff.as_deref(), limits, &args.path)
            }
            FIND_SYMBOL => {
                let args: SymbolArgs = parse_args(FIND_SYMBOL, args_json)?;
                symbol::find_symbol(root, limits, redact, self.symbols.as_deref(), &args.name)
            }
            other => Err(ToolError::UnknownTool(
                error::shown(other),
                self.specs()
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            )),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadArgs {
    path: String,
    start: Option<u64>,
    end: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    regex: String,
    glob: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    glob: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PathArgs {
    path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SymbolArgs {
    name: String,
}

fn parse_args<T: DeserializeOwned>(tool: &'static str, args_json: &str) -> Result<T, ToolError> {
    // Some models send no arguments at all for a tool whose arguments are all optional.
    let args_json = if args_json.trim().is_empty() {
        "{}"
    } else {
        args_json
    };
    serde_json::from_str(args_json).map_err(|e| ToolError::BadArguments {
        tool,
        reason: e.to_string(),
    })
}
