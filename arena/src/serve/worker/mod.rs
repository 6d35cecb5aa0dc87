//! A game worker: claims games from the contest's queue ([`crate::serve::queue`]), plays each with the
//! referee under the machine's containment, and returns its record and logs. `arena worker` runs one
//! on any machine that reaches the database; the server runs one more for its own slots.
//!
//! A worker builds its own plan of each run from the contest file and the database (the same
//! functions as the server's), stores each bot it needs from the upload's bytes in the database
//! (checked against the upload's SHA-256 and by the same archive checks as an upload), and renews the
//! leases of its games with a heartbeat every quarter of `[workers] lease_s`. Killed, its games go to
//! other workers when their leases run out; stopped (SIGTERM), it gives them back at once. An `arena
//! worker` writes each competition game it plays to the database every [`LIVE_EVERY`], for the
//! server's live pages ([`crate::serve::runner::live`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::game::referee::{play_game, GameEnv, Watch};
use crate::plan::Plan;
use crate::sandbox::Containment;
use crate::serve::contest::Contest;
use crate::serve::db::{Claim, Db};
use crate::serve::queue::{Failure, Job, Outcome};
use crate::serve::runner::live::{Board, CompetitionWatch};
use crate::serve::runner::{self, DataDirs};

/// How a worker works.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Its name in the database, unique among the live workers of a contest (a worker started
    /// under a name takes back the games its killed predecessor of that name held).
    pub name: String,
    /// Games at once.
    pub slots: usize,
    /// Where it keeps the bots it fetched and its games' logs and sandboxes: `<root>/store/`,
    /// `<root>/runs/<run>/`.
    pub data: DataDirs,
    /// The folder its sandboxed bots must not see (usually the results root).
    pub hide: PathBuf,
    /// The live board of the server's own worker (the games it plays show on the competitions'
    /// live pages); `None` for `arena worker`.
    pub board: Option<Arc<Board>>,
}

/// A run as this worker plays it.
struct RunHere {
    plan: Arc<Plan>,
    env: Arc<GameEnv>,
}

/// How often an `arena worker` writes the competition games it plays to the database (the live pages
/// reload every 2 s; at 1,000 busy workers this is 500 one-row updates a second, docs/server.md).
pub const LIVE_EVERY: Duration = Duration::from_secs(2);

/// The state the worker's tasks share.
struct Shared {
    db: Db,
    contest: Arc<Contest>,
    opts: WorkerOptions,
    /// The games it plays: the server's live board ([`WorkerOptions::board`]), else one of its own
    /// that [`push_live`] writes to the database.
    board: Arc<Board>,
    containment: Arc<Containment>,
    lease_ms: i64,
    runs: Mutex<HashMap<String, Arc<RunHere>>>,
    leases: Leases,
}

/// The leases a worker holds (the games it plays and the results it is storing), by run and game: the
/// heartbeat renews exactly these.
type Leases = Arc<Mutex<HashMap<(String, String), Claim>>>;

/// A game given up this many times (it cannot be set up on any worker that tried) is stored as
/// failed: the server stops its run with the reason, as it would if the game were played locally.
pub const MAX_ATTEMPTS: i64 = 3;

