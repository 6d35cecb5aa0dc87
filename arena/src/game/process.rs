//! One bot process: the only owner of the child, its pipes and its process group.
//!
//! Modelled on fastchess's `IProcess::readOutput` (every read has a deadline and says OK, EOF or
//! TIMEOUT), nextest (each child in its own process group, a grace period, then the whole group is
//! killed) and ripgrep's `CommandReader` (stderr drained concurrently so a noisy bot never blocks).

use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout, Command};
use tokio::sync::watch;

use crate::plan::Launch;
use crate::sandbox::{confine, describe_exit, own_group, Jail};

/// The longest line a bot may write, bytes (without the newline). Longer is a protocol error.
/// What comes before the last line of a bot's stderr in the description of how it ended (and so in a
/// forfeit's detail): `exited with status 3; its stderr ends: out of memory`.
pub const STDERR_ENDS: &str = "; its stderr ends: ";

pub const MAX_LINE: usize = 64 * 1024;
/// Bytes of a bot's stderr kept per game; the rest is read and dropped.
pub const MAX_STDERR: usize = 1024 * 1024;
/// Bytes of protocol transcript kept per game: its first and its last half ([`Transcript`]).
pub const MAX_TRANSCRIPT: usize = 1024 * 1024;
/// How long lines written just before a bot exited are still awaited.
pub const EXIT_LINGER: Duration = Duration::from_millis(100);

/// Why a read or write did not produce a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IoFailure {
    /// The deadline passed first.
    #[error("no answer in time")]
    Timeout,
    /// The bot closed its output or exited; the text says how (exit status or signal).
    #[error("{0}")]
    Exited(String),
    /// The bot exited over a resource limit; the text names the limit first (`memory limit 256 MiB
    /// (killed by signal 9 (SIGKILL))`).
    #[error("{0}")]
    OverLimit(String),
    /// A line longer than [`MAX_LINE`].
    #[error("a line longer than {MAX_LINE} bytes")]
    LineTooLong,
    /// A line that is not UTF-8 text; the bytes are shown escaped.
    #[error("a line that is not UTF-8 text: {0}")]
    NotUtf8(String),
}

enum Event {
    Line(String),
    TooLong,
    NotUtf8(String),
    Closed,
}

/// A shared, size-capped protocol log of one game, one line per protocol line:
/// `{ms:>7} {bot} > {line}` for what the arena sent, `{ms:>7} {bot} < {line}` for what the bot wrote
/// (and the arena's notes about it, in brackets: `[exited with status 3]`), `ms` being milliseconds
/// since [`Transcript::new`].
///
/// It keeps about [`MAX_TRANSCRIPT`] bytes: the game's first lines, up to [`Transcript::HEAD_BYTES`],
/// and its last lines, up to [`Transcript::TAIL_BYTES`] (the oldest of them dropped as new ones come).
/// A long game thus keeps both its handshake and its end, where forfeits happen. [`Transcript::text`]
/// puts one marker line between the two, `[N lines dropped here: …]`, when lines were dropped.
#[derive(Clone)]
pub struct Transcript {
    inner: Arc<Mutex<TranscriptInner>>,
}

struct TranscriptInner {
    started: Instant,
    /// The first lines, at most [`Transcript::HEAD_BYTES`].
    head: String,
    /// Set by the first line that did not fit in `head`: that line and every later one go to `tail`,
    /// so the text stays in order.
    head_full: bool,
    /// The last lines after `head`, newest last, `tail_bytes` bytes in all, at most
    /// [`Transcript::TAIL_BYTES`].
    tail: std::collections::VecDeque<String>,
    tail_bytes: usize,
    /// Lines dropped between `head` and `tail`.
    dropped: usize,
}

