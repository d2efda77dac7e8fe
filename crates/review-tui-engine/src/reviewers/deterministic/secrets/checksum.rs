//! Whether a token of a format that carries its own checksum could have been issued.
//!
//! GitHub's tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`) and npm's (`npm_`) are a prefix, 30
//! random characters and six more that write the CRC-32 of those 30 in base 62: every token
//! the service issues passes, so a value that fails was never issued and opens nothing.
//! Tests and documentation write such values by hand by the dozen (a table of the token
//! shapes a client must accept); a real token pasted anywhere always passes. The check can
//! only drop values no service accepts, never a credential.

/// The prefixes of the checksummed formats.
const PREFIXES: [&str; 6] = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_"];

/// The random part's length; the checksum's follows.
const RANDOM: usize = 30;
const CHECKSUM: usize = 6;

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Whether `secret` has the shape of a checksummed token (a known prefix and exactly 36
/// alphanumeric characters after it) and its checksum does not hold. Any other shape (an
/// older format, a longer token) is not judged here.
pub(super) fn fails_its_checksum(secret: &str) -> bool {
    let Some(body) = PREFIXES.iter().find_map(|p| secret.strip_prefix(p)) else {
        return false;
    };
    if body.len() != RANDOM + CHECKSUM || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let (random, written) = body.split_at(RANDOM);
    let Some(written) = base62(written) else {
        return false;
    };
    u64::from(crc32fast::hash(random.as_bytes())) != written
}

fn base62(digits: &str) -> Option<u64> {
    digits.bytes().try_fold(0u64, |n, b| {
        let digit = BASE62.iter().position(|&c| c == b)?;
        Some(n * 62 + digit as u64)
    })
}

/// The six checksum characters of a 30-character random part: what a test needs to write
/// a token the scan must take for issued.
#[cfg(test)]
pub(crate) fn checksummed(prefix: &str, random: &str) -> String {
    assert_eq!(random.len(), RANDOM, "{random}");
    let mut n = u64::from(crc32fast::hash(random.as_bytes()));
    let mut digits = [b'0'; CHECKSUM];
    for slot in digits.iter_mut().rev() {
        *slot = BASE62[(n % 62) as usize];
        n /= 62;
    }
    format!("{prefix}{random}{}", String::from_utf8_lossy(&digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_token_passes_and_a_hand_written_one_fails() {
        let random = "n3K9wQ2eL5bV8mY1pX4cZ7aR0fT6sH";
        for prefix in PREFIXES {
            let issued = checksummed(prefix, random);
            assert!(!fails_its_checksum(&issued), "{issued}");
            // One character changed anywhere breaks the checksum.
            let mut typo = issued.clone().into_bytes();
            typo[10] = if typo[10] == b'a' { b'b' } else { b'a' };
            let typo = String::from_utf8(typo).unwrap();
            assert!(fails_its_checksum(&typo), "{typo}");
        }
        // Composer's table of token shapes: written by hand, none was issued.
        for fake in [
            "ghp_n3K9wQ2eL5bV8mY1pX4cZ7aR0fT6sH3uJ8oI",
            "gho_M2pQ7vR4xL9eK6bN1cT8aZ0sJ3wY5fH7uG2d",
            "ghr_X9aZ2sJ5wY8fH1uG4dR7bN0pV3mL6eK2tQ5c",
        ] {
            assert!(fails_its_checksum(fake), "{fake}");
        }
    }

    #[test]
    fn other_shapes_are_not_judged() {
        for other in [
            "ghp_short",
            "ghp_n3K9wQ2eL5bV8mY1pX4cZ7aR0fT6sH3uJ8oIextra",
            "github_pat_11ABCDEFG0aB1cD2eF3gH4_n3K9wQ2eL5bV8mY1pX4cZ7aR0fT6sH3uJ8oI",
            "glpat-abcdefghijklmnopqrst",
            "8a7f2c1bdc4e9f06a3b7c2e9d4f1a8b6c5d7e0f2",
        ] {
            assert!(!fails_its_checksum(other), "{other}");
        }
    }
}