/// Works until `stop` holds `true`: then the games in play are stopped and given back to the queue,
/// and the results already played are stored.
///
/// # Errors
/// None from a game or the database: errors are logged and the worker goes on (a database that is
/// down at the start or restarts is waited for); a game it cannot play is given back, and after
/// [`MAX_ATTEMPTS`] stored as failed with the reason.
pub async fn work(
    db: Db,
    contest: Arc<Contest>,
    containment: Arc<Containment>,
    opts: WorkerOptions,
    mut stop: watch::Receiver<bool>,
) -> Result<()> {
    let lease_ms = contest.config.workers.lease_ms();
    let board = opts.board.clone().unwrap_or_default();
    let shared = Arc::new(Shared {
        db,
        contest,
        board,
        opts,
        containment,
        lease_ms,
        runs: Mutex::default(),
        leases: Leases::default(),
    });
    let name = shared.opts.name.clone();
    let slots = shared.opts.slots.max(1);
    // The start: the games a killed predecessor of this name held go back; waits for the database.
    loop {
        let started = async {
            let orphans = shared.db.release_all(&name).await?;
            shared
                .db
                .heartbeat(&name, slots as i64, lease_ms, &[])
                .await?;
            anyhow::Ok(orphans)
        };
        match started.await {
            Ok(0) => break,
            Ok(orphans) => {
                crate::errln!(
                    "arena worker {name}: {orphans} game(s) of a killed worker of this name requeued"
                );
                break;
            }
            Err(e) => {
                crate::errln!("arena worker {name}: starting: {e:#}; trying again in 5 s");
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_secs(5)) => {}
                    _ = stop.changed() => {}
                }
                if *stop.borrow() {
                    return Ok(());
                }
            }
        }
    }
    let heartbeat = {
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let every = Duration::from_millis((shared.lease_ms / 4).max(250) as u64);
            loop {
                tokio::time::sleep(every).await;
                let held = shared.held();
                if let Err(e) = shared
                    .db
                    .heartbeat(&shared.opts.name, slots as i64, shared.lease_ms, &held)
                    .await
                {
                    crate::errln!("arena worker {}: heartbeat: {e:#}", shared.opts.name);
                }
            }
        })
    };
    // The live board of an `arena worker` (the server's own worker writes into the server's).
    let live = shared
        .opts
        .board
        .is_none()
        .then(|| tokio::spawn(push_live(Arc::clone(&shared))));
    // Games being played, each ending with its result to store; results being stored (apart, so a
    // slot takes its next game while the last one's result is written).
    let mut playing: JoinSet<Option<(Claim, String)>> = JoinSet::new();
    let mut storing: JoinSet<()> = JoinSet::new();
    let held: Arc<Mutex<HashMap<tokio::task::Id, Claim>>> = Arc::default();
    // An idle worker is woken by a queued game's announcement, and asks anyway after 250 ms, then
    // less often, up to every 5 s (a thousand idle workers then ask 200 times a second).
    let mut wakeup = shared.db.wakeup(false).await;
    let mut idle_wait = Duration::from_millis(250);
    loop {
        if *stop.borrow() {
            break;
        }
        // Fill the free slots.
        let mut idle = false;
        while playing.len() < slots {
            match shared.db.claim(&name, lease_ms).await {
                Ok(Some(claim)) => {
                    idle_wait = Duration::from_millis(250);
                    shared.hold(&claim);
                    let shared = Arc::clone(&shared);
                    let c = claim.clone();
                    let handle = playing.spawn(async move { play(&shared, c).await });
                    held.lock()
                        .expect("the claims' lock")
                        .insert(handle.id(), claim);
                }
                Ok(None) => {
                    idle = true;
                    break;
                }
                Err(e) => {
                    crate::errln!("arena worker {name}: claiming a game: {e:#}");
                    idle = true;
                    break;
                }
            }
        }
        let wait = if idle {
            let w = idle_wait;
            idle_wait = (idle_wait * 2).min(Duration::from_secs(5));
            w
        } else {
            Duration::from_secs(3600)
        };
        tokio::select! {
            Some(done) = playing.join_next_with_id() => {
                let id = match &done {
                    Ok((id, _)) => *id,
                    Err(e) => e.id(),
                };
                let claim = held.lock().expect("the claims' lock").remove(&id);
                match (done, claim) {
                    (Ok((_, Some((claim, text)))), _) => {
                        let shared = Arc::clone(&shared);
                        storing.spawn(async move { store(&shared, &claim, &text).await });
                    }
                    // A task that panicked: its game goes back.
                    (Err(_), Some(claim)) => shared.give_back(&claim).await,
                    _ => {}
                }
            }
            Some(_) = storing.join_next() => {}
            () = wakeup.wait(wait) => {}
            _ = stop.changed() => {}
        }
    }
    playing.abort_all();
    while playing.join_next().await.is_some() {}
    // Results already played are stored (their leases still renewed meanwhile).
    while storing.join_next().await.is_some() {}
    heartbeat.abort();
    if let Some(live) = live {
        live.abort();
    }
    let claims: Vec<Claim> = held
        .lock()
        .expect("the claims' lock")
        .drain()
        .map(|(_, c)| c)
        .collect();
    for claim in claims {
        shared.give_back(&claim).await;
    }
    Ok(())
}

