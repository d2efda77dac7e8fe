//! The engine has no terminal dependency: only `src/ui/` and `src/main.rs` may name ratatui,
//! crossterm, ratatui-textarea or syntect, so the same pipeline runs headless in CI.

use std::fs;
use std::path::{Path, PathBuf};

const TERMINAL_CRATES: [&str; 4] = ["ratatui", "crossterm", "ratatui_textarea", "syntect"];

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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 10, "found only {} source files", files.len());
    let mut offenders = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        if relative.starts_with("ui") || relative == Path::new("main.rs") {
            continue;
        }
        for line in terminal_uses(&fs::read_to_string(&file).unwrap()) {
            offenders.push(format!("src/{}: {line}", relative.display()));
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
            "base64",
            "commit_id",
            "error_text",
            "path_component",
            "printable",
            "waiting",
        ],
    ),
    ("the review model", &["review"]),
    (
        "diff, PR sources, the review space",
        &["config", "demo", "diff", "pr", "space"],
    ),
    ("symbol index and cohorts", &["cohort"]),
    ("reviewers", &["reviewers"]),
    ("the session", &["session"]),
    ("report and publish", &["gc", "publish", "report"]),
    (
        "the edges: arguments, exit codes, the cockpit",
        &["cli", "exit", "ui"],
    ),
];

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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut uses = std::collections::BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().to_path_buf();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "main" || top == "lib" || is_test_file(&relative) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap());
        for used in crate_uses(&code) {
            if used != top {
                uses.entry((top.clone(), used))
                    .or_insert_with(|| format!("src/{}", relative.display()));
            }
        }
    }
    uses
}

#[test]
fn every_module_is_in_a_layer_and_uses_only_the_layers_below() {
    let uses = module_uses();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut unplaced = Vec::new();
    for entry in fs::read_dir(&src).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        let module = name.trim_end_matches(".rs");
        if !matches!(module, "main" | "lib") && layer_of(module).is_none() {
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

#[test]
fn library_errors_are_typed_and_anyhow_stays_in_main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offenders = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().to_path_buf();
        if is_test_file(&relative) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap());
        for found in string_errors(&code) {
            offenders.push(format!("src/{}: {found}", relative.display()));
        }
        if relative != Path::new("main.rs") && code.contains("anyhow") {
            offenders.push(format!("src/{}: uses anyhow", relative.display()));
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

// ---- The forge is a port: the space layer knows no forge's conventions ----

/// Files compiled only for tests: declared `#[cfg(test)] mod x;` by their parent, and
/// everything under such a module's folder.
fn test_only_files(src: &Path) -> std::collections::BTreeSet<PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut test_only = std::collections::BTreeSet::new();
    for file in &files {
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let test_only = test_only_files(&src);
    assert!(test_only.contains(&src.join("space/test_repo.rs")));
    let mut files = Vec::new();
    rust_files(&src.join("space"), &mut files);
    let mut offenders = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        if is_test_file(relative) || test_only.contains(&file) {
            continue;
        }
        let code = production_code(&fs::read_to_string(&file).unwrap()).to_lowercase();
        for name in ["github", "refs/pull", "gitlab", "merge-requests"] {
            if code.contains(name) {
                offenders.push(format!("src/{}: names `{name}`", relative.display()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the space layer must ask the forge (`pr::hosted::ForgeKind`), not know it:\n{}",
        offenders.join("\n")
    );
}
