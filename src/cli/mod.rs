//! The command line. Usage errors exit 4 (error), never clap's default 2, which means
//! "aborted by the user" here.

pub mod resolve;
pub mod setup;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "review-tui",
    version,
    about = "A terminal cockpit for reviewing pull requests: AI reviewers and deterministic checks find, a person decides what is posted.",
    args_conflicts_with_subcommands = true,
    after_help = "Configuration: $XDG_CONFIG_HOME/review-tui/config.toml (~/.config/review-tui/config.toml on Linux; REVIEW_TUI_CONFIG names another file); `review-tui config path` prints where it is looked for, `review-tui config show` what is in effect and where each value comes from. A repository's .review-tui.toml is read from the PR's base branch.\n\nModels (without one every review is Inconclusive unless --deterministic-only): OPENAI_API_KEY (OpenAI, model gpt-4.1-mini unless --model), ANTHROPIC_API_KEY (Anthropic, claude-sonnet-4-5 unless --model), OLLAMA_HOST or OPENAI_BASE_URL with --model NAME (Ollama, any OpenAI-compatible server). When several are set: --provider, else OPENAI_BASE_URL/OPENAI_API_KEY, then ANTHROPIC_API_KEY/ANTHROPIC_BASE_URL, then OLLAMA_HOST.\n\nGitHub: the token is GH_TOKEN, else GITHUB_TOKEN, else `gh auth token` (public repositories need none); GITHUB_API_URL or --api-url for GitHub Enterprise.\n\nGitLab: the token is a host's token_env, else GITLAB_TOKEN, else glab's stored token; self-managed hosts are named under [gitlab] hosts in the config file.\n\nGitea and Forgejo: the token is a host's token_env, else GITEA_TOKEN, else FORGEJO_TOKEN, else tea's login for that host; codeberg.org is known, other hosts are named under [gitea] hosts in the config file.\n\nExit codes: 0 Ship · 1 not eligible · 2 aborted (by the user, Ctrl-C, SIGTERM or SIGHUP) · 3 nothing to review · 4 error · 5 Hold · 6 Block · 7 Inconclusive · 8 the PR's head, base branch or merge base moved before publishing: nothing was published"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// The pull request: https://github.com/OWNER/REPO/pull/N, OWNER/REPO#N, a local repository
    /// PATH (its current branch against its upstream, else main/master), or PATH#BASE..HEAD
    /// (BASE...HEAD is the same: like a PR, the diff is from the merge base of BASE and HEAD).
    pub pr: Option<String>,

    /// Review a bundled demo pull request with planted problems, offline (built under the data
    /// directory; the same demo always opens the same review space).
    #[arg(long, conflicts_with = "pr")]
    pub demo: bool,

    /// Run without a terminal: print the report and exit with a code per outcome.
    #[arg(long)]
    pub headless: bool,

    /// Report format for --headless (prompt: the findings as one prompt for a coding agent).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,

    /// Base branch or revision of a local repository (with PATH; not with PATH#BASE..HEAD).
    #[arg(long, value_name = "BASE")]
    pub base: Option<String>,

    /// Head branch or revision of a local repository (with PATH; not with PATH#BASE..HEAD).
    #[arg(long, value_name = "HEAD")]
    pub head: Option<String>,

    /// Review the checked-out branch with its uncommitted work: staged, unstaged and untracked
    /// files git does not ignore, against the branch's base (with PATH; no HEAD). Nothing in
    /// the checkout is changed; the review space is the branch's "worktree" space.
    #[arg(long, short = 'w', conflicts_with = "staged")]
    pub worktree: bool,

    /// Review the checked-out branch with its staged changes only (the index), like --worktree.
    #[arg(long)]
    pub staged: bool,

    /// Cockpit: review again whenever the uncommitted work changes (implies --worktree unless
    /// --staged is given).
    #[arg(long, conflicts_with = "headless")]
    pub watch: bool,

    /// Review even if the PR is not eligible (closed, draft, bot author, trivial, already
    /// reviewed at this head).
    #[arg(long)]
    pub force: bool,

    /// Where review spaces live (default: the user's data directory).
    #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<std::path::PathBuf>,

    /// The API base URL of the PR's forge for this run (GitHub Enterprise: https://HOST/api/v3,
    /// GitLab: https://HOST/api/v4). A token is sent only to a forge's public API or to an API
    /// configured here or in the forge's section of the config file.
    #[arg(long, value_name = "URL")]
    pub api_url: Option<String>,

    /// How far the review goes: light (engineer), balanced (engineer, qa, architect) or
    /// thorough (all five roles). Default: from the config, else balanced.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<crate::review::Level>,

    /// Run only the zero-token reviewers (rules, secret scan, SARIF) and say so; without it, a
    /// review with no model reviewer is Inconclusive.
    #[arg(long)]
    pub deterministic_only: bool,

    /// Approve a Ship that no model reviewer read (with --deterministic-only): without it such a
    /// Ship is published as a comment.
    #[arg(long)]
    pub approve_without_models: bool,

    /// Import a linter's SARIF results as findings (repeatable).
    #[arg(long, value_name = "FILE")]
    pub sarif: Vec<std::path::PathBuf>,

    /// Colour theme for the cockpit: dark, light, high-contrast, or a theme file (NO_COLOR is
    /// respected).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,

    /// Write the report to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,

    // --- Publishing ---
    /// Publish the reviewed round (a mutating action: without this flag headless mode publishes
    /// nothing): one GitHub review on the PR, or review.md and review.json in the review space
    /// of a local range.
    #[arg(long)]
    pub publish: bool,

    /// Publish only findings a peer confirmed (the consensus rule is checked again).
    #[arg(long)]
    pub consensus_only: bool,

    /// Post inline even a finding that an open thread of someone else on the PR already
    /// raises on the same lines (by default it is left out of the inline comments, still
    /// counted in the verdict and listed in the summary).
    #[arg(long)]
    pub include_raised: bool,
    // --- end of publishing ---

    // ---- Model reviewers (the `models` block; docs/dev/design.md) ----
    #[command(flatten)]
    pub models: ModelFlags,

    /// Record every model turn to FILE (a cassette --replay can play back). Requests are
    /// recorded after redaction; keys are never in them.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,

    /// A cheaper model for the confidence-scoring pass (rescoring each model finding 0-100).
    #[arg(long, value_name = "MODEL")]
    pub scoring_model: Option<String>,

    /// Fail (exit 4) instead of running without model reviewers when no provider is configured.
    #[arg(long, conflicts_with = "deterministic_only")]
    pub require_model: bool,

    /// How many model conversations run at once (default 5, or [models] concurrency).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: Option<u16>,
}

