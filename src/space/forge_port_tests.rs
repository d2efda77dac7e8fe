//! The forge is a port: a forge the space layer has never heard of, defined here in test code
//! only, names its PRs, its refs and its site, and the space opens, fetches, records and reopens
//! its PR with no forge-specific code in `space/`. A real second forge would be this `Lab` in
//! its own folder plus one line in `pr::registry::FORGES`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Config;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError, TokenChoice};
use crate::pr::forge::{ForgeError, ForgeErrorKind};
use crate::pr::github::GITHUB;
use crate::pr::hosted::{FetchRefs, ForgeKind, HostedPr};
use crate::pr::local::{LocalForge, resolve};
use crate::pr::ref_error::RefError;
use crate::pr::reference::{self, PrRef};
use crate::pr::token::Token;
use crate::space::test_repo::{TestRepo, git};
use crate::space::{Source, Space, SpaceKey, mirror_dir, space_dir};

/// A GitLab-like forge: `https://HOST/GROUP/PROJECT/-/merge_requests/N`, heads under
/// `refs/merge-requests/N/head`.
struct Lab;

static LAB: Lab = Lab;

impl ForgeKind for Lab {
    fn id(&self) -> &'static str {
        "lab"
    }

    fn name(&self) -> &'static str {
        "Lab"
    }

    fn reference_forms(&self) -> &'static str {
        "https://lab.example/GROUP/PROJECT/-/merge_requests/N"
    }

    fn parse_reference(&self, text: &str) -> Result<Option<HostedPr>, RefError> {
        let Some(rest) = text.strip_prefix("https://") else {
            return Ok(None);
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let [host, owner, repo, "-", "merge_requests", number] = parts[..] else {
            return Ok(None);
        };
        let number = number.parse().map_err(|_| RefError::Invalid {
            given: text.to_string(),
            reason: format!("`{number}` is not a merge request number"),
        })?;
        Ok(Some(HostedPr {
            forge: self.id().into(),
            site: self.site(host),
            host: host.into(),
            owner: owner.into(),
            repo: repo.into(),
            number,
        }))
    }

    fn site(&self, host: &str) -> String {
        if host == "lab.example" {
            "lab".into()
        } else {
            format!("lab-{host}")
        }
    }

    fn fetch_refs(&self, pr: &HostedPr, base_branch: &str) -> FetchRefs {
        FetchRefs {
            head: format!("refs/merge-requests/{}/head", pr.number),
            base: format!("refs/heads/{base_branch}"),
        }
    }

    fn settings(&self, _: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError> {
        Ok(Arc::new(LabSettings::default()))
    }

    /// The Lab's "API" is a repository on disk (its settings say where): the merge request is
    /// read from its `refs/merge-requests/N/head` by the local forge.
    fn connect(&self, pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
        let settings = connection
            .settings_of::<LabSettings>(self.id())
            .filter(|s| s.server.is_some())
            .ok_or_else(|| {
                ForgeError::new(
                    ForgeErrorKind::Unreachable,
                    crate::pr::connect::UnknownForge("lab (no server configured)".into()),
                )
            })?;
        let server = settings.server.clone().unwrap();
        let head = format!("refs/merge-requests/{}/head", pr.number);
        let range = resolve(&server, Some("main"), Some(&head))?;
        let token = match &connection.token {
            TokenChoice::Given(token) => Some(token.clone()),
            TokenChoice::Discover | TokenChoice::Anonymous => None,
        };
        let host = format!("https://{}/", pr.host);
        Ok(Connected::new(
            Box::new(LocalForge::new(range)),
            token,
            move |remote| remote.starts_with(&host),
        ))
    }
}

/// What the Lab's section of a configuration would say: where its server is.
#[derive(Debug, Default)]
struct LabSettings {
    server: Option<PathBuf>,
}

/// The registry a build with the second forge would have.
static FORGES: &[&dyn ForgeKind] = &[&GITHUB, &LAB];

const REFERENCE: &str = "https://lab.example/team/app/-/merge_requests/3";

/// A repository whose `feature` branch is merge request 3 on a bare, Lab-like remote.
fn lab_remote(t: &TestRepo) -> (String, std::path::PathBuf) {
    git(&t.path(), &["checkout", "-q", "-b", "feature"]);
    let head = t.commit("src/lib.rs", "pub fn lab() {}\n", "feature");
    let remote = t.scratch().join("lab.git");
    git(
        t.scratch(),
        &["clone", "-q", "--bare", "repo", remote.to_str().unwrap()],
    );
    git(
        &remote,
        &["update-ref", "refs/merge-requests/3/head", &head],
    );
    // Only the Lab ref holds the head: a GitHub-style fetch would find nothing.
    git(&remote, &["branch", "-D", "feature"]);
    (head, remote)
}

#[test]
fn a_forge_defined_outside_the_space_layer_opens_and_reopens_its_own_space() {
    let t = TestRepo::new();
    let (head, remote) = lab_remote(&t);
    let root = t.scratch().join("data");

    // The registry walks the forges: GitHub leaves the text alone, Lab takes it.
    let PrRef::Hosted(pr) = reference::parse_with(FORGES, REFERENCE, None, None).unwrap() else {
        panic!("not a forge's PR");
    };
    assert_eq!(pr.forge, "lab");
    assert_eq!(pr.to_string(), "team/app#3");
    // This build's registry has no such forge, and says what it does accept.
    let err = reference::parse(REFERENCE, None, None).unwrap_err();
    assert!(matches!(err, RefError::Unrecognized { .. }), "{err}");
    assert!(err.to_string().contains("OWNER/REPO#N"), "{err}");

    let key = SpaceKey::hosted(pr.clone()).unwrap();
    let source = Source {
        remote: Some(remote.display().to_string()),
        refs: Some(LAB.fetch_refs(&pr, "main")),
        title: "Lab merge request".into(),
        ..Source::default()
    };
    let (space, report) = Space::open(&root, key.clone(), &source).unwrap();
    assert_eq!(report.new_round, Some(1));
    assert_eq!(space.path(), root.join("spaces/lab/team/app/pr-3"));
    assert_eq!(space.path(), space_dir(&root, &key));
    assert_eq!(space.mirror(), mirror_dir(&root, &key));
    assert!(space.mirror().starts_with(root.join("mirrors/lab")));
    assert_eq!(git(space.worktree(), &["rev-parse", "HEAD"]), head);
    assert_eq!(space.state().head_sha, head);
    assert_eq!(space.state().base_sha, t.sha("main"));
    assert_eq!(space.state().pr.number, "#3");
    let stored: serde_json::Value =
        serde_json::from_slice(&std::fs::read(space.path().join("state.json")).unwrap()).unwrap();
    assert_eq!(stored["pr"]["key"]["forge"], "lab");
    assert_eq!(stored["pr"]["key"]["site"], "lab");
    drop(space);

    // Reopened, with and without its remote: the stored key is this PR's, so the round stays.
    let (space, report) = Space::open(&root, key.clone(), &source).unwrap();
    assert_eq!(report.new_round, None);
    assert_eq!(report.corruption, None);
    assert_eq!(space.state().rounds.len(), 1);
    drop(space);
    std::fs::remove_dir_all(&remote).unwrap();
    let (space, _) = Space::open_stored(&root, key).unwrap().unwrap();
    assert_eq!(space.state().head_sha, head);
    assert!(Path::new(space.worktree()).join("src/lib.rs").exists());
}

#[test]
fn the_refs_are_the_forges_a_github_style_fetch_of_the_same_remote_finds_no_head() {
    let t = TestRepo::new();
    let (_, remote) = lab_remote(&t);
    let PrRef::Hosted(pr) = reference::parse_with(FORGES, REFERENCE, None, None).unwrap() else {
        panic!("not a forge's PR");
    };
    let source = Source {
        remote: Some(remote.display().to_string()),
        refs: Some(GITHUB.fetch_refs(&pr, "main")),
        ..Source::default()
    };
    let root = t.scratch().join("data");
    let err = Space::open(&root, SpaceKey::hosted(pr).unwrap(), &source).unwrap_err();
    assert!(err.to_string().contains("refs/pull/3/head"), "{err}");
    assert!(!root.join("spaces/lab/team/app/pr-3").exists());
}

/// Connecting is the forge's too: a Lab merge request is connected to and read through the
/// same calls `prepare` and `publish` make, with the settings the registry gathered, and the
/// token goes to git only for the Lab's own host.
#[tokio::test]
async fn a_forge_defined_outside_the_session_connects_with_its_own_settings() {
    let t = TestRepo::new();
    let (head, remote) = lab_remote(&t);
    let PrRef::Hosted(pr) = reference::parse_with(FORGES, REFERENCE, None, None).unwrap() else {
        panic!("not a forge's PR");
    };
    let lab = crate::pr::registry::find(&pr.forge);
    assert!(lab.is_none(), "this build does not register the Lab");

    // What `pr::registry::connection` does, over the registry a build with the Lab would have.
    let config = Config::default();
    let gathered = FORGES
        .iter()
        .try_fold(Connection::default(), |connection, forge| {
            Ok::<_, SettingError>(connection.with_settings(forge.id(), forge.settings(&config)?))
        });
    let gathered = gathered.unwrap();
    assert!(
        gathered
            .settings_of::<crate::pr::github::GithubSettings>("github")
            .is_some()
    );
    // Its configuration says nothing yet: connecting says the Lab cannot be reached.
    let err = LAB.connect(&pr, &gathered).unwrap_err();
    assert!(err.is_unreachable(), "{err}");

    let mut connection = gathered.with_settings(
        "lab",
        Arc::new(LabSettings {
            server: Some(remote.clone()),
        }),
    );
    connection.token = TokenChoice::Given(Token::new("lab-token").unwrap());
    let connected = LAB.connect(&pr, &connection).unwrap();
    let read = connected.forge.pull_request().await.unwrap();
    assert_eq!(read.head.sha.to_string(), head);
    assert_eq!(read.base.sha.to_string(), t.sha("main"));
    assert!(
        connected
            .fetch_token("https://lab.example/team/app.git")
            .is_some()
    );
    assert!(
        connected
            .fetch_token("https://evil.example/team/app.git")
            .is_none()
    );
    // A GitHub settings value is never taken for the Lab's.
    assert!(connection.settings_of::<LabSettings>("github").is_none());
}
