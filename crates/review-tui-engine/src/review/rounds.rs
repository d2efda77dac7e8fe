//! Rounds: each run over a head SHA is a round; the next round is read as a delta against the
//! previous one by fingerprint.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// What changed between two rounds, as fingerprints.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RoundDelta {
    pub new: Vec<String>,
    pub still_present: Vec<String>,
    pub not_refound: Vec<String>,
}

pub(crate) fn delta<'a>(
    previous: impl IntoIterator<Item = &'a str>,
    current: impl IntoIterator<Item = &'a str>,
) -> RoundDelta {
    let previous: BTreeSet<&str> = previous.into_iter().filter(|f| !f.is_empty()).collect();
    let current: BTreeSet<&str> = current.into_iter().filter(|f| !f.is_empty()).collect();
    RoundDelta {
        new: current
            .difference(&previous)
            .map(|s| s.to_string())
            .collect(),
        still_present: current
            .intersection(&previous)
            .map(|s| s.to_string())
            .collect(),
        not_refound: previous
            .difference(&current)
            .map(|s| s.to_string())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_new_kept_and_gone() {
        let d = delta(["a", "b", ""], ["b", "c"]);
        assert_eq!(d.new, vec!["c"]);
        assert_eq!(d.still_present, vec!["b"]);
        assert_eq!(d.not_refound, vec!["a"]);
    }

    #[test]
    fn first_round_is_all_new() {
        let d = delta([], ["x", "y"]);
        assert_eq!(d.new, vec!["x", "y"]);
        assert!(d.still_present.is_empty() && d.not_refound.is_empty());
    }
}
