//! The publishing port. A session asks it what publishing its round would post and to post
//! exactly that; which forge or file it goes to is the publisher's business. The binary plugs
//! a publisher in (`publish::Publishing`: the PR's forge, or the local space's report), so the
//! session sits below `publish` and never names it.

use std::fmt::Debug;
use std::future::Future;

use crate::session::prepare::Prepared;
use crate::session::snapshot::RoundSnapshot;

pub trait Publisher: Send + 'static {
    /// What would be posted, shown to the person before anything is.
    type Preview: Clone + Debug + Send + 'static;
    /// What was posted.
    type Published: Clone + Debug + Send + 'static;
    type Error: std::error::Error + Send + Sync + 'static;

    /// What publishing `snapshot` would post, read fresh from where it goes.
    fn preview<'a>(
        &'a mut self,
        prepared: &'a Prepared,
        snapshot: &'a RoundSnapshot,
    ) -> impl Future<Output = Result<Self::Preview, Self::Error>> + Send + 'a;

    /// Posts exactly what the person confirmed, or nothing: `None` (nothing was previewed) and
    /// a preview that no longer matches what would be posted are refused. Records what was
    /// posted in the space.
    fn publish<'a>(
        &'a mut self,
        prepared: &'a mut Prepared,
        snapshot: &'a RoundSnapshot,
        confirmed: Option<Self::Preview>,
    ) -> impl Future<Output = Result<Self::Published, Self::Error>> + Send + 'a;

    /// Posts the person's replies and resolutions on the PR's review threads not posted yet
    /// (`space::thread_draft`), each once, marking them posted; a line for each. A publisher
    /// with nowhere to post them posts nothing.
    fn post_thread_drafts<'a>(
        &'a mut self,
        prepared: &'a mut Prepared,
    ) -> impl Future<Output = Result<Vec<String>, Self::Error>> + Send + 'a {
        let _ = prepared;
        async { Ok(Vec::new()) }
    }

    /// Whether `error` says the round is published already and nothing changed since: the
    /// thread drafts are still posted after it (as `--publish` does).
    fn already_published(error: &Self::Error) -> bool {
        let _ = error;
        false
    }

    /// The summary `--format markdown` prints without publishing.
    fn offline_body(&self, prepared: &Prepared, snapshot: &RoundSnapshot) -> String;
}
