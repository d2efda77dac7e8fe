//! Dockerfile base images on `:latest` or no tag: builds stop being reproducible and a
//! compromised or breaking upstream push lands silently.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::Hit;
use crate::diff::{FileDiff, FileStatus, LineKind, Side};

static FROM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?\s*$").expect("valid regex")
});

pub(super) fn unpinned_base_images(file: &FileDiff) -> Vec<Hit> {
    let new_side: Vec<_> = file
        .hunks
        .iter()
        .flat_map(|hunk| hunk.lines.iter())
        .filter(|line| line.kind != LineKind::Removed)
        .collect();
    let stages: BTreeSet<String> = new_side
        .iter()
        .filter_map(|line| FROM.captures(&line.text)?.get(2))
        .map(|m| m.as_str().to_ascii_lowercase())
        .collect();
    // A new file shows all of itself, so an untagged name that is not one of its stages is an
    // image; in a modified file the stage might be defined outside the hunks.
    let whole_file = file.status == FileStatus::Added;
    new_side
        .iter()
        .filter(|line| line.kind == LineKind::Added)
        .filter_map(|line| {
            let image = FROM.captures(&line.text)?.get(1)?.as_str();
            let problem = problem(image, &stages, whole_file)?;
            Some(Hit {
                line: Some((Side::Right, line.new_line?)),
                code: line.text.clone(),
                detail: problem,
            })
        })
        .collect()
}

fn problem(image: &str, stages: &BTreeSet<String>, whole_file: bool) -> Option<String> {
    let lower = image.to_ascii_lowercase();
    if lower == "scratch" || image.contains('$') || image.contains('@') || stages.contains(&lower) {
        return None;
    }
    let name_end = image.rfind('/').map_or(0, |slash| slash + 1);
    match image[name_end..].split_once(':') {
        Some((_, "latest")) => Some(format!("`{image}` follows the moving `latest` tag")),
        Some(_) => None,
        None if image.contains('/') || whole_file => {
            Some(format!("`{image}` has no tag, so it means `latest`"))
        }
        None => None,
    }
}
