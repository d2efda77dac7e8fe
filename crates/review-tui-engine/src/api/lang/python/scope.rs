//! Which Python modules carry an API: not a `_private` module or package, not a file outside
//! any package of a packaged project, not a type checker's plugin, not a module whose own
//! docstring withdraws it from the compatibility promise.

use crate::api::promise::declares_no_promise;
use crate::api::visibility::{Read, Visibility};

pub(crate) fn scope(path: &str, dirs: &[&str], source: &str, read: Read) -> Visibility {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.strip_suffix(".py").unwrap_or(file);
    let private = dirs
        .iter()
        .chain(std::iter::once(&stem))
        .any(|part| part.starts_with('_') && !(part.starts_with("__") && part.ends_with("__")));
    if private {
        return Visibility::NotApi("a private module");
    }
    // A relative import works only inside a package (a namespace package has no
    // `__init__.py` either).
    let relative = source
        .lines()
        .any(|line| line.trim_start().starts_with("from ."));
    if !relative && outside_any_package(dirs, read) {
        return Visibility::NotApi(
            "outside any package (no `__init__.py` or manifest beside it): not importable \
             by users",
        );
    }
    if not_given_to_setuptools(dirs, stem, read) {
        return Visibility::NotApi(
            "a module beside a setuptools manifest that installs only the `packages` it lists \
             (no `py_modules` names it): a build helper left in the source tree",
        );
    }
    if let Some(why) = shipped_by_no_distribution(dirs, read) {
        return Visibility::NotApi(why);
    }
    if tool_plugin(source) {
        return Visibility::NotApi(
            "a type checker's plugin, loaded by its configuration, not imported",
        );
    }
    if module_docstring(source).is_some_and(declares_no_promise) {
        return Visibility::NotApi(
            "its docstring says it is provisional or outside the stable API",
        );
    }
    Visibility::Exported
}

/// Whether the module `stem` sits beside a setuptools manifest (`setup.py`, `setup.cfg`) that
/// lists the packages it installs and names no such single module: setuptools installs the
/// `packages` and the `py_modules` it is given, nothing else of that folder (fsspec's
/// `versioneer.py`, imported by `setup.py` to compute the version).
fn not_given_to_setuptools(dirs: &[&str], stem: &str, read: Read) -> bool {
    if stem == "setup" {
        return false;
    }
    let beside = |file: &str| {
        if dirs.is_empty() {
            read(file)
        } else {
            read(&format!("{}/{file}", dirs.join("/")))
        }
    };
    let (setup_py, setup_cfg) = (beside("setup.py"), beside("setup.cfg"));
    let lists_packages = |text: &Option<String>| {
        text.as_deref().is_some_and(|text| {
            text.lines().any(|line| {
                let line = line.trim_start();
                line.strip_prefix("packages")
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
                    || line.contains("packages=")
            })
        })
    };
    if !lists_packages(&setup_py) && !lists_packages(&setup_cfg) {
        return false;
    }
    // Named among the single modules anywhere its manifests declare them.
    let named = [setup_py, setup_cfg, beside("pyproject.toml")]
        .into_iter()
        .flatten()
        .any(|text| {
            (text.contains("py_modules") || text.contains("py-modules"))
                && text
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|word| word == stem)
        });
    !named
}

/// Whether a Python file in `dirs` (not at the repository's root) lies in no package of a
/// packaged project: a manifest above it (`pyproject.toml`, `setup.py`, `setup.cfg`) says the
/// project is packaged, and its folder has neither an `__init__.py` nor a manifest of its own
/// (a distribution of single modules). Build, release and documentation tooling lives so
/// (pydantic's `release/make_history.py`); users cannot import it.
fn outside_any_package(dirs: &[&str], read: Read) -> bool {
    const MANIFESTS: [&str; 3] = ["pyproject.toml", "setup.py", "setup.cfg"];
    // A single-module layout's source folder (`src/six.py`) holds modules without a package.
    let Some(last) = dirs.last() else {
        return false;
    };
    if matches!(*last, "src" | "lib" | "python") {
        return false;
    }
    let dir = dirs.join("/");
    if ["__init__.py"]
        .iter()
        .chain(&MANIFESTS)
        .any(|file| read(&format!("{dir}/{file}")).is_some())
    {
        return false;
    }
    // Only where a manifest above says the project is packaged (with packages that have an
    // `__init__.py`): without one, nothing says how the folder is imported.
    (0..dirs.len()).any(|depth| {
        let above = dirs[..depth].join("/");
        MANIFESTS.iter().any(|file| {
            let path = if above.is_empty() {
                file.to_string()
            } else {
                format!("{above}/{file}")
            };
            read(&path).is_some()
        })
    })
}

