//! The two graph algorithms cohorts need: connected components (union-find) and a reading
//! order (definitions before uses).

use std::collections::{BTreeMap, BTreeSet};

/// Disjoint sets over `0..n`, with path halving and union by size.
pub(super) struct UnionFind {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl UnionFind {
    pub(super) fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    pub(super) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    pub(super) fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }

    /// How many members the set holding `x` has.
    pub(super) fn size_of(&mut self, x: usize) -> usize {
        let root = self.find(x);
        self.size[root]
    }

    /// The members of each set, each sorted, sets ordered by their smallest member.
    pub(super) fn components(&mut self) -> Vec<Vec<usize>> {
        let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for x in 0..self.parent.len() {
            let root = self.find(x);
            by_root.entry(root).or_default().push(x);
        }
        let mut components: Vec<Vec<usize>> = by_root.into_values().collect();
        components.sort_by_key(|c| c[0]);
        components
    }
}

/// A topological order of `paths` where `before[a]` lists the paths that must come before `a`.
/// Among the paths that are ready, the smallest comes first; when a cycle leaves none ready,
/// the smallest remaining path is taken, which breaks the cycle the same way every time.
pub(super) fn reading_order(
    paths: &BTreeSet<String>,
    before: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let mut waiting: BTreeMap<&str, BTreeSet<&str>> = paths
        .iter()
        .map(|p| {
            let deps = before
                .get(p)
                .into_iter()
                .flatten()
                .filter(|d| *d != p && paths.contains(*d))
                .map(String::as_str)
                .collect();
            (p.as_str(), deps)
        })
        .collect();
    let mut order = Vec::with_capacity(paths.len());
    while !waiting.is_empty() {
        let next = waiting
            .iter()
            .find(|(_, deps)| deps.is_empty())
            .or_else(|| waiting.iter().next())
            .map(|(path, _)| *path);
        let Some(next) = next else { break };
        waiting.remove(next);
        for deps in waiting.values_mut() {
            deps.remove(next);
        }
        order.push(next.to_string());
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn components_are_the_connected_sets() {
        let mut uf = UnionFind::new(6);
        uf.union(0, 3);
        uf.union(4, 3);
        uf.union(1, 5);
        assert_eq!(uf.components(), vec![vec![0, 3, 4], vec![1, 5], vec![2]]);
    }

    #[test]
    fn definitions_come_first_and_cycles_break_by_path() {
        let paths = set(&["a.rs", "b.rs", "c.rs", "d.rs"]);
        let mut before = BTreeMap::new();
        // a uses b, b uses c: c, b, a; d stands alone and sorts among the ready ones.
        before.insert("a.rs".to_string(), set(&["b.rs"]));
        before.insert("b.rs".to_string(), set(&["c.rs"]));
        assert_eq!(
            reading_order(&paths, &before),
            vec!["c.rs", "b.rs", "a.rs", "d.rs"]
        );
        let mut cycle = BTreeMap::new();
        cycle.insert("x.rs".to_string(), set(&["y.rs"]));
        cycle.insert("y.rs".to_string(), set(&["x.rs"]));
        assert_eq!(
            reading_order(&set(&["x.rs", "y.rs"]), &cycle),
            vec!["x.rs", "y.rs"]
        );
    }
}
