use super::*;

fn one_file(text: &str) -> FileDiff {
    let diff = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(diff.files.len(), 1, "{diff:#?}");
    diff.files.into_iter().next().unwrap()
}

fn malformed(text: &str) -> (usize, Problem) {
    match parse(text) {
        Err(DiffError::Malformed { line, problem }) => (line, problem),
        other => panic!("expected a malformed-diff error, got {other:?}"),
    }
}

fn numbers(hunk: &Hunk) -> Vec<(LineKind, Option<u32>, Option<u32>, &str)> {
    hunk.lines
        .iter()
        .map(|l| (l.kind, l.old_line, l.new_line, l.text.as_str()))
        .collect()
}

#[test]
fn numbers_context_added_and_removed_lines() {
    let file = one_file(
        "diff --git a/src/lib.rs b/src/lib.rs\n\
         index 1111111..2222222 100644\n\
         --- a/src/lib.rs\n\
         +++ b/src/lib.rs\n\
         @@ -10,4 +10,5 @@ fn main() {\n \
          keep\n\
         -old\n\
         +new\n\
         +more\n \
          keep2\n \
          keep3\n",
    );
    assert_eq!(file.path, "src/lib.rs");
    assert_eq!(file.status, FileStatus::Modified);
    assert_eq!(file.language, Language::Rust);
    assert_eq!((file.additions, file.deletions), (2, 1));
    assert_eq!(
        (file.old_mode, file.new_mode),
        (Some(FileMode::Regular), Some(FileMode::Regular))
    );
    assert!(!file.mode_changed());
    assert_eq!(file.old_id.as_deref(), Some("1111111"));
    let hunk = &file.hunks[0];
    assert_eq!(hunk.section.as_deref(), Some("fn main() {"));
    assert_eq!(hunk.header_line, 5);
    use LineKind::*;
    assert_eq!(
        numbers(hunk),
        vec![
            (Context, Some(10), Some(10), "keep"),
            (Removed, Some(11), None, "old"),
            (Added, None, Some(11), "new"),
            (Added, None, Some(12), "more"),
            (Context, Some(12), Some(13), "keep2"),
            (Context, Some(13), Some(14), "keep3"),
        ]
    );
    assert_eq!(
        file.added_lines().collect::<Vec<_>>(),
        vec![(11, "new"), (12, "more")]
    );
}

#[test]
fn omitted_counts_mean_one() {
    let file = one_file("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    let hunk = &file.hunks[0];
    assert_eq!(
        (
            hunk.old_start,
            hunk.old_count,
            hunk.new_start,
            hunk.new_count
        ),
        (1, 1, 1, 1)
    );
    assert_eq!(hunk.section, None);
    assert_eq!(file.path, "x");
}

#[test]
fn counts_tell_removed_dashes_from_file_headers() {
    // A removed SQL comment and an added `++` line look like the next file's header.
    let file = one_file(
        "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n--- old comment\n+++ new thing\n keep\n",
    );
    use LineKind::*;
    assert_eq!(
        numbers(&file.hunks[0]),
        vec![
            (Removed, Some(1), None, "-- old comment"),
            (Added, None, Some(1), "++ new thing"),
            (Context, Some(2), Some(2), "keep"),
        ]
    );
}

#[test]
fn crlf_is_kept_out_of_the_text_and_bare_cr_is_content() {
    let file =
        one_file("--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1,2 +1,2 @@\r\n-one\r\n+one\r\n two\rhalf\n");
    let lines = &file.hunks[0].lines;
    assert_eq!(lines[0].text, "one");
    assert_eq!(lines[0].ending, LineEnding::CrLf);
    assert_eq!(lines[2].text, "two\rhalf");
    assert_eq!(lines[2].ending, LineEnding::Lf);
}

#[test]
fn no_newline_marker_applies_to_the_line_before_it() {
    let file = one_file(
        "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n\\ No newline at end of file\n",
    );
    let lines = &file.hunks[0].lines;
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.ending == LineEnding::Missing));
    assert_eq!((file.additions, file.deletions), (1, 1));
}

#[test]
fn blank_context_lines_without_their_space_still_count() {
    let file = one_file("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n");
    assert_eq!(file.hunks[0].lines[1].kind, LineKind::Context);
    assert_eq!(file.hunks[0].lines[1].text, "");
    assert_eq!(file.hunks[0].lines[1].new_line, Some(2));
}

#[test]
fn empty_added_and_deleted_files_have_no_hunks() {
    let diff = parse(
        "diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000..e69de29\n\
         diff --git a/gone b/gone\ndeleted file mode 100755\nindex e69de29..0000000\n",
    )
    .unwrap();
    let [added, deleted] = &diff.files[..] else {
        panic!("{diff:?}")
    };
    assert_eq!(
        (added.path.as_str(), added.status),
        ("empty", FileStatus::Added)
    );
    assert_eq!(added.new_mode, Some(FileMode::Regular));
    assert_eq!(added.old_mode, None);
    assert!(added.hunks.is_empty());
    assert_eq!(
        (deleted.path.as_str(), deleted.status),
        ("gone", FileStatus::Deleted)
    );
    assert_eq!(deleted.old_mode, Some(FileMode::Executable));
}

