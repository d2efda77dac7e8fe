//! apiContract and the releases the base descends from, on real git repositories with tags:
//! what no release shipped cannot break anyone (bytes #710: `Bytes::make_mut`, added after
//! 1.6.0 and taken back before any release), a Go module's pre-release lives in its tags
//! (urfave/cli #2043 on `v3.0.0-beta1`), and a tag that proves nothing changes nothing.

use crate::cohort::tests::repo::{Repo, git};
use crate::review::axes::{API_CONTRACT, Axis, AxisVerdict};

/// A file of a test repository: its path and its text.
type File<'a> = (&'a str, &'a str);

/// A history on `main`: `released` committed (and tagged with each of `tags`), then `since`
/// committed; the PR branches there and commits `changes`. Returns the axis and the
/// repository, for more branches and tags.
fn after_release(
    released: &[(&str, &str)],
    tags: &[&str],
    since: &[(&str, &str)],
    changes: &[(&str, &str)],
) -> Axis {
    let repo = Repo::new(released);
    git(&repo.path(), &["checkout", "-q", "main"]);
    for tag in tags {
        git(&repo.path(), &["tag", "-a", "-m", tag, tag]);
    }
    for (path, content) in since {
        repo.write(path, content);
    }
    repo.commit("since the release");
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    for (path, content) in changes {
        repo.write(path, content);
    }
    repo.commit("change");
    axis(&repo)
}

/// The apiContract axis of `repo`'s review.
pub(super) fn axis(repo: &Repo) -> Axis {
    repo.build()
        .axes
        .into_iter()
        .find(|a| a.name == API_CONTRACT)
        .unwrap()
}

const CARGO: &str = "[package]\nname = \"bytes\"\nversion = \"1.6.0\"\nedition = \"2021\"\n";
const LIB: &str = "mod bytes;\npub use crate::bytes::Bytes;\n";
const BYTES: &str = "pub struct Bytes {\n    len: usize,\n}\n\nimpl Bytes {\n    pub fn len(&self) -> usize {\n        self.len\n    }\n}\n";
/// `make_mut` added after the release (#695).
const WITH_MAKE_MUT: &str = "pub struct Bytes {\n    len: usize,\n}\n\nimpl Bytes {\n    pub fn len(&self) -> usize {\n        self.len\n    }\n\n    pub fn make_mut(self) -> Vec<u8> {\n        Vec::new()\n    }\n}\n";

fn crate_at(bytes: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("Cargo.toml", CARGO),
        ("src/lib.rs", LIB),
        ("src/bytes.rs", bytes),
    ]
}

