//! Tokens in the shapes that carry their own checksum (GitHub's `ghp_`, `gho_`, `ghu_`,
//! `ghs_`, `ghr_`; npm's `npm_`): a prefix, 30 random characters and six that write the
//! CRC-32 of those 30 in base 62. The secret scan reports only values whose checksum holds,
//! as every issued token's does, so a test that plants a credential plants one of these.

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PREFIXES: [&str; 6] = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_"];

/// `prefix` and `random` (30 characters) with the checksum that makes them a token.
pub(crate) fn checksummed(prefix: &str, random: &str) -> String {
    assert_eq!(random.chars().count(), 30, "{random}");
    let mut n = u64::from(crc32fast::hash(random.as_bytes()));
    let mut digits = [b'0'; 6];
    for slot in digits.iter_mut().rev() {
        *slot = BASE62[(n % 62) as usize];
        n /= 62;
    }
    format!("{prefix}{random}{}", String::from_utf8_lossy(&digits))
}

/// Whether `text` holds a token of a checksummed shape whose checksum fails: no service
/// issued it.
pub(crate) fn holds_a_failing_checksum(text: &str) -> bool {
    PREFIXES.iter().any(|prefix| {
        text.match_indices(prefix).any(|(at, _)| {
            let body: String = text[at + prefix.len()..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            body.len() == 36 && checksummed(prefix, &body[..30]) != format!("{prefix}{body}")
        })
    })
}
