//! `faulty`: a bot that misbehaves on purpose, one flag per failure, for testing the arena.
//!
//! It plays random legal moves (as [`RandomEngine`]) until the move number given to a fault flag, then
//! fails in the way the flag names; other flags misbehave from the start (a daemon, a pondering thread, a
//! stderr flood). Modelled on fastchess's mock engines (`--crash-on-go`, …). Everything here is meant to
//! be contained by the arena: run it only under the arena.

use std::io::Write;
use std::time::Duration;

use games::{Game, PlayError};

use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};
use crate::random::RandomEngine;

pub mod attack;

pub use attack::Attack;

/// How the bot fails, and on which of its own moves (1 = its first `go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Exit with status 3 instead of answering.
    Crash,
    /// Never answer (sleeps forever).
    Hang,
    /// Answer with a move that parses but is off the board.
    Illegal,
    /// Answer `bestmove` with a word that is no move.
    Garbage,
    /// Write a 100 KiB line without a newline, then hang.
    Flood,
    /// Answer `bestmove` with no move at all (a protocol error).
    NoMove,
    /// Answer `bestmove resign`: not a fault but a resignation (with `delay_ms` over the clock, a late
    /// one).
    Resign,
    /// Exit with status 0 instead of answering.
    ExitZero,
    /// Abort (SIGABRT).
    Abort,
    /// Die of a segmentation fault (SIGSEGV).
    Segv,
    /// Answer with a move of another game (a tic-tac-toe square in Connect Four, …).
    OtherGame,
    /// Answer with bytes that are not UTF-8.
    BadUtf8,
    /// Close stdout and stay alive, silent.
    CloseStdout,
    /// Answer one `go` twice, both answers in one write.
    TwoAnswers,
    /// Answer one `go` twice, each answer written and flushed on its own (as a Python or C bot that
    /// prints twice does), then play on.
    TwoAnswersApart,
    /// Allocate and touch memory without end, 16 MiB at a time.
    EatMemory,
    /// Fork this many children (each sleeps); exit with status 3 when a fork is refused.
    Fork(u32),
    /// Write a file of this many MiB into the working directory.
    BigFile(u32),
    /// Open `/dev/null` this many times; exit with status 3 when an open is refused.
    OpenFiles(u32),
}

/// The faulty engine: a random player with a scheduled fault and optional delays.
#[derive(Debug, Default)]
pub struct FaultyEngine {
    random: RandomEngine,
    /// The fault and the move number (1-based, counting this bot's `go` commands) it happens on.
    pub fault: Option<(Fault, u32)>,
    /// Sleep this long before every answer, ms (to spend clock time).
    pub delay_ms: u64,
    /// Answer the first option it is sent (the arena sends `seed` before `isready`) with a `bestmove`:
    /// an answer before `readyok`.
    pub bestmove_before_readyok: bool,
    /// Append the process's CPU time, ms (all threads), to this file at every `go`.
    pub cpu_file: Option<std::path::PathBuf>,
    /// Answer `uginewgame` (after `readyok`, before the first `go`) with a `bestmove`.
    pub bestmove_after_readyok: bool,
    /// The attack it makes on its first `go`, before playing on.
    pub attack: Option<Attack>,
    moves: u32,
}

impl FaultyEngine {
    /// A faulty engine with `fault` on move `on_move` (1-based).
    pub fn new(fault: Option<(Fault, u32)>, delay_ms: u64) -> Self {
        FaultyEngine {
            random: RandomEngine::default(),
            fault,
            delay_ms,
            bestmove_before_readyok: false,
            cpu_file: None,
            bestmove_after_readyok: false,
            attack: None,
            moves: 0,
        }
    }
}

/// A move in the notation of another game than `G`'s: the first of a Dots point, a tic-tac-toe square
/// and a column number that `G` does not parse.
pub fn other_game_move<G: Game>() -> &'static str {
    ["2-2", "b2", "4"]
        .into_iter()
        .find(|t| t.parse::<G::Move>().is_err())
        .unwrap_or("?")
}