#[test]
fn an_item_added_after_the_last_release_and_removed_before_the_next_is_not_a_break() {
    let axis = after_release(
        &crate_at(BYTES),
        &["v1.6.0"],
        &[("src/bytes.rs", WITH_MAKE_MUT)],
        &[("src/bytes.rs", BYTES)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    for part in [
        "before any release shipped them",
        "`Bytes::make_mut` removed",
        "not in v1.6.0, the last release",
    ] {
        assert!(
            axis.detail.contains(part),
            "{part:?} not in {}",
            axis.detail
        );
    }
}

#[test]
fn an_item_the_last_release_had_still_fails() {
    // `len` was in v1.6.0: removing it breaks its users, tags or not.
    let without_len = WITH_MAKE_MUT.replace(
        "    pub fn len(&self) -> usize {\n        self.len\n    }\n\n",
        "",
    );
    let axis = after_release(
        &crate_at(BYTES),
        &["v1.6.0"],
        &[("src/bytes.rs", WITH_MAKE_MUT)],
        &[("src/bytes.rs", &without_len)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    assert!(
        axis.detail.contains("`Bytes::len` removed"),
        "{}",
        axis.detail
    );
    assert!(!axis.detail.contains("make_mut"), "{}", axis.detail);
}

#[test]
fn without_a_version_tag_a_removal_fails_as_before() {
    // No tag, a tag whose name is no version, and a version tag naming a blob: no release is
    // known, so nothing can be called unreleased.
    for tags in [&[][..], &["latest"][..]] {
        let axis = after_release(
            &crate_at(BYTES),
            tags,
            &[("src/bytes.rs", WITH_MAKE_MUT)],
            &[("src/bytes.rs", BYTES)],
        );
        assert_eq!(axis.verdict, AxisVerdict::Fail, "{tags:?}: {}", axis.detail);
    }
    let repo = Repo::new(&crate_at(WITH_MAKE_MUT));
    let blob = git(&repo.path(), &["hash-object", "-w", "Cargo.toml"]);
    git(&repo.path(), &["tag", "v1.6.0", &blob]);
    repo.write("src/bytes.rs", BYTES);
    repo.commit("change");
    let range = super::releases::axis(&repo);
    assert_eq!(range.verdict, AxisVerdict::Fail, "{}", range.detail);
}

#[test]
fn only_a_release_the_base_descends_from_counts() {
    // v1.6.0 has `make_mut`. A later tag made on a branch the base never saw (where it was
    // never added) says nothing about what v1.6.0's users have: the removal still fails.
    let repo = Repo::new(&crate_at(BYTES));
    git(&repo.path(), &["checkout", "-q", "main"]);
    repo.write("src/bytes.rs", WITH_MAKE_MUT);
    repo.commit("add make_mut");
    git(&repo.path(), &["tag", "v1.6.0"]);
    git(
        &repo.path(),
        &["checkout", "-q", "-b", "elsewhere", "main~1"],
    );
    repo.write("README.md", "elsewhere\n");
    repo.commit("on another branch");
    git(&repo.path(), &["tag", "v1.7.0"]);
    git(&repo.path(), &["checkout", "-q", "-B", "pr", "main"]);
    repo.write("src/bytes.rs", BYTES);
    repo.commit("change");
    let axis = axis(&repo);
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    assert!(
        axis.detail.contains("`Bytes::make_mut` removed"),
        "{}",
        axis.detail
    );
}

#[test]
fn a_monorepo_package_reads_the_tags_named_after_it() {
    // tokio's tags: `tokio-1.40.0`, `tokio-util-0.7.0`. The crate in `bytes/` was released
    // as `bytes-1.6.0`; the later `bytes-util-2.0.0` (another crate, tagged after `make_mut`
    // was added) is not its release.
    let cargo = CARGO.replace("1.6.0", "1.6.1");
    let util_cargo = "[package]\nname = \"bytes-util\"\nversion = \"2.0.0\"\n";
    let files = |bytes: &'static str| {
        vec![
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"bytes\", \"bytes-util\"]\n",
            ),
            ("bytes/Cargo.toml", cargo.as_str()),
            ("bytes/src/lib.rs", LIB),
            ("bytes/src/bytes.rs", bytes),
            ("bytes-util/Cargo.toml", util_cargo),
            ("bytes-util/src/lib.rs", "pub fn util() {}\n"),
        ]
    };
    let repo = Repo::new(&files(BYTES));
    git(&repo.path(), &["checkout", "-q", "main"]);
    git(&repo.path(), &["tag", "bytes-1.6.0"]);
    repo.write("bytes/src/bytes.rs", WITH_MAKE_MUT);
    repo.commit("add make_mut");
    git(&repo.path(), &["tag", "bytes-util-2.0.0"]);
    // A bare tag belongs to the package at the repository's root, which is none here.
    git(&repo.path(), &["tag", "v9.0.0"]);
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    repo.write("bytes/src/bytes.rs", BYTES);
    repo.commit("change");
    let axis = axis(&repo);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains("not in bytes-1.6.0, the last release"),
        "{}",
        axis.detail
    );
}

const GO_MOD: &str = "module example.com/cli/v3\n\ngo 1.22\n";
// `Walk` takes a `Routes` users implement: a method added to it breaks their code.
const ROUTES: &str =
    "package cli\n\ntype Routes interface {\n\tRoutes() []string\n}\n\nfunc Walk(r Routes) {}\n";
const ROUTES_FIND: &str = "package cli\n\ntype Routes interface {\n\tRoutes() []string\n\tFind(path string) string\n}\n\nfunc Walk(r Routes) {}\n";

#[test]
fn a_go_modules_version_is_its_last_tag_and_a_pre_release_allows_a_break() {
    // urfave/cli #2043 added an interface method on `v3.0.0-beta1`; chi #872 did so on
    // v5.0.8, a release: that one still fails.
    let files = [("go.mod", GO_MOD), ("routes.go", ROUTES)];
    let beta = after_release(
        &files,
        &["v3.0.0-beta1"],
        &[],
        &[("routes.go", ROUTES_FIND)],
    );
    assert_eq!(beta.verdict, AxisVerdict::Warn, "{}", beta.detail);
    assert!(
        beta.detail
            .contains("go.mod: its last tag v3.0.0-beta1 is a development version"),
        "{}",
        beta.detail
    );
    for tags in [&["v3.1.0"][..], &[][..], &["v3.0.0-beta1", "v3.0.0"][..]] {
        let released = after_release(&files, tags, &[], &[("routes.go", ROUTES_FIND)]);
        assert_eq!(
            released.verdict,
            AxisVerdict::Fail,
            "{tags:?}: {}",
            released.detail
        );
    }
}

/// A Go module path naming a major no tag has released (`/v3` while the last tag reachable
/// is v2.51.0, or a v3.0.0-beta): the module is that major in development, and its first
/// release is the breaking one. Once v3.0.0 is tagged its minors keep compatibility again;
/// a path without a major suffix (v0 or v1) is read as before.
#[test]
fn a_go_module_path_naming_an_unreleased_major_is_that_major_in_development() {
    let v2 = "module example.com/cli/v2\n\ngo 1.22\n";
    let routes = "package cli\n\nfunc Routes() []string {\n\treturn nil\n}\n\nfunc Find(path string) string {\n\treturn path\n}\n";
    let removed = "package cli\n\nfunc Routes() []string {\n\treturn nil\n}\n";
    let files = [("go.mod", v2), ("routes.go", routes)];
    let on_v3 = [("go.mod", GO_MOD)];
    for tags in [&["v2.5.0"][..], &["v2.5.0", "v3.0.0-beta.1"][..]] {
        let developing = after_release(&files, tags, &on_v3, &[("routes.go", removed)]);
        assert_eq!(
            developing.verdict,
            AxisVerdict::Warn,
            "{tags:?}: {}",
            developing.detail
        );
        assert!(
            developing.detail.contains("`Find` removed")
                && developing.detail.contains("development"),
            "{tags:?}: {}",
            developing.detail
        );
    }
    // v3 released: a break in a v3 minor fails.
    let released = after_release(
        &[("go.mod", GO_MOD), ("routes.go", routes)],
        &["v2.5.0", "v3.0.0"],
        &[],
        &[("routes.go", removed)],
    );
    assert_eq!(released.verdict, AxisVerdict::Fail, "{}", released.detail);
    // No major suffix: v1's tags are its releases.
    let v1 = [
        ("go.mod", "module example.com/cli\n\ngo 1.22\n"),
        ("routes.go", routes),
    ];
    let released = after_release(&v1, &["v1.4.0"], &[], &[("routes.go", removed)]);
    assert_eq!(released.verdict, AxisVerdict::Fail, "{}", released.detail);
}

#[test]
fn a_go_package_outside_any_module_is_versioned_by_the_repositorys_tags() {
    // echo 2016 (before Go modules): `Context.Cookie` changed on `v2.0.0-beta.2`, a
    // pre-release of v2; testify 2017: goconvey-style helpers added after v1.1.4 and reverted
    // before v1.2.0. Neither repository had a `go.mod`.
    let files = [("routes.go", ROUTES)];
    let beta = after_release(
        &files,
        &["v2.0.0-beta.2"],
        &[],
        &[("routes.go", ROUTES_FIND)],
    );
    assert_eq!(beta.verdict, AxisVerdict::Warn, "{}", beta.detail);
    assert!(
        beta.detail
            .contains("its last tag v2.0.0-beta.2 is a development version"),
        "{}",
        beta.detail
    );
    let unreleased = after_release(
        &[("mock.go", "package mock\n\nfunc Called() {}\n")],
        &["v1.1.4"],
        &[(
            "mock.go",
            "package mock\n\nfunc Called() {}\n\nfunc MethodWasCalled() {}\n",
        )],
        &[("mock.go", "package mock\n\nfunc Called() {}\n")],
    );
    assert_eq!(
        unreleased.verdict,
        AxisVerdict::Warn,
        "{}",
        unreleased.detail
    );
    assert!(
        unreleased.detail.contains("not in v1.1.4"),
        "{}",
        unreleased.detail
    );
    // A release tag, or no tag at all: the break fails as before.
    for tags in [&["v1.1.4"][..], &[][..]] {
        let released = after_release(&files, tags, &[], &[("routes.go", ROUTES_FIND)]);
        assert_eq!(
            released.verdict,
            AxisVerdict::Fail,
            "{tags:?}: {}",
            released.detail
        );
    }
}

#[test]
fn a_release_made_on_another_branch_after_the_last_one_counts_too() {
    // bytes' v1.6.1 was made on a release branch beside main's history. Had it shipped
    // `make_mut` by a backport, its users would have it: the removal fails. Without it, the
    // removal is still not a break, and the detail says v1.6.1 was read.
    for backported in [true, false] {
        let repo = Repo::new(&crate_at(BYTES));
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "v1.6.0"]);
        git(&repo.path(), &["checkout", "-q", "-b", "v1.6.x"]);
        if backported {
            repo.write("src/bytes.rs", WITH_MAKE_MUT);
        } else {
            repo.write("README.md", "a fix\n");
        }
        repo.commit("backport");
        git(&repo.path(), &["tag", "v1.6.1"]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        repo.write("src/bytes.rs", WITH_MAKE_MUT);
        repo.commit("add make_mut");
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write("src/bytes.rs", BYTES);
        repo.commit("change");
        // A later release of this line (after the base) cannot have shipped what the PR
        // removes before it: it is not read.
        git(&repo.path(), &["tag", "v1.7.0"]);
        let axis = axis(&repo);
        if backported {
            assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
        } else {
            assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
            assert!(
                axis.detail.contains(
                    "not in v1.6.0, the last release, nor in v1.6.1 (released on another branch)"
                ),
                "{}",
                axis.detail
            );
        }
    }
}

