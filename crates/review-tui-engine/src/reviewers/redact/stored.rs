//! Redaction of what the tool stores and shows. Reviewers quote code: a rule's evidence, a
//! SARIF message, a model's body or fix can hold a credential the secret scan itself did not
//! report (a `curl -u user:pass` quoted by `shell/curl-insecure`). Every finding and every
//! reviewer message therefore passes the same redaction as what is sent to a model, with every
//! detector, at the one point where it enters the board; reports pass it again on the way out.

use serde_json::Value;

use super::redact_text;
use crate::review::events::{EventKind, ReviewEvent};
use crate::review::node::ReviewNode;
use crate::reviewers::deterministic::secrets::SecretScanner;

fn redact_in_place(text: &mut String, scanner: &SecretScanner) {
    let (redacted, count) = redact_text(text, scanner);
    if count > 0 {
        *text = redacted;
    }
}

/// Every free text of a node: its words, reasoning, fix, root cause, rescoring, peer notes and
/// transition reasons, and its anchor's path (a file's name can hold a secret; such an anchor
/// then names no file of the diff, and its finding is published in the body). Ids, rule ids
/// and fingerprints are the engine's own.
pub fn redact_node(node: &mut ReviewNode, scanner: &SecretScanner) {
    if let Some(anchor) = &node.anchor {
        let (path, count) = redact_text(&anchor.path, scanner);
        if count > 0 {
            // A redaction that is no path leaves the finding without a place, never with the
            // secret.
            match crate::repo_path::RepoPath::parse(&path) {
                Ok(path) => node.anchor.as_mut().expect("checked above").path = path,
                Err(_) => node.anchor = None,
            }
        }
    }
    let texts = [
        &mut node.reasoning,
        &mut node.text.title,
        &mut node.text.body,
        &mut node.text.evidence,
        &mut node.text.impact,
        &mut node.text.verification,
    ];
    for text in texts {
        redact_in_place(text, scanner);
    }
    if let Some(fix) = &mut node.fix {
        for line in fix.replacement.iter_mut().flatten() {
            redact_in_place(line, scanner);
        }
        for text in fix.diff.iter_mut().chain(fix.prompt.iter_mut()) {
            redact_in_place(text, scanner);
        }
    }
    if let Some(cause) = &mut node.root_cause {
        redact_in_place(cause, scanner);
    }
    if let Some(scoring) = &mut node.scoring {
        redact_in_place(&mut scoring.reasoning, scanner);
    }
    for stance in node
        .confirmations
        .iter_mut()
        .chain(node.disputes.iter_mut())
    {
        redact_in_place(&mut stance.note, scanner);
    }
    for transition in &mut node.history {
        if let Some(reason) = &mut transition.reason {
            redact_in_place(reason, scanner);
        }
    }
}

/// A reviewer event as the board and a live view may keep it.
pub fn redact_event(event: &mut ReviewEvent, scanner: &SecretScanner) {
    match &mut event.kind {
        // A host name and a number: the reviewer's own endpoint, no text from the change.
        EventKind::Started { .. } | EventKind::Waiting { .. } => {}
        EventKind::NodeAdded { node } => redact_node(node, scanner),
        EventKind::Stance { note, .. } => redact_in_place(note, scanner),
        EventKind::Dropped { reason }
        | EventKind::Failed { reason, .. }
        | EventKind::Retrying { reason, .. } => redact_in_place(reason, scanner),
        EventKind::Progress { note, .. } => redact_in_place(note, scanner),
        EventKind::Done { summary } => redact_in_place(summary, scanner),
        EventKind::Refuted { quote, .. } => redact_in_place(quote, scanner),
        EventKind::Contested { note, .. } => redact_in_place(note, scanner),
        EventKind::Scored { reasoning, .. } => redact_in_place(reasoning, scanner),
        EventKind::Traced { cause, .. } => redact_in_place(cause, scanner),
    }
}

/// Every string in a JSON document (a report, a SARIF log), redacted where it stands: the
/// document stays valid whatever a secret's characters are, which redacting its serialized text
/// could not promise. Keys are redacted too (a map keyed by a quoted line).
pub fn redact_json(value: &mut Value, scanner: &SecretScanner) {
    match value {
        Value::String(text) => redact_in_place(text, scanner),
        Value::Array(items) => items.iter_mut().for_each(|v| redact_json(v, scanner)),
        Value::Object(map) => {
            let redacted_keys = map.keys().any(|k| redact_text(k, scanner).1 > 0);
            if redacted_keys {
                let entries = std::mem::take(map);
                for (key, mut v) in entries {
                    redact_json(&mut v, scanner);
                    map.insert(redact_text(&key, scanner).0, v);
                }
            } else {
                map.values_mut().for_each(|v| redact_json(v, scanner));
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}
