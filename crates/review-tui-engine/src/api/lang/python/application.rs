//! A Python distribution that is a command, not a library: its manifest declares console
//! scripts into its top-level package, and that package's `__init__.py` offers nothing to
//! import (no public definition, no `__all__`, no name imported from its own modules; at most
//! `__version__`-like metadata). Its modules are the command's implementation, which users
//! run and never import (pip-tools: `pip-compile = "piptools.scripts.compile:cli"`, whose
//! documentation lists every module under "Private API reference"). A library that also
//! ships a command (black, httpx, jsonschema) offers names from its package and keeps its API.
//! This is Python's form of Go's rule that a command's packages are not API.

use super::declared::top_package;
use crate::api::visibility::Read;
use crate::api::{Surface, extract};
use crate::parse::grammar::Grammar;

/// The console scripts of the command whose implementation the Python file at `path` is
/// (`pip-compile, pip-sync`), when its distribution is a command by the rule above; `None`
/// for a library's module, or where the manifest or the package cannot be read.
pub(crate) fn command_scripts(path: &str, read: Read) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let (_, dirs) = parts.split_last()?;
    let top = top_package(dirs, read)?;
    let init = read(&format!("{}/__init__.py", dirs[..=top].join("/")))?;
    if offers_names(&init, dirs[top]) {
        return None;
    }
    program_scripts(path, read)
}

/// The console scripts that run the top package of the Python file at `path` (`srv` for
/// `srv.app.wsgiapp:run`), declared by the nearest manifest above the package: the
/// distribution is a program, whatever its package also offers to import. `None` without
/// such scripts, or where the manifest or the package cannot be read.
pub(crate) fn program_scripts(path: &str, read: Read) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let (_, dirs) = parts.split_last()?;
    let top = top_package(dirs, read)?;
    let package = dirs[top];
    // The nearest folder above the package with a manifest: its scripts that run code of
    // this package.
    let scripts = (0..=top).rev().find_map(|depth| {
        let folder = dirs[..depth].join("/");
        let at = |file: &str| {
            if folder.is_empty() {
                file.to_string()
            } else {
                format!("{folder}/{file}")
            }
        };
        let manifests: Vec<String> = ["pyproject.toml", "setup.cfg", "setup.py"]
            .iter()
            .filter_map(|file| read(&at(file)))
            .collect();
        (!manifests.is_empty()).then(|| {
            manifests
                .iter()
                .flat_map(|text| console_scripts(text))
                .collect::<Vec<_>>()
        })
    })?;
    let own: Vec<String> = scripts
        .into_iter()
        .filter(|(_, target)| target.split(['.', ':']).next() == Some(package))
        .map(|(name, _)| name)
        .collect();
    (!own.is_empty()).then(|| own.join(", "))
}

/// The console scripts a manifest declares, each as its command name and its target
/// (`pip-compile`, `piptools.scripts.compile:cli`): pyproject.toml's `[project.scripts]`,
/// `[project.gui-scripts]` and `[tool.poetry.scripts]`; setup.py's and setup.cfg's
/// `console_scripts` / `gui_scripts` entry points.
fn console_scripts(text: &str) -> Vec<(String, String)> {
    if let Ok(toml) = toml::from_str::<toml::Table>(text) {
        let tables = [
            toml.get("project").and_then(|p| p.get("scripts")),
            toml.get("project").and_then(|p| p.get("gui-scripts")),
            toml.get("tool")
                .and_then(|t| t.get("poetry"))
                .and_then(|p| p.get("scripts")),
        ];
        return tables
            .into_iter()
            .flatten()
            .filter_map(|table| table.as_table())
            .flat_map(|table| {
                table.iter().filter_map(|(name, target)| {
                    // Poetry also writes `name = { callable = "pkg.cli:main" }`.
                    let target = target
                        .as_str()
                        .or_else(|| target.get("callable")?.as_str())?;
                    Some((name.clone(), target.to_string()))
                })
            })
            .collect();
    }
    static SECTION: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(console|gui)_scripts").ok());
    static ENTRY: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"(?m)["']?\s*([A-Za-z0-9][\w.\-]*)\s*=\s*([A-Za-z_][\w.]*\s*:\s*[A-Za-z_][\w.]*)"#,
        )
        .ok()
    });
    let (Some(section), Some(entry)) = (SECTION.as_ref(), ENTRY.as_ref()) else {
        return Vec::new();
    };
    let Some(start) = section.find(text) else {
        return Vec::new();
    };
    // The entries of the first `console_scripts`: a setup.py list up to its `]`, or a
    // setup.cfg key's indented lines.
    let rest = &text[start.end()..];
    let value = rest.trim_start_matches(['\'', '"', ' ', '\t', ':', '=']);
    let entries = if value.starts_with('[') {
        value.split(']').next().unwrap_or(value)
    } else {
        let first = rest.find('\n').map_or(rest.len(), |at| at + 1);
        let indented = rest[first..]
            .split_inclusive('\n')
            .take_while(|line| line.starts_with([' ', '\t']) || line.trim().is_empty())
            .map(str::len)
            .sum::<usize>();
        &rest[..first + indented]
    };
    entry
        .captures_iter(entries)
        .map(|c| (c[1].to_string(), c[2].split_whitespace().collect()))
        .collect()
}

