//! Whether a shell variable holds a non-empty value on every path to a line: what makes
//! `rm -rf "$DIR/build"` safe, since only an empty or unset `DIR` turns it into `rm -rf /build`.
//!
//! Read from the script holding the line: a shell script whole, or in a CI file the script a
//! step or a command list runs (see [`super::ci_script`]), where the variables the runner
//! sets non-empty before it starts (`HOME`, its workspace) count as set. The variable is set when an assignment of
//! a non-empty value (`DIR=/opt/x`, `DIR="${DIR:-/opt/x}"`, `: "${DIR:=/opt/x}"`, `DIR="$BASE"`
//! with `BASE` itself set) runs before the line on every path to it: in the block holding the
//! line or one enclosing it, not in a branch, a loop body that may not run, a subshell, a
//! pipeline, after a `&&`, or outside the function the line is in (which runs later). Every
//! other write of the variable anywhere in the script (`read`, `unset`, `for`, an assignment
//! of what may be empty, in any branch) must be non-empty too, or nothing is known; a script
//! that sources another file or `eval`s a string is not known at all. A value of slashes alone
//! (`DIR=/`, `DIR="$BASE/"`) is the root an empty one would make. `PWD` is set by the shell
//! itself. Whatever this reading does not understand leaves the line a
//! finding.

use std::sync::LazyLock;

use regex::Regex;

use crate::diff::Language;

/// The variable the shell itself keeps non-empty.
const SHELL_SET: &str = "PWD";

/// How deep one variable's value may lead through others (`A="$B"`, `B="$C"`).
const MAX_DEPTH: usize = 8;

/// An assignment statement: `NAME=value`, after `export`, `readonly`, `local` or `declare`
/// (not `declare -n`, whose value names another variable).
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:(?:export|readonly|local|declare(?:\s+-[a-mo-zA-Z]+)*)\s+)?([A-Za-z_]\w*)=(\S*)$",
    )
    .expect("valid regex")
});

/// `: "${NAME:=value}"`: the null command run for its assignment of a default.
static DEFAULT_ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^:\s+"?\$\{([A-Za-z_]\w*):=([^}]*)\}"?$"#).expect("valid regex")
});

/// A heredoc's opening: its body is data, up to the line holding only its word.
static HEREDOC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"<<-?\s*['"]?(\w+)['"]?"#).expect("valid regex"));

/// Whether `name` holds a non-empty value on every path to line `line` (1-based) of `text`, a
/// file of `language` at `path`. False whenever that cannot be read: another language, a line
/// outside any script, a script this reading does not follow.
pub(super) fn set_on_every_path(
    text: &str,
    language: Language,
    path: &str,
    line: usize,
    name: &str,
) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = line.checked_sub(1).filter(|&at| at < lines.len()) else {
        return false;
    };
    let ci;
    let (script, at, preset): (Vec<&str>, usize, &[&str]) = match language {
        Language::Shell => (lines, at, &[]),
        Language::Yaml => match super::ci_script::script_at(&lines, path, at) {
            Some(found) => {
                ci = found;
                let script = ci.lines.iter().map(String::as_str).collect();
                (script, ci.at, &ci.preset)
            }
            None => return false,
        },
        _ => return false,
    };
    let Some(script) = Script::read(&script, at, name) else {
        return false;
    };
    script.set_at_target(name, preset)
}

/// A block of the script: what runs on one path (a branch, a loop body, a case arm).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    If,
    Loop,
    Case,
    Group,
    Subshell,
    /// A function's body runs when it is called, after whatever set or changed a variable.
    Function,
}

/// An assignment the script makes unconditionally within its block.
struct Assignment {
    name: String,
    value: String,
    /// Its place in the order statements are read.
    order: usize,
    /// The blocks open where it stands, outermost first, by id.
    blocks: Vec<(usize, BlockKind)>,
    /// It runs whenever its line does, and what it sets stays set: it follows only `;` on its
    /// line and is no part of a pipeline. Any other still has to set a non-empty value.
    unconditional: bool,
}

