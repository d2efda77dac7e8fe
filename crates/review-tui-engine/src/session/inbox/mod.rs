//! The inbox: every review waiting for the person, in three sections: pull requests whose
//! review is requested from them or their teams, their own pull requests, and their local
//! review spaces. The forges answer through their port (`pr::registry::inbox`); the spaces are
//! read from the data root, so the list works offline. The last forge answer is cached (see
//! [`cache`]) and shown at once; a refresh replaces it.

pub mod cache;
pub mod filter;
pub mod render;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::pr::connect::Connection;
use crate::pr::forge::ForgeErrorKind;
use crate::pr::inbox::{InboxQuery, WaitingPr};
use crate::pr::reference::{PrRef, parse};
use crate::space::summary::{self, SpaceSummary};
use crate::space::{PublishState, SpaceKey, mirror_dir};

pub use crate::pr::inbox::Waiting;
pub use cache::Cached;

/// Bumped when a field of `review-tui inbox --format json` is removed or changes meaning.
pub const SCHEMA_VERSION: u32 = 1;

/// The inbox's sections, in their default order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    /// Review requested from me or one of my teams.
    Requested,
    /// My own pull requests.
    Mine,
    /// Every local review space.
    Spaces,
}

impl Section {
    pub const ALL: [Section; 3] = [Section::Requested, Section::Mine, Section::Spaces];

    pub fn title(self) -> &'static str {
        match self {
            Section::Requested => "review requested",
            Section::Mine => "my PRs",
            Section::Spaces => "my spaces",
        }
    }

    /// `[inbox] sections` names: `requested`, `mine`, `spaces`.
    pub fn parse(name: &str) -> Option<Section> {
        match name.trim().to_ascii_lowercase().as_str() {
            "requested" | "review-requested" | "review_requested" => Some(Section::Requested),
            "mine" | "my-prs" | "my_prs" | "authored" => Some(Section::Mine),
            "spaces" | "my-spaces" | "my_spaces" => Some(Section::Spaces),
            _ => None,
        }
    }
}

/// Where my review space of a row's PR stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpaceView {
    /// `not reviewed`, `in progress`, `awaiting approval`, `publishing`, `published`,
    /// `new commits`.
    pub state: String,
    /// The reviewed round's verdict (`ship`, `hold`, `block`, `inconclusive`).
    pub verdict: Option<String>,
    /// The reviewed round's number.
    pub round: Option<u32>,
    /// The head the reviewed round reviewed.
    pub reviewed_head: Option<String>,
    /// The PR's head moved past the reviewed round.
    pub moved: bool,
    /// How many commits came since the reviewed round, when that can be told.
    pub new_commits: Option<u32>,
    #[serde(skip)]
    pub dir: PathBuf,
}

impl SpaceView {
    /// What the state column says: `3 new commits since your round`, `published`, ...
    pub fn label(&self) -> String {
        match (self.moved, self.new_commits) {
            (true, Some(1)) => "1 new commit since your round".into(),
            (true, Some(n)) => format!("{n} new commits since your round"),
            (true, None) => "new commits since your round".into(),
            _ => self.state.clone(),
        }
    }
}

/// One line of the inbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InboxRow {
    pub section: Section,
    /// The forge's name (`GitHub`), or `local` for a local range.
    pub forge: String,
    pub repo: String,
    /// `#12`, `!7`, or `main..feature` for a local range.
    pub number: String,
    pub title: String,
    pub author: String,
    /// The reference `review-tui` opens it with (the PR's address, or the local range).
    pub reference: String,
    /// RFC 3339; empty when unknown.
    pub updated_at: String,
    pub draft: bool,
    pub head_sha: Option<String>,
    pub additions: Option<u32>,
    pub deletions: Option<u32>,
    pub changed_files: Option<u32>,
    pub ci: Option<String>,
    /// Why it is waiting (forge rows only).
    pub waiting: Option<Waiting>,
    pub space: Option<SpaceView>,
}

