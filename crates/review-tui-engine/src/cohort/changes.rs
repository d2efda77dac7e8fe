//! Each changed file read as symbols: what it defines, what it references, and which of those
//! its changed lines touch, from the head worktree and from the base version of the file.

use std::collections::BTreeSet;
use std::path::Path;

use tree_sitter::Tree;

use crate::diff::{FileDiff, FileMode, FileStatus, Language, LineKind, minified_line};
use crate::space::worktree_file;

use super::early_bases::EarlyBases;
use super::index::HeadTags;
use crate::parse::grammar::Grammar;
use crate::parse::reparse::head_tree_and_changes;
use crate::parse::tags::{FileTags, Tagger};

/// One changed file after parsing.
#[derive(Debug, Clone)]
pub(crate) struct ChangedFile {
    pub path: String,
    /// The path in the base when the file was renamed.
    pub old_path: Option<String>,
    pub language: Language,
    pub reading: Reading,
}

#[derive(Debug, Clone)]
pub(crate) enum Reading {
    /// Parsed: the file joins cohorts by its symbols.
    Symbols(Box<FileSymbols>),
    /// No grammar for the language (docs, config, C, ...): grouped by path.
    NoGrammar,
    /// A symbolic link on either side: its content is a path, not code (uuid's `.local/uuid/
    /// v1.js` → `../../dist/v1.js`); what it points at is read where it lives. Grouped by path.
    Link,
    /// A grammar exists but the file (or its base version) could not be read or parsed.
    Unparsed { why: String },
    /// The repository lacks the contents of a side (see `FileDiff::unavailable`): what
    /// changed is unknown, whatever the file is. Grouped by path.
    Unavailable { why: String },
}

#[derive(Debug, Clone)]
pub(crate) struct FileSymbols {
    pub defines: BTreeSet<String>,
    pub references: BTreeSet<String>,
    /// Definitions whose span or signature holds a changed line, and references on changed
    /// lines (head side for added lines, base side for removed ones).
    pub touched: BTreeSet<String>,
    pub head: Option<FileTags>,
    pub base: Option<FileTags>,
    /// The file existed in the base but its old version could not be read or parsed: what
    /// was removed from it is unknown.
    pub base_unknown: bool,
    /// The base version's text, for the apiContract axis's structural comparison.
    pub base_source: Option<Vec<u8>>,
    /// The git id of the head text parsed here (`None` when the index build parsed it, or
    /// the file was deleted): the symbol index takes these tags for the head's blob.
    pub head_blob: Option<git2::Oid>,
}

/// The base version of one changed file, read before parsing (git2 is not shared across the
/// parsing threads).
pub(crate) enum BaseText {
    /// Added files have no base.
    None,
    Text(Vec<u8>),
    /// The text and its syntax tree, parsed from scratch ahead of the cohort build (see
    /// [`super::early_bases`]): what parsing `Text` would give.
    Parsed(Vec<u8>, Tree),
    /// Neither the base commit nor the diff could give the old content.
    Missing(String),
}

/// What a caller reads from a changed file's trees while they are parsed here, beside its
/// tags (the apiContract axis: its surfaces), so that each side is parsed once for both.
/// `plan` runs on the thread reading the base blobs, before the parse (so it may hold what
/// is not shared across threads); `read` on the parsing threads.
pub(crate) trait TreeReader {
    /// What `plan` decided to read of one file.
    type Plan: Send;
    /// What `read` gives back for it.
    type Read: Send;
    /// Whether (and how) to read `file`, whose base text is `base` (`None`: added, or unread).
    fn plan(&self, file: &FileDiff, grammar: Grammar, base: Option<&[u8]>) -> Option<Self::Plan>;
    fn read(plan: Self::Plan, trees: Trees<'_>, tagger: &mut Tagger) -> Self::Read;
}

/// One changed file's trees as parsed here, for a [`TreeReader`].
pub(crate) struct Trees<'a> {
    pub grammar: Grammar,
    pub file: &'a FileDiff,
    /// The base version's tree and text.
    pub base: Option<(&'a Tree, &'a [u8])>,
    /// The head's tree, when this reading parsed the head (else the symbol index had its
    /// tags: the reader reparses it from the base's when it needs it).
    pub head_tree: Option<&'a Tree>,
    /// The head file's text (`None`: deleted, or unreadable).
    pub head: Option<&'a [u8]>,
}

