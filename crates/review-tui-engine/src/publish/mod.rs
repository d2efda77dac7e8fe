//! The publisher: turns an approved round into a review on its forge or a local report.
//!
//! Two calls, the same from the cockpit and from `--headless --publish`:
//! [`preview`] reads the forge (the PR again, the login, the current diff, the history, CI) and
//! says exactly what would be posted — event, inline comments, findings moved into the body,
//! the body, where; [`publish`] is called once the person confirmed that preview (or with
//! `--publish`). It reads everything again, refuses if anything the person saw changed, and
//! posts. Publishing fails closed: a moved head, a missing login, a round already published
//! (here, or found by its hidden marker on the forge) all stop it before anything is sent.
//!
//! One summary per PR: the first published review's body, edited by later rounds; a later
//! round posts its own review only for new inline comments or a changed event. Inline comments
//! carry the finding's fingerprint, so a later round never repeats one and replies "Resolved" to
//! the ones whose finding is gone. Only markers written by the publishing login count.

pub(crate) mod comment;
mod error;
mod files_diff;
pub(crate) mod limits;
mod local;
/// The markers live with the review model: a round reads them too (our earlier findings).
pub use crate::review::markers;
mod publishing;
pub(crate) mod raised;
mod range;
mod rerun;
mod review;
pub mod thread_posts;
/// What a round publishes: chosen in `report`, where the Markdown summary needs it too.
pub use crate::report::select;

use std::path::PathBuf;

use serde::Serialize;

pub use comment::MovedFinding;
pub use error::PublishError;
pub use publishing::Publishing;
pub use rerun::{Asked, Rerun, rerun};
pub use select::{Item, Selected, Selection};

use crate::commit_id::CommitId;
use crate::config::Config;
use crate::diff::Diff;
use crate::pr::connect::{TokenChoice, UnknownForge};
use crate::pr::forge::{Forge, ForgeError, ForgeErrorKind, NewReviewComment, ReviewEvent};
use crate::pr::reference::PrRef;
use crate::report::markdown::{self, CiStatus, SummaryExtras};
use crate::review::node::Severity;
use crate::review::verdict::Decision;
use crate::session::prepare::Prepared;
use crate::session::snapshot::RoundSnapshot;
use crate::space::{PublishState, Space, SpaceState};

/// How a round is published: from the configuration and the flags.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishOptions {
    pub selection: Selection,
    /// Ship posts APPROVE (false: COMMENT).
    pub approve_on_ship: bool,
    /// The person chose to approve a Ship no model reviewer read (`--approve-without-models`):
    /// without it such a Ship is a COMMENT, since nothing but rules and scanners checked it.
    pub approve_without_models: bool,
    /// Non-blocking findings of these severities fold into one line.
    pub collapse: Vec<Severity>,
    /// Post inline even the findings an open thread on the PR already raises.
    pub include_raised: bool,
}

impl PublishOptions {
    pub fn from_config(config: &Config, selection: Selection) -> PublishOptions {
        PublishOptions {
            selection,
            approve_on_ship: config.approve_on_ship,
            approve_without_models: false,
            collapse: config.collapse.clone(),
            include_raised: false,
        }
    }
}

impl Default for PublishOptions {
    fn default() -> Self {
        PublishOptions::from_config(&Config::default(), Selection::AllOpen)
    }
}

/// The reviewed round to publish.
#[derive(Debug, Clone, Copy)]
pub struct PublishInput<'a> {
    pub result: &'a RoundSnapshot,
    /// The head the round reviewed (the review's `commit_id`).
    pub head_sha: &'a CommitId,
    /// The reviewed diff: anchors of a local report, and the offline body.
    pub diff: &'a Diff,
    pub options: &'a PublishOptions,
}

/// Where a round goes.
pub enum Destination {
    /// A pull request on a forge that takes reviews.
    Forge(Box<dyn Forge>),
    /// A local range: `review.md` and `review.json` in the review space.
    Local { dir: PathBuf },
}

impl std::fmt::Debug for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Destination::Forge(_) => f.write_str("Destination::Forge"),
            Destination::Local { dir } => write!(f, "Destination::Local({})", dir.display()),
        }
    }
}

