//! Best-effort cleanup: a handler that passes after a `try` whose body only releases a
//! resource (`conn.close()`, `os.unlink(path)`, `await writer.wait_closed()`), or that sits in
//! a `finally:` block or a teardown method (`close`, `__exit__`, `__del__`), keeps a failed
//! cleanup from hiding the program's result or the error already on its way. A `try` that
//! does the program's work there still swallows a failure. And a swallowed error in test,
//! sample or maintainer code reaches no user.

use super::*;

/// The lines of `rule`'s findings when `path` is added holding `text`.
fn findings_in(path: &str, text: &str, rule: &str) -> Vec<u32> {
    first_lines(&rule_findings(&[], &[(path, text)], rule))
}

/// A function named `name` whose `try` holds `body`, its handler passing.
fn swallowing(name: &str, body: &str, handler: &str) -> String {
    format!(
        "import os\nimport shutil\n\n\nasync def {name}(self, path, writer):\n    try:\n{body}\n    {handler}\n        pass\n    return None\n"
    )
}

/// The line of the handler in [`swallowing`] for `body`.
fn handler_line(body: &str) -> u32 {
    7 + body.lines().count() as u32
}

#[test]
fn a_swallowed_failure_of_a_single_cleanup_call_is_best_effort() {
    for handler in ["except Exception:", "except:"] {
        let rule = if handler == "except:" {
            "python/bare-except"
        } else {
            "python/except-pass"
        };
        for body in [
            "        self._sock.close()",
            "        self._sock.shutdown(socket.SHUT_RDWR)",
            "        os.unlink(path)",
            "        os.remove(os.path.join(path, \"lock\"))",
            "        await writer.wait_closed()",
            "        shutil.rmtree(path)",
            "        readline.write_history_file(self.history)",
            "        self._process.kill()",
            "        # the peer may be gone already\n        self._process.terminate()",
        ] {
            let text = swallowing("run", body, handler);
            assert_eq!(
                findings_in("pkg/conn.py", &text, rule),
                Vec::<u32>::new(),
                "{handler} {body}"
            );
        }
    }
}

#[test]
fn a_swallowed_failure_in_a_finally_block_or_a_teardown_method_is_best_effort() {
    let rule = "python/except-pass";
    // Teardown methods: several releasing calls, state reset.
    let teardown = "        self._writer.flush()\n        self._writer = None";
    for name in [
        "close", "cleanup", "__del__", "__exit__", "shutdown", "stop", "aclose",
    ] {
        let text = swallowing(name, teardown, "except Exception:");
        assert_eq!(
            findings_in("pkg/conn.py", &text, rule),
            Vec::<u32>::new(),
            "{name}"
        );
    }
    // A `finally:` block releasing what the work held.
    let text = "def fetch(pool):\n    conn = pool.get()\n    try:\n        return conn.read()\n    finally:\n        try:\n            pool.put(conn)\n        except Exception:\n            pass\n";
    assert_eq!(findings_in("pkg/pool.py", text, rule), Vec::<u32>::new());
}

#[test]
fn a_try_that_does_the_programs_work_still_swallows_a_failure() {
    let rule = "python/except-pass";
    for body in [
        // Computes, parses, returns data.
        "        data = json.loads(path.read_text())",
        "        return self.parse(path)",
        "        self.cache.refresh()",
        // A cleanup call and work besides.
        "        self._sock.close()\n        self.sent += 1",
        // Work hidden in the receiver or the arguments of a cleanup call.
        "        self.connect(path).close()",
        "        os.unlink(self.export(path))",
    ] {
        let text = swallowing("run", body, "except Exception:");
        assert_eq!(
            findings_in("pkg/conn.py", &text, rule),
            vec![handler_line(body)],
            "{body}"
        );
    }
    // In a teardown method, a body that hands back data is the program's work.
    let body = "        return self._buffer.getvalue()";
    let text = swallowing("close", body, "except Exception:");
    assert_eq!(
        findings_in("pkg/conn.py", &text, rule),
        vec![handler_line(body)]
    );
    // A method only named like teardown (`close_account`) is not one.
    let body = "        self.ledger.settle(path)";
    let text = swallowing("close_account", body, "except Exception:");
    assert_eq!(
        findings_in("pkg/conn.py", &text, rule),
        vec![handler_line(body)]
    );
}

#[test]
fn a_swallowed_failure_in_test_sample_or_maintainer_code_reaches_no_user() {
    let body = "        self.cache.refresh()";
    for (handler, rule) in [
        ("except Exception:", "python/except-pass"),
        ("except:", "python/bare-except"),
    ] {
        let text = swallowing("run", body, handler);
        for path in [
            "tests/test_cache.py",
            "tests/docker/app/main.py",
            "conftest.py",
            "examples/cache_server.py",
            "scripts/build_docs.py",
            "tools/release.py",
        ] {
            assert_eq!(
                findings_in(path, &text, rule),
                Vec::<u32>::new(),
                "{rule} {path}"
            );
        }
        // The package's own code, and a package's module named for examples, ship.
        for path in ["pkg/cache.py", "src/pkg/examples/cache.py"] {
            assert_eq!(
                findings_in(path, &text, rule),
                vec![handler_line(body)],
                "{rule} {path}"
            );
        }
    }
}

// A bare handler that cleans up and then re-raises (`except:  # noqa: E722`, then
// `self.closed = True` … `raise`) lets every exception through: nothing is hidden. One that
// re-raises only from a nested handler's sibling path, or never, still swallows.
#[test]
fn a_bare_handler_that_cleans_up_and_re_raises_hides_nothing() {
    let rule = "python/bare-except";
    let handler = |body: &str| {
        format!(
            "def write(self, path, data):\n    try:\n        self._out.write(data)\n    except:  # noqa: E722\n{body}\n    return len(data)\n"
        )
    };
    for body in [
        "        self.closed = True\n        self._out = None\n        raise",
        "        log.error(\"write failed\")\n        if self.strict:\n            raise  # the caller decides\n        self.errors += 1",
    ] {
        assert_eq!(
            findings_in("pkg/io.py", &handler(body), rule),
            Vec::<u32>::new(),
            "{body}"
        );
    }
    for body in [
        "        self.closed = True\n        self._out = None",
        "        self.errors += 1\n        self.raised = False",
    ] {
        assert_eq!(
            findings_in("pkg/io.py", &handler(body), rule),
            vec![4],
            "{body}"
        );
    }
}
