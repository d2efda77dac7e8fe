//! How a Rust module file declares its modules and re-exports, read from its text by scanning
//! (not parsing): `mod` declarations with their visibility and attributes, `pub use`
//! statements, and the blocks (hidden inline modules, unstable macro calls) that withhold them.

/// How a module file declares one of its modules, read from its text: what the scope rule
/// needs of `mod name` declarations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Declared {
    /// `pub` (`Some(true)`), restricted or private (`Some(false)`), or not declared at all
    /// (`None`: declared by a macro or a `#[path]` we do not follow). The text is scanned, not
    /// parsed, so declarations inside macro calls (`cfg_net! { pub mod net; }`) count, and so
    /// do those in comments and strings.
    pub(super) public: Option<bool>,
    /// Declared with `#[doc(hidden)]` among the attributes (and comments) directly above it,
    /// or before it on its line.
    pub(super) doc_hidden: bool,
    /// Every declaration is behind a `cfg` no stable build of a user selects (clap_complete's
    /// `#[cfg(feature = "unstable-dynamic")] pub mod engine;`): the whole module is an opt-in
    /// outside the crate's semver promise, as its items would be one by one (see
    /// `rust::stable`).
    pub(super) opt_in: bool,
    /// A declaration's own docs (outer, or an inline module's inner ones) say the module is
    /// outside the crate's compatibility promise (see `super::promise`).
    pub(super) withdrawn: bool,
}

impl Declared {
    /// One pass over `text` for the declarations of `name`: [`mod_declarations`], or, where
    /// that scanner cannot answer alone, the pattern it stands for.
    pub(super) fn read(text: &str, name: &str) -> Declared {
        let Some(found) = mod_declarations(text, Candidate::Named(name)) else {
            return Declared::by_pattern(text, name);
        };
        Declared {
            public: found
                .iter()
                .fold(None, |public, d| Some(public.unwrap_or(false) || d.public)),
            doc_hidden: found.iter().any(|d| attributes_above_hide(text, d.start)),
            opt_in: !found.is_empty() && found.iter().all(|d| opt_in_above(text, d.start)),
            withdrawn: found
                .iter()
                .any(|d| super::promise::declaration_withdrawn(text, d.start, d.end)),
        }
    }

    /// The same answer read with the regular expression [`mod_declarations`] scans for:
    /// `(pub(\s*\([^)]*\))?\s+)?mod\s+NAME\s*[;{]`, leftmost first.
    pub(super) fn by_pattern(text: &str, name: &str) -> Declared {
        let Ok(pattern) = regex::Regex::new(&format!(
            r"(pub(\s*\([^)]*\))?\s+)?mod\s+{}\s*[;{{]",
            regex::escape(name)
        )) else {
            return Declared {
                public: None,
                doc_hidden: false,
                opt_in: false,
                withdrawn: false,
            };
        };
        let mut declared = Declared {
            public: None,
            doc_hidden: false,
            opt_in: true,
            withdrawn: false,
        };
        for capture in pattern.captures_iter(text) {
            let public = capture.get(1).is_some() && capture.get(2).is_none();
            declared.public = Some(declared.public.unwrap_or(false) || public);
            let (start, end) = capture.get(0).map_or((0, 0), |m| (m.start(), m.end()));
            declared.doc_hidden |= attributes_above_hide(text, start);
            declared.withdrawn |= super::promise::declaration_withdrawn(text, start, end);
            declared.opt_in &= opt_in_above(text, start);
        }
        declared.opt_in &= declared.public.is_some();
        declared
    }
}

/// Which `mod` declarations [`mod_declarations`] looks for.
#[derive(Clone, Copy)]
pub(super) enum Candidate<'n> {
    /// `mod name;` or `mod name {`.
    Named(&'n str),
    /// `mod any_name {`: an inline module.
    Inline,
}

