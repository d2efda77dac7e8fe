//! Work spread over every core, each thread taking the next item as soon as it is done.
//!
//! Changed files differ a hundredfold in size, so cutting the list into one equal slice per
//! core left one core parsing alone while the other idled (tokio 1.30..1.40: the last second of
//! the parse on one core).

use std::sync::Mutex;
use std::sync::mpsc;

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
    map_as_produced(items.into_iter(), state, work)
}

/// [`map_on_cores`] over items that `produce` makes one by one on this thread (which may
/// hold what is not shared across threads, such as a git2 repository): each item goes to the
/// next free core as soon as it is made, so the cores work while the rest are still being
/// made. Made all first, the cores idled through the making (tokio 1.30..1.40: the changed
/// files' scopes are decided one by one before their parse, and the parse waited for all of
/// them with one core busy). The results come in the items' order.
pub(super) fn map_as_produced<T, S, R>(
    produce: impl ExactSizeIterator<Item = T>,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, T) -> R + Sync,
) -> Vec<R>
where
    T: Send,
    R: Send,
{
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(produce.len());
    if workers <= 1 {
        let mut state = state();
        return produce.map(|item| work(&mut state, item)).collect();
    }
    let (send, receive) = mpsc::channel::<(usize, T)>();
    let receive = Mutex::new(receive);
    let (state, work, receive) = (&state, &work, &receive);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(move || {
                    let mut own = state();
                    let mut out = Vec::new();
                    loop {
                        // The lock is held only while waiting for the next item.
                        let next = receive.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok((at, item)) = next else { break };
                        out.push((at, work(&mut own, item)));
                    }
                    out
                })
            })
            .collect();
        for item in produce.enumerate() {
            // The receiver lives until the scope ends: a send cannot fail before then.
            let _ = send.send(item);
        }
        // Every item is sent: the workers stop once the channel is empty.
        drop(send);
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
    use std::sync::atomic::{AtomicUsize, Ordering};

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

    /// The cores start on the first items while the later ones are still being made: each
    /// item after the first is made only once the one before it was worked on (a core took
    /// it without waiting for the rest), and all come back in order.
    #[test]
    fn cores_work_while_the_items_are_still_made() {
        use std::sync::{Condvar, Mutex};
        use std::time::Duration;
        if std::thread::available_parallelism().map_or(1, usize::from) < 2 {
            return;
        }
        let worked = (Mutex::new(0usize), Condvar::new());
        let waited_in_vain = AtomicUsize::new(0);
        let made = (0..6usize).inspect(|&n| {
            if n > 0 {
                let (count, changed) = &worked;
                let guard = count.lock().unwrap();
                let (guard, timeout) = changed
                    .wait_timeout_while(guard, Duration::from_secs(5), |done| *done < n)
                    .unwrap();
                drop(guard);
                if timeout.timed_out() {
                    waited_in_vain.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        let out = map_as_produced(
            made,
            || (),
            |(), n| {
                let (count, changed) = &worked;
                *count.lock().unwrap() += 1;
                changed.notify_all();
                n * 2
            },
        );
        assert_eq!(out, vec![0, 2, 4, 6, 8, 10]);
        assert_eq!(waited_in_vain.load(Ordering::Relaxed), 0);
    }
}
