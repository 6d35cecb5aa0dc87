//! `arena probe`: play a bot against a reference bot and tell whether it behaves.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use arena::{out, outln};

use super::runtime;

/// Play a bot executable against a reference bot and report whether it behaves: its handshake, each
/// game's ending, its slowest move, every forfeit with the end of its transcript. Exit status 0 when
/// it forfeited no game, 1 when it did (or on an error). Example:
/// `arena probe --game connect4 -- ./mybot --level 3`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    game: super::GameFlags,
    /// The bot's protocol.
    #[arg(long, default_value = "ugi", value_parser = ["ugi", "codecup"])]
    protocol: String,
    /// An option sent with setoption, NAME=VALUE (repeatable; UGI only).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Games to play, even: game pairs, the bot moving first in one game of each.
    #[arg(long, default_value_t = 4)]
    games: u32,
    /// The reference bot to play against.
    #[arg(long, default_value = "random")]
    opponent: String,
    /// Time per game, ms.
    #[arg(long, default_value_t = 10_000)]
    time_ms: u64,
    /// Increment per move, ms.
    #[arg(long, default_value_t = 100)]
    inc_ms: u64,
    /// A hard cap per move, ms.
    #[arg(long)]
    max_move_ms: Option<u64>,
    /// Deadline for the handshake, ms.
    #[arg(long, default_value_t = 5000)]
    startup_ms: u64,
    /// The seed of the schedule and of the opponent.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The bot's name in the results (default: the command's file name).
    #[arg(long)]
    name: Option<String>,
    /// The probe plays into <results>/probe-<name>/ (an earlier probe's folder is moved aside).
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Plain progress lines even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// The bot's command and its arguments, after `--`.
    #[arg(required = true, last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Plays the probe's games and prints its report. Exit status 0 when the bot forfeited no game, 1 when
/// it did, 130 when interrupted.
///
/// # Errors
/// A malformed --set, or [`arena::probe::run`]'s errors.
pub fn run(args: ProbeArgs) -> Result<ExitCode> {
    let options = args
        .set
        .iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .with_context(|| format!("--set {kv:?}: expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>>>()?;
    let (program, bot_args) = args.command.split_first().context("no bot command")?;
    let opts = &arena::probe::ProbeOptions {
        name_given: args.name.is_some(),
        name: args
            .name
            .unwrap_or_else(|| arena::probe::name_from_command(program, bot_args)),
        command: program.clone(),
        args: bot_args.to_vec(),
        protocol: if args.protocol == "codecup" {
            arena::config::ProtocolKind::Codecup
        } else {
            arena::config::ProtocolKind::Ugi
        },
        options,
        game: args.game.config()?,
        games: args.games,
        opponent: args.opponent,
        time_ms: args.time_ms,
        inc_ms: args.inc_ms,
        max_move_ms: args.max_move_ms,
        startup_ms: args.startup_ms,
        seed: args.seed,
    };
    let (results, bar) = (&args.results, !args.no_progress);
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    outln!(
        "probing {} ({}) at {} against {}: {} games, {} ms + {} ms per move",
        std::iter::once(&opts.command)
            .chain(&opts.args)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        if opts.protocol == arena::config::ProtocolKind::Codecup {
            "codecup"
        } else {
            "ugi"
        },
        opts.game.name,
        opts.opponent,
        opts.games,
        opts.time_ms,
        opts.inc_ms
    );
    let report = runtime()?.block_on(arena::probe::run(opts, &exe, results, bar))?;
    out!("{}", report.text());
    Ok(if report.interrupted {
        ExitCode::from(130)
    } else if report.forfeits().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
