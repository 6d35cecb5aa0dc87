//! One referee process and the line protocol of `docs/referees.md`: a command a line, an answer a
//! line tagged `@ref `, every wait bounded by the referee's `timeout_ms`, untagged lines ignored and
//! named, and the whole process group killed when the session ends.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use games::frame::Frame;
use games::module::{frame_from_json, Judge, ModuleError, Verdict};
use games::{Outcome, Player};

use super::Referee;
use crate::sandbox::launch::Launch;
use crate::sandbox::{Containment, Jail};

/// The tag every answer starts with.
pub const TAG: &str = "@ref ";
/// The protocol version the arena speaks (`hello 1`).
pub const VERSION: u32 = 1;
/// The longest line a referee may write, bytes.
pub const MAX_LINE: usize = 1 << 20;
/// The most untagged lines a referee may write before an answer.
pub const MAX_STRAY: usize = 1000;
/// How many lines of a process's stderr and untagged stdout are shown on the arena's stderr.
const SHOWN: usize = 20;

/// What a wait for an answer ends with.
enum Event {
    /// A tagged line, without its tag.
    Answer(String),
    TooLong,
    Flood,
    Eof,
    Timeout,
}

/// The state of the game after `new`, `play` or `undo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    /// The player to move, or the result once over.
    next: Result<Player, Outcome>,
    score: Option<[u32; 2]>,
}

/// A running referee process: its pipes, the thread reading its stdout, and its jail.
pub struct Session {
    /// `referee WORDS`, in messages.
    label: String,
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Bytes read from stdout and not yet taken as lines.
    pending: Vec<u8>,
    /// Untagged lines since the last answer.
    stray: usize,
    /// The lines shown on the arena's stderr so far (its stderr's and untagged stdout's).
    shown: Arc<AtomicUsize>,
    /// Stdout ended.
    eof: bool,
    jail: Option<Jail>,
    timeout: Duration,
    /// The last line of its stderr, for a crash's detail.
    stderr_last: Arc<Mutex<String>>,
    /// The game's name, from `hello`.
    pub name: String,
    state: Option<State>,
    /// A failed call: the process is not given another game.
    broken: bool,
}

