//! A Python project that documents its API says in its documentation which modules it
//! promises. It documents so with autodoc (Sphinx's `automodule`, `autoclass`, `autofunction`
//! and the like, mkdocstrings' `::: package.module`); a program (its manifest installs a
//! console script that runs its package) also in prose that names its extension points by
//! import path (a server's "subclass `pkg.app.base.BaseApplication`", "set `worker_class` to
//! `pkg.workers.ggevent.GeventWorker`"). A library's prose is a guide, not a list of what it
//! promises: its tutorials need not name every module users import. A module its
//! documentation never names, under a package documented so, is the project's own machinery:
//! alembic documents `alembic.command`, `alembic.config`, `alembic.ddl`, … and never
//! `alembic.util.compat`, whose `py38` flags every release that drops a Python version
//! removes. A change there is at most a warning.
//!
//! What counts as documenting a module is read generously, so a promise is never missed: a
//! module directive (`automodule`, `module`, `currentmodule`, `:::`) naming it or a package
//! above it, or its dotted path (or a name under it) anywhere in the documentation's text. A
//! name documented by a package's path (`pkg.run`, defined in `pkg/core.py`) or imported from
//! it in an example (`from pkg import run`) keeps its checks, as does a name a package's
//! `__all__` declares: the code's own promise. Changelogs are not documentation of the API:
//! they name what was removed.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use super::application::program_scripts;
use super::declared::{all_names, top_package};
use crate::api::visibility::Read;

/// The dotted module the Python file at `path` is (`alembic/util/compat.py`:
/// `alembic.util.compat`; a package's `__init__.py`: the package), when a package holds it.
pub(crate) fn python_module(path: &str, read: Read) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let (file, dirs) = parts.split_last()?;
    let top = top_package(dirs, read)?;
    let stem = file
        .strip_suffix(".pyi")
        .or_else(|| file.strip_suffix(".py"))?;
    let mut module: Vec<&str> = dirs[top..].to_vec();
    if stem != "__init__" {
        module.push(stem);
    }
    Some(module.join("."))
}

/// What a project's documentation says of its Python modules.
#[derive(Debug, Default)]
pub(crate) struct ApiDocs {
    /// Targets of module directives: each documents that module and those below it.
    modules: BTreeSet<String>,
    /// Targets of every autodoc directive, for whether a package is documented so at all.
    autodoc: BTreeSet<String>,
    /// Every dotted name the documentation's text mentions, with each dotted prefix of it.
    mentioned: HashSet<String>,
    /// Every dotted name the documentation's text mentions, whole.
    whole: BTreeSet<String>,
    /// Per top package, how its documentation documents it (see [`ApiDocs::documents`]).
    how: RefCell<HashMap<String, Option<Documents>>>,
}

/// How a project's documentation documents a package's API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Documents {
    /// With autodoc directives.
    Autodoc,
    /// In prose, naming an object inside one of its modules by this import path.
    ImportPath(String),
}

impl std::fmt::Display for Documents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Documents::Autodoc => write!(f, "which documents its modules with autodoc"),
            Documents::ImportPath(name) => {
                write!(
                    f,
                    "which names the program's API by import path, as `{name}`"
                )
            }
        }
    }
}

/// Directives that document a module and, read generously, what is below it.
const MODULE_DIRECTIVES: [&str; 4] = ["automodule", "module", "currentmodule", "py:module"];

/// Directives by which autodoc documents an API from its code.
const AUTODOC: [&str; 9] = [
    "automodule",
    "autoclass",
    "autofunction",
    "autoexception",
    "autodata",
    "automethod",
    "autoattribute",
    "autodecorator",
    "autosummary",
];

