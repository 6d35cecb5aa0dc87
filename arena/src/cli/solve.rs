//! `arena solve`: solve Connect Four positions read on stdin.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

/// Solve positions: `arena solve connect4 [W H]` reads positions in Pascal Pons's notation (column
/// digits 1–W, one position per line; `-` is the empty position) on stdin and prints `position score
/// nodes µs` for each; the 7×6 book answers positions near the start at once. Any size with W <= 9 and W × (H + 1) <= 64.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game: only connect4.
    #[arg(value_parser = ["connect4"])]
    game: String,
    /// Columns (default 7; give the rows too).
    #[arg(requires = "height")]
    width: Option<u32>,
    /// Rows (default 6).
    height: Option<u32>,
    /// A score for every column: `position s1 … sW nodes µs` (`-` for a full column), as Pons's -a.
    #[arg(long)]
    analyze: bool,
    /// Win, draw or loss only (1, 0, -1), which is quicker.
    #[arg(long)]
    weak: bool,
    /// Search without the opening book.
    #[arg(long)]
    no_book: bool,
}

/// Solves the positions on stdin, one line each on stdout (a closed stdout ends it quietly). Exit
/// status 0.
///
/// # Errors
/// A board size the solver does not take ([`bots::c4_solver::check_solvable`]), or an I/O error other
/// than a closed stdout (a line that is not a legal position is answered `invalid` instead).
pub fn run(args: SolveArgs) -> Result<ExitCode> {
    let opts = bots::c4_solver::SolveOptions {
        width: args.width.unwrap_or(7),
        height: args.height.unwrap_or(6),
        analyze: args.analyze,
        weak: args.weak,
        book: !args.no_book,
    };
    bots::c4_solver::check_solvable(opts.width, opts.height).map_err(anyhow::Error::msg)?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match bots::c4_solver::solve_lines_with(stdin, stdout, &opts) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => other
            .context("solving positions")
            .map(|()| ExitCode::SUCCESS),
    }
}
