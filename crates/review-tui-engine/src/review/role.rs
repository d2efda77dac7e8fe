//! The model reviewer roles, and which agent carries each: what a level dispatches and what
//! tells two reviewers apart as peers.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A model reviewer role. Security and performance are briefs given to the architect and the
/// engineer, not agents of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Engineer,
    Qa,
    Architect,
    Security,
    Performance,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Engineer,
        Role::Qa,
        Role::Architect,
        Role::Security,
        Role::Performance,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Engineer => "engineer",
            Role::Qa => "qa",
            Role::Architect => "architect",
            Role::Security => "security",
            Role::Performance => "performance",
        }
    }

    /// The agent that carries this role: a speciality is a brief, not a new agent.
    pub fn agent(self) -> Role {
        match self {
            Role::Security => Role::Architect,
            Role::Performance => Role::Engineer,
            other => other,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Role::ALL
            .into_iter()
            .find(|role| role.as_str() == text.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "unknown role `{text}`: use engineer, qa, architect, security or performance"
                )
            })
    }
}

/// Whether two reviewer names are one agent (a role and the role whose agent carries it).
pub(crate) fn same_agent(a: &str, b: &str) -> bool {
    let agent = |name: &str| {
        Role::from_str(name)
            .map(|role| role.agent().as_str().to_owned())
            .unwrap_or_else(|_| name.to_owned())
    };
    a == b || agent(a) == agent(b)
}
