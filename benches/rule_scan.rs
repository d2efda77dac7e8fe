//! Rule catalog speed on a large pull request: ~475 files, ~21k added and ~6k removed lines,
//! mostly Rust with some Python, TypeScript and YAML. The diff is parsed once, outside the loop.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use review_tui::reviewers::deterministic::rules::{Catalog, ScanOptions};
use std::hint::black_box;

const FILES: usize = 475;
const HUNKS: usize = 4;

/// Lines in each language's style, a few of which trip rules, as real code does.
fn line(language: &str, file: usize, hunk: usize, i: usize) -> String {
    let n = file * 100 + hunk * 10 + i;
    match (language, i % 11) {
        ("rs", 0) => format!("    let value_{n} = input.get({n}).copied().unwrap_or_default();"),
        ("rs", 3) if n.is_multiple_of(7) => {
            format!("    let parsed_{n} = text.parse::<u32>().unwrap();")
        }
        ("rs", 5) => format!("    // TODO(#{n}): batch these calls"),
        ("rs", 7) => format!("    tracing::debug!(count = {n}, \"processed records\");"),
        ("rs", _) => format!("    total += compute(&state, {n}).map_err(Error::from)?;"),
        ("py", 2) => format!("    result_{n} = session.get(url, timeout=10)"),
        ("py", 6) if n.is_multiple_of(5) => format!("    print(\"debug\", value_{n})"),
        ("py", _) => format!("    value_{n} = transform(records[{n}], strict=True)"),
        ("ts", 4) if n.is_multiple_of(5) => format!("  console.log('state', state{n});"),
        ("ts", _) => format!("  const value{n} = await client.fetch(`/items/${{id}}/{n}`);"),
        (_, 1) => format!("      - uses: actions/cache@v4 # {n}"),
        _ => format!("        run: cargo test --workspace --locked -p crate-{n}"),
    }
}

fn large_pr() -> String {
    let mut text = String::new();
    for file in 0..FILES {
        let (language, path) = match file % 19 {
            0 | 1 => ("py", format!("pkg/module_{file}/service.py")),
            2 | 3 => ("ts", format!("web/src/feature_{file}/view.ts")),
            4 => ("yml", format!(".github/workflows/job_{file}.yml")),
            _ => (
                "rs",
                format!("crates/core_{}/src/module_{file}.rs", file % 12),
            ),
        };
        text.push_str(&format!(
            "diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n+++ b/{path}\n"
        ));
        let mut old_start = 1;
        let mut new_start = 1;
        for hunk in 0..HUNKS {
            // 3 context, 3 removed, 11 added, 3 context.
            let section = if language == "rs" && hunk == HUNKS - 1 && file.is_multiple_of(3) {
                "mod tests {"
            } else {
                "fn process(state: &State) -> Result<u64, Error> {"
            };
            text.push_str(&format!("@@ -{old_start},9 +{new_start},17 @@ {section}\n"));
            for i in 0..3 {
                text.push_str(&format!(" {}\n", line(language, file, hunk, i + 20)));
            }
            for i in 0..3 {
                text.push_str(&format!("-{}\n", line(language, file, hunk, i + 30)));
            }
            for i in 0..11 {
                text.push_str(&format!("+{}\n", line(language, file, hunk, i)));
            }
            for i in 0..3 {
                text.push_str(&format!(" {}\n", line(language, file, hunk, i + 40)));
            }
            old_start += 9 + 30;
            new_start += 17 + 30;
        }
    }
    text
}

fn scan_large_pr(c: &mut Criterion) {
    let diff = review_tui::diff::parse(&large_pr()).expect("the generated diff parses");
    let added: usize = diff.files.iter().map(|f| f.additions).sum();
    let removed: usize = diff.files.iter().map(|f| f.deletions).sum();
    assert_eq!(diff.files.len(), FILES);
    assert!(
        added > 20_000 && removed > 5_000,
        "{added} added, {removed} removed"
    );
    let catalog = Catalog::builtin();
    let options = ScanOptions::default();
    let findings = catalog.scan(&diff, &options).nodes.len();
    assert!(findings > 0);

    let mut group = c.benchmark_group("rule_scan");
    group.sample_size(20);
    group.throughput(Throughput::Elements(diff.files.len() as u64));
    group.bench_function(format!("{FILES}_files"), |b| {
        b.iter(|| catalog.scan(black_box(&diff), &options))
    });
    group.throughput(Throughput::Elements((added + removed) as u64));
    group.bench_function(format!("{}_changed_lines", added + removed), |b| {
        b.iter(|| catalog.scan(black_box(&diff), &options))
    });
    group.finish();

    c.bench_function("rule_catalog_build", |b| b.iter(Catalog::builtin));
}

criterion_group!(benches, scan_large_pr);
criterion_main!(benches);
