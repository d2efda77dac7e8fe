//! Review levels move two controls: which reviewers are dispatched (each role's `run_when` gate,
//! enforced in code, never by prompt text) and where below-threshold findings are shown. No level
//! ever drops a finding: below-threshold ones are recorded the same and listed apart.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use super::node::{Priority, ReviewNode};
pub use super::role::Role;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Light,
    #[default]
    Balanced,
    Thorough,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Light, Level::Balanced, Level::Thorough];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Light => "light",
            Level::Balanced => "balanced",
            Level::Thorough => "thorough",
        }
    }

    /// The roles this level dispatches, decided by each role's gate.
    pub fn roster(self) -> Vec<Role> {
        Role::ALL
            .into_iter()
            .filter(|role| role.run_when(self))
            .collect()
    }

    /// What the main list shows at this level.
    pub fn threshold(self) -> Threshold {
        match self {
            // Only what really matters.
            Level::Light => Threshold {
                lowest_priority: Priority::P1,
                min_confidence: 0.8,
            },
            // The standard pass: everything a reviewer is at least fairly sure of.
            Level::Balanced => Threshold {
                lowest_priority: Priority::P3,
                min_confidence: 0.5,
            },
            // Nothing demoted.
            Level::Thorough => Threshold {
                lowest_priority: Priority::P3,
                min_confidence: 0.0,
            },
        }
    }

    pub fn placement(self, node: &ReviewNode) -> Placement {
        self.threshold().placement(node)
    }
}

impl Role {
    /// The gate that decides whether this role runs at a level. The selection never looks at
    /// the diff's language or domain.
    pub fn run_when(self, level: Level) -> bool {
        match self {
            Role::Engineer => true,
            Role::Qa | Role::Architect => level != Level::Light,
            Role::Security | Role::Performance => level == Level::Thorough,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|level| level.as_str() == text.trim().to_ascii_lowercase())
            .ok_or_else(|| format!("unknown level `{text}`: use light, balanced or thorough"))
    }
}

/// The display gate of a level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threshold {
    /// The least severe priority shown in the main list.
    pub lowest_priority: Priority,
    pub min_confidence: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Main,
    BelowThreshold,
}

impl Threshold {
    pub fn placement(&self, node: &ReviewNode) -> Placement {
        if node.priority <= self.lowest_priority && node.confidence >= self.min_confidence {
            Placement::Main
        } else {
            Placement::BelowThreshold
        }
    }
}
