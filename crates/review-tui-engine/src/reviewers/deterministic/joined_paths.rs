//! A path written as parts joined in one expression names the same file as the path written
//! whole: `dir.join("certs").join("key.pem")`, `Path("certs") / "key.pem"`,
//! `os.path.join(here, "certs", "key.pem")`, `filepath.Join("certs", "key.pem")`,
//! `Paths.get("certs", "key.pem")`, on one line or spread over the lines of the expression.

/// The lines (0-based) of `code` (a file's text with its comment lines blanked) where string
/// literals joined as path parts end a tail of `parts` (a path's components) of at least two
/// components. Literals chain only across glue that joins them within one expression
/// ([`joining_glue`]): a call's `).join(`, an argument list's `, `, a `/` operator, a line
/// break of a chained call; never a statement's end, a block or an assignment, so two
/// unrelated literals far apart in a file do not make a path.
pub(super) fn joined_path_lines(code: &str, parts: &[&str]) -> Vec<usize> {
    let literals = string_literals(code);
    let mut lines = Vec::new();
    for (last, literal) in literals.iter().enumerate() {
        let Some(mut joined) = components(&literal.text) else {
            continue;
        };
        if !is_tail(&joined, parts) {
            continue;
        }
        let mut pieces = 1;
        let mut next = literal;
        for earlier in literals[..last].iter().rev() {
            if !joining_glue(&code[earlier.end..next.start]) {
                break;
            }
            let Some(mut before) = components(&earlier.text) else {
                break;
            };
            before.extend(joined.iter().cloned());
            if !is_tail(&before, parts) {
                break;
            }
            joined = before;
            pieces += 1;
            next = earlier;
        }
        if pieces > 1 && joined.len() >= 2 {
            lines.push(literal.line);
        }
    }
    lines
}

/// A string literal of the text: its content, where it lies and the line it ends on.
struct Literal {
    text: String,
    start: usize,
    end: usize,
    line: usize,
}

/// The single-line string literals of `code`, quoted `"…"`, `'…'` or `` `…` `` (escapes
/// skipped). A quote that no quote closes on its line (a Rust lifetime, an apostrophe) opens
/// nothing.
fn string_literals(code: &str) -> Vec<Literal> {
    let bytes = code.as_bytes();
    let mut literals = Vec::new();
    let (mut at, mut line) = (0, 0);
    while at < bytes.len() {
        let quote = bytes[at];
        if quote == b'\n' {
            line += 1;
        }
        if !matches!(quote, b'"' | b'\'' | b'`') {
            at += 1;
            continue;
        }
        let mut end = at + 1;
        while end < bytes.len() && bytes[end] != quote && bytes[end] != b'\n' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        if end < bytes.len() && bytes[end] == quote {
            literals.push(Literal {
                text: code[at + 1..end].to_string(),
                start: at,
                end: end + 1,
                line,
            });
            at = end + 1;
        } else {
            at += 1;
        }
    }
    literals
}

/// The path components a literal holds (`"./certs/"` holds `certs`), or none when it is no
/// path part: empty, or climbing (`..`), which names a folder relative to another.
fn components(text: &str) -> Option<Vec<String>> {
    let parts: Vec<String> = text
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
        .map(str::to_string)
        .collect();
    let plain = !parts.is_empty() && parts.iter().all(|p| p != ".." && !p.contains(' '));
    plain.then_some(parts)
}

/// Whether `joined` are the last components of `parts`.
fn is_tail(joined: &[String], parts: &[&str]) -> bool {
    joined.len() <= parts.len()
        && parts[parts.len() - joined.len()..]
            .iter()
            .zip(joined)
            .all(|(part, piece)| *part == piece)
}

