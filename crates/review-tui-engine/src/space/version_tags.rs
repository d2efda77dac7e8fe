//! Version tags: which tag names name a release (`v1.2.3`, `1.2.3`, `tokio-util-0.7.0`,
//! `@scope/pkg@2.0.0-rc.1`, `sub/v1.0.0`), and copying them into the mirror, so that the
//! apiContract axis can tell an item some release shipped from one added since (see
//! `api::releases`).
//!
//! Tags are outside input: a tag can name any commit, or a tree, or nothing the mirror holds.
//! Here only the name is judged and only objects the mirror holds are referred to; which tags
//! count for a review (those reachable from its base) is decided where they are read.

use std::collections::BTreeMap;
use std::path::Path;

use git2::{Oid, Repository};

use super::packed_refs::{self, Target};

/// Where the mirror keeps them, as git does.
pub(crate) const TAGS: &str = "refs/tags/";

/// More tags than this in one repository are not copied past the limit: a bound on the work
/// and the refs an unusual repository can cause.
const MOST: usize = 20_000;
/// Longer names are not versions anyone wrote by hand.
const LONGEST: usize = 120;

/// The prefix and the version of a version tag's name: `("tokio-util", "0.7.0")`,
/// `("", "v1.2.3")`, `("@scope/pkg", "2.0.0-rc.1")`, `("sub", "v1.0.0")`. The prefix has its
/// separator (`-`, `_`, `@`, `/`) taken off. `None` for a name that does not end in a version.
pub(crate) fn split_version_tag(name: &str) -> Option<(&str, &str)> {
    if name.len() > LONGEST || name.is_empty() {
        return None;
    }
    let starts = std::iter::once(0).chain(
        name.char_indices()
            .filter(|(_, c)| matches!(c, '-' | '_' | '@' | '/'))
            .map(|(i, c)| i + c.len_utf8()),
    );
    for start in starts {
        let version = &name[start..];
        if is_version(version) {
            let prefix = name[..start].trim_end_matches(['-', '_', '@', '/']);
            return Some((prefix, version));
        }
    }
    None
}

/// `v1.2`, `1.2.3`, `0.14.dev`, `3.0.0-beta1.01`, `2.0.0rc1`, `1.0.0+build`: at least a major
/// and a minor number, then an optional pre-release or build part; or a `v` and a major alone
/// (`v0`, google/uuid's first tag): a bare number (`1`, `2024`) names too many other things.
fn is_version(text: &str) -> bool {
    let prefixed = text.starts_with(['v', 'V']);
    let digits = text.strip_prefix(['v', 'V']).unwrap_or(text);
    let end = digits
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(digits.len());
    let (release, rest) = digits.split_at(end);
    let numbers: Vec<&str> = release.trim_end_matches('.').split('.').collect();
    let numeric = (numbers.len() >= 2 || (prefixed && rest.is_empty()))
        && numbers.len() <= 4
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()));
    // A trailing dot only before a suffix (`0.14.dev`), never at the end (`1.2.`).
    let dot_ok = !release.ends_with('.') || !rest.is_empty();
    let rest_ok = rest.is_empty()
        || (rest.len() <= 40
            && rest
                .chars()
                .next()
                .is_some_and(|c| matches!(c, '-' | '.' | '+' | '_') || c.is_ascii_alphabetic())
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '+' | '_')));
    numeric && dot_ok && rest_ok
}

