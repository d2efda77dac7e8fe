//! Answers that are a function of a text alone, kept with the whole text on the thread that
//! read it, so that the same text read again (a crate's manifest above every changed file, a
//! macro body at both sides of a file) is not read twice.
//!
//! Bounded in count and in bytes: a long-running session reviews many repositories on one
//! thread. Past either bound everything kept is dropped and reading starts over; a text
//! larger than all that may be kept is read each time.

use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

/// The answers kept on one thread, by the text they were read from.
pub(crate) struct Remembered<V> {
    known: HashMap<Box<str>, V>,
    bytes: usize,
    most: usize,
    most_bytes: usize,
}

impl<V> Remembered<V> {
    /// Keeps up to `most` answers whose texts add up to at most `most_bytes`.
    pub(crate) fn new(most: usize, most_bytes: usize) -> Remembered<V> {
        Remembered {
            known: HashMap::new(),
            bytes: 0,
            most,
            most_bytes,
        }
    }

    /// How many answers are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.known.len()
    }

    fn keep(&mut self, text: &str, answer: V) {
        if self.known.len() >= self.most || self.bytes + text.len() > self.most_bytes {
            self.known.clear();
            self.bytes = 0;
        }
        if text.len() <= self.most_bytes {
            self.bytes += text.len();
            self.known.insert(text.into(), answer);
        }
    }
}

/// The answer for `text` kept in `memo` on this thread, else `read(text)`, then kept. `read`
/// may itself ask `memo`: nothing is borrowed while it runs.
pub(crate) fn remembered<V: Clone + 'static>(
    memo: &'static LocalKey<RefCell<Remembered<V>>>,
    text: &str,
    read: impl FnOnce(&str) -> V,
) -> V {
    if let Some(known) = memo.with_borrow(|memo| memo.known.get(text).cloned()) {
        return known;
    }
    let answer = read(text);
    memo.with_borrow_mut(|memo| memo.keep(text, answer.clone()));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static LENGTHS: RefCell<Remembered<usize>> = RefCell::new(Remembered::new(4, 64));
    }

    /// A text asked about again is read once on a thread and gives the same answer; another
    /// text is read on its own.
    #[test]
    fn a_text_asked_about_again_is_read_once() {
        let reads = Cell::new(0);
        let length = |text: &str| {
            reads.set(reads.get() + 1);
            text.len()
        };
        for _ in 0..10 {
            assert_eq!(remembered(&LENGTHS, "crate", length), 5);
        }
        assert_eq!(reads.get(), 1);
        assert_eq!(remembered(&LENGTHS, "module", length), 6);
        assert_eq!(reads.get(), 2);
    }

    /// What a thread keeps stays within its bounds however many texts it reads, and a text
    /// larger than them all is read each time.
    #[test]
    fn what_is_kept_is_bounded_in_count_and_bytes() {
        for n in 0..20 {
            remembered(&LENGTHS, &format!("text {n}"), str::len);
            assert!(LENGTHS.with_borrow(|memo| memo.len() <= 4 && memo.bytes <= 64));
        }
        let huge = "x".repeat(65);
        let reads = Cell::new(0);
        for _ in 0..2 {
            let answer = remembered(&LENGTHS, &huge, |text| {
                reads.set(reads.get() + 1);
                text.len()
            });
            assert_eq!(answer, 65);
        }
        assert_eq!(reads.get(), 2);
    }
}
