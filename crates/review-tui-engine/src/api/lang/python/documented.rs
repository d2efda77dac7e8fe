//! A Python project that documents its API with autodoc (Sphinx's `automodule`, `autoclass`,
//! `autofunction` and the like, mkdocstrings' `::: package.module`) says in its documentation
//! which modules it promises. A module its documentation never names, under a package whose
//! modules it documents so, is the project's own machinery: alembic documents
//! `alembic.command`, `alembic.config`, `alembic.ddl`, … and never `alembic.util.compat`,
//! whose `py38` flags every release that drops a Python version removes. A change there is at
//! most a warning.
//!
//! What counts as documenting a module is read generously, so a promise is never missed: a
//! module directive (`automodule`, `module`, `currentmodule`, `:::`) naming it or a package
//! above it, or its dotted path (or a name under it) anywhere in the documentation's text.
//! Changelogs are not documentation of the API: they name what was removed.

use std::collections::{BTreeSet, HashSet};

use super::declared::top_package;
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
                    let mut end = 0;
                    for part in name.split('.') {
                        end += part.len();
                        docs.mentioned.insert(name[..end].to_string());
                        end += 1;
                    }
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

    /// Whether the documentation documents the package `top`'s API with autodoc, and never
    /// names the module `module` (dotted, under `top`): no module directive for it or a
    /// package above it, and no mention of its dotted path.
    pub(crate) fn leaves_out(&self, module: &str) -> bool {
        let top = module.split('.').next().unwrap_or(module);
        let documents_package = self
            .autodoc
            .iter()
            .any(|target| target == top || target.starts_with(&format!("{top}.")));
        if !documents_package || module == top {
            return false;
        }
        let under = |target: &String| module == target || module.starts_with(&format!("{target}."));
        !self.modules.iter().any(under) && !self.mentioned.contains(module)
    }
}

/// A changelog, release notes or news file: it names what changed, documented or not.
fn is_changelog(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let path = path.to_ascii_lowercase();
    [
        "changelog",
        "changes",
        "history",
        "news",
        "release",
        "whatsnew",
    ]
    .iter()
    .any(|word| file.starts_with(word))
        || path.contains("/changelog/")
        || path.contains("/unreleased/")
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
        // Another package is not documented so: nothing is left out of it.
        assert!(!docs.leaves_out("other.compat"));
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
        // Without autodoc, documentation says nothing of what is promised.
        let prose = ApiDocs::read([("docs/guide.md", "Use `shop.command.run`.\n")]);
        assert!(!prose.leaves_out("shop.util.compat"));
    }
}
