//! Fixed data for the cockpit tests: one PR, five reviewers, findings with a disagreement,
//! a consolidated secret, a below-threshold note and an unanchored finding.

use std::sync::Arc;

use crate::diff::Side;
use crate::review::Outcome;
use crate::review::*;
use crate::review::{Axis, AxisVerdict};
use crate::review::{EventKind, ReviewEvent, RunId};
use crate::space::Ladder;
use crate::ui::action::{Action, Report};
use crate::ui::state::{AppState, CohortView, PrHeader, RowKey};
use crate::ui::update::{Effect, update};

pub(super) const NOW: &str = "2026-11-29T10:00:00Z";
pub(super) const RUN: RunId = RunId(7);

pub(super) struct NodeSpec<'a> {
    pub id: &'a str,
    pub reviewer: &'a str,
    pub source: Source,
    pub priority: Priority,
    pub kind: Kind,
    pub category: Category,
    pub confidence: f64,
    pub anchor: Option<(&'a str, u32, u32)>,
    pub rule: Option<&'a str>,
    pub title: &'a str,
}

impl Default for NodeSpec<'_> {
    fn default() -> Self {
        NodeSpec {
            id: "n",
            reviewer: "engineer",
            source: Source::Model,
            priority: Priority::P1,
            kind: Kind::Bug,
            category: Category::Correctness,
            confidence: 0.9,
            anchor: Some(("src/auth/refresh.rs", 10, 12)),
            rule: None,
            title: "a finding",
        }
    }
}

pub(super) fn node(spec: NodeSpec) -> ReviewNode {
    ReviewNode::from_draft(
        spec.id,
        Origin {
            reviewer: spec.reviewer.to_string(),
            source: spec.source,
        },
        NodeDraft {
            reasoning: "Read refresh() and its caller: the cached token is returned before the expiry check runs.".into(),
            kind: spec.kind,
            priority: spec.priority,
            triage: Triage {
                category: spec.category,
                severity: Severity::High,
                effort: Effort::Small,
            },
            rule: spec.rule.map(str::to_string),
            anchor: spec.anchor.map(|(path, start, end)| Anchor {
                path: crate::repo_path::RepoPath::parse(path).unwrap(),
                side: Side::Right,
                start_line: start,
                end_line: end,
            }),
            text: NodeText {
                title: spec.title.to_string(),
                body: String::new(),
                evidence: "`if let Some(t) = &self.cached { return Ok(t.clone()) }` precedes the expiry check".into(),
                impact: "Requests fail with 401 for up to an hour after the token expires.".into(),
                verification: "Run `cargo test auth::expired_token_is_refreshed`.".into(),
            },
            fix: None,
            confidence: spec.confidence,
            scope: Scope::InScope,
        },
    )
}

pub(super) fn event(reviewer: &str, kind: EventKind) -> Action {
    Action::Engine(Report::Event(ReviewEvent::new(RUN, reviewer, kind)))
}

pub(super) fn added(node: ReviewNode) -> Action {
    let reviewer = node.origin.reviewer.clone();
    event(
        &reviewer,
        EventKind::NodeAdded {
            node: Box::new(node),
        },
    )
}

pub(super) fn apply(
    state: &mut AppState,
    actions: impl IntoIterator<Item = Action>,
) -> Vec<Effect> {
    actions
        .into_iter()
        .flat_map(|action| update(state, action))
        .collect()
}

pub(super) fn header() -> PrHeader {
    PrHeader {
        repo: "acme/payments".into(),
        number: "42".into(),
        title: "Retry the token refresh on 401".into(),
        base: "main".into(),
        head: "fix/token-refresh".into(),
        author: "alice".into(),
    }
}

pub(super) fn cohorts() -> Vec<CohortView> {
    vec![
        CohortView {
            key: "c-auth".into(),
            label: "auth::refresh_token".into(),
            files: vec![
                "src/auth/refresh.rs".into(),
                "src/auth/client.rs".into(),
                "tests/auth.rs".into(),
            ],
            fallback: false,
            blast_radius: 14,
            symbols: vec!["Refresher".into(), "Token".into(), "refresh".into()],
            edges: vec![
                (
                    "src/auth/refresh.rs".into(),
                    "tests/auth.rs".into(),
                    "Refresher".into(),
                ),
                (
                    "src/auth/refresh.rs".into(),
                    "src/auth/client.rs".into(),
                    "Token".into(),
                ),
                (
                    "src/auth/refresh.rs".into(),
                    "src/auth/client.rs".into(),
                    "refresh".into(),
                ),
                (
                    "src/auth/client.rs".into(),
                    "tests/auth.rs".into(),
                    "refresh".into(),
                ),
            ],
        },
        CohortView {
            key: "p-docs".into(),
            label: "docs/".into(),
            files: vec!["docs/auth.md".into()],
            fallback: true,
            blast_radius: 0,
            symbols: Vec::new(),
            edges: Vec::new(),
        },
    ]
}

