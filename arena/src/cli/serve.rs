//! `arena serve`: the contest server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use arena::outln;

/// Serve a contest: participants upload bots through the pages or the API, each new version is
/// checked against the reference bots, competitions run on the server's own pool, and the standings
/// and every game are public. Prints the address to open. See docs/server.md. Example:
/// `arena serve configs/contest-connect4.toml`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The contest file (see configs/contest-connect4.toml).
    contest: PathBuf,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The folder that holds the contest's data folder and its database (<name>/, <name>.sqlite).
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// The database: a PostgreSQL URL (`postgres://user:password@host:port/db`; the database must
    /// exist) instead of the SQLite file <results>/<name>.sqlite. See docs/server.md.
    /// Also read from the environment variable ARENA_DB, which keeps a password off the command
    /// line (and out of `ps`).
    #[arg(long, value_name = "URL", env = "ARENA_DB", hide_env_values = true)]
    db: Option<String>,
    /// Games the server plays itself at once (default: the contest's [competition] concurrency); 0:
    /// only `arena worker` processes play (see docs/server.md).
    #[arg(long, value_name = "N")]
    slots: Option<usize>,
    /// Add the account NAME with a random password, print the password and, as the last line, its
    /// API token, and exit (the server need not be stopped).
    #[arg(long, value_name = "NAME")]
    add_user: Option<String>,
    /// With --add-user: the account is the organiser's (starts competitions, disqualifies).
    #[arg(long, requires = "add_user")]
    admin: bool,
}

/// Serves until Ctrl-C or SIGTERM (exit status 0), or adds an account and exits.
///
/// # Errors
/// A contest file that does not load, a database that cannot be opened, an address in use, a taken
/// user name.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    // Two threads: the pages (and argon2's hashing) do not wait behind the games' I/O.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    if let Some(name) = &args.add_user {
        let (password, token) = rt.block_on(async {
            let (_, db, _) =
                arena::serve::open(&args.contest, &args.results, args.db.as_deref(), &exe).await?;
            arena::serve::add_user(&db, name, args.admin).await
        })?;
        outln!(
            "added {} {name}; password: {password}",
            if args.admin {
                "organiser"
            } else {
                "participant"
            }
        );
        outln!("API token (Authorization: Bearer …), shown only now:");
        outln!("{token}");
        return Ok(ExitCode::SUCCESS);
    }
    let opts = arena::serve::ServeOptions {
        contest: args.contest,
        listen: args.listen,
        results: args.results,
        db: args.db,
        slots: args.slots,
    };
    rt.block_on(arena::serve::serve(&opts, &exe))?;
    Ok(ExitCode::SUCCESS)
}
