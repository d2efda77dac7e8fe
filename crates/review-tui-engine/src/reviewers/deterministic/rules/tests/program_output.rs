//! `console.log` is a debug leftover only where printing is not the code's job: a command the
//! package installs, a file its scripts run with Node and a function that does nothing but
//! print (the project's own logger) print as their output.

use super::*;

const RULE: &str = "js/console-log";

/// A project that asks for `no-console`.
const ESLINT: (&str, &str) = (".eslintrc.json", "{\"rules\": {\"no-console\": \"error\"}}");

/// The lines of the `console.log` findings when `path` is added with `text` to a repository
/// holding `files`.
fn logs(files: &[(&str, &str)], path: &str, text: &str) -> Vec<u32> {
    let mut base = vec![ESLINT];
    base.extend_from_slice(files);
    first_lines(&rule_findings(&base, &[(path, text)], RULE))
}

#[test]
fn a_file_the_package_runs_as_a_program_prints_its_output() {
    let package = (
        "package.json",
        r#"{"name": "shop", "version": "1.0.0", "main": "lib/index.js",
  "bin": {"shop": "./lib/command.js", "shop-report": "./dist/report.cjs"},
  "scripts": {"build:schemas": "node tools/build-schemas.js && tsc -p ."}}"#,
    );
    let program =
        "const { total } = require('./index')\nconsole.log(total(process.argv.slice(2)))\n";
    assert_eq!(
        logs(&[package], "lib/command.js", program),
        Vec::<u32>::new()
    );
    // A command built from its source: the source prints too.
    assert_eq!(
        logs(&[package], "src/report.ts", program),
        Vec::<u32>::new()
    );
    assert_eq!(
        logs(
            &[package],
            "tools/build-schemas.js",
            "console.log('saved schemas.json')\n"
        ),
        Vec::<u32>::new()
    );
    // The library's own modules still ask.
    assert_eq!(logs(&[package], "lib/cart.js", program), vec![2]);
    // A command that is the library's entry point too is library code.
    let both = (
        "package.json",
        r#"{"name": "shop", "version": "1.0.0", "main": "lib/index.js", "bin": "./lib/index.js"}"#,
    );
    assert_eq!(logs(&[both], "lib/index.js", program), vec![2]);
    // A package that only installs a command, with no library to import, is a program
    // throughout; one that also exports a library is not.
    let tool = (
        "package.json",
        r#"{"name": "release", "version": "1.0.0", "bin": "./source/cli.js"}"#,
    );
    let ui = "export function announce(name) {
  console.log(`publishing ${name}`)
  return name
}
";
    assert_eq!(logs(&[tool], "source/ui.js", ui), Vec::<u32>::new());
    let library = (
        "package.json",
        r#"{"name": "release", "version": "1.0.0", "bin": "./source/cli.js", "exports": "./source/index.js"}"#,
    );
    assert_eq!(logs(&[library], "source/ui.js", ui), vec![2]);
}

#[test]
fn a_function_that_only_prints_is_the_projects_printer() {
    let code = "function debug (message) {
  console.log(`[shop] ${message}`)
}
const warn = (message) => console.log(`warning: ${message}`)
function report (type, message) {
  if (type === 'error') {
    console.error(message)
  } else {
    console.log(message)
  }
}
class Log {
  info (message) { console.log(message) }
}
function total (cart) {
  console.log('cart', cart)
  return cart.sum
}
console.log('loaded')
";
    assert_eq!(logs(&[], "lib/cart.js", code), vec![16, 19]);
}