#[test]
fn quoted_names_spaces_and_no_prefix() {
    let quoted = one_file(
        "diff --git \"a/sp ace\\303\\251.txt\" \"b/sp ace\\303\\251.txt\"\nnew file mode 100644\n\
         index 0000000..1111111\n--- /dev/null\n+++ \"b/sp ace\\303\\251.txt\"\n@@ -0,0 +1 @@\n+x\n",
    );
    assert_eq!(quoted.path, "sp aceé.txt");
    assert_eq!(quoted.status, FileStatus::Added);

    let spaced = one_file(
        "diff --git a/my dir/a b.md b/my dir/a b.md\nindex 1..2 100644\n--- a/my dir/a b.md\t\n\
         +++ b/my dir/a b.md\t\n@@ -1 +1 @@\n-a\n+b\n",
    );
    assert_eq!(spaced.path, "my dir/a b.md");
    assert_eq!(spaced.language, Language::Markdown);

    let bare = one_file(
        "diff --git x.py x.py\nindex 1..2 100644\n--- x.py\n+++ x.py\n@@ -1 +1 @@\n-a\n+b\n",
    );
    assert_eq!(bare.path, "x.py");
}

#[test]
fn renames_copies_and_mode_changes() {
    let diff = parse(
        "diff --git a/old name.rs b/new name.rs\nsimilarity index 90%\nrename from old name.rs\n\
         rename to new name.rs\nindex 1..2 100644\n--- a/old name.rs\n+++ b/new name.rs\n\
         @@ -1 +1 @@\n-a\n+b\n\
         diff --git a/a.txt b/c.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to c.txt\n\
         diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n",
    )
    .unwrap();
    let [renamed, copied, chmod] = &diff.files[..] else {
        panic!("{diff:?}")
    };
    assert_eq!(renamed.status, FileStatus::Renamed);
    assert_eq!(renamed.path, "new name.rs");
    assert_eq!(renamed.old_path.as_deref(), Some("old name.rs"));
    assert_eq!(renamed.similarity, Some(90));
    assert_eq!(copied.status, FileStatus::Copied);
    assert_eq!(
        (copied.path.as_str(), copied.old_path.as_deref()),
        ("c.txt", Some("a.txt"))
    );
    assert!(copied.hunks.is_empty());
    assert_eq!(chmod.status, FileStatus::Modified);
    assert!(chmod.mode_changed());
    assert_eq!(chmod.new_mode, Some(FileMode::Executable));
    assert_eq!(chmod.language, Language::Shell);
}

#[test]
fn symlinks_and_submodules() {
    let diff = parse(
        "diff --git a/link b/link\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n\
         +++ b/link\n@@ -0,0 +1 @@\n+target/file\n\\ No newline at end of file\n\
         diff --git a/vendor/lib b/vendor/lib\nindex abc1234..def5678 160000\n--- a/vendor/lib\n\
         +++ b/vendor/lib\n@@ -1 +1 @@\n-Subproject commit aaaa\n+Subproject commit bbbb\n",
    )
    .unwrap();
    let [link, module] = &diff.files[..] else {
        panic!("{diff:?}")
    };
    assert!(link.is_symlink());
    assert_eq!(link.symlink_target(), Some("target/file"));
    assert_eq!(module.new_mode, Some(FileMode::Submodule));
    let change = module.submodule.as_ref().unwrap();
    assert_eq!(change.old_commit.as_deref(), Some("aaaa"));
    assert_eq!(change.new_commit.as_deref(), Some("bbbb"));
}

#[test]
fn binary_files_by_notice_and_by_patch() {
    let diff = parse(
        "diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n\
         diff --git a/new.bin b/new.bin\nnew file mode 100644\nindex 0..1\nGIT binary patch\n\
         literal 5\nMcmZQzWMXCj00093000\n\nliteral 0\nHcmV?d00001\n\n\
         diff --git a/t.txt b/t.txt\nindex 1..2 100644\n--- a/t.txt\n+++ b/t.txt\n@@ -1 +1 @@\n-a\n+b\n\
         Binary files /dev/null and b/plain.bin differ\n",
    )
    .unwrap();
    let summary: Vec<_> = diff
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.status, f.binary, f.hunks.len()))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("img.png", FileStatus::Modified, true, 0),
            ("new.bin", FileStatus::Added, true, 0),
            ("t.txt", FileStatus::Modified, false, 1),
            ("plain.bin", FileStatus::Added, true, 0),
        ]
    );
}

#[test]
fn preamble_signature_and_plain_timestamps_are_skipped() {
    let diff = parse(
        "From 123 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n x | 2 +-\n\n\
         diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n-- \n2.38.1\n\n\
         Index: y\n=====\n--- y\t(revision 1)\n+++ y\t(working copy)\n@@ -0,0 +1 @@\n+new\n",
    )
    .unwrap();
    assert_eq!(diff.files.len(), 2);
    assert_eq!(diff.files[1].path, "y");
    // svn has no /dev/null: an all-new single hunk is how it says "added".
    assert_eq!(diff.files[1].status, FileStatus::Added);
}

