//! Opening a space: lock it, load or create its state, fetch the PR into the shared mirror, put
//! the worktree at the head, and start a round when the head moved. Everything here is blocking
//! git and file work; async callers run it in `spawn_blocking`.

use std::path::{Path, PathBuf};

use git2::Oid;
use thiserror::Error;

use super::fsutil::now_rfc3339;
use super::key::SpaceKey;
use super::layout::{mirror_dir, space_dir};
use super::lock::{LockError, LockFile};
use super::mirror::{FetchError, Mirror, MirrorError};
use super::state::{PrIdentity, SpaceState, StateError};
use super::store::{self, Corruption, Loaded, StoreError};
use super::token::Token;
use super::worktree::{self, WorktreeChange, WorktreeError};
use crate::commit_id::CommitId;
use crate::pr::hosted::FetchRefs;

#[derive(Debug, Error)]
pub enum SpaceError {
    #[error("space {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Locked(#[from] LockError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    State(#[from] StateError),
    #[error(transparent)]
    Mirror(#[from] MirrorError),
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error(transparent)]
    Worktree(#[from] WorktreeError),
    #[error("{repo}: no commit named {name:?}")]
    UnknownRef { repo: PathBuf, name: String },
    #[error("{what} ({reference}) was not found at {url}")]
    RefMissing {
        what: &'static str,
        reference: String,
        url: String,
    },
    #[error("the {what} commit {sha} cannot be fetched from {url}")]
    CommitMissing {
        what: &'static str,
        sha: String,
        url: String,
    },
    #[error(
        "the space of a forge's PR needs where to fetch it from and which refs \
         (Source::remote and Source::refs, from the forge)"
    )]
    NoFetchSource,
}

/// Where the PR comes from and what the forge said about it. For a local key only `title`,
/// `url` and the SHAs matter (the key names the repository, base and head; the SHAs, when
/// given, are the commits those names were resolved to).
#[derive(Debug, Clone, Default)]
pub struct Source {
    /// A forge's PR: the repository to fetch from (the forge's clone URL). A local path or
    /// `file://` URL is fetched in process (tests use a bare repository).
    pub remote: Option<String>,
    /// A forge's PR: the refs holding its head and base, as the forge names them
    /// (`ForgeKind::fetch_refs`); the space knows no forge's conventions.
    pub refs: Option<FetchRefs>,
    /// A forge's PR: the head and base SHAs it reported. When given, they are what the space
    /// checks out and records, even if the branch moved on between the API call and the fetch
    /// (the diff the forge served is for these SHAs).
    pub head_sha: Option<String>,
    pub base_sha: Option<String>,
    /// The branch the PR merges into, as the forge (or the local range) names it.
    pub base_ref: String,
    pub token: Option<Token>,
    pub title: String,
    pub url: String,
}

/// What `Space::open` found and did, for the caller to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenReport {
    /// The mirror was cloned now (false: an existing mirror was fetched into).
    pub mirror_created: bool,
    pub worktree: WorktreeChange,
    /// The round that started with this open: 1 for a new space, N+1 after a push.
    pub new_round: Option<u32>,
    /// The head the space had before, when it changed.
    pub previous_head: Option<String>,
    /// The PR head ref points past the SHA the forge reported (a push landed in between); the
    /// space stays on the reported SHA.
    pub head_ref_ahead: Option<String>,
    /// A damaged `state.json` that was moved aside; the space started afresh.
    pub corruption: Option<Corruption>,
    /// Temp files from a crashed write that were cleaned up.
    pub temp_files_removed: usize,
    /// Files of the head left out of the worktree because the repository lacks their
    /// contents (a partial clone whose promisor could not be reached, a copy without its
    /// large files): reviewers cannot read them.
    pub absent_files: Vec<String>,
}

/// An open review space. It holds the space's lock until dropped: one writer per space.
#[derive(Debug)]
pub struct Space {
    key: SpaceKey,
    dir: PathBuf,
    worktree: PathBuf,
    mirror: PathBuf,
    state: SpaceState,
    _lock: LockFile,
}

/// The commits to review and where they were fetched from.
struct Fetched {
    head: Oid,
    base: Oid,
    head_ref_ahead: Option<String>,
}

/// What [`Space::open_with`] tells its caller once the commits are in the mirror.
#[derive(Debug, Clone, Copy)]
pub struct CommitsFetched<'a> {
    pub space_dir: &'a Path,
    pub mirror: &'a Path,
    pub head: Oid,
    pub base: Oid,
}

impl Space {
    /// Opens (or creates) the space for `key` under the data root `root`, fetching the PR
    /// into the shared mirror and placing the worktree at its head.
    pub fn open(
        root: &Path,
        key: SpaceKey,
        source: &Source,
    ) -> Result<(Space, OpenReport), SpaceError> {
        Space::open_with(root, key, source, &mut |_| {})
    }

