//! A shell command built only from constants is no injection: what an attacker controls has
//! to reach the string.

use super::*;

const JS: &str = "js/child-process-injection";

#[test]
fn exec_of_a_command_built_from_constants_is_no_injection() {
    for script in [
        // A choice between two literals, whatever chooses.
        "import { exec } from 'child_process'\nconst isWatch = process.argv.includes('--watch')\nexec(`tsc ${isWatch ? '-w' : ''} --emitDeclarationOnly`)",
        // Constants of the module, through another constant.
        "const OUT = 'dist'\nconst DIR = `${OUT}/types`\nexec(`rm -rf ${DIR} && tsc --outDir ${DIR}`)",
        "const FLAGS = '--strict'\nexecSync('tsc ' + FLAGS + ' -p .')",
        "export const TARGET = 'es2020'\nfunction build() {\n  execSync(`esbuild --target=${TARGET}`)\n}",
    ] {
        let lines: Vec<&str> = script.lines().collect();
        assert_eq!(
            rule_lines(JS, "build.ts", &lines),
            Vec::<u32>::new(),
            "{script}"
        );
    }
}

#[test]
fn exec_of_a_command_a_value_from_outside_reaches_is_injection() {
    for (script, line) in [
        // A parameter, the command line, the environment, anything imported.
        ("export function log(ref) {\n  exec(`git log ${ref}`)\n}", 2),
        ("const ref = process.argv[2]\nexec(`git log ${ref}`)", 2),
        ("exec(`git log ${process.env.REF}`)", 1),
        ("import { REF } from './config'\nexec(`git log ${REF}`)", 2),
        // A constant of the same name shadowed by a parameter.
        (
            "const ref = 'main'\nfunction log(ref) {\n  exec(`git log ${ref}`)\n}",
            3,
        ),
        (
            "const ref = 'main'\nconst log = (ref) => exec(`git log ${ref}`)",
            2,
        ),
        // A variable that can be reassigned, a constant of another scope.
        (
            "let ref = 'main'\nref = readFileSync('REF', 'utf8')\nexec(`git log ${ref}`)",
            3,
        ),
        (
            "if (x) {\n  const ref = 'main'\n}\nexec(`git log ${ref}`)",
            4,
        ),
        // A `with` block reads names from an object first.
        (
            "const ref = 'main'\nwith (req.query) {\n  exec(`git log ${ref}`)\n}",
            3,
        ),
        // A choice one of whose sides comes from outside.
        (
            "function log(ref) {\n  exec(`git log ${ref ? ref : 'main'}`)\n}",
            2,
        ),
        (
            "function log(ref) {\n  execSync('git log ' + (ref || 'main'))\n}",
            2,
        ),
    ] {
        let lines: Vec<&str> = script.lines().collect();
        assert_eq!(rule_lines(JS, "src/git.js", &lines), vec![line], "{script}");
    }
}

#[test]
fn a_python_shell_command_built_from_module_constants_is_no_injection() {
    const RULE: &str = "python/subprocess-shell-injection";
    let quiet = "import subprocess\nOUT = \"build\"\nsubprocess.run(f\"make -C {OUT}\", shell=True, check=True)";
    let lines: Vec<&str> = quiet.lines().collect();
    assert_eq!(rule_lines(RULE, "tools/make.py", &lines), Vec::<u32>::new());
    for (script, line) in [
        (
            "import subprocess\ndef make(out):\n    subprocess.run(f\"make -C {out}\", shell=True)",
            3,
        ),
        // Written through the module's namespace, or from outside it.
        (
            "import subprocess\nOUT = \"build\"\nglobals()[\"OUT\"] = input()\nsubprocess.run(f\"make -C {OUT}\", shell=True)",
            4,
        ),
        (
            "import subprocess, sys\nOUT = \"build\"\nsetattr(sys.modules[__name__], \"OUT\", input())\nsubprocess.run(f\"make -C {OUT}\", shell=True)",
            4,
        ),
        // Bound again inside a function: not one constant.
        (
            "import subprocess\nOUT = \"build\"\ndef make():\n    OUT = input()\n    subprocess.run(f\"make -C {OUT}\", shell=True)",
            5,
        ),
    ] {
        let lines: Vec<&str> = script.lines().collect();
        assert_eq!(
            rule_lines(RULE, "tools/make.py", &lines),
            vec![line],
            "{script}"
        );
    }
}

const INNER_HTML: &str = "js/inner-html";

#[test]
fn markup_a_module_constant_holds_is_no_injection() {
    for script in [
        "const SPINNER = '<span class=\"spin\"></span>'\nexport function wait(el) {\n  el.innerHTML = SPINNER\n}",
        // A template of constants, through another constant.
        "const ICON = '<svg></svg>'\nconst BUTTON = `<button>${ICON}</button>`\nfunction draw(el) {\n  el.innerHTML = BUTTON;\n}",
    ] {
        let lines: Vec<&str> = script.lines().collect();
        assert_eq!(
            rule_lines(INNER_HTML, "src/view.js", &lines),
            Vec::<u32>::new(),
            "{script}"
        );
    }
}

#[test]
fn markup_from_a_parameter_or_a_template_of_data_is_still_injection() {
    for (script, line) in [
        (
            "export function show(el, html) {\n  el.innerHTML = html\n}",
            2,
        ),
        (
            "export function show(el, user) {\n  el.innerHTML = `<b>${user.name}</b>`\n}",
            2,
        ),
        // A constant of the same name shadowed by a parameter.
        (
            "const MARKUP = '<hr>'\nfunction show(el, MARKUP) {\n  el.innerHTML = MARKUP\n}",
            3,
        ),
        // A module-level name bound to something read at run time.
        ("const MARKUP = location.hash\nel.innerHTML = MARKUP", 2),
    ] {
        let lines: Vec<&str> = script.lines().collect();
        assert_eq!(
            rule_lines(INNER_HTML, "src/view.js", &lines),
            vec![line],
            "{script}"
        );
    }
}
