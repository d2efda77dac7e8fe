//! An error and its causes as one line, each cause said once.
//!
//! Many errors already quote their cause in their own message (`space {path}: {source}`, or
//! hyper's `tcp connect error: Connection refused`) *and* return it from `source()`, so a
//! plain walk down the chain prints it twice (`Permission denied (os error 13): Permission
//! denied (os error 13)`). A cause whose text is already in the line adds nothing and is left
//! out; nothing is lost, because its words are already there.

use std::error::Error;

/// `error`'s message followed by each cause not already said, joined by `": "`.
pub fn chain(error: &(dyn Error + 'static)) -> String {
    let mut out = String::new();
    let mut next = Some(error);
    while let Some(cause) = next {
        push_once(&mut out, &cause.to_string());
        next = cause.source();
    }
    out
}

fn push_once(out: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() || out.contains(text) {
        return;
    }
    if !out.is_empty() {
        out.push_str(": ");
    }
    out.push_str(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("space {path}: {source}")]
    struct Quoting {
        path: &'static str,
        source: std::io::Error,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("could not open the space")]
    struct Silent {
        #[source]
        source: Quoting,
    }

    fn denied() -> std::io::Error {
        std::io::Error::from_raw_os_error(13)
    }

    #[test]
    fn a_quoted_cause_is_said_once() {
        let error = Quoting {
            path: "/data",
            source: denied(),
        };
        let line = chain(&error);
        assert_eq!(line.matches("os error 13").count(), 1, "{line}");
        assert!(line.starts_with("space /data: "), "{line}");
    }

    #[test]
    fn a_cause_not_yet_said_is_appended_in_order() {
        let error = Silent {
            source: Quoting {
                path: "/data",
                source: denied(),
            },
        };
        let line = chain(&error);
        assert!(
            line.starts_with("could not open the space: space /data: "),
            "{line}"
        );
        assert_eq!(line.matches("os error 13").count(), 1, "{line}");
    }

    #[test]
    fn empty_messages_add_no_separator() {
        #[derive(Debug, thiserror::Error)]
        #[error("")]
        struct Empty;
        assert_eq!(chain(&Empty), "");
    }
}
