//! The inbox's first frame from the cache with 500 review spaces: the cached forge list read,
//! every space's `state.json` summarised, the rows merged and sorted, and the frame drawn on a
//! 120×40 `TestBackend`. The target is 100 ms; this measures, nothing asserts it.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

use review_tui::commit_id::CommitId;
use review_tui::pr::HostedPr;
use review_tui::pr::{Waiting, WaitingPr};
use review_tui::session::inbox::{self, Cached, InboxSetup, Section, cache};
use review_tui::space::{PrIdentity, SpaceKey, SpaceState, space_dir};
use review_tui::ui::inbox::first_frame;
use review_tui::ui::view::ViewContext;
use review_tui::ui::{Keymap, Theme};

const SPACES: usize = 500;
const LISTED: usize = 60;

fn sha(i: usize, salt: u8) -> CommitId {
    CommitId::parse(&format!("{:02x}{:038x}", salt, i)).unwrap()
}

fn hosted(i: usize) -> HostedPr {
    HostedPr {
        forge: "github".into(),
        site: "github".into(),
        host: "github.com".into(),
        owner: "acme".into(),
        repo: format!("service-{}", i % 40),
        number: i as u64 + 1,
    }
}

/// 500 spaces, each with two completed rounds and 40 findings' worth of JSON (which the
/// summary skips without building them), and a cache listing 60 of their PRs.
fn data_root(root: &std::path::Path) -> InboxSetup {
    for i in 0..SPACES {
        let pr = hosted(i);
        let key = SpaceKey::hosted(pr.clone()).unwrap();
        let identity = PrIdentity {
            key: key.clone(),
            title: format!("Change {i}: retry the token refresh and log the failure"),
            number: format!("#{}", pr.number),
            url: format!("https://github.com/acme/{}/pull/{}", pr.repo, pr.number),
        };
        let mut state = SpaceState::new(identity, sha(i, 1), sha(i, 2));
        for round in 0..2 {
            state.start_round(&sha(i, 1 + round), "2026-01-01T00:00:00Z");
            let fingerprints = (0..40).map(|f| format!("fp-{i}-{f}")).collect();
            state
                .complete_round(fingerprints, "hold", "2026-01-01T00:10:00Z")
                .unwrap();
        }
        let mut value = serde_json::to_value(&state).unwrap();
        value["nodes"] = Value::Array(
            (0..40)
                .map(|n| {
                    json!({
                        "id": format!("n{n}"),
                        "title": "Unchecked index on a user-supplied offset",
                        "body": "The offset comes from the request and is used to index the buffer without a bounds check; a large value panics the worker. ".repeat(4),
                        "anchor": {"path": format!("src/module_{n}.rs"), "line": n + 1},
                        "evidence": ["let x = buf[offset];"],
                    })
                })
                .collect(),
        );
        let dir = space_dir(root, &key);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("state.json"), serde_json::to_vec(&value).unwrap()).unwrap();
    }
    let prs = (0..LISTED)
        .map(|i| {
            let pr = hosted(i * 7);
            WaitingPr {
                forge: "github".into(),
                host: "github.com".into(),
                repo: format!("acme/{}", pr.repo),
                number: pr.number,
                url: format!("https://github.com/acme/{}/pull/{}", pr.repo, pr.number),
                title: format!("Change {}", i * 7),
                author: "octocat".into(),
                draft: false,
                created_at: "2026-01-01T00:00:00Z".into(),
                updated_at: format!("2026-01-{:02}T00:00:00Z", i % 28 + 1),
                head_sha: Some(sha(i * 7, 2).to_string()),
                commits: Some(3),
                additions: Some(120),
                deletions: Some(14),
                changed_files: Some(5),
                ci: Some("success".into()),
                waiting: if i % 3 == 0 {
                    Waiting::Authored
                } else {
                    Waiting::ReviewRequested
                },
            }
        })
        .collect();
    let cache_path = root.join("inbox.json");
    cache::save(
        &cache_path,
        &Cached {
            fetched_at: Some("2026-02-01T00:00:00Z".into()),
            prs,
            notes: Vec::new(),
        },
    )
    .unwrap();
    InboxSetup {
        data_root: root.to_path_buf(),
        cache: cache_path,
        sections: Section::ALL.to_vec(),
        query: Default::default(),
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let setup = data_root(dir.path());
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let list = inbox::from_cache(&setup);
    assert_eq!(
        list.rows
            .iter()
            .filter(|r| r.section == Section::Spaces)
            .count(),
        SPACES
    );
    let mut group = c.benchmark_group("inbox");
    group.sample_size(20);
    group.bench_function("first frame from the cache, 500 spaces", |b| {
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        b.iter(|| {
            let list = inbox::from_cache(&setup);
            first_frame(&mut terminal, list, &cx).unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
