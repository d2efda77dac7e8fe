//! What a file exports, as every rule that decides it answers: the language's own rule
//! ([`super::scope`]) and a JavaScript package's entry points ([`super::lang::script::entry_points`]) both
//! give a [`Visibility`], so this type sits below both.

use std::collections::BTreeSet;

/// Reads a repository file by its path (the head version, else the base one).
pub(crate) type Read<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Lists the names of the files in a repository folder (`""`: the root).
pub(crate) type List<'a> = &'a dyn Fn(&str) -> Vec<String>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Visibility {
    /// Not part of any published API, and why.
    NotApi(&'static str),
    /// In a package its manifest says is never published (`publish = false`, `"private":
    /// true`), and why: nothing in it is a contract. A package that becomes so at the head
    /// was withdrawn as a whole, which is a packaging decision, not a removal of each item.
    Unpublished(&'static str),
    /// Every name the language's own rule makes public.
    Exported,
    /// Its names may be public, but whether is not decided (an Objective-C header the build
    /// settings name neither public nor private), and why: read and reported, never a
    /// proven removal.
    Undecided(&'static str),
    /// Only these names (re-exported from a private module); a name re-exported under an alias
    /// is written `Options as TerminalOptions` (see [`Visibility::public_name`]).
    Only(BTreeSet<String>),
}

impl Visibility {
    /// Whether any name of the file can be part of a published API.
    pub fn is_api(&self) -> bool {
        !matches!(self, Visibility::NotApi(_) | Visibility::Unpublished(_))
    }

    pub fn exports(&self, name: &str) -> bool {
        match self {
            Visibility::NotApi(_) | Visibility::Unpublished(_) => false,
            Visibility::Exported | Visibility::Undecided(_) => true,
            Visibility::Only(names) => names.contains(name) || self.public_name(name).is_some(),
        }
    }

    /// The alias a name is exported under when only the alias is public (`pub use
    /// terminal::{Options as TerminalOptions}`: `Options` is `TerminalOptions` to users, and
    /// the name `Options` is no API).
    pub fn public_name(&self, name: &str) -> Option<&str> {
        let Visibility::Only(names) = self else {
            return None;
        };
        if names.contains(name) {
            return None;
        }
        let prefix = format!("{name} as ");
        names
            .range(prefix.clone()..)
            .next()
            .and_then(|entry| entry.strip_prefix(&prefix))
    }
}