#[test]
fn shebang_in_the_diff_sets_the_language() {
    let file = one_file(
        "--- /dev/null\n+++ b/bin/tool\n@@ -0,0 +1,2 @@\n+#!/usr/bin/env python3\n+print()\n",
    );
    assert_eq!(file.language, Language::Python);
}

#[test]
fn empty_input_is_an_empty_diff_and_prose_is_not_a_diff() {
    assert_eq!(parse("").unwrap().files.len(), 0);
    assert_eq!(parse("\n  \n").unwrap().files.len(), 0);
    assert!(matches!(parse("hello\nworld\n"), Err(DiffError::NoDiff)));
}

#[test]
fn hunk_ending_early_names_the_line() {
    let (line, problem) = malformed("--- a/x\n+++ b/x\n@@ -1,3 +1,4 @@\n a\n b\n");
    assert_eq!(line, 5);
    assert_eq!(
        problem,
        Problem::HunkTooShort {
            hunk_line: 3,
            old_seen: 2,
            old_expected: 3,
            new_seen: 2,
            new_expected: 4
        }
    );
    let (line, problem) = malformed("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n@@ -5 +5 @@\n-b\n+c\n");
    assert_eq!(line, 5);
    assert!(matches!(problem, Problem::HunkTooShort { .. }));
}

#[test]
fn lines_past_the_counts_are_refused() {
    let (line, problem) = malformed("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n");
    assert_eq!((line, problem), (6, Problem::HunkTooLong { hunk_line: 3 }));
    let (line, _) = malformed("--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n a\n b\n");
    assert_eq!(line, 5);
}

#[test]
fn other_malformations_name_their_line() {
    let (line, problem) = malformed("--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n");
    assert_eq!(line, 4);
    assert!(matches!(problem, Problem::HunkTooShort { .. }));

    let (line, problem) = malformed("--- a/x\n+++ b/x\n@@ -1 +1 @@\n*a\n");
    assert_eq!(line, 4);
    assert!(matches!(
        problem,
        Problem::UnexpectedHunkLine { hunk_line: 3, .. }
    ));

    for header in [
        "@@ -a +1 @@",
        "@@ -1 +1",
        "@@ -0,1 +1 @@",
        "@@ -4294967295,2 +1 @@",
        "@@ -+1 +1 @@",
    ] {
        let (line, problem) = malformed(&format!("--- a/x\n+++ b/x\n{header}\n"));
        assert_eq!(line, 3, "{header}");
        assert_eq!(problem, Problem::BadHunkHeader(header.to_owned()));
    }

    let (line, problem) = malformed("intro\n@@ -1 +1 @@\n-a\n+b\n");
    assert_eq!((line, problem), (2, Problem::HunkOutsideFile));

    let (line, problem) = malformed("diff --git a/x b/x\nold mode 10x644\n");
    assert_eq!((line, problem), (2, Problem::BadMode("10x644".into())));

    let (line, problem) = malformed("diff --git a/x y b/z w\nindex 1..2 100644\n");
    assert_eq!(line, 1);
    assert!(matches!(problem, Problem::BadFileHeader(_)));
}

#[test]
fn other_formats_are_refused_by_name() {
    let unsupported = |text: &str| match parse(text) {
        Err(DiffError::Unsupported { line, format }) => (line, format),
        other => panic!("expected unsupported, got {other:?}"),
    };
    assert_eq!(unsupported("diff --cc f.c\nindex 1,2..3\n").0, 1);
    assert_eq!(
        unsupported("*** a\t1\n--- b\t2\n***************\n*** 1 ****\n").0,
        3
    );
    let (line, format) = unsupported("Only a note\n2,3c2,3\n< a\n---\n> b\n");
    assert_eq!(line, 2);
    assert!(format.contains("normal diff"));
}

#[test]
fn a_final_hunk_short_only_of_context_is_trimmed_not_refused() {
    let file = one_file("--- a/x\n+++ b/x\n@@ -1,4 +1,4 @@\n a\n-b\n+c\n d");
    let hunk = &file.hunks[0];
    assert_eq!(
        (hunk.old_count, hunk.new_count, hunk.lines.len()),
        (3, 3, 4)
    );
    assert_eq!(hunk.new_range(), Some((1, 3)));
    // Short of an added line: something real is missing.
    let (line, problem) = malformed("--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n");
    assert_eq!(line, 6);
    assert!(matches!(problem, Problem::HunkTooShort { .. }));
}

#[test]
fn a_side_the_repository_lacks_is_read_back_from_the_header_with_no_lines() {
    let file = one_file(
        "diff --git a/data/t.txt b/data/t.txt\nindex 1234567..89abcde 100644\nbase side unavailable\n",
    );
    assert_eq!(file.unavailable, Some(crate::diff::Unavailable::Base));
    assert_eq!(file.status, FileStatus::Modified);
    assert!(file.hunks.is_empty());
    let plain = one_file(
        "diff --git a/x b/x\nindex 1234567..89abcde 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    );
    assert_eq!(plain.unavailable, None);
}
