//! The file checks on diffs the examples do not cover.

use std::collections::BTreeSet;

use super::*;
use crate::diff::Side;

fn scan_with_repo(text: &str, repo_files: &[&str]) -> ScanResult {
    let options = ScanOptions {
        repo_files: Some(
            repo_files
                .iter()
                .map(|p| p.to_string())
                .collect::<BTreeSet<_>>(),
        ),
        ..ScanOptions::default()
    };
    BUILTIN.scan(&diff(text), &options)
}

const PACKAGE_JSON_DEP: &str = "\
diff --git a/web/package.json b/web/package.json
--- a/web/package.json
+++ b/web/package.json
@@ -5,3 +5,4 @@
   \"dependencies\": {
     \"react\": \"^18.2.0\",
+    \"left-pad\": \"^1.3.0\",
     \"zod\": \"^3.22.0\"
";

#[test]
fn a_manifest_without_its_lock_is_flagged_only_when_the_repository_has_a_lock() {
    let with_lock = scan_with_repo(PACKAGE_JSON_DEP, &["web/package.json", "package-lock.json"]);
    assert_eq!(rules(&with_lock), vec!["deps/manifest-without-lockfile"]);
    let anchor = with_lock.nodes[0].anchor.as_ref().unwrap();
    assert_eq!((anchor.side, anchor.start_line), (Side::Right, 7));
    assert!(
        with_lock.nodes[0]
            .text
            .evidence
            .contains("package-lock.json did not change")
    );

    let without_lock = scan_with_repo(PACKAGE_JSON_DEP, &["web/package.json"]);
    assert_eq!(rules(&without_lock), Vec::<&str>::new());

    let unknown = scan(PACKAGE_JSON_DEP);
    assert_eq!(rules(&unknown), Vec::<&str>::new());
    assert!(
        unknown
            .coverage
            .notes
            .iter()
            .any(|n| n.contains("deps/manifest-without-lockfile")),
        "{:?}",
        unknown.coverage.notes
    );
}

/// poetry-core #708 changed the dependencies of `tests/fixtures/*/pyproject.toml`: fixtures the
/// tests read, which the project's lock at the root never locked. A manifest under the tests
/// with its own lock beside it is a project of its own and still flagged.
#[test]
fn a_fixture_manifest_under_the_tests_is_not_the_projects_dependencies() {
    let fixture = PACKAGE_JSON_DEP.replace("web/package.json", "tests/fixtures/app/package.json");
    let found = scan_with_repo(
        &fixture,
        &["tests/fixtures/app/package.json", "package-lock.json"],
    );
    assert_eq!(rules(&found), Vec::<&str>::new());
    let own_lock = scan_with_repo(
        &fixture,
        &[
            "tests/fixtures/app/package.json",
            "tests/fixtures/app/package-lock.json",
        ],
    );
    assert_eq!(rules(&own_lock), vec!["deps/manifest-without-lockfile"]);
}

