//! `arena analyze`: judge every move of a results folder's games by the game-theoretic value.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::{out, outln};

use super::recorded_games;

/// Judge every move of a results folder's games by the game-theoretic value (tic-tac-toe, Connect
/// Four 7×6): per bot the share of value-losing moves, wins and draws thrown away; per game the first
/// value-losing move. Writes <dir>/analysis.csv, <dir>/analysis-games.csv and
/// <dir>/analysis-moves.csv (every value-losing move).
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// A tournament's results folder, e.g. results/tictactoe.
    dir: PathBuf,
    /// Nodes per search before a move counts as unsolved (never guessed).
    #[arg(long, default_value_t = arena::analyze::DEFAULT_NODES)]
    nodes: u64,
}

/// Judges every move of the folder's games and writes the two analysis files. Exit status 0.
///
/// # Errors
/// A folder without `games.csv`, games [`arena::analyze::analyze`] cannot judge, or a file that
/// cannot be written.
pub fn run(args: AnalyzeArgs) -> Result<ExitCode> {
    let dir = args.dir.as_path();
    let mut records = recorded_games(dir)?;
    records.sort_by(|a, b| a.id.cmp(&b.id));
    let analysis = arena::analyze::analyze(
        &records,
        arena::analyze::AnalyzeOptions { nodes: args.nodes },
    )?;
    analysis.write(dir)?;
    outln!(
        "{} — {} — {} games (written to analysis.csv, analysis-games.csv, analysis-moves.csv)",
        dir.display(),
        analysis.game,
        records.len()
    );
    out!("{}", analysis.table());
    // The folder's page shows the analysis from now on.
    if dir.join(arena::report::html::FILE).exists() {
        let (page, _) = arena::report::html::report_results(dir)?;
        outln!("{} rewritten with the analysis", page.display());
    }
    Ok(ExitCode::SUCCESS)
}
