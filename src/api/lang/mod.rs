//! The languages with a surface rule, one folder each, behind [`Language`]. A new language is
//! one folder here implementing it and one line in [`LANGUAGES`]; the languages without a
//! rule are read from the symbol index's tags (see [`super::tagged`]).

pub mod go;
pub mod java;
pub mod python;
pub mod rust;
pub mod script;

use tree_sitter::Node;

use super::Surface;
use super::text::Src;
use crate::cohort::grammar::Grammar;

/// One language's surface rule.
pub trait Language: Sync {
    /// The grammars whose files it reads.
    fn grammars(&self) -> &'static [Grammar];

    /// Adds the exported items of the file whose syntax tree is `root` to `out`. `exported`
    /// answers whether a top-level name counts (see [`super::scope`]).
    fn extract(&self, root: Node, src: Src, exported: &dyn Fn(&str) -> bool, out: &mut Surface);
}

/// The registered languages.
pub static LANGUAGES: &[&dyn Language] = &[
    &rust::RUST,
    &python::PYTHON,
    &script::SCRIPT,
    &go::GO,
    &java::JAVA,
];

/// The registered language reading `grammar`'s files.
pub fn of(grammar: Grammar) -> Option<&'static dyn Language> {
    LANGUAGES
        .iter()
        .copied()
        .find(|language| language.grammars().contains(&grammar))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_grammar_has_one_language_at_most_and_the_tagged_ones_none() {
        for grammar in Grammar::ALL {
            let readers = LANGUAGES
                .iter()
                .filter(|language| language.grammars().contains(&grammar))
                .count();
            assert!(readers <= 1, "{grammar:?} is read by {readers} languages");
            assert_eq!(
                readers == 1,
                crate::api::by_tags_only(grammar).is_none(),
                "{grammar:?}: a surface rule and a tag reading at once, or neither"
            );
        }
    }
}
