//! A package nobody receives yet: a crate its manifest keeps unpublished at a pre-release
//! version is built in the open, and its stubs are its state, not a defect of the change.

use super::house::review;

const STUB: &str = "pub fn drop_pick() {\n    todo!(\"dropped pick\");\n}\n";
const RULE: &str = "rust/todo-macro";

fn manifest(version: &str, publish: &str) -> String {
    format!("[package]\nname = \"grpc\"\nversion = \"{version}\"\n{publish}edition = \"2024\"\n")
}

#[test]
fn a_stub_in_an_unpublished_pre_release_crate_is_not_a_finding() {
    let found = |version: &str, publish: &str| {
        let cargo = manifest(version, publish);
        review(
            &[
                ("grpc/Cargo.toml", cargo.as_str()),
                ("grpc/src/lib.rs", "pub mod channel;\n"),
            ],
            "grpc/src/channel.rs",
            STUB,
            RULE,
        )
        .0
    };
    assert_eq!(found("0.9.0-alpha.1", "publish = false\n"), 0);
    assert_eq!(found("0.1.0-dev", "publish = []\n"), 0);
    // Published, or at a release version (an application deployed from the repository):
    // the stub ships.
    assert_eq!(found("0.9.0-alpha.1", ""), 1);
    assert_eq!(found("0.9.0", "publish = false\n"), 1);
    assert_eq!(found("1.2.0", ""), 1);
}
