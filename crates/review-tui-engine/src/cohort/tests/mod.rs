//! End-to-end cohort builds on real git repositories in temp dirs.

mod blast;
pub(crate) mod repo;
mod shape;

use crate::cohort::{CohortReport, GROUPED_BY_PATH, SymbolIndex};
use crate::review::axes::{API_CONTRACT, Axis, AxisVerdict, TEST_GAP};
use repo::Repo;
use repo::git;

const PARSE: &str = "pub struct Config {
    pub name: String,
}

pub fn parse(text: &str) -> Config {
    let name = text.trim().to_string();
    Config { name }
}
";

const APP: &str = "use crate::config::parse::parse;

pub fn start(text: &str) -> usize {
    let config = parse(text);
    config.name.len()
}
";

const CLI: &str = "pub fn cli_main(arg: &str) {
    let config = crate::config::parse::parse(arg);
    report_name(&config.name);
}

fn report_name(name: &str) {
    let _ = name;
}
";

const RENDER: &str = "pub fn render_page(title: &str) -> String {
    format!(\"<h1>{title}</h1>\")
}

pub fn unused_helper(x: u32) -> u32 {
    x + 1
}
";

const MENU: &str = "use crate::render::render_page;

pub fn menu() -> String {
    render_page(\"menu\")
}
";

const PARSE_TEST: &str = "#[test]
fn parses_trimmed_names() {
    assert_eq!(review::config::parse::parse(\" a \").name, \"a\");
}
";

fn rust_repo() -> Repo {
    Repo::new(&[
        ("src/config/parse.rs", PARSE),
        ("src/app.rs", APP),
        ("src/cli.rs", CLI),
        ("src/render.rs", RENDER),
        ("src/menu.rs", MENU),
        ("tests/parse_test.rs", PARSE_TEST),
        ("docs/guide.md", "# Guide\n"),
    ])
}

fn axis<'a>(report: &'a CohortReport, name: &str) -> &'a Axis {
    report.axes.iter().find(|a| a.name == name).unwrap()
}

/// The body of `parse`, its caller, its test, an unrelated function and a doc change.
fn change_parse_and_more(repo: &Repo) {
    repo.write(
        "src/config/parse.rs",
        &PARSE.replace("text.trim().to_string()", "text.trim().to_lowercase()"),
    );
    repo.write(
        "src/app.rs",
        &APP.replace("config.name.len()", "config.name.len() + 1"),
    );
    repo.write(
        "tests/parse_test.rs",
        &PARSE_TEST.replace("\" a \"", "\" A \""),
    );
    repo.write("src/render.rs", &RENDER.replace("<h1>", "<h2>"));
    repo.write("docs/guide.md", "# Guide\n\nMore.\n");
    repo.commit("change");
}

#[test]
fn a_definition_and_its_callers_form_one_cohort_in_reading_order() {
    let repo = rust_repo();
    change_parse_and_more(&repo);
    let report = repo.build();

    let parse = report.cohort_of("src/config/parse.rs").unwrap();
    assert_eq!(
        parse.files,
        vec!["src/config/parse.rs", "src/app.rs", "tests/parse_test.rs"],
        "definition first, its user next, the test last"
    );
    assert_eq!(parse.label, "parse");
    assert_eq!(
        parse.symbols,
        vec!["parse", "parses_trimmed_names", "start"]
    );
    // app.rs, cli.rs and the test reference `parse`, but only cli.rs is outside the change.
    assert_eq!(parse.blast_radius, 1);
    assert!(!parse.fallback && parse.reason.is_none());

    let render = report.cohort_of("src/render.rs").unwrap();
    assert_eq!(render.files, vec!["src/render.rs"]);
    assert_eq!(render.symbols, vec!["render_page"]);
    assert_eq!(render.blast_radius, 1, "menu.rs calls render_page");

    let docs = report.cohort_of("docs/guide.md").unwrap();
    assert!(docs.fallback);
    assert_eq!(docs.reason.as_deref(), Some(GROUPED_BY_PATH));
    assert_eq!(docs.label, "docs");
    assert!(docs.symbols.is_empty());

    let order: Vec<&str> = report.cohorts.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        order,
        vec!["parse", "render_page", "docs"],
        "ranked by blast radius"
    );
    assert_eq!(report.cohorts.len(), 3);

    assert_eq!(axis(&report, API_CONTRACT).verdict, AxisVerdict::Pass);
    assert!(axis(&report, API_CONTRACT).gated);
    let test_gap = axis(&report, TEST_GAP);
    assert_eq!(test_gap.verdict, AxisVerdict::Warn);
    assert!(!test_gap.gated);
    assert!(
        test_gap.detail.contains("render_page"),
        "{}",
        test_gap.detail
    );
    assert!(!test_gap.detail.contains("parse,"), "{}", test_gap.detail);
    assert!(
        test_gap.detail.contains("never gates"),
        "{}",
        test_gap.detail
    );

    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["cohorts"][2]["reason"], "grouped by path");
}