/// Whether a package's `__init__.py` offers names to import: `__all__`, a module
/// `__getattr__` (PEP 562), a public definition other than version metadata, or a name
/// imported from the package's own modules (`from .core import run`, `from piptools.x import
/// y`). Names imported from other distributions (`from click import secho`) are its own
/// business, not what it offers.
fn offers_names(init: &str, package: &str) -> bool {
    let Ok(surface) = extract(Grammar::Python, init.as_bytes(), &|_| true) else {
        // Unreadable: nothing says it offers nothing.
        return true;
    };
    let Surface { items, served, .. } = surface;
    let metadata = |name: &str| {
        matches!(
            name.to_ascii_lowercase().as_str(),
            "version" | "version_info" | "author" | "email" | "license" | "copyright"
        )
    };
    if items
        .values()
        .any(|item| item.parent.is_none() && !metadata(&item.family))
        || !served.is_empty()
    {
        return true;
    }
    init.lines().any(|line| {
        let line = line.trim_start();
        let own = line.starts_with("from .")
            || line
                .strip_prefix("from ")
                .or_else(|| line.strip_prefix("import "))
                .is_some_and(|module| {
                    module == package
                        || module.starts_with(&format!("{package}."))
                        || module.starts_with(&format!("{package} "))
                });
        line.starts_with("__all__")
            || line.starts_with("def __getattr__")
            || (own && !used_by_itself(line, init))
    })
}

