//! `state.json`: everything a review has decided so far, so that a killed process loses nothing.
//! Pure data and its invariants; the store writes it, the space decides when rounds start.
//!
//! Every field has a serde default, so a file written by an older version still loads; a file
//! from a newer version is refused by the store rather than rewritten without its new fields.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::key::SpaceKey;
use crate::commit_id::CommitId;
use crate::review::ReviewNode;
use crate::review::rounds::{RoundDelta, delta};
use crate::review::status::SuppressionHint;

/// Bumped when a change would make an older binary misread the file.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpaceState {
    #[serde(default)]
    pub schema_version: u32,
    pub pr: PrIdentity,
    /// The head under review and its base, as the last open fetched them. A plain string in
    /// the file; one that is not a full commit id makes the file damaged (see `salvage`).
    pub head_sha: CommitId,
    pub base_sha: CommitId,
    /// The branch the PR merges into (`main`), as the last open read it; empty in older files.
    #[serde(default)]
    pub base_ref: String,
    /// Where the reviewed diff starts: the merge base of `base_sha` and `head_sha`, as the
    /// last open computed it; `None` in older files.
    #[serde(default)]
    pub merge_base: Option<CommitId>,
    /// Private so that the only way back down the ladder is starting a round.
    #[serde(default)]
    ladder: Ladder,
    #[serde(default)]
    pub rounds: Vec<Round>,
    #[serde(default)]
    pub nodes: Vec<ReviewNode>,
    #[serde(default)]
    pub suppression_hints: Vec<SuppressionHint>,
    #[serde(default)]
    pub publishes: Vec<PublishRecord>,
    /// Comment text the person edited, by node id: posted instead of the generated text.
    #[serde(default)]
    pub comments: std::collections::BTreeMap<String, String>,
    /// The review room's questions and answers, every round's (see `review::thread`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub threads: Vec<crate::review::thread::Thread>,
    /// Replies and resolutions on the PR's review threads, until a publish posts them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thread_drafts: Vec<super::thread_draft::ThreadDraft>,
    /// Findings (by fingerprint) the person chose, in the publish preview, to post though an
    /// open thread of someone else already raises them (`publish::raised`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub include_raised: std::collections::BTreeSet<String>,
    /// The person's overrides of gated axes (`review::axis_override`), each bound to the
    /// axis's result it was made on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub axis_overrides: Vec<crate::review::axis_override::AxisOverride>,
}

/// The PR, for display: the key identifies it, the rest is what the forge said about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrIdentity {
    pub key: SpaceKey,
    #[serde(default)]
    pub title: String,
    /// `#12` on a forge, `main..feature` locally.
    #[serde(default)]
    pub number: String,
    #[serde(default)]
    pub url: String,
}

/// Where the review stands. It only climbs, except when a new round starts.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Ladder {
    #[default]
    Requested,
    InProgress,
    AwaitingApproval,
    Completed,
}

impl Ladder {
    pub fn as_str(self) -> &'static str {
        match self {
            Ladder::Requested => "requested",
            Ladder::InProgress => "in_progress",
            Ladder::AwaitingApproval => "awaiting_approval",
            Ladder::Completed => "completed",
        }
    }
}

