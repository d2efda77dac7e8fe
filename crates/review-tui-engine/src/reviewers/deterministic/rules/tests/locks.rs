//! Locks and manifests, on real repositories: a lock-only change speaks when the lock's root
//! dependencies disagree with its manifest, when it fetches from a new host or when the lock is
//! new; a refresh inside the manifest's ranges says nothing. A manifest's dependency on the
//! repository's own package is linked, not locked. A manifest requirement the lock already
//! resolves asks for no lock change, and a first lock for a manifest the repository already
//! had is no lock changed alone.

use super::*;

const LOCK_RULE: &str = "deps/lockfile-without-manifest";
const MANIFEST_RULE: &str = "deps/manifest-without-lockfile";

/// Commits `base`, then `head` over it, and scans the change with the head checked out, under
/// a title that says nothing about dependencies. The number of findings of `rule`.
fn findings(base: &[(&str, &str)], head: &[(&str, &str)], rule: &str) -> usize {
    scan_change(base, head, "Fix the parser")
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .count()
}

fn npm_lock(root_range: &str, version: &str, host: &str) -> String {
    format!(
        r#"{{
  "name": "docs",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {{
    "": {{
      "name": "docs",
      "dependencies": {{
        "left-pad": "{root_range}"
      }}
    }},
    "node_modules/left-pad": {{
      "version": "{version}",
      "resolved": "https://{host}/left-pad/-/left-pad-{version}.tgz",
      "integrity": "sha512-{version}"
    }}
  }}
}}
"#
    )
}

const NPM_MANIFEST: &str = r#"{
  "name": "docs",
  "dependencies": {
    "left-pad": "^1.3.0"
  }
}
"#;

#[test]
fn a_lock_that_only_moves_resolutions_inside_its_manifests_ranges_is_a_refresh() {
    // faraday v2.14.2 (#1669, `npm audit fix` of the docs tooling): versions and integrity move
    // under `node_modules/`, the root entry still copies package.json.
    let base = [
        ("docs/package.json", NPM_MANIFEST),
        (
            "docs/package-lock.json",
            &npm_lock("^1.3.0", "1.3.0", "registry.npmjs.org") as &str,
        ),
    ];
    let refreshed = npm_lock("^1.3.0", "1.3.2", "registry.npmjs.org");
    assert_eq!(
        findings(&base, &[("docs/package-lock.json", &refreshed)], LOCK_RULE),
        0
    );
    // The lock's root asks for another range than package.json: written for another manifest.
    let disagrees = npm_lock("^1.4.0", "1.4.0", "registry.npmjs.org");
    assert_eq!(
        findings(&base, &[("docs/package-lock.json", &disagrees)], LOCK_RULE),
        1
    );
    // A package's funding link is fetched by nobody (faraday's refresh brought one).
    let funded = npm_lock("^1.3.0", "1.3.2", "registry.npmjs.org").replace(
        "\"integrity\": \"sha512-1.3.2\"",
        "\"integrity\": \"sha512-1.3.2\",\n      \"funding\": {\n        \"url\": \"https://opencollective.com/left-pad\"\n      }",
    );
    assert!(funded.contains("opencollective"));
    assert_eq!(
        findings(&base, &[("docs/package-lock.json", &funded)], LOCK_RULE),
        0
    );
    // A resolution now fetched from a host the lock never named.
    let elsewhere = npm_lock("^1.3.0", "1.3.2", "evil.example");
    assert_eq!(
        findings(&base, &[("docs/package-lock.json", &elsewhere)], LOCK_RULE),
        1
    );

    // pinia #656: yarn resolves the existing `typescript@^4.3.5` range to 4.4.2.
    let manifest = "{\n  \"name\": \"pinia\",\n  \"devDependencies\": {\n    \"typescript\": \"^4.3.5\"\n  }\n}\n";
    let yarn = |version: &str| {
        format!(
            "# yarn lockfile v1\n\n\ntypescript@^4.3.5:\n  version \"{version}\"\n  resolved \"https://registry.yarnpkg.com/typescript/-/typescript-{version}.tgz#abc\"\n  integrity sha512-{version}\n"
        )
    };
    let base = [
        ("package.json", manifest),
        ("yarn.lock", &yarn("4.3.5") as &str),
    ];
    assert_eq!(
        findings(&base, &[("yarn.lock", &yarn("4.4.2"))], LOCK_RULE),
        0
    );
    // A range package.json asks for that the lock has no entry for.
    let asks_more = "{\n  \"name\": \"pinia\",\n  \"devDependencies\": {\n    \"typescript\": \"^4.3.5\",\n    \"lodash\": \"^4.17.0\"\n  }\n}\n";
    let base = [
        ("package.json", asks_more),
        ("yarn.lock", &yarn("4.3.5") as &str),
    ];
    assert_eq!(
        findings(&base, &[("yarn.lock", &yarn("4.4.2"))], LOCK_RULE),
        1
    );

    // pnpm: the importers' specifiers are the manifest's ranges.
    let pnpm = |specifier: &str, version: &str| {
        format!(
            "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      left-pad:\n        specifier: {specifier}\n        version: {version}\n\npackages:\n\n  left-pad@{version}:\n    resolution: {{integrity: sha512-{version}}}\n"
        )
    };
    let base = [
        ("package.json", NPM_MANIFEST),
        ("pnpm-lock.yaml", &pnpm("^1.3.0", "1.3.0") as &str),
    ];
    assert_eq!(
        findings(
            &base,
            &[("pnpm-lock.yaml", &pnpm("^1.3.0", "1.3.2"))],
            LOCK_RULE
        ),
        0
    );
    assert_eq!(
        findings(
            &base,
            &[("pnpm-lock.yaml", &pnpm("^2.0.0", "2.0.0"))],
            LOCK_RULE
        ),
        1
    );
}