/// A [`TreeReader`] that reads nothing more.
#[cfg(test)]
pub(crate) struct TagsOnly;

#[cfg(test)]
impl TreeReader for TagsOnly {
    type Plan = std::convert::Infallible;
    type Read = ();
    fn plan(&self, _: &FileDiff, _: Grammar, _: Option<&[u8]>) -> Option<Self::Plan> {
        None
    }
    fn read(plan: Self::Plan, _: Trees<'_>, _: &mut Tagger) {
        match plan {}
    }
}

/// Reads the base version of `file`: the blob in `base` when a base commit is given, else the
/// head file with the diff applied in reverse (a unified diff holds every changed line, so
/// this is the old file exactly; for a deleted file it is all the removed lines).
/// With the blob's id when it came from `base`, and its text from `early` when that read it.
pub(crate) fn base_text(
    file: &FileDiff,
    worktree: &Path,
    base: Option<(&git2::Repository, git2::Oid)>,
    early: Option<&EarlyBases>,
) -> (BaseText, Option<git2::Oid>) {
    if file.status == FileStatus::Added {
        return (BaseText::None, None);
    }
    let old_path = file.old_path.as_deref().unwrap_or(&file.path);
    if let Some((repo, commit)) = base {
        let blob = base_blob(repo, commit, old_path, early);
        let id = blob.as_ref().ok().map(|(id, _)| *id);
        let text = match blob {
            Ok((_, bytes)) => BaseText::Text(bytes),
            // The diff still holds every changed line; the blob is only the better source.
            Err(e) => reverse_applied(file, worktree).map_or_else(
                || BaseText::Missing(format!("base blob of {old_path}: {e}")),
                BaseText::Text,
            ),
        };
        return (text, id);
    }
    let text = match reverse_applied(file, worktree) {
        Some(text) => BaseText::Text(text),
        None => BaseText::Missing(format!("no base version of {old_path}")),
    };
    (text, None)
}

/// The id and text of the blob at `path` in `commit`; the text from `early` when it has it.
fn base_blob(
    repo: &git2::Repository,
    commit: git2::Oid,
    path: &str,
    early: Option<&EarlyBases>,
) -> Result<(git2::Oid, Vec<u8>), git2::Error> {
    let entry = repo
        .find_commit(commit)?
        .tree()?
        .get_path(Path::new(path))?;
    let id = entry.id();
    if let Some(text) = early.and_then(|early| early.text(id)) {
        return Ok((id, text));
    }
    let blob = entry.to_object(repo)?.peel_to_blob()?;
    Ok((id, blob.content().to_vec()))
}

/// `base` as parsed ahead by `early`, when it parsed the blob `id` with `grammar`.
fn parsed_ahead(
    base: BaseText,
    id: Option<git2::Oid>,
    grammar: Option<Grammar>,
    early: Option<&EarlyBases>,
) -> BaseText {
    match (base, id, grammar, early) {
        (BaseText::Text(text), Some(id), Some(grammar), Some(early)) => {
            match early.take(id, grammar) {
                Some(tree) => BaseText::Parsed(text, tree),
                None => BaseText::Text(text),
            }
        }
        (base, ..) => base,
    }
}

fn reverse_applied(file: &FileDiff, worktree: &Path) -> Option<Vec<u8>> {
    let head = if file.status == FileStatus::Deleted {
        String::new()
    } else {
        String::from_utf8_lossy(&worktree_file::read(worktree, &file.path).ok()?).into_owned()
    };
    Some(crate::diff::old_side(file, &head).text.into_bytes())
}

/// A head file the index build already parsed, and the grammar it used.
type ParsedHead = (Grammar, FileTags);

