//! Optional-import feature detection: `except Exception: pass` after a `try` whose body only
//! imports and uses what it imported answers "not available here"; around the program's own
//! work it swallows a failure. Read in the whole `try` statement, from the head file when the
//! hunk shows only part of it.

use super::*;

const RULE: &str = "python/except-pass";

/// The lines of the `except-pass` findings when `pkg/term.py` changes from `base` to `head`.
fn handlers(base: &str, head: &str) -> Vec<u32> {
    first_lines(&rule_findings(
        &[("pkg/term.py", base)],
        &[("pkg/term.py", head)],
        RULE,
    ))
}

/// A function probing for an optional module with `body`, its handler passing.
fn probe(body: &str) -> String {
    format!(
        "import os\n\n\ndef in_notebook(stream):\n    try:\n{body}\n    except Exception:\n        pass\n    else:\n        return is_notebook\n    return False\n"
    )
}

#[test]
fn a_try_that_only_imports_and_uses_what_it_imported_is_feature_detection() {
    // The body imports, then asks the modules about the program's value: a blank line inside
    // it, and calls into what it imported.
    let asks = probe(
        "        import notebook_kernel\n        import notebook_shell\n\n        shell = notebook_shell.current()\n        is_notebook = isinstance(stream, notebook_kernel.OutStream) and shell is not None",
    );
    assert_eq!(handlers("", &asks), Vec::<u32>::new());
    // Only the handler is new: the `try` it belongs to is read in the head file.
    let before = asks.replace(
        "    except Exception:\n        pass\n",
        "    except ImportError:\n        pass\n",
    );
    assert_eq!(handlers(&before, &asks), Vec::<u32>::new());
    // Comprehension variables and aliases are the body's own.
    let version = probe(
        "        import numpy as np\n        is_notebook = tuple(int(p) for p in np.__version__.split(\".\")) >= (2, 0)",
    );
    assert_eq!(handlers("", &version), Vec::<u32>::new());
}

#[test]
fn a_try_that_also_does_the_programs_own_work_still_swallows_a_failure() {
    for body in [
        // Work on the program's own objects.
        "        import notebook_kernel\n        is_notebook = stream.isatty()",
        "        import notebook_kernel\n        self_check()",
        // The program's value handed to the imported module: work, not a question.
        "        import shutil\n        shutil.rmtree(stream)\n        is_notebook = False",
        // State of the program written.
        "        import notebook_kernel\n        stream.kernel = notebook_kernel.current()",
        // Program logic in the body.
        "        import notebook_kernel\n        if stream:\n            is_notebook = True",
        // No import at all.
        "        is_notebook = os.environ[\"NOTEBOOK\"] == \"1\"",
    ] {
        let handler = 6 + body.lines().count() as u32;
        assert_eq!(handlers("", &probe(body)), vec![handler], "{body}");
    }
}
