//! The principles the ninth held-out sweep asked for, on real repositories in temp dirs: each
//! shape that fired and must not, beside the shape that must still fire.

use std::collections::BTreeSet;

use super::*;
use crate::review::node::ReviewNode;
use crate::space::test_repo::{commit_all, git, init};

fn write_all(root: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// Commits `base`, then `head` over it, and scans the change with the head checked out: the
/// findings of `rule`.
fn findings(base: &[(&str, &str)], head: &[(&str, &str)], rule: &str) -> Vec<ReviewNode> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    init(root);
    write_all(root, base);
    commit_all(root, "base");
    write_all(root, head);
    commit_all(root, "Add the feature");
    let text = git(root, &["diff", "HEAD~1", "HEAD"]) + "\n";
    let files: BTreeSet<String> = git(root, &["ls-files"]).lines().map(String::from).collect();
    let options = ScanOptions {
        worktree: Some(root.to_path_buf()),
        repo_files: Some(files),
        title: "Add the feature".into(),
        ..ScanOptions::default()
    };
    BUILTIN
        .scan(&diff(&text), &options)
        .nodes
        .into_iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .collect()
}

const IGNORED_ERROR: &str = "go/ignored-error";

/// golang-jwt's key parsers: `block, _ = pem.Decode(key)` drops `rest []byte` (the standard
/// library's `pem.Decode` returns `(*Block, []byte)`), and a repository's own `Decode` that
/// returns no error is no error dropped either. Where the callee returns its error there (the
/// standard library's `os.ReadFile`, the repository's own `Decode` returning `error`, a
/// callee whose signature is nowhere), the rule still fires.
#[test]
fn a_blank_that_drops_no_error_is_not_an_ignored_error() {
    let base = [("go.mod", "module example.org/keys\n\ngo 1.21\n")];
    let parse = |body: &str| {
        format!(
            "package keys\n\nimport \"encoding/pem\"\n\nfunc ParseKey(key []byte) ([]byte, error) {{\n\tvar block *pem.Block\n{body}\n\treturn block.Bytes, nil\n}}\n"
        )
    };
    let pem_decode = parse("\tblock, _ = pem.Decode(key)");
    assert!(findings(&base, &[("rsa_utils.go", &pem_decode)], IGNORED_ERROR).is_empty());
    // The repository's own codec: one `Decode` returns no error, another one does.
    let codec = "package keys\n\ntype Codec struct{}\n\n// Decode reports the value and whether it was whole.\nfunc (c *Codec) Decode(b []byte) (v []byte, whole bool) {\n\treturn b, true\n}\n";
    let own = parse("\tc := &Codec{}\n\tv, _ := c.Decode(key)\n\t_ = v");
    assert!(
        findings(
            &base,
            &[("codec.go", codec), ("use.go", &own)],
            IGNORED_ERROR
        )
        .is_empty()
    );
    let failing = "package keys\n\ntype Codec struct{}\n\nfunc (c *Codec) Decode(b []byte) ([]byte, error) {\n\treturn b, nil\n}\n";
    assert_eq!(
        findings(
            &base,
            &[("codec.go", failing), ("use.go", &own)],
            IGNORED_ERROR
        )
        .len(),
        1
    );
    // The standard library's and unknown callees keep Go's convention: error last.
    let read = parse("\tdata, _ := os.ReadFile(\"key.pem\")\n\t_ = data");
    assert_eq!(
        findings(&base, &[("read.go", &read)], IGNORED_ERROR).len(),
        1
    );
    let unknown = parse("\tv, _ := thirdparty.Decode(key)\n\t_ = v");
    assert_eq!(
        findings(&base, &[("other.go", &unknown)], IGNORED_ERROR).len(),
        1
    );
}
