//! The shape of cohorts on changes that used to come out wrong: a test apart from
//! the code it tests, a central type joining everything, moves shattered into one cohort per
//! file, a blast radius counting the change's own files.

use super::repo::{Repo, git};

#[test]
fn a_test_joins_the_code_it_is_named_after() {
    let repo = Repo::new(&[
        ("pkg/models.py", "def price(x):\n    return x\n"),
        ("pkg/views.py", "def show():\n    return 1\n"),
        (
            "tests/test_models.py",
            "def test_price():\n    assert True\n",
        ),
    ]);
    repo.write("pkg/models.py", "def price(x):\n    return x * 2\n");
    repo.write("pkg/views.py", "def show():\n    return 2\n");
    repo.write(
        "tests/test_models.py",
        "def test_price():\n    assert True\n\ndef test_price_doubles():\n    assert 2 == 2\n",
    );
    repo.commit("change");
    let report = repo.build();
    let models = report.cohort_of("pkg/models.py").unwrap();
    assert_eq!(models.files, vec!["pkg/models.py", "tests/test_models.py"]);
    assert_eq!(
        report.cohort_of("pkg/views.py").unwrap().files,
        vec!["pkg/views.py"]
    );
}

#[test]
fn a_hub_type_every_file_touches_does_not_join_them_by_itself() {
    let mut files = vec![(
        "core.py".to_string(),
        "class Ready:\n    pass\n".to_string(),
    )];
    for i in 0..6 {
        files.push((format!("m{i}.py"), format!("def f{i}():\n    return 0\n")));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let repo = Repo::new(&borrowed);
    for i in 0..6 {
        // Each file starts using the central type; m0 and m1 also share a helper of their own.
        let extra = if i < 2 { "    shared_helper()\n" } else { "" };
        repo.write(
            &format!("m{i}.py"),
            &format!("def f{i}():\n    Ready()\n{extra}    return 0\n"),
        );
    }
    repo.write("m0.py", "def shared_helper():\n    return 1\n\ndef f0():\n    Ready()\n    shared_helper()\n    return 0\n");
    repo.commit("change");
    let report = repo.build();
    assert_eq!(
        report.cohort_of("m0.py").unwrap().files,
        vec!["m0.py", "m1.py"]
    );
    for i in 2..6 {
        assert_eq!(
            report.cohort_of(&format!("m{i}.py")).unwrap().files.len(),
            1,
            "m{i}.py joined through the hub alone"
        );
    }
}

#[test]
fn renamed_files_form_one_moved_cohort() {
    let repo = Repo::new(&[
        ("lib/a.py", "def alpha():\n    return 1\n"),
        ("lib/b.py", "def beta():\n    return 2\n"),
        ("lib/c.py", "def gamma():\n    return 3\n"),
    ]);
    std::fs::create_dir_all(repo.path().join("src/lib")).unwrap();
    for name in ["a", "b", "c"] {
        git(
            &repo.path(),
            &[
                "mv",
                &format!("lib/{name}.py"),
                &format!("src/lib/{name}.py"),
            ],
        );
    }
    repo.commit("move to src");
    let report = repo.build();
    assert_eq!(report.cohorts.len(), 1, "{:#?}", report.cohorts);
    let moved = &report.cohorts[0];
    assert_eq!(moved.label, "moved files");
    assert_eq!(
        moved.files,
        vec!["src/lib/a.py", "src/lib/b.py", "src/lib/c.py"]
    );
    assert!(
        moved
            .insight
            .as_deref()
            .unwrap()
            .contains("3 file(s) renamed or moved")
    );
}

#[test]
fn the_label_is_the_most_touched_symbol_and_says_why() {
    let repo = Repo::new(&[
        ("a.py", "def parse(x):\n    return x\n"),
        ("b.py", "def run():\n    return 1\n"),
        ("c.py", "def other():\n    return 2\n"),
    ]);
    repo.write("a.py", "def parse(x):\n    return x.strip()\n");
    repo.write("b.py", "def run():\n    return parse(' 1 ')\n");
    repo.write("c.py", "def other():\n    return parse(' 2 ')\n");
    repo.commit("change");
    let report = repo.build();
    let cohort = report.cohort_of("a.py").unwrap();
    assert_eq!(cohort.files.len(), 3);
    assert_eq!(cohort.label, "parse");
    assert_eq!(
        cohort.insight.as_deref(),
        Some("`parse` is touched in 3 of 3 files")
    );
}

#[test]
fn a_test_that_exercises_changed_code_one_step_away_joins_it() {
    // httpx: `test_queryparams.py` calls `QueryParams`, whose module calls the changed
    // `primitive_value_to_str`; the test's file name names no changed file.
    let repo = Repo::new(&[
        (
            "pkg/_utils.py",
            "def primitive_value_to_str(v):\n    return str(v)\n",
        ),
        (
            "pkg/_urls.py",
            "from pkg._utils import primitive_value_to_str\n\nclass QueryParams:\n    def __init__(self, v):\n        self.v = primitive_value_to_str(v)\n",
        ),
        ("pkg/other.py", "def unrelated():\n    return 1\n"),
        (
            "tests/models/test_queryparams.py",
            "from pkg._urls import QueryParams\n\ndef test_params():\n    assert QueryParams(1).v == '1'\n",
        ),
    ]);
    repo.write(
        "pkg/_utils.py",
        "def primitive_value_to_str(v):\n    if v is None:\n        return ''\n    return str(v)\n",
    );
    repo.write("pkg/other.py", "def unrelated():\n    return 2\n");
    repo.write(
        "tests/models/test_queryparams.py",
        "from pkg._urls import QueryParams\n\ndef test_params():\n    assert QueryParams(1).v == '1'\n\ndef test_none():\n    assert QueryParams(None).v == ''\n",
    );
    repo.commit("change");
    let report = repo.build();
    assert_eq!(
        report.cohort_of("pkg/_utils.py").unwrap().files,
        vec!["pkg/_utils.py", "tests/models/test_queryparams.py"]
    );
    assert_eq!(
        report.cohort_of("pkg/other.py").unwrap().files,
        vec!["pkg/other.py"]
    );
}

/// A Python repository of `n` modules `m{i}.py`, each defining its own function, and `core.py`.
fn modules(n: usize) -> Vec<(String, String)> {
    let mut files = vec![(
        "core.py".to_string(),
        "def ready():\n    return 1\n\ndef hub():\n    return 2\n".to_string(),
    )];
    for i in 0..n {
        files.push((format!("m{i}.py"), format!("def f{i}():\n    return 0\n")));
    }
    files
}

fn repo_of(files: &[(String, String)]) -> Repo {
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    Repo::new(&borrowed)
}

#[test]
fn files_that_touch_no_symbol_are_read_as_one_pass() {
    let repo = repo_of(&modules(4));
    // Three files only get a comment; one changes code of its own.
    for i in 0..3 {
        repo.write(
            &format!("m{i}.py"),
            &format!("# Returns nothing useful.\ndef f{i}():\n    return 0\n"),
        );
    }
    repo.write("m3.py", "def f3():\n    return 3\n");
    repo.commit("docs and one change");
    let report = repo.build();
    let quiet = report.cohort_of("m0.py").unwrap();
    assert_eq!(quiet.files, vec!["m0.py", "m1.py", "m2.py"]);
    assert_eq!(quiet.label, "no symbol touched");
    assert!(quiet.symbols.is_empty() && !quiet.fallback);
    assert_eq!(report.cohort_of("m3.py").unwrap().files, vec!["m3.py"]);
    assert_eq!(report.cohorts.len(), 2, "{:#?}", report.cohorts);
}

#[test]
fn a_large_component_splits_into_bounded_parts_keeping_a_repeated_edit_whole() {
    // 40 modules. m0..m11 make the same edit (a call of `ready`); m12..m39 form pairs, each
    // pair sharing two helpers of its own and chained to the pair before by a call, m12 also
    // calls `ready`; every module calls the changed `hub` too. The whole change is one
    // component of 41 files, over the bound of half of it, and must be split. A cut at the
    // weakest links shed the twelve `ready` files one by one.
    let repo = repo_of(&modules(40));
    repo.write(
        "core.py",
        "def ready():\n    return 1\n\ndef hub():\n    return 3\n",
    );
    for i in 0..40 {
        let body = if i < 12 {
            format!("def f{i}():\n    hub()\n    return ready()\n")
        } else if i % 2 == 0 {
            let chain = match i {
                12 => "    ready()\n".to_string(),
                _ => format!("    pair{}()\n", i - 2),
            };
            format!(
                "def pair{i}():\n    return 1\n\ndef twin{i}():\n    return 2\n\ndef f{i}():\n    hub()\n{chain}    return pair{i}()\n"
            )
        } else {
            let partner = i - 1;
            format!("def f{i}():\n    hub()\n    return pair{partner}() + twin{partner}()\n")
        };
        repo.write(&format!("m{i}.py"), &body);
    }
    repo.commit("one edit repeated, and pairs");
    let report = repo.build();
    let same = report.cohort_of("m0.py").unwrap();
    for i in 1..12 {
        let path = format!("m{i}.py");
        assert!(
            same.files.contains(&path),
            "{path} apart from m0.py: {same:#?}"
        );
    }
    assert_eq!(same.label, "ready", "{same:#?}");
    assert!(
        same.insight
            .as_deref()
            .unwrap()
            .contains("split from 41 files"),
        "{same:#?}"
    );
    for i in (12..40).step_by(2) {
        let cohort = report.cohort_of(&format!("m{i}.py")).unwrap();
        assert!(
            cohort.files.contains(&format!("m{}.py", i + 1)),
            "m{i}.py apart from its pair: {cohort:#?}"
        );
    }
    let largest = report.cohorts.iter().map(|c| c.files.len()).max().unwrap();
    assert!(largest <= 20, "a part over half of 41 files: {largest}");
    assert!(
        report.cohorts.iter().all(|c| c.files.len() > 1),
        "a file shed as a cohort of its own: {:#?}",
        report.cohorts
    );
}

#[test]
fn data_files_the_changes_code_reads_join_its_cohort() {
    // dayjs: a new plugin reads `locale.formats`; every locale file gains a `formats` entry.
    // The locale entries are object keys, no symbol the index knows.
    let mut files = vec![(
        "src/index.js".to_string(),
        "export function dayjs(d) {\n  return d\n}\n".to_string(),
    )];
    for lang in ["de", "fr", "it"] {
        files.push((
            format!("src/locale/{lang}.js"),
            format!("const locale = {{\n  name: '{lang}',\n  weekStart: 1\n}}\n\nexport default locale\n"),
        ));
    }
    files.push((
        "src/plugin/other.js".to_string(),
        "export function other() {\n  return 1\n}\n".to_string(),
    ));
    let repo = repo_of(&files);
    for lang in ["de", "fr", "it"] {
        repo.write(
            &format!("src/locale/{lang}.js"),
            &format!("const locale = {{\n  name: '{lang}',\n  weekStart: 1,\n  formats: {{\n    LT: 'HH:mm'\n  }}\n}}\n\nexport default locale\n"),
        );
    }
    repo.write(
        "src/plugin/localizedFormat.js",
        "import { dayjs } from '../index'\n\nexport function localizedFormat(d) {\n  const formats = d.locale.formats || {}\n  return dayjs(formats.LT)\n}\n",
    );
    // An unrelated comment elsewhere stays in the pass of files touching nothing.
    repo.write(
        "src/plugin/other.js",
        "// Returns one.\nexport function other() {\n  return 1\n}\n",
    );
    repo.commit("localized formats");
    let report = repo.build();
    let plugin = report.cohort_of("src/plugin/localizedFormat.js").unwrap();
    assert_eq!(
        plugin.files,
        vec![
            "src/plugin/localizedFormat.js",
            "src/locale/de.js",
            "src/locale/fr.js",
            "src/locale/it.js",
        ],
        "{:#?}",
        report.cohorts
    );
    assert!(
        plugin
            .insight
            .as_deref()
            .unwrap_or_default()
            .contains("`formats`"),
        "{:?}",
        plugin.insight
    );
    assert_eq!(
        report.cohort_of("src/plugin/other.js").unwrap().files,
        vec!["src/plugin/other.js"]
    );
}

#[test]
fn a_binding_test_joins_its_code_across_languages_and_a_generic_name_joins_nothing() {
    let files = vec![
        (
            "src/tokenizer.rs".to_string(),
            "pub fn split_words(s: &str) -> usize {\n    s.len()\n}\n".to_string(),
        ),
        (
            "src/parser.rs".to_string(),
            "pub fn begin() -> u32 {\n    1\n}\n".to_string(),
        ),
        (
            "py/reader.py".to_string(),
            "def begin():\n    return 1\n".to_string(),
        ),
        (
            "tests/test_tokenizer.py".to_string(),
            "def test_one():\n    assert True\n".to_string(),
        ),
    ];
    let repo = repo_of(&files);
    repo.write(
        "src/tokenizer.rs",
        "pub fn split_words(s: &str) -> usize {\n    s.split(' ').count()\n}\n",
    );
    repo.write("src/parser.rs", "pub fn begin() -> u32 {\n    2\n}\n");
    repo.write("py/reader.py", "def begin():\n    return 2\n");
    repo.write(
        "tests/test_tokenizer.py",
        "def test_one():\n    assert True\n\ndef test_two():\n    assert 1 + 1 == 2\n",
    );
    repo.commit("binding and two begins");
    let report = repo.build();
    assert_eq!(
        report.cohort_of("src/tokenizer.rs").unwrap().files,
        vec!["src/tokenizer.rs", "tests/test_tokenizer.py"],
        "{:#?}",
        report.cohorts
    );
    assert_eq!(
        report.cohort_of("src/parser.rs").unwrap().files,
        vec!["src/parser.rs"],
        "{:#?}",
        report.cohorts
    );
    assert_eq!(
        report.cohort_of("py/reader.py").unwrap().files,
        vec!["py/reader.py"]
    );
}
