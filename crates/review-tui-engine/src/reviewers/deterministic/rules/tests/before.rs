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
        (
            "src/other.rs",
            Some(&*format!("pub fn g() {{}}\n\n{moved}")),
        ),
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
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&added))], UNSAFE),
        vec![7]
    );
    // The same operation once more: one removed line restates one block.
    let twice = RAW_BEFORE.replace(
        "        self.ptr.read()\n",
        "        let _ = unsafe { self.ptr.read() };\n        unsafe { self.ptr.read() }\n",
    );
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&twice))], UNSAFE),
        vec![8]
    );
    // A function that stops being `unsafe` answers for its body itself now.
    let safe = RAW_BEFORE.replace(
        "    pub unsafe fn read(&self) -> T {\n        self.ptr.read()\n",
        "    pub fn read(&self) -> T {\n        unsafe { self.ptr.read() }\n",
    );
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&safe))], UNSAFE),
        vec![7]
    );
    // Code that was safe, now inside a block (a callee made `unsafe`).
    let before = "pub fn f(v: &mut Vec<u8>) {\n    v.set_len(0);\n}\n";
    let after = "pub fn f(v: &mut Vec<u8>) {\n    unsafe {\n        v.set_len(0);\n    }\n}\n";
    let base = [LINTED, LIB, ("src/raw.rs", before)];
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(after))], UNSAFE),
        vec![2]
    );
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

const REMOVED_TEST: &str = "any/removed-test";

/// platformdirs #523's shape: the Windows property tested alone because the shared list of
/// properties the parametrised test runs skipped it.
const DIRS: (&str, &str) = (
    "src/pkg/windows.py",
    "class Windows:\n    @property\n    def user_desktop_dir(self):\n        return get_folder(\"CSIDL_DESKTOPDIRECTORY\")\n\n    @property\n    def user_music_dir(self):\n        return get_folder(\"CSIDL_MYMUSIC\")\n\n\ndef make_error(failure):\n    return Error(failure)\n",
);
const WINDOWS_TESTS: &str = "\
from pkg.windows import Windows, make_error


