//! The apiContract axis: did the exported surface of a package change incompatibly, and did
//! its version say the break was meant?
//!
//! Each changed source file's public surface is read from the syntax tree at the base and at
//! the head ([`surface`](super)) and compared item by item. An incompatible change
//! (removed, more required parameters, a changed type, a narrowed member) fails the gate unless
//! the package's version was bumped for a break, which only warns. An item that moved to
//! another file and is still defined or re-exported there has not been removed. Test code,
//! examples and files that cannot carry an API are never read; only source files of an
//! API-carrying language that could not be read make the axis partial.

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet};

use crate::review::axes::{API_CONTRACT, Axis, AxisVerdict};

use super::callers::{
    Home, calls_still_compile, implements_without, kept_for_its_crate, names_beyond_imports, uses,
};
use super::compare::{
    ApiChange, Severity, Types, compare, item_change, item_severity, type_parameter_names,
};
use super::declared::{Declared, prepares_a_later_major};
use super::deleted::{DeletedPackages, is_manifest};
use super::dotnet_program::in_program;
use super::lang;
use super::lang::go::reach::{
    Reach, called_with_nil_alike, function_type_reach, reach_of, seal_over_unnameable_types,
};
use super::lang::go::{handed_out, interfaces};
use super::lang::java::closed;
use super::lang::python::application::command_scripts;
use super::lang::python::declared::python_reach;
use super::lang::python::documented::unpromised;
use super::lang::rust::compiled::{never_compiled, outside_the_workspace};
use super::lang::rust::generated::{MacroWrites, read_from_crate};
use super::lang::rust::registry_dependency::from_a_registry;
use super::lang::rust::scope::{crate_macro_texts_of, crate_of, unstable_macros_of};
use super::lang::rust::{foreign, renamed, rooted};
use super::lang::script::call_types::{Call, call_of};
use super::lang::script::entry_points::exported_only_as_types;
use super::lang::script::nominal::private_member;
use super::lang::script::runtime::{self, DECLARATIONS};
use super::releases::{Release, Releases};
use super::scope::not_api_path;
use super::sources::{Scopes, Sources};
use super::version::{Bump, Files, TagsSay, bump, package_of};
use super::visibility::{List, Read, Visibility};
use super::{Item, Surface, by_tags_only, extract};
use crate::cohort::changes::{ChangedFile, Reading};
use crate::cohort::lazy_index::LazyIndex;
use crate::cohort::paths::parent_dir;
use crate::parse::grammar::Grammar;

/// How many items the detail lists before saying how many more there are.
const LISTED: usize = 12;
/// Forms longer than this are cut in the detail (the report stays one line per item).
const FORM_CHARS: usize = 140;

struct FileSurfaces<'a> {
    path: &'a str,
    /// Where the file was at the base (its path unless renamed): the base's items lived there.
    base_path: &'a str,
    grammar: Grammar,
    base: Surface,
    head: Surface,
}

/// What the axis says when no changed file carries a public API.
pub(super) const NOTHING_TO_COMPARE: &str = "no file that carries a public API changed";

/// Compares the exported surface of each changed file that `compared` selects at the base and
/// at the head, reading other files through `sources` (the others are still changed files:
/// their uses are not an unchanged caller's).
pub(crate) fn api_contract(
    files: &[ChangedFile],
    index: &LazyIndex,
    sources: &Sources<'_>,
    compared: &dyn Fn(&ChangedFile) -> bool,
) -> Axis {
    let read = read_files(files, index, sources, compared);
    let found = judge(&read.surfaces, files, index, sources);
    let (verdict, detail) = verdict(&read, &found);
    // Say where "nothing incompatible" rests on names and signature text only.
    let by_tags: BTreeSet<&str> = read
        .surfaces
        .iter()
        .filter_map(|f| by_tags_only(f.grammar))
        .collect();
    let detail = if by_tags.is_empty() || !verdict.clears_gate() {
        detail
    } else {
        format!(
            "{detail} ({} read from the symbol index: public definitions compared by name and \
             signature text, whose changes warn and never fail)",
            by_tags.into_iter().collect::<Vec<_>>().join(", ")
        )
    };
    Axis {
        name: API_CONTRACT.to_string(),
        verdict,
        gated: true,
        detail,
    }
}

/// The changed files' surfaces at both sides, and the files that could not be read.
#[derive(Default)]
struct ReadFiles<'a> {
    parsed: usize,
    unreadable: Vec<&'a str>,
    /// Files of a language without a parser that may carry an API.
    unindexed: Vec<&'a str>,
    surfaces: Vec<FileSurfaces<'a>>,
    /// Files whose package the head's manifest withdrew from publishing (see
    /// `Visibility::Unpublished`).
    withdrawn: Vec<String>,
}

/// Reads the surfaces of the changed files that `compared` selects, at the scopes their
/// language gives them at each side.
fn read_files<'a>(
    files: &'a [ChangedFile],
    index: &LazyIndex,
    sources: &Sources<'_>,
    compared: &dyn Fn(&ChangedFile) -> bool,
) -> ReadFiles<'a> {
    let read_head = |path: &str| sources.head(path);
    let deleted = DeletedPackages::new(sources, files.iter().map(|f| f.path.as_str()).collect());

    let mut read = ReadFiles::default();
    for file in files {
        // Unknown contents may be anything: never cleared as no API, unless the path alone
        // says the file carries none whatever it holds (a test cassette, a data file that no
        // language imports and no manifest is).
        if let Reading::Unavailable { .. } = file.reading {
            if !no_api_by_path(file) {
                read.unreadable.push(file.path.as_str());
            }
            continue;
        }
        if not_api_path(&file.path) || !compared(file) || in_a_program(&file.path, sources) {
            continue;
        }
        let symbols = match &file.reading {
            Reading::Symbols(symbols) => symbols,
            Reading::Unparsed { .. } => {
                read.unreadable.push(file.path.as_str());
                continue;
            }
            Reading::Link | Reading::Unavailable { .. } => continue,
            Reading::NoGrammar => {
                if may_carry_api(&file.language, &file.path) {
                    read.unindexed.push(file.path.as_str());
                }
                continue;
            }
        };
        let Some(grammar) = Grammar::for_file(&file.path, file.language) else {
            continue;
        };
        let head_source = symbols.head.as_ref().and_then(|_| read_head(&file.path));
        let base_source = symbols
            .base_source
            .as_ref()
            .map(|b| String::from_utf8_lossy(b).into_owned());
        if symbols.base_unknown || (symbols.head.is_some() && head_source.is_none()) {
            read.unreadable.push(file.path.as_str());
            continue;
        }
        let scopes = Scopes::of(
            &file.path,
            file.old_path.as_deref().unwrap_or(&file.path),
            grammar,
            head_source.as_deref(),
            base_source.as_deref(),
            sources,
        );
        let (base_scope, head_scope) = (&scopes.base, &scopes.head);
        if !head_scope.is_api() && !base_scope.is_api() {
            continue;
        }
        if let (Visibility::Unpublished(why), true) = (head_scope, base_scope.is_api()) {
            read.withdrawn.push(format!("{} ({why})", file.path));
            continue;
        }
        // A file deleted with its whole package: no new version of that package is published.
        if symbols.head.is_none()
            && file.old_path.is_none()
            && base_scope.is_api()
            && let Some(why) = deleted.withdrawn(&file.path, grammar)
        {
            read.withdrawn.push(format!("{} ({why})", file.path));
            continue;
        }
        // Read while the file was parsed, when with these very scopes (the sources are the
        // same: `base_source`, and the head file read as text, which the early read needs
        // to be UTF-8).
        let early = sources
            .early(&file.path)
            .filter(|early| early.scopes == scopes);
        let surface = |source: Option<&String>,
                       side: &Visibility,
                       early: Option<&Result<Surface, _>>| match (
            source, early,
        ) {
            (None, _) => Ok(Surface::default()),
            (Some(_), Some(early)) => early.clone(),
            (Some(text), None) => {
                extract(grammar, text.as_bytes(), &|name: &str| side.exports(name))
            }
        };
        match (
            surface(
                base_source.as_ref(),
                base_scope,
                early.and_then(|e| e.base.as_ref()),
            ),
            surface(
                head_source.as_ref(),
                head_scope,
                early.and_then(|e| e.head.as_ref()),
            ),
        ) {
            (Ok(mut base), Ok(mut head)) => {
                // Whether a name of the file is public at all is undecided: nothing gone is proven.
                for (surface, scope) in [(&mut base, base_scope), (&mut head, head_scope)] {
                    if let Visibility::Undecided(why) = scope {
                        surface.removals_proven = false;
                        surface.undecided_scope = Some(why);
                    }
                }
                refine(
                    grammar,
                    file,
                    (&mut base, &mut head),
                    (base_scope, head_scope),
                    (base_source.as_ref(), head_source.as_ref()),
                    index,
                    sources,
                );
                read.parsed += 1;
                read.surfaces.push(FileSurfaces {
                    path: &file.path,
                    base_path: file.old_path.as_deref().unwrap_or(&file.path),
                    grammar,
                    base,
                    head,
                });
            }
            _ => read.unreadable.push(file.path.as_str()),
        }
    }
    read
}

