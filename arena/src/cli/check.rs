//! `arena check`: check config files and print their plans without playing.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use arena::config::Config;
use arena::{out, outln};

use super::load;

/// Check config files and print their plans without playing (a contest file of `arena serve`: its
/// competitions' plan and its reference bots).
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[arg(required = true)]
    configs: Vec<PathBuf>,
}

/// Loads every config and prints its plan (a tune config: its parameters). Exit status 0.
///
/// # Errors
/// The first config that does not load or plan.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    for path in &args.configs {
        if is_contest(path) {
            let exe = std::env::current_exe().context("finding the arena executable")?;
            let contest = arena::serve::contest::Contest::load(path, &exe)?;
            let plan = contest.plan(&contest.competition(1, Vec::new())?)?;
            outln!(
                "{}: contest {:?}, {}, {:?} competitions, reference bots {}, {} check games against each",
                path.display(),
                contest.config.name,
                plan.spec,
                plan.format,
                contest.reference_names().join(", "),
                contest.config.check.games
            );
            continue;
        }
        let config = Config::load(path)?;
        if config.format == arena::config::Format::Tune {
            let exe = std::env::current_exe().context("finding the arena executable")?;
            out!(
                "{}",
                arena::tune::Tuning::new(&config, path, &exe)?.describe()
            );
            continue;
        }
        let mut plan = load(path)?;
        arena::tournament::pairing::seed(&mut plan)?;
        let games = arena::tournament::pairing::describe(&plan)
            .unwrap_or_else(|| format!("{} games", arena::plan::schedule::schedule(&plan).len()));
        outln!(
            "{}: tournament {:?}, {}, {:?}, {games}, concurrency {}",
            path.display(),
            plan.name,
            plan.spec,
            plan.format,
            plan.concurrency
        );
        if let Some(s) = &plan.sprt {
            outln!(
                "  sprt: elo0 {} elo1 {} alpha {} beta {} {:?}, at most {} pairs",
                s.test.elo0,
                s.test.elo1,
                s.test.alpha,
                s.test.beta,
                s.test.model,
                s.max_pairs
            );
        }
        if !plan.openings.is_empty() {
            outln!(
                "  {} openings, {:?} order",
                plan.openings.len(),
                plan.opening_order
            );
        }
        for b in &plan.bots {
            outln!(
                "  {:<16} {} {}",
                b.name,
                b.launch.program.display(),
                b.launch.args.join(" ")
            );
            for (k, v) in &b.options {
                outln!("  {:<16}   setoption {k} = {v}", "");
            }
            outln!("  {:<16}   limits: {}", "", b.limits);
            if b.sandbox != arena::config::SandboxKind::None {
                outln!("  {:<16}   sandbox: {:?}", "", b.sandbox);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `path` is a contest file (`arena serve`): a TOML file with a `[competition]` table.
fn is_contest(path: &std::path::Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .is_some_and(|t| t.contains_key("competition"))
}