impl fmt::Display for Ladder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One run of the reviewers over one head SHA.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub number: u32,
    pub head_sha: CommitId,
    /// The range the round reviewed besides its head: the base branch, its tip and the merge
    /// base when the round started. A PR whose base is retargeted (a stacked PR whose parent
    /// merged) keeps its head and shows another diff: the round does not stand for it, and is
    /// never published for it. `None` in older files: such a round stands for no range.
    #[serde(default)]
    pub base_ref: Option<String>,
    #[serde(default)]
    pub base_sha: Option<CommitId>,
    #[serde(default)]
    pub merge_base: Option<CommitId>,
    pub started_at: String,
    #[serde(default)]
    pub completed_at: Option<String>,
    /// The fingerprints the round found, for the next round's delta.
    #[serde(default)]
    pub fingerprints: Vec<String>,
    #[serde(default)]
    pub completed: bool,
    /// The verdict's decision (`ship`, `hold`, ...) when the round completed.
    #[serde(default)]
    pub decision: Option<String>,
    /// How each reviewer's run ended, so a reopened space recomputes the same verdict.
    #[serde(default)]
    pub reviewers: Vec<crate::review::verdict::ReviewerRun>,
    /// The axes the round's verdict read.
    #[serde(default)]
    pub axes: Vec<crate::review::axes::Axis>,
    /// The round ran without model reviewers, asked for explicitly.
    #[serde(default)]
    pub deterministic_only: bool,
    /// The lead pass's walkthrough and reading order, for the published summary.
    #[serde(default)]
    pub walkthrough: String,
    /// What the round read, skipped and dropped: a summary published later says the same.
    #[serde(default)]
    pub coverage: crate::review::coverage::Coverage,
    /// The level the round ran at, changed by the person in the cockpit (`None`: an older
    /// file; the configured level applies).
    #[serde(default)]
    pub level: Option<crate::review::level::Level>,
    /// A model's own verdict ("engineer: APPROVE"), kept for audit and never read.
    #[serde(default)]
    pub model_verdict: Option<String>,
    /// Each reviewer as the run left it (findings, tokens, note), for the reports and the
    /// cockpit of a reopened space. Empty in older files: `reviewers` then stands in.
    #[serde(default)]
    pub reviewer_states: Vec<crate::review::board::ReviewerState>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishRecord {
    pub round: u32,
    /// `github review 123`, or the path of a local report.
    pub target: String,
    pub at: String,
    #[serde(default)]
    pub review_id: Option<String>,
    pub state: PublishState,
    /// What was posted, to tell later whether the person's triage changed it: the decision
    /// and a digest of the triage the text was made from (`session::posted`). `None` in older
    /// files.
    #[serde(default)]
    pub posted: Option<Posted>,
    /// 0 for the round's first publish; 1, 2… for each publish of the same round again after
    /// the person's triage changed what it posts (its own marker on the forge).
    #[serde(default)]
    pub revision: u32,
}

/// The decision a publish posted and the digest of the triage its text was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posted {
    pub decision: crate::review::Decision,
    pub triage: String,
}

/// `Publishing` is written before the request leaves, `Published` after it succeeded; a record
/// stuck at `Publishing` (a crash in between) means "maybe posted" and blocks a second attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PublishState {
    Publishing,
    Published,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    #[error("the review is {from}: it cannot go back to {to} without a new round")]
    LadderBackwards { from: Ladder, to: Ladder },
    #[error("no round has started")]
    NoRound,
    #[error("round {round} is already completed")]
    RoundCompleted { round: u32 },
    #[error(
        "round {round} was already {} ({target}); a round is published at most once",
        match state { PublishState::Publishing => "being published, maybe posted", PublishState::Published => "published" }
    )]
    AlreadyPublished {
        round: u32,
        target: String,
        state: PublishState,
    },
    #[error("round {round} has no publish in progress")]
    NotPublishing { round: u32 },
}

impl SpaceState {
    /// A fresh state at `head` over `base`: no round yet (the space starts round 1).
    pub fn new(pr: PrIdentity, head: CommitId, base: CommitId) -> SpaceState {
        SpaceState {
            schema_version: SCHEMA_VERSION,
            pr,
            head_sha: head,
            base_sha: base,
            base_ref: String::new(),
            merge_base: None,
            ladder: Ladder::Requested,
            rounds: Vec::new(),
            nodes: Vec::new(),
            suppression_hints: Vec::new(),
            publishes: Vec::new(),
            comments: Default::default(),
            threads: Vec::new(),
            thread_drafts: Vec::new(),
            include_raised: Default::default(),
            axis_overrides: Vec::new(),
        }
    }

    pub fn ladder(&self) -> Ladder {
        self.ladder
    }