#[test]
fn every_line_of_release_behind_the_base_counts() {
    // tokio merges its LTS branches back: v1.5.1, released from a branch with `make_mut`, is
    // behind the base as much as v1.6.0 is, and is not behind v1.6.0. Its users have
    // `make_mut`, whatever the newer release lacks.
    let repo = Repo::new(&crate_at(BYTES));
    git(&repo.path(), &["checkout", "-q", "main"]);
    git(&repo.path(), &["tag", "v1.5.0"]);
    git(&repo.path(), &["checkout", "-q", "-b", "v1.5.x"]);
    repo.write("src/bytes.rs", WITH_MAKE_MUT);
    repo.commit("backport make_mut");
    git(&repo.path(), &["tag", "v1.5.1"]);
    git(&repo.path(), &["checkout", "-q", "main"]);
    repo.write("README.md", "1.6\n");
    repo.commit("release 1.6");
    git(&repo.path(), &["tag", "v1.6.0"]);
    git(&repo.path(), &["merge", "-q", "--no-edit", "v1.5.x"]);
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    repo.write("src/bytes.rs", BYTES);
    repo.commit("change");
    let axis = axis(&repo);
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    assert!(
        axis.detail.contains("`Bytes::make_mut` removed"),
        "{}",
        axis.detail
    );
}

#[test]
fn a_go_item_counts_as_released_only_if_its_package_directory_had_it() {
    // logrus #943: `terminal.IsTerminal` of golang.org/x/crypto was called from the root
    // package in v1.4.0; the repository's own `terminal/` package with an `IsTerminal` was
    // made after it, and the PR moved its file back to the root, unexported.
    const ROOT: &str = "package logrus\n\nimport \"golang.org/x/crypto/ssh/terminal\"\n\n\
        func checkIfTerminal(fd int) bool {\n\treturn terminal.IsTerminal(fd)\n}\n";
    const OWN: &str = "package terminal\n\nimport \"golang.org/x/sys/unix\"\n\n\
        const ioctlReadTermios = unix.TCGETS\n\nfunc IsTerminal(fd int) bool {\n\
        \t_, err := unix.IoctlGetTermios(fd, ioctlReadTermios)\n\treturn err == nil\n}\n";
    let moved_back = OWN
        .replace("package terminal", "package logrus")
        .replace("IsTerminal", "isTerminal");
    let run = |released_own: bool| {
        let mut released = vec![
            ("go.mod", "module github.com/sirupsen/logrus\n"),
            ("terminal_check.go", ROOT),
        ];
        if released_own {
            released.push(("terminal/terminal_check_unix.go", OWN));
        }
        let repo = Repo::new(&released);
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "-a", "-m", "v1.4.0", "v1.4.0"]);
        repo.write("terminal/terminal_check_unix.go", OWN);
        repo.write("doc.go", "package logrus\n");
        repo.commit("Move terminal package");
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.remove("terminal/terminal_check_unix.go");
        repo.write("terminal_check_unix.go", &moved_back);
        repo.commit("unexport IsTerminal");
        axis(&repo)
    };
    let unreleased = run(false);
    assert_eq!(
        unreleased.verdict,
        AxisVerdict::Warn,
        "{}",
        unreleased.detail
    );
    assert!(
        unreleased.detail.contains("`IsTerminal` removed")
            && unreleased.detail.contains("not in v1.4.0"),
        "{}",
        unreleased.detail
    );
    // Had v1.4.0 shipped the package, its users call `terminal.IsTerminal`: a break.
    let released = run(true);
    assert_eq!(released.verdict, AxisVerdict::Fail, "{}", released.detail);
}

#[test]
fn a_manifest_already_a_breaking_step_above_the_last_release_allows_a_break() {
    // tower #499 and #508 removed combinators on master while `tower/Cargo.toml` said 0.4.0
    // and `tower-0.3.1` was the last release: both shipped in the breaking 0.4.0.
    let manifest =
        |version: &str| format!("[package]\nname = \"tower\"\nversion = \"{version}\"\n");
    let lib = "pub fn with() {}\npub fn map() {}\n";
    let run = |tag: &str, developing: &str| {
        let released = manifest("0.3.1");
        let repo = Repo::new(&[
            ("tower/Cargo.toml", released.as_str()),
            ("tower/src/lib.rs", lib),
        ]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "-a", "-m", tag, tag]);
        repo.write("tower/Cargo.toml", &manifest(developing));
        repo.commit("prepare the next release");
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write("tower/src/lib.rs", "pub fn map() {}\n");
        repo.commit("remove with");
        axis(&repo)
    };
    // A bare tag is the crate's release too when its manifest there writes that version
    // (the crate is in a folder, where a bare tag may be another package's).
    for (tag, version) in [("tower-0.3.1", "0.3.1"), ("v0.3.1", "v0.3.1")] {
        let developing = run(tag, "0.4.0");
        assert_eq!(
            developing.verdict,
            AxisVerdict::Warn,
            "{tag}: {}",
            developing.detail
        );
        assert!(
            developing.detail.contains(&format!(
                "a breaking step above the last release {version},"
            )),
            "{tag}: {}",
            developing.detail
        );
    }
    // A compatible step above the release: the removal fails.
    let axis = run("tower-0.3.1", "0.3.2");
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
}