pub(super) const CODE: &[&str] = &[
    "use std::time::Instant;",
    "",
    "pub struct Refresher {",
    "    cached: Option<Token>,",
    "}",
    "",
    "impl Refresher {",
    "    pub fn refresh(&mut self, now: Instant) -> Result<Token, Error> {",
    "        // The cached token is returned first.",
    "        if let Some(t) = &self.cached {",
    "            return Ok(t.clone());",
    "        }",
    "        let token = self.fetch()?;",
    "        self.cached = Some(token.clone());",
    "        Ok(token)",
    "    }",
    "}",
];

/// An empty cockpit: the engine is still preparing.
pub(super) fn loading() -> AppState {
    let mut state = AppState::new(header(), "alice");
    state.now = NOW.into();
    state.loading = Some("preparing the review space: fetching the PR head".into());
    state
}

/// A run in flight: engineer done, qa reading, the rest queued; two findings so far.
pub(super) fn streaming() -> AppState {
    let mut state = AppState::new(header(), "alice");
    state.now = NOW.into();
    apply(
        &mut state,
        [
            Action::Engine(Report::Cohorts(cohorts())),
            Action::Engine(Report::Ladder(Ladder::InProgress)),
            Action::Engine(Report::RunStarted {
                run: RUN,
                round: 2,
                reviewers: vec![
                    ("engineer".into(), true),
                    ("qa".into(), true),
                    ("architect".into(), true),
                    ("rules".into(), false),
                    ("secret scan".into(), false),
                ],
                deterministic_only: false,
            }),
            event("engineer", EventKind::Started { required: true }),
            event("qa", EventKind::Started { required: true }),
            added(node(NodeSpec {
                id: "n1",
                priority: Priority::P0,
                confidence: 0.92,
                title: "Expired token is reused: refresh() returns the cache first",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "n6",
                reviewer: "engineer",
                priority: Priority::P1,
                anchor: None,
                confidence: 0.75,
                category: Category::Stability,
                title: "Retry loop has no jitter",
                ..NodeSpec::default()
            })),
            event(
                "engineer",
                EventKind::Progress {
                    tokens_used: 18_400,
                    cost_usd: 0.07,
                    note: "read 6 files".into(),
                },
            ),
            event(
                "engineer",
                EventKind::Done {
                    summary: "2 findings in 6 files".into(),
                },
            ),
            event(
                "qa",
                EventKind::Progress {
                    tokens_used: 9_100,
                    cost_usd: 0.03,
                    note: "reading tests/auth.rs".into(),
                },
            ),
        ],
    );
    state
}

