//! A Python package that declares its public API: `__all__` in its top-level `__init__.py`
//! names what `import package` promises. A submodule's public-by-name item that none of those
//! names reaches (the package does not import it from there) is promised by nobody: a change
//! to it is at most a warning. pydantic 2.x declares its API so, and every minor release
//! changed some name of a submodule it never exported.

use std::collections::BTreeSet;

use crate::api::Surface;
use crate::api::visibility::Read;

/// The names of a module's top-level items the package's declared API reaches, for the Python
/// file at `path`; `None` when nothing bounds them: no package `__init__.py` above it declares
/// `__all__`, the file is that `__init__.py`, or the package exports the module itself or
/// everything of it (`from . import json_schema`, `from .errors import *`).
pub(crate) fn python_reach(path: &str, read: Read) -> Option<BTreeSet<String>> {
    let parts: Vec<&str> = path.split('/').collect();
    let (file, dirs) = parts.split_last()?;
    let top = top_package(dirs, read)?;
    let init_path = format!("{}/__init__.py", dirs[..=top].join("/"));
    if init_path == path {
        return None;
    }
    let init = read(&init_path)?;
    let declared = all_names(&init)?;
    // The module's dotted path below the top package: `json_schema`, `v1.fields`; a package's
    // own `__init__.py` is the package.
    let stem = file.strip_suffix(".py").unwrap_or(file);
    let mut below: Vec<&str> = dirs[top + 1..].to_vec();
    if stem != "__init__" {
        below.push(stem);
    }
    if below.is_empty() {
        return None;
    }
    let package = dirs[top];
    let mut reached = BTreeSet::new();
    // The module and each package above it below the top: `from .v1 import x` reaches what
    // `v1/__init__.py` re-exports, which may come from `v1/fields.py`.
    for depth in (1..=below.len()).rev() {
        let module = below[..depth].join(".");
        let (last, parents) = below[..depth].split_last()?;
        for statement in statements(&init) {
            let relative = format!(".{module}");
            let absolute = format!("{package}.{module}");
            let names_module = mentions(statement, &relative) || mentions(statement, &absolute);
            // `from . import json_schema` / `from .v1 import fields`: the module itself.
            let parent = if parents.is_empty() {
                ".".to_string()
            } else {
                format!(".{}", parents.join("."))
            };
            let imports_module = statement.trim_start().starts_with("from ")
                && statement.split_whitespace().nth(1).is_some_and(|from| {
                    from == parent || from == format!("{package}{}", parent.trim_end_matches('.'))
                })
                && words(statement).any(|w| w == *last);
            if imports_module && declared.contains(*last) {
                return None;
            }
            if !names_module {
                continue;
            }
            if statement.contains("import *") && depth == below.len() {
                return None;
            }
            reached.extend(
                words(statement)
                    .filter(|w| declared.contains(*w))
                    .map(str::to_string),
            );
        }
    }
    Some(reached)
}

/// Why the removed Python item `key` is no proven break: its module first declares `__all__`
/// at the head (the base declared none it could be read from) and leaves its name out
/// (anyio 4.12 declared `__all__` in each public module and renamed the helpers it left out
/// `_private`). The module now states its public names; code that imported the old one by
/// name still breaks, so this warns rather than passes. `None` when the head's `__all__`
/// lists the name, or either side's says nothing new.
pub(crate) fn left_out_of_new_all(key: &str, base: &Surface, head: &Surface) -> Option<String> {
    let listed = head.declared_names.as_ref()?;
    if base.declared_names.is_some() {
        return None;
    }
    let top = key.split('.').next().unwrap_or(key);
    (!listed.contains(top)).then(|| {
        format!(
            "removed as its module first declares `__all__`, which does not list `{top}`: no \
             longer promised, yet code that imported it by name breaks"
        )
    })
}

/// The names `__all__` lists in `init`, when it is assigned a literal list or tuple.
pub(crate) fn all_names(init: &str) -> Option<BTreeSet<String>> {
    static ALL: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)^__all__[ \t]*(?::[^=\n]*)?=[ \t]*[(\[]").ok()
    });
    let found = ALL.as_ref()?.find(init)?;
    let open = found.end() - 1;
    let close_char = if init.as_bytes()[open] == b'(' {
        ')'
    } else {
        ']'
    };
    let close = open + init[open..].find(close_char)?;
    let body = &init[open + 1..close];
    let names: BTreeSet<String> = body
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(|line| line.split(','))
        .map(|item| {
            item.trim()
                .trim_matches(|c| c == '\'' || c == '"')
                .to_string()
        })
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect();
    (!names.is_empty()).then_some(names)
}

