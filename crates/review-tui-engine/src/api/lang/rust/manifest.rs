//! Cargo.toml: the crate's name and version.

use crate::api::lang::manifest::toml_string;
use crate::api::lang::{Manifest, Versioning};
use crate::api::visibility::Read;

pub(crate) static MANIFESTS: &[Manifest] = &[Manifest {
    file: "Cargo.toml",
    names: |text| {
        toml_string(text, &["package", "name"])
            .into_iter()
            .collect()
    },
    version,
    versioning: Versioning::Semantic,
}];

fn version(text: &str, root: &str, read: Read) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    let package = value.get("package")?;
    match package.get("version")? {
        toml::Value::String(v) => Some(v.clone()),
        // `version.workspace = true`: the workspace root's `[workspace.package]`.
        _ => {
            let dirs: Vec<&str> = root.split('/').filter(|d| !d.is_empty()).collect();
            (0..dirs.len()).rev().find_map(|depth| {
                let up = dirs[..depth].join("/");
                let path = if up.is_empty() {
                    "Cargo.toml".to_string()
                } else {
                    format!("{up}/Cargo.toml")
                };
                let workspace: toml::Table = toml::from_str(&read(&path)?).ok()?;
                workspace
                    .get("workspace")?
                    .get("package")?
                    .get("version")?
                    .as_str()
                    .map(str::to_string)
            })
        }
    }
}
