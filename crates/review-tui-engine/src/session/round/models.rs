//! The model reviewers' part of a round: their context and tools, the dispatch, and the passes
//! after them. Everything here produces events or data; `pipeline::review` applies them.

use std::path::Path;
use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use crate::cohort::{CohortReport, OnDemandIndex};
use crate::diff::{Diff, Side};
use crate::review::board::Board;
use crate::review::events::{ReviewEvent, RunId};
use crate::review::fingerprint::stamp;
use crate::review::node::{ReviewNode, Source};
use crate::review::verdict::Outcome;
use crate::reviewers::deterministic::secrets::SecretScanner;
use crate::reviewers::model::agent::{Agent, Bounds, ContextPart, Pricing, Redactor};
use crate::reviewers::model::context::{Context, read_guidance};
use crate::reviewers::model::dispatch::Assignment;
use crate::reviewers::model::mcp::{Sources, WithSources};
use crate::reviewers::model::passes::{self, Kit, peer::Peer};
use crate::reviewers::model::roster::{Roster, header};
use crate::reviewers::model::sandbox_tools::SandboxTools;
use crate::reviewers::model::toolbox::ToolBox;
use crate::reviewers::model::tools::Sandbox;
use crate::reviewers::redact;
use crate::session::prepare::Prepared;

/// How the model reviewers of a review run.
#[derive(Debug, Clone)]
pub struct ModelSetup {
    pub roster: Roster,
    /// Conversations at once (default 5).
    pub concurrency: usize,
    /// Per reviewer: tool calls, tokens, wall time.
    pub bounds: Bounds,
    pub pricing: Option<Pricing>,
    /// Tokens per diff part before the diff is split into several conversations.
    pub context_tokens: usize,
    /// The most findings the verification pass checks.
    pub verify_calls: usize,
    /// The most findings scored, and traced to a root cause.
    pub score_calls: usize,
    pub root_cause_calls: usize,
    /// Turning true stops every reviewer and pass (the cockpit's abort).
    pub cancel: Option<watch::Receiver<bool>>,
    /// The model reviewers the person stopped one by one (the others go on).
    pub stop_reviewers: Option<watch::Receiver<std::collections::BTreeSet<String>>>,
    /// `[[context.mcp]]`: the MCP servers started for the round, whose allowed tools the
    /// reviewers may call.
    pub context_sources: Vec<crate::config::McpSource>,
}

impl ModelSetup {
    pub fn new(roster: Roster) -> ModelSetup {
        ModelSetup {
            roster,
            concurrency: 5,
            bounds: Bounds::default(),
            pricing: None,
            context_tokens: 60_000,
            verify_calls: 20,
            score_calls: 50,
            root_cause_calls: 5,
            cancel: None,
            stop_reviewers: None,
            context_sources: Vec::new(),
        }
    }
}

pub use crate::review::coverage::Estimate;

/// What the dispatch needs, built before it starts.
pub(super) struct ModelRun {
    pub assignments: Vec<Assignment>,
    pub estimate: Estimate,
    pub kit: Kit,
    pub agents: Vec<(String, Agent, String)>,
    pub notes: Vec<String>,
    /// The round's context sources, running until the round stops them (or drops them, which
    /// kills them).
    pub sources: Option<Arc<Sources>>,
}

/// Every text bound for a provider goes through the round's secret redaction first: every
/// detector, and the values of the secrets the change holds.
pub fn redactor(scanner: Arc<SecretScanner>) -> Arc<dyn Redactor> {
    scanner
}

