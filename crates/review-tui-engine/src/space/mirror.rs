//! The bare mirror: one per repository, shared by every PR of it, created once and only fetched
//! afterwards.
//!
//! Fetching takes two roads. A local path or `file://` URL goes through git2, in process. Any
//! other URL (https above all) goes through the `git` binary, because our git2 is built without
//! TLS; the token then travels only in the environment, as an `http.extraHeader`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use git2::{AutotagOption, FetchOptions, Oid, Repository};
use thiserror::Error;

use super::token::{Token, redact_url, scrub};

#[derive(Debug, Error)]
pub enum MirrorError {
    #[error("mirror {path}: {source}")]
    Git { path: PathBuf, source: git2::Error },
    #[error("mirror {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("mirror {path} exists but is not a bare repository; move it away to start afresh")]
    NotBare { path: PathBuf },
}

/// A failed fetch. Every message here has been scrubbed of the token and of URL credentials.
#[derive(Debug, Error)]
pub enum FetchError {
    #[error("fetch from {url}: {message}")]
    Git2 { url: String, message: String },
    #[error("fetch from {url}: git exited with {status}: {stderr}")]
    GitBinary {
        url: String,
        status: String,
        stderr: String,
    },
    #[error("fetch from {url}: cannot run git: {message}")]
    GitMissing { url: String, message: String },
    #[error("refusing to fetch from {url:?}: a URL cannot start with '-'")]
    BadUrl { url: String },
}

pub(crate) struct Mirror {
    path: PathBuf,
    repo: Repository,
}

