//! What the model is told about each tool: a name, a description and a JSON schema for its
//! arguments, in the shape every provider's function-calling API accepts.

use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// A JSON Schema (draft 2020-12 subset) of the arguments object.
    pub parameters: Value,
}

pub const READ_FILE: &str = "read_file";
pub const SEARCH_TEXT: &str = "search_text";
pub const LIST_FILES: &str = "list_files";
pub const GET_DIFF: &str = "get_diff";
pub const FIND_SYMBOL: &str = "find_symbol";

const GLOB_HELP: &str = "Glob relative to the repository root: `*` and `?` within a path \
    segment, `**` across segments, `[a-z]` classes, `{a,b}` alternatives. A glob without `/` \
    matches file names at any depth (`*.rs`). Empty or omitted means every file.";

pub(super) fn read_file() -> ToolSpec {
    ToolSpec {
        name: READ_FILE,
        description: "Read lines of a file in the pull request's head checkout. Lines are \
            numbered from 1 and the range is inclusive; output is capped, and a truncation note \
            says where to continue.",
        parameters: json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Path relative to the repository root."},
                "start": {"type": "integer", "minimum": 1, "description": "First line (default 1)."},
                "end": {"type": "integer", "minimum": 1, "description": "Last line, inclusive (default: as many as the cap allows)."}
            },
            "required": ["path"],
            "additionalProperties": false
        }),
    }
}

pub(super) fn search_text() -> ToolSpec {
    ToolSpec {
        name: SEARCH_TEXT,
        description: "Search files of the head checkout for a regular expression (Rust regex \
            syntax, matched line by line). Results are `path:line: text`, capped; binary files \
            are skipped.",
        parameters: json!({
            "type": "object",
            "properties": {
                "regex": {"type": "string", "description": "The regular expression."},
                "glob": {"type": "string", "description": GLOB_HELP}
            },
            "required": ["regex"],
            "additionalProperties": false
        }),
    }
}

pub(super) fn list_files() -> ToolSpec {
    ToolSpec {
        name: LIST_FILES,
        description: "List files of the head checkout whose path matches a glob, sorted, capped.",
        parameters: json!({
            "type": "object",
            "properties": {
                "glob": {"type": "string", "description": GLOB_HELP}
            },
            "additionalProperties": false
        }),
    }
}

pub(super) fn get_diff() -> ToolSpec {
    ToolSpec {
        name: GET_DIFF,
        description: "Show the pull request's diff of one changed file (unified diff with \
            hunk headers).",
        parameters: json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "A changed file's path (new or old name)."}
            },
            "required": ["path"],
            "additionalProperties": false
        }),
    }
}

pub(super) fn find_symbol() -> ToolSpec {
    ToolSpec {
        name: FIND_SYMBOL,
        description: "Find the files that define and reference a symbol (function, type, \
            constant). Without a symbol index for the language, falls back to whole-word text \
            matches and says so.",
        parameters: json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "One identifier, such as `parse_diff` or `Diff::files`."}
            },
            "required": ["name"],
            "additionalProperties": false
        }),
    }
}
