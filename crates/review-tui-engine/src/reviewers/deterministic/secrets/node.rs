//! Secret hits as review nodes.
//!
//! The fingerprint hashes the rule, the path and the anchored line(s) *as redacted*. It must be
//! published (hidden markers in comments, SARIF `partialFingerprints`), so it must not be a
//! function of the hidden part of the secret: a 64-bit hash of a line holding a short or
//! low-entropy password could otherwise be brute-forced offline to recover it. The redacted
//! line reveals nothing beyond what the evidence already shows (the first four characters of a
//! long secret, nothing of a short one). The cost: replacing a leaked secret with another of
//! the same prefix on an otherwise identical line keeps the fingerprint, which is right: the
//! problem (a hardcoded credential at that spot) is still present.

use super::docs_site::docs_site_file;
use super::report_upload::service_config;
use super::scanner::SecretHit;
use crate::diff::{Side, is_documentation, is_sample_path, is_test_path};
use crate::review::fingerprint::{fingerprint, stamp};
use crate::review::{
    Anchor, Category, Effort, Fix, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode, Scope,
    Severity, Source, Triage,
};

/// The reviewer name of the built-in scan.
pub const SECRET_SCAN: &str = "secret scan";

impl SecretHit {
    pub fn fingerprint(&self) -> String {
        let lines: Vec<&str> = self.evidence.lines().collect();
        fingerprint(&self.rule, &self.path, &lines)
    }

    /// Key material (a private key block) in test code or fixtures (`tests/certs/`,
    /// `_fixture/certs/`, `testdata/`): test suites keep the keys of their test certificates
    /// beside them (requests regenerates its expired, valid and mTLS fixtures under
    /// `tests/certs/`). A note to check it is only a fixture, not a leak to rotate; a
    /// provider's credential there is still one.
    pub fn fixture_key(&self) -> bool {
        self.private_key() && fixture_path(&self.path)
    }

    /// Key material in sample code ([`is_sample_path`]: `examples/puma/client_certs/`,
    /// benchmarks, documentation), outside the test fixtures: a leak like any other key unless
    /// the project's tests load it from there or documentation shows it
    /// ([`settle_keys_read_by_tests`]).
    pub fn sample_key(&self) -> bool {
        self.private_key() && !fixture_path(&self.path) && is_sample_path(&self.path)
    }

    /// A [`SecretHit::sample_key`] in documentation (`docs/usage.rst`): a key the project
    /// prints for its readers to try the library with is a sample by being shown, whoever
    /// loads it.
    fn documented_key(&self) -> bool {
        self.sample_key() && is_documentation(&self.path)
    }

    /// Found by a rule about private key material (a key block or its body).
    pub(super) fn private_key(&self) -> bool {
        let key = |name: &str| {
            let name = name.to_ascii_lowercase();
            name.contains("private-key") || name.contains("private key")
        };
        key(&self.source_id) || key(&self.label)
    }

    /// Found by a rule that knows no provider's format (`password = …`, `api_key: …`).
    pub fn generic(&self) -> bool {
        self.source_id.starts_with("generic") || self.source_id == "config-password"
    }

    /// A generic credential (a rule that knows no provider's format: `password: postgres`)
    /// in a CI workflow whose text (`workflow`) runs throw-away service containers or talks
    /// to `localhost`: the test database's password, MinIO's and Redis's defaults. A note,
    /// not a leak.
    pub fn service_credential(&self, workflow: &str) -> bool {
        let generic = self.generic();
        let services = workflow.lines().any(|line| {
            let line = line.trim();
            line == "services:" || line.starts_with("services: ")
        });
        let local = ["localhost", "127.0.0.1", "0.0.0.0"]
            .iter()
            .any(|host| workflow.contains(host));
        generic && ci_workflow(&self.path) && (services || local)
    }

