//! `arena run`: play (or resume) the tournaments of config files.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;

use arena::plan::Plan;
use arena::stats::sprt::SprtDecision;
use arena::tournament::{self, RunOptions, RunSummary};
use arena::{out, outln};

use super::{load, runtime};

/// Run (or resume) the tournaments of one or more config files, one after another.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// TOML config files (see configs/).
    #[arg(required = true)]
    configs: Vec<PathBuf>,
    #[command(flatten)]
    flags: RunFlags,
    /// Games played at once (overrides the config).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Play only part K of N of each schedule (whole game pairs), into <name>.shard-K-of-N/; run the
    /// other parts elsewhere and join them with `arena merge`. `auto`: K and N from a Slurm job array
    /// or a Kubernetes Indexed Job (see deploy/). Not for SPRT matches, which stay on one machine.
    #[arg(long, value_name = "K/N|auto")]
    shard: Option<arena::shard::ShardRequest>,
    /// With --shard auto: the number of shards, when the scheduler does not say (a Kubernetes Indexed
    /// Job's completions); overrides the config's [shards] count.
    #[arg(long, value_name = "N", requires = "shard")]
    shard_count: Option<u32>,
}

/// How a run keeps its results and shows its progress: the flags `arena run` and `arena match` share.
#[derive(Debug, Args)]
pub struct RunFlags {
    /// Start afresh: move an existing results folder aside (it is kept, never deleted).
    #[arg(long)]
    fresh: bool,
    /// The folder that holds each tournament's results folder.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Plain progress lines even on a terminal.
    #[arg(long)]
    no_progress: bool,
    /// Print the standings every N recorded games (as cutechess's -ratinginterval).
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    report_every: Option<usize>,
    /// Append each game to this PGN file as it ends, each bot move commented with its score, depth
    /// and time (cutechess's -pgnout); over the config's pgnout.
    #[arg(long, value_name = "FILE")]
    pub pgnout: Option<PathBuf>,
    /// Pin each game's bots to CPUs of their own, the CPUs shared out among the games played at once
    /// (fastchess's -use-affinity): --affinity alone is all of them, --affinity=0-3,8 a list,
    /// --affinity=off no pinning; over the config's affinity. The value needs its `=`, so
    /// `--affinity x.toml` reads x.toml as the config.
    #[arg(
        long,
        value_name = "CPUS",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    pub affinity: Option<arena::config::affinity::Setting>,
    /// Append each Dots game to this SGF file as it ends, one game tree per game, each move commented
    /// C[..] with its score, depth and time as --pgnout's; over the config's sgfout.
    #[arg(long, value_name = "FILE")]
    pub sgfout: Option<PathBuf>,
}

impl RunFlags {
    /// The run options of these flags: the whole schedule (no shard), the machine's containment, the
    /// config file copied into the results folder.
    pub fn options(&self) -> RunOptions {
        RunOptions {
            results_root: self.results.clone(),
            fresh: self.fresh,
            progress_bar: !self.no_progress,
            report_every: self.report_every,
            pgnout: self.pgnout.clone(),
            affinity: self.affinity.clone(),
            sgfout: self.sgfout.clone(),
            ..RunOptions::default()
        }
    }
}

