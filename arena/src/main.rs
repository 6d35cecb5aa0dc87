//! `arena`: the command line. See `arena --help` and README.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use arena::config::Config;
use arena::plan::Plan;
use arena::standings;
use arena::tournament::{self, RunOptions};

#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    about = "Runs bot executables against each other at Dots, Connect Four and tic-tac-toe"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run (or resume) the tournaments of one or more config files, one after another.
    Run {
        /// TOML config files (see configs/).
        #[arg(required = true)]
        configs: Vec<PathBuf>,
        /// Start afresh: move an existing results folder aside (it is kept, never deleted).
        #[arg(long)]
        fresh: bool,
        /// Games played at once (overrides the config).
        #[arg(long)]
        concurrency: Option<usize>,
        /// The folder that holds each tournament's results folder.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Plain progress lines even on a terminal.
        #[arg(long)]
        no_progress: bool,
    },
    /// Check config files and print their plans without playing.
    Check {
        #[arg(required = true)]
        configs: Vec<PathBuf>,
    },
    /// Serve a built-in reference bot on stdin/stdout (how configs' `builtin` bots are started).
    Bot {
        /// The bot: random, faulty.
        name: String,
        /// The bot's own flags (see `arena bot <name> --help`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Solve positions: `arena solve connect4` reads positions in Pascal Pons's notation (column digits
    /// 1–7, one position per line) on stdin and prints `position score nodes µs` for each.
    Solve {
        /// The game: only connect4 (7×6) for now.
        game: String,
    },
    /// Measure tournament throughput and the arena's overhead per move against a bare pipe round trip.
    Bench {
        /// Games per measured tournament.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Bare pipe round trips to time.
        #[arg(long, default_value_t = 20000)]
        round_trips: usize,
        /// Run on a multi-threaded runtime with this many worker threads instead of the single-threaded
        /// one `arena run` uses (to compare the two).
        #[arg(long)]
        worker_threads: Option<usize>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bot { name, args } => return bots::cli::run(&name, &args),
        Command::Check { configs } => check(&configs),
        Command::Solve { game } => solve(&game),
        Command::Run {
            configs,
            fresh,
            concurrency,
            results,
            no_progress,
        } => run(
            &configs,
            RunOptions {
                results_root: results,
                fresh,
                progress_bar: !no_progress,
                quiet: false,
            },
            concurrency,
        ),
        Command::Bench {
            games,
            round_trips,
            worker_threads,
        } => {
            let rt = match worker_threads {
                None => runtime(),
                Some(n) => tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(n.max(1))
                    .enable_all()
                    .build()
                    .context("starting the async runtime"),
            };
            rt.and_then(|rt| rt.block_on(arena::bench::run(games, round_trips)))
                .map(|()| ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    // One thread: the arena only moves lines between processes, and a single-threaded runtime answers
    // a bot's line without a cross-thread wake-up (see `arena bench` in docs/benchmarks.md).
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

fn load(path: &Path) -> Result<Plan> {
    let config = Config::load(path)?;
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    Ok(Plan::new(&config, path, &exe)?)
}

fn solve(game: &str) -> Result<ExitCode> {
    anyhow::ensure!(
        game == "connect4",
        "arena solve knows only connect4 (7×6), not {game:?}"
    );
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match bots::c4_solver::solve_lines(stdin, stdout) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => other
            .context("solving positions")
            .map(|()| ExitCode::SUCCESS),
    }
}

fn check(configs: &[PathBuf]) -> Result<ExitCode> {
    for path in configs {
        let plan = load(path)?;
        let games = arena::schedule::schedule(&plan).len();
        println!(
            "{}: tournament {:?}, {}, {:?}, {games} games, concurrency {}",
            path.display(),
            plan.name,
            plan.spec,
            plan.format,
            plan.concurrency
        );
        for b in &plan.bots {
            println!(
                "  {:<16} {} {}",
                b.name,
                b.launch.program.display(),
                b.launch.args.join(" ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run(configs: &[PathBuf], opts: RunOptions, concurrency: Option<usize>) -> Result<ExitCode> {
    // Validate every config before playing any, so a typo in the third file is found at once.
    let mut plans = Vec::new();
    for path in configs {
        let mut plan = load(path)?;
        if let Some(c) = concurrency {
            anyhow::ensure!(c > 0, "--concurrency must be at least 1");
            plan.concurrency = c;
        }
        plans.push(plan);
    }
    let rt = runtime()?;
    for plan in plans {
        let name = plan.name.clone();
        let spec = plan.spec;
        let summary = rt.block_on(tournament::run(Arc::new(plan), &opts))?;
        if summary.interrupted {
            eprintln!(
                "interrupted: {} of {} games recorded in {}; run again to resume",
                summary
                    .standings
                    .iter()
                    .map(|s| s.games as usize)
                    .sum::<usize>()
                    / 2,
                summary.total,
                summary.dir.display()
            );
            return Ok(ExitCode::from(130));
        }
        if summary.played == 0 && summary.complete {
            println!("tournament {name} is complete ({} games); nothing to play. Use --fresh to start afresh.", summary.total);
        }
        println!("\n{name} — {spec} — {}", summary.dir.display());
        print!("{}", standings::table(&summary.standings));
    }
    Ok(ExitCode::SUCCESS)
}
