//! The apiContract axis in the languages read from tags by an exact visibility rule: in a
//! small package of each, a public item removed fails and a private one changed passes.

use crate::cohort::tests::repo::Repo;
use crate::review::axes::{API_CONTRACT, Axis, AxisVerdict};

fn api_after(base: &[(&str, &str)], path: &str, content: &str) -> Axis {
    let repo = Repo::new(base);
    repo.write(path, content);
    repo.commit("change");
    let report = repo.build();
    report
        .axes
        .iter()
        .find(|a| a.name == API_CONTRACT)
        .unwrap()
        .clone()
}

struct Case {
    manifest: (&'static str, &'static str),
    path: &'static str,
    base: &'static str,
    /// A public item removed.
    removed: &'static str,
    /// Only a private item changed.
    private_changed: &'static str,
    gone: &'static str,
}

const CASES: &[Case] = &[
    Case {
        manifest: (
            "Package.swift",
            "let package = Package(\n    name: \"Parser\"\n)\n",
        ),
        path: "Sources/Parser/Parser.swift",
        base: "public struct Parser {\n    public init() {}\n    public func parse(_ s: String) -> Int { helper(s) }\n    public func reset() {}\n    func helper(_ s: String) -> Int { 1 }\n}\n",
        removed: "public struct Parser {\n    public init() {}\n    public func parse(_ s: String) -> Int { helper(s) }\n    func helper(_ s: String) -> Int { 1 }\n}\n",
        private_changed: "public struct Parser {\n    public init() {}\n    public func parse(_ s: String) -> Int { helper(s, 2) }\n    public func reset() {}\n    func helper(_ s: String, _ n: Int) -> Int { n }\n}\n",
        gone: "reset",
    },
    Case {
        manifest: ("pubspec.yaml", "name: parser\nversion: 1.2.0\n"),
        path: "lib/parser.dart",
        base: "int parse(String s) => _helper(s);\nvoid reset() {}\nint _helper(String s) => 1;\n",
        removed: "int parse(String s) => _helper(s);\nint _helper(String s) => 1;\n",
        private_changed: "int parse(String s) => _helper(s, 2);\nvoid reset() {}\nint _helper(String s, int n) => n;\n",
        gone: "reset",
    },
    Case {
        manifest: ("build.sbt", "name := \"parser\"\nversion := \"1.2.0\"\n"),
        path: "src/main/scala/parser/Parser.scala",
        base: "package parser\n\nobject Parser {\n  def parse(s: String): Int = helper(s)\n  def reset(): Unit = ()\n  private[parser] def helper(s: String): Int = 1\n}\n",
        removed: "package parser\n\nobject Parser {\n  def parse(s: String): Int = helper(s)\n  private[parser] def helper(s: String): Int = 1\n}\n",
        private_changed: "package parser\n\nobject Parser {\n  def parse(s: String): Int = helper(s, 2)\n  def reset(): Unit = ()\n  private[parser] def helper(s: String, n: Int): Int = n\n}\n",
        gone: "reset",
    },
    Case {
        manifest: (
            "mix.exs",
            "defmodule Parser.MixProject do\n  use Mix.Project\n  def project, do: [app: :parser, version: \"1.2.0\"]\nend\n",
        ),
        path: "lib/parser.ex",
        base: "defmodule Parser do\n  def parse(s), do: helper(s)\n  def reset, do: :ok\n  defp helper(s), do: s\nend\n",
        removed: "defmodule Parser do\n  def parse(s), do: helper(s)\n  defp helper(s), do: s\nend\n",
        private_changed: "defmodule Parser do\n  def parse(s), do: helper(s, 2)\n  def reset, do: :ok\n  defp helper(s, n), do: {s, n}\nend\n",
        gone: "reset",
    },
    Case {
        manifest: (
            "parser-1.2.0-1.rockspec",
            "package = \"parser\"\nversion = \"1.2.0-1\"\n",
        ),
        path: "lua/parser.lua",
        base: "local M = {}\nlocal function helper(s) return 1 end\nfunction M.parse(s) return helper(s) end\nfunction M.reset() end\nreturn M\n",
        removed: "local M = {}\nlocal function helper(s) return 1 end\nfunction M.parse(s) return helper(s) end\nreturn M\n",
        private_changed: "local M = {}\nlocal function helper(s, n) return n end\nfunction M.parse(s) return helper(s, 2) end\nfunction M.reset() end\nreturn M\n",
        gone: "reset",
    },
    Case {
        manifest: (
            "build.zig.zon",
            ".{\n    .name = .parser,\n    .version = \"1.2.0\",\n}\n",
        ),
        path: "src/parser.zig",
        base: "pub fn parse() u32 {\n    return helper();\n}\npub fn reset() void {}\nfn helper() u32 {\n    return 1;\n}\n",
        removed: "pub fn parse() u32 {\n    return helper();\n}\nfn helper() u32 {\n    return 1;\n}\n",
        private_changed: "pub fn parse() u32 {\n    return helper(2);\n}\npub fn reset() void {}\nfn helper(n: u32) u32 {\n    return n;\n}\n",
        gone: "reset",
    },
    Case {
        manifest: ("parser.cabal", "name: parser\nversion: 1.2.0\n"),
        path: "src/Parser.hs",
        base: "module Parser (parse, reset) where\n\nparse :: String -> Int\nparse s = helper s\n\nreset :: ()\nreset = ()\n\nhelper :: String -> Int\nhelper _ = 1\n",
        removed: "module Parser (parse) where\n\nparse :: String -> Int\nparse s = helper s\n\nhelper :: String -> Int\nhelper _ = 1\n",
        private_changed: "module Parser (parse, reset) where\n\nparse :: String -> Int\nparse s = helper s 2\n\nreset :: ()\nreset = ()\n\nhelper :: String -> Int -> Int\nhelper _ n = n\n",
        gone: "reset",
    },
    Case {
        manifest: (
            "opam",
            "opam-version: \"2.0\"\nname: \"parser\"\nversion: \"1.2.0\"\n",
        ),
        path: "lib/parser.mli",
        base: "val parse : string -> int\nval reset : unit -> unit\n",
        removed: "val parse : string -> int\n",
        private_changed: "val parse : string -> int\n(* documented *)\nval reset : unit -> unit\n",
        gone: "reset",
    },
];

