//! `arena export`: a results folder's games as SGF, PGN or Pons's digit strings.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::outln;

/// Write a results folder's games as records other programs read: SGF for Dots (one file per game),
/// PGN for every game (games.pgn, for Ordo and BayesElo), Connect Four as Pons's digit strings
/// (games.pons, one game per line).
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A tournament's results folder, e.g. results/dots.
    dir: PathBuf,
    /// sgf, pgn or pons.
    #[arg(long, value_enum)]
    format: arena::formats::Format,
    /// The folder to write into (default: <dir>/export).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Only this game (its id in games.csv).
    #[arg(long)]
    game: Option<String>,
}

/// Writes the folder's games in the chosen format. Exit status 0.
///
/// # Errors
/// See [`arena::formats::export_results`].
pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let done = arena::formats::export_results(
        &args.dir,
        args.format,
        args.out.as_deref(),
        args.game.as_deref(),
    )?;
    match done.files.as_slice() {
        [one] => outln!("exported {} games to {}", done.games, one.display()),
        files => outln!(
            "exported {} games to {} ({} files)",
            done.games,
            done.dir.display(),
            files.len()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
