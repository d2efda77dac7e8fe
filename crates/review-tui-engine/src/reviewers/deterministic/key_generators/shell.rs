//! The key files a shell script or a Makefile's recipes write with a key-generating command.
//!
//! Read as commands, not as text: a path counts only as the output operand of a command that
//! makes a new key (`openssl genrsa -out server.key`, `openssl req -newkey … -keyout ca.key`,
//! `ssh-keygen -f id`, `mkcert -key-file k.pem`, `cfssljson -bare server`), in command
//! position. A comment, an `echo` of the command, a conversion of an existing key (`openssl
//! rsa -in real.key -out copy.key`) or a path built from a variable (`$DIR/server.key`) writes
//! no key this can name.

/// The paths that `script` writes new private keys to, from its own folder: a literal `cd` or
/// `pushd` before the command moves where a relative path lands (`pushd creds` then `openssl
/// genrsa -out server_key.pem` writes `creds/server_key.pem`); a `cd` to a folder built from a
/// variable leaves the following writes unknown, and they name nothing.
pub(super) fn written_keys(script: &str, makefile: bool) -> Vec<String> {
    let mut written = Vec::new();
    let mut folder = Folder::default();
    for line in logical_lines(script) {
        // A Makefile's recipe lines are shell after their tab and `@`/`-` prefixes; its other
        // lines are make's own syntax, which runs nothing.
        let line = if makefile {
            match line.strip_prefix('\t') {
                Some(recipe) => recipe.trim_start_matches(['@', '-', '+']).to_string(),
                None => continue,
            }
        } else {
            line
        };
        // `cd "$(dirname "$0")"`: back to the script's own folder.
        let trimmed = line.trim_start();
        if (trimmed.starts_with("cd ") || trimmed.starts_with("pushd "))
            && trimmed.contains("dirname")
            && (trimmed.contains("$0") || trimmed.contains("BASH_SOURCE"))
        {
            folder.current = Some(String::new());
            continue;
        }
        for command in commands(&line) {
            if folder.moves(&command) {
                continue;
            }
            let Some(current) = &folder.current else {
                continue;
            };
            written.extend(key_outputs(&command).into_iter().map(|path| {
                if current.is_empty() || path.starts_with('/') {
                    path
                } else {
                    format!("{current}/{path}")
                }
            }));
        }
    }
    written
}

/// Where the script's commands run, from its own folder (`""`); `None` once unknown.
struct Folder {
    current: Option<String>,
    pushed: Vec<Option<String>>,
}

impl Default for Folder {
    fn default() -> Folder {
        Folder {
            current: Some(String::new()),
            pushed: Vec::new(),
        }
    }
}

impl Folder {
    /// Follows a `cd`, `pushd` or `popd` command; whether `words` was one.
    fn moves(&mut self, words: &[String]) -> bool {
        let Some((program, args)) = words.split_first() else {
            return false;
        };
        let target = || {
            let to = args.first()?;
            let literal = !to.starts_with(['/', '-', '~']) && !to.contains(['$', '*', '`']);
            literal.then(|| to.trim_end_matches('/').to_string())
        };
        let moved = |from: &Option<String>| {
            let to = target()?;
            let from = from.as_deref()?;
            Some(if from.is_empty() {
                to
            } else {
                format!("{from}/{to}")
            })
        };
        match program.as_str() {
            "cd" => self.current = moved(&self.current),
            "pushd" => {
                let next = moved(&self.current);
                self.pushed.push(std::mem::replace(&mut self.current, next));
            }
            "popd" => self.current = self.pushed.pop().flatten(),
            _ => return false,
        }
        true
    }
}