#[test]
fn the_key_survives_a_push_that_moves_lines_and_adds_unrelated_changes() {
    let repo = rust_repo();
    change_parse_and_more(&repo);
    let first = repo.build();
    let key = first.cohort_of("src/config/parse.rs").unwrap().key.clone();

    // Lines above `parse` move it down; a new unrelated file joins the pull request.
    let moved = format!(
        "// Configuration parsing.\n// Kept small on purpose.\n\n{}",
        std::fs::read_to_string(repo.path().join("src/config/parse.rs")).unwrap()
    );
    repo.write("src/config/parse.rs", &moved);
    repo.write("src/extra.rs", "pub fn extra_thing() -> u8 {\n    7\n}\n");
    repo.commit("push 2");
    let second = repo.build();
    let cohort = second.cohort_of("src/config/parse.rs").unwrap();
    assert_eq!(cohort.key, key);
    assert_eq!(cohort.files.len(), 3);
    let extra = second.cohort_of("src/extra.rs").unwrap();
    assert_ne!(extra.key, key);
    assert_eq!(
        first.cohort_of("src/render.rs").unwrap().key,
        second.cohort_of("src/render.rs").unwrap().key
    );
}

#[test]
fn the_index_reads_only_the_files_that_can_answer_and_keeps_their_tags_by_blob() {
    let repo = rust_repo();
    // A file no asked name occurs in: never read.
    repo.write(
        "src/lonely.rs",
        "pub fn solitary_thing() -> u8 {\n    3\n}\n",
    );
    repo.commit("lonely");
    git(&repo.path(), &["branch", "-f", "main"]);
    change_parse_and_more(&repo);
    let first = repo.build();
    let stats = &first.index_stats;
    assert_eq!(
        stats.files_indexed, 7,
        "the markdown file is not indexed: {stats:?}"
    );
    assert_eq!(stats.from_store, 0, "a cold store: {stats:?}");
    assert!(
        stats.parsed < stats.files_indexed,
        "the lonely file is never parsed: {stats:?}"
    );
    // The tag store holds what was parsed, and nothing of the file never read.
    let lonely = git(&repo.path(), &["rev-parse", "HEAD:src/lonely.rs"]);
    let app = git(&repo.path(), &["rev-parse", "HEAD:src/app.rs"]);
    let store = stored_blobs(&repo);
    assert!(store.contains(&app), "{store:?}");
    assert!(!store.contains(&lonely), "{store:?}");
    // No symbol index is written to the space's cache.
    let written: Vec<String> = std::fs::read_dir(repo.cache_dir())
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        !written.iter().any(|n| n.starts_with("symbols-")),
        "{written:?}"
    );

    // The same head again: what was parsed comes from the store; only the changed files'
    // head versions (four Rust files) are parsed for their full tags.
    let second = repo.build();
    assert!(
        second.index_stats.from_store > 0,
        "{:?}",
        second.index_stats
    );
    assert_eq!(second.index_stats.parsed, 4, "{:?}", second.index_stats);
    assert_eq!(second.cohorts, first.cohorts);
    assert_eq!(second.axes, first.axes);
}

/// Every blob id in the repository's store of tags.
fn stored_blobs(repo: &Repo) -> String {
    let mut all = String::new();
    for version in std::fs::read_dir(repo.path().join(".git/review-tui-tags")).unwrap() {
        for segment in std::fs::read_dir(version.unwrap().path()).unwrap() {
            all.push_str(&std::fs::read_to_string(segment.unwrap().path()).unwrap());
        }
    }
    all
}

/// Asserts that the lazy index answers every name of the full one (and names it does not
/// know) exactly as the full one does.
fn assert_same_answers(lazy: &crate::cohort::LazyIndex, full: &SymbolIndex) {
    let names: Vec<String> = full.names().map(str::to_string).collect();
    assert!(names.len() > 5, "{names:?}");
    for name in names.iter().map(String::as_str).chain(["nothing_here", ""]) {
        assert_eq!(lazy.defined_in(name), full.defined_in(name), "{name}");
        assert_eq!(lazy.referenced_in(name), full.referenced_in(name), "{name}");
    }
}

