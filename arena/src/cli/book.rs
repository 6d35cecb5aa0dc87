//! `arena book`: build the Connect Four opening book with the solver.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::outln;

/// Build the Connect Four opening book with the solver: every position of at most --all-depth plies
/// (those of --all-depth plies solved, the shallower derived from their children), and the positions
/// of at most --depth plies a perfect player meets on either side. Resumes from <out>.progress.
/// The defaults make the repository's book (every position of at most 8 plies): from its progress file
/// `chrt -i 0 arena book connect4 --threads 2 --out bots/data/connect4-book.bin` rebuilds it with no
/// search; `--depth 10` would add the positions of 9 and 10 plies a perfect player meets.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The game: only connect4.
    #[arg(value_parser = ["connect4"])]
    game: String,
    /// Columns (default 7, at most 7; give the rows too). The bots load only the 7×6 book.
    #[arg(requires = "height")]
    width: Option<u32>,
    /// Rows (default 6).
    height: Option<u32>,
    /// The deepest positions, plies.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Every position up to this many plies.
    #[arg(long, default_value_t = 8)]
    all_depth: u32,
    /// The book file to write [default: connect4-book.bin for 7×6, connect4-WxH-book.bin else].
    #[arg(long)]
    out: Option<PathBuf>,
    /// The solvers' transposition tables together, MiB (small tables are faster here: one solver with
    /// 64 MiB solved twice the 8-ply positions it did with 3 GiB in the same time; docs/benchmarks.md).
    #[arg(long, default_value_t = 128)]
    hash_mb: usize,
    /// Solvers working at once, each on a thread with its share of --hash-mb.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Plain lines even on a terminal.
    #[arg(long)]
    no_progress: bool,
}

/// Builds (or resumes) the opening book and prints its size. Exit status 0.
///
/// # Errors
/// See [`arena::book::build_connect4`].
pub fn run(args: BookArgs) -> Result<ExitCode> {
    let (width, height) = (args.width.unwrap_or(7), args.height.unwrap_or(6));
    let s = arena::book::build_connect4(&arena::book::BookOptions {
        width,
        height,
        out: args.out.unwrap_or_else(|| match (width, height) {
            (7, 6) => PathBuf::from("connect4-book.bin"),
            (w, h) => PathBuf::from(format!("connect4-{w}x{h}-book.bin")),
        }),
        threads: args.threads,
        depth: args.depth,
        all_depth: args.all_depth,
        hash_mb: args.hash_mb,
        progress_bar: !args.no_progress,
    })?;
    outln!(
        "{} entries ({} solved and {} derived from their children in this run) in {:.1} s",
        s.entries,
        s.solved,
        s.derived,
        s.seconds
    );
    Ok(ExitCode::SUCCESS)
}
