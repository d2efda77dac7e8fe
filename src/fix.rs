//! The gate's "fix": the exact replacement lines of chosen findings, written as a patch file in
//! the review space. Nothing touches the worktree; a person applies the patch (`git apply`).

use std::collections::BTreeMap;

use crate::diff::Side;
use crate::prepare::Prepared;
use crate::review::node::ReviewNode;

/// Writes the patch for `node_ids` (every blocking finding when empty) and says where, or why
/// no patch was written.
pub fn write_patch(prepared: &Prepared, node_ids: &[String]) -> Result<String, String> {
    let state = prepared.space.state();
    let chosen: Vec<&ReviewNode> = if node_ids.is_empty() {
        state
            .nodes
            .iter()
            .filter(|n| n.status.is_active() && n.priority <= crate::review::node::Priority::P1)
            .collect()
    } else {
        state
            .nodes
            .iter()
            .filter(|n| node_ids.contains(&n.id))
            .collect()
    };
    let mut by_file: BTreeMap<&str, Vec<(&ReviewNode, &[String])>> = BTreeMap::new();
    let mut prompts_only = 0;
    for node in &chosen {
        let replacement = node.fix.as_ref().and_then(|f| f.replacement.as_deref());
        match (&node.anchor, replacement) {
            (Some(anchor), Some(lines)) if anchor.side == Side::Right => {
                by_file.entry(&anchor.path).or_default().push((node, lines));
            }
            _ if node.fix.as_ref().is_some_and(|f| f.prompt.is_some()) => prompts_only += 1,
            _ => {}
        }
    }
    if by_file.is_empty() {
        return Err(format!(
            "none of the {} chosen findings carries exact replacement lines{}",
            chosen.len(),
            if prompts_only > 0 {
                format!(" ({prompts_only} have a fix prompt for a fix command)")
            } else {
                String::new()
            }
        ));
    }
    let mut patch = String::new();
    let mut fixed = 0;
    for (path, mut fixes) in by_file {
        if path.split('/').any(|part| part == "..") {
            continue;
        }
        let file = prepared.space.worktree().join(path);
        let old = std::fs::read_to_string(&file)
            .map_err(|e| format!("reading {path} in the worktree: {e}"))?;
        let mut lines: Vec<String> = old.lines().map(str::to_string).collect();
        // Bottom up, so earlier line numbers stay valid; overlapping fixes keep the first.
        fixes.sort_by_key(|(node, _)| {
            std::cmp::Reverse(node.anchor.as_ref().map_or(0, |a| a.start_line))
        });
        let mut lowest_start = u32::MAX;
        for (node, replacement) in fixes {
            let anchor = node.anchor.as_ref().expect("grouped by anchor");
            if anchor.end_line >= lowest_start || anchor.end_line as usize > lines.len() {
                continue;
            }
            let start = anchor.start_line as usize - 1;
            lines.splice(start..anchor.end_line as usize, replacement.iter().cloned());
            lowest_start = anchor.start_line;
            fixed += 1;
        }
        let mut new = lines.join("\n");
        if old.ends_with('\n') {
            new.push('\n');
        }
        let text = git2::Patch::from_buffers(
            old.as_bytes(),
            Some(std::path::Path::new(path)),
            new.as_bytes(),
            Some(std::path::Path::new(path)),
            None,
        )
        .and_then(|mut p| p.to_buf())
        .map_err(|e| format!("making the patch for {path}: {e}"))?;
        patch.push_str(&format!(
            "diff --git a/{path} b/{path}\n{}",
            String::from_utf8_lossy(&text)
        ));
    }
    let round = state.current_round().map_or(0, |r| r.number);
    let target = prepared
        .space
        .path()
        .join("fixes")
        .join(format!("round-{round}.patch"));
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    crate::space::write_atomically(&target, patch.as_bytes())
        .map_err(|e| format!("writing {}: {e}", target.display()))?;
    Ok(format!(
        "patch for {fixed} finding(s) written to {} — apply it with `git apply`",
        target.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::reference::PrRef;
    use crate::prepare::{PrepareOptions, prepare};
    use crate::review::node::Fix;

    #[tokio::test]
    async fn replacement_lines_become_a_patch_that_applies() {
        let dir = tempfile::tempdir().unwrap();
        let demo = crate::demo::build(&dir.path().join("repo")).unwrap();
        let reference = crate::pr::reference::parse(&demo.reference(), None, None).unwrap();
        assert!(matches!(reference, PrRef::Local { .. }));
        let options = PrepareOptions {
            data_dir: Some(dir.path().join("data")),
            ..PrepareOptions::default()
        };
        let mut prepared = prepare(reference, &options).await.unwrap();
        // A finding on the stale bearer in get_with_retry, with its exact fix.
        let worktree = prepared.space.worktree().to_path_buf();
        let client = std::fs::read_to_string(worktree.join("src/client.rs")).unwrap();
        let line = client
            .lines()
            .position(|l| l.contains("response = self.transport.get(url, &bearer);"))
            .unwrap() as u32
            + 1;
        let mut node =
            crate::review::tests::node("n1", "engineer", crate::review::node::Priority::P1, 0.9);
        node.anchor = Some(crate::review::node::Anchor {
            path: "src/client.rs".into(),
            side: Side::Right,
            start_line: line,
            end_line: line,
        });
        node.fix = Some(Fix {
            replacement: Some(vec![
                "            response = self.transport.get(url, &self.token.value);".into(),
            ]),
            diff: None,
            prompt: None,
        });
        prepared
            .space
            .update(|state| -> Result<(), crate::space::StoreError> {
                state.nodes.push(node);
                Ok(())
            })
            .unwrap();
        let message = write_patch(&prepared, &["n1".to_string()]).unwrap();
        assert!(message.contains("1 finding"), "{message}");
        let patch = prepared.space.path().join("fixes/round-1.patch");
        let text = std::fs::read_to_string(&patch).unwrap();
        assert!(
            text.contains("+            response = self.transport.get(url, &self.token.value);"),
            "{text}"
        );
        let check = std::process::Command::new("git")
            .args(["apply", "--check"])
            .arg(&patch)
            .current_dir(&worktree)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}\n{text}",
            String::from_utf8_lossy(&check.stderr)
        );
        // Nothing with replacement lines chosen: a clear refusal.
        assert!(write_patch(&prepared, &["nope".to_string()]).is_err());
    }
}
