//! Rules that weigh a change against what the repository held before it, on real git
//! repositories: the base committed, the head committed over it, the diff git's own.

use std::collections::BTreeSet;
use std::path::Path;

use super::*;
use crate::space::test_repo::{commit_all, git, init};

/// The findings of `rule` on the change from `base` to `head` (files written whole; a `None`
/// head deletes the file), reviewed in the head's worktree.
fn review(base: &[(&str, &str)], head: &[(&str, Option<&str>)], rule: &str) -> Vec<u32> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    init(root);
    for (path, text) in base {
        write(root, path, text);
    }
    let from = commit_all(root, "base");
    for (path, text) in head {
        match text {
            Some(text) => write(root, path, text),
            None => std::fs::remove_file(root.join(path)).unwrap(),
        }
    }
    let to = commit_all(root, "head");
    let text = git(root, &["diff", &from, &to]);
    let files: BTreeSet<String> = git(root, &["ls-files"])
        .lines()
        .map(str::to_string)
        .collect();
    let options = ScanOptions {
        worktree: Some(root.to_path_buf()),
        repo_files: Some(files),
        ..ScanOptions::default()
    };
    BUILTIN
        .scan(&diff(&format!("{text}\n")), &options)
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .map(|n| n.anchor.as_ref().map_or(0, |a| a.start_line))
        .collect()
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A crate whose lint configuration asks every `unsafe` block for its `SAFETY:` comment.
const LINTED: (&str, &str) = (
    "Cargo.toml",
    "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[lints.clippy]\nundocumented_unsafe_blocks = \"warn\"\n",
);
const LIB: (&str, &str) = ("src/lib.rs", "pub mod raw;\n");
const UNSAFE: &str = "rust/unsafe-without-safety-comment";

/// hashbrown #676's shape: `unsafe fn`s whose bodies the 2024 edition wraps in blocks (their
/// docs out of the hunks' sight, as a long `# Safety` section puts them).
const RAW_BEFORE: &str = "\
pub struct Bucket<T> {
    ptr: *mut T,
}

impl<T> Bucket<T> {
    pub unsafe fn read(&self) -> T {
        self.ptr.read()
    }

    pub unsafe fn next_n(&self, offset: usize) -> Self {
        let ptr = self.ptr.sub(
            offset,
        );
        Self { ptr }
    }

    pub unsafe fn drop(&self) {
        self.ptr.drop_in_place();
    }
}
";

#[test]
fn an_unsafe_block_wrapping_what_was_already_unsafe_code_is_not_new_unsafe_code() {
    // Edition 2024's `unsafe_op_in_unsafe_fn`: each body wrapped as it was, re-wrapped
    // arguments and all (rustfmt joins `sub(\n offset,\n)` into `sub(offset)`).
    let wrapped = RAW_BEFORE
        .replace(
            "        self.ptr.read()\n",
            "        unsafe { self.ptr.read() }\n",
        )
        .replace(
            "        let ptr = self.ptr.sub(\n            offset,\n        );\n",
            "        let ptr = unsafe { self.ptr.sub(offset) };\n",
        )
        .replace(
            "        self.ptr.drop_in_place();\n",
            "        unsafe {\n            self.ptr.drop_in_place();\n        }\n",
        );
    let base = [LINTED, LIB, ("src/raw.rs", RAW_BEFORE)];
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&wrapped))], UNSAFE),
        Vec::<u32>::new()
    );
    // A block split in two, and one narrowed to the call that needs it.
    let split_before = "pub fn f(p: *mut u8) -> u8 {\n    unsafe {\n        p.write(1);\n        let v = p.read();\n        v + 1\n    }\n}\n";
    let split_after = "pub fn f(p: *mut u8) -> u8 {\n    unsafe { p.write(1) };\n    let v = unsafe { p.read() };\n    v + 1\n}\n";
    let base = [LINTED, LIB, ("src/raw.rs", split_before)];
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(split_after))], UNSAFE),
        Vec::<u32>::new()
    );
    // Unsafe code moved to another file.
    let moved = "pub fn f(p: *mut u8) -> u8 {\n    unsafe {\n        p.write(1);\n        p.read()\n    }\n}\n";
    let base = [
        LINTED,
        ("src/lib.rs", "pub mod raw;\npub mod other;\n"),
        ("src/raw.rs", moved),
        ("src/other.rs", "pub fn g() {}\n"),
    ];
    let head = [
        ("src/raw.rs", Some("pub fn h() {}\n")),
        ("src/other.rs", Some(&*format!("pub fn g() {{}}\n\n{moved}"))),
    ];
    assert_eq!(review(&base, &head, UNSAFE), Vec::<u32>::new());
}

#[test]
fn an_unsafe_block_with_an_operation_new_to_unsafe_code_is_asked_its_reason() {
    let base = [LINTED, LIB, ("src/raw.rs", RAW_BEFORE)];
    // A new operation beside the wrapped one (hashbrown #439's `ptr::read` of the allocator).
    let added = RAW_BEFORE.replace(
        "        self.ptr.read()\n",
        "        unsafe {\n            let alloc = core::ptr::read(&self.ptr);\n            alloc.read()\n        }\n",
    );
    assert_eq!(review(&base, &[("src/raw.rs", Some(&added))], UNSAFE), vec![7]);
    // The same operation once more: one removed line restates one block.
    let twice = RAW_BEFORE.replace(
        "        self.ptr.read()\n",
        "        let _ = unsafe { self.ptr.read() };\n        unsafe { self.ptr.read() }\n",
    );
    assert_eq!(review(&base, &[("src/raw.rs", Some(&twice))], UNSAFE), vec![8]);
    // A function that stops being `unsafe` answers for its body itself now.
    let safe = RAW_BEFORE.replace(
        "    pub unsafe fn read(&self) -> T {\n        self.ptr.read()\n",
        "    pub fn read(&self) -> T {\n        unsafe { self.ptr.read() }\n",
    );
    assert_eq!(review(&base, &[("src/raw.rs", Some(&safe))], UNSAFE), vec![7]);
    // Code that was safe, now inside a block (a callee made `unsafe`).
    let before = "pub fn f(v: &mut Vec<u8>) {\n    v.set_len(0);\n}\n";
    let after = "pub fn f(v: &mut Vec<u8>) {\n    unsafe {\n        v.set_len(0);\n    }\n}\n";
    let base = [LINTED, LIB, ("src/raw.rs", before)];
    assert_eq!(review(&base, &[("src/raw.rs", Some(after))], UNSAFE), vec![2]);
    // A new function mirroring one the change keeps: its reasons are its own (crossbeam's
    // `push_mut` beside `push`).
    let push = "pub fn push(p: *mut u8) {\n    unsafe {\n        p.write(1);\n    }\n}\n";
    let base = [LINTED, LIB, ("src/raw.rs", push)];
    let mirrored = format!(
        "{push}\npub fn push_mut(p: *mut u8) {{\n    unsafe {{\n        p.write(1);\n    }}\n}}\n"
    );
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&mirrored))], UNSAFE),
        vec![8]
    );
}
