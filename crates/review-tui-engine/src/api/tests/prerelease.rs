//! apiContract judges compatibility against the last *full* release: a pre-release
//! (`0.23.0-alpha2`, `1.0.0-rc.1`, `2.0.0b1`) carries no compatibility promise, so a break on
//! the way from a pre-release to its release is allowed when the step from the last full
//! release to the version being prepared allows it.

use crate::cohort::tests::repo::{Repo, git};
use crate::review::axes::{Axis, AxisVerdict};

use super::releases::axis;

fn cargo(version: &str) -> String {
    format!("[package]\nname = \"c\"\nversion = \"{version}\"\nedition = \"2021\"\n")
}

fn pyproject(version: &str) -> String {
    format!("[project]\nname = \"c\"\nversion = \"{version}\"\n")
}

/// A Rust crate and a Python package: the manifest, the library file, and the library's
/// text with the functions named.
struct Language {
    manifest: (&'static str, fn(&str) -> String),
    lib: &'static str,
    functions: fn(&[&str]) -> String,
}

const RUST: Language = Language {
    manifest: ("Cargo.toml", cargo),
    lib: "src/lib.rs",
    functions: |names| {
        names
            .iter()
            .map(|n| format!("pub fn {n}() {{}}\n"))
            .collect()
    },
};

const PYTHON: Language = Language {
    manifest: ("pyproject.toml", pyproject),
    lib: "c/__init__.py",
    functions: |names| {
        names
            .iter()
            .map(|n| format!("def {n}():\n    pass\n\n\n"))
            .collect()
    },
};

/// `full` released and tagged, then `pre` tagged `v{pre}`, then the base at `base`; the PR
/// sets the version to `head` and leaves the functions `left`. The full release has `keep`
/// and `drop`; the pre-release added `fresh`.
fn prerelease_to_release(
    language: &Language,
    [full, pre, base, head]: [&str; 4],
    left: &[&str],
) -> Axis {
    let (manifest, version) = language.manifest;
    let functions = language.functions;
    let repo = Repo::new(&[
        (manifest, &version(full)),
        (language.lib, &functions(&["keep", "drop"])),
    ]);
    git(&repo.path(), &["checkout", "-q", "main"]);
    git(&repo.path(), &["tag", "-a", "-m", "r", &format!("v{full}")]);
    repo.write(manifest, &version(pre));
    repo.write(language.lib, &functions(&["keep", "drop", "fresh"]));
    repo.commit("pre-release");
    git(&repo.path(), &["tag", "-a", "-m", "p", &format!("v{pre}")]);
    repo.write(manifest, &version(base));
    repo.commit("next pre-release");
    git(&repo.path(), &["checkout", "-q", "-B", "pr"]);
    repo.write(manifest, &version(head));
    repo.write(language.lib, &functions(left));
    repo.commit("change");
    axis(&repo)
}

#[test]
fn a_break_from_a_pre_release_to_its_release_is_judged_against_the_last_full_release() {
    // 0.22.0 → 0.23.0 is a 0.x minor: it may break what 0.22.0 shipped.
    let axis = prerelease_to_release(
        &RUST,
        ["0.22.0", "0.23.0-alpha2", "0.23.0-alpha3", "0.23.0"],
        &["keep", "fresh"],
    );
    assert_ne!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    assert!(axis.detail.contains("`drop` removed"), "{}", axis.detail);
}

#[test]
fn a_break_between_pre_releases_of_one_breaking_version_is_allowed() {
    for (language, versions) in [
        (
            &RUST,
            ["0.22.0", "0.23.0-alpha2", "0.23.0-alpha3", "0.23.0-alpha4"],
        ),
        (&RUST, ["1.4.0", "2.0.0-rc.1", "2.0.0-rc.1", "2.0.0-rc.2"]),
        (&PYTHON, ["1.4.0", "2.0.0b1", "2.0.0rc1", "2.0.0"]),
    ] {
        let axis = prerelease_to_release(language, versions, &["keep"]);
        assert_ne!(
            axis.verdict,
            AxisVerdict::Fail,
            "{versions:?}: {}",
            axis.detail
        );
    }
}

/// 1.4.0 → 1.5.0 may not break: `drop`, shipped by 1.4.0, still fails; `fresh`, shipped only
/// by a pre-release, may go.
#[test]
fn only_what_the_last_full_release_shipped_binds_a_compatible_version() {
    for (language, versions) in [
        (&RUST, ["1.4.0", "1.5.0-rc.1", "1.5.0-rc.2", "1.5.0"]),
        (&PYTHON, ["1.4.0", "1.5.0rc1", "1.5.0rc2", "1.5.0"]),
    ] {
        let axis = prerelease_to_release(language, versions, &["keep"]);
        assert_eq!(
            axis.verdict,
            AxisVerdict::Fail,
            "{versions:?}: {}",
            axis.detail
        );
        assert!(axis.detail.contains("`drop` removed"), "{}", axis.detail);
        let fresh_only = prerelease_to_release(language, versions, &["keep", "drop"]);
        assert_ne!(
            fresh_only.verdict,
            AxisVerdict::Fail,
            "{versions:?}: {}",
            fresh_only.detail
        );
        assert!(
            fresh_only.detail.contains("`fresh` removed"),
            "{}",
            fresh_only.detail
        );
    }
}
