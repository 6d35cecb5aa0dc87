//! `arena doctor`: the containment layers this machine gives bot processes.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::out;

/// Show the containment layers this machine gives bot processes (cgroups, rlimits, subreaper,
/// freezer, bubblewrap) and the default limits.
#[derive(Debug, Args)]
pub struct DoctorArgs {}

/// Prints the containment report of this machine. Exit status 0.
///
/// # Errors
/// None but a failed write to stdout.
pub fn run(_args: DoctorArgs) -> Result<ExitCode> {
    out!("{}", arena::sandbox::Containment::probe().report());
    Ok(ExitCode::SUCCESS)
}
