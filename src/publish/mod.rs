//! The publisher: turns an approved round into a GitHub review or a local report.