#[test]
fn the_lazy_index_answers_as_the_full_index_does() {
    let repo = rust_repo();
    repo.write("vendor/dep.rs", "pub fn vendored_thing() { parse(); }\n");
    repo.write(
        "big.rs",
        &format!("fn parse() {{}}\n{}", "// filler\n".repeat(110_000)),
    );
    repo.write("broken.rs", "fn parse( {{{{ ]]]\n");
    repo.write(
        "web/app.js",
        "import { parse } from './p';\nexport function run() { return parse(); }\n",
    );
    std::os::unix::fs::symlink("src/app.rs", repo.path().join("link.rs")).unwrap();
    let head = repo.commit("more");
    let full = SymbolIndex::build(&repo.path(), &head.parse().unwrap()).unwrap();
    let keep = std::collections::BTreeSet::from(["src/app.rs"]);

    let (lazy, kept) = crate::cohort::LazyIndex::from_worktree(&repo.path(), &keep).unwrap();
    assert!(kept.contains_key("src/app.rs"));
    // Names asked one at a time, then with a prefetch first.
    assert_same_answers(&lazy, &full);
    let (lazy, _) = crate::cohort::LazyIndex::from_worktree(&repo.path(), &keep).unwrap();
    lazy.prefetch(["parse", "Config"]);
    assert_same_answers(&lazy, &full);

    let git_dir = repo.path().join(".git");
    let oid = git2::Oid::from_str(&head).unwrap();
    let (lazy, _) = crate::cohort::LazyIndex::from_tree(&git_dir, oid, &keep).unwrap();
    assert_same_answers(&lazy, &full);
    lazy.finish();
    // Again with the store holding what the first one read.
    let (lazy, _) = crate::cohort::LazyIndex::from_tree(&git_dir, oid, &keep).unwrap();
    assert!(lazy.stats().from_store > 0);
    assert_same_answers(&lazy, &full);
}

#[test]
fn the_index_answers_lookups() {
    let repo = rust_repo();
    let index = SymbolIndex::build(&repo.path(), &"ab".repeat(20).parse().unwrap()).unwrap();
    assert!(index.covers("src/app.rs") && index.covers("tests/parse_test.rs"));
    assert!(
        !index.covers("docs/guide.md"),
        "the markdown file is not indexed"
    );
    assert_eq!(
        index.defined_in("parse").into_iter().collect::<Vec<_>>(),
        vec!["src/config/parse.rs"]
    );
    assert_eq!(
        index.referenced_in("parse").into_iter().collect::<Vec<_>>(),
        vec!["src/app.rs", "src/cli.rs", "tests/parse_test.rs"]
    );
    let config = index.lookup("Config").unwrap();
    assert_eq!(config.definitions[0].line, 1);
    assert_eq!(config.definitions[0].kind, "class");
    assert!(index.lookup("nothing_here").is_none());
}

#[test]
fn ignored_directories_and_large_files_are_not_indexed() {
    let big = format!("pub fn huge() {{}}\n{}", "// padding\n".repeat(100_000));
    let repo = Repo::new(&[
        ("src/lib.rs", "pub fn kept() {}\n"),
        ("target/debug/gen.rs", "pub fn built() {}\n"),
        ("node_modules/x/index.js", "function dep() {}\n"),
        ("vendor/v.go", "package v\nfunc Vendored() {}\n"),
        ("src/big.rs", &big),
    ]);
    let index = SymbolIndex::build(&repo.path(), &"ab".repeat(20).parse().unwrap()).unwrap();
    assert!(index.covers("src/lib.rs"));
    for path in [
        "target/debug/gen.rs",
        "node_modules/x/index.js",
        "vendor/v.go",
        "src/big.rs",
    ] {
        assert!(!index.covers(path), "{path}");
    }
    assert!(index.lookup("kept").is_some());
    for name in ["built", "dep", "Vendored", "huge"] {
        assert!(index.lookup(name).is_none(), "{name}");
    }
}

