//! The contest server's game queue, on its database ([`crate::serve::db`]'s `queue` tables): the
//! server's runs (checks and competitions, through the same run layer as `arena run`) queue their
//! games with a [`Remote`] player, and workers ([`crate::serve::worker`]: the server's own slots and
//! `arena worker` processes on any machine) claim, play and return them. What a game carries each
//! way: a [`Job`] (the scheduled game) and an [`Outcome`] (its record and its logs), both JSON.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::game::referee::{GameEnv, SetupError};
use crate::plan::schedule::ScheduledGame;
use crate::plan::Plan;
use crate::record::{GameRecord, GameRow};
use crate::run::player::{Player, Playing};
use crate::serve::db::Db;

/// The rank of a check's games in the queue (first).
pub const CHECK_PRIORITY: i64 = 0;
/// The rank of a competition's games.
pub const COMPETITION_PRIORITY: i64 = 1;

/// At most this many bytes of each log file travel back with a result (its end is kept).
pub const MAX_LOG_BYTES: usize = 256 * 1024;

/// A scheduled game as queued: [`ScheduledGame`] with its players' names, which a worker checks
/// against its own plan of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    pub id: String,
    pub number: usize,
    pub round: u32,
    pub pair: u32,
    pub first: usize,
    pub second: usize,
    pub first_name: String,
    pub second_name: String,
    pub opening: Vec<String>,
    pub setup_first: Vec<(u8, u8)>,
    pub setup_second: Vec<(u8, u8)>,
    pub seed: u64,
}

impl Job {
    /// The job of `game` of `plan`.
    pub fn of(plan: &Plan, game: &ScheduledGame) -> Job {
        Job {
            id: game.id.clone(),
            number: game.number,
            round: game.round,
            pair: game.pair,
            first: game.first,
            second: game.second,
            first_name: plan.bots[game.first].name.clone(),
            second_name: plan.bots[game.second].name.clone(),
            opening: game.opening.clone(),
            setup_first: game.setup.first.clone(),
            setup_second: game.setup.second.clone(),
            seed: game.seed,
        }
    }

    /// The scheduled game of this job in `plan` (a worker's own plan of the run), its players found
    /// by name.
    ///
    /// # Errors
    /// A player who is not among the plan's bots (the worker's plan is not the server's: another
    /// contest file).
    pub fn game(&self, plan: &Plan) -> Result<ScheduledGame> {
        let index = |name: &str| {
            plan.bots
                .iter()
                .position(|b| b.name == name)
                .with_context(|| {
                    format!(
                        "game {}: no bot {name} in this worker's plan: does it have the server's \
                     contest file?",
                        self.id
                    )
                })
        };
        let (first, second) = (index(&self.first_name)?, index(&self.second_name)?);
        Ok(ScheduledGame {
            id: self.id.clone(),
            number: self.number,
            round: self.round,
            pair: self.pair,
            first,
            second,
            opening: self.opening.clone(),
            setup: games::Setup {
                first: self.setup_first.clone(),
                second: self.setup_second.clone(),
            },
            seed: self.seed,
        })
    }
}

/// A game no worker could play, as returned: the reason. The server stops the run with it, as it
/// would if it could not set the game up itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    pub error: String,
}

/// Whether `name` is one of game `id`'s log files: its transcript `<id>.log`, or a side's stderr
/// `<id>-first-<bot>.stderr` / `<id>-second-<bot>.stderr` (and no path).
fn is_log_of(name: &str, id: &str) -> bool {
    let plain = !name.contains('/') && !name.contains('\\') && !name.contains("..");
    let Some(rest) = name.strip_prefix(id) else {
        return false;
    };
    plain
        && (rest == ".log"
            || ((rest.starts_with("-first-") || rest.starts_with("-second-"))
                && rest.ends_with(".stderr")))
}

/// A played game as returned: its `games.csv` row and its log files (the transcript `<id>.log` and
/// each bot's stderr), by file name, each cut to its last [`MAX_LOG_BYTES`] bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub row: GameRow,
    pub logs: Vec<(String, String)>,
}

