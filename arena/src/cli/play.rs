//! `arena play`: play a bot yourself in the terminal.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::{out, outln};

use super::runtime;

/// Play a bot yourself in the terminal: the board after every move, both clocks, moves typed in the
/// game's notation; the game is recorded like a tournament game in <results>/play-<time>/.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game and variant, e.g. "tictactoe", "connect4 7 6", "dots 20 20 cross" (quoted, or as words).
    #[arg(long, num_args = 1.., required = true, value_name = "GAME")]
    game: Vec<String>,
    /// The opponent: a built-in bot (random, minimax, alphabeta, c4-solver, dots-tps, …) or a path to a
    /// bot executable (with a `/`, e.g. ./mybot).
    #[arg(long)]
    vs: String,
    /// An engine option for the bot: --set NAME=VALUE (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Play second (default: you move first).
    #[arg(long)]
    second: bool,
    /// The bot's clock for the game, seconds.
    #[arg(long, default_value_t = 10.0)]
    bot_time: f64,
    /// The bot's increment per move, seconds.
    #[arg(long, default_value_t = 0.1)]
    bot_inc: f64,
    /// Your clock for the game, seconds (default: no clock, an hour per move at most).
    #[arg(long)]
    your_time: Option<f64>,
    /// Your increment per move, seconds.
    #[arg(long, default_value_t = 0.0)]
    your_inc: f64,
    /// The game's seed (sent to a bot that declares a `seed` option).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder that holds the game's results folder.
    #[arg(long, default_value = "results")]
    results: PathBuf,
}

/// Plays one game against the bot on this terminal, then prints the board and where it is recorded.
/// Exit status 0.
///
/// # Errors
/// A malformed --game, or [`arena::play::play`]'s errors.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let game = arena::config::GameConfig::from_words(&args.game.join(" "))
        .map_err(|e| anyhow::anyhow!("--game {e}"))?;
    let ms = |s: f64| (s * 1000.0).round().max(0.0) as u64;
    let me = std::process::id();
    let opts = arena::play::PlayOptions {
        game,
        opponent: args.vs,
        options: args.set,
        side: if args.second {
            games::Player::Second
        } else {
            games::Player::First
        },
        bot_time_ms: ms(args.bot_time),
        bot_inc_ms: ms(args.bot_inc),
        your_time_ms: args.your_time.map(ms),
        your_inc_ms: ms(args.your_inc),
        seed: args.seed,
        input: PathBuf::from(format!("/proc/{me}/fd/0")),
        output: PathBuf::from(format!("/proc/{me}/fd/1")),
        results_root: args.results,
    };
    append_to_stdout_file();
    let (record, dir) = runtime()?.block_on(arena::play::play(&opts))?;
    outln!();
    out!("{}", arena::replay::replay(&record, None, false)?);
    let detail = if record.detail.is_empty() {
        String::new()
    } else {
        format!(" ({})", record.detail)
    };
    outln!(
        "{} {} {}: {}{detail}",
        record.first,
        record.result,
        record.second,
        record.termination.as_str()
    );
    outln!(
        "recorded as {} in {} (arena replay {} {})",
        record.id,
        dir.join("games.csv").display(),
        dir.display(),
        record.id
    );
    Ok(ExitCode::SUCCESS)
}

/// `arena play … > file`: the person's side draws the boards through its own opening of this process's
/// stdout (`/proc/<pid>/fd/1`, for appending), which for a regular file is a second open file with an
/// offset of its own; this process's stdout then appends too, so the summary follows the boards instead
/// of overwriting the first of them. A terminal or a pipe has no offset and is left as it is.
fn append_to_stdout_file() {
    use nix::fcntl::{fcntl, FcntlArg, OFlag};
    let is_file = std::fs::metadata("/proc/self/fd/1").is_ok_and(|m| m.is_file());
    if !is_file {
        return;
    }
    if let Ok(flags) = fcntl(1, FcntlArg::F_GETFL) {
        let flags = OFlag::from_bits_truncate(flags) | OFlag::O_APPEND;
        // Best effort: without it the summary may overwrite the first boards, nothing worse.
        let _ = fcntl(1, FcntlArg::F_SETFL(flags));
    }
}
