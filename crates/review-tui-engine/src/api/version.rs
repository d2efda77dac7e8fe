//! Whether the package holding a file bumped its version for a break between base and head:
//! the major version (or the minor one below 1.0, Cargo's rule), or a Go module path's `/vN`.
//! A version still in development towards a breaking release (`3.0.0.dev0`, `0.14.dev`,
//! `2.0.0-rc.1`) allows a break too: the change ships in that release, not in the one before.

use crate::cohort::paths::parent_dir;
use crate::parse::grammar::Grammar;

use super::changelog::records_release;
use super::lang::{self, Manifest, Versioning};
use super::visibility::{List, Read};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Bump {
    /// The version allows a break: `manifest: 1.4.0 → 2.0.0`.
    Breaking(String),
    /// A development version of a release that may break (`4.0.0-alpha.0`, `3.0.0.dev0`, a
    /// last tag `v3.0.0-beta1`): the break is permitted, and the line is still being built,
    /// so the repository's own code may still be catching up with it.
    Developing(String),
    /// Unchanged or bumped compatibly; the manifest and version when one was found.
    Compatible(Option<String>),
    /// A 0.x version left as it was (`Cargo.toml 0.1.17`): SemVer lets any 0.x minor break,
    /// and the next release's number is not chosen yet. On a PR or an unreleased range a break
    /// warns that the next release must bump 0.x; on a release it is as [`Bump::Compatible`].
    PendingZero(String),
    /// The version moved back to an older line (`1.0.1 → 0.5.0`, a revert of the change that
    /// began the newer one): the next release continues that line, so what counts is what
    /// its releases shipped, those of a version at most the head's (`to`).
    MovedBack {
        /// The manifest and its version at the head, as [`Bump::Compatible`] says it.
        described: String,
        from: String,
        to: String,
    },
}

/// The package holding a file, as the tags of its releases may name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Package {
    /// The folder of its manifest, `""` at the repository's root.
    pub root: String,
    /// What its tags may carry before the version (`tokio-util-0.7.0`, `sub/v1.2.0`): the
    /// manifest's name (a scoped npm name's last part too, a Maven parent's artifactId, a Go
    /// module path's last element), and its folder.
    pub names: Vec<String>,
    /// The kind of manifest that names it, to read its version at another commit (a
    /// release's); `None` for a Go package outside any module.
    written: Option<Written>,
}

impl Package {
    /// The version the package's manifest writes in `files` (another commit's tree), when
    /// it writes one: `None` without a manifest there, for a version the manifest leaves to
    /// the build (a dynamic one, one only in the sources), and for a Go module, whose
    /// manifest writes its path and whose versions are its tags.
    pub(crate) fn version_in(&self, files: Files) -> Option<String> {
        let kind = self.written?.0;
        if kind.versioning == Versioning::ModulePath {
            return None;
        }
        let (_, text) = manifest_in(&self.root, kind, files)?;
        (kind.version)(&text, &self.root, files.read)
    }

    /// The file name of its manifest's kind (`Cargo.toml`, `*.cabal`): two packages of one
    /// folder (a crate and an npm package) differ by it.
    pub(crate) fn manifest_kind(&self) -> Option<&'static str> {
        self.written.map(|w| w.0.file)
    }
}

/// A kind of manifest, as a [`Package`] keeps it: compared by identity.
#[derive(Clone, Copy)]
struct Written(&'static Manifest);

impl PartialEq for Written {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Written {}

impl std::fmt::Debug for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.file)
    }
}

/// The version of the package's last release reachable from the base, as its tag writes it
/// (`v3.0.0-beta1`), when its tags say.
pub(crate) type LastTag<'a> = &'a dyn Fn(&Package) -> Option<String>;

/// What a package's version tags say, as [`bump`] asks them.
#[derive(Clone, Copy)]
pub(crate) struct TagsSay<'a> {
    /// The package's last tagged version reachable from the base.
    pub last: LastTag<'a>,
    /// [`TagsSay::last`] from tags that surely are the package's (they name it, or it is
    /// the repository's root package).
    pub released: LastTag<'a>,
    /// The version a tag of the package gives the head, when the range ends at its release.
    pub head_release: LastTag<'a>,
    /// The tag that released a version of the package on a commit not after the base
    /// (another line's: a release branch), if one did.
    pub released_beside: &'a dyn Fn(&Package, &str) -> Option<String>,
}

