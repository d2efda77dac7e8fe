//! One signature written two ways. Java generics as the compiler reads them (type parameters
//! bind by position, overloads are told apart by their erasure, a wildcard type accepts every
//! type it contains: commons-lang 3.12 → 3.18), and a Rust item named through another path or
//! a hidden alias (uuid 1.19, 1.23). Each was a false stop on a project's own minor release.

use super::surface::{changes, no_break, severity};
use crate::api::compare::Severity;
use crate::parse::grammar::Grammar;

// commons-lang 3.13: `Streams.FailableStream<O>` became `FailableStream<T>` and
// `Streams.ArrayCollector<O>` became `ArrayCollector<E>`. A type's parameters bind by
// position (`FailableStream<String>` either way): every member written with the old name is
// the same member.
#[test]
fn java_a_type_parameter_of_the_enclosing_type_renamed_is_the_same_signature() {
    let class = |o: &str| {
        format!(
            "package org.acme;\npublic class Streams {{\n\
             public static class FailableStream<{o}> {{\n\
             \x20 public FailableStream(final Stream<{o}> stream) {{}}\n\
             \x20 public boolean allMatch(final FailablePredicate<{o}, ?> p) {{ return true; }}\n\
             \x20 public <R> FailableStream<R> map(final FailableFunction<{o}, R, ?> f) {{ return null; }}\n\
             \x20 public <A, R> R collect(final Collector<? super {o}, A, R> c) {{ return null; }}\n\
             \x20 public Stream<{o}> stream() {{ return null; }}\n\
             }}\n\
             public static class ArrayCollector<{o}> implements Collector<{o}, List<{o}>, {o}[]> {{\n\
             \x20 public BiConsumer<List<{o}>, {o}> accumulator() {{ return null; }}\n\
             }}\n}}\n"
        )
    };
    let found = changes(Grammar::Java, &class("O"), &class("E"));
    assert_eq!(found, vec![], "{found:#?}");
    // A parameter of the type now of another type is still a break.
    let head = class("E").replace(
        "allMatch(final FailablePredicate<E, ?> p)",
        "allMatch(final FailablePredicate<String, ?> p)",
    );
    let found = changes(Grammar::Java, &class("O"), &head);
    assert_eq!(
        severity(&found, "Streams.FailableStream.allMatch(FailablePredicate)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// commons-lang 3.14: `ExceptionUtils` gained `<T extends Throwable> T throwUnchecked(T)`
// beside `<T> T throwUnchecked(T)`. Java tells overloads apart by their erasure (`Object` and
// `Throwable` here): two methods, neither replacing the other.
#[test]
fn java_overloads_are_keyed_by_their_erased_parameter_types() {
    let base = "public class ExceptionUtils {\n\
        \x20 public static <T> T throwUnchecked(final T throwable) { return throwable; }\n\
        \x20 public static <E extends Throwable> void rethrow(final E e, final int n) {}\n}\n";
    let head = "public class ExceptionUtils {\n\
        \x20 public static <T> T throwUnchecked(final T throwable) { return throwable; }\n\
        \x20 public static <T extends Throwable> T throwUnchecked(final T throwable) { return throwable; }\n\
        \x20 public static <X extends Throwable> void rethrow(final X e, final int n) {}\n}\n";
    let found = changes(Grammar::Java, base, head);
    no_break(&found);
    assert_eq!(
        severity(&found, "ExceptionUtils.throwUnchecked(Throwable)"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "ExceptionUtils.throwUnchecked(Object)"),
        None
    );
    assert_eq!(
        severity(&found, "ExceptionUtils.rethrow(Throwable,int)"),
        None,
        "{found:#?}"
    );
    // The overload that was there removed: a break, under its erased key.
    let gone = head.replace(
        "  public static <T> T throwUnchecked(final T throwable) { return throwable; }\n  public static <T extends",
        "  public static <T extends",
    );
    let found = changes(Grammar::Java, base, &gone);
    assert_eq!(
        severity(&found, "ExceptionUtils.throwUnchecked(Object)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// commons-lang 3.15: `DiffResult<T>` → `DiffResult<?>` as a parameter accepts every old
// argument; 3.18: a result refined from `Collector<T, ?, T[]>` to `Collector<T, List<T>, T[]>`
// gives callers a type assignable to the old one. The other way each is a break.
#[test]
fn java_wildcards_widen_parameters_and_narrow_results_compatibly() {
    let class = |param: &str, ret: &str| {
        format!(
            "public class Streams<T> {{\n\
             \x20 public static <T> {ret} toArray(final Class<T> c) {{ return null; }}\n\
             \x20 public void append(final String name, final {param} result) {{}}\n}}\n"
        )
    };
    let narrow = class("DiffResult<T>", "Collector<T, ?, T[]>");
    let wide = class("DiffResult<?>", "Collector<T, List<T>, T[]>");
    let found = changes(Grammar::Java, &narrow, &wide);
    no_break(&found);
    assert_eq!(
        severity(&found, "Streams.append(String,DiffResult)"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Streams.toArray(Class)"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    for (before, after) in [
        ("List<T>", "List<? extends T>"),
        ("List<Number>", "List<? super Number>"),
        ("List<? extends T>", "List<?>"),
    ] {
        let found = changes(
            Grammar::Java,
            &class(before, "List<T>"),
            &class(after, "List<T>"),
        );
        assert_eq!(
            severity(&found, "Streams.append(String,List)"),
            Some(Severity::Compatible),
            "{before} → {after}: {found:#?}"
        );
    }
    // Narrowed parameters and widened results break.
    let found = changes(Grammar::Java, &wide, &narrow);
    assert_eq!(
        severity(&found, "Streams.append(String,DiffResult)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    assert_eq!(
        severity(&found, "Streams.toArray(Class)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // A nested argument is not contained: `List<List<T>>` is no `List<List<?>>`.
    let found = changes(
        Grammar::Java,
        &class("List<List<T>>", "List<T>"),
        &class("List<List<?>>", "List<T>"),
    );
    assert_eq!(
        severity(&found, "Streams.append(String,List)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// uuid 1.19: every `serde_support` function's bound went from `serde::Deserializer<'de>` to
// `serde_core::Deserializer<'de>`, the trait serde re-exports from serde_core. One item named
// through two crates' paths (a facade and its core: serde → serde_core, futures →
// futures_core) is the same bound as far as the text tells: undecided, never a break.
#[test]
fn rust_a_bound_naming_the_same_item_through_another_crate_is_not_a_break() {
    let module = |krate: &str| {
        format!(
            "pub mod braced {{\n\
             \x20   pub fn deserialize<'de, D>(deserializer: D) -> Result<crate::Uuid, D::Error>\n\
             \x20   where\n        D: {krate}::Deserializer<'de>,\n    {{ todo!() }}\n\
             \x20   pub fn serialize<S: {krate}::Serializer>(u: &crate::Uuid, serializer: S) -> Result<S::Ok, S::Error> {{ todo!() }}\n}}\n"
        )
    };
    let found = changes(Grammar::Rust, &module("serde"), &module("serde_core"));
    no_break(&found);
    for key in ["braced::deserialize", "braced::serialize"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Undecided),
            "{key}: {found:#?}"
        );
    }
    // Another trait named through the new path is still another bound.
    let other = module("serde_core").replace("serde_core::Serializer", "serde_core::Serialize");
    let found = changes(Grammar::Rust, &module("serde"), &other);
    assert_eq!(
        severity(&found, "braced::serialize"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// uuid 1.23: `context::Context` renamed `ContextV1`, the old name kept as `#[doc(hidden)] pub
// type Context = ContextV1;`. `Context::new` still resolves through the hidden alias.
#[test]
fn rust_a_hidden_alias_of_a_renamed_type_still_carries_its_members() {
    let base = "pub mod context {\n    pub struct Context { count: u16 }\n\n\
        impl Context {\n        pub const fn new(count: u16) -> Self { todo!() }\n        pub fn new_random() -> Self { todo!() }\n        pub fn gone(&self) {}\n    }\n}\n";
    // As uuid writes it: in a private module whose names the public one re-exports.
    let head = "pub mod context {\n    mod v1_support {\n    pub struct ContextV1 { count: u16 }\n\n\
        #[doc(hidden)]\n    pub type Context = ContextV1;\n\n\
        impl ContextV1 {\n        pub const fn new(count: u16) -> Self { todo!() }\n        pub fn new_random() -> Self { todo!() }\n    }\n    }\n    pub use v1_support::*;\n}\n";
    let found = changes(Grammar::Rust, base, head);
    for key in ["context::Context::new", "context::Context::new_random"] {
        assert_ne!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
    // What the target does not have is gone.
    assert_eq!(
        severity(&found, "context::Context::gone"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// logrus 1.10: `FieldLogger`'s `Debug`, `Info`… moved into `DebugLogger`, `InfoLogger`…, which
// `FieldLogger` now embeds. A Go interface's method set includes its embedded interfaces':
// nothing was removed, and embedding an interface whose methods it already had asks nothing
// new of implementations.
#[test]
fn go_interface_methods_moved_into_an_embedded_interface_are_not_removed() {
    let base = "package logrus\n\ntype FieldLogger interface {\n\tWithError(err error) *Entry\n\tDebug(args ...any)\n\tDebugf(format string, args ...any)\n\tPrint(args ...any)\n}\n";
    let head = "package logrus\n\ntype StdLogger interface {\n\tPrint(args ...any)\n}\n\n\
        type DebugLogger interface {\n\tDebug(args ...any)\n\tDebugf(format string, args ...any)\n}\n\n\
        type FieldLogger interface {\n\tWithError(err error) *Entry\n\tStdLogger\n\tDebugLogger\n}\n";
    let found = changes(Grammar::Go, base, head);
    no_break(&found);
    assert_eq!(
        severity(&found, "FieldLogger.Debug"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    // An embedded interface bringing a method implementations lacked is still a new
    // requirement, and a method no embedded interface has is removed.
    let more = head.replace(
        "\tDebugf(format string, args ...any)\n}",
        "\tDebugf(format string, args ...any)\n\tDebugln(args ...any)\n}",
    );
    let found = changes(Grammar::Go, base, &more);
    assert_eq!(
        severity(&found, "FieldLogger.DebugLogger"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    let fewer = head.replace("\tDebugf(format string, args ...any)\n", "");
    let found = changes(Grammar::Go, base, &fewer);
    assert_eq!(
        severity(&found, "FieldLogger.Debugf"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// logrus 1.10: `Logger.ExitFunc exitFunc` (`type exitFunc func(int)`, unexported) became
// `ExitFunc func(int)`. An unexported defined type is still the type literal it is defined as:
// values are assignable both ways, which the comparison reads as for an exported one.
#[test]
fn go_an_unexported_defined_type_replaced_by_its_literal_is_not_a_break() {
    let base = "package logrus\n\ntype exitFunc func(int)\n\ntype Logger struct {\n\tExitFunc exitFunc\n}\n";
    let head = "package logrus\n\ntype Logger struct {\n\tExitFunc func(int)\n}\n";
    let found = changes(Grammar::Go, base, head);
    no_break(&found);
    let other = head.replace("func(int)", "func(int64)");
    let found = changes(Grammar::Go, base, &other);
    assert_eq!(
        severity(&found, "Logger.ExitFunc"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}
