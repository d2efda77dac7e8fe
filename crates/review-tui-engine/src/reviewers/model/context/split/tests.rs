use proptest::prelude::*;

use super::*;
use crate::diff::{Hunk, parse};

/// A diff whose file `i` has hunks of `sizes[i][j]` added lines each.
fn diff_of(sizes: &[Vec<usize>]) -> Diff {
    let mut text = String::new();
    for (i, hunks) in sizes.iter().enumerate() {
        text.push_str(&format!(
            "diff --git a/f{i}.rs b/f{i}.rs\n--- a/f{i}.rs\n+++ b/f{i}.rs\n"
        ));
        let mut start = 1;
        for (j, &lines) in hunks.iter().enumerate() {
            text.push_str(&format!("@@ -{start},0 +{start},{lines} @@\n"));
            for n in 0..lines {
                text.push_str(&format!("+file {i} hunk {j} line {n}\n"));
            }
            start += lines + 10;
        }
    }
    parse(&text).unwrap()
}

/// Every hunk of every part, as the parts' own text parses, with its file.
fn hunks_of(parts: &[DiffPart]) -> Vec<(String, Hunk)> {
    parts
        .iter()
        .filter(|p| !p.text.is_empty())
        .flat_map(|p| parse(&p.text).unwrap().files)
        .flat_map(|f| f.hunks.into_iter().map(move |h| (f.path.clone(), h)))
        .collect()
}

fn original_hunks(diff: &Diff) -> Vec<(String, Hunk)> {
    diff.files
        .iter()
        .flat_map(|f| f.hunks.iter().map(move |h| (f.path.clone(), h.clone())))
        .collect()
}

/// The model's `header_line` is a position in the text it was parsed from; compare the rest.
fn strip_positions(mut hunks: Vec<(String, Hunk)>) -> Vec<(String, Hunk)> {
    for (_, hunk) in &mut hunks {
        hunk.header_line = 0;
    }
    hunks
}

#[test]
fn small_files_share_a_part_and_big_ones_split_on_file_boundaries() {
    // Each file is a header (~60 bytes) and one hunk of 10 lines (~25 bytes each).
    let diff = diff_of(&[vec![10], vec![10], vec![10], vec![10]]);
    let one_file = file_text(&diff.files[0]).len();
    let budget = (2 * one_file + 10) / BYTES_PER_TOKEN;
    let split = split(&diff, budget);
    assert_eq!(split.parts.len(), 2, "{split:#?}");
    assert_eq!(split.parts[0].files, ["f0.rs", "f1.rs"]);
    assert_eq!(split.parts[1].files, ["f2.rs", "f3.rs"]);
    assert!(split.notes.is_empty());
    for part in &split.parts {
        assert!(part.tokens() <= budget);
        assert!(!part.oversized);
    }
}

#[test]
fn a_file_over_the_budget_is_split_on_hunk_boundaries_under_its_header() {
    let diff = diff_of(&[vec![5], vec![20, 20, 20, 20], vec![5]]);
    let hunk = hunk_text(&diff.files[1].hunks[0]).len();
    let header = file_header(&diff.files[1]).len();
    let budget = (header + 2 * hunk + 10) / BYTES_PER_TOKEN;
    let split = split(&diff, budget);
    let labels: Vec<&Vec<String>> = split.parts.iter().map(|p| &p.files).collect();
    assert_eq!(
        labels,
        [
            &vec!["f0.rs".to_string()],
            &vec!["f1.rs (hunks 1-2 of 4)".to_string()],
            &vec!["f1.rs (hunks 3-4 of 4)".to_string()],
            &vec!["f2.rs".to_string()],
        ]
    );
    for part in &split.parts[1..3] {
        assert!(part.text.starts_with("diff --git a/f1.rs b/f1.rs\n"));
    }
    assert_eq!(
        strip_positions(hunks_of(&split.parts)),
        strip_positions(original_hunks(&diff))
    );
}

#[test]
fn a_hunk_over_the_budget_gets_its_own_part_and_a_note() {
    let diff = diff_of(&[vec![3], vec![2, 400, 2]]);
    let split = split(&diff, 200);
    let big: Vec<&DiffPart> = split.parts.iter().filter(|p| p.oversized).collect();
    assert_eq!(big.len(), 1);
    assert_eq!(big[0].files, ["f1.rs (hunk 2 of 3)"]);
    assert!(big[0].tokens() > 200);
    assert_eq!(parse(&big[0].text).unwrap().files[0].hunks.len(), 1);
    assert_eq!(split.notes.len(), 1);
    assert!(
        split.notes[0].starts_with("f1.rs: hunk 2 of 3 (@@ -13,0 +13,400 @@) is about "),
        "{}",
        split.notes[0]
    );
    assert!(split.notes[0].ends_with("over the 200-token budget; it has a part of its own"));
    for part in split.parts.iter().filter(|p| !p.oversized) {
        assert!(part.tokens() <= 200);
    }
}

#[test]
fn an_empty_diff_is_one_empty_part() {
    let split = split(&Diff::default(), 100);
    assert_eq!(split.parts, [DiffPart::default()]);
}

proptest! {
    #[test]
    fn parts_keep_every_hunk_whole_in_order_and_under_budget(
        sizes in prop::collection::vec(prop::collection::vec(1usize..60, 1..6), 1..8),
        budget in 20usize..600,
    ) {
        let diff = diff_of(&sizes);
        let split = split(&diff, budget);
        prop_assert_eq!(
            strip_positions(hunks_of(&split.parts)),
            strip_positions(original_hunks(&diff))
        );
        let mut oversized = 0;
        for part in &split.parts {
            if part.oversized {
                oversized += 1;
                let files = parse(&part.text).unwrap().files;
                prop_assert_eq!(files.len(), 1);
                prop_assert_eq!(files[0].hunks.len(), 1);
            } else {
                prop_assert!(part.tokens() <= budget, "{} > {}", part.tokens(), budget);
            }
        }
        prop_assert_eq!(oversized, split.notes.len());
    }
}