impl Transcript {
    /// Bytes of the game's first lines kept (half of [`MAX_TRANSCRIPT`]).
    pub const HEAD_BYTES: usize = MAX_TRANSCRIPT / 2;
    /// Bytes of the game's last lines kept (the other half of [`MAX_TRANSCRIPT`]).
    pub const TAIL_BYTES: usize = MAX_TRANSCRIPT - Transcript::HEAD_BYTES;

    /// An empty transcript whose clock starts now.
    pub fn new() -> Transcript {
        Transcript {
            inner: Arc::new(Mutex::new(TranscriptInner {
                started: Instant::now(),
                head: String::new(),
                head_full: false,
                tail: std::collections::VecDeque::new(),
                tail_bytes: 0,
                dropped: 0,
            })),
        }
    }

    /// Appends one line: `who` is the bot, `dir` `>` (sent to it) or `<` (from it), `line` the text
    /// without its newline. Once the head is full the line goes to the tail, and the tail's oldest
    /// lines are dropped (counted) until it fits in [`Transcript::TAIL_BYTES`] again; a line longer
    /// than that on its own is dropped too.
    pub fn log(&self, who: &str, dir: char, line: &str) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        let t = &mut *guard;
        let ms = t.started.elapsed().as_millis();
        let entry = format!("{ms:>7} {who} {dir} {line}\n");
        if !t.head_full && t.head.len() + entry.len() <= Transcript::HEAD_BYTES {
            t.head.push_str(&entry);
            return;
        }
        t.head_full = true;
        t.tail_bytes += entry.len();
        t.tail.push_back(entry);
        while t.tail_bytes > Transcript::TAIL_BYTES {
            let Some(oldest) = t.tail.pop_front() else {
                break;
            };
            t.tail_bytes -= oldest.len();
            t.dropped += 1;
        }
    }

    /// The transcript as `logs/<game>.log` holds it, in order: the first lines, then, if any were
    /// dropped, one marker line saying how many (see [`Transcript::dropped_lines`]), then the last lines.
    /// At most [`MAX_TRANSCRIPT`] bytes plus the marker's (under 200).
    pub fn text(&self) -> String {
        let Ok(t) = self.inner.lock() else {
            return String::new();
        };
        let mut s = String::with_capacity(t.head.len() + t.tail_bytes + 200);
        s.push_str(&t.head);
        if t.dropped > 0 {
            s.push_str(&format!(
                "[{} line{} dropped here: the transcript keeps its first {} and last {} bytes]\n",
                t.dropped,
                if t.dropped == 1 { "" } else { "s" },
                Transcript::HEAD_BYTES,
                Transcript::TAIL_BYTES,
            ));
        }
        for entry in &t.tail {
            s.push_str(entry);
        }
        s
    }

    /// How many lines a line of [`Transcript::text`] says were dropped at its place: `Some(n)` for the
    /// marker line, `None` for every other line (protocol lines start with their time in ms).
    pub fn dropped_lines(line: &str) -> Option<usize> {
        let (count, rest) = line.strip_prefix('[')?.split_once(' ')?;
        if rest.starts_with("lines dropped here: ") || rest.starts_with("line dropped here: ") {
            count.parse().ok()
        } else {
            None
        }
    }
}

impl Default for Transcript {
    fn default() -> Self {
        Transcript::new()
    }
}

/// A running bot. Dropping it kills every process of the bot (its jail: cgroup, process group,
/// inherited descendants).
pub struct BotProcess {
    name: String,
    /// How the process ended, once it has: set by a task that owns the `Child` and waits for it.
    exit: watch::Receiver<Option<Result<ExitStatus, String>>>,
    /// The containment of its processes; taken by [`BotProcess::shutdown`].
    jail: Option<Jail>,
    stdin: Option<ChildStdin>,
    stdout: LineReader,
    stderr_task: Option<tokio::task::JoinHandle<()>>,
    /// The last line the bot wrote to stderr (up to 200 bytes), for a crash's detail.
    stderr_last: Arc<Mutex<String>>,
    transcript: Transcript,
    /// When the arena saw the process exit.
    exited_at: Option<Instant>,
    /// When the arena first saw the bot gone: its output closed or its process exited.
    gone_at: Option<Instant>,
    /// Whether its processes are stopped ([`BotProcess::suspend`]).
    suspended: bool,
}

