//! Preparing a review: resolve the reference, read the PR from its forge, open its review space
//! (mirror, worktree at the head, state), compute the diff and check eligibility. The headless
//! report and the cockpit both start here, so the same PR always lands in the same space. When
//! the forge cannot be reached, [`offline`] reopens the space's stored round instead.

mod offline;

pub use offline::{Offline, OfflineError};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use crate::config::GithubLayer;
use crate::diff::{Diff, DiffError, LineKind};
use crate::pr::eligibility::{self, FileLines, Ineligible, PrFacts};
use crate::pr::forge::{Forge, ForgeError, PrHistory, PullRequest};
use crate::pr::github::{
    ApiHosts, GithubClient, GithubConfig, GithubError, GithubForge, RetryPolicy,
};
use crate::pr::hosted::ForgeKind;
use crate::pr::local::{LocalError, LocalForge};
use crate::pr::reference::{PrRef, RefError};
use crate::pr::token::{self, Token};
use crate::space::{OpenReport, Source, Space, SpaceError, SpaceKey};

#[derive(Debug, Clone, Default)]
pub struct PrepareOptions {
    /// `--data-dir` / `REVIEW_TUI_DATA_DIR`.
    pub data_dir: Option<PathBuf>,
    /// `--api-url` / `GITHUB_API_URL`.
    pub api_url: Option<String>,
    /// Use this token instead of discovering one (tests; `None` discovers).
    pub token: Option<Token>,
    /// Do not look for a token at all.
    pub anonymous: bool,
    /// Timeouts and retries for the GitHub API (`[github]` in the user's config).
    pub github: GithubSettings,
    /// Told what is known as soon as it is (the PR, the diff, the step under way), so a
    /// client can show the PR before the space is ready.
    pub progress: Option<Progress>,
}

/// What [`prepare`] knows before it is done, in the order it learns it.
#[derive(Debug, Clone)]
pub enum PrepareEvent {
    /// The PR as its forge answered; `repo` is `OWNER/REPO`, or the local range's key.
    Pr { repo: String, pr: Box<PullRequest> },
    /// The reviewed diff, computed from the mirror while the worktree is still being placed.
    Diff(Arc<Diff>),
    /// What is under way now (`checking out the worktree`).
    Step(&'static str),
}

/// Where [`PrepareEvent`]s go. Called on whatever thread learns the fact: it must only pass
/// it on (a channel send), never do work.
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(PrepareEvent) + Send + Sync>);

impl Progress {
    pub fn new(tell: impl Fn(PrepareEvent) + Send + Sync + 'static) -> Progress {
        Progress(Arc::new(tell))
    }

    fn tell(progress: &Option<Progress>, event: PrepareEvent) {
        if let Some(progress) = progress {
            (progress.0)(event);
        }
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// How the GitHub API is called: the client's defaults unless `[github]` says otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubSettings {
    pub retry: RetryPolicy,
    pub timeout: Duration,
    /// The APIs configured per host: with github.com's, the only places a token is sent.
    pub apis: ApiHosts,
    /// Who the token acts as, when named (`[github] login`, `REVIEW_TUI_GITHUB_LOGIN`).
    pub login: Option<String>,
    /// Who an installation token acts as when `GET /user` refuses it (inside GitHub Actions).
    pub installation_login: Option<String>,
    /// Where slow and retried calls are said while they last (see `GithubNotice`).
    pub notices: Option<crate::pr::github::Notices>,
}

impl Default for GithubSettings {
    fn default() -> Self {
        let defaults = GithubConfig::new(crate::pr::github::DEFAULT_API_URL, None);
        GithubSettings {
            retry: defaults.retry,
            timeout: defaults.timeout,
            apis: ApiHosts::default(),
            login: None,
            installation_login: None,
            notices: None,
        }
    }
}

impl GithubSettings {
    /// `[github]` over the defaults; a value that is not a duration is an error naming it.
    pub fn from_layer(layer: &GithubLayer) -> Result<GithubSettings, PrepareError> {
        let mut settings = GithubSettings::default();
        let duration =
            |value: &Option<String>, what: &str| -> Result<Option<Duration>, PrepareError> {
                value
                    .as_deref()
                    .map(|text| {
                        humantime::parse_duration(text.trim()).map_err(|_| {
                            PrepareError::Other(format!(
                                "[github] {what} {text:?} is not a duration (\"30s\", \"2m\")"
                            ))
                        })
                    })
                    .transpose()
            };
        if let Some(timeout) = duration(&layer.request_timeout, "request_timeout")? {
            settings.timeout = timeout;
        }
        if let Some(backoff) = duration(&layer.backoff, "backoff")? {
            settings.retry.base_backoff = backoff;
        }
        if let Some(max_wait) = duration(&layer.max_wait, "max_wait")? {
            settings.retry.max_wait = max_wait;
        }
        if let Some(attempts) = layer.max_attempts {
            settings.retry.max_attempts = attempts.max(1);
        }
        settings.apis = ApiHosts {
            default: layer.api_url.clone(),
            per_host: (layer.hosts.iter())
                .map(|(host, entry)| (host.clone(), entry.api_url.clone()))
                .collect(),
        };
        settings.login = layer.login.clone().filter(|l| !l.trim().is_empty());
        Ok(settings)
    }

