//! Which names of each changed file a Rust crate exports (`api::scope`), for 475 changed files
//! at both sides, in a crate laid out as tokio is: modules declared inside the crate's own
//! `cfg_*!` macros (some of which put items behind an opt-in `cfg`), kept in `src/macros/`,
//! and private modules re-exported from public ones. Each file's scope reads the crate root,
//! the module files above it and the crate's macros.

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use review_tui::api::scope;
use review_tui::cohort::Grammar;

const CHANGED: usize = 475;
const MODULES: usize = 25;
const MACROS: usize = 40;

/// The crate's files by path.
fn crate_files() -> HashMap<String, String> {
    let mut files = HashMap::new();
    files.insert(
        "Cargo.toml".to_string(),
        "[package]\nname = \"bench\"\nversion = \"1.0.0\"\n".to_string(),
    );
    let mut lib = String::from("//! A crate.\n\n#[macro_use]\nmod macros;\n\n");
    for m in 0..MODULES {
        // Public modules declared in macro calls, private ones re-exported.
        if m.is_multiple_of(3) {
            lib.push_str(&format!(
                "mod private_{m};\npub use private_{m}::Item{m};\n"
            ));
        } else {
            lib.push_str(&format!(
                "cfg_feature_{}! {{\n    pub mod module_{m};\n}}\n",
                m % MACROS
            ));
        }
        let mut module = String::new();
        for f in 0..CHANGED / MODULES + 1 {
            module.push_str(&format!(
                "cfg_feature_{}! {{\n    pub mod file_{f};\n}}\n",
                f % MACROS
            ));
        }
        let dir = if m.is_multiple_of(3) {
            "private"
        } else {
            "module"
        };
        files.insert(format!("src/{dir}_{m}/mod.rs"), module);
    }
    files.insert("src/lib.rs".to_string(), lib);
    files.insert(
        "src/macros/mod.rs".to_string(),
        "mod cfg;\nmod support;\n".to_string(),
    );
    let mut cfg = String::new();
    for k in 0..MACROS {
        let predicate = if k.is_multiple_of(4) {
            "all(bench_unstable, feature = \"x\")".to_string()
        } else {
            format!("feature = \"f{k}\"")
        };
        cfg.push_str(&format!(
            "macro_rules! cfg_feature_{k} {{\n    ($($item:item)*) => {{\n        $(\n            \
             #[cfg({predicate})]\n            $item\n        )*\n    }}\n}}\n\n"
        ));
    }
    files.insert("src/macros/cfg.rs".to_string(), cfg);
    files.insert(
        "src/macros/support.rs".to_string(),
        "macro_rules! ready { ($e:expr) => { $e } }\n".repeat(20),
    );
    files
}

fn bench(c: &mut Criterion) {
    let files = crate_files();
    let read = |path: &str| files.get(path).cloned();
    let changed: Vec<String> = (0..CHANGED)
        .map(|i| {
            let m = i % MODULES;
            let dir = if m.is_multiple_of(3) {
                "private"
            } else {
                "module"
            };
            format!("src/{dir}_{m}/file_{}.rs", i / MODULES)
        })
        .collect();
    c.bench_function("rust scopes of 475 changed files, both sides", |b| {
        b.iter(|| {
            let mut api = 0;
            for path in &changed {
                for _side in 0..2 {
                    api += usize::from(scope(path, Grammar::Rust, "", &read).is_api());
                }
            }
            black_box(api)
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
