//! Shannon entropy, the measure gitleaks uses to tell a random token from a word.

use std::collections::HashMap;

/// Bits per character of `s`, over its characters (a random base64 string is near 6, English
/// words near 3, `aaaa` is 0).
pub fn shannon(s: &str) -> f64 {
    let mut counts: HashMap<char, usize> = HashMap::new();
    let mut total = 0usize;
    for c in s.chars() {
        *counts.entry(c).or_default() += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    let total = total as f64;
    counts
        .values()
        .map(|&n| {
            let p = n as f64 / total;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::shannon;

    #[test]
    fn known_values() {
        assert_eq!(shannon(""), 0.0);
        assert_eq!(shannon("aaaa"), 0.0);
        assert!((shannon("ab") - 1.0).abs() < 1e-9);
        assert!((shannon("abcdefgh") - 3.0).abs() < 1e-9);
    }
}