impl Outcome {
    /// The outcome of `record`, with the files of `logs` whose names start with the game's id.
    pub fn of(record: &GameRecord, logs: Option<&Path>) -> Outcome {
        let mut files = Vec::new();
        if let Some(entries) = logs.and_then(|d| std::fs::read_dir(d).ok()) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !is_log_of(&name, &record.id) {
                    continue;
                }
                if let Ok(bytes) = std::fs::read(entry.path()) {
                    let tail = &bytes[bytes.len().saturating_sub(MAX_LOG_BYTES)..];
                    files.push((name, String::from_utf8_lossy(tail).into_owned()));
                }
            }
        }
        files.sort();
        Outcome {
            row: GameRow::from(record),
            logs: files,
        }
    }

    /// Writes the log files of game `id` into `dir` (created if missing); a name that is not one of
    /// that game's log files is skipped.
    fn write_logs(&self, dir: &Path, id: &str) {
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        for (name, text) in &self.logs {
            if is_log_of(name, id) {
                let _ = std::fs::write(dir.join(name), text);
            }
        }
    }
}

type Waiters = Arc<Mutex<HashMap<String, oneshot::Sender<String>>>>;

/// The [`Player`] of a run of the contest server: each game is queued in the database, and its result
/// awaited (a task takes the run's results as each is announced, and every 200 ms). Dropping a game's future leaves the game in
/// the queue (its result is taken when the run resumes); the run's games are claimed only while the
/// run is open ([`Db::open_run`]; the caller closes it when the run stops).
pub struct Remote {
    db: Db,
    run: String,
    slots: usize,
    waiters: Waiters,
    poller: tokio::task::JoinHandle<()>,
}

impl Remote {
    /// Opens `run` in the queue at `priority` and starts taking its results; at most `slots` games
    /// are queued at once.
    ///
    /// # Errors
    /// A database error.
    pub async fn open(db: &Db, run: &str, priority: i64, slots: usize) -> Result<Arc<Remote>> {
        db.open_run(run, priority).await?;
        let waiters: Waiters = Arc::default();
        let poller = {
            let (db, run, waiters) = (db.clone(), run.to_string(), Arc::clone(&waiters));
            tokio::spawn(async move {
                let mut wakeup = db.wakeup(true).await;
                loop {
                    match db.take_results(&run).await {
                        Ok(results) => {
                            let mut w = waiters.lock().expect("the waiters' lock");
                            for (game, result) in results {
                                if let Some(tx) = w.remove(&game) {
                                    let _ = tx.send(result);
                                }
                                // No waiter: a game abandoned (an SPRT decided, a stop); if the
                                // run goes on later, `enqueue` reads its result back.
                            }
                        }
                        Err(e) => crate::errln!("arena serve: reading the results of {run}: {e:#}"),
                    }
                    // Woken by a stored result's announcement, else every 200 ms.
                    wakeup.wait(Duration::from_millis(200)).await;
                }
            })
        };
        Ok(Arc::new(Remote {
            db: db.clone(),
            run: run.to_string(),
            slots,
            waiters,
            poller,
        }))
    }

    /// Closes the run in the queue (its queued games are no longer claimed) and stops taking results.
    ///
    /// # Errors
    /// A database error.
    pub async fn close(&self) -> Result<()> {
        self.poller.abort();
        self.db.close_run(&self.run).await
    }

