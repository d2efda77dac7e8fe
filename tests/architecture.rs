//! The engine has no terminal dependency: only `src/ui/` and `src/main.rs` may name ratatui,
//! crossterm, ratatui-textarea or syntect, so the same pipeline runs headless in CI.

use std::fs;
use std::path::{Path, PathBuf};

const TERMINAL_CRATES: [&str; 4] = ["ratatui", "crossterm", "ratatui_textarea", "syntect"];

/// Every crate's `src/` folder: the root package's and each workspace member's under `crates/`.
/// A module has the same path in every one (the root package re-exports the engine's modules),
/// so the checks know a file by its path under its `src/` and show it from the repository root.
fn source_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("src")];
    if let Ok(crates) = fs::read_dir(root.join("crates")) {
        let mut members: Vec<PathBuf> = crates
            .map(|entry| entry.unwrap().path().join("src"))
            .filter(|src| src.is_dir())
            .collect();
        members.sort();
        dirs.extend(members);
    }
    dirs
}

/// Every Rust file of every crate, with its path under its `src/`.
fn source_files() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for src in source_dirs() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        out.extend(files.into_iter().map(|file| {
            let relative = file.strip_prefix(&src).unwrap().to_path_buf();
            (file, relative)
        }));
    }
    out
}

/// The file or folder at `relative` under whichever crate's `src/` holds it.
fn source_path(relative: &str) -> PathBuf {
    source_dirs()
        .into_iter()
        .map(|src| src.join(relative))
        .find(|path| path.exists())
        .unwrap_or_else(|| panic!("no crate has src/{relative}"))
}

/// `file` as messages show it: its path from the repository root.
fn shown(file: &Path) -> String {
    file.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(file)
        .display()
        .to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Lines that use a terminal crate: `use ratatui…`, `ratatui::…` paths, `extern crate`.
fn terminal_uses(source: &str) -> Vec<String> {
    source
        .lines()
        .filter(|line| {
            let code = line.split("//").next().unwrap_or("");
            TERMINAL_CRATES.iter().any(|krate| {
                code.contains(&format!("{krate}::"))
                    || code.contains(&format!("use {krate}"))
                    || code.contains(&format!("extern crate {krate}"))
            })
        })
        .map(|line| line.trim().to_string())
        .collect()
}

#[test]
fn only_the_ui_and_main_use_terminal_crates() {
    let files = source_files();
    assert!(files.len() > 10, "found only {} source files", files.len());
    let mut offenders = Vec::new();
    for (file, relative) in files {
        if relative.starts_with("ui") || relative == Path::new("main.rs") {
            continue;
        }
        for line in terminal_uses(&fs::read_to_string(&file).unwrap()) {
            offenders.push(format!("{}: {line}", shown(&file)));
        }
    }
    assert!(
        offenders.is_empty(),
        "terminal crates used outside src/ui:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_check_recognises_every_form_of_use() {
    for line in [
        "use ratatui::widgets::List;",
        "use crossterm::event;",
        "    let t = ratatui_textarea::TextArea::default();",
        "use syntect::parsing::SyntaxSet;",
        "extern crate crossterm;",
    ] {
        assert_eq!(terminal_uses(line).len(), 1, "{line}");
    }
    assert!(terminal_uses("// ratatui::Frame is only named in a comment").is_empty());
    assert!(terminal_uses("let ratatuix = 1;").is_empty());
}

// ---- Layers: each module uses only the layers below it (or its own), with no cycles ----

/// The crate's top-level modules, lowest layer first. A module may use its own layer and the
/// ones before it: the pure review model at the bottom, the UI and the binary's edge on top.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation",
        &[
            "foundation",
            "base64",
            "commit_id",
            "error_text",
            "fence",
            "path_component",
            "path_glob",
            "printable",
            "remembered",
            "repo_path",
            "retry",
            "waiting",
        ],
    ),
    ("the review model", &["review"]),
    (
        "diff, PR sources, the review space",
        &["config", "demo", "diff", "pr", "space"],
    ),
    (
        "syntax trees: grammars, tags, the incremental reparse",
        &["parse"],
    ),
    ("symbol index and cohorts", &["cohort"]),
    ("the API contract", &["api"]),
    ("reviewers", &["reviewers"]),
    ("the session", &["session"]),
    ("report and publish", &["gc", "publish", "report"]),
    (
        "the edges: arguments, the headless flow, the cockpit",
        &["cli", "headless", "ui"],
    ),
];

/// The binary's own modules (`main.rs` and what it declares: the exit codes and the commands in
/// `run/`), outside the library's layers.
const BINARY: &[&str] = &["main", "exit", "run"];

/// Whether a file under `src/` belongs to the binary, not the library.
fn in_binary(relative: &Path) -> bool {
    relative.components().next().is_some_and(|top| {
        BINARY.contains(&top.as_os_str().to_string_lossy().trim_end_matches(".rs"))
    })
}

