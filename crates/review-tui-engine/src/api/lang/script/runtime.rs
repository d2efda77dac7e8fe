//! What a package's own JavaScript provides at run time, asked about the hand-written type
//! declarations beside it (`fastify.d.ts` over `fastify.js`): a property no source of the
//! package ever mentions was never there for a program to read, whatever the declarations
//! said (fastify #4070's `ValidationResult.dataPath`, which Ajv 8 no longer sets).

use crate::api::paths::not_api_path;
use crate::api::visibility::Read;
use crate::parse::grammar::Grammar;

/// More sources than this under one package are not read: the answer is then unknown.
const READ_AT_MOST: usize = 4000;

/// The type declaration files' extensions: they declare, never provide.
pub(crate) const DECLARATIONS: &[&str] = &[".d.ts", ".d.mts", ".d.cts"];

/// Whether `path` is a source the package runs (JavaScript or TypeScript, not a declaration
/// file, a test, an example or a fixture).
pub(crate) fn runs(path: &str) -> bool {
    !DECLARATIONS.iter().any(|d| path.ends_with(d))
        && Grammar::for_path(path)
            .is_some_and(|g| matches!(g, Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx))
        && !not_api_path(path)
}

/// Whether a source the package at `root` runs, among `files`, holds `name` as a whole word
/// (defines it, sets it, reads it, in any form); `None` when the package has more sources
/// than are read.
pub(crate) fn mentioned(name: &str, root: &str, files: &[String], read: Read) -> Option<bool> {
    let under = |path: &&String| {
        root.is_empty()
            || path
                .strip_prefix(root)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    let sources: Vec<&String> = files
        .iter()
        .filter(under)
        .filter(|path| !path.split('/').any(|part| part == "node_modules"))
        .filter(|path| runs(path))
        .collect();
    if sources.len() > READ_AT_MOST {
        return None;
    }
    Some(
        sources
            .into_iter()
            .any(|path| read(path).is_some_and(|text| holds_word(&text, name))),
    )
}

/// Whether `text` holds `name` with no identifier character on either side.
pub(crate) fn holds_word(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(word)
                && !text[at + name.len()..].chars().next().is_some_and(word)
        })
}