    /// What can be read from a state file that is JSON but not a whole state (a field of the
    /// wrong shape, one damaged finding): every part that still parses, each finding and
    /// round on its own, so one bad entry does not cost the person's other decisions. `None`
    /// when not even the PR's identity and its head can be read: the head is the recorded one,
    /// else the last readable round's (a round starts whenever the head moves). An unreadable
    /// base is set to the head, a range of nothing that no reader takes for a review: the next
    /// open fetches the base again, an offline reopen declines. The text says what was kept.
    pub fn salvage(bytes: &[u8]) -> Option<(SpaceState, String)> {
        let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
        let object = value.as_object()?;
        let pr: PrIdentity = serde_json::from_value(object.get("pr")?.clone()).ok()?;
        let commit = |key: &str| {
            let text = object.get(key)?.as_str()?;
            CommitId::parse(text).ok()
        };
        fn each<T: serde::de::DeserializeOwned>(
            object: &serde_json::Map<String, serde_json::Value>,
            key: &str,
        ) -> (Vec<T>, usize) {
            let items = object.get(key).and_then(|v| v.as_array());
            let all = items.map_or(0, Vec::len);
            let read: Vec<T> = items
                .into_iter()
                .flatten()
                .filter_map(|item| serde_json::from_value(item.clone()).ok())
                .collect();
            (read, all)
        }
        let (nodes, all_nodes) = each::<ReviewNode>(object, "nodes");
        let (rounds, all_rounds) = each::<Round>(object, "rounds");
        let head = commit("head_sha").or_else(|| rounds.last().map(|r| r.head_sha.clone()))?;
        let base = commit("base_sha");
        let base_lost = base.is_none();
        let mut state = SpaceState::new(pr, head.clone(), base.unwrap_or(head));
        let (publishes, all_publishes) = each::<PublishRecord>(object, "publishes");
        let (hints, _) = each::<SuppressionHint>(object, "suppression_hints");
        let decided = nodes
            .iter()
            .filter(|n| n.status != crate::review::Status::Open)
            .count();
        let mut summary = format!(
            "recovered {} of {all_nodes} findings ({decided} with a decision), {} of \
             {all_rounds} rounds, {} of {all_publishes} publish records",
            nodes.len(),
            rounds.len(),
            publishes.len()
        );
        if base_lost {
            summary.push_str("; the base commit was unreadable and is fetched again");
        }
        state.nodes = nodes;
        state.rounds = rounds;
        state.publishes = publishes;
        state.suppression_hints = hints;
        state.threads = each::<crate::review::thread::Thread>(object, "threads").0;
        if let Some(comments) = object.get("comments").and_then(|v| v.as_object()) {
            for (id, text) in comments {
                if let Some(text) = text.as_str() {
                    state.comments.insert(id.clone(), text.to_string());
                }
            }
        }
        Some((state, summary))
    }

    /// Climbs the ladder to `to` (staying put is fine); going down is refused.
    pub fn advance(&mut self, to: Ladder) -> Result<(), StateError> {
        if to < self.ladder {
            return Err(StateError::LadderBackwards {
                from: self.ladder,
                to,
            });
        }
        self.ladder = to;
        Ok(())
    }

    /// Starts the next round over `head_sha` and puts the ladder back at `requested`. Nodes and
    /// suppression hints are kept: the pipeline replaces the nodes when it runs the round, and
    /// the hints are exactly what later rounds need. Returns the round number.
    pub fn start_round(&mut self, head_sha: &CommitId, at: &str) -> u32 {
        let number = self.rounds.last().map_or(1, |r| r.number + 1);
        self.rounds.push(Round {
            number,
            head_sha: head_sha.clone(),
            base_ref: Some(self.base_ref.clone()),
            base_sha: Some(self.base_sha.clone()),
            merge_base: self.merge_base.clone(),
            started_at: at.to_string(),
            completed_at: None,
            fingerprints: Vec::new(),
            completed: false,
            decision: None,
            reviewers: Vec::new(),
            axes: Vec::new(),
            deterministic_only: false,
            walkthrough: String::new(),
            coverage: Default::default(),
            level: None,
            model_verdict: None,
            reviewer_states: Vec::new(),
        });
        self.ladder = Ladder::Requested;
        number
    }

