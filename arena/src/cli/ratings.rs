//! `arena ratings`: the report of results folders from their games alone.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use arena::report::{Report, ReportOptions};
use arena::{out, outln};

/// Print the report of a results folder from its games.csv alone: standings with Elo ratings and 95%
/// intervals, crosstable, LOS matrix, and head-to-head statistics (also rewrites standings.csv and
/// crosstable.csv there). With several folders (of one game and variant), rates all their games
/// together and writes nothing.
#[derive(Debug, Args)]
pub struct RatingsArgs {
    /// Results folders, e.g. results/connect4 (several: their games rated as one pool).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Rate this bot 0 (default: the `anchor` of the run's config.toml copy in the folder, the same in
    /// every folder given, else the mean rating is 0).
    #[arg(long)]
    anchor: Option<String>,
    /// Parametric bootstrap samples for the 95% intervals and the LOS matrix (at least 20: fewer give
    /// no meaningful 2.5% and 97.5% quantiles); the report states their Monte Carlo error.
    #[arg(
        long,
        default_value_t = arena::report::DEFAULT_BOOTSTRAP,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(20..)
    )]
    bootstrap: usize,
    /// The seed of the bootstrap (the same seed and games give the same figures).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the head-to-head statistics of these two bots (game pairs, pentanomial, Elo, LOS), from
    /// BOT's side.
    #[arg(long, num_args = 2, value_names = ["BOT", "OPPONENT"])]
    pair: Vec<String>,
}

/// Rates the games of the folders together and prints the report (writing it into a single folder).
/// Exit status 0.
///
/// # Errors
/// See [`arena::results::combine::read_games`]; a report that cannot be computed or written.
pub fn run(args: RatingsArgs) -> Result<ExitCode> {
    let dirs = args.dirs.as_slice();
    let records = arena::results::combine::read_games(dirs)?;
    // The folders' recorded anchor, when they agree.
    let recorded = dirs
        .iter()
        .map(|d| ReportOptions::recorded(d, &[]).anchor)
        .collect::<Vec<_>>();
    let common = recorded
        .windows(2)
        .all(|w| w[0] == w[1])
        .then(|| recorded[0].clone())
        .flatten();
    // One folder: rated as its run reported (its bots in config order, tie-breaks, an SPRT's test);
    // several: pooled, with the first folder's tie-breaks and no SPRT.
    let names = match dirs {
        [dir] => ReportOptions::recorded_names(dir, &records),
        _ => Vec::new(),
    };
    let recorded_opts = ReportOptions::recorded(&dirs[0], &names);
    let opts = ReportOptions {
        anchor_required: args.anchor.is_some(),
        anchor: args.anchor.or(common),
        bootstrap: args.bootstrap,
        seed: args.seed,
        // The SPRT's LLR is from its first bot's side: not for pooled folders or a reversed --pair.
        sprt: recorded_opts.sprt.filter(|_| {
            dirs.len() == 1
                && match args.pair.as_slice() {
                    [a, b] => names.first() == Some(a) && names.get(1) == Some(b),
                    _ => true,
                }
        }),
        tiebreaks: recorded_opts.tiebreaks,
        pair: match args.pair.as_slice() {
            [a, b] => Some((a.clone(), b.clone())),
            _ => None,
        },
    };
    let report = Report::new(&names, &records, &opts)?;
    match dirs {
        [dir] => {
            report.write(dir)?;
            outln!("{} — {} games", dir.display(), records.len());
        }
        _ => outln!(
            "{} — {} games rated together (nothing written)",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" + "),
            records.len()
        ),
    }
    out!("{}", report.text());
    if let [dir] = dirs {
        // A knockout's bracket and a Swiss's rounds, as the run wrote them.
        for file in ["bracket.txt", "swiss.txt"] {
            if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
                outln!("\n{file}:\n{}", text.trim_end());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