@pytest.mark.parametrize(\"prop\", PROPS)
def test_windows(prop):
    expected = {
        \"user_music_dir\": os.path.normpath(FOLDERS[\"CSIDL_MYMUSIC\"]),
        \"user_desktop_dir\": os.path.normpath(FOLDERS[\"CSIDL_DESKTOPDIRECTORY\"]),
    }
    assert getattr(Windows(), prop) == expected[prop]


def test_user_desktop_dir():
    assert Windows().user_desktop_dir == os.path.normpath(FOLDERS[\"CSIDL_DESKTOPDIRECTORY\"])


def test_error_of_a_legacy_failure():
    error = make_error(legacy_failure(\"expected\", \"actual\"))
    assert error.failure.expected == \"expected\"


def legacy_failure(expected, actual):
    return LegacyFailure(expected, actual)
";

#[test]
fn a_removed_test_whose_code_the_remaining_tests_still_exercise_is_no_loss() {
    let base = [
        DIRS,
        (
            "tests/conftest.py",
            "PROPS = (\n    \"user_music_dir\",\n)\n",
        ),
        ("tests/test_windows.py", WINDOWS_TESTS),
    ];
    // The property joins the shared list; its own test goes.
    let head = WINDOWS_TESTS.replace(
        "def test_user_desktop_dir():\n    assert Windows().user_desktop_dir == os.path.normpath(FOLDERS[\"CSIDL_DESKTOPDIRECTORY\"])\n\n\n",
        "",
    );
    let lists = "PROPS = (\n    \"user_music_dir\",\n    \"user_desktop_dir\",\n)\n";
    assert_eq!(
        review(
            &base,
            &[
                ("tests/conftest.py", Some(lists)),
                ("tests/test_windows.py", Some(&head))
            ],
            REMOVED_TEST
        ),
        Vec::<u32>::new()
    );
    // A case nothing left exercises (mockito #2570: the legacy failure's path stays, its only
    // test goes, with its helper) is a loss.
    let head = WINDOWS_TESTS.replace(
        "def test_error_of_a_legacy_failure():\n    error = make_error(legacy_failure(\"expected\", \"actual\"))\n    assert error.failure.expected == \"expected\"\n\n\ndef legacy_failure(expected, actual):\n    return LegacyFailure(expected, actual)\n",
        "",
    );
    assert_eq!(
        review(
            &base,
            &[("tests/test_windows.py", Some(&head))],
            REMOVED_TEST
        ),
        vec![17]
    );
}

/// msw #2351's shape: an option removed, its test with it.
const HANDLE: &str = "\
export interface HandleOptions {
  onPassthrough?: () => void
  transformResponse?: (response: Response) => Response
}

export async function handleRequest(request: Request, options: HandleOptions) {
  const response = await fetch(request)
  const transform = options.transformResponse
  return transform ? transform(response) : response
}
";
const HANDLE_TESTS: &str = "\
import { handleRequest } from './handle'

test('passes the request through', async () => {
  const response = await handleRequest(new Request('http://localhost/user'), {})
  expect(response.status).toBe(200)
})

test('returns a transformed response if the option is given', async () => {
  const transformResponse = vi.fn((response) => response)
  await handleRequest(new Request('http://localhost/user'), { transformResponse })
  expect(transformResponse).toHaveBeenCalledTimes(1)
})
";

#[test]
fn a_removed_test_of_what_the_change_removed_went_with_it() {
    let base = [
        ("src/handle.ts", HANDLE),
        ("src/handle.test.ts", HANDLE_TESTS),
    ];
    let handle = HANDLE
        .replace("  transformResponse?: (response: Response) => Response\n", "")
        .replace(
            "  const transform = options.transformResponse\n  return transform ? transform(response) : response\n",
            "  return response\n",
        );
    let tests = HANDLE_TESTS.replace(
        "\ntest('returns a transformed response if the option is given', async () => {\n  const transformResponse = vi.fn((response) => response)\n  await handleRequest(new Request('http://localhost/user'), { transformResponse })\n  expect(transformResponse).toHaveBeenCalledTimes(1)\n})\n",
        "",
    );
    assert_eq!(
        review(
            &base,
            &[
                ("src/handle.ts", Some(&handle)),
                ("src/handle.test.ts", Some(&tests))
            ],
            REMOVED_TEST
        ),
        Vec::<u32>::new()
    );
    // The option kept: its only test is a loss.
    assert_eq!(
        review(&base, &[("src/handle.test.ts", Some(&tests))], REMOVED_TEST),
        vec![8]
    );
}

#[test]
fn a_new_block_that_duplicates_or_forgets_ownership_is_asked_whatever_the_house() {
    // hashbrown #439: `ptr::read` of the allocator, sound only because `mem::forget(self)`
    // follows, in a file whose blocks carry no `SAFETY:` comments and a crate that does not
    // ask for them.
    let plain = (
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    );
    let table = "pub struct Table {\n    alloc: Alloc,\n}\n\nimpl Table {\n    pub fn get(&self, p: *const u8) -> u8 {\n        unsafe { *p }\n    }\n}\n";
    let base = [
        plain,
        ("src/lib.rs", "pub mod raw;\n"),
        ("src/raw.rs", table),
    ];
    let into_alloc = table.replace(
        "impl Table {\n",
        "impl Table {\n    pub fn into_alloc(self) -> Alloc {\n        let alloc = unsafe { core::ptr::read(&self.alloc) };\n        core::mem::forget(self);\n        alloc\n    }\n\n",
    );
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&into_alloc))], UNSAFE),
        vec![7]
    );
    // A plain dereference is the house's question, and this house does not ask it.
    let deref = table.replace(
        "impl Table {\n",
        "impl Table {\n    pub fn first(&self, p: *const u8) -> u8 {\n        let v = unsafe { *p.add(1) };\n        v\n    }\n\n",
    );
    assert_eq!(
        review(&base, &[("src/raw.rs", Some(&deref))], UNSAFE),
        Vec::<u32>::new()
    );
}