#[test]
fn a_deleted_file_is_read_from_the_base_and_joins_its_former_callers() {
    let repo = Repo::new(&[
        (
            "src/legacy.rs",
            "pub fn legacy_total(xs: &[u32]) -> u32 {\n    xs.iter().sum()\n}\n",
        ),
        (
            "src/report.rs",
            "pub fn report(xs: &[u32]) -> String {\n    let total = legacy_total(xs);\n    total.to_string()\n}\n",
        ),
        (
            "src/summary.rs",
            "use crate::legacy::legacy_total;\n\npub fn summary(xs: &[u32]) -> u32 {\n    legacy_total(xs) / 2\n}\n",
        ),
    ]);
    repo.remove("src/legacy.rs");
    repo.write(
        "src/report.rs",
        "pub fn report(xs: &[u32]) -> String {\n    let total: u32 = xs.iter().sum();\n    total.to_string()\n}\n",
    );
    repo.commit("drop legacy_total");
    let report = repo.build();

    let cohort = report.cohort_of("src/legacy.rs").unwrap();
    assert_eq!(cohort.files, vec!["src/legacy.rs", "src/report.rs"]);
    assert!(cohort.symbols.contains(&"legacy_total".to_string()));
    assert_eq!(cohort.label, "legacy_total");
    // summary.rs still calls it in the head: that is the blast radius.
    assert_eq!(cohort.blast_radius, 1);

    let api = axis(&report, API_CONTRACT);
    assert_eq!(api.verdict, AxisVerdict::Fail, "{}", api.detail);
    assert!(
        api.detail
            .contains("src/legacy.rs: `legacy_total` removed (base `pub fn legacy_total(xs: &[u32]) -> u32` → head: none)"),
        "{}",
        api.detail
    );
}

#[test]
fn api_contract_fails_on_a_break_warns_on_a_bumped_one_passes_otherwise() {
    // A public function gains a required parameter: fail, with both forms on one line.
    let repo = rust_repo();
    repo.write(
        "src/config/parse.rs",
        &PARSE.replace("parse(text: &str)", "parse(text: &str, strict: bool)"),
    );
    repo.write(
        "src/app.rs",
        &APP.replace("parse(text)", "parse(text, true)"),
    );
    repo.commit("strict parse");
    let api = axis(&repo.build(), API_CONTRACT).clone();
    assert_eq!(api.verdict, AxisVerdict::Fail, "{}", api.detail);
    assert!(
        api.detail.contains(
            "`parse` a required parameter added (parameter 2) (base `pub fn parse(text: &str) -> Config` → head `pub fn parse(text: &str, strict: bool) -> Config`)"
        ),
        "{}",
        api.detail
    );
    assert!(api.gated);

    // The same kind of break with a major version bump: deliberate, a warning.
    let repo = rust_repo();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"1.2.0\"\n",
    );
    repo.write("src/lib.rs", "pub mod render;\n");
    repo.commit("manifest");
    let repo_main = |args: &[&str]| repo::git(&repo.path(), args);
    repo_main(&["branch", "-f", "main", "HEAD"]);
    repo.write(
        "src/render.rs",
        &RENDER.replace("unused_helper(x: u32)", "unused_helper(x: u64)"),
    );
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"2.0.0\"\n",
    );
    repo.commit("widen");
    let report = repo.build();
    let api = axis(&report, API_CONTRACT);
    assert_eq!(api.verdict, AxisVerdict::Warn, "{}", api.detail);
    assert!(
        api.detail
            .contains("src/render.rs: `unused_helper` parameter 1 type changed")
            && api.detail.contains("Cargo.toml: 1.2.0 → 2.0.0"),
        "{}",
        api.detail
    );

    // A body change and a private signature change: pass. With a test beside it, no gap.
    let repo = rust_repo();
    repo.write(
        "src/config/parse.rs",
        &PARSE.replace("text.trim().to_string()", "text.trim().to_owned()"),
    );
    repo.write(
        "src/cli.rs",
        &CLI.replace(
            "fn report_name(name: &str)",
            "fn report_name(name: &String)",
        ),
    );
    repo.write(
        "tests/parse_test.rs",
        &PARSE_TEST.replace("\" a \"", "\"  a  \""),
    );
    repo.commit("internal");
    let report = repo.build();
    assert_eq!(axis(&report, API_CONTRACT).verdict, AxisVerdict::Pass);
    let gap = axis(&report, TEST_GAP);
    assert_eq!(gap.verdict, AxisVerdict::Pass, "{}", gap.detail);
    assert!(gap.detail.contains("never gates"));
}

#[test]
fn moving_a_public_function_unchanged_is_not_an_api_change() {
    let repo = rust_repo();
    repo.write(
        "src/config/parse.rs",
        "pub fn parse(text: &str) -> Config {\n    let name = text.trim().to_string();\n    Config { name }\n}\n\npub struct Config {\n    pub name: String,\n}\n",
    );
    repo.commit("reorder");
    let api = axis(&repo.build(), API_CONTRACT).clone();
    assert_eq!(api.verdict, AxisVerdict::Pass, "{}", api.detail);
}