impl Shared {
    /// Holds `claim`'s lease (the heartbeat renews it).
    fn hold(&self, claim: &Claim) {
        self.leases
            .lock()
            .expect("the leases' lock")
            .insert((claim.run.clone(), claim.game.clone()), claim.clone());
    }

    /// The claims whose leases it holds.
    fn held(&self) -> Vec<Claim> {
        self.leases
            .lock()
            .expect("the leases' lock")
            .values()
            .cloned()
            .collect()
    }

    /// Stops renewing `claim`'s lease: if nothing else gives the game back, its lease runs out.
    fn drop_lease(&self, claim: &Claim) {
        self.leases
            .lock()
            .expect("the leases' lock")
            .remove(&(claim.run.clone(), claim.game.clone()));
    }

    /// Gives `claim` back to the queue (or, if the database does not answer, lets its lease run out).
    async fn give_back(&self, claim: &Claim) {
        self.drop_lease(claim);
        let _ = self.db.release(claim).await;
    }
}

/// Writes each competition game this worker plays to the database every [`LIVE_EVERY`] when it has
/// moved ([`Db::set_live`]), for the server's live pages, and clears it once the game has ended.
/// Runs until aborted; a database error is logged and tried again at the next round.
async fn push_live(shared: Arc<Shared>) {
    // What was written last, by claim (run, game, lease token).
    let mut written: HashMap<(String, String, String), crate::serve::runner::live::LiveGame> =
        HashMap::new();
    loop {
        tokio::time::sleep(LIVE_EVERY).await;
        let held = shared.held();
        written.retain(|(run, game, token), _| {
            held.iter()
                .any(|c| &c.run == run && &c.game == game && &c.token == token)
        });
        for claim in held {
            let Some(id) = claim
                .run
                .strip_prefix("competition-")
                .and_then(|id| id.parse::<i64>().ok())
            else {
                continue;
            };
            let key = (claim.run.clone(), claim.game.clone(), claim.token.clone());
            let Some(game) = shared.board.game(id, &claim.game) else {
                // Ended (its result is being stored): off the board at once, not when it is stored.
                if written.remove(&key).is_some() {
                    if let Err(e) = shared.db.set_live(&claim, None).await {
                        crate::errln!("arena worker {}: the live board: {e:#}", shared.opts.name);
                    }
                }
                continue;
            };
            if written.get(&key) == Some(&game) {
                continue;
            }
            let Ok(text) = serde_json::to_string(&game) else {
                continue;
            };
            match shared.db.set_live(&claim, Some(&text)).await {
                Ok(_) => {
                    written.insert(key, game);
                }
                Err(e) => {
                    crate::errln!("arena worker {}: the live board: {e:#}", shared.opts.name);
                    break;
                }
            }
        }
    }
}