/// The CPU time this process has used, ms, all threads (`getrusage(RUSAGE_SELF)`).
pub fn cpu_ms() -> u64 {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    let ms = |t: libc::timeval| t.tv_sec as u64 * 1000 + t.tv_usec as u64 / 1000;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// A move string that parses in `pos`'s notation but lies off its board: the first of `k`, `ak` and
/// `k-1` for k = 1, 2, … that does (for Connect Four 9 wide, where no column is off the board, `10`,
/// which does not parse).
pub fn off_board_move<G: Game>(pos: &G) -> String {
    (1..=300u32)
        .flat_map(|k| [format!("{k}"), format!("a{k}"), format!("{k}-1")])
        .find(|t| {
            t.parse::<G::Move>()
                .is_ok_and(|m| matches!(pos.check(m), Err(PlayError::OffBoard(_))))
        })
        .unwrap_or_else(|| "10".into())
}

fn raw(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

impl Engine for FaultyEngine {
    fn name(&self) -> String {
        "faulty".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        self.random.options()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if self.bestmove_before_readyok {
            raw("bestmove 1\n");
        }
        self.random.set_option(name, value)
    }

    fn new_game(&mut self) {
        if self.bestmove_after_readyok {
            // Column 4 in Connect Four: legal in the empty position, so a referee without a sync
            // point would take it for the first move.
            raw("bestmove 4\n");
        }
        self.random.new_game();
    }

    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        self.moves += 1;
        if self.moves == 1 {
            if let Some(attack) = &self.attack {
                attack.run();
            }
        }
        if let Some(path) = &self.cpu_file {
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = f.write_all(format!("{}\n", cpu_ms()).as_bytes());
            }
        }
        if self.delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(self.delay_ms));
        }
        match self.fault {
            Some((fault, n)) if n == self.moves => match fault {
                Fault::Crash => std::process::exit(3),
                Fault::Hang => hang(),
                Fault::Illegal => raw(&format!("bestmove {}\n", off_board_move(pos))),
                Fault::Garbage => raw("bestmove banana\n"),
                Fault::Flood => {
                    // Four MiB without a newline: the arena stops reading at its line cap.
                    let chunk = "x".repeat(64 * 1024);
                    for _ in 0..64 {
                        raw(&chunk);
                    }
                    hang()
                }
                Fault::NoMove => raw("bestmove\n"),
                Fault::Resign => raw("bestmove resign\n"),
                Fault::ExitZero => std::process::exit(0),
                Fault::Abort => std::process::abort(),
                Fault::Segv => {
                    // Rust's runtime handles SIGSEGV (to report stack overflows) and returns from a
                    // raised one: restore the default action first.
                    // SAFETY: signal and raise only change this process's handling and send it a signal.
                    unsafe {
                        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                        libc::raise(libc::SIGSEGV);
                    }
                    hang()
                }
                Fault::OtherGame => raw(&format!("bestmove {}\n", other_game_move::<G>())),
                Fault::BadUtf8 => {
                    let mut out = std::io::stdout().lock();
                    let _ = out.write_all(b"bestmove \xff\xfe\xc3\n");
                    let _ = out.flush();
                }
                Fault::CloseStdout => {
                    // SAFETY: closing fd 1 only ends this process's output.
                    unsafe { libc::close(1) };
                    hang()
                }
                Fault::TwoAnswers => {
                    let legal = pos.legal_moves();
                    let (a, b) = (legal[0], legal[legal.len() - 1]);
                    raw(&format!("bestmove {a}\nbestmove {b}\n"));
                    hang()
                }
                Fault::TwoAnswersApart => {
                    // The first answer now, flushed; the second is the engine's own answer below,
                    // another move, written and flushed by the protocol loop.
                    let legal = pos.legal_moves();
                    raw(&format!("bestmove {}\n", legal[legal.len() - 1]));
                    return Some(legal[0]);
                }
                Fault::EatMemory => eat_memory(),
                Fault::Fork(n) => fork_children(n),
                Fault::BigFile(mb) => write_big_file(mb),
                Fault::OpenFiles(n) => open_files(n),
            },
            _ => {}
        }
        // After a written fault the arena has already ruled; answer anyway, as a buggy bot would.
        self.random.choose(pos, limits, info)
    }
}