#[test]
fn garbage_in_an_indexed_language_is_grouped_by_path_and_never_mixed() {
    let repo = rust_repo();
    repo.write("src/broken.rs", "@@@ %%% }}} ((( ### !!! <<< >>>\n");
    repo.write("src/notes.md", "notes\n");
    repo.write("src/render.rs", &RENDER.replace("<h1>", "<h2>"));
    repo.commit("noise");
    let report = repo.build();

    let broken = report.cohort_of("src/broken.rs").unwrap();
    assert!(broken.fallback);
    assert_eq!(broken.reason.as_deref(), Some(GROUPED_BY_PATH));
    assert_eq!(broken.label, "src");
    assert_eq!(broken.files, vec!["src/broken.rs", "src/notes.md"]);
    assert_eq!(broken.blast_radius, 0);
    let render = report.cohort_of("src/render.rs").unwrap();
    assert!(!render.fallback);
    assert_eq!(render.files, vec!["src/render.rs"]);
    assert!(
        report.notes.iter().any(|n| n.contains("src/broken.rs")),
        "{:?}",
        report.notes
    );
    // Its API could not be checked: absence of evidence is not a pass.
    assert_eq!(axis(&report, API_CONTRACT).verdict, AxisVerdict::Partial);
}

// A partial clone or a snapshot without large files may lack a changed file's contents.
// Unknown contents may be anything, but a file whose path carries no API (a test cassette, a
// data file no language imports) is no API whatever it holds: the gate is the rest's. A
// source file the repository lacks still holds the verdict.
#[test]
fn a_lacking_file_whose_path_carries_no_api_leaves_the_gate_to_the_rest() {
    let repo = rust_repo();
    repo.write("tests/cassettes/read_range.yaml", "interactions: []\n");
    repo.write("assets/large.json", "{}\n");
    repo.write("src/render.rs", &RENDER.replace("<h1>", "<h2>"));
    repo.commit("cassette");
    let report = repo.build_lacking(&["tests/cassettes/read_range.yaml", "assets/large.json"]);
    let api = axis(&report, API_CONTRACT);
    assert!(api.verdict.clears_gate(), "{}: {}", api.verdict, api.detail);
    let report = repo.build_lacking(&["src/render.rs"]);
    let api = axis(&report, API_CONTRACT);
    assert_eq!(api.verdict, AxisVerdict::Partial, "{}", api.detail);
}

#[test]
fn a_docs_and_config_pull_request_passes_the_api_gate() {
    let repo = rust_repo();
    repo.write("docs/guide.md", "# Guide, revised\n");
    repo.write("ci/build.yml", "on: push\n");
    repo.commit("docs");
    let report = repo.build();
    assert!(report.cohorts.iter().all(|c| c.fallback));
    assert_eq!(report.cohorts.len(), 2);
    assert_eq!(axis(&report, API_CONTRACT).verdict, AxisVerdict::Pass);
    assert_eq!(axis(&report, TEST_GAP).verdict, AxisVerdict::Pass);
}

#[test]
fn source_without_an_index_is_never_a_pass() {
    let repo = rust_repo();
    repo.write("native/shim.pl", "sub shim { return 1; }\n1;\n");
    repo.commit("perl only");
    let report = repo.build();
    let api = axis(&report, API_CONTRACT);
    assert_eq!(api.verdict, AxisVerdict::Unavailable);
    assert!(api.detail.contains("native/shim.pl"), "{}", api.detail);
    // The coverage says which language has no index.
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.starts_with("no symbol index for .pl (1 file)")),
        "{:?}",
        report.notes
    );
}

// C, C++, C#, Ruby, PHP and Kotlin have an index: their files join cohorts by what they use,
// and apiContract compares their public definitions by name and signature text, warning on
// a change and never failing or holding on it.
#[test]
fn indexed_languages_without_a_surface_rule_warn_and_join_cohorts() {
    let repo = Repo::new(&[
        (
            "lib/store.rb",
            "class Store
  def fetch(key)
    @data[key]
  end

  def clear
    @data = {}
  end

  private

  def reset_internal
  end
end
",
        ),
        (
            "lib/cache.rb",
            "class Cache
  def initialize
    @store = Store.new
  end

  def get(key)
    @store.fetch(key)
  end
end
",
        ),
    ]);
    repo.write(
        "lib/store.rb",
        "class Store
  def fetch(key, default = nil)
    @data.fetch(key, default)
  end

  private

  def reset_internal(all)
  end
end
",
    );
    repo.write(
        "lib/cache.rb",
        "class Cache
  def initialize
    @store = Store.new
  end

  def get(key)
    @store.fetch(key, nil)
  end
end
",
    );
    repo.commit("ruby");
    let report = repo.build();
    let api = axis(&report, API_CONTRACT);
    assert_eq!(api.verdict, AxisVerdict::Warn, "{}", api.detail);
    assert!(
        api.detail.contains("Store.clear` removed"),
        "{}",
        api.detail
    );
    assert!(api.detail.contains("Store.fetch"), "{}", api.detail);
    assert!(
        api.detail.contains("Ruby read from the symbol index"),
        "{}",
        api.detail
    );
    // A private method is not the surface.
    assert!(!api.detail.contains("reset_internal"), "{}", api.detail);
    // The two files use each other: one cohort, not a fallback by path.
    assert!(
        report
            .cohorts
            .iter()
            .any(|c| !c.fallback && c.files.len() == 2),
        "{:#?}",
        report.cohorts
    );
}

