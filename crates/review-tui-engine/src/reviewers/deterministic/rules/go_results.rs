//! What a Go call returns where an assignment writes `_`, for rules about discarded errors
//! (`drops_result = "error"`). `block, _ = pem.Decode(key)` drops `rest []byte`, not an error:
//! `pem.Decode` returns `(*Block, []byte)` and `block == nil` is its failure check. The
//! callee's result types are read from its signature: the standard library's functions by a
//! table of those whose names sound fallible but whose last result is no `error`, the
//! repository's own functions and methods from their declarations in its Go files. A callee
//! whose signature is not found keeps Go's convention, an error returned last, and the rule
//! fires.

use std::collections::{HashMap, HashSet};

use regex::Regex;

use super::repo::Repo;

/// Files read whole beyond this are not worth one finding less.
const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Go files read for declarations at most: a monorepo's are not all worth reading.
const MAX_FILES: usize = 4000;

/// Standard library functions whose names the rules treat as fallible, with their results
/// (`go doc`): none returns an `error` last. Any other standard library call is taken at
/// Go's convention.
const STDLIB_WITHOUT_ERROR: &[(&str, &str)] = &[
    ("pem.Decode", "(p *Block, rest []byte)"),
    ("utf16.Decode", "[]rune"),
];

/// Packages of the standard library a call may be qualified with: a call on one of them is
/// never the repository's own function of the same name.
const STDLIB_PACKAGES: &[&str] = &[
    "ascii85",
    "asn1",
    "base32",
    "base64",
    "binary",
    "bufio",
    "bytes",
    "csv",
    "exec",
    "filepath",
    "flag",
    "fs",
    "gob",
    "gzip",
    "hex",
    "http",
    "image",
    "io",
    "ioutil",
    "jpeg",
    "json",
    "mail",
    "mime",
    "multipart",
    "net",
    "os",
    "pem",
    "plugin",
    "png",
    "sql",
    "strconv",
    "strings",
    "syscall",
    "tar",
    "template",
    "time",
    "url",
    "utf16",
    "utf8",
    "x509",
    "xml",
    "zip",
    "zlib",
];

/// The repository's Go declarations by function or method name: the last result type of
/// each (`error`, `[]byte`, empty for none), read on first use during one scan.
#[derive(Default)]
pub(super) struct GoResults {
    declared: Option<HashMap<String, HashSet<String>>>,
}

impl GoResults {
    /// Whether the `_` that ends the assignment on `line` (`x, _ := f(…)`, `_ = f(…)`) stands
    /// where the callee returns `wanted` (`error`). `callee` is the called name as the line
    /// writes it (`pem.Decode`, `dec.Decode`, `Decode`). Unknown callees answer yes.
    pub(super) fn drops(&mut self, callee: &str, wanted: &str, repo: Repo<'_>) -> bool {
        let (qualifier, name) = match callee.rsplit_once('.') {
            Some((qualifier, name)) => (qualifier.rsplit('.').next().unwrap_or(qualifier), name),
            None => ("", callee),
        };
        if STDLIB_PACKAGES.contains(&qualifier) {
            let key = format!("{qualifier}.{name}");
            return match STDLIB_WITHOUT_ERROR.iter().find(|(f, _)| *f == key) {
                Some((_, results)) => last_result(results) == wanted,
                None => true,
            };
        }
        let declared = self
            .declared
            .get_or_insert_with(|| declarations(repo))
            .get(name);
        // Declared in the repository: the `_` drops an error when one declaration of that
        // name returns one last (a method of another type may share the name).
        declared.is_none_or(|lasts| lasts.contains(wanted))
    }
}

/// The last result type of every function and method the repository's Go files declare.
fn declarations(repo: Repo<'_>) -> HashMap<String, HashSet<String>> {
    let mut declared: HashMap<String, HashSet<String>> = HashMap::new();
    let (Some(worktree), Some(files)) = (repo.worktree, repo.files) else {
        return declared;
    };
    let head =
        Regex::new(r"(?m)^func\s*(?:\([^)]*\)\s*)?(\w+)\s*(?:\[[^\]]*\])?\(").expect("valid regex");
    for path in files
        .iter()
        .filter(|p| p.ends_with(".go") && !p.starts_with("vendor/") && !p.contains("/vendor/"))
        .take(MAX_FILES)
    {
        let full = worktree.join(path);
        let small = std::fs::symlink_metadata(&full)
            .is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE_BYTES);
        let Some(text) = small.then(|| std::fs::read_to_string(&full).ok()).flatten() else {
            continue;
        };
        for caps in head.captures_iter(&text) {
            let whole = caps.get(0).expect("group 0");
            let Some(results) = results_after_params(&text[whole.end()..]) else {
                continue;
            };
            declared
                .entry(caps[1].to_string())
                .or_default()
                .insert(last_result(results).to_string());
        }
    }
    declared
}

/// The result list of a signature whose parameters start at `rest` (just after their `(`):
/// the text between the parameters' closing `)` and the body's `{` (or the line's end).
fn results_after_params(rest: &str) -> Option<&str> {
    let mut depth = 1usize;
    for (at, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    let after = &rest[at + 1..];
                    let end = body_start(after);
                    return Some(after[..end].trim());
                }
            }
            _ => {}
        }
    }
    None
}

/// Where a result list ends: the body's `{` outside brackets, or the line's end.
fn body_start(after: &str) -> usize {
    let mut depth = 0usize;
    for (at, c) in after.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '{' if depth == 0 => {
                // `interface{}` and `struct{}` are types, not the body.
                let before = after[..at].trim_end();
                if !(before.ends_with("interface") || before.ends_with("struct")) {
                    return at;
                }
                depth += 1;
            }
            '}' => depth = depth.saturating_sub(1),
            '\n' if depth == 0 => return at,
            _ => {}
        }
    }
    after.len()
}

/// The type of the last result of a result list (`error`, `(n int, err error)` → `error`,
/// `(*Block, []byte)` → `[]byte`), empty when there is none.
fn last_result(results: &str) -> &str {
    let results = results.trim();
    let inner = results
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(results);
    let mut depth = 0usize;
    let mut last = 0;
    for (at, c) in inner.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => last = at + 1,
            _ => {}
        }
    }
    let item = inner[last..].trim();
    // A named result (`err error`, `rest []byte`): the type is what follows the name.
    match item.split_once(char::is_whitespace) {
        Some((name, ty))
            if name.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !matches!(name, "func" | "chan" | "map" | "interface" | "struct") =>
        {
            ty.trim()
        }
        _ => item,
    }
}

#[cfg(test)]
mod tests {
    use super::{last_result, results_after_params};

    #[test]
    fn the_last_result_of_a_signature() {
        assert_eq!(last_result("(p *Block, rest []byte)"), "[]byte");
        assert_eq!(last_result("(*Block, []byte)"), "[]byte");
        assert_eq!(last_result("error"), "error");
        assert_eq!(last_result("(n int, err error)"), "error");
        assert_eq!(last_result("(map[string]int, error)"), "error");
        assert_eq!(
            last_result("func(int) (bool, error)"),
            "func(int) (bool, error)"
        );
        assert_eq!(last_result(""), "");
        assert_eq!(
            results_after_params("key []byte) (*rsa.PrivateKey, error) {\n"),
            Some("(*rsa.PrivateKey, error)")
        );
        assert_eq!(
            results_after_params("v interface{}) (interface{}, bool) {"),
            Some("(interface{}, bool)")
        );
        assert_eq!(results_after_params("s string) {"), Some(""));
    }
}