/// Every reviewer finished: a disagreement, a consolidated secret, a below-threshold finding.
pub(super) fn finished() -> AppState {
    let mut state = streaming();
    state.node_mut("n1").unwrap().fix = Some(Fix {
        replacement: Some(vec![
            "        if let Some(t) = self.cached.as_ref().filter(|t| !t.expired(now)) {".into(),
            "            return Ok(t.clone());".into(),
            "        }".into(),
        ]),
        diff: None,
        prompt: None,
    });
    apply(
        &mut state,
        [
            added(node(NodeSpec {
                id: "n2",
                reviewer: "qa",
                priority: Priority::P2,
                kind: Kind::Suggestion,
                confidence: 0.6,
                anchor: Some(("src/auth/refresh.rs", 11, 11)),
                title: "Consider a test for the expired-cache path",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "n3",
                reviewer: "rules",
                source: Source::Deterministic,
                priority: Priority::P0,
                category: Category::Security,
                confidence: 1.0,
                rule: Some("secret/aws-access-key"),
                anchor: Some(("src/auth/client.rs", 5, 5)),
                title: "AWS access key committed",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "n4",
                reviewer: "secret scan",
                source: Source::Scanner,
                priority: Priority::P0,
                category: Category::Security,
                confidence: 0.99,
                rule: Some("secret/aws-access-key"),
                anchor: Some(("src/auth/client.rs", 5, 5)),
                title: "Hardcoded AWS key",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "n5",
                reviewer: "engineer",
                priority: Priority::P3,
                kind: Kind::Recommendation,
                category: Category::Docs,
                confidence: 0.4,
                anchor: Some(("docs/auth.md", 3, 3)),
                title: "Document the refresh window",
                ..NodeSpec::default()
            })),
            event(
                "qa",
                EventKind::Stance {
                    node_id: "n6".into(),
                    confirm: true,
                    note: "seen it in the load test".into(),
                },
            ),
            event(
                "qa",
                EventKind::Done {
                    summary: "1 finding".into(),
                },
            ),
            event(
                "architect",
                EventKind::Failed {
                    outcome: Outcome::Failed,
                    reason: "provider timed out after 120 s".into(),
                },
            ),
            event(
                "rules",
                EventKind::Done {
                    summary: "12 rules".into(),
                },
            ),
            event(
                "secret scan",
                EventKind::Done {
                    summary: "1 secret".into(),
                },
            ),
            Action::Engine(Report::Axes(vec![
                Axis {
                    name: "correctness".into(),
                    verdict: AxisVerdict::Fail,
                    gated: false,
                    detail: String::new(),
                },
                Axis {
                    name: "security".into(),
                    verdict: AxisVerdict::Fail,
                    gated: false,
                    detail: String::new(),
                },
                Axis {
                    name: "apiContract".into(),
                    verdict: AxisVerdict::Pass,
                    gated: true,
                    detail: String::new(),
                },
            ])),
            Action::Engine(Report::Code {
                path: "src/auth/refresh.rs".into(),
                lines: Arc::new(CODE.iter().map(|l| l.to_string()).collect()),
            }),
            Action::Engine(Report::Diff(diff())),
            Action::Engine(Report::Ladder(Ladder::AwaitingApproval)),
        ],
    );
    state.findings.selected = Some(RowKey::Node("n1".into()));
    state
}

/// The pull request's diff, files listed in an order that is not the reading order.
pub(super) const DIFF: &str = "\
diff --git a/tests/auth.rs b/tests/auth.rs
new file mode 100644
--- /dev/null
+++ b/tests/auth.rs
@@ -0,0 +1,3 @@
+#[test]
+fn expired_token_is_refreshed() {
+}
diff --git a/src/auth/client.rs b/src/auth/client.rs
--- a/src/auth/client.rs
+++ b/src/auth/client.rs
@@ -3,4 +3,4 @@ use crate::auth::Refresher;
 pub fn client() -> Client {
-    let key = std::env::var(\"AWS_KEY\").unwrap();
-    Client::new(key)
+    let token = refresh();
+    let key = \"AKIAIOSFODNN7EXAMPLE\";
 }
diff --git a/docs/auth.md b/docs/auth.md
--- a/docs/auth.md
+++ b/docs/auth.md
@@ -1,2 +1,4 @@
 # Auth
+
+Tokens refresh 60 s before expiry.
 See the client.
diff --git a/src/auth/refresh.rs b/src/auth/refresh.rs
--- a/src/auth/refresh.rs
+++ b/src/auth/refresh.rs
@@ -7,6 +7,10 @@
 impl Refresher {
-    pub fn refresh(&mut self) -> Result<Token, Error> {
+    pub fn refresh(&mut self, now: Instant) -> Result<Token, Error> {
+        // The cached token is returned first.
+        if let Some(t) = &self.cached {
+            return Ok(t.clone());
+        }
         let token = self.fetch()?;
         self.cached = Some(token.clone());
         Ok(token)
     }
";

pub(super) fn diff() -> Arc<crate::diff::Diff> {
    Arc::new(crate::diff::parse(DIFF).expect("the fixture diff parses"))
}

/// A finding on a removed line (LEFT side): the old environment lookup in the client.
pub(super) fn left_finding() -> Action {
    let mut n7 = node(NodeSpec {
        id: "n7",
        reviewer: "qa",
        priority: Priority::P2,
        category: Category::Compatibility,
        confidence: 0.85,
        anchor: Some(("src/auth/client.rs", 4, 4)),
        title: "AWS_KEY is no longer read: deployments that set it break",
        ..NodeSpec::default()
    });
    n7.anchor.as_mut().unwrap().side = Side::Left;
    added(n7)
}

pub(super) fn select(state: &mut AppState, id: &str) {
    state.findings.selected = Some(RowKey::Node(id.into()));
}
