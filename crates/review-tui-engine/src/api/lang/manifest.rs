//! What several languages' manifests share: a TOML string, and a name or version assigned in a
//! line of its own.

use crate::api::visibility::Read;

/// The string at `path` in a TOML manifest (`package.name`).
pub(crate) fn toml_string(text: &str, path: &[&str]) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    let mut at: &toml::Value = value.get(path[0])?;
    for key in &path[1..] {
        at = at.get(key)?;
    }
    at.as_str().map(str::to_string)
}

/// The name a manifest assigns in a line of its own: setup.py, setup.cfg `name = "pkg"` /
/// `name="pkg"`; pubspec.yaml, Package.swift `name: pkg`; build.sbt `name := "pkg"`;
/// build.zig.zon `.name = .pkg`; mix.exs `app: :pkg`.
pub(crate) fn assigned_name(text: &str) -> Vec<String> {
    regex::Regex::new(
        r#"(?m)^\s*\.?(?:name|app)\s*(?::=|[=:])\s*[:"'.]?([A-Za-z0-9_\-][A-Za-z0-9_.\-]*)"#,
    )
    .ok()
    .and_then(|pattern| pattern.captures(text).map(|c| c[1].to_string()))
    .into_iter()
    .collect()
}

/// The version a manifest assigns in a line of its own: setup.py, setup.cfg, build.gradle
/// `version = "1.2.3"` / `version="1.2.3"`; pubspec.yaml and opam `version: 1.2.3`; build.sbt
/// `ThisBuild / version := "1.2.3"`; build.zig.zon `.version = "1.2.3"`; mix.exs `version:
/// "1.2.3"` or the module attribute it names (`@version "1.2.3"`).
pub(crate) fn assigned_version(text: &str, _root: &str, _read: Read) -> Option<String> {
    let pattern = regex::Regex::new(
        r#"(?m)^\s*(?:ThisBuild\s*/\s*)?\.?version\s*(?::=|[=:])\s*["']?([0-9][^"'\s,)]*)|^\s*@version\s+"([0-9][^"]*)""#,
    )
    .ok()?;
    pattern
        .captures(text)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str().to_string())
}
