//! The apiContract axis on real git repositories: each false stop seen on real pull requests,
//! reproduced small, and the breaks it must still catch.

use crate::cohort::tests::repo::Repo;
use crate::review::axes::{API_CONTRACT, Axis, AxisVerdict};

/// The axis after committing `changes` over `base`.
pub(super) fn api_after(base: &[(&str, &str)], changes: &[(&str, &str)]) -> Axis {
    let repo = Repo::new(base);
    for (path, content) in changes {
        repo.write(path, content);
    }
    repo.commit("change");
    let report = repo.build();
    report
        .axes
        .iter()
        .find(|a| a.name == API_CONTRACT)
        .unwrap()
        .clone()
}

pub(super) fn assert_clears(axis: &Axis) {
    assert!(
        axis.verdict.clears_gate(),
        "{}: {}",
        axis.verdict,
        axis.detail
    );
}

pub(super) fn assert_fails(axis: &Axis, expected: &[&str]) {
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    for part in expected {
        assert!(
            axis.detail.contains(part),
            "{part:?} not in {}",
            axis.detail
        );
    }
}

const CARGO: &str = "[package]\nname = \"lib\"\nversion = \"1.4.0\"\nedition = \"2021\"\n";
const LIB: &str = "pub mod runtime;\nmod util;\npub use util::helper;\n";

const BUILDER: &str = "/// Builds a runtime.
pub struct Builder {
    /// The thread count.
    pub threads: usize,
    kind: u8,
}

pub struct Interest(usize);

pub const LIMIT: usize = 16;

impl Builder {
    pub fn new() -> Builder {
        Builder { threads: 1, kind: 0 }
    }

    pub fn extend<I: Iterator<Item = u8>>(&mut self, items: I) -> usize {
        items.count()
    }

    fn private_thing(&self) {}
}

pub fn spawn(name: &str, threads: usize) -> Builder {
    Builder { threads, kind: name.len() as u8 }
}
";

fn rust_base() -> Vec<(&'static str, &'static str)> {
    vec![
        ("Cargo.toml", CARGO),
        ("src/lib.rs", LIB),
        ("src/runtime.rs", BUILDER),
        (
            "src/util.rs",
            "pub fn helper() -> u8 {\n    1\n}\n\npub fn internal_only() {}\n",
        ),
    ]
}

