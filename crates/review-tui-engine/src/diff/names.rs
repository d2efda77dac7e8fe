//! File names as diff headers write them: C-quoted, prefixed (`a/`, `b/`, or none), and in the
//! space-separated `diff --git` line where the names themselves may contain spaces.

/// Decodes a C-style quoted name (`"a/sp ace\303\251.txt"`) starting at the opening quote.
/// Returns the decoded name and how many bytes of `text` it used; `None` if it is not one.
pub(crate) fn unquote(text: &str) -> Option<(String, usize)> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), i + 1)),
            b'\\' => {
                let escaped = *bytes.get(i + 1)?;
                i += 2;
                let byte = match escaped {
                    b'a' => 0x07,
                    b'b' => 0x08,
                    b'f' => 0x0c,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'v' => 0x0b,
                    b'"' | b'\\' => escaped,
                    b'0'..=b'3' => {
                        // Git writes every non-ASCII byte as exactly three octal digits.
                        let digits = bytes.get(i..i + 2)?;
                        if !digits.iter().all(|d| (b'0'..=b'7').contains(d)) {
                            return None;
                        }
                        i += 2;
                        ((escaped - b'0') << 6) | ((digits[0] - b'0') << 3) | (digits[1] - b'0')
                    }
                    _ => return None,
                };
                out.push(byte);
            }
            other => {
                out.push(other);
                i += 1;
            }
        }
    }
    None
}

/// The name on a `---`/`+++` line: quoted or not, without the tab-separated timestamp that
/// diff(1), hg and bzr append (git appends a bare tab to names containing spaces).
pub(crate) fn header_name(text: &str) -> String {
    if let Some((name, _)) = unquote(text) {
        return name;
    }
    let name = text.split('\t').next().unwrap_or(text);
    name.trim_end_matches([' ', '\r']).to_owned()
}

pub(crate) const DEV_NULL: &str = "/dev/null";

/// Both names of a `diff --git <old> <new>` line, with their prefixes removed.
///
/// Unquoted names may contain spaces, so the split is only trusted when both halves name the
/// same path (which git guarantees unless the file was renamed or copied, and then the
/// `rename from`/`copy from` lines carry the names instead).
pub(crate) fn git_header_names(rest: &str) -> Option<(String, String)> {
    if rest.starts_with('"') {
        let (old, used) = unquote(rest)?;
        let new_raw = rest[used..].strip_prefix(' ')?;
        let new = match unquote(new_raw) {
            Some((name, used)) if used == new_raw.len() => name,
            Some(_) => return None,
            None => new_raw.to_owned(),
        };
        return Some(strip_prefixes(&old, &new));
    }
    if rest.ends_with('"') {
        // Only the new name is quoted. Inside a quoted name a quote is always escaped, so the
        // name starts at one of the last ` "`; a few tries bound the work on hostile input.
        for (space, _) in rest.rmatch_indices(" \"").take(4) {
            if let Some((new, used)) = unquote(&rest[space + 1..])
                && space + 1 + used == rest.len()
            {
                return Some(strip_prefixes(&rest[..space], &new));
            }
        }
        return None;
    }
    // Equal-length prefixes (`a/` `b/`, none, `src://` `dst://`) put the split in the middle.
    if rest.len() % 2 == 1 {
        let middle = rest.len() / 2;
        if rest.as_bytes()[middle] == b' ' {
            let (old, new) = (&rest[..middle], &rest[middle + 1..]);
            if let Some(path) = common_path(old, new) {
                return Some((path.to_owned(), path.to_owned()));
            }
        }
    }
    // A rename without spaces: `diff --git a/old b/new`.
    let (old, new) = rest.split_once(' ')?;
    if new.contains(' ') {
        return None;
    }
    Some(strip_prefixes(old, new))
}

/// Removes the conventional `a/` and `b/` prefixes when both names carry them.
pub(crate) fn strip_prefixes(old: &str, new: &str) -> (String, String) {
    if let Some(path) = common_path(old, new) {
        return (path.to_owned(), path.to_owned());
    }
    match (old.strip_prefix("a/"), new.strip_prefix("b/")) {
        (Some(old), Some(new)) => (old.to_owned(), new.to_owned()),
        _ => (old.to_owned(), new.to_owned()),
    }
}

