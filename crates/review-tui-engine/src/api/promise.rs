//! Whether a module's own documentation withdraws it from the compatibility promise: one
//! notion for every language that reads a module's documentation (a Python module's
//! docstring, a Rust module's `//!` or outer `///` docs). Below the languages, which each
//! find the text; what the text says is decided here.

use crate::remembered::{Remembered, remembered};

/// Whether a module's documentation says it is outside the compatibility promise:
/// "This module is provisional. Types may be modified, added, and removed between minor
/// releases.", "not part of the public API", "experimental: these functions may change
/// without notice", "does not follow the same stability guarantees as the rest of the crate".
/// Callers read it at each side, so a module that says so only at the head still had its
/// base promise.
pub(crate) fn declares_no_promise(doc: &str) -> bool {
    static NO_PROMISE: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?ix)
            \b(this|the)\s+(module|package|api|interface)\b[^.]{0,40}?\b(is|are)\s+(considered\s+)?
                (provisional|experimental|unstable|internal|private)\b
            | \bnot\s+(a\s+)?part\s+of\s+(the\s+|our\s+|its\s+)?(public|stable|supported)\s+api\b
            | \b(module|package|apis?|interfaces?|functions?|classes|types|names|signatures|features?)\b
                [^.]{0,30}?\b(may|can|might|will|could)\s+(change|be\s+changed|be\s+modified|be\s+removed|break)\b
                [^.]{0,60}?\b(without\s+(notice|warning|deprecation)|between\s+(minor\s+|patch\s+)?
                (releases|versions)|in\s+any\s+release|at\s+any\s+time)\b
            | \b(this|the)\s+(module|package|api|interface)\b[^.]{0,60}?
                \b(does\s+not|doesn't|do\s+not|don't)\s+follow\s+(the\s+)?(same\s+|usual\s+)?
                (semver|semantic\s+versioning|stability|compatibility)\s+(guarantees?|promises?|rules)\b
            | \b(this|the)\s+(module|package|api|interface)\b[^.]{0,40}?\b(is|are)\s+
                (not\s+(subject\s+to|covered\s+by|bound\s+by)|exempt\s+from)\s+(the\s+|any\s+|our\s+|its\s+)?
                (semver|semantic\s+versioning|stability\s+guarantees?|compatibility\s+guarantees?)\b",
        )
        .ok()
    });
    if doc.trim().is_empty() {
        return false;
    }
    // The same docs are asked about again and again: a crate root's and each module's above
    // a changed file, once per changed file and side (tokio 1.30..1.40: 6 % of a cold
    // review's CPU went to reading the same few texts). The answer is a function of the text
    // alone, so it is kept with the whole text, and a text is read once per thread.
    remembered(&KNOWN, doc, |doc| {
        let text: String = doc.split_whitespace().collect::<Vec<_>>().join(" ");
        #[cfg(test)]
        tests::READS.with(|reads| reads.set(reads.get() + 1));
        NO_PROMISE.as_ref().is_some_and(|re| re.is_match(&text))
    })
}

/// How many docs [`declares_no_promise`] remembers on a thread, and how many bytes of them.
const REMEMBERED: usize = 1024;
const REMEMBERED_BYTES: usize = 4 * 1024 * 1024;

thread_local! {
    /// The docs [`declares_no_promise`] read on this thread, with its answer.
    static KNOWN: std::cell::RefCell<Remembered<bool>> =
        std::cell::RefCell::new(Remembered::new(REMEMBERED, REMEMBERED_BYTES));
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// How many docs this thread read with the pattern (not from what it remembers).
        pub(super) static READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A doc asked about again (a crate root's, above every changed file) is read once on a
    /// thread, and gives the same answer; another doc is read on its own.
    #[test]
    fn a_doc_asked_about_again_is_read_once() {
        let withdrawn = "Helpers for the macros.\n\nNot part of the public API.";
        let reads = || READS.with(std::cell::Cell::get);
        let before = reads();
        for _ in 0..50 {
            assert!(declares_no_promise(withdrawn));
        }
        assert_eq!(reads() - before, 1);
        assert!(!declares_no_promise("Stable helpers, covered by semver."));
        assert_eq!(reads() - before, 2);
        // Whitespace alone says nothing, and is not remembered.
        assert!(!declares_no_promise("  \n\t"));
        assert_eq!(reads() - before, 2);
    }

    /// What a thread remembers stays bounded however many docs it reads.
    #[test]
    fn the_docs_remembered_are_bounded() {
        for n in 0..REMEMBERED + 10 {
            assert!(!declares_no_promise(&format!("Module number {n}.")));
        }
        assert!(KNOWN.with_borrow(Remembered::len) <= REMEMBERED);
        // A doc larger than all that is remembered is read each time, and frees the rest.
        let huge = format!("{} Not part of the public API.", "Words. ".repeat(700_000));
        let reads = || READS.with(std::cell::Cell::get);
        let before = reads();
        assert!(declares_no_promise(&huge));
        assert!(declares_no_promise(&huge));
        assert_eq!(reads() - before, 2);
        assert_eq!(KNOWN.with_borrow(Remembered::len), 0);
    }

    #[test]
    fn a_module_doc_that_withdraws_the_promise_says_so_in_words() {
        for withdrawn in [
            "This module is provisional. Types may be modified, added, and removed between \
             minor releases.",
            "Helpers. Not part of the public API.",
            "Experimental: these functions may change without notice.",
            "The interface is considered unstable.",
            "Exposes some library internals.\n\nThis module does not follow the same \
             stability guarantees as the rest of the crate and is not guaranteed to be \
             compatible between minor versions.",
            "Raw bindings. This module is not covered by semver.",
        ] {
            assert!(declares_no_promise(withdrawn), "{withdrawn}");
        }
        for promised in [
            "Support for the experimental HTTP/3 protocol.",
            "Values that may change between calls are cached without notice.",
            "Stable helpers, covered by the crate's semver guarantees.",
            "The order of iteration is unspecified and may differ.",
            "Parsing follows the same rules as the standard library.",
            // What the words say of some items only, not of the module.
            "Use the feature flag to use them. They are not covered by semantic versioning \
             guarantees until stabilized.",
            "This reminds you that you are outside of the normal semver guarantees. Semver \
             exempt methods are marked as such.",
        ] {
            assert!(!declares_no_promise(promised), "{promised}");
        }
    }
}