#[test]
fn a_public_item_removed_fails_and_a_private_change_passes_in_each_new_language() {
    for case in CASES {
        let base = [case.manifest, (case.path, case.base)];
        let removed = api_after(&base, case.path, case.removed);
        assert_eq!(
            removed.verdict,
            AxisVerdict::Fail,
            "{}: {}",
            case.path,
            removed.detail
        );
        assert!(
            removed.detail.contains(case.gone) && removed.detail.contains("removed"),
            "{}: {}",
            case.path,
            removed.detail
        );
        let private = api_after(&base, case.path, case.private_changed);
        assert!(
            private.verdict.clears_gate(),
            "{}: {} {}",
            case.path,
            private.verdict,
            private.detail
        );
    }
}

/// An Objective-C implementation file carries no API (its header does): a change to it never
/// holds the gate.
#[test]
fn an_objective_c_implementation_file_is_not_api() {
    let axis = api_after(
        &[(
            "Classes/Parser.m",
            "@implementation Parser\n- (void)parse {}\n- (void)reset {}\n@end\n",
        )],
        "Classes/Parser.m",
        "@implementation Parser\n- (void)parse {}\n@end\n",
    );
    assert_eq!(axis.verdict, AxisVerdict::Pass, "{}", axis.detail);
}

/// Dart: `lib/src` is private unless the package's library exports the file.
#[test]
fn dart_lib_src_is_api_only_when_exported() {
    let pubspec = ("pubspec.yaml", "name: parser\nversion: 1.2.0\n");
    let source = "void reset() {}\nvoid run() {}\n";
    let removed = "void run() {}\n";
    let hidden = api_after(
        &[
            pubspec,
            ("lib/parser.dart", "export 'src/other.dart';\n"),
            ("lib/src/impl.dart", source),
        ],
        "lib/src/impl.dart",
        removed,
    );
    assert!(hidden.verdict.clears_gate(), "{}", hidden.detail);
    let exported = api_after(
        &[
            pubspec,
            ("lib/parser.dart", "export 'src/impl.dart';\n"),
            ("lib/src/impl.dart", source),
        ],
        "lib/src/impl.dart",
        removed,
    );
    assert_eq!(exported.verdict, AxisVerdict::Fail, "{}", exported.detail);
}

const OBJC_PACKAGE: (&str, &str) = (
    "Package.swift",
    "let package = Package(\n    name: \"Parser\",\n    targets: [.target(name: \"Parser\")]\n)\n",
);

const OBJC_HEADER: &str = "#import <Foundation/Foundation.h>\nNS_ASSUME_NONNULL_BEGIN\n@interface PRParser : NSObject\n@property (nonatomic, readonly) NSString *name;\n@property (nonatomic, copy) NSString *title;\n- (instancetype)initWithText:(NSString *)text style:(NSInteger)style;\n- (void)reset;\n@end\n@interface PRHelper : NSObject\n@end\nNS_ASSUME_NONNULL_END\n";

/// The Objective-C header `OBJC_HEADER` at `path` after `edit` replaced a piece of it.
fn objc_after(path: &str, edit: (&str, &str)) -> Axis {
    assert!(OBJC_HEADER.contains(edit.0), "{}", edit.0);
    api_after(
        &[OBJC_PACKAGE, (path, OBJC_HEADER)],
        path,
        &OBJC_HEADER.replace(edit.0, edit.1),
    )
}