    /// [`Space::open`], calling `on_fetched` once the mirror holds both commits and before
    /// the worktree is placed, so work that needs only the commits can start beside the
    /// checkout. It runs under the mirror's lock: it must start work, not do it.
    pub fn open_with(
        root: &Path,
        key: SpaceKey,
        source: &Source,
        on_fetched: &mut dyn FnMut(CommitsFetched<'_>),
    ) -> Result<(Space, OpenReport), SpaceError> {
        // Bad local input fails before anything is created on disk.
        let local = match &key {
            SpaceKey::Local { repo, base, head } => {
                Some(match (&source.head_sha, &source.base_sha) {
                    (Some(head_sha), Some(base_sha)) => resolved_local(repo, head_sha, base_sha)?,
                    _ => resolve_local(repo, base, head)?,
                })
            }
            SpaceKey::Hosted(_) => None,
        };
        if matches!(key, SpaceKey::Hosted(_)) && (source.refs.is_none() || source.remote.is_none())
        {
            return Err(SpaceError::NoFetchSource);
        }

        let dir = space_dir(root, &key);
        let fresh_dir = !dir.exists();
        std::fs::create_dir_all(&dir).map_err(|source| SpaceError::Io {
            path: dir.clone(),
            source,
        })?;
        let opened = Space::open_in(root, &dir, key, source, local, on_fetched);
        if opened.is_err() && fresh_dir && !store::state_path(&dir).exists() {
            // Nothing was decided in it yet: leave no empty room behind a failed first open.
            let _ = std::fs::remove_dir_all(&dir);
        }
        opened
    }

    fn open_in(
        root: &Path,
        dir: &Path,
        key: SpaceKey,
        source: &Source,
        local: Option<(Oid, Oid)>,
        on_fetched: &mut dyn FnMut(CommitsFetched<'_>),
    ) -> Result<(Space, OpenReport), SpaceError> {
        let lock = LockFile::try_acquire(&dir.join("lock"))?;
        let temp_files_removed = store::clean(dir)?;
        let (loaded, corruption) = match store::load(dir)? {
            Loaded::Missing => (None, None),
            Loaded::Corrupt(c) => (None, Some(c)),
            Loaded::Recovered(state, c) if state.pr.key == key => (Some(*state), Some(c)),
            Loaded::Recovered(_, c) => (None, Some(c)),
            Loaded::Found(state) if state.pr.key != key => {
                let reason = format!("the state belongs to {}, not {key}", state.pr.key);
                (
                    None,
                    Some(store::preserve(&store::state_path(dir), reason)?),
                )
            }
            Loaded::Found(state) => (Some(*state), None),
        };

        let mirror_path = mirror_dir(root, &key);
        let (mirror, mirror_created) = Mirror::open_or_init(&mirror_path)?;
        let worktree_path = dir.join("worktree");
        let (fetched, change) = {
            // Spaces of one repository share the mirror: fetches and worktree bookkeeping in
            // it take turns. Waiting is right here, the holder is doing a bounded job.
            let _mirror_lock = LockFile::acquire(&mirror_path.join("review-tui.lock"))?;
            // Holding the mirror lock, any git lock file inside is debris of a killed process.
            mirror.clear_stale_locks()?;
            let fetched = match local {
                Some((head, base)) => fetch_local(&mirror, &key, head, base)?,
                None => fetch_hosted(&mirror, &key, source)?,
            };
            on_fetched(CommitsFetched {
                space_dir: dir,
                mirror: &mirror_path,
                head: fetched.head,
                base: fetched.base,
            });
            let change = worktree::ensure(&mirror, &key.id(), &worktree_path, fetched.head)?;
            (fetched, change)
        };
        // What the diff is taken from: with the base branch and the head, the range a round
        // reviews (a retargeted PR keeps its head and moves this).
        let merge_base =
            crate::diff::merge_base::merge_base(mirror.repo(), fetched.base, fetched.head)
                .ok()
                .map(CommitId::from);

        let now = now_rfc3339();
        let head = CommitId::from(fetched.head);
        let base = CommitId::from(fetched.base);
        let mut state = loaded.unwrap_or_else(|| {
            SpaceState::new(
                PrIdentity {
                    key: key.clone(),
                    title: String::new(),
                    number: key.display_number(),
                    url: String::new(),
                },
                head.clone(),
                base.clone(),
            )
        });
        if !source.title.is_empty() {
            state.pr.title.clone_from(&source.title);
        }
        if !source.url.is_empty() {
            state.pr.url.clone_from(&source.url);
        }
        let previous_head = (state.head_sha != head).then(|| state.head_sha.to_string());
        state.head_sha = head.clone();
        state.base_sha = base;
        state.base_ref.clone_from(&source.base_ref);
        state.merge_base = merge_base;
        // A new round when the range moved: a push moves the head; a retarget, or a base
        // rewritten under the PR, moves the base branch or the merge base and keeps the head.
        let range_moved = state
            .current_round()
            .is_some_and(|round| round.head_sha == head && !state.reviewed_now(round));
        let new_round = (state.rounds.is_empty() || previous_head.is_some() || range_moved)
            .then(|| state.start_round(&head, &now));
        store::save(dir, &state)?;

        let report = OpenReport {
            mirror_created,
            worktree: change,
            new_round,
            previous_head,
            head_ref_ahead: fetched.head_ref_ahead,
            corruption,
            temp_files_removed,
            absent_files: worktree::absent_files(&worktree_path),
        };
        let space = Space {
            key,
            dir: dir.to_path_buf(),
            worktree: worktree_path,
            mirror: mirror_path,
            state,
            _lock: lock,
        };
        Ok((space, report))
    }

    /// Opens the space for `key` as it was left, without fetching anything: for a reopen
    /// when the forge cannot be reached. The state is what the last open and the rounds since
    /// recorded; the worktree is put back at the recorded head from the mirror (no network).
    /// `None` when this machine has no state for `key` (never opened, or unreadable: then it
    /// was moved aside and the report says so); nothing is created for it.
    pub fn open_stored(
        root: &Path,
        key: SpaceKey,
    ) -> Result<Option<(Space, OpenReport)>, SpaceError> {
        let dir = space_dir(root, &key);
        if !store::state_path(&dir).exists() {
            return Ok(None);
        }
        let lock = LockFile::try_acquire(&dir.join("lock"))?;
        let temp_files_removed = store::clean(&dir)?;
        let (state, corruption) = match store::load(&dir)? {
            Loaded::Found(state) if state.pr.key == key => (*state, None),
            Loaded::Recovered(state, c) if state.pr.key == key => (*state, Some(c)),
            // Another PR's state, or nothing readable: there is no stored review of this one.
            // A damaged file was moved aside by `load`, as on any open.
            _ => return Ok(None),
        };
        if corruption.is_some() {
            // What was recovered is the state from now on, as on any open: saved before
            // anything below can decline, so the next open finds the person's decisions.
            store::save(&dir, &state)?;
        }
        let mirror_path = mirror_dir(root, &key);
        let head = Oid::from_str(&state.head_sha).ok();
        // A base equal to the head is a range of nothing: a recovered state whose base was
        // unreadable (see `SpaceState::salvage`); only an open that fetches knows it again.
        let (Some(head), true, false) =
            (head, mirror_path.exists(), state.base_sha == state.head_sha)
        else {
            return Ok(None);
        };
        let (mirror, _) = Mirror::open_or_init(&mirror_path)?;
        let worktree_path = dir.join("worktree");
        let change = {
            let _mirror_lock = LockFile::acquire(&mirror_path.join("review-tui.lock"))?;
            mirror.clear_stale_locks()?;
            if !mirror.has_commit(&state.head_sha) || !mirror.has_commit(&state.base_sha) {
                return Ok(None);
            }
            worktree::ensure(&mirror, &key.id(), &worktree_path, head)?
        };
        let report = OpenReport {
            mirror_created: false,
            worktree: change,
            new_round: None,
            previous_head: None,
            head_ref_ahead: None,
            corruption,
            temp_files_removed,
            absent_files: worktree::absent_files(&worktree_path),
        };
        let space = Space {
            key,
            dir,
            worktree: worktree_path,
            mirror: mirror_path,
            state,
            _lock: lock,
        };
        Ok(Some((space, report)))
    }

    /// A local space's commits moved while it is open (the uncommitted work under review was
    /// snapshotted again): the mirror takes them from the repository, the worktree moves to
    /// the head, and a new round starts at it, as a push to a PR does on the next open. The
    /// round started, or `None` when neither commit moved.
    pub fn advance(&mut self, head: Oid, base: Oid) -> Result<Option<u32>, SpaceError> {
        let (mirror, _) = Mirror::open_or_init(&self.mirror)?;
        {
            let _mirror_lock = LockFile::acquire(&self.mirror.join("review-tui.lock"))?;
            mirror.clear_stale_locks()?;
            fetch_local(&mirror, &self.key, head, base)?;
            worktree::ensure(&mirror, &self.key.id(), &self.worktree, head)?;
        }
        let (head, base) = (CommitId::from(head), CommitId::from(base));
        let now = now_rfc3339();
        self.update(|state| -> Result<Option<u32>, SpaceError> {
            // A new base (the upstream moved) is a new range to review, as a new head is.
            let moved = state.head_sha != head || state.base_sha != base;
            let round = moved.then(|| state.start_round(&head, &now));
            state.head_sha = head;
            state.base_sha = base;
            Ok(round)
        })
    }

    pub fn key(&self) -> &SpaceKey {
        &self.key
    }

    /// The space directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The checkout of the head SHA that reviewers read. Read-only by convention: reopening
    /// forces it back to the head.
    pub fn worktree(&self) -> &Path {
        &self.worktree
    }

    /// The bare mirror (shared with the repository's other spaces).
    pub fn mirror(&self) -> &Path {
        &self.mirror
    }

    pub fn state(&self) -> &SpaceState {
        &self.state
    }

    /// Applies `change` to the state and writes it atomically before returning. The change runs
    /// on a copy: when it fails, or the write fails, the state in memory stays what is on disk.
    /// The caller's error type absorbs store errors (`SpaceError`, `anyhow::Error`, ...).
    pub fn update<T, E>(
        &mut self,
        change: impl FnOnce(&mut SpaceState) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let mut next = self.state.clone();
        let out = change(&mut next)?;
        store::save(&self.dir, &next)?;
        self.state = next;
        Ok(out)
    }
}

/// The head and base commits the user named in their local repository.
fn resolve_local(repo_path: &Path, base: &str, head: &str) -> Result<(Oid, Oid), SpaceError> {
    let unknown = |name: &str| SpaceError::UnknownRef {
        repo: repo_path.to_path_buf(),
        name: name.to_string(),
    };
    let repo = git2::Repository::open(repo_path).map_err(|_| unknown(head))?;
    let commit = |name: &str| {
        repo.revparse_single(name)
            .and_then(|o| o.peel_to_commit())
            .map(|c| c.id())
            .map_err(|_| unknown(name))
    };
    Ok((commit(head)?, commit(base)?))
}

/// The head and base commits the caller already resolved in the local repository (a snapshot
/// of uncommitted work has no name to resolve again).
fn resolved_local(repo: &Path, head: &str, base: &str) -> Result<(Oid, Oid), SpaceError> {
    let oid = |sha: &str| {
        Oid::from_str(sha).map_err(|_| SpaceError::UnknownRef {
            repo: repo.to_path_buf(),
            name: sha.to_string(),
        })
    };
    Ok((oid(head)?, oid(base)?))
}

/// Local spaces fetch the resolved SHAs themselves: whatever the user named (a branch, a tag,
/// `HEAD~3`) was resolved once, in their repository, and the mirror records exactly that.
fn fetch_local(
    mirror: &Mirror,
    key: &SpaceKey,
    head: Oid,
    base: Oid,
) -> Result<Fetched, SpaceError> {
    let SpaceKey::Local { repo, .. } = key else {
        unreachable!("fetch_local is only called for local keys");
    };
    let url = repo.display().to_string();
    let prefix = key.ref_prefix();
    let mut wanted = Vec::new();
    for (sha, name) in [(head, "head"), (base, "base")] {
        if mirror.resolve(&format!("{prefix}/{name}")) != Some(sha) {
            wanted.push(format!("+{sha}:{prefix}/{name}"));
        }
    }
    // Nothing moved: no fetch at all, the mirror already has both commits.
    if !wanted.is_empty() {
        mirror.fetch_with_tags(&url, &wanted, None)?;
        complete_partial_clone(mirror, repo, head, base);
    }
    for (sha, what) in [(head, "head"), (base, "base")] {
        if !mirror.has_commit(&sha.to_string()) {
            return Err(SpaceError::CommitMissing {
                what,
                sha: sha.to_string(),
                url: url.clone(),
            });
        }
    }
    Ok(Fetched {
        head,
        base,
        head_ref_ahead: None,
    })
}

/// A partial clone lacks the contents of the files it never checked out, and so does the
/// mirror its objects are linked from: what the review reads of them is downloaded by git in
/// the repository, as its own commands would, and linked in. Best effort: what is still
/// absent afterwards is left out of the checkout and named (see `worktree`); the diff of a
/// file whose base side is absent fails as it would have.
fn complete_partial_clone(mirror: &Mirror, repo: &Path, head: Oid, base: Oid) {
    let Some(remote) = super::promisor::promisor_remote(repo) else {
        return;
    };
    let Ok(missing) = super::promisor::missing_blobs(mirror.repo(), base, head) else {
        return;
    };
    if !missing.is_empty() && super::promisor::fetch_blobs(repo, &remote, &missing) {
        // Linking skips what the mirror holds: only the new pack is linked.
        let _ = super::linked_objects::link_objects(mirror.path(), repo);
    }
}

/// A forge's PR: the refs its forge named (the PR head, the base branch) are fetched into the
/// space's refs, then the SHAs the forge reported are made sure of (fetched by id when a push
/// or a rewound base made them unreachable from the refs).
fn fetch_hosted(mirror: &Mirror, key: &SpaceKey, source: &Source) -> Result<Fetched, SpaceError> {
    let (Some(url), Some(refs)) = (source.remote.clone(), source.refs.as_ref()) else {
        return Err(SpaceError::NoFetchSource);
    };
    let prefix = key.ref_prefix();
    let (head_ref, base_ref) = (refs.head.clone(), refs.base.clone());
    let token = source.token.as_ref();
    mirror.fetch_with_tags(
        &url,
        &[
            format!("+{head_ref}:{prefix}/head"),
            format!("+{base_ref}:{prefix}/base"),
        ],
        token,
    )?;
    let shown_url = super::token::redact_url(&url);
    let fetched_head =
        mirror
            .resolve(&format!("{prefix}/head"))
            .ok_or_else(|| SpaceError::RefMissing {
                what: "the PR head",
                reference: head_ref.clone(),
                url: shown_url.clone(),
            })?;
    let fetched_base =
        mirror
            .resolve(&format!("{prefix}/base"))
            .ok_or_else(|| SpaceError::RefMissing {
                what: "the base branch",
                reference: base_ref.clone(),
                url: shown_url.clone(),
            })?;

    let pick = |what: &'static str, reported: Option<&str>, fetched: Oid| {
        let Some(sha) = reported else {
            return Ok(fetched);
        };
        let unknown = || SpaceError::CommitMissing {
            what,
            sha: sha.to_string(),
            url: shown_url.clone(),
        };
        let oid = Oid::from_str(sha).map_err(|_| unknown())?;
        if !mirror.has_commit(sha) {
            mirror
                .fetch(&url, &[format!("+{sha}:{prefix}/{what}-reported")], token)
                .map_err(|_| unknown())?;
            if !mirror.has_commit(sha) {
                return Err(unknown());
            }
        }
        Ok(oid)
    };
    let head = pick("head", source.head_sha.as_deref(), fetched_head)?;
    let base = pick("base", source.base_sha.as_deref(), fetched_base)?;
    Ok(Fetched {
        head,
        base,
        head_ref_ahead: (head != fetched_head).then(|| fetched_head.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::github::GITHUB;
    use crate::pr::hosted::ForgeKind;
    use crate::review::Actor;
    use crate::review::status::SuppressionHint;
    use crate::space::key::tests::github_key;
    use crate::space::state::Ladder;
    use crate::space::test_repo::{TestRepo, git};

    /// A repository with a `feature` branch one commit ahead of `main`, published as a
    /// GitHub-like bare remote with `refs/pull/1/head`.
    struct Pr {
        t: TestRepo,
        root: PathBuf,
        remote: PathBuf,
    }

    impl Pr {
        fn new() -> Pr {
            let t = TestRepo::new();
            git(&t.path(), &["checkout", "-q", "-b", "feature"]);
            let head = t.commit("src/lib.rs", "pub fn one() {}\n", "feature");
            let remote = t.github_like_remote(1, &head);
            let root = t.scratch().join("data");
            Pr { t, root, remote }
        }

        fn key(&self) -> SpaceKey {
            github_key("owner", "repo", 1)
        }

        fn source(&self) -> Source {
            self.source_of(&self.key())
        }

        /// What prepare hands over for `key`: the remote and the refs GitHub names.
        fn source_of(&self, key: &SpaceKey) -> Source {
            let SpaceKey::Hosted(pr) = key else {
                panic!("not a forge's key: {key}")
            };
            Source {
                remote: Some(self.remote.display().to_string()),
                refs: Some(GITHUB.fetch_refs(pr, "main")),
                title: "Add one".into(),
                url: "https://github.com/owner/repo/pull/1".into(),
                ..Source::default()
            }
        }

        fn open(&self) -> (Space, OpenReport) {
            Space::open(&self.root, self.key(), &self.source()).unwrap()
        }

        /// Pushes a new commit to the PR.
        fn push(&self, file: &str) -> String {
            let head = self.t.commit(file, "more\n", "push");
            self.t.github_like_remote(1, &head);
            head
        }
    }

    #[test]
    fn the_mirror_learns_the_version_tags_of_a_forges_repository_and_of_a_local_one() {
        let t = TestRepo::new();
        git(&t.path(), &["tag", "-a", "-m", "release", "v1.0.0"]);
        git(&t.path(), &["tag", "docs-preview"]);
        git(&t.path(), &["checkout", "-q", "-b", "feature"]);
        let head = t.commit("src/lib.rs", "pub fn one() {}\n", "feature");
        let remote = t.github_like_remote(1, &head);
        let pr = Pr {
            root: t.scratch().join("data"),
            t,
            remote,
        };
        let (space, _) = pr.open();
        assert_eq!(git(space.mirror(), &["tag", "--list"]), "v1.0.0");
        drop(space);

        git(&pr.t.path(), &["tag", "lib-2.0.0-rc.1", "feature"]);
        let key = SpaceKey::local(&pr.t.path(), "main", "feature").unwrap();
        let root = pr.t.scratch().join("local-data");
        let (space, _) = Space::open(&root, key, &Source::default()).unwrap();
        assert_eq!(
            git(space.mirror(), &["tag", "--list"]),
            "lib-2.0.0-rc.1\nv1.0.0"
        );
    }

    #[test]
    fn first_open_builds_everything_and_reopen_reuses_it() {
        let pr = Pr::new();
        let head = pr.t.sha("feature");
        let (space, report) = pr.open();
        assert!(report.mirror_created);
        assert_eq!(report.worktree, WorktreeChange::Created);
        assert_eq!(report.new_round, Some(1));
        assert_eq!(report.corruption, None);
        assert_eq!(space.path(), space_dir(&pr.root, &pr.key()));
        assert_eq!(space.worktree(), space.path().join("worktree"));
        assert_eq!(git(space.worktree(), &["rev-parse", "HEAD"]), head);
        assert!(space.worktree().join("src/lib.rs").exists());

        let state = space.state();
        assert_eq!(state.head_sha, head);
        assert_eq!(state.base_sha, pr.t.sha("main"));
        assert_eq!(state.pr.title, "Add one");
        assert_eq!(state.pr.number, "#1");
        assert_eq!(state.ladder(), Ladder::Requested);
        assert_eq!(state.rounds.len(), 1);
        assert_eq!(
            git(space.mirror(), &["rev-parse", "refs/review-tui/pr/1/head"]),
            head
        );
        let on_disk = std::fs::read_to_string(space.path().join("state.json")).unwrap();
        assert!(on_disk.contains(&head));

        // A marker inside the mirror survives reopening: it was not cloned again.
        let marker = space.mirror().join("marker");
        std::fs::write(&marker, "first").unwrap();
        drop(space);
        let (space, report) = pr.open();
        assert!(!report.mirror_created);
        assert_eq!(report.worktree, WorktreeChange::Unchanged);
        assert_eq!(report.new_round, None);
        assert_eq!(report.previous_head, None);
        assert_eq!(std::fs::read_to_string(&marker).unwrap(), "first");
        assert_eq!(space.state().rounds.len(), 1);
        assert_eq!(git(space.worktree(), &["rev-parse", "HEAD"]), head);
    }

    #[test]
    fn a_stored_space_opens_without_its_remote_and_changes_nothing() {
        let pr = Pr::new();
        // Never opened: nothing to open, and nothing is created for it.
        assert!(Space::open_stored(&pr.root, pr.key()).unwrap().is_none());
        assert!(!space_dir(&pr.root, &pr.key()).exists());

        let (mut space, _) = pr.open();
        space
            .update(|s| -> Result<(), SpaceError> {
                Ok(s.complete_round(vec!["fp".into()], "ship", "2026-01-01T00:00:00Z")?)
            })
            .unwrap();
        let stored = space.state().clone();
        drop(space);
        // The remote is gone: only what is on this machine is read.
        std::fs::remove_dir_all(&pr.remote).unwrap();
        std::fs::remove_dir_all(space_dir(&pr.root, &pr.key()).join("worktree")).unwrap();
        let (space, report) = Space::open_stored(&pr.root, pr.key()).unwrap().unwrap();
        assert_eq!(space.state(), &stored);
        assert_eq!(report.new_round, None);
        assert_eq!(report.worktree, WorktreeChange::Created);
        assert_eq!(
            git(space.worktree(), &["rev-parse", "HEAD"]),
            stored.head_sha
        );
        // It holds the lock like any open.
        assert!(Space::open_stored(&pr.root, pr.key()).is_err());
        drop(space);
        // Another PR's key has no state of its own here.
        let other = github_key("owner", "repo", 2);
        assert!(Space::open_stored(&pr.root, other).unwrap().is_none());
    }

    #[test]
    fn a_push_moves_the_worktree_and_starts_a_round() {
        let pr = Pr::new();
        let (mut space, _) = pr.open();
        let old = space.state().head_sha.clone();
        space
            .update(|s| {
                s.advance(Ladder::AwaitingApproval)
                    .map_err(SpaceError::from)
            })
            .unwrap();
        drop(space);

        let new = pr.push("src/two.rs");
        let (space, report) = pr.open();
        assert_eq!(
            report.worktree,
            WorktreeChange::Moved {
                from: Oid::from_str(&old).unwrap()
            }
        );
        assert_eq!(report.new_round, Some(2));
        assert_eq!(report.previous_head.as_deref(), Some(old.as_str()));
        assert_eq!(git(space.worktree(), &["rev-parse", "HEAD"]), new);
        assert!(space.worktree().join("src/two.rs").exists());
        let state = space.state();
        assert_eq!(state.head_sha, new);
        assert_eq!(state.ladder(), Ladder::Requested);
        let heads: Vec<&str> = state.rounds.iter().map(|r| r.head_sha.as_str()).collect();
        assert_eq!(heads, vec![old.as_str(), new.as_str()]);
    }

    #[test]
    fn the_sha_the_forge_reported_wins_over_a_later_push() {
        let pr = Pr::new();
        let reported = pr.t.sha("feature");
        let pushed = pr.push("late.txt");
        let source = Source {
            head_sha: Some(reported.clone()),
            base_sha: Some(pr.t.sha("main")),
            ..pr.source()
        };
        let (space, report) = Space::open(&pr.root, pr.key(), &source).unwrap();
        assert_eq!(report.head_ref_ahead.as_deref(), Some(pushed.as_str()));
        assert_eq!(space.state().head_sha, reported);
        assert_eq!(git(space.worktree(), &["rev-parse", "HEAD"]), reported);
    }

    #[test]
    fn a_reported_sha_nobody_has_is_an_error() {
        let pr = Pr::new();
        let source = Source {
            head_sha: Some("1111111111111111111111111111111111111111".into()),
            ..pr.source()
        };
        let err = Space::open(&pr.root, pr.key(), &source).unwrap_err();
        assert!(
            matches!(err, SpaceError::CommitMissing { what: "head", .. }),
            "{err}"
        );
        // A failed first open leaves no empty space behind.
        assert!(!space_dir(&pr.root, &pr.key()).exists());
    }

    #[test]
    fn prs_of_one_repository_share_the_mirror() {
        let pr = Pr::new();
        git(
            &pr.remote,
            &["update-ref", "refs/pull/2/head", "refs/heads/main"],
        );
        let (one, first) = pr.open();
        let key_two = github_key("owner", "repo", 2);
        let (two, second) =
            Space::open(&pr.root, key_two.clone(), &pr.source_of(&key_two)).unwrap();
        assert!(first.mirror_created);
        assert!(!second.mirror_created);
        assert_eq!(one.mirror(), two.mirror());
        assert_ne!(one.path(), two.path());
        assert_eq!(
            git(two.worktree(), &["rev-parse", "HEAD"]),
            pr.t.sha("main")
        );
        assert_eq!(
            git(one.worktree(), &["rev-parse", "HEAD"]),
            pr.t.sha("feature")
        );
    }

    #[test]
    fn a_second_writer_is_refused_with_the_holder_named() {
        let pr = Pr::new();
        let (space, _) = pr.open();
        let err = Space::open(&pr.root, pr.key(), &pr.source()).unwrap_err();
        let SpaceError::Locked(LockError::Held { holder, .. }) = &err else {
            panic!("expected a held lock, got {err}");
        };
        assert_eq!(holder.as_ref().unwrap().pid, std::process::id());
        assert!(err.to_string().contains("pid"), "{err}");
        // The refusal did not disturb the holder's space.
        assert!(space.path().join("state.json").exists());
        drop(space);
        pr.open();
    }

    #[test]
    fn updates_are_persisted_and_a_failed_update_changes_nothing() {
        let pr = Pr::new();
        let (mut space, _) = pr.open();
        space
            .update(|s| {
                s.advance(Ladder::InProgress)?;
                s.suppression_hints.push(SuppressionHint {
                    fingerprint: "fp".into(),
                    reason: "intended".into(),
                    by: Actor::Person("ana".into()),
                    at: "2026-01-01T00:00:00Z".into(),
                    confidence: 0.3,
                });
                Ok::<_, SpaceError>(())
            })
            .unwrap();

        let before = std::fs::read(space.path().join("state.json")).unwrap();
        let err = space
            .update(|s| {
                s.nodes.clear();
                s.advance(Ladder::Requested).map_err(SpaceError::from)
            })
            .unwrap_err();
        assert!(matches!(err, SpaceError::State(_)), "{err}");
        assert_eq!(space.state().ladder(), Ladder::InProgress);
        assert_eq!(
            std::fs::read(space.path().join("state.json")).unwrap(),
            before
        );
        drop(space);

        let (space, _) = pr.open();
        assert_eq!(space.state().ladder(), Ladder::InProgress);
        assert_eq!(space.state().suppression_hints.len(), 1);
    }

    #[test]
    fn a_corrupt_state_is_kept_aside_and_a_fresh_one_starts() {
        let pr = Pr::new();
        let (space, _) = pr.open();
        let dir = space.path().to_path_buf();
        drop(space);
        let full = std::fs::read_to_string(dir.join("state.json")).unwrap();
        let truncated = &full[..full.len() / 3];
        std::fs::write(dir.join("state.json"), truncated).unwrap();
        std::fs::write(dir.join(".state.json.tmp-4242-0"), "half a write").unwrap();

        let (space, report) = pr.open();
        let corruption = report.corruption.expect("corruption reported");
        assert!(corruption.reason.contains("not a valid state"));
        assert_eq!(
            std::fs::read_to_string(&corruption.preserved_at).unwrap(),
            truncated
        );
        assert!(
            corruption
                .preserved_at
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("state.json.corrupt-")
        );
        assert_eq!(report.temp_files_removed, 1);
        assert_eq!(report.new_round, Some(1));
        assert_eq!(space.state().rounds.len(), 1);

        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with("state.json.corrupt-"))
            .collect();
        names.sort();
        assert_eq!(names, vec!["lock", "state.json", "worktree"]);
    }

    #[test]
    fn a_state_from_another_pr_is_not_adopted() {
        let pr = Pr::new();
        let (space, _) = pr.open();
        let dir = space.path().to_path_buf();
        let (head, base) = (
            space.state().head_sha.clone(),
            space.state().base_sha.clone(),
        );
        drop(space);
        let other = SpaceState::new(
            PrIdentity {
                key: github_key("someone", "else", 9),
                title: String::new(),
                number: "#9".into(),
                url: String::new(),
            },
            head,
            base,
        );
        store::save(&dir, &other).unwrap();
        let (space, report) = pr.open();
        assert!(report.corruption.unwrap().reason.contains("someone/else#9"));
        assert_eq!(space.state().pr.key, pr.key());
    }

    #[cfg(unix)]
    #[test]
    fn local_space_from_any_spelling_and_a_new_commit_starts_a_round() {
        let pr = Pr::new();
        let repo = pr.t.path();
        let link = pr.t.scratch().join("link");
        std::os::unix::fs::symlink(&repo, &link).unwrap();
        let trailing = PathBuf::from(format!("{}/", repo.display()));

        let key = SpaceKey::local(&repo, "main", "feature").unwrap();
        let (space, report) = Space::open(&pr.root, key, &Source::default()).unwrap();
        assert!(report.mirror_created);
        assert_eq!(report.new_round, Some(1));
        assert_eq!(space.state().pr.number, "main..feature");
        assert_eq!(space.state().head_sha, pr.t.sha("feature"));
        assert_eq!(space.state().base_sha, pr.t.sha("main"));
        assert_eq!(
            git(space.worktree(), &["rev-parse", "HEAD"]),
            pr.t.sha("feature")
        );
        let dir = space.path().to_path_buf();
        drop(space);

        for spelling in [&link, &trailing] {
            let key = SpaceKey::local(spelling, "main", "feature").unwrap();
            let (space, report) = Space::open(&pr.root, key, &Source::default()).unwrap();
            assert_eq!(space.path(), dir);
            assert!(!report.mirror_created);
            assert_eq!(report.new_round, None);
        }

        let new = pr.t.commit("src/three.rs", "3\n", "third");
        let key = SpaceKey::local(&link, "main", "feature").unwrap();
        let (space, report) = Space::open(&pr.root, key, &Source::default()).unwrap();
        assert_eq!(report.new_round, Some(2));
        assert!(matches!(report.worktree, WorktreeChange::Moved { .. }));
        assert_eq!(git(space.worktree(), &["rev-parse", "HEAD"]), new);
    }

    #[test]
    fn an_unknown_local_ref_creates_nothing() {
        let pr = Pr::new();
        let key = SpaceKey::local(&pr.t.path(), "main", "no-such-branch").unwrap();
        let err = Space::open(&pr.root, key, &Source::default()).unwrap_err();
        assert!(
            matches!(&err, SpaceError::UnknownRef { name, .. } if name == "no-such-branch"),
            "{err}"
        );
        assert!(!pr.root.exists());
    }

    #[test]
    fn a_forges_pr_without_its_refs_or_remote_is_refused() {
        let pr = Pr::new();
        for source in [
            Source {
                refs: None,
                ..pr.source()
            },
            Source {
                remote: None,
                ..pr.source()
            },
        ] {
            let err = Space::open(&pr.root, pr.key(), &source).unwrap_err();
            assert!(matches!(err, SpaceError::NoFetchSource), "{err}");
        }
        assert!(!pr.root.exists());
    }
}
