//! The language of a changed file, from its name or, failing that, its shebang line.

use serde::{Deserialize, Serialize};

/// A language the rule catalog and the cohort index know about.
///
/// The serde form and [`Language::name`] are the same stable lowercase word, so reports and
/// configuration files can name a language without depending on the enum's Debug output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Go,
    Java,
    Shell,
    Yaml,
    Dockerfile,
    Toml,
    Json,
    Markdown,
    C,
    Cpp,
    Ruby,
    CSharp,
    Php,
    Kotlin,
    Swift,
    Dart,
    Scala,
    Elixir,
    Lua,
    Haskell,
    #[serde(rename = "objc")]
    ObjectiveC,
    Zig,
    OCaml,
    Other,
}

impl Language {
    /// Every variant, for tables and exhaustive tests.
    pub const ALL: [Language; 28] = [
        Language::Rust,
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Go,
        Language::Java,
        Language::Shell,
        Language::Yaml,
        Language::Dockerfile,
        Language::Toml,
        Language::Json,
        Language::Markdown,
        Language::C,
        Language::Cpp,
        Language::Ruby,
        Language::CSharp,
        Language::Php,
        Language::Kotlin,
        Language::Swift,
        Language::Dart,
        Language::Scala,
        Language::Elixir,
        Language::Lua,
        Language::Haskell,
        Language::ObjectiveC,
        Language::Zig,
        Language::OCaml,
        Language::Other,
    ];