/// The destination of a prepared review: its PR on its forge (token discovered like `prepare`
/// does, unless one is given) or its local space.
pub fn destination(
    prepared: &Prepared,
    api_url: Option<String>,
    token: Option<crate::pr::token::Token>,
) -> Result<Destination, PublishError> {
    // A round opened offline was not refreshed: whatever the network does meanwhile, it is
    // never posted from this session (reopening with the network refreshes it first).
    if let Some(offline) = &prepared.offline {
        return Err(PublishError::Offline(offline.needs_network("publishing")));
    }
    match &prepared.reference {
        PrRef::Hosted(hosted) => {
            let forge = crate::pr::registry::find(&hosted.forge).ok_or_else(|| {
                PublishError::forge("connecting to the forge")(ForgeError::new(
                    ForgeErrorKind::Other,
                    UnknownForge(hosted.forge.clone()),
                ))
            })?;
            // Connected as preparing was (the same host rule: an unconfigured host gets no
            // request and no token), except that publishing always looks for a token.
            let mut connection = prepared.connection.clone();
            connection.api_url = api_url;
            connection.token = match token {
                Some(token) => TokenChoice::Given(token),
                None => TokenChoice::Discover,
            };
            let connected = forge
                .connect(hosted, &connection)
                .map_err(PublishError::forge("connecting to the forge"))?;
            Ok(Destination::Forge(connected.forge))
        }
        PrRef::Local { .. } => Ok(Destination::Local {
            dir: prepared.space.path().to_path_buf(),
        }),
    }
}

/// Where the preview would publish.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A review on a forge (`forge` is its name: GitHub, GitLab).
    Forge {
        forge: &'static str,
        pr: String,
        url: String,
    },
    Local {
        markdown: PathBuf,
        json: PathBuf,
    },
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Forge { forge, pr, url } => write!(f, "{forge} review on {pr} ({url})"),
            // Said where it is read (the gate, stderr): a local range, uncommitted work
            // above all, has no forge, and nothing left the machine.
            Target::Local { markdown, json } => write!(
                f,
                "{} and {} (a local report: nothing is posted to a forge)",
                markdown.display(),
                json.display()
            ),
        }
    }
}

/// One inline comment and the finding it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InlineComment {
    pub fingerprint: String,
    pub comment: NewReviewComment,
}

/// A "Resolved" reply to an earlier inline comment whose finding this round did not find.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedReply {
    pub comment_id: u64,
    pub fingerprint: String,
    /// `path:line` of the earlier comment.
    pub location: String,
    pub body: String,
}

/// An earlier standing review of ours (APPROVE, REQUEST_CHANGES) that this round supersedes:
/// it is dismissed, so GitHub never shows a stale decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dismissal {
    pub review_id: u64,
    pub event: ReviewEvent,
    pub message: String,
}

/// What `publish` will do with the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// The PR has no summary of ours yet: one review carries it.
    CreateReview,
    /// Edit the summary in place; post this round's own review (`round_review` is its
    /// one-line body) only for new inline comments or a changed event.
    EditSummary {
        summary_review_id: u64,
        summary_url: String,
        round_review: Option<String>,
    },
    /// This round's marker is already on the forge: nothing new is posted.
    AlreadyPosted {
        review_id: u64,
        url: String,
        /// The summary, when it is another review: it still gets this round's edit.
        summary_review_id: Option<u64>,
    },
    /// A local report.
    WriteFiles,
}

/// What publishing this round would do, for the person to confirm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Preview {
    pub target: Target,
    pub round: u32,
    pub head_sha: CommitId,
    pub decision: Decision,
    /// The event sent.
    pub event: ReviewEvent,
    /// The event the decision maps to; differs from `event` on one's own PR.
    pub intended_event: ReviewEvent,
    pub inline_comments: Vec<InlineComment>,
    /// How many findings the summary body lists (every selected one; those also posted inline
    /// included), so a headline above the body counts what the body shows.
    pub listed_in_body: usize,
    /// Findings already commented by an earlier round (`path:line title`): not repeated.
    pub already_commented: Vec<String>,
    /// Findings an open thread of someone else on the PR already raises: not posted inline
    /// (still counted, still in the body) unless the person included them (`included`: then
    /// they are among `inline_comments` too).
    pub already_raised: Vec<raised::RaisedFinding>,
    /// Anchored findings no longer on the current diff: in the body instead.
    pub moved_to_body: Vec<MovedFinding>,
    pub resolved_replies: Vec<ResolvedReply>,
    /// The summary body, exactly as posted (markers included).
    pub body: String,
    /// The summary as resent after a 422: every inline finding in it, or stating the intended
    /// decision in a COMMENT.
    #[serde(skip)]
    pub(crate) bodies: Bodies,
    /// The same for this round's own one-line review, when it posts one beside the summary.
    #[serde(skip)]
    pub(crate) round_bodies: Option<Bodies>,
    pub notices: Vec<String>,
    pub action: Action,
    /// Earlier standing reviews of ours to dismiss after posting.
    pub dismissals: Vec<Dismissal>,
    /// Earlier rounds left at "publishing" by a crash, and what the forge shows of them.
    #[serde(skip)]
    pub(crate) settle: Vec<Settle>,
    /// Unsubmitted reviews of ours an interrupted publish left: replaced when posting.
    #[serde(skip)]
    pub(crate) replace_pending: Vec<u64>,
}