/// Parses one changed file. `base` is what [`base_text`] read for it; `parsed` is its head
/// version already parsed by the index build, when it was; `plan` what an `R` reads of its
/// trees, and what it read is returned with the file.
pub(crate) fn read_changed<R: TreeReader>(
    file: &FileDiff,
    worktree: &Path,
    base: BaseText,
    parsed: Option<ParsedHead>,
    plan: Option<R::Plan>,
    tagger: &mut Tagger,
) -> (ChangedFile, Option<R::Read>) {
    let mut added = BTreeSet::new();
    let mut removed = BTreeSet::new();
    for line in file.hunks.iter().flat_map(|h| h.lines.iter()) {
        match line.kind {
            LineKind::Added => added.extend(line.new_line),
            LineKind::Removed => removed.extend(line.old_line),
            LineKind::Context => {}
        }
    }
    let grammar = Grammar::for_file(&file.path, file.language);
    let mut read = None;
    let reading = match grammar {
        // A side the repository has no contents for: whatever the file is, what changed in it
        // is unknown, so it is never read as a file that changed nothing (the apiContract axis
        // counts it as unreadable, which holds the verdict).
        _ if let Some(side) = file.unavailable => Reading::Unavailable {
            why: format!(
                "{}: {} (the repository lacks its contents), so no rule compared its sides",
                file.path,
                side.header()
            ),
        },
        _ if file.binary || file.submodule.is_some() => Reading::NoGrammar,
        // A regular file made a link (or back) changed what is at the path: read as before.
        _ if [file.old_mode, file.new_mode]
            .iter()
            .all(|mode| matches!(mode, None | Some(FileMode::Symlink)))
            && file.is_symlink() =>
        {
            Reading::Link
        }
        None => Reading::NoGrammar,
        Some(_) if let Some(why) = not_worth_parsing(file, worktree) => Reading::Unparsed { why },
        Some(grammar) => {
            // Tags from another grammar (a path the index reads differently) are not reused.
            let parsed = parsed.filter(|(g, _)| *g == grammar).map(|(_, tags)| tags);
            let sides = Sides { parsed, base, plan };
            match symbols::<R>(file, worktree, sides, grammar, tagger, &added, &removed) {
                Ok((symbols, by_reader)) => {
                    read = by_reader;
                    Reading::Symbols(Box::new(symbols))
                }
                Err(why) => Reading::Unparsed {
                    why: why.to_string(),
                },
            }
        }
    };
    let changed = ChangedFile {
        path: file.path.clone(),
        old_path: file.old_path.clone(),
        language: file.language,
        reading,
    };
    (changed, read)
}

/// Head files larger than this are not parsed (the index skips them alike).
const MAX_PARSE_BYTES: u64 = 1024 * 1024;

/// Why a file of an indexed language is not parsed: a minified line or a huge file costs
/// seconds and hundreds of MB in tree-sitter and is no code anyone reviews by symbol. Checked
/// before reading anything but the diff and the file's size.
fn not_worth_parsing(file: &FileDiff, worktree: &Path) -> Option<String> {
    if let Some(longest) = minified_line(file) {
        return Some(format!(
            "{} is minified (a line of {longest} bytes): not parsed",
            file.path
        ));
    }
    let size = worktree_file::size(worktree, &file.path).unwrap_or(0);
    (size > MAX_PARSE_BYTES).then(|| {
        format!(
            "{} is {size} bytes, over the {MAX_PARSE_BYTES}-byte parse limit: not parsed",
            file.path
        )
    })
}

/// Why a changed file's symbols could not be read (its reading says so, in these words).
#[derive(Debug, thiserror::Error)]
enum Unparsed {
    #[error("{path} unreadable in the worktree: {source}")]
    Unreadable {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} does not parse as {grammar:?}")]
    HeadSyntax { path: String, grammar: Grammar },
    #[error("the base of {path} does not parse")]
    BaseSyntax { path: String },
    #[error("{0}")]
    NoBase(String),
}

