//! The local forge's first half: resolving a branch range in a repository on disk. No network,
//! no token.

use std::path::{Path, PathBuf};

use crate::commit_id::CommitId;
use git2::{BranchType, Oid, Repository};
use thiserror::Error;

use super::forge::{
    BranchTip, ChangedFile, CheckRun, FileStatus, Forge, ForgeFuture, NewReview, PostedReview,
    PrHistory, PrState, PullRequest, is_bot,
};
use super::uncommitted::Uncommitted;

/// A local repository is always reachable and has no accounts: its errors are of no other kind.
impl From<LocalError> for super::forge::ForgeError {
    fn from(error: LocalError) -> Self {
        super::forge::ForgeError::new(super::forge::ForgeErrorKind::Other, error)
    }
}

#[derive(Debug, Error)]
pub enum LocalError {
    #[error("no git repository at {path}: pass the path of a repository (or a folder inside one)")]
    NotARepository { path: String },
    #[error("unknown {which} `{name}` in {repo}: name a branch, tag or commit that exists there")]
    UnknownRef {
        which: &'static str,
        name: String,
        repo: String,
    },
    #[error(
        "could not work out the base branch of {repo}: the current branch has no upstream and there is no `main` or `master`; pass PATH#BASE..HEAD or --base BASE"
    )]
    NoBase { repo: String },
    /// `review-tui .` on the default branch itself, with nothing upstream to compare it with.
    #[error(
        "{head} is the base branch of {repo} itself (it has no upstream to compare with), so \
         there is nothing to review: check out the branch to review, or pass PATH#BASE..HEAD"
    )]
    OnBaseBranch { head: String, repo: String },
    #[error(
        "{base} and {head} share no history in {repo}: there is no merge base to diff from{}",
        if *shallow {
            "; this is a shallow clone, so the history may just be missing: run `git fetch \
             --unshallow` (or `git fetch --deepen=N`) there and try again"
        } else {
            ""
        }
    )]
    NoMergeBase {
        base: String,
        head: String,
        repo: String,
        shallow: bool,
    },
    #[error(transparent)]
    Diff(#[from] crate::diff::DiffError),
    #[error(transparent)]
    Uncommitted(#[from] super::uncommitted::UncommittedError),
    #[error("git: {0}")]
    Git(#[from] git2::Error),
    #[error(
        "a local repository has no forge to {0}: publishing writes review.md and review.json into the review space"
    )]
    CannotPost(&'static str),
}

/// A resolved range: what the review compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocalRange {
    /// The repository's canonical location (its work tree, or the git dir of a bare repository).
    pub repo: PathBuf,
    /// The names as given (or found), for display: `main`, `HEAD~1`, `3f2a9c1^`.
    pub base_name: String,
    pub head_name: String,
    /// What the review space is keyed by: a branch's name (a push moves it and the space
    /// follows with a new round), else the commit the name resolves to, so two spellings of
    /// one range (`SHA^1..SHA`, `short^..short`, a detached HEAD) are one space.
    pub base_key: String,
    pub head_key: String,
    pub base_sha: CommitId,
    pub head_sha: CommitId,
    /// The diff is taken from here, as GitHub does for a PR.
    pub merge_base_sha: CommitId,
}

pub(crate) fn resolve(
    path: &Path,
    base: Option<&str>,
    head: Option<&str>,
) -> Result<LocalRange, LocalError> {
    resolve_in(path, base, head, false)
}

/// The range of a review of uncommitted work: the checked-out branch's base (as [`resolve`]
/// works it out, or `base`) to a commit holding `which` work on top of `HEAD`
/// ([`super::uncommitted::snapshot`]), keyed by the branch and the kind of work
/// (`feature (worktree)`). On a branch with nothing to compare it with (the base branch
/// itself, no upstream) the base is `HEAD`: the review is of the uncommitted work alone.
/// Paths under `exclude` stay out of the snapshot.
pub(crate) fn resolve_uncommitted(
    path: &Path,
    base: Option<&str>,
    which: Uncommitted,
    exclude: &[PathBuf],
) -> Result<LocalRange, LocalError> {
    let mut range = resolve_in(path, base, None, true)?;
    let repo = Repository::open(&range.repo)?;
    let snapshot = super::uncommitted::snapshot(&repo, which, &range.head_name, exclude)?;
    range.head_name = format!("{} ({})", range.head_name, which.label());
    range.head_key = format!("{} ({})", range.head_key, which.label());
    range.head_sha = CommitId::from(snapshot);
    Ok(range)
}