/// What the comparison of the surfaces found, by what it means for the verdict.
#[derive(Default)]
struct Findings {
    failing: Vec<String>,
    deliberate: Vec<String>,
    undecided: Vec<String>,
    notable: Vec<String>,
    /// Removed or changed, but no release reachable from the base had them: nobody depends
    /// on them yet (an item added after the last release and taken back before the next).
    unreleased: Vec<String>,
    /// Incompatible with the last release, as the base already was: an earlier change since
    /// that release made the break, and this one leaves the release's callers no worse off.
    inherited: Vec<String>,
    /// A 0.x package whose version this change left as it was: a break warns, unless the
    /// range ends at a release (then its number was chosen, and it is not a 0.x minor bump).
    pending_zero: Vec<String>,
    /// Breaks the version does not allow, which the change's author declared breaking (a
    /// conventional `fix!:`, a `BREAKING CHANGE:` footer): they warn that the next release
    /// must be a major, on a PR only.
    declared: Vec<String>,
    added: usize,
}

/// Compares each file's surfaces and weighs what changed against the package's version and
/// releases.
fn judge(
    surfaces: &[FileSurfaces<'_>],
    files: &[ChangedFile],
    index: &LazyIndex,
    sources: &Sources<'_>,
) -> Findings {
    let read_head = |path: &str| sources.head(path);
    let read_base = |path: &str| sources.base(path);
    let list_head = |dir: &str| sources.head_names(dir);
    let list_base = |dir: &str| sources.base_names(dir);
    let changed: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut found = Findings::default();
    let releases = Releases::new(sources.base_commit());
    let last_tag = |package: &_| releases.last(package).map(|r| r.version.clone());
    let released = |package: &super::version::Package| released_version(&releases, package);
    let head_is_release = OnceCell::new();
    let looked_up = RefCell::new(BTreeMap::new());
    let looked_up_defined = RefCell::new(BTreeMap::new());
    let looked_up_declared = RefCell::new(BTreeMap::new());
    let unpromised_by_docs =
        |path: &str, item: &str| unpromised(sources.api_docs(), path, item, &read_base);
    let looked_up_java_types = RefCell::new(BTreeMap::new());
    let context = Context {
        index,
        changed: &changed,
        read_head: &read_head,
        read_base: &read_base,
        list_head: &list_head,
        list_base: &list_base,
        unpromised_by_docs: &unpromised_by_docs,
    };
    for file in surfaces {
        let aliases = |s: &Surface, n: &str| s.aliases.get(n).cloned();
        let defined = |s: &Surface, n: &str| s.underlying.get(n).cloned();
        let alias = |name: &str| {
            alias_target(
                name, file, surfaces, index, &read_head, &looked_up, &aliases,
            )
        };
        let underlying = |name: &str| {
            alias_target(
                name,
                file,
                surfaces,
                index,
                &read_head,
                &looked_up_defined,
                &defined,
            )
        };
        let declared = |name: &str| {
            declared_generics(name, file, surfaces, index, &read_head, &looked_up_declared)
        };
        let types = Types {
            structural: matches!(
                file.grammar,
                Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx
            ),
            erased: file.grammar == Grammar::Java,
            alias: &alias,
            underlying: &underlying,
            inherits: &|base: &str, member: &str| {
                base_has(base, member, file, index, &read_head, 0)
            },
            declared: &declared,
            generic_at_base: &|name: &str| {
                java_generic_at_base(
                    name,
                    file,
                    surfaces,
                    index,
                    &read_head,
                    &looked_up_java_types,
                )
            },
        };
        let changes = file_changes(file, surfaces, index, &types, &context);
        let incompatible: Vec<&ApiChange> = changes
            .iter()
            .filter(|c| c.severity == Severity::Incompatible)
            .collect();
        found.undecided.extend(
            changes
                .iter()
                .filter(|c| c.severity == Severity::Undecided)
                .map(|c| describe(file.path, c)),
        );
        for change in changes
            .iter()
            .filter(|c| c.severity == Severity::Compatible)
        {
            if change.why == "added" {
                found.added += 1;
            } else {
                found.notable.push(describe(file.path, change));
            }
        }
        if incompatible.is_empty() {
            continue;
        }
        let at_release = || {
            *head_is_release.get_or_init(|| {
                sources
                    .head_commit()
                    .is_some_and(|head| releases.is_release(head))
            })
        };
        let bumped = match bump(
            weighed_path(file, &context),
            file.grammar,
            Files {
                read: &read_head,
                list: &list_head,
            },
            Files {
                read: &read_base,
                list: &list_base,
            },
            TagsSay {
                last: &last_tag,
                released: &released,
                head_release: &|package| {
                    let head = sources.head_commit()?;
                    releases.version_at(head, package)
                },
                released_beside: &|package, version| releases.released_beside(package, version),
            },
        ) {
            Bump::PendingZero(version) if at_release() => Bump::Compatible(Some(version)),
            other => other,
        };
        let weighing = Weighing {
            releases: &releases,
            types: &types,
            context: &context,
            declared: sources.declared(),
        };
        let found = &mut found;
        weigh(file, &incompatible, bumped, &weighing, &at_release, found);
    }
    found
}

/// The version of `package`'s last release, from tags that are surely the package's: a bare
/// `v1.2.0` at the root is the root package's; in a folder it may be another package's of the
/// repository, unless the package's manifest at the tag writes that version (see
/// `Release::named`). With no release behind the base, the newest beside it: tera's 2.0
/// rewrite, begun on a history of its own at `2.0.0` while its 1.x tags sit on the old line, is
/// a major in development.
fn released_version(releases: &Releases, package: &super::version::Package) -> Option<String> {
    releases
        .last(package)
        .filter(|r| r.named || package.root.is_empty())
        .map(|r| r.version.clone())
        .or_else(|| {
            package
                .root
                .is_empty()
                .then(|| releases.newest_beside(package))
                .flatten()
        })
}

/// What one file's breaks mean, given the version bump of its package.
struct Weighing<'w, 'c> {
    releases: &'w Releases<'c>,
    types: &'w Types<'w>,
    context: &'w Context<'c>,
    declared: &'w Declared,
}

/// Sorts one file's breaks into `found` by what its package's version (`bumped`) and the
/// change itself allow; `at_release` says whether the range ends at a release.
fn weigh(
    file: &FileSurfaces<'_>,
    incompatible: &[&ApiChange],
    bumped: Bump,
    weighing: &Weighing<'_, '_>,
    at_release: &dyn Fn() -> bool,
    found: &mut Findings,
) {
    match bumped {
        Bump::PendingZero(version) => {
            for change in incompatible {
                found
                    .pending_zero
                    .push(format!("{} ({version})", describe(file.path, change)));
            }
        }
        Bump::Breaking(version) => {
            deliberate_breaks(file, incompatible, &version, weighing.context, found)
        }
        // A development line of a breaking release (clap's `4.0.0-alpha.0`): the break is
        // permitted, and the repository's own code is still being moved to it.
        Bump::Developing(version) => found.deliberate.extend(
            incompatible
                .iter()
                .map(|change| format!("{} ({version})", describe(file.path, change))),
        ),
        Bump::Compatible(_) | Bump::MovedBack { .. } => {
            let (described, line) = match bumped {
                Bump::MovedBack {
                    described,
                    from,
                    to,
                } => (Some(described), Some((to, from))),
                Bump::Compatible(described) => (described, None),
                _ => (None, None),
            };
            let mut unbumped = Findings::default();
            let line = line.as_ref().map(|(to, from)| (to.as_str(), from.as_str()));
            unbumped_breaks(file, incompatible, weighing, line, &mut unbumped);
            let permitted = (!at_release())
                .then(|| permitted_by_the_change(weighing.declared, described.as_deref()))
                .flatten();
            permit(unbumped, permitted, found);
        }
    }
}

/// `unbumped`'s findings into `found`: its failing breaks warn when the change `permitted`
/// them itself.
fn permit(mut unbumped: Findings, permitted: Option<Permit>, found: &mut Findings) {
    found.unreleased.append(&mut unbumped.unreleased);
    found.inherited.append(&mut unbumped.inherited);
    match permitted {
        Some(Permit::Branch(why)) => found
            .deliberate
            .extend(unbumped.failing.into_iter().map(|f| format!("{f} ({why})"))),
        Some(Permit::Declared(at)) => found.declared.extend(
            unbumped
                .failing
                .into_iter()
                .map(|f| format!("{f} (declared in {at})")),
        ),
        None => found.failing.append(&mut unbumped.failing),
    }
}

/// How the change itself permits a break its version does not (see [`super::declared`]).
enum Permit {
    /// Merged into a branch that prepares a later major: why, for the report.
    Branch(String),
    /// Its author declared it breaking, at this place (`the PR's title`, `commit 1a2b3c4`).
    Declared(String),
}

/// What the change's own text permits, given the package's version as found (`described`):
/// never asked for a range ending at a release, whose version was chosen and shipped.
fn permitted_by_the_change(declared: &Declared, described: Option<&str>) -> Option<Permit> {
    if let Some((branch, major)) = &declared.into_branch
        && prepares_a_later_major(*major, described.unwrap_or(""))
    {
        return Some(Permit::Branch(format!(
            "merged into `{branch}`, a branch named for a later major than {}",
            described.unwrap_or("the package's version")
        )));
    }
    declared.breaking.clone().map(Permit::Declared)
}

/// What the weighing of one file's breaks reads beside it.
struct Context<'c> {
    index: &'c LazyIndex,
    /// The changed files: their uses are not an unchanged caller's.
    changed: &'c BTreeSet<&'c str>,
    read_head: Read<'c>,
    read_base: Read<'c>,
    list_head: List<'c>,
    list_base: List<'c>,
    /// Why the project's API documentation does not promise an item of a Python file, by
    /// the file's base path and the item's name (see [`unpromised`]).
    unpromised_by_docs: &'c dyn Fn(&str, &str) -> Option<String>,
}

