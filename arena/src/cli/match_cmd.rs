//! `arena match`: a match between two bots without a config file, as fastchess's `-engine cmd=A
//! -engine cmd=B -each tc=10+0.1 -rounds 50 -repeat -concurrency 2`. The flags become a
//! [`arena::config::Config`] ([`arena::config::matchup`]), which is planned and played as `arena run`
//! plays a config file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{ArgGroup, Args};

use arena::config::matchup::{seconds_ms, BotSource, Clock, Length, Match, MatchBot};
use arena::config::{OpeningOrder, OpeningsConfig, ProtocolKind, SandboxKind, SprtConfig};
use arena::plan::Plan;
use arena::standings::head_to_head::HeadToHead;
use arena::{out, outln};

use super::run::{play, sprt_verdict, RunFlags};
use super::runtime;

/// Play a match between two bots without a config file, as fastchess's `-engine cmd=A -engine cmd=B
/// -each tc=10+0.1 -rounds 50 -repeat -concurrency 2`.
///
/// A bot is `builtin:NAME` (a reference bot: random, minimax, alphabeta, ttt-boardvalue, c4-solver,
/// c4-zx, dots-tps) or an executable (a path such as ./mybot, or a program on PATH), with its own
/// --arg-a/--arg-b, --set-a/--set-b and --name-a/--name-b. Games come in pairs, each opening played
/// twice with the sides swapped (fastchess's -repeat). The match is a tournament like any other:
/// recorded in <results>/<name>/ (games.csv, standings, report.html), resumed when run again, refused
/// to resume under other flags (--fresh starts afresh). At the end it prints cutechess's `Score of A
/// vs B: W - L - D  [score] N` (from A's side) and the two bots' Elo block.
///
/// Example: `arena match builtin:alphabeta ./mybot --game connect4 --tc 10+0.1 --rounds 50
/// --concurrency 2`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("clock").multiple(true).args(["tc", "movetime"])))]
pub struct MatchArgs {
    /// Bot A, whose wins the score counts: builtin:NAME, or an executable's path (./mybot) or name on
    /// PATH.
    #[arg(value_name = "A")]
    a: BotSource,
    /// Bot B, as A.
    #[arg(value_name = "B")]
    b: BotSource,
    /// A's name in the games (default: the built-in bot's name, or the executable's file name).
    #[arg(long, value_name = "NAME")]
    name_a: Option<String>,
    /// B's name in the games (default as A's; "-2" is added when it would be A's).
    #[arg(long, value_name = "NAME")]
    name_b: Option<String>,
    /// An argument for A's executable (repeatable, in order; --arg-a=--level for one that starts with
    /// a dash).
    #[arg(long = "arg-a", value_name = "ARG", allow_hyphen_values = true)]
    args_a: Vec<String>,
    /// An argument for B's executable, as --arg-a.
    #[arg(long = "arg-b", value_name = "ARG", allow_hyphen_values = true)]
    args_b: Vec<String>,
    /// An engine option for both bots, sent with setoption: NAME=VALUE (repeatable; fastchess's
    /// -each option.NAME=VALUE).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// An engine option for A: NAME=VALUE (repeatable; over --set), e.g. --set-a depth=4.
    #[arg(long = "set-a", value_name = "NAME=VALUE")]
    set_a: Vec<String>,
    /// An engine option for B, as --set-a.
    #[arg(long = "set-b", value_name = "NAME=VALUE")]
    set_b: Vec<String>,
    /// A's protocol.
    #[arg(long, default_value = "ugi", value_parser = ["ugi", "codecup"])]
    protocol_a: String,
    /// B's protocol.
    #[arg(long, default_value = "ugi", value_parser = ["ugi", "codecup"])]
    protocol_b: String,
    #[command(flatten)]
    game: super::GameFlags,
    /// Each bot's clock for the game in seconds, as cutechess writes it: TIME+INC (10+0.1), TIME (60)
    /// or MIN:SEC+INC (1:30+1). Moves per period (40/60) are refused: a clock here is a budget for the
    /// whole game plus an increment. Without --tc or --movetime: 2+0.02 (said on stderr).
    #[arg(long, value_name = "TIME+INC")]
    tc: Option<Clock>,
    /// A hard cap per move, seconds (cutechess's st=, e.g. 0.5); without --tc the only limit on a move.
    #[arg(long, value_name = "S", value_parser = seconds_ms)]
    movetime: Option<u64>,
    /// Games in all, even: game pairs (default 2).
    #[arg(long, value_name = "N", conflicts_with = "rounds")]
    games: Option<u32>,
    /// Game pairs (fastchess's -rounds N -games 2 -repeat): 2N games.
    #[arg(long, value_name = "N")]
    rounds: Option<u32>,
    /// An SPRT match: game pairs until the test accepts H0 (elo = ELO0) or H1 (elo = ELO1), at most
    /// --rounds pairs. ALPHA and BETA, the error rates, default to 0.05.
    #[arg(long, num_args = 2..=4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The SPRT's Elo model: normalized (default) or logistic.
    #[arg(long, value_parser = ["normalized", "logistic"], requires = "sprt")]
    sprt_model: Option<String>,
    /// An opening file: one opening a line in the game's notation (for Dots also SGF files); each game
    /// pair starts from one.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The order the game pairs take the openings in.
    #[arg(long, value_parser = ["sequential", "random"], requires = "openings")]
    openings_order: Option<String>,
    /// Keep at most N plies of each opening (cutechess's plies=).
    #[arg(long, value_name = "N", requires = "openings")]
    openings_plies: Option<u32>,
    /// Random plies after the opening (or from the start), shared by both games of a pair.
    #[arg(long, value_name = "N", default_value_t = 0)]
    random_plies: u32,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// The seed of the schedule, the random plies and each game's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Adjudicate a game after N plies (Dots: by score; the others: a draw).
    #[arg(long, value_name = "N")]
    max_plies: Option<u32>,
    /// Both games of each pair with the same first player, A unless --reverse (cutechess's -noswap).
    #[arg(long)]
    noswap: bool,
    /// B moves first in the first game of each pair (cutechess's -reverse); with --noswap, in both.
    #[arg(long)]
    reverse: bool,
    /// Adjudicate a loss for a bot whose score was -S or worse on its last N moves, as cutechess's
    /// -resign: movecount=N score=S (the config's [adjudication] resign_moves, resign_score).
    #[arg(long, num_args = 1..=2, value_name = "KEY=VALUE")]
    resign: Option<Vec<String>>,
    /// Adjudicate a draw once both bots' scores were within ±S on their last N moves, from full move M
    /// on, as cutechess's -draw: movenumber=M movecount=N score=S (the config's [adjudication]
    /// draw_after, draw_moves, draw_score).
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    draw: Option<Vec<String>>,
    /// Connect Four and tic-tac-toe: from ply N on, end a game as soon as the built-in solver proves
    /// its value within M nodes a position, as cutechess's tablebase adjudication: plies=N [nodes=M]
    /// (the config's [adjudication] solver_plies, solver_nodes; M defaults to 1000000).
    #[arg(long, num_args = 1..=2, value_name = "KEY=VALUE")]
    solver: Option<Vec<String>>,
    /// Both bots' sandbox (default: bubblewrap for executables, none for built-in bots).
    #[arg(long, value_parser = ["bubblewrap", "none"])]
    sandbox: Option<String>,
    /// The match's name, also its results folder <results>/<name>/ (default: A-vs-B-GAME).
    #[arg(long)]
    name: Option<String>,
    /// Write the match as a config file and exit without playing; `arena run FILE` then plays it.
    #[arg(long, value_name = "FILE")]
    save_config: Option<PathBuf>,
    #[command(flatten)]
    run: RunFlags,
}

