//! `[api_contract]`: the paths and languages whose public API is declared advisory, where the
//! apiContract axis warns instead of gating.
//!
//! A repository that does not promise a compatible API for part of its code (scripts, a
//! language whose surface no parser reads yet) says so in its `.review-tui.toml`, which is
//! read from the base: a PR cannot declare its own change advisory. A person may say the same
//! in their own file, for their own runs. Nothing is advisory unless declared, and every report
//! names who declared it.

use serde::Deserialize;

use crate::diff::Language;
use crate::path_glob::Glob;

/// `[api_contract]` as written in a file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiContractLayer {
    /// Path globs (`"scripts/**"`, `"*.lua"`), as `[rules] skip` writes them.
    #[serde(default)]
    pub advisory: Vec<String>,
    /// Language names (`"lua"`, `"swift"`), as reports write them.
    #[serde(default)]
    pub advisory_languages: Vec<String>,
}

/// Who declared an advisory: the repository or the person running the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AdvisoryScope {
    Repository,
    Person,
}

impl AdvisoryScope {
    /// Who chose it, as the reports say it.
    pub fn who(self) -> &'static str {
        match self {
            AdvisoryScope::Repository => "the repository's .review-tui.toml (on the base branch)",
            AdvisoryScope::Person => "the reviewer's own config file",
        }
    }
}

/// What an advisory covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Path(Glob),
    Language(Language),
}

/// One declaration: these files' API is advisory, by `declared_by`'s choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advisory {
    pub selector: Selector,
    pub declared_by: AdvisoryScope,
}

impl Advisory {
    pub fn covers(&self, path: &str, language: Language) -> bool {
        match &self.selector {
            Selector::Path(glob) => glob.matches(path),
            Selector::Language(declared) => *declared == language,
        }
    }

    /// `` `scripts/**` `` or `lua files`.
    pub fn describe(&self) -> String {
        match &self.selector {
            Selector::Path(glob) => format!("`{glob}`"),
            Selector::Language(language) => format!("{language} files"),
        }
    }
}

/// The language a name in `advisory_languages` stands for.
fn language_named(name: &str) -> Option<Language> {
    let name = name.trim().to_ascii_lowercase();
    Language::ALL
        .into_iter()
        .find(|l| *l != Language::Other && l.name() == name)
}

impl ApiContractLayer {
    /// A glob that is not one or a language no one knows: (dotted key, why).
    pub(super) fn check(&self) -> Result<(), (String, String)> {
        for pattern in &self.advisory {
            Glob::new(pattern).map_err(|e| ("api_contract.advisory".to_string(), e.to_string()))?;
        }
        for name in &self.advisory_languages {
            if language_named(name).is_none() {
                let known: Vec<&str> = Language::ALL
                    .iter()
                    .filter(|l| **l != Language::Other)
                    .map(|l| l.name())
                    .collect();
                return Err((
                    "api_contract.advisory_languages".to_string(),
                    format!(
                        "`{name}` is not a language name; one of {}",
                        known.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The declarations, as `declared_by` made them. Checked at parse time: what does not
    /// compile here was refused there.
    pub(super) fn advisories(&self, declared_by: AdvisoryScope) -> Vec<Advisory> {
        let paths = self
            .advisory
            .iter()
            .filter_map(|p| Glob::new(p).ok())
            .map(Selector::Path);
        let languages = self
            .advisory_languages
            .iter()
            .filter_map(|n| language_named(n))
            .map(Selector::Language);
        paths
            .chain(languages)
            .map(|selector| Advisory {
                selector,
                declared_by,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Layer;
    use super::*;

    #[test]
    fn paths_and_languages_are_declared_and_checked() {
        let layer = Layer::parse(
            "[api_contract]\nadvisory = [\"scripts/**\", \"*.lua\"]\nadvisory_languages = [\"Swift\"]\n",
            ".review-tui.toml",
        )
        .unwrap();
        let advisories = layer
            .api_contract
            .unwrap()
            .advisories(AdvisoryScope::Repository);
        assert_eq!(advisories.len(), 3);
        let covers = |path: &str| {
            advisories
                .iter()
                .any(|a| a.covers(path, Language::from_path(path)))
        };
        assert!(covers("scripts/tool/run.py"));
        assert!(covers("plugins/x.lua"));
        assert!(covers("Sources/A/B.swift"));
        assert!(!covers("src/lib.rs"));
        assert!(!covers("src/scripts.py"));

        let bad = Layer::parse(
            "[api_contract]\nadvisory_languages = [\"cobol\"]\n",
            ".review-tui.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(bad.contains("line 2"), "{bad}");
        assert!(bad.contains("`cobol` is not a language name"), "{bad}");
        assert!(bad.contains("lua"), "{bad}");
        let bad = Layer::parse("[api_contract]\nadvisory = [\"{a,b}\"]\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(bad.contains("[api_contract] advisory"), "{bad}");
        assert!(Layer::parse("[api_contract]\nadvisories = []\n", "c.toml").is_err());
    }
}
