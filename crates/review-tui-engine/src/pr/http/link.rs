//! The `Link` response header (RFC 8288), which is how GitHub says there is another page.

/// The target of the `rel="next"` link, if any.
pub(crate) fn next_page(header: &str) -> Option<&str> {
    links(header)
        .find(|(_, rels)| {
            rels.split_ascii_whitespace()
                .any(|r| r.eq_ignore_ascii_case("next"))
        })
        .map(|(target, _)| target)
}

/// Yields `(target, rel)` for each link. The target is read between `<` and `>` rather than by
/// splitting on commas, because a URL may itself contain a comma.
fn links(header: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = header;
    std::iter::from_fn(move || {
        loop {
            let open = rest.find('<')?;
            let close = open + rest[open..].find('>')?;
            let target = &rest[open + 1..close];
            let after = &rest[close + 1..];
            // Parameters run until the next link starts.
            let params_end = after.find('<').unwrap_or(after.len());
            let params = &after[..params_end];
            rest = &after[params_end..];
            if let Some(rel) = rel_param(params) {
                return Some((target, rel));
            }
        }
    })
}

fn rel_param(params: &str) -> Option<&str> {
    params.split(';').find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("rel") {
            return None;
        }
        Some(value.trim().trim_end_matches(',').trim().trim_matches('"'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_next_among_github_links() {
        let header = r#"<https://api.github.com/repositories/1/pulls/2/comments?per_page=100&page=2>; rel="next", <https://api.github.com/repositories/1/pulls/2/comments?per_page=100&page=3>; rel="last""#;
        assert_eq!(
            next_page(header),
            Some("https://api.github.com/repositories/1/pulls/2/comments?per_page=100&page=2")
        );
    }

    #[test]
    fn last_page_has_no_next() {
        let header = r#"<https://x/a?page=1>; rel="first", <https://x/a?page=2>; rel="prev""#;
        assert_eq!(next_page(header), None);
        assert_eq!(next_page(""), None);
    }

    #[test]
    fn next_need_not_come_first_and_may_share_a_rel_list() {
        let header =
            r#"<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; title="t"; rel="next last""#;
        assert_eq!(next_page(header), Some("https://x/a?page=3"));
    }

    #[test]
    fn commas_inside_the_target_do_not_split_links() {
        let header = r#"<https://x/a?q=a,b&page=2>; rel=next"#;
        assert_eq!(next_page(header), Some("https://x/a?q=a,b&page=2"));
    }

    #[test]
    fn malformed_headers_yield_nothing() {
        assert_eq!(next_page("<https://x/a?page=2"), None);
        assert_eq!(next_page("https://x/a; rel=\"next\""), None);
        assert_eq!(next_page("<https://x/a>; title=\"next\""), None);
    }
}
