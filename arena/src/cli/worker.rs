//! `arena worker`: plays a contest's games on this machine for a server elsewhere.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;

use arena::sandbox::Containment;
use arena::serve::runner::DataDirs;
use arena::serve::worker::{work, WorkerOptions};

/// Play a contest's games for its server: claim games from the contest's database, play each under
/// this machine's containment, return its record and logs. Run as many as you like, on any machine
/// that reaches the database; the server's own slots are one more. Stops on Ctrl-C or SIGTERM (its
/// games go back to the queue at once); a worker killed outright loses its games to the others when
/// their leases run out. See docs/server.md. Example: `arena worker configs/contest-connect4.toml
/// --db postgres://arena@db.example/contest --slots 4`.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The contest file, the same as the server's.
    contest: PathBuf,
    /// The contest's database: the server's `--db` URL (default: the SQLite file
    /// <results>/<name>.sqlite, for a worker on the server's machine).
    /// Also read from the environment variable ARENA_DB, which keeps a password off the command
    /// line (and out of `ps`).
    #[arg(long, value_name = "URL", env = "ARENA_DB", hide_env_values = true)]
    db: Option<String>,
    /// The folder that holds this worker's data (<name>.worker-<worker>/: the bots it fetched, its
    /// games' sandboxes).
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Games at once.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    slots: usize,
    /// This worker's name in the database (default: <host>-<process id>).
    #[arg(long)]
    name: Option<String>,
    /// How long to wait for a database that cannot be reached at the start (a worker started before
    /// PostgreSQL, or while it restarts), trying again every 5 s; 0: not at all. Also read from the
    /// environment variable ARENA_WAIT_DB.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 300,
        env = "ARENA_WAIT_DB"
    )]
    wait_db: u64,
}

/// Whether `e` is a database that could not be reached (worth trying again), not a refusal: no
/// connection, or PostgreSQL starting up or shutting down (SQLSTATE 57P01–57P03) or a connection
/// exception (class 08).
fn unreachable(e: &anyhow::Error) -> bool {
    e.chain().any(|c| match c.downcast_ref::<sqlx::Error>() {
        Some(sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::Tls(_)) => true,
        Some(sqlx::Error::Database(d)) => d
            .code()
            .is_some_and(|code| code.starts_with("57P0") || code.starts_with("08")),
        _ => false,
    })
}

/// Works until Ctrl-C or SIGTERM (exit status 0).
///
/// # Errors
/// A contest file that does not load, a database that cannot be opened, a bad name.
pub fn run(args: WorkerArgs) -> Result<ExitCode> {
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async {
        let name = match args.name {
            Some(n) => n,
            None => format!(
                "{}-{}",
                std::fs::read_to_string("/proc/sys/kernel/hostname")
                    .map(|h| h.trim().to_string())
                    .unwrap_or_else(|_| "worker".into()),
                std::process::id()
            ),
        };
        anyhow::ensure!(
            arena::serve::contest::valid_name(&name) && name != "server",
            "worker name {name:?}: use 1–32 letters, digits, - or _ (not `server`)"
        );
        let (stop_tx, stop) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            arena::run::stop_signal().await;
            let _ = stop_tx.send(true);
        });
        // A database out of reach at the start is waited for, as the workers wait for one that
        // restarts while they play.
        let since = std::time::Instant::now();
        let (contest, db, _) = loop {
            // A connection that hangs (a host that drops packets) still gives way to a stop.
            let opened = {
                let mut stop = stop.clone();
                tokio::select! {
                    o = arena::serve::open(&args.contest, &args.results, args.db.as_deref(), &exe) => o,
                    _ = arena::run::pool::stopped(&mut stop) => return anyhow::Ok(()),
                }
            };
            match opened {
                Ok(opened) => break opened,
                Err(e) if unreachable(&e) && since.elapsed().as_secs() < args.wait_db => {
                    arena::errln!(
                        "arena worker {name}: waiting for the database ({e:#}); trying again in 5 s"
                    );
                    let mut stop = stop.clone();
                    tokio::select! {
                        _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
                        _ = arena::run::pool::stopped(&mut stop) => return anyhow::Ok(()),
                    }
                }
                Err(e) => return Err(e),
            }
        };
        let root = std::path::absolute(
            args.results
                .join(format!("{}.worker-{name}", contest.config.name)),
        )?;
        std::fs::create_dir_all(&root).with_context(|| format!("creating {}", root.display()))?;
        let opts = WorkerOptions {
            name: name.clone(),
            slots: args.slots,
            data: DataDirs { root: root.clone() },
            hide: root.join("runs"),
            board: None,
        };
        arena::errln!(
            "arena worker {name}: contest {}, {} slot(s), data in {}",
            contest.config.name,
            args.slots,
            root.display()
        );
        work(db, Arc::new(contest), Containment::probe(), opts, stop).await?;
        arena::errln!("arena worker {name}: stopped; its games in play went back to the queue");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