/// What the reading of a script keeps.
struct Script {
    assignments: Vec<Assignment>,
    /// Writes of each asked-about name that are not assignments read here (`read`, `unset`,
    /// `for`, an assignment after `&&`), counted by name.
    other_writes: std::collections::HashMap<String, usize>,
    /// The `rm` statement's order and blocks.
    target: (usize, Vec<(usize, BlockKind)>),
    /// The variables set non-empty before the script starts.
    preset: Vec<String>,
}

impl Script {
    /// Reads `lines`, the script, up to the statement of line `at` that uses `name`. None when
    /// that statement is not found or is not run there (a `trap`'s or `eval`'s string), or
    /// the blocks do not nest.
    fn read(lines: &[&str], at: usize, name: &str) -> Option<Script> {
        let logical = logical_lines(lines);
        let mut walk = Walk::default();
        let mut target = None;
        let mut names = vec![name.to_string()];
        for (first, last, text) in &logical {
            let here = (*first..=*last).contains(&at);
            for (segment, unconditional) in segments(text) {
                let command = walk.structure(&segment)?;
                // Another file's or a string's commands run here: any variable may change.
                if matches!(
                    command.split_whitespace().next(),
                    Some("source" | "." | "eval")
                ) {
                    return None;
                }
                if here && target.is_none() && uses(&segment, name) && segment.contains("rm") {
                    if !runs_rm(command) {
                        return None;
                    }
                    target = Some((walk.order, walk.blocks.clone()));
                } else {
                    walk.assignment(command, unconditional);
                }
                if std::mem::take(&mut walk.closes_subshell) {
                    walk.blocks.pop();
                }
                walk.order += 1;
            }
        }
        let target = target?;
        // The names an assignment's value leads to count their writes too.
        let mut i = 0;
        while i < names.len() && names.len() <= MAX_DEPTH * 4 {
            let used: Vec<String> = walk
                .assignments
                .iter()
                .filter(|a| a.name == names[i])
                .flat_map(|a| expanded_names(&a.value))
                .collect();
            for used in used {
                if !names.contains(&used) {
                    names.push(used);
                }
            }
            i += 1;
        }
        let code = code_lines(lines);
        let mut other_writes = std::collections::HashMap::new();
        for name in &names {
            let mentions: usize = code.iter().map(|(_, line)| bare_mentions(line, name)).sum();
            let read = walk.assignments.iter().filter(|a| &a.name == name).count();
            other_writes.insert(name.clone(), mentions.saturating_sub(read));
        }
        Some(Script {
            assignments: walk.assignments,
            other_writes,
            target,
            preset: Vec::new(),
        })
    }

    /// Whether `name` is non-empty at the `rm` statement, `preset` naming the variables set
    /// non-empty before the script starts (by the CI runner).
    fn set_at_target(mut self, name: &str, preset: &[&str]) -> bool {
        self.preset = preset.iter().map(|p| p.to_string()).collect();
        let (order, blocks) = &self.target;
        self.set_at(name, *order, blocks, 0)
    }

    /// Whether `name` is non-empty at the statement `order` inside `blocks`.
    fn set_at(
        &self,
        name: &str,
        order: usize,
        blocks: &[(usize, BlockKind)],
        depth: usize,
    ) -> bool {
        if depth > MAX_DEPTH || self.other_writes.get(name).is_none_or(|&n| n > 0) {
            return false;
        }
        // The shell sets its working directory's variable when it starts and at each `cd`.
        let mut dominates = name == SHELL_SET || self.preset.iter().any(|p| p == name);
        for a in self.assignments.iter().filter(|a| a.name == name) {
            if !self.non_empty(&a.value, a.order, &a.blocks, depth + 1) {
                return false;
            }
            dominates |= a.unconditional && a.order < order && encloses(&a.blocks, blocks);
        }
        dominates
    }

