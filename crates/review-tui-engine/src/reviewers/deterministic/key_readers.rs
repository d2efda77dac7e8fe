//! Which test of the repository loads a key file the change commits: a key its own tests load
//! from a fixture folder or a folder of examples is a fixture, not a leak.

use super::secrets;

/// A test file of the repository at the head that loads the key file `key`: one that names it
/// or the folder it sits in. Searched under the folder holding the key's first test, fixture or
/// examples folder (`echo_test.go` beside `_fixture/certs/key.pem`, `tests/test_requests.py`
/// beside `tests/certs/…/server.key`, puma's `test/` beside `examples/puma/`), in test code
/// files of at most 1 MiB, the first 2000. What the test must name: in a fixture folder the
/// key's file name; in a folder of examples, whose names tests do not share, its path from
/// that folder (`examples/puma/puma_keypair.pem`), or that of the certificate it pairs with
/// (`examples/sample.pem` beside `examples/sample.rsa`: the same stem). In either, the key's
/// folder when it is not the fixture or examples folder itself (`examples/puma/client_certs`,
/// where the CA keys that sign the certificates the tests load sit).
pub(super) fn test_naming(worktree: &std::path::Path, key: &str) -> Option<String> {
    let (dirs, name) = key.rsplit_once('/')?;
    let dirs: Vec<&str> = dirs.split('/').collect();
    let at = dirs
        .iter()
        .position(|d| secrets::fixture_dir(d) || secrets::sample_dir(d))?;
    let root = dirs[..at].join("/");
    let folder = dirs[at..].join("/");
    let files = super::repo_files(worktree)?;
    let mut needles: Vec<String> = Vec::new();
    if secrets::fixture_dir(dirs[at]) {
        needles.push(name.to_string());
    } else {
        needles.push(format!("{folder}/{name}"));
        let stem = |file: &str| file.split('.').next().unwrap_or(file).to_string();
        let prefix = format!("{}/", dirs.join("/"));
        needles.extend(
            files
                .iter()
                .filter_map(|f| f.strip_prefix(&prefix))
                .filter(|sibling| {
                    !sibling.contains('/') && *sibling != name && stem(sibling) == stem(name)
                })
                .map(|sibling| format!("{folder}/{sibling}")),
        );
    }
    if at + 1 < dirs.len() {
        needles.push(folder);
    }
    files
        .iter()
        .filter(|f| root.is_empty() || f.starts_with(&format!("{root}/")))
        .filter(|f| f.as_str() != key && crate::diff::is_test_path(f))
        .filter(|f| {
            !matches!(
                crate::diff::Language::from_path(f),
                crate::diff::Language::Other | crate::diff::Language::Markdown
            )
        })
        .take(2000)
        .find(|f| {
            let path = worktree.join(f);
            std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= 1 << 20)
                && std::fs::read(&path).is_ok_and(|bytes| {
                    let text = String::from_utf8_lossy(&bytes);
                    needles.iter().any(|needle| names_whole(&text, needle))
                })
        })
        .cloned()
}

/// The code of the repository that loads the key file `key` by its path ([`readers_naming`]):
/// the first sample reader and the first shipped one, by the lines that name it (code, not
/// comments; test code by its path or by its place in a file, as a Rust `#[cfg(test)]`
/// module).
#[derive(Debug, Default, PartialEq)]
pub(super) struct KeyReaders {
    /// Test, example or interop-suite code ([`sample_program`]) naming the key.
    pub sample: Option<String>,
    /// Any other code naming it (a library's or a binary's source, a Dockerfile, a deploy
    /// script): what the project ships or deploys loads the key.
    pub shipped: Option<String>,
}