/// The model reviewers' flags: a review's, and those of a command that runs them outside a
/// review's own command line (`ask`, and every review `inbox` runs or opens), each as for a
/// review.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ModelFlags {
    /// OpenAI-compatible endpoint for the model reviewers, up to the version prefix
    /// (http://127.0.0.1:11434/v1). Default: OPENAI_BASE_URL, OLLAMA_HOST, or OpenAI itself when
    /// OPENAI_API_KEY is set.
    #[arg(long, value_name = "URL")]
    pub model_url: Option<String>,

    /// The model the reviewers use (a role's `[models.roles.ROLE]` may name its own).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,

    /// Which provider: openai (any OpenAI-compatible server), anthropic, ollama, command (a CLI
    /// agent, see --provider-command) or replay (a recorded cassette, see --replay).
    #[arg(long, value_name = "PROVIDER")]
    pub provider: Option<String>,

    /// The CLI agent the command provider runs (by `sh -c`, in the review's worktree): the
    /// prompt on stdin, JSON findings on stdout.
    #[arg(long, value_name = "CMD")]
    pub provider_command: Option<String>,

    /// Replay a cassette recorded with --record instead of calling a model.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<std::path::PathBuf>,

    /// The review's budget, a hard stop: tokens (200000, 200k) or dollars ($1.50, needs
    /// [models] prices). Reviewers still running when it is spent stop and the verdict is
    /// Inconclusive.
    #[arg(long, value_name = "USD-or-tokens")]
    pub budget: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Recompute the verdict of a JSON review report (ours or an agent pipeline's) by code; the
    /// model's own verdict is kept for audit and never decides. Exit code by decision.
    Evaluate {
        /// The report file, or `-` for standard input.
        file: String,
        /// How to print the verdict.
        #[arg(long, value_enum, default_value_t = VerdictFormat::Text)]
        format: VerdictFormat,
    },
    /// Remove what the data directory's caches no longer need: the symbol indexes and cohort
    /// reports of heads a space moved past, diffs no space shows, mirror refs of deleted
    /// spaces, tag stores of other versions, the oldest entries of a tag store over the size
    /// bound, and the worktree and caches of a space not opened within the age bound. Decisions (state.json) are never removed; a space in use is
    /// skipped.
    Gc {
        /// List what would be removed and how many bytes; remove nothing.
        #[arg(long)]
        dry_run: bool,
        /// A space not opened for this long loses its worktree and caches (a duration: "30d",
        /// "12h"). Default: [cache] max_age in the config, else 30 days.
        #[arg(long, value_name = "DURATION")]
        max_age: Option<String>,
        /// A mirror's symbol tag store larger than this keeps only its newest entries that fit
        /// (a size: "40MB", "512KB", "1GB"; 0 empties it). Default: [cache] max_tag_store in
        /// the config, else no size bound (the store compacts itself past 8 segments).
        #[arg(long, value_name = "SIZE")]
        max_tag_store: Option<String>,
        /// The data directory to collect (default: the user's data directory).
        #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
        data_dir: Option<std::path::PathBuf>,
    },
    /// Ask a reviewer a question about a finding (--finding) or the whole change, and print
    /// the answer. The space must exist (review the PR first); the question and its answer are
    /// kept in it. Exit 0 when answered, 4 on an error, 7 when no model provider is configured.
    Ask {
        /// The pull request, as for a review (with `--demo`, leave it out: the question comes
        /// first).
        pr: Option<String>,
        /// The question.
        question: Option<String>,
        /// Ask on the bundled demo, answered offline from its recorded answers.
        #[arg(long)]
        demo: bool,
        /// The finding the question is about (its id, as the report lists it).
        #[arg(long, value_name = "ID")]
        finding: Option<String>,
        /// Who answers: engineer, qa, architect, security or performance. Default: the model
        /// reviewer that raised the finding, else the engineer.
        #[arg(long, value_name = "ROLE")]
        role: Option<crate::review::Role>,
        /// How to print the answer.
        #[arg(long, value_enum, default_value_t = VerdictFormat::Text)]
        format: VerdictFormat,
        /// Base revision of a local repository (with PATH).
        #[arg(long, value_name = "BASE")]
        base: Option<String>,
        /// Head revision of a local repository (with PATH).
        #[arg(long, value_name = "HEAD")]
        head: Option<String>,
        /// Where review spaces live (default: the user's data directory).
        #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
        data_dir: Option<std::path::PathBuf>,
        /// GitHub API base URL, as for a review.
        #[arg(long, env = "GITHUB_API_URL", value_name = "URL")]
        api_url: Option<String>,
        #[command(flatten)]
        models: ModelFlags,
    },
    /// Add your own finding to the reviewed round, on a line or range of the diff (published
    /// with the round, counted in its verdict like any other), or edit or delete one you added.
    Comment {
        /// The pull request, as for a review.
        pr: String,
        /// The comment: the first line is its title. Not needed with --delete.
        text: Option<String>,
        /// Where: PATH:LINE or PATH:START-END, in the head's numbering (--side left: the
        /// base's).
        #[arg(
            long,
            value_name = "PATH:LINE[-END]",
            required_unless_present = "delete"
        )]
        at: Option<String>,
        /// The side the lines are on: right (the head, default) or left (removed lines).
        #[arg(long, value_name = "SIDE", default_value = "right")]
        side: String,
        /// P0 (blocks), P1, P2 (default) or P3.
        #[arg(long, value_name = "P", default_value = "P2")]
        priority: String,
        /// bug, suggestion (default), recommendation, question or ticket.
        #[arg(long, value_name = "KIND", default_value = "suggestion")]
        kind: String,
        /// The exact lines that should replace the anchored ones (repeatable; a one-click
        /// suggestion on GitHub).
        #[arg(long, value_name = "LINE")]
        replace: Vec<String>,
        /// Edit your finding ID (person-N) instead of adding one.
        #[arg(long, value_name = "ID", conflicts_with = "delete")]
        edit: Option<String>,
        /// Delete your finding ID (person-N).
        #[arg(long, value_name = "ID")]
        delete: Option<String>,
        /// Base revision of a local repository (with PATH).
        #[arg(long, value_name = "BASE")]
        base: Option<String>,
        /// Head revision of a local repository (with PATH).
        #[arg(long, value_name = "HEAD")]
        head: Option<String>,
        /// Where review spaces live (default: the user's data directory).
        #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
        data_dir: Option<std::path::PathBuf>,
        /// GitHub API base URL, as for a review.
        #[arg(long, env = "GITHUB_API_URL", value_name = "URL")]
        api_url: Option<String>,
    },
    /// Draft a reply in one of the pull request's review threads: kept in the review space
    /// until the next publish posts it, once (`--delete reply-N` drops it).
    Reply {
        /// The pull request, as for a review.
        pr: String,
        /// The reply. Not needed with --delete.
        text: Option<String>,
        /// The thread: its id, or the number of any comment in it (`#discussion_r123` on
        /// GitHub).
        #[arg(long, value_name = "THREAD", required_unless_present = "delete")]
        thread: Option<String>,
        /// Drop your draft ID (reply-N) instead.
        #[arg(long, value_name = "ID")]
        delete: Option<String>,
        /// Where review spaces live (default: the user's data directory).
        #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
        data_dir: Option<std::path::PathBuf>,
        /// GitHub API base URL, as for a review.
        #[arg(long, env = "GITHUB_API_URL", value_name = "URL")]
        api_url: Option<String>,
    },
    /// Draft resolving one of the pull request's review threads (--unresolve: reopening it),
    /// posted by the next publish (`--delete resolve-N` drops it).
    Resolve {
        /// The pull request, as for a review.
        pr: String,
        /// The thread: its id, or the number of any comment in it.
        #[arg(long, value_name = "THREAD", required_unless_present = "delete")]
        thread: Option<String>,
        /// Reopen the thread instead.
        #[arg(long)]
        unresolve: bool,
        /// Drop your draft ID (resolve-N) instead.
        #[arg(long, value_name = "ID")]
        delete: Option<String>,
        /// Where review spaces live (default: the user's data directory).
        #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
        data_dir: Option<std::path::PathBuf>,
        /// GitHub API base URL, as for a review.
        #[arg(long, env = "GITHUB_API_URL", value_name = "URL")]
        api_url: Option<String>,
    },
    /// Every review waiting for you: PRs whose review is requested from you or your teams,
    /// your own PRs, and your local review spaces. Opens the inbox screen; with --format it
    /// prints the list; with --review-all it reviews every PR waiting for you (never
    /// publishing). The forges' last answer is cached and shown when they cannot be reached.
    Inbox {
        /// Print the list instead of opening the screen: text, or json (schema-versioned).
        #[arg(long, value_enum, value_name = "FORMAT")]
        format: Option<VerdictFormat>,
        /// Print the cached list and the spaces without asking any forge.
        #[arg(long)]
        cached: bool,
        /// Run the first round (or the next, for a PR with new commits) on every PR whose
        /// review is requested from you, --jobs at a time; nothing is published. Heads already
        /// reviewed are skipped; one PR's failure does not stop the others (exit 4 at the end).
        #[arg(long, conflicts_with_all = ["format", "cached"])]
        review_all: bool,
        /// With --review-all: run without a terminal (a cron job, a CI schedule).
        #[arg(long, requires = "review_all")]
        headless: bool,
        /// With --review-all: how many PRs are reviewed at once (default 2).
        #[arg(long, value_name = "N", requires = "review_all", value_parser = clap::value_parser!(u16).range(1..=32))]
        jobs: Option<u16>,
        /// Where review spaces live (default: the user's data directory).
        #[arg(long, env = "REVIEW_TUI_DATA_DIR", value_name = "DIR")]
        data_dir: Option<std::path::PathBuf>,
        /// GitHub's API for this run (GitHub Enterprise: https://HOST/api/v3), as for a review;
        /// GitLab hosts are searched through the APIs named under [gitlab] in the config.
        #[arg(long, value_name = "URL")]
        api_url: Option<String>,
        /// For every review the inbox runs (--review-all) or opens: how far it goes.
        #[arg(long, value_name = "LEVEL")]
        level: Option<crate::review::Level>,
        /// For every review the inbox runs or opens: only the zero-token reviewers.
        #[arg(long)]
        deterministic_only: bool,
        // For every review the inbox runs or opens.
        #[command(flatten)]
        models: ModelFlags,
        /// Colour theme for the inbox screen, as for the cockpit.
        #[arg(long, value_name = "NAME")]
        theme: Option<String>,
    },
    /// Where the configuration file is, and what is in effect.
    Config {
        #[command(subcommand)]
        action: ConfigAction,
    },
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum ConfigAction {
    /// Print the path of the user's config file (it need not exist).
    Path,
    /// Print the configuration in effect (the user's file over the defaults; a repository's
    /// .review-tui.toml is added per review) and where each value comes from.
    Show,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// The summary a GitHub review would carry (with --publish: exactly the posted body).
    Markdown,
    /// One prompt for the coding agent that wrote the change: every counted finding kept
    /// (open or confirmed), most important first, with its code, evidence and fix.
    Prompt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerdictFormat {
    Text,
    Json,
}
