//! The command line shared by every bot executable (`random`, `faulty`, …) and by `arena bot <name>`.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use games::GameSpec;

use crate::engine::{Engine, Limits};
use crate::faulty::{Fault, FaultyEngine};
use crate::protocol::{serve, serve_codecup};
use crate::random::RandomEngine;

/// The names of the bots this crate serves, for `arena bot <name>`, configs' `builtin` and error messages.
/// Adding a bot: its name here, one arm in [`run`], and `src/bin/<name>.rs`.
pub const BOT_NAMES: &[&str] = &[
    "random",
    "faulty",
    "minimax",
    "alphabeta",
    "ttt-boardvalue",
    "c4-solver",
    "dots-tps",
    "c4-zx",
];

/// Flags common to every bot, plus the fault flags of `faulty`.
#[derive(Debug, Parser)]
#[command(about = "A reference bot speaking the arena protocol (UGI) on stdin/stdout")]
pub struct BotArgs {
    /// Speak the CodeCup protocol for this game instead of UGI, e.g. --codecup "connect4 7 6".
    #[arg(long, value_name = "GAME")]
    pub codecup: Option<String>,
    /// Set an engine option before play: --set NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Play the game of this game module (a `.wasm` file, `docs/modules.md`): the protocol's `game`
    /// command then names it by the module's own name.
    #[arg(long, value_name = "FILE")]
    pub module: Option<std::path::PathBuf>,
    /// CodeCup mode only: the fixed depth limit per move, plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// CodeCup mode only: the time per move, ms.
    #[arg(long)]
    pub movetime: Option<u64>,

    /// faulty: exit with status 3 on this move (1 = own first move).
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub crash_on_move: Option<u32>,
    /// faulty: never answer on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub hang_on_move: Option<u32>,
    /// faulty: answer an off-board move on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub illegal_on_move: Option<u32>,
    /// faulty: answer `bestmove banana` on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub garbage_on_move: Option<u32>,
    /// faulty: write a 100 KiB line without a newline on this move, then hang.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub flood_on_move: Option<u32>,
    /// faulty: answer `bestmove` without a move on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub nomove_on_move: Option<u32>,
    /// faulty: answer `bestmove resign` on this move (UGI's resignation: a loss, not a forfeit).
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub resign_on_move: Option<u32>,
    /// faulty: exit with status 0 on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub exit0_on_move: Option<u32>,
    /// faulty: abort (SIGABRT) on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub abort_on_move: Option<u32>,
    /// faulty: die of SIGSEGV on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub segv_on_move: Option<u32>,
    /// faulty: answer a move of another game on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub other_game_on_move: Option<u32>,
    /// faulty: answer bytes that are not UTF-8 on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub bad_utf8_on_move: Option<u32>,
    /// faulty: close stdout and stay alive on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub close_stdout_on_move: Option<u32>,
    /// faulty: answer this move's go twice.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub two_answers_on_move: Option<u32>,
    /// faulty: answer this move's go twice, each answer written and flushed on its own, then play on.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub two_answers_apart_on_move: Option<u32>,
    /// faulty: allocate memory without end on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub eat_memory_on_move: Option<u32>,
    /// faulty: fork --forks children on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub fork_on_move: Option<u32>,
    /// faulty: how many children --fork-on-move forks.
    #[arg(
        long,
        default_value_t = 200,
        value_name = "N",
        help_heading = "Faults (faulty only)"
    )]
    pub forks: u32,
    /// faulty: write a file of --file-mb MiB on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub big_file_on_move: Option<u32>,
    /// faulty: the size of --big-file-on-move's file, MiB.
    #[arg(
        long,
        default_value_t = 300,
        value_name = "MB",
        help_heading = "Faults (faulty only)"
    )]
    pub file_mb: u32,
    /// faulty: open --files files on this move.
    #[arg(long, value_name = "N", help_heading = "Faults (faulty only)")]
    pub open_files_on_move: Option<u32>,
    /// faulty: how many files --open-files-on-move opens.
    #[arg(
        long,
        default_value_t = 5000,
        value_name = "N",
        help_heading = "Faults (faulty only)"
    )]
    pub files: u32,
    /// faulty: exit with status 3 before reading anything.
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub crash_at_start: bool,
    /// faulty: start a `setsid` daemon (double fork) that sleeps forever; its pid goes to --pid-file.
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub daemon: bool,
    /// faulty: ignore SIGTERM.
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub ignore_sigterm: bool,
    /// faulty: answer the first setoption with a bestmove (before readyok).
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub bestmove_before_readyok: bool,
    /// faulty: answer uginewgame (after readyok, before the first go) with a bestmove.
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub bestmove_after_readyok: bool,
    /// faulty: on its first go, attack its opponent, the arena or the results, report the outcome on
    /// stderr, then play on: kill-opponent, stop-opponent, stop-arena, forge-results,
    /// read-environ:TEXT, connect-socket:PATH, shm-flood:MB.
    #[arg(long, value_name = "ATTACK", help_heading = "Faults (faulty only)")]
    pub attack: Option<crate::faulty::Attack>,
    /// faulty: compute without end in a second thread (pondering on the opponent's time).
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub ponder: bool,
    /// faulty: write this many MiB to stderr at start-up, then play on.
    #[arg(long, value_name = "MB", help_heading = "Faults (faulty only)")]
    pub stderr_mb: Option<u32>,
    /// faulty: append the process's CPU time, ms, to this file at every go.
    #[arg(long, value_name = "PATH", help_heading = "Faults (faulty only)")]
    pub cpu_file: Option<PathBuf>,
    /// faulty: never finish the handshake (no `ugiok`).
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub no_ugiok: bool,
    /// faulty: sleep this long before each move, ms.
    #[arg(
        long,
        default_value_t = 0,
        value_name = "MS",
        help_heading = "Faults (faulty only)"
    )]
    pub delay_ms: u64,
    /// faulty: start a child process (`sleep 1000`) that must die with the bot's process group.
    #[arg(long, help_heading = "Faults (faulty only)")]
    pub spawn_child: bool,
    /// faulty: append the bot's pid (and its child's) to this file, one per line.
    #[arg(long, value_name = "PATH", help_heading = "Faults (faulty only)")]
    pub pid_file: Option<PathBuf>,
}