#[test]
fn a_dependency_moved_within_the_manifest_needs_no_lock_change() {
    // axum #3784: `tokio` moved from `[dependencies]` into target tables, same version.
    let moved = "\
diff --git a/axum/Cargo.toml b/axum/Cargo.toml
--- a/axum/Cargo.toml
+++ b/axum/Cargo.toml
@@ -102,4 +101,10 @@ __private_docs = [
 __private = [\"tokio\", \"http1\", \"dep:reqwest\"]
 
+[target.'cfg(not(target_arch = \"wasm32\"))'.dependencies]
+tokio = { package = \"tokio\", version = \"1.44\", features = [\"time\", \"net\"], optional = true }
+
+[target.'cfg(target_arch = \"wasm32\")'.dependencies]
+tokio = { package = \"tokio\", version = \"1.44\", features = [\"time\"], optional = true }
+
 [dependencies]
 axum-core = { path = \"../axum-core\", version = \"0.5.6\" }
@@ -130,3 +135,2 @@ serde = { version = \"1.0.211\", optional = true }
 sha1 = { version = \"0.10\", optional = true }
-tokio = { package = \"tokio\", version = \"1.44\", features = [\"time\"], optional = true }
 tokio-tungstenite = { version = \"0.29.0\", optional = true }
";
    let lock = ["axum/Cargo.toml", "Cargo.lock"];
    assert_eq!(rules(&scan_with_repo(moved, &lock)), Vec::<&str>::new());
    // The same move with a new version requirement is a change the lock must follow.
    let bumped = moved.replace(
        "+tokio = { package = \"tokio\", version = \"1.44\", features = [\"time\"]",
        "+tokio = { package = \"tokio\", version = \"1.47\", features = [\"time\"]",
    );
    let found = scan_with_repo(&bumped, &lock);
    assert_eq!(rules(&found), vec!["deps/manifest-without-lockfile"]);
    let anchor = found.nodes[0].anchor.as_ref().unwrap();
    assert_eq!((anchor.side, anchor.start_line), (Side::Right, 107));
}

#[test]
fn a_manifest_change_outside_dependencies_needs_no_lock_change() {
    let text = "\
diff --git a/package.json b/package.json
--- a/package.json
+++ b/package.json
@@ -1,4 +1,4 @@
 {
   \"name\": \"web\",
-  \"version\": \"1.0.0\",
+  \"version\": \"1.1.0\",
";
    assert_eq!(
        rules(&scan_with_repo(text, &["package-lock.json"])),
        Vec::<&str>::new()
    );
}

#[test]
fn a_url_setting_outside_a_dependencies_object_is_no_dependency() {
    // dayjs #296: a jest setting inside `"jest": {…}`, whose header the hunk does not show.
    let setting = "\
diff --git a/package.json b/package.json
--- a/package.json
+++ b/package.json
@@ -26,3 +26,4 @@
     ],
     \"testRegex\": \"test/(.*?/)?.*test.js$\",
+    \"testURL\": \"http://localhost\",
     \"coverageDirectory\": \"./coverage/\",
";
    let lock = ["package.json", "package-lock.json"];
    assert_eq!(rules(&scan_with_repo(setting, &lock)), Vec::<&str>::new());
    // Inside a dependencies object a URL names a dependency, as does a version anywhere.
    let in_dependencies = setting.replace("     ],\n", "   \"dependencies\": {\n");
    assert_eq!(
        rules(&scan_with_repo(&in_dependencies, &lock)),
        vec!["deps/manifest-without-lockfile"]
    );
    // npm's other dependency objects are written in camel case (`devDependencies`,
    // `peerDependencies`, `optionalDependencies`): their lines are dependencies too.
    for object in [
        "devDependencies",
        "peerDependencies",
        "optionalDependencies",
    ] {
        let in_object = setting.replace("     ],\n", &format!("   \"{object}\": {{\n"));
        assert_eq!(
            rules(&scan_with_repo(&in_object, &lock)),
            vec!["deps/manifest-without-lockfile"],
            "{object}"
        );
    }
    let version = setting.replace("\"http://localhost\"", "\"^1.2.0\"");
    assert_eq!(
        rules(&scan_with_repo(&version, &lock)),
        vec!["deps/manifest-without-lockfile"]
    );
}

#[test]
fn go_sum_without_go_mod_and_workspace_locks_explained_by_members() {
    let go_sum = "\
diff --git a/go.sum b/go.sum
--- a/go.sum
+++ b/go.sum
@@ -1,1 +1,2 @@
 github.com/a/b v1.0.0 h1:abc=
+github.com/a/b v1.1.0 h1:def=
";
    assert_eq!(rules(&scan(go_sum)), vec!["deps/lockfile-without-manifest"]);
    let with_mod = format!(
        "{go_sum}diff --git a/go.mod b/go.mod\n--- a/go.mod\n+++ b/go.mod\n@@ -3,1 +3,1 @@\n-require github.com/a/b v1.0.0\n+require github.com/a/b v1.1.0\n"
    );
    assert_eq!(rules(&scan(&with_mod)), Vec::<&str>::new());
    // A manifest in another directory does not explain a lock elsewhere.
    let sibling = format!(
        "{}diff --git a/other/go.mod b/other/go.mod\n--- a/other/go.mod\n+++ b/other/go.mod\n@@ -3,1 +3,1 @@\n-go 1.21\n+go 1.22\n",
        go_sum.replace("go.sum", "svc/go.sum")
    );
    assert_eq!(
        rules(&scan(&sibling)),
        vec!["deps/lockfile-without-manifest"]
    );
}

#[test]
fn a_lock_that_follows_a_dependency_changed_elsewhere_is_explained() {
    // bubbletea #354: the root go.mod bumps cancelreader; tutorials/go.sum follows (its
    // go.mod replaces the root module with `../`).
    let root_mod = "diff --git a/go.mod b/go.mod\n--- a/go.mod\n+++ b/go.mod\n@@ -5,3 +5,3 @@ require (\n \tgithub.com/mattn/go-isatty v0.0.14\n-\tgithub.com/muesli/cancelreader v0.2.1\n+\tgithub.com/muesli/cancelreader v0.2.2\n \tgithub.com/muesli/reflow v0.3.0\n";
    let tutorial_sum = "diff --git a/tutorials/go.sum b/tutorials/go.sum\n--- a/tutorials/go.sum\n+++ b/tutorials/go.sum\n@@ -9,2 +9,2 @@\n-github.com/muesli/cancelreader v0.2.1 h1:Xzd=\n+github.com/muesli/cancelreader v0.2.2 h1:3I4=\n";
    assert_eq!(
        rules(&scan(&format!("{root_mod}{tutorial_sum}"))),
        Vec::<&str>::new()
    );
    // A lock whose change names none of the dependencies a manifest changed still asks.
    let other_sum = tutorial_sum.replace("muesli/cancelreader", "muesli/cancelreader-x");
    assert_eq!(
        rules(&scan(&format!("{root_mod}{other_sum}"))),
        vec!["deps/lockfile-without-manifest"]
    );
    // npm: a package's lock follows a workspace sibling's bump of the same dependency.
    let sibling_manifest = "diff --git a/packages/ui/package.json b/packages/ui/package.json\n--- a/packages/ui/package.json\n+++ b/packages/ui/package.json\n@@ -5,2 +5,2 @@\n   \"dependencies\": {\n-    \"left-pad\": \"^1.2.0\",\n+    \"left-pad\": \"^1.3.0\",\n";
    let app_lock = "diff --git a/app/yarn.lock b/app/yarn.lock\n--- a/app/yarn.lock\n+++ b/app/yarn.lock\n@@ -1,2 +1,2 @@\n-left-pad@^1.2.0:\n+left-pad@^1.3.0:\n";
    assert_eq!(
        rules(&scan(&format!("{sibling_manifest}{app_lock}"))),
        Vec::<&str>::new()
    );
}

#[test]
fn a_go_requirement_marked_indirect_is_the_same_requirement() {
    // bubbletea #963: `termenv v0.15.2` moved from the direct `require` block to the
    // `// indirect` one; go.sum already holds it.
    let moved = "diff --git a/examples/go.mod b/examples/go.mod\n--- a/examples/go.mod\n+++ b/examples/go.mod\n@@ -13,3 +13,2 @@ require (\n \tgithub.com/muesli/reflow v0.3.0\n-\tgithub.com/muesli/termenv v0.15.2\n )\n@@ -32,2 +31,3 @@ require (\n \tgithub.com/muesli/cancelreader v0.2.2 // indirect\n+\tgithub.com/muesli/termenv v0.15.2 // indirect\n \tgithub.com/olekukonko/tablewriter v0.0.5 // indirect\n";
    let files = ["examples/go.mod", "examples/go.sum"];
    assert_eq!(rules(&scan_with_repo(moved, &files)), Vec::<&str>::new());
    // Moved and bumped: the lock must follow.
    let bumped = moved.replace(
        "+\tgithub.com/muesli/termenv v0.15.2",
        "+\tgithub.com/muesli/termenv v0.16.0",
    );
    assert_eq!(
        rules(&scan_with_repo(&bumped, &files)),
        vec!["deps/manifest-without-lockfile"]
    );
}

#[test]
fn pull_request_target_added_to_a_workflow_that_already_checks_out_the_head() {
    let text = "\
diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -1,8 +1,8 @@
 on:
-  pull_request:
+  pull_request_target:
 jobs:
   test:
     steps:
       - uses: actions/checkout@v4
         with:
           ref: ${{ github.event.pull_request.head.sha }}
";
    let result = scan(text);
    assert_eq!(rules(&result), vec!["actions/pull-request-target-checkout"]);
    assert_eq!(result.nodes[0].anchor.as_ref().unwrap().start_line, 8);
    assert_eq!(result.nodes[0].priority, crate::review::node::Priority::P0);
}

/// `ref:` is a checkout only as the input of a checkout action: an action that waits for the
/// head's checks (`lewagon/wait-on-check-action`, `ref: …head.sha`) runs none of its code. A
/// step whose action the diff does not show keeps the finding.
#[test]
fn a_head_ref_given_to_an_action_that_checks_nothing_out_is_no_checkout() {
    let workflow = |action: &str| {
        format!(
            "\
diff --git a/.github/workflows/automerge.yml b/.github/workflows/automerge.yml
new file mode 100644
--- /dev/null
+++ b/.github/workflows/automerge.yml
@@ -0,0 +1,12 @@
+on:
+  pull_request_target:
+jobs:
+  automerge:
+    runs-on: ubuntu-latest
+    steps:
+      - name: Wait for status checks
+        uses: {action}
+        with:
+          ref: ${{{{ github.event.pull_request.head.sha || github.sha }}}}
+          check-regexp: test*
+      - run: gh pr merge --auto --merge \"$PR_URL\"
"
        )
    };
    let waits = workflow("lewagon/wait-on-check-action@v1.3.1");
    assert_eq!(rules(&scan(&waits)), Vec::<&str>::new());
    let checks_out = workflow("actions/checkout@v4");
    assert_eq!(
        rules(&scan(&checks_out)),
        vec!["actions/pull-request-target-checkout"]
    );
    // The step's action is not in the hunk: the `ref:` still counts.
    let unseen = "\
diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -1,2 +1,2 @@
-on: pull_request
+on: pull_request_target
 jobs:
@@ -20,2 +20,2 @@
         with:
-          ref: main
+          ref: ${{ github.event.pull_request.head.sha }}
";
    assert_eq!(
        rules(&scan(unseen)),
        vec!["actions/pull-request-target-checkout"]
    );
}

#[test]
fn an_untouched_pull_request_target_workflow_is_not_this_change() {
    let text = "\
diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -1,3 +1,4 @@
 on:
   pull_request_target:
+# a comment
 jobs:
";
    assert_eq!(rules(&scan(text)), Vec::<&str>::new());
}

#[test]
fn docker_tags_pinned_by_digest_or_arg_pass_and_latest_fails_even_in_modified_files() {
    let text = "\
diff --git a/Dockerfile b/Dockerfile
--- a/Dockerfile
+++ b/Dockerfile
@@ -1,2 +1,4 @@
-FROM node:18
+FROM node:latest AS build
+FROM node@sha256:0123456789abcdef
+FROM registry.example.com:5000/team/app
 RUN npm ci
";
    let result = scan(text);
    assert_eq!(
        hits(&result),
        vec![
            ("docker/base-image-unpinned".to_string(), 1),
            ("docker/base-image-unpinned".to_string(), 3),
        ]
    );
    assert!(
        result.nodes[0]
            .text
            .evidence
            .contains("moving `latest` tag")
    );
    assert!(result.nodes[1].text.evidence.contains("has no tag"));
}

#[test]
fn a_lock_changed_for_the_projects_own_packages_or_by_another_tool_asks_nothing() {
    // uv.lock: only the editable project's version moved (a dynamic version from git).
    let editable = "diff --git a/uv.lock b/uv.lock\n--- a/uv.lock\n+++ b/uv.lock\n@@ -40,4 +40,4 @@\n [[package]]\n name = \"typer\"\n-version = \"0.12.3\"\n+version = \"0.12.4\"\n source = { editable = \".\" }\n";
    assert_eq!(rules(&scan(editable)), Vec::<&str>::new());
    // The same change to a registry package is a dependency bump nobody declared.
    let registry = editable.replace(
        "source = { editable = \".\" }",
        "source = { registry = \"https://pypi.org/simple\" }",
    );
    assert_eq!(
        rules(&scan(&registry)),
        vec!["deps/lockfile-without-manifest"]
    );
    // Cargo.lock: a workspace member has no `source` after its `version`.
    let member = "diff --git a/Cargo.lock b/Cargo.lock\n--- a/Cargo.lock\n+++ b/Cargo.lock\n@@ -80,5 +80,5 @@\n [[package]]\n name = \"tokio-util\"\n-version = \"0.7.10\"\n+version = \"0.7.11\"\n dependencies = [\n";
    assert_eq!(rules(&scan(member)), Vec::<&str>::new());
    let crate_bump = member.replace(
        " dependencies = [\n",
        " source = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
    );
    assert_eq!(
        rules(&scan(&crate_bump)),
        vec!["deps/lockfile-without-manifest"]
    );
    // kotlin-js-store/yarn.lock: Gradle's Kotlin/JS plugin writes it; no package.json owns it.
    let kotlin_js = "diff --git a/kotlin-js-store/yarn.lock b/kotlin-js-store/yarn.lock\n--- a/kotlin-js-store/yarn.lock\n+++ b/kotlin-js-store/yarn.lock\n@@ -10,2 +10,2 @@\n mocha@10.2.0:\n-  version \"10.2.0\"\n+  version \"10.7.0\"\n";
    let gradle = ["build.gradle.kts", "kotlin-js-store/yarn.lock"];
    assert_eq!(
        rules(&scan_with_repo(kotlin_js, &gradle)),
        Vec::<&str>::new()
    );
    let npm = ["package.json", "kotlin-js-store/yarn.lock"];
    assert_eq!(
        rules(&scan_with_repo(kotlin_js, &npm)),
        vec!["deps/lockfile-without-manifest"]
    );
}

#[test]
fn a_bots_lock_only_bump_asks_nothing() {
    let lock = "diff --git a/go.sum b/go.sum\n--- a/go.sum\n+++ b/go.sum\n@@ -1,1 +1,2 @@\n github.com/a/b v1.0.0 h1:abc=\n+github.com/a/b v1.1.0 h1:def=\n";
    let by = |author_is_bot| {
        let options = ScanOptions {
            author_is_bot,
            ..ScanOptions::default()
        };
        BUILTIN.scan(&diff(lock), &options)
    };
    assert_eq!(rules(&by(true)), Vec::<&str>::new());
    assert_eq!(rules(&by(false)), vec!["deps/lockfile-without-manifest"]);
}