fn resolve_in(
    path: &Path,
    base: Option<&str>,
    head: Option<&str>,
    base_may_be_head: bool,
) -> Result<LocalRange, LocalError> {
    let shown = path.display().to_string();
    let repo = Repository::discover(path).map_err(|_| LocalError::NotARepository {
        path: shown.clone(),
    })?;
    let root = repo
        .workdir()
        .unwrap_or_else(|| repo.path())
        .canonicalize()
        .map_err(|_| LocalError::NotARepository {
            path: shown.clone(),
        })?;
    let repo_name = root.display().to_string();

    let head_name = match head {
        Some(name) => name.to_string(),
        None => current_branch(&repo).unwrap_or_else(|| "HEAD".to_string()),
    };
    let head_oid = commit_of(&repo, &head_name, "head", &repo_name)?;
    let base_name = match base {
        Some(name) => name.to_string(),
        None if base_may_be_head => {
            default_base(&repo, &head_name).unwrap_or_else(|| head_name.clone())
        }
        None => default_base(&repo, &head_name).ok_or_else(|| {
            if ["main", "master"].contains(&head_name.as_str()) {
                LocalError::OnBaseBranch {
                    head: head_name.clone(),
                    repo: repo_name.clone(),
                }
            } else {
                LocalError::NoBase {
                    repo: repo_name.clone(),
                }
            }
        })?,
    };
    let base_oid = commit_of(&repo, &base_name, "base", &repo_name)?;
    let merge_base =
        crate::diff::merge_base::merge_base(&repo, base_oid, head_oid).map_err(|_| {
            LocalError::NoMergeBase {
                base: base_name.clone(),
                head: head_name.clone(),
                repo: repo_name.clone(),
                shallow: repo.is_shallow(),
            }
        })?;
    Ok(LocalRange {
        repo: root,
        base_key: key_name(&repo, &base_name, base_oid),
        head_key: key_name(&repo, &head_name, head_oid),
        base_name,
        head_name,
        base_sha: CommitId::from(base_oid),
        head_sha: CommitId::from(head_oid),
        merge_base_sha: CommitId::from(merge_base),
    })
}

/// How many files of the work tree at `path` differ from its checked-out commit (modified,
/// staged, untracked; ignored files not counted), when `head` names that commit: a review of
/// the committed range does not see them, and the person must be told. `None` when `head` is
/// another revision or the repository cannot be read.
pub fn uncommitted(path: &Path, head: Option<&str>) -> Option<usize> {
    let repo = Repository::discover(path).ok()?;
    if repo.is_bare() {
        return None;
    }
    if let Some(head) = head {
        let checked_out = repo.head().ok()?.peel_to_commit().ok()?.id();
        if commit_of(&repo, head, "head", "").ok()? != checked_out {
            return None;
        }
    }
    let mut options = git2::StatusOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false);
    Some(repo.statuses(Some(&mut options)).ok()?.len())
}

fn commit_of(
    repo: &Repository,
    name: &str,
    which: &'static str,
    repo_name: &str,
) -> Result<Oid, LocalError> {
    repo.revparse_single(name)
        .and_then(|object| object.peel_to_commit())
        .map(|commit| commit.id())
        .map_err(|_| LocalError::UnknownRef {
            which,
            name: name.to_string(),
            repo: repo_name.to_string(),
        })
}