/// The path two prefixed names share: the names themselves when equal (a `--no-prefix` diff),
/// or the longest common tail that follows a `/` in both (`a/x` and `b/x`, `src://x` and
/// `dst://x`).
fn common_path<'a>(old: &'a str, new: &str) -> Option<&'a str> {
    if old == new {
        return (!old.is_empty()).then_some(old);
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let shared = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (1..=shared).rev().find_map(|len| {
        let (start_a, start_b) = (a.len() - len, b.len() - len);
        let after_slash =
            start_a > 0 && start_b > 0 && a[start_a - 1] == b'/' && b[start_b - 1] == b'/';
        (after_slash && a[start_a] != b'/').then(|| &old[start_a..])
    })
}

/// Strips `a/` (old side) or `b/` (new side) from a `---`/`+++` name of a plain unified diff,
/// but only when the other side agrees, so `--- foo/x` `+++ bar/x` stay as written.
pub(crate) fn plain_names(old: &str, new: &str) -> (String, String) {
    let old_ok = old == DEV_NULL || old.starts_with("a/");
    let new_ok = new == DEV_NULL || new.starts_with("b/");
    if old_ok && new_ok && !(old == DEV_NULL && new == DEV_NULL) {
        let strip = |name: &str| {
            name.get(2..)
                .filter(|_| name != DEV_NULL)
                .unwrap_or(name)
                .to_owned()
        };
        return (strip(old), strip(new));
    }
    (old.to_owned(), new.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquotes_octal_utf8_and_c_escapes() {
        let (name, used) = unquote(r#""a/sp ace\303\251.txt" rest"#).unwrap();
        assert_eq!(name, "a/sp aceé.txt");
        assert_eq!(used, 22);
        assert_eq!(unquote(r#""t\tab\\q\"n\n""#).unwrap().0, "t\tab\\q\"n\n");
        assert_eq!(unquote(r#""unterminated"#), None);
        assert_eq!(unquote(r#""bad \q escape""#), None);
        assert_eq!(unquote(r#""short \30""#), None);
        assert_eq!(unquote("plain"), None);
    }

    #[test]
    fn header_names_drop_timestamps_and_quotes() {
        assert_eq!(header_name("a/x.c\t2013-10-13 23:53:13 +0000"), "a/x.c");
        assert_eq!(header_name("b/has spaces/t.sql\t"), "b/has spaces/t.sql");
        assert_eq!(header_name(r#""b/A \303\242 B.py""#), "b/A â B.py");
        assert_eq!(header_name("/dev/null"), DEV_NULL);
    }

    #[test]
    fn git_header_splits() {
        let same = |p: &str| Some((p.to_owned(), p.to_owned()));
        assert_eq!(git_header_names("a/x b/x"), same("x"));
        assert_eq!(
            git_header_names("a/has spaces/t.sql b/has spaces/t.sql"),
            same("has spaces/t.sql")
        );
        assert_eq!(git_header_names("file1 file1"), same("file1"));
        assert_eq!(git_header_names("a b c a b c"), same("a b c"));
        assert_eq!(
            git_header_names("src://foo bar/baz dst://foo bar/baz"),
            same("foo bar/baz")
        );
        assert_eq!(
            git_header_names(r#""a/A \303\242 B.py" "b/A \303\242 B.py""#),
            same("A â B.py")
        );
        assert_eq!(
            git_header_names(r#"a/x "b/y\303\251""#),
            Some(("x".into(), "yé".into()))
        );
        assert_eq!(
            git_header_names("a/old b/new"),
            Some(("old".into(), "new".into()))
        );
        assert_eq!(git_header_names("a/old x b/new y"), None);
        assert_eq!(git_header_names("single"), None);
        assert_eq!(git_header_names(r#""unterminated b/x"#), None);
    }

    #[test]
    fn plain_names_strip_only_matching_git_style_prefixes() {
        assert_eq!(plain_names("a/x", "b/x"), ("x".into(), "x".into()));
        assert_eq!(plain_names(DEV_NULL, "b/x"), (DEV_NULL.into(), "x".into()));
        assert_eq!(plain_names("a/x", DEV_NULL), ("x".into(), DEV_NULL.into()));
        assert_eq!(
            plain_names("orig/x", "new/x"),
            ("orig/x".into(), "new/x".into())
        );
        assert_eq!(plain_names("x", "x"), ("x".into(), "x".into()));
    }
}