/// One `mod` declaration found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ModDeclaration {
    /// Where it starts, its visibility included (`pub(crate) mod x;` from the `p`).
    pub(super) start: usize,
    /// Just after its `;` or `{`.
    pub(super) end: usize,
    /// Plain `pub`, not restricted.
    pub(super) public: bool,
}

/// The `mod` declarations of `text` that the regular expression
/// `(pub(\s*\([^)]*\))?\s+)?mod\s+NAME\s*[;{]` (or, for [`Candidate::Inline`],
/// `... mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{`) finds, leftmost first, found by one scan for
/// `mod` instead: a regex per module name cost a compilation and a cold search per changed
/// file and side. `None` when the scanner cannot promise the same answer (a name that is not
/// an ASCII identifier; a `pub(...)` whose parentheses hold `mod`, which the expression may
/// read across): the caller asks the expression itself.
///
/// Why one scan gives the same matches: from a match's start the expression reaches only the
/// `mod` just after `pub\s+` or after `pub\s*(...)\s+` (the parentheses end at the first
/// `)`), so each match is one `mod` declaration and the visibility just before it, its start
/// the leftmost `pub` that reaches it; and as no `mod` lies inside another's visibility (the
/// case refused above), the matches never overlap and come in the order of their `mod`s.
pub(super) fn mod_declarations(
    text: &str,
    candidate: Candidate<'_>,
) -> Option<Vec<ModDeclaration>> {
    if let Candidate::Named(name) = candidate
        && (name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    {
        return None;
    }
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(text.as_bytes(), b"mod") {
        // `\s+` then the name; `\s` and `str::trim_*` are both Unicode's White_Space.
        let after = &text[at + 3..];
        let spaced = after.trim_start();
        if spaced.len() == after.len() {
            continue;
        }
        let rest = match candidate {
            Candidate::Named(name) => spaced.strip_prefix(name),
            Candidate::Inline => {
                let ident = spaced
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    .count();
                let starts_well = spaced
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
                (ident > 0 && starts_well).then(|| &spaced[ident..])
            }
        };
        let Some(rest) = rest else { continue };
        let rest = rest.trim_start();
        let opens = match candidate {
            Candidate::Named(_) => rest.starts_with([';', '{']),
            Candidate::Inline => rest.starts_with('{'),
        };
        if !opens {
            continue;
        }
        let end = text.len() - rest.len() + 1;
        // The visibility: `\s+` between it and `mod`, then `pub` or `pub\s*(...)`.
        let before = &text[..at];
        let trimmed = before.trim_end();
        let mut found = ModDeclaration {
            start: at,
            end,
            public: false,
        };
        if trimmed.len() < before.len() {
            if let Some(head) = trimmed.strip_suffix("pub") {
                found.start = head.len();
                found.public = true;
            } else if let Some(inner) = trimmed.strip_suffix(')') {
                // `[^)]*`: back to the previous `)`; the leftmost `(` there after `pub\s*`.
                let floor = inner.rfind(')').map_or(0, |i| i + 1);
                let opening = inner[floor..].match_indices('(').find_map(|(i, _)| {
                    let open = floor + i;
                    inner[..open]
                        .trim_end()
                        .strip_suffix("pub")
                        .map(|head| (head.len(), open))
                });
                if let Some((start, open)) = opening {
                    if inner[open..].contains("mod") {
                        return None;
                    }
                    found.start = start;
                }
            }
        }
        out.push(found);
    }
    Some(out)
}

/// The text of every `pub use ...;` statement (not `pub(crate) use`), but those inside an
/// inline `#[doc(hidden)]` module: regex 0.1 re-exported its private engine through
/// `#[doc(hidden)] pub mod internal { pub use program::{Program, Inst}; }`, which makes those
/// names reachable only outside the documented API, as `#[doc(hidden)] pub mod x;` does; nor
/// those inside an inline module whose docs withdraw it from the crate's promise, nor those
/// inside an unstable macro block (tokio's `cfg_unstable! { … }`).
pub(super) fn pub_uses(text: &str) -> Vec<&str> {
    // Read once per changed file behind a private module and per module file above it: the
    // searches are memchr's, and the hidden modules are looked for only in a text with a
    // `pub use`.
    let mut hidden = None;
    let mut out = Vec::new();
    let mut offset = 0;
    for start in memchr::memmem::find_iter(text.as_bytes(), b"pub use ") {
        // Inside the statement before (up to its `;`): not a statement of its own.
        if start < offset {
            continue;
        }
        let after = &text[start..];
        let end = memchr::memchr(b';', after.as_bytes()).unwrap_or(after.len());
        // Written in a line comment (`// pub use inner::Thing;`): no code, exports nothing.
        let line_start = memchr::memrchr(b'\n', &text.as_bytes()[..start]).map_or(0, |n| n + 1);
        if text[line_start..start].contains("//") {
            continue;
        }
        let hidden = hidden.get_or_insert_with(|| hidden_inline_modules(text));
        // A re-export that is itself hidden or behind an opt-in `cfg` (chrono's
        // `#[cfg(feature = "__internal_bench")] #[doc(hidden)] pub use
        // self::internals::YearFlags as __BenchYearFlags;`) exports nothing stable.
        let above = attributes_above(text, start);
        let withheld = hides(&above) || opts_in(&above);
        if !withheld && !hidden.iter().any(|block| block.contains(&start)) {
            out.push(&after[..end]);
        }
        offset = start + end;
    }
    out
}

/// The byte ranges of the bodies of inline modules declared `#[doc(hidden)]`
/// (`#[doc(hidden)] pub mod internal { … }`) or whose docs withdraw them from the crate's
/// promise (a `pub use` there makes a name reachable only outside it), and of unstable macro blocks
/// ([`unstable_macro_blocks`]). A string holding an unbalanced brace can only shorten or
/// lengthen the range it is in.
fn hidden_inline_modules(text: &str) -> Vec<std::ops::Range<usize>> {
    let modules = mod_declarations(text, Candidate::Inline)
        .unwrap_or_else(|| inline_modules_by_pattern(text));
    let mut out = Vec::new();
    for found in modules {
        if !attributes_above_hide(text, found.start)
            && !super::promise::declaration_withdrawn(text, found.start, found.end)
        {
            continue;
        }
        out.push(found.end..block_end(text, found.end));
    }
    out.extend(unstable_macro_blocks(text));
    out
}

/// Where the block whose body starts at `body` (just after its `{`) closes. Braces are
/// counted outside `//` comments.
pub(super) fn block_end(text: &str, body: usize) -> usize {
    let mut depth = 1usize;
    let mut in_comment = false;
    let bytes = text.as_bytes();
    let mut i = body;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => in_comment = false,
            b'/' if !in_comment && bytes.get(i + 1) == Some(&b'/') => in_comment = true,
            b'{' if !in_comment => depth += 1,
            b'}' if !in_comment => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// The bodies of macro calls named as unstable opt-ins (tokio's `cfg_unstable! { pub use
/// task_hooks::TaskMeta; }`, which puts each item behind `cfg(tokio_unstable)`): what they
/// re-export is outside the stable API, as under `#[cfg(tokio_unstable)]` itself.
fn unstable_macro_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    // Read once per changed file behind a private module and per module file above it: found
    // from each "nstable" (memchr's search), not by a regular expression over the whole text.
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for at in memchr::memmem::find_iter(bytes, b"nstable") {
        let mut start = at;
        while start > 0 && ident(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = at + "nstable".len();
        while end < bytes.len() && ident(bytes[end]) {
            end += 1;
        }
        let name = &text[start..end];
        let called = text[end..].strip_prefix('!').map(str::trim_start);
        let Some(body) = called.filter(|rest| rest.starts_with('{')) else {
            continue;
        };
        if !name.to_ascii_lowercase().contains("unstable") || out.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let open = text.len() - body.len() + 1;
        out.push(open..block_end(text, open));
    }
    out
}

/// The inline modules of `text` read with the regular expression [`mod_declarations`] scans
/// for, where it cannot.
pub(super) fn inline_modules_by_pattern(text: &str) -> Vec<ModDeclaration> {
    static INLINE_MOD: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(pub(\s*\([^)]*\))?\s+)?mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{").ok()
    });
    let Some(pattern) = INLINE_MOD.as_ref() else {
        return Vec::new();
    };
    pattern
        .captures_iter(text)
        .filter_map(|capture| {
            let whole = capture.get(0)?;
            Some(ModDeclaration {
                start: whole.start(),
                end: whole.end(),
                public: capture.get(1).is_some() && capture.get(2).is_none(),
            })
        })
        .collect()
}