/// A branch (local or remote-tracking, also through `HEAD`) by its short name; anything else by
/// the full id of the commit it names.
fn key_name(repo: &Repository, name: &str, commit: Oid) -> String {
    let branch = repo
        .resolve_reference_from_short_name(name)
        .and_then(|reference| reference.resolve())
        .ok()
        .filter(|reference| reference.is_branch() || reference.is_remote())
        .and_then(|reference| reference.shorthand().ok().map(str::to_string));
    branch.unwrap_or_else(|| commit.to_string())
}

fn current_branch(repo: &Repository) -> Option<String> {
    let head = repo.head().ok()?;
    if head.is_branch() {
        head.shorthand().ok().map(str::to_string)
    } else {
        None
    }
}

/// The head branch's upstream, else `main`, else `master` (local, then `origin/`), skipping the
/// head itself.
fn default_base(repo: &Repository, head_name: &str) -> Option<String> {
    let upstream = repo
        .find_branch(head_name, BranchType::Local)
        .and_then(|branch| branch.upstream())
        .ok()
        .and_then(|upstream| upstream.name().ok().flatten().map(str::to_string));
    if upstream.is_some() {
        return upstream;
    }
    ["main", "master", "origin/main", "origin/master"]
        .into_iter()
        .filter(|name| *name != head_name)
        .find(|name| repo.revparse_single(name).is_ok())
        .map(str::to_string)
}

/// A local branch range served through the same `Forge` trait as GitHub: metadata is read from
/// the commits, there is no history and nobody to authenticate as.
#[derive(Debug, Clone)]
pub(crate) struct LocalForge {
    range: LocalRange,
}

impl LocalForge {
    pub(crate) fn new(range: LocalRange) -> LocalForge {
        LocalForge { range }
    }

    pub(crate) fn range(&self) -> &LocalRange {
        &self.range
    }

    fn open(&self) -> Result<Repository, LocalError> {
        Ok(Repository::open(&self.range.repo)?)
    }

    fn read_pull_request(&self) -> Result<PullRequest, LocalError> {
        let repo = self.open()?;
        let head = repo.find_commit(Oid::from_str(&self.range.head_sha)?)?;
        let author = head.author().name().unwrap_or("unknown").to_string();
        // The "description" is the range's commit messages, newest first, as a PR body would
        // summarise them.
        let mut walk = repo.revwalk()?;
        walk.push(head.id())?;
        walk.hide(Oid::from_str(&self.range.merge_base_sha)?)?;
        let mut body = String::new();
        for oid in walk.take(100) {
            let commit = repo.find_commit(oid?)?;
            body.push_str(commit.message().unwrap_or("").trim());
            body.push_str("\n\n");
        }
        Ok(PullRequest {
            number: 0,
            title: head.summary().ok().flatten().unwrap_or("").to_string(),
            body: body.trim_end().to_string(),
            author_is_bot: is_bot(&author, None),
            author,
            state: PrState::Open,
            draft: false,
            base: BranchTip {
                ref_name: self.range.base_name.clone(),
                sha: self.range.base_sha.clone(),
            },
            head: BranchTip {
                ref_name: self.range.head_name.clone(),
                sha: self.range.head_sha.clone(),
            },
            clone_url: self.range.repo.display().to_string(),
            html_url: String::new(),
        })
    }

    fn read_diff(&self) -> Result<crate::diff::Diff, LocalError> {
        let repo = self.open()?;
        Ok(crate::diff::git::merge_base_diff(
            &repo,
            &self.range.base_sha,
            &self.range.head_sha,
        )?)
    }
}

