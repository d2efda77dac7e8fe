//! Java types that changed only in their type arguments, the erasure the same (JLS 4.6, 4.8):
//! a raw type given type arguments, a method given type parameters whose erasure is the old
//! type, a type that had no type parameters given some. Compiled callers see the same
//! descriptors; old sources still compile (at most unchecked warnings) only where every old
//! argument, use of the result and override still fits, and a real break hidden behind
//! generics (the erasure changed, an argument no longer accepted) still fails.

use super::surface::{changes, severity};
use crate::api::compare::Severity;
use crate::parse::grammar::Grammar;

// A static method's raw parameter given a wildcard (`register(Class)` → `register(Class<?>)`):
// a raw `Class` converts to `Class<?>` unchecked and any `Class<X>` is one.
#[test]
fn java_a_raw_parameter_given_unbounded_type_arguments_keeps_every_call() {
    let base = "public class Utils {\n\
        \x20 public static void register(Class c) {}\n\
        \x20 public void add(Class c, String name) {}\n\
        \x20 public static void all(Class[] cs) {}\n\
        \x20 public static void each(Class... cs) {}\n}\n";
    let head = "public class Utils {\n\
        \x20 public static void register(Class<?> c) {}\n\
        \x20 public void add(Class<?> c, String name) {}\n\
        \x20 public static void all(Class<?>[] cs) {}\n\
        \x20 public static void each(Class<?>... cs) {}\n}\n";
    let found = changes(Grammar::Java, base, head);
    for key in [
        "Utils.register(Class)",
        "Utils.add(Class,String)",
        "Utils.all(Class[])",
        "Utils.each(Class...)",
    ] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Compatible),
            "{key}: {found:#?}"
        );
    }
}

// The same erasure, and still a break: a bounded type argument refuses an old `Class<String>`;
// an override of `both(Class, List<String>)` is neither the new signature nor its erasure, a
// name clash (JLS 8.4.8.3); another raw type, or a type argument changed, is another type.
#[test]
fn java_type_arguments_that_refuse_an_old_argument_or_clash_with_an_override_still_break() {
    let base = "public class Utils {\n\
        \x20 public static void bounded(Class c) {}\n\
        \x20 public void both(Class c, List<String> l) {}\n\
        \x20 public static void names(List<String> l) {}\n\
        \x20 public static void nested(Map<String, List> m) {}\n\
        \x20 public static void one(List<?> l) {}\n}\n";
    let head = "public class Utils {\n\
        \x20 public static void bounded(Class<? extends Number> c) {}\n\
        \x20 public void both(Class<?> c, List<String> l) {}\n\
        \x20 public static void names(List<Integer> l) {}\n\
        \x20 public static void nested(Map<String, List<?>> m) {}\n\
        \x20 public static void one(Set<?> l) {}\n}\n";
    let found = changes(Grammar::Java, base, head);
    for key in [
        "Utils.bounded(Class)",
        "Utils.both(Class,List)",
        "Utils.names(List)",
        "Utils.nested(Map)",
        "Utils.one(List)",
    ] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// A type that declared no type parameters given one (`abstract class Sink` → `Sink<T extends
// OutputStream>`), and results of it given type arguments: old code could only name it raw,
// which is still legal, and every `Sink<…>` is a raw `Sink`.
#[test]
fn java_a_type_given_its_first_type_parameters_is_still_used_raw_by_old_code() {
    let base = "public class Streams {\n\
        \x20 public abstract static class Sink extends OutputStream {}\n\
        \x20 public Sink open(String name, OutputStream out) { return null; }\n\
        \x20 public static Sink[] all() { return null; }\n}\n";
    let head = "public class Streams {\n\
        \x20 public abstract static class Sink<T extends OutputStream> extends FilterOutputStream {\n\
        \x20\x20 public Sink(T out) { super(out); }\n\
        \x20 }\n\
        \x20 public Sink<?> open(String name, OutputStream out) { return null; }\n\
        \x20 public static Sink<?>[] all() { return null; }\n}\n";
    let found = changes(Grammar::Java, base, head);
    for key in [
        "Streams.Sink",
        "Streams.open(String,OutputStream)",
        "Streams.all()",
    ] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Compatible),
            "{key}: {found:#?}"
        );
    }
}