#[test]
fn a_lock_catching_up_with_its_manifest_or_completing_its_checksums_is_a_refresh() {
    // smallvec #212: fuzz/Cargo.lock catches up with #205's `honggfuzz = "0.5.47"`.
    let manifest = "[package]\nname = \"smallvec-fuzz\"\nversion = \"0.0.0\"\n\n[dependencies]\nhonggfuzz = \"0.5.47\"\n";
    let lock = |version: &str, member_deps: &str| {
        format!(
            "version = 3\n\n[[package]]\nname = \"honggfuzz\"\nversion = \"{version}\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"{version}\"\n\n[[package]]\nname = \"smallvec-fuzz\"\nversion = \"0.0.0\"\ndependencies = [\n{member_deps}]\n"
        )
    };
    let base = [
        ("fuzz/Cargo.toml", manifest),
        (
            "fuzz/Cargo.lock",
            &lock("0.5.45", " \"honggfuzz\",\n") as &str,
        ),
    ];
    let caught_up = lock("0.5.47", " \"honggfuzz\",\n");
    assert_eq!(
        findings(&base, &[("fuzz/Cargo.lock", &caught_up)], LOCK_RULE),
        0
    );
    // The member's own entry gains a dependency its manifest does not name.
    let member = lock("0.5.45", " \"honggfuzz\",\n \"libc\",\n");
    assert_eq!(
        findings(&base, &[("fuzz/Cargo.lock", &member)], LOCK_RULE),
        1
    );

    // Cargo's first lock format pins versions in the member's dependency list and keeps the
    // checksums in `[metadata]`: smallvec #212's catching up moves both.
    let old_format = |version: &str| {
        format!(
            "[[package]]\nname = \"honggfuzz\"\nversion = \"{version}\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[[package]]\nname = \"smallvec-fuzz\"\nversion = \"0.1.0\"\ndependencies = [\n \"honggfuzz {version} (registry+https://github.com/rust-lang/crates.io-index)\",\n]\n\n[metadata]\n\"checksum honggfuzz {version} (registry+https://github.com/rust-lang/crates.io-index)\" = \"{version}\"\n"
        )
    };
    let base = [
        ("fuzz/Cargo.toml", manifest),
        ("fuzz/Cargo.lock", &old_format("0.5.45") as &str),
    ];
    assert_eq!(
        findings(
            &base,
            &[("fuzz/Cargo.lock", &old_format("0.5.47"))],
            LOCK_RULE
        ),
        0
    );

    // ... and moving that lock to the current format (smallvec 1.10 → 1.11) only rewrites it.
    let current = lock("0.5.47", " \"honggfuzz\",\n");
    assert_eq!(
        findings(&base, &[("fuzz/Cargo.lock", &current)], LOCK_RULE),
        0
    );

    // echo #1429: go.sum gains the tree hash of a version whose go.mod hash it had; websocket
    // 1.4.2 drops stale lines of the module itself.
    let go_mod =
        "module github.com/labstack/echo/v4\n\ngo 1.21\n\nrequire golang.org/x/sys v0.1.0\n";
    let go_sum = "github.com/labstack/echo/v4 v4.0.0/go.mod h1:self=\ngolang.org/x/sys v0.1.0/go.mod h1:mod=\n";
    let base = [("go.mod", go_mod), ("go.sum", go_sum)];
    let completed = "golang.org/x/sys v0.1.0 h1:zip=\ngolang.org/x/sys v0.1.0/go.mod h1:mod=\n";
    assert_eq!(findings(&base, &[("go.sum", completed)], LOCK_RULE), 0);
    // A version the graph did not hold before is new.
    let new_version = format!("{go_sum}golang.org/x/net v0.2.0/go.mod h1:net=\n");
    assert_eq!(findings(&base, &[("go.sum", &new_version)], LOCK_RULE), 1);

    // sidekiq #4804: the project's own `PATH` spec follows its version; a Gemfile.lock whose
    // `DEPENDENCIES` (what the Gemfile asks) change alone disagrees with the Gemfile.
    let gemfile = "source \"https://rubygems.org\"\ngemspec\ngem \"rake\"\n";
    let gem_lock = |own: &str, deps: &str| {
        format!(
            "PATH\n  remote: .\n  specs:\n    sidekiq ({own})\n      redis (>= 4.2.0)\n\nGEM\n  remote: https://rubygems.org/\n  specs:\n    rake (13.0.1)\n    redis (4.2.5)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  rake\n{deps}  sidekiq!\n\nBUNDLED WITH\n   2.2.3\n"
        )
    };
    let base = [
        ("Gemfile", gemfile),
        ("Gemfile.lock", &gem_lock("6.1.3", "") as &str),
    ];
    assert_eq!(
        findings(
            &base,
            &[("Gemfile.lock", &gem_lock("6.2.0", ""))],
            LOCK_RULE
        ),
        0
    );
    assert_eq!(
        findings(
            &base,
            &[("Gemfile.lock", &gem_lock("6.1.3", "  rspec\n"))],
            LOCK_RULE
        ),
        1
    );
}