/// Plays `claim` and returns it with its outcome as JSON (`None`: given back, it cannot be played
/// here; after [`MAX_ATTEMPTS`] its failure is returned as the outcome instead).
async fn play(shared: &Shared, claim: Claim) -> Option<(Claim, String)> {
    let name = &shared.opts.name;
    let prepared = async {
        let run = run_here(shared, &claim.run).await?;
        let job: Job = serde_json::from_str(&claim.job).context("the queued game")?;
        let game = job.game(&run.plan)?;
        anyhow::Ok((run, game))
    }
    .await;
    let failed = |why: String| -> Option<(Claim, String)> {
        let text = serde_json::to_string(&Failure { error: why }).ok()?;
        Some((claim.clone(), text))
    };
    let (run, game) = match prepared {
        Ok(x) => x,
        Err(e) if claim.attempt >= MAX_ATTEMPTS => {
            return failed(format!(
                "no worker could play it ({} tries; the last: {e:#})",
                claim.attempt
            ))
        }
        Err(e) => {
            crate::errln!(
                "arena worker {name}: {} {}: cannot play it here: {e:#}",
                claim.run,
                claim.game
            );
            shared.give_back(&claim).await;
            // Another worker (or this one, once what was missing is there) takes it.
            tokio::time::sleep(Duration::from_secs(5)).await;
            return None;
        }
    };
    // Its bot disqualified since the game was queued: not played.
    let record =
        match crate::serve::queue::disqualified_player(&shared.db, &claim.run, &run.plan, &game)
            .await
        {
            Ok(Some(bot)) => Some(crate::serve::queue::unplayed(
                &run.plan,
                &game,
                format!(
                    "{}{bot} was disqualified by the organiser",
                    crate::record::NOT_PLAYED
                ),
            )),
            Ok(None) => None,
            Err(e) => {
                crate::errln!(
                    "arena worker {name}: {} {}: {e:#}; the game goes back to the queue",
                    claim.run,
                    claim.game
                );
                shared.give_back(&claim).await;
                return None;
            }
        };
    let played = match record {
        Some(r) => Ok(r),
        None => play_game(&run.plan, &game, &run.env).await,
    };
    let record = match played {
        Ok(r) => r,
        Err(e) if claim.attempt >= MAX_ATTEMPTS => {
            return failed(format!("{e} ({} tries)", claim.attempt))
        }
        Err(e) => {
            crate::errln!("arena worker {name}: {e}; the game goes back to the queue");
            shared.give_back(&claim).await;
            tokio::time::sleep(Duration::from_secs(60)).await;
            return None;
        }
    };
    let outcome = Outcome::of(&record, run.env.logs.as_deref());
    if let Some(dir) = &run.env.logs {
        for (file, _) in &outcome.logs {
            let _ = std::fs::remove_file(dir.join(file));
        }
    }
    match serde_json::to_string(&outcome) {
        Ok(text) => Some((claim, text)),
        Err(_) => {
            shared.give_back(&claim).await;
            None
        }
    }
}