/// The generics the type `name` declares, for [`Types::declared`]; `Name/N` is the type of
/// that name with `N` parameters (see `compare::self_type_generics`).
fn declared_generics(
    name: &str,
    file: &FileSurfaces,
    surfaces: &[FileSurfaces],
    index: &LazyIndex,
    read_head: &dyn Fn(&str) -> Option<String>,
    looked_up: &RefCell<BTreeMap<String, Option<String>>>,
) -> Option<String> {
    let Some((bare, arity)) = name.split_once('/') else {
        return alias_target(
            name,
            file,
            surfaces,
            index,
            read_head,
            looked_up,
            &type_generics,
        );
    };
    let with_arity = |s: &Surface, n: &str| {
        type_generics(s, n).filter(|g| type_parameter_names(g).len().to_string() == arity)
    };
    let fresh = RefCell::new(BTreeMap::new());
    alias_target(bare, file, surfaces, index, read_head, &fresh, &with_arity)
}

/// Whether the Java type `name` (as written, possibly qualified) declared type parameters at
/// the base, for [`Types::generic_at_base`]: a changed file's base says so, and a type whose
/// file did not change is at the head as it was. `None` when no file here declares it (the
/// JDK's, another library's) or a changed file declares it only at the head.
fn java_generic_at_base(
    name: &str,
    file: &FileSurfaces,
    surfaces: &[FileSurfaces],
    index: &LazyIndex,
    read_head: &dyn Fn(&str) -> Option<String>,
    looked_up: &RefCell<BTreeMap<String, Option<String>>>,
) -> Option<bool> {
    let java = surfaces.iter().filter(|f| f.grammar == Grammar::Java);
    let bare = name.rsplit('.').next().unwrap_or(name);
    if let Some(at_base) = java.clone().find_map(|f| java_type_generics(&f.base, bare)) {
        return Some(!at_base.is_empty());
    }
    if java
        .clone()
        .any(|f| java_type_generics(&f.head, bare).is_some())
    {
        return None;
    }
    alias_target(
        bare,
        file,
        surfaces,
        index,
        read_head,
        looked_up,
        &java_type_generics,
    )
    .map(|generics| !generics.is_empty())
}

/// The type parameters a Java type declares (empty when none), by its simple name.
fn java_type_generics(surface: &Surface, name: &str) -> Option<String> {
    surface
        .items
        .iter()
        .find(|(key, item)| {
            matches!(
                item.kind,
                "class" | "interface" | "enum" | "record" | "annotation"
            ) && key.rsplit('.').next() == Some(name)
        })
        .map(|(_, item)| item.generics.clone())
}

/// A type's own generics, for [`Types::declared`]: a struct, enum, union, trait or alias at
/// the top of a file.
fn type_generics(surface: &Surface, name: &str) -> Option<String> {
    surface
        .items
        .get(name)
        .filter(|item| item.parent.is_none())
        .filter(|item| matches!(item.kind, "struct" | "enum" | "union" | "trait" | "type"))
        .map(|item| item.generics.clone())
}

