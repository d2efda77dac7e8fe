//! The lint a rule stands for (`clippy:panic`, `eslint:no-console`), as a rule file names it:
//! what the house's configuration enables (see [`super::house`]) and what the code suppresses
//! at a line (see [`super::suppressed`]).

/// One lint a rule stands for, as `tool:name` in a rule file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Counterpart {
    /// A clippy lint (`clippy:panic`): `[lints.clippy]` of a manifest, a crate root's
    /// `#![deny(clippy::panic)]`, or `-D clippy::panic` in the Cargo config or CI.
    Clippy(String),
    /// An ESLint rule (`eslint:no-console`), in any ESLint (or oxlint) configuration file.
    Eslint(String),
    /// A Biome rule (`biome:noConsole`), in `biome.json(c)`.
    Biome(String),
    /// A ruff or flake8 code (`ruff:T201`), selected by a prefix of it (`T20`, `T`, `ALL`).
    Ruff(String),
}

/// A counterpart a rule file names wrongly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CounterpartError {
    #[error("`{0}` is not `tool:lint` (e.g. `clippy:panic`)")]
    NotToolAndLint(String),
    #[error("unknown tool `{tool}` in `{text}`; known: clippy, eslint, biome, ruff, flake8")]
    UnknownTool { tool: String, text: String },
}

impl Counterpart {
    pub(crate) fn parse(text: &str) -> Result<Counterpart, CounterpartError> {
        let (tool, name) = text
            .split_once(':')
            .map(|(tool, name)| (tool.trim(), name.trim().trim_start_matches(':')))
            .filter(|(_, name)| !name.is_empty())
            .ok_or_else(|| CounterpartError::NotToolAndLint(text.to_string()))?;
        let name = name.to_string();
        Ok(match tool {
            "clippy" => Counterpart::Clippy(name.replace('-', "_")),
            "eslint" => Counterpart::Eslint(name),
            "biome" => Counterpart::Biome(name),
            "ruff" | "flake8" => Counterpart::Ruff(name.to_ascii_uppercase()),
            other => {
                return Err(CounterpartError::UnknownTool {
                    tool: other.to_string(),
                    text: text.to_string(),
                });
            }
        })
    }

    /// How the lint is named to a person: `clippy::panic`, `no-console`, `T201`.
    pub(crate) fn display(&self) -> String {
        match self {
            Counterpart::Clippy(name) => format!("clippy::{name}"),
            Counterpart::Eslint(name) | Counterpart::Biome(name) | Counterpart::Ruff(name) => {
                name.clone()
            }
        }
    }
}
