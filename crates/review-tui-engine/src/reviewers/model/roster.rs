//! The roster: which model reviewers run, with which brief and over which provider.
//!
//! Which roles run is decided by `Role::run_when(level)` in code, never here and never by a
//! prompt. A role's brief is a Markdown file compiled in from `assets/prompts/`, replaceable from
//! the user's `[prompts]`; security is the architect with the security brief and performance the
//! engineer with the performance brief — the speciality is the brief, not a new agent. Each role
//! may name its own provider and model (`[models.roles.<role>]`) and a cheaper scoring model.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use crate::config::{ModelChoice, ModelsLayer, PromptsLayer};
use crate::review::level::{Level, Role};
use crate::reviewers::model::budget::{Budget, Metered};
use crate::reviewers::model::provider::{
    AnthropicConfig, AnthropicProvider, Cassette, CommandConfig, CommandProvider, OpenAiConfig,
    OpenAiProvider, Provider, ProviderError, Recorder, Replay, RetryPolicy,
};

const ENGINEER: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/prompts/engineer.md"
));
const QA: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/prompts/qa.md"
));
const ARCHITECT: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/prompts/architect.md"
));
const SECURITY: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/prompts/security.md"
));
const PERFORMANCE: &str = include_str!(concat!(
    concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
    "/assets/prompts/performance.md"
));

/// The environment variables that configure a provider, for "no provider" messages.
pub const PROVIDER_ENV_VARS: &str =
    "OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL or OLLAMA_HOST";

#[derive(Debug, Error)]
pub enum RosterError {
    #[error("the {role} brief {path}: {source}")]
    Brief {
        role: Role,
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("unknown provider {0:?}: use openai, anthropic, ollama, command or replay")]
    UnknownProvider(String),
    #[error("the command provider needs a command: pass --provider-command CMD")]
    NoCommand,
    #[error("the replay provider needs a cassette: pass --replay FILE")]
    NoCassette,
    #[error(
        "--record writes one cassette, but the roles use {0} different providers; record with \
         one provider for every role"
    )]
    RecordManyProviders(usize),
    #[error(transparent)]
    Provider(#[from] ProviderError),
}

/// The line that opens every system prompt: which role does which job. It is what a cassette, a
/// log or a scripted test server recognises a conversation by.
pub fn header(role: &str, task: &str) -> String {
    format!("Role: {role}. Task: {task}.")
}

/// The built-in brief of a role's own speciality (without the agent it rides on).
fn speciality(role: Role) -> &'static str {
    match role {
        Role::Engineer => ENGINEER,
        Role::Qa => QA,
        Role::Architect => ARCHITECT,
        Role::Security => SECURITY,
        Role::Performance => PERFORMANCE,
    }
}

/// Every role's full brief: its speciality (built in or from `[prompts]`), after the brief of
/// the agent that carries it when that is another role.
pub fn briefs(prompts: &PromptsLayer) -> Result<BTreeMap<Role, String>, RosterError> {
    let mut own = BTreeMap::new();
    for role in Role::ALL {
        let text = match prompts.get(&role) {
            Some(path) => read_brief(role, path)?,
            None => speciality(role).to_string(),
        };
        own.insert(role, text);
    }
    Ok(Role::ALL
        .into_iter()
        .map(|role| {
            let agent = role.agent();
            let text = if agent == role {
                own[&role].trim().to_string()
            } else {
                format!("{}\n\n{}", own[&agent].trim(), own[&role].trim())
            };
            (role, text)
        })
        .collect())
}

fn read_brief(role: Role, path: &Path) -> Result<String, RosterError> {
    std::fs::read_to_string(path).map_err(|source| RosterError::Brief {
        role,
        path: path.display().to_string(),
        source,
    })
}

/// What the person asked for on the command line; each set field overrides the config.
#[derive(Debug, Clone, Default)]
pub struct ModelFlags {
    pub provider: Option<String>,
    pub model_url: Option<String>,
    pub model: Option<String>,
    pub provider_command: Option<String>,
    pub replay: Option<PathBuf>,
    pub record: Option<PathBuf>,
    pub scoring_model: Option<String>,
    /// A cassette given as a value (the demo's bundled one), replayed when no other provider
    /// is asked for.
    pub cassette: Option<Cassette>,
}