/// Makes the mirror's version tags those of the repository at `source` (a local path): each
/// tag whose name is a version and whose object, peeled to a commit, the mirror holds; tags
/// the source no longer has are dropped. Returns how many the mirror has then. Never fails
/// the fetch it follows: a source that cannot be read leaves the mirror's tags as they were.
///
/// They are written as one `packed-refs` file (see [`packed_refs`]): a file per tag cost a
/// repository with hundreds of releases most of a cold review's first 0.2 s. When that file
/// cannot be written (another writer holds its lock, it holds a line that is no ref) each tag
/// is written as its own ref, as before.
///
/// [`packed_refs`]: super::packed_refs
pub(crate) fn copy_local(mirror: &Repository, source: &Path) -> usize {
    let Ok(source) = Repository::open(source) else {
        return 0;
    };
    let Ok(refs) = source.references_glob("refs/tags/*") else {
        return 0;
    };
    let mut have: BTreeMap<String, Oid> = BTreeMap::new();
    if let Ok(refs) = mirror.references_glob("refs/tags/*") {
        for reference in refs.flatten() {
            if let (Ok(name), Some(target)) = (reference.name(), reference.target()) {
                have.insert(name.to_string(), target);
            }
        }
    }
    let mut wanted: BTreeMap<String, Oid> = BTreeMap::new();
    // What the tags checked here peel to, for the packed file.
    let mut peeled: BTreeMap<String, Option<Oid>> = BTreeMap::new();
    for reference in refs.flatten() {
        if wanted.len() >= MOST {
            break;
        }
        let (Ok(name), Some(target)) = (reference.name(), reference.target()) else {
            continue;
        };
        let Some(tag) = name.strip_prefix(TAGS) else {
            continue;
        };
        if split_version_tag(tag).is_none() {
            continue;
        }
        // The mirror must hold what the ref names, down to the commit: a ref to a missing
        // object would make the mirror look corrupt to git. A tag it has already was checked
        // when it was written.
        if have.get(name) != Some(&target) {
            let Ok(commit) = mirror
                .find_object(target, None)
                .and_then(|o| o.peel_to_commit())
            else {
                continue;
            };
            peeled.insert(
                name.to_string(),
                (commit.id() != target).then(|| commit.id()),
            );
        }
        wanted.insert(name.to_string(), target);
    }
    if wanted == have {
        return wanted.len();
    }
    let packed: BTreeMap<String, Target> = wanted
        .iter()
        .map(|(name, &id)| {
            let peeled = match peeled.get(name) {
                Some(known) => *known,
                None => packed_refs::peeled(mirror, id),
            };
            (name.clone(), Target { id, peeled })
        })
        .collect();
    if packed_refs::write_tags(mirror, &packed).is_ok() {
        return wanted.len();
    }
    write_loose(mirror, &have, &wanted)
}