impl Forge for LocalForge {
    fn name(&self) -> &'static str {
        "local git"
    }

    fn label(&self) -> String {
        format!("{}..{}", self.range.base_name, self.range.head_name)
    }

    fn review_url(&self, _: &PullRequest, _: u64) -> String {
        String::new()
    }

    fn token_hint(&self) -> &'static str {
        "no token: a local range is never posted"
    }

    fn pull_request(&self) -> ForgeFuture<'_, PullRequest> {
        Box::pin(async move { Ok(self.read_pull_request()?) })
    }

    fn changed_files(&self) -> ForgeFuture<'_, Vec<ChangedFile>> {
        Box::pin(async move {
            let diff = self.read_diff()?;
            Ok(diff.files.iter().map(changed_file).collect())
        })
    }

    fn diff(&self) -> ForgeFuture<'_, String> {
        Box::pin(async move {
            let repo = self.open()?;
            Ok(crate::diff::git::merge_base_diff_text(
                &repo,
                &self.range.base_sha,
                &self.range.head_sha,
            )
            .map_err(LocalError::from)?)
        })
    }

    fn history(&self) -> ForgeFuture<'_, PrHistory> {
        Box::pin(async { Ok(PrHistory::default()) })
    }

    fn authenticated_user(&self) -> ForgeFuture<'_, Option<String>> {
        Box::pin(async { Ok(None) })
    }

    // A local range has nowhere to post: its publisher writes the review into the space
    // (`crate::publish::local`), so these calls are refused rather than faked.
    fn create_review<'a>(&'a self, _: &'a NewReview) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async { Err(LocalError::CannotPost("submit a review").into()) })
    }

    fn update_review<'a>(&'a self, _: u64, _: &'a str) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async { Err(LocalError::CannotPost("edit a review").into()) })
    }

    fn dismiss_review<'a>(&'a self, _: u64, _: &'a str) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async { Err(LocalError::CannotPost("dismiss a review").into()) })
    }

    fn reply_to_comment<'a>(&'a self, _: u64, _: &'a str) -> ForgeFuture<'a, u64> {
        Box::pin(async { Err(LocalError::CannotPost("reply to a comment").into()) })
    }

    fn check_runs<'a>(&'a self, _: &'a str) -> ForgeFuture<'a, Vec<CheckRun>> {
        Box::pin(async { Err(LocalError::CannotPost("read check runs").into()) })
    }
}

/// The forge-neutral view of one file of a parsed diff.
pub(crate) fn changed_file(file: &crate::diff::FileDiff) -> ChangedFile {
    use crate::diff::FileStatus as Diff;
    ChangedFile {
        path: file.path.clone(),
        previous_path: file.old_path.clone(),
        status: match file.status {
            Diff::Added => FileStatus::Added,
            Diff::Deleted => FileStatus::Removed,
            Diff::Renamed => FileStatus::Renamed,
            Diff::Copied => FileStatus::Copied,
            Diff::Modified if file.hunks.is_empty() && file.mode_changed() => FileStatus::Changed,
            Diff::Modified => FileStatus::Modified,
        },
        additions: file.additions as u32,
        deletions: file.deletions as u32,
        patch: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

    #[test]
    fn a_range_is_keyed_by_branch_names_or_else_by_the_commits_it_names() {
        let repo = TestRepo::new();
        git(&repo.path(), &["checkout", "-q", "-b", "feature"]);
        let head = repo.commit("src/a.rs", "fn a() {}\n", "add a");
        let base = repo.sha("HEAD^1");
        let keys = |base: &str, head: &str| {
            let range = resolve(&repo.path(), Some(base), Some(head)).unwrap();
            (range.base_key, range.head_key)
        };
        // Branches keep their names (the space follows a push), HEAD is its branch.
        assert_eq!(keys("main", "feature"), ("main".into(), "feature".into()));
        assert_eq!(keys("main", "HEAD"), ("main".into(), "feature".into()));
        // Every spelling of one commit range is the same key, and the labels stay as typed.
        let full = (base.clone(), head.clone());
        assert_eq!(keys(&format!("{head}^1"), &head), full);
        assert_eq!(keys(&format!("{}^", &head[..7]), &head[..7]), full);
        let range = resolve(&repo.path(), Some("HEAD~1"), Some(&head[..7])).unwrap();
        assert_eq!(
            (range.base_name.as_str(), range.head_name.as_str()),
            ("HEAD~1", &head[..7])
        );
        // A detached HEAD is its commit, not the word HEAD.
        git(&repo.path(), &["checkout", "-q", "--detach", "HEAD"]);
        let detached = resolve(&repo.path(), Some("main"), None).unwrap();
        assert_eq!(detached.head_key, head);
        assert_eq!(detached.base_key, "main");
    }
}