impl BotProcess {
    /// Starts `launch` in `jail` (its cgroups, rlimits and sandbox) and its own process group, with
    /// stdin/stdout piped and stderr drained to `stderr_path` (created only if the bot writes to stderr;
    /// capped at [`MAX_STDERR`] bytes).
    ///
    /// # Errors
    /// The operating system's error if the executable cannot be started (or the jail cannot be
    /// entered).
    pub fn spawn(
        name: &str,
        launch: &Launch,
        stderr_path: Option<PathBuf>,
        transcript: Transcript,
        mut jail: Jail,
    ) -> std::io::Result<BotProcess> {
        let exec = jail.exec(launch);
        let mut cmd = Command::new(&exec.program);
        cmd.args(&exec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(dir) = &exec.dir {
            cmd.current_dir(dir);
        }
        own_group(cmd.as_std_mut(), exec.sandboxed);
        confine(cmd.as_std_mut(), &jail);
        let mut child = cmd.spawn()?;
        let pid = child.id().map(|p| p as i32);
        if let Some(pid) = pid {
            jail.started(pid);
        }
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stderr_last = Arc::new(Mutex::new(String::new()));
        let stderr_task = Some(tokio::spawn(drain_stderr(
            stderr,
            stderr_path,
            Arc::clone(&stderr_last),
        )));
        let (exit_tx, exit) = watch::channel(None);
        tokio::spawn(async move {
            let how = child
                .wait()
                .await
                .map_err(|e| format!("ended (its status is unknown: {e})"));
            let _ = exit_tx.send(Some(how));
        });
        Ok(BotProcess {
            name: name.to_string(),
            exit,
            jail: Some(jail),
            stdin,
            stdout: LineReader::new(stdout),
            stderr_task,
            stderr_last,
            transcript,
            exited_at: None,
            gone_at: None,
            suspended: false,
        })
    }

    /// The bot's name in this tournament.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line (a newline is added), waiting at most until `deadline` for the pipe.
    ///
    /// # Errors
    /// [`IoFailure::Exited`] if the bot no longer reads; [`IoFailure::Timeout`] if its pipe stays full.
    pub async fn send(&mut self, line: &str, deadline: Instant) -> Result<(), IoFailure> {
        // A suspended bot is resumed before it is sent anything.
        self.suspend(false);
        self.transcript.log(&self.name, '>', line);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(IoFailure::Exited("stdin is closed".into()));
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let write = async {
            stdin.write_all(&bytes).await?;
            stdin.flush().await
        };
        match tokio::time::timeout_at(deadline.into(), write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(self.exit_description().await.failure()),
            Err(_) => Err(IoFailure::Timeout),
        }
    }

    /// Reads the next line (without its newline or a trailing `\r`), waiting at most until `deadline`.
    ///
    /// A bot whose process exits counts as gone even if a grandchild still holds its stdout open; lines
    /// it wrote before exiting are still delivered (for up to [`EXIT_LINGER`] after the exit).
    ///
    /// # Errors
    /// [`IoFailure::Timeout`], [`IoFailure::LineTooLong`], or [`IoFailure::Exited`] with the exit
    /// status or signal when the bot's output ends or its process exits.
    pub async fn read_line(&mut self, deadline: Instant) -> Result<String, IoFailure> {
        loop {
            let until = match self.exited_at {
                Some(t) => deadline.min(t + EXIT_LINGER),
                None => deadline,
            };
            tokio::select! {
                biased;
                event = self.stdout.next() => return match event {
                    Event::Line(line) => {
                        self.transcript.log(&self.name, '<', &line);
                        Ok(line)
                    }
                    Event::TooLong => {
                        self.transcript.log(&self.name, '<', &format!("[a line longer than {MAX_LINE} bytes]"));
                        Err(IoFailure::LineTooLong)
                    }
                    Event::NotUtf8(shown) => {
                        self.transcript.log(&self.name, '<', &format!("[not UTF-8: {shown}]"));
                        Err(IoFailure::NotUtf8(shown))
                    }
                    Event::Closed => {
                        self.gone_at.get_or_insert_with(Instant::now);
                        Err(self.gone().await)
                    }
                },
                _ = self.exit.changed(), if self.exited_at.is_none() => {
                    self.exited_at = Some(Instant::now());
                    self.gone_at.get_or_insert_with(Instant::now);
                }
                _ = tokio::time::sleep_until(until.into()) => {
                    return Err(if self.exited_at.is_some() { self.gone().await } else { IoFailure::Timeout });
                }
            }
        }
    }

    /// When the arena first saw the bot gone (its output closed or its process exited), if it has: the
    /// clock stops there, not after the wait for its exit status.
    pub fn gone_at(&self) -> Option<Instant> {
        self.gone_at
    }

    /// A complete line the bot has already written that the arena has not read yet, taken without
    /// waiting (from what the last read brought in): a second `bestmove` written with the first is found
    /// here.
    pub fn buffered_line(&mut self) -> Option<String> {
        let line = self.stdout.buffered_line()?;
        self.transcript.log(&self.name, '<', &line);
        Some(line)
    }

    /// Stops (`true`) or resumes every process of the bot (CodeCup's rule for the idle player): its
    /// cgroup's freezer, else SIGSTOP/SIGCONT to its process group. Idempotent.
    pub fn suspend(&mut self, stopped: bool) {
        if self.suspended == stopped {
            return;
        }
        if let Some(jail) = &self.jail {
            jail.suspend(stopped);
        }
        self.suspended = stopped;
    }

    async fn gone(&mut self) -> IoFailure {
        let ended = self.exit_description().await;
        self.transcript
            .log(&self.name, '<', &format!("[{}]", ended.how));
        ended.failure()
    }

    /// Waits until `until` for the process to exit; returns how it ended, in words: the exit status or
    /// signal, the limit it ran into (`memory limit 256 MiB`), and the last line of its stderr.
    async fn wait_exit(&mut self, until: Instant) -> Option<Ended> {
        let status = {
            let exited =
                tokio::time::timeout_at(until.into(), self.exit.wait_for(Option::is_some)).await;
            match exited {
                Ok(Ok(how)) => how.clone()?,
                _ => return None,
            }
        };
        Some(self.explain(status))
    }

    fn explain(&self, status: Result<ExitStatus, String>) -> Ended {
        let mut how = match &status {
            Ok(s) => describe_exit(*s),
            Err(e) => e.clone(),
        };
        let hit = self
            .jail
            .as_ref()
            .and_then(|j| j.limit_hit(status.as_ref().ok().copied()));
        if let Some(hit) = hit {
            how = format!("{hit} ({how})");
        } else if self.jail.as_ref().is_some_and(Jail::memory_as_rlimit)
            && status.as_ref().is_ok_and(|s| {
                use std::os::unix::process::ExitStatusExt;
                matches!(s.signal(), Some(6 | 7 | 11))
            })
        {
            how.push_str(
                " (its memory is limited by an address-space rlimit: it may have run out)",
            );
        }
        let last = self
            .stderr_last
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        if !last.is_empty() {
            how.push_str(&format!("{STDERR_ENDS}{last}"));
        }
        Ended {
            how,
            limit: hit.is_some(),
        }
    }

    /// How the process ended: waits up to 500 ms for it to exit after its output closed.
    async fn exit_description(&mut self) -> Ended {
        let until = Instant::now() + Duration::from_millis(500);
        // Its stderr may hold the reason; give the drain a moment to read the last of it.
        let described = self.wait_exit(until).await;
        if described.is_some() {
            if let Some(task) = self.stderr_task.as_mut() {
                let _ = tokio::time::timeout(Duration::from_millis(50), task).await;
                self.stderr_task = None;
            }
            return self
                .wait_exit(Instant::now())
                .await
                .unwrap_or_else(Ended::still_running);
        }
        Ended::still_running()
    }

    /// Ends the bot: resumes it, sends `quit_line` (if any), closes stdin, waits up to `grace` for it to
    /// exit, then kills every process of it (its cgroup, its process group, inherited descendants),
    /// removes its jail and reaps it. Returns how it ended.
    pub async fn shutdown(mut self, quit_line: Option<&str>, grace: Duration) -> String {
        let deadline = Instant::now() + grace;
        self.suspend(false);
        if let Some(q) = quit_line {
            let _ = self.send(q, deadline).await;
        }
        drop(self.stdin.take());
        let quit = self.wait_exit(deadline).await;
        if let Some(jail) = &self.jail {
            jail.kill();
        }
        let how = match quit {
            Some(ended) => ended.how,
            None => self
                .wait_exit(Instant::now() + Duration::from_secs(5))
                .await
                .map_or_else(|| "did not exit".into(), |e| e.how),
        };
        if let Some(task) = self.stderr_task.take() {
            // Everything is dead, so stderr reaches EOF unless a stray process kept it open.
            let _ = tokio::time::timeout(Duration::from_secs(1), task).await;
        }
        if let Some(jail) = self.jail.take() {
            jail.finish();
        }
        how
    }
}

/// How a bot's process ended, in words, and whether a limit ended it.
struct Ended {
    how: String,
    limit: bool,
}

impl Ended {
    fn still_running() -> Ended {
        Ended {
            how: "closed its output but did not exit".into(),
            limit: false,
        }
    }