/// Exit codes are the binary's: `src/exit.rs` is a module of `main.rs`, and no library module
/// names a process exit.
#[test]
fn exit_codes_are_mapped_in_the_binary_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        !lib.contains("mod exit"),
        "src/lib.rs declares the exit codes"
    );
    let main = std::fs::read_to_string(src.join("main.rs")).unwrap();
    assert!(
        main.contains("mod exit;"),
        "src/main.rs no longer owns the exit codes"
    );
    let offenders: Vec<String> = source_files()
        .iter()
        .filter(|(_, relative)| !in_binary(relative))
        .filter(|(f, _)| {
            let code = std::fs::read_to_string(f).unwrap();
            code.contains("process::exit") || code.contains("ExitCode")
        })
        .map(|(f, _)| shown(f))
        .collect();
    assert!(
        offenders.is_empty(),
        "exit codes outside the binary: {offenders:?}"
    );
}

/// Uses that break the order today, each with why it is still there. The test fails when one
/// goes away, so this list can only shrink.
const KNOWN: &[(&str, &str, &str)] = &[];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

/// Source without comments and without test code: a `#[cfg(test)] mod x;` line, and a
/// top-level `#[cfg(test)] mod x { … }` with everything after it (test modules come last).
fn production_code(source: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "#[cfg(test)]" {
            let mut j = i + 1;
            while j < lines.len()
                && (lines[j].trim().is_empty() || lines[j].trim().starts_with("#["))
            {
                j += 1;
            }
            let next = lines.get(j).copied().unwrap_or("");
            let declares_mod = next.trim_start().starts_with("mod ")
                || next.trim_start().starts_with("pub mod ")
                || next.trim_start().starts_with("pub(crate) mod ");
            if declares_mod && next.trim_end().ends_with(';') {
                i = j + 1;
                continue;
            }
            if declares_mod && !next.starts_with(' ') {
                break;
            }
        }
        out.push(lines[i].split("//").next().unwrap_or(""));
        i += 1;
    }
    out.join("\n")
}

