//! Elixir: read from tags; `def` is public, `defp` and `@doc false` are not.

use super::tagged::{Tagged, every_file};
use super::{Manifest, TagReading, Versioning};
use crate::api::lang::manifest::{assigned_name, assigned_version};
use crate::parse::grammar::Grammar;

pub(crate) static ELIXIR: Tagged = Tagged {
    grammars: &[Grammar::Elixir],
    reading: TagReading {
        name: "Elixir",
        removals_proven: true,
    },
    scope: every_file,
    manifests: &[Manifest {
        file: "mix.exs",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    }],
};