/// The head version read here: its tags, the tree they came from, and its text.
struct HeadRead {
    tags: FileTags,
    tree: Tree,
    text: Vec<u8>,
    /// Where the base's syntax may differ from this tree's (see
    /// [`crate::parse::reparse::head_tree_and_changes`]); `None` when not reparsed from the base.
    base_changes: Option<Vec<std::ops::Range<usize>>>,
}

/// The worktree's copy of the head version, parsed by reparsing `base`'s tree (the base
/// version's tree and text) where the diff changed it.
fn read_head(
    file: &FileDiff,
    worktree: &Path,
    base: Option<(&Tree, &[u8])>,
    grammar: Grammar,
    tagger: &mut Tagger,
) -> Result<HeadRead, Unparsed> {
    let text =
        worktree_file::read(worktree, &file.path).map_err(|source| Unparsed::Unreadable {
            path: file.path.clone(),
            source,
        })?;
    let syntax = || Unparsed::HeadSyntax {
        path: file.path.clone(),
        grammar,
    };
    let (tree, base_changes) =
        head_tree_and_changes(tagger, grammar, file, base, &text).ok_or_else(syntax)?;
    let tags = tagger
        .tags_of(grammar, &tree, &text)
        .map_err(|_| syntax())?;
    Ok(HeadRead {
        tags,
        tree,
        text,
        base_changes,
    })
}

/// The base version as parsed.
enum BaseRead {
    /// Added files have no base.
    None,
    /// Parsed; its tags are read here already when its tree holds an error (whether it
    /// parsed depends on them), else once the head says where to read them.
    Parsed(Option<FileTags>, Tree, Vec<u8>),
    /// Read but did not parse.
    Broken,
    Missing(String),
}

/// The base version from its parse.
fn base_read(
    tree: Option<Tree>,
    source: Vec<u8>,
    grammar: Grammar,
    tagger: &mut Tagger,
) -> BaseRead {
    match tree {
        None => BaseRead::Broken,
        Some(tree) if tree.root_node().has_error() => {
            match tagger.tags_of(grammar, &tree, &source) {
                Ok(tags) => BaseRead::Parsed(Some(tags), tree, source),
                Err(_) => BaseRead::Broken,
            }
        }
        Some(tree) => BaseRead::Parsed(None, tree, source),
    }
}

/// What [`symbols`] reads of one changed file: its head tags when the index build parsed
/// them, its base text, and what a [`TreeReader`] reads of its trees (when it reads them).
struct Sides<P> {
    parsed: Option<FileTags>,
    base: BaseText,
    plan: Option<P>,
}

