//! SARIF import and export.
