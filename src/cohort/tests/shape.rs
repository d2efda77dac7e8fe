//! The shape of cohorts on changes that used to come out wrong (issue #14): a test apart from
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