    /// Whether the word `value` (an assignment's right side, quotes and all) is non-empty when
    /// the statement `order` inside `blocks` runs.
    fn non_empty(
        &self,
        value: &str,
        order: usize,
        blocks: &[(usize, BlockKind)],
        depth: usize,
    ) -> bool {
        if value.starts_with('(') {
            // An array: `()` is empty.
            return false;
        }
        let chars: Vec<char> = value.chars().collect();
        let mut i = 0;
        let mut quote = None;
        while i < chars.len() {
            let c = chars[i];
            match (c, quote) {
                ('\'', None) => {
                    let close = chars[i + 1..].iter().position(|&c| c == '\'');
                    let Some(close) = close else {
                        return false;
                    };
                    if chars[i + 1..i + 1 + close].iter().any(|&c| c != '/') {
                        return true;
                    }
                    i += close + 2;
                    continue;
                }
                ('"', None) => quote = Some('"'),
                ('"', Some(_)) => quote = None,
                ('$', _) => {
                    let (end, set) = self.expansion(&chars, i, order, blocks, depth);
                    if set {
                        return true;
                    }
                    i = end;
                    continue;
                }
                ('`', _) => return false,
                // Slashes alone are the root, what an empty value would have made of the path.
                ('/', _) => {}
                _ => return true,
            }
            i += 1;
        }
        false
    }

    /// The expansion starting at `chars[at]` (`$`): where it ends, and whether it is non-empty.
    fn expansion(
        &self,
        chars: &[char],
        at: usize,
        order: usize,
        blocks: &[(usize, BlockKind)],
        depth: usize,
    ) -> (usize, bool) {
        let name_end = |from: usize| {
            (from..chars.len())
                .find(|&i| !(chars[i].is_ascii_alphanumeric() || chars[i] == '_'))
                .unwrap_or(chars.len())
        };
        match chars.get(at + 1) {
            Some('{') => {
                // The matching brace, nested defaults included.
                let Some(close) = closing(chars, at + 1, ('{', '}')) else {
                    return (chars.len(), false);
                };
                let end = name_end(at + 2);
                let name: String = chars[at + 2..end].iter().collect();
                let rest: String = chars[end..close].iter().collect();
                let named = !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit());
                let default = rest.strip_prefix(":-").or_else(|| rest.strip_prefix(":="));
                let set = match default {
                    // Its default when it is empty or unset.
                    Some(word) => {
                        self.non_empty(word, order, blocks, depth)
                            || (named && self.set_at(&name, order, blocks, depth))
                    }
                    None if rest.is_empty() => named && self.set_at(&name, order, blocks, depth),
                    // `${NAME:?}` stops the script when it is empty.
                    None => rest.starts_with(":?"),
                };
                (close + 1, set)
            }
            Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
                let end = name_end(at + 1);
                let name: String = chars[at + 1..end].iter().collect();
                (end, self.set_at(&name, order, blocks, depth))
            }
            // A command's output: nothing known, up to its closing parenthesis.
            Some('(') => (
                closing(chars, at + 1, ('(', ')')).map_or(chars.len(), |close| close + 1),
                false,
            ),
            // `$1`, `$@`, `$$`: nothing known.
            Some(_) => (at + 2, false),
            None => (at + 1, false),
        }
    }
}