impl BotArgs {
    fn fault(&self) -> Option<(Fault, u32)> {
        [
            (Fault::Crash, self.crash_on_move),
            (Fault::Hang, self.hang_on_move),
            (Fault::Illegal, self.illegal_on_move),
            (Fault::Garbage, self.garbage_on_move),
            (Fault::Flood, self.flood_on_move),
            (Fault::NoMove, self.nomove_on_move),
            (Fault::Resign, self.resign_on_move),
            (Fault::ExitZero, self.exit0_on_move),
            (Fault::Abort, self.abort_on_move),
            (Fault::Segv, self.segv_on_move),
            (Fault::OtherGame, self.other_game_on_move),
            (Fault::BadUtf8, self.bad_utf8_on_move),
            (Fault::CloseStdout, self.close_stdout_on_move),
            (Fault::TwoAnswers, self.two_answers_on_move),
            (Fault::TwoAnswersApart, self.two_answers_apart_on_move),
            (Fault::EatMemory, self.eat_memory_on_move),
            (Fault::Fork(self.forks), self.fork_on_move),
            (Fault::BigFile(self.file_mb), self.big_file_on_move),
            (Fault::OpenFiles(self.files), self.open_files_on_move),
        ]
        .into_iter()
        .find_map(|(f, n)| n.map(|n| (f, n)))
    }

    fn uses_faults(&self) -> bool {
        self.fault().is_some()
            || self.no_ugiok
            || self.delay_ms > 0
            || self.spawn_child
            || self.pid_file.is_some()
            || self.crash_at_start
            || self.daemon
            || self.ignore_sigterm
            || self.bestmove_before_readyok
            || self.bestmove_after_readyok
            || self.attack.is_some()
            || self.ponder
            || self.stderr_mb.is_some()
            || self.cpu_file.is_some()
    }
}