// more-itertools #875: `strict` was added to `sample` after v10.3.0 and made keyword-only
// before v10.4.0. Against the base it moved; against the release, only a keyword-only
// parameter was added, so what broke was never released.
#[test]
fn a_change_the_released_form_still_accepts_is_not_a_break() {
    const PYPROJECT: &str = "[project]\nname = \"more-itertools\"\nversion = \"10.3.0\"\n";
    let released = "def sample(iterable, k, weights=None):\n    pass\n";
    let since = "def sample(iterable, k, weights=None, strict=False):\n    pass\n";
    let keyword =
        "def sample(iterable, k, weights=None, *, counts=None, strict=False):\n    pass\n";
    let package = |more: &'static str| {
        vec![
            ("pyproject.toml", PYPROJECT),
            ("more_itertools/__init__.py", "from .more import *\n"),
            ("more_itertools/more.py", more),
        ]
    };
    let axis = after_release(
        &package(released),
        &["v10.3.0"],
        &[("more_itertools/more.py", since)],
        &[("more_itertools/more.py", keyword)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    for part in [
        "before any release shipped them",
        "`sample`",
        "not in v10.3.0, the last release, whose `def sample(iterable, k, weights=None)` the head \
         still accepts",
    ] {
        assert!(
            axis.detail.contains(part),
            "{part:?} not in {}",
            axis.detail
        );
    }
    // A change that breaks the released form too still fails: `weights` made keyword-only.
    let breaks = "def sample(iterable, k, *, weights=None, strict=False):\n    pass\n";
    let axis = after_release(
        &package(released),
        &["v10.3.0"],
        &[("more_itertools/more.py", since)],
        &[("more_itertools/more.py", breaks)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
}

// tonic #1154: `generate` gained two required parameters after 0.8.2, and this change took
// one of them back. Against the base a parameter was removed; against the release the head
// still breaks its callers, but so did the base: the break is an earlier change's, and this
// one leaves the release's callers no worse off. It warns; the release's own range still fails.
#[test]
fn a_break_the_base_already_had_against_the_release_is_not_the_changes_own() {
    const PYPROJECT: &str = "[project]\nname = \"codegen\"\nversion = \"1.8.2\"\n";
    let released = "def generate(service, emit):\n    pass\n";
    let since = "def generate(service, emit, transport, comments):\n    pass\n";
    let fewer = "def generate(service, emit, transport):\n    pass\n";
    let package = |text: &'static str| {
        vec![
            ("pyproject.toml", PYPROJECT),
            ("codegen/__init__.py", "from .client import *\n"),
            ("codegen/client.py", text),
        ]
    };
    let axis = after_release(
        &package(released),
        &["v1.8.2"],
        &[("codegen/client.py", since)],
        &[("codegen/client.py", fewer)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    for part in [
        "as the base already was before this change",
        "`generate`",
        "the base already broke v1.8.2, the last release",
    ] {
        assert!(
            axis.detail.contains(part),
            "{part:?} not in {}",
            axis.detail
        );
    }
    // A base the release's callers could still use: the head's break is the change's own.
    let compatible = "def generate(service, emit, transport=None):\n    pass\n";
    let axis = after_release(
        &package(released),
        &["v1.8.2"],
        &[("codegen/client.py", compatible)],
        &[("codegen/client.py", fewer)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    // The release's range compares the released form itself: the break fails there.
    let repo = Repo::new(&package(released));
    git(&repo.path(), &["checkout", "-q", "main"]);
    git(&repo.path(), &["tag", "-a", "-m", "v1.8.2", "v1.8.2"]);
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    repo.write("codegen/client.py", fewer);
    repo.commit("change");
    let range = super::releases::axis(&repo);
    assert_eq!(range.verdict, AxisVerdict::Fail, "{}", range.detail);
}

#[test]
fn a_break_in_a_zero_package_warns_until_its_next_version_is_chosen() {
    // typer #1297 removed `has_rich` from `typer/cli.py` on 0.26.x: SemVer lets the next 0.x
    // minor break, and the PR does not choose the next version.
    let manifest =
        |version: &str| format!("[package]\nname = \"stream\"\nversion = \"{version}\"\n");
    let lib = "pub fn collect() {}\npub fn map() {}\n";
    let run = |next: Option<&str>, tag_head: bool| {
        let released = manifest("0.1.17");
        let repo = Repo::new(&[("Cargo.toml", released.as_str()), ("src/lib.rs", lib)]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "-a", "-m", "v0.1.17", "v0.1.17"]);
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write("src/lib.rs", "pub fn map() {}\n");
        if let Some(next) = next {
            repo.write("Cargo.toml", &manifest(next));
        }
        repo.commit("remove collect");
        if tag_head {
            // The range ends at a release of the repository (tokio-1.49.0, with tokio-stream
            // left at 0.1.17 and then released as 0.1.18).
            git(
                &repo.path(),
                &["tag", "-a", "-m", "release", "other-1.49.0"],
            );
        }
        axis(&repo)
    };
    let pr = run(None, false);
    assert_eq!(pr.verdict, AxisVerdict::Warn, "{}", pr.detail);
    assert!(
        pr.detail.contains("the next release must bump 0.x"),
        "{}",
        pr.detail
    );
    // A release of only the patch (Cargo and npm take 0.1.17 → 0.1.18 as compatible) fails,
    // and so does a release range that left the 0.x package's version as it was.
    for (next, tag_head) in [
        (Some("0.1.18"), false),
        (Some("0.1.18"), true),
        (None, true),
    ] {
        let axis = run(next, tag_head);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Fail,
            "{next:?} {tag_head}: {}",
            axis.detail
        );
    }
    // A 0.x minor bump allows it.
    let minor = run(Some("0.2.0"), true);
    assert_eq!(minor.verdict, AxisVerdict::Warn, "{}", minor.detail);
    assert!(
        minor.detail.contains("version bump that allows them"),
        "{}",
        minor.detail
    );
}

// crossbeam-queue 0.2.2 was published from its `# Version 0.2.2` changelog heading with no
// `crossbeam-queue-0.2.2` tag (the last was 0.2.1); #548 then changed `pop`, shipped in 0.3.0.
// The changelog says 0.2.2 is the last release: a break after it warns that the next release
// must bump 0.x. A version the changelog marks as still to come, or none, was chosen as the
// next one: a break fails, as does a 1.x package's.
#[test]
fn a_zero_version_its_changelog_records_as_released_is_the_last_release_without_a_tag() {
    let manifest =
        |version: &str| format!("[package]\nname = \"queue\"\nversion = \"{version}\"\n");
    let lib = "pub fn pop() {}\npub fn push() {}\n";
    let run = |tagged: &str, next: &str, changelog: Option<&str>| {
        let tag_version = tagged.rsplit('-').next().unwrap_or(tagged);
        let released = manifest(tag_version);
        let repo = Repo::new(&[
            ("queue/Cargo.toml", released.as_str()),
            ("queue/src/lib.rs", lib),
        ]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "-a", "-m", tagged, tagged]);
        repo.write("queue/Cargo.toml", &manifest(next));
        if let Some(changelog) = changelog {
            repo.write("queue/CHANGELOG.md", changelog);
        }
        repo.commit("Bump queue");
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write("queue/src/lib.rs", "pub fn push() {}\n");
        repo.commit("remove pop");
        axis(&repo)
    };
    let recorded = "# Version 0.2.2\n\n- Fix unsoundness.\n\n# Version 0.2.1\n";
    let untagged = run("queue-0.2.1", "0.2.2", Some(recorded));
    assert_eq!(untagged.verdict, AxisVerdict::Warn, "{}", untagged.detail);
    assert!(
        untagged.detail.contains("the next release must bump 0.x")
            && untagged.detail.contains("queue/CHANGELOG.md"),
        "{}",
        untagged.detail
    );
    for (tagged, next, changelog) in [
        ("queue-0.2.1", "0.2.2", None),
        (
            "queue-0.2.1",
            "0.2.2",
            Some("# Version 0.2.2 (unreleased)\n\n# Version 0.2.1\n"),
        ),
        (
            "queue-1.2.1",
            "1.2.2",
            Some("# Version 1.2.2\n\n# Version 1.2.1\n"),
        ),
    ] {
        let axis = run(tagged, next, changelog);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Fail,
            "{tagged} {next} {changelog:?}: {}",
            axis.detail
        );
    }
}

// A 0.x package released from a maintenance branch: `queue-0.4.13` tagged on `v0.4.x` while
// the main line, whose manifest says 0.4.13 too, has only `queue-0.4.12` behind it. 0.4.13 has
// shipped, so the main line has not chosen its next version: a break there warns that the
// next release must bump 0.x. No such tag beside the base (none, one on a later commit of
// this line, or one of another version) leaves 0.4.13 chosen: the break fails, as a 1.x
// package's does.
#[test]
fn a_zero_version_released_from_another_branch_is_not_the_main_lines_next_version() {
    let manifest =
        |version: &str| format!("[package]\nname = \"queue\"\nversion = \"{version}\"\n");
    let lib = "pub fn pop() {}\npub fn push() {}\n";
    let run = |line: &str, beside: Option<&str>, after_base: Option<&str>| {
        let released = manifest(&format!("{line}.12"));
        let repo = Repo::new(&[
            ("queue/Cargo.toml", released.as_str()),
            ("queue/src/lib.rs", lib),
        ]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        let last = format!("queue-{line}.12");
        git(&repo.path(), &["tag", "-a", "-m", &last, &last]);
        if let Some(beside) = beside {
            git(&repo.path(), &["checkout", "-q", "-b", "maintenance"]);
            repo.write("queue/Cargo.toml", &manifest(beside));
            repo.commit("Release from the maintenance branch");
            let tag = format!("queue-{beside}");
            git(&repo.path(), &["tag", "-a", "-m", &tag, &tag]);
            git(&repo.path(), &["checkout", "-q", "main"]);
        }
        repo.write("queue/Cargo.toml", &manifest(&format!("{line}.13")));
        repo.commit("Bump queue");
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write("queue/src/lib.rs", "pub fn push() {}\n");
        repo.commit("remove pop");
        if let Some(later) = after_base {
            let tag = format!("queue-{later}");
            git(&repo.path(), &["tag", "-a", "-m", &tag, &tag]);
        }
        axis(&repo)
    };
    let beside = run("0.4", Some("0.4.13"), None);
    assert_eq!(beside.verdict, AxisVerdict::Warn, "{}", beside.detail);
    assert!(
        beside.detail.contains("the next release must bump 0.x")
            && beside
                .detail
                .contains("released as queue-0.4.13 on another branch"),
        "{}",
        beside.detail
    );
    for (line, beside, after_base) in [
        ("0.4", None, None),
        ("0.4", Some("0.4.14"), None),
        ("0.4", None, Some("0.4.13")),
        ("1.4", Some("1.4.13"), None),
    ] {
        let axis = run(line, beside, after_base);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Fail,
            "{line} {beside:?} {after_base:?}: {}",
            axis.detail
        );
    }
}

// crossbeam #303 moved `src/seg_queue.rs` of crossbeam 0.6.0 into the new crate
// crossbeam-queue (0.0.0, never released) and removed `try_pop`: the users of crossbeam lost
// it, and crossbeam's 0.6.0, as its last release left it, lets the next 0.x minor break (it
// shipped as 0.7.0). Had crossbeam been 1.x, the removal fails.
#[test]
fn a_file_moved_into_another_package_is_weighed_by_the_package_it_left() {
    let queue = "pub struct SegQueue {\n    len: usize,\n}\n\nimpl SegQueue {\n    pub fn new() -> SegQueue {\n        SegQueue { len: 0 }\n    }\n\n    pub fn push(&self, value: u8) {\n        let _ = value;\n    }\n\n    pub fn len(&self) -> usize {\n        self.len\n    }\n\n    pub fn is_empty(&self) -> bool {\n        self.len == 0\n    }\n\n    pub fn try_pop(&self) -> Option<u8> {\n        None\n    }\n}\n";
    let moved = queue.replace(
        "\n    pub fn try_pop(&self) -> Option<u8> {\n        None\n    }\n",
        "",
    );
    let run = |version: &str| {
        let root = format!(
            "[package]\nname = \"crossbeam\"\nversion = \"{version}\"\n\n[workspace]\nmembers = [\"crossbeam-queue\"]\n"
        );
        let repo = Repo::new(&[
            ("Cargo.toml", root.as_str()),
            (
                "src/lib.rs",
                "mod seg_queue;\npub use seg_queue::SegQueue;\n",
            ),
            ("src/seg_queue.rs", queue),
        ]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        let tag = format!("crossbeam-{version}");
        git(&repo.path(), &["tag", "-a", "-m", &tag, &tag]);
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.remove("src/seg_queue.rs");
        repo.write(
            "crossbeam-queue/Cargo.toml",
            "[package]\nname = \"crossbeam-queue\"\nversion = \"0.0.0\"\n",
        );
        repo.write(
            "crossbeam-queue/src/lib.rs",
            "mod seg_queue;\npub use seg_queue::SegQueue;\n",
        );
        repo.write("crossbeam-queue/src/seg_queue.rs", &moved);
        repo.write("src/lib.rs", "pub use crossbeam_queue::SegQueue;\n");
        repo.commit("move the queues into crossbeam-queue");
        axis(&repo)
    };
    let zero = run("0.6.0");
    assert_eq!(zero.verdict, AxisVerdict::Warn, "{}", zero.detail);
    assert!(
        zero.detail.contains("the next release must bump 0.x")
            && zero.detail.contains("`SegQueue::try_pop` removed"),
        "{}",
        zero.detail
    );
    let one = run("1.4.0");
    assert_eq!(one.verdict, AxisVerdict::Fail, "{}", one.detail);
    assert!(
        one.detail.contains("`SegQueue::try_pop` removed"),
        "{}",
        one.detail
    );
}

// clap #3965 (`fix(error):! Merge EmptyValue into InvalidValue`, on 3.2.14) and golang-jwt's
// merge of `wider` into `two_point_oh` (the branch preparing v2.0.0): a break the change
// declares itself, or merges into a branch named for a later major, warns that the next
// release must be a major. Without the declaration, into a branch of the current major, or in
// a range ending at a compatible release (its number was chosen and shipped), it fails.
#[test]
fn a_break_its_author_declares_warns_that_the_next_release_must_be_a_major() {
    let manifest = |version: &str| format!("[package]\nname = \"clap\"\nversion = \"{version}\"\n");
    let lib = "pub enum ErrorKind {\n    EmptyValue,\n    InvalidValue,\n}\n";
    let run = |message: &str, release: Option<&str>, pr: Option<&crate::pr::forge::PullRequest>| {
        let released = manifest("1.4.0");
        let repo = Repo::new(&[("Cargo.toml", released.as_str()), ("src/lib.rs", lib)]);
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "-a", "-m", "v1.4.0", "v1.4.0"]);
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write("src/lib.rs", "pub enum ErrorKind {\n    InvalidValue,\n}\n");
        if let Some(next) = release {
            repo.write("Cargo.toml", &manifest(next));
        }
        repo.commit(message);
        if let Some(next) = release {
            let tag = format!("v{next}");
            git(&repo.path(), &["tag", "-a", "-m", &tag, &tag]);
        }
        let report = repo.build_with(|input| {
            crate::session::cohort_build::build(crate::cohort::CohortInput { pr, ..input }).unwrap()
        });
        report
            .axes
            .into_iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
    };
    let declared = run(
        "fix(error)!: Merge EmptyValue into InvalidValue",
        None,
        None,
    );
    assert_eq!(declared.verdict, AxisVerdict::Warn, "{}", declared.detail);
    assert!(
        declared.detail.contains("the next release must be a major")
            && declared.detail.contains("`ErrorKind::EmptyValue` removed"),
        "{}",
        declared.detail
    );
    let footer = run(
        "Merge EmptyValue into InvalidValue\n\nBREAKING CHANGE: EmptyValue is gone",
        None,
        None,
    );
    assert_eq!(footer.verdict, AxisVerdict::Warn, "{}", footer.detail);
    let branch = run("Merge branch 'wider' into two_point_oh", None, None);
    assert_eq!(branch.verdict, AxisVerdict::Warn, "{}", branch.detail);
    assert!(
        branch.detail.contains("merged into `two_point_oh`"),
        "{}",
        branch.detail
    );
    // The PR's own text, as the forge gives it.
    let pr = crate::pr::forge::PullRequest {
        number: 3965,
        title: "Merge EmptyValue into InvalidValue".into(),
        body: "Fixes #3956\n\nBREAKING CHANGE: `ErrorKind::EmptyValue` is gone\n".into(),
        author: "epage".into(),
        author_is_bot: false,
        state: crate::pr::forge::PrState::Open,
        draft: false,
        base: crate::pr::forge::BranchTip {
            ref_name: "master".into(),
            sha: "0".repeat(40).parse().unwrap(),
        },
        head: crate::pr::forge::BranchTip {
            ref_name: "empty".into(),
            sha: "1".repeat(40).parse().unwrap(),
        },
        clone_url: String::new(),
        html_url: String::new(),
    };
    let described = run("Merge EmptyValue into InvalidValue", None, Some(&pr));
    assert_eq!(described.verdict, AxisVerdict::Warn, "{}", described.detail);
    assert!(
        described
            .detail
            .contains("declared in the PR's description"),
        "{}",
        described.detail
    );
    // The true positives.
    for (message, release) in [
        ("fix(error): Merge EmptyValue into InvalidValue", None),
        ("Merge branch 'wider' into v1", None),
        (
            "fix(error)!: Merge EmptyValue into InvalidValue",
            Some("1.5.0"),
        ),
    ] {
        let axis = run(message, release, None);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Fail,
            "{message} {release:?}: {}",
            axis.detail
        );
    }
}