/// Where the bracket `pair.0` at `chars[open]` is closed, brackets nested inside counted.
fn closing(chars: &[char], open: usize, pair: (char, char)) -> Option<usize> {
    let mut level = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        if c == pair.0 {
            level += 1;
        } else if c == pair.1 {
            level = level.checked_sub(1)?;
            if level == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Whether an assignment standing in `outer` runs on every path to a statement in `inner`:
/// its blocks are the statement's outermost ones, and no function body lies between.
fn encloses(outer: &[(usize, BlockKind)], inner: &[(usize, BlockKind)]) -> bool {
    inner.starts_with(outer)
        && !inner[outer.len()..]
            .iter()
            .any(|(_, kind)| *kind == BlockKind::Function)
}

/// The block structure as statements are read.
#[derive(Default)]
struct Walk {
    blocks: Vec<(usize, BlockKind)>,
    next_id: usize,
    order: usize,
    /// A `name()` line whose `{` comes on the next line.
    function_pending: bool,
    /// The command just read ends its subshell (`(cd x; make)`).
    closes_subshell: bool,
    assignments: Vec<Assignment>,
}

impl Walk {
    fn open(&mut self, kind: BlockKind) {
        self.next_id += 1;
        self.blocks.push((self.next_id, kind));
    }

    /// Starts the next block of the innermost one of `kinds` (`then`, `else`, a case arm).
    fn next_path(&mut self, kinds: &[BlockKind]) -> Option<()> {
        let (_, kind) = *self.blocks.last()?;
        if !kinds.contains(&kind) {
            return None;
        }
        self.blocks.pop();
        self.open(kind);
        Some(())
    }

    fn close(&mut self, kinds: &[BlockKind]) -> Option<()> {
        let (_, kind) = self.blocks.pop()?;
        kinds.contains(&kind).then_some(())
    }

    /// Follows the keywords and braces of `segment`, returning the command left after its
    /// leading keywords. None when the blocks do not nest as read.
    fn structure<'s>(&mut self, segment: &'s str) -> Option<&'s str> {
        let mut rest = segment.trim();
        loop {
            let (word, after) = rest
                .split_once(char::is_whitespace)
                .map_or((rest, ""), |(w, a)| (w, a.trim_start()));
            match word {
                "if" => self.open(BlockKind::If),
                "while" | "until" | "for" | "select" => self.open(BlockKind::Loop),
                "case" => {
                    self.open(BlockKind::Case);
                    return Some("");
                }
                "then" | "elif" | "else" => self.next_path(&[BlockKind::If])?,
                "do" => self.next_path(&[BlockKind::Loop])?,
                "fi" => self.close(&[BlockKind::If])?,
                "done" => self.close(&[BlockKind::Loop])?,
                "esac" => self.close(&[BlockKind::Case])?,
                "{" => {
                    let kind = if std::mem::take(&mut self.function_pending) {
                        BlockKind::Function
                    } else {
                        BlockKind::Group
                    };
                    self.open(kind);
                }
                "}" => self.close(&[BlockKind::Group, BlockKind::Function])?,
                "(" => self.open(BlockKind::Subshell),
                "function" => self.function_pending = true,
                "!" | "time" => {}
                _ if word.ends_with("()") || after.starts_with("()") => {
                    self.function_pending = true;
                    rest = after.trim_start_matches("()").trim_start();
                    if rest.is_empty() {
                        return Some("");
                    }
                    continue;
                }
                _ if word.starts_with('(') && !word.starts_with("((") => {
                    self.open(BlockKind::Subshell);
                    rest = rest[1..].trim_start();
                    continue;
                }
                _ if self
                    .blocks
                    .last()
                    .is_some_and(|(_, k)| *k == BlockKind::Case)
                    && case_label_end(rest).is_some() =>
                {
                    let end = case_label_end(rest)?;
                    self.next_path(&[BlockKind::Case])?;
                    rest = rest[end + 1..].trim_start();
                    continue;
                }
                _ => {
                    // A subshell or group closed at the end of the command.
                    if rest.ends_with(')')
                        && self
                            .blocks
                            .last()
                            .is_some_and(|(_, k)| *k == BlockKind::Subshell)
                        && !balanced_parens(rest)
                    {
                        // Closed once the command is read: it runs inside.
                        self.closes_subshell = true;
                        return Some(rest[..rest.len() - 1].trim_end());
                    }
                    return Some(rest);
                }
            }
            if word == "function" {
                // `function name` or `function name()`: the name is not a command.
                rest = after
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, a)| a.trim_start());
                rest = rest.trim_start_matches("()").trim_start();
            } else {
                rest = after;
            }
            if rest.is_empty() {
                return Some("");
            }
        }
    }

    /// Keeps `command` when it is an assignment statement (or the `:` of a default).
    fn assignment(&mut self, command: &str, unconditional: bool) {
        let found = ASSIGNMENT
            .captures(command)
            .or_else(|| DEFAULT_ASSIGNMENT.captures(command));
        let Some(found) = found else {
            return;
        };
        let name = found[1].to_string();
        let value = if DEFAULT_ASSIGNMENT.is_match(command) {
            format!("${{{name}:-{}}}", &found[2])
        } else {
            found[2].to_string()
        };
        self.assignments.push(Assignment {
            name,
            value,
            order: self.order,
            blocks: self.blocks.clone(),
            unconditional,
        });
    }
}

