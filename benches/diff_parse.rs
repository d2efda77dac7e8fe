//! Parsing speed on a large pull request: ~145k diff lines across 500 files.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// A git diff shaped like a big real one: many files, several hunks each, mixed line kinds,
/// section headings, a few renames and binary files.
fn large_diff(target_lines: usize) -> String {
    let mut text = String::with_capacity(target_lines * 48);
    let mut file = 0;
    while text.lines().count() < target_lines {
        let path = format!("src/module_{file}/file with space {file}.rs");
        if file % 50 == 7 {
            text.push_str(&format!(
                "diff --git a/assets/{file}.png b/assets/{file}.png\nindex 1111111..2222222 100644\n\
                 Binary files a/assets/{file}.png and b/assets/{file}.png differ\n"
            ));
        }
        if file % 25 == 3 {
            text.push_str(&format!(
                "diff --git a/old/{file}.rs b/{path}\nsimilarity index 91%\nrename from old/{file}.rs\n\
                 rename to {path}\nindex 1111111..2222222 100644\n--- a/old/{file}.rs\n+++ b/{path}\n"
            ));
        } else {
            text.push_str(&format!(
                "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"
            ));
        }
        let mut start = 1;
        for hunk in 0..6 {
            // 3 context, 10 removed, 14 added, 3 context, 10 context, 5 removed, 8 added, 3 context.
            let old_count = 3 + 10 + 3 + 10 + 5 + 3;
            let new_count = 3 + 14 + 3 + 10 + 8 + 3;
            text.push_str(&format!(
                "@@ -{start},{old_count} +{start},{new_count} @@ fn function_{hunk}(input: &str) -> Result<(), Error> {{\n"
            ));
            let mut push = |marker: char, count: usize, what: &str| {
                for i in 0..count {
                    text.push_str(&format!(
                        "{marker}    let {what}_{i} = compute(input, {i}).map_err(Error::from)?;\n"
                    ));
                }
            };
            push(' ', 3, "before");
            push('-', 10, "old");
            push('+', 14, "new");
            push(' ', 3, "middle");
            push(' ', 10, "unchanged");
            push('-', 5, "gone");
            push('+', 8, "added");
            push(' ', 3, "after");
            start += old_count + 40;
        }
        file += 1;
    }
    text
}

fn parse_large_diff(c: &mut Criterion) {
    let text = large_diff(145_000);
    let lines = text.lines().count() as u64;
    let parsed = review_tui::diff::parse(&text).expect("the generated diff parses");
    assert!(parsed.files.len() > 400);

    let mut group = c.benchmark_group("diff_parse");
    group.throughput(Throughput::Elements(lines));
    group.sample_size(20);
    group.bench_function(format!("{lines}_lines"), |b| {
        b.iter(|| review_tui::diff::parse(black_box(&text)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, parse_large_diff);
criterion_main!(benches);