#[test]
fn zeroing_c_plain_data_is_the_ffi_idiom_not_an_invariant_asked_whatever_the_house() {
    // A terminal crate's new blocks zero `libc::winsize` and Win32's `INPUT_RECORD` before a
    // system call fills them, in a file and a crate that write no `SAFETY:` comments: all zero
    // bytes is a valid value of C's plain data. Zeroing a Rust type, or transmuting, is asked.
    let plain = (
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    );
    let term = "pub fn width() -> u16 {\n    80\n}\n";
    let base = [
        plain,
        ("src/lib.rs", "pub mod term;\n"),
        ("src/term.rs", term),
    ];
    let with = |body: &str| {
        format!("{term}\npub fn size(fd: i32) -> u16 {{\n    unsafe {{\n{body}\n    }}\n}}\n")
    };
    let c_types = with(
        "        let mut w: libc::winsize = std::mem::zeroed();\n        let mut r: INPUT_RECORD = mem::zeroed();\n        libc::ioctl(fd, libc::TIOCGWINSZ, &mut w);\n        w.ws_col",
    );
    assert_eq!(
        review(&base, &[("src/term.rs", Some(&c_types))], UNSAFE),
        Vec::<u32>::new()
    );
    let inline = format!(
        "{term}\npub fn events() -> u16 {{\n    let mut n: DWORD = unsafe {{ mem::zeroed() }};\n    n as u16\n}}\n"
    );
    assert_eq!(
        review(&base, &[("src/term.rs", Some(&inline))], UNSAFE),
        Vec::<u32>::new()
    );
    for asked in [
        "        let p: NonNull<u8> = mem::zeroed();\n        p.as_ptr() as u16",
        "        let mut w: libc::winsize = mem::zeroed();\n        let k: Key = mem::transmute(w.ws_row);\n        k.0",
        "        let v = mem::zeroed::<Vec<u8>>();\n        v.len() as u16",
    ] {
        assert_eq!(
            review(&base, &[("src/term.rs", Some(&with(asked)))], UNSAFE),
            vec![6],
            "{asked}"
        );
    }
}

// A function moved to a new module and edited on the way (`return yaml.load(text)` made
// `return yaml.load(text) or {}`): the unsafe load is the one the change took away from the
// old module, not a new one. A second load written beside it, or one with other arguments,
// is new.
#[test]
fn a_match_carried_to_another_file_and_edited_is_not_new() {
    const RULE: &str = "python/yaml-unsafe-load";
    let old = "import yaml\n\n\ndef load_yaml(text):\n    return yaml.load(text)\n\n\ndef other():\n    return 1\n";
    let base = [("pkg/__init__.py", ""), ("pkg/utils.py", old)];
    let rest = "def other():\n    return 1\n";
    let moved = "import yaml\n\n\ndef load_yaml(text):\n    return yaml.load(text) or {}\n";
    assert_eq!(
        review(
            &base,
            &[
                ("pkg/utils.py", Some(rest)),
                ("pkg/yaml_utils.py", Some(moved))
            ],
            RULE
        ),
        Vec::<u32>::new()
    );
    let twice = "import yaml\n\n\ndef load_yaml(text):\n    return yaml.load(text) or {}\n\n\ndef again(text):\n    return yaml.load(text)\n";
    assert_eq!(
        review(
            &base,
            &[
                ("pkg/utils.py", Some(rest)),
                ("pkg/yaml_utils.py", Some(twice))
            ],
            RULE
        )
        .len(),
        1
    );
    let other_input = "import yaml\n\n\ndef load_yaml(body):\n    return yaml.load(body) or {}\n";
    assert_eq!(
        review(
            &base,
            &[
                ("pkg/utils.py", Some(rest)),
                ("pkg/yaml_utils.py", Some(other_input))
            ],
            RULE
        )
        .len(),
        1
    );
}