/// One side's repository files, as the version rules read them.
#[derive(Clone, Copy)]
pub(crate) struct Files<'a> {
    /// A file by its path.
    pub read: Read<'a>,
    /// The names of the files in a folder (`""`: the root): a manifest named for its package
    /// (`NAME.cabal`, `NAME-1.2.0-1.rockspec`) is found by listing.
    pub list: List<'a>,
}

/// The version bump of the package holding `path`. `head` and `base` are the repository's
/// files at the two commits; `tags.last` gives a package's last tagged version, where a
/// version lives only in tags (Go, a Python version written by the build from tags);
/// `tags.released` gives it only from tags that surely are that package's: a manifest
/// already a breaking step above that release is developing the breaking release.
pub(crate) fn bump(path: &str, grammar: Grammar, head: Files, base: Files, tags: TagsSay) -> Bump {
    let TagsSay {
        last: last_tag,
        released,
        head_release,
        released_beside,
    } = tags;
    let language = lang::of(grammar);
    for (root, kind) in manifests_above(path, grammar) {
        let Some((manifest, new)) = manifest_in(&root, kind, head) else {
            continue;
        };
        // Where the version is written: the manifest, or the package it reads it from.
        let version = |manifest: &str, text: &str, read: Read| {
            (kind.version)(text, &root, read)
                .map(|v| (manifest.to_string(), v))
                .or_else(|| language?.version_in_sources(path, &root, read))
        };
        let module_path = kind.versioning == Versioning::ModulePath;
        let versioning = kind.versioning;
        let after = version(&manifest, &new, head.read);
        // A manifest named for its version (a rockspec) is another file at the base.
        let before = manifest_in(&root, kind, base)
            .and_then(|(at, old)| version(&at, &old, base.read))
            .map(|(_, v)| v);
        // A manifest without a version of its own (a workspace root, a dynamic version
        // nobody wrote down) does not decide: keep looking above.
        let Some((manifest, after)) = after else {
            continue;
        };
        let described = format!("{manifest} {}", after);
        let unbumped = module_path
            && !before
                .as_ref()
                .is_some_and(|b| breaking(versioning, b, &after));
        if unbumped
            && let Some(tag) = last_tag(&package_named(kind, &new, &root))
            && let Some(developing) = module_developing(&manifest, &after, &tag)
        {
            return developing;
        }
        // A Go module path without a major suffix is v0 or v1: its tags say which. A 0.x
        // module's next minor may break, as below for a 0.x manifest.
        let package = package_named(kind, &new, &root);
        if module_path
            && !before
                .as_ref()
                .is_some_and(|b| breaking(versioning, b, &after))
            && last_tag(&package).is_some_and(|tag| numbers(&tag)[0] == 0)
            && let Some(zero) = zero_by_tags(&package, last_tag, head_release)
        {
            return zero;
        }
        let above_release = (!module_path)
            .then(|| released(&package_named(kind, &new, &root)))
            .flatten()
            .filter(|tag| breaking(versioning, tag, &after));
        return match before {
            Some(before) if breaking(versioning, &before, &after) => {
                Bump::Breaking(format!("{manifest}: {before} → {after}"))
            }
            _ if !module_path && towards_a_break(&after) => Bump::Developing(format!(
                "{manifest}: {after} is a development version of a release that may break"
            )),
            // Bumped for a break after the last release and before this change (tower's
            // `0.4.0` on master while `tower-0.3.1` was the last release, #499): every
            // change until that version ships is part of the breaking release.
            _ if above_release.is_some() => Bump::Breaking(format!(
                "{manifest}: {after}, a breaking step above the last release {}, is still in \
                 development",
                above_release.unwrap_or_default()
            )),
            // The release itself (`3.0.0.dev0` → `3.0.0`) ships what was developed for it.
            Some(before)
                if !module_path
                    && towards_a_break(&before)
                    && numbers(&before) == numbers(&after) =>
            {
                Bump::Breaking(format!("{manifest}: {before} → {after}"))
            }
            // 0.x as it was, and as the last release says when one is known (a manifest
            // already a compatible step above it has chosen the next version: 0.3.2 after
            // 0.3.1 may not break), unless the package's changelog records that version as
            // released though no tag marks it (crossbeam-queue 0.2.2 after the tag 0.2.1).
            Some(before)
                if numbers(&before) == numbers(&after)
                    && numbers(&after).first().copied().unwrap_or(0) == 0
                    && !module_path =>
            {
                match last_tag(&package) {
                    Some(tag) if numbers(&tag) != numbers(&after) => {
                        match records_release(&root, &after, head.read) {
                            Some(changelog) => Bump::PendingZero(format!(
                                "{described}, released by {changelog} after the last tag {tag}"
                            )),
                            // Released from another line (a release branch), as the tag
                            // there says, though this line's last tag is older.
                            None => match released_beside(&package, &after) {
                                Some(beside) => Bump::PendingZero(format!(
                                    "{described}, released as {beside} on another branch \
                                     after the last tag {tag} of this one"
                                )),
                                None => Bump::Compatible(Some(described)),
                            },
                        }
                    }
                    _ => Bump::PendingZero(described),
                }
            }
            Some(before) if !module_path && numbers(&after) < numbers(&before) => Bump::MovedBack {
                described,
                from: before,
                to: after,
            },
            _ => Bump::Compatible(Some(described)),
        };
    }
    // No manifest writes a version: the package's tags are where it lives.
    if let Some(package) = package_of(path, grammar, head)
        && let Some(tag) = last_tag(&package)
    {
        if let Some(zero) = zero_by_tags(&package, last_tag, head_release) {
            return zero;
        }
        return if towards_a_break(&tag) {
            Bump::Developing(format!(
                "{}: its last tag {tag} is a development version of a release that may break",
                if package.root.is_empty() {
                    "the repository"
                } else {
                    &package.root
                }
            ))
        } else {
            Bump::Compatible(Some(format!("last tag {tag}")))
        };
    }
    Bump::Compatible(None)
}