    /// The identity hints the environment gives: `REVIEW_TUI_GITHUB_LOGIN` over `[github]
    /// login`, and GitHub Actions' own token login inside Actions.
    pub fn with_env(mut self) -> GithubSettings {
        if let Ok(login) = std::env::var("REVIEW_TUI_GITHUB_LOGIN")
            && !login.trim().is_empty()
        {
            self.login = Some(login.trim().to_owned());
        }
        self.installation_login = crate::pr::github::installation_login_from_env();
        self
    }

    /// A client configuration for `api_url` with these timeouts and retries.
    pub fn config(&self, api_url: String, token: Option<Token>) -> GithubConfig {
        let mut config = GithubConfig::new(api_url, token);
        config.retry = self.retry.clone();
        config.timeout = self.timeout;
        config.login = self.login.clone();
        config.installation_login = self.installation_login.clone();
        config.notices = self.notices.clone();
        config
    }
}

#[derive(Debug, Error)]
pub enum PrepareError {
    #[error(transparent)]
    Reference(#[from] RefError),
    #[error(transparent)]
    Forge(#[from] ForgeError),
    #[error(transparent)]
    Space(#[from] SpaceError),
    #[error("computing the diff: {0}")]
    Diff(#[from] DiffError),
    /// The range has no changes: exit 3, and no space is created for it.
    #[error("nothing to review: {0}")]
    NothingToReview(String),
    /// GitHub could not be reached and there is no stored round to show instead.
    #[error(transparent)]
    Offline(#[from] offline::OfflineError),
    #[error("{0}")]
    Other(String),
}

impl From<GithubError> for PrepareError {
    fn from(e: GithubError) -> Self {
        PrepareError::Forge(e.into())
    }
}

impl From<LocalError> for PrepareError {
    fn from(e: LocalError) -> Self {
        PrepareError::Forge(e.into())
    }
}

/// A prepared review: everything the reviewers and the report need.
#[derive(Debug)]
pub struct Prepared {
    pub reference: PrRef,
    pub forge_name: &'static str,
    pub pr: PullRequest,
    pub space: Space,
    pub opened: OpenReport,
    pub diff: Diff,
    pub eligibility: Vec<Ineligible>,
    /// Reviews and comments already on the PR: untrusted context for the model reviewers.
    /// Empty for a local range.
    pub history: PrHistory,
    /// Why the history is missing, when reading it failed (the review goes on without it).
    pub history_note: Option<String>,
    /// The head's symbol index, started while the worktree was checked out; taken by the
    /// first cohort build.
    pub early_index: Option<crate::cohort::EarlyIndex>,
    /// How GitHub was called, so that publishing calls it the same way.
    pub github: GithubSettings,
    /// Set when GitHub could not be reached and the space's stored round was opened instead:
    /// no round runs and nothing is published from it.
    pub offline: Option<offline::Offline>,
}

impl Prepared {
    pub fn is_empty(&self) -> bool {
        self.diff.files.is_empty()
    }

    /// The level this PR was last read at — the one the person chose with `L`, kept with the
    /// space's rounds — so that reopening the space, or reviewing its next head, keeps it.
    /// `None` before any round (the configured level applies).
    pub fn chosen_level(&self) -> Option<crate::review::level::Level> {
        self.space.state().rounds.iter().rev().find_map(|r| r.level)
    }
}

pub async fn prepare(reference: PrRef, options: &PrepareOptions) -> Result<Prepared, PrepareError> {
    let root = crate::space::data_root(options.data_dir.as_deref())
        .map_err(|e| PrepareError::Other(e.to_string()))?;
    match &reference {
        PrRef::Hosted(hosted) => {
            // Connecting is the one GitHub-only step left here: its client, token and
            // settings. Naming the PR, its refs and its space are the forge's (`ForgeKind`).
            let Some(forge_kind) = crate::pr::registry::find(&hosted.forge)
                .filter(|kind| kind.id() == crate::pr::github::GITHUB.id())
            else {
                return Err(PrepareError::Other(format!(
                    "{hosted}: this build cannot connect to forge `{}`",
                    hosted.forge
                )));
            };
            let (host, owner, repo, number) =
                (&hosted.host, &hosted.owner, &hosted.repo, &hosted.number);
            // Refused before a token is even looked for: an unconfigured host gets nothing.
            let api_url = options
                .github
                .apis
                .api_for(host, options.api_url.as_deref())?;
            let token = match (&options.token, options.anonymous) {
                (Some(token), _) => Some(token.clone()),
                (None, true) => None,
                (None, false) => token::discover().map(|(token, _)| token),
            };
            let client = GithubClient::new(options.github.config(api_url.clone(), token.clone()))?;
            let forge = GithubForge::new(client, owner, repo, *number)?;
            let pr = match Forge::pull_request(&forge).await {
                Ok(pr) => pr,
                // Unreachable, not refused: a 401/403/404 still fails with its own message.
                Err(error) if error.is_unreachable() => {
                    let key = SpaceKey::hosted(hosted.clone())
                        .map_err(|e| PrepareError::Other(e.to_string()))?;
                    return offline::reopen(
                        reference.clone(),
                        root,
                        key,
                        error,
                        options.github.clone(),
                    )
                    .await;
                }
                Err(error) => return Err(error.into()),
            };
            Progress::tell(
                &options.progress,
                PrepareEvent::Pr {
                    repo: format!("{owner}/{repo}"),
                    pr: Box::new(pr.clone()),
                },
            );
            let key =
                SpaceKey::hosted(hosted.clone()).map_err(|e| PrepareError::Other(e.to_string()))?;
            let source = Source {
                remote: Some(pr.clone_url.clone()),
                refs: Some(forge_kind.fetch_refs(hosted, &pr.base.ref_name)),
                head_sha: Some(pr.head.sha.to_string()),
                base_sha: Some(pr.base.sha.to_string()),
                // The clone URL is the API's answer: the token goes with it only to the PR's
                // own host or the API's, never to a third host the answer names.
                token: token.filter(|_| remote_may_get_token(&pr.clone_url, host, &api_url)),
                title: crate::reviewers::redact::outbound(&pr.title),
                url: pr.html_url.clone(),
            };
            // The discussion is read while the space is opened: neither needs the other.
            // The seed's rule: a history that cannot be read is a warning, not a stop.
            let history = async {
                match Forge::history(&forge).await {
                    Ok(history) => (history, None),
                    Err(e) => (
                        PrHistory::default(),
                        Some(format!(
                            "the PR's reviews and comments could not be read ({e}); the model \
                             reviewers did not see the discussion"
                        )),
                    ),
                }
            };
            let opened = async {
                let opened = finish(
                    reference.clone(),
                    "github",
                    pr,
                    root,
                    key,
                    source,
                    &options.progress,
                )
                .await;
                // Said last: shown only while the discussion is still on its way.
                Progress::tell(
                    &options.progress,
                    PrepareEvent::Step("reading the PR's reviews and comments"),
                );
                opened
            };
            let ((history, history_note), prepared) = tokio::join!(history, opened);
            let mut prepared = prepared?;
            prepared.history = history;
            prepared.history_note = history_note;
            prepared.github = options.github.clone();
            Ok(prepared)
        }
        PrRef::Local { path, base, head } => {
            let (path, base, head) = (path.clone(), base.clone(), head.clone());
            let range = blocking(move || {
                crate::pr::local::resolve(&path, base.as_deref(), head.as_deref())
            })
            .await??;
            if range.merge_base_sha == range.head_sha {
                return Err(PrepareError::NothingToReview(format!(
                    "{} has no commits that {} does not have",
                    range.head_name, range.base_name
                )));
            }
            let key = SpaceKey::local(&range.repo, &range.base_key, &range.head_key)
                .map_err(|e| PrepareError::Other(e.to_string()))?;
            let forge = LocalForge::new(range);
            let pr = forge.pull_request().await?;
            Progress::tell(
                &options.progress,
                PrepareEvent::Pr {
                    repo: key.to_string(),
                    pr: Box::new(pr.clone()),
                },
            );
            let source = Source {
                title: crate::reviewers::redact::outbound(&pr.title),
                url: String::new(),
                ..Source::default()
            };
            finish(
                reference.clone(),
                "local",
                pr,
                root,
                key,
                source,
                &options.progress,
            )
            .await
        }
    }
}

async fn finish(
    reference: PrRef,
    forge_name: &'static str,
    pr: PullRequest,
    root: PathBuf,
    key: SpaceKey,
    source: Source,
    progress: &Option<Progress>,
) -> Result<Prepared, PrepareError> {
    let progress = progress.clone();
    let (space, opened, diff, early_index) = blocking(move || -> Result<_, PrepareError> {
        let mut early_index = None;
        let mut listing = None;
        Progress::tell(
            &progress,
            PrepareEvent::Step("fetching the PR into the mirror"),
        );
        let (space, opened) = Space::open_with(&root, key, &source, &mut |fetched| {
            let cache = crate::cohort::cache_dir_in(fetched.space_dir);
            early_index = crate::cohort::EarlyIndex::start(fetched.mirror, &cache, fetched.head);
            // The diff needs only the two commits: listed beside the checkout, and shown
            // before it is done.
            listing = list_changes(fetched.mirror, fetched.base, fetched.head, &progress);
            Progress::tell(&progress, PrepareEvent::Step("checking out the worktree"));
        })?;
        let listed = listing.and_then(|job| job.join().ok());
        let diff = match listed {
            Some(diff) => diff?,
            None => diff_in_mirror(
                space.mirror(),
                &space.mirror().join(DIFF_CACHE),
                &space.state().base_sha,
                &space.state().head_sha,
            )?,
        };
        Ok((space, opened, diff, early_index))
    })
    .await??;
    let facts = PrFacts {
        state: pr.state,
        draft: pr.draft,
        author: pr.author.clone(),
        author_is_bot: pr.author_is_bot,
        head_sha: space.state().head_sha.to_string(),
        reviewed_head: already_reviewed(&space),
    };
    let eligibility = eligibility::check(&facts, &file_lines(&diff));
    Ok(Prepared {
        reference,
        forge_name,
        pr,
        space,
        opened,
        diff,
        eligibility,
        history: PrHistory::default(),
        history_note: None,
        early_index,
        github: GithubSettings::default(),
        offline: None,
    })
}

/// Computes the diff of `base`..`head` on a thread of its own and tells `progress` as soon
/// as it is known. `None` when no thread could be started (the caller computes it then).
fn list_changes(
    mirror: &Path,
    base: git2::Oid,
    head: git2::Oid,
    progress: &Option<Progress>,
) -> Option<std::thread::JoinHandle<Result<Diff, PrepareError>>> {
    let mirror = mirror.to_path_buf();
    let progress = progress.clone();
    std::thread::Builder::new()
        .name("list-changes".into())
        .spawn(move || {
            let diff = diff_in_mirror(
                &mirror,
                &mirror.join(DIFF_CACHE),
                &base.to_string(),
                &head.to_string(),
            )?;
            if progress.is_some() {
                Progress::tell(&progress, PrepareEvent::Diff(Arc::new(diff.clone())));
            }
            Ok(diff)
        })
        .ok()
}

/// Where, inside the mirror, [`diff_in_mirror`] keeps the diffs it computed.
pub(crate) const DIFF_CACHE: &str = "review-tui-diffs";

/// The diff of the reviewed range, computed from the mirror (the same objects the worktree
/// holds), from the merge base as GitHub shows a PR.
pub(crate) fn diff_in_mirror(
    mirror: &Path,
    cache_dir: &Path,
    base_sha: &str,
    head_sha: &str,
) -> Result<Diff, PrepareError> {
    // The text is a function of the two commits: a later round at the same SHAs reads what
    // the first one saved instead of diffing again. A missing or unparsable file is a miss.
    // It is the code under review, so it is kept with the code, in the mirror, not in the
    // space beside the redacted state and reports.
    let cached = cache_dir.join(diff_cache_name(base_sha, head_sha));
    if let Ok(text) = std::fs::read_to_string(&cached)
        && let Ok(diff) = crate::diff::parse(&text)
    {
        return Ok(diff);
    }
    let repo = git2::Repository::open_bare(mirror).map_err(|e| {
        PrepareError::Other(format!("opening the mirror {}: {e}", mirror.display()))
    })?;
    let text = crate::diff::git::merge_base_diff_text(&repo, base_sha, head_sha)?;
    let diff = crate::diff::parse(&text)?;
    // Only a speed-up: a cache that cannot be written costs the next round a diff.
    let _ = std::fs::create_dir_all(cache_dir)
        .and_then(|()| crate::space::write_atomically(&cached, text.as_bytes()));
    Ok(diff)
}

/// The file [`diff_in_mirror`] keeps the diff of `base_sha`..`head_sha` in.
pub(crate) fn diff_cache_name(base_sha: &str, head_sha: &str) -> String {
    let name = crate::space::fsutil::name_part;
    format!("diff-{}-{}.patch", name(base_sha), name(head_sha))
}

/// Whether git may send the token to `remote`: only when it is on the PR's host or the API's
/// (github.com's clone URLs for api.github.com). A local path needs none and gets none.
fn remote_may_get_token(remote: &str, pr_host: &str, api_url: &str) -> bool {
    let host_of = |url: &str| {
        reqwest::Url::parse(url).ok().and_then(|u| {
            let host = u.host_str()?.to_ascii_lowercase();
            Some(match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
    };
    let Some(remote) = host_of(remote) else {
        return false;
    };
    let api = host_of(api_url);
    let api = match api.as_deref() {
        Some("api.github.com") => Some(crate::pr::github::GITHUB_HOST.to_string()),
        _ => api,
    };
    remote == pr_host.to_ascii_lowercase() || Some(remote) == api
}

/// A completed round at the current head means this exact code was already reviewed.
fn already_reviewed(space: &Space) -> bool {
    let state = space.state();
    state
        .rounds
        .iter()
        .any(|round| round.completed && round.head_sha == state.head_sha)
}

fn file_lines(diff: &Diff) -> Vec<FileLines<'_>> {
    diff.files
        .iter()
        .map(|file| {
            let mut removed = Vec::new();
            let mut added = Vec::new();
            for line in file.hunks.iter().flat_map(|h| h.lines.iter()) {
                match line.kind {
                    LineKind::Added => added.push(line.text.as_str()),
                    LineKind::Removed => removed.push(line.text.as_str()),
                    LineKind::Context => {}
                }
            }
            FileLines {
                path: &file.path,
                language: file.language.name(),
                removed,
                added,
                structural: file.binary
                    || file.mode_changed()
                    || file.old_path.is_some()
                    || file.submodule.is_some(),
            }
        })
        .collect()
}

/// git2 work runs off the async runtime's worker threads.
pub(crate) async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, PrepareError> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| PrepareError::Other(format!("a background job failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Layer};

    #[test]
    fn github_settings_come_from_the_users_github_section() {
        let mut config = Config::default();
        let layer = Layer::parse(
            "[github]\nrequest_timeout = \"5s\"\nmax_attempts = 2\nbackoff = \"50ms\"\nmax_wait = \"3s\"\n",
            "config.toml",
        )
        .unwrap();
        config.apply(layer, "config.toml");
        let settings = GithubSettings::from_layer(&config.github).unwrap();
        assert_eq!(settings.timeout, Duration::from_secs(5));
        assert_eq!(
            settings.retry,
            RetryPolicy {
                max_attempts: 2,
                base_backoff: Duration::from_millis(50),
                max_wait: Duration::from_secs(3),
            }
        );
        // Unset fields keep the client's defaults.
        let defaults = GithubSettings::from_layer(&GithubLayer::default()).unwrap();
        assert_eq!(defaults, GithubSettings::default());
        assert_eq!(defaults.timeout, Duration::from_secs(60));

        let bad = GithubLayer {
            request_timeout: Some("soon".into()),
            ..GithubLayer::default()
        };
        let err = GithubSettings::from_layer(&bad).unwrap_err().to_string();
        assert!(err.contains("[github] request_timeout \"soon\""), "{err}");
        assert!(Layer::parse("[github]\ntimeout = \"5s\"\n", "config.toml").is_err());
    }

    #[test]
    fn the_clone_url_gets_the_token_only_on_the_prs_or_the_apis_host() {
        let dotcom = crate::pr::github::DEFAULT_API_URL;
        assert!(remote_may_get_token(
            "https://github.com/o/r.git",
            "github.com",
            dotcom
        ));
        assert!(!remote_may_get_token(
            "https://evil.example/o/r.git",
            "github.com",
            dotcom
        ));
        assert!(remote_may_get_token(
            "https://ghe.corp/o/r.git",
            "ghe.corp",
            "https://ghe.corp/api/v3"
        ));
        assert!(remote_may_get_token(
            "http://127.0.0.1:9/o/r.git",
            "github.com",
            "http://127.0.0.1:9"
        ));
        assert!(!remote_may_get_token(
            "http://127.0.0.1:10/o/r.git",
            "github.com",
            "http://127.0.0.1:9"
        ));
        assert!(!remote_may_get_token("/tmp/repo", "github.com", dotcom));
    }

    #[test]
    fn a_second_diff_of_the_same_commits_is_read_from_the_cache() {
        let repo = crate::space::test_repo::TestRepo::new();
        let base = repo.sha("HEAD");
        let head = repo.commit("src/a.rs", "fn a() {}\n", "add a");
        let git_dir = repo.path().join(".git");
        let cache = repo.scratch().join("cache");

        let first = diff_in_mirror(&git_dir, &cache, &base, &head).unwrap();
        assert_eq!(first.files[0].path, "src/a.rs");
        let saved = cache.join(format!("diff-{base}-{head}.patch"));
        let text = std::fs::read_to_string(&saved).unwrap();
        assert!(text.contains("+fn a() {}"), "{text}");

        // The saved text answers, not the repository: plant another one to prove it.
        std::fs::write(&saved, text.replace("src/a.rs", "src/b.rs")).unwrap();
        let second = diff_in_mirror(&git_dir, &cache, &base, &head).unwrap();
        assert_eq!(second.files[0].path, "src/b.rs");

        // A damaged file is a miss: the repository answers again and the file is rewritten.
        std::fs::write(&saved, "diff --git garbage\n@@ nonsense").unwrap();
        let third = diff_in_mirror(&git_dir, &cache, &base, &head).unwrap();
        assert_eq!(third.files, first.files);
        assert_eq!(std::fs::read_to_string(&saved).unwrap(), text);
    }
}
