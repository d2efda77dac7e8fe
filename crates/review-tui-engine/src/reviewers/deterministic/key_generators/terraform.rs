//! The key files a Terraform configuration writes: a `local_file` (or `local_sensitive_file`)
//! resource whose content is the private key of a `tls_private_key` resource, written to its
//! `filename`. A `local_file` whose content comes from anywhere else (`file("prod.key")`, a
//! variable) writes a key it did not make, and names nothing here.

/// The filenames, as written, of the keys `config` generates and writes.
pub(super) fn written_keys(config: &str) -> Vec<String> {
    let config = without_comments(config);
    let mut written = Vec::new();
    let mut rest = config.as_str();
    while let Some(at) = rest.find("resource") {
        rest = &rest[at + "resource".len()..];
        let header = rest.split('{').next().unwrap_or("");
        let kind = header.split('"').nth(1).unwrap_or("");
        if !matches!(kind, "local_file" | "local_sensitive_file") {
            continue;
        }
        let Some(body) = block_body(&rest[header.len()..]) else {
            continue;
        };
        let generated = ["content", "sensitive_content"].iter().any(|name| {
            attribute(body, name).is_some_and(|value| {
                let value = value.trim();
                value.starts_with("tls_private_key.") && value.contains(".private_key_")
            })
        });
        let filename = attribute(body, "filename").and_then(string_literal);
        if let (true, Some(filename)) = (generated, filename) {
            written.push(filename);
        }
    }
    written
}

/// The configuration without `#`, `//` and `/* */` comments (outside strings).
fn without_comments(config: &str) -> String {
    let mut out = String::with_capacity(config.len());
    let mut chars = config.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '#' => skip_line(&mut chars, &mut out),
            '/' if chars.peek() == Some(&'/') => skip_line(&mut chars, &mut out),
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn skip_line(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) {
    for c in chars.by_ref() {
        if c == '\n' {
            out.push('\n');
            break;
        }
    }
}

/// The text between the first `{` of `text` and its matching `}`.
fn block_body(text: &str) -> Option<&str> {
    let open = text.find('{')?;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in text[open..].char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[open + 1..open + at]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The value of the top-level attribute `name = value` of a block's body (to the end of its
/// line).
fn attribute<'a>(body: &'a str, name: &str) -> Option<&'a str> {
    body.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == name).then_some(value.trim())
    })
}

/// A quoted string without interpolation other than the module's own folder
/// (`"${path.module}/../server.key"` is `../server.key` beside the configuration).
fn string_literal(value: &str) -> Option<String> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    let inner = inner.strip_prefix("${path.module}/").unwrap_or(inner);
    (!inner.contains(['$', '"', '\\', '*'])).then(|| inner.to_string())
}
