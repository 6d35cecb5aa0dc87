//! `oppai-wrapper`: the outside Dots engine oppai-rs as a UGI bot of the arena ([`bots::oppai`]).
//!
//! ```text
//! oppai-wrapper [--oppai PATH] [--overhead-ms MS] [--full-log] [-- OPPAI-ARGS…]
//! ```
//!
//! `--oppai` (or the environment variable `OPPAI_BIN`) is oppai-rs's command-line program; the words
//! after `--` are its own options, passed as they are (`--solver Minimax --threads-count 1`). The
//! wrapper starts it at once, so its start-up falls in the handshake, not on the clock.

use std::path::PathBuf;
use std::process::ExitCode;

use bots::oppai::{OppaiEngine, OppaiProcess, DEFAULT_OVERHEAD_MS};
use clap::Parser;

#[derive(Debug, Parser)]
#[command(
    name = "oppai-wrapper",
    about = "The Dots engine oppai-rs (an outside program) as a bot of the arena, speaking UGI on stdin/stdout"
)]
struct Args {
    /// oppai-rs's command-line program (the binary `main` of its package oppai-cli).
    #[arg(long, env = "OPPAI_BIN", value_name = "PATH")]
    oppai: PathBuf,
    /// Milliseconds of each move's time kept back from oppai-rs, for its search to wind down and for
    /// the pipes and the scheduler.
    #[arg(long, default_value_t = DEFAULT_OVERHEAD_MS, value_name = "MS")]
    overhead_ms: u64,
    /// Forward every line of oppai-rs's log to stderr, not only those that are not INFO.
    #[arg(long)]
    full_log: bool,
    /// oppai-rs's own options, after `--`, e.g. `-- --solver Minimax --threads-count 1`.
    #[arg(last = true, value_name = "OPPAI-ARGS")]
    oppai_args: Vec<String>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let oppai = match OppaiProcess::spawn(&args.oppai, &args.oppai_args, args.full_log) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("oppai-wrapper: cannot start oppai-rs: {e}");
            return ExitCode::from(2);
        }
    };
    let name = std::iter::once("oppai-rs".to_string())
        .chain(args.oppai_args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let mut engine = OppaiEngine::new(oppai, name, args.overhead_ms);
    let served = bots::protocol::serve(
        &mut engine,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    );
    let s = engine.stats;
    eprintln!(
        "oppai-wrapper: {} moves, {} ms asked of oppai-rs, {} ms from go to bestmove, worst overrun {} ms, {} field restarts, {} moves replaced",
        s.moves, s.asked_ms, s.used_ms, s.worst_overrun_ms, s.inits, s.replaced
    );
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oppai-wrapper: {e}");
            ExitCode::from(1)
        }
    }
}
