//! `arena merge`: join the results folders of one tournament's shards.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use arena::config::Config;
use arena::plan::Plan;
use arena::report::{Report, ReportOptions};
use arena::{out, outln};

/// Join the results folders of one tournament's shards (or copies from several machines) into one
/// folder, then print its report. `arena run` on the merged folder resumes what is still missing.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Results folders to read, e.g. results/c4.shard-1-of-2 results/c4.shard-2-of-2.
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// The folder to merge into (created if missing; games it holds are kept), e.g. results/c4.
    #[arg(long)]
    into: PathBuf,
    /// Fail (exit status 1, after merging) when scheduled games are missing, as a scheduler's merge
    /// job should; without it the missing games are listed by shard and `arena run` resumes them.
    #[arg(long)]
    complete: bool,
}

/// Merges `sources` into `into`, writes and prints its report, then lists the scheduled games still
/// missing. Exit status 0.
///
/// # Errors
/// See [`arena::results::merge`]; with --complete, missing games or no schedule to check them by.
pub fn run(args: MergeArgs) -> Result<ExitCode> {
    let MergeArgs {
        sources,
        into,
        complete,
    } = &args;
    let games = arena::results::merge(sources, into)?;
    // Rated as `arena run`, `report` and `ratings` rate this folder: by its config's bots, anchor,
    // tie-breaks and SPRT.
    let names = ReportOptions::recorded_names(into, &games);
    let opts = ReportOptions::recorded(into, &names);
    let report = Report::new(&names, &games, &opts)?;
    report.write(into)?;
    outln!(
        "merged {} folders into {}: {} games",
        sources.len(),
        into.display(),
        games.len()
    );
    out!("{}", report.text());
    arena::report::html::report_results(into)?;
    // The games still missing, by shard, from the schedule of the merged folder's config copy.
    let plan = merged_plan(into, sources);
    let count = arena::results::missing::shard_count(sources);
    match plan.map(|plan| arena::results::missing::missing(&plan, &games, count)) {
        Ok(Some(missing)) if missing.is_empty() => outln!("every scheduled game is recorded"),
        Ok(Some(missing)) => {
            let total: usize = missing.iter().map(|m| m.ids.len()).sum();
            outln!("{total} scheduled games are missing:");
            for m in &missing {
                let shown: Vec<&str> = m.ids.iter().take(10).map(String::as_str).collect();
                let more = m.ids.len().saturating_sub(shown.len());
                outln!(
                    "  {}{} games: {}{}",
                    m.shard.map_or(String::new(), |s| format!(
                        "shard {}/{}: ",
                        s.index, s.count
                    )),
                    m.ids.len(),
                    shown.join(" "),
                    if more > 0 {
                        format!(" … and {more} more")
                    } else {
                        String::new()
                    }
                );
            }
            if *complete {
                anyhow::bail!(
                    "{total} scheduled games are missing from {} (--complete)",
                    into.display()
                );
            }
            outln!(
                "(`arena run <config> --results {}` plays them into this folder when it is named as the \
                 tournament)",
                into.parent().map_or(".".into(), |p| p.display().to_string())
            );
        }
        Ok(None) => {}
        Err(e) if *complete => {
            return Err(e.context("--complete: the merged folder's config.toml gives no schedule"))
        }
        Err(e) => outln!("(missing games not checked: {e:#})"),
    }
    Ok(ExitCode::SUCCESS)
}

/// The plan of a merged folder, from its `config.toml` copy, with relative paths resolved from where the
/// runs read their config (`config.origin` of the folder or of a source; else from the copy's folder).
fn merged_plan(into: &Path, sources: &[PathBuf]) -> Result<Plan> {
    let copy = into.join(arena::results::recorded::CONFIG);
    let text =
        std::fs::read_to_string(&copy).with_context(|| format!("reading {}", copy.display()))?;
    let origin = std::iter::once(into)
        .chain(sources.iter().map(PathBuf::as_path))
        .find_map(|d| std::fs::read_to_string(d.join(arena::results::CONFIG_ORIGIN)).ok())
        .map(|t| PathBuf::from(t.trim_end()))
        .unwrap_or(copy);
    let config = Config::parse(&text, &origin)?;
    let exe = std::env::current_exe().context("finding the arena executable for builtin bots")?;
    Ok(Plan::new(&config, &origin, &exe)?)
}
