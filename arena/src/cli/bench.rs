//! `arena bench`: the arena's throughput and overhead, the containment layers' cost, a soak, the
//! field sizes, and the dots-tps article's table.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::runtime;

/// Measure tournament throughput and the arena's overhead per move against a bare pipe round trip;
/// `arena bench containment` the cost of each containment layer; `arena bench soak` a long
/// tournament with the arena's fds, memory and processes sampled; `arena bench dots` the dots-tps
/// article's table on its tactical positions; `arena bench serve` the contest server's upload-to-verdict
/// time, standings pages per second, games per second against `arena run` and with 1, 2 and 4
/// `arena worker`s, and the API's latency under 100 clients while games run.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// `containment`, `soak`, `dots`, `field` (planning and games/s for 10, 100, 300 bots), `serve` or
    /// `referee`; absent: the arena's throughput and round trip.
    #[arg(value_parser = ["dots", "containment", "soak", "field", "serve", "referee"])]
    what: Option<String>,
    /// referee: the config whose `[game] referee` is measured.
    #[arg(default_value = "configs/referee-gomoku.toml")]
    config: std::path::PathBuf,
    /// dots: one line per position too.
    #[arg(long)]
    verbose: bool,
    /// Games per measured tournament (soak: the whole soak, default 5000; field: per field size,
    /// default 300; serve: the competition, default 200; referee: random games, default 20).
    #[arg(long)]
    games: Option<usize>,
    /// Bare pipe round trips to time.
    #[arg(long, default_value_t = 20000)]
    round_trips: usize,
    /// containment: how many times each layer is measured, alternating.
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// soak, field: games played at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// serve: uploads timed from request to verdict.
    #[arg(long, default_value_t = 10)]
    uploads: usize,
    /// serve: standings pages requested after the first.
    #[arg(long, default_value_t = 200)]
    pages: usize,
    /// serve: a PostgreSQL server's URL (`postgres://user@host:port/db`); the bench creates a fresh
    /// database on it and drops it afterwards, and reports the database's transactions per game and
    /// per idle worker. Default: SQLite in the temporary folder.
    #[arg(long, value_name = "URL")]
    db: Option<String>,
    /// Run on a multi-threaded runtime with this many worker threads instead of the single-threaded
    /// one `arena run` uses (to compare the two).
    #[arg(long)]
    worker_threads: Option<usize>,
}

/// Runs the benchmark `what` names and prints its table. Exit status 0.
///
/// # Errors
/// A benchmark whose bots or tournaments fail, or a failed write other than a closed stdout.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    match args.what.as_deref() {
        None => throughput(&args),
        Some("dots") => match bots::dots_tps::bench::run(std::io::stdout().lock(), args.verbose) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(anyhow::Error::new(e).context("dots-tps benchmark"))
            }
            _ => Ok(ExitCode::SUCCESS),
        },
        Some("serve") => serve(&args),
        Some("referee") => {
            arena::bench::referee::run(&args.config, args.games.unwrap_or(20), args.round_trips)
                .map(|()| ExitCode::SUCCESS)
        }
        Some(what) => tournaments(what, &args),
    }
}

/// `arena bench`: the arena's throughput and round trip.
fn throughput(args: &BenchArgs) -> Result<ExitCode> {
    let rt = match args.worker_threads {
        None => runtime(),
        Some(n) => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(n.max(1))
            .enable_all()
            .build()
            .context("starting the async runtime"),
    };
    rt.and_then(|rt| {
        rt.block_on(arena::bench::run(
            args.games.unwrap_or(200),
            args.round_trips,
        ))
    })
    .map(|()| ExitCode::SUCCESS)
}

/// `arena bench serve`: a contest server in a temporary folder, removed afterwards.
#[cfg(not(feature = "server"))]
fn serve(_: &BenchArgs) -> Result<ExitCode> {
    anyhow::bail!("`arena bench serve`: this arena was built without the feature `server`")
}

/// `arena bench serve`: a contest server in a temporary folder, removed afterwards.
#[cfg(feature = "server")]
fn serve(args: &BenchArgs) -> Result<ExitCode> {
    let exe = std::env::current_exe().context("finding the arena executable")?;
    let tmp = std::env::temp_dir().join(format!("arena-bench-serve-{}", std::process::id()));
    // The server's runtime: its loops and HTTP server are spawned tasks, the client blocks a thread.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let result = rt.block_on(arena::bench::serve::run(
        &exe,
        &tmp,
        &arena::bench::serve::Sizes {
            uploads: args.uploads,
            pages: args.pages,
            games: args.games.unwrap_or(200),
        },
        args.db.as_deref(),
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    result.map(|()| ExitCode::SUCCESS)
}

/// `arena bench field|soak|containment`: tournaments in a temporary folder, removed afterwards.
fn tournaments(what: &str, args: &BenchArgs) -> Result<ExitCode> {
    let (games, concurrency) = (args.games, args.concurrency);
    let exe = std::env::current_exe().context("finding the arena executable");
    let tmp = std::env::temp_dir().join(format!("arena-bench-{}", std::process::id()));
    let result = exe.and_then(|exe| {
        runtime()?.block_on(async {
            if what == "field" {
                arena::bench::field::run(
                    &exe,
                    &tmp,
                    games.unwrap_or(300),
                    concurrency,
                    &[10, 100, 300],
                )
                .await
            } else if what == "soak" {
                arena::bench::soak::run(&exe, &tmp, games.unwrap_or(5000), concurrency).await
            } else {
                arena::bench::containment::run(&exe, &tmp, games.unwrap_or(200), args.rounds).await
            }
        })
    });
    let _ = std::fs::remove_dir_all(&tmp);
    result.map(|()| ExitCode::SUCCESS)
}