/// A publish a crash left at "publishing" — (round, revision) — and what the forge shows of
/// it: (url, review id) when its marker is found there.
pub(crate) type Settle = ((u32, u32), Option<(String, u64)>);

/// The result of a publish.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Published {
    /// The forge's name (GitHub, GitLab), for what is said about its refusals.
    #[serde(skip)]
    pub forge: &'static str,
    pub round: u32,
    /// The review's URL, or the report's paths.
    pub target: String,
    pub review_id: Option<u64>,
    pub event: ReviewEvent,
    pub inline_comments: usize,
    /// Set when GitHub refused the inline comments and the review was resent with every
    /// finding in the body: GitHub's message.
    pub resent_without_inline: Option<String>,
    /// Set when GitHub refused the event (APPROVE from Actions' token, say) and the review was
    /// posted as a COMMENT stating the intended decision: the refused event and GitHub's words.
    pub downgraded: Option<(ReviewEvent, String)>,
    /// Earlier standing reviews dismissed: (review id, event).
    pub dismissed: Vec<(u64, ReviewEvent)>,
    pub summary_edited: bool,
    pub resolved_replies: usize,
    pub moved_to_body: usize,
}

impl std::fmt::Display for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "published round {} as {}", self.round, self.event)?;
        if self.summary_edited {
            f.write_str(" (summary edited)")?;
        }
        write!(
            f,
            ": {}; {} inline comment(s), {} moved into the body, {} marked resolved",
            self.target, self.inline_comments, self.moved_to_body, self.resolved_replies
        )?;
        if let Some(message) = &self.resent_without_inline {
            write!(
                f,
                "; {} refused the inline comments ({message}), so every finding was put in the body",
                self.forge
            )?;
        }
        for (id, event) in &self.dismissed {
            write!(f, "; dismissed our earlier {event} (review {id})")?;
        }
        if let Some((intended, message)) = &self.downgraded {
            write!(
                f,
                "; {} refused {intended} ({message}), so the review is a COMMENT stating the intended {intended}",
                self.forge
            )?;
        }
        Ok(())
    }
}

/// Replaced, at resend time, by GitHub's reason for refusing the inline comments.
pub(crate) const REFUSAL: &str = "\u{1}review-tui-refusal\u{1}";
/// Replaced, at resend time, by GitHub's reason for refusing the event.
pub(crate) const DOWNGRADE: &str = "\u{1}review-tui-downgrade\u{1}";

/// One posted text in the four forms a refusal can call for. The first is what the preview
/// shows; the others carry [`REFUSAL`] / [`DOWNGRADE`] until GitHub says why.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Bodies {
    pub plain: String,
    /// Every inline finding in the body.
    pub without_inline: String,
    /// Stating the intended decision, for a COMMENT.
    pub as_comment: String,
    pub as_comment_without_inline: String,
}

impl Bodies {
    /// The same text in all four forms (a local report, which no one refuses).
    pub(crate) fn same(text: &str) -> Bodies {
        Bodies {
            plain: text.to_string(),
            without_inline: text.to_string(),
            as_comment: text.to_string(),
            as_comment_without_inline: text.to_string(),
        }
    }

    /// The form for what GitHub refused so far, its reasons filled in (escaped: they are
    /// GitHub's words, but they may quote what we sent).
    pub(crate) fn pick(&self, refused: Option<&str>, downgraded: Option<&str>) -> String {
        let text = match (refused.is_some(), downgraded.is_some()) {
            (false, false) => &self.plain,
            (true, false) => &self.without_inline,
            (false, true) => &self.as_comment,
            (true, true) => &self.as_comment_without_inline,
        };
        let escape = crate::report::escape::prose;
        let text = text.replace(REFUSAL, &escape(refused.unwrap_or("")));
        outgoing(&text.replace(DOWNGRADE, &escape(downgraded.unwrap_or(""))))
    }
}

/// The event a round's decision maps to. A Ship no model reviewer read is a COMMENT unless the
/// person chose to approve it: rules and scanners finding nothing is not an approval.
pub fn intended_event(result: &RoundSnapshot, options: &PublishOptions) -> ReviewEvent {
    match result.decision() {
        Decision::Block => ReviewEvent::RequestChanges,
        Decision::Hold | Decision::Inconclusive => ReviewEvent::Comment,
        Decision::Ship if unread_approval_withheld(result, options) => ReviewEvent::Comment,
        Decision::Ship if options.approve_on_ship => ReviewEvent::Approve,
        Decision::Ship => ReviewEvent::Comment,
    }
}