/// The script's lines with backslash continuations joined.
fn logical_lines(script: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for line in script.lines() {
        match line.strip_suffix('\\') {
            Some(start) => {
                current.push_str(start);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                lines.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// The simple commands of one line, each as its words with quotes removed: split at `;`,
/// `&&`, `||`, `|`, `&`, parentheses and backticks, up to a comment (a `#` starting a word).
/// A word holding a variable or a substitution keeps its `$`, so it never equals a path.
fn commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    let end_word = |word: &mut String, in_word: &mut bool, commands: &mut Vec<Vec<String>>| {
        if *in_word {
            if let Some(command) = commands.last_mut() {
                command.push(std::mem::take(word));
            }
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if c == '\\' && q == '"' {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            } else {
                word.push(c);
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                in_word = true;
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    word.push(next);
                    in_word = true;
                }
            }
            '#' if !in_word => break,
            ' ' | '\t' => end_word(&mut word, &mut in_word, &mut commands),
            ';' | '&' | '|' | '(' | ')' | '`' => {
                end_word(&mut word, &mut in_word, &mut commands);
                commands.push(Vec::new());
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut commands);
    commands.retain(|command| !command.is_empty());
    commands
}

/// The new key files one simple command writes.
fn key_outputs(words: &[String]) -> Vec<String> {
    // Assignments and wrappers before the program: `FOO=1 sudo openssl …`.
    let start = words
        .iter()
        .position(|w| {
            !(w.contains('=') && !w.starts_with('-')
                || matches!(
                    w.as_str(),
                    "sudo" | "exec" | "command" | "time" | "env" | "then" | "do"
                ))
        })
        .unwrap_or(words.len());
    let Some((program, args)) = words[start..].split_first() else {
        return Vec::new();
    };
    let program = program.rsplit('/').next().unwrap_or(program);
    let after = |flag: &str| -> Vec<String> {
        args.windows(2)
            .filter(|pair| pair[0] == flag)
            .map(|pair| pair[1].clone())
            .collect()
    };
    let mut outputs = match program {
        "openssl" => {
            let subcommand = args.first().map(String::as_str).unwrap_or("");
            // Only subcommands that make a key: a conversion (`rsa`, `pkey`, `pkcs8`) copies
            // a key that exists already, whatever its origin.
            let generates = matches!(subcommand, "genrsa" | "genpkey" | "gendsa")
                || subcommand == "ecparam" && args.iter().any(|a| a == "-genkey");
            let mut outputs = after("-keyout");
            if generates {
                outputs.extend(after("-out"));
                outputs.extend(redirected(args));
            }
            if subcommand != "req" && !generates {
                outputs.clear();
            }
            outputs
        }
        "ssh-keygen" if !ssh_keygen_mode(args) => after("-f"),
        "mkcert" => after("-key-file"),
        // cfssljson writes `NAME-key.pem` beside `NAME.pem` for `-bare NAME`.
        "cfssljson" => after("-bare")
            .into_iter()
            .map(|name| format!("{name}-key.pem"))
            .collect(),
        _ => Vec::new(),
    };
    outputs.retain(|path| !path.is_empty() && !path.contains(['$', '*', '?', '{', '~']));
    outputs
}

/// The target of a `>` redirection among a command's words (`> key.pem`, `>key.pem`).
fn redirected(args: &[String]) -> Vec<String> {
    let mut targets = Vec::new();
    for (at, word) in args.iter().enumerate() {
        match word.strip_prefix('>') {
            Some("") => targets.extend(args.get(at + 1).cloned()),
            Some(target) if !target.starts_with(['>', '&']) => targets.push(target.to_string()),
            _ => {}
        }
    }
    targets
}

/// Whether an `ssh-keygen` call runs one of its modes on a key that exists (`-l` fingerprint,
/// `-y` public half, `-p` new passphrase, `-e`/`-i` export and import, …) instead of making
/// one: its `-f` names the key it reads.
fn ssh_keygen_mode(args: &[String]) -> bool {
    args.iter()
        .filter_map(|arg| arg.strip_prefix('-'))
        .any(|flags| {
            flags
                .chars()
                .any(|flag| "lypeiRFHcsLkQrBDYAG".contains(flag))
        })
}