    fn failure(self) -> IoFailure {
        if self.limit {
            IoFailure::OverLimit(self.how)
        } else {
            IoFailure::Exited(self.how)
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // A cancelled game (Ctrl-C, a panic, an SPRT decided) still leaves no process behind.
        if let Some(jail) = self.jail.take() {
            jail.finish();
        }
    }
}

/// Reads capped lines from a bot's stdout. Cancel-safe: a read abandoned at a deadline keeps its
/// partial line for the next call, since bytes move into `partial` before they are consumed.
struct LineReader {
    reader: BufReader<ChildStdout>,
    partial: Vec<u8>,
    done: bool,
}

impl LineReader {
    fn new(stdout: ChildStdout) -> LineReader {
        LineReader {
            reader: BufReader::with_capacity(16 * 1024, stdout),
            partial: Vec::new(),
            done: false,
        }
    }

    async fn next(&mut self) -> Event {
        if self.done {
            return Event::Closed;
        }
        loop {
            let chunk = match self.reader.fill_buf().await {
                Ok(c) => c,
                Err(_) => &[],
            };
            if chunk.is_empty() {
                self.done = true;
                return if self.partial.is_empty() {
                    Event::Closed
                } else {
                    self.finish()
                };
            }
            let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            self.partial.extend_from_slice(&chunk[..take]);
            self.reader.consume(take + newline as usize);
            if self.partial.len() > MAX_LINE {
                self.done = true;
                return Event::TooLong;
            }
            if newline {
                return self.finish();
            }
        }
    }