// google/uuid was tagged `v0`, then `v0.1` and `0.2`, before its v1.0.0, its version living
// only in those tags: a 0.x project, whose next 0.x minor may break. A break after a 0.x tag
// warns that the next release must bump 0.x, whatever the language and however short the tag
// (`v0`); a release of only the patch, or a 1.x project, still fails.
#[test]
fn a_zero_project_versioned_by_short_tags_warns_until_its_next_version_is_chosen() {
    let uuid = "package uuid\n\nfunc New() string { return \"\" }\n\nfunc Must(s string) string { return s }\n";
    let removed = "package uuid\n\nfunc New() string { return \"\" }\n";
    let run = |files: &[(&str, &str)], changed: (&str, &str), tag: &str, head_tag: Option<&str>| {
        let repo = Repo::new(files);
        git(&repo.path(), &["checkout", "-q", "main"]);
        git(&repo.path(), &["tag", "-a", "-m", tag, tag]);
        git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
        repo.write(changed.0, changed.1);
        repo.commit("remove one");
        if let Some(head) = head_tag {
            git(&repo.path(), &["tag", "-a", "-m", head, head]);
        }
        axis(&repo)
    };
    let go_mod = ("go.mod", "module example.com/uuid\n\ngo 1.22\n");
    let python = [
        (
            "pyproject.toml",
            "[project]\nname = \"ids\"\ndynamic = [\"version\"]\n",
        ),
        (
            "ids/__init__.py",
            "def new():\n    pass\n\ndef must(s):\n    pass\n",
        ),
    ];
    let python_removed = ("ids/__init__.py", "def new():\n    pass\n");
    let pending: [(&[File], File, &str); 4] = [
        (&[go_mod, ("uuid.go", uuid)], ("uuid.go", removed), "v0"),
        (&[("uuid.go", uuid)], ("uuid.go", removed), "v0.1"),
        (&[go_mod, ("uuid.go", uuid)], ("uuid.go", removed), "0.2"),
        (&python, python_removed, "v0"),
    ];
    for (files, changed, tag) in pending {
        let axis = run(files, changed, tag, None);
        assert_eq!(axis.verdict, AxisVerdict::Warn, "{tag}: {}", axis.detail);
        assert!(
            axis.detail.contains("the next release must bump 0.x") && axis.detail.contains(tag),
            "{tag}: {}",
            axis.detail
        );
    }
    // A range ending at a 0.x minor release may break; at a patch release it may not.
    let minor = run(
        &[go_mod, ("uuid.go", uuid)],
        ("uuid.go", removed),
        "v0.1",
        Some("v0.2"),
    );
    assert_eq!(minor.verdict, AxisVerdict::Warn, "{}", minor.detail);
    let breaking: [(&[File], File, &str, Option<&str>); 5] = [
        (
            &[go_mod, ("uuid.go", uuid)],
            ("uuid.go", removed),
            "v0.1",
            Some("v0.1.1"),
        ),
        (
            &[("uuid.go", uuid)],
            ("uuid.go", removed),
            "v0.1.2",
            Some("v0.1.3"),
        ),
        (
            &[go_mod, ("uuid.go", uuid)],
            ("uuid.go", removed),
            "v1",
            None,
        ),
        (&[("uuid.go", uuid)], ("uuid.go", removed), "v1.1.4", None),
        (&python, python_removed, "v1.2", None),
    ];
    for (files, changed, tag, head) in breaking {
        let axis = run(files, changed, tag, head);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Fail,
            "{tag} {head:?}: {}",
            axis.detail
        );
    }
}

