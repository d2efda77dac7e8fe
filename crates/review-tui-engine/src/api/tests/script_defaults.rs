//! TypeScript: type parameters added with a default. A call, annotation or `extends` written
//! before could pass no type argument for a parameter that did not exist, so it gets the
//! default; when substituting each added default for its parameter gives exactly the old
//! declaration, every old use still compiles. An implementation or override of a member is
//! another matter: it was written against the old signature, which a generic one may no
//! longer accept.

use super::contract::{api_after, assert_clears, assert_fails};
use crate::review::axes::AxisVerdict;

const STORAGE: &str = "export interface StorageItemType<T, K> {\n  value: T\n  key: K\n}\n\nexport interface TransactionOptions {\n  ttl?: number\n}\n\nexport interface Storage<T> {\n  getItem(key: string, opts?: TransactionOptions): Promise<StorageItemType<T, string> | null>;\n}\n\nexport function getItem(key: string): Promise<StorageItemType<unknown, string> | null> {\n  return Promise.resolve(null)\n}\n";

const PATH: &str = "src/storage.ts";

fn head_of(base: &str, replacements: &[(&str, &str)]) -> String {
    let mut head = base.to_string();
    for (from, to) in replacements {
        assert!(head.contains(from), "{from:?} not in the fixture");
        head = head.replace(from, to);
    }
    head
}

// `f(…): X` → `f<R = X>(…): R`: every old call passes no type argument and gets `X` back. A
// free function has no implementation but its own: compatible.
#[test]
fn typescript_a_function_given_a_defaulted_type_parameter_keeps_every_call() {
    let head = head_of(
        STORAGE,
        &[(
            "export function getItem(key: string): Promise<StorageItemType<unknown, string> | null>",
            "export function getItem<R = StorageItemType<unknown, string>>(key: string): Promise<R | null>",
        )],
    );
    let axis = api_after(&[(PATH, STORAGE)], &[(PATH, &head)]);
    assert_compatible(&axis);
}