/// Where the label of a case arm (`a|b)`, `*)`) ends: its first `)` not opened in it.
fn case_label_end(text: &str) -> Option<usize> {
    let mut level = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' => level += 1,
            ')' if level == 0 => return Some(i),
            ')' => level -= 1,
            '"' | '\'' | '$' | '=' => return None,
            _ => {}
        }
    }
    None
}

fn balanced_parens(text: &str) -> bool {
    text.chars().filter(|&c| c == '(').count() == text.chars().filter(|&c| c == ')').count()
}

/// Whether `segment` expands `name` (`$NAME`, `${NAME…}`).
fn uses(segment: &str, name: &str) -> bool {
    segment.contains(&format!("${name}")) || segment.contains(&format!("${{{name}"))
}

/// Whether `command` is `rm` run here (after `sudo`, `command`), not a string another
/// command runs later (`trap`, `eval`, `sh -c`, `xargs`).
fn runs_rm(command: &str) -> bool {
    let mut words = command.split_whitespace();
    loop {
        match words.next() {
            Some("sudo" | "command" | "builtin" | "exec") => continue,
            Some(word) => return word == "rm",
            None => return false,
        }
    }
}

/// The names `value` expands.
fn expanded_names(value: &str) -> Vec<String> {
    static NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\$\{?([A-Za-z_]\w*)").expect("valid regex"));
    NAME.captures_iter(value)
        .map(|c| c[1].to_string())
        .collect()
}

/// How many times `line` names `name` other than by expanding it, `export NAME` and
/// `readonly NAME` apart: each is a write, or may be (`NAME=`, `read NAME`, `unset NAME`,
/// `for NAME in`, a word in a string, which is counted too rather than understood).
fn bare_mentions(line: &str, name: &str) -> usize {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    line.match_indices(name)
        .filter(|(at, _)| {
            let end = at + name.len();
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(end).copied();
            if before.is_some_and(word) || after.is_some_and(word) {
                return false;
            }
            // `$NAME`, `${NAME`, `${#NAME`, `${!NAME`.
            let expanded = match before {
                Some(b'$') => true,
                Some(b'{') => at.checked_sub(2).is_some_and(|i| bytes[i] == b'$'),
                Some(b'#' | b'!') => at.checked_sub(3).is_some_and(|i| &bytes[i..i + 2] == b"${"),
                _ => false,
            };
            let declared = after != Some(b'=')
                && (line[..*at].trim_end().ends_with("export")
                    || line[..*at].trim_end().ends_with("readonly"));
            !expanded && !declared
        })
        .count()
}

/// The script's lines as code, each with its index: comments cut and heredoc bodies left out
/// (data, not commands).
fn code_lines(lines: &[&str]) -> Vec<(usize, String)> {
    let mut code = Vec::new();
    let mut heredoc: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(word) = &heredoc {
            if line.trim() == word {
                heredoc = None;
            }
            continue;
        }
        let text = without_comment(line);
        if let Some(found) = HEREDOC.captures(&text) {
            heredoc = Some(found[1].to_string());
        }
        code.push((i, text));
    }
    code
}

