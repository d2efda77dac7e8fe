//! `review-tui config show`: the user's configuration as it is in effect, each value with where
//! it comes from (a line of the file, or the built-in default), and key names as people write
//! them in errors (`[models] concurrency`).

use std::fmt::Write as _;
use std::path::Path;

use toml::de::{DeTable, DeValue};

use super::{Config, ConfigError, read_layer};

/// A dotted key as written in the file: `models.roles.engineer.model` → `[models.roles.engineer]
/// model: `; a top-level key → `theme: `; no key → nothing.
pub(crate) fn key_name(dotted: &str) -> String {
    let dotted = dotted.trim_matches('.');
    match dotted.rsplit_once('.') {
        _ if dotted.is_empty() => String::new(),
        Some((table, key)) => format!("[{table}] {key}: "),
        None => format!("{dotted}: "),
    }
}

/// `line N, ` of the value of a dotted key in `text`, or nothing when it cannot be found.
pub(crate) fn line_of_key(text: &str, dotted: &str) -> String {
    let Ok(table) = DeTable::parse(text) else {
        return String::new();
    };
    let mut leaves = Vec::new();
    walk(table.get_ref(), "", text, &mut leaves);
    leaves
        .into_iter()
        .find(|leaf| leaf.key == dotted)
        .map(|leaf| format!("line {}, ", leaf.line))
        .unwrap_or_default()
}

struct Leaf {
    key: String,
    line: usize,
    raw: String,
}

fn walk(table: &DeTable<'_>, prefix: &str, text: &str, out: &mut Vec<Leaf>) {
    for (key, value) in table.iter() {
        let dotted = if prefix.is_empty() {
            key.get_ref().to_string()
        } else {
            format!("{prefix}.{}", key.get_ref())
        };
        match value.get_ref() {
            DeValue::Table(inner) => walk(inner, &dotted, text, out),
            _ => {
                let span = value.span();
                let start = span.start.min(text.len());
                out.push(Leaf {
                    key: dotted,
                    line: text[..start].matches('\n').count() + 1,
                    raw: text
                        .get(span)
                        .unwrap_or("")
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                });
            }
        }
    }
}

/// The defaults a person most often changes, as they would be written in the file.
fn defaults() -> Vec<(&'static str, String)> {
    let config = Config::default();
    vec![
        ("level", format!("{:?}", config.level.as_str())),
        ("theme", format!("{:?}", config.theme)),
        (
            "publish.approve_on_ship",
            config.approve_on_ship.to_string(),
        ),
        ("presentation.collapse", "[]".into()),
        ("rules.disable", "[]".into()),
        ("github.request_timeout", "\"60s\"".into()),
        ("github.max_attempts", "4".into()),
        ("github.backoff", "\"1s\"".into()),
        ("github.max_wait", "\"60s\"".into()),
        ("models.concurrency", "5".into()),
        ("models.reviewer_timeout", "\"10m\"".into()),
        ("models.request_timeout", "\"5m\"".into()),
        ("models.max_attempts", "4".into()),
        ("models.backoff", "\"2s\"".into()),
    ]
}

/// The configuration in effect for `path` (the user's file), one `key = value  # origin` line
/// per value: the file's own values with their line, then the defaults it leaves in place.
pub fn show(path: Option<&Path>) -> Result<String, ConfigError> {
    let mut out = String::new();
    let mut leaves = Vec::new();
    let mut sources = Vec::new();
    match path {
        Some(path) => {
            // Parsed as a layer first, so a broken file gets the same error as a review would.
            let layer = read_layer(path)?;
            let found = layer.is_some();
            sources = layer
                .and_then(|l| l.context)
                .map(|c| c.mcp)
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "# user config file: {} ({})",
                path.display(),
                if found {
                    "found"
                } else {
                    "not found: built-in defaults only"
                }
            );
            if found {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.display().to_string(),
                    source,
                })?;
                if let Ok(table) = DeTable::parse(&text) {
                    walk(table.get_ref(), "", &text, &mut leaves);
                }
                // A context source's arguments and address may hold a secret: its entries
                // are described below, never printed as written.
                leaves.retain(|leaf| !leaf.key.starts_with("context"));
                for leaf in &leaves {
                    let _ = writeln!(
                        out,
                        "{} = {}  # {}:{}",
                        leaf.key,
                        crate::printable::line(&leaf.raw),
                        path.display(),
                        leaf.line
                    );
                }
            }
        }
        None => out.push_str("# no config directory on this platform: set REVIEW_TUI_CONFIG\n"),
    }
    for source in &sources {
        let _ = writeln!(out, "{}", describe(source));
    }
    for (key, value) in defaults() {
        if !leaves.iter().any(|leaf| leaf.key == key) {
            let _ = writeln!(out, "{key} = {value}  # built-in default");
        }
    }
    out.push_str(
        "# a repository's .review-tui.toml, read from each PR's base branch, is laid over \
         this (it may not set [models], [prompts], [github] or [fix])\n",
    );
    Ok(out)
}

