//! Review axes: results beside the findings. Only pass or warn clears a gate; absence of
//! evidence (partial, unavailable) never turns a gate green.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AxisVerdict {
    Pass,
    Warn,
    Fail,
    Partial,
    Unavailable,
}

impl AxisVerdict {
    pub const ALL: [AxisVerdict; 5] = [
        AxisVerdict::Pass,
        AxisVerdict::Warn,
        AxisVerdict::Fail,
        AxisVerdict::Partial,
        AxisVerdict::Unavailable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            AxisVerdict::Pass => "pass",
            AxisVerdict::Warn => "warn",
            AxisVerdict::Fail => "fail",
            AxisVerdict::Partial => "partial",
            AxisVerdict::Unavailable => "unavailable",
        }
    }

    pub fn parse(text: &str) -> Option<AxisVerdict> {
        AxisVerdict::ALL
            .into_iter()
            .find(|v| v.as_str() == text.trim().to_ascii_lowercase())
    }

    pub fn clears_gate(self) -> bool {
        matches!(self, AxisVerdict::Pass | AxisVerdict::Warn)
    }
}

impl fmt::Display for AxisVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The axes the product knows. Token-driven axes (correctness, security, testGap) are advisory:
/// findings' priorities already decide the verdict, and gating on them would count twice.
pub const CORRECTNESS: &str = "correctness";
pub const SECURITY: &str = "security";
pub const TEST_GAP: &str = "testGap";
pub const API_CONTRACT: &str = "apiContract";
pub const PERFORMANCE: &str = "performance";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    pub name: String,
    pub verdict: AxisVerdict,
    #[serde(default)]
    pub gated: bool,
    /// Why the axis has this verdict, for the header and the report.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}