impl ApiDocs {
    /// Reads documentation files (path, text); changelogs are skipped.
    pub(crate) fn read<'t>(files: impl IntoIterator<Item = (&'t str, &'t str)>) -> ApiDocs {
        let mut docs = ApiDocs::default();
        for (path, text) in files {
            if is_changelog(path) {
                continue;
            }
            for line in text.lines() {
                docs.directive(line.trim());
                for name in dotted_names(line) {
                    docs.mention(name);
                }
                for name in imported_names(line) {
                    docs.mention(&name);
                }
            }
        }
        docs
    }

    fn directive(&mut self, line: &str) {
        if let Some(target) = line.strip_prefix(":::") {
            let target = target.trim().to_string();
            self.modules.insert(target.clone());
            self.autodoc.insert(target);
            return;
        }
        let Some(rest) = line.strip_prefix("..") else {
            return;
        };
        let Some((name, target)) = rest.trim_start().split_once("::") else {
            return;
        };
        let name = name.trim();
        let target = target.trim().to_string();
        if target.is_empty() {
            return;
        }
        if MODULE_DIRECTIVES.contains(&name) {
            self.modules.insert(target.clone());
        }
        if AUTODOC.contains(&name) {
            self.autodoc.insert(target);
        }
    }

    fn mention(&mut self, name: &str) {
        let mut end = 0;
        for part in name.split('.') {
            end += part.len();
            self.mentioned.insert(name[..end].to_string());
            end += 1;
        }
        self.whole.insert(name.to_string());
    }

    /// How the documentation documents the package `top`'s API, in words for a reader: with
    /// autodoc, or by naming an object inside one of its modules by import path (`top.app.base.
    /// BaseApplication`, where `is_module` says `top.app.base` is a module of the package).
    /// `None` when it does neither: it may show usage, but says nothing of which modules are
    /// internal.
    pub(crate) fn documents(
        &self,
        top: &str,
        is_module: &dyn Fn(&str) -> bool,
    ) -> Option<Documents> {
        if let Some(how) = self.how.borrow().get(top) {
            return how.clone();
        }
        let within = format!("{top}.");
        let autodoc = self
            .autodoc
            .iter()
            .any(|target| target == top || target.starts_with(&within));
        let how = if autodoc {
            Some(Documents::Autodoc)
        } else {
            self.whole
                .range(within.clone()..)
                .take_while(|name| name.starts_with(&within))
                .find(|name| {
                    name.rsplit_once('.')
                        .is_some_and(|(module, _)| module != top && is_module(module))
                })
                .map(|name| Documents::ImportPath(name.clone()))
        };
        self.how.borrow_mut().insert(top.to_string(), how.clone());
        how
    }

    /// Whether the documentation never names the module `module` (dotted, below its top
    /// package): no module directive for it or a package above it, and no mention of its
    /// dotted path. The top package itself is always named.
    pub(crate) fn leaves_out(&self, module: &str) -> bool {
        let top = module.split('.').next().unwrap_or(module);
        if module == top {
            return false;
        }
        let under = |target: &String| module == target || module.starts_with(&format!("{target}."));
        !self.modules.iter().any(under) && !self.mentioned.contains(module)
    }

    /// Whether the documentation names `name` by the path of a package above the module
    /// `module` (`pkg.run` for `run` of `pkg.core`): users were told to import it from there.
    fn names_by_a_package(&self, module: &str, name: &str) -> bool {
        let mut package = module;
        while let Some((above, _)) = package.rsplit_once('.') {
            if self.mentioned.contains(&format!("{above}.{name}")) {
                return true;
            }
            package = above;
        }
        false
    }
}