/// One `[[context.mcp]]` entry as `config show` lists it: its name, transport, tools, the
/// names of the variables it is given and whether it is required. Never its arguments (a
/// `--token=…` is an argument), the values of its variables, or more of its URL than the
/// scheme, host and port (a query or a user part can carry a key).
fn describe(source: &super::McpSource) -> String {
    let transport = match (&source.command, &source.url) {
        (Some(command), _) => format!(
            "stdio ({}, {} argument(s) not shown)",
            crate::printable::line(command),
            source.args.len()
        ),
        (None, Some(url)) => match reqwest::Url::parse(url) {
            Ok(url) => format!(
                "http ({}://{}{}, the rest of the address not shown)",
                url.scheme(),
                url.host_str().unwrap_or(""),
                url.port().map(|p| format!(":{p}")).unwrap_or_default()
            ),
            Err(_) => "http (the address is not a URL)".into(),
        },
        (None, None) => "no transport".into(),
    };
    let list = |names: &[String]| {
        if names.is_empty() {
            "none".to_string()
        } else {
            crate::printable::line(&names.join(", ")).into_owned()
        }
    };
    format!(
        "# context source {}: {transport}; tools: {}; env: {} (values not shown); required: {}; \
         timeout: {}",
        crate::printable::line(&source.name),
        list(&source.tools),
        list(&source.env),
        if source.required { "yes" } else { "no" },
        humantime::format_duration(source.timeout()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_named_as_written() {
        assert_eq!(key_name("models.concurrency"), "[models] concurrency: ");
        assert_eq!(key_name("theme"), "theme: ");
        assert_eq!(key_name("."), "");
        assert_eq!(
            key_name("models.roles.engineer.model"),
            "[models.roles.engineer] model: "
        );
    }

    #[test]
    fn show_gives_each_value_its_line_and_fills_in_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "theme = \"light\"\n\n[github]\nmax_attempts = 2\n").unwrap();
        let shown = show(Some(&path)).unwrap();
        assert!(shown.contains("theme = \"light\"  # "), "{shown}");
        assert!(shown.contains("config.toml:1"), "{shown}");
        assert!(shown.contains("github.max_attempts = 2  # "), "{shown}");
        assert!(shown.contains("config.toml:4"), "{shown}");
        assert!(
            shown.contains("level = \"balanced\"  # built-in default"),
            "{shown}"
        );
        assert!(!shown.contains("theme = \"dark\""), "{shown}");
    }

    #[test]
    fn context_sources_are_listed_without_their_secrets() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "[[context.mcp]]\nname = \"tickets\"\ncommand = \"ticket-mcp\"\n\
             args = [\"--token=s3cr3t-arg\"]\ntools = [\"get_issue\"]\nenv = [\"TICKET_TOKEN\"]\n\
             required = true\n\n[[context.mcp]]\nname = \"docs\"\n\
             url = \"https://user:pw@docs.example:8443/mcp?key=s3cr3t-url\"\n",
        )
        .unwrap();
        let shown = show(Some(&path)).unwrap();
        assert!(
            shown.contains(
                "# context source tickets: stdio (ticket-mcp, 1 argument(s) not shown); \
                 tools: get_issue; env: TICKET_TOKEN (values not shown); required: yes"
            ),
            "{shown}"
        );
        assert!(
            shown.contains("# context source docs: http (https://docs.example:8443, the rest"),
            "{shown}"
        );
        assert!(shown.contains("tools: none"), "{shown}");
        for secret in ["s3cr3t", "pw@", "user:"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
    }
}
