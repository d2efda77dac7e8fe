//! A rockspec (`NAME-VERSION-REVISION.rockspec`, a Lua file): the package's name and version
//! as its top-level assignments write them, string literals or earlier ones joined with `..`
//! (`local package_version = "2.3.0"` … `version = package_version .. "-" .. rockspec_revision`).
//! A development rockspec (`scm-1`, `dev-1`) writes no version: the tags have it.

use std::collections::HashMap;

use crate::api::visibility::Read;

/// The package's name (`package = "busted"`).
pub(crate) fn names(text: &str) -> Vec<String> {
    assigned(text, "package").into_iter().collect()
}

/// The version without the rockspec's own revision (`2.3.0-1` is version `2.3.0`).
pub(crate) fn version(text: &str, _root: &str, _read: Read) -> Option<String> {
    let written = assigned(text, "version")?;
    let (version, _revision) = written.rsplit_once('-')?;
    version
        .starts_with(|c: char| c.is_ascii_digit())
        .then(|| version.to_string())
}

/// The string the top-level assignment to `key` (a line starting at its first column) gives.
fn assigned(text: &str, key: &str) -> Option<String> {
    let mut values: HashMap<&str, String> = HashMap::new();
    for line in text.lines() {
        let line = line.strip_prefix("local ").unwrap_or(line);
        let Some((name, expression)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim_end();
        let identifier = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if !identifier {
            continue;
        }
        if let Some(value) = evaluate(expression.trim(), &values) {
            values.insert(name, value);
        }
    }
    values.remove(key)
}

/// A concatenation of string literals and names assigned before; `None` for anything else.
fn evaluate(expression: &str, values: &HashMap<&str, String>) -> Option<String> {
    expression
        .split("..")
        .map(|term| {
            let term = term.trim();
            let quoted = ['"', '\'']
                .iter()
                .find(|q| term.len() >= 2 && term.starts_with(**q) && term.ends_with(**q));
            match quoted {
                Some(_) => Some(term[1..term.len() - 1].to_string()),
                None => values.get(term).cloned(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_locals_joined_name_and_version_the_package() {
        // busted's own template and its released rockspecs.
        let template = "local package_name = \"busted\"\nlocal package_version = \"2.3.0\"\n\
            local rockspec_revision = \"1\"\n\nrockspec_format = \"3.0\"\npackage = package_name\n\
            version = package_version .. \"-\" .. rockspec_revision\n\nsource = {\n  \
            url = \"git+https://github.com/lunarmodules/busted.git\",\n  version = \"9.9.9-1\"\n}\n";
        assert_eq!(names(template), ["busted"]);
        assert_eq!(version(template, "", &|_| None).as_deref(), Some("2.3.0"));
        let released = "package = 'busted'\nversion = '2.0.0-0'\n";
        assert_eq!(version(released, "", &|_| None).as_deref(), Some("2.0.0"));
        for development in [
            "version = \"scm-1\"\n",
            "version = \"dev-1\"\n",
            "version = v\n",
        ] {
            assert_eq!(version(development, "", &|_| None), None, "{development}");
        }
    }
}
