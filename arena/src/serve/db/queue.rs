//! The game queue's tables (migration `0003_game_queue`): the runs being played, their queued games
//! under leases, the results, the uploads' bytes and the workers' heartbeats.
//!
//! A game's life: the server queues it (`queued`); a worker claims it (`leased`, `attempt` + 1, a
//! random token, a lease until now + the contest's `[workers] lease_s` by the database's clock),
//! renews the lease of each game it holds with each heartbeat, and stores its result (`done`) only if
//! the lease is still that claim's (its token): a game whose lease ran out went to another claim, and
//! the first one's late result is refused, never counted twice. The server
//! takes each result once into the run's `games.csv`; a result it took but had not yet written when it
//! was killed is taken again when the run resumes (it is read back by the game's id).
//!
//! Which game a worker gets (fair dispatch): a check's before a competition's (a new upload's first
//! game never waits behind a long final); among runs of the same rank, the run with the fewest games
//! in play first (competitions share the workers evenly); then in the order the games were queued.

use std::time::Duration;

use super::{now_ms, Backend, Db};
use sqlx::Row;
use tokio::sync::Notify;

/// The PostgreSQL channel a queued game is announced on.
const GAMES: &str = "arena_games";
/// The PostgreSQL channel a stored result is announced on.
const RESULTS: &str = "arena_results";

/// The in-process side of the queue's announcements: a worker and a result poller in the same process
/// as the queueing or the storing are woken at once.
#[derive(Debug, Default)]
pub struct Wakes {
    games: Notify,
    results: Notify,
}

/// Waits for a queued game or a stored result to be announced, or for a timeout, whichever comes first:
/// in this process (`Wakes`) and, on PostgreSQL, from any process (LISTEN/NOTIFY). Announcements
/// may be missed (a LISTEN connection that drops, a notification between two waits): callers still
/// look every `timeout`.
pub struct Wakeup {
    wakes: std::sync::Arc<Wakes>,
    results: bool,
    listener: Option<sqlx::postgres::PgListener>,
}

impl Wakeup {
    /// Waits for an announcement, at most `timeout`.
    pub async fn wait(&mut self, timeout: Duration) {
        let local = if self.results {
            self.wakes.results.notified()
        } else {
            self.wakes.games.notified()
        };
        match &mut self.listener {
            Some(l) => {
                tokio::select! {
                    () = local => {}
                    r = l.recv() => {
                        if r.is_err() {
                            // Reconnecting: no busy loop.
                            tokio::time::sleep(timeout).await;
                        }
                    }
                    () = tokio::time::sleep(timeout) => {}
                }
            }
            None => {
                tokio::select! {
                    () = local => {}
                    () = tokio::time::sleep(timeout) => {}
                }
            }
        }
    }
}

/// A game a worker claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// `check-<version id>` or `competition-<id>`.
    pub run: String,
    /// The schedule's game id (`g0001`).
    pub game: String,
    /// The scheduled game, JSON ([`crate::serve::queue::Job`]).
    pub job: String,
    /// Which lease this is: 1, then 2, … for each reissue.
    pub attempt: i64,
    /// The lease's random token: only this claim renews it and stores the game's result.
    pub token: String,
}

/// A worker as its heartbeats report it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Worker {
    pub name: String,
    pub slots: i64,
    pub started_ms: i64,
    pub heartbeat_ms: i64,
    /// Results taken.
    pub games: i64,
    /// Late results refused (their game had gone to another worker).
    pub refused: i64,
}

/// How many games of the queue are in each state, over the active runs.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct QueueCounts {
    pub queued: i64,
    pub leased: i64,
    pub done: i64,
}

impl Db {
    /// The database's clock, ms since the Unix epoch: leases are judged by one clock, not by each
    /// worker's.
    ///
    /// # Errors
    /// A database error.
    pub async fn now(&self) -> anyhow::Result<i64> {
        let (now,): (i64,) = sqlx::query_as(&format!("SELECT {}", self.clock()))
            .fetch_one(&self.pool)
            .await?;
        Ok(now)
    }

