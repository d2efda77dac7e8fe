//! Blast radius counts the files whose uses resolve to the changed definition, not every file
//! where its name appears (a test-only gson change scored 182).

use super::repo::Repo;

#[test]
fn a_test_only_change_has_no_users_outside_the_tests_that_import_it() {
    // gson #3068: a test defines its own `Point`; the main code and other tests have theirs.
    let test = "package com.x;\n\npublic class MapTest {\n  static class Point {\n    int x;\n  }\n\n  void testMap() {\n    Point p = new Point();\n  }\n}\n";
    let repo = Repo::new(&[
        (
            "src/main/java/com/x/Point.java",
            "package com.x;\n\npublic class Point {\n  int x;\n}\n",
        ),
        (
            "src/main/java/com/x/Shapes.java",
            "package com.x;\n\npublic class Shapes {\n  Point corner() {\n    return new Point();\n  }\n}\n",
        ),
        (
            "src/test/java/com/x/OtherTest.java",
            "package com.x;\n\npublic class OtherTest {\n  void testOther() {\n    Point p = new Point();\n  }\n}\n",
        ),
        ("src/test/java/com/x/MapTest.java", test),
    ]);
    repo.write(
        "src/test/java/com/x/MapTest.java",
        &test.replace("int x;", "int x;\n    int y;"),
    );
    repo.commit("extend the test's Point");
    let report = repo.build();
    let cohort = report
        .cohort_of("src/test/java/com/x/MapTest.java")
        .unwrap();
    assert!(cohort.symbols.contains(&"Point".to_string()), "{cohort:?}");
    assert_eq!(
        cohort.blast_radius, 0,
        "Shapes.java and OtherTest.java use other `Point`s: {cohort:?}"
    );
}

#[test]
fn rust_users_are_the_files_that_import_or_qualify_the_module() {
    let build = "pub fn build() -> u8 {\n    1\n}\n";
    let helper = "fn rt() -> u8 {\n    1\n}\n\n#[test]\nfn a() {\n    assert_eq!(rt(), 1);\n}\n";
    let repo = Repo::new(&[
        ("src/runtime.rs", build),
        ("src/cache.rs", "pub fn build() -> u8 {\n    2\n}\n"),
        (
            "src/app.rs",
            "use crate::runtime::build;\n\npub fn app() -> u8 {\n    build()\n}\n",
        ),
        (
            "src/worker.rs",
            "pub fn work() -> u8 {\n    crate::runtime::build() + 1\n}\n",
        ),
        (
            "src/misc.rs",
            "pub fn misc() -> u8 {\n    crate::cache::build()\n}\n",
        ),
        ("tests/a.rs", helper),
        (
            "tests/b.rs",
            "fn rt() -> u8 {\n    2\n}\n\n#[test]\nfn b() {\n    assert_eq!(rt(), 2);\n}\n",
        ),
        (
            "tests/c.rs",
            "#[test]\nfn c() {\n    assert_eq!(support::rt(), 3);\n}\n",
        ),
    ]);
    repo.write("src/runtime.rs", &build.replace("1", "10"));
    repo.write("tests/a.rs", &helper.replace("    1\n", "    11\n"));
    repo.commit("change build and a test helper");
    let report = repo.build();
    let runtime = report.cohort_of("src/runtime.rs").unwrap();
    // app.rs imports it, worker.rs qualifies it; misc.rs calls cache's `build`, cache.rs
    // defines its own.
    assert_eq!(runtime.blast_radius, 2, "{runtime:?}");
    let helper = report.cohort_of("tests/a.rs").unwrap();
    assert!(helper.symbols.contains(&"rt".to_string()), "{helper:?}");
    assert_eq!(
        helper.blast_radius, 0,
        "b.rs has its own `rt`, c.rs calls support's: {helper:?}"
    );
}

#[test]
fn python_and_go_users_import_the_module_or_share_the_package() {
    let models = "class Request:\n    method = 'GET'\n";
    let server = "package server\n\nfunc Serve() int {\n\treturn 1\n}\n";
    let repo = Repo::new(&[
        ("go.mod", "module example.com/app\n\ngo 1.22\n"),
        ("web/_models.py", models),
        (
            "web/_client.py",
            "from ._models import Request\n\ndef send():\n    return Request()\n",
        ),
        (
            "web/_mail.py",
            "from email.message import Request\n\ndef mail():\n    return Request()\n",
        ),
        ("server/server.go", server),
        (
            "server/run.go",
            "package server\n\nfunc Run() int {\n\treturn Serve()\n}\n",
        ),
        (
            "cmd/main.go",
            "package main\n\nimport \"example.com/app/server\"\n\nfunc main() {\n\tserver.Serve()\n}\n",
        ),
        (
            "other/other.go",
            "package other\n\nfunc Use(s interface{ Serve() int }) int {\n\treturn s.Serve()\n}\n",
        ),
    ]);
    repo.write("web/_models.py", &models.replace("'GET'", "'POST'"));
    repo.write("server/server.go", &server.replace("return 1", "return 2"));
    repo.commit("change Request and Serve");
    let report = repo.build();
    let request = report.cohort_of("web/_models.py").unwrap();
    assert_eq!(request.blast_radius, 1, "only _client.py: {request:?}");
    let serve = report.cohort_of("server/server.go").unwrap();
    assert_eq!(
        serve.blast_radius, 2,
        "run.go shares the package, main.go imports it, other.go neither: {serve:?}"
    );
}
