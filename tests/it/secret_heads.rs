//! The secret scan reads the head side of every changed file, also where the diff has no lines
//! to show: a base side the repository lacks (a partial clone whose server is gone), a text
//! file git calls binary (a NUL byte, or `-diff` in `.gitattributes`). A secret must never slip
//! through because the diff could not be computed. The real binary on real repositories.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::GitRepo;

/// A GitHub token's shape, drawn at run time (never a literal in this file).
fn token() -> String {
    let alphabet: Vec<char> = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        .chars()
        .collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let body: String = (0..30)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            alphabet[(state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % alphabet.len()]
        })
        .collect();
    crate::support::tokens::checksummed("ghp_", &body)
}

fn review(data: &Path, range: &str) -> Output {
    review_tui()
        .arg(range)
        .args(["--headless", "--deterministic-only", "--format", "json"])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap()
}

/// The secret scan's P0 findings on `path`.
fn secret_p0s(out: &Output, path: &str) -> Vec<Value> {
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let found: Vec<Value> = findings
        .into_iter()
        .filter(|f| f["reviewer"] == "secret scan" && f["priority"] == "P0")
        .filter(|f| f["anchor"]["path"] == path)
        .collect();
    assert_eq!(report["verdict"]["decision"], "block", "{report}");
    found
}

#[test]
fn a_secret_in_a_file_whose_base_side_the_repository_lacks_is_found() {
    let server = GitRepo::init();
    server.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    server.write("config/app.env", &"# a long settings file\n".repeat(100));
    server.commit_all("initial");
    server.git(&["checkout", "--quiet", "-b", "feature"]);
    server.write("config/app.env", &format!("GITHUB_TOKEN={}\n", token()));
    server.commit_all("feature");
    server.git(&["checkout", "--quiet", "main"]);
    server.git(&["config", "uploadpack.allowFilter", "true"]);
    let scratch = tempfile::tempdir().unwrap();
    let clone = scratch.path().join("clone");
    server.git(&[
        "clone",
        "--quiet",
        "--no-checkout",
        "--filter=blob:limit=1k",
        &format!("file://{}", server.path().display()),
        clone.to_str().unwrap(),
    ]);
    // The server is gone: the base side of `config/app.env` (over 1 KiB) cannot be fetched.
    let gone = scratch.path().join("server-gone");
    std::fs::rename(server.path(), &gone).unwrap();
    let out = review(
        &scratch.path().join("data"),
        &format!("{}#origin/main..origin/feature", clone.display()),
    );
    std::fs::rename(&gone, server.path()).unwrap();
    let found = secret_p0s(&out, "config/app.env");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["anchor"]["start_line"], 1);
}

#[test]
fn a_secret_in_a_text_file_git_calls_binary_is_found() {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    repo.write("settings.cfg", "name = demo\n");
    repo.commit_all("initial");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    // A NUL byte makes git print "Binary files differ"; so does `-diff` for a named file.
    repo.write(
        "deploy/notes.txt",
        &format!("\0\nGITHUB_TOKEN={}\n", token()),
    );
    repo.write(".gitattributes", "settings.cfg -diff\n");
    repo.write(
        "settings.cfg",
        &format!("name = demo\ntoken = {}\n", token()),
    );
    repo.commit_all("feature");
    let scratch = tempfile::tempdir().unwrap();
    let out = review(
        &scratch.path().join("data"),
        &format!("{}#main..feature", repo.path().display()),
    );
    for path in ["deploy/notes.txt", "settings.cfg"] {
        let found = secret_p0s(&out, path);
        assert_eq!(found.len(), 1, "{path}: {found:?}");
    }
}

/// Base64 lines of a PEM body, drawn at run time from `seed` (never a key in this file).
fn pem_body(seed: u64) -> String {
    let alphabet: Vec<char> = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        .chars()
        .collect();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..6)
        .map(|_| {
            (0..64)
                .map(|_| {
                    state ^= state >> 12;
                    state ^= state << 25;
                    state ^= state >> 27;
                    alphabet[(state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize
                        % alphabet.len()]
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// echo #1793 regenerated its test certificate and key under `_fixture/certs/`, which
/// `echo_test.go` loads: the hunks kept the `BEGIN` lines as context. The certificate's body is
/// no key (its armour, read at the head, says so) and the key is the tests' own: no finding, and
/// the secret scan's summary counts it, so it is never silently dropped. Nothing blocks. A key
/// outside the fixtures in the same change stays a P0.
#[test]
fn a_regenerated_fixture_certificate_and_the_key_its_tests_load_do_not_block() {
    let pem = |label: &str, seed: u64| {
        format!(
            "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
            pem_body(seed)
        )
    };
    let repo = GitRepo::init();
    repo.write("go.mod", "module example.com/echo\n");
    repo.write(
        "echo_test.go",
        "package echo\n\nfunc TestTLS(t *testing.T) {\n\tstartTLS(\"_fixture/certs/cert.pem\", \"_fixture/certs/key.pem\")\n}\n",
    );
    repo.write("_fixture/certs/cert.pem", &pem("CERTIFICATE", 1));
    repo.write("_fixture/certs/key.pem", &pem("PRIVATE KEY", 2));
    repo.commit_all("initial");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("_fixture/certs/cert.pem", &pem("CERTIFICATE", 3));
    repo.write("_fixture/certs/key.pem", &pem("PRIVATE KEY", 4));
    repo.commit_all("regenerate the test certificates");
    let scratch = tempfile::tempdir().unwrap();
    let out = review(
        &scratch.path().join("data"),
        &format!("{}#main..feature", repo.path().display()),
    );
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let secrets: Vec<&Value> = findings
        .iter()
        .filter(|f| f["reviewer"] == "secret scan")
        .collect();
    assert!(
        !secrets
            .iter()
            .any(|f| f["anchor"]["path"] == "_fixture/certs/cert.pem"),
        "{secrets:?}"
    );
    assert!(
        !secrets
            .iter()
            .any(|f| f["anchor"]["path"] == "_fixture/certs/key.pem"),
        "{secrets:?}"
    );
    let scan = report["reviewers"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["name"] == "secret scan"))
        .unwrap_or_else(|| panic!("no secret scan in {report}"));
    assert!(
        scan.to_string()
            .contains("1 key(s) in test fixture folders that the tests load, not reported"),
        "never silent: {scan}"
    );
    assert_ne!(report["verdict"]["decision"], "block", "{report}");

    // The same key outside the fixtures is a leak.
    repo.write("deploy/key.pem", &pem("PRIVATE KEY", 5));
    repo.commit_all("deploy key");
    let out = review(
        &scratch.path().join("data2"),
        &format!("{}#main..feature", repo.path().display()),
    );
    assert_eq!(secret_p0s(&out, "deploy/key.pem").len(), 1);
}
