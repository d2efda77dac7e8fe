//! The publisher the binary plugs into a session (`session::Publisher`): the PR's forge
//! (with the token discovered the way preparing found it, unless one is given) or, for a local
//! range, `review.md` and `review.json` in the review space.

use crate::pr::token::Token;
use crate::session::Publisher;
use crate::session::prepare::Prepared;
use crate::session::snapshot::RoundSnapshot;

use super::{
    Destination, Preview, PublishError, PublishInput, PublishOptions, Published, destination,
    offline_body, preview, publish,
};

pub struct Publishing {
    options: PublishOptions,
    /// `--api-url`, when given.
    api_url: Option<String>,
    /// A token to publish with (tests); `None` discovers one like preparing did.
    token: Option<Token>,
    /// The forge client the preview read, kept for the publish: the same client, so what it
    /// learned (the publishing login) is asked once.
    destination: Option<Destination>,
}

impl Publishing {
    pub fn new(options: PublishOptions, api_url: Option<String>, token: Option<Token>) -> Self {
        Publishing {
            options,
            api_url,
            token,
            destination: None,
        }
    }

    /// The destination the last preview used, else a new one.
    fn destination(&mut self, prepared: &Prepared) -> Result<Destination, PublishError> {
        match self.destination.take() {
            Some(destination) => Ok(destination),
            None => destination(prepared, self.api_url.clone(), self.token.clone()),
        }
    }
}

fn input<'a>(
    prepared: &'a Prepared,
    snapshot: &'a RoundSnapshot,
    options: &'a PublishOptions,
) -> PublishInput<'a> {
    PublishInput {
        result: snapshot,
        head_sha: &snapshot.head_sha,
        diff: &prepared.diff,
        options,
    }
}

impl Publisher for Publishing {
    type Preview = Preview;
    type Published = Published;
    type Error = PublishError;

    async fn preview(
        &mut self,
        prepared: &Prepared,
        snapshot: &RoundSnapshot,
    ) -> Result<Preview, PublishError> {
        let destination = self.destination(prepared)?;
        let previewed = preview(
            &destination,
            prepared.space.state(),
            &input(prepared, snapshot, &self.options),
        )
        .await;
        self.destination = Some(destination);
        previewed
    }

    async fn publish(
        &mut self,
        prepared: &mut Prepared,
        snapshot: &RoundSnapshot,
        confirmed: Option<Preview>,
    ) -> Result<Published, PublishError> {
        let confirmed = confirmed.ok_or(PublishError::NotPreviewed)?;
        let destination = self.destination(prepared)?;
        let Prepared { space, diff, .. } = prepared;
        let input = PublishInput {
            result: snapshot,
            head_sha: &snapshot.head_sha,
            diff,
            options: &self.options,
        };
        publish(&destination, space, &input, &confirmed).await
    }

    async fn post_thread_drafts(
        &mut self,
        prepared: &mut Prepared,
    ) -> Result<Vec<String>, PublishError> {
        if super::thread_posts::pending(&prepared.space).is_empty() {
            return Ok(Vec::new());
        }
        let destination = self.destination(prepared)?;
        let posted = super::thread_posts::post(&destination, &mut prepared.space).await;
        // What was posted changed the threads (a reply in one, one resolved): read again, so
        // what is shown of them is what the PR holds now.
        if let (Ok(lines), Destination::Forge(forge)) = (&posted, &destination)
            && !lines.is_empty()
        {
            prepared.threads = crate::session::prepare::read_threads(forge.as_ref()).await;
        }
        self.destination = Some(destination);
        posted
    }

    fn already_published(error: &PublishError) -> bool {
        matches!(error, PublishError::AlreadyPublished { .. })
    }

    fn offline_body(&self, prepared: &Prepared, snapshot: &RoundSnapshot) -> String {
        offline_body(&input(prepared, snapshot, &self.options))
    }
}
