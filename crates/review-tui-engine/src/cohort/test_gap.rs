//! The testGap axis: cohorts whose code changed without any test changing beside it.
//!
//! Advisory by design: a path-based view cannot see coverage through dependency injection or a
//! factory, and a repository with a full suite looks the same as one with none, so the axis
//! never gates the verdict.

use std::collections::BTreeMap;

use crate::diff::Language;
use crate::review::axes::{Axis, AxisVerdict, TEST_GAP};

use super::changes::ChangedFile;
use super::group::Cohort;
use crate::diff::is_test_path;

const ADVISORY: &str = "advisory, never gates the verdict";

pub(super) fn test_gap(cohorts: &[Cohort], files: &[ChangedFile]) -> Axis {
    let language: BTreeMap<&str, Language> = files
        .iter()
        .map(|f| (f.path.as_str(), f.language))
        .collect();
    let is_code = |path: &str| {
        !matches!(
            language.get(path),
            None | Some(
                Language::Markdown
                    | Language::Yaml
                    | Language::Toml
                    | Language::Json
                    | Language::Dockerfile
                    | Language::Other
            )
        )
    };
    let untested: Vec<&str> = cohorts
        .iter()
        .filter(|cohort| {
            let code_changed = cohort.files.iter().any(|p| is_code(p) && !is_test_path(p));
            let test_changed = cohort.files.iter().any(|p| is_test_path(p));
            code_changed && !test_changed
        })
        .map(|cohort| cohort.label.as_str())
        .collect();
    let (verdict, detail) = if untested.is_empty() {
        (
            AxisVerdict::Pass,
            format!("every cohort with changed code also changed a test ({ADVISORY})"),
        )
    } else {
        (
            AxisVerdict::Warn,
            format!(
                "code changed with no test changed in: {} ({ADVISORY})",
                untested.join(", ")
            ),
        )
    };
    Axis {
        name: TEST_GAP.to_string(),
        verdict,
        gated: false,
        detail,
    }
}
