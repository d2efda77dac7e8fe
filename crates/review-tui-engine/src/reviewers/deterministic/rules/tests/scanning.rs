//! Scans of hand-written diffs: numbering, test-code tracking, caps, skips and node shape.

use super::*;
use crate::diff::Side;
use crate::review::fingerprint::fingerprint;
use crate::review::node::Source;
use crate::reviewers::deterministic::rules::SkipReason;

const LIB_RS: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -10,4 +10,5 @@ pub fn load(path: &Path) -> Config {
     let text = read(path);
-    let cfg = parse(&text)?;
+    let cfg = parse(&text).unwrap();
+    dbg!(&cfg);
     cfg
 }
@@ -40,3 +42,5 @@ pub fn load(path: &Path) -> Config {
 #[cfg(test)]
 mod tests {
+    let cfg = parse(\"x\").unwrap();
+    println!(\"{cfg:?}\");
     use super::*;
";

#[test]
fn added_lines_are_read_with_their_new_numbers_and_test_modules_are_quiet() {
    let result = scan(LIB_RS);
    assert_eq!(
        hits(&result),
        vec![
            ("rust/unwrap-outside-tests".to_string(), 11),
            ("rust/dbg-macro".to_string(), 12),
        ]
    );
    assert_eq!(result.coverage.files_scanned, 1);
    assert_eq!(result.coverage.lines_scanned, 5);
}

#[test]
fn a_hunk_inside_mod_tests_is_known_from_its_section_heading() {
    let result = scan(
        "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
         @@ -90,2 +90,3 @@ mod tests {\n     fn helper() {\n+        let v = parse(\"1\").unwrap();\n     }\n",
    );
    assert_eq!(hits(&result), vec![]);
}

#[test]
fn a_test_function_quiets_the_rest_of_its_hunk_only() {
    let result = scan(
        "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
         @@ -5,1 +5,3 @@\n #[test]\n+fn t() { parse(\"1\").unwrap(); }\n+fn u() {}\n\
         @@ -50,1 +52,2 @@\n fn real() {\n+    parse(\"1\").unwrap();\n",
    );
    assert_eq!(
        hits(&result),
        vec![("rust/unwrap-outside-tests".to_string(), 53)]
    );
}

#[test]
fn left_rules_read_removed_lines_with_old_numbers() {
    let result = scan(
        "diff --git a/app/views.py b/app/views.py\n--- a/app/views.py\n+++ b/app/views.py\n\
         @@ -20,3 +20,2 @@\n-@login_required\n def invoice(request):\n     pass\n",
    );
    let node = &result.nodes[0];
    assert_eq!(node.rule.as_deref(), Some("any/removed-auth-check"));
    let anchor = node.anchor.as_ref().unwrap();
    assert_eq!((anchor.side, anchor.start_line), (Side::Left, 20));
    assert_eq!(node.text.evidence, "Removed: `@login_required`");
}

#[test]
fn nodes_carry_the_rule_metadata_origin_and_a_stable_fingerprint() {
    let result = scan(LIB_RS);
    let node = &result.nodes[0];
    let rule = BUILTIN.get("rust/unwrap-outside-tests").cloned().unwrap();
    assert_eq!(node.origin.reviewer, "rules");
    assert_eq!(node.origin.source, Source::Deterministic);
    assert_eq!(node.kind, rule.meta.kind);
    assert_eq!(node.priority, rule.meta.priority);
    assert_eq!(node.triage.category, rule.meta.category);
    assert_eq!(node.confidence, rule.meta.confidence);
    assert_eq!(node.text.title, rule.meta.title);
    assert_eq!(node.text.evidence, "`let cfg = parse(&text).unwrap();`");
    let expected = fingerprint(
        "rust/unwrap-outside-tests",
        "src/lib.rs",
        &["    let cfg = parse(&text).unwrap();"],
    );
    assert_eq!(node.fingerprint, expected);
    assert_eq!(node.id, format!("rules-{expected}-11"));
    let draft = crate::review::node::NodeDraft {
        reasoning: node.reasoning.clone(),
        kind: node.kind,
        priority: node.priority,
        triage: node.triage.clone(),
        rule: node.rule.clone(),
        anchor: node.anchor.clone(),
        text: node.text.clone(),
        fix: node.fix.clone(),
        confidence: node.confidence,
        scope: node.scope,
    };
    // Deterministic findings pass even the stricter model validation: they carry all texts.
    assert_eq!(draft.validate(true), Ok(()));
}

#[test]
fn the_same_line_repeated_is_one_finding_naming_the_others() {
    // One decision, one finding: the repeats join the first, which says where they are (ids
    // stay unique because a fingerprint is found once per scan).
    let mut text = String::from(
        "diff --git a/src/a.rs b/src/a.rs\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.rs\n@@ -0,0 +1,3 @@\n",
    );
    for _ in 0..3 {
        text.push_str("+    dbg!(x);\n");
    }
    let result = scan(&text);
    assert_eq!(result.nodes.len(), 1);
    assert!(
        result.nodes[0]
            .text
            .evidence
            .ends_with("(the same code 2 more times in this change: src/a.rs:2, src/a.rs:3)"),
        "{}",
        result.nodes[0].text.evidence
    );
}

#[test]
fn findings_per_rule_per_file_are_capped_and_the_cap_is_reported() {
    let mut text = String::from(
        "diff --git a/src/a.rs b/src/a.rs\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.rs\n@@ -0,0 +1,30 @@\n",
    );
    for i in 0..30 {
        text.push_str(&format!("+    dbg!(x{i});\n"));
    }
    let options = ScanOptions {
        max_findings_per_rule_per_file: 5,
        ..ScanOptions::default()
    };
    let result = BUILTIN.scan(&diff(&text), &options);
    assert_eq!(result.nodes.len(), 5);
    let capped = &result.coverage.capped;
    assert_eq!(capped.len(), 1);
    assert_eq!(
        (capped[0].rule.as_str(), capped[0].found, capped[0].kept),
        ("rust/dbg-macro", 30, 5)
    );
}

#[test]
fn binary_generated_vendored_lock_and_huge_files_are_skipped_with_a_reason() {
    // Files the base already had: the base made them vendored or generated.
    let changed = |path: &str, line: &str| {
        format!(
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,1 +1,2 @@\n x\n+{line}\n"
        )
    };
    let mut text = String::new();
    text.push_str(&changed("web/app.min.js", "console.log(1)"));
    text.push_str(&changed("vendor/lib/x.go", "InsecureSkipVerify: true,"));
    text.push_str(&changed("node_modules/a/index.js", "eval(x)"));
    text.push_str(
        "diff --git a/gen/api.go b/gen/api.go\n--- a/gen/api.go\n+++ b/gen/api.go\n@@ -1,1 +1,2 @@\n+// Code generated by protoc. DO NOT EDIT.\n x\n",
    );
    text.push_str(&changed("Cargo.lock", "# TODO"));
    text.push_str("diff --git a/a.bin b/a.bin\nindex 1111111..2222222 100644\nBinary files a/a.bin and b/a.bin differ\n");
    text.push_str(&changed("src/big.rs", "dbg!(1);"));
    let options = ScanOptions {
        max_added_lines_per_file: 0,
        ..ScanOptions::default()
    };
    let result = BUILTIN.scan(&diff(&text), &options);
    // The security rules read every skipped file but the binary one; other line rules do not
    // (file rules still look: the lock file changed without a manifest), and since none of the
    // change's code was read by the other rules, the scan says so.
    assert_eq!(
        hits(&result),
        vec![
            ("go/tls-insecure-skip-verify".to_string(), 2),
            ("js/eval-built-code".to_string(), 2),
            ("deps/lockfile-without-manifest".to_string(), 2),
            ("any/unread-code".to_string(), 2),
        ]
    );
    let reasons: Vec<(&str, String, bool)> = result
        .coverage
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.reason.to_string(), s.security_rules_read))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("web/app.min.js", "generated (*.min.js)".to_string(), true),
            ("vendor/lib/x.go", "vendored (vendor/)".to_string(), true),
            (
                "node_modules/a/index.js",
                "vendored (node_modules/)".to_string(),
                true
            ),
            (
                "gen/api.go",
                "generated (marked as generated in its header)".to_string(),
                true
            ),
            ("Cargo.lock", "lock file".to_string(), true),
            ("a.bin", "binary".to_string(), false),
            (
                "src/big.rs",
                "too large (1 added lines, limit 0)".to_string(),
                true
            ),
        ]
    );
    assert_eq!(result.coverage.files_scanned, 0);
    assert!(matches!(
        result.coverage.skipped[6].reason,
        SkipReason::TooLarge {
            added_lines: 1,
            limit: 0
        }
    ));
}

#[test]
fn paths_a_pull_request_adds_are_read_whatever_they_are_called() {
    // The PR's author chooses `vendor/` and `.min.js`: new files there are read like any other.
    let new_file = |path: &str, line: &str| {
        format!(
            "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,1 @@\n+{line}\n"
        )
    };
    let mut text = new_file("vendor/helper.py", "os.system(\"curl \" + url + \" | sh\")");
    text.push_str(&new_file("src/app.min.js", "eval(x)"));
    text.push_str(&new_file(
        "src/gen.go",
        "// Code generated by hand. DO NOT EDIT.",
    ));
    let result = scan(&text);
    assert_eq!(
        hits(&result),
        vec![
            ("python/os-system".to_string(), 1),
            ("js/eval-built-code".to_string(), 1)
        ]
    );
    assert!(result.coverage.skipped.is_empty());
    assert_eq!(result.coverage.files_scanned, 3);
}

#[test]
fn only_the_configuration_skips_new_paths_and_the_security_rules_still_read_them() {
    let config = crate::config::Config {
        skip_paths: vec!["third_party/**".into()],
        ..crate::config::Config::default()
    };
    let catalog = Catalog::builtin().with_overrides(&config);
    let text = "diff --git a/third_party/x/run.py b/third_party/x/run.py\nnew file mode 100644\n--- /dev/null\n+++ b/third_party/x/run.py\n@@ -0,0 +1,2 @@\n+print(1)\n+os.system(\"rm -rf \" + path)\n";
    let result = catalog.scan(&diff(text), &ScanOptions::default());
    assert_eq!(
        hits(&result),
        vec![
            ("python/os-system".to_string(), 2),
            ("any/unread-code".to_string(), 1)
        ]
    );
    assert_eq!(
        result.coverage.skipped[0].reason.to_string(),
        "configured to skip (third_party/**)"
    );
}

#[test]
fn a_minified_line_is_read_by_the_security_rules_only() {
    let line = format!("var a={};eval(x);", "1+".repeat(15_000) + "1");
    let text = format!(
        "diff --git a/web/app.js b/web/app.js\nnew file mode 100644\n--- /dev/null\n+++ b/web/app.js\n@@ -0,0 +1,1 @@\n+{line};console.log(a)\n"
    );
    let result = scan(&text);
    assert_eq!(
        hits(&result),
        vec![
            ("js/eval-built-code".to_string(), 1),
            ("any/unread-code".to_string(), 1)
        ]
    );
    assert!(matches!(
        result.coverage.skipped[0].reason,
        SkipReason::Minified { longest_line } if longest_line > 30_000
    ));
}

#[test]
fn a_deleted_file_raises_each_left_rule_once() {
    let mut text = String::from(
        "diff --git a/tests/test_api.py b/tests/test_api.py\ndeleted file mode 100644\n--- a/tests/test_api.py\n+++ /dev/null\n@@ -1,6 +0,0 @@\n",
    );
    for i in 0..3 {
        text.push_str(&format!(
            "-def test_case_{i}(client):\n-    assert client\n"
        ));
    }
    let result = scan(&text);
    assert_eq!(hits(&result), vec![("any/removed-test".to_string(), 1)]);
    // The removed tests fold into the one finding, which names their count.
    assert!(
        result.nodes[0]
            .text
            .evidence
            .contains("(3 in this change, in 1 file)"),
        "{}",
        result.nodes[0].text.evidence
    );
}

#[test]
fn join_next_rules_report_once_with_both_lines_anchored() {
    let result = scan(
        "diff --git a/app/c.py b/app/c.py\n--- a/app/c.py\n+++ b/app/c.py\n\
         @@ -1,2 +1,4 @@\n try:\n     refresh()\n+except Exception:\n+    pass\n",
    );
    assert_eq!(hits(&result), vec![("python/except-pass".to_string(), 3)]);
    let anchor = result.nodes[0].anchor.as_ref().unwrap();
    assert_eq!((anchor.start_line, anchor.end_line), (3, 4));
    assert_eq!(result.nodes[0].text.evidence, "`except Exception: ⏎ pass`");
}

#[test]
fn an_empty_diff_scans_nothing() {
    let result = BUILTIN.scan(&Diff::default(), &ScanOptions::default());
    assert!(result.nodes.is_empty());
    assert_eq!(result.coverage.files_scanned, 0);
    assert!(result.coverage.rules_run >= 30);
}

/// tempfile #345 added the same `curl … | sh` to two jobs of one workflow, parking_lot #291
/// the same Deref body to seven guard types: one decision, reported once at the first place,
/// naming the count and the other places. The finding keeps its rule's priority.
#[test]
fn the_same_line_written_in_several_places_of_a_change_is_one_finding() {
    let result = scan(
        "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n\
         --- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n\
         @@ -10,1 +10,2 @@\n   steps:\n+      - run: curl -LsSf https://astral.sh/uv/install.sh | sh\n\
         @@ -40,1 +41,2 @@\n   steps:\n+      - run: curl -LsSf https://astral.sh/uv/install.sh | sh\n\
         diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
         @@ -5,1 +5,3 @@\n fn a() {\n+    let v = parse(\"1\").unwrap();\n+    let w = parse(\"2\").unwrap();\n\
         @@ -50,1 +52,2 @@\n fn b() {\n+    let v = parse(\"1\").unwrap();\n",
    );
    assert_eq!(
        hits(&result),
        vec![
            ("shell/curl-pipe-installer".to_string(), 11),
            ("rust/unwrap-outside-tests".to_string(), 6),
            ("rust/unwrap-outside-tests".to_string(), 7),
            ("rust/unwrap-outside-tests".to_string(), 53),
        ]
    );
    let curl = &result.nodes[0];
    assert!(
        curl.text
            .evidence
            .contains("the same code 1 more time in this change")
            && curl.text.evidence.contains(".github/workflows/ci.yml:42"),
        "{}",
        curl.text.evidence
    );
    // A rule that does not fold (`unwrap`) keeps each identical line its own problem: its own
    // comment, matching itself in later rounds (tests/it/publish_identity.rs).
    assert!(
        !result.nodes[1].text.evidence.contains("in this change"),
        "{}",
        result.nodes[1].text.evidence
    );
}

/// tenacity #571: a lint fix took `# noqa: B902` off `except Exception:`; the swallow was
/// there before. A line whose code is unchanged and only its comment changed is not new,
/// for every rule that reads no comments.
#[test]
fn a_line_whose_only_change_is_its_trailing_comment_is_not_new() {
    let result = scan(
        "diff --git a/app/cache.py b/app/cache.py\n--- a/app/cache.py\n+++ b/app/cache.py\n\
         @@ -10,3 +10,3 @@ def refresh():\n         load()\n\
         -    except Exception:  # noqa: B902\n+    except Exception:\n         pass\n",
    );
    assert_eq!(hits(&result), vec![]);
    // A comment that hides a changed line of code does not hide the change.
    let result = scan(
        "diff --git a/app/cache.py b/app/cache.py\n--- a/app/cache.py\n+++ b/app/cache.py\n\
         @@ -10,3 +10,3 @@ def refresh():\n         load()\n\
         -    except KeyError:  # noqa: B902\n+    except Exception:\n         pass\n",
    );
    assert_eq!(hits(&result), vec![("python/except-pass".to_string(), 11)]);
}