/// Why no model reviewer can run this round (each is failed with this text).
#[derive(Debug, thiserror::Error)]
pub(super) enum ModelsUnavailable {
    /// The worktree cannot be opened for the read-only tools.
    #[error(transparent)]
    Worktree(#[from] crate::reviewers::model::tools::ToolError),
    #[error("the reviewers' context could not be built: {0}")]
    Context(#[source] crate::reviewers::model::context::ContextError),
    #[error("{0}")]
    Task(String),
}

/// Why the base revision's guidance files were not read (a note; the round goes on).
#[derive(Debug, thiserror::Error)]
enum GuidanceUnread {
    #[error("{}", .0.message())]
    Mirror(git2::Error),
    #[error(transparent)]
    Read(#[from] crate::reviewers::model::context::ContextError),
}

/// Tools, redactor, context and one assignment per member. `Err` fails every model reviewer
/// with the reason (the context could not be built, the worktree cannot be opened).
pub(super) async fn prepare(
    prepared: &Prepared,
    setup: &ModelSetup,
    cohorts: Option<&CohortReport>,
    secrets: Arc<SecretScanner>,
    cancel: watch::Receiver<bool>,
) -> Result<ModelRun, ModelsUnavailable> {
    let mut notes = Vec::new();
    let (mut tools, root) = sandbox_tools(prepared, cohorts.is_some(), secrets.clone())?;
    let redactor = redactor(secrets);
    // Started once for the round, beside the repository tools, under the same budget.
    let sources = if setup.context_sources.is_empty() {
        None
    } else {
        let sources = Arc::new(Sources::start(&setup.context_sources, redactor.clone()).await);
        tools = Arc::new(WithSources::new(tools, sources.clone()));
        Some(sources)
    };

    let mirror = prepared.space.mirror().to_path_buf();
    let base = prepared.space.state().base_sha.clone();
    let guidance = tokio::task::spawn_blocking(move || -> Result<_, GuidanceUnread> {
        let repo = git2::Repository::open_bare(&mirror).map_err(GuidanceUnread::Mirror)?;
        Ok(read_guidance(&repo, &base)?)
    })
    .await
    .map_err(|e| ModelsUnavailable::Task(e.to_string()))?;
    let mut builder = Context::builder(&prepared.diff)
        .pull_request(&prepared.pr, &prepared.history, prepared.login.as_deref())
        .threads(&prepared.threads.threads);
    match guidance {
        Ok(guidance) => builder = builder.guidance(guidance),
        Err(reason) => notes.push(format!(
            "guidance from the base revision not read: {reason}"
        )),
    }
    if let Some(note) = &prepared.history_note {
        notes.push(note.clone());
    }
    let context = builder
        .build(setup.context_tokens)
        .map_err(ModelsUnavailable::Context)?;
    notes.extend(context.notes().iter().cloned());
    let parts = context.render(&|text| redactor.redact(text));
    let count = parts.len();
    let conversations: Vec<Vec<ContextPart>> = parts
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            vec![ContextPart::trusted(
                format!("review material, part {} of {count}", i + 1),
                text,
            )]
        })
        .collect();

    let mut assignments = Vec::new();
    let mut agents = Vec::new();
    let mut briefs = Vec::new();
    for member in &setup.roster.members {
        let name = member.role.as_str().to_string();
        let brief = format!(
            "{}\n\n{}\n\n{}",
            header(&name, "review"),
            member.brief.trim(),
            Context::system_text()
        );
        let agent = Agent::new(member.provider.clone(), tools.clone(), redactor.clone());
        briefs.push(brief.clone());
        // Stances are tool calls: a provider without them cannot take part in the peer round.
        if member.provider.capabilities().tools {
            agents.push((name.clone(), agent.clone(), member.brief.clone()));
        } else {
            notes.push(format!(
                "peer round: {name} skipped (its provider has no function calling for stances)"
            ));
        }
        assignments.push(Assignment {
            name,
            required: true,
            agent,
            brief,
            conversations: conversations.clone(),
            bounds: setup.bounds.clone(),
            pricing: setup.pricing,
        });
    }
    let brief_refs: Vec<&str> = briefs.iter().map(String::as_str).collect();
    let estimate = context.estimate(&brief_refs);
    let estimate = Estimate {
        reviewers: assignments.len(),
        parts: estimate.parts,
        context_tokens: estimate.context_tokens,
        input_tokens: estimate.total_tokens,
    };
    let kit = Kit {
        tools,
        redactor,
        worktree: root,
        concurrency: setup.concurrency,
        cancel,
        bounds: Bounds {
            max_tool_calls: setup.bounds.max_tool_calls.min(20),
            ..setup.bounds.clone()
        },
        notes: Default::default(),
    };
    Ok(ModelRun {
        assignments,
        estimate,
        kit,
        agents,
        notes,
        sources,
    })
}

/// The read-only tools confined to the space's worktree (with the symbol index for
/// `find_symbol` when `symbols`), redacting every file before they cut or slice it; and the
/// worktree's canonical root.
pub fn sandbox_tools(
    prepared: &Prepared,
    symbols: bool,
    secrets: Arc<SecretScanner>,
) -> Result<(Arc<dyn ToolBox>, std::path::PathBuf), crate::reviewers::model::tools::ToolError> {
    let worktree = prepared.space.worktree().to_path_buf();
    let mut sandbox = Sandbox::new(&worktree)?.with_diff(Arc::new(prepared.diff.clone()));
    if symbols {
        sandbox = sandbox.with_symbols(Arc::new(load_index(prepared)));
    }
    // The agent redacts each tool result again on its way out.
    sandbox = sandbox.with_redactor(Arc::new(move |text: &str| {
        redact::redact_text_keeping_lines(text, &secrets).0
    }));
    let root = sandbox.root().to_path_buf();
    Ok((Arc::new(SandboxTools::new(sandbox)), root))
}

/// The symbol index for `find_symbol`: built the first time a reviewer calls it, from the
/// mirror's store of tags by blob.
fn load_index(prepared: &Prepared) -> OnDemandIndex {
    OnDemandIndex::new(
        prepared.space.mirror().to_path_buf(),
        prepared.space.worktree().to_path_buf(),
        prepared.space.state().head_sha.clone(),
    )
}

/// Model and person findings get the same fingerprint as every other finding: rule, path, and the anchored
/// code read from the worktree (RIGHT) or the diff's removed lines (LEFT).
pub fn fingerprint_model_nodes(nodes: &mut [ReviewNode], worktree: &Path, diff: &Diff) {
    for node in nodes.iter_mut().filter(|n| {
        matches!(n.origin.source, Source::Model | Source::Person) && n.fingerprint.is_empty()
    }) {
        // A person's finding has a key of its own: never a machine's duplicate by print alone.
        let rule = match node.origin.source {
            Source::Person => crate::review::person::RULE_KEY.to_string(),
            _ => node.rule_key(),
        };
        let Some(anchor) = node.anchor.clone() else {
            let title = node.text.title.clone();
            stamp(node, &rule, "", &[title.as_str()]);
            continue;
        };
        let lines = anchored_lines(&anchor, worktree, diff);
        let title = node.text.title.clone();
        let code: Vec<&str> = if lines.iter().all(|l| l.trim().is_empty()) {
            // Nothing readable at the anchor: the title keeps the print stable across rounds.
            vec![title.as_str()]
        } else {
            lines.iter().map(String::as_str).collect()
        };
        stamp(node, &rule, &anchor.path, &code);
    }
}

/// The code at `anchor`: the worktree's lines (RIGHT) or the diff's removed lines (LEFT).
pub fn anchored_lines(
    anchor: &crate::review::node::Anchor,
    worktree: &Path,
    diff: &Diff,
) -> Vec<String> {
    let range = anchor.start_line..=anchor.end_line;
    match anchor.side {
        Side::Right => passes::read_worktree_file(worktree, &anchor.path)
            .map(|text| {
                text.lines()
                    .enumerate()
                    .filter(|(i, _)| range.contains(&(*i as u32 + 1)))
                    .map(|(_, l)| l.to_string())
                    .collect()
            })
            .unwrap_or_default(),
        Side::Left => diff
            .files
            .iter()
            .filter(|f| f.path == anchor.path || f.old_path.as_deref() == Some(&anchor.path))
            .flat_map(|f| f.hunks.iter().flat_map(|h| h.lines.iter()))
            .filter(|l| l.old_line.is_some_and(|n| range.contains(&n)))
            .map(|l| l.text.clone())
            .collect(),
    }
}

/// The peers of the peer round: the members that finished their review.
pub(super) fn peers(
    board: &Board,
    agents: &[(String, Agent, String)],
    pricing: Option<Pricing>,
) -> Vec<Peer> {
    agents
        .iter()
        .filter(|(name, ..)| {
            board
                .reviewers
                .get(name)
                .is_some_and(|r| r.outcome == Some(Outcome::Ok))
        })
        .map(|(name, agent, brief)| Peer {
            name: name.clone(),
            agent: agent.clone(),
            brief: brief.clone(),
            pricing,
            tokens_so_far: board.reviewers.get(name).map_or(0, |r| r.tokens_used),
        })
        .collect()
}

/// Runs the peer round, applying its events to the board in this one loop.
pub(super) async fn peer_round(
    board: &mut Board,
    agents: &[(String, Agent, String)],
    setup: &ModelSetup,
    run: RunId,
    cancel: watch::Receiver<bool>,
    now: &(dyn Fn() -> String + Sync),
    tap: Option<&tokio::sync::mpsc::UnboundedSender<super::Tap>>,
) -> Vec<String> {
    let peers = peers(board, agents, setup.pricing);
    // The peer round's progress notes would replace each reviewer's summary on the board.
    let summaries: Vec<(String, String)> = peers
        .iter()
        .filter_map(|p| {
            board
                .reviewers
                .get(&p.name)
                .map(|r| (p.name.clone(), r.note.clone()))
        })
        .collect();
    let nodes = board.nodes.clone();
    let (sender, mut receiver) = mpsc::channel::<ReviewEvent>(256);
    let bounds = setup.bounds.clone();
    let concurrency = setup.concurrency;
    let task = tokio::spawn(async move {
        passes::peer::run(peers, &nodes, run, &bounds, concurrency, sender, cancel).await
    });
    while let Some(event) = receiver.recv().await {
        // The live view sees each stance as the board takes it.
        if let Some(tap) = tap {
            let _ = tap.send(super::Tap::Event(event.clone()));
            // A peer held up by its server holds the round up: the phase line says so too.
            if let Some(heard) = heard_of(&event.kind) {
                let _ = tap.send(super::Tap::Pass(
                    super::Phase::PeerRound,
                    passes::PassNote::Heard(heard),
                ));
            }
        }
        board.apply(event, &now());
    }
    for (name, summary) in summaries {
        if let Some(state) = board.reviewers.get_mut(&name) {
            state.note = summary;
        }
    }
    task.await
        .unwrap_or_else(|e| vec![format!("peer round failed: {e}")])
}

/// A peer's retry or wait, as a pass's note.
fn heard_of(
    kind: &crate::review::events::EventKind,
) -> Option<crate::reviewers::model::provider::Heard> {
    use crate::review::events::EventKind;
    use crate::reviewers::model::provider::{Heard, RetryNote};
    match kind {
        EventKind::Retrying {
            attempt,
            of,
            wait_secs,
            reason,
            rate_limited,
        } => Some(Heard::Retrying(RetryNote {
            attempt: *attempt,
            of: *of,
            wait: std::time::Duration::from_secs(*wait_secs),
            reason: reason.clone(),
            rate_limited: *rate_limited,
        })),
        EventKind::Waiting { host, waited_secs } => Some(Heard::Waiting {
            host: host.clone(),
            waited_secs: *waited_secs,
        }),
        _ => None,
    }
}

/// Where a member's scoring model is, by reviewer name.
pub(super) fn scorer_for(
    roster: &Roster,
    reviewer: &str,
) -> Option<Arc<dyn crate::reviewers::model::provider::Provider>> {
    roster
        .members
        .iter()
        .find(|m| m.role.as_str() == reviewer)
        .and_then(|m| m.scorer.clone())
}