impl ModelFlags {
    fn choice(&self) -> ModelChoice {
        ModelChoice {
            provider: self.provider.clone().or_else(|| {
                (self.replay.is_some())
                    .then(|| "replay".to_string())
                    .or_else(|| {
                        self.provider_command
                            .is_some()
                            .then(|| "command".to_string())
                    })
            }),
            url: self.model_url.clone(),
            model: self.model.clone(),
            command: self.provider_command.clone(),
            scoring_model: self.scoring_model.clone(),
        }
    }
}

/// How providers are built: retries, timeouts, where a command runs.
#[derive(Debug, Clone)]
pub struct ProviderSettings {
    pub retry: RetryPolicy,
    pub request_timeout: Duration,
    pub command_timeout: Duration,
    /// The review space's worktree: a command provider runs there.
    pub worktree: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    OpenAi,
    Anthropic,
    Ollama,
    Command,
    Replay,
}

impl Kind {
    fn parse(text: &str) -> Result<Kind, RosterError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" => Ok(Kind::OpenAi),
            "anthropic" => Ok(Kind::Anthropic),
            "ollama" => Ok(Kind::Ollama),
            "command" => Ok(Kind::Command),
            "replay" => Ok(Kind::Replay),
            _ => Err(RosterError::UnknownProvider(text.to_string())),
        }
    }

    /// Without a named provider: what the choice and the environment point at, if anything.
    fn infer(choice: &ModelChoice, env: &dyn Fn(&str) -> Option<String>) -> Option<Kind> {
        let set = |name: &str| env(name).is_some_and(|v| !v.trim().is_empty());
        if choice.command.is_some() {
            Some(Kind::Command)
        } else if choice.url.is_some() || set("OPENAI_BASE_URL") || set("OPENAI_API_KEY") {
            Some(Kind::OpenAi)
        } else if set("ANTHROPIC_API_KEY") || set("ANTHROPIC_BASE_URL") {
            Some(Kind::Anthropic)
        } else if set("OLLAMA_HOST") {
            Some(Kind::Ollama)
        } else {
            None
        }
    }
}

/// One model reviewer.
#[derive(Clone)]
pub struct Member {
    pub role: Role,
    pub brief: String,
    pub provider: Arc<dyn Provider>,
    /// The cheaper model of the confidence-scoring pass, when one is named.
    pub scorer: Option<Arc<dyn Provider>>,
}

impl std::fmt::Debug for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Member")
            .field("role", &self.role)
            .field("provider", &self.provider.name())
            .field("model", &self.provider.model())
            .finish()
    }
}

/// The model reviewers of one review.
#[derive(Clone, Debug)]
pub struct Roster {
    pub members: Vec<Member>,
    /// Roles the level dispatches that have no provider of their own, with why.
    pub unavailable: Vec<(Role, String)>,
    /// The budget every member's provider is metered against.
    pub budget: Arc<Budget>,
}

impl Roster {
    /// The provider of the passes that belong to no role (verification, the lead's walkthrough):
    /// the first member's.
    pub fn lead_provider(&self) -> Option<Arc<dyn Provider>> {
        self.members.first().map(|m| m.provider.clone())
    }

    pub fn member(&self, role: Role) -> Option<&Member> {
        self.members.iter().find(|m| m.role == role)
    }
}