#[test]
fn a_lock_added_where_none_was_is_still_asked() {
    // mobx #2799: a stray npm lock added to a package of a yarn workspace.
    let base = [
        (
            "package.json",
            "{\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
        ),
        ("yarn.lock", "# yarn lockfile v1\n"),
        ("packages/mobx/package.json", NPM_MANIFEST),
    ];
    let stray = npm_lock("^1.3.0", "1.3.0", "registry.npmjs.org");
    assert_eq!(
        findings(
            &base,
            &[("packages/mobx/package-lock.json", &stray)],
            LOCK_RULE
        ),
        1
    );
}

#[test]
fn a_dependency_on_the_repositorys_own_package_is_linked_not_locked() {
    // mobx's "Version Packages" (changesets): mobx-react's range of its workspace sibling
    // mobx-react-lite moves with the sibling's version; yarn links it.
    let base = [
        (
            "package.json",
            "{\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
        ),
        ("yarn.lock", "# yarn lockfile v1\n"),
        (
            "packages/mobx-react-lite/package.json",
            "{\n  \"name\": \"mobx-react-lite\",\n  \"version\": \"4.0.6\"\n}\n",
        ),
        (
            "packages/mobx-react/package.json",
            "{\n  \"name\": \"mobx-react\",\n  \"version\": \"9.1.0\",\n  \"dependencies\": {\n    \"mobx-react-lite\": \"^4.0.6\",\n    \"left-pad\": \"^1.3.0\"\n  }\n}\n",
        ),
    ];
    let bumped = "{\n  \"name\": \"mobx-react\",\n  \"version\": \"9.1.1\",\n  \"dependencies\": {\n    \"mobx-react-lite\": \"^4.0.7\",\n    \"left-pad\": \"^1.3.0\"\n  }\n}\n";
    let sibling = "{\n  \"name\": \"mobx-react-lite\",\n  \"version\": \"4.0.7\"\n}\n";
    assert_eq!(
        findings(
            &base,
            &[
                ("packages/mobx-react/package.json", bumped),
                ("packages/mobx-react-lite/package.json", sibling)
            ],
            MANIFEST_RULE
        ),
        0
    );
    // A registry dependency bumped in the same manifest without the lock still asks.
    let registry = bumped.replace("\"left-pad\": \"^1.3.0\"", "\"left-pad\": \"^1.4.0\"");
    assert_eq!(
        findings(
            &base,
            &[("packages/mobx-react/package.json", &registry)],
            MANIFEST_RULE
        ),
        1
    );
    // smallvec #205: a manifest bump whose lock was left behind.
    let manifest = |v: &str| {
        format!(
            "[package]\nname = \"fuzz\"\nversion = \"0.0.0\"\n\n[dependencies]\nhonggfuzz = \"{v}\"\n"
        )
    };
    let base = [
        ("fuzz/Cargo.toml", &manifest("0.5.45") as &str),
        ("fuzz/Cargo.lock", "version = 3\n"),
    ];
    assert_eq!(
        findings(
            &base,
            &[("fuzz/Cargo.toml", &manifest("0.5.47"))],
            MANIFEST_RULE
        ),
        1
    );
}

