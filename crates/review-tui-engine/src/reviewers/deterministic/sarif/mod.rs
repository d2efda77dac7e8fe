//! SARIF 2.1.0: importing any linter's or scanner's results as review nodes. (The export of a
//! review's findings for code-scanning dashboards is a report format: `report::sarif`.)

mod import;
mod model;

pub use import::{
    ImportOptions, SarifError, SarifImport, Skipped, import_sarif, import_sarif_file,
};

#[cfg(test)]
mod tests;
