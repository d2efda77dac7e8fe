//! Whether the committed lock already resolves what a changed manifest line asks for, so the
//! package manager has nothing to write: clap #5599 raised `backtrace = "0.3.67"` to `"0.3.73"`
//! where Cargo.lock already held 0.3.73; msw #1399 added `statuses: ^2.0.0` where yarn.lock
//! already had a `statuses@^2.0.0` entry. Only locks that record no copy of the manifest's
//! requirements are read so: a Cargo.lock (versions only) for a requirement changed on a
//! dependency the manifest already had, and a classic yarn.lock (entries keyed by
//! `name@range`). npm's package-lock, yarn berry and the others record the manifest's ranges
//! and change with them. A Go requirement needs nothing of go.sum when go.mod replaces the
//! module by a local path, or when go.sum already holds its hashes at that version.

/// Whether `lock_text` (the lock at the head) already satisfies the dependency `name` at
/// `requirement` (as the manifest writes it).
pub(super) fn cargo_lock_satisfies(lock_text: &str, name: &str, requirement: &str) -> bool {
    let Some(wanted) = CargoRequirement::parse(requirement) else {
        return false;
    };
    let mut current: Option<&str> = None;
    for line in lock_text.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            current = None;
        } else if let Some(value) = line.strip_prefix("name = ") {
            current = Some(value.trim_matches('"'));
        } else if let Some(value) = line.strip_prefix("version = ")
            && current == Some(name)
            && parse_version(value.trim_matches('"')).is_some_and(|v| wanted.admits(v))
        {
            return true;
        }
    }
    false
}

/// Whether a classic yarn.lock (not berry's, which records the workspace's own ranges) has an
/// entry keyed `name@range`.
pub(super) fn yarn_lock_has(lock_text: &str, name: &str, range: &str) -> bool {
    if lock_text.contains("__metadata:") {
        return false;
    }
    let key = format!("{name}@{range}");
    lock_text
        .lines()
        .filter(|l| !l.starts_with([' ', '#']) && l.trim_end().ends_with(':'))
        .flat_map(|l| l.trim_end().trim_end_matches(':').split(", "))
        .any(|k| k.trim().trim_matches('"') == key)
}

/// Whether a Go requirement of `module` at `version` needs nothing new in go.sum: `go.mod`
/// (at the head) replaces the module by a local path, which is built from the repository and
/// never downloaded (`replace example.com/x => ../..`, alone or in a `replace ( … )` block), or
/// `go_sum` already holds both the module's tree hash and its `go.mod` hash at that version.
pub(super) fn go_sum_satisfies(go_mod: &str, go_sum: &str, module: &str, version: &str) -> bool {
    if locally_replaced(go_mod).iter().any(|m| m == module) {
        return true;
    }
    let holds = |suffix: &str| {
        go_sum.lines().any(|line| {
            let mut words = line.split_whitespace();
            words.next() == Some(module)
                && words.next() == Some(&format!("{version}{suffix}"))
                && words.next().is_some_and(|hash| hash.starts_with("h1:"))
        })
    };
    holds("") && holds("/go.mod")
}

/// The other hashes the go command verifies the module of `go_mod_path` with: in workspace
/// mode (a `go.work` in the module's folder or above that `use`s it), the go.sum of every
/// module the workspace uses and its `go.work.sum` are read together, so a requirement another
/// workspace module already locked needs nothing in this one's go.sum (a repository of several
/// modules, each provider with its own go.mod, and an examples module requiring them all).
/// Empty outside a workspace. `read` reads a file of the head.
pub(super) fn go_workspace_sums(
    go_mod_path: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> String {
    let module = go_mod_path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut folder = Some(module);
    while let Some(dir) = folder {
        let at = |name: &str| {
            if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            }
        };
        if let Some(work) = read(&at("go.work")) {
            let used: Vec<String> = go_directives(&work, "use")
                .into_iter()
                .map(|path| normalize(&at(path.trim_matches('"'))))
                .collect();
            if !used.iter().any(|m| *m == normalize(module)) {
                return String::new();
            }
            let mut sums = read(&at("go.work.sum")).unwrap_or_default();
            for m in used {
                let sum = if m.is_empty() {
                    "go.sum".to_string()
                } else {
                    format!("{m}/go.sum")
                };
                sums.push('\n');
                sums.push_str(&read(&sum).unwrap_or_default());
            }
            return sums;
        }
        folder = (!dir.is_empty()).then(|| dir.rsplit_once('/').map_or("", |(up, _)| up));
    }
    String::new()
}

/// `a/./b/../c` → `a/c`; `.` → the root (empty).
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// The modules a `go.mod` replaces by a local directory (`./…`, `../…`, `/…`), at any version.
fn locally_replaced(go_mod: &str) -> Vec<String> {
    go_directives(go_mod, "replace")
        .into_iter()
        .filter_map(|directive| {
            let (old, new) = directive.split_once("=>")?;
            let target = new.trim();
            (target.starts_with("./") || target.starts_with("../") || target.starts_with('/'))
                .then(|| old.split_whitespace().next().map(str::to_string))
                .flatten()
        })
        .collect()
}