    async fn play_one(
        db: Db,
        run: String,
        waiters: Waiters,
        plan: Arc<Plan>,
        game: ScheduledGame,
        env: Arc<GameEnv>,
    ) -> Result<GameRecord, SetupError> {
        let failed = |e: anyhow::Error| SetupError {
            game: game.id.clone(),
            message: format!("the game queue: {e:#}"),
            queue: true,
        };
        let job = serde_json::to_string(&Job::of(&plan, &game)).map_err(|e| failed(e.into()))?;
        let (tx, rx) = oneshot::channel();
        waiters
            .lock()
            .expect("the waiters' lock")
            .insert(game.id.clone(), tx);
        // A database that restarts is waited for (two minutes at most), as the workers wait for it.
        let mut tries = 0;
        let queued = loop {
            match db.enqueue(&run, &game.id, &job).await {
                Ok(r) => break r,
                Err(e) if tries < 240 => {
                    tries += 1;
                    if tries == 1 {
                        crate::errln!(
                            "arena serve: queueing {run} {}: {e:#}; trying again",
                            game.id
                        );
                    }
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => return Err(failed(e)),
            }
        };
        let result = match queued {
            Some(result) => {
                waiters.lock().expect("the waiters' lock").remove(&game.id);
                result
            }
            None => {
                // The poller hands the result over; every 60 s the game's row is read as well, so a
                // result is never waited for in vain.
                tokio::pin!(rx);
                loop {
                    tokio::select! {
                        r = &mut rx => break r.map_err(|_| failed(anyhow::anyhow!("it stopped")))?,
                        () = tokio::time::sleep(Duration::from_secs(60)) => {
                            if let Ok(Some(r)) = db.result_of(&run, &game.id).await {
                                waiters.lock().expect("the waiters' lock").remove(&game.id);
                                break r;
                            }
                        }
                    }
                }
            }
        };
        if let Ok(f) = serde_json::from_str::<Failure>(&result) {
            return Err(failed(anyhow::anyhow!("{}", f.error)));
        }
        let outcome: Outcome = serde_json::from_str(&result)
            .with_context(|| format!("the result of {} {}", run, game.id))
            .map_err(failed)?;
        let record = GameRecord::try_from(outcome.row.clone())
            .map_err(|e| failed(anyhow::anyhow!("the result of {} {}: {e}", run, game.id)))?;
        if record.id != game.id {
            return Err(failed(anyhow::anyhow!(
                "the result of {run} {} is game {}",
                game.id,
                record.id
            )));
        }
        if let Some(dir) = &env.logs {
            outcome.write_logs(dir, &game.id);
        }
        Ok(record)
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.poller.abort();
    }
}

/// The player of `game` who is disqualified in competition run `run` (`competition-<id>`), if one is
/// (looked at when a worker takes the game: a competition queues all its games at once).
///
/// # Errors
/// A database error.
pub async fn disqualified_player(
    db: &Db,
    run: &str,
    plan: &Plan,
    game: &ScheduledGame,
) -> Result<Option<String>> {
    let Some(id) = run
        .strip_prefix("competition-")
        .and_then(|id| id.parse::<i64>().ok())
    else {
        return Ok(None);
    };
    let names = [&plan.bots[game.first].name, &plan.bots[game.second].name];
    Ok(db
        .entries(id)
        .await?
        .into_iter()
        .find(|e| e.disqualified && names.contains(&&e.name))
        .map(|e| e.name))
}

/// The record of `game`, not played: void (it counts in no standings), `detail` saying why.
pub fn unplayed(plan: &Plan, game: &ScheduledGame, detail: String) -> GameRecord {
    GameRecord {
        termination: crate::record::Termination::Void,
        detail,
        ..crate::game::referee::unplayed_record(plan, game)
    }
}

impl Player for Remote {
    fn slots(&self, _plan: &Plan) -> usize {
        self.slots
    }

    fn play(&self, plan: Arc<Plan>, game: ScheduledGame, env: Arc<GameEnv>) -> Playing {
        let (db, run, waiters) = (self.db.clone(), self.run.clone(), Arc::clone(&self.waiters));
        Box::pin(Remote::play_one(db, run, waiters, plan, game, env))
    }
}

#[cfg(test)]
mod tests {
    use super::is_log_of;

    #[test]
    fn only_a_games_own_log_files_travel() {
        for ok in [
            "g0001.log",
            "g0001-first-alice.stderr",
            "g0001-second-bob.stderr",
        ] {
            assert!(is_log_of(ok, "g0001"), "{ok}");
        }
        for bad in [
            "g00010.log",
            "g0001-first-../x.stderr",
            "g0001-first-a/b.stderr",
            "g0001.stderr",
            "g0002.log",
            "g0001-third-x.stderr",
            "g0001-first-alice.log",
        ] {
            assert!(!is_log_of(bad, "g0001"), "{bad}");
        }
    }
}
