//! `arena report`: write a results folder's report.html.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::outln;

/// Write <dir>/report.html from a results folder: standings with Elo and intervals, crosstable,
/// forfeits, SPRT state, config, and every game replayable on a board; one self-contained file to
/// open in a browser or put on a web server (`arena run` writes it at the end of every run). Also
/// rewrites standings.csv, crosstable.csv and los.csv as the run wrote them (its config's bots, anchor,
/// tie-breaks and SPRT); every game is re-refereed from its moves first.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A tournament's results folder, e.g. results/dots.
    dir: PathBuf,
}

/// Writes the folder's report.html. Exit status 0.
///
/// # Errors
/// See [`arena::report::html::report_results`].
pub fn run(args: ReportArgs) -> Result<ExitCode> {
    let (path, games) = arena::report::html::report_results(&args.dir)?;
    outln!("wrote {} ({games} games)", path.display());
    Ok(ExitCode::SUCCESS)
}
