//! Names too common to join files.
//!
//! The index matches symbols by name only. `new`, `Ok` or `toString` are used by nearly every
//! file, so treating them as shared symbols would put the whole pull request into one cohort
//! and give every cohort the whole repository as its blast radius. These names still appear
//! in the index (a `find_symbol` look-up may want them); they only never join files, never
//! count towards blast radius and never gate apiContract on a by-name reference count.

const COMMON: &[&str] = &[
    // Constructors, conversions and accessors every type has.
    "new", "default", "from", "into", "try_from", "try_into", "as_ref", "as_mut", "clone",
    "to_string", "to_owned", "len", "is_empty", "get", "set", "iter", "push", "insert",
    "remove", "contains", "map", "unwrap", "expect", "fmt", "eq", "hash", "cmp", "drop", "keys",
    "items", "format", "println", "vec", "assert", "assert_eq", "assert_ne", "panic",
    "debug_assert", "matches", "write_str", "writeln", "format_args", "todo", "unimplemented",
    "unreachable", "dbg", "include_str", "env", "concat", "cfg", "Self", "self",
    // Entry points and test scaffolding.
    "main", "test", "tests", "run", "init", "setup", "teardown", "setUp", "tearDown",
    "__init__", "__str__", "__repr__", "__eq__", "__call__", "super", "constructor",
    // Standard types and variants named everywhere.
    "String", "Vec", "Option", "Result", "Box", "Rc", "Arc", "HashMap", "HashSet", "BTreeMap",
    "BTreeSet", "Ok", "Err", "Some", "None", "Error", "str", "Path", "PathBuf", "Duration",
    "Object", "Integer", "List", "Map", "Promise", "Array", "Date", "JSON", "Math", "Number",
    "Boolean", "Exception", "Override", "T", "E", "K", "V",
    // JavaScript, Python, Go and Java built-ins.
    "toString", "valueOf", "equals", "hashCode", "length", "size", "add", "put", "log", "then",
    "catch", "require", "console", "print", "range", "isinstance", "getattr", "setattr",
    "append", "join", "split", "strip", "format", "int", "float", "bool", "list", "dict",
    "tuple", "type", "object", "Errorf", "Sprintf", "Printf", "Println", "make", "error",
    "string", "context", "Context", "Fatal", "Fatalf", "Run", "Helper", "Equal", "NoError",
];

/// Whether `name` is too common (or too short) to mean the same thing in two files.
pub fn is_common(name: &str) -> bool {
    // Single letters are loop variables and generic parameters, not shared symbols.
    name.chars().count() < 2 || COMMON.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_and_short_names_are_stopped_distinctive_ones_are_not() {
        for name in ["new", "Ok", "__init__", "toString", "x", "T", "main"] {
            assert!(is_common(name), "{name}");
        }
        for name in ["parse_config", "ReviewNode", "load_index", "Cohort"] {
            assert!(!is_common(name), "{name}");
        }
    }
}