/// A Ship that would approve, but no model reviewer read the change and the person did not
/// choose to approve it anyway.
fn unread_approval_withheld(result: &RoundSnapshot, options: &PublishOptions) -> bool {
    result.decision() == Decision::Ship
        && result.deterministic_only
        && options.approve_on_ship
        && !options.approve_without_models
}

/// The line the summary carries when a Ship is posted as a comment because no model read it.
pub fn unread_notice(result: &RoundSnapshot, options: &PublishOptions) -> Option<String> {
    unread_approval_withheld(result, options).then(|| {
        "No model reviewer read this change (`--deterministic-only`), so this review is a \
         comment, not an approval; `--approve-without-models` approves it."
            .to_string()
    })
}

/// What would be published, read fresh from the destination.
pub async fn preview(
    destination: &Destination,
    state: &SpaceState,
    input: &PublishInput<'_>,
) -> Result<Preview, PublishError> {
    match destination {
        Destination::Forge(forge) => review::plan(forge.as_ref(), state, input).await,
        Destination::Local { dir } => Ok(local::plan(dir, state, input)),
    }
}

/// Publishes the round the person confirmed as `confirmed`. Everything is read again first;
/// if what would be posted is not what was confirmed, nothing is posted.
pub async fn publish(
    destination: &Destination,
    space: &mut Space,
    input: &PublishInput<'_>,
    confirmed: &Preview,
) -> Result<Published, PublishError> {
    check_round(space.state(), input)?;
    match destination {
        Destination::Forge(forge) => review::publish(forge.as_ref(), space, input, confirmed).await,
        Destination::Local { dir } => local::publish(dir, space, input, confirmed),
    }
}

/// The body `--format markdown` prints without publishing: the summary with what can be known
/// without the forge (CI not verified, no earlier comments read).
pub fn offline_body(input: &PublishInput<'_>) -> String {
    let selected = select::select(
        input.result,
        input.options.selection,
        &input.options.collapse,
    );
    let ci = CiStatus::NotVerified("not read: nothing was published".into());
    let summary = markdown::summary(
        input.result,
        &selected,
        &SummaryExtras {
            walkthrough: Some(&input.result.walkthrough),
            ci: Some(&ci),
            collapse: &input.options.collapse,
            ..SummaryExtras::default()
        },
    );
    redact(&summary)
}

/// Which publish of its round a publish is: the first (0), the same again (nothing changed
/// since the latest: found published, nothing is posted), or the next revision (the person's
/// triage changed the decision or the posted text since). One rule for the cockpit's publish
/// and `--publish`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Revision {
    pub number: u32,
    /// What this publish is made from: the decision and the digest of the triage.
    pub posted: crate::space::state::Posted,
    /// The latest publish of the round already posted exactly this.
    pub unchanged: bool,
}

pub(crate) fn revision(state: &SpaceState, result: &RoundSnapshot) -> Revision {
    let posted = crate::session::posted::posted(
        result.verdict.decision,
        &result.board.nodes,
        &result.comments,
        result.level,
        &state.include_raised,
    );
    let records = || state.publishes.iter().filter(|p| p.round == result.round);
    let latest = records().max_by_key(|p| p.revision);
    let published = records()
        .filter(|p| p.state == PublishState::Published)
        .max_by_key(|p| p.revision);
    let (number, unchanged) = match (latest, published) {
        // Nothing yet, or a publish in doubt (a crash): that one, which the forge settles.
        (None, _) => (0, false),
        (Some(latest), _) if latest.state == PublishState::Publishing => (latest.revision, false),
        // Older files recorded no `posted`: nothing to compare, so nothing changed.
        (Some(_), Some(published)) if published.posted.as_ref().is_none_or(|p| *p == posted) => {
            (published.revision, true)
        }
        (Some(latest), _) => (latest.revision + 1, false),
    };
    Revision {
        number,
        posted,
        unchanged,
    }
}

/// The round must be the space's current, completed one: publishing a round that is still
/// running, or an older one, would post something no one reviewed as shown.
fn check_round(state: &SpaceState, input: &PublishInput<'_>) -> Result<(), PublishError> {
    match state.current_round() {
        Some(round) if round.number == input.result.round && round.completed => Ok(()),
        _ => Err(PublishError::NotReviewed {
            ladder: state.ladder().to_string(),
        }),
    }
}

/// What goes to the forge: redacted, and cut to fit GitHub's size limit (markers kept last).
pub(crate) fn outgoing(text: &str) -> String {
    limits::fit(&redact(text))
}

/// The last line of defence: every posted text goes through the secret redaction, even though
/// secret findings' evidence is redacted already.
pub(crate) fn redact(text: &str) -> String {
    crate::reviewers::redact::outbound(text)
}

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}
