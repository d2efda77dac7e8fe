//! Reopening a GitHub review space when GitHub cannot be reached: the space's last completed
//! round, exactly as stored, marked as not refreshed. Nothing that needs the forge runs from
//! it — no new round (the PR's description and discussion were not read, so a round now would
//! miss what they say) and no publish (a stale round must never be posted) — and every triage
//! decision is saved to the space as on any open.

use std::path::PathBuf;

use thiserror::Error;

use super::{PrepareError, Prepared, blocking, diff_in_mirror};
use crate::pr::connect::Connection;
use crate::pr::forge::{BranchTip, ForgeError, PrHistory, PrState, PullRequest};
use crate::pr::reference::PrRef;
use crate::space::{Space, SpaceKey};

/// What an offline reopen showed: the stored round, with when it was reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offline {
    /// The PR, as the person named it (`acme/widgets#7`).
    pub pr: String,
    /// The round shown: the space's last, completed one.
    pub round: u32,
    /// When that round completed, as recorded (RFC 3339).
    pub as_of: String,
    /// Why the forge could not be reached.
    pub reason: String,
    /// The forge's name (`GitHub`, `GitLab`).
    pub forge: &'static str,
}

impl Offline {
    /// "offline: showing round 3 as of 2026-12-01 17:21 UTC; not refreshed": the one line the
    /// cockpit's header, stderr and the reports all say.
    pub fn banner(&self) -> String {
        format!(
            "offline: showing round {} as of {}; not refreshed",
            self.round,
            shown_time(&self.as_of)
        )
    }

    /// Why `what` (publishing, a new round) cannot be done from this session, in one line.
    pub fn needs_network(&self, what: &str) -> String {
        format!(
            "{what} needs the network: {} could not be reached when {} was opened, so this \
             is its stored round {} as of {}, not refreshed; nothing was sent and every \
             decision is kept — run `review-tui {}` again when {} can be reached",
            self.forge,
            self.pr,
            self.round,
            shown_time(&self.as_of),
            self.pr,
            self.forge
        )
    }
}

/// `2026-12-01 17:21 UTC` from a recorded RFC 3339 time. The time comes from `state.json`, a
/// file anyone can edit: anything that is not a time is shown as such, never as given.
fn shown_time(recorded: &str) -> String {
    match humantime::parse_rfc3339_weak(recorded.trim()) {
        Ok(time) => {
            let text = humantime::format_rfc3339_seconds(time).to_string();
            // 2026-12-01T17:21:05Z → 2026-12-01 17:21 UTC
            format!("{} {} UTC", &text[..10], &text[11..16])
        }
        Err(_) => "an unrecorded time".to_string(),
    }
}

#[derive(Debug, Error)]
pub enum OfflineError {
    #[error(
        "could not reach {forge} for {pr} ({reason}), and {why}, so there is nothing to show \
         offline: connect to the network and run `review-tui {pr}` again"
    )]
    NoRound {
        forge: &'static str,
        pr: String,
        reason: String,
        why: &'static str,
    },
    #[error(
        "the review space of {pr} records a head or base that is not a commit ({source}): \
         connect to the network and run `review-tui {pr}` again to refresh it"
    )]
    BadRecord {
        pr: String,
        source: crate::commit_id::CommitIdError,
    },
}

/// The space of `reference` as stored, when reading the PR from GitHub failed with `error`
/// because GitHub could not be reached. Errors when there is no completed round to show.
pub(crate) async fn reopen(
    reference: PrRef,
    forge_name: &'static str,
    root: PathBuf,
    key: SpaceKey,
    error: ForgeError,
    connection: Connection,
) -> Result<Prepared, PrepareError> {
    let pr_name = reference.to_string();
    let reason = error.to_string();
    let forge = crate::pr::registry::find(forge_name).map_or("the forge", |f| f.name());
    let no_round = |why| {
        PrepareError::Offline(OfflineError::NoRound {
            forge,
            pr: pr_name.clone(),
            reason: reason.clone(),
            why,
        })
    };
    let data_root = root.clone();
    let opened = blocking(move || Space::open_stored(&root, key)).await??;
    let Some((space, opened)) = opened else {
        return Err(no_round("this machine has no review of it yet"));
    };
    let state = space.state();
    // Only a completed round of the recorded head is a review: an interrupted one is run
    // again on the next open with the network (its decisions stay journaled until then).
    let Some(round) = state
        .current_round()
        .filter(|r| r.completed && r.head_sha == state.head_sha)
    else {
        return Err(no_round(
            "its last round did not complete (it is run again once the forge can be reached)",
        ));
    };
    let tip = |sha: &str| {
        crate::commit_id::CommitId::parse(sha).map_err(|source| {
            PrepareError::Offline(OfflineError::BadRecord {
                pr: pr_name.clone(),
                source,
            })
        })
    };
    let (base_tip, head_tip) = (tip(&state.base_sha)?, tip(&state.head_sha)?);
    let offline = Offline {
        pr: pr_name,
        round: round.number,
        as_of: round.completed_at.clone().unwrap_or_default(),
        reason,
        forge,
    };
    let (mirror, base_sha, head_sha) = (
        space.mirror().to_path_buf(),
        state.base_sha.clone(),
        state.head_sha.clone(),
    );
    let diff = blocking(move || {
        diff_in_mirror(
            &mirror,
            &mirror.join(super::DIFF_CACHE),
            &base_sha,
            &head_sha,
        )
    })
    .await??;
    let short = |sha: &str| sha[..sha.len().min(10)].to_string();
    let number = match &reference {
        PrRef::Hosted(pr) => pr.number,
        PrRef::Local { .. } => 0,
    };
    // Only what the space recorded: GitHub was not asked, so the author, the state and the
    // branch names are not known (the branches are shown by their recorded commits).
    let pr = PullRequest {
        number,
        title: state.pr.title.clone(),
        body: String::new(),
        author: String::new(),
        author_is_bot: false,
        state: PrState::Open,
        draft: false,
        base: BranchTip {
            ref_name: short(&state.base_sha),
            sha: base_tip,
        },
        head: BranchTip {
            ref_name: short(&state.head_sha),
            sha: head_tip,
        },
        clone_url: String::new(),
        html_url: state.pr.url.clone(),
    };
    Ok(Prepared {
        reference,
        forge_name,
        pr,
        space,
        opened,
        diff,
        eligibility: Vec::new(),
        history: PrHistory::default(),
        history_note: None,
        threads: Default::default(),
        login: None,
        early_index: None,
        connection,
        offline: Some(offline),
        data_root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_names_the_round_and_its_time_and_never_echoes_a_bad_time() {
        let offline = Offline {
            pr: "acme/widgets#7".into(),
            round: 3,
            as_of: "2026-12-01T17:21:05Z".into(),
            reason: "connection refused".into(),
            forge: "GitHub",
        };
        assert_eq!(
            offline.banner(),
            "offline: showing round 3 as of 2026-12-01 17:21 UTC; not refreshed"
        );
        assert!(offline.banner().len() <= 80);
        let publish = offline.needs_network("publishing");
        assert!(
            publish.starts_with("publishing needs the network"),
            "{publish}"
        );
        assert!(
            publish.contains("round 3 as of 2026-12-01 17:21 UTC"),
            "{publish}"
        );
        assert!(!publish.contains('\n'));

        let forged = Offline {
            as_of: "\u{1b}[2Jnow, fresh".into(),
            ..offline
        };
        assert_eq!(
            forged.banner(),
            "offline: showing round 3 as of an unrecorded time; not refreshed"
        );
    }
}