impl Session {
    /// Starts `referee` in a jail of `containment` (its sandbox; work folder under `work_root`) and
    /// says `hello`.
    ///
    /// # Errors
    /// The process cannot be started, or does not answer `hello 1` with `@ref hello 1 NAME`.
    pub fn start(
        referee: &Referee,
        containment: &Arc<Containment>,
        work_root: &std::path::Path,
    ) -> Result<Session, ModuleError> {
        static SERIAL: AtomicUsize = AtomicUsize::new(0);
        let err = |what: String| ModuleError {
            module: referee.describe(),
            what,
        };
        let n = SERIAL.fetch_add(1, Ordering::Relaxed) + 1;
        let mut jail = containment
            .jail(
                &crate::sandbox::limits::Limits::NONE,
                referee.sandbox,
                &format!("referee-{}-{n}", std::process::id()),
                Some(work_root),
                None,
            )
            .map_err(|e| err(format!("cannot be confined: {e}")))?;
        let launch = Launch {
            program: referee.program.clone(),
            args: referee.args.clone(),
            dir: None,
        };
        let exec = jail.exec(&launch);
        let mut cmd = std::process::Command::new(&exec.program);
        cmd.args(&exec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &exec.dir {
            cmd.current_dir(dir);
        }
        crate::sandbox::own_group(&mut cmd, exec.sandboxed);
        crate::sandbox::confine(&mut cmd, &jail);
        let mut child = spawn_kept(cmd).map_err(|e| {
            err(format!(
                "could not be started ({}): {e}",
                referee.program.display()
            ))
        })?;
        jail.started(child.id() as i32);
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let shown = Arc::new(AtomicUsize::new(0));
        let stderr_last = Arc::new(Mutex::new(String::new()));
        {
            let (label, last) = (referee.label.clone(), Arc::clone(&stderr_last));
            let shown = Arc::clone(&shown);
            std::thread::spawn(move || read_stderr(stderr, &label, &shown, &last));
        }
        let mut session = Session {
            label: referee.describe(),
            child,
            stdin,
            stdout,
            pending: Vec::new(),
            stray: 0,
            shown,
            eof: false,
            jail: Some(jail),
            timeout: Duration::from_millis(referee.timeout_ms),
            stderr_last,
            name: String::new(),
            state: None,
            broken: false,
        };
        session.timeout = Duration::from_millis(referee.startup_ms);
        let hello = session.ask(&format!("hello {VERSION}"));
        session.timeout = Duration::from_millis(referee.timeout_ms);
        let hello = hello?;
        let words: Vec<&str> = hello.split_whitespace().collect();
        match words.as_slice() {
            ["hello", v, name] if *v == VERSION.to_string() => session.name = (*name).to_string(),
            ["hello", v, ..] => {
                return Err(session.fail(format!(
                    "speaks protocol version {v}; this arena speaks {VERSION} (answered `{TAG}{hello}`)"
                )))
            }
            _ => {
                return Err(session.fail(format!(
                    "answered `{TAG}{hello}` to `hello {VERSION}`: expected `{TAG}hello {VERSION} NAME`"
                )))
            }
        }
        Ok(session)
    }

    /// Whether the process may play another game: no call failed, it still runs, and it wrote nothing
    /// unasked.
    pub fn reusable(&mut self) -> bool {
        !self.broken && self.status().is_none() && self.drain_unasked().is_ok()
    }

    /// Marks the process as failed: it plays no other game.
    pub fn discard(&mut self) {
        self.broken = true;
    }

    /// How the process ended, if it has, without reaping it (`waitid` with `WNOWAIT`): its process
    /// group stays its own until [`Drop`] has killed the group and then waits.
    fn status(&self) -> Option<std::process::ExitStatus> {
        use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
        use std::os::unix::process::ExitStatusExt;
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        match waitid(
            Id::Pid(nix::unistd::Pid::from_raw(self.child.id() as i32)),
            flags,
        ) {
            Ok(WaitStatus::Exited(_, code)) => Some(std::process::ExitStatus::from_raw(code << 8)),
            Ok(WaitStatus::Signaled(_, sig, _)) => {
                Some(std::process::ExitStatus::from_raw(sig as i32))
            }
            _ => None,
        }
    }

    /// Reads what the process wrote since its last answer without being asked: untagged lines are
    /// shown; a tagged one is an answer too many (it would be taken for the next command's).
    fn drain_unasked(&mut self) -> Result<(), ModuleError> {
        loop {
            while let Some(line) = self.take_line() {
                if let Some(answer) = line.strip_prefix(TAG) {
                    return Err(self.fail(format!(
                        "wrote `{TAG}{answer}` when nothing was asked (an answer too many)"
                    )));
                }
                self.stray(&line);
            }
            if self.eof || !self.fill(Duration::ZERO) {
                return Ok(());
            }
        }
    }

    /// The next complete line of what was read, without its line end.
    fn take_line(&mut self) -> Option<String> {
        let i = self.pending.iter().position(|&b| b == b'\n')?;
        let line = String::from_utf8_lossy(&self.pending[..i])
            .trim_end_matches('\r')
            .to_string();
        self.pending.drain(..=i);
        Some(line)
    }

    /// An untagged line: shown (the first few of the process) and counted.
    fn stray(&mut self, line: &str) {
        self.stray += 1;
        if !line.trim().is_empty() {
            show(&self.label, "ignored an untagged line", line, &self.shown);
        }
    }

    /// Waits up to `wait` for stdout and reads what is there: `false` when nothing came (or it ended).
    fn fill(&mut self, wait: Duration) -> bool {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        use std::os::fd::AsFd;
        let ms = u16::try_from(wait.as_millis()).unwrap_or(u16::MAX);
        let mut fds = [PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::from(ms)) {
            Ok(0) | Err(nix::errno::Errno::EINTR) => return false,
            Ok(_) => {}
            Err(_) => {
                self.eof = true;
                return false;
            }
        }
        let mut chunk = [0u8; 64 * 1024];
        match self.stdout.read(&mut chunk) {
            Ok(0) | Err(_) => {
                self.eof = true;
                false
            }
            Ok(n) => {
                self.pending.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    fn fail(&mut self, what: String) -> ModuleError {
        self.broken = true;
        ModuleError {
            module: self.label.clone(),
            what,
        }
    }

    /// Sends `command` and waits for its answer (the text after the tag).
    fn ask(&mut self, command: &str) -> Result<String, ModuleError> {
        if self.broken {
            return Err(self.fail("failed before".into()));
        }
        self.drain_unasked()?;
        let sent = self
            .stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|()| self.stdin.flush());
        if sent.is_err() {
            let how = self.exit(Duration::from_millis(500));
            return Err(self.fail(format!("{how} before `{command}`{}", self.last_words())));
        }
        match self.next_answer(Instant::now() + self.timeout) {
            Event::Answer(line) => Ok(line),
            Event::TooLong => Err(self.fail(format!(
                "wrote a line longer than {} MiB answering `{command}`",
                MAX_LINE >> 20
            ))),
            Event::Flood => Err(self.fail(format!(
                "wrote more than {MAX_STRAY} untagged lines before answering `{command}` (a flood)"
            ))),
            Event::Eof => {
                let how = self.exit(Duration::from_millis(500));
                Err(self.fail(format!(
                    "{how} while answering `{command}`{}",
                    self.last_words()
                )))
            }
            Event::Timeout => Err(self.fail(format!(
                "did not answer `{command}` within {} ms",
                self.timeout.as_millis()
            ))),
        }
    }

    /// The next tagged line of stdout (without its tag), read on this thread until `deadline`: lines
    /// without the tag are shown and counted, and more than [`MAX_STRAY`] of them in a row, or a line
    /// past [`MAX_LINE`], end the wait.
    fn next_answer(&mut self, deadline: Instant) -> Event {
        loop {
            while let Some(line) = self.take_line() {
                if let Some(answer) = line.strip_prefix(TAG) {
                    self.stray = 0;
                    return Event::Answer(answer.to_string());
                }
                self.stray(&line);
                if self.stray > MAX_STRAY {
                    return Event::Flood;
                }
            }
            if self.pending.len() > MAX_LINE {
                return Event::TooLong;
            }
            if self.eof {
                return Event::Eof;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Event::Timeout;
            }
            self.fill(left.max(Duration::from_millis(1)));
        }
    }

    /// ` (its last words: …)`: its last line of stderr, if any.
    fn last_words(&self) -> String {
        let last = self.stderr_last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_empty() {
            String::new()
        } else {
            format!(" (its last words: {last})")
        }
    }

    /// How the process ended, waiting up to `wait` for it.
    fn exit(&mut self, wait: Duration) -> String {
        let until = Instant::now() + wait;
        loop {
            match self.status() {
                Some(status) => return crate::sandbox::describe_exit(status),
                None if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                None => return "closed its output".into(),
            }
        }
    }

    fn nonsense(&mut self, command: &str, answer: &str, expected: &str) -> ModuleError {
        self.fail(format!(
            "answered `{TAG}{answer}` to `{command}`: expected {expected}"
        ))
    }

    /// Reads `ok STATE`.
    fn state(&mut self, command: &str, words: &[&str], answer: &str) -> Result<State, ModuleError> {
        let expected = "`ok next 0|1` or `ok end first|second|draw`, then `score A B` or nothing";
        let next = match words {
            ["next", "0", ..] => Ok(Player::First),
            ["next", "1", ..] => Ok(Player::Second),
            ["end", "first", ..] => Err(Outcome::Win(Player::First)),
            ["end", "second", ..] => Err(Outcome::Win(Player::Second)),
            ["end", "draw", ..] => Err(Outcome::Draw),
            _ => return Err(self.nonsense(command, answer, expected)),
        };
        let score = match &words[2..] {
            [] => None,
            ["score", a, b] => match (a.parse(), b.parse()) {
                (Ok(a), Ok(b)) => Some([a, b]),
                _ => return Err(self.nonsense(command, answer, expected)),
            },
            _ => return Err(self.nonsense(command, answer, expected)),
        };
        Ok(State { next, score })
    }

    fn current(&mut self) -> Result<State, ModuleError> {
        match self.state {
            Some(s) => Ok(s),
            None => Err(self.fail("was asked about a game it has not started".into())),
        }
    }
}

impl Judge for Session {
    fn start(&mut self, variant: &str) -> Result<Result<(), String>, ModuleError> {
        let command = if variant.is_empty() {
            "new".to_string()
        } else {
            format!("new {variant}")
        };
        let answer = self.ask(&command)?;
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.first() {
            Some(&"ok") => {
                self.state = Some(self.state(&command, &words[1..], &answer)?);
                Ok(Ok(()))
            }
            Some(&"refused") => Ok(Err(rest(&answer, "refused"))),
            _ => Err(self.nonsense(&command, &answer, "`ok STATE` or `refused REASON`")),
        }
    }

    fn variant(&mut self) -> Result<String, ModuleError> {
        let answer = self.ask("variant")?;
        if answer == "variant" || answer.starts_with("variant ") {
            Ok(rest(&answer, "variant"))
        } else {
            Err(self.nonsense("variant", &answer, "`variant WORDS…`"))
        }
    }

    fn turn(&mut self) -> Result<Player, ModuleError> {
        // Once over, the side that would have moved: the arena asks the outcome first.
        Ok(match self.current()?.next {
            Ok(p) => p,
            Err(_) => Player::First,
        })
    }

    fn legal(&mut self) -> Result<String, ModuleError> {
        let answer = self.ask("legal")?;
        if answer == "legal" || answer.starts_with("legal ") {
            Ok(rest(&answer, "legal"))
        } else {
            Err(self.nonsense("legal", &answer, "`legal MOVE MOVE …`"))
        }
    }

    fn play(&mut self, text: &str) -> Result<Verdict, ModuleError> {
        let command = format!("play {text}");
        let answer = self.ask(&command)?;
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.first() {
            Some(&"ok") => {
                self.state = Some(self.state(&command, &words[1..], &answer)?);
                Ok(Verdict::Played)
            }
            Some(&"illegal") => Ok(Verdict::Illegal(rest(&answer, "illegal"))),
            Some(&"unparsable") => Ok(Verdict::Unparsable(rest(&answer, "unparsable"))),
            Some(&"over") if words.len() == 1 => Ok(Verdict::Over),
            _ => Err(self.nonsense(
                &command,
                &answer,
                "`ok STATE`, `illegal REASON`, `unparsable REASON` or `over`",
            )),
        }
    }

    fn undo(&mut self) -> Result<bool, ModuleError> {
        let answer = self.ask("undo")?;
        let words: Vec<&str> = answer.split_whitespace().collect();
        match words.first() {
            Some(&"ok") => {
                self.state = Some(self.state("undo", &words[1..], &answer)?);
                Ok(true)
            }
            Some(&"no") if words.len() == 1 => Ok(false),
            _ => Err(self.nonsense("undo", &answer, "`ok STATE` or `no`")),
        }
    }

    fn outcome(&mut self) -> Result<Option<Outcome>, ModuleError> {
        Ok(self.current()?.next.err())
    }

    fn score(&mut self) -> Result<Option<[u32; 2]>, ModuleError> {
        Ok(self.current()?.score)
    }

    fn frame(&mut self) -> Result<Frame, ModuleError> {
        let answer = self.ask("frame")?;
        match answer.strip_prefix("frame ") {
            Some(json) => frame_from_json(json).map_err(|e| self.fail(format!("`frame` gave {e}"))),
            None => Err(self.nonsense("frame", &answer, "`frame JSON`")),
        }
    }
}

impl Drop for Session {
    /// Says `quit` to a process in good standing, then kills its process group (while its leader is
    /// still unreaped, so the group cannot be another's), waits for it, and ends its jail.
    fn drop(&mut self) {
        if !self.broken {
            let _ = self.stdin.write_all(b"quit\n");
        }
        if let Some(jail) = self.jail.take() {
            jail.kill();
            let _ = self.child.wait();
            jail.finish();
        }
    }
}

/// Starts `cmd` on one long-lived thread of the process. A referee gets the parent-death signal
/// (SIGKILL when the arena dies), which Linux ties to the *thread* that forked it; referee processes
/// are kept from game to game and shared by every thread, and a short-lived one (a blocking task of
/// the server's, a report's scoped thread) would take them with it when it ends.
fn spawn_kept(cmd: std::process::Command) -> std::io::Result<Child> {
    type Request = (
        std::process::Command,
        std::sync::mpsc::Sender<std::io::Result<Child>>,
    );
    static KEEPER: std::sync::OnceLock<Mutex<std::sync::mpsc::Sender<Request>>> =
        std::sync::OnceLock::new();
    let keeper = KEEPER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("referee-spawner".into())
            .spawn(move || {
                for (mut cmd, back) in rx {
                    let _ = back.send(cmd.spawn());
                }
            })
            .expect("a thread for starting referee processes");
        Mutex::new(tx)
    });
    let (back, answer) = std::sync::mpsc::channel();
    keeper
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, back))
        .map_err(|_| std::io::Error::other("the referee spawner thread is gone"))?;
    answer
        .recv()
        .map_err(|_| std::io::Error::other("the referee spawner thread is gone"))?
}

