//! `arena check`: check config files and print their plans without playing.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use arena::config::Config;
use arena::{out, outln};

use super::load;

/// Check config files and print their plans without playing (a contest file of `arena serve`: its
/// competitions' plan and its reference bots). The options of built-in bots are checked against what
/// they declare, as `arena run` checks them before its first game; `--probe` starts the bots given as
/// commands to check theirs too.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[arg(required = true)]
    configs: Vec<PathBuf>,
    /// Also start each bot given as a command that is given options (in its sandbox, as `arena run`
    /// does before its first game) and check them against the options it declares.
    #[arg(long)]
    probe: bool,
}

/// Loads every config and prints its plan (a tune config: its parameters), then checks its bots'
/// options ([`check_options`]). Exit status 0.
///
/// # Errors
/// The first config that does not load or plan, or whose options a bot does not declare or refuses.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    for path in &args.configs {
        if is_contest(path) {
            check_contest(path)?;
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
        check_options(&plan, args.probe)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks the options of `plan`'s bots against what they declare, as `arena run` does before its first
/// game ([`arena::game::options::preflight`]): the built-in bots' (the arena's own code, started as
/// `arena bot <name>`), and with `probe` those of the bots given as commands, started in their sandbox.
/// Without `probe`, says which options were left unchecked.
///
/// # Errors
/// An option a bot does not declare (with the name it likely meant) or a value it refuses.
fn check_options(plan: &arena::plan::Plan, probe: bool) -> Result<()> {
    let given = |b: &&arena::plan::BotPlan| {
        b.protocol == arena::config::ProtocolKind::Ugi && !b.options.is_empty()
    };
    let unchecked: Vec<&str> = plan
        .bots
        .iter()
        .filter(given)
        .filter(|b| !b.builtin && !probe)
        .map(|b| b.name.as_str())
        .collect();
    if !unchecked.is_empty() {
        outln!(
            "  options of {} not checked: --probe starts the bots to check them",
            unchecked.join(", ")
        );
    }
    let mut checked = plan.clone();
    checked.bots.retain(|b| given(&b) && (b.builtin || probe));
    if checked.bots.is_empty() {
        return Ok(());
    }
    // A sandboxed bot works in a folder of its own, here a temporary one.
    let work = std::env::temp_dir().join(format!("arena-check-{}", std::process::id()));
    let env = arena::game::referee::GameEnv {
        logs: None,
        containment: arena::sandbox::Containment::probe(),
        work_root: Some(work.clone()),
        hide: None,
        watch: None,
        affinity: None,
    };
    let result = super::runtime()?.block_on(arena::game::options::preflight(&checked, &env));
    let _ = std::fs::remove_dir_all(&work);
    for warning in result.map_err(anyhow::Error::msg)? {
        arena::errln!("warning: {warning}");
    }
    let names: Vec<&str> = checked.bots.iter().map(|b| b.name.as_str()).collect();
    outln!(
        "  options of {} checked against their declarations",
        names.join(", ")
    );
    Ok(())
}

/// Loads a contest file of `arena serve` and prints its competitions' plan and reference bots.
///
/// # Errors
/// A contest file that does not load or plan.
#[cfg(feature = "server")]
fn check_contest(path: &std::path::Path) -> Result<()> {
    let exe = std::env::current_exe().context("finding the arena executable")?;
    let contest = arena::serve::contest::Contest::load(path, &exe)?;
    let plan = contest.plan(&contest.competition(1, false, Vec::new())?)?;
    outln!(
        "{}: contest {:?}, {}, {:?} competitions, reference bots {}, {} check games against each",
        path.display(),
        contest.config.name,
        plan.spec,
        plan.format,
        contest.reference_names().join(", "),
        contest.config.check.games
    );
    Ok(())
}

/// Without the server, a contest file is refused with the reason.
#[cfg(not(feature = "server"))]
fn check_contest(path: &std::path::Path) -> Result<()> {
    anyhow::bail!(
        "{}: a contest file of `arena serve`, and this arena was built without the feature `server`",
        path.display()
    )
}

/// Whether `path` is a contest file (`arena serve`): a TOML file with a `[competition]` table.
fn is_contest(path: &std::path::Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .is_some_and(|t| t.contains_key("competition"))
}