/// Whether every name the import `line` binds is used elsewhere in `init`: imported for the
/// module's own work (pip-tools' `from piptools.click import secho`, called to report a
/// locale error), not left there to be offered, as an import a package's `__init__.py` never
/// uses is (the re-export idiom linters recognise). An import over several lines is taken
/// as offered.
fn used_by_itself(line: &str, init: &str) -> bool {
    let Some((_, names)) = line.split_once(" import ") else {
        return false;
    };
    if names.contains('(') || names.trim_end().ends_with('\\') || names.contains('*') {
        return false;
    }
    let bound: Vec<&str> = names
        .split('#')
        .next()
        .unwrap_or("")
        .split(',')
        .map(|name| name.rsplit(" as ").next().unwrap_or(name).trim())
        .filter(|name| !name.is_empty())
        .collect();
    let uses = |name: &str| {
        init.match_indices(name)
            .filter(|(at, _)| {
                let before = init[..*at].chars().next_back();
                let after = init[at + name.len()..].chars().next();
                let ident = |c: char| c.is_alphanumeric() || c == '_';
                !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident)
            })
            .count()
    };
    !bound.is_empty() && bound.iter().all(|name| uses(name) > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scripts(files: &[(&str, &str)], path: &str) -> Option<String> {
        let read = |p: &str| {
            files
                .iter()
                .find(|(f, _)| *f == p)
                .map(|(_, t)| t.to_string())
        };
        command_scripts(path, &read)
    }

    const PIPTOOLS_INIT: &str = "from __future__ import annotations\n\nimport locale\n\nfrom click import secho\n\ntry:\n    locale.setlocale(locale.LC_ALL, \"\")\nexcept locale.Error as e:  # pragma: no cover\n    secho(f\"Ignoring error when setting locale: {e}\", fg=\"red\")\n";

    #[test]
    fn console_scripts_are_read_from_each_manifest() {
        let pyproject = "[project]\nname = \"pip-tools\"\n\n[project.scripts]\npip-compile = \"piptools.scripts.compile:cli\"\npip-sync = \"piptools.scripts.sync:cli\"\n";
        let setup_py = "setup(\n    name='pip-tools',\n    entry_points={\n        'console_scripts': [\n            'pip-compile = piptools.scripts.compile:cli',\n            'pip-sync = piptools.scripts.sync:cli',\n        ],\n    },\n)\n";
        let setup_cfg = "[metadata]\nname = pip-tools\n\n[options.entry_points]\nconsole_scripts =\n    pip-compile = piptools.scripts.compile:cli\n    pip-sync = piptools.scripts.sync:cli\n";
        let poetry = "[tool.poetry]\nname = \"tool\"\n\n[tool.poetry.scripts]\npip-compile = \"piptools.scripts.compile:cli\"\npip-sync = { callable = \"piptools.scripts.sync:cli\" }\n";
        for manifest in [pyproject, setup_py, setup_cfg, poetry] {
            let names: Vec<String> = console_scripts(manifest)
                .into_iter()
                .map(|(name, target)| format!("{name}={target}"))
                .collect();
            assert_eq!(
                names,
                [
                    "pip-compile=piptools.scripts.compile:cli",
                    "pip-sync=piptools.scripts.sync:cli"
                ],
                "{manifest}"
            );
        }
        assert!(console_scripts("setup(name='lib', version='1.0')\n").is_empty());
        // Only the scripts: a plugin group after them is not one.
        let plugins = "[options.entry_points]\nconsole_scripts =\n    tool = pkg.cli:main\npytest11 =\n    plug = pkg.plugin:hook\n";
        assert_eq!(console_scripts(plugins).len(), 1);
    }

    #[test]
    fn a_package_offering_nothing_behind_console_scripts_is_a_command() {
        let pyproject = "[project]\nname = \"pip-tools\"\n\n[project.scripts]\npip-compile = \"piptools.scripts.compile:cli\"\n";
        let command = [
            ("pyproject.toml", pyproject),
            ("piptools/__init__.py", PIPTOOLS_INIT),
            ("piptools/scripts/__init__.py", ""),
        ];
        assert_eq!(
            scripts(&command, "piptools/utils.py").as_deref(),
            Some("pip-compile")
        );
        assert_eq!(
            scripts(&command, "piptools/scripts/compile.py").as_deref(),
            Some("pip-compile")
        );
        // Version metadata offers nothing either.
        let versioned = [
            ("pyproject.toml", pyproject),
            (
                "piptools/__init__.py",
                "__version__ = \"7.1.0\"\nVERSION = __version__\n",
            ),
        ];
        assert!(scripts(&versioned, "piptools/utils.py").is_some());
        // A name from its own modules that it uses itself is not offered (pip-tools 5.x:
        // `from piptools.click import secho`, called to report a locale error).
        let own_use = PIPTOOLS_INIT.replace("from click import", "from piptools.click import");
        let files = [
            ("pyproject.toml", pyproject),
            ("piptools/__init__.py", &own_use),
        ];
        assert!(scripts(&files, "piptools/utils.py").is_some());
        // A library that also ships a command offers names from its package.
        for init in [
            "from piptools.click import secho\n",
            "from .core import run, main\n\nmain()\n",
            "from .validators import Draft7Validator\n",
            "from piptools.resolver import Resolver\n",
            "def compile(path):\n    pass\n",
            "__all__ = [\"compile\"]\n",
            "def __getattr__(name):\n    raise AttributeError(name)\n",
        ] {
            let library = [
                ("pyproject.toml", pyproject),
                ("piptools/__init__.py", init),
            ];
            assert_eq!(scripts(&library, "piptools/utils.py"), None, "{init}");
        }
        // Scripts into another package, or none at all.
        let other = "[project]\nname = \"x\"\n\n[project.scripts]\ntool = \"tool_cli.main:run\"\n";
        for manifest in [other, "[project]\nname = \"pip-tools\"\n"] {
            let files = [
                ("pyproject.toml", manifest),
                ("piptools/__init__.py", PIPTOOLS_INIT),
            ];
            assert_eq!(scripts(&files, "piptools/utils.py"), None, "{manifest}");
        }
    }
}
