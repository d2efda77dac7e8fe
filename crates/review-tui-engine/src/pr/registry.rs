//! The forges this build knows, in the order references are offered to them. A new forge is
//! one folder beside `github/` implementing [`ForgeKind`] and one line here.

use super::connect::{Connection, SettingError};
use super::forge::ForgeError;
use super::gitea;
use super::github;
use super::gitlab;
use super::hosted::ForgeKind;
use super::inbox::{InboxAnswer, InboxQuery};
use crate::config::Config;

pub(crate) static FORGES: &[&dyn ForgeKind] = &[&github::GITHUB, &gitlab::GITLAB, &gitea::GITEA];

/// The registered forge with this id.
pub(crate) fn find(id: &str) -> Option<&'static dyn ForgeKind> {
    FORGES.iter().copied().find(|forge| forge.id() == id)
}

/// How this run reaches every registered forge: each one's settings, read from `config` (and
/// the environment) once, before any PR is read.
pub fn connection(config: &Config) -> Result<Connection, SettingError> {
    FORGES
        .iter()
        .try_fold(Connection::default(), |connection, forge| {
            Ok(connection.with_settings(forge.id(), forge.settings(config)?))
        })
}

/// Every registered forge's inbox, asked at once: each forge's answer, or why it failed, by
/// the forge's name, in the registry's order. One forge down does not hide the others.
pub(crate) async fn inbox(
    connection: &Connection,
    query: &InboxQuery,
) -> Vec<(&'static str, Result<InboxAnswer, ForgeError>)> {
    let mut jobs = tokio::task::JoinSet::new();
    for (at, forge) in FORGES.iter().copied().enumerate() {
        let (connection, query) = (connection.clone(), query.clone());
        jobs.spawn(async move { (at, forge.inbox(&connection, &query).await) });
    }
    let mut answers: Vec<(usize, Result<InboxAnswer, ForgeError>)> = Vec::new();
    while let Some(done) = jobs.join_next().await {
        if let Ok(answer) = done {
            answers.push(answer);
        }
    }
    answers.sort_by_key(|(at, _)| *at);
    answers
        .into_iter()
        .map(|(at, answer)| (FORGES[at].name(), answer))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_never_the_local_spaces_name() {
        let mut ids: Vec<&str> = FORGES.iter().map(|f| f.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), FORGES.len(), "two forges share an id: {ids:?}");
        // `spaces/local/` holds the local ranges.
        assert!(!ids.contains(&"local"));
        assert!(find("github").is_some());
        assert!(find("nope").is_none());
    }

    #[test]
    fn every_forge_reads_its_settings_once_into_the_connection() {
        let connection = connection(&Config::default()).unwrap();
        let github = connection.settings_of::<github::GithubSettings>("github");
        assert_eq!(github, Some(&github::GithubSettings::default().with_env()));
        // Another forge's type is never handed out for it.
        assert!(connection.settings_of::<String>("github").is_none());

        let mut config = Config::default();
        config.github.max_wait = Some("later".into());
        let err = connection_error(&config);
        assert_eq!(
            err,
            "[github] max_wait \"later\" is not a duration (\"30s\", \"2m\")"
        );
    }

    fn connection_error(config: &Config) -> String {
        connection(config).unwrap_err().to_string()
    }
}