#[test]
fn python_go_and_javascript_files_join_across_modules() {
    let repo = Repo::new(&[
        (
            "app/models.py",
            "def load_user(uid):\n    return {\"id\": uid}\n",
        ),
        (
            "app/views.py",
            "from app.models import load_user\n\ndef show(uid):\n    return load_user(uid)\n",
        ),
        (
            "tests/test_models.py",
            "from app.models import load_user\n\ndef test_load():\n    assert load_user(1)[\"id\"] == 1\n",
        ),
        (
            "pkg/store/store.go",
            "package store\n\nfunc OpenStore(path string) int {\n\treturn len(path)\n}\n",
        ),
        (
            "cmd/tool/main.go",
            "package main\n\nimport \"x/pkg/store\"\n\nfunc main() {\n\tstore.OpenStore(\"a\")\n}\n",
        ),
        (
            "web/api.js",
            "export function fetchItems(url) {\n  return fetch(url);\n}\n",
        ),
        (
            "web/list.js",
            "import { fetchItems } from './api';\nexport function renderList() {\n  return fetchItems('/items');\n}\n",
        ),
    ]);
    repo.write(
        "app/models.py",
        "def load_user(uid):\n    return {\"id\": int(uid)}\n",
    );
    repo.write(
        "app/views.py",
        "from app.models import load_user\n\ndef show(uid):\n    return load_user(str(uid))\n",
    );
    repo.write(
        "tests/test_models.py",
        "from app.models import load_user\n\ndef test_load():\n    assert load_user(\"1\")[\"id\"] == 1\n",
    );
    repo.write(
        "pkg/store/store.go",
        "package store\n\nfunc OpenStore(path string) int {\n\treturn len(path) + 1\n}\n",
    );
    repo.write(
        "cmd/tool/main.go",
        "package main\n\nimport \"x/pkg/store\"\n\nfunc main() {\n\tstore.OpenStore(\"b\")\n}\n",
    );
    repo.write(
        "web/api.js",
        "export function fetchItems(url) {\n  return fetch(url, {});\n}\n",
    );
    repo.write(
        "web/list.js",
        "import { fetchItems } from './api';\nexport function renderList() {\n  return fetchItems('/items?all');\n}\n",
    );
    repo.commit("three languages");
    let report = repo.build();

    let python = report.cohort_of("app/models.py").unwrap();
    assert_eq!(
        python.files,
        vec!["app/models.py", "app/views.py", "tests/test_models.py"]
    );
    assert_eq!(python.label, "load_user");
    let go = report.cohort_of("pkg/store/store.go").unwrap();
    assert_eq!(go.files, vec!["pkg/store/store.go", "cmd/tool/main.go"]);
    assert_eq!(go.label, "OpenStore");
    let js = report.cohort_of("web/api.js").unwrap();
    assert_eq!(js.files, vec!["web/api.js", "web/list.js"]);
    assert_eq!(js.label, "fetchItems");
    assert_eq!(report.cohorts.len(), 3);
    assert!(report.cohorts.iter().all(|c| !c.fallback));

    let gap = axis(&report, TEST_GAP);
    assert_eq!(gap.verdict, AxisVerdict::Warn);
    assert!(gap.detail.contains("OpenStore") && gap.detail.contains("fetchItems"));
    assert!(!gap.detail.contains("load_user"), "{}", gap.detail);
}

