//! One directory name from text someone else chose (an owner, a branch, a host): the data
//! root's layout and a forge's site name both build paths from it, and neither may escape.

/// Turns user-controlled text into one safe path component: only `[A-Za-z0-9._-]` survive, runs
/// of anything else become one `-`, a leading dot is replaced (so never `.`, `..` or a hidden
/// file), and the length is capped. The result is never empty.
pub(crate) fn sanitize_component(text: &str) -> String {
    const MAX: usize = 48;
    let mut out = String::with_capacity(text.len().min(MAX));
    for c in text.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if keep {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= MAX {
            break;
        }
    }
    let trimmed = out.trim_matches('-');
    let mut out = if trimmed.starts_with('.') {
        format!("_{}", trimmed.trim_start_matches('.'))
    } else {
        trimmed.to_string()
    };
    if out.is_empty() {
        out.push('_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::Path;

    #[test]
    fn sanitize_never_escapes() {
        assert_eq!(sanitize_component(".."), "_");
        assert_eq!(sanitize_component("."), "_");
        assert_eq!(sanitize_component("../../etc"), "_-..-etc");
        assert_eq!(sanitize_component("feature/x"), "feature-x");
        assert_eq!(sanitize_component(""), "_");
        assert_eq!(sanitize_component("v1.2.3"), "v1.2.3");
        assert_eq!(sanitize_component(".hidden"), "_hidden");
    }

    proptest! {
        #[test]
        fn sanitized_is_one_plain_component(text in "\\PC{0,80}") {
            let s = sanitize_component(&text);
            prop_assert!(!s.is_empty());
            prop_assert!(!s.contains('/') && !s.contains('\\'));
            prop_assert!(!s.starts_with('.'));
            prop_assert!(s.len() <= 50);
            let mut parts = Path::new(&s).components();
            prop_assert!(matches!(parts.next(), Some(std::path::Component::Normal(_))));
            prop_assert!(parts.next().is_none());
        }
    }
}
