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