/// Whether a Go module (`manifest`, its path `module`) whose last tag reachable from the base
/// is `tag` is developing a breaking release. A Go module's version is its tags: a
/// pre-release of a breaking release (`v3.0.0-beta1`) is that release in development, like
/// `3.0.0.dev0` written in another manifest; so is a path naming a major above the last
/// tag's (`/v3` while the last tag is v2.51.0): no v3 has shipped, and its first release is
/// the breaking one. v0 and v1 share a path without a suffix: only a `/vN` from 2 up names a
/// major of its own.
fn module_developing(manifest: &str, module: &str, tag: &str) -> Option<Bump> {
    if towards_a_break(tag) {
        return Some(Bump::Developing(format!(
            "{manifest}: its last tag {tag} is a development version of a release that may break"
        )));
    }
    let major = module_major(module);
    (major >= 2 && major > numbers(tag)[0]).then(|| {
        Bump::Developing(format!(
            "{manifest}: its path names v{major}, which no tag has released yet (last tag \
             {tag}): a development version of a release that may break"
        ))
    })
}

/// What the tags of a package whose version lives only in them say when they allow a break:
/// a range ending at the package's release that is a breaking step (ppxlib 0.37.0..0.38.0, a
/// 0.x minor) is [`Bump::Breaking`]; a 0.x project, whose last tag is `v0`, `v0.1` or
/// `v0.1.2` (google/uuid before its v1.0.0), is [`Bump::PendingZero`]: its next 0.x minor may
/// break, and a change not at a release has not chosen that version yet. `None` otherwise.
fn zero_by_tags(package: &Package, last_tag: LastTag, head_release: LastTag) -> Option<Bump> {
    let tag = last_tag(package)?;
    match head_release(package) {
        Some(after) if breaking(Versioning::Semantic, &tag, &after) => {
            return Some(Bump::Breaking(format!("release tags: {tag} → {after}")));
        }
        // A release that is no breaking step chose its version: compatible.
        Some(_) => return None,
        None => {}
    }
    (numbers(&tag)[0] == 0 && !towards_a_break(&tag))
        .then(|| Bump::PendingZero(format!("last tag {tag}, a 0.x version")))
}

/// The manifests of `grammar`'s packages that may hold `path`, nearest folder first: each
/// as its folder (`""` at the root) and its kind.
fn manifests_above(
    path: &str,
    grammar: Grammar,
) -> impl Iterator<Item = (String, &'static Manifest)> {
    let kinds = lang::of(grammar).map_or(&[][..], |language| language.manifests());
    let dirs: Vec<&str> = parent_dir(path)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    let roots: Vec<String> = (0..=dirs.len())
        .rev()
        .map(|depth| dirs[..depth].join("/"))
        .collect();
    roots
        .into_iter()
        .flat_map(move |root| kinds.iter().map(move |kind| (root.clone(), kind)))
}