/// Validates every config (and its shard), then plays their tournaments one after another. Exit
/// status 0, or 130 once a tournament is interrupted (its finished games are recorded).
///
/// # Errors
/// A config that does not load or plan, a bad --concurrency or --shard, a tournament that fails.
pub fn run(args: RunArgs) -> Result<ExitCode> {
    let opts = args.flags.options();
    // Validate every config (and find its shard) before playing any, so a typo in the third file is
    // found at once.
    let env: std::collections::HashMap<String, String> = std::env::vars().collect();
    let mut plans = Vec::new();
    for path in &args.configs {
        let affinity = opts.affinity.is_some();
        let mut plan = load(path).map_err(|e| match affinity_hint(path, affinity) {
            Some(hint) => anyhow::anyhow!("{e:#}; {hint}"),
            None => e,
        })?;
        if opts.sgfout.is_some() {
            arena::formats::sgf::writable(&plan.spec).map_err(|reason| {
                anyhow::anyhow!(
                    "{}: --sgfout {reason}; use --pgnout for these games",
                    path.display()
                )
            })?;
        }
        // A knockout's seeds_from folder is read now, so a bad one is found before any game.
        arena::tournament::pairing::seed(&mut plan)
            .with_context(|| format!("{}", path.display()))?;
        if let Some(c) = args.concurrency {
            anyhow::ensure!(c > 0, "--concurrency must be at least 1");
            plan.concurrency = c;
        }
        let shard = arena::shard::for_plan(args.shard, args.shard_count, &plan, &env)
            .with_context(|| format!("{}: --shard", path.display()))?;
        plans.push((plan, shard));
    }
    let rt = runtime()?;
    for (plan, shard) in plans {
        if let Some(s) = shard.as_ref().filter(|s| s.scheduler.is_some()) {
            arena::errln!(
                "{}: shard {}/{} ({})",
                plan.name,
                s.shard.index,
                s.shard.count,
                s.from
            );
        }
        let opts = RunOptions {
            shard: shard.map(|s| s.shard),
            ..opts.clone()
        };
        let Some(summary) = play(&rt, plan, &opts)? else {
            return Ok(ExitCode::from(130));
        };
        out!("{}", summary.report.text());
        if let Some(line) = sprt_verdict(&summary) {
            outln!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The hint for a config `path` that does not exist and reads as a CPU list (`0-3`, `1,2`, `0-3,8`)
/// when `--affinity` was given (`affinity`): the old spelling `--affinity 0-3`, which now reads 0-3 as
/// a config since the list needs its `=`.
fn affinity_hint(path: &std::path::Path, affinity: bool) -> Option<String> {
    let text = path.to_str()?;
    let cpu_list = text.bytes().any(|c| c.is_ascii_digit())
        && text
            .bytes()
            .all(|c| c.is_ascii_digit() || c == b',' || c == b'-');
    (affinity && cpu_list && !path.exists())
        .then(|| format!("--affinity takes its CPU list after '=': --affinity={text}"))
}

/// Plays (or resumes) `plan` under `opts`, then prints its heading (`name — game — folder`) on stdout,
/// after a line saying there was nothing left to play when the tournament was already complete.
/// `None` when a signal stopped it, which it says on stderr (the command then exits with 130).
///
/// # Errors
/// [`tournament::run`]'s.
pub fn play(
    rt: &tokio::runtime::Runtime,
    plan: Plan,
    opts: &RunOptions,
) -> Result<Option<RunSummary>> {
    let (name, spec) = (plan.name.clone(), arena::modules::title(&plan.spec));
    let summary = rt.block_on(tournament::run(Arc::new(plan), opts))?;
    if summary.interrupted {
        arena::errln!(
            "interrupted: {} of {} games recorded in {}; run again to resume",
            summary.recorded,
            summary.total,
            summary.dir.display()
        );
        return Ok(None);
    }
    if summary.played == 0 && summary.complete {
        outln!("tournament {name} is complete ({} games recorded); nothing to play. Use --fresh to start afresh.", summary.recorded);
    }
    outln!("\n{name} — {spec} — {}", summary.dir.display());
    Ok(Some(summary))
}

/// The verdict of an SPRT match over the games of `summary`, a line for people; `None` for the other
/// formats.
pub fn sprt_verdict(summary: &RunSummary) -> Option<String> {
    let (a, b) = summary
        .report
        .head_to_head
        .as_ref()
        .map(|h| (h.bot.as_str(), h.opponent.as_str()))
        .unwrap_or_default();
    Some(match summary.sprt? {
        SprtDecision::AcceptH1 => format!(
            "SPRT: H1 accepted: {a} is stronger than {b} (the games favour elo = elo1 over elo = elo0)"
        ),
        SprtDecision::AcceptH0 => format!(
            "SPRT: H0 accepted: {a} is not stronger than {b} by elo1 (the games favour elo = elo0)"
        ),
        SprtDecision::Continue => format!(
            "SPRT: inconclusive after {} games (max_pairs reached)",
            summary.recorded
        ),
    })
}
