//! Preparing a review: resolve the reference, read the PR from its forge, open its review space
//! (mirror, worktree at the head, state), compute the diff and check eligibility. The headless
//! report and the cockpit both start here, so the same PR always lands in the same space. When
//! the forge cannot be reached, [`offline`] reopens the space's stored round instead.

mod offline;

pub use offline::Offline;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use crate::diff::{Diff, DiffError, LineKind};
use crate::pr::connect::Connection;
use crate::pr::eligibility::{self, FileLines, Ineligible, PrFacts};
use crate::pr::forge::{Forge, ForgeError, PrHistory, PullRequest};
use crate::pr::local::{LocalError, LocalForge};
use crate::pr::reference::{PrRef, RefError};
use crate::space::{KeyError, LayoutError, OpenReport, Source, Space, SpaceError, SpaceKey};

#[derive(Debug, Clone, Default)]
pub struct PrepareOptions {
    /// `--data-dir` / `REVIEW_TUI_DATA_DIR`.
    pub data_dir: Option<PathBuf>,
    /// How the forges are reached: the API address given for this run, whose token, each
    /// forge's settings (`pr::registry::connection`), where slow calls are said.
    pub connection: Connection,
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
    /// No data directory could be found or made.
    #[error(transparent)]
    DataRoot(#[from] LayoutError),
    /// The PR or range cannot name a space.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// A PR of a forge this build does not have.
    #[error("{pr}: this build cannot connect to forge `{forge}`")]
    UnknownForge { pr: String, forge: String },
    /// An end of a range that is not a commit id.
    #[error("{sha:?} is not a commit id: {source}")]
    NotACommitId { sha: String, source: git2::Error },
    /// The space's mirror could not be opened to compute the diff.
    #[error("opening the mirror {path}: {source}")]
    Mirror { path: PathBuf, source: git2::Error },
    /// Work handed to a blocking thread panicked or was cancelled.
    #[error("a background job failed: {0}")]
    BackgroundJob(#[from] tokio::task::JoinError),
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
    /// The review threads people hold on the PR, or why they could not be read (a notice:
    /// the review goes on without them). Empty for a local range.
    pub threads: crate::pr::threads::ThreadsRead,
    /// Who the forge's credentials authenticate as (GitHub's `GET /user`, the forge port's
    /// `authenticated_user`): how this tool's own earlier reviews and comments are recognised
    /// on a machine that holds no record of publishing them. `None` without a token or when
    /// it could not be read: then no comment is taken for ours, whatever marker it carries.
    pub login: Option<String>,
    /// The head's symbol index, started while the worktree was checked out; taken by the
    /// first cohort build.
    pub early_index: Option<crate::cohort::EarlyIndex>,
    /// How the forge was reached, so that publishing connects the same way.
    pub connection: Connection,
    /// Set when GitHub could not be reached and the space's stored round was opened instead:
    /// no round runs and nothing is published from it.
    pub offline: Option<offline::Offline>,
    /// The data directory the space is in: a snapshot of uncommitted work leaves it out when
    /// it lies inside the work tree.
    pub data_root: PathBuf,
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
    let root = crate::space::data_root(options.data_dir.as_deref())?;
    match &reference {
        PrRef::Hosted(hosted) => prepare_hosted(&reference, hosted, options, root).await,
        PrRef::Local {
            path,
            base,
            head,
            uncommitted,
        } => {
            let (path, base, head, uncommitted) =
                (path.clone(), base.clone(), head.clone(), *uncommitted);
            let range = resolve_local(path, base, head, uncommitted, &root).await?;
            prepare_local(&reference, range, options, root).await
        }
    }
}

/// A PR on a forge: read from it, its space opened while its discussion is read; offline, the
/// space's stored round.
async fn prepare_hosted(
    reference: &PrRef,
    hosted: &crate::pr::hosted::HostedPr,
    options: &PrepareOptions,
    root: PathBuf,
) -> Result<Prepared, PrepareError> {
    let Some(forge_kind) = crate::pr::registry::find(&hosted.forge) else {
        return Err(PrepareError::UnknownForge {
            pr: hosted.to_string(),
            forge: hosted.forge.clone(),
        });
    };
    let (owner, repo) = (&hosted.owner, &hosted.repo);
    let connected = forge_kind.connect(hosted, &options.connection)?;
    let forge = &connected.forge;
    let pr = match forge.pull_request().await {
        Ok(pr) => pr,
        // Unreachable, not refused: a 401/403/404 still fails with its own message.
        Err(error) if error.is_unreachable() => {
            let key = SpaceKey::hosted(hosted.clone())?;
            return offline::reopen(
                reference.clone(),
                forge_kind.id(),
                root,
                key,
                error,
                options.connection.clone(),
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
    let key = SpaceKey::hosted(hosted.clone())?;
    let source = Source {
        remote: Some(pr.clone_url.clone()),
        refs: Some(forge_kind.fetch_refs(hosted, &pr.base.ref_name)),
        head_sha: Some(pr.head.sha.to_string()),
        base_sha: Some(pr.base.sha.to_string()),
        // Stored in state.json: a branch name can hold a secret.
        base_ref: crate::reviewers::redact::outbound(&pr.base.ref_name),
        // The clone URL is the forge's answer: the token goes with it only to a host
        // the forge vouches for, never to a third host the answer names.
        token: connected.fetch_token(&pr.clone_url),
        title: crate::reviewers::redact::outbound(&pr.title),
        url: pr.html_url.clone(),
    };
    // The discussion is read while the space is opened: neither needs the other.
    let opened = async {
        let opened = finish(
            reference.clone(),
            forge_kind.id(),
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
    let ((history, history_note, threads), prepared) =
        tokio::join!(read_discussion(forge.as_ref()), opened);
    let mut prepared = prepared?;
    // Who we are: our own earlier findings are recognised by it (and our marker). Only
    // asked when the discussion holds a marked text at all.
    let login = if crate::session::own_findings::any_marked(&history) {
        forge.authenticated_user().await.ok().flatten()
    } else {
        None
    };
    prepared.history = history;
    prepared.history_note = history_note;
    prepared.threads = threads;
    prepared.login = login;
    prepared.connection = options.connection.clone();
    Ok(prepared)
}

/// The PR's reviews and comments, a note when they could not be read, and its review threads.
/// The seed's rule: a history that cannot be read is a warning, not a stop.
async fn read_discussion(
    forge: &dyn Forge,
) -> (PrHistory, Option<String>, crate::pr::threads::ThreadsRead) {
    let (history, threads) = tokio::join!(forge.history(), read_threads(forge));
    match history {
        Ok(history) => (history, None, threads),
        Err(e) => (
            PrHistory::default(),
            Some(format!(
                "the PR's reviews and comments could not be read ({e}); the model \
                 reviewers did not see the discussion"
            )),
            threads,
        ),
    }
}

/// A local range resolved to its commits (with the uncommitted work snapshotted), refused
/// when the head has nothing the base does not.
async fn resolve_local(
    path: PathBuf,
    base: Option<String>,
    head: Option<String>,
    uncommitted: Option<crate::pr::uncommitted::Uncommitted>,
    root: &Path,
) -> Result<crate::pr::local::LocalRange, PrepareError> {
    // The data directory may lie inside the work tree: its files are the review's
    // own, never part of the work under review.
    let exclude = vec![root.to_path_buf()];
    let range = blocking(move || match uncommitted {
        Some(which) => {
            crate::pr::local::resolve_uncommitted(&path, base.as_deref(), which, &exclude)
        }
        None => crate::pr::local::resolve(&path, base.as_deref(), head.as_deref()),
    })
    .await??;
    if range.merge_base_sha == range.head_sha {
        return Err(PrepareError::NothingToReview(format!(
            "{} has no commits that {} does not have",
            range.head_name, range.base_name
        )));
    }
    Ok(range)
}

/// A local range's space, keyed by its names (or commits) and opened at the commits as
/// resolved.
async fn prepare_local(
    reference: &PrRef,
    range: crate::pr::local::LocalRange,
    options: &PrepareOptions,
    root: PathBuf,
) -> Result<Prepared, PrepareError> {
    // A branch name can hold a secret (`fix-ghp_…`): the space's directory, its
    // state.json and every path printed would keep it (or, printed redacted, name a
    // folder that does not exist). Such a name keys the space by its commit, as a SHA
    // does.
    let keyed = |name: &str, sha: &crate::commit_id::CommitId| {
        if crate::reviewers::redact::outbound(name) == name {
            name.to_owned()
        } else {
            sha.to_string()
        }
    };
    let base_key = keyed(&range.base_key, &range.base_sha);
    let key = SpaceKey::local(
        &range.repo,
        &base_key,
        &keyed(&range.head_key, &range.head_sha),
    )?;
    let forge = LocalForge::new(range);
    let pr = forge.pull_request().await?;
    Progress::tell(
        &options.progress,
        PrepareEvent::Pr {
            repo: key.to_string(),
            pr: Box::new(pr.clone()),
        },
    );
    // The commits as resolved: a branch that moves meanwhile, or a snapshot of
    // uncommitted work (no name leads to it), is reviewed at what was resolved.
    let source = Source {
        title: crate::reviewers::redact::outbound(&pr.title),
        url: String::new(),
        head_sha: Some(forge.range().head_sha.to_string()),
        base_sha: Some(forge.range().base_sha.to_string()),
        // What the space is keyed by, not the spelling given (`SHA^1`, `short^`).
        base_ref: base_key,
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
    let data_root = root.clone();
    let (space, opened, diff, early_index) = blocking(move || -> Result<_, PrepareError> {
        let mut early_index = None;
        let mut listing = None;
        Progress::tell(
            &progress,
            PrepareEvent::Step("fetching the PR into the mirror"),
        );
        let (space, opened) = Space::open_with(&root, key, &source, &mut |fetched| {
            let cache = crate::cohort::cache_dir_in(fetched.space_dir);
            early_index = crate::cohort::EarlyIndex::start(
                fetched.mirror,
                &cache,
                fetched.base,
                fetched.head,
            );
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
        head_sha: space.state().head_sha.clone(),
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
        threads: Default::default(),
        login: None,
        early_index,
        connection: Connection::default(),
        offline: None,
        data_root,
    })
}

/// A review of uncommitted work, snapshotted again ([`crate::pr::uncommitted`]): when the
/// work changed, the space moves to the new snapshot (a new round starts there) and the PR
/// and the diff are read again. `false` when nothing changed, or the review is of commits
/// (nothing to snapshot).
pub(crate) async fn refresh(prepared: &mut Prepared) -> Result<bool, PrepareError> {
    let PrRef::Local {
        path,
        base,
        uncommitted: Some(which),
        ..
    } = &prepared.reference
    else {
        return Ok(false);
    };
    if prepared.offline.is_some() {
        return Ok(false);
    }
    let (path, base, which) = (path.clone(), base.clone(), *which);
    let exclude = vec![prepared.data_root.clone()];
    let range = blocking(move || {
        crate::pr::local::resolve_uncommitted(&path, base.as_deref(), which, &exclude)
    })
    .await??;
    if range.head_sha == prepared.space.state().head_sha
        && range.base_sha == prepared.space.state().base_sha
    {
        return Ok(false);
    }
    let forge = LocalForge::new(range.clone());
    let pr = forge.pull_request().await?;
    let (head, base) = (commit_id(&range.head_sha)?, commit_id(&range.base_sha)?);
    // Git and file work on the session's own space: off the async workers where there are
    // several (the space is the session's, not movable to a thread of its own).
    let space = &mut prepared.space;
    let moved = match tokio::runtime::Handle::current().runtime_flavor() {
        tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(|| space.advance(head, base))
        }
        _ => space.advance(head, base),
    };
    moved?;
    let mirror = prepared.space.mirror().to_path_buf();
    let (base_sha, head_sha) = (range.base_sha.to_string(), range.head_sha.to_string());
    let diff =
        blocking(move || diff_in_mirror(&mirror, &mirror.join(DIFF_CACHE), &base_sha, &head_sha))
            .await??;
    prepared.pr = pr;
    prepared.diff = diff;
    prepared.early_index = None;
    Ok(true)
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
    let repo = git2::Repository::open_bare(mirror).map_err(|source| PrepareError::Mirror {
        path: mirror.to_path_buf(),
        source,
    })?;
    let text = crate::diff::git::merge_base_diff_text(&repo, base_sha, head_sha)?;
    let diff = crate::diff::parse(&text)?;
    // Only a speed-up: a cache that cannot be written costs the next round a diff. A diff
    // missing a side is not kept: the contents may be there next time.
    if diff.files.iter().all(|f| f.unavailable.is_none()) {
        let _ = std::fs::create_dir_all(cache_dir)
            .and_then(|()| crate::space::write_atomically(&cached, text.as_bytes()));
    }
    Ok(diff)
}

/// The file [`diff_in_mirror`] keeps the diff of `base_sha`..`head_sha` in.
pub(crate) fn diff_cache_name(base_sha: &str, head_sha: &str) -> String {
    let name = crate::space::fsutil::name_part;
    format!("diff-{}-{}.patch", name(base_sha), name(head_sha))
}

/// This exact change was already reviewed when a round of the current range (head, base
/// branch and merge base) completed, was not Inconclusive (a reviewer that failed or did not
/// run reviewed nothing), and was published. A round that stayed in the space is reported or
/// resumed instead (`publish::rerun`).
fn already_reviewed(space: &Space) -> bool {
    let state = space.state();
    state.rounds.iter().any(|round| {
        round.completed
            && state.reviewed_now(round)
            && round.decision.as_deref() != Some(crate::review::Decision::Inconclusive.as_str())
            && state.publishes.iter().any(|p| {
                p.round == round.number && p.state == crate::space::PublishState::Published
            })
    })
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
    Ok(tokio::task::spawn_blocking(job).await?)
}

/// `sha` as git's commit id.
fn commit_id(sha: &str) -> Result<git2::Oid, PrepareError> {
    git2::Oid::from_str(sha).map_err(|source| PrepareError::NotACommitId {
        sha: sha.to_string(),
        source,
    })
}

/// The PR's review threads; a failure to read them is a notice, never a failed review.
pub(crate) async fn read_threads(
    forge: &dyn crate::pr::forge::Forge,
) -> crate::pr::threads::ThreadsRead {
    match forge.review_threads().await {
        Ok(threads) => {
            // Read without what says whether a thread is resolved (GitHub without a token):
            // said, since every such thread then counts as open.
            let unknown = threads.iter().filter(|t| t.resolution_unknown).count();
            let notice = (unknown > 0).then(|| {
                format!(
                    "whether the PR's {unknown} review thread(s) are resolved is unknown (read without a token, which {} needs to say it): each counts as open",
                    forge.name()
                )
            });
            crate::pr::threads::ThreadsRead { threads, notice }
        }
        Err(e) => crate::pr::threads::ThreadsRead {
            threads: Vec::new(),
            notice: Some(format!(
                "the PR's review threads could not be read ({e}); findings already raised in \
                 them are not recognised"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