/// clap #5599 raised `backtrace = "0.3.67"` to `"0.3.73"`, the version Cargo.lock already
/// held; msw #1399 added `statuses: ^2.0.0` where yarn.lock already had that entry: the lock
/// needed no change. A requirement the lock does not satisfy, a Cargo dependency new to the
/// manifest and a range a yarn lock has no entry for still ask.
#[test]
fn a_manifest_requirement_the_lock_already_resolves_asks_nothing() {
    let manifest = |backtrace: &str, extra: &str| {
        format!(
            "[package]\nname = \"clap_builder\"\nversion = \"4.5.0\"\n\n[dependencies]\nbacktrace = {{ version = \"{backtrace}\", optional = true }}\n{extra}"
        )
    };
    let lock = "version = 3\n\n[[package]]\nname = \"backtrace\"\nversion = \"0.3.73\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[[package]]\nname = \"clap_builder\"\nversion = \"4.5.0\"\ndependencies = [\n \"backtrace\",\n]\n";
    let base = manifest("0.3.67", "");
    let cargo = |head: &str| {
        findings(
            &[("Cargo.toml", &base), ("Cargo.lock", lock)],
            &[("Cargo.toml", head)],
            MANIFEST_RULE,
        )
    };
    assert_eq!(cargo(&manifest("0.3.73", "")), 0);
    assert_eq!(cargo(&manifest("0.3.74", "")), 1);
    assert_eq!(cargo(&manifest("0.3.67", "rand = \"0.8\"\n")), 1);
    let package = |dev: &str| {
        format!(
            "{{\n  \"name\": \"msw\",\n  \"version\": \"0.40.0\",\n  \"dependencies\": {{\n    \"outvariant\": \"^1.2.0\"{dev}\n  }}\n}}\n"
        )
    };
    let yarn = "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\noutvariant@^1.2.0:\n  version \"1.2.1\"\n\nstatuses@2.0.1, statuses@^2.0.0:\n  version \"2.0.1\"\n";
    let npm = |head: &str| {
        findings(
            &[("package.json", &package("")), ("yarn.lock", yarn)],
            &[("package.json", head)],
            MANIFEST_RULE,
        )
    };
    assert_eq!(npm(&package(",\n    \"statuses\": \"^2.0.0\"")), 0);
    assert_eq!(npm(&package(",\n    \"statuses\": \"^3.0.0\"")), 1);
}