    /// The stable lowercase name used in reports (`"javascript"`, `"cpp"`, `"other"`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Go => "go",
            Language::Java => "java",
            Language::Shell => "shell",
            Language::Yaml => "yaml",
            Language::Dockerfile => "dockerfile",
            Language::Toml => "toml",
            Language::Json => "json",
            Language::Markdown => "markdown",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Ruby => "ruby",
            Language::CSharp => "csharp",
            Language::Php => "php",
            Language::Kotlin => "kotlin",
            Language::Swift => "swift",
            Language::Dart => "dart",
            Language::Scala => "scala",
            Language::Elixir => "elixir",
            Language::Lua => "lua",
            Language::Haskell => "haskell",
            Language::ObjectiveC => "objc",
            Language::Zig => "zig",
            Language::OCaml => "ocaml",
            Language::Other => "other",
        }
    }

    /// The language named by a path's file name or extension; `Other` when neither is known.
    pub fn from_path(path: &str) -> Language {
        let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if let Some(language) = by_file_name(file_name) {
            return language;
        }
        // A leading dot is a hidden file, not an extension: `.bashrc` has none.
        let extension = match file_name.rfind('.') {
            Some(dot) if dot > 0 => &file_name[dot + 1..],
            _ => return Language::Other,
        };
        by_extension(&extension.to_ascii_lowercase())
    }

    /// The language named by a `#!` line, if `first_line` is one and names a known interpreter.
    pub fn from_shebang(first_line: &str) -> Option<Language> {
        let rest = first_line.strip_prefix("#!")?;
        // `#![allow(...)]` opens many Rust files and is an attribute, not an interpreter line.
        if rest.starts_with('[') {
            return None;
        }
        let mut words = rest.split_whitespace();
        let mut program = basename(words.next()?);
        if program == "env" {
            // `env -S prog args` and `env VAR=1 prog` both put the interpreter after the options.
            program = basename(words.find(|w| !w.starts_with('-') && !w.contains('='))?);
        }
        by_interpreter(program)
    }

    /// The file's language by name first, then by the shebang of its content when there is one.
    pub fn detect(path: &str, content: Option<&str>) -> Language {
        match Language::from_path(path) {
            Language::Other => content
                .and_then(|text| text.lines().next())
                .and_then(Language::from_shebang)
                .unwrap_or(Language::Other),
            known => known,
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

fn by_file_name(name: &str) -> Option<Language> {
    let language = match name {
        "Dockerfile" | "Containerfile" | "dockerfile" => Language::Dockerfile,
        "Gemfile" | "Rakefile" | "Guardfile" | "Vagrantfile" | "Podfile" => Language::Ruby,
        "Cargo.lock" | "Pipfile" => Language::Toml,
        ".bashrc" | ".bash_profile" | ".profile" | ".zshrc" | "PKGBUILD" => Language::Shell,
        _ if name.starts_with("Dockerfile.") || name.starts_with("Containerfile.") => {
            Language::Dockerfile
        }
        _ => return None,
    };
    Some(language)
}

fn by_extension(extension: &str) -> Language {
    match extension {
        "rs" => Language::Rust,
        "py" | "pyi" | "pyw" => Language::Python,
        "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
        "ts" | "mts" | "cts" | "tsx" => Language::TypeScript,
        "go" => Language::Go,
        "java" => Language::Java,
        "sh" | "bash" | "zsh" | "ksh" | "dash" => Language::Shell,
        "yml" | "yaml" => Language::Yaml,
        "dockerfile" | "containerfile" => Language::Dockerfile,
        "toml" => Language::Toml,
        "json" | "jsonc" | "json5" => Language::Json,
        "md" | "markdown" | "mdx" => Language::Markdown,
        "c" | "h" => Language::C,
        "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "ipp" | "tpp" => {
            Language::Cpp
        }
        "rb" | "rake" | "gemspec" | "ru" => Language::Ruby,
        "cs" => Language::CSharp,
        "php" => Language::Php,
        "kt" | "kts" => Language::Kotlin,
        "swift" => Language::Swift,
        "dart" => Language::Dart,
        "scala" | "sc" => Language::Scala,
        "ex" | "exs" => Language::Elixir,
        "lua" => Language::Lua,
        "hs" => Language::Haskell,
        // `.h` stays C: a header's language is not in its name.
        "m" | "mm" => Language::ObjectiveC,
        "zig" => Language::Zig,
        "ml" | "mli" => Language::OCaml,
        _ => Language::Other,
    }
}

fn by_interpreter(program: &str) -> Option<Language> {
    // Versioned names (`python3.12`, `ruby3.2`) share the family's language.
    let family = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let language = match family {
        "python" | "pypy" => Language::Python,
        "node" | "nodejs" => Language::JavaScript,
        "ts-node" | "tsx" | "deno" | "bun" => Language::TypeScript,
        "sh" | "bash" | "zsh" | "ksh" | "dash" | "ash" | "mksh" => Language::Shell,
        "ruby" => Language::Ruby,
        "lua" | "luajit" => Language::Lua,
        "elixir" => Language::Elixir,
        "rust-script" | "cargo" => Language::Rust,
        _ => return None,
    };
    Some(language)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stable_lowercase_and_match_serde() {
        for language in Language::ALL {
            let name = language.name();
            assert_eq!(name, name.to_ascii_lowercase());
            let json = serde_json::to_string(&language).unwrap();
            assert_eq!(json, format!("\"{name}\""));
        }
    }

    #[test]
    fn extensions_and_file_names() {
        let cases = [
            ("src/main.rs", Language::Rust),
            ("a/b/setup.PY", Language::Python),
            ("web/app.tsx", Language::TypeScript),
            ("web/app.mjs", Language::JavaScript),
            ("cmd/main.go", Language::Go),
            ("Main.java", Language::Java),
            ("scripts/run.sh", Language::Shell),
            (".github/workflows/ci.yml", Language::Yaml),
            ("Dockerfile", Language::Dockerfile),
            ("docker/Dockerfile.prod", Language::Dockerfile),
            ("build.dockerfile", Language::Dockerfile),
            ("Cargo.toml", Language::Toml),
            ("Cargo.lock", Language::Toml),
            ("package.json", Language::Json),
            ("README.md", Language::Markdown),
            ("lib/x.c", Language::C),
            ("lib/x.h", Language::C),
            ("lib/x.hpp", Language::Cpp),
            ("lib/x.cc", Language::Cpp),
            ("Gemfile", Language::Ruby),
            ("app/models/user.rb", Language::Ruby),
            ("Sources/A/B.swift", Language::Swift),
            ("lib/src/a.dart", Language::Dart),
            ("src/main/scala/A.scala", Language::Scala),
            ("lib/app.ex", Language::Elixir),
            ("mix.exs", Language::Elixir),
            ("lua/mod.lua", Language::Lua),
            ("src/Data/A.hs", Language::Haskell),
            ("Classes/A.m", Language::ObjectiveC),
            ("src/main.zig", Language::Zig),
            ("lib/a.mli", Language::OCaml),
            (".gitignore", Language::Other),
            ("LICENSE", Language::Other),
            ("archive.tar.gz", Language::Other),
            ("dir.rs/file", Language::Other),
        ];
        for (path, expected) in cases {
            assert_eq!(Language::from_path(path), expected, "{path}");
        }
    }

    #[test]
    fn shebangs() {
        let cases = [
            ("#!/bin/sh", Some(Language::Shell)),
            ("#!/usr/bin/env bash", Some(Language::Shell)),
            ("#! /usr/bin/python3.12 -u", Some(Language::Python)),
            (
                "#!/usr/bin/env -S node --no-warnings",
                Some(Language::JavaScript),
            ),
            ("#!/usr/bin/env FOO=1 ruby", Some(Language::Ruby)),
            ("#!/usr/bin/env rust-script", Some(Language::Rust)),
            ("#![allow(dead_code)]", None),
            ("#!/usr/bin/perl", None),
            ("# just a comment", None),
            ("#!", None),
        ];
        for (line, expected) in cases {
            assert_eq!(Language::from_shebang(line), expected, "{line}");
        }
    }

    #[test]
    fn name_wins_over_shebang_and_shebang_fills_in() {
        assert_eq!(
            Language::detect("bin/tool", Some("#!/usr/bin/env python3\nprint()")),
            Language::Python
        );
        assert_eq!(
            Language::detect("tool.rb", Some("#!/bin/sh\n")),
            Language::Ruby
        );
        assert_eq!(Language::detect("bin/tool", None), Language::Other);
    }
}