    /// A whole line already in the buffer, taken without any I/O; `None` if there is none.
    fn buffered_line(&mut self) -> Option<String> {
        if self.done {
            return None;
        }
        let buffered = self.reader.buffer();
        let i = buffered.iter().position(|&b| b == b'\n')?;
        if self.partial.len() + i > MAX_LINE {
            return None;
        }
        self.partial.extend_from_slice(&buffered[..i]);
        self.reader.consume(i + 1);
        match self.finish() {
            Event::Line(l) => Some(l),
            Event::NotUtf8(shown) => Some(format!("[not UTF-8: {shown}]")),
            _ => None,
        }
    }

    /// Takes the collected line out of `partial` as text, without a trailing `\r`; a line that is not
    /// UTF-8 is an error (a bot's stray binary output is not a move), shown with its bad bytes escaped.
    fn finish(&mut self) -> Event {
        if self.partial.last() == Some(&b'\r') {
            self.partial.pop();
        }
        let bytes = std::mem::take(&mut self.partial);
        match String::from_utf8(bytes) {
            Ok(s) => Event::Line(s),
            Err(e) => {
                let bytes = e.into_bytes();
                let shown: String = bytes
                    .iter()
                    .take(60)
                    .flat_map(|&b| std::ascii::escape_default(b))
                    .map(char::from)
                    .collect();
                Event::NotUtf8(shown)
            }
        }
    }
}

async fn drain_stderr(
    mut stderr: tokio::process::ChildStderr,
    path: Option<PathBuf>,
    last: Arc<Mutex<String>>,
) {
    let mut buf = vec![0u8; 8192];
    let mut file: Option<File> = None;
    let mut kept = 0usize;
    let mut dropped = 0usize;
    // The current (unfinished) last line, up to LAST bytes.
    const LAST: usize = 200;
    let mut line: Vec<u8> = Vec::new();
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let keep = n.min(MAX_STDERR - kept);
        dropped += n - keep;
        if keep > 0 {
            if let Some(path) = &path {
                if file.is_none() {
                    file = File::create(path).ok();
                }
                if let Some(f) = file.as_mut() {
                    let _ = f.write_all(&buf[..keep]);
                }
            }
            kept += keep;
        }
        for &b in &buf[..n] {
            if b == b'\n' {
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if !text.is_empty() {
                    if let Ok(mut l) = last.lock() {
                        *l = text;
                    }
                }
                line.clear();
            } else if line.len() < LAST {
                line.push(b);
            }
        }
    }
    let text = String::from_utf8_lossy(&line).trim().to_string();
    if !text.is_empty() {
        if let Ok(mut l) = last.lock() {
            *l = text;
        }
    }
    if let (Some(f), true) = (file.as_mut(), dropped > 0) {
        let _ = writeln!(
            f,
            "\n[{dropped} more bytes dropped: stderr is capped at {MAX_STDERR} bytes]"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Logs `n` lines `me > NNNNNNNN xxx…` numbered from 0, each `size` bytes with its newline and time.
    fn fill(t: &Transcript, n: usize, size: usize) {
        for i in 0..n {
            // `{ms:>7} me > ` is 13 bytes while the game lasts under 10^7 ms; then the number, then pad.
            let line = format!("{i:08}{}", "x".repeat(size - 13 - 8 - 1));
            t.log("me", '>', &line);
        }
    }

    /// The numbers of the protocol lines of `text`, and the marker lines' counts.
    fn numbers(text: &str) -> (Vec<usize>, Vec<usize>) {
        let (mut lines, mut markers) = (Vec::new(), Vec::new());
        for line in text.lines() {
            if let Some(n) = Transcript::dropped_lines(line) {
                markers.push(n);
            } else {
                lines.push(line[13..21].parse().unwrap());
            }
        }
        (lines, markers)
    }

    #[test]
    fn a_short_transcript_is_kept_whole_and_in_order() {
        let t = Transcript::new();
        t.log("me", '>', "ugi");
        t.log("me", '<', "ugiok ");
        t.log("me", '<', "");
        let text = t.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].ends_with(" me > ugi"), "{text}");
        assert!(lines[1].ends_with(" me < ugiok "), "{text}");
        assert!(lines[2].ends_with(" me < "), "{text}");
        assert!(lines.iter().all(|l| Transcript::dropped_lines(l).is_none()));
        // Past the head, but the tail not yet full: nothing is dropped, so no marker.
        let t = Transcript::new();
        let n = (Transcript::HEAD_BYTES + Transcript::TAIL_BYTES / 2) / 1000;
        fill(&t, n, 1000);
        let (lines, markers) = numbers(&t.text());
        assert_eq!(lines, (0..n).collect::<Vec<_>>());
        assert!(markers.is_empty());
    }

