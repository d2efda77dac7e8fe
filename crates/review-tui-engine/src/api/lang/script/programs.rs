//! JavaScript and TypeScript: the files a package runs as programs rather than offers as a
//! library. The commands its `package.json` installs (`bin`, or the source a built command is
//! built from) and the files its `scripts` run with Node (`"build:validation": "node
//! build/build-validation.js"`) are programs: what they print is their output. A command that
//! is also an entry point of the library (`main`, `exports`) stays library code. A package that
//! installs commands and offers no library at all (no `main`, `exports` or `module`, no
//! `index` file for Node to fall back on: np's `"bin": "./source/cli.js"`) is a program
//! throughout.

use super::entry_points::{collect_targets, join, package_of, source_of};
use crate::api::visibility::Read;

/// Runners whose first script argument is the file a package script runs.
const RUNNERS: &[&str] = &["node", "tsx", "ts-node", "bun"];

const SCRIPT_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts"];

/// Whether the script file at `path` is library code of its package, not a program the package
/// runs; `None` without a readable `package.json` above it.
pub(crate) fn library_code(path: &str, read: Read) -> Option<bool> {
    let (root, manifest) = package_of(path, read)?;
    let json: serde_json::Value = serde_json::from_str(&manifest).ok()?;
    let mut programs = Vec::new();
    if let Some(bin) = json.get("bin") {
        collect_targets(bin, &mut programs);
    }
    if let Some(serde_json::Value::Object(scripts)) = json.get("scripts") {
        for command in scripts.values().filter_map(|v| v.as_str()) {
            programs.extend(run_files(command).map(String::from));
        }
    }
    let mut entries = Vec::new();
    if let Some(exports) = json.get("exports") {
        collect_targets(exports, &mut entries);
    }
    for field in ["main", "module", "browser"] {
        if let Some(serde_json::Value::String(target)) = json.get(field) {
            entries.push(target.clone());
        }
    }
    if !programs.is_empty() && entries.is_empty() && read(&join(&root, "index.js")).is_none() {
        return Some(false);
    }
    let is = |target: &String| {
        join(&root, target) == path || source_of(&root, target, read).as_deref() == Some(path)
    };
    Some(!programs.iter().any(is) || entries.iter().any(is))
}

/// The files a script command runs with Node: in each part of the command (`&&`, `;`, `|`),
/// the first script file after a runner (`node --max-old-space-size=4096 build/x.js`).
fn run_files(command: &str) -> impl Iterator<Item = &str> {
    command.split(['&', ';', '|']).filter_map(|part| {
        let mut words = part.split_whitespace();
        words.find(|word| RUNNERS.contains(word))?;
        words.find(|word| {
            !word.starts_with('-')
                && word
                    .rsplit_once('.')
                    .is_some_and(|(_, extension)| SCRIPT_EXTENSIONS.contains(&extension))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::run_files;

    #[test]
    fn a_script_runs_the_file_after_its_runner() {
        let files: Vec<&str> =
            run_files("node build/a.js && tsc -p . && node --inspect tools/b.mjs arg; eslint x.js")
                .collect();
        assert_eq!(files, ["build/a.js", "tools/b.mjs"]);
        assert_eq!(run_files("tap test/*.js").count(), 0);
    }
}
