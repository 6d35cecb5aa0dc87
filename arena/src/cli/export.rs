//! `arena export`: a results folder's games as SGF, PGN or Pons's digit strings.

use std::path::{Path, PathBuf};
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
/// See [`export_results`].
pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let done = export_results(
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

/// `arena export`: the games of the results folder `dir` (all, or the one with id `game`) in `format`,
/// into `out` (default `<dir>/export`). The tournament's name for the records is the folder's name.
///
/// # Errors
/// A folder without `games.csv`, an unknown game id (with the ids there are), or [`arena::formats::export`]'s errors.
fn export_results(
    dir: &Path,
    format: arena::formats::Format,
    out: Option<&Path>,
    game: Option<&str>,
) -> Result<arena::formats::Exported> {
    let results = arena::results::ResultsDir {
        path: dir.to_path_buf(),
    };
    let mut records = results.read_existing_games()?;
    if let Some(id) = game {
        records.retain(|r| r.id == id);
        anyhow::ensure!(
            !records.is_empty(),
            "no game {id:?} in {}",
            results.games_csv().display()
        );
    }
    let event = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let out = out.map_or_else(|| dir.join("export"), Path::to_path_buf);
    arena::formats::export(&records, &event, format, &out)
}