/// Runs the bot `name` on this process's stdin/stdout with command-line `args` (without the program name).
/// Returns the process exit code: 0 after `quit` or end of input, 2 on bad arguments.
pub fn run(name: &str, args: &[String]) -> ExitCode {
    let argv = std::iter::once(name.to_string()).chain(args.iter().cloned());
    let parsed = match BotArgs::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    if name != "faulty" && parsed.uses_faults() {
        eprintln!("{name}: fault flags are for the bot 'faulty' only");
        return ExitCode::from(2);
    }
    // One line per bot: its name and the engine that serves it.
    let result = match name {
        "random" => drive(RandomEngine::default(), &parsed),
        "minimax" => drive(crate::minimax::MinimaxEngine::default(), &parsed),
        "alphabeta" => drive(crate::alphabeta::AlphaBetaEngine::default(), &parsed),
        "ttt-boardvalue" => drive(crate::boardvalue::BoardValueEngine::default(), &parsed),
        "c4-solver" => drive(crate::c4_solver::C4Solver::default(), &parsed),
        "dots-tps" => drive(crate::dots_tps::DotsTps::default(), &parsed),
        "c4-zx" => drive(crate::c4_zx::C4Zx::default(), &parsed),
        "faulty" => run_faulty(&parsed),
        // Not a reference bot (so not in BOT_NAMES): the person's side of `arena play`.
        "human" => drive(crate::human::Human::default(), &parsed),
        _ => Err(format!(
            "unknown bot {name:?}; known: {}",
            BOT_NAMES.join(", ")
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_faulty(args: &BotArgs) -> Result<(), String> {
    if args.crash_at_start {
        eprintln!("faulty: crashing at start-up, as asked");
        std::process::exit(3);
    }
    if args.ignore_sigterm {
        // SAFETY: setting a signal's disposition to ignore has no other effect.
        unsafe { libc::signal(libc::SIGTERM, libc::SIG_IGN) };
    }
    let mut pids = vec![std::process::id()];
    if args.daemon {
        pids.extend(crate::faulty::start_daemon());
    }
    if args.ponder {
        crate::faulty::start_pondering();
    }
    if let Some(mb) = args.stderr_mb {
        crate::faulty::flood_stderr(mb);
    }
    let _child = if args.spawn_child {
        let child = std::process::Command::new("sleep")
            .arg("1000")
            .spawn()
            .map_err(|e| format!("spawn sleep: {e}"))?;
        pids.push(child.id());
        Some(child)
    } else {
        None
    };
    if let Some(path) = &args.pid_file {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // One write for all lines: bots of concurrent games append to the same file, and `writeln!`
        // may split a line into two writes that interleave with another bot's.
        let lines: String = pids.iter().map(|pid| format!("{pid}\n")).collect();
        f.write_all(lines.as_bytes()).map_err(|e| e.to_string())?;
    }
    if args.no_ugiok {
        // Read and ignore everything: the arena's startup deadline must fire.
        for line in io::stdin().lock().lines() {
            if line.map_err(|e| e.to_string())?.trim() == "quit" {
                return Ok(());
            }
        }
        return Ok(());
    }
    let mut engine = FaultyEngine::new(args.fault(), args.delay_ms);
    engine.bestmove_before_readyok = args.bestmove_before_readyok;
    engine.bestmove_after_readyok = args.bestmove_after_readyok;
    engine.attack = args.attack.clone();
    engine.cpu_file = args.cpu_file.clone();
    drive(engine, args)
}

fn drive<E: Engine>(mut engine: E, args: &BotArgs) -> Result<(), String> {
    if let Some(path) = &args.module {
        let bytes = std::fs::read(path).map_err(|e| format!("--module {}: {e}", path.display()))?;
        let label = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        games::module::load(&label, &bytes, games::module::Limits::default())
            .map_err(|e| format!("--module: {e}"))?;
    }
    for kv in &args.set {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--set expects NAME=VALUE, got {kv:?}"))?;
        engine.set_option(k, v).map_err(|e| e.to_string())?;
    }
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    let served = match &args.codecup {
        Some(game) => {
            let words: Vec<&str> = game.split_whitespace().collect();
            let spec: GameSpec =
                crate::protocol::game_spec(&words).map_err(|e| format!("--codecup: {e}"))?;
            let limits = Limits {
                depth: args.depth,
                movetime_ms: args.movetime,
                ..Limits::default()
            };
            serve_codecup(&mut engine, spec, limits, stdin, stdout)
        }
        None => serve(&mut engine, stdin, stdout),
    };
    match served {
        Ok(()) => Ok(()),
        // The arena closed the pipe: that is how a game may end.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}
