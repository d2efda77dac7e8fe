//! PEM and PGP armour: a block's `-----BEGIN …-----` line names what its body is. A
//! certificate, a certificate request or revocation list, a public key or a PGP public key
//! block, signature or message is public material, whatever base64 it holds; only a block
//! whose label says PRIVATE (or no label at all) can hold a key.

/// Whether an armour label (the words between `-----BEGIN ` and `-----`) opens public material.
pub(crate) fn is_public_label(label: &str) -> bool {
    !label.contains("PRIVATE")
        && [
            "CERTIFICATE",
            "PUBLIC KEY",
            "X509 CRL",
            "PGP SIGNATURE",
            "PGP MESSAGE",
        ]
        .iter()
        .any(|public| label.contains(public))
}

/// The label of a `-----BEGIN LABEL-----` line, if `line` is one.
fn begin_label(line: &str) -> Option<&str> {
    let rest = &line[line.find("-----BEGIN ")? + "-----BEGIN ".len()..];
    let label = &rest[..rest.find("-----")?];
    (label.len() <= 100).then_some(label)
}

/// The lines (1-based, inclusive) of `text` inside public armour: from each public BEGIN line
/// to its END line, or to the end of the text when the END line is missing. A hunk inside a
/// certificate file shows body lines without their BEGIN line; the file at the head has it.
pub fn public_armour_lines(text: &str) -> Vec<(u32, u32)> {
    let mut blocks = Vec::new();
    let mut open: Option<(u32, bool)> = None;
    let mut last = 0;
    for (index, line) in text.lines().enumerate() {
        let number = index as u32 + 1;
        last = number;
        if let Some(label) = begin_label(line) {
            if let Some((start, true)) = open {
                blocks.push((start, number - 1));
            }
            open = Some((number, is_public_label(label)));
        } else if line.contains("-----END ") {
            if let Some((start, true)) = open {
                blocks.push((start, number));
            }
            open = None;
        }
    }
    if let Some((start, true)) = open {
        blocks.push((start, last));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_blocks_are_found_by_their_begin_line() {
        let text = "-----BEGIN CERTIFICATE-----\nAAAA\nBBBB\n-----END CERTIFICATE-----\n\
                    -----BEGIN RSA PRIVATE KEY-----\nCCCC\n-----END RSA PRIVATE KEY-----\n\
                    -----BEGIN PGP PUBLIC KEY BLOCK-----\n\nDDDD\n";
        assert_eq!(public_armour_lines(text), vec![(1, 4), (8, 10)]);
        assert!(public_armour_lines("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n").is_empty());
        assert!(is_public_label("PUBLIC KEY"));
        assert!(is_public_label("RSA PUBLIC KEY"));
        assert!(!is_public_label("ENCRYPTED PRIVATE KEY"));
        assert!(!is_public_label("PGP PRIVATE KEY BLOCK"));
    }
}
