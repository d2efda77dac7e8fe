//! One MCP server: started with the official SDK (`rmcp`) over stdio or streamable HTTP, its
//! tools listed once and filtered by the entry's allowlist, each call bounded by its timeout.

use std::sync::Mutex;
use std::time::Duration;

use process_wrap::tokio::{CommandWrap, KillOnDrop, ProcessGroup};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;
use tokio::sync::Mutex as AsyncMutex;

use super::Usage;
use crate::config::McpSource;

/// Variables a stdio server gets whatever its entry says: enough to find programs and the
/// person's home, nothing that carries a token.
const BASE_ENV: [&str; 2] = ["PATH", "HOME"];

type Client = RunningService<RoleClient, ()>;

pub(super) struct Server {
    pub entry: McpSource,
    /// `None` once stopped, or when it never started.
    client: AsyncMutex<Option<Client>>,
    /// The allowed tools the server offers.
    pub tools: Vec<Tool>,
    usage: Mutex<Usage>,
    /// The stdio server's process group, killed when this is dropped.
    group: Option<Group>,
}

/// Why a server did not start.
#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error("{command}: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
    #[error("no command or url")]
    NoTransport,
    #[error("{0}")]
    Initialize(#[from] Box<rmcp::service::ClientInitializeError>),
    #[error("listing its tools failed: {0}")]
    List(#[from] rmcp::ServiceError),
}

/// Why a call got no answer: said to the model, recorded for the coverage.
#[derive(Debug, thiserror::Error)]
pub(super) enum CallError {
    #[error("the context source {0} is not available this round")]
    Unavailable(String),
    #[error("{origin} gave no answer within {}", humantime::format_duration(*.timeout))]
    TimedOut { origin: String, timeout: Duration },
    #[error("{origin} failed: {reason}")]
    Failed { origin: String, reason: String },
}

impl Server {
    pub(super) fn reviewer(&self) -> String {
        format!("mcp:{}", self.entry.name)
    }

    pub(super) fn usage(&self) -> Usage {
        self.usage.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(super) fn pid(&self) -> Option<u32> {
        self.group.as_ref().map(|g| g.0)
    }

    fn new(entry: McpSource) -> Server {
        Server {
            entry,
            client: AsyncMutex::new(None),
            tools: Vec::new(),
            usage: Mutex::new(Usage::default()),
            group: None,
        }
    }

    /// A source that could not be started at all.
    pub(super) fn failed(entry: McpSource, why: String) -> Server {
        let server = Server::new(entry);
        server.record_failure(why);
        server
    }

    /// Starts the server and lists its tools, within the entry's timeout.
    pub(super) async fn start(entry: McpSource) -> Server {
        let timeout = entry.timeout();
        let mut server = Server::new(entry);
        let started = tokio::time::timeout(timeout, server.connect()).await;
        match started {
            Ok(Ok((client, tools))) => {
                let allowed = &server.entry.tools;
                server.tools = tools
                    .into_iter()
                    .filter(|tool| allowed.iter().any(|name| name == tool.name.as_ref()))
                    .collect();
                for name in allowed {
                    if !server.tools.iter().any(|t| t.name.as_ref() == name) {
                        server.record_failure(format!("it offers no tool named {name}"));
                    }
                }
                *server.client.get_mut() = Some(client);
            }
            Ok(Err(reason)) => server.record_failure(format!("did not start: {reason}")),
            Err(_) => server.record_failure(format!(
                "did not start within {}",
                humantime::format_duration(timeout)
            )),
        }
        server
    }

    async fn connect(&mut self) -> Result<(Client, Vec<Tool>), StartError> {
        let client = match (&self.entry.command, &self.entry.url) {
            (Some(command), _) => {
                let mut wrap = CommandWrap::with_new(command, |cmd| {
                    cmd.args(&self.entry.args).env_clear();
                    for name in BASE_ENV
                        .iter()
                        .copied()
                        .chain(self.entry.env.iter().map(String::as_str))
                    {
                        if let Some(value) = std::env::var_os(name) {
                            cmd.env(name, value);
                        }
                    }
                    die_with_parent(cmd);
                });
                wrap.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
                let (transport, _stderr) = TokioChildProcess::builder(wrap)
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .map_err(|source| StartError::Spawn {
                        command: command.clone(),
                        source,
                    })?;
                self.group = transport.id().map(Group);
                ().serve(transport).await.map_err(Box::new)?
            }
            (None, Some(url)) => {
                // The SDK builds its own client (no headers of ours, so no token): TLS through
                // the same provider as every other client here.
                let _ = rustls::crypto::ring::default_provider().install_default();
                let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                ().serve(transport).await.map_err(Box::new)?
            }
            (None, None) => return Err(StartError::NoTransport),
        };
        let tools = client.list_all_tools().await?;
        Ok((client, tools))
    }

    fn record_failure(&self, what: String) {
        self.usage
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .failures
            .push(what);
    }

    /// Calls `tool` (one the allowlist names) with `arguments`, within the timeout.
    pub(super) async fn call(
        &self,
        tool: &str,
        arguments: &Value,
    ) -> Result<CallToolResult, CallError> {
        let origin = format!("mcp:{}/{tool}", self.entry.name);
        let timeout = self.entry.timeout();
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map.clone());
        }
        let peer = {
            let client = self.client.lock().await;
            match client.as_ref() {
                Some(client) => client.peer().clone(),
                None => return Err(CallError::Unavailable(self.reviewer())),
            }
        };
        let outcome = match tokio::time::timeout(timeout, peer.call_tool(params)).await {
            Err(_) => Err(CallError::TimedOut {
                origin: origin.clone(),
                timeout,
            }),
            Ok(Err(e)) => Err(CallError::Failed {
                origin: origin.clone(),
                reason: e.to_string(),
            }),
            Ok(Ok(result)) => Ok(result),
        };
        match &outcome {
            Ok(_) => {
                *self
                    .usage
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .calls
                    .entry(tool.to_owned())
                    .or_default() += 1;
            }
            Err(e) => self.record_failure(format!("{tool}: {e}")),
        }
        outcome
    }

    /// Closes the session (stdin for a stdio server, which then exits), then kills the group.
    pub(super) async fn stop(&self) {
        if let Some(mut client) = self.client.lock().await.take() {
            let _ = client.close_with_timeout(Duration::from_secs(3)).await;
        }
        if let Some(group) = &self.group {
            group.kill();
        }
    }
}

/// The server dies with us even when we cannot stop it (a SIGKILL of the cockpit runs no drop
/// and signals no group): on Linux the kernel sends it SIGKILL when the thread that started it
/// ends. If we died between the fork and the exec, it never runs at all.
fn die_with_parent(cmd: &mut tokio::process::Command) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: between fork and exec only async-signal-safe calls run: getpid/getppid,
        // prctl and _exit touch no memory of ours and take no lock.
        let parent = unsafe { libc::getpid() };
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// A stdio server's process group (its leader's pid): whatever it started goes with it.
struct Group(u32);

impl Group {
    fn kill(&self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.0) {
            // SAFETY: kill(2) with a negative pid signals the process group the server leads
            // (`ProcessGroup::leader()` above); it touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}
