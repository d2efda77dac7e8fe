//! package.json: the package's name (a scoped name's last part too) and version.

use crate::api::lang::{Manifest, Versioning};
use crate::api::visibility::Read;

pub(crate) static MANIFESTS: &[Manifest] = &[Manifest {
    file: "package.json",
    names,
    version,
    versioning: Versioning::Semantic,
}];

fn names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok();
    if let Some(name) = value.as_ref().and_then(|v| v.get("name")?.as_str()) {
        names.push(name.to_string());
        if let Some((_, last)) = name.rsplit_once('/') {
            names.push(last.to_string());
        }
    }
    names
}

fn version(text: &str, _root: &str, _read: Read) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get("version")?.as_str().map(str::to_string)
}