/// Why the project's documentation (read at the base) does not promise the item `item` (a
/// top-level name, or a member `Class.method`) of the Python file at `path`: the file's
/// module is one the documentation never names, in a package it documents (see
/// [`ApiDocs::documents`]), the item is not named by a package's path, and no package above
/// the file declares it in `__all__`. `None` when it is promised, or nothing is known.
pub(crate) fn unpromised(docs: &ApiDocs, path: &str, item: &str, read: Read) -> Option<String> {
    let module = python_module(path, read)?;
    let (top, below) = module.split_once('.')?;
    // Where the top package sits (`src/` or the root), for whether a dotted name is a module.
    let root = path.strip_suffix(&module_path(&module, path))?;
    let is_module = |dotted: &str| {
        let file = format!("{root}{}", dotted.replace('.', "/"));
        read(&format!("{file}.py")).is_some() || read(&format!("{file}/__init__.py")).is_some()
    };
    let how = docs.documents(top, &is_module)?;
    // A library's prose is a guide to it, not the list of what it promises; a program's
    // names the few places users extend it.
    if matches!(how, Documents::ImportPath(_)) && program_scripts(path, read).is_none() {
        return None;
    }
    let name = item.split(['.', '(', ':']).next().unwrap_or(item);
    if !docs.leaves_out(&module) || docs.names_by_a_package(&module, name) {
        return None;
    }
    // `__all__` of each package from the file's own (when it is an `__init__.py`) to the top.
    let parts: Vec<&str> = below.split('.').collect();
    let own = path.ends_with("__init__.py") as usize;
    let declared = (0..parts.len() + own).any(|depth| {
        let package = parts[..depth]
            .iter()
            .fold(format!("{root}{top}"), |path, part| {
                format!("{path}/{part}")
            });
        read(&format!("{package}/__init__.py"))
            .and_then(|init| all_names(&init))
            .is_some_and(|names| names.contains(name))
    });
    (!declared).then(|| format!("`{module}` is not in the project's API documentation, {how}"))
}

/// The path, below the folder holding the top package, of the file `path` that is the module
/// `module`: `pkg/app/base.py`, or `pkg/app/__init__.py` for a package.
fn module_path(module: &str, path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let dotted = module.replace('.', "/");
    if file.starts_with("__init__.") {
        format!("{dotted}/{file}")
    } else {
        let extension = file.rsplit_once('.').map_or("", |(_, ext)| ext);
        format!("{dotted}.{extension}")
    }
}

/// A changelog, release notes or news file: it names what changed, documented or not. Its
/// name starts with such a word or holds it as a word (`2014-news.rst`, `release_notes.md`),
/// or a folder so named holds it (`whatsnew/3.12.rst`, `releases/4.2.rst`).
fn is_changelog(path: &str) -> bool {
    const WORDS: [&str; 8] = [
        "changelog",
        "changes",
        "history",
        "news",
        "release",
        "releases",
        "whatsnew",
        "unreleased",
    ];
    let path = path.to_ascii_lowercase();
    let (folders, file) = path.rsplit_once('/').unwrap_or(("", &path));
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    WORDS.iter().any(|word| stem.starts_with(word))
        || stem
            .split(['-', '_', '.', ' '])
            .any(|part| WORDS.contains(&part))
        || folders.split('/').any(|folder| WORDS.contains(&folder))
}

/// The dotted names in a line (`alembic.util.exc`, `pkg.mod.Class`): runs of identifiers
/// joined by dots, at least two parts.
fn dotted_names(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map(|word| word.trim_matches('.'))
        .filter(|word| {
            word.contains('.') && !word.contains("..") && !word.starts_with(char::is_numeric)
        })
}

