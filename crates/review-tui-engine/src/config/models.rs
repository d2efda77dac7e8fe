//! The `[models]` and `[prompts]` sections: which provider and model each reviewer role uses, the
//! bounds of a model review, and where a role's brief is overridden.
//!
//! Only the user's own file may set these. A repository's `.review-tui.toml` could otherwise point
//! the reviewers (and the API key that goes with them) at a server of its choosing, or read any
//! file on the reviewer's machine into a prompt: both sections are ignored there, with a note.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use crate::review::level::Role;

/// Where one role's model comes from. Every field is optional: unset fields fall back to the
/// `[models]` defaults, then to the flags and the environment.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelChoice {
    /// `openai`, `anthropic`, `ollama`, `command` or `replay`.
    pub provider: Option<String>,
    /// The endpoint (`--model-url`).
    pub url: Option<String>,
    pub model: Option<String>,
    /// For the `command` provider: the command line, run by `sh -c`.
    pub command: Option<String>,
    /// A cheaper model for the confidence-scoring pass (same provider and endpoint).
    pub scoring_model: Option<String>,
}

impl ModelChoice {
    /// `self` with `over`'s set fields laid on top.
    pub fn overlaid(&self, over: &ModelChoice) -> ModelChoice {
        ModelChoice {
            provider: over.provider.clone().or_else(|| self.provider.clone()),
            url: over.url.clone().or_else(|| self.url.clone()),
            model: over.model.clone().or_else(|| self.model.clone()),
            command: over.command.clone().or_else(|| self.command.clone()),
            scoring_model: over
                .scoring_model
                .clone()
                .or_else(|| self.scoring_model.clone()),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == ModelChoice::default()
    }
}

/// `[models]` as written in the user's file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelsLayer {
    /// The default for every role (`provider`, `url`, `model`, `command`, `scoring_model`).
    pub provider: Option<String>,
    pub url: Option<String>,
    pub model: Option<String>,
    pub command: Option<String>,
    pub scoring_model: Option<String>,
    /// `[models.roles.engineer]` and so on.
    #[serde(default)]
    pub roles: BTreeMap<Role, ModelChoice>,
    /// How many model conversations run at once (default 5).
    pub concurrency: Option<usize>,
    /// The review's budget: `200000` or `200k` tokens, `$1.50` or `1.5usd`.
    pub budget: Option<String>,
    /// Per reviewer: tool calls, tokens, wall time (`"10m"`).
    pub max_tool_calls: Option<u32>,
    pub max_tokens: Option<u64>,
    pub reviewer_timeout: Option<String>,
    /// Per provider request, and how many tries a failing request gets (first included).
    pub request_timeout: Option<String>,
    pub max_attempts: Option<u32>,
    /// The first wait between tries (`"2s"`); it doubles each time.
    pub backoff: Option<String>,
    /// Prices per million tokens, for the cost shown and for a dollar budget.
    pub price_input_per_mtok: Option<f64>,
    pub price_output_per_mtok: Option<f64>,
    /// The most findings the verification pass checks (blocking ones first).
    pub verify_calls: Option<usize>,
    /// Tokens of context (diff, guidance, PR text) per conversation before the diff is split.
    pub context_tokens: Option<usize>,
}

impl ModelsLayer {
    /// Lays `over` on `self`, field by field; roles merge per role.
    pub fn merge(&mut self, over: ModelsLayer) {
        let default = self.default_choice().overlaid(&over.default_choice());
        self.provider = default.provider;
        self.url = default.url;
        self.model = default.model;
        self.command = default.command;
        self.scoring_model = default.scoring_model;
        for (role, choice) in over.roles {
            let merged = self
                .roles
                .get(&role)
                .map(|c| c.overlaid(&choice))
                .unwrap_or(choice);
            self.roles.insert(role, merged);
        }
        self.concurrency = over.concurrency.or(self.concurrency.take());
        self.budget = over.budget.or(self.budget.take());
        self.max_tool_calls = over.max_tool_calls.or(self.max_tool_calls.take());
        self.max_tokens = over.max_tokens.or(self.max_tokens.take());
        self.reviewer_timeout = over.reviewer_timeout.or(self.reviewer_timeout.take());
        self.request_timeout = over.request_timeout.or(self.request_timeout.take());
        self.max_attempts = over.max_attempts.or(self.max_attempts.take());
        self.backoff = over.backoff.or(self.backoff.take());
        self.price_input_per_mtok = over
            .price_input_per_mtok
            .or(self.price_input_per_mtok.take());
        self.price_output_per_mtok = over
            .price_output_per_mtok
            .or(self.price_output_per_mtok.take());
        self.verify_calls = over.verify_calls.or(self.verify_calls.take());
        self.context_tokens = over.context_tokens.or(self.context_tokens.take());
    }
}

impl ModelsLayer {
    /// The `[models]` defaults as one choice.
    pub fn default_choice(&self) -> ModelChoice {
        ModelChoice {
            provider: self.provider.clone(),
            url: self.url.clone(),
            model: self.model.clone(),
            command: self.command.clone(),
            scoring_model: self.scoring_model.clone(),
        }
    }

    /// What `role` uses: its own section over the defaults.
    pub fn choice_for(&self, role: Role) -> ModelChoice {
        match self.roles.get(&role) {
            Some(own) => self.default_choice().overlaid(own),
            None => self.default_choice(),
        }
    }
}

/// `[prompts]`: a Markdown file per role that replaces its built-in brief.
pub type PromptsLayer = BTreeMap<Role, PathBuf>;

#[cfg(test)]
mod tests {
    use crate::config::{Config, Layer};
    use crate::review::level::Role;

    #[test]
    fn roles_name_their_own_models_over_the_defaults() {
        let layer = Layer::parse(
            r#"
[models]
provider = "openai"
url = "http://127.0.0.1:8080/v1"
model = "big"
budget = "200k"
[models.roles.qa]
model = "small"
scoring_model = "tiny"
[prompts]
security = "/home/me/security.md"
"#,
            "user config",
        )
        .unwrap();
        let mut config = Config::default();
        config.apply(layer, "user config");
        let qa = config.models.choice_for(Role::Qa);
        assert_eq!(qa.model.as_deref(), Some("small"));
        assert_eq!(qa.url.as_deref(), Some("http://127.0.0.1:8080/v1"));
        assert_eq!(qa.scoring_model.as_deref(), Some("tiny"));
        let engineer = config.models.choice_for(Role::Engineer);
        assert_eq!(engineer.model.as_deref(), Some("big"));
        assert_eq!(config.models.budget.as_deref(), Some("200k"));
        assert!(config.prompts.contains_key(&Role::Security));
    }

    #[test]
    fn a_later_layer_changes_only_what_it_names() {
        let mut config = Config::default();
        for (text, origin) in [
            ("[models]\nmodel = \"a\"\nconcurrency = 3\n", "one"),
            ("[models]\nmodel = \"b\"\n", "two"),
        ] {
            config.apply(Layer::parse(text, origin).unwrap(), origin);
        }
        assert_eq!(config.models.model.as_deref(), Some("b"));
        assert_eq!(config.models.concurrency, Some(3));
        assert!(Layer::parse("[models]\nmodle = \"x\"\n", "typo").is_err());
    }
}