/// Builds the match's config, validates it into a plan, and either writes the config (--save-config)
/// or plays it and prints the score line and the two bots' Elo block. Exit status 0, or 130 once
/// interrupted (the finished games are recorded; the same command resumes).
///
/// # Errors
/// A malformed option, a missing executable, a config that does not plan, a run that fails.
pub fn run(args: MatchArgs) -> Result<ExitCode> {
    let cwd = std::env::current_dir().context("finding the working directory")?;
    let config = matchup(&args)?.config(&cwd).map_err(anyhow::Error::msg)?;
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    // No file: the plan's errors say `arena match: …`, and relative paths (there are none left) would
    // resolve against the working directory.
    let plan = Plan::new(&config, Path::new("arena match"), &exe)?;
    let text = config.to_toml()?;
    if let Some(path) = &args.save_config {
        // The command that wrote it, as a comment (its first word, the arena's path, as `arena`).
        let command: Vec<String> = std::iter::once("arena".to_string())
            .chain(std::env::args().skip(1).map(|a| a.replace('\n', " ")))
            .collect();
        std::fs::write(path, format!("# written by: {}\n{text}", command.join(" ")))
            .with_context(|| format!("writing {}", path.display()))?;
        outln!(
            "wrote {}; `arena run {}` plays this match",
            path.display(),
            path.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (a, b) = (plan.bots[0].name.clone(), plan.bots[1].name.clone());
    let opts = arena::tournament::RunOptions {
        derived_config: Some(text),
        ..args.run.options()
    };
    let Some(summary) = play(&runtime()?, plan, &opts)? else {
        return Ok(ExitCode::from(130));
    };
    let h = HeadToHead::new(&a, &b, &super::recorded_games(&summary.dir)?);
    outln!("{}", h.score_line());
    out!("{}", h.report(summary.report.sprt.as_ref()));
    if let Some(line) = sprt_verdict(&summary) {
        outln!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The match the flags describe.
/// The clock of a match given neither `--tc` nor `--movetime`: 2 s + 20 ms a bot, a quick match.
const DEFAULT_TC: &str = "2+0.02";

fn matchup(args: &MatchArgs) -> Result<Match> {
    let a = bot(
        &args.a,
        &args.name_a,
        &args.args_a,
        &args.set,
        &args.set_a,
        &args.protocol_a,
    )?;
    let mut b = bot(
        &args.b,
        &args.name_b,
        &args.args_b,
        &args.set,
        &args.set_b,
        &args.protocol_b,
    )?;
    if a.name == b.name && args.name_b.is_none() {
        b.name.push_str("-2");
    }
    if a.name == b.name {
        bail!(
            "both bots are named {:?}: give --name-a or --name-b",
            a.name
        );
    }
    let pairs = match (args.games, args.rounds) {
        (Some(g), _) if g < 2 || !g.is_multiple_of(2) => bail!(
            "--games {g}: games come in pairs (each opening twice, the sides swapped): give an even \
             number, at least 2"
        ),
        (Some(g), _) => Some(g / 2),
        (None, Some(0)) => bail!("--rounds 0: a match needs at least one game pair"),
        (None, r) => r,
    };
    let length = match &args.sprt {
        None => Length::Pairs(pairs.unwrap_or(1)),
        Some(values) => {
            let (elo0, elo1, alpha, beta) = match values.as_slice() {
                [e0, e1] => (*e0, *e1, 0.05, 0.05),
                [e0, e1, a, b] => (*e0, *e1, *a, *b),
                _ => bail!("--sprt ELO0 ELO1 [ALPHA BETA]: alpha and beta come together"),
            };
            let max_pairs = pairs.context(
                "--sprt needs --rounds N (or --games 2N): the most game pairs before the match \
                 stops as inconclusive",
            )?;
            Length::Sprt(SprtConfig {
                elo0,
                elo1,
                alpha,
                beta,
                model: args
                    .sprt_model
                    .clone()
                    .unwrap_or_else(|| "normalized".into()),
                max_pairs,
            })
        }
    };
    Ok(Match {
        name: args.name.clone(),
        bots: [a, b],
        game: args.game.config()?,
        clock: match (args.tc, args.movetime) {
            (None, None) => {
                arena::errln!(
                    "arena match: no --tc or --movetime given: each bot plays with {DEFAULT_TC} (--tc {DEFAULT_TC})"
                );
                Some(DEFAULT_TC.parse().map_err(anyhow::Error::msg)?)
            }
            (tc, _) => tc,
        },
        movetime_ms: args.movetime,
        length,
        openings: args.openings.as_ref().map(|file| OpeningsConfig {
            file: file.clone(),
            order: match args.openings_order.as_deref() {
                Some("random") => OpeningOrder::Random,
                _ => OpeningOrder::Sequential,
            },
            plies: args.openings_plies,
        }),
        opening_plies: args.random_plies,
        seed: args.seed,
        concurrency: args.concurrency,
        max_plies: args.max_plies,
        sandbox: args.sandbox.as_deref().map(|s| match s {
            "none" => SandboxKind::None,
            _ => SandboxKind::Bubblewrap,
        }),
        noswap: args.noswap,
        reverse: args.reverse,
        pgnout: args.run.pgnout.clone(),
        affinity: args.run.affinity.as_ref().and_then(|s| s.cpus()),
        sgfout: args.run.sgfout.clone(),
        adjudication: arena::config::matchup::adjudication(
            args.resign.as_deref(),
            args.draw.as_deref(),
            args.solver.as_deref(),
        )
        .map_err(anyhow::Error::msg)?,
    })
}

/// One bot of the match from its flags: `each` (--set) options first, then its own.
fn bot(
    source: &BotSource,
    name: &Option<String>,
    args: &[String],
    each: &[String],
    own: &[String],
    protocol: &str,
) -> Result<MatchBot> {
    let options = each
        .iter()
        .chain(own)
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .with_context(|| format!("option {kv:?}: expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>>>()?;
    let name = name.clone().unwrap_or_else(|| match source {
        BotSource::Builtin(n) => n.clone(),
        BotSource::Command(c) => arena::probe::name_from_command(c, args),
    });
    Ok(MatchBot {
        name,
        source: source.clone(),
        args: args.to_vec(),
        options,
        protocol: if protocol == "codecup" {
            ProtocolKind::Codecup
        } else {
            ProtocolKind::Ugi
        },
    })
}