/// What changed in `file`'s surface, each change as the package weighs it: moved elsewhere,
/// outside a Python package's declared `__all__`, or in a command's module.
fn file_changes(
    file: &FileSurfaces<'_>,
    surfaces: &[FileSurfaces<'_>],
    index: &LazyIndex,
    types: &Types,
    context: &Context<'_>,
) -> Vec<ApiChange> {
    let (read_head, read_base) = (context.read_head, context.read_base);
    let reach = match file.grammar {
        Grammar::Python => {
            let read_either = |path: &str| read_head(path).or_else(|| read_base(path));
            python_reach(file.path, &read_either)
        }
        _ => None,
    };
    // A command's implementation at both sides (see `command_scripts`).
    let command = match file.grammar {
        Grammar::Python => command_scripts(file.path, read_head)
            .zip(command_scripts(file.base_path, read_base))
            .map(|(head, _)| head),
        _ => None,
    };
    let reaches = (OnceCell::new(), OnceCell::new());
    compare(&file.base, &file.head, types)
        .into_iter()
        .map(|change| moved(change, file, surfaces, index))
        .map(|change| beyond_other_packages(change, file, context, &reaches))
        .map(|change| internal_by_convention(change, file))
        .map(|change| called_through_its_type(change, file, index, types, context))
        .map(|change| built_as_before(change, file, context))
        .map(|change| through_a_crate_alias(change, file, surfaces, index, types, read_head))
        .map(|change| declared_without_a_runtime(change, file, index, context))
        .map(|change| constructed_by_nobody(change, file, context))
        .map(|change| implemented_only_by_its_package(change, file, context))
        .map(|change| undeclared(change, reach.as_ref()))
        .map(|change| undocumented(change, file, context))
        .map(|change| of_a_command(change, command.as_deref()))
        .collect()
}

/// A value a type declaration file (`pino.d.ts`) stops declaring, which no source of the
/// package defines, at the head (the index) or at the base (the changed sources as they
/// were): users calling it got a `TypeError` at run time, so dropping the declaration fixes
/// the types and breaks no program that ran (pino #1544 dropped `final`, gone since v7). A
/// type (an interface, an alias) has no runtime value and stays a break, as does a value a
/// source still defined at the base.
fn declared_without_a_runtime(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    index: &LazyIndex,
    context: &Context<'_>,
) -> ApiChange {
    const VALUES: &[&str] = &["const", "let", "var", "function", "class", "enum"];
    let declaration_file = DECLARATIONS.iter().any(|d| file.path.ends_with(d));
    if !declaration_file
        || change.severity != Severity::Incompatible
        || change.head.is_some()
        || change.why != "removed"
    {
        return change;
    }
    if change.key.contains(['.', ':']) {
        return member_declared_without_a_runtime(change, file, index, context);
    }
    let Some(item) = file.base.items.get(&change.key) else {
        return change;
    };
    if !VALUES.contains(&item.kind) {
        return change;
    }
    let name = change.key.as_str();
    let source = runtime::runs;
    let definition = regex::Regex::new(&format!(
        r"(\bfunction\s*\*?\s*{0}\b|\b(const|let|var|class)\s+{0}\b|\.{0}\s*=[^=]|\b{0}\s*:|\bexports\.{0}\b|\{{[^}}]*\b{0}\b[^}}]*\}}\s*=)",
        regex::escape(name)
    ));
    let Ok(definition) = definition else {
        return change;
    };
    // The index's definitions, and files naming it that define it some way its tags do not
    // read (`module.exports.final = …`, an object's property).
    let defined_at_head = index.defined_in(name).into_iter().any(source)
        || index
            .referenced_in(name)
            .into_iter()
            .filter(|path| source(path))
            .any(|path| (context.read_head)(path).is_some_and(|text| definition.is_match(&text)));
    let defined_at_base = context
        .changed
        .iter()
        .filter(|path| source(path))
        .any(|path| (context.read_base)(path).is_some_and(|text| definition.is_match(&text)));
    if !defined_at_head && !defined_at_base {
        change.severity = Severity::Compatible;
        change.why = "removed from the type declarations; no source of the package defines it \
                      (a types fix: using it failed at run time)"
            .into();
    }
    change
}

/// A member of an interface or a class a type declaration file stops declaring, replaced in
/// the same type by one the package's sources do provide, when no source of the package
/// mentions the old one at all, at the head or at the base (fastify #4070: `ValidationResult`'s
/// `dataPath` → `instancePath`, the name Ajv 8 sets): programs that read the old member got
/// `undefined`, so the declarations only now say what the runtime does. A member some source
/// defines, sets or reads stays a break, and so does one dropped with nothing in its place (an
/// option the package hands on to a dependency unread is still one users pass).
fn member_declared_without_a_runtime(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    index: &LazyIndex,
    context: &Context<'_>,
) -> ApiChange {
    let Some(item) = file.base.items.get(&change.key) else {
        return change;
    };
    let Some(parent) = item.parent.as_deref() else {
        return change;
    };
    let Some(name) = change
        .key
        .strip_prefix(parent)
        .and_then(|m| m.strip_prefix('.'))
    else {
        return change;
    };
    if !matches!(item.kind, "property" | "method") || !file.head.items.contains_key(parent) {
        return change;
    }
    let files = Files {
        read: context.read_head,
        list: context.list_head,
    };
    let Some(package) = package_of(file.path, file.grammar, files) else {
        return change;
    };
    let mentioned_at_head =
        |name: &str| runtime::mentioned(name, &package.root, index.files(), context.read_head);
    let mentioned_at_base = |name: &str| {
        context.changed.iter().any(|path| {
            runtime::runs(path)
                && (context.read_base)(path).is_some_and(|text| runtime::holds_word(&text, name))
        })
    };
    if mentioned_at_head(name) != Some(false) || mentioned_at_base(name) {
        return change;
    }
    // The member in its place: new in the same type, and provided by the sources.
    let replacement = file.head.items.iter().find(|(key, new)| {
        new.parent.as_deref() == Some(parent)
            && new.kind == item.kind
            && !file.base.items.contains_key(*key)
            && key
                .strip_prefix(parent)
                .and_then(|m| m.strip_prefix('.'))
                .is_some_and(|member| mentioned_at_head(member) == Some(true))
    });
    if let Some((key, _)) = replacement {
        change.severity = Severity::Compatible;
        change.why = format!(
            "removed from the type declarations for `{key}`; no source of the package \
             provides `{name}` (a types fix: reading it gave `undefined` at run time)"
        );
    }
    change
}

/// A constructor of a TypeScript class its package exports only as a type (`export type {
/// GraphQLRequest }`, msw #1568): users can name the class in annotations, never `new` it, so
/// a parameter added to its constructor breaks none of them.
fn constructed_by_nobody(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    context: &Context<'_>,
) -> ApiChange {
    if change.severity != Severity::Incompatible
        || !matches!(file.grammar, Grammar::TypeScript | Grammar::Tsx)
    {
        return change;
    }
    let Some(class) = change.key.strip_suffix(".constructor") else {
        return change;
    };
    if class.contains('.') {
        return change;
    }
    if exported_only_as_types(file.path, context.read_head).contains(class) {
        change.severity = Severity::Compatible;
        change.why = format!(
            "{} (the package exports `{class}` only as a type: users cannot construct it)",
            change.why
        );
    }
    change
}

/// A method added to a Go interface the API only hands out (see [`handed_out`]): no user was
/// asked to implement it, so the addition warns instead of failing. Every Go file naming the
/// interface is read at both sides, and every changed one at the base (a file the change
/// deletes took it too); a side where a file does not exist says nothing.
fn implemented_only_by_its_package(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    context: &Context<'_>,
) -> ApiChange {
    if change.severity != Severity::Incompatible
        || file.grammar != Grammar::Go
        || change.base.is_some()
        || change.head.is_none()
    {
        return change;
    }
    let Some(interface) = file
        .head
        .items
        .get(&change.key)
        .and_then(|item| item.parent.as_deref())
        .filter(|parent| {
            file.head
                .items
                .get(*parent)
                .is_some_and(|item| item.kind == "interface")
        })
    else {
        return change;
    };
    let source = |path: &str| path.ends_with(".go") && !path.ends_with("_test.go");
    let named_at_head = context.index.referenced_in(interface);
    let texts = named_at_head
        .iter()
        .filter(|path| source(path))
        .flat_map(|path| [(context.read_head)(path), (context.read_base)(path)])
        .chain(
            context
                .changed
                .iter()
                .filter(|path| source(path))
                .map(|path| (context.read_base)(path)),
        )
        .flatten();
    if !handed_out::taken_by_the_api(interface, texts) {
        change.severity = Severity::Undecided;
        change.why = format!(
            "{} (`{interface}` is an interface the API only hands out: no exported function, \
             method or field takes one, so only implementations written outside the package, \
             such as test doubles, must add it)",
            change.why
        );
    }
    change
}

/// A Go change whose reach decides it (see [`Reach`]): a function type over a type no other
/// package can name or obtain, written and called with real values by its package alone
/// (functional options over an unexported options struct); a field removed from a struct
/// that a selector still finds, promoted from a struct it now embeds. Function types are
/// read against the base's package (a change cannot make a type unnameable to excuse
/// itself), promotion against the head's.
fn beyond_other_packages(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    context: &Context<'_>,
    (base_reach, head_reach): &(OnceCell<Reach>, OnceCell<Reach>),
) -> ApiChange {
    if change.severity != Severity::Incompatible || file.grammar != Grammar::Go {
        return change;
    }
    let Some(old) = file.base.items.get(&change.key) else {
        return change;
    };
    let new = file.head.items.get(&change.key);
    if old.kind == "type" && old.generics.is_empty() && old.shape.starts_with("func(") {
        let reach = base_reach
            .get_or_init(|| reach_of(file.base_path, context.read_base, context.list_base));
        // Removed, or now another kind of type: users who name it still break.
        let Some(head_shape) = new
            .filter(|new| new.kind == "type" && new.generics.is_empty())
            .map(|new| new.shape.as_str())
            .filter(|shape| shape.starts_with("func("))
        else {
            return change;
        };
        if let Some((compiles, why)) = function_type_reach(&old.shape, head_shape, reach) {
            change.severity = if compiles {
                Severity::Compatible
            } else {
                Severity::Undecided
            };
            change.why = format!("{} ({why})", change.why);
        }
        return change;
    }
    if matches!(old.kind, "func" | "method") {
        let reach = base_reach
            .get_or_init(|| reach_of(file.base_path, context.read_base, context.list_base));
        if let Some(why) = new.and_then(|new| called_with_nil_alike(old, new, reach)) {
            change.severity = Severity::Compatible;
            change.why = format!("{} ({why})", change.why);
        }
        return change;
    }
    let Some(parent) = old.parent.as_deref().filter(|_| old.kind == "field") else {
        return change;
    };
    let Some(field) = change
        .key
        .strip_prefix(parent)
        .and_then(|rest| rest.strip_prefix('.'))
    else {
        return change;
    };
    let struct_at_head = file
        .head
        .items
        .get(parent)
        .is_some_and(|p| p.kind == "struct");
    if new.is_some() || !struct_at_head {
        return change;
    }
    let reach =
        head_reach.get_or_init(|| reach_of(file.path, context.read_head, context.list_head));
    if let Some((ty, via)) = reach.promoted(parent, field)
        && ty == old.shape
    {
        change.severity = Severity::Undecided;
        change.why = format!(
            "promoted from the embedded `{via}`: a selector (`x.{field}`) still finds it, but a \
             keyed literal naming it (`{parent}{{{field}: …}}`) no longer compiles"
        );
    }
    change
}

fn script(grammar: Grammar) -> bool {
    matches!(
        grammar,
        Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx
    )
}

/// A JavaScript or TypeScript class member named with a leading underscore (`_status`) is
/// internal by the language community's convention, as in Python: its removal or change warns
/// and does not gate. The name is the base's, so a public member renamed with an underscore
/// is still removed.
fn internal_by_convention(mut change: ApiChange, file: &FileSurfaces<'_>) -> ApiChange {
    if change.severity != Severity::Incompatible || !script(file.grammar) {
        return change;
    }
    let Some(parent) = file
        .base
        .items
        .get(&change.key)
        .and_then(|old| old.parent.as_deref())
    else {
        return change;
    };
    let member = change
        .key
        .strip_prefix(parent)
        .and_then(|rest| rest.strip_prefix('.'));
    if let Some(member) = member.filter(|m| m.starts_with('_')) {
        change.severity = Severity::Undecided;
        change.why = format!(
            "{} (`{member}` is internal by convention, its name's leading underscore)",
            change.why
        );
    }
    change
}

/// A TypeScript function now a constant whose written type is a named type (`const f:
/// Factory = …`, hono's typed adapters): callers call it through that type, so the type's
/// call signature, found in the file or elsewhere in the project at the head, is compared
/// with the function's. A type that is not callable, or declared elsewhere more than once in
/// ways that differ, stays a break; one whose calls are not read here (not found, computed,
/// extended) is undecided.
fn called_through_its_type(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    index: &LazyIndex,
    types: &Types,
    context: &Context<'_>,
) -> ApiChange {
    if change.severity != Severity::Incompatible
        || !matches!(file.grammar, Grammar::TypeScript | Grammar::Tsx)
    {
        return change;
    }
    let (Some(old), Some(new)) = (
        file.base.items.get(&change.key),
        file.head.items.get(&change.key),
    ) else {
        return change;
    };
    if old.kind != "function" || new.kind != "const" {
        return change;
    }
    let name = new.shape.split('<').next().unwrap_or("").trim();
    let identifier = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    if name.is_empty() || !name.chars().all(identifier) {
        return change;
    }
    let declared_in = |path: &str| {
        let grammar = Grammar::for_path(path).filter(|g| script(*g))?;
        call_of(&(context.read_head)(path)?, grammar, name)
    };
    // Declared elsewhere, every declaration of the name must say the same: which one the
    // file imports is not resolved, so a second one cannot stand in for it.
    let call = declared_in(file.path).or_else(|| {
        let elsewhere: Vec<Call> = index
            .defined_in(name)
            .into_iter()
            .filter(|path| *path != file.path)
            .filter_map(declared_in)
            .collect();
        match elsewhere.split_first() {
            Some((first, rest)) if rest.iter().all(|other| other == first) => Some(first.clone()),
            Some(_) => Some(Call::NotCallable),
            None => None,
        }
    });
    let (severity, why) = match call {
        Some(Call::NotCallable) => return change,
        // Overloads: an old call compiles if one of them takes it; the signature closest to
        // the function's (the least severe change) answers.
        Some(Call::Signatures(signatures)) => match signatures
            .iter()
            .map(|signature| item_change(old, signature, types))
            .max_by_key(|change| match change {
                None => 3,
                Some((Severity::Compatible, _)) => 2,
                Some((Severity::Undecided, _)) => 1,
                Some((Severity::Incompatible, _)) => 0,
            })
            .flatten()
        {
            Some((Severity::Incompatible, why)) => (
                Severity::Incompatible,
                format!("a function is now a const of the type `{name}`, whose call: {why}"),
            ),
            Some((_, why)) => (
                Severity::Undecided,
                format!(
                    "a function is now a const of the type `{name}`, called the same way \
                     ({why})"
                ),
            ),
            None => (
                Severity::Compatible,
                format!(
                    "a function is now a const of the type `{name}`, whose call signature is \
                     the function's"
                ),
            ),
        },
        _ => (
            Severity::Undecided,
            format!(
                "a function is now a const of the type `{name}`, whose call signature is not \
                 read here (called the same way if it takes the same arguments)"
            ),
        ),
    };
    change.severity = severity;
    change.why = why;
    change
}

/// A TypeScript object type or interface now a class of that name (hono's `WSContext`):
/// values typed as it are read as before, and an object literal still fits a class whose
/// members are all public, compared by structure; its members compare one by one. A class
/// with a member that is not public (see `nominal`) no longer takes the literals the type
/// took: still a break, now said why.
fn built_as_before(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    context: &Context<'_>,
) -> ApiChange {
    if change.severity != Severity::Incompatible
        || !matches!(file.grammar, Grammar::TypeScript | Grammar::Tsx)
    {
        return change;
    }
    let (Some(old), Some(new)) = (
        file.base.items.get(&change.key),
        file.head.items.get(&change.key),
    ) else {
        return change;
    };
    let object_type = (old.kind == "type" && old.shape == "{}") || old.kind == "interface";
    if !object_type || new.kind != "class" || old.parent.is_some() {
        return change;
    }
    let Some(private) = (context.read_head)(file.path)
        .and_then(|text| private_member(&text, file.grammar, &change.key))
    else {
        return change;
    };
    match private {
        Some(member) => {
            change.why = format!(
                "{} that declares `{member}`, not public: object literals typed as it no longer \
                 compile",
                change.why
            );
        }
        None => {
            change.severity = Severity::Undecided;
            change.why = format!(
                "{} whose members are all public: object literals typed as it still fit, \
                 compared by structure",
                change.why
            );
        }
    }
    change
}

/// The path whose package's version weighs the file's breaks: its own, unless it moved here
/// from another package (crossbeam #303 moved `src/seg_queue.rs` into the new
/// `crossbeam-queue/`): what it lost, the users of the package it was in lost, so that
/// package's version must allow it.
fn weighed_path<'f>(file: &FileSurfaces<'f>, context: &Context<'_>) -> &'f str {
    if file.base_path == file.path {
        return file.path;
    }
    let base = Files {
        read: context.read_base,
        list: context.list_base,
    };
    let head = Files {
        read: context.read_head,
        list: context.list_head,
    };
    let was = package_of(file.base_path, file.grammar, base).map(|p| p.root);
    let is = package_of(file.path, file.grammar, head).map(|p| p.root);
    match was {
        Some(was) if Some(&was) != is.as_ref() => file.base_path,
        _ => file.path,
    }
}

/// Breaks with a version bump that allows them: deliberate, unless code in this repository
/// that uses the item was left as it was.
fn deliberate_breaks(
    file: &FileSurfaces<'_>,
    incompatible: &[&ApiChange],
    version: &str,
    context: &Context<'_>,
    found: &mut Findings,
) {
    let source = (context.read_head)(file.path)
        .or_else(|| (context.read_base)(file.path))
        .unwrap_or_default();
    let home = Home {
        path: file.path,
        grammar: file.grammar,
        source: &source,
    };
    for change in incompatible.iter().copied() {
        // A deliberate break still fails when code in this repository that uses
        // the item was left as it was.
        let added_to = match &change.base {
            Some(_) => None,
            None => file
                .head
                .items
                .get(&change.key)
                .and_then(|item| item.parent.as_deref()),
        };
        // Only callers the change leaves unable to compile count: not those of a signature
        // that accepts what they pass, nor those in the crate an item is still there for.
        let still_compile = match (
            file.base.items.get(&change.key),
            file.head.items.get(&change.key),
        ) {
            (Some(base), Some(head)) => calls_still_compile(base, head),
            _ => false,
        };
        let mut stale = if still_compile {
            Vec::new()
        } else {
            stale_callers(
                &home,
                &change.key,
                added_to,
                change.head.is_some(),
                context.index,
                context.changed,
                context.read_head,
            )
        };
        let member = change.key.rsplit([':', '.']).next().unwrap_or(&change.key);
        if change.head.is_none()
            && file.grammar == Grammar::Rust
            && kept_for_its_crate(&source, member)
        {
            let crate_root = |path: &str| crate_of(path, context.read_head).map(|c| c.0);
            let home_crate = crate_root(file.path);
            stale.retain(|caller| crate_root(caller) != home_crate);
        }
        if stale.is_empty() {
            found
                .deliberate
                .push(format!("{} ({version})", describe(file.path, change)));
        } else {
            found.failing.push(format!(
                "{} ({version}), callers not updated: {}",
                describe(file.path, change),
                stale.join(", ")
            ));
        }
    }
}

/// Breaks without a version bump: failing, unless no release shipped what broke. `line`:
/// the version the manifest moved back to and the one it moved from (see
/// [`Bump::MovedBack`]): the releases of that line are the ones that count.
fn unbumped_breaks(
    file: &FileSurfaces<'_>,
    incompatible: &[&ApiChange],
    weighing: &Weighing<'_, '_>,
    line: Option<(&str, &str)>,
    found: &mut Findings,
) {
    let (releases, types, context) = (weighing.releases, weighing.types, weighing.context);
    let read_either = |path: &str| (context.read_head)(path).or_else(|| (context.read_base)(path));
    let list_either = |dir: &str| {
        let names = (context.list_head)(dir);
        if names.is_empty() {
            (context.list_base)(dir)
        } else {
            names
        }
    };
    let either = Files {
        read: &read_either,
        list: &list_either,
    };
    let package = package_of(weighed_path(file, context), file.grammar, either);
    let release = package.as_ref().and_then(|package| match line {
        Some((version, _)) => releases.last_at_most(package, version),
        None => releases.last(package),
    });
    // Which release was compared, for the findings: on a line moved back, say so.
    let names = |release: &Release| match line {
        Some((to, from)) => format!(
            "{}, of the {to} line the version moved back to from {from}",
            release.names()
        ),
        None => release.names(),
    };
    // Asked of the base's package: what the base published is what a user may have.
    let base_files = Files {
        read: context.read_base,
        list: context.list_base,
    };
    let unreleased_package = || {
        release.is_none()
            && lang::of(file.grammar).is_some_and(|l| l.released_by_tags_alone())
            && package_of(file.base_path, file.grammar, base_files)
                .is_some_and(|package| releases.before_the_first(&package))
    };
    for change in incompatible.iter().copied() {
        // A member added to an interface or a closed type breaks the users of
        // that type: it is the type that had to be released.
        let subject = match &change.base {
            Some(_) => Some(change.key.clone()),
            None => file
                .head
                .items
                .get(&change.key)
                .and_then(|item| item.parent.clone()),
        };
        // The subject was in the base, where the file was then.
        match (&release, subject) {
            (Some(release), Some(subject))
                if !releases.could_be_in(release, file.base_path, &subject) =>
            {
                found.unreleased.push(format!(
                    "{} (not in {})",
                    describe(file.path, change),
                    names(release)
                ));
            }
            // more-itertools #875 made `sample`'s `strict` keyword-only: a
            // parameter added after v10.3.0, whose `sample` the head still takes
            // every call of. What broke was never released.
            (Some(release), _) => match released_form(releases, release, file, change, types) {
                Some(InRelease::Accepted(form)) => found.unreleased.push(format!(
                    "{} (not in {}, whose `{}` the head still accepts)",
                    describe(file.path, change),
                    names(release),
                    cut(&form)
                )),
                // rust-url #946: idna 0.2.3 named `verify_dns_length` (a field), yet declared
                // no such function in `uts46.rs`.
                // tonic #1154: `generate` gained two parameters after 0.8.2 and this change
                // took one back. The base broke 0.8.2's callers already.
                Some(InRelease::BrokenBefore(form)) => found.inherited.push(format!(
                    "{} (the base already broke {}'s `{}`)",
                    describe(file.path, change),
                    names(release),
                    cut(&form)
                )),
                Some(InRelease::Absent) => found.unreleased.push(format!(
                    "{} (not in {}: its `{}` there declares no such item)",
                    describe(file.path, change),
                    names(release),
                    file.path
                )),
                None => found.failing.push(describe(file.path, change)),
            },
            (None, _) if unreleased_package() => found.unreleased.push(format!(
                "{} (no release yet: no version tag of its package is behind the base)",
                describe(file.path, change)
            )),
            _ => found.failing.push(describe(file.path, change)),
        }
    }
}

/// Whether `path` is a .NET program's source at both sides where it exists (see
/// [`super::dotnet_program`]): a change cannot make a library a program to hide its breaks.
fn in_a_program(path: &str, sources: &Sources<'_>) -> bool {
    let head = |p: &str| sources.head(p);
    let base = |p: &str| sources.base(p);
    let head_names = |d: &str| sources.head_names(d);
    let base_names = |d: &str| sources.base_names(d);
    let at_head = in_program(path, &head_names, &head);
    let at_base = in_program(path, &base_names, &base);
    let existed = sources.base(path).is_some();
    let exists = sources.head(path).is_some();
    (at_head || !exists) && (at_base || !existed) && (exists || existed)
}

/// The axis's verdict and detail from what was read and found.
fn verdict(read: &ReadFiles<'_>, found: &Findings) -> (AxisVerdict, String) {
    if !found.failing.is_empty() {
        (
            AxisVerdict::Fail,
            format!(
                "exported API changed incompatibly and the package version does not allow a break: {}",
                listed(&found.failing)
            ),
        )
    } else if read.parsed == 0
        && read.unreadable.is_empty()
        && read.unindexed.is_empty()
        && read.withdrawn.is_empty()
    {
        (AxisVerdict::Pass, NOTHING_TO_COMPARE.to_string())
    } else if read.parsed == 0 && read.unreadable.is_empty() && !read.unindexed.is_empty() {
        (
            AxisVerdict::Unavailable,
            format!(
                "no parser for {}: their public API was not checked",
                read.unindexed.join(", ")
            ),
        )
    } else if !read.unreadable.is_empty() || !read.unindexed.is_empty() {
        let unchecked: Vec<&str> = read
            .unreadable
            .iter()
            .chain(&read.unindexed)
            .copied()
            .collect();
        (
            AxisVerdict::Partial,
            format!(
                "could not read or parse {} (or its base version): its public API was not checked",
                unchecked.join(", ")
            ),
        )
    } else if !found.deliberate.is_empty()
        || !found.declared.is_empty()
        || !found.pending_zero.is_empty()
        || !found.undecided.is_empty()
        || !read.withdrawn.is_empty()
        || !found.unreleased.is_empty()
        || !found.inherited.is_empty()
    {
        let mut parts = Vec::new();
        if !read.withdrawn.is_empty() {
            parts.push(format!(
                "no longer published, so its API is not compared (not gating): {}",
                listed(&read.withdrawn)
            ));
        }
        if !found.deliberate.is_empty() {
            parts.push(format!(
                "breaking changes with a version bump that allows them: {}",
                listed(&found.deliberate)
            ));
        }
        if !found.declared.is_empty() {
            parts.push(format!(
                "breaking changes their author declared breaking, which the version does not \
                 allow yet: the next release must be a major (below 1.0, a new minor): {}",
                listed(&found.declared)
            ));
        }
        if !found.pending_zero.is_empty() {
            parts.push(format!(
                "breaking changes to a 0.x package whose next version is not chosen yet: the \
                 next release must bump 0.x (its minor, as 0.6.x → 0.7.0), not only the patch: {}",
                listed(&found.pending_zero)
            ));
        }
        if !found.unreleased.is_empty() {
            parts.push(format!(
                "removed or changed before any release shipped them, so no user depends on \
                 them (not gating): {}",
                listed(&found.unreleased)
            ));
        }
        if !found.inherited.is_empty() {
            parts.push(format!(
                "incompatible with the last release, as the base already was before this change \
                 (an earlier change made the break; not gating here, but the next release must \
                 allow a break): {}",
                listed(&found.inherited)
            ));
        }
        if !found.undecided.is_empty() {
            parts.push(format!(
                "changes whose compatibility the syntax cannot decide (not gating): {}",
                listed(&found.undecided)
            ));
        }
        (AxisVerdict::Warn, parts.join(". "))
    } else if !found.notable.is_empty() {
        (
            AxisVerdict::Warn,
            format!("compatible API changes: {}", listed(&found.notable)),
        )
    } else if found.added > 0 {
        (
            AxisVerdict::Pass,
            format!(
                "nothing exported removed or changed incompatibly; {} item(s) added",
                found.added
            ),
        )
    } else {
        (
            AxisVerdict::Pass,
            "nothing exported removed or changed incompatibly".to_string(),
        )
    }
}

/// `change` as at most undecided when the package declares its API (`__all__`, see
/// [`python_reach`]) and none of the declared names reaches the changed item: nobody promised
/// it to users.
fn undeclared(mut change: ApiChange, reach: Option<&BTreeSet<String>>) -> ApiChange {
    let Some(reach) = reach else { return change };
    let top = change.key.split(['.', '(']).next().unwrap_or(&change.key);
    if change.severity == Severity::Incompatible && !reach.contains(top) {
        change.severity = Severity::Undecided;
        change.why = format!(
            "{} (not reached by the package's declared `__all__`)",
            change.why
        );
    }
    change
}

/// `change` as at most undecided when the project documents its Python API (with autodoc, or
/// by import path in prose) and its documentation never names the item's module, nor the item
/// by a package's path, and no `__all__` declares it (see [`unpromised`]): the project's own
/// machinery, promised to nobody. Asked of the base's module, where users would have found
/// the item.
fn undocumented(
    mut change: ApiChange,
    file: &FileSurfaces<'_>,
    context: &Context<'_>,
) -> ApiChange {
    if change.severity != Severity::Incompatible || file.grammar != Grammar::Python {
        return change;
    }
    if let Some(why) = (context.unpromised_by_docs)(file.base_path, &change.key) {
        change.severity = Severity::Undecided;
        change.why = format!("{} ({why})", change.why);
    }
    change
}

/// `change` as at most undecided when the file is the implementation of a command (a Python
/// distribution whose console scripts run its package, which offers nothing to import; see
/// [`command_scripts`]): users run the command, they do not import its modules.
fn of_a_command(mut change: ApiChange, scripts: Option<&str>) -> ApiChange {
    let Some(scripts) = scripts else {
        return change;
    };
    if change.severity == Severity::Incompatible {
        change.severity = Severity::Undecided;
        change.why = format!(
            "{} (a module of the command {scripts}, whose package offers nothing to import)",
            change.why
        );
    }
    change
}

/// The target of the transparent alias `name` (or, with another `table`, the underlying type
/// of the defined type `name`) as the package sees it at the head: declared in a changed file
/// of the same language, or else in an unchanged file of the same package (Go: the same
/// directory) that the index says defines it. Looked-up files are remembered.
fn alias_target(
    name: &str,
    file: &FileSurfaces,
    all: &[FileSurfaces],
    index: &LazyIndex,
    read_head: &dyn Fn(&str) -> Option<String>,
    looked_up: &RefCell<BTreeMap<String, Option<String>>>,
    table: &dyn Fn(&Surface, &str) -> Option<String>,
) -> Option<String> {
    let same_language = |f: &&FileSurfaces| same_family(f.grammar, file.grammar);
    let declared = |head: bool| {
        all.iter().filter(same_language).find_map(|f| {
            let surface = if head { &f.head } else { &f.base };
            table(surface, name)
        })
    };
    if let Some(target) = declared(true).or_else(|| declared(false)) {
        return Some(target);
    }
    if let Some(known) = looked_up.borrow().get(name) {
        return known.clone();
    }
    let package = parent_dir(file.path);
    let target = index
        .defined_in(name)
        .into_iter()
        .filter(|path| !changed_file(all, path) && !not_api_path(path))
        .filter(|path| file.grammar != Grammar::Go || parent_dir(path) == package)
        .filter(|path| Grammar::for_path(path).is_some_and(|g| same_family(g, file.grammar)))
        .find_map(|path| {
            let grammar = Grammar::for_path(path)?;
            let source = read_head(path)?;
            let surface = extract(grammar, source.as_bytes(), &|_| true).ok()?;
            table(&surface, name)
        });
    looked_up
        .borrow_mut()
        .insert(name.to_string(), target.clone());
    target
}

/// The member `member` of the class `base` (a name as written in a class's bases,
/// `module.Name` or `Name`) that an unchanged file of the same language defines, itself or
/// through its own bases: `Some(None)` when that class has no such member, `None` when no
/// file here defines it (a class of another package).
fn base_has(
    base: &str,
    member: &str,
    file: &FileSurfaces,
    index: &LazyIndex,
    read_head: &dyn Fn(&str) -> Option<String>,
    depth: usize,
) -> Option<Option<Item>> {
    // `Base<T>` and `pkg.Base` are the class `Base`.
    let written = base.split('<').next().unwrap_or(base);
    let name = written.rsplit('.').next().unwrap_or(written);
    if depth > 4 {
        return None;
    }
    for path in index.defined_in(name) {
        let Some(grammar) = Grammar::for_path(path).filter(|g| same_family(*g, file.grammar))
        else {
            continue;
        };
        let Some(source) = read_head(path) else {
            continue;
        };
        let Ok(surface) = extract(grammar, source.as_bytes(), &|_| true) else {
            continue;
        };
        if !surface.items.contains_key(name) {
            continue;
        }
        if let Some(item) = surface.items.get(&format!("{name}.{member}")) {
            return Some(Some(item.clone()));
        }
        let mut unknown = false;
        for grand in surface.bases.get(name).into_iter().flatten() {
            match base_has(grand, member, file, index, read_head, depth + 1) {
                Some(Some(item)) => return Some(Some(item)),
                Some(None) => {}
                None => unknown |= grand != "object",
            }
        }
        return if unknown { None } else { Some(None) };
    }
    None
}

/// One type system: JavaScript, TypeScript and TSX files import each other's types.
fn same_family(a: Grammar, b: Grammar) -> bool {
    let script = |g| matches!(g, Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx);
    a == b || (script(a) && script(b))
}

/// What the language's own rules add to the surfaces just read: Rust's macro items behind an
/// opt-in `cfg`, re-export aliases and methods in private modules' files; Java's types closed
/// to implementation by an annotation.
#[allow(clippy::too_many_arguments)]
fn refine(
    grammar: Grammar,
    file: &ChangedFile,
    (base, head): (&mut Surface, &mut Surface),
    (base_scope, head_scope): (&Visibility, &Visibility),
    (base_source, head_source): (Option<&String>, Option<&String>),
    index: &LazyIndex,
    sources: &Sources<'_>,
) {
    let read_head = |path: &str| sources.head(path);
    let read_base = |path: &str| sources.base(path);
    // Items of the crate's own macros that put them behind an opt-in `cfg` are
    // not the stable surface, at the side where they were so written.
    if grammar == Grammar::Rust {
        if !base.in_macro.is_empty() {
            base.without_macro_items(&unstable_macros_of(&file.path, &read_base));
        }
        if !head.in_macro.is_empty() {
            head.without_macro_items(&unstable_macros_of(&file.path, &read_head));
        }
        // Macros called inside an `impl` that its own file does not define: the crate's.
        if head
            .impl_macros
            .values()
            .flatten()
            .any(|call| call.writes == MacroWrites::Unknown)
        {
            read_from_crate(
                &mut head.impl_macros,
                &crate_macro_texts_of(&file.path, &read_head),
            );
        }
        // A path from the crate root is one item however each side's edition spells it.
        let base_path = file.old_path.as_deref().unwrap_or(&file.path);
        rooted::respell(base, rooted::Root::of(base_path, &read_base));
        rooted::respell(head, rooted::Root::of(&file.path, &read_head));
        renamed::by_public_names(base, &|name| {
            base_scope.public_name(name).map(str::to_string)
        });
        renamed::by_public_names(head, &|name| {
            head_scope.public_name(name).map(str::to_string)
        });
        foreign::keep_public(base, &|name| {
            public_type(name, &file.path, index, &read_base)
        });
        foreign::keep_public(head, &|name| {
            public_type(name, &file.path, index, &read_head)
        });
    }
    // A Go interface is its method set, flattened through its package's interfaces at each
    // side: an embedded interface renamed with the same methods changes nothing.
    if grammar == Grammar::Go {
        let base_path = file.old_path.as_deref().unwrap_or(&file.path);
        let list_base = |dir: &str| sources.base_names(dir);
        let list_head = |dir: &str| sources.head_names(dir);
        if interfaces::embeds_by_name(base) {
            interfaces::flatten(
                base,
                &interfaces::package_of(base_path, &read_base, &list_base),
            );
        }
        if interfaces::embeds_by_name(head) {
            interfaces::flatten(
                head,
                &interfaces::package_of(&file.path, &read_head, &list_head),
            );
        }
        // An interface whose methods name a type no other package can write is implemented
        // by its package alone, as one with an unexported method is.
        let has_interface = |s: &Surface| s.items.values().any(|i| i.kind == "interface");
        if has_interface(base) {
            seal_over_unnameable_types(base, &reach_of(base_path, &read_base, &list_base));
        }
        if has_interface(head) {
            seal_over_unnameable_types(head, &reach_of(&file.path, &read_head, &list_head));
        }
    }
    if grammar == Grammar::Java {
        let closing = |name: &str, source: Option<&String>, read: Read| {
            let files =
                closed::annotation_files(&file.path, source.map_or("", |s| s.as_str()), name);
            files
                .iter()
                .any(|at| read(at).is_some_and(|text| closed::declared_closing(&text, name)))
        };
        closed::open_by_annotations(base, &|name| closing(name, base_source, &read_base));
        closed::open_by_annotations(head, &|name| closing(name, head_source, &read_head));
    }
}

/// Whether the Rust type `name`, which the file at `path` implements but does not define, is
/// public: a file the index says defines it writes it `pub` and exports it (see
/// `foreign::keep_public`).
fn public_type(name: &str, path: &str, index: &LazyIndex, read: Read) -> bool {
    index.defined_in(name).into_iter().any(|at| {
        at != path
            && at.ends_with(".rs")
            && !not_api_path(at)
            && read(at).is_some_and(|text| {
                foreign::defines_public_type(&text, name)
                    && super::scope::scope(at, Grammar::Rust, &text, read).exports(name)
            })
    })
}

fn changed_file(all: &[FileSurfaces], path: &str) -> bool {
    all.iter().any(|f| f.path == path)
}

/// A removed item that another changed file now defines or re-exports, or that the head's
/// index still defines under its name elsewhere, moved: callers find it where it went.
fn moved(
    change: ApiChange,
    file: &FileSurfaces,
    all: &[FileSurfaces],
    index: &LazyIndex,
) -> ApiChange {
    if change.severity != Severity::Incompatible || change.head.is_some() || change.why != "removed"
    {
        return change;
    }
    let key = change.key.as_str();
    let name = key.rsplit(['.', ':']).next().unwrap_or(key);
    let top_level = !key.contains("::") && !key.contains('.');
    // A Go item belongs to its package, the directory its import path names: moved to
    // another package, it is gone for every caller of this one.
    let same_package =
        |path: &str| file.grammar != Grammar::Go || parent_dir(path) == parent_dir(file.path);
    let elsewhere = all
        .iter()
        .filter(|f| f.path != file.path && same_package(f.path))
        .any(|f| {
            f.head.items.contains_key(key) && !f.base.items.contains_key(key)
                || (top_level
                    && (f.head.reexports.contains(name) || f.head.reexports.contains("*")))
        });
    let indexed = top_level
        && index
            .defined_in(name)
            .into_iter()
            .any(|path| path != file.path && same_package(path) && !not_api_path(path));
    if elsewhere || indexed || moved_to_module_file(key, file, all) {
        return ApiChange {
            severity: Severity::Compatible,
            why: "moved to another file".into(),
            ..change
        };
    }
    change
}

/// A removed member of a Rust type that is now an alias of another type of the crate (time
/// 0.3.54 renamed `PrimitiveDateTime` to `PlainDateTime`, its file too, and kept `pub type
/// PrimitiveDateTime = PlainDateTime;` in lib.rs): the alias has the target's members, so
/// the member is still reached under the old name when the target has it, in a changed file
/// or a file the index says defines the target. A member the target lacks stays removed.
fn through_a_crate_alias(
    change: ApiChange,
    file: &FileSurfaces,
    all: &[FileSurfaces],
    index: &LazyIndex,
    types: &Types,
    read_head: Read,
) -> ApiChange {
    if file.grammar != Grammar::Rust
        || change.severity != Severity::Incompatible
        || change.head.is_some()
        || change.why != "removed"
    {
        return change;
    }
    let Some((owner, member)) = change.key.rsplit_once("::") else {
        return change;
    };
    let name = owner.rsplit("::").next().unwrap_or(owner);
    // Still defined here as a type of its own: its members are its own.
    if file.head.items.get(owner).is_some_and(|i| i.kind != "type") {
        return change;
    }
    let Some(written) = (types.alias)(name) else {
        return change;
    };
    let path = written.split('<').next().unwrap_or(&written).trim();
    let target = path.rsplit("::").next().unwrap_or(path);
    if target == name || target.is_empty() {
        return change;
    }
    let wanted = format!("{target}::{member}");
    let has = |surface: &Surface| {
        surface.items.keys().any(|key| {
            key.strip_suffix(wanted.as_str())
                .is_some_and(|module| module.is_empty() || module.ends_with("::"))
        })
    };
    let in_changed = all
        .iter()
        .filter(|f| f.grammar == Grammar::Rust)
        .any(|f| has(&f.head));
    let in_unchanged = || {
        index
            .defined_in(target)
            .into_iter()
            .filter(|path| !changed_file(all, path) && !not_api_path(path))
            .filter(|path| Grammar::for_path(path) == Some(Grammar::Rust))
            .any(|path| {
                read_head(path)
                    .and_then(|source| extract(Grammar::Rust, source.as_bytes(), &|_| true).ok())
                    .is_some_and(|surface| has(&surface))
            })
    };
    if in_changed || in_unchanged() {
        return ApiChange {
            severity: Severity::Compatible,
            why: format!("still reached through `{owner}`, now an alias of `{target}`"),
            ..change
        };
    }
    change
}

/// Whether `key` (`serde::ts_seconds::serialize`) was in an inline Rust module (`pub mod
/// serde { … }`) that now has a file of its own, which still defines the rest of the key
/// (chrono #661 moved `datetime::serde` to `datetime/serde.rs`): the module path is the same.
fn moved_to_module_file(key: &str, file: &FileSurfaces, all: &[FileSurfaces]) -> bool {
    if file.grammar != Grammar::Rust {
        return false;
    }
    let Some((module, rest)) = key.split_once("::") else {
        return false;
    };
    // Where the files of this file's child modules are: beside `lib.rs` or `mod.rs`, in a
    // folder named after any other file.
    let name = file.path.rsplit('/').next().unwrap_or(file.path);
    let children = if matches!(name, "lib.rs" | "main.rs" | "mod.rs") {
        parent_dir(file.path).to_string()
    } else {
        file.path
            .strip_suffix(".rs")
            .unwrap_or(file.path)
            .to_string()
    };
    let at = |tail: &str| {
        if children.is_empty() {
            tail.to_string()
        } else {
            format!("{children}/{tail}")
        }
    };
    let candidates = [at(&format!("{module}.rs")), at(&format!("{module}/mod.rs"))];
    all.iter().any(|f| {
        candidates.iter().any(|c| c == f.path)
            && (f.head.items.contains_key(rest)
                || (!rest.contains("::") && f.head.reexports.contains(rest)))
    })
}

/// What `release` had of `change`'s item, read from the file in each of its commits.
enum InRelease {
    /// A form the head's item still accepts (its form in the first read that has it).
    Accepted(String),
    /// No read of the file declares the item: it came after the release.
    Absent,
    /// The head breaks this released form, and so did the base: the break is older than
    /// the change.
    BrokenBefore(String),
}

/// What `release` had of `change`'s item (a removed or changed one): no read of the file
/// declares it, or every read that does has a form the head's item still accepts, so the
/// change breaks only what came after the release. `None` when a release lacks the file or
/// cannot be read, or the head breaks a released form.
fn released_form(
    releases: &Releases,
    release: &Release,
    file: &FileSurfaces,
    change: &ApiChange,
    types: &Types,
) -> Option<InRelease> {
    change.base.as_ref()?;
    let (base, head) = (
        file.base.items.get(&change.key),
        file.head.items.get(&change.key),
    );
    let breaks = |released: &Item, now: &Item| {
        item_severity(released, now, types) == Some(Severity::Incompatible)
    };
    let (mut form, mut broken_before) = (None, None);
    for source in releases.sources(release, file.path)? {
        let surface = extract(file.grammar, source.as_bytes(), &|_| true).ok()?;
        let Some(released) = surface.items.get(&change.key) else {
            continue;
        };
        match head {
            Some(head) if !breaks(released, head) => {
                form.get_or_insert_with(|| released.form.clone());
            }
            // Asked of the base's item as the change found it: a base the release's callers
            // could still use makes the head's break this change's own.
            _ if base.is_some_and(|base| breaks(released, base)) => {
                broken_before.get_or_insert_with(|| released.form.clone());
            }
            _ => return None,
        }
    }
    Some(match (broken_before, form) {
        (Some(before), _) => InRelease::BrokenBefore(before),
        (None, Some(form)) => InRelease::Accepted(form),
        (None, None) => InRelease::Absent,
    })
}

/// Unchanged files that use `key` of `home`, resolved through their imports (see
/// [`uses`]); the index narrows them to the files that mention its name at all. For a member
/// added to `added_to` (a type implementations must now complete), the files that implement
/// that type without it (see [`implements_without`]): adding breaks no caller. For an item
/// `still_there` (changed, not removed), only files that name it beyond their imports and
/// re-exports (see [`names_beyond_imports`]).
fn stale_callers(
    home: &Home,
    key: &str,
    added_to: Option<&str>,
    still_there: bool,
    index: &LazyIndex,
    changed: &BTreeSet<&str>,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    /// Enough to show; reading more files would only make a longer list.
    const SHOWN: usize = 5;
    let top = key.split(['(', ':', '.']).next().unwrap_or(key);
    let bare = key.split('(').next().unwrap_or(key);
    let member = bare.rsplit([':', '.']).next().unwrap_or(bare);
    let stale_here = |path: &str, text: &str| match added_to {
        Some(parent) => {
            let name = parent.rsplit([':', '.']).next().unwrap_or(parent);
            uses(home, parent, path, text) && implements_without(home, name, member, text)
        }
        // A changed item still exists: importing or re-exporting it breaks nothing.
        None if still_there => {
            uses(home, key, path, text) && names_beyond_imports(home.grammar, top, text)
        }
        None => uses(home, key, path, text),
    };
    let mut stale = Vec::new();
    for path in index.referenced_in(top) {
        if path == home.path || changed.contains(path) {
            continue;
        }
        // A file Cargo never compiles cannot stop compiling, nor can one of a crate that
        // takes this one from a registry: it builds against a release.
        if home.grammar == Grammar::Rust
            && path.ends_with(".rs")
            && (never_compiled(path, read)
                || outside_the_workspace(path, read)
                || from_a_registry(path, home.path, read))
        {
            continue;
        }
        if read(path).is_some_and(|text| stale_here(path, &text)) {
            stale.push(path.to_string());
            if stale.len() == SHOWN {
                break;
            }
        }
    }
    stale
}

fn cut(form: &str) -> String {
    if form.chars().count() <= FORM_CHARS {
        return form.to_string();
    }
    let mut short: String = form.chars().take(FORM_CHARS).collect();
    short.push('…');
    short
}

/// One line: where, what, why, and the base and head forms side by side.
fn describe(path: &str, change: &ApiChange) -> String {
    let forms = match (&change.base, &change.head) {
        (Some(base), Some(head)) => format!("base `{}` → head `{}`", cut(base), cut(head)),
        (Some(base), None) => format!("base `{}` → head: none", cut(base)),
        (None, Some(head)) => format!("base: none → head `{}`", cut(head)),
        (None, None) => String::new(),
    };
    format!("{path}: `{}` {} ({forms})", change.key, change.why)
}

fn listed(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > LISTED {
        text.push_str(&format!("; and {} more", items.len() - LISTED));
    }
    text
}

/// Whether a file without a parser could carry a public API: source in a language we do not
/// parse (C, Ruby, Kotlin…). Build files, lock files, data, snapshots, golden files and docs
/// cannot, and neither can a file of unknown kind: only known source extensions count.
/// Whether `file`'s path alone rules out an API: a path no API lives under (tests, docs,
/// examples), or a kind of file no language imports that is no package manifest either.
fn no_api_by_path(file: &ChangedFile) -> bool {
    let manifest = || {
        lang::LANGUAGES
            .iter()
            .flat_map(|language| language.manifests())
            .any(|manifest| is_manifest(manifest, &file.path))
    };
    not_api_path(&file.path) || (!may_carry_api(&file.language, &file.path) && !manifest())
}

pub(super) fn may_carry_api(language: &crate::diff::Language, path: &str) -> bool {
    use crate::diff::Language::*;
    match language {
        C | Cpp | Ruby | CSharp | Php | Kotlin => true,
        Rust | Python | JavaScript | TypeScript | Go | Java => true,
        Swift | Dart | Scala | Elixir | Lua | Haskell | ObjectiveC | Zig | OCaml => true,
        Markdown | Toml | Yaml | Json | Dockerfile | Shell => false,
        Other => {
            const SOURCE: &[&str] = &[
                "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm", "cs", "fs", "vb",
                "kt", "kts", "scala", "groovy", "swift", "php", "rb", "ex", "exs", "erl", "hs",
                "ml", "mli", "dart", "lua", "pl", "pm", "r", "jl", "zig", "nim", "clj", "cljs",
                "elm", "cr", "d", "pas", "f90",
            ];
            let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
            match name.rsplit_once('.') {
                Some((_, extension)) => SOURCE.contains(&extension),
                None => false,
            }
        }
    }
}
