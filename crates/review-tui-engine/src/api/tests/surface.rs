//! Extract and compare, on snippets from merged pull requests of real projects (each a false
//! stop once) and on the breaks that must still fail.

use std::collections::BTreeMap;

use crate::api::compare::{ApiChange, Severity, Types, compare};
use crate::api::extract;
use crate::parse::grammar::Grammar;

/// Every change between `base` and `head`, aliases resolved from both files as the axis does.
pub(super) fn changes(grammar: Grammar, base: &str, head: &str) -> Vec<ApiChange> {
    let everything = |_: &str| true;
    let base = extract(grammar, base.as_bytes(), &everything).unwrap();
    let head = extract(grammar, head.as_bytes(), &everything).unwrap();
    let base_types = base.clone();
    let mut aliases: BTreeMap<String, String> = base.aliases.clone();
    aliases.extend(head.aliases.clone());
    let mut underlying: BTreeMap<String, String> = base.underlying.clone();
    underlying.extend(head.underlying.clone());
    let alias = move |name: &str| aliases.get(name).cloned();
    let underlying = move |name: &str| underlying.get(name).cloned();
    let types = Types {
        structural: matches!(
            grammar,
            Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx
        ),
        erased: grammar == Grammar::Java,
        alias: &alias,
        underlying: &underlying,
        inherits: &|_, _| None,
        declared: &|_| None,
        generic_at_base: &|name| generic_at_base(&base_types, name),
    };
    compare(&base, &head, &types)
}

/// Whether the type `name` (a key's last segments) declared type parameters in `base`, as the
/// axis reads it from the base's files.
fn generic_at_base(base: &crate::api::Surface, name: &str) -> Option<bool> {
    base.items
        .iter()
        .find(|(key, item)| {
            matches!(
                item.kind,
                "class" | "interface" | "enum" | "record" | "annotation"
            ) && (*key == name || key.ends_with(&format!(".{name}")))
        })
        .map(|(_, item)| !item.generics.is_empty())
}

pub(super) fn severity(changes: &[ApiChange], key: &str) -> Option<Severity> {
    changes.iter().find(|c| c.key == key).map(|c| c.severity)
}

pub(super) fn no_break(changes: &[ApiChange]) {
    assert!(
        changes.iter().all(|c| c.severity != Severity::Incompatible),
        "{changes:#?}"
    );
}

// flask, "Merge branch '3.0.x'": a `# type: ignore` between parameters is a comment.
#[test]
fn python_comment_inside_a_signature_is_not_a_parameter() {
    let base = "class Blueprint(Scaffold):\n    def __init__(\n        self,\n        name: str,\n        url_defaults: dict | None = None,\n        root_path: str | None = None,\n        cli_group: str | None = _sentinel,  # type: ignore\n    ):\n        pass\n\n\nclass DispatchingJinjaLoader(BaseLoader):\n    def get_source(  # type: ignore\n        self, environment: Environment, template: str\n    ) -> tuple[str, str | None, t.Callable | None]:\n        pass\n";
    let head = "class Blueprint(Scaffold):\n    def __init__(\n        self,\n        name: str,\n        url_defaults: dict[str, t.Any] | None = None,\n        root_path: str | None = None,\n        cli_group: str | None = _sentinel,  # type: ignore[assignment]\n    ):\n        pass\n\n\nclass DispatchingJinjaLoader(BaseLoader):\n    def get_source(\n        self, environment: BaseEnvironment, template: str\n    ) -> tuple[str, str | None, t.Callable[[], bool] | None]:\n        pass\n";
    assert_eq!(changes(Grammar::Python, base, head), vec![]);
}