/// The code files of the repository at the head (`files`, read from `worktree`) that name
/// the key file `key` by its path from the root or by a tail of it that keeps at least its
/// folder (`data_dir.join("tls/server.key")` for `examples/data/tls/server.key`), written
/// whole or joined from parts in one expression ([`super::joined_paths`]:
/// `.join("tls").join("server.key")`, `os.path.join(dir, "tls", "server.key")`); by its
/// bare file name only from the key's own folder (`examples/fake_server.py` loading
/// `here.parent / "server.key"`), as elsewhere a bare name (`server.key`) is any project's. `except` is left out (the script that generates the
/// key names it too). Code files only, of at most 1 MiB, the first 2000; data, configuration
/// and prose do not load keys.
pub(super) fn readers_naming(
    worktree: &std::path::Path,
    files: &std::collections::BTreeSet<String>,
    key: &str,
    except: Option<&str>,
) -> KeyReaders {
    use crate::diff::Language;
    let parts: Vec<&str> = key.split('/').collect();
    let needles: Vec<String> = (0..parts.len().saturating_sub(1))
        .map(|from| parts[from..].join("/"))
        .collect();
    let name = parts.last().copied().unwrap_or(key);
    // Code in the key's own folder names it by its file name (`here.parent / "server.key"`).
    let folder = key.rsplit_once('/').map_or("", |(dir, _)| dir);
    let beside = |file: &str| file.rsplit_once('/').map_or("", |(dir, _)| dir) == folder;
    let mut readers = KeyReaders::default();
    let code = files.iter().filter(|f| {
        f.as_str() != key
            && Some(f.as_str()) != except
            && !matches!(
                Language::from_path(f),
                Language::Other
                    | Language::Markdown
                    | Language::Yaml
                    | Language::Toml
                    | Language::Json
            )
    });
    for file in code.take(2000) {
        let by_path = sample_program(file);
        if by_path && readers.sample.is_some() {
            continue;
        }
        let path = worktree.join(file);
        let text = std::fs::symlink_metadata(&path)
            .is_ok_and(|m| m.is_file() && m.len() <= 1 << 20)
            .then(|| std::fs::read(&path).ok())
            .flatten()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        let Some(text) = text.filter(|text| text.contains(name)) else {
            continue;
        };
        let names = |line: &str| {
            needles.iter().any(|needle| names_whole(line, needle))
                || beside(file) && names_whole(line, name)
        };
        let lines: Vec<&str> = text.lines().collect();
        let facts = crate::diff::file_lines(file, Language::from_path(file), &lines);
        // A path joined from parts in one expression (`.join("certs").join("key.pem")`)
        // names the key like its path written whole; comment lines join nothing.
        let code: Vec<&str> = lines
            .iter()
            .zip(&facts)
            .map(|(line, fact)| if fact.code { *line } else { "" })
            .collect();
        let joined = super::joined_paths::joined_path_lines(&code.join("\n"), &parts);
        // A comment names nothing that runs; a test module inside a library's file
        // (`#[cfg(test)] mod tests`) is test code.
        for (at, (line, fact)) in lines.iter().zip(&facts).enumerate() {
            if !fact.code || !(names(line) || joined.contains(&at)) {
                continue;
            }
            let slot = if by_path || fact.test {
                &mut readers.sample
            } else {
                &mut readers.shipped
            };
            slot.get_or_insert_with(|| file.clone());
        }
        if readers.shipped.is_some() {
            break;
        }
    }
    readers
}

/// Code the project runs to test or show itself, not code it ships: tests
/// ([`crate::diff::is_test_path`]), examples, demos and benchmarks
/// ([`crate::diff::is_sample_path`]), and an interop test suite ([`interop_suite`]).
pub(super) fn sample_program(path: &str) -> bool {
    crate::diff::is_test_path(path) || crate::diff::is_sample_path(path) || interop_suite(path)
}

/// Under the folder of an interop test suite (`interop/`, `tonic-interop/`, `interop-tests/`):
/// the programs that test one implementation of a protocol against another, with the keys of
/// the test servers they start. As for samples, the first folder that says what its code is
/// decides: `src/Interop/` below a source root is the package's own module (.NET's
/// platform-invoke layer), shipped.
pub(super) fn interop_suite(path: &str) -> bool {
    let dirs = path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
    for dir in dirs.split('/') {
        let dir = dir.to_ascii_lowercase();
        let interop = dir == "interop"
            || ["interop-", "interop_"].iter().any(|p| dir.starts_with(p))
            || ["-interop", "_interop"].iter().any(|s| dir.ends_with(s));
        if interop {
            return true;
        }
        if crate::diff::source_root(&dir) {
            return false;
        }
    }
    false
}

/// Whether `text` names the file or folder `path` whole: not as the end of a longer name
/// (`myserver.key`) nor as the start of one (`examples/puma_old`).
fn names_whole(text: &str, path: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    text.match_indices(path)
        .any(|(at, _)| !text[..at].ends_with(part) && !text[at + path.len()..].starts_with(part))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::committed;

    fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
        committed(files)
    }

    /// puma loads its TLS fixtures from `examples/puma/` (the CA keys by their folder,
    /// `CERT_PATH = File.expand_path "../examples/puma/client_certs", __dir__`); hyper-rustls's
    /// tests trust `examples/sample.pem`, the certificate of `examples/sample.rsa`.
    #[test]
    fn a_key_in_a_folder_of_examples_is_loaded_by_the_test_naming_it_its_folder_or_its_certificate()
    {
        let dir = repo(&[
            (
                "test/test_puma_server_ssl.rb",
                "CERT_PATH = File.expand_path \"../examples/puma/client_certs\", __dir__\nctx.key = File.expand_path \"../examples/puma/puma_keypair.pem\", __dir__\n",
            ),
            ("examples/puma/client_certs/ca.key", "k"),
            ("examples/puma/puma_keypair.pem", "k"),
            ("examples/puma_old/server.key", "k"),
            ("tests/tls.rs", "let cert = \"examples/sample.pem\";\n"),
            ("examples/sample.rsa", "k"),
            ("examples/sample.pem", "c"),
            ("examples/other.rsa", "k"),
            ("lib/server.key", "k"),
        ]);
        let named = |key: &str| test_naming(dir.path(), key);
        assert_eq!(
            named("examples/puma/client_certs/ca.key").as_deref(),
            Some("test/test_puma_server_ssl.rb")
        );
        assert_eq!(
            named("examples/puma/puma_keypair.pem").as_deref(),
            Some("test/test_puma_server_ssl.rb")
        );
        assert_eq!(
            named("examples/sample.rsa").as_deref(),
            Some("tests/tls.rs")
        );
        // A folder whose name only begins like the one the tests load, a key no test names
        // nor pairs with, a key outside fixtures and examples.
        assert_eq!(named("examples/puma_old/server.key"), None);
        assert_eq!(named("examples/other.rsa"), None);
        assert_eq!(named("lib/server.key"), None);
    }
}
