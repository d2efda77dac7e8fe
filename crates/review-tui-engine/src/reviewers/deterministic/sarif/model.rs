//! The parts of SARIF 2.1.0 the importer reads. Everything is optional and unknown properties
//! are ignored: tools disagree on what they fill in, and a field we do not need must never be
//! the reason a whole log is refused.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
pub(super) struct Log {
    pub version: Option<String>,
    pub runs: Option<Vec<Run>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct Run {
    pub tool: Tool,
    pub results: Option<Vec<SarifResult>>,
    pub original_uri_base_ids: BTreeMap<String, ArtifactLocation>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Tool {
    pub driver: ToolComponent,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct ToolComponent {
    pub name: String,
    pub version: Option<String>,
    pub rules: Vec<ReportingDescriptor>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct ReportingDescriptor {
    pub id: String,
    pub name: Option<String>,
    pub short_description: Option<Message>,
    pub default_configuration: Option<ReportingConfiguration>,
    pub message_strings: BTreeMap<String, Message>,
    pub properties: Properties,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct ReportingConfiguration {
    pub level: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Message {
    pub text: Option<String>,
    pub id: Option<String>,
    pub arguments: Vec<String>,
}

/// A property bag: free-form, with the few keys we look for read leniently (tools write
/// `security-severity` as a string or a number, `tags` sometimes as a lone string).
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub(super) struct Properties(pub BTreeMap<String, Value>);

impl Properties {
    pub(super) fn number(&self, key: &str) -> Option<f64> {
        match self.0.get(key)? {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
        .filter(|n: &f64| n.is_finite())
    }

    pub(super) fn text(&self, key: &str) -> Option<&str> {
        self.0.get(key)?.as_str()
    }

    pub(super) fn strings(&self, key: &str) -> Vec<String> {
        match self.0.get(key) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            Some(Value::String(s)) => vec![s.clone()],
            _ => Vec::new(),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct RuleReference {
    pub id: Option<String>,
    pub index: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct SarifResult {
    pub rule_id: Option<String>,
    pub rule_index: Option<i64>,
    pub rule: Option<RuleReference>,
    pub level: Option<String>,
    pub kind: Option<String>,
    pub message: Message,
    pub locations: Vec<Location>,
    pub partial_fingerprints: BTreeMap<String, String>,
    pub suppressions: Option<Vec<Suppression>>,
    pub properties: Properties,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct Location {
    pub physical_location: Option<PhysicalLocation>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct PhysicalLocation {
    pub artifact_location: Option<ArtifactLocation>,
    pub region: Option<Region>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct ArtifactLocation {
    pub uri: Option<String>,
    pub uri_base_id: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct Region {
    pub start_line: Option<i64>,
    pub end_line: Option<i64>,
    pub char_offset: Option<i64>,
    pub byte_offset: Option<i64>,
    pub snippet: Option<ArtifactContent>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct ArtifactContent {
    pub text: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Suppression {
    pub kind: Option<String>,
    pub status: Option<String>,
    pub justification: Option<String>,
}