/// A history whose only release tag (`tag`) is made on `main` after the PR's base: the base
/// descends from no release. The PR replaces `files`' `path` with `changed`.
fn before_the_first_release(files: &[(&str, &str)], tag: &str, path: &str, changed: &str) -> Axis {
    let repo = Repo::new(files);
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    repo.write(path, changed);
    repo.commit("change");
    git(&repo.path(), &["checkout", "-q", "main"]);
    repo.write("README.md", "first release\n");
    repo.commit("release");
    git(&repo.path(), &["tag", "-a", "-m", tag, tag]);
    git(&repo.path(), &["checkout", "-q", "pr"]);
    axis(&repo)
}

#[test]
fn a_go_module_before_its_first_release_tag_has_no_contract_to_break() {
    // fx in 2016-17, before v1.0.0-beta1: a Go module is published by its tags alone, and
    // the repository's tags (which are there: one came later) reach no commit behind the base.
    for files in [
        &[("go.mod", GO_MOD), ("routes.go", ROUTES)][..],
        &[("routes.go", ROUTES)][..],
    ] {
        let axis = before_the_first_release(files, "v3.0.0", "routes.go", ROUTES_FIND);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Warn,
            "{files:?}: {}",
            axis.detail
        );
        assert!(
            axis.detail.contains("no release yet"),
            "{files:?}: {}",
            axis.detail
        );
    }
    // A crate's version is its manifest's, published without a tag: the removal still fails.
    let axis = before_the_first_release(&crate_at(WITH_MAKE_MUT), "v1.6.0", "src/bytes.rs", BYTES);
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
}

