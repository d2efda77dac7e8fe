//! `review-tui config`, `gc` and `evaluate`: the commands that review nothing.

use std::io::Read;

use anyhow::Context;

use review_tui::cli::resolve::GcBounds;
use review_tui::cli::{ConfigAction, VerdictFormat};
use review_tui::report::{evaluate, verdict_text};
use review_tui::review::decide;

use super::output::write_stdout;
use crate::exit::Exit;

pub(crate) fn config_command(action: ConfigAction) -> anyhow::Result<Exit> {
    let path = review_tui::config::user_config_path();
    match action {
        ConfigAction::Path => {
            let path =
                path.context("this platform has no config directory: set REVIEW_TUI_CONFIG")?;
            write_stdout(&format!("{}\n", path.display()))?;
        }
        ConfigAction::Show => {
            let shown = review_tui::config::show(path.as_deref())?;
            write_stdout(&shown)?;
        }
    }
    Ok(Exit::Ship)
}

/// `review-tui gc`: what the caches no longer need goes (or, with `--dry-run`, is listed).
pub(crate) fn gc_command(
    dry_run: bool,
    max_age: Option<&str>,
    max_tag_store: Option<&str>,
    data_dir: Option<&std::path::Path>,
) -> anyhow::Result<Exit> {
    use review_tui::gc::{self, GcOptions, human_bytes};
    let user = review_tui::config::load_user()?;
    let GcBounds {
        max_age,
        max_tag_store,
    } = GcBounds::new(max_age, max_tag_store, &user)?;
    let root = review_tui::space::data_root(data_dir)?;
    let options = GcOptions {
        max_age,
        max_tag_store,
        dry_run,
        now: std::time::SystemTime::now(),
    };
    let report = gc::gc(&root, &options)?;
    let verb = if dry_run { "would remove" } else { "removed" };
    let mut out = String::new();
    for removal in &report.removals {
        let size = match removal.kind {
            gc::Kind::MirrorRef | gc::Kind::WorktreeRegistration => String::new(),
            _ => human_bytes(removal.bytes),
        };
        out.push_str(&format!(
            "{verb} {size:>9}  {}  ({})\n",
            review_tui::printable::line(&gc::describe(&removal.target)),
            removal.why
        ));
    }
    for skipped in &report.skipped {
        out.push_str(&format!(
            "skipped: {}\n",
            review_tui::printable::line(skipped)
        ));
    }
    for failed in &report.failed {
        out.push_str(&format!(
            "not removed: {}\n",
            review_tui::printable::line(failed)
        ));
    }
    out.push_str(&format!(
        "{}: {} in {} item(s) under {}{}\n",
        if dry_run { "would free" } else { "freed" },
        human_bytes(report.removed_bytes()),
        report.removals.len(),
        root.display(),
        if dry_run {
            " (dry run: nothing was removed)"
        } else {
            ""
        }
    ));
    let kept: Vec<String> = (report.kept.iter())
        .map(|(what, bytes)| format!("{what} {}", human_bytes(*bytes)))
        .collect();
    out.push_str(&format!("kept: {}\n", kept.join(", ")));
    write_stdout(&out)?;
    if report.failed.is_empty() {
        Ok(Exit::Ship)
    } else {
        anyhow::bail!(
            "{} item(s) could not be removed (listed above); everything else was",
            report.failed.len()
        )
    }
}

pub(crate) fn evaluate_command(file: &str, format: VerdictFormat) -> anyhow::Result<Exit> {
    let text = if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("could not read the report from standard input")?;
        text
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("could not read the report {file}"))?
    };
    let (_, input) = evaluate::parse_report(&text)
        .with_context(|| format!("{} is not a review report", display_name(file)))?;
    let verdict = decide(&input);
    match format {
        VerdictFormat::Text => write_stdout(&verdict_text::text(&verdict))?,
        VerdictFormat::Json => {
            write_stdout(&(serde_json::to_string_pretty(&verdict_text::json(&verdict))? + "\n"))?
        }
    }
    Ok(Exit::from(verdict.decision))
}

pub(crate) fn display_name(file: &str) -> &str {
    if file == "-" { "standard input" } else { file }
}