    /// The SQL of the database's clock, ms since the Unix epoch.
    fn clock(&self) -> &'static str {
        match self.backend {
            Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
            Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
        }
    }

    /// A waiter for queued games (`results`: for stored results).
    pub async fn wakeup(&self, results: bool) -> Wakeup {
        let listener = match &self.url {
            Some(url) => match sqlx::postgres::PgListener::connect(url).await {
                Ok(mut l) => {
                    let channel = if results { RESULTS } else { GAMES };
                    l.listen(channel).await.ok().map(|()| l)
                }
                Err(_) => None,
            },
            None => None,
        };
        Wakeup {
            wakes: std::sync::Arc::clone(&self.wakes),
            results,
            listener,
        }
    }

    /// Announces a queued game (`results`: a stored result) to waiting workers (pollers).
    async fn announce(&self, results: bool) {
        let (local, channel) = if results {
            (&self.wakes.results, RESULTS)
        } else {
            (&self.wakes.games, GAMES)
        };
        local.notify_waiters();
        if self.backend == Backend::Postgres {
            let _ = sqlx::query("SELECT pg_notify($1, '')")
                .bind(channel)
                .execute(&self.pool)
                .await;
        }
    }

    /// The bytes of the upload whose SHA-256 hex is `hash`, if the database has them.
    ///
    /// # Errors
    /// A database error.
    pub async fn blob(&self, hash: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let row: Option<(Vec<u8>,)> = sqlx::query_as("SELECT bytes FROM blobs WHERE hash = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(b,)| b))
    }

    /// Marks `run` as played now (workers claim its games), with its rank (`0`: checks, `1`:
    /// competitions).
    ///
    /// # Errors
    /// A database error.
    pub async fn open_run(&self, run: &str, priority: i64) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO runs (run, priority, active) VALUES ($1, $2, 1) \
             ON CONFLICT (run) DO UPDATE SET active = 1, priority = $2",
        )
        .bind(run)
        .bind(priority)
        .execute(&self.pool)
        .await?;
        self.announce(false).await;
        Ok(())
    }

    /// Marks `run` as no longer played: its queued games wait (a paused competition) or are never
    /// played (cancelled, over); the games in play finish and their results are kept.
    ///
    /// # Errors
    /// A database error.
    pub async fn close_run(&self, run: &str) -> anyhow::Result<()> {
        sqlx::query("UPDATE runs SET active = 0 WHERE run = $1")
            .bind(run)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets every queued game and result of `run` (a check played afresh).
    ///
    /// # Errors
    /// A database error.
    pub async fn clear_run(&self, run: &str) -> anyhow::Result<()> {
        let mut tx = self.write().await?;
        sqlx::query("DELETE FROM queue WHERE run = $1")
            .bind(run)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM runs WHERE run = $1")
            .bind(run)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Queues game `game` of `run` (JSON `job`), unless it is queued already; returns its result if
    /// it has one (played while the server was away, or taken but not written before a kill).
    ///
    /// # Errors
    /// A database error.
    pub async fn enqueue(
        &self,
        run: &str,
        game: &str,
        job: &str,
    ) -> anyhow::Result<Option<String>> {
        let queued = sqlx::query(
            "INSERT INTO queue (run, game, job, queued_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (run, game) DO NOTHING",
        )
        .bind(run)
        .bind(game)
        .bind(job)
        .bind(now_ms())
        .execute(&self.pool)
        .await?
        .rows_affected();
        if queued > 0 {
            self.announce(false).await;
        }
        let row: (String, Option<String>) =
            sqlx::query_as("SELECT status, result FROM queue WHERE run = $1 AND game = $2")
                .bind(run)
                .bind(game)
                .fetch_one(&self.pool)
                .await?;
        Ok(row.1.filter(|_| row.0 == "done"))
    }

    /// The results of `run` not taken yet, `(game, result)`, now marked taken.
    ///
    /// # Errors
    /// A database error.
    pub async fn take_results(&self, run: &str) -> anyhow::Result<Vec<(String, String)>> {
        // One statement: a result stored while this runs is either returned or left for the next
        // call, never marked taken unseen.
        Ok(sqlx::query_as(
            "UPDATE queue SET delivered = 1 WHERE run = $1 AND status = 'done' AND delivered = 0 \
             RETURNING game, result",
        )
        .bind(run)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The result of game `game` of `run`, if it has one.
    ///
    /// # Errors
    /// A database error.
    pub async fn result_of(&self, run: &str, game: &str) -> anyhow::Result<Option<String>> {
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT status, result FROM queue WHERE run = $1 AND game = $2")
                .bind(run)
                .bind(game)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.and_then(|(status, result)| result.filter(|_| status == "done")))
    }

    /// Claims the next game for `worker` (see the module's documentation for which), leased for
    /// `lease_ms`: a queued game, or a leased one whose lease has run out (reissued).
    ///
    /// # Errors
    /// A database error.
    pub async fn claim(&self, worker: &str, lease_ms: i64) -> anyhow::Result<Option<Claim>> {
        // First the runs in the order they are served (few: the open checks and competitions), then
        // the first claimable game of the first run that has one. The database's clock is read in
        // the same statement, once.
        let runs: Vec<(String, i64)> = sqlx::query_as(&format!(
            "WITH c AS (SELECT {} AS now) \
             SELECT r.run, c.now FROM runs r, c WHERE r.active = 1 AND EXISTS (SELECT 1 FROM queue q \
                WHERE q.run = r.run AND (q.status = 'queued' \
                OR (q.status = 'leased' AND q.lease_until_ms < c.now))) \
             ORDER BY r.priority, (SELECT COUNT(*) FROM queue l WHERE l.run = r.run \
                AND l.status = 'leased' AND l.lease_until_ms >= c.now), r.run",
            self.clock()
        ))
        .fetch_all(&self.pool)
        .await?;
        // PostgreSQL: rows another worker is claiming are skipped, not waited for. SQLite: the write
        // transaction already excludes every other claim.
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        for (run, now) in runs {
            let mut tx = self.write().await?;
            let row: Option<(String, String)> = sqlx::query_as(&format!(
                "SELECT game, job FROM queue WHERE run = $1 AND (status = 'queued' \
                    OR (status = 'leased' AND lease_until_ms < $2)) \
                 ORDER BY queued_ms, game LIMIT 1{lock}"
            ))
            .bind(&run)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((game, job)) = row else {
                tx.commit().await?;
                continue;
            };
            let token = crate::serve::auth::random_token()[..24].to_string();
            let (attempt,): (i64,) = sqlx::query_as(
                "UPDATE queue SET status = 'leased', attempt = attempt + 1, worker = $1, \
                 lease_until_ms = $2, token = $5, live = NULL \
                 WHERE run = $3 AND game = $4 RETURNING attempt",
            )
            .bind(worker)
            .bind(now + lease_ms)
            .bind(&run)
            .bind(&game)
            .bind(&token)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(Some(Claim {
                run,
                game,
                job,
                attempt,
                token,
            }));
        }
        Ok(None)
    }

    /// Stores the result of `claim` (JSON) if its lease is still this claim's (its token): `false`
    /// when the game went to another claim (or was already done), and nothing is stored. `worker`'s
    /// counts are kept.
    ///
    /// # Errors
    /// A database error.
    pub async fn finish(&self, worker: &str, claim: &Claim, result: &str) -> anyhow::Result<bool> {
        let mut tx = self.write().await?;
        let done = sqlx::query(
            "UPDATE queue SET status = 'done', result = $1, done_ms = $2, live = NULL \
             WHERE run = $3 AND game = $4 AND token = $5 AND status = 'leased'",
        )
        .bind(result)
        .bind(now_ms())
        .bind(&claim.run)
        .bind(&claim.game)
        .bind(&claim.token)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        let column = if done { "games" } else { "refused" };
        let announce = done;
        sqlx::query(&format!(
            "UPDATE workers SET {column} = {column} + 1 WHERE name = $1"
        ))
        .bind(worker)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        if announce {
            self.announce(true).await;
        }
        Ok(done)
    }

    /// Gives `claim` back to the queue (a worker that cannot play it: the game goes to another
    /// worker at once, under a new attempt).
    ///
    /// # Errors
    /// A database error.
    pub async fn release(&self, claim: &Claim) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE queue SET status = 'queued', worker = NULL, token = NULL, lease_until_ms = NULL, \
             live = NULL \
             WHERE run = $1 AND game = $2 AND token = $3 AND status = 'leased'",
        )
        .bind(&claim.run)
        .bind(&claim.game)
        .bind(&claim.token)
        .execute(&self.pool)
        .await?;
        self.announce(false).await;
        Ok(())
    }

    /// Gives back every game leased to `worker`: a worker starting under a name holds no game yet,
    /// so those are its killed predecessor's (whose heartbeat this one would otherwise renew).
    /// Returns how many.
    ///
    /// # Errors
    /// A database error.
    pub async fn release_all(&self, worker: &str) -> anyhow::Result<u64> {
        Ok(sqlx::query(
            "UPDATE queue SET status = 'queued', worker = NULL, token = NULL, lease_until_ms = NULL, \
             live = NULL \
             WHERE worker = $1 AND status = 'leased'",
        )
        .bind(worker)
        .execute(&self.pool)
        .await?
        .rows_affected())
    }

    /// Writes the game `claim` is playing as it stands (`live`: a
    /// [`crate::serve::runner::live::LiveGame`] as JSON; `None` clears it) for the live pages
    /// (migration `0004_live_games`). Returns false when the lease is no longer `claim`'s (nothing
    /// written).
    ///
    /// # Errors
    /// A database error.
    pub async fn set_live(&self, claim: &Claim, live: Option<&str>) -> anyhow::Result<bool> {
        Ok(sqlx::query(
            "UPDATE queue SET live = $1 \
             WHERE run = $2 AND game = $3 AND token = $4 AND status = 'leased'",
        )
        .bind(live)
        .bind(&claim.run)
        .bind(&claim.game)
        .bind(&claim.token)
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1)
    }

    /// The games of `run` in progress that workers wrote ([`Db::set_live`]), by game id: leased, under
    /// a lease that has not run out (a killed worker's game leaves the board when its lease does).
    ///
    /// # Errors
    /// A database error.
    pub async fn live_games(&self, run: &str) -> anyhow::Result<Vec<String>> {
        let rows: Vec<(String,)> = sqlx::query_as(&format!(
            "SELECT live FROM queue WHERE run = $1 AND status = 'leased' AND live IS NOT NULL \
             AND lease_until_ms >= {} ORDER BY game",
            self.clock()
        ))
        .bind(run)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(l,)| l).collect())
    }

    /// `worker`'s heartbeat: renews the lease of each of `held` (the claims it plays or is storing the
    /// result of) to now + `lease_ms` by the database's clock, and records the worker (with its
    /// `slots`) as alive. Returns how many leases it renewed. A lease it no longer holds (a game given
    /// up) is not renewed: it runs out and the game goes to another worker.
    ///
    /// # Errors
    /// A database error.
    pub async fn heartbeat(
        &self,
        worker: &str,
        slots: i64,
        lease_ms: i64,
        held: &[Claim],
    ) -> anyhow::Result<u64> {
        let now = self.now().await?;
        let mut tx = self.write().await?;
        let mut renewed = 0;
        for claim in held {
            renewed += sqlx::query(
                "UPDATE queue SET lease_until_ms = $1 \
                 WHERE run = $2 AND game = $3 AND token = $4 AND status = 'leased'",
            )
            .bind(now + lease_ms)
            .bind(&claim.run)
            .bind(&claim.game)
            .bind(&claim.token)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        sqlx::query(
            "INSERT INTO workers (name, slots, started_ms, heartbeat_ms) VALUES ($1, $2, $3, $3) \
             ON CONFLICT (name) DO UPDATE SET slots = $2, heartbeat_ms = $3",
        )
        .bind(worker)
        .bind(slots)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(renewed)
    }

    /// Every worker that has sent a heartbeat, the latest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn workers(&self) -> anyhow::Result<Vec<Worker>> {
        let rows = sqlx::query(
            "SELECT name, slots, started_ms, heartbeat_ms, games, refused FROM workers \
             ORDER BY heartbeat_ms DESC, name",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Worker {
                    name: r.try_get("name")?,
                    slots: r.try_get("slots")?,
                    started_ms: r.try_get("started_ms")?,
                    heartbeat_ms: r.try_get("heartbeat_ms")?,
                    games: r.try_get("games")?,
                    refused: r.try_get("refused")?,
                })
            })
            .collect()
    }

    /// The games of the active runs by state.
    ///
    /// # Errors
    /// A database error.
    pub async fn queue_counts(&self) -> anyhow::Result<QueueCounts> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT q.status, COUNT(*) FROM queue q JOIN runs r ON r.run = q.run \
             WHERE r.active = 1 GROUP BY q.status",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut c = QueueCounts::default();
        for (status, n) in rows {
            match status.as_str() {
                "queued" => c.queued = n,
                "leased" => c.leased = n,
                _ => c.done = n,
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn db() -> (tempfile::TempDir, Db) {
        let tmp = tempfile::tempdir().unwrap();
        let db = Db::open(&tmp.path().join("q.sqlite").to_string_lossy())
            .await
            .unwrap();
        (tmp, db)
    }

    #[tokio::test]
    async fn a_live_game_shows_only_while_its_lease_holds() {
        let (_tmp, db) = db().await;
        let run = "competition-1";
        db.open_run(run, 1).await.unwrap();
        for g in ["g0001", "g0002", "g0003"] {
            db.enqueue(run, g, "{}").await.unwrap();
        }
        db.heartbeat("a", 3, 0, &[]).await.unwrap();
        let live = || async { db.live_games(run).await.unwrap() };
        let one = db.claim("a", 60_000).await.unwrap().unwrap();
        assert!(db.set_live(&one, Some("first")).await.unwrap());
        assert_eq!(live().await, ["first"]);
        assert!(db.live_games("competition-2").await.unwrap().is_empty());
        // Cleared by its worker when the game ends.
        assert!(db.set_live(&one, None).await.unwrap());
        assert!(live().await.is_empty());
        // Given back: off the board, and the old lease writes nothing more.
        assert!(db.set_live(&one, Some("second")).await.unwrap());
        db.release(&one).await.unwrap();
        assert!(live().await.is_empty());
        assert!(!db.set_live(&one, Some("third")).await.unwrap());
        assert!(live().await.is_empty());
        // Stored: off the board.
        let two = db.claim("a", 60_000).await.unwrap().unwrap();
        assert!(live().await.is_empty(), "a new claim starts with none");
        assert!(db.set_live(&two, Some("fourth")).await.unwrap());
        assert!(db.finish("a", &two, "result").await.unwrap());
        assert!(live().await.is_empty());
        // A lease that ran out (a killed worker): off the board.
        let three = db.claim("a", 0).await.unwrap().unwrap();
        assert!(db.set_live(&three, Some("fifth")).await.unwrap());
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        assert!(live().await.is_empty());
    }

    #[tokio::test]
    async fn a_late_result_of_a_reissued_game_is_refused_and_the_new_one_taken_once() {
        let (_tmp, db) = db().await;
        db.open_run("competition-1", 1).await.unwrap();
        assert_eq!(
            db.enqueue("competition-1", "g0001", "{}").await.unwrap(),
            None
        );
        db.heartbeat("a", 1, 0, &[]).await.unwrap();
        db.heartbeat("b", 1, 0, &[]).await.unwrap();
        // Worker a's lease is 0 ms: it has run out by the time b asks.
        let first = db.claim("a", 0).await.unwrap().unwrap();
        assert_eq!(first.attempt, 1);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let second = db.claim("b", 60_000).await.unwrap().unwrap();
        assert_eq!((second.game.as_str(), second.attempt), ("g0001", 2));
        assert!(db.claim("a", 60_000).await.unwrap().is_none());
        assert!(!db.finish("a", &first, "late").await.unwrap());
        assert!(db.finish("b", &second, "result").await.unwrap());
        assert!(!db.finish("b", &second, "again").await.unwrap());
        assert_eq!(
            db.take_results("competition-1").await.unwrap(),
            [("g0001".to_string(), "result".to_string())]
        );
        assert!(db.take_results("competition-1").await.unwrap().is_empty());
        // Queued again after a kill between taking and writing it: the result comes back at once.
        assert_eq!(
            db.enqueue("competition-1", "g0001", "{}").await.unwrap(),
            Some("result".to_string())
        );
        let w = db.workers().await.unwrap();
        let a = w.iter().find(|w| w.name == "a").unwrap();
        let b = w.iter().find(|w| w.name == "b").unwrap();
        assert_eq!((a.games, a.refused, b.games, b.refused), (0, 1, 1, 1));
    }

    #[tokio::test]
    async fn checks_first_then_the_run_with_the_fewest_games_in_play_and_only_active_runs() {
        let (_tmp, db) = db().await;
        for (run, rank) in [("competition-1", 1), ("competition-2", 1)] {
            db.open_run(run, rank).await.unwrap();
            for g in ["g0001", "g0002", "g0003"] {
                db.enqueue(run, g, "{}").await.unwrap();
            }
        }
        let next = |w: &'static str| {
            let db = db.clone();
            async move {
                let c = db.claim(w, 60_000).await.unwrap().unwrap();
                format!("{} {}", c.run, c.game)
            }
        };
        assert_eq!(next("w").await, "competition-1 g0001");
        assert_eq!(next("w").await, "competition-2 g0001");
        // A check queued later goes first.
        db.open_run("check-7", 0).await.unwrap();
        db.enqueue("check-7", "g0001", "{}").await.unwrap();
        assert_eq!(next("w").await, "check-7 g0001");
        assert_eq!(next("w").await, "competition-1 g0002");
        // A paused competition's games wait.
        db.close_run("competition-2").await.unwrap();
        assert_eq!(next("w").await, "competition-1 g0003");
        assert!(db.claim("w", 60_000).await.unwrap().is_none());
        let c = db.queue_counts().await.unwrap();
        assert_eq!((c.queued, c.leased), (0, 4));
    }

    #[tokio::test]
    async fn a_heartbeat_keeps_a_lease_and_a_released_game_goes_to_the_next_worker() {
        let (_tmp, db) = db().await;
        db.open_run("competition-1", 1).await.unwrap();
        db.enqueue("competition-1", "g0001", "{}").await.unwrap();
        let a = db.claim("a", 1).await.unwrap().unwrap();
        assert_eq!(
            db.heartbeat("a", 2, 60_000, std::slice::from_ref(&a))
                .await
                .unwrap(),
            1
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        assert!(db.claim("b", 60_000).await.unwrap().is_none());
        db.release(&a).await.unwrap();
        let b = db.claim("b", 60_000).await.unwrap().unwrap();
        assert_eq!(b.attempt, 2);
        assert!(!db.finish("a", &a, "stale").await.unwrap());
    }
}
