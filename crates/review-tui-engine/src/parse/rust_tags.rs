//! The Rust tag query (tree-sitter-rust's `tags.scm` and ours, see
//! [`super::grammar::Grammar::query_source`]) matched by one walk over the tree instead of a
//! query cursor.
//!
//! Every pattern of that query is a node, its parent and at most its grandparent, by kind and
//! field (and one by the named sibling before it), so each is decided at the node where its
//! match ends, from a stack of its ancestors. A query cursor over a whole file cost 3.5 times
//! a plain walk of the same tree even with a single one-node pattern (tokio 1.40's 715 files:
//! 0.66 s against 0.18 s), and the head's tags of every changed file were a seventh of a large
//! range's CPU. The matches come in the query cursor's order: by the node where they end (in
//! the walk's order), then by the depth where they start, outermost first, then by the
//! pattern's place in the query. `the_walk_finds_what_the_query_finds` holds the two equal.

use std::sync::OnceLock;

use std::ops::Range;

use tree_sitter::{Language, Node, Tree, TreeCursor};

/// One match of the tag query, as the tag reading takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Found<'t> {
    /// A `@configuration` capture (an attribute or a macro call).
    Configuration(Node<'t>),
    /// A `@definition.KIND` (`definition` true) or `@reference.KIND` capture on `node`, whose
    /// `@name` capture is `name`.
    Tag {
        name: Node<'t>,
        definition: bool,
        kind: &'static str,
        node: Node<'t>,
    },
}

/// The kind and field ids the patterns name, looked up once.
struct Ids {
    identifier: u16,
    type_identifier: u16,
    field_identifier: u16,
    token_tree: u16,
    declaration_list: u16,
    function_item: u16,
    function_signature_item: u16,
    struct_item: u16,
    enum_item: u16,
    union_item: u16,
    type_item: u16,
    trait_item: u16,
    mod_item: u16,
    macro_definition: u16,
    macro_invocation: u16,
    call_expression: u16,
    field_expression: u16,
    scoped_identifier: u16,
    impl_item: u16,
    const_item: u16,
    static_item: u16,
    use_declaration: u16,
    use_list: u16,
    use_as_clause: u16,
    attribute_item: u16,
    inner_attribute_item: u16,
    name: u16,
    function: u16,
    field: u16,
    macro_: u16,
    trait_: u16,
    type_: u16,
    argument: u16,
    path: u16,
}

fn ids() -> &'static Ids {
    static IDS: OnceLock<Ids> = OnceLock::new();
    IDS.get_or_init(|| {
        let language: Language = tree_sitter_rust::LANGUAGE.into();
        let kind = |name: &str| language.id_for_node_kind(name, true);
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |id| id.get());
        Ids {
            identifier: kind("identifier"),
            type_identifier: kind("type_identifier"),
            field_identifier: kind("field_identifier"),
            token_tree: kind("token_tree"),
            declaration_list: kind("declaration_list"),
            function_item: kind("function_item"),
            function_signature_item: kind("function_signature_item"),
            struct_item: kind("struct_item"),
            enum_item: kind("enum_item"),
            union_item: kind("union_item"),
            type_item: kind("type_item"),
            trait_item: kind("trait_item"),
            mod_item: kind("mod_item"),
            macro_definition: kind("macro_definition"),
            macro_invocation: kind("macro_invocation"),
            call_expression: kind("call_expression"),
            field_expression: kind("field_expression"),
            scoped_identifier: kind("scoped_identifier"),
            impl_item: kind("impl_item"),
            const_item: kind("const_item"),
            static_item: kind("static_item"),
            use_declaration: kind("use_declaration"),
            use_list: kind("use_list"),
            use_as_clause: kind("use_as_clause"),
            attribute_item: kind("attribute_item"),
            inner_attribute_item: kind("inner_attribute_item"),
            name: field("name"),
            function: field("function"),
            field: field("field"),
            macro_: field("macro"),
            trait_: field("trait"),
            type_: field("type"),
            argument: field("argument"),
            path: field("path"),
        }
    })
}

/// A node on the walk, as its children's patterns read it.
#[derive(Clone, Copy)]
struct Step<'t> {
    node: Node<'t>,
    kind: u16,
    /// Its field in its parent (0: none).
    field: u16,
    /// The last named child visited so far (for the pattern of a name before a group).
    last_named: Option<Node<'t>>,
}