/// A diff adding `path` with `lines`, scanned with `files` as the repository's file list.
fn added_with(path: &str, lines: &[&str], files: &[&str]) -> Vec<(String, u32)> {
    let mut text = format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n",
        lines.len()
    );
    for line in lines {
        text += &format!("+{line}\n");
    }
    let options = ScanOptions {
        repo_files: Some(files.iter().map(|f| f.to_string()).collect()),
        ..ScanOptions::default()
    };
    hits(&BUILTIN.scan(&diff(&text), &options))
}

#[test]
fn a_first_lock_for_a_manifest_that_already_existed_is_no_lock_changed_alone() {
    // resty #375 "Add go.sum to the project": go.sum was ignored, now committed for the go.mod
    // the repository already had.
    let go_sum = [
        "golang.org/x/net v0.0.0-20200513185701-a91f0712d120 h1:abc=",
        "golang.org/x/net v0.0.0-20200513185701-a91f0712d120/go.mod h1:def=",
    ];
    assert_eq!(
        added_with("go.sum", &go_sum, &["go.mod", "go.sum", "client.go"]),
        vec![]
    );
    // A second package manager's lock beside the one the manifest already has is a decision
    // worth a question.
    let yarn = ["left-pad@^1.3.0:", "  version \"1.3.0\""];
    assert_eq!(
        added_with(
            "yarn.lock",
            &yarn,
            &["package.json", "package-lock.json", "yarn.lock"]
        ),
        vec![("deps/lockfile-without-manifest".to_string(), 1)]
    );
}

#[test]
fn a_go_requirement_go_sum_already_satisfies_asks_nothing_of_it() {
    // A module replaced by a local path is built from the repository, never downloaded: its
    // requirement's version moves with the project (an example module following its root).
    let go_mod = |version: &str, indirect: &str| {
        format!(
            "module example.com/app/example\n\ngo 1.24\n\nreplace (\n\texample.com/app => ../..\n)\n\nrequire example.com/app {version}\n\nrequire (\n\tgolang.org/x/sys v0.1.0 // indirect\n{indirect})\n"
        )
    };
    let go_sum = "golang.org/x/sys v0.1.0 h1:sys=\ngolang.org/x/sys v0.1.0/go.mod h1:sysmod=\ngolang.org/x/net v0.2.0 h1:net=\ngolang.org/x/net v0.2.0/go.mod h1:netmod=\n";
    let base = [
        ("example/go.mod", &go_mod("v1.0.0", "") as &str),
        ("example/go.sum", go_sum),
    ];
    let replaced = go_mod("v1.1.0", "");
    assert_eq!(
        findings(&base, &[("example/go.mod", &replaced)], MANIFEST_RULE),
        0
    );
    // A requirement whose hashes go.sum already holds (an indirect one made explicit).
    let held = go_mod("v1.0.0", "\tgolang.org/x/net v0.2.0 // indirect\n");
    assert_eq!(
        findings(&base, &[("example/go.mod", &held)], MANIFEST_RULE),
        0
    );
    // A version go.sum has no hashes for still asks.
    let missing = go_mod("v1.0.0", "\tgolang.org/x/net v0.3.0 // indirect\n");
    assert_eq!(
        findings(&base, &[("example/go.mod", &missing)], MANIFEST_RULE),
        1
    );
    // A module no longer required asks nothing of go.sum (a local module renamed to its `/v2`
    // path, replaced by the same folder): go.sum may keep hashes the go command no longer reads.
    let renamed = replaced
        .replace("example.com/app =>", "example.com/app/v2 =>")
        .replace(
            "require example.com/app v1.1.0",
            "require example.com/app/v2 v2.0.0",
        );
    assert_eq!(
        findings(&base, &[("example/go.mod", &renamed)], MANIFEST_RULE),
        0
    );
    let dropped = go_mod("v1.0.0", "").replace(
        "	golang.org/x/sys v0.1.0 // indirect
",
        "",
    );
    assert_eq!(
        findings(&base, &[("example/go.mod", &dropped)], MANIFEST_RULE),
        0
    );
    // In a Go workspace the go command reads every used module's go.sum: a requirement a
    // provider module of the same workspace already locked needs nothing in this one's.
    let provider_sum =
        "golang.org/x/net v0.3.0 h1:net3=\ngolang.org/x/net v0.3.0/go.mod h1:net3mod=\n";
    let workspace = [
        ("example/go.mod", &go_mod("v1.0.0", "") as &str),
        ("example/go.sum", go_sum),
        (
            "go.work",
            "go 1.24\n\nuse (\n\t./example\n\t./providers/net\n)\n",
        ),
        (
            "providers/net/go.mod",
            "module example.com/app/providers/net\n\ngo 1.24\n",
        ),
        ("providers/net/go.sum", provider_sum),
    ];
    assert_eq!(
        findings(&workspace, &[("example/go.mod", &missing)], MANIFEST_RULE),
        0
    );
    // A workspace that does not use the module lends it nothing.
    let outside = [
        workspace[0],
        workspace[1],
        ("go.work", "go 1.24\n\nuse ./providers/net\n"),
        workspace[3],
        workspace[4],
    ];
    assert_eq!(
        findings(&outside, &[("example/go.mod", &missing)], MANIFEST_RULE),
        1
    );
    // A replace to another module (not a path) is downloaded: its requirement still asks.
    let elsewhere = replaced.replace("=> ../..", "=> example.com/fork v1.1.0");
    assert_eq!(
        findings(&base, &[("example/go.mod", &elsewhere)], MANIFEST_RULE),
        1
    );
}

