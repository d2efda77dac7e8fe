//! Connecting to a forge, whichever forge: what the run says about reaching it (an API address
//! given on the command line, whose token, where slow calls are said) and each forge's own
//! settings, read by the forge from its section of the configuration. Preparing and publishing
//! hand this to the forge's [`ForgeKind::connect`](super::hosted::ForgeKind::connect) and get
//! a [`Connected`] forge back: neither names a forge.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use thiserror::Error;

use super::forge::Forge;
use super::token::Token;

/// Whose token the calls carry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TokenChoice {
    /// Found the forge's own way (GitHub: `GH_TOKEN`, `GITHUB_TOKEN`, `gh auth token`).
    #[default]
    Discover,
    /// This one (a test, a token handed to the publisher).
    Given(Token),
    /// None: public data is read anonymously.
    Anonymous,
}

/// One forge's settings (timeouts, retries, the APIs per host, who the token acts as), as the
/// forge read them. Only that forge looks inside ([`Connection::settings_of`]).
pub trait ForgeSettings: fmt::Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
}

impl<T: fmt::Debug + Send + Sync + 'static> ForgeSettings for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// How this run reaches its forges, resolved once before any PR is read (the configuration,
/// then the environment, then the flags). The prepared review keeps it, so publishing connects
/// exactly as preparing did.
#[derive(Debug, Clone, Default)]
pub struct Connection {
    /// `--api-url`: the API address given for this run, over any configured one.
    pub api_url: Option<String>,
    pub token: TokenChoice,
    /// Where slow and retried calls are said while they last; none are made without it.
    pub notices: Option<Notices>,
    /// Each registered forge's settings, by forge id (`pr::registry::connection` reads them).
    settings: BTreeMap<&'static str, Arc<dyn ForgeSettings>>,
}

impl Connection {
    /// `forge`'s settings, replacing any it had.
    pub fn with_settings(mut self, forge: &'static str, settings: Arc<dyn ForgeSettings>) -> Self {
        self.settings.insert(forge, settings);
        self
    }

    /// The settings `forge` stored, when they are of its type `T`; `None` otherwise (the forge
    /// then uses its defaults).
    pub fn settings_of<T: 'static>(&self, forge: &str) -> Option<&T> {
        // Through the trait object: `Arc` is itself `Debug + Send + Sync`, and its own
        // `as_any` would answer for the `Arc`, not for what it holds.
        let settings: &dyn ForgeSettings = self.settings.get(forge)?.as_ref();
        settings.as_any().downcast_ref::<T>()
    }
}

/// A setting a forge could not read, named as the person wrote it.
#[derive(Debug, Error)]
pub enum SettingError {
    #[error("{setting} {url:?} is not an API address: {reason}")]
    NotAnApiUrl {
        /// The variable or the configuration key, as the person wrote it.
        setting: String,
        url: String,
        reason: String,
    },
    #[error("[{section}] {key} {value:?} is not a duration (\"30s\", \"2m\")")]
    NotADuration {
        section: &'static str,
        key: &'static str,
        value: String,
    },
}

/// Why a text is not an API address a token may be sent to.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{0}")]
pub struct InvalidApiUrl(pub String);

/// An API base address (`--api-url`, a forge's configured API): http(s), no credentials (they
/// belong in the token), no query or fragment. Checked before any work, whichever forge.
pub fn parse_api_url(raw: &str) -> Result<reqwest::Url, InvalidApiUrl> {
    let invalid = |reason: &str| InvalidApiUrl(reason.to_owned());
    let url = reqwest::Url::parse(raw.trim()).map_err(|e| invalid(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid("only http and https are supported"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid(
            "credentials belong in the forge's token, not in the URL",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid("the API URL takes no query or fragment"));
    }
    Ok(url)
}

/// A PR of a forge this build does not register (a space written by another build).
#[derive(Debug, Error)]
#[error("this build cannot connect to forge `{0}`")]
pub(crate) struct UnknownForge(pub String);

/// Where a forge client's notices go ("still waiting", "trying again"): stderr for a headless
/// run, the cockpit's status line once it owns the terminal.
#[derive(Clone)]
pub struct Notices(Arc<dyn Fn(String) + Send + Sync>);

impl Notices {
    pub fn new(say: impl Fn(String) + Send + Sync + 'static) -> Notices {
        Notices(Arc::new(say))
    }

    pub fn say(&self, notice: impl fmt::Display) {
        (self.0)(notice.to_string())
    }
}

/// The same sink, not the same behaviour: closures cannot be compared.
impl PartialEq for Notices {
    fn eq(&self, other: &Notices) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Notices {}

impl fmt::Debug for Notices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Notices")
    }
}

/// A forge connected for one PR: its calls, and the token git may send when it fetches the
/// PR's commits.
pub struct Connected {
    pub forge: Box<dyn Forge>,
    token: Option<Token>,
    /// Whether git may send the token to a remote: the forge vouches only for its own hosts.
    trusted_remote: Box<dyn Fn(&str) -> bool + Send + Sync>,
}

impl Connected {
    pub fn new(
        forge: Box<dyn Forge>,
        token: Option<Token>,
        trusted_remote: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> Connected {
        Connected {
            forge,
            token,
            trusted_remote: Box::new(trusted_remote),
        }
    }

    /// The token for git's fetch from `remote` (the clone URL the forge's answer names): only
    /// when the forge vouches for that host, never to a third host the answer names.
    pub fn fetch_token(&self, remote: &str) -> Option<Token> {
        self.token.clone().filter(|_| (self.trusted_remote)(remote))
    }
}

impl fmt::Debug for Connected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connected")
            .field("token", &self.token)
            .finish_non_exhaustive()
    }
}