impl Mirror {
    /// Removes git's `*.lock` files (refs, packed-refs, HEAD, config, worktree indexes) left by a
    /// process killed mid-write. Only call this while holding the mirror's own lock: then no
    /// live writer can own them.
    pub(crate) fn clear_stale_locks(&self) -> Result<usize, MirrorError> {
        fn sweep(dir: &Path, depth: usize, removed: &mut usize) -> std::io::Result<()> {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return Ok(());
            };
            for entry in entries {
                let entry = entry?;
                let path = entry.path();
                let kind = entry.file_type()?;
                if kind.is_dir() && depth > 0 && entry.file_name() != "objects" {
                    sweep(&path, depth - 1, removed)?;
                } else if kind.is_file()
                    && path.extension().is_some_and(|e| e == "lock")
                    && entry.file_name() != "review-tui.lock"
                {
                    std::fs::remove_file(&path)?;
                    *removed += 1;
                }
            }
            Ok(())
        }
        let mut removed = 0;
        // Ref names nest (refs/review-tui/pr/N/head): a generous depth, objects/ skipped.
        sweep(&self.path, 12, &mut removed).map_err(|source| MirrorError::Io {
            path: self.path.clone(),
            source,
        })?;
        Ok(removed)
    }

    /// Opens the mirror at `path`, or creates it. The `bool` is true when it was created.
    /// Creation initialises a sibling temp directory and renames it into place, so a crash
    /// never leaves a half-made mirror, and two processes racing both end up with the one that
    /// won the rename.
    pub(crate) fn open_or_init(path: &Path) -> Result<(Mirror, bool), MirrorError> {
        if path.exists() {
            return Ok((Mirror::open(path)?, false));
        }
        let parent = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent).map_err(|source| MirrorError::Io {
            path: parent.to_path_buf(),
            source,
        })?;
        let staging =
            super::fsutil::create_unique_dir(parent, ".mirror-init").map_err(|source| {
                MirrorError::Io {
                    path: parent.to_path_buf(),
                    source,
                }
            })?;
        let init = Repository::init_bare(&staging)
            .map(drop)
            .map_err(|source| MirrorError::Git {
                path: path.to_path_buf(),
                source,
            })
            .and_then(|()| match std::fs::rename(&staging, path) {
                Ok(()) => Ok(true),
                // Another process won the race: its mirror is as good as ours.
                Err(_) if path.exists() => Ok(false),
                Err(source) => Err(MirrorError::Io {
                    path: path.to_path_buf(),
                    source,
                }),
            });
        if staging.exists() {
            let _ = std::fs::remove_dir_all(&staging);
        }
        let created = init?;
        Ok((Mirror::open(path)?, created))
    }

    fn open(path: &Path) -> Result<Mirror, MirrorError> {
        let repo = Repository::open_bare(path).map_err(|_| MirrorError::NotBare {
            path: path.to_path_buf(),
        })?;
        if !repo.is_bare() {
            return Err(MirrorError::NotBare {
                path: path.to_path_buf(),
            });
        }
        Ok(Mirror {
            path: path.to_path_buf(),
            repo,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn repo(&self) -> &Repository {
        &self.repo
    }

    /// Fetches `refspecs` from `url` into the mirror, without tags. The token is used only for
    /// remotes reached through the `git` binary; local fetches need none.
    pub(crate) fn fetch(
        &self,
        url: &str,
        refspecs: &[String],
        token: Option<&Token>,
    ) -> Result<(), FetchError> {
        if is_local(url) {
            self.fetch_in_process(url, refspecs)
        } else {
            self.fetch_with_git(url, refspecs, token)
        }
    }

    /// [`Mirror::fetch`], and the source's version tags with it (see [`version_tags`]):
    /// copied from a local repository (only names that are versions, only objects the mirror
    /// holds, gone ones dropped), fetched with the refs from any other URL, where git's
    /// refspecs cannot choose by name (the reader keeps only the version names).
    ///
    /// [`version_tags`]: super::version_tags
    pub(crate) fn fetch_with_tags(
        &self,
        url: &str,
        refspecs: &[String],
        token: Option<&Token>,
    ) -> Result<(), FetchError> {
        if is_local(url) {
            self.fetch_in_process(url, refspecs)?;
            let source = url.strip_prefix("file://").unwrap_or(url);
            super::version_tags::copy_local(&self.repo, Path::new(source));
            Ok(())
        } else {
            let mut with_tags = refspecs.to_vec();
            with_tags.push(format!("+{0}*:{0}*", super::version_tags::TAGS));
            self.fetch_with_git(url, &with_tags, token)
        }
    }

    /// The commit a ref points at, when the ref exists.
    pub(crate) fn resolve(&self, refname: &str) -> Option<Oid> {
        self.repo
            .find_reference(refname)
            .ok()
            .and_then(|r| r.peel_to_commit().ok())
            .map(|c| c.id())
    }

    pub(crate) fn has_commit(&self, sha: &str) -> bool {
        Oid::from_str(sha)
            .ok()
            .is_some_and(|oid| self.repo.find_commit(oid).is_ok())
    }

    fn fetch_in_process(&self, url: &str, refspecs: &[String]) -> Result<(), FetchError> {
        let url_for_git2 = url.strip_prefix("file://").unwrap_or(url);
        let failed = |e: git2::Error| FetchError::Git2 {
            url: redact_url(url),
            message: e.message().to_string(),
        };
        // Linked objects make the fetch below a matter of writing refs; when they cannot be
        // linked, it packs and copies them as before.
        super::linked_objects::link_objects(&self.path, Path::new(url_for_git2)).map_err(|e| {
            FetchError::Git2 {
                url: redact_url(url),
                message: e.to_string(),
            }
        })?;
        // A refspec by SHA whose commit the mirror already holds is only a ref to write.
        // git2's fetch would still list every ref of the source and peel each one (on a
        // repository with thousands of tags, most of a small PR's first review) to learn
        // nothing. The commit's whole history is there with it: objects enter the mirror only
        // by linking a complete object store (see `linked_objects`) or by a fetch, which
        // writes whole packs.
        let mut rest = Vec::new();
        for refspec in refspecs {
            match present_by_sha(&self.repo, refspec) {
                Some((oid, target)) => {
                    self.repo
                        .reference(target, oid, true, "review-tui: fetch (commit present)")
                        .map_err(failed)?;
                }
                None => rest.push(refspec.as_str()),
            }
        }
        if rest.is_empty() {
            return Ok(());
        }
        let mut remote = self.repo.remote_anonymous(url_for_git2).map_err(failed)?;
        let mut options = FetchOptions::new();
        options
            .download_tags(AutotagOption::None)
            .update_fetchhead(false);
        remote
            .fetch(&rest, Some(&mut options), None)
            .map_err(failed)
    }

    fn fetch_with_git(
        &self,
        url: &str,
        refspecs: &[String],
        token: Option<&Token>,
    ) -> Result<(), FetchError> {
        if url.starts_with('-') {
            return Err(FetchError::BadUrl {
                url: redact_url(url),
            });
        }
        let mut command = Command::new("git");
        command
            .arg("-C")
            .arg(&self.path)
            .args(["fetch", "--quiet", "--no-tags", "--no-write-fetch-head"])
            .arg(url)
            .args(refspecs)
            .stdin(Stdio::null())
            .env("GIT_TERMINAL_PROMPT", "0")
            // A GIT_DIR inherited from a hook or a wrapper would point git at the wrong
            // repository despite `-C`.
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        if let Some(token) = token {
            // Appended after any GIT_CONFIG_* the user already set, rather than replacing it.
            let index = std::env::var("GIT_CONFIG_COUNT")
                .ok()
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            command
                .env("GIT_CONFIG_COUNT", (index + 1).to_string())
                .env(format!("GIT_CONFIG_KEY_{index}"), "http.extraHeader")
                .env(
                    format!("GIT_CONFIG_VALUE_{index}"),
                    token.basic_auth_header(),
                );
        }
        let output = command.output().map_err(|e| FetchError::GitMissing {
            url: redact_url(url),
            message: scrub(&e.to_string(), token),
        })?;
        if output.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(FetchError::GitBinary {
            url: redact_url(url),
            status: output.status.to_string(),
            stderr: redact_url_credentials_in(&scrub(stderr.trim(), token)),
        })
    }
}

/// A path that exists, or a `file://` URL: fetched in process. `host:path` (scp-like ssh) and
/// every `scheme://` other than file go to the `git` binary.
/// `+<sha>:<ref>` (or without the `+`) naming a commit `repo` holds: the commit and the ref.
fn present_by_sha<'a>(repo: &Repository, refspec: &'a str) -> Option<(Oid, &'a str)> {
    let (source, target) = refspec.trim_start_matches('+').split_once(':')?;
    if source.len() != 40 || !source.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let oid = Oid::from_str(source).ok()?;
    repo.find_commit(oid).ok()?;
    target.starts_with("refs/").then_some((oid, target))
}

fn is_local(url: &str) -> bool {
    if url.starts_with("file://") {
        return true;
    }
    if url.contains("://") {
        return false;
    }
    Path::new(url).exists()
}

/// git quotes the URL it failed on; when the caller put credentials in that URL they would
/// reappear in stderr, so each word that looks like a URL is redacted too.
fn redact_url_credentials_in(text: &str) -> String {
    text.split_inclusive(|c: char| c.is_whitespace() || c == '\'' || c == '"')
        .map(|word| {
            if word.contains("://") {
                redact_url(word)
            } else {
                word.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};
    use std::io::{Read, Write};
    use std::net::TcpListener;

    #[test]
    fn stale_git_locks_are_cleared_but_ours_is_kept() {
        let t = TestRepo::new();
        let path = t.scratch().join("mirrors/locks.git");
        let (mirror, _) = Mirror::open_or_init(&path).unwrap();
        let nested = path.join("refs/review-tui/local/abc");
        std::fs::create_dir_all(&nested).unwrap();
        for stale in [
            nested.join("head.lock"),
            path.join("packed-refs.lock"),
            path.join("config.lock"),
        ] {
            std::fs::write(stale, "").unwrap();
        }
        std::fs::write(path.join("review-tui.lock"), "pid 1").unwrap();
        std::fs::write(nested.join("head"), "0000").unwrap();
        assert_eq!(mirror.clear_stale_locks().unwrap(), 3);
        assert!(!nested.join("head.lock").exists());
        assert!(nested.join("head").exists());
        assert!(path.join("review-tui.lock").exists());
        assert_eq!(mirror.clear_stale_locks().unwrap(), 0);
    }

    #[test]
    fn created_once_then_reused() {
        let t = TestRepo::new();
        let path = t.scratch().join("mirrors/x.git");
        let (mirror, created) = Mirror::open_or_init(&path).unwrap();
        assert!(created);
        assert!(mirror.repo().is_bare());
        std::fs::write(path.join("marker"), "kept").unwrap();
        drop(mirror);

        let (_, created) = Mirror::open_or_init(&path).unwrap();
        assert!(!created);
        assert_eq!(
            std::fs::read_to_string(path.join("marker")).unwrap(),
            "kept"
        );
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("x.git")]);
    }

    #[test]
    fn a_directory_that_is_not_a_mirror_is_refused() {
        let t = TestRepo::new();
        let err = Mirror::open_or_init(&t.path()).err().unwrap();
        assert!(matches!(err, MirrorError::NotBare { .. }), "{err}");
    }

    #[test]
    fn a_fetch_with_tags_keeps_the_version_tags_of_the_source_and_only_those() {
        let t = TestRepo::new();
        let first = t.sha("HEAD");
        git(&t.path(), &["tag", "-a", "-m", "release", "v1.0.0"]);
        git(&t.path(), &["tag", "latest"]);
        let second = t.commit("a.txt", "a\n", "second");
        git(&t.path(), &["tag", "lib-util-2.0.0-rc.1"]);
        let blob = git(&t.path(), &["hash-object", "-w", "a.txt"]);
        git(&t.path(), &["tag", "v9.0.0", &blob]);
        let (mirror, _) = Mirror::open_or_init(&t.scratch().join("m.git")).unwrap();
        let url = t.path().display().to_string();
        let fetch = || {
            mirror
                .fetch_with_tags(&url, &[format!("+{second}:refs/review-tui/x/head")], None)
                .unwrap()
        };
        fetch();
        let tags = || git(mirror.path(), &["tag", "--list"]);
        // A tag that names no commit (a blob) is no release; `latest` is no version.
        assert_eq!(tags(), "lib-util-2.0.0-rc.1\nv1.0.0");
        assert_eq!(
            mirror.resolve("refs/tags/v1.0.0").unwrap().to_string(),
            first
        );
        // A tag the source deleted, or moved, is deleted or moved in the mirror.
        git(&t.path(), &["tag", "-d", "lib-util-2.0.0-rc.1"]);
        git(
            &t.path(),
            &["tag", "-f", "-a", "-m", "moved", "v1.0.0", &second],
        );
        fetch();
        assert_eq!(tags(), "v1.0.0");
        assert_eq!(
            mirror.resolve("refs/tags/v1.0.0").unwrap().to_string(),
            second
        );
        // A plain fetch learns no tags.
        let (plain, _) = Mirror::open_or_init(&t.scratch().join("p.git")).unwrap();
        plain
            .fetch(&url, &[format!("+{second}:refs/review-tui/x/head")], None)
            .unwrap();
        assert_eq!(git(plain.path(), &["tag", "--list"]), "");
    }

    #[test]
    fn local_fetch_by_ref_and_by_sha() {
        let t = TestRepo::new();
        let first = t.sha("HEAD");
        let second = t.commit("a.txt", "a\n", "second");
        let (mirror, _) = Mirror::open_or_init(&t.scratch().join("m.git")).unwrap();
        let url = t.path().display().to_string();
        mirror
            .fetch(
                &url,
                &[
                    "+refs/heads/main:refs/review-tui/x/head".to_string(),
                    format!("+{first}:refs/review-tui/x/base"),
                ],
                None,
            )
            .unwrap();
        assert_eq!(
            mirror
                .resolve("refs/review-tui/x/head")
                .unwrap()
                .to_string(),
            second
        );
        assert_eq!(
            mirror
                .resolve("refs/review-tui/x/base")
                .unwrap()
                .to_string(),
            first
        );
        assert!(mirror.has_commit(&first));
        assert!(!mirror.has_commit("0123456789012345678901234567890123456789"));

        let file_url = format!("file://{url}");
        mirror
            .fetch(
                &file_url,
                &["+refs/heads/main:refs/review-tui/y/head".to_string()],
                None,
            )
            .unwrap();
        assert!(mirror.resolve("refs/review-tui/y/head").is_some());
    }

    #[test]
    fn a_commit_the_mirror_holds_is_fetched_by_writing_its_ref_only() {
        let t = TestRepo::new();
        let first = t.sha("HEAD");
        let second = t.commit("a.txt", "a\n", "second");
        let (mirror, _) = Mirror::open_or_init(&t.scratch().join("m.git")).unwrap();
        let url = t.path().display().to_string();
        mirror
            .fetch(&url, &[format!("+{second}:refs/review-tui/x/head")], None)
            .unwrap();
        // The source is gone: a fetch that went to it would fail. Both commits are in the
        // mirror already (the second's history holds the first), so both refs are written.
        let gone = t.scratch().join("no-such-repository").display().to_string();
        mirror
            .fetch(
                &gone,
                &[
                    format!("+{first}:refs/review-tui/y/base"),
                    format!("{second}:refs/review-tui/y/head"),
                ],
                None,
            )
            .unwrap();
        assert_eq!(
            mirror
                .resolve("refs/review-tui/y/base")
                .unwrap()
                .to_string(),
            first
        );
        assert_eq!(
            mirror
                .resolve("refs/review-tui/y/head")
                .unwrap()
                .to_string(),
            second
        );
        // A commit it lacks, or a ref by name, still goes to the source.
        let missing = "0123456789012345678901234567890123456789";
        assert!(
            mirror
                .fetch(&gone, &[format!("+{missing}:refs/review-tui/z/head")], None)
                .is_err()
        );
        assert!(
            mirror
                .fetch(
                    &gone,
                    &["+refs/heads/main:refs/review-tui/z/head".to_string()],
                    None
                )
                .is_err()
        );
    }

    #[test]
    fn https_fetch_error_never_shows_the_token() {
        let t = TestRepo::new();
        let (mirror, _) = Mirror::open_or_init(&t.scratch().join("m.git")).unwrap();
        // Port 1 on loopback: nothing listens, so git fails fast with its own message.
        let token = Token::new("ghp_TOPSECRET_0123456789").unwrap();
        let err = mirror
            .fetch(
                "https://x-access-token:ghp_TOPSECRET_0123456789@127.0.0.1:1/o/r.git",
                &["+refs/pull/1/head:refs/review-tui/pr/1/head".to_string()],
                Some(&token),
            )
            .unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains("TOPSECRET"), "{shown}");
        assert!(shown.contains("127.0.0.1"), "{shown}");
    }

    /// A one-shot HTTP server on loopback sees the header git sends; git's error, which quotes
    /// the server's answer, still carries no token.
    #[test]
    fn token_travels_as_a_basic_auth_header_only() {
        let t = TestRepo::new();
        let (mirror, _) = Mirror::open_or_init(&t.scratch().join("m.git")).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = stream.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
            }
            let body = "denied";
            write!(
                stream,
                "HTTP/1.1 403 Forbidden\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            String::from_utf8_lossy(&request).into_owned()
        });

        let token = Token::new("ghp_TOPSECRET_0123456789").unwrap();
        let url = format!("http://{addr}/o/r.git");
        let err = mirror
            .fetch(&url, &["+refs/heads/main:refs/x".to_string()], Some(&token))
            .unwrap_err();
        let request = server.join().unwrap();

        let expected = token.basic_auth_header();
        assert!(
            request
                .lines()
                .any(|l| l.eq_ignore_ascii_case(expected.trim())),
            "request lacked the header: {}",
            token.scrub(&request)
        );
        let shown = format!("{err} {err:?}");
        assert!(!shown.contains("TOPSECRET"), "{shown}");
        assert!(!shown.contains(&expected["Authorization: Basic ".len()..]));
    }

    #[test]
    fn urls_in_git_messages_lose_their_credentials() {
        assert_eq!(
            redact_url_credentials_in("fatal: unable to access 'https://u:p@h/x/': nope"),
            "fatal: unable to access 'https://***@h/x/': nope"
        );
    }
}