/// Why no Python distribution ships a file in `dirs`, when its packaging says
/// so: what a user installs is what the project's manifest builds, not every `.py` file.
/// - No Python manifest above it, but another language's package holds it (rust-url's
///   `idna/src/make_uts46_mapping_table.py`, a table generator inside a Rust crate).
/// - A src layout: the nearest Python manifest's folder keeps the project's package in
///   `src/NAME/`, and the file is beside `src/`, in a folder the manifest names nowhere but
///   its source distribution's list (urllib3's `dummyserver/` test servers: hatch, setuptools,
///   flit and poetry build the wheel from `src/` unless told otherwise, and telling them names
///   the folder).
fn shipped_by_no_distribution(dirs: &[&str], read: Read) -> Option<&'static str> {
    let folder = |depth: usize| dirs[..depth].join("/");
    let at = |dir: &str, file: &str| {
        if dir.is_empty() {
            file.to_string()
        } else {
            format!("{dir}/{file}")
        }
    };
    let python = (0..=dirs.len()).rev().find_map(|depth| {
        let dir = folder(depth);
        let texts: Vec<String> = super::manifest::MANIFESTS
            .iter()
            .filter_map(|m| read(&at(&dir, m.file)))
            .collect();
        (!texts.is_empty()).then_some((depth, texts))
    });
    let Some((depth, manifests)) = python else {
        let other = (0..=dirs.len()).any(|depth| {
            crate::api::lang::LANGUAGES
                .iter()
                .flat_map(|language| language.manifests())
                .filter(|m| !m.file.starts_with('*'))
                .any(|m| read(&at(&folder(depth), m.file)).is_some())
        });
        return other.then_some(
            "inside another language's package, with no Python manifest above it: no Python \
             distribution ships it",
        );
    };
    let root = folder(depth);
    let inside = &dirs[depth..];
    let top = inside.first()?;
    if *top == "src" {
        return None;
    }
    let names: Vec<String> = super::manifest::MANIFESTS
        .iter()
        .filter_map(|m| read(&at(&root, m.file)).map(|text| (m.names)(&text)))
        .flatten()
        .map(|name| name.to_ascii_lowercase().replace(['-', '.'], "_"))
        .collect();
    let src_layout = names
        .iter()
        .any(|name| read(&at(&root, &format!("src/{name}/__init__.py"))).is_some());
    let named = manifests.iter().any(|text| names_folder(text, top));
    (src_layout && !named).then_some(
        "beside the src layout's package, in a folder its manifest does not ship: not in the \
         distribution",
    )
}

/// Whether a manifest's text names the folder `top` (`"dummyserver"`, `'/dummyserver/'`)
/// outside a source distribution's section (`[tool.hatch.build.targets.sdist]`), which ships
/// the repository's files, not the installed packages.
fn names_folder(text: &str, top: &str) -> bool {
    let mut in_sdist = false;
    text.lines().any(|line| {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && !trimmed.starts_with("[\"") {
            in_sdist = trimmed.contains("sdist");
            return false;
        }
        !in_sdist
            && trimmed.match_indices(top).any(|(at, _)| {
                let before = trimmed[..at].chars().next_back();
                let after = trimmed[at + top.len()..].chars().next();
                matches!(before, Some('"' | '\'' | '/')) && matches!(after, Some('"' | '\'' | '/'))
            })
    })
}

/// A Python module a tool loads by its configuration, whose classes users never import:
/// a mypy plugin defines the entry point mypy calls, `def plugin(version: str)` at the top
/// level (pydantic's `pydantic/mypy.py`, named as `plugins = pydantic.mypy` in a mypy
/// configuration).
fn tool_plugin(source: &str) -> bool {
    static ENTRY: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)^def plugin\(\s*version\s*(?::\s*str\s*)?\)").ok()
    });
    ENTRY.as_ref().is_some_and(|re| re.is_match(source))
}

/// A Python module's docstring: the string literal that opens it, after comments and blank
/// lines (the shebang and encoding lines are comments).
fn module_docstring(source: &str) -> Option<&str> {
    let mut rest = source.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if rest.starts_with('#') {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
        } else {
            break;
        }
    }
    let body = rest.trim_start_matches(['r', 'R', 'u', 'U']);
    let quote = ["\"\"\"", "\'\'\'", "\"", "\'"]
        .into_iter()
        .find(|q| body.starts_with(q))?;
    let inner = &body[quote.len()..];
    inner.find(quote).map(|end| &inner[..end])
}
