//! The `arena` command line: the clap types and one module per command, each with its flags
//! (`XArgs`, whose doc comment is the command's help text) and `run(args) -> Result<ExitCode>`.
//!
//! This tree belongs to the binary (`mod cli` in main.rs), not to the library: its types are the
//! command line and nothing else uses them, so the library's API and its `cargo doc` stay the
//! referee, tournaments and results that the commands call, and the integration tests check the
//! commands through the built binary as a user runs them.

use std::path::Path;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use arena::config::Config;
use arena::plan::Plan;

pub mod analyze;
pub mod bench;
pub mod book;
pub mod bot;
pub mod check;
pub mod check_game;
pub mod doctor;
pub mod export;
pub mod match_cmd;
pub mod merge;
pub mod play;
pub mod probe;
pub mod ratings;
pub mod replay;
pub mod report;
pub mod run;
#[cfg(feature = "server")]
pub mod serve;
pub mod solve;
pub mod sprt;
pub mod tune;
#[cfg(feature = "server")]
pub mod worker;

#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    about = "Runs bot executables against each other at Dots, Connect Four, tic-tac-toe, Kalah and every game of its registry"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// The commands in the order `arena --help` lists them. A variant has no doc comment of its own: one
// would replace the help text, which is the doc comment of its args struct in cli/<command>.rs.
#[derive(Debug, Subcommand)]
pub enum Command {
    Run(run::RunArgs),
    // Boxed: its many flags would make every command's value as large.
    Match(Box<match_cmd::MatchArgs>),
    #[cfg(feature = "server")]
    Serve(serve::ServeArgs),
    #[cfg(feature = "server")]
    Worker(worker::WorkerArgs),
    Merge(merge::MergeArgs),
    Ratings(ratings::RatingsArgs),
    Sprt(sprt::SprtArgs),
    Elo(sprt::EloArgs),
    Analyze(analyze::AnalyzeArgs),
    Probe(probe::ProbeArgs),
    Play(play::PlayArgs),
    Replay(replay::ReplayArgs),
    Doctor(doctor::DoctorArgs),
    Export(export::ExportArgs),
    Tune(tune::TuneArgs),
    Report(report::ReportArgs),
    Check(check::CheckArgs),
    CheckGame(check_game::CheckGameArgs),
    Bot(bot::BotArgs),
    Solve(solve::SolveArgs),
    Book(book::BookArgs),
    Bench(bench::BenchArgs),
}

/// The game and its variant, as `arena probe` and `arena match` take them: a config's `[game]` table
/// as flags.
#[derive(Debug, clap::Args)]
pub struct GameFlags {
    /// The game, and its variant's words if not the default: `connect4`, `"connect4 7 6"`,
    /// `"dots 20 20 cross"`, `"kalah 6 6"` (the words of the protocol's `game` command).
    #[arg(long)]
    game: String,
    /// The key `width` of games that have one (tic-tac-toe, Connect Four, Dots).
    #[arg(long)]
    width: Option<u32>,
    /// The key `height` of games that have one.
    #[arg(long)]
    height: Option<u32>,
    /// Tic-tac-toe's key `k`: stones in a row to win.
    #[arg(long)]
    k: Option<u32>,
    /// Dots's key `start`: empty, cross (default) or four-crosses.
    #[arg(long)]
    start: Option<String>,
}

impl GameFlags {
    /// The `[game]` table of these flags: the words of `--game` by key, then the key flags on top.
    ///
    /// # Errors
    /// An unknown game, or more words than it has keys.
    fn config(&self) -> Result<arena::config::GameConfig> {
        let mut game = arena::config::GameConfig::from_words(&self.game)
            .map_err(|e| anyhow::anyhow!("--game {e}"))?;
        for (key, value) in [
            ("width", self.width),
            ("height", self.height),
            ("k", self.k),
        ] {
            if let Some(v) = value {
                game.set(key, &v.to_string());
            }
        }
        if let Some(s) = &self.start {
            game.set("start", s);
        }
        Ok(game)
    }
}

/// The async runtime the commands that run bot processes use.
fn runtime() -> Result<tokio::runtime::Runtime> {
    // One thread: the arena only moves lines between processes, and a single-threaded runtime answers
    // a bot's line without a cross-thread wake-up (`arena bench`; the first reader on a multi-threaded
    // runtime measured 15–28 µs a round trip, in the git history of docs/benchmarks.md).
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// The plan of the config file `path`, its builtin bots started from this executable.
fn load(path: &Path) -> Result<Plan> {
    let config = Config::load(path)?;
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    Ok(Plan::new(&config, path, &exe)?)
}

/// The games recorded in the results folder `dir` (a last line cut short by a killed run is dropped,
/// as a resume would).
///
/// # Errors
/// A folder without `games.csv`, or one that cannot be read.
fn recorded_games(dir: &Path) -> Result<Vec<arena::record::GameRecord>> {
    arena::results::ResultsDir {
        path: dir.to_path_buf(),
    }
    .read_existing_games()
}
