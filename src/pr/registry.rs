//! The forges this build knows, in the order references are offered to them. A new forge is
//! one folder beside `github/` implementing [`ForgeKind`] and one line here.

use super::github;
use super::hosted::ForgeKind;

pub static FORGES: &[&dyn ForgeKind] = &[&github::GITHUB];

/// The registered forge with this id.
pub fn find(id: &str) -> Option<&'static dyn ForgeKind> {
    FORGES.iter().copied().find(|forge| forge.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_never_the_local_spaces_name() {
        let mut ids: Vec<&str> = FORGES.iter().map(|f| f.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), FORGES.len(), "two forges share an id: {ids:?}");
        // `spaces/local/` holds the local ranges.
        assert!(!ids.contains(&"local"));
        assert!(find("github").is_some());
        assert!(find("nope").is_none());
    }
}
