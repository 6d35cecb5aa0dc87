//! Competitions, one at a time: the scheduled test competitions, those the organiser creates, and one
//! a killed server left running (resumed first). Each plays into `competitions/competition-<id>/`, an
//! ordinary results folder (`arena report`, `ratings`, `export` and `analyze` read it).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use tokio::sync::watch;

use std::path::Path;

use crate::run::RunOptions;
use crate::serve::contest::Contest;
use crate::serve::db::{now_ms, Competition, CompetitionStatus, Db, Kind};
use crate::serve::queue::{Remote, COMPETITION_PRIORITY};
use crate::serve::App;

/// Games of a run queued at once, at most.
pub const QUEUED: usize = 4096;

/// Creates the scheduled test competitions and plays every competition, until the server stops.
pub async fn run(app: Arc<App>) {
    let mut shutdown = app.shutdown.clone();
    loop {
        if *shutdown.borrow() {
            return;
        }
        if let Err(e) = schedule(&app).await {
            crate::errln!("arena serve: scheduling a test competition: {e:#}");
        }
        match app.db.next_competition().await {
            Ok(Some(c)) => {
                if let Err(e) = play(&app, &c).await {
                    crate::errln!("arena serve: competition {}: {e:#}", c.id);
                    // Not retried in a loop: it waits, paused, for the organiser, with the reason.
                    let _ = app
                        .db
                        .set_status(
                            c.id,
                            Some(&[CompetitionStatus::Running]),
                            CompetitionStatus::Paused,
                        )
                        .await;
                    let _ = app.db.set_detail(c.id, &format!("{e:#}")).await;
                }
                continue;
            }
            Ok(None) => {}
            Err(e) => crate::errln!("arena serve: reading the competitions: {e:#}"),
        }
        tokio::select! {
            _ = app.wake_competitions.notified() => {}
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// Creates a test competition when `[schedule] test_every` has passed since the last one and none
/// is waiting, running or paused.
async fn schedule(app: &App) -> Result<()> {
    let Some(every) = app.contest.config.schedule.test_every else {
        return Ok(());
    };
    if app.db.competition_pending().await? {
        return Ok(());
    }
    let due = match app.db.last_created(Kind::Test).await? {
        None => true,
        Some(t) => now_ms() - t >= every.as_millis() as i64,
    };
    // Not a competition of the reference bots alone: it waits for a participant's bot to pass.
    if due && app.db.playing_bots().await? > 0 {
        app.db
            .add_competition(Kind::Test, &app.contest.playing_references())
            .await?;
    }
    Ok(())
}

/// The config text and plan of competition `id` from its entries, its uploads in `store` (the same
/// text every time, so a resume finds the same fingerprint; a worker makes the same plan with its own
/// store).
///
/// # Errors
/// An entry whose version is gone, a config that does not plan.
pub async fn plan_of(
    db: &Db,
    contest: &Contest,
    store: &Path,
    id: i64,
) -> Result<(String, crate::plan::Plan)> {
    let mut bots = Vec::new();
    for e in db.entries(id).await? {
        let Some(version) = e.version_id else {
            continue;
        };
        let v = db
            .version(version)
            .await?
            .with_context(|| format!("version {version} of {}", e.name))?;
        bots.push(super::bot_config(&e.name, &v.manifest, store, &v.hash)?);
    }
    let is_final = db
        .competition(id)
        .await?
        .is_some_and(|c| c.kind == Kind::Final);
    let config = contest.competition(id, is_final, bots)?;
    let mut plan = contest.plan(&config)?;
    // A knockout seeded from an earlier results folder, as `arena run` seeds it.
    crate::tournament::pairing::seed(&mut plan)?;
    Ok((config.to_toml()?, plan))
}

/// Plays (or resumes) competition `c` until it is finished, paused or cancelled, or the server stops.
async fn play(app: &App, c: &Competition) -> Result<()> {
    // The stop is registered before the status says running, so a pause or cancel that comes at
    // any moment from now finds it (before: the start below fails; after: the run stops at once).
    let (stop_tx, stop) = watch::channel(false);
    app.stops
        .lock()
        .expect("the stops' lock")
        .insert(c.id, stop_tx);
    let unregister = || {
        app.stops.lock().expect("the stops' lock").remove(&c.id);
    };
    if !app
        .db
        .set_status(
            c.id,
            Some(&[CompetitionStatus::Scheduled, CompetitionStatus::Running]),
            CompetitionStatus::Running,
        )
        .await?
    {
        unregister();
        return Ok(());
    }
    let (text, plan) = match plan_of(&app.db, &app.contest, &app.data.store(), c.id).await {
        Ok(x) => x,
        Err(e) => {
            unregister();
            return Err(e);
        }
    };
    if plan.bots.len() < 2 {
        unregister();
        app.db
            .set_status(
                c.id,
                Some(&[CompetitionStatus::Running]),
                CompetitionStatus::Finished,
            )
            .await?;
        return Ok(());
    }
    // The server's shutdown stops it too.
    let mut shutdown = app.shutdown.clone();
    let forward = {
        let stops = Arc::clone(&app.stops);
        let id = c.id;
        tokio::spawn(async move {
            crate::run::pool::stopped(&mut shutdown).await;
            if let Some(tx) = stops.lock().expect("the stops' lock").get(&id) {
                let _ = tx.send(true);
            }
        })
    };
    let remote = match Remote::open(
        &app.db,
        &format!("competition-{}", c.id),
        COMPETITION_PRIORITY,
        QUEUED,
    )
    .await
    {
        Ok(r) => r,
        Err(e) => {
            forward.abort();
            unregister();
            return Err(e);
        }
    };
    let opts = RunOptions {
        results_root: app.data.competitions(),
        quiet: true,
        containment: app.containment.clone(),
        derived_config: Some(text),
        stop: Some(stop),
        player: Some(Arc::clone(&remote) as Arc<dyn crate::run::player::Player>),
        watch: Some(Arc::new(super::live::CompetitionWatch {
            id: c.id,
            board: Arc::clone(&app.live),
        })),
        ..RunOptions::default()
    };
    let summary = crate::tournament::run(Arc::new(plan), &opts).await;
    forward.abort();
    // Paused, cancelled or over: its queued games are no longer handed out. Stopped by the server's
    // shutdown (still running): the workers go on with them, and their results are taken when the
    // server is back.
    let still = app.db.competition(c.id).await.ok().flatten();
    if summary.as_ref().is_ok_and(|s| s.complete)
        || still.is_some_and(|s| s.status != CompetitionStatus::Running)
    {
        let _ = remote.close().await;
    }
    app.live.clear(c.id);
    app.stops.lock().expect("the stops' lock").remove(&c.id);
    let summary = summary?;
    if summary.complete {
        app.db
            .set_status(
                c.id,
                Some(&[CompetitionStatus::Running]),
                CompetitionStatus::Finished,
            )
            .await?;
    }
    // Otherwise paused or cancelled by the organiser (the status says which), or stopped by the
    // server's shutdown (still `running`: resumed when it starts again).
    Ok(())
}