    #[test]
    fn a_long_transcript_keeps_its_head_and_its_tail_with_the_exact_count_between() {
        let t = Transcript::new();
        let (n, size) = (10_000, 1000);
        fill(&t, n, size);
        let text = t.text();
        let (lines, markers) = numbers(&text);
        let head = Transcript::HEAD_BYTES / size;
        let tail = Transcript::TAIL_BYTES / size;
        // The first lines, then the last ones, in order, and one marker counting exactly the rest.
        let expected: Vec<usize> = (0..head).chain(n - tail..n).collect();
        assert_eq!(lines, expected);
        assert_eq!(markers, [n - head - tail]);
        let marker = text.lines().nth(head).unwrap();
        assert_eq!(Transcript::dropped_lines(marker), Some(n - head - tail));
        assert!(marker.starts_with(&format!("[{} lines dropped here: ", n - head - tail)));
        assert!(text.len() <= MAX_TRANSCRIPT + 200, "{} bytes", text.len());
        // The very last line logged is the last line of the text.
        t.log("me", '<', "[exited with status 3]");
        let text = t.text();
        assert!(text.ends_with(" me < [exited with status 3]\n"));
        let markers: Vec<usize> = text.lines().filter_map(Transcript::dropped_lines).collect();
        // It took the oldest tail line's place unless it fitted in the tail's spare bytes.
        let entry = "      0 me < [exited with status 3]\n".len();
        let evicted = usize::from(entry > Transcript::TAIL_BYTES - tail * size);
        assert_eq!(markers, [n - head - tail + evicted]);
    }