/// Whether the attributes (and comments) directly above `at`, or before it on its line, hold
/// `#[doc(hidden)]`.
pub(super) fn attributes_above_hide(text: &str, at: usize) -> bool {
    hides(&attributes_above(text, at))
}

/// Whether the attributes directly above `at` hold a `cfg` no stable build of a user selects.
pub(super) fn opt_in_above(text: &str, at: usize) -> bool {
    opts_in(&attributes_above(text, at))
}

/// Whether attribute lines (as [`attributes_above`] gives them) hold `#[doc(hidden)]`.
fn hides(attributes: &[String]) -> bool {
    attributes.iter().any(|line| line.contains("doc(hidden)"))
}

/// Whether attribute lines (as [`attributes_above`] gives them) hold a `cfg` no stable build
/// of a user selects.
fn opts_in(attributes: &[String]) -> bool {
    attributes.iter().any(|line| {
        line.strip_prefix("#[cfg(")
            .and_then(|p| p.strip_suffix(")]"))
            .is_some_and(|predicate| !super::extract::stable(predicate))
    })
}

/// The attribute and comment lines directly above `at`, or before it on its line, without
/// whitespace, nearest first.
pub(super) fn attributes_above(text: &str, at: usize) -> Vec<String> {
    text[..at]
        .trim_end_matches([' ', '\t'])
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|line| line.starts_with("#[") || line.starts_with("//"))
        .map(|line| line.chars().filter(|c| !c.is_whitespace()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared_public(text: &str, name: &str) -> Option<bool> {
        Declared::read(text, name).public
    }

    /// Texts where a scan could go wrong: macros declaring modules, restricted visibility
    /// (with spaces, across lines, `pub(in ...)` naming a module), `#[doc(hidden)]` above with
    /// comments, `mod a;` in a `cfg` block, `mod` in strings and comments, names inside other
    /// names, Unicode spaces, and parentheses a `pub(` never closes.
    const TRICKY: &[&str] = &[
        "pub mod net;\nmod io;\npub(crate) mod rt;\npub(super) mod a;\npub(in crate::x) mod b;",
        "cfg_net! {\n    pub mod net;\n}\ncfg_rt! { pub(crate) mod rt { } }\n",
        "#[cfg(feature = \"net\")]\n#[cfg_attr(docsrs, doc(cfg(feature = \"net\")))]\npub mod net;",
        "// not public API\n#[doc(hidden)]\npub mod __private_api;\n\n#[doc = \"x\"]\npub mod kv;\n",
        "#[doc(hidden)] // for macros\n/// docs\n#[cfg(x)]\npub mod macros;\n    #[doc(hidden)] pub mod io;",
        "#[doc( hidden )]\n// mod net;\npub mod net;\n#[doc(hidden)]\nfn f() {}\npub mod io;",
        "#[cfg(unix)]\nmod a;\n#[cfg(not(unix))]\npub mod a;\n",
        "let s = \"pub mod net;\";\n/* mod io; */ // pub(crate) mod rt;\n",
        "mod networking;\npub mod net_util;\nmod xnet;\nxmod net;\nnotpub mod io;\npubmod rt;",
        "pub\n  mod net ;\npub  (  crate  )\n\tmod io\n{\n}\npub(\ncrate\n)mod rt;",
        "pub\u{2003}mod net;\npub(crate)\u{a0}mod io;\nmod\u{2028}rt;",
        "pub(in crate::module) mod net;\npub(in crate::model) mod io;",
        "pub( pub mod net; ) mod net;\npub(pub(crate) mod io;",
        "pub(a (b) mod net;\npub((crate) mod io;\npub ( ( mod rt;",
        "pub mod r#type;\nmod net\n;\nmod io\n{}\nmod rt",
        "#[doc(hidden)]\npub mod internal {\n    pub use program::{Program, Inst};\n    mod nested { }\n}\n\
         #[doc(hidden)] pub(crate) mod again{ } mod after {}",
        "pub(crate)mod net;pub mod io;mod rt{}pub (self) mod a{}",
    ];

    const NAMES: &[&str] = &[
        "net",
        "io",
        "rt",
        "a",
        "b",
        "macros",
        "__private_api",
        "kv",
        "internal",
        "nested",
        "again",
        "after",
        "type",
        "r#type",
        "networking",
        "net_util",
        "x",
        "ü",
    ];

    #[test]
    fn one_scan_reads_module_declarations_as_the_pattern_per_name_did() {
        for text in TRICKY {
            for name in NAMES {
                assert_eq!(
                    Declared::read(text, name),
                    Declared::by_pattern(text, name),
                    "{name:?} in {text:?}"
                );
            }
            if let Some(scanned) = mod_declarations(text, Candidate::Inline) {
                assert_eq!(scanned, inline_modules_by_pattern(text), "{text:?}");
            }
        }
        // The scanner stands aside where the pattern may read across a `pub(`.
        assert_eq!(
            mod_declarations("pub( pub mod net; ) mod net;", Candidate::Named("net")),
            None
        );
        assert_eq!(
            declared_public("pub( pub mod net; ) mod net;", "net"),
            Some(false)
        );
        assert_eq!(
            declared_public("pub(crate) mod a; pub mod a;", "a"),
            Some(true)
        );
        assert_eq!(
            declared_public("pub(in crate::module) mod a;", "a"),
            Some(false)
        );
    }

    proptest::proptest! {
        #[test]
        fn one_scan_agrees_with_the_pattern_on_any_mix_of_module_syntax(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "pub", "mod", "net", "io", "(", ")", "crate", "in", "::", ";", "{", "}",
                    " ", " ", "\n", "\t", "#[doc(hidden)]", "//", "\"", "x", "_",
                    "\u{a0}", "#[cfg(x)]", "use",
                ]),
                0..40,
            )
        ) {
            let text: String = words.concat();
            for name in ["net", "io", "x", "crate"] {
                proptest::prop_assert_eq!(
                    Declared::read(&text, name),
                    Declared::by_pattern(&text, name),
                    "{:?} in {:?}", name, text
                );
            }
            let scanned = mod_declarations(&text, Candidate::Inline)
                .unwrap_or_else(|| inline_modules_by_pattern(&text));
            proptest::prop_assert_eq!(scanned, inline_modules_by_pattern(&text), "{:?}", text);
        }
    }

    #[test]
    fn rust_module_declarations() {
        assert_eq!(declared_public("pub mod net;\nmod io;", "net"), Some(true));
        assert_eq!(declared_public("pub mod net;\nmod io;", "io"), Some(false));
        assert_eq!(declared_public("pub(crate) mod io;", "io"), Some(false));
        assert_eq!(
            declared_public("cfg_net! {\n    pub mod net;\n}", "net"),
            Some(true)
        );
        assert_eq!(declared_public("", "x"), None);
    }
}