/// Stores the result `text` of `claim`. The database may be restarting: tried until the lease would
/// have run out anyway; then the lease is dropped (it runs out, and the game is played elsewhere).
async fn store(shared: &Shared, claim: &Claim, text: &str) {
    let name = &shared.opts.name;
    let deadline = tokio::time::Instant::now() + Duration::from_millis(shared.lease_ms as u64);
    loop {
        match shared.db.finish(name, claim, text).await {
            Ok(true) => break,
            Ok(false) => {
                crate::errln!(
                    "arena worker {name}: {} {}: the game went to another worker meanwhile; this \
                     result is not counted",
                    claim.run,
                    claim.game
                );
                break;
            }
            Err(e) if tokio::time::Instant::now() < deadline => {
                crate::errln!("arena worker {name}: storing a result: {e:#}; trying again");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => {
                crate::errln!("arena worker {name}: storing a result: {e:#}; given up");
                break;
            }
        }
    }
    shared.drop_lease(claim);
}

/// The plan and environment of `run` on this worker, made on its first game.
async fn run_here(shared: &Shared, run: &str) -> Result<Arc<RunHere>> {
    if let Some(r) = shared.runs.lock().expect("the runs' lock").get(run) {
        return Ok(Arc::clone(r));
    }
    let (plan, competition) = plan_of_run(shared, run).await?;
    shared
        .containment
        .check(&plan.confined(), plan.processes_configured)
        .map_err(anyhow::Error::msg)?;
    let folder = shared.opts.data.root.join("runs").join(run);
    let watch: Option<Arc<dyn Watch>> = competition.map(|id| {
        Arc::new(CompetitionWatch {
            id,
            board: Arc::clone(&shared.board),
        }) as Arc<dyn Watch>
    });
    let env = Arc::new(GameEnv {
        logs: Some(folder.join("logs")),
        containment: Arc::clone(&shared.containment),
        work_root: Some(folder.join("sandbox")),
        hide: Some(shared.opts.hide.clone()),
        watch,
        affinity: None,
    });
    std::fs::create_dir_all(folder.join("logs"))
        .with_context(|| format!("creating {}", folder.display()))?;
    let here = Arc::new(RunHere {
        plan: Arc::new(plan),
        env,
    });
    shared
        .runs
        .lock()
        .expect("the runs' lock")
        .insert(run.to_string(), Arc::clone(&here));
    Ok(here)
}

/// The plan of `run` (`competition-<id>` or `check-<version id>`) with this worker's store, and the
/// competition's id.
async fn plan_of_run(shared: &Shared, run: &str) -> Result<(Plan, Option<i64>)> {
    let (db, contest, store) = (&shared.db, &shared.contest, shared.opts.data.store());
    if let Some(id) = run.strip_prefix("competition-") {
        let id: i64 = id.parse().with_context(|| format!("run {run}"))?;
        for e in db.entries(id).await? {
            if let Some(v) = e.version_id {
                fetch(db, contest, &store, v).await?;
            }
        }
        let (_, plan) = runner::competitions::plan_of(db, contest, &store, id).await?;
        return Ok((plan, Some(id)));
    }
    if let Some(v) = run.strip_prefix("check-") {
        let v: i64 = v.parse().with_context(|| format!("run {run}"))?;
        fetch(db, contest, &store, v).await?;
        let (_, plan) = runner::checks::plan_of(db, contest, &store, v).await?;
        return Ok((plan, None));
    }
    anyhow::bail!("unknown run {run:?}")
}

/// Makes sure version `id`'s upload is in `store/<hash>/`: else its bytes are read from the database,
/// checked against the hash, and stored as an upload is.
///
/// # Errors
/// A version or upload the database lacks (an upload older than the queue: only the server's own
/// slots have it), bytes that do not hash to the version's hash, an archive the checks refuse.
pub async fn fetch(db: &Db, contest: &Contest, store: &Path, id: i64) -> Result<()> {
    let v = db
        .version(id)
        .await?
        .with_context(|| format!("version {id} is not in the database"))?;
    if store.join(&v.hash).is_dir() {
        return Ok(());
    }
    let bytes = db.blob(&v.hash).await?.with_context(|| {
        format!(
            "the upload {} is not in the database (uploaded before the game queue): only the \
             server's own slots can play it",
            v.hash
        )
    })?;
    anyhow::ensure!(
        crate::serve::auth::sha256_hex_bytes(&bytes) == v.hash,
        "the upload {} in the database does not hash to its name",
        v.hash
    );
    let manifest: crate::serve::upload::Manifest =
        toml::from_str(&v.manifest).context("the version's manifest")?;
    let file_name = manifest
        .command
        .trim_start_matches("./")
        .rsplit('/')
        .next()
        .unwrap_or("bot")
        .to_string();
    std::fs::create_dir_all(store).with_context(|| format!("creating {}", store.display()))?;
    let incoming = store.join(format!(".fetch-{}", v.hash));
    std::fs::write(&incoming, &bytes).with_context(|| format!("writing {}", incoming.display()))?;
    let limits = contest.config.upload.limits();
    let store = store.to_path_buf();
    let hash = v.hash.clone();
    let stored = tokio::task::spawn_blocking({
        let incoming = incoming.clone();
        move || crate::serve::upload::store(&incoming, &file_name, &store, &limits)
    })
    .await?;
    let _ = std::fs::remove_file(&incoming);
    let stored = stored.map_err(|e| anyhow::anyhow!("storing the upload {hash}: {e}"))?;
    anyhow::ensure!(
        stored.hash == hash,
        "the upload {hash} stored as {}",
        stored.hash
    );
    Ok(())
}