/// The statements of a module's text, roughly: each line, with an import's bracket left open
/// joined to the lines that close it (`from .fields import (\n    Field,\n)`).
fn statements(text: &str) -> Vec<&str> {
    let mut whole = Vec::new();
    let mut start = 0;
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '\n' if depth <= 0 => {
                whole.push(&text[start..i]);
                start = i + 1;
                depth = 0;
            }
            _ => {}
        }
    }
    whole.push(&text[start..]);
    // An import is one statement across its lines; a table (pydantic's lazy-import dict,
    // `'WithJsonSchema': (__spec__.parent, '.json_schema'),`) is one entry a line.
    whole
        .into_iter()
        .flat_map(|statement| {
            let trimmed = statement.trim_start();
            if trimmed.starts_with("from ") || trimmed.starts_with("import ") {
                vec![statement]
            } else {
                statement.lines().collect()
            }
        })
        .collect()
}

/// Whether `statement` names the module path `module` whole (`.json_schema`, not
/// `.json_schema_extra`), in an import or a quoted lazy-import table entry.
fn mentions(statement: &str, module: &str) -> bool {
    statement.match_indices(module).any(|(at, _)| {
        let before = statement[..at].chars().next_back();
        let after = statement[at + module.len()..].chars().next();
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        !before.is_some_and(|c| ident(c) || (c == '.' && !module.starts_with('.')))
            && !after.is_some_and(|c| ident(c) || c == '.')
    })
}

fn words(statement: &str) -> impl Iterator<Item = &str> {
    statement
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The top package of a file in the folders `dirs`: the index of the outermost folder holding
/// an `__init__.py` with every folder below it a package too; `None` outside any package.
pub(crate) fn top_package(dirs: &[&str], read: Read) -> Option<usize> {
    (0..dirs.len()).find(|&depth| {
        (depth..dirs.len())
            .all(|d| read(&format!("{}/__init__.py", dirs[..=d].join("/"))).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(files: &[(&str, &str)], path: &str) -> Option<Vec<String>> {
        let read = |p: &str| {
            files
                .iter()
                .find(|(f, _)| *f == p)
                .map(|(_, t)| t.to_string())
        };
        python_reach(path, &read).map(|names| names.into_iter().collect())
    }

    #[test]
    fn the_declared_api_bounds_what_submodules_promise() {
        let init = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .fields import (\n        Field,\n        PrivateAttr,\n    )\n    from .json_schema import WithJsonSchema\n    from .errors import *\n    from . import dataclasses\n\n__all__ = (\n    'Field',\n    'PrivateAttr',\n    'WithJsonSchema',\n    'dataclasses',\n    'PydanticUserError',\n)\n\n_dynamic_imports = {\n    'WithJsonSchema': (__spec__.parent, '.json_schema'),\n    'PydanticUserError': (__spec__.parent, '.errors'),\n}\n";
        let files = [
            ("pydantic/__init__.py", init),
            ("pydantic/v1/__init__.py", ""),
        ];
        assert_eq!(
            reach(&files, "pydantic/json_schema.py"),
            Some(vec!["WithJsonSchema".to_string()])
        );
        assert_eq!(
            reach(&files, "pydantic/fields.py"),
            Some(vec!["Field".to_string(), "PrivateAttr".to_string()])
        );
        // Not imported at all: nothing of it is declared.
        assert_eq!(reach(&files, "pydantic/mypy.py"), Some(vec![]));
        assert_eq!(reach(&files, "pydantic/v1/fields.py"), Some(vec![]));
        // Everything of it, the module itself, the package's own `__init__`: unbounded.
        assert_eq!(reach(&files, "pydantic/errors.py"), None);
        assert_eq!(reach(&files, "pydantic/dataclasses.py"), None);
        assert_eq!(reach(&files, "pydantic/__init__.py"), None);
        // A package without `__all__` declares nothing.
        let plain = [("pkg/__init__.py", "from .core import run\n")];
        assert_eq!(reach(&plain, "pkg/core.py"), None);
        // `.json_schema_extra` is another module.
        let other = [(
            "pkg/__init__.py",
            "from .json_schema_extra import Extra\n__all__ = ['Extra']\n",
        )];
        assert_eq!(reach(&other, "pkg/json_schema.py"), Some(vec![]));
    }
}