/// Objective-C: a header under a SwiftPM target's `include/` is public; a method, a class, a
/// property, a setter (readwrite → readonly) removed from it, or a method made unavailable,
/// fails; readonly → readwrite adds a setter and passes.
#[test]
fn objective_c_public_header_removals_fail() {
    let path = "Sources/Parser/include/PRParser.h";
    for (edit, gone) in [
        (("- (void)reset;\n", ""), "-reset"),
        (
            ("- (void)reset;\n", "- (void)reset NS_UNAVAILABLE;\n"),
            "-reset",
        ),
        (("@interface PRHelper : NSObject\n@end\n", ""), "PRHelper"),
        (
            ("@property (nonatomic, copy) NSString *title;\n", ""),
            "title",
        ),
        (
            (
                "(nonatomic, copy) NSString *title",
                "(nonatomic, copy, readonly) NSString *title",
            ),
            "setTitle:",
        ),
        (
            ("style:(NSInteger)style", "options:(NSInteger)style"),
            "-initWithText:style:",
        ),
    ] {
        let axis = objc_after(path, edit);
        assert_eq!(axis.verdict, AxisVerdict::Fail, "{gone}: {}", axis.detail);
        assert!(
            axis.detail.contains(gone) && axis.detail.contains("removed"),
            "{gone}: {}",
            axis.detail
        );
    }
    let widened = objc_after(
        path,
        (
            "(nonatomic, readonly) NSString *name",
            "(nonatomic) NSString *name",
        ),
    );
    assert!(widened.verdict.clears_gate(), "{}", widened.detail);
}

/// A private header's removal is no break; a header whose publicness the build settings do
/// not say warns (never a proven removal, never a pass).
#[test]
fn objective_c_private_header_passes_and_an_undecided_one_warns() {
    let removal = ("- (void)reset;\n", "");
    for path in [
        "Sources/Parser/Private/PRParser.h",
        "Sources/Parser/include/PRParser+Private.h",
    ] {
        let axis = objc_after(path, removal);
        assert!(axis.verdict.clears_gate(), "{path}: {}", axis.detail);
        assert!(!axis.detail.contains("-reset"), "{path}: {}", axis.detail);
    }
    let undecided = objc_after("Classes/PRParser.h", removal);
    assert_eq!(undecided.verdict, AxisVerdict::Warn, "{}", undecided.detail);
    assert!(undecided.detail.contains("-reset"), "{}", undecided.detail);
}

/// A Lua or Haskell package's version is read from the manifest named for it, found by listing
/// its folder at each side: a rockspec renamed for a major version, a `.cabal` file's PVP major
/// (`1.2` → `1.3`), allow the removal; a compatible bump does not.
#[test]
fn a_version_in_a_manifest_named_for_the_package_allows_a_break() {
    let lua = (
        "lua/parser.lua",
        "local M = {}\nfunction M.parse(s) return s end\nfunction M.reset() end\nreturn M\n",
        "local M = {}\nfunction M.parse(s) return s end\nreturn M\n",
    );
    let haskell = (
        "src/Parser.hs",
        "module Parser (parse, reset) where\n\nparse :: Int -> Int\nparse = id\n\nreset :: ()\nreset = ()\n",
        "module Parser (parse) where\n\nparse :: Int -> Int\nparse = id\n",
    );
    let rockspec = |v: &str| format!("package = \"parser\"\nversion = \"{v}-1\"\n");
    let cabal = |v: &str| format!("cabal-version: 2.2\nname: parser\nversion: {v}\n");
    for (before, after, (path, base, removed), allowed) in [
        (
            ("parser-1.2.0-1.rockspec", rockspec("1.2.0")),
            ("parser-2.0.0-1.rockspec", rockspec("2.0.0")),
            lua,
            true,
        ),
        (
            ("parser-1.2.0-1.rockspec", rockspec("1.2.0")),
            ("parser-1.3.0-1.rockspec", rockspec("1.3.0")),
            lua,
            false,
        ),
        (
            ("parser.cabal", cabal("1.2.0.0")),
            ("parser.cabal", cabal("1.3.0.0")),
            haskell,
            true,
        ),
        (
            ("parser.cabal", cabal("1.2.0.0")),
            ("parser.cabal", cabal("1.2.1.0")),
            haskell,
            false,
        ),
    ] {
        let repo = Repo::new(&[(before.0, &before.1), (path, base)]);
        repo.remove(before.0);
        repo.write(after.0, &after.1);
        repo.write(path, removed);
        repo.commit("release");
        let report = repo.build();
        let axis = report.axes.iter().find(|a| a.name == API_CONTRACT).unwrap();
        let fails = axis.verdict == AxisVerdict::Fail;
        assert_eq!(
            fails, !allowed,
            "{} → {}: {}",
            before.0, after.0, axis.detail
        );
        if allowed {
            assert!(axis.detail.contains(after.0), "{}", axis.detail);
        }
    }
}