/// A history where `0.5.0` was released (tag `v0.5.0`, without `make_mut`), then a newer
/// line `1.0.1` added `make_mut` and was released (tag `v1.0.1`); the PR sets the manifest to
/// `version` with `bytes` as `src/bytes.rs`.
fn moved_back(version: &str, bytes: &str) -> Axis {
    let cargo = |version: &str| CARGO.replace("1.6.0", version);
    let old = cargo("0.5.0");
    let repo = Repo::new(&[
        ("Cargo.toml", old.as_str()),
        ("src/lib.rs", LIB),
        ("src/bytes.rs", BYTES),
    ]);
    git(&repo.path(), &["checkout", "-q", "main"]);
    git(&repo.path(), &["tag", "-a", "-m", "v0.5.0", "v0.5.0"]);
    repo.write("Cargo.toml", &cargo("1.0.1"));
    repo.write("src/bytes.rs", WITH_MAKE_MUT);
    repo.commit("the 1.0 line");
    git(&repo.path(), &["tag", "-a", "-m", "v1.0.1", "v1.0.1"]);
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    repo.write("Cargo.toml", &cargo(version));
    repo.write("src/bytes.rs", bytes);
    repo.commit("revert to the 0.5 line");
    axis(&repo)
}

#[test]
fn a_version_moved_back_to_an_older_line_answers_to_that_lines_releases() {
    // rust-url #946 reverted idna 1.0.1 to 0.5.0: what 1.0 added and the revert removes was
    // never in a release of the 0.5 line its next release continues.
    let reverted = moved_back("0.5.0", BYTES);
    assert_eq!(reverted.verdict, AxisVerdict::Warn, "{}", reverted.detail);
    for part in [
        "`Bytes::make_mut` removed",
        "not in v0.5.0, the last release, of the 0.5.0 line the version moved back to from 1.0.1",
    ] {
        assert!(
            reverted.detail.contains(part),
            "{part:?} not in {}",
            reverted.detail
        );
    }
    // What that line's release had still counts: `len` was in v0.5.0.
    let without_len = BYTES.replace(
        "    pub fn len(&self) -> usize {\n        self.len\n    }\n",
        "",
    );
    let broken = moved_back("0.5.0", &without_len);
    assert_eq!(broken.verdict, AxisVerdict::Fail, "{}", broken.detail);
    assert!(
        broken.detail.contains("`Bytes::len` removed"),
        "{}",
        broken.detail
    );
    // Moved below every release: no release of that line is known, the break fails as before.
    let below = moved_back("0.1.0", BYTES);
    assert_eq!(below.verdict, AxisVerdict::Fail, "{}", below.detail);
}