impl InboxRow {
    /// Whether a review round is due: review is asked of me and no round of mine reviewed the
    /// PR's head yet (never reviewed, or moved since).
    pub fn needs_round(&self) -> bool {
        self.section == Section::Requested
            && match (&self.space, &self.head_sha) {
                (Some(space), Some(head)) => space.reviewed_head.as_deref() != Some(head.as_str()),
                _ => true,
            }
    }
}

/// The whole list, as shown and printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InboxList {
    pub schema_version: u32,
    /// When the forges' part was fetched (RFC 3339); `None`: never.
    pub fetched_at: Option<String>,
    /// Set when no forge could be reached: the forges' part is the cache's.
    pub offline: Option<String>,
    /// What the forges could not list, and why.
    pub notices: Vec<String>,
    pub sections: Vec<Section>,
    pub rows: Vec<InboxRow>,
}

/// How to build the list: where the spaces are, where the cache goes, which sections.
#[derive(Debug, Clone)]
pub struct InboxSetup {
    pub data_root: PathBuf,
    pub cache: PathBuf,
    pub sections: Vec<Section>,
    pub query: InboxQuery,
}

impl InboxSetup {
    /// The sections `[inbox] sections` names (all three when it names none); a name that is
    /// not a section is an error naming it.
    pub fn sections_of(names: Option<&[String]>) -> Result<Vec<Section>, UnknownSection> {
        let Some(names) = names else {
            return Ok(Section::ALL.to_vec());
        };
        let mut sections = Vec::new();
        for name in names {
            let section = Section::parse(name).ok_or_else(|| UnknownSection(name.clone()))?;
            if !sections.contains(&section) {
                sections.push(section);
            }
        }
        Ok(sections)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("[inbox] sections: {0:?} is not a section (requested, mine, spaces)")]
pub struct UnknownSection(pub String);

/// Where the inbox comes from, for a client that only asks (the inbox screen): the setup and
/// how the forges are reached.
#[derive(Debug, Clone)]
pub struct InboxSource {
    pub setup: InboxSetup,
    pub connection: Connection,
}

impl InboxSource {
    /// The cached list and the spaces: no network.
    pub fn cached(&self) -> InboxList {
        from_cache(&self.setup)
    }

