//! Runs a plan: schedules games onto `concurrency` slots, records each game as it ends, resumes, and
//! prints the standings (and writes them with every game as `report.html`).

use std::sync::Arc;

use anyhow::Result;

use crate::plan::schedule::{schedule, ScheduledGame};
use crate::plan::Plan;
use crate::report::{Report, ReportOptions};
use crate::results::fingerprint::Fingerprint;
use crate::results::{check_resumable, Expected};
use crate::run::{Flow, Run, Setup};
use crate::standings::head_to_head::HeadToHead;
use crate::stats::sprt::SprtDecision;

pub mod pairing;

pub use crate::run::{Progress, RunOptions, RunSummary, Sink};

/// Runs (or resumes) the tournament `plan`.
///
/// Games already in `games.csv` are skipped; a complete tournament is reported and left unchanged.
/// Each finished game is appended to `games.csv` at once; `standings.csv`, `crosstable.csv` and `report.html` are
/// written at the end. Ctrl-C, SIGTERM or SIGHUP stops the run, kills the running bots and keeps every finished
/// game. An SPRT match stops as soon as a completed game pair takes the LLR across a bound (games still
/// running are abandoned unrecorded: only complete pairs count); on resume the recorded pairs decide.
///
/// With a shard, only that shard's games are played, into its own folder.
///
/// # Errors
/// A results folder that cannot be written, or whose games belong to another schedule; a shard of an
/// SPRT match (a sequential test cannot be split), of a Swiss or a knockout (see [`crate::tournament::pairing::run`]).
pub async fn run(plan: Arc<Plan>, opts: &RunOptions) -> Result<RunSummary> {
    if matches!(
        plan.format,
        crate::config::Format::Swiss | crate::config::Format::Knockout
    ) {
        return pairing::run(plan, opts).await;
    }
    anyhow::ensure!(
        opts.shard.is_none() || plan.sprt.is_none(),
        "{}; run it without --shard",
        crate::shard::SPRT_ON_ONE_MACHINE
    );
    let folder = opts
        .shard
        .map_or_else(|| plan.name.clone(), |s| s.folder(&plan.name));
    let all: Vec<ScheduledGame> = schedule(&plan)
        .into_iter()
        .filter(|g| opts.shard.is_none_or(|s| s.contains(g)))
        .collect();
    // Held until the run ends: no second run can write this folder meanwhile.
    let mut run = Run::open(Setup::of(&plan, opts, folder))?;
    let dir = run.dir.clone();
    let recorded = dir.read_games()?;
    let keys: Vec<Expected> = all.iter().map(|g| Expected::of(&plan, g)).collect();
    check_resumable(&recorded, &keys, &plan.spec.to_string(), &dir.path)?;
    let fingerprint = Fingerprint::of(&plan);
    run.check_fingerprint(&fingerprint, !recorded.is_empty(), "games")?;
    run.record_config()?;
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let sprt = plan.sprt.map(|s| s.test);
    let report_opts = ReportOptions::of(&plan);
    // An SPRT match: the two bots' head-to-head, updated game by game.
    let mut h2h = sprt.map(|_| HeadToHead::new(&names[0], &names[1], &recorded));
    let decided = |h: &Option<HeadToHead>| match (&sprt, h) {
        (Some(s), Some(h)) => s.decide(&h.pentanomial),
        _ => SprtDecision::Continue,
    };
    let done: std::collections::HashSet<&str> = recorded.iter().map(|r| r.id.as_str()).collect();
    let todo: Vec<ScheduledGame> = all
        .iter()
        .filter(|g| !done.contains(g.id.as_str()))
        .cloned()
        .collect();
    drop(done);
    let total = all.len();
    if todo.is_empty() || decided(&h2h) != SprtDecision::Continue {
        // Rewritten all the same: the config (its anchor, say) may have changed since.
        let report = Report::new(&names, &recorded, &report_opts)?;
        report.write(&dir.path)?;
        crate::report::html::write(&dir.path, &plan.name, &recorded, &report)?;
        return Ok(RunSummary {
            played: 0,
            total,
            recorded: recorded.len(),
            complete: true,
            interrupted: false,
            sprt: sprt.map(|_| decided(&h2h)),
            report,
            dir: dir.path,
        });
    }
    if !recorded.is_empty() {
        crate::errln!(
            "resuming {}: {} of {total} games already recorded",
            plan.name,
            recorded.len()
        );
    }
    // From here on the games live in games.csv only: the run keeps a count, so its memory does not grow
    // with the tournament (the interim and final reports read the file).
    let mut recorded_count = recorded.len();
    drop(recorded);

    let env = run.env(&plan, &fingerprint).await?;
    let mut writer = dir.appender()?;
    let mut progress = Progress::new(total, recorded_count, opts.progress_bar, opts.quiet);
    run.play(Arc::clone(&plan), env, todo, "games", |record| {
        recorded_count += 1;
        let done = recorded_count;
        writer.game_finished(&record, done, total)?;
        progress.game_finished(&record, done, total)?;
        if opts
            .report_every
            .is_some_and(|n| n > 0 && done.is_multiple_of(n) && done < total)
        {
            let rows = crate::standings::standings(&names, &dir.read_games()?);
            progress.print_block(&format!(
                "standings after {done} of {total} games:\n{}",
                crate::standings::table(&rows)
            ));
        }
        if let Some(h) = h2h.as_mut() {
            if h.add(&record) {
                let pairs = h.pentanomial.pairs();
                let decision = decided(&h2h);
                let h = h2h.as_ref().expect("an SPRT match");
                let over = decision != SprtDecision::Continue;
                progress.status(&h.status(sprt.as_ref()), over || pairs % 10 == 0);
                if over {
                    // Decided at a pair boundary: abandon the games still running (their pairs would
                    // not count) and stop.
                    return Ok(Flow::Stop);
                }
            }
        }
        Ok(Flow::Continue)
    })
    .await?;
    progress.finish();
    let recorded = dir.read_games()?;
    let report = Report::new(&names, &recorded, &report_opts)?;
    report.write(&dir.path)?;
    crate::report::html::write(&dir.path, &plan.name, &recorded, &report)?;
    run.finish();
    let decision = sprt.map(|_| decided(&h2h));
    Ok(RunSummary {
        played: run.played,
        total,
        recorded: recorded.len(),
        complete: recorded.len() == total || decision.is_some_and(|d| d != SprtDecision::Continue),
        interrupted: run.interrupted,
        sprt: decision,
        report,
        dir: dir.path,
    })
}