    pub fn to_draft(&self) -> NodeDraft {
        if self.fixture_key() {
            return self.fixture_key_draft();
        }
        let added = self.side == Side::Right;
        let shown = if self.redacted.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.redacted)
        };
        NodeDraft {
            reasoning: format!(
                "Rule {} matched {}{shown} at {}:{}.",
                self.rule, self.label, self.path, self.start_line
            ),
            kind: Kind::Bug,
            priority: Priority::P0,
            triage: Triage {
                category: Category::Security,
                severity: Severity::Critical,
                effort: Effort::Small,
            },
            rule: Some(self.rule.clone()),
            anchor: crate::repo_path::RepoPath::parse(&self.path)
                .ok()
                .map(|path| Anchor {
                    path,
                    side: self.side,
                    start_line: self.start_line,
                    end_line: self.end_line,
                }),
            text: NodeText {
                title: format!("Hardcoded secret: {}", self.label),
                body: format!(
                    "{} A secret that reached a pushed commit must be treated as leaked: \
                     removing it in a later commit does not take it out of the history.",
                    self.description
                ),
                evidence: self.evidence.clone(),
                impact: "Anyone who can read the repository, a fork, a clone or a CI log can use \
                         the credential until it is revoked."
                    .to_string(),
                verification: format!(
                    "Check in the provider whether the credential{shown} is live; if it is, \
                     revoke and rotate it."
                ),
            },
            fix: Some(Fix {
                replacement: None,
                diff: None,
                prompt: Some(
                    "Remove the hardcoded credential and read it from the environment or a \
                     secret store; rotate the leaked value."
                        .to_string(),
                ),
            }),
            confidence: self.confidence,
            // A secret on a removed line is not introduced by this change, but it is still in
            // the history: reported, as a pre-existing observation.
            scope: if added {
                Scope::InScope
            } else {
                Scope::OutOfScope
            },
        }
    }

    /// [`SecretHit::to_draft`] of a [`SecretHit::fixture_key`]: a P2 note.
    fn fixture_key_draft(&self) -> NodeDraft {
        NodeDraft {
            reasoning: format!(
                "Rule {} matched {} at {}:{}, a test fixture path.",
                self.rule, self.label, self.path, self.start_line
            ),
            kind: Kind::Question,
            priority: Priority::P2,
            triage: Triage {
                category: Category::Security,
                severity: Severity::Low,
                effort: Effort::Small,
            },
            rule: Some(self.rule.clone()),
            anchor: crate::repo_path::RepoPath::parse(&self.path)
                .ok()
                .map(|path| Anchor {
                    path,
                    side: self.side,
                    start_line: self.start_line,
                    end_line: self.end_line,
                }),
            text: NodeText {
                title: format!("Test key committed: {}", self.label),
                body: "Key material under a test path, where suites keep the keys of their test \
                       certificates. Make sure it is only a fixture and that no real service \
                       trusts it."
                    .to_string(),
                evidence: self.evidence.clone(),
                impact: "None if it is a throw-away fixture; if the key is used anywhere else, \
                         anyone who can read the repository holds it."
                    .to_string(),
                verification: "Check that the key was generated for the tests only and is \
                               trusted by nothing outside them."
                    .to_string(),
            },
            fix: None,
            confidence: self.confidence,
            scope: if self.side == Side::Right {
                Scope::InScope
            } else {
                Scope::OutOfScope
            },
        }
    }

    pub fn to_node(&self, id: impl Into<String>, reviewer: &str) -> ReviewNode {
        let mut node = ReviewNode::from_draft(
            id,
            Origin {
                reviewer: reviewer.to_string(),
                source: Source::Scanner,
            },
            self.to_draft(),
        );
        let lines: Vec<&str> = self.evidence.lines().collect();
        stamp(&mut node, &self.rule, &self.path, &lines);
        node
    }
}

/// Test code or test data by path ([`is_test_path`]), or under a fixture folder whatever its
/// prefix: Go's tool skips `_`-prefixed folders, so Go projects keep fixtures in `_fixture/`.
pub(crate) fn fixture_path(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let dirs = path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
    is_test_path(&path) || dirs.split('/').any(fixture_dir)
}

/// A folder of tests or test data by its name (`tests`, `testdata`, `_fixture`, `.fixtures`,
/// `test-ca`).
pub fn fixture_dir(name: &str) -> bool {
    let trimmed = name.trim_start_matches(['_', '.']).to_ascii_lowercase();
    // A file with no extension under the folder is test data exactly when the folder is.
    // A folder named for what it is made for (`test-ca`, `test_certs`): the tests' material.
    let for_tests = ["test-", "test_", "tests-", "tests_"]
        .iter()
        .any(|prefix| trimmed.starts_with(prefix));
    is_test_path(&format!("{name}/x"))
        || for_tests
        || matches!(
            trimmed.as_str(),
            "fixture"
                | "fixtures"
                | "testdata"
                | "test-data"
                | "test_data"
                | "test-fixtures"
                | "test_fixtures"
        )
}

