//! `[[context.mcp]]`: the MCP servers whose tools the model reviewers may call for context
//! beyond the repository (a ticket, an API's documentation). User file only: a server is a
//! command run on the reviewer's machine or a URL its reviewers talk to, and a pull request must
//! not be able to add one through the repository's file.

use std::time::Duration;

use serde::Deserialize;

/// How long one call to a source may take when its entry names no `timeout`.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// `[context]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextLayer {
    #[serde(default)]
    pub mcp: Vec<McpSource>,
}

/// One `[[context.mcp]]` entry, as written.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpSource {
    /// Names the source in tool names, origins (`mcp:<name>/<tool>`) and notes.
    pub name: String,
    /// A stdio server: the program and its arguments (run without a shell).
    pub command: Option<String>,
    #[serde(default)]
    pub args: Vec<String>,
    /// A streamable HTTP server.
    pub url: Option<String>,
    /// The tools the reviewers may call; none until named.
    #[serde(default)]
    pub tools: Vec<String>,
    /// Environment variables passed through to a stdio server (it gets a clean environment
    /// otherwise: `PATH`, `HOME` and these).
    #[serde(default)]
    pub env: Vec<String>,
    /// How long the start and each call may take (`"30s"`, `"2m"`).
    pub timeout: Option<String>,
    /// A source whose failure makes the review Inconclusive rather than a note.
    #[serde(default)]
    pub required: bool,
}

impl McpSource {
    /// The entry's timeout, checked when the file is read.
    pub fn timeout(&self) -> Duration {
        self.timeout
            .as_deref()
            .and_then(|t| humantime::parse_duration(t.trim()).ok())
            .unwrap_or(DEFAULT_TIMEOUT)
    }

    /// What is wrong with the entry, as (key, why).
    fn check(&self, index: usize) -> Result<(), (String, String)> {
        let key = |field: &str| format!("context.mcp.{index}.{field}");
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 32
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !name_ok {
            return Err((
                key("name"),
                "must be 1 to 32 letters, digits, '-' or '_' (it names the source's tools)".into(),
            ));
        }
        match (&self.command, &self.url) {
            (Some(_), Some(_)) => {
                return Err((
                    key("url"),
                    "give either command (a stdio server) or url (an HTTP server), not both".into(),
                ));
            }
            (None, None) => {
                return Err((
                    key("name"),
                    "needs command (a stdio server) or url (an HTTP server)".into(),
                ));
            }
            (Some(command), None) if command.trim().is_empty() => {
                return Err((key("command"), "is empty".into()));
            }
            (None, Some(url)) if !(url.starts_with("http://") || url.starts_with("https://")) => {
                return Err((key("url"), "must start with http:// or https://".into()));
            }
            _ => {}
        }
        if let Some(timeout) = &self.timeout {
            match humantime::parse_duration(timeout.trim()) {
                Ok(t) if !t.is_zero() => {}
                _ => {
                    return Err((
                        key("timeout"),
                        format!("{timeout:?} is not a duration such as \"30s\" or \"2m\""),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl ContextLayer {
    /// Every entry well formed, and no two with one name.
    pub fn check(&self) -> Result<(), (String, String)> {
        for (index, source) in self.mcp.iter().enumerate() {
            source.check(index)?;
            if self.mcp[..index].iter().any(|s| s.name == source.name) {
                return Err((
                    format!("context.mcp.{index}.name"),
                    format!("{:?} names two sources", source.name),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Layer;

    #[test]
    fn an_entry_needs_one_transport_and_a_duration() {
        let ok = Layer::parse(
            "[[context.mcp]]\nname = \"tickets\"\ncommand = \"tickets-mcp\"\ntools = [\"get_issue\"]\ntimeout = \"5s\"\n",
            "config.toml",
        )
        .unwrap();
        let source = &ok.context.unwrap().mcp[0];
        assert_eq!(source.timeout(), std::time::Duration::from_secs(5));
        assert!(!source.required);

        for (text, says) in [
            ("[[context.mcp]]\nname = \"t\"\n", "needs command"),
            (
                "[[context.mcp]]\nname = \"t\"\ncommand = \"x\"\nurl = \"http://a\"\n",
                "not both",
            ),
            (
                "[[context.mcp]]\nname = \"a b\"\ncommand = \"x\"\n",
                "letters",
            ),
            (
                "[[context.mcp]]\nname = \"t\"\ncommand = \"x\"\ntimeout = \"soon\"\n",
                "not a duration",
            ),
            (
                "[[context.mcp]]\nname = \"t\"\nurl = \"ftp://x\"\n",
                "http://",
            ),
            (
                "[[context.mcp]]\nname = \"t\"\ncommand = \"x\"\n[[context.mcp]]\nname = \"t\"\ncommand = \"y\"\n",
                "names two sources",
            ),
        ] {
            let error = Layer::parse(text, "config.toml").unwrap_err().to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
    }
}