#[test]
fn a_second_build_of_the_same_head_and_base_reads_the_finished_report() {
    let repo = rust_repo();
    change_parse_and_more(&repo);
    let first =
        repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(!first.index_stats.from_cache);
    let names = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(repo.cache_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let written = names();
    assert_eq!(written.len(), 1, "the report alone: {written:?}");
    let report_file = repo
        .cache_dir()
        .join(written.iter().find(|n| n.starts_with("cohorts-")).unwrap());

    // Nothing is parsed again: the cached report answers.
    let second =
        repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(second.index_stats.from_cache);
    assert_eq!(second.cohorts, first.cohorts);
    assert_eq!(second.axes, first.axes);
    assert_eq!(
        names(),
        vec![
            report_file
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        ]
    );

    // A report another build of this version made (a development build, a later commit
    // installed from git) is not this program's answer: it is built again.
    let cached = std::fs::read_to_string(&report_file).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&cached).unwrap();
    assert_ne!(
        json["version"],
        env!("CARGO_PKG_VERSION"),
        "the build is in the key"
    );
    json["version"] = env!("CARGO_PKG_VERSION").into();
    std::fs::write(&report_file, json.to_string()).unwrap();
    let rebuilt =
        repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(!rebuilt.index_stats.from_cache);
    assert_eq!(rebuilt.axes, first.axes);

    // A version tag made since may say an item was released: the report is built again
    // (an other tag changes nothing).
    git(&repo.path(), &["tag", "nightly", "main"]);
    let tagged =
        repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(tagged.index_stats.from_cache);
    git(&repo.path(), &["tag", "v1.0.0", "main"]);
    let tagged =
        repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(!tagged.index_stats.from_cache);
    assert_eq!(tagged.axes, first.axes);

    // A damaged report is rebuilt, with a note, to the same answer.
    std::fs::write(&report_file, "{ not json").unwrap();
    let third =
        repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(
        third.notes.iter().any(|n| n.contains("cohort cache")),
        "{:?}",
        third.notes
    );
    assert_eq!(third.cohorts, first.cohorts);

    // Another diff over the same commits (a filtered one) is not answered from the cache.
    let fourth = repo.build_with(|input| {
        let mut diff = input.diff.clone();
        diff.files.retain(|f| f.path != "src/render.rs");
        let input = crate::cohort::CohortInput {
            diff: &diff,
            ..input
        };
        crate::session::cohort_build::build_cached(input, None).unwrap()
    });
    assert!(fourth.cohort_of("src/render.rs").is_none());
    assert!(first.cohort_of("src/render.rs").is_some());
}

#[test]
fn the_index_opened_early_from_the_head_commit_gives_the_report_of_one_read_from_the_worktree() {
    let repo = rust_repo();
    change_parse_and_more(&repo);
    // What the worktree walk leaves out must be left out of the tree walk too.
    repo.write("vendor/dep.rs", "pub fn vendored_thing() {}\n");
    repo.write("big.rs", &"// filler\n".repeat(110_000));
    std::os::unix::fs::symlink("src/app.rs", repo.path().join("link.rs")).unwrap();
    repo.commit("more");
    let head = git(&repo.path(), &["rev-parse", "HEAD"]);
    let head_oid = git2::Oid::from_str(&head).unwrap();

    let from_worktree = SymbolIndex::build(&repo.path(), &head.parse().unwrap()).unwrap();
    assert!(from_worktree.covers("src/app.rs"));
    assert!(!from_worktree.covers("vendor/dep.rs"));
    assert!(!from_worktree.covers("big.rs"));
    assert!(!from_worktree.covers("link.rs"));
    let (from_tree, _) = SymbolIndex::build_from_tree(
        &repo.path().join(".git"),
        head_oid,
        &std::collections::BTreeSet::new(),
    )
    .unwrap();
    assert_eq!(from_tree, from_worktree);

    let main = git2::Oid::from_str(&git(&repo.path(), &["rev-parse", "main"])).unwrap();
    let early = || {
        crate::cohort::EarlyIndex::start(
            &repo.path().join(".git"),
            &repo.cache_dir(),
            main,
            head_oid,
        )
    };
    let mut started = early().expect("no cached report yet: the early index starts");
    // Every base version parsed ahead, so that each one the build reads is handed over.
    started.wait_for_bases();
    let report = repo.build_with(|input| {
        crate::session::cohort_build::build_with(input, Some(started)).unwrap()
    });
    // The same report as a build whose index reads the worktree alone, and as one that opens
    // the index itself.
    let (alone, _) =
        crate::cohort::LazyIndex::from_worktree(&repo.path(), &Default::default()).unwrap();
    assert_eq!(
        alone.stats().files_indexed,
        report.index_stats.files_indexed
    );
    assert_eq!(repo.build().cohorts, report.cohorts);
    assert_eq!(repo.build().axes, report.axes);

    // With this head's report cached there is nothing to start early.
    repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    assert!(early().is_none());
}

