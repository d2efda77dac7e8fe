//! Any CLI agent as a provider (`claude -p`, `codex exec`, a script): the prompt goes in on
//! stdin, the answer — JSON findings, perhaps fenced or wrapped in prose — comes back on stdout.
//! The agent loop extracts and validates the findings; this module only runs the process,
//! within a deadline, and reports how it failed.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use super::error::{Call, ProviderError};
use super::http::truncate;
use super::{
    BoxFuture, Capabilities, ChatRequest, ChatResponse, FinishReason, Message, Provider,
    StructuredOutput, Usage, arguments_text,
};

const PROVIDER: &str = "command";
/// How much of stderr a failure reason quotes (its end, where errors usually are).
const STDERR_TAIL_CHARS: usize = 600;

#[derive(Debug, Clone)]
pub struct CommandConfig {
    pub program: String,
    pub args: Vec<String>,
    /// Where it runs: the review space's worktree, so an agent with its own tools reads the
    /// code under review.
    pub cwd: Option<PathBuf>,
    /// Past this the process group is killed.
    pub timeout: Duration,
    /// stdout beyond this is read and thrown away, so a runaway agent cannot fill memory.
    pub max_output_bytes: usize,
}

impl CommandConfig {
    pub fn new(program: impl Into<String>, args: Vec<String>) -> CommandConfig {
        CommandConfig {
            program: program.into(),
            args,
            cwd: None,
            timeout: Duration::from_secs(900),
            max_output_bytes: 4 << 20,
        }
    }

    /// A command line as a person writes it in the config (`claude -p --model opus`), run by
    /// `sh -c` so quoting works as typed.
    pub fn shell(command_line: &str) -> CommandConfig {
        CommandConfig::new("sh", vec!["-c".into(), command_line.to_owned()])
    }

    fn display(&self) -> String {
        match self.args.as_slice() {
            [flag, line] if self.program == "sh" && flag == "-c" => line.clone(),
            args => std::iter::once(self.program.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

#[derive(Debug)]
pub struct CommandProvider {
    config: CommandConfig,
}

impl CommandProvider {
    pub fn new(config: CommandConfig) -> CommandProvider {
        CommandProvider { config }
    }

    fn failure(&self, failure: impl Into<String>, stderr: &[u8]) -> ProviderError {
        let text = String::from_utf8_lossy(stderr);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let joined = lines.join(" | ");
        let skip = joined.chars().count().saturating_sub(STDERR_TAIL_CHARS);
        let tail: String = joined.chars().skip(skip).collect();
        ProviderError::Command {
            provider: PROVIDER.into(),
            call: Call::named(&truncate(&self.config.display(), 120)),
            failure: failure.into(),
            stderr: if tail.is_empty() {
                "(empty)".into()
            } else if skip > 0 {
                format!("…{tail}")
            } else {
                tail
            },
        }
    }

    async fn run(&self, input: String) -> Result<ChatResponse, ProviderError> {
        let mut command = Command::new(&self.config.program);
        command
            .args(&self.config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(cwd) = &self.config.cwd {
            command.current_dir(cwd);
        }
        // Its own process group, so an overrun kills what it started too (a shell's children,
        // an agent's helpers), not just the first process.
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command
            .spawn()
            .map_err(|e| self.failure(format!("could not be started: {e}"), b""))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let cap = self.config.max_output_bytes;
        let io = async {
            let write = async {
                if let Some(mut stdin) = stdin {
                    // A command that exits without reading its input closes the pipe: not an
                    // error of ours, its exit status says what happened.
                    let _ = stdin.write_all(input.as_bytes()).await;
                    let _ = stdin.shutdown().await;
                }
            };
            let (_, out, err) =
                tokio::join!(write, read_capped(stdout, cap), read_capped(stderr, cap));
            let status = child.wait().await;
            (status, out, err)
        };
        let Ok((status, out, err)) = tokio::time::timeout(self.config.timeout, io).await else {
            kill_group(&mut child).await;
            let timeout = humantime::format_duration(self.config.timeout);
            return Err(self.failure(
                format!("ran past its {timeout} timeout and was killed"),
                b"",
            ));
        };
        let status =
            status.map_err(|e| self.failure(format!("could not be waited for: {e}"), &err))?;
        if !status.success() {
            let failure = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".into(),
            };
            return Err(self.failure(failure, &err));
        }
        Ok(ChatResponse {
            text: Some(String::from_utf8_lossy(&out).into_owned()),
            tool_calls: Vec::new(),
            finish: FinishReason::Stop,
            usage: Usage::default(),
            malformed: Vec::new(),
            unread: Vec::new(),
        })
    }
}

impl Provider for CommandProvider {
    fn name(&self) -> &str {
        PROVIDER
    }

    fn model(&self) -> &str {
        &self.config.program
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            tools: false,
            structured: StructuredOutput::Text,
        }
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        Box::pin(self.run(render_prompt(request)))
    }
}

/// The whole conversation as one text: a CLI agent gets a single prompt.
pub(super) fn render_prompt(request: &ChatRequest) -> String {
    let mut text = request.system.clone();
    for message in &request.messages {
        text.push_str("\n\n");
        match message {
            Message::User { content } => text.push_str(content),
            Message::Assistant {
                text: said,
                tool_calls,
            } => {
                text.push_str("Your earlier answer:\n");
                text.push_str(said.as_deref().unwrap_or(""));
                for call in tool_calls {
                    text.push_str(&format!(
                        "\n(called {} with {})",
                        call.name,
                        arguments_text(&call.arguments)
                    ));
                }
            }
            Message::Tool {
                name,
                content,
                is_error,
                ..
            } => {
                let label = if *is_error { "failed" } else { "result" };
                text.push_str(&format!("{name} {label}:\n{content}"));
            }
        }
    }
    if let Some(output) = &request.output {
        text.push_str("\n\nAnswer with JSON only, following this JSON Schema:\n");
        text.push_str(&output.schema.to_string());
    }
    text.push('\n');
    text
}

async fn read_capped(pipe: Option<impl AsyncRead + Unpin>, cap: usize) -> Vec<u8> {
    let mut kept = Vec::new();
    let Some(mut pipe) = pipe else {
        return kept;
    };
    let mut buffer = [0u8; 8192];
    loop {
        match pipe.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
            }
        }
    }
    kept
}

async fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Some(pid) = child.id().and_then(|pid| i32::try_from(pid).ok()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child leads
        // (`process_group(0)` above); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.start_kill();
    let _ = child.wait().await;
}