// A raw result of a type that was already generic (`List names()` → `List<?> names()`): old
// code assigned it to `List<String>` with an unchecked warning, which no longer compiles; and
// a type given type parameters whose instance members have type arguments: used raw, those
// members are erased (`for (String s : sink.names())` no longer compiles).
#[test]
fn java_type_arguments_old_code_could_already_have_written_still_break() {
    let base = "public class Streams {\n\
        \x20 public static class Sink {\n\
        \x20\x20 public List<String> names() { return null; }\n\
        \x20 }\n\
        \x20 public List names() { return null; }\n}\n";
    let head = "public class Streams {\n\
        \x20 public static class Sink<T> {\n\
        \x20\x20 public List<String> names() { return null; }\n\
        \x20 }\n\
        \x20 public List<?> names() { return null; }\n}\n";
    let found = changes(Grammar::Java, base, head);
    for key in ["Streams.Sink", "Streams.names()"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
}

// An interface method made generic with the same erasure (`Sink create(String, OutputStream)`
// → `<T extends OutputStream> Sink<T> create(String, T)`): every call infers `T` from its
// argument, and an implementation written against the old signature still overrides (its
// signature is the new one's erasure, its raw result converts unchecked, JLS 8.4.8.3).
#[test]
fn java_an_interface_method_made_generic_with_the_same_erasure_keeps_its_implementations() {
    let base = "public class Streams {\n\
        \x20 public abstract static class Sink extends OutputStream {}\n\
        \x20 public interface Provider {\n\
        \x20\x20 Sink create(String name, OutputStream out);\n\
        \x20 }\n}\n";
    let head = "public class Streams {\n\
        \x20 public abstract static class Sink<T extends OutputStream> extends OutputStream {}\n\
        \x20 public interface Provider {\n\
        \x20\x20 <T extends OutputStream> Sink<T> create(String name, T out);\n\
        \x20 }\n}\n";
    let found = changes(Grammar::Java, base, head);
    assert_eq!(
        severity(&found, "Streams.Provider.create(String,OutputStream)"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    // `Sink` already generic at the base: old code may have assigned the raw result to a
    // `Sink<X>` (unchecked), which now compiles only where its argument is an `X`.
    let generic = |text: &str| {
        text.replace(
            "class Sink extends",
            "class Sink<T extends OutputStream> extends",
        )
    };
    let found = changes(Grammar::Java, &generic(base), head);
    assert_eq!(
        severity(&found, "Streams.Provider.create(String,OutputStream)"),
        Some(Severity::Undecided),
        "{found:#?}"
    );
    // A bound that is not the old type changes the erasure: the old method is gone.
    let narrowed = head.replace(
        "<T extends OutputStream> Sink<T>",
        "<T extends FileOutputStream> Sink<T>",
    );
    let found = changes(Grammar::Java, base, &narrowed);
    assert_eq!(
        severity(&found, "Streams.Provider.create(String,OutputStream)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    // `T` both a whole parameter and a type argument: an old call passing an `OutputStream`
    // and a `List<String>` no longer infers one `T`.
    let base = "public class Streams {\n  public static void put(OutputStream out, List l) {}\n}\n";
    let head = "public class Streams {\n  public static <T extends OutputStream> void put(T out, List<T> l) {}\n}\n";
    let found = changes(Grammar::Java, base, head);
    assert_eq!(
        severity(&found, "Streams.put(OutputStream,List)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}

// A class that had no type parameters given some, its members' types now those variables with
// the old types as their erasure (`Encoder(OutputStream, Codec)` → `Encoder(OutputStream, C)`,
// `C extends Codec`): old code could only name the class raw, and the members of a raw type
// are their erasures (JLS 4.8), the old signatures. A constructor is not inherited, a final
// member not overridden, and a final field only read: every old use still compiles.
#[test]
fn java_members_of_a_class_given_its_first_type_parameters_are_read_raw_by_old_code() {
    let base = "public class Encoder extends FilterOutputStream {\n\
        \x20 public final Codec codec;\n\
        \x20 public Encoder(OutputStream out, Codec codec, boolean encode) { super(out); }\n\
        \x20 public Encoder(Codec[] codecs) { super(null); }\n\
        \x20 public Encoder(Manager manager) { super(null); }\n\
        \x20 public final Codec codec() { return null; }\n\
        \x20 public static Codec lookup(String name) { return null; }\n\
        \x20 public class Part {\n\
        \x20\x20 public Part(Codec codec) {}\n\
        \x20 }\n}\n";
    let head = "public class Encoder<C extends Codec, T extends Encoder<C, T, B>, \
        B extends Builder<T, C, B>> extends FilterOutputStream {\n\
        \x20 public final C codec;\n\
        \x20 public Encoder(OutputStream out, C codec, boolean encode) { super(out); }\n\
        \x20 public Encoder(C[] codecs) { super(null); }\n\
        \x20 public Encoder(Manager<C> manager) { super(null); }\n\
        \x20 public final C codec() { return null; }\n\
        \x20 public static Codec lookup(String name) { return null; }\n\
        \x20 public class Part {\n\
        \x20\x20 public Part(C codec) {}\n\
        \x20 }\n}\n";
    let found = changes(Grammar::Java, base, head);
    for key in [
        "Encoder",
        "Encoder.codec",
        "Encoder.<init>(OutputStream,Codec,boolean)",
        "Encoder.<init>(Codec[])",
        "Encoder.<init>(Manager)",
        "Encoder.codec()",
        "Encoder.Part.<init>(Codec)",
    ] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Compatible),
            "{key}: {found:#?}"
        );
    }
}

// Where a class given its first type parameters is also seen parameterised (a subclass of the
// library now `extends Encoder<Base64Codec>`), a member taking a class variable takes only that
// argument through it, an override of an overridable member written against the old type
// clashes with it there, and a field of it is written only with it: reported, not proven.
#[test]
fn java_overridable_members_of_a_class_given_its_first_type_parameters_are_undecided() {
    let base = "public class Encoder {\n\
        \x20 public Codec codec;\n\
        \x20 public void use(Codec codec) {}\n\
        \x20 public Codec codec() { return null; }\n}\n";
    let head = "public class Encoder<C extends Codec> {\n\
        \x20 public C codec;\n\
        \x20 public void use(C codec) {}\n\
        \x20 public C codec() { return null; }\n}\n";
    let found = changes(Grammar::Java, base, head);
    for key in ["Encoder.codec", "Encoder.use(Codec)", "Encoder.codec()"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Undecided),
            "{key}: {found:#?}"
        );
    }
}

// Still breaks: a bound that is not the old type (the erasure changed), a class already
// generic given another type parameter (every `Encoder<X>` written has one argument too few),
// a type argument that a raw use erases (`List<Codec>` → `List<C>` is a raw `List`), and a
// result whose erasure changed (`Codec` → an unbounded `C`, erasing to `Object`).
#[test]
fn java_class_type_variables_that_change_an_erasure_or_an_existing_parameterisation_still_break() {
    let base = "public class Encoder {\n\
        \x20 public Encoder(Codec codec) {}\n\
        \x20 public Encoder(List<Codec> codecs, int n) {}\n}\n";
    let narrowed = "public class Encoder<C extends Base64Codec> {\n\
        \x20 public Encoder(C codec) {}\n\
        \x20 public Encoder(List<C> codecs, int n) {}\n}\n";
    let found = changes(Grammar::Java, base, narrowed);
    for key in ["Encoder.<init>(Codec)", "Encoder.<init>(List,int)"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
    // A static nested class does not see the class's variables: its `C` is another type.
    let base = "public class Encoder {\n  public static class Part {\n    public Part(Codec codec) {}\n  }\n}\n";
    let nested = "public class Encoder<C extends Codec> {\n  public static class Part {\n    public Part(C codec) {}\n  }\n}\n";
    let found = changes(Grammar::Java, base, nested);
    assert_ne!(
        severity(&found, "Encoder.Part.<init>(Codec)"),
        Some(Severity::Compatible),
        "{found:#?}"
    );
    let generic = "public class Encoder<A> {\n  public Encoder(Codec codec) {}\n}\n";
    let more = "public class Encoder<A, C extends Codec> {\n  public Encoder(C codec) {}\n}\n";
    let found = changes(Grammar::Java, generic, more);
    for key in ["Encoder", "Encoder.<init>(Codec)"] {
        assert_eq!(
            severity(&found, key),
            Some(Severity::Incompatible),
            "{key}: {found:#?}"
        );
    }
    let reordered = "public class Encoder<C extends Codec, A> {\n  public Encoder(C codec) {}\n}\n";
    let found = changes(Grammar::Java, generic, reordered);
    assert_eq!(
        severity(&found, "Encoder.<init>(Codec)"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
    let base = "public class Encoder {\n  public final Codec codec() { return null; }\n}\n";
    let unbounded = "public class Encoder<C> {\n  public final C codec() { return null; }\n}\n";
    let found = changes(Grammar::Java, base, unbounded);
    assert_eq!(
        severity(&found, "Encoder.codec()"),
        Some(Severity::Incompatible),
        "{found:#?}"
    );
}