/// The names a one-line import in an example binds from a module, as dotted names: `from
/// pkg.http import Request, Response` gives `pkg.http.Request` and `pkg.http.Response`.
fn imported_names(line: &str) -> impl Iterator<Item = String> + '_ {
    let statement = line.trim_start().trim_start_matches(">>> ");
    statement
        .strip_prefix("from ")
        .and_then(|rest| rest.split_once(" import "))
        .filter(|(module, _)| !module.starts_with('.') && !module.contains(' '))
        .into_iter()
        .flat_map(|(module, names)| {
            names
                .trim()
                .trim_matches(['(', ')'])
                .split(',')
                .filter_map(move |name| {
                    let name = name.split_whitespace().next()?;
                    name.chars()
                        .all(|c| c.is_alphanumeric() || c == '_')
                        .then(|| format!("{module}.{name}"))
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const API: &str = "Commands\n========\n\n.. automodule:: shop.command\n    :members:\n\n.. currentmodule:: shop.operations\n\n.. autoclass:: Operations\n\nHooks are ranked by :class:`shop.util.ranking.Priority`.\n";

    #[test]
    fn a_module_the_autodoc_documentation_never_names_is_left_out() {
        let docs = ApiDocs::read([("docs/api.rst", API)]);
        for module in ["shop.util.compat", "shop.internal.cache"] {
            assert!(docs.leaves_out(module), "{module}");
        }
        for module in [
            "shop.command",
            // Below a module directive's target.
            "shop.operations.base",
            // Named in the text, and a package above a name the text names.
            "shop.util.ranking",
            "shop.util",
            // The package itself is its API.
            "shop",
        ] {
            assert!(!docs.leaves_out(module), "{module}");
        }
        // Another package is not documented so.
        let no_module = |_: &str| false;
        assert!(docs.documents("shop", &no_module).is_some());
        assert!(docs.documents("other", &no_module).is_none());
    }

    #[test]
    fn a_changelog_naming_a_module_documents_nothing_and_mkdocstrings_documents_as_autodoc() {
        let docs = ApiDocs::read([
            ("docs/reference.md", "# Reference\n\n::: shop.command\n"),
            (
                "docs/changelog.rst",
                "- Removed ``shop.util.compat.py38``.\n",
            ),
        ]);
        assert!(docs.leaves_out("shop.util.compat"));
        assert!(!docs.leaves_out("shop.command.helpers"));
        // Prose that names no object inside a module by its path says nothing of what is
        // promised.
        let prose = ApiDocs::read([("docs/guide.md", "Use `shop.run`.\n")]);
        assert!(prose.documents("shop", &|_| true).is_none());
    }

    /// A news file per year (`2014-news.rst`), or release notes per version under a folder
    /// named so, names what changed in it, documented or not.
    #[test]
    fn news_and_release_notes_named_by_year_or_version_document_nothing() {
        for news in [
            "docs/source/2014-news.rst",
            "docs/content/2026-news.md",
            "docs/whatsnew/3.12.rst",
            "docs/releases/4.2.rst",
            "docs/news/index.md",
            "docs/release_notes.md",
        ] {
            let docs = ApiDocs::read([(news, "- fix RuntimeError in shop.util.compat\n")]);
            assert!(docs.leaves_out("shop.util.compat"), "{news}");
        }
        let guide = ApiDocs::read([("docs/new-features.md", "See shop.util.compat.\n")]);
        assert!(!guide.leaves_out("shop.util.compat"));
    }

    #[test]
    fn prose_naming_an_object_inside_a_module_by_its_path_documents_by_import_path() {
        let docs = ApiDocs::read([(
            "docs/custom.md",
            "Subclass `srv.app.base.BaseApplication`, or keep `srv.conf.py` beside it.\n\n```python\n>>> from srv.http import Request, Response as R\n```\n",
        )]);
        let modules = |dotted: &str| dotted == "srv.app.base";
        assert_eq!(
            docs.documents("srv", &modules),
            Some(Documents::ImportPath(
                "srv.app.base.BaseApplication".to_string()
            ))
        );
        // `srv.conf.py` is a file name: `srv.conf` is no module.
        let conf_only = ApiDocs::read([("docs/run.md", "Keep `srv.conf.py` beside it.\n")]);
        assert!(conf_only.documents("srv", &modules).is_none());
        // Names an example imports are named.
        assert!(docs.names_by_a_package("srv.http.request", "Request"));
        assert!(docs.names_by_a_package("srv.http.response", "Response"));
        assert!(!docs.names_by_a_package("srv.http.parser", "Parser"));
        assert!(docs.leaves_out("srv.util"));
        assert!(!docs.leaves_out("srv.app.base"));
    }
}