// jinja 3.1.5: `async def auto_aiter(…) -> AsyncIterator[V]` that yields became a plain `def`
// returning an async iterator. Callers `async for` over the call either way; a coroutine
// (`async def` without `yield`) is awaited, and a plain `def` cannot be.
#[test]
fn python_an_async_generator_is_called_as_a_def_returning_an_async_iterator() {
    let base = "async def auto_aiter(iterable: \"t.Iterable[V]\") -> \"t.AsyncIterator[V]\":\n    for item in iterable:\n        yield item\n\n\
        async def auto_await(value):\n    def inner():\n        yield value\n    return await value\n";
    let head = "def auto_aiter(iterable: \"t.Iterable[V]\") -> \"t.AsyncIterator[V]\":\n    return _IteratorToAsyncIterator(iter(iterable))\n\n\
        def auto_await(value):\n    return value\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(severity(&found, "auto_aiter"), None, "{found:#?}");
    // `auto_await` only yields in a function of its own: a coroutine, now a plain function.
    assert_eq!(
        severity(&found, "auto_await"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// flask #4998: `@locked_cached_property` → `@cached_property`; #4722: a class attribute now a
// property with a deprecation warning.
#[test]
fn python_property_descriptors_and_attributes_read_alike() {
    let base = "class Flask:\n    send_file_max_age_default = None\n\n    @locked_cached_property\n    def jinja_env(self) -> Environment:\n        return self.create_jinja_environment()\n";
    let head = "class Flask:\n    @property\n    def send_file_max_age_default(self):\n        warnings.warn('deprecated')\n        return self.config['SEND_FILE_MAX_AGE_DEFAULT']\n\n    @cached_property\n    def jinja_env(self) -> Environment:\n        return self.create_jinja_environment()\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(severity(&found, "Flask.jinja_env"), None, "{found:#?}");
    assert_eq!(
        severity(&found, "Flask.send_file_max_age_default"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    // A method callers call, now a property they cannot call: a break.
    let method = "class Flask:\n    def logger(self):\n        return self._logger\n";
    let property =
        "class Flask:\n    @property\n    def logger(self):\n        return self._logger\n";
    let found = changes(Grammar::Python, method, property);
    assert_eq!(
        severity(&found, "Flask.logger"),
        Some(Severity::Incompatible)
    );
}

#[test]
fn python_removals_and_required_parameters_still_break() {
    let base = "def dump(obj, fp, app=None, **kwargs):\n    pass\n\n\ndef explain_ignored_app_run():\n    pass\n";
    let head = "def dump(obj, fp, *, indent, **kwargs):\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&found, "explain_ignored_app_run"),
        Some(Severity::Incompatible)
    );
    assert_eq!(severity(&found, "dump"), Some(Severity::Incompatible));
}

// anyio #135 rewrote its pytest plugin: `pytest_addoption` and `pytest_generate_tests` went.
// pytest calls hooks by name; users never do. A plain function of the plugin still counts.
#[test]
fn python_a_pytest_plugins_hooks_are_pytests_not_the_api() {
    let base = "def pytest_addoption(parser):\n    pass\n\n\ndef pytest_generate_tests(metafunc):\n    pass\n\n\ndef get_all_backends():\n    pass\n";
    let head = "def pytest_configure(config):\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(severity(&found, "pytest_addoption"), None, "{found:#?}");
    assert_eq!(
        severity(&found, "pytest_generate_tests"),
        None,
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "get_all_backends"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// click 8.4.1..8.4.2 (a patch release): a class defined apart for type checkers, under
// `if t.TYPE_CHECKING:`, and type variables renamed.
#[test]
fn python_type_checking_branches_and_type_variables_are_not_the_runtime_api() {
    let base = "import typing as t\n\nParamTypeValue = t.TypeVar(\"ParamTypeValue\")\n\n\nclass ChoiceInfoDict(ParamTypeInfoDict):\n    choices: cabc.Sequence[t.Any]\n\n\ndef choose(value):\n    pass\n";
    let head = "import typing as t\n\n_ValueT_co = t.TypeVar(\"_ValueT_co\", covariant=True)\n\nif t.TYPE_CHECKING:\n\n    class ChoiceInfoDict(ParamTypeInfoDict, t.Generic[_ValueT_co]):\n        choices: tuple[_ValueT_co, ...]\n\n    def only_for_checkers(): ...\nelse:\n\n    class ChoiceInfoDict(ParamTypeInfoDict):\n        choices: tuple[t.Any, ...]\n\n\ndef choose(value):\n    pass\n";
    assert_eq!(changes(Grammar::Python, base, head), vec![]);
    // The runtime class removed from the `else` branch is removed.
    let removed = head.replace("else:\n\n    class ChoiceInfoDict(ParamTypeInfoDict):\n        choices: tuple[t.Any, ...]\n", "");
    let found = changes(Grammar::Python, base, &removed);
    assert_eq!(
        severity(&found, "ChoiceInfoDict"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// griffe's breaking-change cases: a parameter folded into `*args` still takes positional
// calls, but a call by name binds only where `**kwargs` or a keyword of that name takes it.
#[test]
fn python_a_parameter_folded_into_args_breaks_calls_by_name() {
    for (base, head, breaks) in [
        ("def a(x):\n    pass\n", "def a(*x):\n    pass\n", true),
        ("def a(*, x):\n    pass\n", "def a(*x):\n    pass\n", true),
        ("def a(x, /):\n    pass\n", "def a(*x):\n    pass\n", false),
        (
            "def a(x):\n    pass\n",
            "def a(*x, **y):\n    pass\n",
            false,
        ),
        (
            "def a(x):\n    pass\n",
            "def a(*args, x=None):\n    pass\n",
            false,
        ),
    ] {
        let found = changes(Grammar::Python, base, head);
        let severity = severity(&found, "a");
        assert_eq!(
            severity == Some(Severity::Incompatible),
            breaks,
            "{base} -> {head}: {found:#?}"
        );
    }
}

// axios #6371: a default export now computed by an expression; axios #5108 and #4742: a call
// signature whose parameter type is written differently, a `this` parameter declared.
#[test]
fn typescript_default_expressions_and_call_signatures_are_undecided() {
    let base = "export default async (config) => {\n  return fetch(config);\n};\n\nexport interface CustomParamsSerializer {\n  (params: object, options?: ParamsSerializerOptions): string;\n}\n\nexport interface SerializerVisitor {\n  (value: any, key: string | number): boolean;\n}\n";
    let head = "export default isFetchSupported && (async (config) => {\n  return fetch(config);\n});\n\nexport interface CustomParamsSerializer {\n  (params: Record<string, any>, options?: ParamsSerializerOptions): string;\n}\n\nexport interface SerializerVisitor {\n  (this: GenericFormData, value: any, key: string | number): boolean;\n}\n";
    let found = changes(Grammar::TypeScript, base, head);
    no_break(&found);
    for key in [
        "default",
        "CustomParamsSerializer.()",
        "SerializerVisitor.()",
    ] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Undecided),
            "{key}: {found:#?}"
        );
    }
    // A default export that is gone is still removed.
    let gone = changes(Grammar::TypeScript, base, "export const other = 1;\n");
    assert_eq!(severity(&gone, "default"), Some(Severity::Incompatible));
}

// ky #834, #774, #720; zod #5929: types written differently in a structural language.
#[test]
fn typescript_type_text_changes_are_undecided_not_breaks() {
    let base = "export type BeforeRequestState = {\n\trequest: Request;\n\tretryCount: number;\n};\n\nexport type BeforeRetryHook = (options: BeforeRetryState) => typeof stop | void | Promise<typeof stop | void>;\n\nexport type ResponsePromise<T = unknown> = {\n\tjson: <J = T>() => Promise<J>;\n} & Promise<KyResponse<T>>;\n\nexport function preprocess<A, U extends core.SomeType, B = unknown>(fn: (arg: B, ctx: core.$RefinementCtx) => A, schema: U): ZodPipe<ZodTransform<A, B>, U> {\n  return pipe(transform(fn as any), schema as any) as any;\n}\n";
    let head = "export type BeforeRequestState = {\n\trequest: Request;\n\t/** Always `0`. */\n\tretryCount: 0;\n};\n\nexport type BeforeRetryHook = (options: BeforeRetryState) => Request | Response | typeof stop | void | Promise<Request | Response | typeof stop | void>;\n\nexport type ResponsePromise<T = unknown> = {\n\tbytes: () => Promise<Uint8Array>;\n\tjson: <J = T>() => Promise<J | undefined>;\n} & Promise<KyResponse<T>>;\n\nexport function preprocess<A, U extends core.SomeType, B = unknown>(fn: (arg: B, ctx: core.$RefinementCtx) => A, schema: U): ZodPipe<ZodTransform<A, B>, U> & { _zod: { optin: U['_zod']['optin'] } } {\n  return pipe(transform(fn as any), schema as any) as any;\n}\n";
    let found = changes(Grammar::TypeScript, base, head);
    no_break(&found);
    for key in [
        "BeforeRequestState.retryCount",
        "BeforeRetryHook",
        "ResponsePromise",
        "preprocess",
    ] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Undecided),
            "{key}: {found:#?}"
        );
    }
}

#[test]
fn typescript_proven_breaks_still_fail() {
    let base = "export type Progress = {\n\tpercent: number;\n\ttotal: number;\n};\n\nexport function start(a: number, b: string): void {}\n\nexport function stop(): void {}\n";
    let head = "export type Progress = {\n\tpercent: string;\n};\n\nexport function start(a: string, b: string): void {}\n";
    let found = changes(Grammar::TypeScript, base, head);
    // A removed export, a removed property, a primitive changed to another primitive.
    assert_eq!(severity(&found, "stop"), Some(Severity::Incompatible));
    assert_eq!(
        severity(&found, "Progress.total"),
        Some(Severity::Incompatible)
    );
    assert_eq!(
        severity(&found, "Progress.percent"),
        Some(Severity::Incompatible)
    );
    assert_eq!(severity(&found, "start"), Some(Severity::Incompatible));
}

// A TypeScript accessor is read and assigned as a property: `get size()` turned into a method
// `size()` (or back) changes every use, though the declarations print alike; a getter with
// its setter is the field it replaces, and a getter alone is a read-only one.
#[test]
fn typescript_accessors_are_properties_to_their_callers() {
    let getter = "export class Box {\n  get size(): number { return 1; }\n}\n";
    let method = "export class Box {\n  size(): number { return 1; }\n}\n";
    let field = "export class Box {\n  size: number = 1;\n}\n";
    let pair =
        "export class Box {\n  get size(): number { return 1; }\n  set size(v: number) {}\n}\n";
    let readonly = "export class Box {\n  readonly size: number = 1;\n}\n";
    for (base, head) in [(getter, method), (method, getter), (pair, method)] {
        let found = changes(Grammar::TypeScript, base, head);
        assert_eq!(
            severity(&found, "Box.size"),
            Some(Severity::Incompatible),
            "{base} -> {head}: {found:#?}"
        );
    }
    for (base, head) in [
        (field, pair),
        (pair, field),
        (readonly, getter),
        (getter, readonly),
    ] {
        let found = changes(Grammar::TypeScript, base, head);
        assert_eq!(
            severity(&found, "Box.size"),
            None,
            "{base} -> {head}: {found:#?}"
        );
    }
    // The setter removed, or a field made read-only: assignments no longer compile.
    let found = changes(Grammar::TypeScript, field, readonly);
    assert_eq!(
        severity(&found, "Box.size"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    let found = changes(Grammar::TypeScript, readonly, field);
    assert_eq!(
        severity(&found, "Box.size"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    let found = changes(Grammar::TypeScript, pair, getter);
    assert_eq!(
        severity(&found, "Box.size"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
}

// hono #1796: `match(method, path): Result<T>` became `match: typeof match<Router<T>, T>`, a
// property holding a function: `router.match(m, p)` still compiles when the function takes
// the same arguments, which its type (not resolved here) says. A property of another type,
// or a method now a plain value, is still a break.
#[test]
fn typescript_a_method_now_a_property_holding_a_function_is_undecided() {
    let method =
        "export class Router {\n  match(method: string, path: string): Result { return r; }\n}\n";
    for property in [
        "export class Router {\n  match: typeof match<Router>;\n}\n",
        "export class Router {\n  match: (method: string, path: string) => Result;\n}\n",
    ] {
        let found = changes(Grammar::TypeScript, method, property);
        assert_eq!(
            severity(&found, "Router.match"),
            Some(Severity::Undecided),
            "{found:#?}"
        );
    }
    let value = "export class Router {\n  match: Result;\n}\n";
    let found = changes(Grammar::TypeScript, method, value);
    assert_eq!(
        severity(&found, "Router.match"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// hono #2999: `export const upgradeWebSocket: UpgradeWebSocket = (createEvents) => …` gained an
// `options` parameter while its written type stayed the contract: the compiler checks the
// arrow against the type, and callers call the type. Without a written type the arrow's own
// parameters are the contract, and a required one added still breaks.
#[test]
fn typescript_a_constants_written_type_is_its_contract_not_its_initialiser() {
    let base = "export const upgrade: Upgrade = (events) => handler(events);\n";
    let head = "export const upgrade: Upgrade = (events, options) => handler(events, options);\n";
    no_break(&changes(Grammar::TypeScript, base, head));
    let base = "export const upgrade = (events: Events) => handler(events);\n";
    let head =
        "export const upgrade = (events: Events, options: Options) => handler(events, options);\n";
    let found = changes(Grammar::TypeScript, base, head);
    assert_eq!(
        severity(&found, "upgrade"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// cobra #2231: `[]string` → `[]Completion` where `type Completion = string` (an alias);
// cobra v1.9.1..v1.10.0: a defined type over a renamed type of another package.
#[test]
fn go_aliases_are_resolved_and_foreign_renames_are_undecided() {
    let base = "package cobra\n\nfunc AppendActiveHelp(compArray []string, activeHelpStr string) []string {\n\treturn append(compArray, activeHelpStr)\n}\n\ntype FParseErrWhitelist flag.ParseErrorsWhitelist\n";
    let head = "package cobra\n\n// Completion is a string that can be used for completions.\ntype Completion = string\n\nfunc AppendActiveHelp(compArray []Completion, activeHelpStr string) []Completion {\n\treturn append(compArray, activeHelpStr)\n}\n\ntype FParseErrWhitelist flag.ParseErrorsAllowlist\n";
    let found = changes(Grammar::Go, base, head);
    assert_eq!(severity(&found, "AppendActiveHelp"), None, "{found:#?}");
    assert_eq!(
        severity(&found, "FParseErrWhitelist"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
}

#[test]
fn go_nominal_changes_still_break() {
    let base = "package cobra\n\nfunc AppendActiveHelp(compArray []string, activeHelpStr string) []string {\n\treturn nil\n}\n\nfunc Remove() {}\n";
    // A defined type (not an alias) is a new type; an alias to another type changes the type.
    for head in [
        "package cobra\n\ntype Completion string\n\nfunc AppendActiveHelp(compArray []Completion, activeHelpStr string) []string {\n\treturn nil\n}\n",
        "package cobra\n\ntype Completion = int\n\nfunc AppendActiveHelp(compArray []Completion, activeHelpStr string) []string {\n\treturn nil\n}\n",
        "package cobra\n\nfunc AppendActiveHelp(compArray []string, activeHelpStr int) []string {\n\treturn nil\n}\n",
    ] {
        let found = changes(Grammar::Go, base, head);
        assert_eq!(
            severity(&found, "AppendActiveHelp"),
            Some(Severity::Incompatible),
            "{head}: {found:#?}"
        );
        assert_eq!(severity(&found, "Remove"), Some(Severity::Incompatible));
    }
}

#[test]
fn rust_changed_primitive_and_aliased_types() {
    let base = "pub fn read(n: u8) -> u8 {\n    n\n}\n\npub fn name(s: String) {}\n";
    let head = "pub type Text = String;\n\npub fn read(n: u16) -> u8 {\n    0\n}\n\npub fn name(s: Text) {}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(severity(&found, "read"), Some(Severity::Incompatible));
    assert_eq!(severity(&found, "name"), None, "{found:#?}");
}

// cargo-semver-checks test crates: each a compatible pair this axis once failed, with the
// break of the same shape that must still fail beside it.

// counterexample_for_ignoring_doc_hidden_items, pub_api_sealed_trait_became_unsealed,
// struct_field_marked_deprecated: a `#[doc(hidden)]` item is still there for its users.
#[test]
fn rust_hiding_or_unhiding_an_item_is_not_a_removal_or_an_addition() {
    let base = "pub enum Example {\n    Regular,\n    #[doc(hidden)]\n    Sneaky,\n}\n\npub trait Sealed {\n    #[doc(hidden)]\n    type Hidden;\n}\n\npub struct S {\n    pub a: i32,\n    pub b: i32,\n}\n";
    let head = "pub enum Example {\n    Regular,\n    Sneaky,\n}\n\npub trait Sealed {\n    type Hidden;\n}\n\npub struct S {\n    #[doc(hidden)]\n    pub a: i32,\n    pub b: i32,\n}\n";
    let found = changes(Grammar::Rust, base, head);
    no_break(&found);
    assert_eq!(
        severity(&found, "Example::Sneaky"),
        Some(Severity::Compatible)
    );
    assert_eq!(severity(&found, "S::a"), Some(Severity::Compatible));
    // A variant that was not there at all still breaks exhaustive matches, and a member
    // implementations must now provide still breaks them.
    let base = "pub enum Example {\n    Regular,\n}\n\npub trait Sealed {}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(
        severity(&found, "Example::Sneaky"),
        Some(Severity::Incompatible)
    );
    assert_eq!(
        severity(&found, "Sealed::Hidden"),
        Some(Severity::Incompatible)
    );
}

// regex #196 (regex-syntax 0.3): `ErrorKind` ends in `#[doc(hidden)] __Nonexhaustive`, the
// idiom before `#[non_exhaustive]`; a variant added to it broke no one.
#[test]
fn rust_a_variant_added_beside_a_hidden_variant_is_compatible() {
    let base =
        "pub enum ErrorKind {\n    EmptyClass,\n    #[doc(hidden)]\n    __Nonexhaustive,\n}\n";
    let head = "pub enum ErrorKind {\n    EmptyClass,\n    InvalidUtf8,\n    #[doc(hidden)]\n    __Nonexhaustive,\n}\n";
    let found = changes(Grammar::Rust, base, head);
    no_break(&found);
    assert_eq!(
        severity(&found, "ErrorKind::InvalidUtf8"),
        Some(Severity::Compatible)
    );
    // Without the hidden variant the addition still breaks exhaustive matches, and a hidden
    // variant of another enum changes nothing.
    let strip = |s: &str| s.replace("    #[doc(hidden)]\n    __Nonexhaustive,\n", "");
    let other = "pub enum Other {\n    A,\n    #[doc(hidden)]\n    __Hidden,\n}\n";
    let found = changes(
        Grammar::Rust,
        &format!("{}{other}", strip(base)),
        &format!("{}{other}", strip(head)),
    );
    assert_eq!(
        severity(&found, "ErrorKind::InvalidUtf8"),
        Some(Severity::Incompatible)
    );
}

// cfg_conditional_compilation: `--cfg custom` is an opt-in only RUSTFLAGS sets.
#[test]
fn rust_items_behind_opt_in_cfg_flags_are_not_the_stable_surface() {
    let base = "#[cfg(custom)]\npub struct Example;\n\n#[cfg(any(unix, custom))]\npub fn either() {}\n\n#[cfg(feature = \"b\")]\npub fn behind_b() {}\n\npub enum Data {\n    Int(u8),\n}\n";
    let head = "pub enum Data {\n    Int(u8),\n    #[cfg(all(unix, custom))]\n    Bool(bool),\n}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(severity(&found, "Example"), None, "{found:#?}");
    assert_eq!(severity(&found, "Data::Bool"), None, "{found:#?}");
    // A Cargo feature or a target is a build users choose: what it had is API.
    assert_eq!(severity(&found, "behind_b"), Some(Severity::Incompatible));
    assert_eq!(severity(&found, "either"), Some(Severity::Incompatible));
}

// clap_complete: `CompletionCandidate` behind `#[cfg(feature = "unstable-dynamic")]`. Features
// named as unstable opt-ins (cargo-semver-checks leaves them out too) are not the stable
// surface; `not(…)` of one and any other feature are.
#[test]
fn rust_items_behind_unstable_named_features_are_not_the_stable_surface() {
    let base = "#[cfg(feature = \"unstable-dynamic\")]\npub fn dynamic() {}\n\n\
        #[cfg(all(feature = \"std\", feature = \"nightly\"))]\npub fn nightly() {}\n\n\
        #[cfg(feature = \"__private\")]\npub fn private() {}\n\n\
        #[cfg(not(feature = \"unstable\"))]\npub fn stable_variant() {}\n\n\
        #[cfg(feature = \"unstable_dynamic_docs_extra\")]\npub fn snake() {}\n\n\
        #[cfg(feature = \"stable-unstable\")]\npub fn named_so() {}\n\n\
        #[cfg(feature = \"no_std\")]\npub fn core_only() {}\n";
    let found = changes(Grammar::Rust, base, "");
    for opt_in in ["dynamic", "nightly", "private", "snake"] {
        assert_eq!(severity(&found, opt_in), None, "{opt_in}: {found:#?}");
    }
    for stable in ["stable_variant", "named_so", "core_only"] {
        assert_eq!(
            severity(&found, stable),
            Some(Severity::Incompatible),
            "{stable}"
        );
    }
}

// crossbeam-epoch 0.9.16: `Atomic::null` was a `const fn` under `all(not(crossbeam_no_const_fn_trait_bound),
// not(crossbeam_loom))` and a plain `fn` under the negation of that; then `const fn` under
// `not(crossbeam_loom)` and `fn` under `crossbeam_loom`. Flags only a build script or RUSTFLAGS
// set are off in users' builds, so users always had, and have, the `const fn`: nothing
// changed for them. The variant users build losing `const` is still a change, and variants a
// feature chooses are both kept.
#[test]
fn rust_cfg_variants_compare_per_build_users_make() {
    let atomic = |variants: &str| {
        format!("pub struct Atomic {{\n    data: usize,\n}}\n\nimpl Atomic {{\n{variants}}}\n")
    };
    let base = atomic(
        "    #[cfg(all(not(crossbeam_no_const_fn_trait_bound), not(crossbeam_loom)))]\n    pub const fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n\n    #[cfg(not(all(not(crossbeam_no_const_fn_trait_bound), not(crossbeam_loom))))]\n    pub fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n",
    );
    let head = atomic(
        "    #[cfg(not(crossbeam_loom))]\n    pub const fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n\n    #[cfg(crossbeam_loom)]\n    pub fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n",
    );
    let found = changes(Grammar::Rust, &base, &head);
    assert_eq!(found, vec![], "{found:#?}");
    let lost_const = atomic(
        "    #[cfg(not(crossbeam_loom))]\n    pub fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n\n    #[cfg(crossbeam_loom)]\n    pub fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n",
    );
    let found = changes(Grammar::Rust, &head, &lost_const);
    assert!(severity(&found, "Atomic::null").is_some(), "{found:#?}");
    let features = atomic(
        "    #[cfg(feature = \"std\")]\n    pub fn null(n: u8) -> Atomic {\n        Atomic { data: 0 }\n    }\n\n    #[cfg(not(feature = \"std\"))]\n    pub fn null() -> Atomic {\n        Atomic { data: 0 }\n    }\n",
    );
    let only_std = atomic(
        "    #[cfg(feature = \"std\")]\n    pub fn null(n: u8) -> Atomic {\n        Atomic { data: 0 }\n    }\n",
    );
    let found = changes(Grammar::Rust, &features, &only_std);
    assert_eq!(
        severity(&found, "Atomic::null"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// infinite_importable_paths: `nested::foo` is now `pub use`d into `nested` from elsewhere.
#[test]
fn rust_a_pub_use_inside_a_module_keeps_the_path() {
    let base = "pub mod nested {\n    pub fn foo() {}\n}\n";
    let head = "mod other {\n    pub fn foo() {}\n}\n\npub mod nested {\n    pub use crate::other::foo;\n}\n";
    let found = changes(Grammar::Rust, base, head);
    no_break(&found);
    // Re-exported at the root only, `nested::foo` is gone.
    let head = "mod other {\n    pub fn foo() {}\n}\n\npub use other::foo;\n\npub mod nested {}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(
        severity(&found, "nested::foo"),
        Some(Severity::Incompatible)
    );
}

// rayon #932: `par_sort_by_key<B, F>` became `<K, F>`. A type parameter's name is the item's
// own; type arguments bind by position, so only a reordering breaks.
#[test]
fn renamed_type_parameters_are_the_same_contract() {
    let base = "pub trait ParallelSliceMut<T: Send> {\n    fn par_sort_by_key<B, F>(&mut self, f: F)\n    where\n        B: Ord,\n        F: Fn(&T) -> B + Sync,\n    {\n    }\n}\n\npub fn pair<A, B>(a: A, b: B) -> (A, B) { (a, b) }\n";
    let head = "pub trait ParallelSliceMut<T: Send> {\n    fn par_sort_by_key<K, F>(&mut self, f: F)\n    where\n        K: Ord,\n        F: Fn(&T) -> K + Sync,\n    {\n    }\n}\n\npub fn pair<X, Y>(a: X, b: Y) -> (X, Y) { (a, b) }\n";
    no_break(&changes(Grammar::Rust, base, head));
    // The parameters swapped: `pair::<u8, String>` now means the other thing.
    let swapped = "pub fn pair<B, A>(a: A, b: B) -> (A, B) { (a, b) }\n";
    let found = changes(Grammar::Rust, base, swapped);
    assert_eq!(severity(&found, "pair"), Some(Severity::Incompatible));
    // A bound tightened under a new name is still a tightened bound.
    let tightened = base
        .replace("B: Ord,", "B: Ord + Copy,")
        .replace("<B, F>", "<K, F>")
        .replace("-> B +", "-> K +")
        .replace("B: Ord", "K: Ord");
    let found = changes(Grammar::Rust, base, &tightened);
    assert_eq!(
        severity(&found, "ParallelSliceMut::par_sort_by_key"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Go's square brackets and Java's angle brackets alike.
    let found = changes(
        Grammar::Go,
        "package lo\n\nfunc Keys[K comparable, V any](in map[K]V) []K { return nil }\n",
        "package lo\n\nfunc Keys[Key comparable, Value any](in map[Key]Value) []Key { return nil }\n",
    );
    no_break(&found);
    let found = changes(
        Grammar::Java,
        "public class Lists {\n  public static <E> List<E> copy(List<E> in) { return in; }\n}\n",
        "public class Lists {\n  public static <T> List<T> copy(List<T> in) { return in; }\n}\n",
    );
    assert!(
        found.iter().all(|c| c.severity != Severity::Incompatible),
        "{found:#?}"
    );
}

// indexmap #335: `MutableKeys::iter_mut2` added to a trait sealed by `private::Sealed`, which
// users cannot name, so no implementation outside the crate exists to break.
#[test]
fn a_member_added_to_a_sealed_trait_or_interface_breaks_no_implementation() {
    let base = "pub trait MutableKeys: private::Sealed {\n    fn get_full_mut2(&mut self);\n}\n\n\
        pub trait Open {\n    fn a(&self);\n}\n\n\
        pub trait ByName where Self: sealed::Sealed {\n    fn a(&self);\n}\n\n\
        mod private {\n    pub trait Sealed {}\n}\n";
    let head = base
        .replace(
            "fn get_full_mut2(&mut self);\n",
            "fn get_full_mut2(&mut self);\n    fn iter_mut2(&mut self);\n",
        )
        .replace("fn a(&self);\n}", "fn a(&self);\n    fn b(&self);\n}");
    let found = changes(Grammar::Rust, base, &head);
    for sealed in ["MutableKeys::iter_mut2", "ByName::b"] {
        assert_eq!(
            severity(&found, sealed),
            Some(Severity::Compatible),
            "{sealed}"
        );
    }
    assert_eq!(
        severity(&found, "Open::b"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Sealing a trait users implement breaks them.
    let sealed_now = "pub trait Open: private::Sealed {\n    fn a(&self);\n}\n\nmod private {\n    pub trait Sealed {}\n}\n";
    let found = changes(
        Grammar::Rust,
        "pub trait Open {\n    fn a(&self);\n}\n",
        sealed_now,
    );
    assert_eq!(severity(&found, "Open"), Some(Severity::Incompatible));
    // Go: an interface with an unexported method; Java: a `sealed` interface.
    let go = "package zap\n\ntype Encoder interface {\n\tEncode() error\n\tsealed()\n}\n\ntype Open interface {\n\tEncode() error\n}\n";
    let found = changes(
        Grammar::Go,
        go,
        &go.replace("Encode() error\n", "Encode() error\n\tFlush() error\n"),
    );
    assert_eq!(
        severity(&found, "Encoder.Flush"),
        Some(Severity::Compatible)
    );
    assert_eq!(severity(&found, "Open.Flush"), Some(Severity::Incompatible));
    let found = changes(
        Grammar::Go,
        "package zap\n\ntype Open interface {\n\tEncode() error\n}\n",
        "package zap\n\ntype Open interface {\n\tEncode() error\n\tsealed()\n}\n",
    );
    assert_eq!(severity(&found, "Open"), Some(Severity::Incompatible));
    let java = "public sealed interface Shape permits Circle {\n  double area();\n}\n";
    let found = changes(
        Grammar::Java,
        java,
        &java.replace("double area();", "double area();\n  double perimeter();"),
    );
    assert_eq!(
        severity(&found, "Shape.perimeter()"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
}

// indexmap 2.12.0: `RawEntryApiV1<K, V, S>: private::Sealed` became `: Sealed`, a private
// trait of the same file. The trait is sealed before and after; what seals it is no part of
// what users rely on. A private trait named otherwise seals as well; a public one does not.
#[test]
fn the_trait_that_seals_a_trait_can_change_without_breaking_anyone() {
    let base = "pub trait RawEntryApiV1<K, V, S>: private::Sealed {\n    fn raw_entry_v1(&self);\n}\n\n\
        mod private {\n    pub trait Sealed {}\n}\n";
    let head = "pub trait RawEntryApiV1<K, V, S>: Sealed {\n    fn raw_entry_v1(&self);\n}\n\n\
        trait Sealed {}\n";
    let found = changes(Grammar::Rust, base, head);
    no_break(&found);
    let private = head.replace("Sealed", "Internal");
    no_break(&changes(Grammar::Rust, base, &private));
    // Sealed by a private trait, then by nothing users cannot name: implementable now.
    let found = changes(
        Grammar::Rust,
        &private,
        "pub trait RawEntryApiV1<K, V, S>: Internal {\n    fn raw_entry_v1(&self);\n}\n\n\
        pub trait Internal {}\n",
    );
    no_break(&found);
    // A bound users rely on (they may call `Clone` on any implementor) still counts.
    let found = changes(
        Grammar::Rust,
        "pub trait Entry: Clone + private::Sealed {}\n\nmod private {\n    pub trait Sealed {}\n}\n",
        "pub trait Entry: private::Sealed {}\n\nmod private {\n    pub trait Sealed {}\n}\n",
    );
    assert_eq!(
        severity(&found, "Entry"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// chrono 0.4.43: `signed_duration_since(self, rhs: NaiveDate)` became `(self, rhs: Self)` in
// `impl NaiveDate`: the same type. In a trait, `Self` is every implementor, not one type.
#[test]
fn rust_self_in_an_inherent_impl_is_the_type_itself() {
    let base = "pub struct NaiveDate;\n\nimpl NaiveDate {\n    pub const fn signed_duration_since(self, rhs: NaiveDate) -> TimeDelta { todo!() }\n    pub fn pair(self) -> (NaiveDate, Option<NaiveDate>) { todo!() }\n    pub fn other(self, rhs: NaiveDate) -> MySelf { todo!() }\n}\n\npub struct Wrap<T>(T);\n\nimpl<T> Wrap<T> {\n    pub fn new(inner: T) -> Wrap<T> { todo!() }\n}\n";
    let head = base
        .replace("rhs: NaiveDate) -> TimeDelta", "rhs: Self) -> TimeDelta")
        .replace("(NaiveDate, Option<NaiveDate>)", "(Self, Option<Self>)")
        .replace("-> Wrap<T>", "-> Self");
    no_break(&changes(Grammar::Rust, base, &head));
    // The impl's parameter renamed, the method's type written either way.
    let renamed = head
        .replace("impl<T> Wrap<T>", "impl<U> Wrap<U>")
        .replace("inner: T", "inner: U");
    no_break(&changes(Grammar::Rust, base, &renamed));
    // A different type is still a change, and `MySelf` is not `Self`.
    let changed = base.replace("rhs: NaiveDate) -> MySelf", "rhs: Self) -> Self");
    let found = changes(Grammar::Rust, base, &changed);
    assert_eq!(
        severity(&found, "NaiveDate::other"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // An associated const's type too (clippy's `use_self` on rust-url's consts): the same
    // type, and another type written `Self`'s way is still a change.
    let consts = "pub struct Mask;\n\nimpl Mask {\n    pub const EMPTY: Mask = Mask;\n    pub const BITS: u32 = 0;\n}\n";
    no_break(&changes(
        Grammar::Rust,
        consts,
        &consts.replace("EMPTY: Mask = Mask", "EMPTY: Self = Self"),
    ));
    let found = changes(
        Grammar::Rust,
        consts,
        &consts.replace("BITS: u32 = 0", "BITS: Self = Self"),
    );
    assert_eq!(
        severity(&found, "Mask::BITS"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// Written differently, the same or a wider contract: http 1.2.0's `TryFrom` bounds as the
// `TryInto` they imply, tokio 1.49.0's `io::Result<()>` for `Result<(), io::Error>`, chrono
// 0.4.42's `&mut (impl Write + ?Sized)` for `&mut impl Write`.
#[test]
fn rust_bounds_and_types_spelled_through_the_standard_library_alike() {
    let base = "pub struct Builder;\n\nimpl Builder {\n    pub fn header<K, V>(self, key: K, value: V) -> Builder\n    where\n        HeaderName: TryFrom<K>,\n        <HeaderName as TryFrom<K>>::Error: Into<crate::Error>,\n    {\n        todo!()\n    }\n    pub fn write_to(&self, w: &mut impl Write) -> fmt::Result { todo!() }\n    pub fn sink<W: Write>(&self, w: W) {}\n}\n\npub trait AsyncWrite {\n    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), io::Error>>;\n    fn poll_write(self: Pin<&mut Self>, buf: &[u8]) -> Poll<std::io::Result<usize>>;\n}\n";
    let head = base
        .replace("HeaderName: TryFrom<K>,", "K: TryInto<HeaderName>,")
        .replace(
            "<HeaderName as TryFrom<K>>::Error",
            "<K as TryInto<HeaderName>>::Error",
        )
        .replace(
            "w: &mut impl Write) -> fmt::Result",
            "w: &mut (impl Write + ?Sized)) -> Result<(), fmt::Error>",
        )
        .replace("pub fn sink<W: Write>", "pub fn sink<W: Write + ?Sized>")
        .replace("Poll<Result<(), io::Error>>", "Poll<io::Result<()>>")
        .replace(
            "Poll<std::io::Result<usize>>",
            "Poll<Result<usize, io::Error>>",
        );
    no_break(&changes(Grammar::Rust, base, &head));
    // The other way narrows: a type implementing only `TryInto` no longer fits.
    let found = changes(Grammar::Rust, &head, base);
    assert_eq!(
        severity(&found, "Builder::header"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Another error type is another result.
    let other = base.replace("Poll<Result<(), io::Error>>", "Poll<io::Result<u8>>");
    assert_eq!(
        severity(
            &changes(Grammar::Rust, base, &other),
            "AsyncWrite::poll_flush"
        ),
        Some(Severity::Incompatible)
    );
}

// indexmap #296: methods moved to an `impl` block with fewer bounds (`K: Hash + Eq` and
// `S: BuildHasher` only where needed). The block's bounds are the method's.
#[test]
fn rust_bounds_relaxed_on_an_impl_block_are_compatible() {
    let base = "pub struct IndexMap<K, V, S> { k: K, v: V, s: S }\n\n\
        impl<K, V, S> IndexMap<K, V, S>\nwhere\n    K: Hash + Eq,\n    S: BuildHasher,\n{\n\
        \x20   pub fn retain<F>(&mut self, keep: F)\n    where\n        F: FnMut(&K, &mut V) -> bool,\n    {\n    }\n\n\
        \x20   pub fn sort_keys(&mut self)\n    where\n        K: Ord,\n    {\n    }\n}\n";
    let head = base.replace("where\n    K: Hash + Eq,\n    S: BuildHasher,\n{", "{");
    let found = changes(Grammar::Rust, base, &head);
    no_break(&found);
    assert_eq!(
        severity(&found, "IndexMap::retain"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    // A bound the block now adds is required of every caller.
    let found = changes(Grammar::Rust, &head, base);
    assert_eq!(
        severity(&found, "IndexMap::sort_keys"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// commons-cli 1.7: `Object getParsedOptionValue(Option)` → `<T> T getParsedOptionValue(Option)`
// and `Object createValue(String, Class<?>)` → `<T> T createValue(String, Class<T>)`. The
// erasure is the same and every old call still compiles.
#[test]
fn java_methods_generified_with_the_same_erasure_are_compatible() {
    let base = "public class CommandLine {\n\
        \x20 public Object getParsedOptionValue(Option option) { return null; }\n\
        \x20 public static Object createValue(String str, Class<?> clazz) { return null; }\n\
        \x20 public static Object pair(Class<?> a, Class<?> b) { return null; }\n\
        \x20 public static Number number(String s) { return null; }\n\
        \x20 public static Object named(String s) { return null; }\n}\n";
    let head = "public class CommandLine {\n\
        \x20 public <T> T getParsedOptionValue(Option option) { return null; }\n\
        \x20 public static <T> T createValue(String str, Class<T> clazz) { return null; }\n\
        \x20 public static <T> T pair(Class<T> a, Class<T> b) { return null; }\n\
        \x20 public static <N extends Number> N number(String s) { return null; }\n\
        \x20 public static <T extends CharSequence> T named(String s) { return null; }\n}\n";
    let found = changes(Grammar::Java, base, head);
    for same in [
        "CommandLine.getParsedOptionValue(Option)",
        "CommandLine.createValue(String,Class)",
        "CommandLine.number(String)",
    ] {
        assert_eq!(
            severity(&found, same),
            Some(Severity::Compatible),
            "{same}: {found:#?}"
        );
    }
    // Two arguments now tied to one type, and a result whose erasure changed.
    for broken in ["CommandLine.pair(Class,Class)", "CommandLine.named(String)"] {
        assert_eq!(
            severity(&found, broken),
            Some(Severity::Incompatible),
            "{broken}: {found:#?}"
        );
    }
    // Not in a language whose generics are not erased: `Object` is a type like any other.
    let found = changes(
        Grammar::Rust,
        "pub fn get() -> Object { todo!() }\n",
        "pub fn get<T>() -> T { todo!() }\n",
    );
    assert_eq!(severity(&found, "get"), Some(Severity::Incompatible));
}

// assertj #3673: `extracting(Function<? super ACTUAL, ?>...)` returning `ListAssert<?, List<?>,
// Object, ObjectAssert<Object>>` became `<T>`, taking `Function<? super ACTUAL, ? extends T>...`
// and returning `ListAssert<?, List<? extends T>, T, ObjectAssert<T>>`. The erasure is the same
// and every old argument still fits (`T` is bounded below by what the functions return), but
// `T` is now inferred from them: the result is `ListAssert<…, String, …>`, and a chained
// `.contains(anObject)` no longer compiles (javac agrees). Where the result is a subtype of the
// old one for every `T` (`List<?>` → `List<T>`), every old call compiles; lower bounds from
// several arguments meet. A method that can be overridden keeps its overrides only when the
// old signature is the new one's erasure (JLS 8.4.2).
#[test]
fn java_generified_methods_keep_their_callers_only_where_inference_gives_the_old_types() {
    let base = "public class Assert<A> {\n\
        \x20 public final ListAssert<?, List<?>, Object, ObjectAssert<Object>> extracting(Function<? super A, ?>... extractors) { return null; }\n\
        \x20 public final List<?> map(Function<? super A, ?> mapper) { return null; }\n\
        \x20 public static Object first(Object a, Object b) { return a; }\n\
        \x20 public List<?> all(Collection<?> values) { return null; }\n\
        \x20 public static void sort(List<?> values, Comparator<?> order) {}\n}\n";
    let head = "public class Assert<A> {\n\
        \x20 public final <T> ListAssert<?, List<? extends T>, T, ObjectAssert<T>> extracting(Function<? super A, ? extends T>... extractors) { return null; }\n\
        \x20 public final <T> List<T> map(Function<? super A, ? extends T> mapper) { return null; }\n\
        \x20 public static <T> T first(T a, T b) { return a; }\n\
        \x20 public <U> List<? extends U> all(Collection<? extends U> values) { return null; }\n\
        \x20 public static <T> void sort(List<? extends T> values, Comparator<? super T> order) {}\n}\n";
    let found = changes(Grammar::Java, base, head);
    let extracting = found
        .iter()
        .find(|c| {
            c.key == "Assert.extracting(Function[])" || c.key == "Assert.extracting(Function...)"
        })
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(extracting.severity, Severity::Incompatible, "{found:#?}");
    assert!(
        extracting.why.contains("inferred from the arguments"),
        "{found:#?}"
    );
    for same in ["Assert.map(Function)", "Assert.first(Object,Object)"] {
        assert_eq!(
            severity(&found, same),
            Some(Severity::Compatible),
            "{same}: {found:#?}"
        );
    }
    // An override of `all(Collection<?>)` clashes with the new erasure `all(Collection)`; a
    // `T` both bounded below and above (`? super T`) by two arguments may have no solution.
    for broken in ["Assert.all(Collection)", "Assert.sort(List,Comparator)"] {
        assert_eq!(
            severity(&found, broken),
            Some(Severity::Incompatible),
            "{broken}: {found:#?}"
        );
    }
}

// samber/lo #365 (`Filter[V any, Slice ~[]V](collection Slice, …) Slice`) and #839 (`If`
// returns `ifElse[T]`, an unexported type, instead of `*ifElse[T]`): reported, not proven
// breaks.
#[test]
fn go_types_widened_to_an_approximating_parameter_or_unnameable_are_undecided() {
    let base = "package lo\n\nfunc Filter[V any](collection []V, predicate func(item V, index int) bool) []V { return nil }\n\n\
        func If[T any](condition bool, result T) *ifElse[T] { return nil }\n\n\
        func Count(n int) *int { return nil }\n\n\
        func Keep[V any](collection []V) []V { return nil }\n";
    let head = "package lo\n\nfunc Filter[V any, Slice ~[]V](collection Slice, predicate func(item V, index int) bool) Slice { return nil }\n\n\
        func If[T any](condition bool, result T) ifElse[T] { return ifElse[T]{} }\n\n\
        func Count(n int) int { return 0 }\n\n\
        func Keep[V any, Slice []V](collection Slice) Slice { return nil }\n";
    let found = changes(Grammar::Go, base, head);
    for undecided in ["Filter", "If"] {
        assert_eq!(
            severity(&found, undecided),
            Some(Severity::Undecided),
            "{undecided}: {found:#?}"
        );
    }
    // A predeclared type, and a constraint that is not an approximation (only `[]V` itself,
    // not a named slice type of it): still breaks.
    for broken in ["Count", "Keep"] {
        assert_eq!(
            severity(&found, broken),
            Some(Severity::Incompatible),
            "{broken}: {found:#?}"
        );
    }
}

// tower #567: `ReadyAnd` renamed `Ready`, the old name kept as `pub type ReadyAnd<…> =
// Ready<…>`, through which `ReadyAnd::new` still resolves.
#[test]
fn members_reached_through_a_type_now_an_alias_are_not_removed() {
    let base = "pub struct ReadyAnd<'a, T, Request>(Inner<&'a mut T, Request>);\n\n\
        impl<'a, T, Request> ReadyAnd<'a, T, Request> {\n    pub fn new(service: &'a mut T) -> Self { todo!() }\n    pub fn gone(&self) {}\n}\n";
    let head = "pub struct Ready<'a, T, Request>(Inner<&'a mut T, Request>);\n\n\
        pub type ReadyAnd<'a, T, Request> = Ready<'a, T, Request>;\n\n\
        impl<'a, T, Request> Ready<'a, T, Request> {\n    pub fn new(service: &'a mut T) -> Self { todo!() }\n}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(
        severity(&found, "ReadyAnd::new"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    // What the target does not have is gone.
    assert_eq!(
        severity(&found, "ReadyAnd::gone"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Go: a defined type (no `=`) has none of its underlying type's methods.
    let go_base = "package p\n\ntype Old struct{}\n\nfunc (o Old) Run() {}\n";
    let go_alias = "package p\n\ntype New struct{}\n\nfunc (n New) Run() {}\n\ntype Old = New\n";
    let go_defined = "package p\n\ntype New struct{}\n\nfunc (n New) Run() {}\n\ntype Old New\n";
    let found = changes(Grammar::Go, go_base, go_alias);
    assert_eq!(
        severity(&found, "Old.Run"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    let found = changes(Grammar::Go, go_base, go_defined);
    assert_eq!(
        severity(&found, "Old.Run"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// async_impl_future_equivalence, trait_supertrait_where_self_equivalence: one contract
// written two ways.
#[test]
fn rust_equivalent_spellings_are_the_same_contract() {
    let base = "pub async fn a() -> u8 {\n    1\n}\n\npub fn b() -> impl Future {\n    async {}\n}\n\npub trait ColonToWhere: Base<Assoc = u8> {}\n\npub fn f<T: Clone + Send>(t: T) {}\n";
    let head = "pub fn a() -> impl Future<Output = u8> {\n    async { 1 }\n}\n\npub async fn b() {}\n\npub trait ColonToWhere\nwhere\n    Self: Base<Assoc = u8>,\n{\n}\n\npub fn f<T>(t: T)\nwhere\n    T: Send + Clone,\n{\n}\n";
    assert_eq!(changes(Grammar::Rust, base, head), vec![]);
    // A supertrait added or removed, a bound added, an output changed: breaks.
    let head = "pub fn a() -> impl Future<Output = u16> {\n    async { 1 }\n}\n\npub async fn b() {}\n\npub trait ColonToWhere {}\n\npub fn f<T: Clone + Send + Sync>(t: T) {}\n";
    let found = changes(Grammar::Rust, base, head);
    for key in ["a", "ColonToWhere", "f"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// trait_requires_more_generic_type_params (its compatible half), function_no_longer_unsafe.
#[test]
fn rust_defaulted_parameters_and_dropped_unsafe_are_compatible() {
    let base = "pub trait T<A> {}\n\npub struct S<A, B = i64>(A, B);\n\npub unsafe fn add(x: i64) -> i64 {\n    x\n}\n\npub trait Tr {\n    unsafe fn m(&self);\n}\n\npub fn safe() {}\n";
    let head = "pub trait T<A, U = &'static str> {}\n\npub struct S<A, B = i64, const N: usize = 4>(A, B);\n\npub fn add(x: i64) -> i64 {\n    x\n}\n\npub trait Tr {\n    fn m(&self);\n}\n\npub unsafe fn safe() {}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(severity(&found, "T"), Some(Severity::Compatible));
    assert_eq!(severity(&found, "S"), Some(Severity::Compatible));
    assert_eq!(severity(&found, "add"), Some(Severity::Compatible));
    // An implementation's `unsafe fn m` no longer matches the trait; a safe function that
    // became unsafe breaks every call.
    assert_eq!(severity(&found, "Tr::m"), Some(Severity::Incompatible));
    assert_eq!(severity(&found, "safe"), Some(Severity::Incompatible));
    let head = "pub trait T<A, U> {}\n\npub struct S<A, B>(A, B);\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(severity(&found, "T"), Some(Severity::Incompatible));
    assert_eq!(severity(&found, "S"), Some(Severity::Incompatible));
}

// enum_non_exhaustive_struct_variant_field_added, enum_*_variant_field_marked_deprecated.
#[test]
fn rust_variant_fields_compare_one_by_one() {
    let base = "pub enum E {\n    #[non_exhaustive]\n    Open { x: i64 },\n    Closed { x: i64 },\n    Tuple(i32, u8),\n}\n";
    let head = "pub enum E {\n    #[non_exhaustive]\n    Open { x: i64, y: usize },\n    Closed {\n        #[deprecated]\n        x: i64,\n    },\n    Tuple(#[deprecated] i32, #[deprecated = \"no\"] u8),\n}\n";
    let found = changes(Grammar::Rust, base, head);
    no_break(&found);
    assert_eq!(severity(&found, "E::Open::y"), Some(Severity::Compatible));
    // Users build `Closed { x }` and match `Tuple(a, b)`: a field added or changed breaks.
    let head = "pub enum E {\n    #[non_exhaustive]\n    Open { x: u8 },\n    Closed { x: i64, y: usize },\n    Tuple(i32, u8, u8),\n}\n";
    let found = changes(Grammar::Rust, base, head);
    for key in ["E::Open::x", "E::Closed::y", "E::Tuple::2"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// flask #4642: `FlaskGroup.main` removed, yet `FlaskGroup` still has `main` from click's
// `Group`, a class of another package.
#[test]
fn python_a_removed_override_may_still_be_inherited() {
    let base = "class AppGroup(click.Group):\n    def command(self):\n        pass\n\n\nclass FlaskGroup(AppGroup):\n    def main(self, *args, **kwargs):\n        pass\n\n    def command(self):\n        pass\n\n\nclass Plain:\n    def run(self):\n        pass\n\n\nclass Child(Plain):\n    def run(self):\n        pass\n";
    let head = "class AppGroup(click.Group):\n    def command(self):\n        pass\n\n\nclass FlaskGroup(AppGroup):\n    pass\n\n\nclass Plain:\n    pass\n\n\nclass Child(Plain):\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&found, "FlaskGroup.main"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "FlaskGroup.command"),
        Some(Severity::Compatible)
    );
    // Nothing left to inherit it from: removed.
    assert_eq!(severity(&found, "Plain.run"), Some(Severity::Incompatible));
    assert_eq!(severity(&found, "Child.run"), Some(Severity::Incompatible));
}

// cobra v1.8.1..v1.9.0: `ValidArgsFunction func(…)` → `CompletionFunc`, a defined type over
// the same literal: assignable both ways (from another named type it would not be).
#[test]
fn go_a_type_literal_now_a_named_type_over_it_warns() {
    let base = "package cobra\n\ntype Command struct {\n\tValidArgsFunction func(cmd *Command, args []string, toComplete string) ([]string, ShellCompDirective)\n}\n\nfunc (c *Command) RegisterFlagCompletionFunc(flagName string, f func(cmd *Command, args []string, toComplete string) ([]string, ShellCompDirective)) error {\n\treturn nil\n}\n\nfunc Names(n []string) {}\n";
    let head = "package cobra\n\ntype Completion = string\n\ntype CompletionFunc func(cmd *Command, args []string, toComplete string) ([]Completion, ShellCompDirective)\n\ntype Command struct {\n\tValidArgsFunction CompletionFunc\n}\n\nfunc (c *Command) RegisterFlagCompletionFunc(flagName string, f CompletionFunc) error {\n\treturn nil\n}\n\ntype Strings []string\n\nfunc Names(n []Strings) {}\n";
    let found = changes(Grammar::Go, base, head);
    assert_eq!(
        severity(&found, "Command.ValidArgsFunction"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Command.RegisterFlagCompletionFunc"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    // Only the whole type: `[]string` → `[]Strings` is a slice of another element type.
    assert_eq!(severity(&found, "Names"), Some(Severity::Incompatible));
}

// cobra v1.8.1..v1.9.0: `GetFlagCompletionFunc` returned `(func(*Command, []string, string)
// (…), bool)` and returns `(CompletionFunc, bool)`, where `CompletionFunc` is a defined type
// over the same literal with its parameters named. Each value of a result tuple is assigned
// on its own, and names written inside a function type bind no caller.
#[test]
fn go_result_tuple_values_and_function_type_parameter_names() {
    let base = "package cobra\n\nfunc (c *Command) GetFlagCompletionFunc(flagName string) (func(*Command, []string, string) ([]string, ShellCompDirective), bool) {\n\treturn nil, false\n}\n\nfunc Hook(f func(a, b int) (n int)) (err error) {\n\treturn nil\n}\n\nfunc Pair() (int, string) {\n\treturn 0, \"\"\n}\n";
    let head = "package cobra\n\ntype Completion = string\n\ntype CompletionFunc func(cmd *Command, args []string, toComplete string) ([]Completion, ShellCompDirective)\n\nfunc (c *Command) GetFlagCompletionFunc(flagName string) (CompletionFunc, bool) {\n\treturn nil, false\n}\n\nfunc Hook(g func(x int, y int) int) error {\n\treturn nil\n}\n\nfunc Pair() (int, int) {\n\treturn 0, 0\n}\n";
    let found = changes(Grammar::Go, base, head);
    assert_eq!(
        severity(&found, "Command.GetFlagCompletionFunc"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(severity(&found, "Hook"), None, "{found:#?}");
    // A value of the tuple whose type changed is still a break.
    assert_eq!(severity(&found, "Pair"), Some(Severity::Incompatible));
    // A parameter type inside a function type is the contract.
    let typed =
        "package cobra\n\nfunc Hook(g func(x int, y string) int) error {\n\treturn nil\n}\n";
    let found = changes(Grammar::Go, head, typed);
    assert_eq!(severity(&found, "Hook"), Some(Severity::Incompatible));
}

// The same class in the other languages with function types: TypeScript `(a: T) => U` and
// object-type signatures, Rust `fn(x: u8)`.
#[test]
fn parameter_names_inside_function_types_bind_no_caller() {
    let base = "export type Hook = (request: Request, options?: Options, ...rest: string[]) => void;\nexport type Api = { get(url: string): Promise<Response>; new (init: Init): Api };\n";
    let head = "export type Hook = (req: Request, opts?: Options, ...more: string[]) => void;\nexport type Api = { get(input: string): Promise<Response>; new (options: Init): Api };\n";
    assert_eq!(changes(Grammar::TypeScript, base, head), vec![]);
    let rust_base = "pub struct Hooks {\n    pub on_close: fn(code: u16, reason: &str) -> bool,\n}\npub fn run(f: fn(count: usize)) {}\n";
    let rust_head = "pub struct Hooks {\n    pub on_close: fn(status: u16, why: &str) -> bool,\n}\npub fn run(f: fn(usize)) {}\n";
    assert_eq!(changes(Grammar::Rust, rust_base, rust_head), vec![]);
    // The types written there still are the contract.
    let rust_changed = "pub struct Hooks {\n    pub on_close: fn(status: u32, why: &str) -> bool,\n}\npub fn run(f: fn(usize)) {}\n";
    let found = changes(Grammar::Rust, rust_base, rust_changed);
    assert_eq!(
        severity(&found, "Hooks::on_close"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// A removed override in Java and TypeScript: the member is still there for callers when a
// base the class extends or implements has it; with a narrower (covariant) return type gone,
// Java callers that used it break.
#[test]
fn java_and_typescript_removed_overrides_are_still_inherited() {
    let base = "public class Base {\n    public String name() { return \"\"; }\n    public Base copy() { return this; }\n}\n\npublic class Child extends Base implements Runnable {\n    @Override\n    public String name() { return \"child\"; }\n    @Override\n    public Child copy() { return this; }\n    public void run() {}\n}\n\npublic class Plain {\n    public void go() {}\n}\n";
    let head = "public class Base {\n    public String name() { return \"\"; }\n    public Base copy() { return this; }\n}\n\npublic class Child extends Base implements Runnable {\n}\n\npublic class Plain {\n}\n";
    let found = changes(Grammar::Java, base, head);
    assert_eq!(
        severity(&found, "Child.name()"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Child.copy()"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // `Runnable` is not in this file: `run` may come from it, which is not decidable here.
    assert_eq!(severity(&found, "Child.run()"), Some(Severity::Undecided));
    assert_eq!(severity(&found, "Plain.go()"), Some(Severity::Incompatible));

    let base = "export class Base<T> {\n  get(key: string): T | undefined { return undefined; }\n}\n\nexport interface Named {\n  name: string;\n}\n\nexport interface Tagged extends Named {\n  name: string;\n  tag: string;\n}\n\nexport class Store extends Base<number> {\n  get(key: string): number | undefined { return 1; }\n  clear(): void {}\n}\n";
    let head = "export class Base<T> {\n  get(key: string): T | undefined { return undefined; }\n}\n\nexport interface Named {\n  name: string;\n}\n\nexport interface Tagged extends Named {\n  tag: string;\n}\n\nexport class Store extends Base<number> {\n}\n";
    let found = changes(Grammar::TypeScript, base, head);
    assert_eq!(
        severity(&found, "Tagged.name"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    // Inherited with the base's `T | undefined` written where the override had `number`:
    // the same type once `T` is bound, which a structural comparison cannot see.
    assert_ne!(severity(&found, "Store.get"), Some(Severity::Incompatible));
    assert_eq!(
        severity(&found, "Store.clear"),
        Some(Severity::Incompatible)
    );
}

// C#, Kotlin, C and the rest are read from the tags: a removed or changed public definition
// is reported by its qualified name, never as a break; private ones are not the surface.
#[test]
fn languages_read_from_tags_warn_and_never_break() {
    let base = "namespace Kv {\n  public class Store {\n    public string Get(string key) { return null; }\n    public void Clear() {}\n    private void Reset() {}\n  }\n}\n";
    let head = "namespace Kv {\n  public class Store {\n    public string Get(string key, string fallback) { return fallback; }\n    private void Reset(bool all) {}\n  }\n}\n";
    let found = changes(Grammar::CSharp, base, head);
    no_break(&found);
    assert_eq!(
        severity(&found, "Kv.Store.Clear()"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Kv.Store.Get(string)"),
        Some(Severity::Undecided)
    );
    assert!(found.iter().all(|c| !c.key.contains("Reset")), "{found:#?}");
    let found = changes(
        Grammar::C,
        "int store_get(const char *key);\nint store_put(const char *key, int v) { return v; }\n",
        "int store_put(const char *key, int v) { return v; }\n",
    );
    no_break(&found);
    assert_eq!(severity(&found, "store_put"), None, "{found:#?}");
}

// serilog: `Write(LogEventLevel, string)` and its overload with a `params object[]` are two
// members a caller binds to by the argument types. Keyed by name alone they were one item
// whose text changed whenever either did, and one removed read as the other changed: each
// overload is its own member, keyed by its parameter types (not `params`, not the method's
// type parameters' names; `ref` and `out` do tell overloads apart).
#[test]
fn csharp_overloads_are_members_keyed_by_their_parameter_types() {
    let base = "namespace Log {\n  public class Logger {\n    public void Write(Level level, string template) {}\n    public void Write(Level level, string template, object value) {}\n    public void Write(Level level, string template, params object[] values) {}\n    public bool TryGet<T>(string name, out T value) { value = default; return false; }\n    public void Bind<T>(string name, T value) {}\n  }\n}\n";
    // One overload gone, one method's type parameter renamed.
    let head = base
        .replace(
            "    public void Write(Level level, string template, object value) {}\n",
            "",
        )
        .replace(
            "Bind<T>(string name, T value)",
            "Bind<TValue>(string name, TValue value)",
        );
    let found = changes(Grammar::CSharp, base, &head);
    no_break(&found);
    assert_eq!(
        severity(&found, "Log.Logger.Write(Level,string,object)"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    let keys: Vec<&str> = found.iter().map(|c| c.key.as_str()).collect();
    assert!(
        keys.iter()
            .all(|k| *k == "Log.Logger.Write(Level,string,object)"
                || k.starts_with("Log.Logger.Bind")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .all(|c| c.why != "removed" || c.key.contains("object)")),
        "{found:#?}"
    );
    // An overload added beside the others is added, and nothing else changed.
    let added = base.replace(
        "    public void Write(Level level, string template) {}\n",
        "    public void Write(Level level, string template) {}\n    public void Write(Level level, string template, ref int count) {}\n",
    );
    let found = changes(Grammar::CSharp, base, &added);
    assert_eq!(
        severity(&found, "Log.Logger.Write(Level,string,ref int)"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    assert_eq!(found.len(), 1, "{found:#?}");
}

// zod v4.3.6..v4.4.0: an overloaded method whose first signature's mapped type gained
// `-readonly`: a type written differently, not a changed declaration.
#[test]
fn typescript_overloads_written_differently_are_undecided() {
    let base = "export class ZodObject<Shape> {\n  partial(): ZodObject<{ [k in keyof Shape]: ZodOptional<Shape[k]> }>;\n  partial<M extends Mask<keyof Shape>>(mask: M): ZodObject<Shape>;\n  partial(mask?: any): any {\n    return this;\n  }\n}\n";
    let head = base.replace("{ [k in keyof", "{ -readonly [k in keyof");
    let found = changes(Grammar::TypeScript, base, &head);
    assert_eq!(
        severity(&found, "ZodObject.partial"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    // zod/mini: the same on overloaded exported functions.
    let base = "export function partial<T>(schema: T): Obj<{ [k in keyof T]: Opt<T[k]> }>;\nexport function partial<T, M>(schema: T, mask: M): Obj<T>;\nexport function partial(schema: any, mask?: any): any {\n  return schema;\n}\n";
    let head = base.replace("{ [k in keyof", "{ -readonly [k in keyof");
    let found = changes(Grammar::TypeScript, base, &head);
    assert_eq!(
        severity(&found, "partial"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
}

// gin #4232 and v1.11.0: a method's receiver no longer a pointer, and a key parameter that
// now takes `any`; an exported field whose map type changed still breaks its readers.
#[test]
fn go_value_receivers_and_parameters_taking_any_are_compatible() {
    let base = "package gin\n\ntype Context struct {\n\tmu sync.RWMutex\n\n\t// Keys is a key/value pair.\n\tKeys map[string]any\n}\n\nfunc (c *Context) Get(key string) (value any, exists bool) {\n\treturn nil, false\n}\n\nfunc (msg *Error) Unwrap() error {\n\treturn nil\n}\n\nfunc (msg Error) Code() int {\n\treturn 0\n}\n\nfunc (c *Context) Value(key string) string {\n\treturn \"\"\n}\n";
    let head = base
        .replace("Keys map[string]any", "Keys map[any]any")
        .replace("Get(key string)", "Get(key any)")
        .replace("(msg *Error) Unwrap", "(msg Error) Unwrap")
        .replace("(msg Error) Code", "(msg *Error) Code")
        .replace("Value(key string) string", "Value(key string) any");
    let found = changes(Grammar::Go, base, &head);
    assert_eq!(
        severity(&found, "Context.Get"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Error.Unwrap"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    for key in ["Context.Keys", "Error.Code", "Context.Value"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// gin v1.11.0: `interface{}` rewritten as `any`, its alias.
#[test]
fn go_any_is_the_empty_interface() {
    let base = "package gin\n\nvar DebugPrintFunc func(format string, values ...interface{})\n\nfunc Format(v any) []any {\n\treturn nil\n}\n";
    let head = "package gin\n\nvar DebugPrintFunc func(format string, values ...any)\n\nfunc Format(v interface{}) []interface{} {\n\treturn nil\n}\n";
    assert_eq!(changes(Grammar::Go, base, head), vec![]);
    let changed = head.replace("values ...any", "values ...string");
    let found = changes(Grammar::Go, base, &changed);
    assert_eq!(
        severity(&found, "DebugPrintFunc"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// commons-lang (merge 2e3ea61): `Range.between` and `Range.is` took `T extends Comparable<T>`
// and now `T extends Comparable<? super T>`: every caller's argument still fits.
#[test]
fn java_type_parameter_bounds_widened_by_a_wildcard_are_compatible() {
    let class = |bound: &str| {
        format!(
            "package org.acme;\npublic final class Range<T> {{\n    \
             public static <T extends {bound}> Range<T> between(final T a, final T b) {{ return null; }}\n    \
             public <T extends {bound}> void fit(final T a) {{}}\n    \
             public static <T extends Number & {bound}> T max(T a) {{ return a; }}\n}}\n"
        )
    };
    let found = changes(
        Grammar::Java,
        &class("Comparable<T>"),
        &class("Comparable<? super T>"),
    );
    no_break(&found);
    let between = found
        .iter()
        .find(|c| c.key.starts_with("Range.between"))
        .unwrap();
    assert_eq!(between.severity, Severity::Compatible, "{found:#?}");
    // The form shows the bound that changed.
    assert!(
        format!("{between:?}").contains("Comparable<?super T>"),
        "{between:?}"
    );
    // An instance method a subclass may override with the old bound: undecided.
    let fit = found
        .iter()
        .find(|c| c.key.starts_with("Range.fit"))
        .unwrap();
    assert_eq!(fit.severity, Severity::Undecided, "{found:#?}");
    // Narrowed (the other way), or the wildcard bounded by another type: still a break.
    for (base, head) in [
        ("Comparable<? super T>", "Comparable<T>"),
        ("Comparable<T>", "Comparable<? super Integer>"),
        ("Comparable<T>", "Comparable<T> & java.io.Serializable"),
    ] {
        let found = changes(Grammar::Java, &class(base), &class(head));
        let between = found
            .iter()
            .find(|c| c.key.starts_with("Range.between"))
            .unwrap();
        assert_eq!(
            between.severity,
            Severity::Incompatible,
            "{base} → {head}: {found:#?}"
        );
    }
}

// tracing #3165 (clippy's `needless_lifetimes`): `-> Option<SpanRef<'_, Self>>` written
// `-> Option<SpanRef<'a, Self>>` in `fn span(&'a self, …)` is the same lifetime.
#[test]
fn rust_a_lifetime_named_or_elided_is_the_same_signature() {
    let base = "pub trait LookupSpan<'a> {\n    fn span(&'a self, id: &Id) -> Option<SpanRef<'_, Self>>\n    where\n        Self: Sized,\n    {\n        None\n    }\n}\n";
    let head = base.replace("SpanRef<'_, Self>", "SpanRef<'a, Self>");
    let found = changes(Grammar::Rust, base, &head);
    assert!(
        found.iter().all(|c| c.severity == Severity::Compatible),
        "{found:#?}"
    );
    // A named lifetime becoming `'static` is still a change.
    let head = base.replace("SpanRef<'_, Self>", "SpanRef<'static, Self>");
    let found = changes(Grammar::Rust, base, &head);
    assert_eq!(
        severity(&found, "LookupSpan::span"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// typer #1069 and #1297: `try: import rich / except ImportError: rich = None` made lazy; the
// fallback `rich = None` is the import's binding, not a module variable callers use.
#[test]
fn python_a_fallback_for_a_failed_import_is_not_a_variable() {
    let base = "try:\n    import rich\n    has_rich = True\nexcept ImportError:  # pragma: no cover\n    rich = None  # type: ignore\n    has_rich = False\n\nVERSION = 1\n";
    let head = "VERSION = 1\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(severity(&found, "rich"), None, "{found:#?}");
    // A module variable of its own, removed, still breaks.
    assert_eq!(
        severity(&found, "has_rich"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// testify #1566: `type CompareType int` → `type CompareType = compareResult` with
// `type compareResult int`: undecided from the surface, which holds no unexported type.
#[test]
fn go_a_defined_type_made_an_alias_of_a_package_type_is_undecided() {
    let base = "package assert\n\ntype CompareType int\n";
    let head = "package assert\n\ntype CompareType = compareResult\n\ntype compareResult int\n";
    let found = changes(Grammar::Go, base, head);
    assert_eq!(
        severity(&found, "CompareType"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    // Another package's type, or a different defined type: still a break.
    for head in [
        "package assert\n\ntype CompareType = other.Result\n",
        "package assert\n\ntype CompareType string\n",
    ] {
        let found = changes(Grammar::Go, base, head);
        assert_eq!(
            severity(&found, "CompareType"),
            Some(Severity::Incompatible),
            "{head}: {found:#?}"
        );
    }
}

// click #3695 and #2592: `LazyFile` renamed `_LazyFile` and `split_opt` `_split_opt`, the old
// names still answered, with a deprecation warning, by the module's `__getattr__` (PEP 562).
#[test]
fn python_names_a_module_getattr_still_serves_are_not_removed() {
    let base = "class LazyFile:\n    def close(self):\n        pass\n\n\ndef split_opt(opt):\n    pass\n\n\ndef safecall(func):\n    pass\n\n\ndef gone():\n    pass\n";
    let head = "class _LazyFile:\n    def close(self):\n        pass\n\n\ndef _split_opt(opt):\n    pass\n\n\ndef _safecall(func):\n    pass\n\n\n_RENAMED = {\"safecall\": \"_safecall\"}\n\n\ndef __getattr__(name: str) -> object:\n    import warnings\n\n    if name in {\n        \"LazyFile\",\n        \"split_opt\",\n    }:\n        warnings.warn(f\"'{name}' is deprecated\", DeprecationWarning, stacklevel=2)\n        return globals()[f\"_{name}\"]\n    elif name in _RENAMED:\n        return globals()[_RENAMED[name]]\n    if name == \"gone\":\n        raise AttributeError(\"'gone' was removed in 9.0\")\n\n    raise AttributeError(name)\n";
    let found = changes(Grammar::Python, base, head);
    for key in ["LazyFile", "split_opt", "safecall"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Compatible),
            "{key}: {found:#?}"
        );
    }
    // A branch that only raises serves nothing: `gone` is removed.
    assert_eq!(
        severity(&found, "gone"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Without the hook, the renames are removals.
    let no_hook = head.split("_RENAMED").next().unwrap();
    let found = changes(Grammar::Python, base, no_hook);
    for key in ["LazyFile", "split_opt", "safecall"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// click "Merge branch '8.1.x'": `__exit__(self, exc_type, exc_value, tb)` → `__exit__(self,
// *_)`. The interpreter passes a protocol method's arguments by position; a constructor's and
// `__call__`'s are the caller's own, by name too.
#[test]
fn python_protocol_method_parameter_names_bind_no_caller() {
    let base = "class Context:\n    def __exit__(self, exc_type, exc_value, tb):\n        pass\n\n    def __eq__(self, other):\n        pass\n\n    def __init__(self, command, parent=None):\n        pass\n\n    def __call__(self, value):\n        pass\n";
    let head = "class Context:\n    def __exit__(self, *_):\n        pass\n\n    def __eq__(self, value):\n        pass\n\n    def __init__(self, cmd, parent=None):\n        pass\n\n    def __call__(self, *values):\n        pass\n";
    let found = changes(Grammar::Python, base, head);
    for key in ["Context.__exit__", "Context.__eq__"] {
        assert!(
            matches!(severity(&found, key), None | Some(Severity::Compatible)),
            "{key}: {found:#?}"
        );
    }
    assert_eq!(
        severity(&found, "Context.__init__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Context.__call__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Fewer arguments than the interpreter passes still break the protocol.
    let fewer = head.replace("def __exit__(self, *_)", "def __exit__(self, exc_type)");
    let found = changes(Grammar::Python, base, &fewer);
    assert_eq!(
        severity(&found, "Context.__exit__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// anyio #1053 removed `BlockingPortal.__new__(cls)`: `object.__new__` still creates the
// instance. An `__init__` that took arguments is not replaced by `object`'s, which takes none.
#[test]
fn python_a_special_method_object_defines_is_still_inherited() {
    let base = "class BlockingPortal:\n    def __new__(cls):\n        return make()\n\n    def __repr__(self):\n        return 'x'\n\n    def __init__(self, size):\n        pass\n";
    let head = "class BlockingPortal:\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    for key in ["BlockingPortal.__new__", "BlockingPortal.__repr__"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Compatible),
            "{key}: {found:#?}"
        );
    }
    assert_eq!(
        severity(&found, "BlockingPortal.__init__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// rich 14.3: `cell_len(text, _cell_len=cached_cell_len)` → `cell_len(text,
// unicode_version="auto")`. An optional parameter named like a private name is not one callers
// pass; a required one, or one a public positional parameter follows, is.
#[test]
fn python_private_optional_parameters_are_not_the_contract() {
    let base = "def cell_len(text, _cell_len=None):\n    pass\n\n\ndef f(a, *, _cache=None):\n    pass\n\n\ndef g(a, _b=None, c=None):\n    pass\n\n\ndef h(a, _b):\n    pass\n";
    let head = "def cell_len(text, unicode_version=\"auto\"):\n    pass\n\n\ndef f(a):\n    pass\n\n\ndef g(a, c=None):\n    pass\n\n\ndef h(a):\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&found, "cell_len"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    assert_eq!(severity(&found, "f"), None, "{found:#?}");
    for key in ["g", "h"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// structlog 25.5: `ConsoleRenderer(pad_event=30, colors=…)` → `(pad_event_to=30, colors=…,
// pad_event=None)`: renamed in place, the old name kept at the end as a deprecated alias. A
// parameter inserted before others (uvicorn #2033) still breaks positional callers.
#[test]
fn python_a_parameter_renamed_in_place_with_its_old_name_kept_is_compatible() {
    let base = "class ConsoleRenderer:\n    def __init__(self, pad_event=30, colors=True, force_colors=False):\n        pass\n";
    let head = "class ConsoleRenderer:\n    def __init__(self, pad_event_to=30, colors=True, force_colors=False, pad_event=None):\n        pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&found, "ConsoleRenderer.__init__"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    let inserted = "class ConsoleRenderer:\n    def __init__(self, width=80, pad_event=30, colors=True, force_colors=False):\n        pass\n";
    let found = changes(Grammar::Python, base, inserted);
    assert_eq!(
        severity(&found, "ConsoleRenderer.__init__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Renamed without the old name: callers passing it by name break.
    let renamed = "class ConsoleRenderer:\n    def __init__(self, pad_event_to=30, colors=True, force_colors=False):\n        pass\n";
    let found = changes(Grammar::Python, base, renamed);
    assert_eq!(
        severity(&found, "ConsoleRenderer.__init__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// hono 4.13.3 removed `TrieRouter`'s `constructor() {}`: a class that extends nothing has
// that constructor anyway. One that took parameters, or one beside an `extends`, is not so.
#[test]
fn typescript_an_empty_constructor_is_the_implicit_one() {
    let base = "export class TrieRouter {\n  name = 'TrieRouter'\n  constructor() {\n    this.node = new Node()\n  }\n}\n\nexport class Node {\n  constructor(method?: string) {}\n}\n";
    let head = "export class TrieRouter {\n  name = 'TrieRouter'\n}\n\nexport class Node {}\n";
    let found = changes(Grammar::TypeScript, base, head);
    assert_eq!(
        severity(&found, "TrieRouter.constructor"),
        None,
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Node.constructor"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// structlog 25.5: `rich_traceback = RichTracebackFormatter()` became, when Rich is missing, a
// `def rich_traceback(*args, **kw)` that raises, and the same instance otherwise.
#[test]
fn python_a_name_defined_in_other_forms_in_alternative_branches_keeps_the_old_one() {
    let base = "rich_traceback = RichTracebackFormatter()\n";
    let head = "if rich is None:\n\n    def rich_traceback(*args, **kw):\n        raise ModuleNotFoundError('rich')\n\nelse:\n    rich_traceback = RichTracebackFormatter()\n";
    let found = changes(Grammar::Python, base, head);
    assert!(
        matches!(
            severity(&found, "rich_traceback"),
            None | Some(Severity::Compatible)
        ),
        "{found:#?}"
    );
    // Only the `def`: the binding is gone, a function stands in its place. The instance was
    // called as a function (a formatter); whether every use of it still works is not in the
    // syntax (a binding carries no type), so it is undecided, never a proven break
    // (more-itertools 10.2's `batched = _batched` → `def batched(…)` was a false Block).
    let only_def = "def rich_traceback(*args, **kw):\n    raise ModuleNotFoundError('rich')\n";
    let found = changes(Grammar::Python, base, only_def);
    assert_eq!(
        severity(&found, "rich_traceback"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
}

// tomlkit #436: `Encoder = Callable[[Any], "Item"]` became a `Protocol` class under `if
// TYPE_CHECKING:`. Annotations still name it; a run-time import would not find it.
#[test]
fn python_an_alias_now_for_type_checkers_only_is_undecided() {
    let base = "Encoder = Callable[[Any], \"Item\"]\n\n\nclass Item:\n    pass\n";
    let head = "if TYPE_CHECKING:\n\n    class Encoder(Protocol):\n        def __call__(self, value, /, _parent=None): ...\n\n\nclass Item:\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&found, "Encoder"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    // Gone from both: removed.
    let found = changes(Grammar::Python, base, "class Item:\n    pass\n");
    assert_eq!(
        severity(&found, "Encoder"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// pino #1871: `declare namespace pino {…}` merged with `declare function pino(…)`, exported as
// `export { pino as default, pino }`. The namespace's text is not the function's signature: a
// type parameter given a default is not a changed declaration.
#[test]
fn typescript_a_namespace_merged_into_a_function_is_the_function() {
    let base = "declare namespace pino {\n    interface BaseLogger { level: string }\n    var version: string;\n}\n\ndeclare function pino<CustomLevels extends string = never>(options?: LoggerOptions<CustomLevels>): Logger<CustomLevels>;\n\nexport { pino as default, pino };\n";
    let head = base.replace(
        "declare namespace pino {\n    interface BaseLogger { level: string }",
        "declare namespace pino {\n    interface BaseLogger { level: string; msgPrefix?: string }",
    );
    let found = changes(Grammar::TypeScript, base, &head);
    no_break(&found);
    assert_eq!(severity(&found, "default"), None, "{found:#?}");
    // The function removed, the namespace left: removed.
    let no_function = "declare namespace pino {\n    var version: string;\n}\n\nexport { pino as default, pino };\n";
    let found = changes(Grammar::TypeScript, base, no_function);
    assert_eq!(
        severity(&found, "pino"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// lru-cache 11.3.3: `export const [metrics, tracing]: LRUCacheDC = …` is two exports, not one
// named `[metrics, tracing]`; its type annotation changing removed nothing.
#[test]
fn typescript_a_destructuring_export_binds_each_name() {
    let base = "export const [metrics, tracing]: LRUCacheDC = [dc('metrics'), dc('tracing')]\nexport const { a, b: renamed, c = 1 } = obj\n";
    let head = "export const [metrics, tracing]: [Channel, Tracing] = [dc('metrics'), dc('tracing')]\nexport const { a, b: renamed, c = 1 } = obj\n";
    assert_eq!(changes(Grammar::TypeScript, base, head), vec![]);
    let found = changes(
        Grammar::TypeScript,
        base,
        "export const [metrics]: LRUCacheDC = [dc('metrics')]\nexport const { a, c = 1 } = obj\n",
    );
    for key in ["tracing", "renamed"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
    assert_eq!(severity(&found, "metrics"), None, "{found:#?}");
}

// tokio 1.27: `Child::raw_handle` moved from `#[cfg(windows)]` into `cfg_windows! { … }`;
// 1.29: `TaskLocalFuture` defined inside `pin_project! { … }`. Items in a macro call whose body
// is items are items, under the `cfg` it implies; an unstable opt-in macro takes them out.
#[test]
fn rust_items_inside_item_macros_are_items() {
    let base = "pub struct Child { child: u8 }\n\nimpl Child {\n    pub fn id(&self) -> u32 { 0 }\n\n    #[cfg(windows)]\n    pub fn raw_handle(&self) -> Option<RawHandle> { None }\n}\n\n\
        pub struct TaskLocalFuture<T, F> where T: 'static {\n    slot: Option<T>,\n    future: F,\n}\n\n\
        #[cfg(windows)]\npub fn creation_flags(flags: u32) {}\n\npub fn active_tasks_count() -> usize { 0 }\n";
    let head = "pub struct Child { child: u8 }\n\nimpl Child {\n    pub fn id(&self) -> u32 { 0 }\n\n    cfg_windows! {\n        /// Docs.\n        pub fn raw_handle(&self) -> Option<RawHandle> { None }\n    }\n}\n\n\
        pin_project! {\n    /// A future.\n    pub struct TaskLocalFuture<T, F> where T: 'static {\n        slot: Option<T>,\n        #[pin]\n        future: F,\n    }\n\n    impl<T, F> PinnedDrop for TaskLocalFuture<T, F> {\n        fn drop(this: Pin<&mut Self>) {}\n    }\n}\n\n\
        cfg_rt! {\n    cfg_windows! {\n        pub fn creation_flags(flags: u32) {}\n    }\n}\n\ncfg_unstable_metrics! {\n    pub fn active_tasks_count() -> usize { 0 }\n}\n\nbitflags! {\n    pub struct Ready: u8 { const A = 1; }\n}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(severity(&found, "Child::raw_handle"), None, "{found:#?}");
    assert_eq!(severity(&found, "TaskLocalFuture"), None, "{found:#?}");
    assert_eq!(severity(&found, "creation_flags"), None, "{found:#?}");
    // Behind an unstable opt-in now: gone from the stable surface.
    assert_eq!(
        severity(&found, "active_tasks_count"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Removed from inside the macro: removed.
    let gone = head.replace("pub fn raw_handle", "fn raw_handle");
    assert_eq!(
        severity(&changes(Grammar::Rust, base, &gone), "Child::raw_handle"),
        Some(Severity::Incompatible)
    );
}

// tokio 1.38: `Result<(u64, u64), std::io::Error>` → `io::Result<(u64, u64)>`. One type
// spelled through the standard library's crate, a module path or an alias is one type.
#[test]
fn rust_a_std_type_spelled_with_or_without_its_crate_is_the_same_type() {
    let base = "pub fn copy_bidirectional(a: &mut u8) -> Result<(u64, u64), std::io::Error> { todo!() }\n\
        pub fn write(w: &mut core::fmt::Formatter<'_>) -> ::std::fmt::Result { todo!() }\n";
    let head = "pub fn copy_bidirectional(a: &mut u8) -> io::Result<(u64, u64)> { todo!() }\n\
        pub fn write(w: &mut fmt::Formatter<'_>) -> Result<(), fmt::Error> { todo!() }\n";
    assert_eq!(changes(Grammar::Rust, base, head), vec![]);
    // Another value is another result, however spelled.
    let other = head.replace(
        "io::Result<(u64, u64)>",
        "Result<(u64, u32), std::io::Error>",
    );
    assert_eq!(
        severity(&changes(Grammar::Rust, base, &other), "copy_bidirectional"),
        Some(Severity::Incompatible)
    );
}

// tokio 1.39: `timeout<F>(…) -> Timeout<F> where F: Future` → `… -> Timeout<F::IntoFuture>
// where F: IntoFuture`; 1.38: `impl<T: Copy> LocalKey<T>` → `impl<T: Clone>`. A bound widened through a standard blanket impl keeps every old call,
// and its projection is the old type for each of them; narrowing breaks.
#[test]
fn rust_bounds_widened_through_blanket_impls_are_compatible() {
    let base = "pub fn timeout<F>(duration: Duration, future: F) -> Timeout<F>\nwhere\n    F: Future,\n{ todo!() }\n\
        pub fn each<I: Iterator<Item = u8>>(items: I) -> Each<I> { todo!() }\n\
        pub fn on_event<C: Fn(u8) -> bool>(callback: C) {}\n\
        pub fn on_close(callback: impl FnMut()) {}\n\
        pub struct LocalKey<T> { t: T }\n\
        impl<T: Copy + 'static> LocalKey<T> {\n    pub fn get(&'static self) -> T { todo!() }\n}\n";
    let head = "pub fn timeout<F>(duration: Duration, future: F) -> Timeout<F::IntoFuture>\nwhere\n    F: IntoFuture,\n{ todo!() }\n\
        pub fn each<I: IntoIterator<Item = u8>>(items: I) -> Each<I::IntoIter> { todo!() }\n\
        pub fn on_event<C: FnMut(u8) -> bool>(callback: C) {}\n\
        pub fn on_close(callback: impl FnOnce()) {}\n\
        pub struct LocalKey<T> { t: T }\n\
        impl<T: Clone + 'static> LocalKey<T> {\n    pub fn get(&'static self) -> T { todo!() }\n}\n";
    no_break(&changes(Grammar::Rust, base, head));
    let found = changes(Grammar::Rust, head, base);
    for key in ["timeout", "each", "on_event", "on_close", "LocalKey::get"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
    // A trait object is not widened by its trait's blanket impls.
    let boxed = changes(
        Grammar::Rust,
        "pub fn on(callback: Box<dyn Fn()>) {}\n",
        "pub fn on(callback: Box<dyn FnOnce()>) {}\n",
    );
    assert_eq!(
        severity(&boxed, "on"),
        Some(Severity::Incompatible),
        "{boxed:#?}"
    );
}

// pydantic 2.x: `Field` and `field_serializer` are typed by their `@overload`s; the
// implementation behind them changed its own signature. The contract is the set of overloads.
#[test]
fn python_an_overloaded_function_is_its_overloads() {
    let base = "from typing import overload\n\n\
        @overload  # `default` argument set\ndef Field(default: T, *, alias: str | None = None) -> T: ...\n\
        @overload\ndef Field(*, default_factory: Callable[[], T], alias: str | None = None) -> T: ...\n\
        def Field(default=PydanticUndefined, *, default_factory=None, alias=None, **extra):\n    pass\n\n\
        class Model:\n    @overload\n    def dump(self, mode: str) -> dict: ...\n    @overload\n    def dump(self) -> dict: ...\n    def dump(self, mode='python', include=None):\n        pass\n";
    let head = base
        .replace(
            "def Field(default=PydanticUndefined, *, default_factory=None, alias=None, **extra):",
            "def Field(default=PydanticUndefined, *, alias=None, **extra: Unpack[_FromFieldInfoInputs]):",
        )
        .replace("def dump(self, mode='python', include=None):", "def dump(self, *args, **kwargs):");
    assert_eq!(changes(Grammar::Python, base, &head), vec![]);
    // An overload removed: reported, not silent.
    let fewer = base.replace(
        "@overload\ndef Field(*, default_factory: Callable[[], T], alias: str | None = None) -> T: ...\n",
        "",
    );
    assert_eq!(
        severity(&changes(Grammar::Python, base, &fewer), "Field"),
        Some(Severity::Undecided)
    );
    // The function gone: removed.
    let gone = "class Model:\n    pass\n";
    assert_eq!(
        severity(&changes(Grammar::Python, base, gone), "Field"),
        Some(Severity::Incompatible)
    );
}

// tokio 1.22: `pub fn gid(&self) -> gid_t` (`use libc::gid_t`) → `-> unix::gid_t`, where the
// crate's `unix` module now defines `pub type gid_t = u32`. The alias resolving one spelling
// must not make the same name written with its path a different type.
#[test]
fn rust_a_name_and_its_path_stay_alike_when_an_alias_resolves_one() {
    let everything = |_: &str| true;
    let base = crate::api::extract(
        Grammar::Rust,
        b"pub struct UCred { gid: u32 }\nimpl UCred {\n    pub fn gid(&self) -> gid_t { self.gid }\n}\n",
        &everything,
    )
    .unwrap();
    let head = crate::api::extract(
        Grammar::Rust,
        b"pub struct UCred { gid: u32 }\nimpl UCred {\n    pub fn gid(&self) -> unix::gid_t { self.gid }\n}\n",
        &everything,
    )
    .unwrap();
    let alias = |name: &str| (name == "gid_t").then(|| "u32".to_string());
    let types = Types {
        structural: false,
        erased: false,
        alias: &alias,
        underlying: &|_| None,
        inherits: &|_, _| None,
        declared: &|_| None,
        generic_at_base: &|_| None,
    };
    let found = compare(&base, &head, &types);
    assert_eq!(
        severity(&found, "UCred::gid"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
}

// pydantic 2.6 made `model_computed_fields` a class attribute declared for type checkers
// (`if TYPE_CHECKING: model_computed_fields: ClassVar[…]`, `else: model_computed_fields =
// {}`); 2.11 defined `__replace__` under `if not TYPE_CHECKING:`. Members in branches of the
// class body are members.
#[test]
fn python_members_defined_in_branches_of_a_class_body_are_members() {
    let base = "class BaseModel:\n    @property\n    def model_computed_fields(self) -> dict:\n        return {}\n\n    def __replace__(self, **changes):\n        pass\n";
    let head = "class BaseModel:\n    if TYPE_CHECKING:\n        model_computed_fields: ClassVar[dict]\n    else:\n        model_computed_fields = {}\n\n    if not TYPE_CHECKING:\n        def __replace__(self, **changes):\n            pass\n";
    let found = changes(Grammar::Python, base, head);
    no_break(&found);
    assert_ne!(
        severity(&found, "BaseModel.__replace__"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// pydantic 2.10: `AmqpDsn = Annotated[Url, UrlConstraints(…)]` became `class AmqpDsn(AnyUrl)`.
// A name bound to a type expression and a class of that name are both types to annotations:
// undecided, not a break. A plain value becoming a class still is one.
#[test]
fn python_a_type_expression_now_a_class_is_undecided() {
    let base = "AmqpDsn = Annotated[Url, UrlConstraints(allowed_schemes=['amqp'])]\nJson: TypeAlias = dict\nTIMEOUT = 10\nAnyUrl = core.Url\n";
    let head = "class AmqpDsn(AnyUrl):\n    pass\n\nclass Json:\n    pass\n\nclass TIMEOUT:\n    pass\n\nclass AnyUrl(_BaseUrl):\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&found, "AmqpDsn"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "AnyUrl"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Json"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "TIMEOUT"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// requests 2.34 declared `__all__` in its `__init__.py` without `check_compatibility`, still
// defined there: importable by name, only no longer promised. Not a removal. Gone as well, it
// warns: the module now states its public names, and code importing it still breaks.
#[test]
fn python_a_name_left_out_of_a_new_all_is_not_removed() {
    let base = "def check_compatibility(urllib3_version):\n    pass\n\ndef get(url):\n    pass\n";
    let head = "__all__ = ('get',)\n\ndef check_compatibility(urllib3_version):\n    pass\n\ndef get(url):\n    pass\n";
    let found = changes(Grammar::Python, base, head);
    assert_ne!(
        severity(&found, "check_compatibility"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // Gone from the module as it is left out of the new `__all__`: a warning.
    let gone = "__all__ = ('get',)\n\ndef get(url):\n    pass\n";
    assert_eq!(
        severity(&changes(Grammar::Python, base, gone), "check_compatibility"),
        Some(Severity::Undecided)
    );
}

// tokio 1.x `Ready`, mio `Interest`: `bitflags! { pub struct Ready: u8 { const READABLE = …; } }`
// defines a struct whose flags are associated consts (`Ready::READABLE`) and whose `bits()`
// returns the written type. The macro's body is items in their own syntax: read as such.
#[test]
fn rust_bitflags_define_a_struct_with_its_flags_as_associated_consts() {
    let base = "bitflags! {\n    /// Readiness.\n    #[derive(Clone, Copy)]\n    pub struct Ready: u8 {\n        /// Readable.\n        const READABLE = 0b01;\n        #[cfg(unix)]\n        const WRITABLE = 0b10;\n    }\n}\n";
    let everything = |_: &str| true;
    let surface = extract(Grammar::Rust, base.as_bytes(), &everything).unwrap();
    for key in ["Ready", "Ready::READABLE", "Ready::WRITABLE", "Ready::bits"] {
        assert!(
            surface.items.contains_key(key),
            "{key}: {:#?}",
            surface.items
        );
    }
    // A flag added: compatible.
    let added = base.replace(
        "const WRITABLE = 0b10;",
        "const WRITABLE = 0b10;\n        const ERROR = 0b100;",
    );
    assert_eq!(
        severity(&changes(Grammar::Rust, base, &added), "Ready::ERROR"),
        Some(Severity::Compatible)
    );
    // A flag removed, or the bits' type changed: breaks.
    let removed = base.replace("        #[cfg(unix)]\n        const WRITABLE = 0b10;\n", "");
    assert_eq!(
        severity(&changes(Grammar::Rust, base, &removed), "Ready::WRITABLE"),
        Some(Severity::Incompatible)
    );
    let wider = base.replace("Ready: u8", "Ready: u16");
    assert_eq!(
        severity(&changes(Grammar::Rust, base, &wider), "Ready::bits"),
        Some(Severity::Incompatible)
    );
    // bitflags 2's external form, the struct written outside: the same surface.
    let external = "/// Readiness.\n#[derive(Clone, Copy)]\npub struct Ready(u8);\n\nbitflags::bitflags! {\n    impl Ready: u8 {\n        const READABLE = 0b01;\n        #[cfg(unix)]\n        const WRITABLE = 0b10;\n        const _ = !0;\n    }\n}\n";
    no_break(&changes(Grammar::Rust, base, external));
    let surface = extract(Grammar::Rust, external.as_bytes(), &everything).unwrap();
    assert!(
        !surface.items.contains_key("Ready::_"),
        "{:#?}",
        surface.items
    );
}

// An inherent `pub const` is named by users (`Duration::MAX`, `Builder::DEFAULT_LIMIT`):
// removing it breaks them, as removing a method does.
#[test]
fn rust_inherent_associated_consts_are_items() {
    let base = "pub struct Limits;\n\nimpl Limits {\n    pub const MAX: usize = 64;\n    const PRIVATE: usize = 1;\n    pub fn new() -> Limits { Limits }\n}\n";
    let everything = |_: &str| true;
    let surface = extract(Grammar::Rust, base.as_bytes(), &everything).unwrap();
    assert!(
        surface.items.contains_key("Limits::MAX"),
        "{:#?}",
        surface.items
    );
    assert!(!surface.items.contains_key("Limits::PRIVATE"));
    let gone = base.replace("    pub const MAX: usize = 64;\n", "");
    assert_eq!(
        severity(&changes(Grammar::Rust, base, &gone), "Limits::MAX"),
        Some(Severity::Incompatible)
    );
    // Its value is not the contract; its type is.
    no_break(&changes(
        Grammar::Rust,
        base,
        &base.replace("= 64", "= 128"),
    ));
    assert_eq!(
        severity(
            &changes(Grammar::Rust, base, &base.replace("MAX: usize", "MAX: u32")),
            "Limits::MAX"
        ),
        Some(Severity::Incompatible)
    );
}

// uuid 1.23: the deprecated `Timestamp::from_gregorian` moved into a `#[doc(hidden)] impl
// Timestamp { … }` block. Its methods are hidden, still there for callers: not removed.
#[test]
fn rust_methods_of_a_hidden_impl_block_are_hidden_not_removed() {
    let base = "pub struct Timestamp;\n\nimpl Timestamp {\n    pub const fn from_gregorian(ticks: u64) -> Self { Timestamp }\n    pub fn to_unix(&self) -> u64 { 0 }\n}\n";
    let head = "pub struct Timestamp;\n\nimpl Timestamp {\n    pub fn to_unix(&self) -> u64 { 0 }\n}\n\n#[doc(hidden)]\nimpl Timestamp {\n    #[deprecated(since = \"1.23.0\")]\n    pub const fn from_gregorian(ticks: u64) -> Self { Timestamp }\n}\n";
    let found = changes(Grammar::Rust, base, head);
    assert_eq!(
        severity(&found, "Timestamp::from_gregorian"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    // Behind an opt-in `cfg` instead: gone from the stable surface.
    let opt_in = head.replace("#[doc(hidden)]", "#[cfg(uuid_unstable)]");
    assert_eq!(
        severity(
            &changes(Grammar::Rust, base, &opt_in),
            "Timestamp::from_gregorian"
        ),
        Some(Severity::Incompatible)
    );
}

// time 0.3.48 wrote its format modifiers' builder methods through its own `builder_methods!`,
// called inside each `impl` with the methods' names (`fn with_padding(padding: Padding);`),
// whose `macro_rules!` writes `pub const fn $method(…)`: the methods are still there. One the
// call no longer names is removed; a macro whose definition cannot be read (another crate's)
// makes the type's members unknown, not removed; a macro of the file that writes no `fn`
// generates nothing.
#[test]
fn rust_a_method_the_crates_own_macro_still_generates_inside_the_impl_is_not_removed() {
    let base = "pub struct Day {\n    pub padding: Padding,\n    pub width: u8,\n}\n\n\
        impl Day {\n    pub const fn with_padding(self, padding: Padding) -> Self {\n        Self { padding, ..self }\n    }\n\n    pub const fn with_width(self, width: u8) -> Self {\n        Self { width, ..self }\n    }\n}\n";
    let head = |call: &str, definition: &str| {
        format!(
            "{definition}\npub struct Day {{\n    pub padding: Padding,\n    pub width: u8,\n}}\n\nimpl Day {{\n    {call}! {{\n        /// Set the padding.\n        fn with_padding(padding: Padding);\n    }}\n}}\n"
        )
    };
    let builders = "macro_rules! builder_methods {\n    ($(\n        $(#[$attr:meta])*\n        fn $method:ident($field:ident : $ty:ty);\n    )+) => {$(\n        $(#[$attr])*\n        pub const fn $method(self, $field: $ty) -> Self {\n            Self { $field, ..self }\n        }\n    )+};\n}\n";
    let generated = changes(Grammar::Rust, base, &head("builder_methods", builders));
    assert_eq!(
        severity(&generated, "Day::with_padding"),
        Some(Severity::Compatible),
        "{generated:#?}"
    );
    let why = &generated
        .iter()
        .find(|c| c.key == "Day::with_padding")
        .unwrap()
        .why;
    assert!(why.contains("builder_methods!"), "{why}");
    assert_eq!(
        severity(&generated, "Day::with_width"),
        Some(Severity::Incompatible),
        "{generated:#?}"
    );
    let unread = changes(Grammar::Rust, base, &head("other_crate_builders", ""));
    for key in ["Day::with_padding", "Day::with_width"] {
        assert_eq!(
            severity(&unread, key),
            Some(Severity::Undecided),
            "{unread:#?}"
        );
    }
    assert!(
        unread
            .iter()
            .all(|c| c.why.contains("other_crate_builders!") && c.why.contains("unknown")),
        "{unread:#?}"
    );
    let logging =
        "macro_rules! log_calls {\n    ($($t:tt)*) => {\n        const _: () = ();\n    };\n}\n";
    let nothing = changes(Grammar::Rust, base, &head("log_calls", logging));
    assert_eq!(
        severity(&nothing, "Day::with_padding"),
        Some(Severity::Incompatible),
        "{nothing:#?}"
    );
}

// anyio 4.12 declared `__all__` in each public module and renamed the helpers it left out
// (`MemoryObjectStreamState` → `_MemoryObjectStreamState`): the module now states its public
// names, so a name removed as it is left out warns (code that imported it breaks, but nothing
// promises it any more), while a name the head's `__all__` still lists, or that the base's
// listed, is removed. An `__all__` that cannot be read (computed, or extended by a call the
// reader does not follow) states nothing: every public name counts, so no removal vanishes.
#[test]
fn python_a_module_first_declaring_all_states_its_public_names() {
    let base = "class MemoryObjectStreamState:\n    def statistics(self):\n        pass\n\n\
        class MemoryObjectSendStream:\n    def send(self, item):\n        pass\n\n\
        def create(size):\n    pass\n";
    let head = "__all__ = (\"MemoryObjectSendStream\", \"create\")\n\n\
        class _MemoryObjectStreamState:\n    def statistics(self):\n        pass\n\n\
        class MemoryObjectSendStream:\n    def send(self, item):\n        pass\n";
    let declared = changes(Grammar::Python, base, head);
    assert_eq!(
        severity(&declared, "MemoryObjectStreamState"),
        Some(Severity::Undecided),
        "{declared:#?}"
    );
    assert!(
        declared
            .iter()
            .filter(|c| c.key.starts_with("MemoryObjectStreamState"))
            .all(|c| c.why.contains("`__all__`")),
        "{declared:#?}"
    );
    // Listed by the head's `__all__`, yet gone.
    assert_eq!(
        severity(&declared, "create"),
        Some(Severity::Incompatible),
        "{declared:#?}"
    );
    // Promised by the base's own `__all__`, then dropped from it and removed.
    let listed = "__all__ = [\"create\", \"build\"]\n\ndef create(size):\n    pass\n\ndef build(x):\n    pass\n";
    let dropped = "__all__ = [\"create\"]\n\ndef create(size):\n    pass\n";
    let gone = changes(Grammar::Python, listed, dropped);
    assert_eq!(
        severity(&gone, "build"),
        Some(Severity::Incompatible),
        "{gone:#?}"
    );
    // `__all__` computed, extended by a call, or extended in a branch.
    let removed_build = |all: &str| {
        let base = format!(
            "import sys\n\n{all}\n\ndef create(size):\n    pass\n\ndef build(x):\n    pass\n"
        );
        let head = format!("import sys\n\n{all}\n\ndef create(size):\n    pass\n");
        changes(Grammar::Python, &base, &head)
    };
    for all in [
        "__all__ = [name for name in dir() if not name.startswith('_')]",
        "__all__ = ['create']\n__all__.append('build')",
        "__all__ = ['create']\n__all__.extend(['build'])",
        "__all__ = ['create']\nif sys.version_info >= (3, 8):\n    __all__ += ['build']",
        "__all__ = ['create'] + _extra",
    ] {
        let found = removed_build(all);
        assert_eq!(
            severity(&found, "build"),
            Some(Severity::Incompatible),
            "{all}: {found:#?}"
        );
    }
}

// `async` is how a body is written, not a contract, once the return type is: a declaration
// file never says `async`, and `async m(): Promise<T>` returns what `m(): Promise<T>` does.
#[test]
fn typescript_async_with_a_written_return_type_is_not_the_contract() {
    let base = "export default class App {\n  async onError(): Promise<never> { throw new Error('x'); }\n  close(): Promise<void> { return Promise.resolve(); }\n}\n\
        export async function load(path: string): Promise<string> { return path; }\n";
    let head = "export default class App {\n  onError(): Promise<never> { return Promise.reject(new Error('x')); }\n  async close(): Promise<void> {}\n}\n\
        export function load(path: string): Promise<string> { return Promise.resolve(path); }\n";
    assert_eq!(changes(Grammar::TypeScript, base, head), vec![]);
    assert_eq!(changes(Grammar::TypeScript, head, base), vec![]);
    // Without a written return type, `async` is the inferred type: a `Promise` no longer.
    let found = changes(
        Grammar::TypeScript,
        "export async function load(path: string) { return path; }\n",
        "export function load(path: string) { return path; }\n",
    );
    assert_eq!(
        severity(&found, "load"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// A "declaration changed" shows the base and head declarations: whatever the comparison
// keys on (`async`, `static`, an optional method) is in the text shown, so a break is never
// reported between two identical texts.
#[test]
fn typescript_a_break_is_never_shown_between_identical_declarations() {
    let pairs = [
        ("export async function f() {}\n", "export function f() {}\n"),
        (
            "export class A {\n  static m(): void {}\n}\n",
            "export class A {\n  m(): void {}\n}\n",
        ),
        (
            "export interface I {\n  m?(): void;\n}\n",
            "export interface I {\n  m(): void;\n}\n",
        ),
        (
            "export class A {\n  static limit: number;\n}\n",
            "export class A {\n  limit: number;\n}\n",
        ),
        (
            "export class A {\n  async m() {}\n}\n",
            "export class A {\n  m() {}\n}\n",
        ),
    ];
    for (base, head) in pairs {
        for (a, b) in [(base, head), (head, base)] {
            let found = changes(Grammar::TypeScript, a, b);
            assert!(!found.is_empty(), "{a} → {b}: a change expected");
            for change in &found {
                assert_ne!(change.base, change.head, "{a} → {b}: {change:#?}");
            }
        }
    }
}

// A 2015-edition crate names its own root items `::Level`; moved to 2018 it writes
// `crate::Level`: one item. A type is never a crate, so `::Level` can only be the crate's own.
#[test]
fn rust_a_crate_root_item_spelled_from_the_root_is_the_same_type() {
    let base = "pub struct Encoder<W> { w: W }\nimpl<W> Encoder<W> {\n    pub fn new(w: W, level: ::Level) -> Encoder<W> { Encoder { w } }\n}\n";
    let head = "pub struct Encoder<W> { w: W }\nimpl<W> Encoder<W> {\n    pub fn new(w: W, level: crate::Level) -> Encoder<W> { Encoder { w } }\n}\n";
    assert_eq!(changes(Grammar::Rust, base, head), vec![]);
    assert_eq!(changes(Grammar::Rust, head, base), vec![]);
    // Another item is another type, read as it is from the `crate::` spelling.
    let other = head.replace("crate::Level", "crate::Other");
    let found = changes(Grammar::Rust, base, &other);
    assert!(severity(&found, "Encoder::new").is_some(), "{found:#?}");
    assert_eq!(
        severity(&found, "Encoder::new"),
        severity(&changes(Grammar::Rust, head, &other), "Encoder::new")
    );
}

// The detector's own rendering of a parameter typed from the root: `level: ::Level`, never
// `level:::Level`.
#[test]
fn rust_a_path_from_the_root_is_shown_after_its_colon() {
    let base = "pub fn new(level: ::Level) {}\n";
    let found = changes(Grammar::Rust, base, "pub fn new(level: ::Other) {}\n");
    let shown = found[0].base.clone().unwrap_or_default();
    assert!(shown.contains("level: ::Level"), "{found:#?}");
}

// A type parameter used only as one argument's type, now `impl Trait` with the same bounds:
// every call that lets it be inferred still compiles; only a turbofish naming it
// (`new::<String>(..)`) no longer does. Not a proven break; the reverse is compatible, and a
// changed bound is judged as any bound.
#[test]
fn rust_a_type_parameter_now_impl_trait_breaks_only_a_turbofish() {
    let base = "pub struct Error;\nimpl Error {\n    pub fn new<T: Display>(span: Span, message: T) -> Self { todo!() }\n    pub fn new_spanned<T: ToTokens, U: Display>(tokens: T, message: U) -> Self { todo!() }\n}\n";
    let head = "pub struct Error;\nimpl Error {\n    pub fn new(span: Span, message: impl Display) -> Self { todo!() }\n    pub fn new_spanned(tokens: impl ToTokens, message: impl Display) -> Self { todo!() }\n}\n";
    let found = changes(Grammar::Rust, base, head);
    for key in ["Error::new", "Error::new_spanned"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Undecided),
            "{key}: {found:#?}"
        );
    }
    let why = &found.iter().find(|c| c.key == "Error::new").unwrap().why;
    assert!(why.contains("turbofish"), "{why}");
    let back = changes(Grammar::Rust, head, base);
    no_break(&back);
    assert!(
        back.iter().all(|c| c.severity != Severity::Undecided),
        "{back:#?}"
    );
    // Another bound is judged as any changed bound.
    let other = head.replace(
        "message: impl Display) -> Self { todo!() }\n    pub fn new_spanned",
        "message: impl Debug) -> Self { todo!() }\n    pub fn new_spanned",
    );
    let found = changes(Grammar::Rust, base, &other);
    assert_eq!(
        severity(&found, "Error::new"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}