#[test]
fn a_new_head_forgets_the_caches_of_earlier_heads() {
    let repo = rust_repo();
    change_parse_and_more(&repo);
    repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    let old_head = repo::git(&repo.path(), &["rev-parse", "HEAD"]);
    repo.write("src/extra.rs", "pub fn extra_thing() -> u8 {\n    7\n}\n");
    repo.commit("push 2");
    let new_head = repo::git(&repo.path(), &["rev-parse", "HEAD"]);
    // A symbol index an earlier version wrote, even of this head, goes too.
    std::fs::write(
        repo.cache_dir().join(format!("symbols-{new_head}.json")),
        "{}",
    )
    .unwrap();
    repo.build_with(|input| crate::session::cohort_build::build_cached(input, None).unwrap());
    let names: Vec<String> = std::fs::read_dir(repo.cache_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(names.iter().all(|n| n.contains(&new_head)), "{names:?}");
    assert!(!names.iter().any(|n| n.contains(&old_head)), "{names:?}");
}

#[test]
fn a_minified_file_is_not_parsed_and_says_so() {
    let repo = rust_repo();
    let bundle = format!(
        "var a={};function f(){{return a}}\n",
        "1+".repeat(20_000) + "1"
    );
    repo.write("web/app.js", &bundle);
    repo.write("src/render.rs", &RENDER.replace("<h1>", "<h2>"));
    repo.commit("bundle");
    let report = repo.build();
    let web = report.cohort_of("web/app.js").unwrap();
    assert!(web.fallback);
    assert_eq!(web.files, vec!["web/app.js"]);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.starts_with("web/app.js is minified (a line of 40030 bytes): not parsed")),
        "{:?}",
        report.notes
    );
    assert_eq!(
        report.cohort_of("src/render.rs").unwrap().symbols,
        vec!["render_page"]
    );
}

/// The base versions parsed ahead of the cohort build (keyed by blob id) read exactly as the
/// build's own parses: the same symbols, tags, surfaces and notes for every changed file —
/// modified, renamed (git finds the rename; the early parse saw a deleted path) and deleted,
/// in two languages, one base that does not parse cleanly — and each of those bases is taken.
#[test]
fn bases_parsed_ahead_read_as_the_builds_own_parses() {
    let repo = Repo::new(&[
        ("src/config/parse.rs", PARSE),
        ("src/app.rs", APP),
        ("src/cli.rs", CLI),
        ("src/render.rs", RENDER),
        ("tests/parse_test.rs", PARSE_TEST),
        ("src/broken.rs", "pub fn half(x: u8 -> u8 {\n    x\n}\n"),
        ("pkg/tool.py", "def tool(x):\n    return helper(x)\n"),
        ("src/gone.rs", "pub fn gone() -> u8 {\n    3\n}\n"),
    ]);
    change_parse_and_more(&repo);
    repo.write(
        "src/cli.rs",
        &CLI.replace("report_name(&config.name)", "report_name(arg)"),
    );
    repo.write("src/broken.rs", "pub fn half(x: u8) -> u8 {\n    x\n}\n");
    repo.write("pkg/tool.py", "def tool(x):\n    return helper(x, 2)\n");
    let moved = std::fs::read_to_string(repo.path().join("src/app.rs")).unwrap();
    repo.remove("src/app.rs");
    repo.write("src/application.rs", &moved);
    repo.remove("src/gone.rs");
    repo.commit("more");
    let head = git(&repo.path(), &["rev-parse", "HEAD"]);
    let main = git(&repo.path(), &["rev-parse", "main"]);
    let oid = |sha: &str| git2::Oid::from_str(sha).unwrap();

    let read = |early: Option<&crate::cohort::early_bases::EarlyBases>| {
        repo.build_with(|input| {
            let sources = crate::api::sources::Sources::new(input.worktree, input.base);
            let files = crate::cohort::changes::read_all(
                &input.diff.files,
                input.worktree,
                input.base,
                &mut Default::default(),
                &sources,
                early,
            );
            assert!(
                input
                    .diff
                    .files
                    .iter()
                    .any(|f| f.old_path.as_deref() == Some("src/app.rs")),
                "git finds the rename"
            );
            format!("{files:#?}")
        })
    };
    let own = read(None);
    let mut early = crate::cohort::early_bases::EarlyBases::start(
        &repo.path().join(".git"),
        oid(&main),
        oid(&head),
    )
    .unwrap();
    early.wait();
    assert_eq!(read(Some(&early)), own);
    // parse.rs, app.rs (now application.rs), cli.rs, render.rs, broken.rs, tool.py, gone.rs,
    // and the test file.
    assert_eq!(early.taken(), 8);
}