impl<'t> Step<'t> {
    fn at(cursor: &TreeCursor<'t>) -> Self {
        let node = cursor.node();
        Step {
            node,
            kind: node.kind_id(),
            field: cursor.field_id().map_or(0, |id| id.get()),
            last_named: None,
        }
    }
}

/// Every match of the Rust tag query in `tree`, in the query cursor's order, appended to
/// `out`.
pub(super) fn matches<'t>(tree: &'t Tree, source: &[u8], out: &mut Vec<Found<'t>>) {
    walk(tree, source, |_, _| true, |found, _| out.push(found));
}

/// What a query cursor limited to each of `ranges` in turn finds (byte ranges, as
/// `QueryCursor::set_byte_range` takes them), appended to `out`: for each range, in the
/// query cursor's order, the matches whose pattern's outermost node reaches into it (and
/// whose parent does too, as the cursor asks). One walk for all of them, entering only the
/// nodes that reach into a range, or whose parent does (a pattern spans at most three
/// levels), where a query cursor per range went over the file once each: a changed base's
/// regions were a twentieth of a large Rust range's CPU. `the_ranged_walk_finds_what_the_ranged_query_finds`
/// holds the two equal.
pub(super) fn matches_within<'t>(
    tree: &'t Tree,
    source: &[u8],
    ranges: &[Range<usize>],
    out: &mut Vec<Found<'t>>,
) {
    // The query cursor reads an end of 0 as no end.
    let ranges: Vec<Range<usize>> = ranges
        .iter()
        .map(|r| r.start..if r.end == 0 { usize::MAX } else { r.end })
        .collect();
    let reaches = |node: Node, range: &Range<usize>| {
        let (start, end) = (node.start_byte(), node.end_byte());
        (end > range.start || (start == end && end == range.start)) && start < range.end
    };
    // Ranges in order and apart (as a diff's are) are searched; others are tried in turn.
    let apart = ranges.windows(2).all(|pair| pair[0].end <= pair[1].start);
    let reaches_any = |node: Node| {
        if !apart {
            return ranges.iter().any(|range| reaches(node, range));
        }
        // The first range ending after the node starts is the only one that can reach it.
        let first = ranges.partition_point(|range| range.end <= node.start_byte());
        ranges.get(first).is_some_and(|range| reaches(node, range))
    };
    let mut by_range: Vec<Vec<Found<'t>>> = vec![Vec::new(); ranges.len()];
    walk(
        tree,
        source,
        |here, parent| reaches_any(here.node) || parent.is_some_and(|p| reaches_any(p.node)),
        |found, root: Root<'t>| {
            for (range, found_in) in ranges.iter().zip(by_range.iter_mut()) {
                if reaches(root.node, range) && root.parent.is_none_or(|p| reaches(p, range)) {
                    found_in.push(found);
                }
            }
        },
    );
    out.extend(by_range.into_iter().flatten());
}

/// The outermost node of a match's pattern, and its parent.
#[derive(Clone, Copy)]
struct Root<'t> {
    node: Node<'t>,
    parent: Option<Node<'t>>,
}

