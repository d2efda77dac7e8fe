//! Reports: reading external review reports and writing ours (text, JSON, SARIF, Markdown).