#[test]
fn a_package_json_setting_that_is_no_version_range_is_no_dependency() {
    // A size budget of a bundle checker nested in its own object: "12.6 kB" names no version.
    let manifest = |size: &str| {
        format!(
            "{{\n  \"name\": \"form\",\n  \"version\": \"7.0.0\",\n  \"dependencies\": {{\n    \"left-pad\": \"^1.3.0\"\n  }},\n  \"bundlewatch\": {{\n    \"files\": [\n      {{\n        \"path\": \"./dist/index.js\",\n        \"maxSize\": \"{size}\"\n      }}\n    ]\n  }}\n}}\n"
        )
    };
    let base = [
        ("package.json", &manifest("12.5 kB") as &str),
        ("yarn.lock", "# yarn lockfile v1\n"),
    ];
    let budget = manifest("12.6 kB");
    assert_eq!(
        findings(&base, &[("package.json", &budget)], MANIFEST_RULE),
        0
    );
    // A range the hunk shows outside any object still counts.
    let bumped = manifest("12.5 kB").replace("\"^1.3.0\"", "\"^1.4.0\"");
    assert_eq!(
        findings(&base, &[("package.json", &bumped)], MANIFEST_RULE),
        1
    );
}

#[test]
fn a_go_sum_catching_up_with_the_versions_its_go_mod_requires_is_a_refresh() {
    // go.mod asked for newer test tools in an earlier change; go.sum follows alone.
    let go_mod = "module example.com/app\n\ngo 1.21\n\nrequire example.com/tool v1.1.0\n";
    let sum = |version: &str| {
        format!(
            "example.com/tool {version} h1:zip{version}=\nexample.com/tool {version}/go.mod h1:mod{version}=\n"
        )
    };
    let base = [("go.mod", go_mod), ("go.sum", &sum("v1.0.0") as &str)];
    assert_eq!(findings(&base, &[("go.sum", &sum("v1.1.0"))], LOCK_RULE), 0);
    // A version go.mod does not require is new to the graph: still asked.
    assert_eq!(findings(&base, &[("go.sum", &sum("v1.2.0"))], LOCK_RULE), 1);
    // A module go.mod never names, added alone: still asked.
    let stranger = format!("{}example.com/other v1.0.0 h1:o=\n", sum("v1.0.0"));
    assert_eq!(findings(&base, &[("go.sum", &stranger)], LOCK_RULE), 1);
    // A hash that changed for a version it held: not what any tool writes.
    let rehashed = sum("v1.0.0").replace("h1:zipv1.0.0=", "h1:other=");
    assert_eq!(findings(&base, &[("go.sum", &rehashed)], LOCK_RULE), 1);
    // Versions dropped (the graph pruned by `go mod tidy`) bring in nothing.
    let pruned = format!("{}example.com/old v0.1.0/go.mod h1:old=\n", sum("v1.0.0"));
    assert_eq!(
        findings(
            &[("go.mod", go_mod), ("go.sum", &pruned)],
            &[("go.sum", &sum("v1.0.0"))],
            LOCK_RULE
        ),
        0
    );
}