/// The words of `answer` after its first word `first`, trimmed.
fn rest(answer: &str, first: &str) -> String {
    answer
        .strip_prefix(first)
        .unwrap_or(answer)
        .trim()
        .to_string()
}

/// Reads one line into `line` (with its newline): `Ok(false)` at the end, `Err` past [`MAX_LINE`].
fn read_capped(reader: &mut impl BufRead, line: &mut Vec<u8>) -> Result<bool, ()> {
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Ok(!line.is_empty()),
        };
        if buf.is_empty() {
            return Ok(!line.is_empty());
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..take]);
        reader.consume(take);
        if line.len() > MAX_LINE + 1 {
            return Err(());
        }
        if done {
            return Ok(true);
        }
    }
}

fn read_stderr(stderr: impl Read, label: &str, shown: &AtomicUsize, last: &Mutex<String>) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_capped(&mut reader, &mut line) {
            // Past the cap: shown cut, the rest read as further lines.
            Ok(true) | Err(()) => {}
            Ok(false) => return,
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end();
        if text.is_empty() {
            continue;
        }
        *last.lock().unwrap_or_else(|e| e.into_inner()) = text.chars().take(200).collect();
        show(label, "stderr", text, shown);
    }
}

/// Shows a referee's line on the arena's stderr: the first [`SHOWN`] of a process, then one notice.
fn show(label: &str, what: &str, text: &str, shown: &AtomicUsize) {
    let n = shown.fetch_add(1, Ordering::Relaxed);
    if n < SHOWN {
        let text: String = text.chars().take(200).collect();
        eprintln!("referee {label}: {what}: {text}");
    } else if n == SHOWN {
        eprintln!("referee {label}: further lines of this process are not shown");
    }
}