/// The manifest of kind `kind` in the folder `root` of `files`: its path and text. A kind
/// named by an extension (`*.cabal`) is any file of the folder with it; of several (a
/// development rockspec beside a released one), the one writing the highest version.
fn manifest_in(root: &str, kind: &Manifest, files: Files) -> Option<(String, String)> {
    let at = |name: &str| {
        if root.is_empty() {
            name.to_string()
        } else {
            format!("{root}/{name}")
        }
    };
    let Some(extension) = kind.file.strip_prefix('*') else {
        let path = at(kind.file);
        return (files.read)(&path).map(|text| (path, text));
    };
    (files.list)(root)
        .iter()
        .filter(|name| name.len() > extension.len() && name.ends_with(extension))
        .filter_map(|name| {
            let path = at(name);
            let text = (files.read)(&path)?;
            let version = (kind.version)(&text, root, files.read).map(|v| numbers(&v));
            Some((version, path, text))
        })
        // Of equal versions, the first by name.
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
        .map(|(_, path, text)| (path, text))
}

/// The package holding `path`: the nearest manifest of its language above it that names one
/// (a workspace's root manifest does not). `files` are the head's.
pub(crate) fn package_of(path: &str, grammar: Grammar, files: Files) -> Option<Package> {
    let mut any_manifest = false;
    for (root, kind) in manifests_above(path, grammar) {
        let Some((_, text)) = manifest_in(&root, kind, files) else {
            continue;
        };
        any_manifest = true;
        let (package, named) = named_package(kind, &text, &root);
        if named {
            return Some(package);
        }
    }
    // Go before modules (GOPATH; echo v2 and testify v1 in 2016-17): no `go.mod` above the
    // file (the loop read every one), and the repository's own tags are its versions, as
    // `go get` read them.
    let bare = lang::of(grammar).is_some_and(|l| l.tags_version_a_bare_repository());
    (bare && !any_manifest).then(|| Package {
        root: String::new(),
        names: Vec::new(),
        written: None,
    })
}

/// The manifest that names the package holding `path` (as [`package_of`] finds it): its
/// path and the names it gives the package.
pub(super) struct Owner {
    pub manifest: String,
    pub names: Vec<String>,
}

/// The [`Owner`] of `path` in `files`.
pub(super) fn owner_of(path: &str, grammar: Grammar, files: Files) -> Option<Owner> {
    manifests_above(path, grammar).find_map(|(root, kind)| {
        let (manifest, text) = manifest_in(&root, kind, files)?;
        let mut names = (kind.names)(&text);
        names.retain(|n| !n.is_empty());
        (!names.is_empty()).then_some(Owner { manifest, names })
    })
}

/// The package whose manifest `manifest`, in the folder `root`, reads `text`.
fn package_named(manifest: &'static Manifest, text: &str, root: &str) -> Package {
    named_package(manifest, text, root).0
}

/// [`package_named`], and whether the manifest named it.
fn named_package(manifest: &'static Manifest, text: &str, root: &str) -> (Package, bool) {
    let mut names = (manifest.names)(text);
    names.retain(|n| !n.is_empty());
    let named = !names.is_empty();
    if !root.is_empty() {
        names.push(root.to_string());
        names.push(root.rsplit('/').next().unwrap_or(root).to_string());
    }
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(n.clone()));
    (
        Package {
            root: root.to_string(),
            names,
            written: Some(Written(manifest)),
        },
        named,
    )
}

/// Whether `version` is a development or pre-release version (`.dev0`, `-dev`, `rc1`,
/// `-alpha.2`, `b3`, `-SNAPSHOT`) of a release that may break: `X.0.0` above 1.0, or below 1.0 a new minor
/// (`0.14.0`) or any `0.0.z` (Cargo's rule, the one `breaking` applies).
fn towards_a_break(version: &str) -> bool {
    let version = version.trim_start_matches('v');
    let release_len = version
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(version.len());
    let (release, rest) = version.split_at(release_len);
    let pre = rest
        .trim_start_matches(['.', '-', '_'])
        .to_ascii_lowercase();
    // Python's `.devN`/`aN`/`bN`/`rcN`, SemVer's `-alpha.1`, Maven's `-SNAPSHOT`.
    let marked = [
        "dev", "a", "alpha", "b", "beta", "rc", "c", "pre", "preview", "snapshot",
    ]
    .iter()
    .any(|m| {
        pre.strip_prefix(m)
            .is_some_and(|after| after.is_empty() || !after.starts_with(char::is_alphabetic))
    });
    if !marked {
        return false;
    }
    let n = numbers(release.trim_end_matches('.'));
    let at = |i: usize| n.get(i).copied().unwrap_or(0);
    match (at(0), at(1), at(2)) {
        (0, 0, _) => true,
        (0, _, patch) => patch == 0,
        (_, minor, patch) => minor == 0 && patch == 0,
    }
}

