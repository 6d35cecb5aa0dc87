//! The check of each new version: a gauntlet of `[check] games` against every reference bot under
//! the contest's game, time control, limits and isolation, played into `checks/<bot>-v<N>/`.

use std::sync::Arc;

use anyhow::Result;

use crate::probe::ProbeReport;
use crate::run::RunOptions;
use crate::serve::db::Version;
use crate::serve::App;

/// Plays pending checks, oldest first, until the server stops.
pub async fn run(app: Arc<App>) {
    let mut shutdown = app.shutdown.clone();
    loop {
        if *shutdown.borrow() {
            return;
        }
        match app.db.take_check().await {
            Ok(Some(v)) => {
                let (passed, detail) = match check(&app, &v).await {
                    Ok(Some(verdict)) => verdict,
                    // Stopped by the server's shutdown: the check stays running, and is requeued
                    // when the server starts again.
                    Ok(None) => return,
                    Err(e) => (false, format!("the check could not be played: {e:#}")),
                };
                if let Err(e) = app.db.set_verdict(v.id, passed, &detail).await {
                    crate::errln!("arena serve: recording a check: {e:#}");
                }
                app.wake_competitions.notify_one();
                continue;
            }
            Ok(None) => {}
            Err(e) => crate::errln!("arena serve: reading the checks: {e:#}"),
        }
        tokio::select! {
            _ = app.wake_checks.notified() => {}
            _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// Plays version `v`'s check: `Some((passed, detail))`, or `None` when the server stopped it.
async fn check(app: &App, v: &Version) -> Result<Option<(bool, String)>> {
    let bot = app
        .db
        .bot(v.bot_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("bot {} is gone", v.bot_id))?;
    let name = super::check_name(&bot.name, v.number);
    let candidate = super::bot_config(&bot.name, &v.manifest, &app.data.store(), &v.hash)?;
    let protocol = candidate.protocol;
    let config = app.contest.check(&name, candidate)?;
    let plan = app.contest.plan(&config)?;
    let opts = RunOptions {
        results_root: app.data.checks(),
        fresh: true,
        progress_bar: false,
        quiet: true,
        shard: None,
        report_every: None,
        containment: app.containment.clone(),
        derived_config: Some(config.to_toml()?),
        stop: Some(app.shutdown.clone()),
        watch: None,
    };
    let summary = crate::tournament::run(Arc::new(plan), &opts).await?;
    if summary.interrupted {
        return Ok(None);
    }
    let games = crate::results::ResultsDir {
        path: summary.dir.clone(),
    }
    .read_games()?;
    let report = ProbeReport {
        bot: bot.name.clone(),
        renamed_from: None,
        protocol,
        games,
        dir: summary.dir,
        interrupted: false,
    };
    let forfeits = report.forfeits();
    let played = report.games.len();
    Ok(Some(match forfeits.first() {
        None => (
            true,
            format!(
                "passed: {played} games against {}, no forfeit",
                app.contest.reference_names().join(", ")
            ),
        ),
        Some(g) => (
            false,
            format!(
                "failed: {} of {played} games forfeited; game {}: {} ({})",
                forfeits.len(),
                g.id,
                // Public: the end of the bot's stderr stays in the author's check log.
                crate::serve::web::public_detail(&g.detail),
                g.termination.as_str()
            ),
        ),
    }))
}
