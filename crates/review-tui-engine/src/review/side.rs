//! Which version of a file a line number refers to.

use serde::{Deserialize, Serialize};

/// The side of a diff a line number belongs to, spelled the way GitHub's review API spells it.
///
/// LEFT numbers lines of the old file (the merge base), RIGHT numbers lines of the new file (the
/// head). Review anchors and diff lookups share this type so the two cannot drift apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    #[serde(rename = "LEFT")]
    Left,
    #[serde(rename = "RIGHT")]
    Right,
}

impl Side {
    /// The API spelling, `"LEFT"` or `"RIGHT"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Left => "LEFT",
            Side::Right => "RIGHT",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_github_spells_it() {
        assert_eq!(serde_json::to_string(&Side::Left).unwrap(), "\"LEFT\"");
        assert_eq!(serde_json::to_string(&Side::Right).unwrap(), "\"RIGHT\"");
        let back: Side = serde_json::from_str("\"RIGHT\"").unwrap();
        assert_eq!(back, Side::Right);
        assert!(serde_json::from_str::<Side>("\"right\"").is_err());
    }
}