/// The top-level modules `code` names through `crate::`.
fn crate_uses(code: &str) -> Vec<String> {
    code.match_indices("crate::")
        .filter(|(at, _)| {
            // `review_tui::` ends in `crate::`'s letters only when preceded by an identifier.
            !code[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| {
            code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

fn is_test_file(relative: &Path) -> bool {
    let name = relative.file_name().unwrap().to_string_lossy();
    relative.components().any(|c| c.as_os_str() == "tests")
        || name == "tests.rs"
        || name.ends_with("_tests.rs")
        || name.ends_with("_props.rs")
}

/// (user, used) pairs of top-level modules in production code, with one place each.
fn module_uses() -> std::collections::BTreeMap<(String, String), String> {
    let mut uses = std::collections::BTreeMap::new();
    for (file, relative) in source_files() {
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if BINARY.contains(&top.as_str()) || top == "lib" || is_test_file(&relative) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap());
        for used in crate_uses(&code) {
            if used != top {
                uses.entry((top.clone(), used))
                    .or_insert_with(|| shown(&file));
            }
        }
    }
    uses
}

#[test]
fn every_module_is_in_a_layer_and_uses_only_the_layers_below() {
    let uses = module_uses();
    let mut unplaced = Vec::new();
    for entry in source_dirs()
        .iter()
        .flat_map(|src| fs::read_dir(src).unwrap())
    {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        let module = name.trim_end_matches(".rs");
        if !(BINARY.contains(&module) || module == "lib") && layer_of(module).is_none() {
            unplaced.push(module.to_string());
        }
    }
    assert!(unplaced.is_empty(), "modules in no layer: {unplaced:?}");

    let mut offenders = Vec::new();
    let mut same_layer = std::collections::BTreeSet::new();
    for ((user, used), place) in &uses {
        let (Some(from), Some(to)) = (layer_of(user), layer_of(used)) else {
            continue;
        };
        let known = KNOWN.iter().any(|(a, b, _)| a == user && b == used);
        if to > from && !known {
            offenders.push(format!(
                "{place}: `{user}` ({}) uses `{used}` ({}), a layer above it",
                LAYERS[from].0, LAYERS[to].0
            ));
        }
        if to == from {
            same_layer.insert((user.clone(), used.clone()));
        }
    }
    for (a, b) in &same_layer {
        if a < b && same_layer.contains(&(b.clone(), a.clone())) {
            offenders.push(format!("`{a}` and `{b}` use each other (a cycle)"));
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
    for (user, used, why) in KNOWN {
        assert!(
            uses.contains_key(&(user.to_string(), used.to_string())),
            "`{user}` no longer uses `{used}`: remove it from KNOWN ({why})"
        );
    }
}

#[test]
fn the_layer_check_reads_uses_and_skips_comments_and_tests() {
    let code = production_code(
        "use crate::review::node::ReviewNode;\n\
         // crate::ui::in_a_comment\n\
         let x = review_tui::crate_like();\n\
         let y = crate::diff::Side::Left; // crate::publish too\n\
         #[cfg(test)]\n\
         mod helper;\n\
         fn f() { crate::space::open(); }\n\
         #[cfg(test)]\n\
         mod tests {\n    use crate::ui::App;\n}\n",
    );
    assert_eq!(crate_uses(&code), vec!["review", "diff", "space"]);
}

// ---- Errors: typed in the library, `anyhow` only at the binary's edge ----

/// `Result<…, String>` in `code`: an error that says nothing about what failed. Library errors
/// are `thiserror` types named for what failed; a text meant for a model is a typed value too.
fn string_errors(code: &str) -> Vec<String> {
    let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (at, _) in flat.match_indices("Result<") {
        // The error type is the last argument at depth one of this `Result<…>`.
        let mut depth = 0usize;
        let mut last_comma = None;
        for (i, c) in flat[at + "Result".len()..].char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        let args = &flat[at + "Result<".len()..at + "Result".len() + i];
                        let error = last_comma.map(|c: usize| args[c + 1..].trim());
                        if matches!(error, Some("String" | "std::string::String")) {
                            found.push(format!("Result<{args}>"));
                        }
                        break;
                    }
                }
                ',' if depth == 1 => last_comma = Some(i - 1),
                _ => {}
            }
        }
    }
    found
}

/// Every source file that is not a test's, as (its path from the repository root, its path
/// under its `src/`, [`production_code`]).
fn production_files() -> Vec<(String, PathBuf, String)> {
    source_files()
        .into_iter()
        .filter_map(|(file, relative)| {
            if is_test_file(&relative) {
                return None;
            }
            Some((
                shown(&file),
                relative,
                production_code(&fs::read_to_string(&file).unwrap()),
            ))
        })
        .collect()
}

#[test]
fn library_errors_are_typed_and_anyhow_stays_in_main() {
    let mut offenders = Vec::new();
    for (place, relative, code) in production_files() {
        for found in string_errors(&code) {
            offenders.push(format!("{place}: {found}"));
        }
        if !in_binary(&relative) && code.contains("anyhow") {
            offenders.push(format!("{place}: uses anyhow"));
        }
    }
    assert!(
        offenders.is_empty(),
        "untyped errors (use a thiserror type named for what failed):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_error_check_finds_string_errors_in_every_spelling() {
    assert_eq!(
        string_errors("fn f() -> Result<Vec<u8>, String> {"),
        vec!["Result<Vec<u8>, String>"]
    );
    assert_eq!(string_errors("type R = Result<(), \n   String>;").len(), 1);
    assert_eq!(
        string_errors("fn g() -> Result<HashMap<String, String>, std::string::String>").len(),
        1
    );
    assert!(string_errors("fn h() -> Result<String, ToolError>").is_empty());
    assert!(string_errors("fn i() -> Result<BTreeMap<Role, String>, RosterError>").is_empty());
    assert!(string_errors("fn j() -> io::Result<String>").is_empty());
}

/// Variant names that say no more than "something failed".
const CATCH_ALL_NAMES: &[&str] = &[
    "Other", "Misc", "Generic", "General", "Internal", "Message", "Msg", "Custom", "Any",
    "CatchAll",
];

/// The catch-all variants of the enums in `code`: a variant named for nothing
/// ([`CATCH_ALL_NAMES`]) that holds only a text. In an error enum (deriving `Error` or named
/// `…Error`) what failed is then known only to the sentence, and no caller can tell one failure
/// from another (an exit code, a retry, a hint): a variant names what failed and keeps its
/// source. In any other enum the text gets read again to decide (a model's finish reason
/// searched for "error"): the enum says what the open case is (`Unrecognised { reason }`) and
/// the reading is done once, where the text comes in.
fn catch_all_variants(code: &str) -> Vec<String> {
    // String literals emptied: a message's `{0}` is no brace of the code.
    let mut bare = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in code.chars() {
        if in_string {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_string = false;
                    bare.push(c);
                }
                _ => escaped = false,
            }
        } else {
            in_string = c == '"';
            bare.push(c);
        }
    }
    let flat: String = bare.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (at, _) in flat.match_indices("enum ") {
        if at > 0
            && flat[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &flat[at + "enum ".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = rest.find('{') else { continue };
        // The attributes just before the enum, back to the previous item's end.
        let before = &flat[..at];
        let attributes = &before[before.rfind(['}', ';']).map_or(0, |i| i + 1)..];
        let derives_error = attributes.contains("derive(")
            && attributes.split("derive(").skip(1).any(|d| {
                d.split(')').next().unwrap_or("").split(',').any(|t| {
                    let t = t.trim();
                    t == "Error" || t.ends_with("::Error")
                })
            });
        let error_enum = derives_error || name.ends_with("Error");
        // The variants at depth one of the body.
        let body = &rest[open + 1..];
        let mut depth = 0usize;
        let mut end = body.len();
        for (i, c) in body.char_indices() {
            match c {
                '{' | '(' | '[' | '<' => depth += 1,
                '}' if depth == 0 => {
                    end = i;
                    break;
                }
                '}' | ')' | ']' | '>' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        let body = &body[..end];
        let mut variants = Vec::new();
        let (mut depth, mut start) = (0usize, 0usize);
        for (i, c) in body.char_indices() {
            match c {
                '{' | '(' | '[' | '<' => depth += 1,
                '}' | ')' | ']' | '>' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    variants.push(&body[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        variants.push(&body[start..]);
        for variant in variants {
            // Drop the variant's attributes (`#[error("{0}")]`).
            let mut text = variant.trim();
            while text.starts_with("#[") {
                let mut depth = 0usize;
                let close = text
                    .char_indices()
                    .find(|(_, c)| match c {
                        '[' => {
                            depth += 1;
                            false
                        }
                        ']' => {
                            depth -= 1;
                            depth == 0
                        }
                        _ => false,
                    })
                    .map_or(text.len(), |(i, _)| i + 1);
                text = text[close..].trim_start();
            }
            let variant_name: String = text
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let fields = text[variant_name.len()..].trim();
            let only_text = fields
                .strip_prefix('(')
                .and_then(|f| f.strip_suffix(')'))
                .or_else(|| {
                    fields
                        .strip_prefix('{')
                        .and_then(|f| f.strip_suffix('}'))
                        .and_then(|f| f.split_once(':').map(|(_, ty)| ty))
                })
                .map(|ty| ty.trim().trim_end_matches(',').trim())
                .is_some_and(|ty| {
                    matches!(
                        ty,
                        "String"
                            | "std::string::String"
                            | "Box<str>"
                            | "&'static str"
                            | "Cow<'static, str>"
                    )
                });
            if only_text && CATCH_ALL_NAMES.contains(&variant_name.as_str()) {
                found.push(if error_enum {
                    format!("{name}::{variant_name}")
                } else {
                    format!("{name}::{variant_name} (not an error enum)")
                });
            }
        }
    }
    found
}

#[test]
fn error_enums_have_no_catch_all_variant() {
    let mut offenders = Vec::new();
    for (place, _, code) in production_files() {
        for found in catch_all_variants(&code) {
            offenders.push(format!("{place}: {found}"));
        }
    }
    assert!(
        offenders.is_empty(),
        "catch-all variants (name what failed and keep its source with #[from] or #[source]; \
         name an open case for what it holds and read the text once where it comes in):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_catch_all_check_finds_text_only_variants_of_error_enums() {
    let code = r#"
        #[derive(Debug, Error)]
        pub enum PrepareError {
            #[error(transparent)]
            Space(#[from] SpaceError),
            #[error("nothing to review: {0}")]
            NothingToReview(String),
            #[error("{0}")]
            Other(String),
        }
        pub enum FetchError { Misc { message: String }, Refused(u16) }
        // An unknown name is a kind: the enum says of what.
        pub enum ThemeError { Unknown(String) }
        #[derive(Debug, thiserror::Error)]
        enum Broken { #[error("{0}")] Internal(Box<str>) }
        pub enum FinishReason { Stop, Other(String) }
        pub enum FinishReason { Stop, Unrecognised { reason: String } }
        pub enum ThemeError { Other(PathBuf) }
    "#;
    assert_eq!(
        catch_all_variants(code),
        vec![
            "PrepareError::Other",
            "FetchError::Misc",
            "Broken::Internal",
            "FinishReason::Other (not an error enum)"
        ]
    );
}

// ---- The forge is a port: the space layer knows no forge's conventions ----

/// Files compiled only for tests: declared `#[cfg(test)] mod x;` by their parent, and
/// everything under such a module's folder.
fn test_only_files() -> std::collections::BTreeSet<PathBuf> {
    let files = source_files();
    let mut test_only = std::collections::BTreeSet::new();
    for (file, _) in &files {
        let lines: Vec<String> = fs::read_to_string(file)
            .unwrap()
            .lines()
            .map(|l| l.trim().to_string())
            .collect();
        let name = file.file_name().unwrap().to_string_lossy();
        // A `foo.rs` declares its children in `foo/`; `mod.rs` and `lib.rs` beside themselves.
        let dir = if name == "mod.rs" || name == "lib.rs" || name == "main.rs" {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        for (i, line) in lines.iter().enumerate() {
            if line != "#[cfg(test)]" {
                continue;
            }
            let Some(decl) = lines[i + 1..]
                .iter()
                .find(|l| !l.is_empty() && !l.starts_with("#["))
            else {
                continue;
            };
            let decl = decl
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                .trim_start_matches("pub ");
            if let Some(module) = decl.strip_prefix("mod ").and_then(|d| d.strip_suffix(';')) {
                test_only.insert(dir.join(format!("{module}.rs")));
                let folder = dir.join(module);
                if folder.is_dir() {
                    let mut inside = Vec::new();
                    rust_files(&folder, &mut inside);
                    test_only.extend(inside);
                }
            }
        }
    }
    test_only
}

#[test]
fn the_space_layer_names_no_forge() {
    let test_only = test_only_files();
    assert!(test_only.contains(&source_path("space/test_repo.rs")));
    let mut offenders = Vec::new();
    for (file, relative) in source_files() {
        if !relative.starts_with("space") || is_test_file(&relative) || test_only.contains(&file) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap()).to_lowercase();
        for name in ["github", "refs/pull", "gitlab", "merge-requests"] {
            if code.contains(name) {
                offenders.push(format!("{}: names `{name}`", shown(&file)));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the space layer must ask the forge (`pr::hosted::ForgeKind`), not know it:\n{}",
        offenders.join("\n")
    );
}

// ---- No cycles between the submodules of one folder ----

/// A production module: its path (`["session", "round"]`) and its code.
struct Module {
    path: Vec<String>,
    code: String,
}

fn production_modules() -> Vec<Module> {
    let test_only = test_only_files();
    let mut modules = Vec::new();
    for (file, relative) in source_files() {
        if is_test_file(&relative) || test_only.contains(&file) {
            continue;
        }
        let mut path: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if path.last().is_some_and(|last| last == "mod") {
            path.pop();
        }
        if path == ["lib"] || BINARY.contains(&path[0].as_str()) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap());
        modules.push(Module { path, code });
    }
    modules
}

/// The paths `code` names after `prefix` (`crate::`, `super::`, `self::`), groups expanded:
/// `crate::a::{b, c::d}` is `a::b` and `a::c::d`.
fn prefixed_paths(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        // `super::super::x` is read once, from its first `super::`.
        let rest = &code[at + prefix.len()..];
        let mut found = Vec::new();
        parse_tree(rest, Vec::new(), &mut found);
        out.extend(found);
    }
    out
}

/// Parses one use tree at the start of `text` (segments, `{…}` groups), appending each path.
/// Returns how much of `text` it read.
fn parse_tree(text: &str, mut base: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut i = 0;
    let bytes = text.as_bytes();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'{' {
            i += 1;
            loop {
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    break;
                }
                let read = parse_tree(&text[i..], base.clone(), out);
                i += read.max(1);
                // Skip `as name` and anything else up to the next item.
                while i < bytes.len() && bytes[i] != b',' && bytes[i] != b'}' {
                    i += 1;
                }
            }
            return i + 1;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if i > start {
            base.push(text[start..i].to_string());
        }
        if text[i..].starts_with("::") {
            i += 2;
            continue;
        }
        out.push(base);
        return i;
    }
}

/// Each module's uses of other modules, as module paths (an item's path is cut to the module
/// that defines or re-exports it; a name a parent re-exports from its child is the child's).
fn module_graph(modules: &[Module]) -> Vec<(Vec<String>, Vec<String>)> {
    use std::collections::{BTreeMap, BTreeSet};
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    // `pub use child::{A, B}` in a parent: A and B are the child's.
    let mut reexports: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
    for module in modules {
        let flat: String = module.code.split_whitespace().collect::<Vec<_>>().join(" ");
        for statement in flat.split(';') {
            let statement = statement.trim();
            let Some(tree) = ["pub use ", "pub(crate) use ", "pub(super) use "]
                .iter()
                .find_map(|p| statement.strip_prefix(p))
            else {
                continue;
            };
            let tree = tree.strip_prefix("self::").unwrap_or(tree);
            let mut paths = Vec::new();
            parse_tree(tree, Vec::new(), &mut paths);
            for path in paths {
                let mut child = module.path.clone();
                child.push(path[0].clone());
                if path.len() >= 2 && known.contains(&child) {
                    let name = path.last().unwrap().clone();
                    reexports.insert((module.path.clone(), name), path[0].clone());
                }
            }
        }
    }
    let resolve = |path: Vec<String>| -> Option<Vec<String>> {
        let mut cut = path.len();
        while cut > 0 && !known.contains(&path[..cut]) {
            cut -= 1;
        }
        if cut == 0 {
            return None;
        }
        let mut module = path[..cut].to_vec();
        if let Some(child) = path
            .get(cut)
            .and_then(|name| reexports.get(&(module.clone(), name.clone())))
        {
            module.push(child.clone());
        }
        Some(module)
    };
    let mut edges = Vec::new();
    for module in modules {
        let mut used = Vec::new();
        used.extend(prefixed_paths(&module.code, "crate::"));
        for path in prefixed_paths(&module.code, "self::") {
            used.push(module.path.iter().cloned().chain(path).collect());
        }
        for mut path in prefixed_paths(&module.code, "super::") {
            let mut base = module.path.clone();
            base.pop();
            while path.first().is_some_and(|s| s == "super") {
                path.remove(0);
                base.pop();
            }
            used.push(base.into_iter().chain(path).collect());
        }
        // A child named bare (`token::Token`) from its parent, outside re-exports.
        for line in module.code.lines() {
            let line = line.trim();
            if line.starts_with("pub use ")
                || line.starts_with("pub(crate) use ")
                || line.starts_with("use ")
                || line.contains("mod ")
            {
                continue;
            }
            for child in known
                .iter()
                .filter(|k| k.len() == module.path.len() + 1 && k.starts_with(&module.path))
            {
                let name = format!("{}::", child.last().unwrap());
                let named = line.match_indices(&name).any(|(at, _)| {
                    !line[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                });
                if named {
                    used.push(child.clone());
                }
            }
        }
        for path in used {
            if let Some(target) = resolve(path)
                && target != module.path
            {
                edges.push((module.path.clone(), target));
            }
        }
    }
    edges
}

/// Per folder, the edges between its children (`<self>` is the folder's own `mod.rs` code).
fn sibling_edges(
    edges: &[(Vec<String>, Vec<String>)],
) -> std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<(String, String)>> {
    let mut by_folder: std::collections::BTreeMap<_, std::collections::BTreeSet<_>> =
        Default::default();
    for (user, used) in edges {
        let common = user.iter().zip(used).take_while(|(a, b)| a == b).count();
        // The crate root's children are the layers, checked above.
        if common == 0 {
            continue;
        }
        let folder = user[..common].to_vec();
        let side = |path: &Vec<String>| {
            path.get(common)
                .cloned()
                .unwrap_or_else(|| "<self>".to_string())
        };
        let (from, to) = (side(user), side(used));
        if from != to {
            by_folder.entry(folder).or_default().insert((from, to));
        }
    }
    by_folder
}

/// The cycles among `edges`: each strongly connected set of more than one node, sorted.
fn cycles(edges: &std::collections::BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a.as_str()).or_default().insert(b.as_str());
    }
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(node) = stack.pop() {
            for &n in next.get(node).into_iter().flatten() {
                if seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<&str> = edges
        .iter()
        .flat_map(|(a, b)| [a.as_str(), b.as_str()])
        .collect();
    let reaches: BTreeMap<&str, BTreeSet<&str>> = nodes.iter().map(|&n| (n, reach(n))).collect();
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for &node in &nodes {
        let set: Vec<String> = nodes
            .iter()
            .filter(|&&other| {
                other == node || (reaches[node].contains(other) && reaches[other].contains(node))
            })
            .map(|s| s.to_string())
            .collect();
        if set.len() > 1 {
            found.insert(set);
        }
    }
    found.into_iter().collect()
}

/// Submodules of one folder that use each other, directly or round a loop: the shared piece
/// belongs in a module both use. A folder's own `mod.rs` is not one of its parts here: that it
/// defines what its children share (a trait, a context type) and dispatches to them is the
/// folder's shape, and a child naming the parent's re-export is resolved to the sibling it
/// re-exports.
#[test]
fn no_cycles_between_the_submodules_of_a_folder() {
    let edges = module_graph(&production_modules());
    let mut found = std::collections::BTreeMap::new();
    for (folder, edges) in sibling_edges(&edges) {
        let siblings: std::collections::BTreeSet<(String, String)> = edges
            .into_iter()
            .filter(|(a, b)| a != "<self>" && b != "<self>")
            .collect();
        for cycle in cycles(&siblings) {
            let uses: Vec<String> = siblings
                .iter()
                .filter(|(a, b)| cycle.contains(a) && cycle.contains(b))
                .map(|(a, b)| format!("{a} → {b}"))
                .collect();
            found.insert((folder.join("::"), cycle.join(", ")), uses.join(", "));
        }
    }
    let offenders: Vec<String> = found
        .iter()
        .map(|((folder, cycle), uses)| format!("in `{folder}`: {cycle} use each other ({uses})"))
        .collect();
    assert!(
        offenders.is_empty(),
        "submodules in a cycle (move what they share into a module both use):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_submodule_check_resolves_paths_groups_and_reexports() {
    let module = |path: &str, code: &str| Module {
        path: path.split('/').map(str::to_string).collect(),
        code: code.to_string(),
    };
    let modules = [
        module("a", "pub use b::Thing;\nfn f() { c::go(); }"),
        module(
            "a/b",
            "use super::c::{go, More as M};\nuse crate::a::d::{self};",
        ),
        module("a/c", "use super::Thing;\nfn g() { crate::a::d::h(); }"),
        module("a/d", "fn h() {}"),
    ];
    let edges = module_graph(&modules);
    let folders = sibling_edges(&edges);
    let a = &folders[&vec!["a".to_string()]];
    // `super::Thing` is b's (re-exported by a), `c::go` from a's own code is `<self> → c`.
    for edge in [
        ("b", "c"),
        ("b", "d"),
        ("c", "b"),
        ("c", "d"),
        ("<self>", "c"),
    ] {
        assert!(
            a.contains(&(edge.0.to_string(), edge.1.to_string())),
            "{edge:?} missing from {a:?}"
        );
    }
    assert_eq!(cycles(a), vec![vec!["b".to_string(), "c".to_string()]]);
}

/// The cockpit's Elm shape, held: the state is plain data over the few cockpit modules below it
/// (commands, the keymap, the event log, panes, text), `update` changes it and never draws,
/// and the view reads it (and asks the components which commands can run now, for the hints).
#[test]
fn the_cockpit_state_is_below_update_and_update_below_the_view() {
    let edges = module_graph(&production_modules());
    let ui = |path: &Vec<String>| (path.len() >= 2 && path[0] == "ui").then(|| path[1].clone());
    let mut offenders = Vec::new();
    for (user, used) in &edges {
        let (Some(from), Some(to)) = (ui(user), ui(used)) else {
            continue;
        };
        let allowed = match from.as_str() {
            "state" => ["command", "keymap", "log", "pane", "text"].contains(&to.as_str()),
            "keymap" => ["command", "pane"].contains(&to.as_str()),
            "command" | "log" | "pane" | "text" => false,
            "update" => !["view", "app", "run", "translate"].contains(&to.as_str()),
            _ => true,
        };
        if !allowed && from != to {
            offenders.push(format!("`{}` uses `{}`", user.join("::"), used.join("::")));
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// Each pane of the main screen (`ui::pane::Pane`) is a component in its own file under
/// `src/ui/update/panes/`, named for it, and no pane's file reaches into another pane's: what
/// they share (focus, paging, the mouse) is the folder's `mod.rs`. A new pane is one file.
#[test]
fn each_pane_updates_in_its_own_file_and_uses_no_other_pane() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let panes = pane_names(&fs::read_to_string(root.join("src/ui/pane.rs")).unwrap());
    assert!(
        panes.len() >= 4,
        "the panes read from src/ui/pane.rs: {panes:?}"
    );
    let mut offenders = Vec::new();
    for pane in &panes {
        let path = root.join(format!("src/ui/update/panes/{pane}.rs"));
        let Ok(source) = fs::read_to_string(&path) else {
            offenders.push(format!(
                "the {pane} pane has no src/ui/update/panes/{pane}.rs"
            ));
            continue;
        };
        let code = production_code(&source);
        for other in panes.iter().filter(|other| *other != pane) {
            if names_module(&code, other) {
                offenders.push(format!(
                    "src/ui/update/panes/{pane}.rs uses the {other} pane"
                ));
            }
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// The variants of `enum Pane`, snake_cased as their files are named.
fn pane_names(source: &str) -> Vec<String> {
    let body = source
        .split("pub enum Pane {")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .unwrap_or_default();
    body.lines()
        .map(|line| line.trim().trim_end_matches(','))
        .filter(|line| line.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .map(|variant| {
            let mut name = String::new();
            for (i, c) in variant.chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    name.push('_');
                }
                name.push(c.to_ascii_lowercase());
            }
            name
        })
        .collect()
}

/// Whether `code` names the module `module` in a path (`module::x`, `super::module`).
fn names_module(code: &str, module: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(module).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = &code[at + module.len()..];
        before.is_none_or(|c| !word(c))
            && (after.starts_with("::")
                || (code[..at].ends_with("::") && after.chars().next().is_none_or(|c| !word(c))))
    })
}

#[test]
fn the_pane_check_reads_the_panes_and_their_paths() {
    assert_eq!(
        pane_names("pub enum Pane {\n    #[default]\n    Findings,\n    ReviewThreads,\n}"),
        ["findings", "review_threads"]
    );
    assert!(names_module("use super::detail::Detail;", "detail"));
    assert!(names_module("use super::super::panes::detail;", "detail"));
    assert!(names_module("detail::wheel(state, 1);", "detail"));
    assert!(!names_module("state.detail.scroll = 0;", "detail"));
    assert!(!names_module("use super::detailed::X;", "detail"));
}

/// Connecting to a forge is the forge's own (`ForgeKind::connect` and its settings, through
/// `pr::registry`): preparing, publishing and the cockpit build no client, look for no token
/// and read no forge's settings themselves, so a second forge is its folder and one registry
/// line. The session names no forge at all.
#[test]
fn preparing_and_publishing_connect_through_the_registry() {
    let test_only = test_only_files();
    let mut offenders = Vec::new();
    for folder in ["session", "publish", "ui", "report"] {
        for (file, relative) in source_files() {
            if !relative.starts_with(folder) || is_test_file(&relative) || test_only.contains(&file)
            {
                continue;
            }
            let code = production_code(&fs::read_to_string(&file).unwrap());
            let mut names = vec![
                "GithubClient",
                "GithubForge",
                "GithubSettings",
                "GithubConfig",
                "token::discover",
            ];
            if folder == "session" {
                names.push("pr::github");
            }
            for name in names {
                if code.contains(name) {
                    offenders.push(format!("{}: names `{name}`", shown(&file)));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "connect through `pr::registry` and `ForgeKind::connect`:\n{}",
        offenders.join("\n")
    );
}

/// Every forge is its folder (`crates/review-tui-engine/src/pr/github`, `crates/review-tui-engine/src/pr/gitlab`, `crates/review-tui-engine/src/pr/gitea`) and one line in
/// `pr::registry`: no other production code names a forge's module, error type, settings or
/// environment variables, so the publisher, the session and the binary stay forge-neutral and
/// a forge's refusals reach them only as the port's neutral kinds.
#[test]
fn no_forge_is_named_outside_its_folder() {
    let test_only = test_only_files();
    let forges = ["github", "gitlab", "gitea"];
    let names = [
        "pr::github",
        "pr::gitlab",
        "pr::gitea",
        "GithubError",
        "GitlabError",
        "GiteaError",
        "GITHUB_",
        "GH_TOKEN",
        "GITLAB_",
        "GITEA_",
        "FORGEJO_",
        "CI_JOB_TOKEN",
    ];
    let mut offenders = Vec::new();
    for (file, relative) in source_files() {
        let relative = relative.as_path();
        let in_forge = forges
            .iter()
            .any(|forge| relative.starts_with(Path::new("pr").join(forge)));
        // The one list of forges, the configuration's sections (one per forge), and the
        // `--help` text, which tells people every forge's token variables.
        let allowed = relative == Path::new("pr/registry.rs")
            || relative.starts_with("config")
            || relative == Path::new("cli/mod.rs");
        if in_forge || allowed || is_test_file(relative) || test_only.contains(&file) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap());
        for name in names {
            if code.contains(name) {
                offenders.push(format!("{}: names `{name}`", shown(&file)));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a forge's names belong in its folder (`crates/review-tui-engine/src/pr/<forge>`) and `pr::registry`:\n{}",
        offenders.join("\n")
    );
}

// ---- The API detector: one folder per language, none using another ----

/// The other language folders under `crates/review-tui-engine/src/api/lang/` that `code`, in the folder `own`, names.
fn other_languages_named(code: &str, own: &str, languages: &[String]) -> Vec<String> {
    languages
        .iter()
        .filter(|other| other.as_str() != own)
        .filter(|other| {
            [
                format!("lang::{other}::"),
                format!("lang::{{{other}"),
                format!("super::super::{other}::"),
            ]
            .iter()
            .any(|pattern| code.contains(pattern.as_str()))
        })
        .cloned()
        .collect()
}

#[test]
fn api_language_folders_do_not_use_each_other() {
    let lang = source_path("api/lang");
    let languages: Vec<String> = fs::read_dir(&lang)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(languages.len() >= 5, "language folders: {languages:?}");
    let mut offenders = Vec::new();
    for language in &languages {
        let mut files = Vec::new();
        rust_files(&lang.join(language), &mut files);
        for file in files {
            let code = production_code(&fs::read_to_string(&file).unwrap());
            for other in other_languages_named(&code, language, &languages) {
                offenders.push(format!(
                    "{}: `{language}` uses `{other}`",
                    file.strip_prefix(&lang).unwrap().display()
                ));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a language folder uses another (move what they share up into crates/review-tui-engine/src/api/):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_language_check_reads_every_way_to_name_a_sibling() {
    let languages = ["rust".to_string(), "go".to_string()];
    for code in [
        "use crate::api::lang::go::extract::X;",
        "use super::super::go::extract;",
        "use crate::api::lang::{go, rust};",
    ] {
        assert_eq!(
            other_languages_named(code, "rust", &languages),
            ["go"],
            "{code}"
        );
    }
    assert!(other_languages_named("use crate::api::text::Src;", "rust", &languages).is_empty());
    assert!(other_languages_named("use super::extract;", "rust", &languages).is_empty());
}

// ---- Short functions: none over 150 lines but data tables ----

/// The most lines a function may span, signature to closing brace. A longer one is split along
/// the headings its comments already have.
const MAX_FUNCTION_LINES: usize = 150;

/// Functions that are data tables (one literal listing data), not logic to split.
const DATA_TABLES: &[(&str, &str)] = &[("src/ui/keymap.rs", "default")];

/// Functions longer than [`MAX_FUNCTION_LINES`] that are still to be split, each with the part
/// of the work that will split it. Empty: every long function has been split. The test fails
/// when a listed one gets short (the list only shrinks), and a new long function is refused.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[];

/// `fn` items of `code` (production code, lines kept) longer than `max` lines: their name,
/// first line (1-based) and length. The closing brace is the first line after the signature
/// at the `fn`'s own indentation (the code is rustfmt'd); a body-less declaration has none.
fn long_functions(code: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let mut rest = trimmed;
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        let Some(after) = rest.strip_prefix("fn ") else {
            continue;
        };
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let indent = &line[..line.len() - trimmed.len()];
        // The signature ends at the first line ending in `{` (a body) or `;` (none).
        let Some(open) = (i..lines.len()).find(|&j| {
            let l = lines[j].trim_end();
            l.ends_with('{') || l.ends_with(';') || l.ends_with('}')
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(end) = (open + 1..lines.len()).find(|&j| lines[j].trim_end() == close) {
            let length = end - i + 1;
            if length > max {
                found.push((name, i + 1, length));
            }
        }
    }
    found
}

#[test]
fn no_function_is_longer_than_150_lines_but_the_known_ones() {
    let test_only = test_only_files();
    let mut long = Vec::new();
    for (file, relative) in source_files() {
        if is_test_file(&relative) || test_only.contains(&file) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap());
        let path = shown(&file);
        for (name, line, length) in long_functions(&code, MAX_FUNCTION_LINES) {
            if !DATA_TABLES.contains(&(path.as_str(), name.as_str())) {
                long.push((path.clone(), name, line, length));
            }
        }
    }
    let new: Vec<String> = long
        .iter()
        .filter(|(path, name, _, _)| {
            !LONG_FUNCTIONS
                .iter()
                .any(|(p, n, _)| p == path && n == name)
        })
        .map(|(path, name, line, length)| format!("{path}:{line}: `{name}` is {length} lines"))
        .collect();
    assert!(
        new.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them along their steps):\n{}",
        new.join("\n")
    );
    let split: Vec<String> = LONG_FUNCTIONS
        .iter()
        .filter(|(p, n, _)| !long.iter().any(|(path, name, _, _)| p == path && n == name))
        .map(|(p, n, _)| format!("{p}: `{n}`"))
        .collect();
    assert!(
        split.is_empty(),
        "no longer over {MAX_FUNCTION_LINES} lines: remove from LONG_FUNCTIONS:\n{}",
        split.join("\n")
    );
}

#[test]
fn the_length_check_measures_bodies_and_skips_declarations() {
    let body = |n: usize| "        x();\n".repeat(n);
    let code = format!(
        "impl A {{\n    pub(crate) async fn long(\n        a: u8,\n    ) -> u8 {{\n{}    }}\n\
         \n    fn declared(&self);\n    fn short() {{ 1 }}\n}}\nfn top() {{\n{}}}\n",
        body(150),
        body(3)
    );
    assert_eq!(
        long_functions(&code, 150),
        vec![("long".to_string(), 2, 154)]
    );
    assert!(long_functions(&code, 154).is_empty());
}