/// Builds the roster of `level`. `Ok(None)` when nothing configures a provider (no flag, no
/// config, no environment variable): the caller records the model reviewers as skipped.
pub fn build(
    level: Level,
    flags: &ModelFlags,
    models: &ModelsLayer,
    prompts: &PromptsLayer,
    settings: &ProviderSettings,
    budget: Arc<Budget>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Roster>, RosterError> {
    let briefs = briefs(prompts)?;
    let mut built: HashMap<String, Arc<dyn Provider>> = HashMap::new();
    let mut members = Vec::new();
    let mut unavailable = Vec::new();
    for role in level.roster() {
        let choice = models.choice_for(role).overlaid(&flags.choice());
        // A bundled cassette (the demo) is what the run asked for: the environment's keys
        // and hosts are for other reviews.
        let kind = match (&flags.cassette, &choice.provider) {
            (Some(_), _) => Some(Kind::Replay),
            (None, Some(name)) => Some(Kind::parse(name)?),
            (None, None) => Kind::infer(&choice, env),
        };
        let Some(kind) = kind else {
            unavailable.push((
                role,
                format!("no model provider configured (set {PROVIDER_ENV_VARS})"),
            ));
            continue;
        };
        let provider = provider(kind, &choice, None, flags, settings, env, &mut built)?;
        let scorer = match &choice.scoring_model {
            Some(model) => Some(provider_for_scoring(
                kind, &choice, model, flags, settings, env, &mut built,
            )?),
            None => None,
        };
        members.push(Member {
            role,
            brief: briefs[&role].clone(),
            provider,
            scorer,
        });
    }
    if members.is_empty() {
        return Ok(None);
    }
    if let Some(path) = &flags.record {
        // Distinct providers by key; scoring providers are distinct too.
        if built.len() > 1 {
            return Err(RosterError::RecordManyProviders(built.len()));
        }
        let recorder: Arc<dyn Provider> =
            Arc::new(Recorder::new(members[0].provider.clone(), path.clone()));
        for member in &mut members {
            member.provider = recorder.clone();
            if member.scorer.is_some() {
                member.scorer = Some(recorder.clone());
            }
        }
    }
    for member in &mut members {
        member.provider = Metered::wrap(member.provider.clone(), budget.clone());
        member.scorer = member
            .scorer
            .take()
            .map(|scorer| Metered::wrap(scorer, budget.clone()));
    }
    Ok(Some(Roster {
        members,
        unavailable,
        budget,
    }))
}

fn provider_for_scoring(
    kind: Kind,
    choice: &ModelChoice,
    model: &str,
    flags: &ModelFlags,
    settings: &ProviderSettings,
    env: &dyn Fn(&str) -> Option<String>,
    built: &mut HashMap<String, Arc<dyn Provider>>,
) -> Result<Arc<dyn Provider>, RosterError> {
    provider(kind, choice, Some(model), flags, settings, env, built)
}

/// The provider for a choice, built once per distinct endpoint and model.
fn provider(
    kind: Kind,
    choice: &ModelChoice,
    model_override: Option<&str>,
    flags: &ModelFlags,
    settings: &ProviderSettings,
    env: &dyn Fn(&str) -> Option<String>,
    built: &mut HashMap<String, Arc<dyn Provider>>,
) -> Result<Arc<dyn Provider>, RosterError> {
    let model = model_override.or(choice.model.as_deref());
    // Commands and cassettes have no model to switch: scoring shares them.
    let key = match kind {
        Kind::Command | Kind::Replay => format!("{kind:?}|{:?}", choice.command),
        _ => format!("{kind:?}|{:?}|{model:?}", choice.url),
    };
    if let Some(existing) = built.get(&key) {
        return Ok(existing.clone());
    }
    let made: Arc<dyn Provider> = match kind {
        Kind::OpenAi | Kind::Ollama => {
            let url = match (kind, &choice.url) {
                (_, Some(url)) => Some(url.clone()),
                (Kind::Ollama, None) if env("OLLAMA_HOST").is_none() => {
                    Some("http://127.0.0.1:11434/v1".to_string())
                }
                _ => None,
            };
            // Ollama never gets an OpenAI key, nor an OpenAI base URL.
            let ollama_env = |name: &str| match name {
                "OPENAI_API_KEY" | "OPENAI_BASE_URL" => None,
                other => env(other),
            };
            let lookup: &dyn Fn(&str) -> Option<String> = if kind == Kind::Ollama {
                &ollama_env
            } else {
                env
            };
            let mut config = OpenAiConfig::from_env(lookup, url.as_deref(), model)?;
            config.retry = settings.retry.clone();
            config.timeout = settings.request_timeout;
            Arc::new(OpenAiProvider::new(config)?)
        }
        Kind::Anthropic => {
            let mut config = AnthropicConfig::from_env(env, choice.url.as_deref(), model)?;
            config.retry = settings.retry.clone();
            config.timeout = settings.request_timeout;
            Arc::new(AnthropicProvider::new(config)?)
        }
        Kind::Command => {
            let line = choice.command.as_deref().ok_or(RosterError::NoCommand)?;
            let mut config = CommandConfig::shell(line);
            config.cwd = Some(settings.worktree.clone());
            config.timeout = settings.command_timeout;
            Arc::new(CommandProvider::new(config))
        }
        Kind::Replay => match (&flags.replay, &flags.cassette) {
            (Some(path), _) => Arc::new(Replay::from_file(path)?),
            (None, Some(cassette)) => Arc::new(Replay::new(cassette.clone())),
            (None, None) => return Err(RosterError::NoCassette),
        },
    };
    built.insert(key, made.clone());
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> ProviderSettings {
        ProviderSettings {
            retry: RetryPolicy::default(),
            request_timeout: Duration::from_secs(5),
            command_timeout: Duration::from_secs(5),
            worktree: std::env::temp_dir(),
        }
    }

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn specialities_ride_on_their_agents_brief() {
        let briefs = briefs(&PromptsLayer::new()).unwrap();
        assert!(briefs[&Role::Security].starts_with("# Architect"));
        assert!(briefs[&Role::Security].contains("# Security brief"));
        assert!(briefs[&Role::Performance].starts_with("# Engineer"));
        assert!(briefs[&Role::Performance].contains("# Performance brief"));
        assert!(!briefs[&Role::Qa].contains("# Engineer"));
    }

    #[test]
    fn a_prompt_file_replaces_a_brief_and_the_speciality_keeps_its_agent() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("architect.md");
        std::fs::write(&path, "# Our architect\nLayers only point down.").unwrap();
        let prompts = PromptsLayer::from([(Role::Architect, path)]);
        let briefs = briefs(&prompts).unwrap();
        assert!(briefs[&Role::Architect].starts_with("# Our architect"));
        assert!(briefs[&Role::Security].starts_with("# Our architect"));
        let missing = PromptsLayer::from([(Role::Qa, dir.path().join("nope.md"))]);
        assert!(
            super::briefs(&missing)
                .unwrap_err()
                .to_string()
                .contains("qa")
        );
    }

    #[test]
    fn nothing_configured_means_no_roster() {
        let roster = build(
            Level::Balanced,
            &ModelFlags::default(),
            &ModelsLayer::default(),
            &PromptsLayer::new(),
            &settings(),
            Arc::new(Budget::unlimited()),
            &no_env,
        )
        .unwrap();
        assert!(roster.is_none());
    }

    #[test]
    fn the_level_gate_decides_who_runs_and_roles_may_pick_their_model() {
        let flags = ModelFlags {
            model_url: Some("http://127.0.0.1:9/v1".into()),
            model: Some("big".into()),
            ..ModelFlags::default()
        };
        let mut models = ModelsLayer::default();
        models.roles.insert(
            Role::Qa,
            ModelChoice {
                scoring_model: Some("small".into()),
                ..ModelChoice::default()
            },
        );
        let roster = build(
            Level::Thorough,
            &flags,
            &models,
            &PromptsLayer::new(),
            &settings(),
            Arc::new(Budget::unlimited()),
            &no_env,
        )
        .unwrap()
        .unwrap();
        let roles: Vec<Role> = roster.members.iter().map(|m| m.role).collect();
        assert_eq!(roles, Role::ALL.to_vec());
        let qa = roster.member(Role::Qa).unwrap();
        assert_eq!(qa.provider.model(), "big");
        assert_eq!(qa.scorer.as_ref().unwrap().model(), "small");
        assert!(roster.member(Role::Engineer).unwrap().scorer.is_none());

        let light = build(
            Level::Light,
            &flags,
            &models,
            &PromptsLayer::new(),
            &settings(),
            Arc::new(Budget::unlimited()),
            &no_env,
        )
        .unwrap()
        .unwrap();
        assert_eq!(light.members.len(), 1);
    }

    #[test]
    fn unknown_providers_and_missing_commands_are_errors() {
        let run = |flags: ModelFlags| {
            build(
                Level::Light,
                &flags,
                &ModelsLayer::default(),
                &PromptsLayer::new(),
                &settings(),
                Arc::new(Budget::unlimited()),
                &no_env,
            )
        };
        let unknown = run(ModelFlags {
            provider: Some("gpt".into()),
            ..ModelFlags::default()
        });
        assert!(matches!(unknown, Err(RosterError::UnknownProvider(_))));
        let command = run(ModelFlags {
            provider: Some("command".into()),
            ..ModelFlags::default()
        });
        assert!(matches!(command, Err(RosterError::NoCommand)));
    }
}