#[test]
fn rust_private_fields_bodies_docs_attributes_and_const_values_are_not_the_contract() {
    let head = BUILDER
        .replace("    kind: u8,\n", "    kind: u8,\n    name: Option<String>,\n")
        .replace("pub struct Interest(usize);", "pub struct Interest(mio::Interest);")
        .replace("LIMIT: usize = 16", "LIMIT: usize = 32")
        .replace("/// The thread count.", "/// How many worker threads.\n    #[allow(dead_code)]")
        .replace("Builder { threads: 1, kind: 0 }", "Builder { threads: 2, kind: 0, name: None }")
        .replace("kind: name.len() as u8 }", "kind: name.len() as u8, name: None }")
        .replace(
            "pub fn spawn(name: &str, threads: usize) -> Builder {",
            "#[inline]\npub fn spawn(\n    name: &str,\n    threads: usize, // workers\n) -> Builder {",
        )
        .replace("fn private_thing(&self) {}", "fn private_thing(&self, _x: u8) {}");
    let axis = api_after(&rust_base(), &[("src/runtime.rs", &head)]);
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

#[test]
fn rust_a_method_moved_into_a_private_modules_impl_is_not_removed() {
    // log #662: `impl Value { pub fn to_cow_str }` moved into `mod std_support { … }`.
    let head = BUILDER.replace(
        "    fn private_thing(&self) {}\n}\n",
        "    fn private_thing(&self) {}\n}\n\nmod support {\n    use super::*;\n\n    impl Builder {\n        pub fn extend<I: Iterator<Item = u8>>(&mut self, items: I) -> usize {\n            items.count()\n        }\n    }\n}\n",
    ).replace(
        "    pub fn extend<I: Iterator<Item = u8>>(&mut self, items: I) -> usize {\n        items.count()\n    }\n\n",
        "",
    );
    assert!(head.contains("mod support") && head.matches("pub fn extend").count() == 1);
    let axis = api_after(&rust_base(), &[("src/runtime.rs", &head)]);
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
    // The return type written through a `use` rather than its path is not a proven break.
    let used = head.replace(
        ") -> usize {\n            items",
        ") -> std::primitive::usize {\n            items",
    );
    assert_clears(&api_after(&rust_base(), &[("src/runtime.rs", &used)]));
    // Gone from both: removed.
    let gone = head.replace("pub fn extend", "fn extend");
    assert_fails(
        &api_after(&rust_base(), &[("src/runtime.rs", &gone)]),
        &["`Builder::extend` removed"],
    );
}

#[test]
fn rust_widening_is_compatible() {
    let head = BUILDER.replace("I: Iterator<Item = u8>", "I: IntoIterator<Item = u8>");
    let axis = api_after(&rust_base(), &[("src/runtime.rs", &head)]);
    assert_clears(&axis);
}

/// rand #1292: a deliberate change of an item that still exists does not break a file that
/// only re-exports (or imports) it; its removal does.
#[test]
fn a_reexport_is_no_stale_caller_of_a_changed_item_but_of_a_removed_one() {
    let base = [
        ("Cargo.toml", CARGO),
        (
            "src/lib.rs",
            "pub mod runtime;\npub mod app;\n/// The entry point.\npub use runtime::spawn;\n",
        ),
        ("src/runtime.rs", BUILDER),
        // Imports it and names it only in a comment: spawn is not called here.
        (
            "src/app.rs",
            "#[allow(unused_imports)]\nuse crate::runtime::{spawn, Builder};\n\n// spawn(\"a\", 1)\npub fn go() -> Option<Builder> {\n    None\n}\n",
        ),
    ];
    let bumped = ("Cargo.toml", CARGO.replace("1.4.0", "2.0.0"));
    let changed = BUILDER.replace(
        "pub fn spawn(name: &str, threads: usize)",
        "pub fn spawn(name: &str, threads: usize, stack: usize)",
    );
    let axis = api_after(
        &base,
        &[("src/runtime.rs", &changed), (bumped.0, &bumped.1)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        !axis.detail.contains("callers not updated"),
        "{}",
        axis.detail
    );

    let start = BUILDER.find("pub fn spawn").expect("spawn in BUILDER");
    let removed = BUILDER[..start].to_string();
    let axis = api_after(
        &base,
        &[("src/runtime.rs", &removed), (bumped.0, &bumped.1)],
    );
    assert_fails(
        &axis,
        &[
            "`spawn` removed",
            "callers not updated: src/app.rs, src/lib.rs",
        ],
    );
}

// clap 4.0.0-alpha.0 (#4030, #4096, #4072): a deliberate break's "callers not updated" counts
// only callers the change leaves unable to compile. `Arg::env(&'help str)` became
// `env(impl Into<OsStr>)`, which still takes the `&str` its callers pass; `Arg::is_*_set` left
// the public API as `pub(crate)`, still there for the crate's own callers. A caller of an
// item removed outright, or of one whose parameters changed arity, still fails.
#[test]
fn callers_not_updated_count_only_when_they_stop_compiling() {
    let base = [
        ("Cargo.toml", CARGO),
        ("src/lib.rs", "pub mod runtime;\npub mod app;\n"),
        ("src/runtime.rs", BUILDER),
        (
            "src/app.rs",
            "use crate::runtime::spawn;\n\npub fn go() -> usize {\n    spawn(\"a\", 1).threads\n}\n",
        ),
    ];
    let bumped = ("Cargo.toml", CARGO.replace("1.4.0", "2.0.0"));
    let widened = BUILDER.replace(
        "pub fn spawn(name: &str, threads: usize) -> Builder {\n    Builder { threads, kind: name.len() as u8 }",
        "pub fn spawn(name: impl Into<String>, threads: usize) -> Builder {\n    Builder { threads, kind: name.into().len() as u8 }",
    );
    assert_ne!(widened, BUILDER);
    let axis = api_after(
        &base,
        &[("src/runtime.rs", &widened), (bumped.0, &bumped.1)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        !axis.detail.contains("callers not updated"),
        "{}",
        axis.detail
    );

    let crate_only = BUILDER.replace("pub fn spawn(", "pub(crate) fn spawn(");
    let axis = api_after(
        &base,
        &[("src/runtime.rs", &crate_only), (bumped.0, &bumped.1)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("`spawn` removed"), "{}", axis.detail);

    // The true positives: removed outright, or one more parameter every call must pass.
    let start = BUILDER.find("pub fn spawn").expect("spawn in BUILDER");
    let axis = api_after(
        &base,
        &[("src/runtime.rs", &BUILDER[..start]), (bumped.0, &bumped.1)],
    );
    assert_fails(
        &axis,
        &["`spawn` removed", "callers not updated: src/app.rs"],
    );
    let more = BUILDER.replace(
        "pub fn spawn(name: &str, threads: usize)",
        "pub fn spawn(name: &str, threads: usize, stack: usize)",
    );
    let axis = api_after(&base, &[("src/runtime.rs", &more), (bumped.0, &bumped.1)]);
    assert_fails(&axis, &["callers not updated: src/app.rs"]);
}

// tonic's `benches-disabled/` (its `[[bench]]` commented out of `Cargo.toml`): a Rust file
// under no folder Cargo builds a target from is never compiled, so it is no caller a
// deliberate break leaves broken. The same caller under `benches/` still is one.
#[test]
fn a_rust_file_cargo_never_compiles_is_no_caller_left_broken() {
    let caller = "use rt::runtime::spawn;\n\nfn main() {\n    spawn(\"a\", 1);\n}\n";
    let cargo = CARGO.replace("\"lib\"", "\"rt\"");
    let bumped = cargo.replace("1.4.0", "2.0.0");
    let start = BUILDER.find("pub fn spawn").expect("spawn in BUILDER");
    let run = |at: &str| {
        let caller_at = format!("rt/{at}");
        let base = [
            ("rt/Cargo.toml", cargo.as_str()),
            ("rt/src/lib.rs", "pub mod runtime;\n"),
            ("rt/src/runtime.rs", BUILDER),
            (caller_at.as_str(), caller),
        ];
        api_after(
            &base,
            &[
                ("rt/src/runtime.rs", &BUILDER[..start]),
                ("rt/Cargo.toml", &bumped),
            ],
        )
    };
    let disabled = run("benches-disabled/bench_main.rs");
    assert_eq!(disabled.verdict, AxisVerdict::Warn, "{}", disabled.detail);
    assert!(
        !disabled.detail.contains("callers not updated"),
        "{}",
        disabled.detail
    );
    assert_fails(
        &run("benches/bench_main.rs"),
        &["callers not updated: rt/benches/bench_main.rs"],
    );
}

// clap's master at 4.0.0-alpha.0: a development version of the next major permits its breaks,
// and the repository's own code is still being moved to them, so callers left as they were
// warn with the break instead of failing it. At 1.4.0 the same removal fails.
#[test]
fn a_development_version_of_a_major_permits_breaks_its_own_callers_still_use() {
    let base = |version: &str| {
        vec![
            (
                "Cargo.toml".to_string(),
                CARGO.replace("1.4.0", version),
            ),
            ("src/lib.rs".to_string(), "pub mod runtime;\npub mod app;\n".to_string()),
            ("src/runtime.rs".to_string(), BUILDER.to_string()),
            (
                "src/app.rs".to_string(),
                "use crate::runtime::spawn;\n\npub fn go() -> usize {\n    spawn(\"a\", 1).threads\n}\n".to_string(),
            ),
        ]
    };
    let start = BUILDER.find("pub fn spawn").expect("spawn in BUILDER");
    let removed = &BUILDER[..start];
    let files = base("4.0.0-alpha.0");
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let axis = api_after(&files, &[("src/runtime.rs", removed)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail
            .contains("4.0.0-alpha.0 is a development version"),
        "{}",
        axis.detail
    );
    let files = base("1.4.0");
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let axis = api_after(&files, &[("src/runtime.rs", removed)]);
    assert_fails(&axis, &["`spawn` removed"]);
}

// pino #1544 dropped `final` from `pino.d.ts`: the runtime had not had it since v7 (calling it
// was a `TypeError`), so the declaration file only stopped promising what did not exist. A
// value the JavaScript still defines (or defined at the base), and a type, stay breaks.
/// elysia #1381: `type DocumentDecoration = Partial<OperationObject> & { hide?: boolean }`
/// became `interface DocumentDecoration extends Partial<OperationObject>`. Annotations name it
/// alike; whether the interface restates the alias is not compared: undecided, not a break.
/// Removing the alias still is.
#[test]
fn a_type_alias_made_an_interface_of_the_same_name_is_undecided() {
    let files = [
        (
            "package.json",
            r#"{"name": "web", "version": "1.3.21", "main": "src/index.ts"}"#,
        ),
        (
            "src/index.ts",
            "export interface Operation { summary?: string }\nexport type Decoration = Partial<Operation> & { hide?: boolean }\n",
        ),
    ];
    let axis = api_after(
        &files,
        &[(
            "src/index.ts",
            "export interface Operation { summary?: string }\nexport interface Decoration extends Partial<Operation> {\n    hide?: boolean\n}\n",
        )],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains("a type alias is now an interface"),
        "{}",
        axis.detail
    );
    assert_fails(
        &api_after(
            &files,
            &[(
                "src/index.ts",
                "export interface Operation { summary?: string }\n",
            )],
        ),
        &["`Decoration` removed"],
    );
}

#[test]
fn a_declaration_of_what_the_runtime_never_defined_removed_is_a_types_fix() {
    let js = "function pino () { return {} }\nfunction destination () { return {} }\n\nmodule.exports = pino\nmodule.exports.destination = destination\nmodule.exports.transport = function () {}\n";
    let dts = "declare function pino(): pino.Logger;\ndeclare namespace pino {\n    interface Logger {}\n    interface PrettyOptions { colorize?: boolean }\n}\nexport const destination: () => pino.Logger;\nexport const transport: () => void;\nexport const final: (logger: pino.Logger) => pino.Logger;\nexport interface PrettyOptions extends pino.PrettyOptions {}\nexport default pino;\n";
    let files = [
        (
            "package.json",
            r#"{"name": "pino", "version": "8.5.0", "main": "pino.js", "types": "pino.d.ts"}"#,
        ),
        ("pino.js", js),
        ("pino.d.ts", dts),
    ];
    let without = |line: &str| dts.replace(line, "");
    let fixed = api_after(
        &files,
        &[(
            "pino.d.ts",
            &without("export const final: (logger: pino.Logger) => pino.Logger;\n"),
        )],
    );
    assert_clears(&fixed);
    assert!(fixed.detail.contains("a types fix"), "{}", fixed.detail);
    // A value the JavaScript defines is no types fix (it reads as defined elsewhere); one the
    // change removes from the JavaScript too, and a type, still fail.
    let defined = api_after(
        &files,
        &[(
            "pino.d.ts",
            &without("export const destination: () => pino.Logger;\n"),
        )],
    );
    assert!(
        !defined.detail.contains("a types fix"),
        "{}",
        defined.detail
    );
    let both = api_after(
        &files,
        &[
            (
                "pino.d.ts",
                &without("export const transport: () => void;\n"),
            ),
            (
                "pino.js",
                &js.replace("module.exports.transport = function () {}\n", ""),
            ),
        ],
    );
    assert_fails(&both, &["`transport` removed"]);
    let a_type = api_after(
        &files,
        &[(
            "pino.d.ts",
            &without("export interface PrettyOptions extends pino.PrettyOptions {}\n"),
        )],
    );
    assert_fails(&a_type, &["`PrettyOptions` removed"]);
}

// fastify #4070 renamed `ValidationResult.dataPath` to `instancePath` in `fastify.d.ts`: the
// validation errors its JavaScript hands out (Ajv 8's) carry `instancePath`, and nothing in
// the package ever set `dataPath`, so reading it gave `undefined`. A member some source sets,
// and one dropped with no member the runtime provides in its place, stay breaks.
#[test]
fn a_declared_member_the_runtime_never_provided_renamed_to_one_it_does_is_a_types_fix() {
    let js = "function fastify () {\n  return { validate }\n}\n\nfunction validate (data) {\n  return [{ instancePath: '', keyword: 'type', schemaPath: '#/type', message: 'must be string' }]\n}\n\nmodule.exports = fastify\n";
    let dts = "export interface ValidationResult {\n  keyword: string;\n  dataPath: string;\n  schemaPath: string;\n  message: string;\n}\n\ndeclare function fastify(): { validate(data: unknown): ValidationResult[] };\nexport default fastify;\n";
    let files = [
        (
            "package.json",
            r#"{"name": "fastify", "version": "4.1.0", "main": "fastify.js", "types": "fastify.d.ts"}"#,
        ),
        ("fastify.js", js),
        ("fastify.d.ts", dts),
    ];
    let renamed = api_after(
        &files,
        &[(
            "fastify.d.ts",
            &dts.replace("  dataPath: string;", "  instancePath: string;"),
        )],
    );
    assert_clears(&renamed);
    assert!(renamed.detail.contains("a types fix"), "{}", renamed.detail);
    // `keyword` is set by the JavaScript: renaming it in the types breaks its readers.
    let provided = api_after(
        &files,
        &[(
            "fastify.d.ts",
            &dts.replace("  keyword: string;", "  code: string;"),
        )],
    );
    assert_fails(&provided, &["`ValidationResult.keyword` removed"]);
    // Dropped with nothing in its place: an option handed on unread is still one users pass.
    let dropped = api_after(
        &files,
        &[("fastify.d.ts", &dts.replace("  dataPath: string;\n", ""))],
    );
    assert_fails(&dropped, &["`ValidationResult.dataPath` removed"]);
    // The JavaScript set it at the base, and the change stops setting it too.
    let sets = js.replace("instancePath: ''", "instancePath: '', dataPath: ''");
    let mut with_runtime = files.to_vec();
    with_runtime[1] = ("fastify.js", &sets);
    let both = api_after(
        &with_runtime,
        &[
            (
                "fastify.d.ts",
                &dts.replace("  dataPath: string;", "  instancePath: string;"),
            ),
            ("fastify.js", js),
        ],
    );
    assert_fails(&both, &["`ValidationResult.dataPath` removed"]);
}

// msw #1568 added a required `operationName` to `GraphQLRequest`'s constructor; the package
// exports the class only through `export type { GraphQLRequest }`, so users name it in
// annotations and never construct it. A class exported as a value keeps its constructor.
#[test]
fn a_class_exported_only_as_a_type_has_no_constructor_in_the_api() {
    let handler = "export class GraphQLRequest {\n  constructor(request: Request, public readonly variables: object) {}\n}\n\nexport class GraphQLHandler {\n  constructor(info: string) {}\n}\n";
    let files = [
        (
            "package.json",
            r#"{"name": "msw", "version": "1.2.0", "main": "./lib/index.js", "types": "./lib/index.d.ts"}"#,
        ),
        (
            "src/index.ts",
            "export type { GraphQLRequest } from './handlers/GraphQLHandler'\nexport { GraphQLHandler } from './handlers/GraphQLHandler'\n",
        ),
        ("src/handlers/GraphQLHandler.ts", handler),
    ];
    let typed = api_after(
        &files,
        &[(
            "src/handlers/GraphQLHandler.ts",
            &handler.replace(
                "public readonly variables: object)",
                "public readonly variables: object, public readonly operationName: string)",
            ),
        )],
    );
    assert_clears(&typed);
    assert!(typed.detail.contains("only as a type"), "{}", typed.detail);
    let valued = api_after(
        &files,
        &[(
            "src/handlers/GraphQLHandler.ts",
            &handler.replace(
                "constructor(info: string)",
                "constructor(info: string, kind: string)",
            ),
        )],
    );
    assert_fails(
        &valued,
        &["`GraphQLHandler.constructor` a required parameter added"],
    );
}

// crossbeam-epoch 0.9.19: `Guard::defer_destroy<T>(&self, ptr: Shared<'_, T>)` became
// `<T: ?Sized + Pointable>`, while `Shared<'g, T: 'g + ?Sized + Pointable>` (in another file)
// already asks `Pointable` of every `T` a caller can pass, and `?Sized` only widens. A bound
// no parameter's type implies still narrows.
#[test]
fn rust_a_bound_the_parameters_own_types_already_require_is_not_a_narrowing() {
    let atomic = "pub trait Pointable {}\n\nimpl<T> Pointable for T {}\n\npub struct Shared<'g, T: 'g + ?Sized + Pointable> {\n    data: *mut (),\n    _marker: core::marker::PhantomData<(&'g (), *const T)>,\n}\n";
    let guard = |generics: &str, other: &str| {
        format!(
            "use crate::atomic::{{Pointable, Shared}};\n\npub struct Guard;\n\nimpl Guard {{\n    pub unsafe fn defer_destroy{generics}(&self, ptr: Shared<'_, T>) {{\n        let _ = ptr;\n    }}\n\n    pub fn defer{other}(&self, value: Vec<T>) {{\n        let _ = value;\n    }}\n}}\n"
        )
    };
    let base = guard("<T>", "<T>");
    let files = [
        ("Cargo.toml", CARGO),
        ("src/lib.rs", "pub mod atomic;\npub mod guard;\n"),
        ("src/atomic.rs", atomic),
        ("src/guard.rs", base.as_str()),
    ];
    let implied = api_after(
        &files,
        &[("src/guard.rs", &guard("<T: ?Sized + Pointable>", "<T>"))],
    );
    assert_eq!(implied.verdict, AxisVerdict::Warn, "{}", implied.detail);
    assert!(
        implied
            .detail
            .contains("a bound the parameters' own types already require"),
        "{}",
        implied.detail
    );
    // `Vec<T>` asks nothing of `T`; nor does `Shared` ask `Send`.
    let narrowed = api_after(&files, &[("src/guard.rs", &guard("<T>", "<T: Pointable>"))]);
    assert_fails(&narrowed, &["`Guard::defer` generics or bounds changed"]);
    let unrelated = api_after(&files, &[("src/guard.rs", &guard("<T: Send>", "<T>"))]);
    assert_fails(
        &unrelated,
        &["`Guard::defer_destroy` generics or bounds changed"],
    );
}

// hashbrown 0.15.1 → 0.15.3: `impl<K, V> IntoIter<K, V>` became `impl<K, V, A: Allocator>
// IntoIter<K, V, A>`, where `IntoIter<K, V, A: Allocator = Global>` is declared in another
// file: every type that had `rustc_iter` (`A` = `Global`) still has it. Clap 4 gave `Error` a
// defaulted `F: ErrorFormatter` and generalised its `impl` the same way. A bound the type does
// not declare, or one added on a parameter that was there, still narrows.
#[test]
fn rust_an_impl_generalised_over_a_defaulted_type_parameter_keeps_its_methods() {
    let map = "pub trait Allocator {}\n\npub struct Global;\n\nimpl Allocator for Global {}\n\npub struct IntoIter<K, V, A: Allocator = Global> {\n    inner: Vec<(K, V, A)>,\n}\n";
    let entry = |block: &str| {
        format!(
            "use crate::map::{{Allocator, IntoIter}};\n\n{block} {{\n    pub fn rustc_iter(&self) -> usize {{\n        0\n    }}\n}}\n"
        )
    };
    let base = entry("impl<K, V> IntoIter<K, V>");
    // Another type of the name, with another number of parameters (hashbrown's set).
    let set = "use crate::map::{Allocator, Global};\n\npub struct IntoIter<K, A: Allocator = Global> {\n    inner: Vec<(K, A)>,\n}\n";
    let files = [
        ("Cargo.toml", CARGO),
        (
            "src/lib.rs",
            "pub mod external;\npub mod map;\npub mod rustc_entry;\n",
        ),
        ("src/external.rs", set),
        ("src/map.rs", map),
        ("src/rustc_entry.rs", base.as_str()),
    ];
    let widened = api_after(
        &files,
        &[(
            "src/rustc_entry.rs",
            &entry("impl<K, V, A: Allocator> IntoIter<K, V, A>"),
        )],
    );
    assert_clears(&widened);
    assert!(
        widened
            .detail
            .contains("an impl generalised over a defaulted type parameter"),
        "{}",
        widened.detail
    );
    let narrowed = api_after(
        &files,
        &[(
            "src/rustc_entry.rs",
            &entry("impl<K: Clone, V, A: Allocator> IntoIter<K, V, A>"),
        )],
    );
    assert_fails(
        &narrowed,
        &["`IntoIter::rustc_iter` generics or bounds changed"],
    );
    let undeclared = api_after(
        &files,
        &[(
            "src/rustc_entry.rs",
            &entry("impl<K, V, A: Allocator + Send> IntoIter<K, V, A>"),
        )],
    );
    assert_fails(
        &undeclared,
        &["`IntoIter::rustc_iter` generics or bounds changed"],
    );
    // A type parameter without a default: `IntoIter<K, V>` no longer names a type.
    let no_default = map.replace("A: Allocator = Global", "A: Allocator");
    let files = [
        ("Cargo.toml", CARGO),
        ("src/lib.rs", "pub mod map;\npub mod rustc_entry;\n"),
        ("src/map.rs", map),
        ("src/rustc_entry.rs", base.as_str()),
    ];
    let required = api_after(
        &files,
        &[
            ("src/map.rs", &no_default),
            (
                "src/rustc_entry.rs",
                &entry("impl<K, V, A: Allocator> IntoIter<K, V, A>"),
            ),
        ],
    );
    assert_fails(
        &required,
        &["`IntoIter::rustc_iter` generics or bounds changed"],
    );

    // clap 4.0.0-alpha: `pub struct Error` → `pub struct Error<F: ErrorFormatter =
    // RichFormatter>`, its `impl` generalised over `F`.
    let error = |generics: &str, block: &str| {
        format!(
            "pub trait ErrorFormatter {{}}\n\npub struct RichFormatter;\n\nimpl ErrorFormatter for RichFormatter {{}}\n\npub struct Error{generics} {{\n    kind: u8,\n    _f: core::marker::PhantomData<F>,\n}}\n\n{block} {{\n    pub fn exit(&self) -> u8 {{\n        self.kind\n    }}\n}}\n"
        )
    };
    let base = error("<F = RichFormatter>", "impl Error")
        .replace("pub struct Error<F = RichFormatter>", "pub struct Error")
        .replace("    _f: core::marker::PhantomData<F>,\n", "");
    let files = [
        ("Cargo.toml", CARGO),
        ("src/lib.rs", "pub mod error;\n"),
        ("src/error.rs", base.as_str()),
    ];
    let defaulted = api_after(
        &files,
        &[(
            "src/error.rs",
            &error(
                "<F: ErrorFormatter = RichFormatter>",
                "impl<F: ErrorFormatter> Error<F>",
            ),
        )],
    );
    assert_clears(&defaulted);
    let required = api_after(
        &files,
        &[(
            "src/error.rs",
            &error("<F: ErrorFormatter>", "impl<F: ErrorFormatter> Error<F>"),
        )],
    );
    assert_fails(&required, &["`Error` generics or bounds changed"]);
}

#[test]
fn rust_breaks_fail_without_a_bump_and_warn_with_one() {
    let head = BUILDER
        .replace(
            "pub fn spawn(name: &str, threads: usize)",
            "pub fn spawn(name: &str, threads: usize, stack: usize)",
        )
        .replace("    pub threads: usize,\n", "    pub threads: u32,\n");
    let axis = api_after(&rust_base(), &[("src/runtime.rs", &head)]);
    assert_fails(
        &axis,
        &[
            "src/runtime.rs: `spawn` a required parameter added",
            "base `pub fn spawn(name: &str, threads: usize) -> Builder` → head `pub fn spawn(name: &str, threads: usize, stack: usize) -> Builder`",
            "`Builder::threads` type changed",
        ],
    );

    let bumped = api_after(
        &rust_base(),
        &[
            ("src/runtime.rs", &head),
            ("Cargo.toml", &CARGO.replace("1.4.0", "2.0.0")),
        ],
    );
    assert_eq!(bumped.verdict, AxisVerdict::Warn, "{}", bumped.detail);
    assert!(bumped.detail.contains("1.4.0 → 2.0.0"), "{}", bumped.detail);

    // A deliberate break whose callers in the repository were left as they were still fails.
    let stale = api_after(
        &[
            ("Cargo.toml", CARGO),
            ("src/lib.rs", "pub mod runtime;\npub mod app;\n"),
            ("src/runtime.rs", BUILDER),
            (
                "src/app.rs",
                "use crate::runtime::spawn;\n\npub fn go() {\n    spawn(\"a\", 1);\n}\n",
            ),
        ],
        &[
            ("src/runtime.rs", &head),
            ("Cargo.toml", &CARGO.replace("1.4.0", "2.0.0")),
        ],
    );
    assert_fails(
        &stale,
        &[
            "`spawn` a required parameter added",
            "callers not updated: src/app.rs",
        ],
    );

    // Below 1.0 a minor bump allows a break (Cargo's rule); a patch bump does not.
    let zero = rust_base()
        .into_iter()
        .map(|(p, c)| {
            if p == "Cargo.toml" {
                (p, "[package]\nname = \"lib\"\nversion = \"0.3.1\"\n")
            } else {
                (p, c)
            }
        })
        .collect::<Vec<_>>();
    let minor = api_after(
        &zero,
        &[
            ("src/runtime.rs", &head),
            (
                "Cargo.toml",
                "[package]\nname = \"lib\"\nversion = \"0.4.0\"\n",
            ),
        ],
    );
    assert_eq!(minor.verdict, AxisVerdict::Warn, "{}", minor.detail);
    let patch = api_after(
        &zero,
        &[
            ("src/runtime.rs", &head),
            (
                "Cargo.toml",
                "[package]\nname = \"lib\"\nversion = \"0.3.2\"\n",
            ),
        ],
    );
    assert_eq!(patch.verdict, AxisVerdict::Fail, "{}", patch.detail);
}

#[test]
fn rust_removals_fail_unless_the_item_is_still_reexported_or_moved() {
    let removed = api_after(
        &rust_base(),
        &[(
            "src/runtime.rs",
            &BUILDER.replace("pub fn spawn", "fn spawn"),
        )],
    );
    assert_fails(&removed, &["`spawn` removed"]);

    // Moved to another module and re-exported where it was.
    let moved = api_after(
        &rust_base(),
        &[
            (
                "src/runtime.rs",
                &format!(
                    "pub use crate::spawning::spawn;\n{}",
                    BUILDER.split("pub fn spawn").next().unwrap()
                ),
            ),
            (
                "src/spawning.rs",
                "pub fn spawn(name: &str, threads: usize) -> crate::runtime::Builder {\n    todo!()\n}\n",
            ),
            ("src/lib.rs", &format!("{LIB}mod spawning;\n")),
        ],
    );
    assert_clears(&moved);
}

/// A public module moved behind a private one and re-exported under its old name (`mod
/// platform;` and `pub use platform::finder as runtime;`) keeps every public item at the same
/// path: nothing is removed. Re-exporting some of its items only still loses the others.
#[test]
fn rust_a_module_reexported_under_a_name_keeps_its_items_public() {
    let moved = |lib: &str| {
        let repo = Repo::new(&rust_base());
        repo.remove("src/runtime.rs");
        repo.write("src/platform/mod.rs", "pub mod finder;\n");
        repo.write("src/platform/finder.rs", BUILDER);
        repo.write("src/lib.rs", lib);
        repo.commit("move");
        repo.build()
            .axes
            .into_iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
    };
    for lib in [
        "mod platform;\npub use platform::finder as runtime;\nmod util;\npub use util::helper;\n",
        "mod platform;\npub use self::platform::{finder as runtime};\nmod util;\npub use util::helper;\n",
    ] {
        let axis = moved(lib);
        assert_eq!(axis.verdict, AxisVerdict::Pass, "{lib}: {}", axis.detail);
    }
    let items_only = moved(
        "mod platform;\npub use platform::finder::{spawn, Builder};\nmod util;\npub use util::helper;\n",
    );
    assert_fails(&items_only, &["`LIMIT` removed"]);
}

#[test]
fn rust_items_outside_the_public_module_tree_are_not_api() {
    // `util` is a private module: only `helper`, re-exported from the root, is public.
    let axis = api_after(
        &rust_base(),
        &[(
            "src/util.rs",
            "pub fn helper() -> u8 {\n    1\n}\n\npub fn internal_only(x: u8) {}\n",
        )],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
    let axis = api_after(
        &rust_base(),
        &[("src/util.rs", "pub fn helper(x: u8) -> u8 {\n    x\n}\n")],
    );
    assert_fails(&axis, &["`helper`"]);

    // A proc-macro crate's functions, a binary, examples, benches and tests are not callable
    // from outside.
    let axis = api_after(
        &[
            (
                "macros/Cargo.toml",
                "[package]\nname = \"m\"\nversion = \"1.0.0\"\n\n[lib]\nproc-macro = true\n",
            ),
            (
                "macros/src/lib.rs",
                "pub fn expand(input: u8) -> u8 {\n    input\n}\n",
            ),
            ("examples/demo.rs", "pub fn demo(a: u8) {}\n"),
            ("benches/b.rs", "pub fn bench_it(a: u8) {}\n"),
            ("tests/it.rs", "pub fn helper(a: u8) {}\n"),
        ],
        &[
            (
                "macros/src/lib.rs",
                "pub fn expand(input: u8, span: u32) -> u8 {\n    input\n}\n",
            ),
            ("examples/demo.rs", "pub fn demo() {}\n"),
            ("benches/b.rs", ""),
            ("tests/it.rs", "pub fn helper() {}\n"),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

#[test]
fn python_hints_decorators_private_modules_and_attribute_assignments_are_not_the_contract() {
    let base = "import json\n\n\ndef get(url, params=None, **kwargs):\n    return request('get', url, params=params, **kwargs)\n\n\nclass Response:\n    def json(self, **kwargs):\n        return json.loads(self.text, **kwargs)\n";
    let head = "import json\nimport functools\n\n\n@functools.lru_cache\ndef get(url: str, params: dict | None = None, **kwargs) -> 'Response':\n    \"\"\"Sends a GET.\"\"\"\n    return request('get', url, params=params, **kwargs)\n\n\nclass Response:\n    def json(self, **kwargs):\n        self.json = lambda: None\n        response = self\n        response.json = None\n        return json.loads(self.text, **kwargs)\n";
    let axis = api_after(
        &[
            ("pkg/api.py", base),
            ("pkg/_internal.py", "def helper(a):\n    pass\n"),
        ],
        &[
            ("pkg/api.py", head),
            ("pkg/_internal.py", "def helper(a, b):\n    pass\n"),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

// pip-tools: `[project.scripts] pip-compile = "piptools.scripts.compile:cli"`, and
// `piptools/__init__.py` only sets the locale: every module is the command's implementation,
// which users run and never import (37 false stops over its history). black, httpx and
// jsonschema ship a command too, and offer names from their package: their API stays.
#[test]
fn python_an_applications_modules_are_not_api() {
    let pyproject = "[project]\nname = \"pip-tools\"\nversion = \"7.1.0\"\n\n[project.scripts]\npip-compile = \"piptools.scripts.compile:cli\"\n";
    let init = "import locale\n\nfrom click import secho\n\ntry:\n    locale.setlocale(locale.LC_ALL, \"\")\nexcept locale.Error as e:\n    secho(f\"Ignoring error: {e}\", fg=\"red\")\n";
    let utils = "CONFIG_FILE_NAME = \".pip-tools.toml\"\n\ndef parse_config_file(path):\n    pass\n\nclass OutputWriter:\n    def __init__(self, dst, generate_hashes):\n        pass\n";
    let changed = "def parse_config_file(ctx, path):\n    pass\n\nclass OutputWriter:\n    def __init__(self, dst, default_index_url):\n        pass\n";
    let files = |init: &'static str| {
        vec![
            ("pyproject.toml", pyproject),
            ("piptools/__init__.py", init),
            ("piptools/utils.py", utils),
            ("piptools/scripts/__init__.py", ""),
            (
                "piptools/scripts/compile.py",
                "from ..utils import parse_config_file\n\ndef cli():\n    pass\n",
            ),
        ]
    };
    let command = api_after(&files(init), &[("piptools/utils.py", changed)]);
    assert_clears(&command);
    assert!(
        command
            .detail
            .contains("a module of the command pip-compile"),
        "{}",
        command.detail
    );
    // A library that ships a command keeps its modules' API.
    let library = api_after(
        &files("from .utils import OutputWriter\n"),
        &[("piptools/utils.py", changed)],
    );
    assert_fails(&library, &["`CONFIG_FILE_NAME` removed"]);
}

#[test]
fn python_keyword_parameters_bind_by_name() {
    let base = "def fetch(url, timeout=10):\n    pass\n";
    let renamed = api_after(
        &[("pkg/net.py", base)],
        &[("pkg/net.py", "def fetch(url, deadline=10):\n    pass\n")],
    );
    assert_fails(&renamed, &["`fetch` `timeout` renamed to `deadline`"]);
    // uvicorn #2033: a parameter inserted before another moves it for positional callers.
    let inserted = api_after(
        &[("pkg/net.py", base)],
        &[(
            "pkg/net.py",
            "def fetch(url, retries=3, timeout=10):\n    pass\n",
        )],
    );
    assert_fails(
        &inserted,
        &[
            "`retries` inserted before `timeout` (a caller passing `timeout` by position now sets `retries`)",
        ],
    );
    let required = api_after(
        &[("pkg/net.py", base)],
        &[(
            "pkg/net.py",
            "def fetch(url, retries, timeout=10):\n    pass\n",
        )],
    );
    assert_eq!(required.verdict, AxisVerdict::Fail, "{}", required.detail);
    let optional = api_after(
        &[("pkg/net.py", base)],
        &[(
            "pkg/net.py",
            "def fetch(url, timeout=10, *, retries=3):\n    pass\n",
        )],
    );
    assert_clears(&optional);
    // `__all__` decides what a module exports.
    let all = api_after(
        &[(
            "pkg/net.py",
            "__all__ = ['fetch']\n\ndef fetch(url):\n    pass\n\ndef build(x):\n    pass\n",
        )],
        &[(
            "pkg/net.py",
            "__all__ = ['fetch']\n\ndef fetch(url):\n    pass\n\ndef build(x, y):\n    pass\n",
        )],
    );
    assert_eq!(all.verdict, AxisVerdict::Pass, "{}", all.detail);
}

#[test]
fn typescript_comments_wrapping_bodies_and_widening_are_not_breaks() {
    let base = "export type Options = {\n  name: string;\n  size: number;\n};\n\nexport const run = (opts: Options, mode: string): number => {\n  return opts.size;\n};\n\nexport function start(a: number, b: string): void {}\n";
    let head = "export type Options = {\n  /** The name. */\n  name: string;\n  // The size.\n  size: number;\n  label?: string;\n};\n\nexport const run = (\n  opts: Options,\n  mode: string | number,\n): number => {\n  console.log(mode);\n  return opts.size + 1;\n};\n\nexport function start(a: number, b: string, ...rest: string[]): void {}\n";
    let axis = api_after(&[("src/index.ts", base)], &[("src/index.ts", head)]);
    assert_clears(&axis);

    let broken = api_after(
        &[("src/index.ts", base)],
        &[(
            "src/index.ts",
            &base.replace(
                "start(a: number, b: string)",
                "start(a: number, b: string, c: boolean)",
            ),
        )],
    );
    assert_fails(&broken, &["`start` a required parameter added"]);
}

// got #946: `interface Options {body?: …}` became `type Options = Merge<A, B>`; the members
// come from the operands, so their removal is undecided, not a break. A member removed from a
// type still written out member by member fails.
#[test]
fn typescript_members_of_a_type_now_computed_are_undecided() {
    let base = "export interface Options {\n  body?: string;\n  retry?: number;\n}\n";
    let head = "interface GotOptions {\n  body?: string;\n  retry?: number;\n}\nexport type Options = Merge<GotOptions, URLOptions>;\n";
    let axis = api_after(&[("src/index.ts", base)], &[("src/index.ts", head)]);
    assert_clears(&axis);
    assert!(
        axis.detail
            .contains("`Options.body` its type is now `Merge<GotOptions, URLOptions>`"),
        "{}",
        axis.detail
    );
    let removed = api_after(
        &[("src/index.ts", base)],
        &[("src/index.ts", &base.replace("  body?: string;\n", ""))],
    );
    assert_fails(&removed, &["`Options.body` removed"]);
}

#[test]
fn go_unexported_fields_internal_packages_and_variadics_are_not_breaks() {
    let base = "package cfg\n\ntype Config struct {\n\tName string\n}\n\nfunc Load(path string) (*Config, error) {\n\treturn nil, nil\n}\n";
    let head = "package cfg\n\n// Config holds settings.\ntype Config struct {\n\tName  string\n\tcache map[string]string\n}\n\nfunc Load(path string, opts ...Option) (*Config, error) {\n\treturn &Config{}, nil\n}\n\ntype Option func(*Config)\n";
    let axis = api_after(
        &[
            ("cfg/cfg.go", base),
            ("internal/x/x.go", "package x\n\nfunc Do(a int) {}\n"),
            ("go.mod", "module example.com/m\n\ngo 1.22\n"),
            ("go.sum", ""),
        ],
        &[
            ("cfg/cfg.go", head),
            ("internal/x/x.go", "package x\n\nfunc Do() {}\n"),
            ("go.mod", "module example.com/m\n\ngo 1.23\n"),
            ("go.sum", "x v1 h1:abc\n"),
        ],
    );
    assert_clears(&axis);

    let removed = api_after(
        &[("cfg/cfg.go", base)],
        &[("cfg/cfg.go", &base.replace("\tName string\n", ""))],
    );
    assert_fails(&removed, &["`Config.Name` removed"]);
}

// A go-fuzz entry point in a file only `-tags gofuzz` compiles (`// +build gofuzz`), moved
// out of the package: an importer's default build never had `Fuzz`. Named, not a proven
// break; the same function in a file every build compiles still fails, and a file no build
// compiles (`ignore`) declares nothing.
#[test]
fn go_a_file_only_a_build_tag_compiles_is_not_a_proven_api() {
    let fuzz =
        "// +build gofuzz\n\npackage semver\n\nfunc Fuzz(data []byte) int {\n\treturn 0\n}\n";
    let lib = "package semver\n\nfunc Parse(s string) int {\n\treturn 0\n}\n";
    let module = ("go.mod", "module example.com/semver\n\ngo 1.22\n");
    let axis = api_after(
        &[module, ("version.go", lib), ("fuzz.go", fuzz)],
        &[("version.go", lib), ("fuzz.go", "")],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("`Fuzz`"), "{}", axis.detail);
    let plain = fuzz.replace("// +build gofuzz\n\n", "");
    let axis = api_after(
        &[module, ("version.go", lib), ("fuzz.go", &plain)],
        &[("version.go", lib), ("fuzz.go", "")],
    );
    assert_fails(&axis, &["`Fuzz` removed"]);
    // The other way, a file every build compiled given a tag of its own: gone from the
    // default build.
    let axis = api_after(
        &[module, ("version.go", lib), ("fuzz.go", &plain)],
        &[("version.go", lib), ("fuzz.go", fuzz)],
    );
    assert_fails(&axis, &["`Fuzz` removed"]);
    let ignored = fuzz.replace("gofuzz", "ignore");
    let axis = api_after(
        &[module, ("version.go", lib), ("fuzz.go", &ignored)],
        &[("version.go", lib), ("fuzz.go", "")],
    );
    assert_clears(&axis);
}

// cobra 1.4 removed `cobra/cmd` and `cobra/tpl`, the packages of the `cobra` generator command
// (its `cobra/main.go` is `package main`; the command moved to its own repository). The packages
// below a command's `main.go` inside a module, or under the module's `cmd` directory, are that
// command's implementation, not library API; a library package named `cmd` with no command
// above it still is.
#[test]
fn go_a_commands_implementation_packages_are_not_api() {
    let main = "package main\n\nimport \"github.com/acme/tool/cobra/cmd\"\n\nfunc main() { cmd.Execute() }\n";
    let root = "package cmd\n\nfunc Execute() error { return nil }\n\nfunc Init(path string) {}\n";
    let app = "package app\n\nfunc Run(args []string) error { return nil }\n";
    let base = [
        ("go.mod", "module github.com/acme/tool\n\ngo 1.22\n"),
        (
            "tool.go",
            "package tool\n\nfunc Version() string { return \"1\" }\n",
        ),
        ("cobra/main.go", main),
        ("cobra/cmd/root.go", root),
        (
            "cobra/tpl/main.go",
            "package tpl\n\nfunc MainTemplate() []byte { return nil }\n",
        ),
        ("cmd/server/main.go", "package main\n\nfunc main() {}\n"),
        ("cmd/server/app/app.go", app),
        (
            "pkg/cmd/cmd.go",
            "package cmd\n\nfunc Load(path string) {}\n",
        ),
        (
            "vendor/golang.org/x/net/proxy/dial.go",
            "package proxy\n\nfunc Dial(network string) error { return nil }\n",
        ),
    ];
    let axis = api_after(
        &base,
        &[
            (
                "cobra/cmd/root.go",
                "package cmd\n\nfunc Execute(name string) error { return nil }\n",
            ),
            (
                "cmd/server/app/app.go",
                "package app\n\nfunc Run() error { return nil }\n",
            ),
            // gorilla/websocket 1.5.3 dropped its vendored `golang.org/x/net/proxy`.
            ("vendor/golang.org/x/net/proxy/dial.go", "package proxy\n"),
        ],
    );
    assert_clears(&axis);
    let library = api_after(
        &base,
        &[("pkg/cmd/cmd.go", "package cmd\n\nfunc Load() {}\n")],
    );
    assert_fails(&library, &["pkg/cmd/cmd.go: `Load`"]);
}

// A Go item belongs to its package, the directory its import path names: a type removed from
// package `a` and added to (or already defined in) package `b` is gone for every caller of
// `a`; moved to another file of `a` it is still there.
#[test]
fn go_an_item_moved_to_another_package_is_removed_from_its_own() {
    let go_mod = ("go.mod", "module example.com/m\n\ngo 1.22\n");
    let options = "type Options struct {\n\tName string\n}\n";
    let a = format!("package a\n\n{options}\nfunc Run() {{}}\n");
    let b = "package b\n\nfunc Other() {}\n";
    let base = [go_mod, ("a/a.go", a.as_str()), ("b/b.go", b)];
    let a_without = "package a\n\nfunc Run() {}\n";
    let b_with = format!("{b}\n{options}");
    let across = api_after(&base, &[("a/a.go", a_without), ("b/b.go", &b_with)]);
    assert_fails(&across, &["a/a.go: `Options` removed"]);
    // Already defined in another package, unchanged there: still a removal from `a`.
    let defined = [go_mod, ("a/a.go", a.as_str()), ("b/b.go", b_with.as_str())];
    let elsewhere = api_after(&defined, &[("a/a.go", a_without)]);
    assert_fails(&elsewhere, &["a/a.go: `Options` removed"]);
    // Another file of the same package: moved.
    let same = format!("package a\n\n{options}");
    let within = api_after(&base, &[("a/a.go", a_without), ("a/options.go", &same)]);
    assert_clears(&within);
}

#[test]
fn a_function_now_a_variable_holding_one_is_not_a_proven_break() {
    // urfave/cli #2150: exported functions became variables so callers can swap them.
    let base = "package cli\n\nfunc ShowAppHelp(cmd *Command) error {\n\treturn nil\n}\n\ntype Command struct{}\n";
    let head = "package cli\n\nvar ShowAppHelp = showAppHelp\n\nfunc showAppHelp(cmd *Command) error {\n\treturn nil\n}\n\ntype Command struct{}\n";
    let go_mod = ("go.mod", "module example.com/cli/v3\n\ngo 1.22\n");
    let axis = api_after(&[("cli/help.go", base), go_mod], &[("cli/help.go", head)]);
    assert_clears(&axis);
    assert!(
        axis.detail.contains("`ShowAppHelp` a func is now a var"),
        "{}",
        axis.detail
    );
    // A variable typed as something other than a function cannot be called.
    let number = head.replace("var ShowAppHelp = showAppHelp", "var ShowAppHelp int = 3");
    let axis = api_after(
        &[("cli/help.go", base), go_mod],
        &[("cli/help.go", &number)],
    );
    assert_fails(&axis, &["`ShowAppHelp` a func is now a var"]);
}

/// more-itertools 10.1→10.2: `batched = _batched` (a name bound to a function) became
/// `def batched(iterable, n, *, strict=False)`: a callable either way, never "a variable is
/// now a def" as a proven break. A bound name whose value the syntax does not type is
/// still named (a warning), whatever it held.
#[test]
fn a_name_bound_to_a_function_now_a_def_is_not_a_proven_break() {
    let base = "def _batched(iterable, n):\n    return iter(())\n\n\nbatched = _batched\n";
    let head = "def batched(iterable, n, *, strict=False):\n    return iter(())\n";
    let axis = api_after(&[("pkg/recipes.py", base)], &[("pkg/recipes.py", head)]);
    assert_clears(&axis);
    assert!(
        axis.detail
            .contains("`batched` a variable is now a def (still callable"),
        "{}",
        axis.detail
    );
    let number = "LIMIT = 3\n";
    let axis = api_after(
        &[("pkg/recipes.py", number)],
        &[("pkg/recipes.py", "def LIMIT():\n    return 3\n")],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("`LIMIT`"), "{}", axis.detail);
}

/// A class attribute bound to a value the syntax does not type (`capitalize =
/// _wrapper("capitalize")`, a function a decorator-like helper made) now a method of the
/// same name: `obj.capitalize()` is called the same way if the value was a function, which
/// the syntax does not say. Named (a warning), not a proven break.
#[test]
fn a_class_attribute_bound_to_an_untyped_value_now_a_method_is_not_a_proven_break() {
    let base = "def _wrap(name):\n    return lambda self: self\n\n\nclass Markup(str):\n    capitalize = _wrap(\"capitalize\")\n";
    let head = "class Markup(str):\n    def capitalize(self, /):\n        return self\n";
    let axis = api_after(&[("pkg/__init__.py", base)], &[("pkg/__init__.py", head)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail
            .contains("`Markup.capitalize` a attribute is now a method (still callable"),
        "{}",
        axis.detail
    );
    // The method taken away is still a break.
    let plain = base.replace("Markup(str)", "Markup");
    let gone = "class Markup:\n    pass\n";
    let axis = api_after(&[("pkg/__init__.py", &plain)], &[("pkg/__init__.py", gone)]);
    assert_eq!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
}

#[test]
fn python_double_underscore_parameters_and_class_attributes_moved_onto_instances() {
    // starlette #2178: `__name` was positional-only by convention (PEP 484) and mangled in a
    // method; spelling it `name, /` changes nothing for a caller.
    let base =
        "class Router:\n    def url_path_for(self, __name: str, **path_params):\n        pass\n";
    let head =
        "class Router:\n    def url_path_for(self, name: str, /, **path_params):\n        pass\n";
    let axis = api_after(&[("pkg/routing.py", base)], &[("pkg/routing.py", head)]);
    assert_clears(&axis);
    // A `__name` made an ordinary parameter is not a break either; a keyword one that became
    // `__name` still is.
    let keyword =
        "class Router:\n    def url_path_for(self, name: str, **path_params):\n        pass\n";
    let axis = api_after(&[("pkg/routing.py", keyword)], &[("pkg/routing.py", base)]);
    assert_fails(&axis, &["`Router.url_path_for`"]);

    // starlette #2815: a class attribute became an `__init__` parameter stored on `self`.
    let base = "class MultiPartParser:\n    max_file_size = 1024\n    max_part_size = 1024\n\n    def __init__(self, headers):\n        self.headers = headers\n";
    let head = "class MultiPartParser:\n    max_file_size = 1024\n\n    def __init__(self, headers, *, max_part_size: int = 1024):\n        self.headers = headers\n        self.max_part_size = max_part_size\n";
    let axis = api_after(
        &[("pkg/formparsers.py", base)],
        &[("pkg/formparsers.py", head)],
    );
    assert_clears(&axis);
    assert!(
        axis.detail.contains("now assigned on each instance"),
        "{}",
        axis.detail
    );
    // Gone from the class and from every method: removed.
    let gone = head.replace("        self.max_part_size = max_part_size\n", "");
    let axis = api_after(
        &[("pkg/formparsers.py", base)],
        &[("pkg/formparsers.py", &gone)],
    );
    assert_fails(&axis, &["`MultiPartParser.max_part_size` removed"]);
}

#[test]
fn java_annotations_and_unexported_packages_are_not_breaks() {
    let base = "package com.acme.api;\n\npublic class Client {\n  public String getName(int id) { return \"\"; }\n  private void hide() {}\n}\n";
    let head = "package com.acme.api;\n\n@Deprecated\npublic class Client {\n  @SuppressWarnings(\"unchecked\")\n  public String getName(final @Nullable int id) { return \"x\"; }\n  private void hide(int a) {}\n}\n";
    let module_info = "module com.acme {\n  exports com.acme.api;\n}\n";
    let axis = api_after(
        &[
            ("src/main/java/module-info.java", module_info),
            ("src/main/java/com/acme/api/Client.java", base),
            (
                "src/main/java/com/acme/impl2/Engine.java",
                "package com.acme.impl2;\n\npublic class Engine {\n  public void run(int a) {}\n}\n",
            ),
        ],
        &[
            ("src/main/java/com/acme/api/Client.java", head),
            (
                "src/main/java/com/acme/impl2/Engine.java",
                "package com.acme.impl2;\n\npublic class Engine {\n  public void run() {}\n}\n",
            ),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);

    let changed = api_after(
        &[("src/main/java/com/acme/api/Client.java", base)],
        &[(
            "src/main/java/com/acme/api/Client.java",
            &base.replace("getName(int id)", "getName(long id)"),
        )],
    );
    assert_fails(
        &changed,
        &[
            "`Client.getName(int)` signature changed",
            "head `String getName(long)`",
        ],
    );
}

// javapoet #643: `ClassName` was abstract with only a private constructor and became final,
// its abstract methods concrete. No user could extend it, and a method that gains a body keeps
// every call and override working. A class users can extend still fails when it becomes final.
// puma #3838: constants of the gem's JRuby extension (`ext/puma_http11/org/jruby/puma/
// Http11.java`) changed type. A gem's API is its Ruby; a Java project's own `ext` package
// without a Gemfile stays API.
#[test]
fn java_a_gems_native_extension_is_not_api() {
    let http = |ty: &str| {
        format!(
            "package org.jruby.puma;\n\npublic class Http11 {{\n    public static final {ty} MAX_HEADER = 1;\n}}\n"
        )
    };
    let base = http("int");
    let gem = api_after(
        &[
            ("Gemfile", "source \"https://rubygems.org\"\ngemspec\n"),
            ("lib/puma.rb", "module Puma\nend\n"),
            ("ext/puma_http11/org/jruby/puma/Http11.java", &base),
        ],
        &[("ext/puma_http11/org/jruby/puma/Http11.java", &http("long"))],
    );
    assert_clears(&gem);
    let java = api_after(
        &[("ext/puma_http11/org/jruby/puma/Http11.java", &base)],
        &[("ext/puma_http11/org/jruby/puma/Http11.java", &http("long"))],
    );
    assert_fails(&java, &["`Http11.MAX_HEADER`"]);
}

#[test]
fn java_abstract_to_final_matters_only_for_a_class_users_can_extend() {
    let path = "src/main/java/com/acme/api/Name.java";
    let closed = "package com.acme.api;\n\npublic abstract class Name {\n  private Name(String s) {}\n  public abstract String simple();\n  public static Name get(String s) { return null; }\n}\n";
    let closed_final = "package com.acme.api;\n\npublic final class Name {\n  private Name(String s) {}\n  public String simple() { return \"\"; }\n  public static Name get(String s) { return null; }\n}\n";
    let axis = api_after(&[(path, closed)], &[(path, closed_final)]);
    assert_clears(&axis);
    assert!(
        !axis.detail.contains("declaration changed"),
        "{}",
        axis.detail
    );

    let open = closed.replace("private Name(", "protected Name(");
    let open_final = closed_final.replace("private Name(", "protected Name(");
    assert_fails(
        &api_after(&[(path, &open)], &[(path, &open_final)]),
        &["`Name` declaration changed", "final class"],
    );
    // jackson-core #1423: a final class opened to subclasses breaks nobody.
    let reopened = api_after(
        &[(path, &open_final)],
        &[(
            path,
            &open_final.replace("public final class", "public class"),
        )],
    );
    assert_clears(&reopened);
    assert!(
        reopened
            .detail
            .contains("no longer abstract, final or sealed"),
        "{}",
        reopened.detail
    );
}

// A package named `com.example` is a package like any other; an `examples/` folder beside the
// sources is not anyone's API.
#[test]
fn java_a_package_named_example_is_api_and_an_examples_folder_is_not() {
    let client = "package com.example.api;\n\npublic class Client {\n  public String getName(int id) { return \"\"; }\n}\n";
    let path = "src/main/java/com/example/api/Client.java";
    let changed = api_after(
        &[(path, client)],
        &[(path, &client.replace("getName(int id)", "getName(long id)"))],
    );
    assert_fails(&changed, &["`Client.getName(int)` signature changed"]);

    let demo = "examples/src/main/java/com/acme/Demo.java";
    let axis = api_after(
        &[
            (path, client),
            (demo, &client.replace("com.example.api", "com.acme")),
        ],
        &[(demo, "package com.acme;\n\npublic class Other {}\n")],
    );
    assert_clears(&axis);
}

#[test]
fn files_that_carry_no_api_never_make_it_partial() {
    // axios's release commits rebuild `dist/`: bundles and minified files built from the
    // sources, too long a line to parse.
    let bundle = format!("var a=function(){{{}}};\n", "x=1;".repeat(2000));
    let axis = api_after(
        &[("src/lib.rs", "pub fn f() {}\n")],
        &[
            ("dist/esm/axios.min.js", &bundle),
            ("lib/axios.min.js", &bundle),
            ("dist/node/axios.cjs", &bundle),
            ("Makefile", "all:\n\tcargo build\n"),
            ("testdata/out.golden", "golden\n"),
            ("tests/ui/err.stderr", "error\n"),
            ("Cargo.lock", "# lock\n"),
            ("snapshots/a.snap", "x\n"),
            ("src/lib.rs", "pub fn f() {}\npub fn g() {}\n"),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

#[test]
fn undecidable_type_changes_warn_without_gating() {
    // ky #774: a hook type's return union gained members; zod-like return type rewritten.
    let base = "export type BeforeRetryHook = (options: BeforeRetryState) => typeof stop | void;\n\nexport function parse(input: string): Result<string> {\n  return ok(input);\n}\n";
    let head = "export type BeforeRetryHook = (options: BeforeRetryState) => Request | typeof stop | void;\n\nexport function parse(input: string): Result<string> & { raw: string } {\n  return ok(input);\n}\n";
    let axis = api_after(&[("src/index.ts", base)], &[("src/index.ts", head)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains("cannot decide") && axis.detail.contains("`BeforeRetryHook`"),
        "{}",
        axis.detail
    );
    // The same file with a proven break as well still fails.
    let broken = api_after(
        &[("src/index.ts", base)],
        &[(
            "src/index.ts",
            &head.replace("parse(input: string)", "parse(input: number)"),
        )],
    );
    assert_fails(&broken, &["`parse` parameter 1 type changed"]);
}

// flask #4642 with the base class in the repository: the method the subclass no longer
// overrides is found in the other file, so nothing is removed; a method no base has is.
#[test]
fn python_a_method_still_inherited_from_a_base_in_another_file_is_not_removed() {
    let base = [
        (
            "pyproject.toml",
            "[project]\nname = \"web\"\nversion = \"2.1.0\"\n",
        ),
        (
            "web/scaffold.py",
            "class Scaffold:\n    def route(self, rule):\n        pass\n",
        ),
        (
            "web/app.py",
            "from .scaffold import Scaffold\n\n\nclass App(Scaffold):\n    def route(self, rule):\n        pass\n\n    def run(self):\n        pass\n",
        ),
    ];
    let head = "from .scaffold import Scaffold\n\n\nclass App(Scaffold):\n    pass\n";
    let axis = api_after(&base, &[("web/app.py", head)]);
    assert_fails(&axis, &["App.run"]);
    assert!(
        !axis.detail.contains("App.route` removed"),
        "{}",
        axis.detail
    );
    let head = "from .scaffold import Scaffold\n\n\nclass App(Scaffold):\n    def run(self):\n        pass\n";
    assert_clears(&api_after(&base, &[("web/app.py", head)]));
}

// ky #757: `RequestInitRegistry` is exported by its module, which the package's entry point
// re-exports only `KyRequest` from.
#[test]
fn typescript_exports_the_entry_points_do_not_reach_are_internal() {
    let base = [
        (
            "package.json",
            "{\"name\": \"ky\", \"version\": \"1.2.0\", \"exports\": {\"types\": \"./distribution/index.d.ts\", \"default\": \"./distribution/index.js\"}}",
        ),
        (
            "source/index.ts",
            "export type {KyRequest} from './types/request.js';\n",
        ),
        (
            "source/types/request.ts",
            "export type RequestInitRegistry = {a: true};\n\nexport type KyRequest = Request;\n",
        ),
    ];
    let head = "export type KyRequest = Request;\n";
    assert_clears(&api_after(&base, &[("source/types/request.ts", head)]));
    let head = "export type RequestInitRegistry = {a: true};\n";
    assert_fails(
        &api_after(&base, &[("source/types/request.ts", head)]),
        &["KyRequest"],
    );
    // ky #632: the entry point re-exported `KyRequest` at the base; the head re-exports
    // another name instead and the type is gone: removed, judged by the base's entry point.
    let axis = api_after(
        &base,
        &[
            (
                "source/index.ts",
                "export type {Renamed} from './types/request.js';\n",
            ),
            (
                "source/types/request.ts",
                "export type RequestInitRegistry = {a: true};\n\nexport type Renamed = Request;\n",
            ),
        ],
    );
    assert_fails(&axis, &["KyRequest"]);
}

// A Java override removed while the superclass, in another file of the repository, still
// declares the method: not removed. A method no base declares is.
#[test]
fn java_a_method_still_inherited_from_a_superclass_in_another_file_is_not_removed() {
    let base = [
        (
            "pom.xml",
            "<project><groupId>g</groupId><artifactId>a</artifactId><version>2.1.0</version></project>\n",
        ),
        (
            "src/main/java/com/acme/Base.java",
            "package com.acme;\n\npublic abstract class Base {\n    public String describe() { return \"base\"; }\n}\n",
        ),
        (
            "src/main/java/com/acme/Widget.java",
            "package com.acme;\n\npublic class Widget extends Base {\n    @Override\n    public String describe() { return \"widget\"; }\n\n    public int size() { return 1; }\n}\n",
        ),
    ];
    let head = "package com.acme;\n\npublic class Widget extends Base {\n    public int size() { return 1; }\n}\n";
    assert_clears(&api_after(
        &base,
        &[("src/main/java/com/acme/Widget.java", head)],
    ));
    let head = "package com.acme;\n\npublic class Widget extends Base {\n    @Override\n    public String describe() { return \"widget\"; }\n}\n";
    assert_fails(
        &api_after(&base, &[("src/main/java/com/acme/Widget.java", head)]),
        &["Widget.size"],
    );
}

/// commons-io 2.18 removed `RandomAccessFileMode.toString()`: an enum (any class, record or
/// interface) still has `Object`'s `toString()`, `hashCode()` and `equals(Object)`, so an
/// override removed takes no call away. Another method removed still fails.
#[test]
fn java_an_override_of_objects_methods_removed_is_still_inherited_from_object() {
    let base = [
        (
            "pom.xml",
            "<project><groupId>g</groupId><artifactId>a</artifactId><version>2.1.0</version></project>\n",
        ),
        (
            "src/main/java/com/acme/Mode.java",
            "package com.acme;\n\npublic enum Mode {\n    READ, WRITE;\n\n    @Override\n    public String toString() { return name(); }\n\n    @Override\n    public int hashCode() { return 1; }\n\n    @Override\n    public boolean equals(Object other) { return this == other; }\n\n    public String label() { return name(); }\n}\n",
        ),
    ];
    let head = "package com.acme;\n\npublic enum Mode {\n    READ, WRITE;\n\n    public String label() { return name(); }\n}\n";
    assert_clears(&api_after(
        &base,
        &[("src/main/java/com/acme/Mode.java", head)],
    ));
    let head = "package com.acme;\n\npublic enum Mode {\n    READ, WRITE;\n}\n";
    assert_fails(
        &api_after(&base, &[("src/main/java/com/acme/Mode.java", head)]),
        &["Mode.label"],
    );
}

/// serde_json's merged PR #185: the branch that made the 0.9 breaks set `publish = false`
/// first. A package withdrawn from publishing at the head is a packaging decision: every item
/// was not removed one by one, so it warns with the reason and does not gate. A break in a
/// package that stays published still fails.
#[test]
fn a_package_withdrawn_from_publishing_warns_and_does_not_gate() {
    let head = BUILDER.replace(
        "pub fn spawn(name: &str, threads: usize)",
        "pub fn spawn(name: &str, threads: usize, stack: usize)",
    );
    let unpublished = CARGO.replace("edition", "publish = false # breaking for 2.0\nedition");
    let axis = api_after(
        &rust_base(),
        &[("src/runtime.rs", &head), ("Cargo.toml", &unpublished)],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains("no longer published")
            && axis.detail.contains("src/runtime.rs (publish = false"),
        "{}",
        axis.detail
    );
    assert_fails(
        &api_after(&rust_base(), &[("src/runtime.rs", &head)]),
        &["`spawn` a required parameter added"],
    );

    // The same for a JavaScript package that becomes `"private": true`.
    let package = |private: &str| {
        format!("{{\"name\": \"p\", \"version\": \"1.2.0\",{private} \"main\": \"index.js\"}}")
    };
    let base = [
        ("package.json", package("")),
        (
            "index.js",
            "export function get(url, options) {\n  return url;\n}\n".to_string(),
        ),
    ];
    let base: Vec<(&str, &str)> = base.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let removed = "export function fetchIt(url) {\n  return url;\n}\n";
    let axis = api_after(
        &base,
        &[
            ("index.js", removed),
            ("package.json", &package(" \"private\": true,")),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("\"private\": true"), "{}", axis.detail);
    assert_fails(
        &api_after(&base, &[("index.js", removed)]),
        &["`get` removed"],
    );
}

/// werkzeug's merged PRs #1164 and #1017 were made on `0.14.dev` and `0.12-dev`, the version
/// `setup.py` reads from the package's `__version__`: the change ships in a 0.x minor release,
/// which may break. The same change on a released version, or on a minor in development above
/// 1.0, still fails.
#[test]
fn a_break_on_a_development_version_of_a_breaking_release_warns() {
    let setup = "import re\nwith open('pkg/__init__.py') as f:\n    version = re.search(r\"__version__ = '(.*?)'\", f.read()).group(1)\nsetup(name='pkg', version=version)\n";
    let module = "class Headers:\n    def setdefault(self, key, value):\n        return value\n";
    let renamed = module
        .replace("value)", "default)")
        .replace("return value", "return default");
    let with_version = |version: &str| {
        vec![
            ("setup.py".to_string(), setup.to_string()),
            (
                "pkg/__init__.py".to_string(),
                format!("__version__ = '{version}'\n"),
            ),
            ("pkg/datastructures.py".to_string(), module.to_string()),
        ]
    };
    // (A 0.x version left as it was only warns: `a_break_in_a_zero_package_warns_…`.)
    for (version, breaks) in [("0.14.dev", false), ("1.13.1", true), ("2.3.0.dev0", true)] {
        let base = with_version(version);
        let base: Vec<(&str, &str)> = base.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let axis = api_after(&base, &[("pkg/datastructures.py", &renamed)]);
        if breaks {
            assert_fails(
                &axis,
                &["`Headers.setdefault` `value` renamed to `default`"],
            );
        } else {
            assert_eq!(
                axis.verdict,
                AxisVerdict::Warn,
                "{version}: {}",
                axis.detail
            );
            assert!(
                axis.detail
                    .contains("pkg/__init__.py: 0.14.dev is a development version"),
                "{}",
                axis.detail
            );
        }
    }
}

// regex #173 (0.1.52): `src/inst.rs` renamed `src/prog.rs`, both private modules whose types
// were re-exported only through `#[doc(hidden)] pub mod internal`. The base side's scope is
// decided at the base path (`mod inst;`), not at the head's, which the base never declared.
#[test]
fn rust_a_file_renamed_between_private_modules_is_not_api_at_either_side() {
    let lib = |module: &str| {
        format!(
            "pub use re::Regex;\nmod re;\nmod {module};\n\n/// For the `regex!` macro.\n\
             #[doc(hidden)]\npub mod internal {{\n    pub use {module}::{{Inst, EmptyLook}};\n}}\n"
        )
    };
    let inst = "pub enum Inst {\n    Match,\n    Char(char),\n}\n\npub enum EmptyLook {\n    StartLine,\n    EndLine,\n}\n\npub fn helper() {}\n";
    // Mostly the same text, so git pairs the two files as a rename.
    let prog = inst
        .replace("    Match,\n", "    Match(usize),\n")
        .replace("pub fn helper() {}\n", "");
    // The axis after renaming `inst.rs` to `prog.rs`, with `lib` declaring the module.
    let renamed = |lib: &dyn Fn(&str) -> String| {
        let base_lib = lib("inst");
        let repo = Repo::new(&[
            ("Cargo.toml", CARGO),
            ("src/lib.rs", base_lib.as_str()),
            ("src/re.rs", "pub struct Regex;\n"),
            ("src/inst.rs", inst),
        ]);
        repo.remove("src/inst.rs");
        repo.write("src/prog.rs", &prog);
        repo.write("src/lib.rs", &lib("prog"));
        repo.commit("rename inst to prog");
        repo.build()
            .axes
            .into_iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
    };
    assert_clears(&renamed(&lib));
    // The same rename with the module public at the base still compares the file: the
    // removed `helper` is a break.
    let public = |module: &str| {
        lib(module).replace(&format!("mod {module};"), &format!("pub mod {module};"))
    };
    assert_fails(&renamed(&public), &["helper"]);
}

// A PR can commit a symbolic link named like source code. Reading the worktree through it would
// parse a file of the reviewer's machine into symbols, surfaces and the report.
#[test]
fn a_symbolic_link_out_of_the_worktree_is_not_read() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("credentials.rs");
    std::fs::write(&secret, "pub fn leaked_from_outside(token: &str) {}\n").unwrap();
    let repo = Repo::new(&rust_base());
    std::fs::remove_file(repo.path().join("src/runtime.rs")).unwrap();
    std::os::unix::fs::symlink(&secret, repo.path().join("src/runtime.rs")).unwrap();
    repo.commit("runtime is a link");
    let report = repo.build();
    let text = serde_json::to_string(&report).unwrap();
    assert!(!text.contains("leaked_from_outside"), "{text}");
    // The link itself is what changed: the file reads as unreadable, not as the outside file.
    assert!(text.contains("src/runtime.rs"), "{text}");
}

// uuid #754: `.local/uuid/v6.js`, a committed link to `../../dist/v6.js`, held the axis as
// unreadable. A link's content is a path; what it points at is read where it lives. A source
// file made a link still is not read through it.
#[test]
fn a_symbolic_link_added_carries_no_api_of_its_own() {
    let repo = Repo::new(&[
        ("package.json", "{\"main\": \"dist/index.js\"}\n"),
        (
            "src/index.ts",
            "export function v4(): string {\n  return ''\n}\n",
        ),
    ]);
    std::fs::create_dir_all(repo.path().join(".local/uuid")).unwrap();
    std::os::unix::fs::symlink("../../dist/v6.js", repo.path().join(".local/uuid/v6.js")).unwrap();
    repo.write(
        "src/index.ts",
        "export function v4(): string {\n  return ''\n}\n\nexport function v6(): string {\n  return ''\n}\n",
    );
    repo.commit("v6");
    let axis = repo
        .build()
        .axes
        .into_iter()
        .find(|a| a.name == API_CONTRACT)
        .unwrap();
    assert_clears(&axis);
    assert!(!axis.detail.contains(".local"), "{}", axis.detail);
}

/// tokio 1.41 removed `future/poll_fn.rs`: `mod future;` is private and its only public path
/// was `#[doc(hidden)] pub mod support;` (re-exports for the crate's own macros). A removal
/// breaks only what had a documented public path.
#[test]
fn rust_a_removal_reachable_only_through_a_hidden_module_is_not_api() {
    let files = |hidden: &'static str| {
        vec![
            ("Cargo.toml", CARGO),
            ("src/lib.rs", "pub mod macros;\nmod future;\n"),
            ("src/macros/mod.rs", hidden),
            (
                "src/macros/support.rs",
                "cfg_macros! {\n    pub use crate::future::poll_fn;\n}\n",
            ),
            (
                "src/future/mod.rs",
                "mod poll_fn;\npub use poll_fn::poll_fn;\n",
            ),
            (
                "src/future/poll_fn.rs",
                "pub fn poll_fn<T, F>(f: F) -> PollFn<F> {\n    PollFn { f }\n}\n",
            ),
        ]
    };
    let remove = |files: Vec<(&str, &str)>| {
        let repo = Repo::new(&files);
        repo.remove("src/future/poll_fn.rs");
        repo.write("src/future/mod.rs", "\n");
        repo.write("src/macros/support.rs", "cfg_macros! {}\n");
        repo.commit("change");
        let report = repo.build();
        report
            .axes
            .iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
            .clone()
    };
    assert_clears(&remove(files("#[doc(hidden)]\npub mod support;\n")));
    // Through a documented public module: removed.
    assert_fails(&remove(files("pub mod support;\n")), &["`poll_fn`"]);
}

/// gson 2.11 and 2.14 removed classes of its `extras` module, whose `pom.xml` skips
/// `maven-deploy-plugin` ("Currently not deployed"). A module never published carries no API:
/// Maven deploy skipped, a Gradle project that never publishes, as `publish = false`.
#[test]
fn a_jvm_module_never_published_carries_no_api() {
    let pom = |deploy: &str| {
        format!(
            "<project>\n  <artifactId>gson-extras</artifactId>\n  <version>2.10.1</version>\n  <build>\n    <plugins>\n      <plugin>\n        <groupId>org.apache.maven.plugins</groupId>\n        <artifactId>maven-deploy-plugin</artifactId>\n        <configuration>\n          <!-- Currently not deployed -->\n          {deploy}\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n"
        )
    };
    let class = "extras/src/main/java/com/google/gson/graph/GraphAdapterBuilder.java";
    let source = "package com.google.gson.graph;\n\npublic final class GraphAdapterBuilder {\n  public GraphAdapterBuilder addType(Type type) { return this; }\n}\n";
    let removed = |pom: &str, build: &str| {
        let repo = Repo::new(&[(build, pom), (class, source)]);
        repo.remove(class);
        repo.commit("change");
        let report = repo.build();
        report
            .axes
            .iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
            .clone()
    };
    assert_clears(&removed(&pom("<skip>true</skip>"), "extras/pom.xml"));
    assert_fails(
        &removed(
            &pom("<retryFailedDeploymentCount>2</retryFailedDeploymentCount>"),
            "extras/pom.xml",
        ),
        &["GraphAdapterBuilder"],
    );
    // gson 2.13: the parent configures `<skip>${gson.isInternalModule}</skip>`, the module
    // sets the property.
    let parent = "<project>\n  <properties>\n    <gson.isInternalModule>false</gson.isInternalModule>\n  </properties>\n  <build>\n    <pluginManagement>\n      <plugins>\n        <plugin>\n          <artifactId>maven-deploy-plugin</artifactId>\n          <configuration>\n            <skip>${gson.isInternalModule}</skip>\n          </configuration>\n        </plugin>\n      </plugins>\n    </pluginManagement>\n  </build>\n</project>\n";
    let module = |internal: &str| {
        format!(
            "<project>\n  <artifactId>gson-extras</artifactId>\n  <properties>\n    <gson.isInternalModule>{internal}</gson.isInternalModule>\n  </properties>\n</project>\n"
        )
    };
    let with_parent = |module: &str| {
        let repo = Repo::new(&[
            ("pom.xml", parent),
            ("extras/pom.xml", module),
            (class, source),
        ]);
        repo.remove(class);
        repo.commit("change");
        let report = repo.build();
        report
            .axes
            .iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
            .clone()
    };
    assert_clears(&with_parent(&module("true")));
    assert_fails(&with_parent(&module("false")), &["GraphAdapterBuilder"]);
    assert_clears(&removed(
        "plugins {\n    id(\"java-library\")\n}\n",
        "extras/build.gradle.kts",
    ));
    assert_fails(
        &removed(
            "plugins {\n    id(\"java-library\")\n    id(\"maven-publish\")\n}\n",
            "extras/build.gradle.kts",
        ),
        &["GraphAdapterBuilder"],
    );
}

/// pydantic 2.x: `__all__` in the top-level `__init__.py` declares the API. A submodule's
/// public-by-name item no declared name reaches (a nested class of `GenerateJsonSchema`, which
/// the package never exports) changes with a warning; a declared one (`Field`) still fails.
/// The mypy plugin's module is loaded by mypy's configuration, never imported: not API.
#[test]
fn python_a_declared_api_bounds_what_submodules_promise() {
    let init = "from .fields import Field\n\n__all__ = ('Field', 'BaseModel')\n\nfrom .main import BaseModel\n";
    let schema = "class GenerateJsonSchema:\n    class ValidationsMapping:\n        numeric = {}\n\n    def generate(self, schema, mode='validation'):\n        pass\n";
    let fields = "def Field(default=None, *, alias=None):\n    pass\n";
    let plugin = "class PydanticModelField:\n    def __init__(self, name, alias):\n        pass\n\n\ndef plugin(version: str):\n    return PydanticPlugin\n";
    let base = [
        (
            "pyproject.toml",
            "[project]\nname = \"pkg\"\nversion = \"2.5.0\"\n",
        ),
        ("pkg/__init__.py", init),
        ("pkg/main.py", "class BaseModel:\n    pass\n"),
        ("pkg/json_schema.py", schema),
        ("pkg/fields.py", fields),
        ("pkg/mypy.py", plugin),
    ];
    let axis = api_after(
        &base,
        &[
            (
                "pkg/json_schema.py",
                "class GenerateJsonSchema:\n    def generate(self, schema):\n        pass\n",
            ),
            (
                "pkg/mypy.py",
                &plugin.replace("(self, name, alias)", "(self, name)"),
            ),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail.contains("declared `__all__`") && !axis.detail.contains("mypy"),
        "{}",
        axis.detail
    );
    assert_fails(
        &api_after(
            &base,
            &[("pkg/fields.py", "def Field(default=None):\n    pass\n")],
        ),
        &["`Field`"],
    );
    // Without `__all__`, every public name of the submodule is promised.
    let mut undeclared = base.to_vec();
    undeclared[1] = ("pkg/__init__.py", "from .fields import Field\n");
    assert_fails(
        &api_after(
            &undeclared,
            &[(
                "pkg/json_schema.py",
                "class GenerateJsonSchema:\n    def generate(self, schema):\n        pass\n",
            )],
        ),
        &["GenerateJsonSchema"],
    );
}

/// alembic documents its API with autodoc (`automodule:: alembic.command`, `alembic.ddl`, …)
/// and never names `alembic.util.compat`, whose `py38` flag went when Python 3.7 support did:
/// a module the project's autodoc documentation never names warns. A documented module, one
/// below a documented package, one the documentation's text names, and any module of a
/// project whose documentation is not autodoc still fail.
#[test]
fn python_a_module_the_autodoc_documentation_never_names_is_not_promised() {
    let compat = "py37 = True\npy38 = True\n\ndef ensure_text(value):\n    return value\n";
    let command = "def current(config, verbose=False):\n    pass\n";
    let base = |docs: &'static str| {
        vec![
            (
                "pyproject.toml",
                "[project]\nname = \"shop\"\nversion = \"1.16.5\"\n",
            ),
            ("shop/__init__.py", "__version__ = '1.16.5'\n"),
            ("shop/command.py", command),
            ("shop/script/__init__.py", "from .base import Script\n"),
            (
                "shop/script/base.py",
                "class Script:\n    def walk(self, start):\n        pass\n",
            ),
            ("shop/util/__init__.py", ""),
            ("shop/util/compat.py", compat),
            ("docs/build/api/commands.rst", docs),
        ]
    };
    const AUTODOC: &str = "Commands\n========\n\n.. automodule:: shop.command\n    :members:\n\n.. automodule:: shop.script\n    :members:\n";
    let dropped = "py38 = True\n\ndef ensure_text(value):\n    return value\n";
    let axis = api_after(&base(AUTODOC), &[("shop/util/compat.py", dropped)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail
            .contains("`shop.util.compat` is not in the project's API documentation"),
        "{}",
        axis.detail
    );
    // A documented module, and one below a documented package.
    assert_fails(
        &api_after(
            &base(AUTODOC),
            &[("shop/command.py", "def current(config):\n    pass\n")],
        ),
        &["`current`"],
    );
    assert_fails(
        &api_after(
            &base(AUTODOC),
            &[("shop/script/base.py", "class Script:\n    pass\n")],
        ),
        &["`Script.walk`"],
    );
    // The documentation's text names the module; or it is prose that names no object inside
    // a module by its path.
    let named: &'static str = "Commands\n========\n\n.. automodule:: shop.command\n\nOn old Pythons, check ``shop.util.compat.py37``.\n";
    assert_fails(
        &api_after(&base(named), &[("shop/util/compat.py", dropped)]),
        &["`py37`"],
    );
    assert_fails(
        &api_after(
            &base("Use ``shop.current``.\n"),
            &[("shop/util/compat.py", dropped)],
        ),
        &["`py37`"],
    );
}

/// A server, a program whose manifest installs a command running its own package, documents
/// its extension points in prose by import path (`srv.app.base.BaseApplication`), never with
/// autodoc: a module its documentation never names (`srv.util`, `srv.http.parser`) is the
/// program's machinery, and a change there warns. What the documentation names keeps full
/// checks: a documented module, a name it gives by a package's path (`srv.run`, re-exported
/// from `srv.core`), a name a package's `__all__` declares. A library's prose documentation is
/// a guide, not a list of what it promises (a web toolkit's tutorials never name its
/// `status` module, which users import); documentation that names no object inside a
/// submodule by its path promises nothing either; and the documentation read is the base's: a
/// change that also drops the mention still fails.
#[test]
fn python_a_module_the_import_path_documentation_never_names_is_not_promised() {
    const PROGRAM: &str = "[project]\nname = \"srv\"\nversion = \"2.3.0\"\n\n[project.scripts]\nsrv = \"srv.app.wsgiapp:run\"\n";
    let util =
        "def is_writable(path, uid, gid):\n    return True\n\ndef close_on_exec(fd):\n    pass\n";
    let parser = "class Parser:\n    def __init__(self, cfg, source):\n        pass\n\nclass AsyncRequest:\n    pass\n";
    let base = |docs: &'static str| {
        vec![
            ("pyproject.toml", PROGRAM),
            (
                "srv/__init__.py",
                "from .core import run\n\n__version__ = '2.3.0'\nSERVER = 'srv'\n",
            ),
            ("srv/core.py", "def run(app, bind=None):\n    pass\n"),
            ("srv/util.py", util),
            ("srv/app/__init__.py", ""),
            (
                "srv/app/base.py",
                "class BaseApplication:\n    def load(self):\n        pass\n",
            ),
            (
                "srv/http/__init__.py",
                "from .parser import AsyncRequest\n\n__all__ = ['AsyncRequest']\n",
            ),
            ("srv/http/parser.py", parser),
            ("docs/custom.md", docs),
        ]
    };
    const PROSE: &str = "# Custom application\n\nSubclass `srv.app.base.BaseApplication` to embed the server,\nor call `srv.run(app)`.\n";
    let dropped = "def close_on_exec(fd):\n    pass\n";
    let axis = api_after(&base(PROSE), &[("srv/util.py", dropped)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        axis.detail
            .contains("`srv.util` is not in the project's API documentation"),
        "{}",
        axis.detail
    );
    let constructor = parser.replace("cfg, source", "cfg, source, peer");
    let axis = api_after(&base(PROSE), &[("srv/http/parser.py", &constructor)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    // A documented module; a name documented by its package's path; a declared name.
    assert_fails(
        &api_after(
            &base(PROSE),
            &[("srv/app/base.py", "class BaseApplication:\n    pass\n")],
        ),
        &["`BaseApplication.load`"],
    );
    assert_fails(
        &api_after(
            &base(PROSE),
            &[("srv/core.py", "def run(app):\n    pass\n")],
        ),
        &["`run`"],
    );
    let gone = "class Parser:\n    def __init__(self, cfg, source):\n        pass\n";
    assert_fails(
        &api_after(&base(PROSE), &[("srv/http/parser.py", gone)]),
        &["`AsyncRequest`"],
    );
    // The base's `__all__` declared it; the change drops it from there too.
    assert_fails(
        &api_after(
            &base(PROSE),
            &[
                ("srv/http/parser.py", gone),
                ("srv/http/__init__.py", "from .parser import Parser\n"),
            ],
        ),
        &["`AsyncRequest`"],
    );
    // A library's prose documentation.
    let library: Vec<_> = base(PROSE)
        .into_iter()
        .map(|(path, text)| {
            if path == "pyproject.toml" {
                (path, "[project]\nname = \"srv\"\nversion = \"2.3.0\"\n")
            } else {
                (path, text)
            }
        })
        .collect();
    assert_fails(
        &api_after(&library, &[("srv/util.py", dropped)]),
        &["`is_writable`"],
    );
    // A library does not become a program by the change that installs a command.
    assert_fails(
        &api_after(
            &library,
            &[("srv/util.py", dropped), ("pyproject.toml", PROGRAM)],
        ),
        &["`is_writable`"],
    );
    // Documentation that names no object inside a submodule by its path.
    assert_fails(
        &api_after(&base("Call `srv.run(app)`.\n"), &[("srv/util.py", dropped)]),
        &["`is_writable`"],
    );
    // The base's documentation named it; the change drops the mention with the function.
    const NAMED: &str =
        "Subclass `srv.app.base.BaseApplication`.\n\nCheck `srv.util.is_writable`.\n";
    assert_fails(
        &api_after(
            &base(NAMED),
            &[("srv/util.py", dropped), ("docs/custom.md", PROSE)],
        ),
        &["`is_writable`"],
    );
}

/// tokio 1.38: `RuntimeMetrics::active_tasks_count` moved into a macro block. The crate's own
/// item-wrapping macros imply the `cfg` their `macro_rules!` writes: `cfg_metrics!` put the
/// whole module behind `tokio_unstable` at the base, and a method moved into such a macro at
/// the head leaves the stable surface, while one moved into `cfg_windows!` stays in it.
#[test]
fn rust_items_in_a_crates_own_macros_take_the_cfg_their_definition_writes() {
    let macros = "macro_rules! cfg_metrics {\n    ($($item:item)*) => {\n        $(\n            #[cfg(all(tokio_unstable, not(loom)))]\n            $item\n        )*\n    }\n}\n\nmacro_rules! cfg_detail {\n    ($($item:item)*) => {\n        $( #[cfg(tokio_unstable)] $item )*\n    }\n}\n\nmacro_rules! cfg_windows {\n    ($($item:item)*) => {\n        $( #[cfg(windows)] $item )*\n    }\n}\n";
    let metrics = "pub struct RuntimeMetrics {\n    n: usize,\n}\n\nimpl RuntimeMetrics {\n    pub fn num_workers(&self) -> usize {\n        self.n\n    }\n\n    pub fn active_tasks_count(&self) -> usize {\n        self.n\n    }\n}\n";
    let files = |runtime: &'static str| {
        vec![
            ("Cargo.toml", CARGO),
            (
                "src/lib.rs",
                "#[macro_use]\nmod macros;\npub mod runtime;\n",
            ),
            ("src/macros/mod.rs", "#[macro_use]\nmod cfg;\n"),
            ("src/macros/cfg.rs", macros),
            ("src/runtime/mod.rs", runtime),
            ("src/runtime/metrics.rs", metrics),
        ]
    };
    let head = |wrapper: &str| {
        metrics.replace(
            "    pub fn active_tasks_count(&self) -> usize {\n        self.n\n    }\n",
            &format!(
                "    {wrapper}! {{\n        pub fn active_tasks_count(&self) -> usize {{\n            self.n\n        }}\n    }}\n"
            ),
        )
    };
    let unstable_module =
        "cfg_metrics! {\n    mod metrics;\n    pub use metrics::RuntimeMetrics;\n}\n";
    let stable_module = "mod metrics;\npub use metrics::RuntimeMetrics;\n";
    // Unstable at the base (the module), unstable at the head (the method): nothing stable
    // changed.
    let axis = api_after(
        &files(unstable_module),
        &[
            ("src/runtime/mod.rs", stable_module),
            ("src/runtime/metrics.rs", &head("cfg_detail")),
        ],
    );
    assert_clears(&axis);
    // Stable at the base, behind `tokio_unstable` at the head: removed from the stable API.
    let axis = api_after(
        &files(stable_module),
        &[("src/runtime/metrics.rs", &head("cfg_detail"))],
    );
    assert_fails(&axis, &["`RuntimeMetrics::active_tasks_count` removed"]);
    // Into a platform macro: still there.
    let axis = api_after(
        &files(stable_module),
        &[("src/runtime/metrics.rs", &head("cfg_windows"))],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

/// pydantic 2.11 removed `get_gh_auth_token` from `release/make_history.py`: a folder without
/// `__init__.py` in a packaged project is tooling nobody imports. A package beside it is API.
#[test]
fn python_files_outside_any_package_of_a_packaged_project_are_not_api() {
    let base = [
        (
            "pyproject.toml",
            "[project]\nname = \"pkg\"\nversion = \"2.10.0\"\n",
        ),
        ("pkg/__init__.py", "from .api import get\n"),
        ("pkg/api.py", "def get(url):\n    pass\n"),
        (
            "release/make_history.py",
            "def get_gh_auth_token():\n    pass\n",
        ),
    ];
    assert_clears(&api_after(
        &base,
        &[("release/make_history.py", "def main():\n    pass\n")],
    ));
    assert_fails(
        &api_after(&base, &[("pkg/api.py", "def fetch(url):\n    pass\n")]),
        &["`get` removed"],
    );
}

/// serde: `#[doc(hidden)] #[path = "private/mod.rs"] pub mod __private;`, the attributes on
/// the declaration's own line. Every file under `private/` is that hidden module, whatever
/// its folder is named; what changes there breaks no documented path.
#[test]
fn rust_a_module_loaded_by_a_path_attribute_on_its_line_is_judged_by_its_declaration() {
    let files = |lib: &'static str| {
        vec![
            ("Cargo.toml", CARGO),
            ("src/lib.rs", lib),
            (
                "src/private/mod.rs",
                "pub mod de;\npub fn size_hint(a: u8) -> u8 {\n    a\n}\n",
            ),
            (
                "src/private/de.rs",
                "pub fn borrow_cow_str(a: u8) -> u8 {\n    a\n}\n",
            ),
        ]
    };
    let change = |lib: &'static str| {
        api_after(
            &files(lib),
            &[
                ("src/private/mod.rs", "pub mod de;\n"),
                (
                    "src/private/de.rs",
                    "pub fn borrow_cow_str(a: u8, b: u8) -> u8 {\n    a\n}\n",
                ),
            ],
        )
    };
    assert_clears(&change(
        "pub mod de;\n\n#[doc(hidden)] #[path = \"private/mod.rs\"] pub mod __private;\n",
    ));
    assert_clears(&change(
        "#[cfg_attr(unix, path = \"private/mod.rs\")] #[doc(hidden)]\npub mod __private;\n",
    ));
    // Declared public and documented: the same changes break.
    assert_fails(
        &change("#[path = \"private/mod.rs\"] pub mod __private;\n"),
        &["`size_hint` removed", "`borrow_cow_str`"],
    );
}

/// ratatui: `Terminal` is public in `terminal.rs`, and its drawing methods live in a private
/// `mod render;` (`impl Terminal { pub fn draw … }`). Inherent methods of a public type are
/// public wherever their `impl` block lives: moving one there removes nothing, and a change
/// to one there is a change to `Terminal`'s API. A private type's methods there are not API.
#[test]
fn rust_methods_of_a_public_type_in_a_private_modules_file_are_public() {
    let terminal = "mod render;\n\npub struct Terminal {\n    width: u16,\n}\n\nimpl Terminal {\n    pub fn new() -> Terminal {\n        Terminal { width: 0 }\n    }\n\n    pub fn draw(&mut self, frame: u8) -> u8 {\n        frame\n    }\n}\n";
    let base = vec![
        ("Cargo.toml", CARGO),
        ("src/lib.rs", "pub mod terminal;\nmod cell;\n"),
        ("src/terminal.rs", terminal),
        (
            "src/terminal/render.rs",
            "use super::Terminal;\nuse crate::cell::Cell;\n\nimpl Terminal {\n    pub fn flush(&mut self) {}\n}\n\nimpl Cell {\n    pub fn reset(&mut self) {}\n}\n",
        ),
        ("src/cell.rs", "pub struct Cell;\n"),
    ];
    let moved_out = terminal.replace(
        "\n\n    pub fn draw(&mut self, frame: u8) -> u8 {\n        frame\n    }",
        "",
    );
    let render_with_draw = "use super::Terminal;\nuse crate::cell::Cell;\n\nimpl Terminal {\n    pub fn flush(&mut self) {}\n\n    pub fn draw(&mut self, frame: u8) -> u8 {\n        frame\n    }\n}\n\nimpl Cell {\n    pub fn reset(&mut self) {}\n}\n";
    assert_clears(&api_after(
        &base,
        &[
            ("src/terminal.rs", &moved_out),
            ("src/terminal/render.rs", render_with_draw),
        ],
    ));
    // A method of the public type changed where it lives: a break.
    assert_fails(
        &api_after(
            &base,
            &[(
                "src/terminal/render.rs",
                &base[3]
                    .1
                    .replace("flush(&mut self)", "flush(&mut self, all: bool)"),
            )],
        ),
        &["`Terminal::flush`"],
    );
    // `Cell` lives in a private module nothing re-exports: its methods are no API.
    assert_clears(&api_after(
        &base,
        &[(
            "src/terminal/render.rs",
            &base[3]
                .1
                .replace("reset(&mut self)", "reset(&mut self, all: bool)"),
        )],
    ));
}

/// ratatui: `pub use terminal::{Options as TerminalOptions}`. The alias is the public name,
/// the private module's own name is not API: renaming the struct to the alias inside the
/// module, the alias dropped, changes nothing users see; a change under the alias still does.
#[test]
fn rust_an_item_re_exported_under_an_alias_is_known_by_the_alias() {
    let base = vec![
        ("Cargo.toml", CARGO),
        (
            "src/lib.rs",
            "mod terminal;\npub use terminal::{Options as TerminalOptions, Terminal};\n",
        ),
        (
            "src/terminal.rs",
            "pub struct Terminal;\n\npub struct Options {\n    pub width: u16,\n}\n\nimpl Options {\n    pub fn new(width: u16) -> Options {\n        Options { width }\n    }\n}\n",
        ),
    ];
    let renamed = base[2].1.replace("Options", "TerminalOptions");
    assert_clears(&api_after(
        &base,
        &[
            (
                "src/lib.rs",
                "mod terminal;\npub use terminal::{Terminal, TerminalOptions};\n",
            ),
            ("src/terminal.rs", &renamed),
        ],
    ));
    assert_fails(
        &api_after(
            &base,
            &[(
                "src/terminal.rs",
                &base[2]
                    .1
                    .replace("new(width: u16)", "new(width: u16, height: u16)"),
            )],
        ),
        &["`TerminalOptions::new`"],
    );
}

/// Mockito's `@NotExtensible`, JetBrains' `@ApiStatus.NonExtendable`, `@DoNotImplement`: a
/// type its annotation closes to implementation may gain abstract members, as may one marked
/// with a project's own annotation whose documentation says users must not implement it. An
/// interface without such a promise may not.
#[test]
fn java_a_type_closed_by_an_annotation_may_gain_abstract_members() {
    let path = "src/main/java/com/acme/api/Session.java";
    let session = |annotation: &str| {
        format!(
            "package com.acme.api;\n\nimport org.mockito.NotExtensible;\n\n{annotation}\npublic interface Session {{\n  void close();\n}}\n"
        )
    };
    let grown = |annotation: &str| {
        session(annotation).replace("  void close();\n", "  void close();\n  void flush();\n")
    };
    for annotation in [
        "@NotExtensible",
        "@ApiStatus.NonExtendable",
        "@DoNotImplement",
    ] {
        assert_clears(&api_after(
            &[(path, &session(annotation))],
            &[(path, &grown(annotation))],
        ));
    }
    assert_fails(
        &api_after(&[(path, &session(""))], &[(path, &grown(""))]),
        &["`Session.flush()`"],
    );
    let internal = "package com.acme.api;\n\n/**\n * Marks a type users must not implement: new methods may be added to it in any release.\n */\n@Documented\npublic @interface Internal {}\n";
    let beta = "package com.acme.api;\n\n/** Marks an API that may still change. */\npublic @interface Beta {}\n";
    let files = |session: &'static str| {
        vec![
            ("src/main/java/com/acme/api/Internal.java", internal),
            ("src/main/java/com/acme/api/Beta.java", beta),
            (path, session),
        ]
    };
    let (marked_internal, marked_beta) = (session("@Internal"), session("@Beta"));
    let files_internal: Vec<(&str, &str)> = files("")
        .into_iter()
        .map(|(p, t)| {
            if p == path {
                (p, marked_internal.as_str())
            } else {
                (p, t)
            }
        })
        .collect();
    let files_beta: Vec<(&str, &str)> = files("")
        .into_iter()
        .map(|(p, t)| {
            if p == path {
                (p, marked_beta.as_str())
            } else {
                (p, t)
            }
        })
        .collect();
    assert_clears(&api_after(&files_internal, &[(path, &grown("@Internal"))]));
    assert_fails(
        &api_after(&files_beta, &[(path, &grown("@Beta"))]),
        &["`Session.flush()`"],
    );
}

// indicatif 0.17.10: `ProgressBar::set_tab_width(&mut self, …)` became `(&self, …)`. Every
// call that compiled with `&mut self` still does (a `&mut` coerces to `&`). A trait's method
// is also implemented: its implementors must change their signature, unless the trait is
// sealed. `&self` → `&mut self` still breaks every caller holding a `&`.
#[test]
fn rust_a_receiver_relaxed_from_mut_to_shared_is_a_widening_on_an_inherent_method() {
    let bar = |receiver: &str, sealed: &str| {
        format!(
            "mod private {{\n    pub trait Sealed {{}}\n}}\n\npub struct ProgressBar;\n\nimpl ProgressBar {{\n    pub fn set_tab_width({receiver}, width: usize) {{\n        let _ = width;\n    }}\n}}\n\npub trait Style{sealed} {{\n    fn set_tab_width({receiver}, width: usize);\n}}\n"
        )
    };
    let files = |sealed: &str| {
        [
            ("Cargo.toml", CARGO.to_string()),
            ("src/lib.rs", "pub mod progress_bar;\n".to_string()),
            ("src/progress_bar.rs", bar("&mut self", sealed)),
        ]
    };
    let open = files("");
    let open: Vec<(&str, &str)> = open.iter().map(|(p, c)| (*p, c.as_str())).collect();
    let relaxed = api_after(&open, &[("src/progress_bar.rs", &bar("&self", ""))]);
    assert_fails(&relaxed, &["`Style::set_tab_width` receiver changed"]);
    assert!(
        !relaxed.detail.contains("`ProgressBar::set_tab_width`"),
        "{}",
        relaxed.detail
    );
    let sealed = files(": private::Sealed");
    let sealed: Vec<(&str, &str)> = sealed.iter().map(|(p, c)| (*p, c.as_str())).collect();
    let relaxed = api_after(
        &sealed,
        &[("src/progress_bar.rs", &bar("&self", ": private::Sealed"))],
    );
    assert_clears(&relaxed);
    assert!(
        relaxed.detail.contains("receiver relaxed"),
        "{}",
        relaxed.detail
    );
    // `&self` → `&mut self`: a caller holding only a `&ProgressBar` no longer compiles.
    let shared = [
        ("Cargo.toml", CARGO.to_string()),
        ("src/lib.rs", "pub mod progress_bar;\n".to_string()),
        ("src/progress_bar.rs", bar("&self", ": private::Sealed")),
    ];
    let shared: Vec<(&str, &str)> = shared.iter().map(|(p, c)| (*p, c.as_str())).collect();
    let narrowed = api_after(
        &shared,
        &[(
            "src/progress_bar.rs",
            &bar("&mut self", ": private::Sealed"),
        )],
    );
    assert_fails(
        &narrowed,
        &[
            "`ProgressBar::set_tab_width` receiver changed",
            "`Style::set_tab_width` receiver changed",
        ],
    );
}

// time 0.3.54 renamed `PrimitiveDateTime` to `PlainDateTime` (and its file) and kept `pub
// type PrimitiveDateTime = PlainDateTime;` in lib.rs: every member is still reached under
// the old name. A member the target lacks is gone.
#[test]
fn rust_a_type_kept_as_an_alias_of_its_renamed_self_keeps_its_members() {
    let date_time = |name: &str, extra: &str| {
        format!(
            "pub struct {name} {{\n    inner: u64,\n}}\n\nimpl {name} {{\n    pub const MAX: u64 = 0;\n\n    pub fn year(&self) -> i32 {{\n        0\n    }}\n{extra}}}\n"
        )
    };
    let base_file = date_time(
        "PrimitiveDateTime",
        "\n    pub fn assume_utc(self) -> u64 {\n        self.inner\n    }\n",
    );
    let files = [
        ("Cargo.toml", CARGO),
        (
            "src/lib.rs",
            "mod primitive_date_time;\n\npub use primitive_date_time::PrimitiveDateTime;\n",
        ),
        ("src/primitive_date_time.rs", base_file.as_str()),
    ];
    let lib = "mod plain_date_time;\n\npub use plain_date_time::PlainDateTime;\n\npub type PrimitiveDateTime = PlainDateTime;\n";
    let renamed = |extra: &str| {
        let repo = Repo::new(&files);
        repo.remove("src/primitive_date_time.rs");
        repo.write("src/plain_date_time.rs", &date_time("PlainDateTime", extra));
        repo.write("src/lib.rs", lib);
        repo.commit("rename");
        repo.build()
            .axes
            .iter()
            .find(|a| a.name == API_CONTRACT)
            .unwrap()
            .clone()
    };
    let kept = renamed("\n    pub fn assume_utc(self) -> u64 {\n        self.inner\n    }\n");
    assert_clears(&kept);
    // The target lacks `assume_utc`: removed under the old name too.
    let lacking = renamed("");
    assert_fails(&lacking, &["`PrimitiveDateTime::assume_utc` removed"]);
    assert!(
        !lacking.detail.contains("`PrimitiveDateTime::year`"),
        "{}",
        lacking.detail
    );
}

/// A crate's builder methods generated by its own `macro_rules!` kept in `src/macros.rs` (time
/// 0.3.48's `builder_methods!`, called inside each `impl` with the methods' names) are still
/// there; a method the calls no longer name is removed.
#[test]
fn rust_methods_a_macro_of_the_crates_macros_file_generates_are_not_removed() {
    let macros = "macro_rules! builder_methods {\n    ($($(#[$attr:meta])* fn $method:ident($field:ident : $ty:ty);)+) => {$(\n        $(#[$attr])*\n        pub const fn $method(self, $field: $ty) -> Self {\n            Self { $field, ..self }\n        }\n    )+};\n}\n";
    let base = "pub struct Day {\n    pub padding: u8,\n    pub width: u8,\n}\n\nimpl Day {\n    pub const fn with_padding(self, padding: u8) -> Self {\n        Self { padding, ..self }\n    }\n\n    pub const fn with_width(self, width: u8) -> Self {\n        Self { width, ..self }\n    }\n}\n";
    let files = vec![
        ("Cargo.toml", CARGO),
        (
            "src/lib.rs",
            "#[macro_use]\nmod macros;\npub mod modifier;\n",
        ),
        ("src/macros.rs", macros),
        ("src/modifier.rs", base),
    ];
    let head = |names: &str| {
        format!(
            "pub struct Day {{\n    pub padding: u8,\n    pub width: u8,\n}}\n\nimpl Day {{\n    builder_methods! {{\n{names}    }}\n}}\n"
        )
    };
    let both = head("        fn with_padding(padding: u8);\n        fn with_width(width: u8);\n");
    let axis = api_after(&files, &[("src/modifier.rs", &both)]);
    assert_ne!(axis.verdict, AxisVerdict::Fail, "{}", axis.detail);
    assert!(
        axis.detail
            .contains("`Day::with_width` still generated inside `impl Day` by the crate's macro `builder_methods!`"),
        "{}",
        axis.detail
    );
    let one = head("        fn with_padding(padding: u8);\n");
    let axis = api_after(&files, &[("src/modifier.rs", &one)]);
    assert_fails(&axis, &["`Day::with_width` removed"]);
}

/// A crate whose `internals` (inline, outer `///` doc), `raw` (its file's `//!` doc) and
/// `detail` (`#[doc = "…"]` on its declaration) modules say they are outside the crate's
/// compatibility promise, or not, as `withdrawn` says.
fn crate_with_unpromised_modules(withdrawn: bool) -> Vec<(String, String)> {
    let (outer, inner, attribute) = if withdrawn {
        (
            "/// This module does not follow the same stability guarantees as the rest of the\n\
             /// crate and is not guaranteed to be compatible between minor versions.\n",
            "//!\n//! This module is unstable: its functions may change between minor releases.\n",
            "#[doc = \"Internal details: not part of the public API.\"]\n",
        )
    } else {
        ("", "", "")
    };
    let lib = format!(
        "{LIB}mod content;\npub mod raw;\n{attribute}pub mod detail;\n\n/// Exposes some library internals.\n///\n{outer}pub mod internals {{\n    pub use crate::content::Content;\n    pub fn dump(level: u8) {{}}\n}}\n"
    );
    let files = [
        ("Cargo.toml", CARGO.to_string()),
        ("src/lib.rs", lib),
        ("src/runtime.rs", BUILDER.to_string()),
        (
            "src/util.rs",
            "pub fn helper() -> u8 {\n    1\n}\n".to_string(),
        ),
        (
            "src/content.rs",
            "pub enum Content {\n    Text(String),\n    Bytes(Vec<u8>),\n}\n".to_string(),
        ),
        (
            "src/raw.rs",
            format!(
                "//! Raw access.\n{inner}\npub mod nested;\n\npub fn parse(input: &str) -> u8 {{\n    0\n}}\n"
            ),
        ),
        ("src/raw/nested.rs", "pub fn deep() {}\n".to_string()),
        ("src/detail.rs", "pub struct Detail;\n".to_string()),
    ];
    files
        .into_iter()
        .map(|(path, text)| (path.to_string(), text))
        .collect()
}

#[test]
fn rust_a_module_whose_own_documentation_withdraws_its_promise_is_not_api() {
    let base = crate_with_unpromised_modules(true);
    let base: Vec<(&str, &str)> = base.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let text = |path: &str| base.iter().find(|(p, _)| *p == path).unwrap().1.to_string();
    let lib = text("src/lib.rs").replace("    pub fn dump(level: u8) {}\n", "");
    let raw = text("src/raw.rs").replace("input: &str", "input: &[u8]");
    // A variant gone from a type only the withdrawn module re-exports, an item gone from
    // it, and changes in modules whose docs withdraw them (a submodule of one included).
    let axis = api_after(
        &base,
        &[
            ("src/lib.rs", &lib),
            (
                "src/content.rs",
                "pub enum Content {\n    Text(String),\n}\n",
            ),
            ("src/raw.rs", &raw),
            ("src/raw/nested.rs", ""),
            ("src/detail.rs", "pub struct Renamed;\n"),
        ],
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

#[test]
fn rust_a_promise_withdrawn_in_the_same_change_still_held_at_the_base() {
    // The base promised the modules; the head says they are outside the promise and removes
    // items: users had them.
    let base = crate_with_unpromised_modules(false);
    let base: Vec<(&str, &str)> = base.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let head = crate_with_unpromised_modules(true);
    let text = |path: &str| head.iter().find(|(p, _)| p == path).unwrap().1.clone();
    let lib = text("src/lib.rs").replace("    pub fn dump(level: u8) {}\n", "");
    let raw = text("src/raw.rs").replace("input: &str", "input: &[u8]");
    let axis = api_after(&base, &[("src/lib.rs", &lib), ("src/raw.rs", &raw)]);
    assert_fails(&axis, &["dump", "parse"]);
}

const GO_CMDABLE: &str = "package redis\n\nimport \"context\"\n\ntype Cmdable interface {\n\tPing(ctx context.Context) error\n\tgearsCmdable\n}\n\n// Users hand in their own implementation.\nfunc Wrap(c Cmdable) Cmdable {\n\treturn c\n}\n";
const GO_GEARS: &str = "package redis\n\nimport \"context\"\n\ntype gearsCmdable interface {\n\tLoad(ctx context.Context, name string) error\n}\n";

#[test]
fn go_an_interface_is_its_method_set_flattened_through_its_packages_interfaces() {
    let go_mod = ("go.mod", "module example.com/redis\n\ngo 1.22\n");
    let base = [go_mod, ("commands.go", GO_CMDABLE), ("gears.go", GO_GEARS)];
    // The embedded interface renamed (and exported), its methods the same: no user's code
    // changes.
    let rename = |text: &str| text.replace("gearsCmdable", "GearsCmdable");
    let renamed = api_after(
        &base,
        &[
            ("commands.go", &rename(GO_CMDABLE)),
            ("gears.go", &rename(GO_GEARS)),
        ],
    );
    assert_clears(&renamed);
    // Renamed to one with another method: every implementation of `Cmdable` must add it.
    let grown = rename(GO_GEARS).replace(
        "error\n}",
        "error\n\tDelete(ctx context.Context, name string) error\n}",
    );
    let axis = api_after(
        &base,
        &[("commands.go", &rename(GO_CMDABLE)), ("gears.go", &grown)],
    );
    assert_fails(&axis, &["`Cmdable.Delete`"]);
}

#[test]
fn go_an_exported_interface_renamed_is_removed_unless_an_alias_keeps_its_name() {
    let go_mod = ("go.mod", "module example.com/redis\n\ngo 1.22\n");
    let exported = |text: &str| text.replace("gearsCmdable", "GearsCmdable");
    let base_commands = exported(GO_CMDABLE);
    let base_gears = exported(GO_GEARS);
    let base = [
        go_mod,
        ("commands.go", base_commands.as_str()),
        ("gears.go", base_gears.as_str()),
    ];
    let rename = |text: &str| text.replace("GearsCmdable", "TriggersCmdable");
    let head_commands = rename(&base_commands);
    let head_gears = rename(&base_gears);
    let gone = api_after(
        &base,
        &[("commands.go", &head_commands), ("gears.go", &head_gears)],
    );
    assert_fails(&gone, &["`GearsCmdable` removed"]);
    // `type GearsCmdable = TriggersCmdable`: the old name is the same interface.
    let kept = format!("{head_gears}\ntype GearsCmdable = TriggersCmdable\n");
    let aliased = api_after(
        &base,
        &[("commands.go", &head_commands), ("gears.go", &kept)],
    );
    assert_clears(&aliased);
}

#[test]
fn rust_a_name_a_promised_path_re_exports_from_a_withdrawn_module_is_api() {
    // `pub use raw::parse;` at the root: users reach `parse` through the promised root,
    // whatever `raw`'s own docs say; `raw`'s other items stay outside the promise.
    let base = crate_with_unpromised_modules(true);
    let mut base: Vec<(String, String)> = base;
    base[1].1.push_str("pub use raw::parse;\n");
    let base: Vec<(&str, &str)> = base.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let raw = base[5].1.replace("input: &str", "input: &[u8]");
    let axis = api_after(&base, &[("src/raw.rs", &raw), ("src/raw/nested.rs", "")]);
    assert_fails(&axis, &["`parse`"]);
    assert!(!axis.detail.contains("deep"), "{}", axis.detail);
}

// A crate moved from the 2015 edition (no `edition` in Cargo.toml) to 2018 respells its own
// paths `::inner::Mode` → `crate::inner::Mode`, and its root module's `self::Level`: the same
// items. On a later edition `::inner` is the external crate `inner`, another item.
#[test]
fn rust_paths_from_the_crate_root_are_one_item_across_editions() {
    let lib = |root: &str, own: &str| {
        format!(
            "pub struct Level;\npub mod inner {{\n    pub struct Mode;\n}}\npub struct Encoder;\n\
             impl Encoder {{\n    pub fn new(level: {root}Level, mode: {root}inner::Mode) -> Encoder {{ Encoder }}\n    \
             pub fn set(&self, level: {own}Level) {{}}\n}}\n"
        )
    };
    let edition_2015 = "[package]\nname = \"lib\"\nversion = \"1.4.0\"\n";
    let edition_2018 = format!("{edition_2015}edition = \"2018\"\n");
    let base = lib("::", "self::");
    let axis = api_after(
        &[("Cargo.toml", edition_2015), ("src/lib.rs", &base)],
        &[
            ("Cargo.toml", &edition_2018),
            ("src/lib.rs", &lib("crate::", "crate::")),
        ],
    );
    assert_clears(&axis);
    // Both sides on 2018: `::inner::Mode` named the external crate's type.
    let base = lib("::", "crate::").replace("level: ::Level", "level: crate::Level");
    let axis = api_after(
        &[("Cargo.toml", &edition_2018), ("src/lib.rs", &base)],
        &[("src/lib.rs", &lib("crate::", "crate::"))],
    );
    assert_fails(&axis, &["Encoder::new"]);
}

// quick-xml #385: a break of one member of a type (here a variant's positional payload,
// `Event::CData::0`) leaves unable to compile only the code that names that member. A field
// index is no name a caller writes (it destructures `CData(e)`), so the member a caller must
// name is the variant: a file using the type's other variants, with a `0` anywhere in it, is
// no caller. A file naming the changed variant still fails.
#[test]
fn a_changed_member_is_stale_only_in_files_naming_that_member() {
    let events = "pub enum Event {\n    Start(String),\n    CData(Vec<u8>),\n}\n";
    let base = [
        ("Cargo.toml", CARGO),
        (
            "src/lib.rs",
            "pub mod events;\npub mod reader;\npub mod writer;\n",
        ),
        ("src/events.rs", events),
        (
            "src/reader.rs",
            "use crate::events::Event;\n\npub fn start() -> Event {\n    Event::Start(String::with_capacity(0))\n}\n",
        ),
        (
            "src/writer.rs",
            "use crate::events::Event;\n\npub fn size(e: &Event) -> usize {\n    match e {\n        Event::CData(b) => b.len(),\n        _ => 0,\n    }\n}\n",
        ),
    ];
    let bumped = ("Cargo.toml", CARGO.replace("1.4.0", "2.0.0"));
    for changed in [
        events.replace("CData(Vec<u8>)", "CData(String)"),
        events.replace("CData(Vec<u8>)", "CData(String, usize)"),
    ] {
        let axis = api_after(&base, &[("src/events.rs", &changed), (bumped.0, &bumped.1)]);
        assert_fails(&axis, &["callers not updated: src/writer.rs"]);
        assert!(!axis.detail.contains("src/reader.rs"), "{}", axis.detail);
    }
}

// nats.go's `JetStream`, `KeyValue`, `KeyValueStatus`: interfaces the package hands out (its
// functions return them) and no exported function, method or field takes from users. A
// method added to one breaks only an implementation written outside the package (a test
// double), which the API never asked for: it warns, it does not gate. Once anything exported
// takes the interface (at the base or the head), users implement it and the addition fails.
#[test]
fn go_a_method_added_to_an_interface_the_api_only_hands_out_warns() {
    let go_mod = ("go.mod", "module example.com/nats\n\ngo 1.22\n");
    let js = "package nats\n\ntype JetStream interface {\n\tPing() error\n}\n\ntype js struct{}\n\nfunc (js) Ping() error { return nil }\n\nfunc New() (JetStream, error) {\n\treturn js{}, nil\n}\n";
    let grown = js.replace("\tPing() error\n}", "\tPing() error\n\tPause() error\n}");
    let axis = api_after(&[go_mod, ("js.go", js)], &[("js.go", &grown)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("`JetStream.Pause`"), "{}", axis.detail);
    assert!(axis.detail.contains("only hands out"), "{}", axis.detail);

    // Taken by an exported function, or a field users set: users implement it.
    let taker = (
        "use.go",
        "package nats\n\nfunc Use(stream JetStream) error {\n\treturn stream.Ping()\n}\n",
    );
    let axis = api_after(&[go_mod, ("js.go", js), taker], &[("js.go", &grown)]);
    assert_fails(&axis, &["`JetStream.Pause`"]);
    let field = (
        "opts.go",
        "package nats\n\ntype Options struct {\n\tStream JetStream\n}\n",
    );
    let axis = api_after(&[go_mod, ("js.go", js), field], &[("js.go", &grown)]);
    assert_fails(&axis, &["`JetStream.Pause`"]);
    // The change that adds the method also drops the function taking it: users had it.
    let axis = api_after(
        &[go_mod, ("js.go", js), taker],
        &[("js.go", &grown), ("use.go", "package nats\n")],
    );
    assert_fails(&axis, &["`JetStream.Pause`"]);
}

// fsspec #1553 removed the root's `versioneer.py`, which its `setup.py` imported to compute
// the version and never installed: setuptools installs the `packages` and `py_modules` it is
// given, and a module beside the manifest that no `py_modules` names stays in the source
// tree. A root module it names is installed, and its removal still fails.
#[test]
fn a_root_module_setuptools_is_not_given_is_not_installed() {
    let setup = |modules: &str| {
        format!(
            "from setuptools import setup\nimport helper\n\nsetup(name='pkg', version='1.4.0', \
             packages=['pkg'],{modules} cmdclass=helper.commands())\n"
        )
    };
    let helper = "def commands():\n    return {}\n\n\ndef get_version():\n    return '1.4.0'\n";
    for (modules, fails) in [("", false), (" py_modules=['helper'],", true)] {
        let setup = setup(modules);
        let base = [
            ("setup.py", setup.as_str()),
            ("pkg/__init__.py", "def run():\n    return 1\n"),
            ("helper.py", helper),
        ];
        let axis = api_after(&base, &[("helper.py", "def commands():\n    return {}\n")]);
        if fails {
            assert_fails(&axis, &["`get_version` removed"]);
        } else {
            assert_clears(&axis);
            assert!(!axis.detail.contains("get_version"), "{}", axis.detail);
        }
    }
}

// A .NET repository's build script is an F# program (`build/build.fsproj`, `<OutputType>Exe`)
// that no parser reads: nothing references a program's types, so a change to it leaves the
// axis as it was instead of holding every review as unchecked. A library's F# file still
// cannot be cleared unread.
#[test]
fn a_dotnet_programs_sources_carry_no_api() {
    let exe = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n  </PropertyGroup>\n</Project>\n";
    let library = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n";
    let program = api_after(
        &[
            ("build/build.fsproj", exe),
            ("build/build.fs", "module Build\nlet target = \"test\"\n"),
        ],
        &[("build/build.fs", "module Build\nlet target = \"pack\"\n")],
    );
    assert_clears(&program);
    assert!(
        !program.detail.contains("build/build.fs"),
        "{}",
        program.detail
    );
    let library_file = api_after(
        &[
            ("src/Lib.fsproj", library),
            ("src/Lib.fs", "module Lib\nlet add a b = a + b\n"),
        ],
        &[("src/Lib.fs", "module Lib\nlet add a = a\n")],
    );
    assert!(
        !library_file.verdict.clears_gate(),
        "{}",
        library_file.detail
    );
    assert!(
        library_file.detail.contains("src/Lib.fs"),
        "{}",
        library_file.detail
    );
}

// tower #311: `tower-service` moved to `std::future` with a breaking bump (0.2.0 →
// 0.3.0-alpha.1) while the crates beside it still took `tower-service = "0.2.0"` from
// crates.io. They build against that release, not the changed sources: no caller was left
// broken. A crate taking it by path still is one.
#[test]
fn a_crate_that_takes_the_package_from_a_registry_is_no_caller_left_broken() {
    let service = |version: &str, body: &str| {
        (
            format!("[package]\nname = \"service\"\nversion = \"{version}\"\nedition = \"2021\"\n"),
            body.to_string(),
        )
    };
    let (old_manifest, old_lib) = service("0.2.0", "pub fn poll_ready() -> bool {\n    true\n}\n");
    let (new_manifest, new_lib) = service(
        "0.3.0-alpha.1",
        "pub fn poll_ready(cx: usize) -> bool {\n    cx > 0\n}\n",
    );
    let run = |dependency: &str| {
        let buffer = format!(
            "[package]\nname = \"buffer\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nservice = {dependency}\n"
        );
        api_after(
            &[
                (
                    "Cargo.toml",
                    "[workspace]\nmembers = [\"service\", \"buffer\"]\n",
                ),
                ("service/Cargo.toml", &old_manifest),
                ("service/src/lib.rs", &old_lib),
                ("buffer/Cargo.toml", &buffer),
                (
                    "buffer/src/lib.rs",
                    "pub fn ready() -> bool {\n    service::poll_ready()\n}\n",
                ),
            ],
            &[
                ("service/Cargo.toml", &new_manifest),
                ("service/src/lib.rs", &new_lib),
            ],
        )
    };
    let registry = run("\"0.2.0\"");
    assert_eq!(registry.verdict, AxisVerdict::Warn, "{}", registry.detail);
    assert!(
        !registry.detail.contains("callers not updated"),
        "{}",
        registry.detail
    );
    let by_path = run("{ version = \"0.3.0-alpha.1\", path = \"../service\" }");
    assert_fails(&by_path, &["callers not updated: buffer/src/lib.rs"]);
}
