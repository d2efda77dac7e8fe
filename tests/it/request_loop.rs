//! One request loop for every forge: the same misbehaving answer ends the same way whether it
//! comes from the GitHub-like, the Gitea-like or the GitLab-like server. The real binary runs a
//! headless review while one call misbehaves: a JSON answer cut short, a rate limit asking
//! for a wait longer than any allowed, a used-up limit whose reset has passed, an error that
//! echoes the token, and a next page on another host or without end. Whatever the forge, the
//! call is tried the same number of times, the run says the same thing (in that forge's name),
//! no token is shown, and no reply sends the token elsewhere or keeps the client reading.

use std::io::Read;
use std::net::TcpListener;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::faults::{self, GH_TOKEN, Run, bounded};
use crate::support::faults::Fault;
use crate::support::gitea_server::{GiteaServer, INDEX};
use crate::support::github_server::GithubServer;
use crate::support::gitlab_server::GitlabServer;
use crate::{gitea, gitlab};

/// One forge's server with the PR under review.
enum Forge {
    Github(GithubServer),
    Gitea(GiteaServer),
    Gitlab(GitlabServer),
}

impl Forge {
    fn github() -> Forge {
        Forge::Github(faults::github_server())
    }

    fn gitea() -> Forge {
        Forge::Gitea(gitea::start())
    }

    fn gitlab() -> Forge {
        Forge::Gitlab(gitlab::start())
    }

    fn name(&self) -> &'static str {
        match self {
            Forge::Github(_) => "GitHub",
            Forge::Gitea(_) => "Gitea",
            Forge::Gitlab(_) => "GitLab",
        }
    }

    fn token(&self) -> &'static str {
        match self {
            Forge::Github(_) => GH_TOKEN,
            Forge::Gitea(_) => gitea::TOKEN,
            Forge::Gitlab(_) => gitlab::TOKEN,
        }
    }

    /// The pull request's own record, the first thing a review reads.
    fn pull_call(&self) -> String {
        match self {
            Forge::Github(_) => faults::PULL.to_owned(),
            Forge::Gitea(_) => GiteaServer::call("GET", &format!("/pulls/{INDEX}")),
            Forge::Gitlab(_) => GitlabServer::call("GET", ""),
        }
    }

    /// A list a review reads page by page (`Link: rel="next"`), and the address of its path.
    fn list_call(&self) -> (String, String) {
        match self {
            Forge::Github(server) => {
                let path = "/repos/acme/widgets/pulls/7/reviews";
                (format!("GET {path}"), format!("{}{path}", server.url()))
            }
            Forge::Gitea(server) => {
                let call = GiteaServer::call("GET", &format!("/pulls/{INDEX}/reviews"));
                let path = call.trim_start_matches("GET ").to_owned();
                (call, format!("{}{path}", server.url()))
            }
            Forge::Gitlab(_) => unreachable!("GitLab pages by X-Next-Page"),
        }
    }

    fn script(&self, call: &str, faults: Vec<Fault>) {
        match self {
            Forge::Github(server) => server.script(call, faults),
            Forge::Gitea(server) => server.script(call, faults),
            Forge::Gitlab(server) => server.script(call, faults),
        }
    }

    /// How many requests `call` (method and path, whatever the query) received.
    fn requests_to(&self, call: &str) -> usize {
        match self {
            Forge::Github(server) => server.requests_to(call).len(),
            Forge::Gitea(server) => server.seen_to(call).len(),
            Forge::Gitlab(server) => server.seen_to(call).len(),
        }
    }

    /// A headless review of the PR, deterministic reviewers only, JSON report, quick retries
    /// (3 attempts), bounded in time.
    fn review(&self, case: &str) -> Run {
        self.run(case, &[])
    }

    /// The review published: publishing reads the PR's reviews first and stops when it cannot
    /// (a review alone goes on without them).
    fn publish(&self, case: &str) -> Run {
        self.run(case, &["--publish"])
    }

    fn run(&self, case: &str, extra: &[&str]) -> Run {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec!["--format", "json"];
        args.extend(extra);
        let command: Command = match self {
            Forge::Github(server) => {
                let mut command = faults::command(dir.path(), faults::GITHUB_CONFIG);
                command
                    .args(["acme/widgets#7", "--api-url", server.url()])
                    .args(["--headless", "--deterministic-only"])
                    .args(&args)
                    .env("GH_TOKEN", GH_TOKEN);
                command
            }
            Forge::Gitea(server) => gitea::command(server, dir.path(), &args),
            Forge::Gitlab(server) => gitlab::command(server, dir.path(), &args),
        };
        bounded(command, dir.path(), case)
    }
}

/// What one forge's run came to.
#[derive(Debug, PartialEq, Eq)]
struct End {
    code: i32,
    requests: usize,
}

/// The run failed with one line naming the call's forge and holding every needle, and never
/// showed the token.
fn assert_failed_saying(forge: &Forge, run: &Run, case: &str, needles: &[&str]) {
    let case = format!("{}: {case}", forge.name());
    assert_ne!(run.code, 0, "{case}: exit 0\n{}", run.stderr);
    let messages = run.messages();
    let line = messages
        .iter()
        .find(|l| l.contains(forge.name()) || l.contains(" on 127.0.0.1:"))
        .unwrap_or_else(|| panic!("{case}: no line names the call: {}", run.stderr));
    for needle in needles {
        assert!(line.contains(needle), "{case}: no {needle:?} in {line}");
    }
    run.assert_never_shows(&case, forge.token());
}