/// A key the project's own tests load (`read_by`: the test file that names it, the folder it
/// sits in, or the certificate it pairs with) in a test fixture folder
/// ([`SecretHit::fixture_key`]) is no finding: its path and its reader already say it is a
/// key generated for the tests (golang-jwt's `test/ec256-private.pem`, echo's
/// `_fixture/certs/key.pem`), and a note asking to check that says nothing the reviewer does
/// not see. In a folder of examples ([`SecretHit::sample_key`], a P0 otherwise) it is a P3 note
/// naming the test: users copy examples into their deployments (puma's TLS fixtures live
/// under `examples/puma/`, hyper-rustls's example server key beside the certificate its tests
/// trust). In documentation ([`SecretHit::documented_key`]: pyjwt's `docs/usage.rst` shows
/// the RSA and EC keys its examples sign with) it is the same P3 note, read by a test or not.
/// A key anywhere else stays a P0 whoever reads it: a real key in `certs/` or
/// `deploy/` is often read by a test too. A provider's token is never a key. Returns how many
/// fixture keys were left out, for the scan's summary.
pub fn settle_keys_read_by_tests(
    hits: &[SecretHit],
    nodes: &mut Vec<ReviewNode>,
    read_by: &dyn Fn(&str) -> Option<String>,
) -> usize {
    let before = nodes.len();
    let mut keep = Vec::with_capacity(before);
    for (index, mut node) in std::mem::take(nodes).into_iter().enumerate() {
        let Some(hit) = hits.get(index) else {
            keep.push(node);
            continue;
        };
        let fixture = hit.fixture_key() && node.priority == Priority::P2;
        let sample = hit.sample_key() && node.priority == Priority::P0;
        // A key written inside a test's own source (go-jose's `jwt/builder_test.go`) is read
        // by that test.
        let in_test_code = fixture && test_source(&hit.path);
        let test = if in_test_code {
            Some(hit.path.clone())
        } else if sample && hit.documented_key() {
            Some(String::new())
        } else {
            (fixture || sample).then(|| read_by(&hit.path)).flatten()
        };
        match test {
            Some(_) if fixture => continue,
            Some(test) if test.is_empty() => sample_key_note(
                &mut node,
                format!("Sample key in documentation: {}", hit.label),
                "Key material the project's documentation shows its readers, where users copy \
                 from. Make sure no real service trusts it."
                    .to_string(),
            ),
            Some(test) => sample_key_note(
                &mut node,
                format!("Example key committed: {} (read by {test})", hit.label),
                format!(
                    "Key material in a folder of examples that the project's tests load \
                     ({test} names it, its folder or its certificate): a key generated for \
                     the tests, published where users copy from. Make sure no real service \
                     trusts it."
                ),
            ),
            None => {}
        }
        keep.push(node);
    }
    let dropped = before - keep.len();
    *nodes = keep;
    dropped
}

/// A key's finding as a P3 note (`title`, `body`) saying why it is sample material: still
/// shown, never a Block.
pub(super) fn sample_key_note(node: &mut ReviewNode, title: String, body: String) {
    node.priority = Priority::P3;
    node.kind = Kind::Question;
    node.triage.severity = Severity::Low;
    node.fix = None;
    node.text.title = title;
    node.text.body = body;
    node.text.impact = "None if it is a throw-away fixture; if the key is used anywhere else, \
                        anyone who can read the repository holds it."
        .to_string();
    node.text.verification = "Check that the key was generated for the tests only and is \
                              trusted by nothing outside them."
        .to_string();
}

/// A test's source file: a test path in a programming language (not a key, data or
/// configuration file).
fn test_source(path: &str) -> bool {
    use crate::diff::Language;
    is_test_path(path)
        && !matches!(
            Language::from_path(path),
            Language::Markdown | Language::Yaml | Language::Toml | Language::Json | Language::Other
        )
}

/// A CI configuration file: GitHub workflows and actions, GitLab, CircleCI, Travis, Azure
/// Pipelines, Bitbucket, Buildkite, Drone, Woodpecker.
fn ci_workflow(path: &str) -> bool {
    let path = path.replace('\\', "/").to_ascii_lowercase();
    let file = path.rsplit('/').next().unwrap_or(&path);
    path.starts_with(".github/workflows/")
        || path.starts_with(".github/actions/")
        || path.starts_with(".circleci/")
        || path.starts_with(".buildkite/")
        || path.starts_with(".woodpecker/")
        || path.starts_with(".gitlab/ci/")
        || matches!(
            file,
            ".gitlab-ci.yml"
                | ".travis.yml"
                | "bitbucket-pipelines.yml"
                | ".drone.yml"
                | ".woodpecker.yml"
                | "azure-pipelines.yml"
        )
}

