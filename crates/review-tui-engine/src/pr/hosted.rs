//! The forge as the rest of the engine sees it before any network call: how a person writes a
//! reference to one of its pull requests, the one spelling of that PR (which names its review
//! space), which git refs hold the PR's commits, and how to connect to it (its settings, its
//! token, its client). Each forge implements [`ForgeKind`] in its own folder and has one line
//! in `pr::registry`; nothing outside that folder knows its conventions (`refs/pull/N/head`,
//! `OWNER/REPO#N`, case-insensitive names, `GH_TOKEN`, `[github]`).

use std::fmt;
use std::sync::Arc;

use super::connect::{Connected, Connection, ForgeSettings, SettingError};
use super::forge::{ForgeError, ForgeFuture};
use super::inbox::{InboxAnswer, InboxQuery};
use super::ref_error::RefError;
use super::url_parts::url_parts;
use crate::config::Config;
use crate::path_component::sanitize_component;

/// One pull request on a hosted forge, spelled one way: two references to the same PR give
/// equal values (the forge normalises them when it parses), so they open one space.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostedPr {
    /// The forge's id (`github`), as registered.
    pub forge: String,
    /// The installation's directory name under the data root's `spaces/` and `mirrors/`,
    /// decided by the forge (`ForgeKind::site`): its id for its public host, the id and the
    /// host for a self-hosted one.
    pub site: String,
    /// The host the PR lives on (`github.com`, an Enterprise host).
    pub host: String,
    pub owner: String,
    pub repo: String,
    pub number: u64,
}

impl HostedPr {
    /// A PR of `forge`, which matches host, owner and repository names case-insensitively:
    /// spelled in lower case, so every spelling of it is one value (and opens one space).
    pub fn case_folded(
        forge: &dyn ForgeKind,
        host: &str,
        owner: &str,
        repo: &str,
        number: u64,
    ) -> HostedPr {
        let host = host.to_ascii_lowercase();
        HostedPr {
            forge: forge.id().to_string(),
            site: forge.site(&host),
            host,
            owner: owner.to_ascii_lowercase(),
            repo: repo.to_ascii_lowercase(),
            number,
        }
    }

    /// Whether the PR is on its forge's public host, so that `owner/repo#N` says enough.
    pub fn on_public_host(&self) -> bool {
        self.site == self.forge
    }
}

impl fmt::Display for HostedPr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let HostedPr {
            host,
            owner,
            repo,
            number,
            ..
        } = self;
        if self.on_public_host() {
            write!(f, "{owner}/{repo}#{number}")
        } else {
            write!(f, "{host}/{owner}/{repo}#{number}")
        }
    }
}

/// The refs to fetch for a PR: where the forge keeps its head (GitHub: `refs/pull/N/head`,
/// which also holds a fork's commits) and the base branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchRefs {
    pub head: String,
    pub base: String,
}

/// What a forge tells the engine about its own conventions. One value per forge, listed in
/// `pr::registry::FORGES`; the per-PR calls (metadata, diff, publishing) are [`super::forge::Forge`].
pub trait ForgeKind: Sync {
    /// The forge's id, stored in every space key of its PRs (`state.json`): never change it.
    fn id(&self) -> &'static str;
    /// Its name as people know it (`GitHub`), for what is said about it.
    fn name(&self) -> &'static str;
    /// How a reference to one of its PRs is written, for the error that lists what is accepted.
    fn reference_forms(&self) -> &'static str;
    /// The host known without any configuration (`github.com`), whose PRs live under the
    /// forge's id alone.
    fn public_host(&self) -> &'static str;
    /// The PR `text` names, in its one spelling. `Ok(None)` when the text is not in this
    /// forge's shape (another forge, or a local path, may take it); an error when it is in
    /// its shape but wrong (a number that is not one, a name that could walk a path).
    fn parse_reference(&self, text: &str) -> Result<Option<HostedPr>, RefError> {
        let given = text.trim();
        match url_parts(given) {
            Some(parts) => self.parse_url(given, &parts),
            None => self.parse_short(given),
        }
    }
    /// The PR an `https://` or `http://` URL names (`parts`: its host, then each path
    /// segment, see [`url_parts`]), as [`ForgeKind::parse_reference`] says.
    fn parse_url(&self, given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError>;
    /// The PR a short reference that is no URL names (`OWNER/REPO#N`); none by default.
    fn parse_short(&self, given: &str) -> Result<Option<HostedPr>, RefError> {
        let _ = given;
        Ok(None)
    }
    /// The directory name of an installation on `host` (see [`HostedPr::site`]): the forge's
    /// id for its public host, `<id>-<host>` for any other. Part of the on-disk layout: spaces
    /// written before must keep resolving to the same name.
    fn site(&self, host: &str) -> String {
        if host == self.public_host() {
            self.id().to_string()
        } else {
            format!("{}-{}", self.id(), sanitize_component(host))
        }
    }
    /// The ref that holds the head of PR `number` (`refs/pull/N/head`).
    fn head_ref(&self, number: u64) -> String;
    /// The refs that hold `pr`'s commits, whose base branch is `base_branch`.
    fn fetch_refs(&self, pr: &HostedPr, base_branch: &str) -> FetchRefs {
        let base_branch = base_branch
            .strip_prefix("refs/heads/")
            .unwrap_or(base_branch);
        FetchRefs {
            head: self.head_ref(pr.number),
            base: format!("refs/heads/{base_branch}"),
        }
    }
    /// Its settings: its own section of the configuration, then the environment; its defaults
    /// where neither says anything. Read once per run (`pr::registry::connection`).
    fn settings(&self, config: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError>;
    /// Its client for `pr`, made the way `connection` says (the API address, whose token,
    /// its settings), and which remotes git may send that token to. No call is made yet.
    fn connect(&self, pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError>;
    /// Whether `url`, as one of this forge's lists gave it, is its address of pull request
    /// `number` of `repo` on `host`: the address an inbox row opens must be the pull request
    /// the row shows, never one elsewhere (a server's answer is untrusted).
    fn names(&self, url: &str, host: &str, repo: &str, number: u64) -> bool {
        match self.parse_reference(url) {
            Ok(Some(pr)) => {
                pr.host.eq_ignore_ascii_case(host)
                    && pr.number == number
                    && format!("{}/{}", pr.owner, pr.repo).eq_ignore_ascii_case(repo)
            }
            _ => false,
        }
    }
    /// How the forge writes a pull request's number in text: `#12` (GitLab: `!12`).
    fn number_mark(&self) -> &'static str {
        "#"
    }
    /// The open pull requests waiting for the account `connection` acts as (see
    /// [`InboxQuery`]), on the forge's public host and every host named in its settings. A
    /// forge that cannot search answers nothing; one without a token says so in a note.
    fn inbox<'a>(
        &'a self,
        connection: &'a Connection,
        query: &'a InboxQuery,
    ) -> ForgeFuture<'a, InboxAnswer> {
        let _ = (connection, query);
        Box::pin(async { Ok(InboxAnswer::default()) })
    }
}
