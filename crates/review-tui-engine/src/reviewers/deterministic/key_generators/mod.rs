//! Which script of the repository generates a key file the change commits: a key the
//! repository makes for itself with a script beside it (tonic's `create.sh` running `openssl
//! genrsa -out server.key`, a Terraform `cert-generator/` writing `tls_private_key` to
//! `../server1.key`) is material anyone can regenerate, made for the project's own examples
//! and tests, not a credential copied in from a deployment.
//!
//! The script must *write that path* with a command that makes a new key: naming the file in
//! a comment, echoing the command, reading or converting an existing key, or writing a path
//! built from a variable does not count, so adding a script that mentions a real key does not
//! make it a sample.

mod shell;
mod terraform;

use std::collections::BTreeSet;
use std::path::Path;

/// How many candidate scripts are read per key, and how large each may be.
const MAX_SCRIPTS: usize = 200;
const MAX_BYTES: u64 = 1 << 20;

/// The script of the repository at the head (`files`, read from `worktree`) that writes the
/// key file `key` with a key-generating command. Scripts are looked for where one that writes
/// the key by a relative path sits: in the key's folder or a folder below it
/// (`cert-generator/`), or in a folder above it (a `Makefile` at the root). A written path is
/// read from the script's own folder, and also from the repository's root when it names a
/// folder (`openssl genrsa -out tests/certs/key.pem` run from the root).
pub(super) fn script_writing(
    worktree: &Path,
    files: &BTreeSet<String>,
    key: &str,
) -> Option<String> {
    let key_dir = key.rsplit_once('/').map_or("", |(dir, _)| dir);
    files
        .iter()
        .filter(|f| f.as_str() != key && script_kind(f).is_some())
        .filter(|f| {
            let dir = f.rsplit_once('/').map_or("", |(dir, _)| dir);
            within(key_dir, dir) || within(dir, key_dir)
        })
        .take(MAX_SCRIPTS)
        .find(|script| {
            let path = worktree.join(script);
            let Some(kind) = script_kind(script) else {
                return false;
            };
            let text = std::fs::symlink_metadata(&path)
                .is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES)
                .then(|| std::fs::read(&path).ok())
                .flatten()
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
            let Some(text) = text else {
                return false;
            };
            let written = match kind {
                Kind::Shell => shell::written_keys(&text, false),
                Kind::Make => shell::written_keys(&text, true),
                Kind::Terraform => terraform::written_keys(&text),
            };
            let dir = script.rsplit_once('/').map_or("", |(dir, _)| dir);
            written
                .iter()
                .any(|path| resolved(dir, path).iter().any(|p| p == key))
        })
        .cloned()
}

/// Whether the folder `inner` is `outer` or below it (the root `""` holds every folder).
fn within(outer: &str, inner: &str) -> bool {
    outer.is_empty() || inner == outer || inner.starts_with(&format!("{outer}/"))
}

#[derive(Clone, Copy)]
enum Kind {
    Shell,
    Make,
    Terraform,
}

/// A file that can generate keys, by its name: a shell script, a Makefile, a Terraform
/// configuration.
fn script_kind(path: &str) -> Option<Kind> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match (name, extension.as_deref()) {
        ("Makefile" | "makefile" | "GNUmakefile", _) | (_, Some("mk")) => Some(Kind::Make),
        (_, Some("tf")) => Some(Kind::Terraform),
        (_, Some("sh" | "bash" | "zsh")) => Some(Kind::Shell),
        _ => None,
    }
}

/// The repository paths a written path may be: from the script's folder `dir`, and from the
/// root when it names a folder and does not start from the current one. An absolute path or
/// one climbing above the root is none.
fn resolved(dir: &str, written: &str) -> Vec<String> {
    if written.starts_with('/') {
        return Vec::new();
    }
    let mut paths: Vec<String> = normalise(&format!("{dir}/{written}")).into_iter().collect();
    if written.contains('/') && !written.starts_with("./") && !written.starts_with("../") {
        paths.extend(normalise(written));
    }
    paths
}

/// `a/./b/../c` as `a/c`; `None` above the root.
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests;