    /// The forges asked again (see [`refresh`]).
    pub async fn refresh(&self) -> InboxList {
        refresh(&self.setup, &self.connection).await
    }
}

/// The list from the cache and the spaces alone: no network, for the first frame.
pub fn from_cache(setup: &InboxSetup) -> InboxList {
    let cached = cache::load(&setup.cache).unwrap_or_default();
    build(setup, &cached, None, Vec::new())
}

/// Asks every forge, keeps the cache of those that failed, writes the new cache, and builds
/// the list. With no forge reachable the list is the cache's, marked offline.
pub async fn refresh(setup: &InboxSetup, connection: &Connection) -> InboxList {
    let old = cache::load(&setup.cache).unwrap_or_default();
    let answers = crate::pr::registry::inbox(connection, &setup.query).await;
    let mut fresh = Cached {
        fetched_at: Some(now_rfc3339()),
        prs: Vec::new(),
        notes: Vec::new(),
    };
    let mut unreachable = Vec::new();
    let mut notices = Vec::new();
    let mut failed_forges = Vec::new();
    let mut failed_hosts: Vec<(&str, String)> = Vec::new();
    for (forge, answer) in answers {
        match answer {
            Ok(answer) => {
                fresh.prs.extend(answer.prs);
                fresh.notes.extend(answer.notes);
                for failure in answer.failed_hosts {
                    let line = format!(
                        "{forge} {}: {}",
                        failure.host,
                        crate::error_text::chain(&failure.error)
                    );
                    // Said, and its rows kept from the cache; the list is not offline while
                    // another host of the forge answered.
                    notices.push(line);
                    failed_hosts.push((forge, failure.host));
                }
            }
            Err(error) => {
                let line = format!("{forge}: {}", crate::error_text::chain(&error));
                if matches!(
                    error.kind(),
                    ForgeErrorKind::Unreachable | ForgeErrorKind::RateLimited
                ) {
                    unreachable.push(line.clone());
                }
                notices.push(line);
                failed_forges.push(forge);
            }
        }
    }
    // A forge (or one of its hosts) that failed keeps its last answer: one server down hides
    // nothing of the list.
    let names = forge_names();
    fresh.prs.extend(
        old.prs
            .iter()
            .filter(|pr| {
                names.iter().any(|(id, name)| {
                    *id == pr.forge
                        && (failed_forges.contains(name)
                            || failed_hosts
                                .iter()
                                .any(|(f, host)| f == name && *host == pr.host))
                })
            })
            .cloned(),
    );
    // A forge that could not be reached (or asks to wait) is offline: its rows are the cache's.
    let offline = (!unreachable.is_empty()).then(|| {
        format!(
            "offline: showing the list fetched {} ({})",
            old.fetched_at.as_deref().unwrap_or("never"),
            unreachable.join("; ")
        )
    });
    if offline.is_some() {
        fresh.fetched_at = old.fetched_at.clone();
    }
    if let Err(e) = cache::save(&setup.cache, &fresh) {
        notices.push(format!(
            "the inbox cache {} could not be written: {e}",
            setup.cache.display()
        ));
    }
    build(setup, &fresh, offline, notices)
}

fn forge_names() -> Vec<(&'static str, &'static str)> {
    crate::pr::registry::FORGES
        .iter()
        .map(|f| (f.id(), f.name()))
        .collect()
}

/// The rows of `cached` (the forges' part) and of every space, in the setup's sections.
pub fn build(
    setup: &InboxSetup,
    cached: &Cached,
    offline: Option<String>,
    mut notices: Vec<String>,
) -> InboxList {
    notices.extend(cached.notes.iter().cloned());
    let names = forge_names();
    let forge_name = |id: &str| {
        names
            .iter()
            .find(|(known, _)| *known == id)
            .map_or(id.to_string(), |(_, name)| name.to_string())
    };
    let mut rows = Vec::new();
    for pr in &cached.prs {
        let section = match pr.waiting {
            Waiting::Authored => Section::Mine,
            _ => Section::Requested,
        };
        if !setup.sections.contains(&section) {
            continue;
        }
        let space = space_of(&setup.data_root, pr);
        rows.push(InboxRow {
            section,
            forge: forge_name(&pr.forge),
            repo: pr.repo.clone(),
            number: format!(
                "{}{}",
                crate::pr::registry::find(&pr.forge).map_or("#", |f| f.number_mark()),
                pr.number
            ),
            title: pr.title.clone(),
            author: pr.author.clone(),
            reference: pr.url.clone(),
            updated_at: pr.updated_at.clone(),
            draft: pr.draft,
            head_sha: pr.head_sha.clone(),
            additions: pr.additions,
            deletions: pr.deletions,
            changed_files: pr.changed_files,
            ci: pr.ci.clone(),
            waiting: Some(pr.waiting.clone()),
            space,
        });
    }
    if setup.sections.contains(&Section::Spaces) {
        // Each listed PR's space key, worked out once for every space.
        let listed: std::collections::HashMap<SpaceKey, &WaitingPr> = (cached.prs.iter())
            .filter_map(|pr| match parse(&pr.url, None, None) {
                Ok(PrRef::Hosted(hosted)) => Some((SpaceKey::Hosted(hosted), pr)),
                _ => None,
            })
            .collect();
        for found in summary::list(&setup.data_root) {
            let pr = listed.get(&found.pr.key).copied();
            rows.push(space_row(&found, pr, &forge_name));
        }
    }
    let order = |s: Section| setup.sections.iter().position(|x| *x == s);
    rows.sort_by(|a, b| {
        order(a.section)
            .cmp(&order(b.section))
            .then_with(|| b.updated_at.cmp(&a.updated_at))
    });
    InboxList {
        schema_version: SCHEMA_VERSION,
        fetched_at: cached.fetched_at.clone(),
        offline,
        notices,
        sections: setup.sections.clone(),
        rows,
    }
}

/// My space of a forge's PR, compared with the PR's head now.
fn space_of(root: &Path, pr: &WaitingPr) -> Option<SpaceView> {
    let Ok(PrRef::Hosted(hosted)) = parse(&pr.url, None, None) else {
        return None;
    };
    let key = SpaceKey::hosted(hosted).ok()?;
    let found = SpaceSummary::of(root, &key)?;
    Some(view_of(
        &found,
        root,
        &key,
        pr.head_sha.as_deref(),
        pr.commits,
    ))
}

fn view_of(
    found: &SpaceSummary,
    root: &Path,
    key: &SpaceKey,
    head_now: Option<&str>,
    commits: Option<u32>,
) -> SpaceView {
    let reviewed = found.reviewed.as_ref();
    let head_now = head_now.unwrap_or(found.head_sha.as_str());
    let moved = reviewed.is_some_and(|r| r.head_sha.as_str() != head_now);
    let new_commits = moved
        .then(|| found.commits_since_round(&mirror_dir(root, key), head_now, commits))
        .flatten();
    let running = found.last_round.as_ref().is_some_and(|r| !r.completed);
    let state = if running {
        "in progress"
    } else if reviewed.is_none() {
        "not reviewed"
    } else {
        match found.published {
            Some(PublishState::Published) => "published",
            Some(PublishState::Publishing) => "publishing (maybe posted)",
            None => "awaiting approval",
        }
    };
    SpaceView {
        state: state.to_string(),
        verdict: reviewed.and_then(|r| r.decision.clone()),
        round: reviewed.map(|r| r.number),
        reviewed_head: reviewed.map(|r| r.head_sha.to_string()),
        moved,
        new_commits,
        dir: found.dir.clone(),
    }
}

/// A space's own row, with what the forge said of its PR when the list has it.
fn space_row(
    found: &SpaceSummary,
    listed: Option<&WaitingPr>,
    forge_name: &dyn Fn(&str) -> String,
) -> InboxRow {
    let key = &found.pr.key;
    let root = found
        .dir
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "spaces"))
        .and_then(Path::parent)
        .unwrap_or(&found.dir)
        .to_path_buf();
    let (forge, repo, reference) = match key {
        SpaceKey::Hosted(pr) => (
            forge_name(&pr.forge),
            format!("{}/{}", pr.owner, pr.repo),
            if found.pr.url.is_empty() {
                pr.to_string()
            } else {
                found.pr.url.clone()
            },
        ),
        SpaceKey::Local { repo, base, head } => (
            "local".to_string(),
            repo.display().to_string(),
            format!("{}#{base}..{head}", repo.display()),
        ),
    };
    let view = view_of(
        found,
        &root,
        key,
        listed.and_then(|pr| pr.head_sha.as_deref()),
        listed.and_then(|pr| pr.commits),
    );
    InboxRow {
        section: Section::Spaces,
        forge,
        repo,
        number: key.display_number(),
        title: found.pr.title.clone(),
        author: listed.map(|pr| pr.author.clone()).unwrap_or_default(),
        reference,
        updated_at: listed
            .map(|pr| pr.updated_at.clone())
            .unwrap_or_else(|| rfc3339(found.touched)),
        draft: listed.is_some_and(|pr| pr.draft),
        head_sha: Some(found.head_sha.to_string()),
        additions: listed.and_then(|pr| pr.additions),
        deletions: listed.and_then(|pr| pr.deletions),
        changed_files: listed.and_then(|pr| pr.changed_files),
        ci: listed.and_then(|pr| pr.ci.clone()),
        waiting: None,
        space: Some(view),
    }
}

fn rfc3339(epoch: u64) -> String {
    humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + std::time::Duration::from_secs(epoch))
        .to_string()
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// How long ago an RFC 3339 time was, short: `5m`, `3h`, `2d`, `6w`; empty when unknown.
pub fn age(at: &str, now: std::time::SystemTime) -> String {
    let Ok(then) = humantime::parse_rfc3339_weak(at.trim()) else {
        return String::new();
    };
    let secs = now.duration_since(then).map_or(0, |d| d.as_secs());
    match secs {
        s if s < 3600 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3600),
        s if s < 86_400 * 14 => format!("{}d", s / 86_400),
        s => format!("{}w", s / (86_400 * 7)),
    }
}