/// Major, minor and patch of `version`, a part it does not write as 0 (`v0` is 0.0.0, as
/// `v0.1` is 0.1.0).
fn numbers(version: &str) -> Vec<u64> {
    let mut numbers: Vec<u64> = version
        .trim_start_matches('v')
        .split(['.', '-', '+'])
        .take(3)
        .map(|p| {
            p.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap_or(0)
        })
        .collect();
    numbers.resize(3, 0);
    numbers
}

/// The major a Go module path names: its `/vN` suffix, 1 without one (v0 and v1 share it).
fn module_major(module: &str) -> u64 {
    module
        .rsplit('/')
        .next()
        .and_then(|last| last.strip_prefix('v'))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(1)
}

/// Whether going from `before` to `after` allows a break.
fn breaking(versioning: Versioning, before: &str, after: &str) -> bool {
    if versioning == Versioning::ModulePath {
        return module_major(after) > module_major(before);
    }
    let (b, a) = (numbers(before), numbers(after));
    let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    if versioning == Versioning::Pvp {
        return (at(&a, 0), at(&a, 1)) > (at(&b, 0), at(&b, 1));
    }
    if at(&a, 0) != at(&b, 0) {
        return at(&a, 0) > at(&b, 0);
    }
    if at(&a, 0) == 0 {
        if at(&a, 1) != at(&b, 1) {
            return at(&a, 1) > at(&b, 1);
        }
        return at(&a, 1) == 0 && at(&a, 2) > at(&b, 2);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`super::bump`] on a range that ends at no release.
    fn bump(
        path: &str,
        grammar: Grammar,
        head: Files,
        base: Files,
        last_tag: LastTag,
        released: LastTag,
    ) -> Bump {
        super::bump(
            path,
            grammar,
            head,
            base,
            TagsSay {
                last: last_tag,
                released,
                head_release: &|_| None,
                released_beside: &|_, _| None,
            },
        )
    }

    /// A package versioned by its tags alone (ppxlib's `dune-project` writes none): a range
    /// ending at its release compares that release's tag with the last one before.
    #[test]
    fn a_range_ending_at_a_release_of_a_tagged_package_compares_the_tags() {
        let project = files(&[("dune-project", "(lang dune 3.8)\n(name ppxlib)\n")]);
        let at = |last: &'static str, head: Option<&'static str>| {
            super::bump(
                "astlib/stdlib0.ml",
                Grammar::OCaml,
                project,
                project,
                TagsSay {
                    last: &move |_| Some(last.to_string()),
                    released: &|_| None,
                    head_release: &move |_| head.map(str::to_string),
                    released_beside: &|_, _| None,
                },
            )
        };
        assert_eq!(
            at("0.37.0", Some("0.38.0")),
            Bump::Breaking("release tags: 0.37.0 → 0.38.0".into())
        );
        assert_eq!(
            at("0.37.0", Some("0.37.1")),
            Bump::Compatible(Some("last tag 0.37.0".into()))
        );
        assert_eq!(
            at("1.2.0", None),
            Bump::Compatible(Some("last tag 1.2.0".into()))
        );
    }

    /// The registered manifest called `file`.
    fn manifest_named(file: &str) -> &'static Manifest {
        lang::LANGUAGES
            .iter()
            .flat_map(|language| language.manifests())
            .find(|manifest| manifest.file == file)
            .unwrap_or_else(|| panic!("no manifest {file}"))
    }

    fn version_of(file: &str, text: &str, root: &str, read: Read) -> Option<String> {
        (manifest_named(file).version)(text, root, read)
    }

    #[test]
    fn the_new_languages_manifests_name_and_version_their_packages() {
        for (manifest, text, name, version) in [
            (
                "pubspec.yaml",
                "name: args\nversion: 2.6.0\n",
                "args",
                "2.6.0",
            ),
            (
                "mix.exs",
                "defmodule Plug.MixProject do\n  @version \"1.16.1\"\n  def project do\n    [\n      app: :plug,\n      version: @version,\n    ]\n  end\nend\n",
                "plug",
                "1.16.1",
            ),
            (
                "build.sbt",
                "name := \"router\"\nThisBuild / version := \"0.4.0\"\n",
                "router",
                "0.4.0",
            ),
            (
                "build.zig.zon",
                ".{\n    .name = .parser,\n    .version = \"0.3.1\",\n}\n",
                "parser",
                "0.3.1",
            ),
            (
                "opam",
                "opam-version: \"2.0\"\nname: \"lwt\"\nversion: \"5.7.0\"\n",
                "lwt",
                "5.7.0",
            ),
            (
                "dune-project",
                "(lang dune 3.0)\n(name ppxlib)\n(version 0.36.0)\n",
                "ppxlib",
                "0.36.0",
            ),
        ] {
            assert_eq!(
                package_named(manifest_named(manifest), text, "").names,
                vec![name],
                "{manifest}"
            );
            assert_eq!(
                version_of(manifest, text, "", &|_| None).as_deref(),
                Some(version),
                "{manifest}"
            );
        }
    }

    /// A `.cabal` file has its package's name and a rockspec its version in its file name: both
    /// are found by listing the folder at each side (a rockspec is another file once bumped).
    /// Cabal versions follow the PVP, whose major is `A.B`.
    #[test]
    fn manifests_named_for_their_package_are_found_by_listing() {
        let cabal =
            |version: &str| format!("cabal-version: 2.2\nName: filepath\nVersion: {version}\n");
        let haskell = |before: &str, after: &str| {
            let (base, head) = (cabal(before), cabal(after));
            bump(
                "System/OsPath/Internal.hs",
                Grammar::Haskell,
                files(&[("filepath.cabal", &head), ("System/OsPath/Internal.hs", "")]),
                files(&[("filepath.cabal", &base)]),
                &|_| None,
                &|_| None,
            )
        };
        assert_eq!(
            haskell("1.4.200.0", "1.5.0.0"),
            Bump::Breaking("filepath.cabal: 1.4.200.0 → 1.5.0.0".into())
        );
        assert!(matches!(
            haskell("1.4.200.0", "1.4.201.0"),
            Bump::Compatible(Some(_))
        ));
        assert!(matches!(
            haskell("0.3.0.0", "0.3.0.0"),
            Bump::PendingZero(_)
        ));
        let head = cabal("1.5.0.0");
        let package = package_of(
            "System/FilePath.hs",
            Grammar::Haskell,
            files(&[("filepath.cabal", &head)]),
        );
        assert_eq!(package.map(|p| p.names), Some(vec!["filepath".to_string()]));

        let rockspec = |version: &str| format!("package = \"parser\"\nversion = \"{version}-1\"\n");
        let (old, new) = (rockspec("1.2.0"), rockspec("2.0.0"));
        let development = "package = \"parser\"\nversion = \"scm-1\"\n";
        let lua = bump(
            "parser/init.lua",
            Grammar::Lua,
            files(&[
                ("parser-2.0.0-1.rockspec", &new),
                ("parser-scm-1.rockspec", development),
            ]),
            files(&[
                ("parser-1.2.0-1.rockspec", &old),
                ("parser-scm-1.rockspec", development),
            ]),
            &|_| None,
            &|_| None,
        );
        assert_eq!(
            lua,
            Bump::Breaking("parser-2.0.0-1.rockspec: 1.2.0 → 2.0.0".into())
        );
        // Only a development rockspec: the version is in the tags.
        let tagged = bump(
            "parser/init.lua",
            Grammar::Lua,
            files(&[("parser-scm-1.rockspec", development)]),
            files(&[("parser-scm-1.rockspec", development)]),
            &|package| (package.names == ["parser"]).then(|| "v1.3.0".to_string()),
            &|_| None,
        );
        assert_eq!(tagged, Bump::Compatible(Some("last tag v1.3.0".into())));
    }

    #[test]
    fn break_bumps() {
        assert!(breaking(Versioning::Semantic, "1.4.0", "2.0.0"));
        assert!(breaking(Versioning::Semantic, "0.3.2", "0.4.0"));
        assert!(breaking(Versioning::Semantic, "0.0.1", "0.0.2"));
        assert!(!breaking(Versioning::Semantic, "1.4.0", "1.5.0"));
        assert!(!breaking(Versioning::Semantic, "0.3.2", "0.3.3"));
        assert!(!breaking(Versioning::Semantic, "1.4.0", "1.4.0"));
        assert!(breaking(
            Versioning::ModulePath,
            "github.com/a/b",
            "github.com/a/b/v2"
        ));
        assert!(!breaking(
            Versioning::ModulePath,
            "github.com/a/b/v2",
            "github.com/a/b/v2"
        ));
    }

    #[test]
    fn a_development_version_of_a_breaking_release_allows_a_break() {
        for towards in [
            "3.0.0.dev0",
            "3.0.dev",
            "2.0.0-rc.1",
            "2.0.0rc1",
            "1.0.0-alpha",
            "0.14.dev",
            "0.12-dev",
            "0.3.0b2",
            "0.0.4-pre",
            "1.0.0-SNAPSHOT",
        ] {
            assert!(towards_a_break(towards), "{towards}");
        }
        for not in [
            "2.2.0.dev0",
            "8.2.0.dev",
            "0.14.1.dev0",
            "3.0.0",
            "0.14.0",
            "1.4.0-rc.1",
            "2.0.0.post1",
            "2.0.0+local",
            "1.11.0-SNAPSHOT",
        ] {
            assert!(!towards_a_break(not), "{not}");
        }
        let release = |before: &'static str, after: &'static str| {
            let base = format!("[package]\nname = \"c\"\nversion = \"{before}\"\n");
            let head = format!("[package]\nname = \"c\"\nversion = \"{after}\"\n");
            let base = files(&[("Cargo.toml", &base)]);
            let head = files(&[("Cargo.toml", &head)]);
            bump("src/lib.rs", Grammar::Rust, head, base, &|_| None, &|_| {
                None
            })
        };
        assert!(matches!(release("3.0.0-rc.2", "3.0.0"), Bump::Breaking(_)));
        assert!(matches!(
            release("2.4.0", "3.0.0-alpha.1"),
            Bump::Breaking(_)
        ));
        assert!(matches!(
            release("2.4.0-rc.1", "2.4.0"),
            Bump::Compatible(_)
        ));
    }

    /// A repository holding `entries` (path, text), as the version rules read one side.
    fn files(entries: &[(&str, &str)]) -> Files<'static> {
        let entries: Vec<(String, String)> = entries
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let listed = entries.clone();
        let read = move |path: &str| {
            entries
                .iter()
                .find(|(p, _)| p == path)
                .map(|(_, t)| t.clone())
        };
        let list = move |dir: &str| {
            listed
                .iter()
                .filter(|(p, _)| parent_dir(p) == dir)
                .map(|(p, _)| p.rsplit('/').next().unwrap_or(p).to_string())
                .collect()
        };
        Files {
            read: Box::leak(Box::new(read)),
            list: Box::leak(Box::new(list)),
        }
    }

    #[test]
    fn a_zero_version_left_as_it_was_is_pending_and_a_patch_bump_is_compatible() {
        let range = |before: &str, after: &str| {
            let base = format!("[package]\nname = \"c\"\nversion = \"{before}\"\n");
            let head = format!("[package]\nname = \"c\"\nversion = \"{after}\"\n");
            let base = files(&[("Cargo.toml", &base)]);
            let head = files(&[("Cargo.toml", &head)]);
            bump("src/lib.rs", Grammar::Rust, head, base, &|_| None, &|_| {
                None
            })
        };
        assert_eq!(
            range("0.1.17", "0.1.17"),
            Bump::PendingZero("Cargo.toml 0.1.17".into())
        );
        // Cargo and npm treat 0.1.17 → 0.1.18 as compatible: a break there is not allowed.
        assert!(matches!(range("0.1.17", "0.1.18"), Bump::Compatible(_)));
        assert!(matches!(range("0.1.18", "0.2.0"), Bump::Breaking(_)));
        // ≥ 1.0 unchanged: as before.
        assert!(matches!(range("1.4.0", "1.4.0"), Bump::Compatible(_)));
    }

    #[test]
    fn a_maven_module_without_a_version_has_its_parents() {
        // guice 2014 (#902): `core/pom.xml` inherits 4.0-SNAPSHOT from its parent, and its
        // first `<version>` outside `<parent>` is a dependency's.
        let core = "<?xml version=\"1.0\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n\
            \x20 <!-- <version>9.9</version> -->\n  <parent>\n    <groupId>com.google.inject</groupId>\n\
            \x20   <artifactId>guice-parent</artifactId>\n    <version>4.0-SNAPSHOT</version>\n  </parent>\n\
            \x20 <artifactId>guice</artifactId>\n  <dependencies>\n    <dependency>\n\
            \x20     <artifactId>spring-beans</artifactId>\n      <version>3.0.5.RELEASE</version>\n\
            \x20   </dependency>\n  </dependencies>\n</project>\n";
        assert_eq!(
            version_of("pom.xml", core, "core", &|_| None).as_deref(),
            Some("4.0-SNAPSHOT")
        );
        let own = core.replace(
            "<artifactId>guice</artifactId>",
            "<artifactId>guice</artifactId>\n  <version>4.1.0</version>",
        );
        assert_eq!(
            version_of("pom.xml", &own, "core", &|_| None).as_deref(),
            Some("4.1.0")
        );
        // commons-collections4 is tagged `commons-collections-4.4`; guice has no digits.
        let collections = "<project>\n  <parent>\n    <artifactId>commons-parent</artifactId>\n\
            \x20   <version>53</version>\n  </parent>\n  <artifactId>commons-collections4</artifactId>\n\
            \x20 <version>4.5-SNAPSHOT</version>\n</project>\n";
        let names = package_named(manifest_named("pom.xml"), collections, "").names;
        assert!(
            names.iter().any(|n| n == "commons-collections"),
            "{names:?}"
        );
        assert!(
            names.iter().any(|n| n == "commons-collections4"),
            "{names:?}"
        );
        let names = package_named(manifest_named("pom.xml"), core, "core").names;
        assert!(!names.iter().any(|n| n == "guic"), "{names:?}");
        let head = files(&[("core/pom.xml", core)]);
        assert!(matches!(
            bump("core/src/com/google/inject/Binder.java", Grammar::Java, head, head, &|_| None, &|_| None),
            Bump::Developing(v) if v.contains("4.0-SNAPSHOT")
        ));
    }

    #[test]
    fn a_python_version_read_at_build_time_is_found_in_the_package() {
        // werkzeug's setup.py reads `__version__` from the package with a regex.
        let setup = "with open('werkzeug/__init__.py') as f:\n    version = re.search(r'x', f.read()).group(1)\nsetup(name='Werkzeug', version=version)\n";
        let dev = files(&[
            ("setup.py", setup),
            ("werkzeug/__init__.py", "__version__ = '0.14.dev'\n"),
            ("werkzeug/datastructures.py", ""),
        ]);
        let released = files(&[
            ("setup.py", setup),
            ("werkzeug/__init__.py", "__version__ = '0.13.1'\n"),
        ]);
        assert!(matches!(
            bump(
                "werkzeug/datastructures.py",
                Grammar::Python,
                dev,
                dev,
                &|_| None,
                &|_| None
            ),
            Bump::Developing(v) if v.contains("0.14.dev")
        ));
        assert_eq!(
            bump(
                "werkzeug/datastructures.py",
                Grammar::Python,
                released,
                released,
                &|_| None,
                &|_| None
            ),
            // 0.x left as it was: the next version is not chosen yet.
            Bump::PendingZero("werkzeug/__init__.py 0.13.1".to_string())
        );
        // A src layout with the version in `__about__.py` (hatch), and a minor in development.
        let about = files(&[
            (
                "pyproject.toml",
                "[project]\nname = \"p\"\ndynamic = [\"version\"]\n",
            ),
            ("src/p/__init__.py", "from .__about__ import __version__\n"),
            ("src/p/__about__.py", "__version__: str = \"2.3.0.dev0\"\n"),
        ]);
        assert_eq!(
            bump(
                "src/p/sub/mod.py",
                Grammar::Python,
                about,
                about,
                &|_| None,
                &|_| None
            ),
            Bump::Compatible(Some("src/p/__about__.py 2.3.0.dev0".to_string()))
        );
        // Not Python: no package walk.
        assert_eq!(
            bump(
                "src/p/mod.rs",
                Grammar::Rust,
                about,
                about,
                &|_| None,
                &|_| None
            ),
            Bump::Compatible(None)
        );
    }
}