/// A package's own `peerDependencies` are its users' to install: pnpm's and yarn's locks hold
/// what was installed, so widening a peer range changes nothing there. npm's lock copies the
/// root package's peers, and a development dependency beside them is locked in every lock.
#[test]
fn a_peer_range_changed_without_the_lock_is_no_stale_lock_where_the_lock_holds_no_peers() {
    let manifest = |peer: &str, dev: &str| {
        format!(
            r#"{{
  "name": "kv",
  "version": "1.0.0",
  "devDependencies": {{
    "store": "{dev}"
  }},
  "peerDependencies": {{
    "store": "{peer}"
  }},
  "peerDependenciesMeta": {{
    "store": {{ "optional": true }}
  }}
}}
"#
        )
    };
    let lock = "lockfileVersion: '9.0'\nimporters:\n  .:\n    devDependencies:\n      store:\n        specifier: ^8.0.0\n        version: 8.0.0\n";
    let base_manifest = manifest("^6 || ^7", "^8.0.0");
    let widened = manifest("^6 || ^7 || ^8", "^8.0.0");
    let dev_bumped = manifest("^6 || ^7", "^8.1.0");
    let pnpm = |head: &str| {
        findings(
            &[("package.json", &base_manifest), ("pnpm-lock.yaml", lock)],
            &[("package.json", head)],
            MANIFEST_RULE,
        )
    };
    assert_eq!(pnpm(&widened), 0);
    assert_eq!(pnpm(&dev_bumped), 1);
    // The hunk starts inside `peerDependencies`, its header further above than git shows.
    let many = |last: &str| {
        let peers: String = (0..12)
            .map(|i| format!("    \"peer-{i}\": \"^1.0.0\",\n"))
            .collect();
        format!(
            "{{\n  \"name\": \"kv\",\n  \"peerDependencies\": {{\n{peers}    \"store\": \"{last}\"\n  }}\n}}\n"
        )
    };
    let deep = findings(
        &[
            ("package.json", &many("^6 || ^7")),
            ("pnpm-lock.yaml", lock),
        ],
        &[("package.json", &many("^6 || ^7 || ^8"))],
        MANIFEST_RULE,
    );
    assert_eq!(deep, 0);
    let npm = findings(
        &[
            ("package.json", &base_manifest),
            (
                "package-lock.json",
                &npm_lock("^6 || ^7", "7.0.0", "registry.npmjs.org"),
            ),
        ],
        &[("package.json", &widened)],
        MANIFEST_RULE,
    );
    assert_eq!(npm, 1);
}

/// bun's binary lock is a lock: a docs folder with its own `bun.lockb` that changed with its
/// manifest asks nothing of the root's pnpm lock.
#[test]
fn a_folder_with_its_own_binary_bun_lock_is_locked_by_it() {
    let (docs16, docs17) = (
        "{\n  \"devDependencies\": {\n    \"undocs\": \"^0.2.16\"\n  }\n}\n",
        "{\n  \"devDependencies\": {\n    \"undocs\": \"^0.2.17\"\n  }\n}\n",
    );
    let base = [
        ("package.json", "{\n  \"name\": \"kv\"\n}\n"),
        ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
        ("docs/package.json", docs16),
        ("docs/bun.lockb", "\u{0}bun-lockfile-16"),
    ];
    let head = [
        ("docs/package.json", docs17),
        ("docs/bun.lockb", "\u{0}bun-lockfile-17"),
    ];
    assert_eq!(findings(&base, &head, MANIFEST_RULE), 0);
    let unlocked = [("docs/package.json", docs17)];
    assert_eq!(findings(&base, &unlocked, MANIFEST_RULE), 1);
}