// An interface's method made generic in its result: callers compile as before, but a class
// that implements the interface with the old signature returns `X` where any `R` is now
// asked for, which TypeScript rejects. Undecided: a warning, not a stop.
#[test]
fn typescript_an_interface_method_given_a_defaulted_type_parameter_warns_for_its_implementations() {
    let head = head_of(
        STORAGE,
        &[(
            "getItem(key: string, opts?: TransactionOptions): Promise<StorageItemType<T, string> | null>;",
            "getItem<R = StorageItemType<T, string>>(key: string, opts?: TransactionOptions): Promise<R | null>;",
        )],
    );
    let axis = api_after(&[(PATH, STORAGE)], &[(PATH, &head)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("`Storage.getItem`"), "{}", axis.detail);
    assert!(
        axis.detail.contains("cannot decide") && axis.detail.contains("implementation"),
        "{}",
        axis.detail
    );
}

// Types: `type A<T> = …` → `type A<T, U = X> = …` with `U` where `X` was, and an interface or
// class gaining a defaulted parameter that its members use where the default's type was.
// Every annotation `A<Y>` written before means what it meant.
#[test]
fn typescript_a_type_given_a_defaulted_type_parameter_keeps_every_annotation() {
    let base = "export type Pair<T> = [T, string]\n\nexport interface Box<T> {\n  value: T\n  label: string\n  read(): string\n}\n\nexport class Holder<T> {\n  item?: T\n  name: string = ''\n}\n";
    let head = head_of(
        base,
        &[
            (
                "type Pair<T> = [T, string]",
                "type Pair<T, L = string> = [T, L]",
            ),
            ("interface Box<T> {", "interface Box<T, L = string> {"),
            (
                "  label: string\n  read(): string",
                "  label: L\n  read(): L",
            ),
            (
                "class Holder<T> {",
                "class Holder<T, N extends string = string> {",
            ),
            ("  name: string = ''", "  name: N = '' as N"),
        ],
    );
    let axis = api_after(&[(PATH, base)], &[(PATH, &head)]);
    assert_compatible(&axis);
}

// A default that does not give back the old declaration hides nothing: the rest of the
// declaration compares as before (another result type is written differently, a warning; a
// parameter of another primitive type, a break). A type parameter removed, a default removed
// or a parameter inserted before the old ones (type arguments bind by position) is no
// parameter appended with a default, and is judged as before, never passed.
#[test]
fn typescript_only_an_exact_default_keeps_a_declaration() {
    let function = "export function getItem(key: string): Promise<string | null> {\n  return Promise.resolve(null)\n}\n";
    let other_default = head_of(
        function,
        &[(
            "getItem(key: string): Promise<string | null>",
            "getItem<R = number>(key: string): Promise<R | null>",
        )],
    );
    let axis = api_after(&[(PATH, function)], &[(PATH, &other_default)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("return type"), "{}", axis.detail);
    // The default is right, but a parameter's type changed too.
    let also_changed = head_of(
        function,
        &[(
            "getItem(key: string): Promise<string | null>",
            "getItem<R = string>(key: number): Promise<R | null>",
        )],
    );
    let axis = api_after(&[(PATH, function)], &[(PATH, &also_changed)]);
    assert_fails(&axis, &["`getItem`"]);
    // No default: a caller's `getItem(k)` infers `R` as `unknown`.
    let no_default = head_of(
        function,
        &[(
            "getItem(key: string): Promise<string | null>",
            "getItem<R>(key: string): Promise<R | null>",
        )],
    );
    let axis = api_after(&[(PATH, function)], &[(PATH, &no_default)]);
    assert_not_read_as_a_default(&axis);

    let generic = "export function getItem<U extends string>(key: string): U | null {\n  return null\n}\n\nexport type Pair<T, L = string> = [T, L]\n";
    // Removed: `getItem<'a'>(k)` no longer compiles.
    let removed = head_of(
        generic,
        &[(
            "getItem<U extends string>(key: string): U | null",
            "getItem(key: string): string | null",
        )],
    );
    let axis = api_after(&[(PATH, generic)], &[(PATH, &removed)]);
    assert_not_read_as_a_default(&axis);
    // A default removed: `Pair<number>` no longer compiles.
    let undefaulted = head_of(generic, &[("type Pair<T, L = string>", "type Pair<T, L>")]);
    let axis = api_after(&[(PATH, generic)], &[(PATH, &undefaulted)]);
    assert_not_read_as_a_default(&axis);
    // Inserted before: `Pair<number>` now binds `number` to the new parameter.
    let inserted = head_of(
        generic,
        &[(
            "type Pair<T, L = string> = [T, L]",
            "type Pair<K = string, T = unknown, L = string> = [T, L]",
        )],
    );
    let axis = api_after(&[(PATH, generic)], &[(PATH, &inserted)]);
    assert_not_read_as_a_default(&axis);
    // Appended with the right default, but a parameter's type now names it: a call infers it
    // from the argument, and the result is then the argument's type.
    let inferred = head_of(
        function,
        &[(
            "getItem(key: string): Promise<string | null>",
            "getItem<R = string>(key: R): Promise<R | null>",
        )],
    );
    let axis = api_after(&[(PATH, function)], &[(PATH, &inferred)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("infers it"), "{}", axis.detail);
    // So with a result left to inference: the body may return it.
    let unwritten = "export function client(url: string) {\n  return { url }\n}\n";
    let generic = unwritten.replace(
        "client(url: string)",
        "client<P extends string = string>(url: P)",
    );
    let axis = api_after(&[(PATH, unwritten)], &[(PATH, &generic)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("infers it"), "{}", axis.detail);
}

/// Every change compatible, and read so by this principle.
fn assert_compatible(axis: &crate::review::axes::Axis) {
    assert_clears(axis);
    assert!(
        axis.detail.contains("with a default added") && !axis.detail.contains("cannot decide"),
        "{}",
        axis.detail
    );
}

// Exact substitution only: with the default written, a type alias that also gained a union
// member is not the old declaration, and a rule that would call that widening on its own is
// no proof here.
#[test]
fn typescript_a_default_with_another_change_is_only_undecided() {
    let base = "export type Id<T> = T | string\n";
    let head = "export type Id<T, N = number> = T | string | N\n";
    let axis = api_after(&[(PATH, base)], &[(PATH, head)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(axis.detail.contains("cannot decide"), "{}", axis.detail);
}

fn assert_not_read_as_a_default(axis: &crate::review::axes::Axis) {
    assert!(
        axis.verdict == AxisVerdict::Fail || axis.detail.contains("cannot decide"),
        "{}",
        axis.detail
    );
    assert!(
        !axis.detail.contains("with a default added"),
        "{}",
        axis.detail
    );
}

// Overload signatures are compared as a set: one of them given a defaulted type parameter
// (or written differently in any way) is a signature written differently, whether or not the
// method returns a promise; never a changed modifier.
#[test]
fn typescript_an_overload_given_a_defaulted_type_parameter_is_no_changed_modifier() {
    let base = "export interface Store<T> {\n  getItem<U extends T>(key: string): Promise<U | null>;\n  getItem(key: string): Promise<Array<T> | null>;\n}\n";
    let head = head_of(
        base,
        &[(
            "getItem(key: string): Promise<Array<T> | null>;",
            "getItem<R = Array<T>>(key: string): Promise<R | null>;",
        )],
    );
    let axis = api_after(&[(PATH, base)], &[(PATH, &head)]);
    assert_eq!(axis.verdict, AxisVerdict::Warn, "{}", axis.detail);
    assert!(
        !axis.detail.contains("declaration changed"),
        "{}",
        axis.detail
    );
}
