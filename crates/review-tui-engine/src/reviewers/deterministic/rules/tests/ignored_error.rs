//! `go/ignored-error`: a `_` drops an error only where the callee returns one there, read from
//! the callee's signature (the standard library's, the repository's own declarations), and Go's
//! convention (an error last) where the signature is nowhere to be read.

use super::*;

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
    assert!(rule_findings(&base, &[("rsa_utils.go", &pem_decode)], IGNORED_ERROR).is_empty());
    // The repository's own codec: one `Decode` returns no error, another one does.
    let codec = "package keys\n\ntype Codec struct{}\n\n// Decode reports the value and whether it was whole.\nfunc (c *Codec) Decode(b []byte) (v []byte, whole bool) {\n\treturn b, true\n}\n";
    let own = parse("\tc := &Codec{}\n\tv, _ := c.Decode(key)\n\t_ = v");
    assert!(
        rule_findings(
            &base,
            &[("codec.go", codec), ("use.go", &own)],
            IGNORED_ERROR
        )
        .is_empty()
    );
    let failing = "package keys\n\ntype Codec struct{}\n\nfunc (c *Codec) Decode(b []byte) ([]byte, error) {\n\treturn b, nil\n}\n";
    assert_eq!(
        rule_findings(
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
        rule_findings(&base, &[("read.go", &read)], IGNORED_ERROR).len(),
        1
    );
    let unknown = parse("\tv, _ := thirdparty.Decode(key)\n\t_ = v");
    assert_eq!(
        rule_findings(&base, &[("other.go", &unknown)], IGNORED_ERROR).len(),
        1
    );
}
