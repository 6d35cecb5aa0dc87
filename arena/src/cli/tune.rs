//! `arena tune`: tune a bot's options by SPSA.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use arena::{out, outln};

use super::runtime;

/// Tune a bot's options by SPSA (fishtest's): a `format = "tune"` config names the bot and, in
/// `[tune]`, the options with their start, range, c_end and r_end (docs/tuning.md). Writes
/// <results>/<name>/tune.csv (one row per iteration; a second run resumes from it), tune.svg and
/// tuned.toml, then with `verify = true` an SPRT of the tuned against the start values.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The tune config, e.g. configs/tune-alphabeta-connect4.toml.
    config: PathBuf,
    /// Stop once this many iterations are recorded (default: the config's `[tune] iterations`).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..))]
    iterations: Option<u64>,
    /// The folder that holds the run's results folder.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Start afresh: move an existing results folder aside (it is kept, never deleted).
    #[arg(long)]
    fresh: bool,
    /// Plain progress lines even on a terminal.
    #[arg(long)]
    no_progress: bool,
}

/// Runs (or resumes) the tuning and prints its products. Exit status 0, or 130 when interrupted (the
/// finished iterations are kept).
///
/// # Errors
/// See [`arena::tune::run`].
pub fn run(args: TuneArgs) -> Result<ExitCode> {
    let opts = arena::tune::TuneOptions {
        results_root: args.results,
        iterations: args.iterations,
        fresh: args.fresh,
        progress_bar: !args.no_progress,
        quiet: false,
        containment: None,
    };
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    let s = runtime()?.block_on(arena::tune::run(&args.config, &exe, &opts))?;
    outln!(
        "{}: {} iterations recorded{}",
        s.dir.display(),
        s.iterations,
        if s.interrupted { " (interrupted)" } else { "" }
    );
    outln!("chart: {}", s.dir.join("tune.svg").display());
    outln!("tuned values ({}):", s.dir.join("tuned.toml").display());
    out!("{}", s.snippet);
    if let Some(v) = &s.verify {
        outln!("\nverify ({}):", v.dir.display());
        out!("{}", v.report.text());
    }
    Ok(if s.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}