fn symbols<R: TreeReader>(
    file: &FileDiff,
    worktree: &Path,
    sides: Sides<R::Plan>,
    grammar: Grammar,
    tagger: &mut Tagger,
    added: &BTreeSet<u32>,
    removed: &BTreeSet<u32>,
) -> Result<(FileSymbols, Option<R::Read>), Unparsed> {
    let Sides { parsed, base, plan } = sides;
    // The base first: the head's tree is reparsed from the base's.
    let base = match base {
        BaseText::None => BaseRead::None,
        BaseText::Text(source) => {
            let tree = tagger.parse(grammar, &source, None);
            base_read(tree, source, grammar, tagger)
        }
        BaseText::Parsed(source, tree) => base_read(Some(tree), source, grammar, tagger),
        BaseText::Missing(why) => BaseRead::Missing(why),
    };
    let base_side = match &base {
        BaseRead::Parsed(_, tree, source) => Some((tree, source.as_slice())),
        _ => None,
    };
    let (head, head_read) = match (file.status, parsed) {
        (FileStatus::Deleted, _) => (None, None),
        (_, Some(tags)) => (Some(tags), None),
        (_, None) => {
            let read = read_head(file, worktree, base_side, grammar, tagger)?;
            (Some(read.tags.clone()), Some(read))
        }
    };
    let head_blob = head_read
        .as_ref()
        .and_then(|read| git2::Oid::hash_object(git2::ObjectType::Blob, &read.text).ok());
    let by_reader = plan.map(|plan| {
        let head_text = match &head_read {
            Some(read) => Some(read.text.clone()),
            None => head
                .as_ref()
                .and_then(|_| worktree_file::read(worktree, &file.path).ok()),
        };
        let trees = Trees {
            grammar,
            file,
            base: base_side,
            head_tree: head_read.as_ref().map(|read| &read.tree),
            head: head_text.as_deref(),
        };
        R::read(plan, trees, tagger)
    });
    let base_changes = head_read.and_then(|read| read.base_changes);
    let mut base_source = None;
    let base = match base {
        BaseRead::None => None,
        BaseRead::Parsed(tags, tree, source) => {
            // The base's tags only add what the head lacks: the names of removed lines and
            // of definitions around them, and names the head no longer has. Outside the
            // base's changed regions every character has the same ancestors at both sides,
            // so each match there is the head's too; only the matches reaching into them
            // are read (tokio 1.30..1.40: a fifth of the CPU was the base's tag query).
            let tags = match (tags, base_changes) {
                (Some(tags), _) => tags,
                // The tree has no error: its tags are never a failure.
                (None, Some(changes)) => tagger
                    .tags_within(grammar, &tree, &source, &changes)
                    .unwrap_or_default(),
                (None, None) => tagger.tags_of(grammar, &tree, &source).unwrap_or_default(),
            };
            base_source = Some(source);
            Some(tags)
        }
        // The head parsed: a broken base only costs the removed side's symbols.
        BaseRead::Broken if head.is_some() => None,
        BaseRead::Broken => {
            return Err(Unparsed::BaseSyntax {
                path: file.path.clone(),
            });
        }
        BaseRead::Missing(why) if head.is_none() => return Err(Unparsed::NoBase(why)),
        BaseRead::Missing(_) => None,
    };

    let mut symbols = FileSymbols {
        defines: BTreeSet::new(),
        references: BTreeSet::new(),
        touched: BTreeSet::new(),
        head: None,
        base: None,
        base_unknown: file.status != FileStatus::Added && base.is_none(),
        base_source,
        head_blob,
    };
    for (tags, changed) in [(&head, added), (&base, removed)] {
        let Some(tags) = tags else { continue };
        symbols
            .defines
            .extend(tags.definitions.iter().map(|d| d.name.clone()));
        symbols
            .references
            .extend(tags.references.iter().map(|r| r.name.clone()));
        touched(tags, changed, &mut symbols.touched);
    }
    symbols.head = head;
    symbols.base = base;
    Ok((symbols, by_reader))
}

/// The innermost definition around each changed row (a changed method body touches the
/// method, not its class), any definition whose signature holds the row, and references on
/// changed rows.
fn touched(tags: &FileTags, rows: &BTreeSet<u32>, out: &mut BTreeSet<String>) {
    for &row in rows {
        let innermost = tags
            .definitions
            .iter()
            .filter(|d| d.first_row <= row && row <= d.last_row)
            .min_by_key(|d| d.last_row - d.first_row);
        out.extend(innermost.map(|d| d.name.clone()));
        out.extend(
            tags.definitions
                .iter()
                .filter(|d| d.signature_rows.0 <= row && row <= d.signature_rows.1)
                .map(|d| d.name.clone()),
        );
    }
    out.extend(
        tags.references
            .iter()
            .filter(|r| rows.contains(&r.row))
            .map(|r| r.name.clone()),
    );
}

/// One changed file's work for [`read_all`]'s threads: its base text and blob id, its head
/// tags when the index build parsed them, what a [`TreeReader`] reads of its trees.
type Work<'a, P> = (
    &'a FileDiff,
    BaseText,
    Option<git2::Oid>,
    Option<ParsedHead>,
    Option<P>,
);