/// The bodies of a `go.mod`'s directives named `verb` (`require`, `replace`), written alone
/// (`require a.io/b v1.0.0`) or in a block (`require ( … )`), without comments.
pub(super) fn go_directives<'a>(go_mod: &'a str, verb: &str) -> Vec<&'a str> {
    let mut in_block = false;
    let mut bodies = Vec::new();
    for line in go_mod.lines() {
        let code = line.split("//").next().unwrap_or_default().trim();
        if in_block {
            if code == ")" {
                in_block = false;
            } else if !code.is_empty() {
                bodies.push(code);
            }
        } else if let Some(rest) = code.strip_prefix(verb)
            && rest.starts_with([' ', '\t', '('])
        {
            let rest = rest.trim();
            if rest == "(" {
                in_block = true;
            } else {
                bodies.push(rest);
            }
        }
    }
    bodies
}

/// A Cargo version requirement of one comparator: caret (the default, `0.3.73`, `^1.2`),
/// tilde (`~1.2`) or exact (`=1.2.3`). Anything else (`>=`, several comparators, `*`) is not
/// read.
struct CargoRequirement {
    op: char,
    parts: Vec<u64>,
}

impl CargoRequirement {
    fn parse(text: &str) -> Option<CargoRequirement> {
        let text = text.trim();
        let (op, rest) = match text.chars().next()? {
            '^' | '~' | '=' => (text.chars().next()?, text[1..].trim()),
            c if c.is_ascii_digit() => ('^', text),
            _ => return None,
        };
        let parts: Option<Vec<u64>> = rest.split('.').map(|p| p.parse().ok()).collect();
        let parts = parts.filter(|p| (1..=3).contains(&p.len()))?;
        Some(CargoRequirement { op, parts })
    }

    fn admits(&self, version: [u64; 3]) -> bool {
        let mut low = [0u64; 3];
        low[..self.parts.len()].copy_from_slice(&self.parts);
        if version < low {
            return false;
        }
        // How many leading parts must stay as written.
        let fixed = match self.op {
            '=' => self.parts.len(),
            '~' => self.parts.len().clamp(1, 2),
            _ => {
                // Caret: up to and including the first non-zero part.
                let first_non_zero = self.parts.iter().position(|&p| p != 0);
                match first_non_zero {
                    Some(i) => i + 1,
                    None => self.parts.len(),
                }
            }
        };
        version[..fixed] == low[..fixed]
    }
}

/// `1.2.3` (a pre-release or build suffix is not read: such a version is no match).
fn parse_version(text: &str) -> Option<[u64; 3]> {
    let mut parts = text.split('.').map(|p| p.parse::<u64>().ok());
    Some([parts.next()??, parts.next()??, parts.next()??]).filter(|_| parts.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::{cargo_lock_satisfies, go_sum_satisfies, yarn_lock_has};

    #[test]
    fn a_cargo_requirement_is_read_with_cargos_caret_tilde_and_exact_rules() {
        let lock = "[[package]]\nname = \"backtrace\"\nversion = \"0.3.73\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.200\"\n";
        assert!(cargo_lock_satisfies(lock, "backtrace", "0.3.73"));
        assert!(cargo_lock_satisfies(lock, "backtrace", "^0.3.67"));
        assert!(!cargo_lock_satisfies(lock, "backtrace", "0.3.74"));
        assert!(!cargo_lock_satisfies(lock, "backtrace", "0.4"));
        assert!(cargo_lock_satisfies(lock, "serde", "1.0.150"));
        assert!(cargo_lock_satisfies(lock, "serde", "1"));
        assert!(!cargo_lock_satisfies(lock, "serde", "=1.0.199"));
        assert!(cargo_lock_satisfies(lock, "serde", "~1.0.100"));
        assert!(!cargo_lock_satisfies(lock, "serde", ">=1.0"));
        assert!(!cargo_lock_satisfies(lock, "rand", "0.8"));
    }

    #[test]
    fn a_classic_yarn_lock_is_keyed_by_name_and_range() {
        let lock = "# yarn lockfile v1\n\n\"statuses@>= 1.5.0 < 2\", statuses@^2.0.0:\n  version \"2.0.1\"\n";
        assert!(yarn_lock_has(lock, "statuses", "^2.0.0"));
        assert!(!yarn_lock_has(lock, "statuses", "^3.0.0"));
        assert!(!yarn_lock_has(
            &format!("__metadata:\n  version: 6\n{lock}"),
            "statuses",
            "^2.0.0"
        ));
    }

    #[test]
    fn a_go_requirement_is_satisfied_by_a_local_replace_or_both_its_hashes() {
        let go_mod = "module m\n\nreplace a.io/local v1.0.0 => ../local\nreplace (\n\tb.io/block => ./b // why\n\tc.io/fork => d.io/fork v1.0.0\n)\n";
        let sum =
            "x.io/y v1.2.0 h1:zip=\nx.io/y v1.2.0/go.mod h1:mod=\nz.io/w v1.0.0/go.mod h1:mod=\n";
        assert!(go_sum_satisfies(go_mod, sum, "a.io/local", "v9.0.0"));
        assert!(go_sum_satisfies(go_mod, sum, "b.io/block", "v9.0.0"));
        assert!(!go_sum_satisfies(go_mod, sum, "c.io/fork", "v9.0.0"));
        assert!(go_sum_satisfies(go_mod, sum, "x.io/y", "v1.2.0"));
        assert!(!go_sum_satisfies(go_mod, sum, "x.io/y", "v1.2.1"));
        assert!(!go_sum_satisfies(go_mod, sum, "z.io/w", "v1.0.0"));
    }
}