/// The walk behind [`matches`]: every match in the query cursor's order to `found`, with the
/// outermost node of its pattern; it enters a node's children when `descend` says so of the
/// node and its parent.
fn walk<'t>(
    tree: &'t Tree,
    source: &[u8],
    mut descend: impl FnMut(&Step<'t>, Option<&Step<'t>>) -> bool,
    mut found: impl FnMut(Found<'t>, Root<'t>),
) {
    let ids = ids();
    let mut cursor = tree.walk();
    // The ancestors of the cursor's node, the root first.
    let mut ancestors: Vec<Step<'t>> = Vec::new();
    loop {
        let here = Step::at(&cursor);
        ending_at(ids, &here, &ancestors, source, &mut found);
        if descend(&here, ancestors.last()) && cursor.goto_first_child() {
            ancestors.push(here);
            continue;
        }
        let mut left = here;
        loop {
            if let Some(parent) = ancestors.last_mut()
                && left.node.is_named()
            {
                parent.last_named = Some(left.node);
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            match ancestors.pop() {
                Some(parent) => left = parent,
                None => return,
            }
        }
    }
}

/// The matches that end at `here`: those starting at its grandparent, then at its parent,
/// then at itself; in the query's order within each.
fn ending_at<'t>(
    ids: &Ids,
    here: &Step<'t>,
    ancestors: &[Step<'t>],
    source: &[u8],
    out: &mut impl FnMut(Found<'t>, Root<'t>),
) {
    // The node `up` levels above `here` (0: itself).
    let above = |up: usize| match up {
        0 => Some(here.node),
        _ => ancestors.len().checked_sub(up).map(|at| ancestors[at].node),
    };
    // A match whose pattern's outermost node is `up` levels above `here`.
    let mut report = |found: Option<Found<'t>>, up: usize| {
        if let (Some(found), Some(node)) = (found, above(up)) {
            out(
                found,
                Root {
                    node,
                    parent: above(up + 1),
                },
            );
        }
    };
    let parent = ancestors.last();
    let grandparent = ancestors.len().checked_sub(2).map(|at| &ancestors[at]);
    let tag = |definition: bool, kind: &'static str, node: Node<'t>| Found::Tag {
        name: here.node,
        definition,
        kind,
        node,
    };
    let (kind, field) = (here.kind, here.field);
    if let (Some(parent), Some(grandparent)) = (parent, grandparent) {
        let (p, g) = (parent.kind, grandparent.kind);
        let found = if kind == ids.identifier
            && field == ids.name
            && p == ids.function_item
            && g == ids.declaration_list
        {
            Some(tag(true, "method", parent.node))
        } else if kind == ids.field_identifier
            && field == ids.field
            && p == ids.field_expression
            && parent.field == ids.function
            && g == ids.call_expression
        {
            Some(tag(false, "call", grandparent.node))
        } else if kind == ids.identifier && field == ids.name && p == ids.scoped_identifier {
            if parent.field == ids.function && g == ids.call_expression {
                Some(tag(false, "call", grandparent.node))
            } else if (parent.field == ids.argument && g == ids.use_declaration)
                || g == ids.use_list
                || (parent.field == ids.path && g == ids.use_as_clause)
            {
                Some(tag(false, "use", grandparent.node))
            } else {
                None
            }
        } else {
            None
        };
        report(found, 2);
    }
    if let Some(parent) = parent {
        let p = parent.kind;
        let found = if kind == ids.type_identifier {
            if field == ids.name
                && [
                    ids.struct_item,
                    ids.enum_item,
                    ids.union_item,
                    ids.type_item,
                ]
                .contains(&p)
            {
                Some(tag(true, "class", parent.node))
            } else if field == ids.name && p == ids.trait_item {
                Some(tag(true, "interface", parent.node))
            } else if p == ids.impl_item
                && (field == ids.trait_
                    || (field == ids.type_ && parent.node.child_by_field_id(ids.trait_).is_none()))
            {
                Some(tag(false, "implementation", parent.node))
            } else {
                None
            }
        } else if kind == ids.identifier {
            if field == ids.name {
                match p {
                    _ if p == ids.function_item => Some(tag(true, "function", parent.node)),
                    _ if p == ids.mod_item => Some(tag(true, "module", parent.node)),
                    _ if p == ids.macro_definition => Some(tag(true, "macro", parent.node)),
                    _ if p == ids.const_item || p == ids.static_item => {
                        Some(tag(true, "constant", parent.node))
                    }
                    _ if p == ids.function_signature_item => Some(tag(true, "method", parent.node)),
                    _ => None,
                }
            } else if (field == ids.function && p == ids.call_expression)
                || (field == ids.macro_ && p == ids.macro_invocation)
            {
                Some(tag(false, "call", parent.node))
            } else if p == ids.use_list {
                Some(tag(false, "use", parent.node))
            } else if field == ids.path
                && p == ids.scoped_identifier
                && source
                    .get(here.node.start_byte())
                    .is_some_and(u8::is_ascii_uppercase)
                && here.node.end_byte() > here.node.start_byte()
            {
                Some(tag(false, "type", parent.node))
            } else {
                None
            }
        } else if kind == ids.token_tree
            && p == ids.token_tree
            && let Some(before) = parent.last_named
            && before.kind_id() == ids.identifier
        {
            Some(Found::Tag {
                name: before,
                definition: false,
                kind: "call",
                node: parent.node,
            })
        } else {
            None
        };
        report(found, 1);
    }
    if kind == ids.type_identifier {
        report(Some(tag(false, "type", here.node)), 0);
    } else if kind == ids.attribute_item
        || kind == ids.inner_attribute_item
        || kind == ids.macro_invocation
    {
        report(Some(Found::Configuration(here.node)), 0);
    }
}