#[test]
fn an_item_the_releases_file_does_not_declare_is_unreleased_though_its_name_is_there() {
    // rust-url #946: idna 0.2.3 had a `verify_dns_length` field, not the function 1.0 added
    // and the revert removed.
    let config = "pub struct Config {\n    pub verify_dns_length: bool,\n}\n";
    let released = format!("{BYTES}\n{config}");
    let with_function = format!(
        "{released}\npub fn verify_dns_length(name: &str) -> bool {{\n    name.len() < 254\n}}\n"
    );
    let axis = after_release(
        &[
            ("Cargo.toml", CARGO),
            ("src/lib.rs", "pub mod bytes;\n"),
            ("src/bytes.rs", &released),
        ],
        &["v1.6.0"],
        &[("src/bytes.rs", &with_function)],
        &[("src/bytes.rs", &released)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains(
            "`verify_dns_length` removed (base `pub fn verify_dns_length(name: &str) -> bool` → \
             head: none) (not in v1.6.0, the last release: its `src/bytes.rs` there declares no \
             such item)"
        ),
        "{}",
        axis.detail
    );
    // The field the release had, removed: a break.
    let without_field = released.replace("    pub verify_dns_length: bool,\n", "");
    let axis = after_release(
        &[
            ("Cargo.toml", CARGO),
            ("src/lib.rs", "pub mod bytes;\n"),
            ("src/bytes.rs", &released),
        ],
        &["v1.6.0"],
        &[],
        &[("src/bytes.rs", &without_field)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
}

/// `generate` as the lockstep release shipped it, as the base has it (two parameters added
/// since), and as the change leaves it (one of those taken back).
const GENERATE_RELEASED: &str = "pub fn generate(service: &str, emit: bool) {}\n";
const GENERATE_SINCE: &str =
    "pub fn generate(service: &str, emit: bool, transport: bool, comments: bool) {}\n";
const GENERATE_FEWER: &str = "pub fn generate(service: &str, emit: bool, transport: bool) {}\n";

/// A workspace of two crates in folders, `rpc/` and `rpc-build/`, at `rpc_version` and
/// `build_version`, with `build` as `rpc-build/src/lib.rs`.
fn workspace(rpc_version: &str, build_version: &str, build: &str) -> Vec<(String, String)> {
    let manifest = |name: &str, version: &str| {
        format!("[package]\nname = \"{name}\"\nversion = \"{version}\"\nedition = \"2021\"\n")
    };
    [
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"rpc\", \"rpc-build\"]\n".to_string(),
        ),
        ("rpc/Cargo.toml", manifest("rpc", rpc_version)),
        ("rpc/src/lib.rs", "pub fn serve() {}\n".to_string()),
        ("rpc-build/Cargo.toml", manifest("rpc-build", build_version)),
        ("rpc-build/src/lib.rs", build.to_string()),
    ]
    .into_iter()
    .map(|(path, text)| (path.to_string(), text))
    .collect()
}

/// Commits `files` on the checked-out branch, then tags the commit with each of `tags`.
fn commit_tagged(repo: &Repo, files: &[(String, String)], tags: &[&str]) {
    for (path, text) in files {
        repo.write(path, text);
    }
    repo.commit("release");
    for tag in tags {
        git(&repo.path(), &["tag", "-a", "-m", tag, tag]);
    }
}

/// Commits of the workspace, each with its tags.
type TaggedCommits<'a> = &'a [(&'a [(String, String)], &'a [&'a str])];

/// A history of the workspace on `main`: `before` committed (each with its tags), where the PR
/// branches; `later` committed on `main` after the PR branched. The PR leaves
/// `rpc-build/src/lib.rs` as `change`.
fn workspace_history(before: TaggedCommits, later: TaggedCommits, change: &str) -> Axis {
    let repo = Repo::new(&[("README.md", "a workspace\n")]);
    git(&repo.path(), &["checkout", "-q", "main"]);
    for (files, tags) in before {
        commit_tagged(&repo, files, tags);
    }
    let fork = git(&repo.path(), &["rev-parse", "HEAD"]);
    for (files, tags) in later {
        commit_tagged(&repo, files, tags);
    }
    git(&repo.path(), &["checkout", "-q", "-B", "pr", &fork]);
    repo.write("rpc-build/src/lib.rs", change);
    repo.commit("change");
    axis(&repo)
}

#[test]
fn a_bare_tag_is_a_release_of_each_package_whose_manifest_there_has_its_version() {
    // tonic #1154: `v0.8.2` tagged the whole workspace, every crate at 0.8.2; the crates were
    // tagged by name (`tonic-build-v0.14.6`) only years later. `generate` gained two
    // parameters after v0.8.2 and the change took one back: the base broke v0.8.2's callers
    // already, whichever scheme the later tags use.
    let later = workspace("1.14.6", "1.14.6", GENERATE_SINCE);
    for later_tags in [&[][..], &["rpc-v1.14.6", "rpc-build-v1.14.6"][..]] {
        let axis = workspace_history(
            &[
                (&workspace("1.8.2", "1.8.2", GENERATE_RELEASED), &["v1.8.2"]),
                (&workspace("1.8.2", "1.8.2", GENERATE_SINCE), &[]),
            ],
            &[(&later, later_tags)],
            GENERATE_FEWER,
        );
        assert_eq!(
            axis.verdict,
            AxisVerdict::Warn,
            "{later_tags:?}: {}",
            axis.detail
        );
        assert!(
            axis.detail
                .contains("the base already broke v1.8.2, the last release"),
            "{later_tags:?}: {}",
            axis.detail
        );
    }
}

#[test]
fn a_bare_tag_is_no_release_of_a_package_whose_manifest_there_has_another_version() {
    // `v1.8.2` is `rpc`'s release; `rpc-build` was at 0.3.0 then, and no tag names it: no
    // release of it is known, so the break is the change's own.
    let axis = workspace_history(
        &[
            (&workspace("1.8.2", "1.3.0", GENERATE_RELEASED), &["v1.8.2"]),
            (&workspace("1.8.2", "1.3.0", GENERATE_SINCE), &[]),
        ],
        &[],
        GENERATE_FEWER,
    );
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    assert!(!axis.detail.contains("v1.8.2"), "{}", axis.detail);
}

#[test]
fn a_packages_own_tags_win_over_a_bare_tag_of_another_version() {
    // `rpc-build-v1.3.0` is the crate's release, without the parameters; the later bare
    // `v1.8.2` (`rpc`'s, `rpc-build` still at 1.3.0 there) came after they were added, and
    // would have counted them as released.
    let axis = workspace_history(
        &[
            (
                &workspace("1.8.1", "1.3.0", GENERATE_RELEASED),
                &["rpc-build-v1.3.0"],
            ),
            (&workspace("1.8.2", "1.3.0", GENERATE_SINCE), &["v1.8.2"]),
        ],
        &[],
        GENERATE_FEWER,
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains("rpc-build-v1.3.0, the last release"),
        "{}",
        axis.detail
    );
}

/// blinker #71: `send_async` was added on the way to 1.5 (`__version__ = '1.5dev'`, read by
/// `setup.py` at build time) and taken back before 1.5; the last release is tagged `rel-1.4`.
/// Nobody had it.
#[test]
fn a_python_method_added_after_a_generic_prefixed_release_tag_and_taken_back_is_unreleased() {
    const SETUP: &str = "import sig\nversion = sig.__version__\n\nsetup(name=\"sig\",\n      version=version,\n      packages=['sig'])\n";
    const BASE: &str = "class Signal:\n    def send(self, *sender, **kwargs):\n        return []\n";
    const WITH_ASYNC: &str = "class Signal:\n    def send(self, *sender, **kwargs):\n        return []\n\n    async def send_async(self, *sender, **kwargs):\n        return []\n";
    let released = [
        ("setup.py", SETUP),
        (
            "sig/__init__.py",
            "from sig.base import Signal\n\n__version__ = '1.4'\n",
        ),
        ("sig/base.py", BASE),
    ];
    let axis = after_release(
        &released,
        &["rel-1.4"],
        &[
            (
                "sig/__init__.py",
                "from sig.base import Signal\n\n__version__ = '1.5dev'\n",
            ),
            ("sig/base.py", WITH_ASYNC),
        ],
        &[("sig/base.py", BASE)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("not in rel-1.4"), "{}", axis.detail);
}

/// tera's 2.0 rewrite began on a history of its own, its `Cargo.toml` at `2.0.0`, while the
/// 1.x tags sit on the old line: no release is behind the rewrite's commits, and its version
/// is a major above every release beside it, so its breaks are the new major's development.
/// A rewrite whose version is not above the releases beside it (still `1.x`) fails as before.
#[test]
fn a_rewrite_on_a_history_of_its_own_a_major_above_the_old_lines_tags_is_in_development() {
    let run = |version: &str| {
        let old = Repo::new(&[
            (
                "Cargo.toml",
                "[package]\nname = \"tera\"\nversion = \"1.20.0\"\nedition = \"2021\"\n",
            ),
            ("src/lib.rs", "pub fn render() {}\n"),
        ]);
        git(&old.path(), &["tag", "-a", "-m", "v1.20.0", "v1.20.0"]);
        git(&old.path(), &["branch", "-m", "main", "v1"]);
        git(&old.path(), &["checkout", "-q", "--orphan", "main"]);
        git(&old.path(), &["rm", "-rq", "--cached", "."]);
        old.write(
            "Cargo.toml",
            &format!("[package]\nname = \"tera\"\nversion = \"{version}\"\nedition = \"2021\"\n"),
        );
        old.write("src/lib.rs", "pub fn parse() {}\npub fn render() {}\n");
        old.commit("rewrite");
        git(&old.path(), &["checkout", "-q", "-B", "pr"]);
        old.write("src/lib.rs", "pub fn render() {}\n");
        old.commit("change");
        axis(&old)
    };
    let rewrite = run("2.0.0");
    assert_ne!(rewrite.verdict, AxisVerdict::Fail, "{}", rewrite.detail);
    assert!(rewrite.detail.contains("1.20.0"), "{}", rewrite.detail);
    let same_major = run("1.21.0");
    assert_eq!(
        same_major.verdict,
        AxisVerdict::Fail,
        "{}",
        same_major.detail
    );
}
