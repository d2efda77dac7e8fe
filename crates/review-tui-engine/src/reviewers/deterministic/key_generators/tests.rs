use super::*;
use crate::space::test_repo::committed;

fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    committed(files)
}

fn writer(dir: &tempfile::TempDir, key: &str) -> Option<String> {
    let files = crate::reviewers::deterministic::repo_files(dir.path()).unwrap();
    script_writing(dir.path(), &files, key)
}

const CREATE_SH: &str = "#!/bin/bash\n\
# Create the server CA certs.\n\
openssl req -x509 \\\n  -newkey rsa:4096 \\\n  -nodes \\\n  -keyout ca.key \\\n  -out ca.pem \\\n  -config ./openssl.cnf\n\
openssl genrsa -out server.key 4096\n\
openssl req -new -key server.key -out server_csr.pem\n\
openssl ecparam -name prime256v1 -genkey -noout -out ec.key && echo done\n\
openssl genpkey -algorithm ed25519 > ed.key\n\
openssl genrsa -out ../certs/outside.key 2048\n";

const SERVER_TF: &str = "resource \"tls_private_key\" \"server\" {\n  algorithm = \"RSA\"\n}\n\
resource \"local_file\" \"server_key\" {\n  filename = \"../server1.key\"\n  content = tls_private_key.server.private_key_pem\n}\n\
resource \"local_sensitive_file\" \"client_key\" {\n  filename = \"${path.module}/../client.key\"\n  content = tls_private_key.client.private_key_pem\n}\n";

/// tonic's `examples/data/tls/create.sh` writes the keys beside it (`-keyout ca.key`,
/// `genrsa -out server.key`); its interop suite's `cert-generator/*.tf` writes
/// `tls_private_key` to `../server1.key`. Other generators: a root Makefile's recipe by a path
/// from the root, `ssh-keygen -f`, `mkcert -key-file`, `cfssljson -bare`.
#[test]
fn a_key_is_generated_by_a_script_beside_it_that_writes_its_path() {
    let dir = repo(&[
        ("examples/data/tls/create.sh", CREATE_SH),
        ("examples/data/tls/ca.key", "k"),
        ("examples/data/tls/server.key", "k"),
        ("examples/data/tls/ec.key", "k"),
        ("examples/data/tls/ed.key", "k"),
        ("examples/data/certs/outside.key", "k"),
        ("interop/data/cert-generator/server_certs.tf", SERVER_TF),
        ("interop/data/server1.key", "k"),
        ("interop/data/client.key", "k"),
        (
            "Makefile",
            "certs:\n\t@openssl genrsa -out tests/tls/root.key 2048\n",
        ),
        ("tests/tls/root.key", "k"),
        (
            "dev/keys.sh",
            "ssh-keygen -t ed25519 -N '' -f id_test\nmkcert -cert-file site.pem -key-file site-key.pem localhost\ncfssl gencert -initca ca.json | cfssljson -bare ca\n",
        ),
        ("dev/id_test", "k"),
        ("dev/site-key.pem", "k"),
        ("dev/ca-key.pem", "k"),
        (
            "examples/mtls/generate.sh",
            "mkdir creds\npushd creds\nopenssl genrsa -out server_key.pem 4096\npopd\n\
             cd \"$(dirname \"$0\")\"\nopenssl genrsa -out here.key\ncd \"$OUT\"\nopenssl genrsa -out lost.key\n",
        ),
        ("examples/mtls/creds/server_key.pem", "k"),
        ("examples/mtls/server_key.pem", "k"),
        ("examples/mtls/here.key", "k"),
        ("examples/mtls/lost.key", "k"),
    ]);
    let script = "examples/data/tls/create.sh";
    for key in [
        "examples/data/tls/ca.key",
        "examples/data/tls/server.key",
        "examples/data/tls/ec.key",
        "examples/data/tls/ed.key",
    ] {
        assert_eq!(writer(&dir, key).as_deref(), Some(script), "{key}");
    }
    for key in ["interop/data/server1.key", "interop/data/client.key"] {
        assert_eq!(
            writer(&dir, key).as_deref(),
            Some("interop/data/cert-generator/server_certs.tf"),
            "{key}"
        );
    }
    assert_eq!(
        writer(&dir, "tests/tls/root.key").as_deref(),
        Some("Makefile")
    );
    for key in ["dev/id_test", "dev/site-key.pem", "dev/ca-key.pem"] {
        assert_eq!(writer(&dir, key).as_deref(), Some("dev/keys.sh"), "{key}");
    }
    // `pushd creds` moves where the key lands; `cd "$(dirname "$0")"` comes back; after a
    // `cd` to a variable's folder nothing is known.
    let generate = Some("examples/mtls/generate.sh");
    assert_eq!(
        writer(&dir, "examples/mtls/creds/server_key.pem").as_deref(),
        generate
    );
    assert_eq!(writer(&dir, "examples/mtls/here.key").as_deref(), generate);
    assert_eq!(writer(&dir, "examples/mtls/server_key.pem"), None);
    assert_eq!(writer(&dir, "examples/mtls/lost.key"), None);
    // A script beside neither the key nor a folder above it is not looked for.
    assert_eq!(writer(&dir, "examples/data/certs/outside.key"), None);
}

/// A hostile change must not make a real key a sample by adding a script that mentions it: a
/// comment, an `echo` of the command, a conversion or a read of the existing key, a path built
/// from a variable, a Terraform file writing content it did not generate, a script writing
/// another file of the same name elsewhere.
#[test]
fn a_script_that_only_mentions_reads_or_copies_a_key_does_not_generate_it() {
    let dir = repo(&[
        (
            "deploy/rotate.sh",
            "# openssl genrsa -out prod.key 4096\n\
             echo \"openssl genrsa -out prod.key 4096\"\n\
             echo openssl genrsa -out prod.key\n\
             openssl rsa -in prod.key -pubout -out prod.pub\n\
             openssl rsa -in old.key -out prod.key\n\
             openssl req -new -key prod.key -out prod.csr\n\
             ssh-keygen -y -f prod.key > prod.pub\n\
             ssh-keygen -p -f prod.key\n\
             openssl genrsa -out \"$OUT/prod.key\" 4096\n\
             openssl genrsa -out staging/prod.key 4096\n",
        ),
        ("deploy/prod.key", "k"),
        (
            "deploy/tf/keys.tf",
            "resource \"local_file\" \"prod\" {\n  filename = \"../prod.key\"\n  content = file(\"secret.pem\")\n}\n\
             # resource \"local_file\" \"x\" {\n#  filename = \"../prod.key\"\n#  content = tls_private_key.a.private_key_pem\n# }\n",
        ),
        (
            "deploy/Makefile",
            "# openssl genrsa -out prod.key\nKEY = openssl genrsa -out prod.key\n",
        ),
    ]);
    assert_eq!(writer(&dir, "deploy/prod.key"), None);
}