    pub fn current_round(&self) -> Option<&Round> {
        self.rounds.last()
    }

    /// Whether `round` reviewed the range the space is at now: the same head, the same base
    /// branch and the same merge base (a base that only moved on keeps the diff; a retargeted
    /// or rewritten base does not). A round that recorded no range stands for none.
    pub fn reviewed_now(&self, round: &Round) -> bool {
        round.head_sha == self.head_sha
            && round.base_ref.as_deref() == Some(self.base_ref.as_str())
            && round.merge_base.is_some()
            && round.merge_base == self.merge_base
    }

    /// Records what the current round found and decided.
    pub fn complete_round(
        &mut self,
        fingerprints: Vec<String>,
        decision: &str,
        at: &str,
    ) -> Result<(), StateError> {
        let round = self.rounds.last_mut().ok_or(StateError::NoRound)?;
        if round.completed {
            return Err(StateError::RoundCompleted {
                round: round.number,
            });
        }
        round.fingerprints = fingerprints;
        round.decision = Some(decision.to_string());
        round.completed = true;
        round.completed_at = Some(at.to_string());
        Ok(())
    }

    /// The current round against the last completed round before it (all new when none).
    pub fn round_delta(&self) -> RoundDelta {
        let Some((current, earlier)) = self.rounds.split_last() else {
            return RoundDelta::default();
        };
        let previous = earlier.iter().rev().find(|r| r.completed);
        delta(
            previous
                .into_iter()
                .flat_map(|r| r.fingerprints.iter().map(String::as_str)),
            current.fingerprints.iter().map(String::as_str),
        )
    }

    /// Records that the current round is about to be published to `target`, as `posted`.
    /// `revision` 0 is the round's first publish, refused when the round has any publish
    /// record; a later revision (the round published again after the person's triage changed
    /// it) is refused unless the one before it is published and no publish of the round is
    /// in doubt. Refused too: any record of the round still "publishing" (maybe posted by a
    /// run that crashed).
    pub fn begin_publish(
        &mut self,
        target: &str,
        at: &str,
        revision: u32,
        posted: Posted,
    ) -> Result<u32, StateError> {
        let round = self.current_round().ok_or(StateError::NoRound)?.number;
        let latest = self
            .publishes
            .iter()
            .filter(|p| p.round == round)
            .max_by_key(|p| p.revision);
        let allowed = match latest {
            None => revision == 0,
            Some(p) => p.state == PublishState::Published && revision == p.revision + 1,
        };
        if let (false, Some(earlier)) = (allowed, latest) {
            return Err(StateError::AlreadyPublished {
                round,
                target: earlier.target.clone(),
                state: earlier.state,
            });
        }
        if !allowed {
            return Err(StateError::NotPublishing { round });
        }
        self.publishes.push(PublishRecord {
            round,
            target: target.to_string(),
            at: at.to_string(),
            review_id: None,
            state: PublishState::Publishing,
            posted: Some(posted),
            revision,
        });
        Ok(round)
    }

    /// Marks the current round's publish as done.
    pub fn finish_publish(&mut self, review_id: Option<&str>, at: &str) -> Result<(), StateError> {
        let round = self.current_round().ok_or(StateError::NoRound)?.number;
        let record = self
            .publishes
            .iter_mut()
            .find(|p| p.round == round && p.state == PublishState::Publishing)
            .ok_or(StateError::NotPublishing { round })?;
        record.state = PublishState::Published;
        record.review_id = review_id.map(str::to_string);
        record.at = at.to_string();
        // A published round is done: the ladder's last step.
        self.ladder = Ladder::Completed;
        Ok(())
    }

    /// The current round's latest publish record, once it is published.
    pub fn published(&self) -> Option<&PublishRecord> {
        let round = self.current_round()?.number;
        self.publishes
            .iter()
            .filter(|p| p.round == round && p.state == PublishState::Published)
            .max_by_key(|p| p.revision)
    }

