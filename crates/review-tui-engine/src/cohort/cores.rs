//! Work spread over every core, each thread taking the next item as soon as it is done.
//!
//! Changed files differ a hundredfold in size, so cutting the list into one equal slice per
//! core left one core parsing alone while the other idled (tokio 1.30..1.40: the last second of
//! the parse on one core).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `work` applied to every item on every core, each thread with its own `state` (a parser, a
/// repository handle); the results in the items' order.
pub(super) fn map_on_cores<T, S, R>(
    items: Vec<T>,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, T) -> R + Sync,
) -> Vec<R>
where
    T: Send,
    R: Send,
{
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(items.len());
    if workers <= 1 {
        let mut state = state();
        return items
            .into_iter()
            .map(|item| work(&mut state, item))
            .collect();
    }
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|i| Mutex::new(Some(i))).collect();
    let next = AtomicUsize::new(0);
    let (state, work, slots, next) = (&state, &work, &slots, &next);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(move || {
                    let mut own = state();
                    let mut out = Vec::new();
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed);
                        let Some(slot) = slots.get(at) else { break };
                        // Each index is taken by one thread only: the slot is always full.
                        let taken = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                        if let Some(item) = taken {
                            out.push((at, work(&mut own, item)));
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_unstable_by_key(|(at, _)| *at);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once_in_order() {
        let items: Vec<usize> = (0..1000).collect();
        let out = map_on_cores(
            items,
            || 0usize,
            |seen, n| {
                *seen += 1;
                n * 2
            },
        );
        assert_eq!(out, (0..1000).map(|n| n * 2).collect::<Vec<_>>());
        assert!(map_on_cores(Vec::<u8>::new(), || (), |_, n| n).is_empty());
    }
}