/// `fault` on every call to the PR's record, for each forge: each run ends as the first did,
/// and says so with `needles`.
fn same_end_everywhere(case: &str, fault: Fault, needles: &[&str]) -> End {
    let mut ends = Vec::new();
    for forge in [Forge::github(), Forge::gitea(), Forge::gitlab()] {
        let call = forge.pull_call();
        forge.script(&call, vec![fault.clone(); 6]);
        let run = forge.review(case);
        assert_failed_saying(&forge, &run, case, needles);
        assert_ne!(run.decision(), "ship", "{case}: {}", run.stdout);
        ends.push((
            forge.name(),
            End {
                code: run.code,
                requests: forge.requests_to(&call),
            },
        ));
    }
    let (_, first) = &ends[0];
    for (name, end) in &ends[1..] {
        assert_eq!(
            end, first,
            "{case}: {name} ended otherwise than GitHub: {ends:?}"
        );
    }
    ends.remove(0).1
}

#[test]
fn a_json_answer_cut_short_is_tried_again_then_named_alike_on_every_forge() {
    let end = same_end_everywhere(
        "truncated JSON",
        Fault::Truncated,
        &["cut short", "3 attempt(s)", "proxy"],
    );
    assert_eq!(end.requests, 3, "tried as often as allowed");
}

#[test]
fn a_wait_asked_past_the_longest_wait_stops_at_once_saying_when_on_every_forge() {
    let end = same_end_everywhere(
        "Retry-After: an hour",
        Fault::TooManyRequests {
            retry_after_secs: 3600,
        },
        &["rate limit", "(429)", " UTC (in 1h", "run again after that"],
    );
    assert_eq!(end.requests, 1, "waiting could not help");
}

#[test]
fn a_used_up_limit_resetting_later_stops_at_once_and_one_reset_in_the_past_is_not_a_loop() {
    let later = same_end_everywhere(
        "a limit resetting in an hour",
        Fault::Throttled {
            reset_in_secs: 3600,
        },
        &["rate limit", "(429)", " UTC (in ", "run again after that"],
    );
    assert_eq!(later.requests, 1, "waiting could not help");
    // A reset already past asks no wait: tried again at once, as often as allowed, no more.
    let past = same_end_everywhere(
        "a limit that reset a minute ago",
        Fault::Throttled { reset_in_secs: -60 },
        &["rate limit", "(429)", "run again after that"],
    );
    assert_eq!(past.requests, 3);
}

#[test]
fn an_error_echoing_the_token_is_shown_without_it_on_every_forge() {
    for forge in [Forge::github(), Forge::gitea(), Forge::gitlab()] {
        let call = forge.pull_call();
        let echo = format!("bad request from   token {}\n  see docs", forge.token());
        forge.script(
            &call,
            vec![Fault::Says {
                status: 400,
                message: echo,
            }],
        );
        let run = forge.review("an echoed token");
        assert_failed_saying(
            &forge,
            &run,
            "an echoed token",
            &["400", "bad request from token *** see docs"],
        );
        assert_eq!(
            forge.requests_to(&call),
            1,
            "{}: a 400 is final",
            forge.name()
        );
    }
}

/// A listener on another port of 127.0.0.1 (another origin) that counts who connects.
fn elsewhere() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/steal?page=2", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            seen.fetch_add(1, Ordering::SeqCst);
            let mut stream = stream;
            let mut buffer = [0u8; 1024];
            let _ = stream.read(&mut buffer);
        }
    });
    (url, count)
}

#[test]
fn a_next_page_on_another_host_is_never_asked_on_any_forge() {
    for forge in [Forge::github(), Forge::gitea()] {
        let (url, connections) = elsewhere();
        let (call, _) = forge.list_call();
        // Every read of the list names it: the review's (which goes on without the reviews)
        // and the publish's (which stops).
        forge.script(&call, vec![Fault::NextPage(url); 10]);
        let run = forge.publish("a next page elsewhere");
        assert_failed_saying(
            &forge,
            &run,
            "a next page elsewhere",
            &["refusing to follow a pagination link to another host (127.0.0.1)"],
        );
        assert_eq!(
            connections.load(Ordering::SeqCst),
            0,
            "{}: the token's call went elsewhere",
            forge.name()
        );
    }
}

#[test]
fn pages_that_name_a_next_page_without_end_are_read_no_further_than_the_bound() {
    for forge in [Forge::github(), Forge::gitea()] {
        let (call, address) = forge.list_call();
        // Each page names a new one: no page repeats, so only a bound ends the reading.
        let endless: Vec<Fault> = (2..=1_100)
            .map(|page| Fault::NextPage(format!("{address}?page={page}")))
            .collect();
        forge.script(&call, endless);
        // The review goes on without the reviews it could not read whole, and ends (`bounded`
        // fails a run that does not).
        let run = forge.review("pages without end");
        run.assert_never_shows(forge.name(), forge.token());
        assert_eq!(forge.requests_to(&call), 1000, "{}", forge.name());
    }
}
