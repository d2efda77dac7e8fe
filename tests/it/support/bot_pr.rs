//! The pull request the publishing tests share: acme/widgets#7 by octocat, its `feature` branch
//! served by the fake GitHub to a bot account, and the binary publishing it headless.

use std::path::Path;
use std::process::Output;

use super::git_repo::GitRepo;
use super::github_server::{GithubServer, PullSpec, UserSpec};
use crate::cli::review_tui;

/// The bot's login: not the PR's author, so it may approve or request changes.
const LOGIN: &str = "review-bot";

/// Serves `repo`'s `feature` branch (committed) as acme/widgets#7, accepting `token`.
pub(crate) fn serve(repo: GitRepo, token: &str) -> GithubServer {
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.author = UserSpec::user("octocat");
    let server = GithubServer::start(repo, pull);
    server.accept_token(token, LOGIN);
    server
}

/// `review-tui acme/widgets#7 --headless --deterministic-only --publish` against `server` with
/// `token`, data under `data`, plus `extra`; no token or API from the environment.
pub(crate) fn publish(server: &GithubServer, data: &Path, token: &str, extra: &[&str]) -> Output {
    review_tui()
        .args([
            "acme/widgets#7",
            "--headless",
            "--deterministic-only",
            "--publish",
        ])
        .args(["--api-url", server.url()])
        .args(extra)
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("GH_TOKEN", token)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap()
}

/// The same run without `--publish`: the round is reviewed and recorded, nothing is posted.
pub(crate) fn review_only(server: &GithubServer, data: &Path, token: &str) -> Output {
    review_tui()
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        .args(["--api-url", server.url()])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("GH_TOKEN", token)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap()
}
