//! What a 422 from GitHub is about. Its `message` is only "Unprocessable Entity" or
//! "Validation Failed"; the reason is in `errors`, and each reason calls for something different:
//! a refused anchor is resent with the finding in the body, a refused APPROVE is posted as a
//! comment, a pending review or an oversized body is reported, never resent as is.
//!
//! Pure: the error texts in, one kind out.

/// Why GitHub refused a review (or an edit of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// An inline comment's line, range, path or position is not on GitHub's diff.
    Anchor,
    /// "GitHub Actions is not permitted to approve pull requests.": the repository does not let
    /// Actions' token approve (the default for new repositories).
    ActionsMayNotApprove,
    /// "Can not approve your own pull request" / "Can not request changes on your own pull
    /// request".
    OwnPullRequest,
    /// "User can only have one pending review per pull request": the account holds an
    /// unsubmitted review on the pull request.
    PendingReview,
    /// "body is too long (maximum is 65536 characters)".
    BodyTooLong,
    /// "commit_id is not part of the pull request" (a force-push removed the reviewed head) or
    /// "No commit found for SHA".
    CommitNotInPullRequest,
    /// Anything else: reported with GitHub's words, nothing resent.
    Other,
}

/// The kind of a 422 from its `errors` (and message, when `errors` is empty). Anchor only when
/// every error is about anchors: a refusal that is also about something else is that other
/// thing, since resending without inline comments would not cure it.
pub fn classify(message: &str, errors: &[String]) -> Refusal {
    let texts: Vec<String> = if errors.is_empty() {
        vec![message.to_ascii_lowercase()]
    } else {
        errors.iter().map(|e| e.to_ascii_lowercase()).collect()
    };
    let kinds: Vec<Refusal> = texts.iter().map(|t| kind_of(t)).collect();
    const PRIORITY: [Refusal; 5] = [
        Refusal::CommitNotInPullRequest,
        Refusal::PendingReview,
        Refusal::BodyTooLong,
        Refusal::ActionsMayNotApprove,
        Refusal::OwnPullRequest,
    ];
    if let Some(kind) = PRIORITY.into_iter().find(|k| kinds.contains(k)) {
        return kind;
    }
    if !kinds.is_empty() && kinds.iter().all(|k| *k == Refusal::Anchor) {
        Refusal::Anchor
    } else {
        Refusal::Other
    }
}

fn kind_of(text: &str) -> Refusal {
    let has = |needle: &str| text.contains(needle);
    if has("commit_id") || has("no commit found") {
        Refusal::CommitNotInPullRequest
    } else if has("pending review") {
        Refusal::PendingReview
    } else if has("too long") || has("maximum is") {
        Refusal::BodyTooLong
    } else if has("actions is not permitted") {
        Refusal::ActionsMayNotApprove
    } else if has("your own pull request") {
        Refusal::OwnPullRequest
    } else if has("review thread")
        || has("part of the diff")
        || has("path is invalid")
        || has("diff hunk")
        || has("start line")
        || has("position")
        || has("line must")
    {
        Refusal::Anchor
    } else {
        Refusal::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(errors: &[&str]) -> Refusal {
        let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        classify("Unprocessable Entity", &errors)
    }

    #[test]
    fn githubs_real_texts_map_to_their_kind() {
        let cases = [
            (
                "Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank",
                Refusal::Anchor,
            ),
            (
                "Pull request review thread path is invalid and Pull request review thread diff hunk can't be blank",
                Refusal::Anchor,
            ),
            (
                "Pull request review thread start line must precede the end line.",
                Refusal::Anchor,
            ),
            (
                "GitHub Actions is not permitted to approve pull requests.",
                Refusal::ActionsMayNotApprove,
            ),
            (
                "Can not approve your own pull request",
                Refusal::OwnPullRequest,
            ),
            (
                "Can not request changes on your own pull request",
                Refusal::OwnPullRequest,
            ),
            (
                "User can only have one pending review per pull request",
                Refusal::PendingReview,
            ),
            (
                "body is too long (maximum is 65536 characters)",
                Refusal::BodyTooLong,
            ),
            (
                "commit_id is not part of the pull request",
                Refusal::CommitNotInPullRequest,
            ),
            (
                "Review cannot be requested from pull request author.",
                Refusal::Other,
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(of(&[text]), kind, "{text}");
        }
    }

    #[test]
    fn an_anchor_refusal_mixed_with_another_is_the_other() {
        assert_eq!(
            of(&[
                "Pull request review thread line must be part of the diff",
                "body is too long (maximum is 65536 characters)"
            ]),
            Refusal::BodyTooLong
        );
        assert_eq!(
            of(&[
                "Pull request review thread line must be part of the diff",
                "something new"
            ]),
            Refusal::Other
        );
        assert_eq!(classify("Unprocessable Entity", &[]), Refusal::Other);
    }
}