/// [`to_nodes`] with the head text of the files hits are in (`read`): a generic credential of
/// a CI workflow's service containers is a P3 note (see [`SecretHit::service_credential`]).
pub fn to_nodes_reading(
    hits: &[SecretHit],
    reviewer: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<ReviewNode> {
    let mut nodes = to_nodes(hits, reviewer);
    let mut texts: std::collections::BTreeMap<&str, Option<String>> = Default::default();
    for (hit, node) in hits.iter().zip(nodes.iter_mut()) {
        let (workflow, site) = (ci_workflow(&hit.path), docs_site_file(&hit.path));
        let report = service_config(&hit.path).is_some();
        if !workflow && !site && !report {
            continue;
        }
        let text = texts.entry(&hit.path).or_insert_with(|| read(&hit.path));
        let service = text.as_deref().and_then(|t| hit.report_upload_token(t));
        if let Some(service) = service {
            report_upload_note(node, hit, service.name);
        } else if site && text.as_deref().is_some_and(|t| hit.docs_search_key(t)) {
            docs_search_key_note(node, hit);
        } else if workflow && text.as_deref().is_some_and(|t| hit.service_credential(t)) {
            node.priority = Priority::P3;
            node.kind = Kind::Question;
            node.triage.severity = Severity::Low;
            node.text.title = format!("CI service credential: {}", hit.label);
            node.text.body = "A credential in a CI workflow that runs throw-away service \
                              containers or a local server: usually the test default of a \
                              database or object store. Make sure it guards nothing real."
                .to_string();
            node.fix = None;
        }
    }
    nodes
}

/// A [`SecretHit::report_upload_token`] of `service` as a P3 note: still shown, never a Block.
fn report_upload_note(node: &mut ReviewNode, hit: &SecretHit, service: &str) {
    node.priority = Priority::P3;
    node.kind = Kind::Question;
    node.triage.severity = Severity::Low;
    node.text.title = format!(
        "{service} upload token in its configuration file: {}",
        hit.label
    );
    node.text.body = format!(
        "{service}'s repository upload token, in {service}'s own configuration file: the \
         service documents it as able only to upload the repository's coverage reports, and \
         projects commit it so forks' CI can upload. Anyone can still upload reports in the \
         repository's name with it; a CI secret keeps it out of the history."
    );
    node.text.impact = format!(
        "Anyone who reads the repository can upload coverage reports to {service} in its \
         name, which can mislead coverage checks; nothing else."
    );
    node.text.verification = format!(
        "Check in {service} that the value is the repository's upload token, not an account \
         or API token."
    );
    node.fix = Some(Fix {
        replacement: None,
        diff: None,
        prompt: Some(format!(
            "Move the {service} upload token to a CI secret and pass it to the upload step."
        )),
    });
}

/// A [`SecretHit::docs_search_key`] as a P2 note: still shown, never a Block.
fn docs_search_key_note(node: &mut ReviewNode, hit: &SecretHit) {
    node.priority = Priority::P2;
    node.kind = Kind::Question;
    node.triage.severity = Severity::Low;
    node.text.title = format!("A search key published in the docs site: {}", hit.label);
    node.text.body = "A key the documentation site hands its browser-side search client \
                      (DocSearch, Algolia): public by the service's design when it is a \
                      search-only key. Make sure it is search-only, not an admin or write key."
        .to_string();
    node.text.impact = "None if the key can only search the site's public index; an admin \
                        or write key here lets anyone change or delete the index."
        .to_string();
    node.text.verification =
        "Check the key's permissions in the search provider's dashboard: search only.".to_string();
    node.fix = None;
}

/// Nodes for a batch of hits. Ids are `<reviewer>-<fingerprint>`, with `-2`, `-3`… when the
/// same fingerprint repeats in the batch, so they are stable across rounds.
pub fn to_nodes(hits: &[SecretHit], reviewer: &str) -> Vec<ReviewNode> {
    let prefix: String = reviewer
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut seen: Vec<String> = Vec::new();
    hits.iter()
        .map(|hit| {
            let base = format!("{prefix}-{}", hit.fingerprint());
            let repeats = seen.iter().filter(|s| **s == base).count();
            seen.push(base.clone());
            let id = if repeats == 0 {
                base
            } else {
                format!("{base}-{}", repeats + 1)
            };
            hit.to_node(id, reviewer)
        })
        .collect()
}