/// Reads and parses every changed file on every core. Base blobs are read, and `reader`
/// plans each file, on this thread, because a git2 repository cannot be shared between
/// threads; each file goes to a core as soon as it is planned, so the parse runs while the
/// later files are still planned. A base `early` parsed already is taken from it when a
/// thread comes to its file (it parses on while these threads work, from the other end of
/// the list). Each file comes with what `reader` read of its trees.
pub(crate) fn read_all<R: TreeReader>(
    files: &[FileDiff],
    worktree: &Path,
    base: Option<(&git2::Repository, git2::Oid)>,
    head_tags: &mut HeadTags,
    reader: &R,
    early: Option<&EarlyBases>,
) -> Vec<(ChangedFile, Option<R::Read>)> {
    let work = files.iter().map(|file| -> Work<'_, R::Plan> {
        let (old, id, plan) = match Grammar::for_file(&file.path, file.language) {
            Some(grammar) if !file.binary && not_worth_parsing(file, worktree).is_none() => {
                let (old, id) = base_text(file, worktree, base, early);
                let text = match &old {
                    BaseText::Text(text) => Some(text.as_slice()),
                    _ => None,
                };
                let plan = reader.plan(file, grammar, text);
                (old, id, plan)
            }
            _ => (BaseText::None, None, None),
        };
        (file, old, id, head_tags.remove(&file.path), plan)
    });
    super::cores::map_as_produced(
        work,
        Tagger::default,
        |tagger, (file, base, id, parsed, plan)| {
            let grammar = Grammar::for_file(&file.path, file.language);
            let base = parsed_ahead(base, id, grammar, early);
            read_changed::<R>(file, worktree, base, parsed, plan, tagger)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_applying_the_diff_gives_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.rs"),
            "one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\n",
        )
        .unwrap();
        let diff = crate::diff::parse(
            "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n@@ -5,2 +5,3 @@\n five\n+six\n seven\n",
        )
        .unwrap();
        let old = reverse_applied(&diff.files[0], dir.path()).unwrap();
        assert_eq!(
            String::from_utf8(old).unwrap(),
            "one\ntwo\nthree\nfour\nfive\nseven\neight\n"
        );
    }

    /// The file's symbols as read from the whole base: what reading the base only where its
    /// syntax differs from the head's must give.
    fn from_whole_base(
        grammar: Grammar,
        base: &str,
        head: &str,
        file: &FileDiff,
    ) -> (BTreeSet<String>, BTreeSet<String>, BTreeSet<String>) {
        let mut tagger = Tagger::default();
        let sides = [
            (
                tagger.tags(grammar, head.as_bytes()).unwrap(),
                LineKind::Added,
            ),
            (
                tagger.tags(grammar, base.as_bytes()).unwrap(),
                LineKind::Removed,
            ),
        ];
        let (mut defines, mut references, mut touched_names) =
            (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        for (tags, kind) in &sides {
            defines.extend(tags.definitions.iter().map(|d| d.name.clone()));
            references.extend(tags.references.iter().map(|r| r.name.clone()));
            let rows: BTreeSet<u32> = file
                .hunks
                .iter()
                .flat_map(|h| h.lines.iter())
                .filter(|line| line.kind == *kind)
                .filter_map(|line| match kind {
                    LineKind::Added => line.new_line,
                    _ => line.old_line,
                })
                .collect();
            touched(tags, &rows, &mut touched_names);
        }
        (defines, references, touched_names)
    }

    /// The base side is read only where its syntax may differ from the head's (the diff's
    /// lines and what tree-sitter finds changed around them); its names and touched symbols
    /// are still exactly those of the whole base — also when unchanged lines change meaning
    /// (a comment opened above them, a docstring around a function, a call split from its
    /// arguments).
    #[test]
    fn the_base_read_where_it_changed_gives_the_whole_bases_names() {
        let rust_base = "use crate::a::{one, two};\n\npub struct Shape {\n    pub width: u32,\n}\n\npub fn keep() -> u32 {\n    one(1)\n}\n\npub fn gone(s: Shape) -> u32 {\n    two(s.width)\n}\n\nfn quiet() {\n    helper(2);\n    check!(probe (3));\n}\n\nfn tail() -> u32 {\n    last(4)\n}\n";
        // Over 2 KiB and rewritten in large part: parsed afresh, the whole base read.
        let functions = |name: &str, count: usize| -> String {
            (0..count)
                .map(|i| {
                    format!("pub fn {name}_{i}(v: Shape) -> u32 {{\n    helper_{i}(v)\n}}\n\n")
                })
                .collect()
        };
        let big_base = functions("old", 60);
        let kept: String = big_base.split_inclusive("\n\n").skip(45).collect();
        let big_head = format!("{}{kept}", functions("new", 45));
        let cases: &[(Grammar, &str, &str, &str)] = &[
            (Grammar::Rust, "src/big.rs", &big_base, &big_head),
            // A function removed, a call changed, a field added.
            (
                Grammar::Rust,
                "src/a.rs",
                rust_base,
                "use crate::a::{one, two};\n\npub struct Shape {\n    pub width: u32,\n    pub height: u32,\n}\n\npub fn keep() -> u32 {\n    three(1)\n}\n\nfn quiet() {\n    helper(2);\n    check!(probe (3));\n}\n\nfn tail() -> u32 {\n    last(4)\n}\n",
            ),
            // Unchanged lines commented out by a `/*` above and a `*/` below them, further apart
            // than a hunk's context.
            (
                Grammar::Rust,
                "src/a.rs",
                rust_base,
                "use crate::a::{one, two};\n\npub struct Shape {\n    pub width: u32,\n}\n/*\npub fn keep() -> u32 {\n    one(1)\n}\n\npub fn gone(s: Shape) -> u32 {\n    two(s.width)\n}\n\nfn quiet() {\n    helper(2);\n    check!(probe (3));\n}\n*/\nfn tail() -> u32 {\n    last(4)\n}\n",
            ),
            // A macro's call split from its arguments by a line between them.
            (
                Grammar::Rust,
                "src/a.rs",
                "fn quiet() {\n    check!(\n        probe\n        (3)\n    );\n}\n",
                "fn quiet() {\n    check!(\n        probe\n        ,\n        (3)\n    );\n}\n",
            ),
            // A function turned into a docstring.
            (
                Grammar::Python,
                "pkg/a.py",
                "import os\n\ndef keep():\n    return os.getcwd()\n\ndef gone(path):\n    return load(path)\n\nclass Box(Base):\n    def size(self):\n        return count(self)\n",
                "import os\n\ndef keep():\n    return os.getcwd()\n\n\"\"\"\ndef gone(path):\n    return load(path)\n\"\"\"\n\nclass Box(Base):\n    def size(self):\n        return count(self)\n",
            ),
            // An export removed, an import renamed.
            (
                Grammar::TypeScript,
                "src/a.ts",
                "import { parse } from './p';\nexport function run(x: Input): Output { return parse(x); }\nexport function old(y: Input) { return convert(y); }\nfunction local() {}\n",
                "import { parseAll } from './p';\nexport function run(x: Input): Output { return parseAll(x); }\nfunction local() {}\n",
            ),
        ];
        for (grammar, path, base, head) in cases {
            let dir = tempfile::tempdir().unwrap();
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, head).unwrap();
            let patch = git2::Patch::from_buffers(
                base.as_bytes(),
                Some(Path::new(path)),
                head.as_bytes(),
                Some(Path::new(path)),
                None,
            )
            .and_then(|mut p| p.to_buf())
            .unwrap();
            let diff = crate::diff::parse(&String::from_utf8_lossy(&patch)).unwrap();
            assert_eq!(diff.files.len(), 1);
            assert!(!diff.files[0].hunks.is_empty());
            let file = &diff.files[0];
            let (read, _) = read_changed::<TagsOnly>(
                file,
                dir.path(),
                BaseText::Text(base.as_bytes().to_vec()),
                None,
                None,
                &mut Tagger::default(),
            );
            let Reading::Symbols(symbols) = read.reading else {
                panic!("{path} did not parse");
            };
            let (defines, references, touched_names) = from_whole_base(*grammar, base, head, file);
            assert_eq!(symbols.defines, defines, "{head}");
            assert_eq!(symbols.references, references, "{head}");
            assert_eq!(symbols.touched, touched_names, "{head}");
        }
    }
}