/// Text between two literals that joins them as parts of one path: a call's punctuation
/// (`).join(`, `, `, `) / `, `).resolve(`), a line break of a chained call, at most two
/// method names (each right after a `.` or `::`: a method of the path being built) and at
/// most two line breaks. Statement ends, blocks and assignments (`;`, `{`, `}`, `=`) end the
/// expression; a free name (`read("certs"), write("key.pem")`: another call) parts it.
fn joining_glue(glue: &str) -> bool {
    if glue.len() > 80 || glue.matches('\n').count() > 2 {
        return false;
    }
    // The next literal's prefix (`r"…"`, `f'…'`, `b"…"`) is part of it, not a name.
    let prefix = glue
        .chars()
        .rev()
        .take_while(|c| "rbfuRBFU".contains(*c))
        .count();
    let glue = match glue.len().checked_sub(prefix) {
        Some(at)
            if prefix <= 2 && !glue[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') =>
        {
            &glue[..at]
        }
        _ => glue,
    };
    let punctuation = |c: char| c.is_whitespace() || "(),./+:[]\\&*!".contains(c);
    let name = |c: char| c.is_alphanumeric() || c == '_';
    if !glue.chars().all(|c| punctuation(c) || name(c)) {
        return false;
    }
    let mut names = 0;
    let mut after = ' ';
    let mut in_name = false;
    for c in glue.chars() {
        if name(c) && !in_name {
            if !matches!(after, '.' | ':') {
                return false;
            }
            names += 1;
        }
        in_name = name(c);
        after = c;
    }
    names <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[&str] = &["examples", "tls-demo", "self_signed_certs", "key.pem"];

    /// The path parts of one expression name the key like its path written whole, in every
    /// language's way of joining them; literals of different statements, an argument that
    /// climbs out of a folder, or parts out of order do not.
    #[test]
    fn literals_joined_in_one_expression_name_the_path_they_make() {
        let named = |code: &str| !joined_path_lines(code, KEY).is_empty();
        for code in [
            "RustlsConfig::from_pem_file(\n    PathBuf::from(env!(\"CARGO_MANIFEST_DIR\")).join(\"self_signed_certs\").join(\"cert.pem\"),\n    PathBuf::from(env!(\"CARGO_MANIFEST_DIR\"))\n        .join(\"self_signed_certs\")\n        .join(\"key.pem\"),\n)",
            "key = Path(__file__).parent / \"self_signed_certs\" / \"key.pem\"",
            "key = os.path.join(HERE, 'self_signed_certs', 'key.pem')",
            "key := filepath.Join(\"self_signed_certs\", \"key.pem\")",
            "key = os.path.join(r'self_signed_certs', r'key.pem')",
            "const key = path.join(__dirname, `self_signed_certs`, `key.pem`);",
            "Path key = Paths.get(\"tls-demo\", \"self_signed_certs/key.pem\");",
        ] {
            assert!(named(code), "{code}");
        }
        assert_eq!(
            joined_path_lines(
                "a\nx.join(\"self_signed_certs\")\n  .join(\"key.pem\")\n",
                KEY
            ),
            vec![2]
        );
        for code in [
            // One part alone, or the whole path in one literal (the line reader's case).
            "read(\"key.pem\")",
            "read(\"self_signed_certs/key.pem\")",
            // Different statements, an assignment between, parts out of order.
            "let dir = \"self_signed_certs\";\nlet key = \"key.pem\";",
            "dir = \"self_signed_certs\"\nkey = \"key.pem\"",
            "os.path.join(\"key.pem\", \"self_signed_certs\")",
            // Another folder's key of the same name, a folder climbed out of.
            "os.path.join(\"other_certs\", \"key.pem\")",
            "os.path.join(\"self_signed_certs\", \"..\", \"key.pem\")",
            // Two calls side by side.
            "f(read(\"self_signed_certs\"), read(\"key.pem\"))",
            // Far apart in one file.
            "f(\"self_signed_certs\")\nfn a() {}\nfn b() {}\nf(\"key.pem\")",
        ] {
            assert!(!named(code), "{code}");
        }
    }
}