    #[test]
    fn the_marker_counts_a_single_dropped_line() {
        let t = Transcript::new();
        let size = 1000;
        let head = Transcript::HEAD_BYTES / size;
        let tail = Transcript::TAIL_BYTES / size;
        fill(&t, head + tail + 1, size);
        let text = t.text();
        assert_eq!(numbers(&text).1, [1]);
        assert!(
            text.contains("\n[1 line dropped here: "),
            "the marker is missing"
        );
        // Other lines are never taken for a marker, even a bot's line in brackets.
        assert_eq!(
            Transcript::dropped_lines("     12 me < [3 lines dropped here: x]"),
            None
        );
        assert_eq!(Transcript::dropped_lines("[x lines dropped here: x]"), None);
        assert_eq!(Transcript::dropped_lines("[3 lines dropped]"), None);
    }

    #[test]
    fn memory_stays_bounded_however_long_the_game() {
        let t = Transcript::new();
        // Lines of every length, a few longer than the whole tail.
        for i in 0..20_000usize {
            let len = if i % 5000 == 4999 {
                Transcript::TAIL_BYTES + 10
            } else {
                (i * 7919) % 9000
            };
            t.log("me", '<', &"y".repeat(len));
            let inner = t.inner.lock().unwrap();
            assert!(inner.head.len() <= Transcript::HEAD_BYTES);
            assert!(inner.tail_bytes <= Transcript::TAIL_BYTES);
            assert_eq!(
                inner.tail_bytes,
                inner.tail.iter().map(String::len).sum::<usize>()
            );
        }
        let text = t.text();
        assert!(text.len() <= MAX_TRANSCRIPT + 200, "{} bytes", text.len());
        // Every line logged is either kept or counted by the marker.
        let kept = text.lines().count() - 1;
        let dropped: usize = text.lines().filter_map(Transcript::dropped_lines).sum();
        assert_eq!(kept + dropped, 20_000);
    }
}
