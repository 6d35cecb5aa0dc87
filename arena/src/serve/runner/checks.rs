//! The check of each new version: a gauntlet of `[check] games` against every reference bot under
//! the contest's game, time control, limits and isolation, played into `checks/<bot>-v<N>/`.

use std::sync::Arc;

use anyhow::Result;

use std::path::Path;

use crate::standings::crosstable::Crosstable;

use crate::plan::Plan;
use crate::probe::ProbeReport;
use crate::run::RunOptions;
use crate::serve::contest::Contest;
use crate::serve::db::{Db, Version};
use crate::serve::queue::{Remote, CHECK_PRIORITY};
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
                    // The game queue's database was away too long: the upload is not to blame; the
                    // check waits and is played again.
                    Err(e) if crate::run::pool::Stopped::by_queue(&e) => {
                        crate::errln!(
                            "arena serve: check of version {}: {e:#}; played again later",
                            v.id
                        );
                        let _ = app.db.requeue_checks().await;
                        tokio::time::sleep(std::time::Duration::from_secs(10)).await;
                        continue;
                    }
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

/// The name, config text, protocol and plan of version `id`'s check, its upload in `store` (a worker
/// makes the same plan with its own store).
///
/// # Errors
/// A version or bot that is gone, a manifest that does not parse, a config that does not plan.
pub async fn plan_of(
    db: &Db,
    contest: &Contest,
    store: &Path,
    id: i64,
) -> Result<(CheckPlan, Plan)> {
    let v = db
        .version(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("version {id} is gone"))?;
    let bot = db
        .bot(v.bot_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("bot {} is gone", v.bot_id))?;
    let name = super::check_name(&bot.name, v.number);
    let candidate = super::bot_config(&bot.name, &v.manifest, store, &v.hash)?;
    let protocol = candidate.protocol;
    let config = contest.check(&name, candidate)?;
    let plan = contest.plan(&config)?;
    Ok((
        CheckPlan {
            bot: bot.name,
            text: config.to_toml()?,
            protocol,
        },
        plan,
    ))
}

/// What a check's run needs besides its plan.
pub struct CheckPlan {
    /// The bot's name.
    pub bot: String,
    /// The config recorded in the check's folder.
    pub text: String,
    /// The protocol the bot speaks.
    pub protocol: crate::config::ProtocolKind,
}

/// A check's games against one reference bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub reference: String,
    /// Games that count (void ones left out, as in every standings table).
    pub games: u32,
    /// Points, a win 1 and a draw ½.
    pub points: f64,
    /// Of them, games the checked bot lost by forfeit.
    pub forfeits: u32,
}

/// The checked bot's points, games and forfeits against each of `references` (in their order), as
/// the standings count them: row 0 of the crosstable of the bot and the references.
pub fn scores(report: &ProbeReport, references: &[String]) -> Vec<Score> {
    let bots: Vec<String> = std::iter::once(report.bot.clone())
        .chain(references.iter().cloned())
        .collect();
    let table = Crosstable::new(&bots, &report.games);
    let forfeits = report.forfeits();
    references
        .iter()
        .enumerate()
        .map(|(j, r)| Score {
            reference: r.clone(),
            games: table.games[0][j + 1],
            points: table.points[0][j + 1],
            forfeits: forfeits
                .iter()
                .filter(|g| g.first == *r || g.second == *r)
                .count() as u32,
        })
        .collect()
}

/// Plays version `v`'s check: `Some((passed, detail))`, or `None` when the server stopped it.
async fn check(app: &App, v: &Version) -> Result<Option<(bool, String)>> {
    let (check, plan) = plan_of(&app.db, &app.contest, &app.data.store(), v.id).await?;
    // Played afresh: the queue forgets an earlier attempt's games.
    let run = format!("check-{}", v.id);
    app.db.clear_run(&run).await?;
    let remote = Remote::open(&app.db, &run, CHECK_PRIORITY, super::competitions::QUEUED).await?;
    let opts = RunOptions {
        results_root: app.data.checks(),
        fresh: true,
        quiet: true,
        containment: app.containment.clone(),
        derived_config: Some(check.text),
        stop: Some(app.shutdown.clone()),
        player: Some(Arc::clone(&remote) as Arc<dyn crate::run::player::Player>),
        ..RunOptions::default()
    };
    let summary = crate::tournament::run(Arc::new(plan), &opts).await;
    let _ = remote.close().await;
    let summary = summary?;
    if summary.interrupted {
        return Ok(None);
    }
    let games = crate::results::ResultsDir {
        path: summary.dir.clone(),
    }
    .read_games()?;
    let report = ProbeReport {
        bot: check.bot,
        renamed_from: None,
        protocol: check.protocol,
        games,
        dir: summary.dir,
        interrupted: false,
    };
    let forfeits = report.forfeits();
    let played = report.games.len();
    let scores = scores(&report, &app.contest.reference_names());
    let scored = scores
        .iter()
        .map(|s| format!("{}/{} against {}", s.points, s.games, s.reference))
        .collect::<Vec<_>>()
        .join(", ");
    // The first reference bot it scored too little against, with the share asked.
    let short = app
        .contest
        .config
        .check
        .min_score
        .iter()
        .find_map(|(r, &min)| {
            let (points, games) = scores
                .iter()
                .find(|s| &s.reference == r)
                .map_or((0.0, 0), |s| (s.points, s.games));
            let share = if games == 0 {
                0.0
            } else {
                points / f64::from(games)
            };
            (share < min).then(|| {
                format!(
                    "failed: scored {points}/{games} ({:.0}%) against {r}, and [check] min_score \
                     asks {:.0}%",
                    share * 100.0,
                    min * 100.0
                )
            })
        });
    Ok(Some(match (forfeits.first(), short) {
        (None, Some(short)) => (false, short),
        (None, None) => (
            true,
            format!("passed: {played} games, no forfeit; scored {scored}"),
        ),
        (Some(g), _) => (
            false,
            format!(
                "failed: {} of {played} games forfeited; game {}: {} ({})",
                forfeits.len(),
                g.id,
                // Public: the end of the bot's stderr stays in the author's check log.
                crate::serve::web::service::public::public_detail(&g.detail),
                g.termination.as_str()
            ),
        ),
    }))
}
