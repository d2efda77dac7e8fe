//! Members a macro call inside an inherent `impl` may generate (time 0.3.48's
//! `impl Day { builder_methods! { fn with_padding(padding: Padding); } }`, whose `macro_rules!`
//! writes `pub const fn $method(…)`). The call is not expanded: a `macro_rules!` of the same
//! file whose body writes `fn $name`, called with a method's name among its tokens, or writes
//! `fn name` itself, still defines that method; a macro whose definition is not in the file
//! (another crate's, one of another module) or that pastes names together may define any
//! member, so the members the type's `impl` no longer writes are unknown, not removed.

use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::api::text::{Src, named};

/// What a macro called inside an `impl` writes, as far as its definition can be read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum MacroWrites {
    /// A `macro_rules!` of the file: the names of the functions its body writes as they are
    /// (`fn len`), and whether it writes one named by a fragment of the call (`fn $method`).
    Fns {
        fixed: BTreeSet<String>,
        by_tokens: bool,
    },
    /// Not defined in the file, or writing functions whose names it pastes together: any
    /// member.
    Unknown,
}

/// One macro call inside a type's inherent `impl`, as [`generated_by_macro`] reads it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ImplMacro {
    /// The macro's name, without its path (`builder_methods`).
    pub(crate) name: String,
    /// The identifiers among the call's tokens.
    pub(crate) tokens: BTreeSet<String>,
    pub(crate) writes: MacroWrites,
}

/// The macro calls among the members of an inherent `impl`'s `body`, in `text` (the whole
/// file, where the crate's macro is defined): a call left as a call, and a call whose body
/// was spliced in as bodiless `fn` declarations (marked with the macro by `in_macro`).
pub(crate) fn impl_macros(
    members: &[(Node, Vec<String>)],
    macros_of: &dyn Fn(&[String]) -> BTreeSet<String>,
    src: Src,
) -> Vec<ImplMacro> {
    let text = String::from_utf8_lossy(src.0);
    let mut calls = Vec::new();
    for (member, attributes) in members {
        let names: BTreeSet<String> = if member.kind() == "macro_invocation" {
            src.field(*member, "macro")
                .map(|m| m.rsplit("::").next().unwrap_or(m).to_string())
                .into_iter()
                .collect()
        } else if member.kind() == "function_signature_item" {
            // `fn with_padding(padding: Padding);`, a call's body spliced in as items: a
            // method without a body cannot stand in an inherent `impl`, so it is the macro's
            // input, not its output. Items a call only wraps (`cfg_rt! { fn … { … } }`) are
            // read as the items they are.
            macros_of(attributes)
        } else {
            BTreeSet::new()
        };
        for name in names {
            let tokens = match member.kind() {
                "macro_invocation" => named(*member)
                    .into_iter()
                    .find(|n| n.kind() == "token_tree")
                    .map(|body| identifiers(src.raw(body)))
                    .unwrap_or_default(),
                _ => identifiers(src.raw(*member)),
            };
            let writes = writes_of(&name, &text);
            calls.push(ImplMacro {
                name,
                tokens,
                writes,
            });
        }
    }
    calls
}

/// The calls whose macro the file does not define, read again from `texts`, where the crate
/// keeps its macros (`src/lib.rs`, `src/macros.rs`): the first definition found decides.
pub(crate) fn read_from_crate(
    calls: &mut std::collections::BTreeMap<String, Vec<ImplMacro>>,
    texts: &[String],
) {
    for call in calls.values_mut().flatten() {
        if call.writes != MacroWrites::Unknown {
            continue;
        }
        if let Some(text) = texts.iter().find(|t| definition(&call.name, t).is_some()) {
            call.writes = writes_of(&call.name, text);
        }
    }
}

/// How the head still defines the removed method `key` (`Type::method`) through a macro its
/// type's `impl` calls, as a compatible or undecided change's reason; `None` when no call may.
pub(crate) fn generated_by_macro(
    key: &str,
    calls: &std::collections::BTreeMap<String, Vec<ImplMacro>>,
) -> Option<(bool, String)> {
    let (owner, method) = key.rsplit_once("::")?;
    let calls = calls.get(owner)?;
    if let Some(call) = calls.iter().find(|c| match &c.writes {
        MacroWrites::Fns { fixed, by_tokens } => {
            fixed.contains(method) || (*by_tokens && c.tokens.contains(method))
        }
        MacroWrites::Unknown => false,
    }) {
        return Some((
            true,
            format!(
                "still generated inside `impl {owner}` by the crate's macro `{}!` (the \
                 generated signature is not compared)",
                call.name
            ),
        ));
    }
    let unknown: Vec<String> = calls
        .iter()
        .filter(|c| c.writes == MacroWrites::Unknown)
        .map(|c| format!("`{}!`", c.name))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    (!unknown.is_empty()).then(|| {
        (
            false,
            format!(
                "not found as written; `impl {owner}` calls {}, whose expansion is not read: \
                 the members it generates are unknown, so it may still be defined",
                unknown.join(", ")
            ),
        )
    })
}

/// The identifiers of a token text (`fn with_padding(padding: Padding);` gives `fn`,
/// `with_padding`, `padding`, `Padding`).
fn identifiers(text: &str) -> BTreeSet<String> {
    static IDENT: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").ok());
    IDENT
        .as_ref()
        .map(|re| re.find_iter(text).map(|m| m.as_str().to_string()).collect())
        .unwrap_or_default()
}

/// What the `macro_rules! name` defined in `text` writes (see [`MacroWrites`]).
fn writes_of(name: &str, text: &str) -> MacroWrites {
    static FN: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\bfn\s+(\$?)([A-Za-z_][A-Za-z0-9_]*)").ok()
    });
    let (Some(body), Some(pattern)) = (definition(name, text), FN.as_ref()) else {
        return MacroWrites::Unknown;
    };
    // A name pasted together (`[<with_ $field>]`) is no token of the call.
    if body.contains("[<") || body.contains("paste!") || body.contains("concat_idents!") {
        return MacroWrites::Unknown;
    }
    let mut fixed = BTreeSet::new();
    let mut by_tokens = false;
    for found in pattern.captures_iter(body) {
        if found
            .get(1)
            .is_some_and(|dollar| !dollar.as_str().is_empty())
        {
            by_tokens = true;
        } else if let Some(name) = found.get(2) {
            fixed.insert(name.as_str().to_string());
        }
    }
    MacroWrites::Fns { fixed, by_tokens }
}

/// The text between the braces (or brackets, parentheses) of `macro_rules! name` in `text`.
fn definition<'t>(name: &str, text: &'t str) -> Option<&'t str> {
    let pattern = regex::Regex::new(&format!(
        r"macro_rules!\s*{}\s*[{{(\[]",
        regex::escape(name)
    ))
    .ok()?;
    let found = pattern.find(text)?;
    let open = found.end() - 1;
    let (opening, closing) = match text.as_bytes()[open] {
        b'{' => (b'{', b'}'),
        b'(' => (b'(', b')'),
        _ => (b'[', b']'),
    };
    let mut depth = 0usize;
    for (at, byte) in text.as_bytes()[open..].iter().enumerate() {
        if *byte == opening {
            depth += 1;
        } else if *byte == closing {
            depth -= 1;
            if depth == 0 {
                return text.get(open + 1..open + at);
            }
        }
    }
    None
}