/// [`copy_local`]'s tags written one ref at a time, through libgit2.
fn write_loose(
    mirror: &Repository,
    have: &BTreeMap<String, Oid>,
    wanted: &BTreeMap<String, Oid>,
) -> usize {
    for (name, _) in have.iter().filter(|(n, _)| !wanted.contains_key(*n)) {
        if let Ok(mut gone) = mirror.find_reference(name) {
            let _ = gone.delete();
        }
    }
    let mut count = 0;
    for (name, target) in wanted {
        if have.get(name) == Some(target)
            || mirror
                .reference(name, *target, true, "review-tui: version tag")
                .is_ok()
        {
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

    /// The files under `dir`, recursively.
    fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            if entry.file_type().unwrap().is_dir() {
                out.extend(files_under(&entry.path()));
            } else {
                out.push(entry.path());
            }
        }
        out
    }

    #[test]
    fn tags_are_copied_into_one_packed_file_or_a_ref_each_when_it_is_locked() {
        let t = TestRepo::new();
        let first = t.sha("HEAD");
        git(&t.path(), &["tag", "-a", "-m", "release", "v1.0.0"]);
        git(&t.path(), &["tag", "sub/v0.2.0"]);
        git(&t.path(), &["tag", "nightly"]);
        let second = t.commit("a.txt", "a\n", "second");
        git(&t.path(), &["tag", "v1.1.0"]);
        let annotated = t.sha("v1.0.0");
        git(t.scratch(), &["clone", "-q", "--bare", "repo", "m.git"]);
        let path = t.scratch().join("m.git");
        git(
            &path,
            &["tag", "-d", "v1.0.0", "sub/v0.2.0", "nightly", "v1.1.0"],
        );
        let mirror = Repository::open_bare(&path).unwrap();

        assert_eq!(copy_local(&mirror, &t.path()), 3);
        assert_eq!(
            git(&path, &["show-ref", "-d", "--tags"]),
            format!(
                "{first} refs/tags/sub/v0.2.0\n\
                 {annotated} refs/tags/v1.0.0\n\
                 {first} refs/tags/v1.0.0^{{}}\n\
                 {second} refs/tags/v1.1.0"
            )
        );
        assert_eq!(
            files_under(&path.join("refs/tags")),
            Vec::<std::path::PathBuf>::new()
        );
        // Nothing changed: nothing is written.
        let stamp = std::fs::metadata(path.join("packed-refs"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(copy_local(&mirror, &t.path()), 3);
        let again = std::fs::metadata(path.join("packed-refs"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(stamp, again);

        // Another writer holds the packed file: the tags still follow the source, one ref each
        // (a packed tag can only be deleted by rewriting the file: it waits for the next copy).
        git(&t.path(), &["tag", "-f", "v1.0.0", &second]);
        git(&t.path(), &["tag", "v1.2.0", &first]);
        std::fs::write(path.join("packed-refs.lock"), "").unwrap();
        assert_eq!(copy_local(&mirror, &t.path()), 4);
        assert_eq!(
            git(&path, &["show-ref", "--tags"]),
            format!(
                "{first} refs/tags/sub/v0.2.0\n{second} refs/tags/v1.0.0\n\
                 {second} refs/tags/v1.1.0\n{first} refs/tags/v1.2.0"
            )
        );
        assert_eq!(files_under(&path.join("refs/tags")).len(), 2);
        assert!(path.join("packed-refs.lock").exists());
        // Once it is released, the next copy packs them again, and drops a deleted one.
        std::fs::remove_file(path.join("packed-refs.lock")).unwrap();
        git(&t.path(), &["tag", "-d", "sub/v0.2.0"]);
        assert_eq!(copy_local(&mirror, &t.path()), 3);
        assert_eq!(
            files_under(&path.join("refs/tags")),
            Vec::<std::path::PathBuf>::new()
        );
        assert_eq!(
            git(&path, &["show-ref", "--tags"]),
            format!(
                "{second} refs/tags/v1.0.0\n{second} refs/tags/v1.1.0\n{first} refs/tags/v1.2.0"
            )
        );
    }

    #[test]
    fn version_tags_and_their_prefixes() {
        for (name, prefix, version) in [
            ("v1.2.3", "", "v1.2.3"),
            ("1.2.3", "", "1.2.3"),
            ("0.1", "", "0.1"),
            ("tokio-1.40.0", "tokio", "1.40.0"),
            ("tokio-util-0.7.0", "tokio-util", "0.7.0"),
            ("tokio-v0.1.10", "tokio", "v0.1.10"),
            ("jackson-core-3.0.0-rc5", "jackson-core", "3.0.0-rc5"),
            ("v3.0.0-beta1.01", "", "v3.0.0-beta1.01"),
            ("@scope/pkg@2.0.0-rc.1", "@scope/pkg", "2.0.0-rc.1"),
            ("pkg@1.0.0", "pkg", "1.0.0"),
            ("sub/mod/v1.0.0", "sub/mod", "v1.0.0"),
            ("0.14.dev", "", "0.14.dev"),
            ("2.0.0rc1", "", "2.0.0rc1"),
            ("release-1.2.3", "release", "1.2.3"),
            ("v0", "", "v0"),
            ("V2", "", "V2"),
        ] {
            assert_eq!(split_version_tag(name), Some((prefix, version)), "{name}");
        }
        for not in [
            "rm",
            "v",
            "v1-foo",
            "1",
            "latest",
            "1.2.",
            "v1.2.3 with space",
            "1.2.3/../x",
            "nightly-2024",
            "",
        ] {
            assert_eq!(split_version_tag(not), None, "{not}");
        }
        assert_eq!(
            split_version_tag(&format!("v1.2.3-{}", "a".repeat(200))),
            None
        );
    }
}