/// `line` without its comment: from a `#` that starts a word outside quotes.
fn without_comment(line: &str) -> String {
    let mut quoting = Quoting::default();
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        if quoting.code(c) && c == '#' && previous.is_whitespace() {
            return line[..i].to_string();
        }
        previous = c;
    }
    line.to_string()
}

/// Where the characters of a shell line stand, read in order: in code, or quoted or escaped.
#[derive(Default)]
struct Quoting {
    quote: Option<char>,
    escaped: bool,
}

impl Quoting {
    /// Reads `c`: whether it is code (not quoted, not escaped, not a quote or a backslash).
    fn code(&mut self, c: char) -> bool {
        if self.escaped {
            self.escaped = false;
        } else if c == '\\' && self.quote != Some('\'') {
            self.escaped = true;
        } else if let Some(q) = self.quote {
            if c == q {
                self.quote = None;
            }
        } else if matches!(c, '\'' | '"' | '`') {
            self.quote = Some(c);
        } else {
            return true;
        }
        false
    }
}

/// The script as logical lines: `(first, last, text)`, a line ending in `\`, `&&`, `||` or `|`
/// joined with the next, comments cut, heredoc bodies left out.
fn logical_lines(lines: &[&str]) -> Vec<(usize, usize, String)> {
    let mut logical: Vec<(usize, usize, String)> = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, text) in code_lines(lines) {
        let (first, mut joined) = open.take().unwrap_or((i, String::new()));
        let trimmed = text.trim_end();
        if let Some(cut) = trimmed.strip_suffix('\\') {
            joined.push_str(cut);
            joined.push(' ');
            open = Some((first, joined));
        } else if trimmed.ends_with("&&") || trimmed.ends_with("||") || trimmed.ends_with('|') {
            joined.push_str(trimmed);
            joined.push(' ');
            open = Some((first, joined));
        } else {
            joined.push_str(&text);
            logical.push((first, i, joined));
        }
    }
    if let Some((first, joined)) = open {
        logical.push((first, lines.len().saturating_sub(1), joined));
    }
    logical
}

/// The statements of a logical line, split at `;`, `&&`, `||`, `|` and `&` outside quotes and
/// expansions, each with whether it runs whenever the line does and keeps what it assigns: it
/// follows only `;` and is not part of a pipeline or run in the background.
fn segments(line: &str) -> Vec<(String, bool)> {
    let chars: Vec<char> = line.chars().collect();
    let mut parts: Vec<(String, bool)> = Vec::new();
    let mut current = String::new();
    let mut quoting = Quoting::default();
    let mut nesting = 0usize;
    // Whether everything before the current statement was joined by `;`.
    let mut sequenced = true;
    let mut i = 0;
    let push = |current: &mut String, unconditional: bool, parts: &mut Vec<(String, bool)>| {
        if !current.trim().is_empty() {
            parts.push((std::mem::take(current), unconditional));
        }
        current.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if !quoting.code(c) {
            // Quoted or escaped: part of the statement.
        } else if c == '$' && matches!(next, Some('(' | '{')) {
            nesting += 1;
            current.push(c);
            current.push(next.unwrap_or(' '));
            i += 2;
            continue;
        } else if nesting > 0 && matches!(c, ')' | '}') {
            nesting -= 1;
        } else if nesting == 0 {
            let separator = match (c, next) {
                (';', Some(';')) => Some((2, true)),
                (';', _) => Some((1, true)),
                ('&', Some('&')) | ('|', Some('|')) => Some((2, false)),
                ('|', _) => Some((1, false)),
                ('&', _) if !matches!(next, Some('>')) && !current.ends_with(['>', '<']) => {
                    Some((1, false))
                }
                _ => None,
            };
            if let Some((width, sequencing)) = separator {
                let piped = c == '|' && next != Some('|') || c == '&' && next != Some('&');
                push(&mut current, sequenced && !piped, &mut parts);
                sequenced = sequencing;
                i += width;
                continue;
            }
        }
        current.push(c);
        i += 1;
    }
    push(&mut current, sequenced, &mut parts);
    parts
}