    /// Settles any round's publish record after looking on the forge: `Some(found)` (the
    /// round's marker was found there) records it as published there, wherever it was left;
    /// `None` (a record stuck at `publishing` whose post never arrived) removes the stuck record
    /// so the round can be published. A published record is never removed. Each publish of a
    /// round (`revision`) is its own record with its own marker. `posted` is what a record
    /// created here was made from, when known.
    pub fn settle_publish(
        &mut self,
        (round, revision): (u32, u32),
        found: Option<(&str, &str)>,
        posted: Option<&Posted>,
        at: &str,
    ) -> Result<(), StateError> {
        match found {
            Some((target, review_id)) => {
                match (self.publishes.iter_mut())
                    .find(|p| p.round == round && p.revision == revision)
                {
                    Some(record) => {
                        record.state = PublishState::Published;
                        record.target = target.to_string();
                        record.review_id = Some(review_id.to_string());
                        record.at = at.to_string();
                    }
                    None => self.publishes.push(PublishRecord {
                        round,
                        target: target.to_string(),
                        at: at.to_string(),
                        review_id: Some(review_id.to_string()),
                        state: PublishState::Published,
                        posted: posted.cloned(),
                        revision,
                    }),
                }
                if self.current_round().is_some_and(|r| r.number == round) {
                    self.ladder = Ladder::Completed;
                }
                Ok(())
            }
            None => {
                let stuck = self
                    .publishes
                    .iter()
                    .position(|p| {
                        p.round == round
                            && p.revision == revision
                            && p.state == PublishState::Publishing
                    })
                    .ok_or(StateError::NotPublishing { round })?;
                self.publishes.remove(stuck);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A commit id of one repeated hex digit.
    fn id(digit: char) -> CommitId {
        CommitId::parse(&digit.to_string().repeat(40)).unwrap()
    }

    fn state() -> SpaceState {
        SpaceState::new(
            PrIdentity {
                key: crate::space::key::tests::github_key("o", "r", 3),
                title: "Fix it".into(),
                number: "#3".into(),
                url: "https://github.com/o/r/pull/3".into(),
            },
            id('a'),
            id('0'),
        )
    }

    #[test]
    fn ladder_climbs_and_only_a_new_round_brings_it_down() {
        let mut s = state();
        s.start_round(&id('a'), "t0");
        s.advance(Ladder::InProgress).unwrap();
        s.advance(Ladder::AwaitingApproval).unwrap();
        s.advance(Ladder::AwaitingApproval).unwrap();
        assert_eq!(
            s.advance(Ladder::InProgress),
            Err(StateError::LadderBackwards {
                from: Ladder::AwaitingApproval,
                to: Ladder::InProgress
            })
        );
        assert_eq!(s.start_round(&id('b'), "t1"), 2);
        assert_eq!(s.ladder(), Ladder::Requested);
    }

    #[test]
    fn delta_is_against_the_last_completed_round() {
        let mut s = state();
        s.start_round(&id('a'), "t0");
        s.complete_round(vec!["f1".into(), "f2".into()], "hold", "t1")
            .unwrap();
        s.start_round(&id('b'), "t2");
        s.start_round(&id('c'), "t3");
        s.complete_round(vec!["f2".into(), "f3".into()], "ship", "t4")
            .unwrap();
        let d = s.round_delta();
        assert_eq!(d.new, vec!["f3"]);
        assert_eq!(d.still_present, vec!["f2"]);
        assert_eq!(d.not_refound, vec!["f1"]);
        assert_eq!(
            s.complete_round(vec![], "ship", "t5"),
            Err(StateError::RoundCompleted { round: 3 })
        );
    }

    fn posted(decision: crate::review::Decision) -> Posted {
        Posted {
            decision,
            triage: "digest".into(),
        }
    }

    #[test]
    fn a_round_is_published_at_most_once_per_revision() {
        use crate::review::Decision;
        let mut s = state();
        let hold = || posted(Decision::Hold);
        assert_eq!(
            s.begin_publish("x", "t", 0, hold()),
            Err(StateError::NoRound)
        );
        s.start_round(&id('a'), "t0");
        assert_eq!(s.begin_publish("github review", "t1", 0, hold()), Ok(1));
        // A crash here leaves "publishing": doubt, so a second attempt is refused, and so is
        // a revision on top of it.
        for revision in [0, 1] {
            assert!(matches!(
                s.begin_publish("github review", "t2", revision, hold()),
                Err(StateError::AlreadyPublished {
                    state: PublishState::Publishing,
                    ..
                })
            ));
        }
        assert_eq!(s.published(), None);
        s.finish_publish(Some("123"), "t3").unwrap();
        assert_eq!(s.publishes[0].state, PublishState::Published);
        assert_eq!(s.publishes[0].posted, Some(hold()));
        assert_eq!(s.ladder(), Ladder::Completed);
        assert_eq!(
            s.published().map(|p| p.target.as_str()),
            Some("github review")
        );
        assert_eq!(s.publishes[0].review_id.as_deref(), Some("123"));
        assert!(s.begin_publish("github review", "t4", 0, hold()).is_err());
        // The same round again, once its triage changed: the next revision only.
        assert!(
            s.begin_publish("github review", "t4", 2, posted(Decision::Block))
                .is_err()
        );
        assert_eq!(
            s.begin_publish("github review", "t4", 1, posted(Decision::Block)),
            Ok(1)
        );
        assert_eq!(s.published().map(|p| p.revision), Some(0));
        s.finish_publish(Some("124"), "t5").unwrap();
        let latest = s.published().unwrap();
        assert_eq!(
            (latest.revision, latest.posted.as_ref().map(|p| p.decision)),
            (1, Some(Decision::Block))
        );
        s.start_round(&id('b'), "t5");
        assert_eq!(s.begin_publish("github review", "t6", 0, hold()), Ok(2));
    }

    #[test]
    fn a_stuck_publish_is_settled_by_what_the_forge_shows() {
        use crate::review::Decision;
        let mut s = state();
        let hold = || posted(Decision::Hold);
        s.start_round(&id('a'), "t0");
        s.begin_publish("github review", "t1", 0, hold()).unwrap();
        // Not on the forge: the stuck record goes, and the round may be published again.
        s.settle_publish((1, 0), None, None, "t2").unwrap();
        assert!(s.publishes.is_empty());
        s.begin_publish("github review", "t3", 0, hold()).unwrap();
        // On the forge: recorded as published there.
        s.settle_publish((1, 0), Some(("https://x/r#1", "77")), None, "t4")
            .unwrap();
        assert_eq!(s.publishes[0].state, PublishState::Published);
        assert_eq!(s.publishes[0].review_id.as_deref(), Some("77"));
        // A published record is never removed.
        assert_eq!(
            s.settle_publish((1, 0), None, None, "t5"),
            Err(StateError::NotPublishing { round: 1 })
        );
        // A revision stuck at "publishing" is settled on its own: the first stays.
        s.begin_publish("github review", "t6", 1, posted(Decision::Block))
            .unwrap();
        s.settle_publish((1, 1), None, None, "t7").unwrap();
        assert_eq!(s.publishes.len(), 1);
        assert_eq!(s.published().map(|p| p.revision), Some(0));
    }

    #[test]
    fn an_older_file_with_few_fields_loads() {
        // The oldest files: the PR and the commits, nothing else (every file ever written has
        // both commits: a state is first saved once the fetch knows them).
        let text = r#"{"pr":{"key":{"forge":"github","host":"github.com","owner":"o","repo":"r","number":3}},
            "head_sha":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","base_sha":"0000000000000000000000000000000000000000"}"#;
        let s: SpaceState = serde_json::from_str(text).unwrap();
        assert_eq!(s.ladder(), Ladder::Requested);
        assert_eq!(s.schema_version, 0);
        assert!(s.rounds.is_empty() && s.nodes.is_empty());
    }

    #[test]
    fn round_trips_through_json() {
        let mut s = state();
        s.start_round(&id('a'), "t0");
        s.advance(Ladder::AwaitingApproval).unwrap();
        let text = serde_json::to_string_pretty(&s).unwrap();
        assert!(text.contains("\"ladder\": \"awaiting_approval\""));
        let back: SpaceState = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
    }
}