/// Allocates 16 MiB at a time, touching every page, until the process is stopped.
fn eat_memory() -> ! {
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut block = vec![0u8; 16 << 20];
        for i in (0..block.len()).step_by(4096) {
            block[i] = 1;
        }
        hoard.push(std::hint::black_box(block));
    }
}

/// Forks `n` children that sleep; exits with status 3 when the kernel refuses one.
fn fork_children(n: u32) -> ! {
    for k in 0..n {
        // SAFETY: the child only sleeps (async-signal-safe), whatever the parent's threads hold.
        match unsafe { libc::fork() } {
            -1 => {
                eprintln!(
                    "faulty: fork {} of {n} refused: {}",
                    k + 1,
                    std::io::Error::last_os_error()
                );
                std::process::exit(3);
            }
            0 => loop {
                // SAFETY: sleep is async-signal-safe.
                unsafe { libc::sleep(1000) };
            },
            _ => {}
        }
    }
    hang()
}

/// Writes `mb` MiB to `big.bin` in the working directory; exits with status 3 if a write is refused.
fn write_big_file(mb: u32) -> ! {
    let chunk = vec![7u8; 1 << 20];
    let mut f = match std::fs::File::create("big.bin") {
        Ok(f) => f,
        Err(e) => {
            eprintln!("faulty: big.bin: {e}");
            std::process::exit(3)
        }
    };
    for _ in 0..mb {
        if let Err(e) = f.write_all(&chunk) {
            eprintln!("faulty: writing big.bin: {e}");
            std::process::exit(3);
        }
    }
    hang()
}

/// Opens `/dev/null` `n` times and keeps every descriptor; exits with status 3 when an open is refused.
fn open_files(n: u32) -> ! {
    let mut kept = Vec::new();
    for k in 0..n {
        match std::fs::File::open("/dev/null") {
            Ok(f) => kept.push(f),
            Err(e) => {
                eprintln!("faulty: open {} of {n} refused: {e}", k + 1);
                std::process::exit(3);
            }
        }
    }
    hang()
}

/// Starts a daemon the classic way (fork, `setsid`, fork again) that sleeps forever, and returns its pid
/// in the parent (the bot goes on playing).
pub fn start_daemon() -> Option<u32> {
    let mut pipe = [0i32; 2];
    // SAFETY: a pipe for the grandchild's pid; fork, setsid, sleep and write are async-signal-safe.
    unsafe {
        if libc::pipe(pipe.as_mut_ptr()) != 0 {
            return None;
        }
        match libc::fork() {
            -1 => None,
            0 => {
                libc::close(pipe[0]);
                libc::setsid();
                if libc::fork() == 0 {
                    let pid = libc::getpid();
                    libc::write(pipe[1], (&pid as *const i32).cast(), 4);
                    libc::close(pipe[1]);
                    loop {
                        libc::sleep(1000);
                    }
                }
                libc::close(pipe[1]);
                libc::_exit(0);
            }
            child => {
                // Only the grandchild may hold the write end: if it dies before writing (an arena
                // without cgroups may kill an orphan at once), the read ends instead of blocking.
                libc::close(pipe[1]);
                let mut status = 0;
                libc::waitpid(child, &mut status, 0);
                let mut pid: i32 = 0;
                let got = libc::read(pipe[0], (&mut pid as *mut i32).cast(), 4);
                libc::close(pipe[0]);
                (got == 4).then_some(pid as u32)
            }
        }
    }
}

/// Starts a thread that computes without end: a bot that ponders on its opponent's time.
pub fn start_pondering() {
    std::thread::spawn(|| {
        let mut x: u64 = 1;
        loop {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    });
}

/// Writes `mb` MiB to stderr, then returns (the bot then plays on).
pub fn flood_stderr(mb: u32) {
    let chunk = vec![b'e'; 1 << 20];
    let mut err = std::io::stderr().lock();
    for _ in 0..mb {
        if err.write_all(&chunk).is_err() {
            break;
        }
    }
}
