//! SARIF 2.1.0: importing any linter's or scanner's results as review nodes, and exporting a
//! review's findings for code-scanning dashboards.

mod export;
mod import;
mod model;

pub use export::{PARTIAL_FINGERPRINT_KEY, to_sarif};
pub use import::{
    ImportOptions, SarifError, SarifImport, Skipped, import_sarif, import_sarif_file,
};

#[cfg(test)]
mod tests;
