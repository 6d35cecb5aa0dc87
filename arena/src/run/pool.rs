//! The game pool: keeps up to `concurrency` games of a plan running at once, each a task playing
//! [`crate::game::referee::play_game`] (or handed to a [`Player`]), and hands back each game as it ends.
//!
//! Every runner plays its games through one: a round robin or gauntlet ([`crate::tournament`]), each
//! round of a Swiss or a knockout ([`crate::tournament::pairing::run`]), each iteration of a tuning
//! ([`crate::tune`]). The runner records the games; the pool only schedules them, stops them all on a
//! stop signal, and stops them all when the arena cannot set a game up ([`SetupError`]). When the run
//! pins bots to CPUs ([`GameEnv::affinity`]), each game plays in a slot of its own (the lowest free one)
//! with that slot's share of the CPUs ([`crate::sandbox::affinity`]).
//!
//! ```no_run
//! # async fn demo(plan: std::sync::Arc<arena::plan::Plan>, env: std::sync::Arc<arena::game::referee::GameEnv>)
//! # -> anyhow::Result<()> {
//! use arena::run::pool::{GamePool, Next};
//! let games = arena::plan::schedule::schedule(&plan);
//! let mut pool = GamePool::new(plan, env, games);
//! let stop = async {
//!     let _ = tokio::signal::ctrl_c().await;
//! };
//! tokio::pin!(stop);
//! loop {
//!     match pool.next(&mut stop).await? {
//!         Next::Game(record) => println!("{} {}", record.id, record.result),
//!         Next::Done | Next::Interrupted => break,
//!     }
//! }
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use anyhow::{bail, Result};
use tokio::task::JoinSet;

use crate::game::referee::{GameEnv, SetupError};
use crate::plan::schedule::ScheduledGame;
use crate::plan::Plan;
use crate::record::GameRecord;
use crate::run::player::{Local, Player};

/// What [`GamePool::next`] got.
#[derive(Debug)]
pub enum Next {
    /// A game ended (a forfeit included); the runner records it. Boxed: a record is some 400 bytes,
    /// the other variants none.
    Game(Box<GameRecord>),
    /// Every game has ended and been handed back.
    Done,
    /// The stop signal came: the games still running were stopped (their bots killed) and are not
    /// recorded.
    Interrupted,
}

/// Plays a queue of games, at most `plan.concurrency` at once (or as many as its [`Player`] takes),
/// in the queue's order.
///
/// Dropping the pool aborts the games still running without waiting for them; [`GamePool::abandon`]
/// waits until their bots are gone.
pub struct GamePool {
    plan: Arc<Plan>,
    env: Arc<GameEnv>,
    queue: std::vec::IntoIter<ScheduledGame>,
    running: JoinSet<Result<GameRecord, SetupError>>,
    kept: &'static str,
    player: Arc<dyn Player>,
    /// With CPU affinity: each slot's env (its share of the CPUs), made at the first game.
    slot_envs: Vec<Arc<GameEnv>>,
    /// With CPU affinity: the slot of each running game.
    slot_of: HashMap<tokio::task::Id, usize>,
}

impl GamePool {
    /// A pool that will play `games` of `plan` in `env`. No game starts before the first
    /// [`GamePool::next`].
    pub fn new(plan: Arc<Plan>, env: Arc<GameEnv>, games: Vec<ScheduledGame>) -> GamePool {
        GamePool {
            plan,
            env,
            queue: games.into_iter(),
            running: JoinSet::new(),
            kept: "games",
            player: Arc::new(Local),
            slot_envs: Vec::new(),
            slot_of: HashMap::new(),
        }
    }

    /// Has `player` play the games instead of this process ([`Local`]).
    #[must_use]
    pub fn played_by(mut self, player: Arc<dyn Player>) -> GamePool {
        self.player = player;
        self
    }

    /// Names what the runner has kept when a [`SetupError`] stops the pool ("the {what} recorded so far
    /// are kept"); `games` unless set (a tuning keeps `iterations`).
    #[must_use]
    pub fn keeping(mut self, what: &'static str) -> GamePool {
        self.kept = what;
        self
    }

    /// Starts games until `plan.concurrency` (the player's slots) are running, then waits for the first of: a game's end,
    /// the last game's end ([`Next::Done`]), or `stop` ([`Next::Interrupted`], after every running game
    /// is aborted and awaited).
    ///
    /// `stop` is polled afresh on every call: pass `&mut` a pinned future that resolves once (Ctrl-C,
    /// SIGTERM or SIGHUP in `arena run`), or a new future per call such as [`stopped`] on a `watch`
    /// channel. Once it has made this return [`Next::Interrupted`], do not call again with
    /// the same completed future.
    ///
    /// # Errors
    /// A game the arena could not set up ([`SetupError`], "…; the games recorded so far are kept"): the
    /// running games are aborted and awaited first. A game task that panicked or was cancelled ("a game
    /// task failed: …").
    pub async fn next(&mut self, stop: impl Future<Output = ()>) -> Result<Next> {
        let slots = self.player.slots(&self.plan).max(1);
        while self.running.len() < slots {
            let Some(game) = self.queue.next() else { break };
            let (env, slot) = self.slot_env(slots);
            let plan = Arc::clone(&self.plan);
            let handle = self.running.spawn(self.player.play(plan, game, env));
            if let Some(slot) = slot {
                self.slot_of.insert(handle.id(), slot);
            }
        }
        let finished = tokio::select! {
            r = self.running.join_next_with_id() => r.map(|r| {
                let id = match &r {
                    Ok((id, _)) => *id,
                    Err(e) => e.id(),
                };
                self.slot_of.remove(&id);
                r.map(|(_, record)| record)
            }),
            () = stop => {
                self.abandon().await;
                return Ok(Next::Interrupted);
            }
        };
        match finished {
            None => Ok(Next::Done),
            Some(Ok(Ok(record))) => Ok(Next::Game(Box::new(record))),
            Some(Ok(Err(e))) => {
                // The arena cannot go on containing bots: stop, keeping every game recorded so far.
                self.abandon().await;
                Err(Stopped {
                    error: e,
                    kept: self.kept,
                }
                .into())
            }
            Some(Err(e)) => bail!("a game task failed: {e}"),
        }
    }

    /// The env of the next game, and its slot: the run's own without CPU affinity, else the lowest free
    /// slot's, whose bots run on that slot's share of the CPUs.
    fn slot_env(&mut self, slots: usize) -> (Arc<GameEnv>, Option<usize>) {
        let Some(cpus) = &self.env.affinity else {
            return (Arc::clone(&self.env), None);
        };
        if self.slot_envs.len() != slots {
            self.slot_envs = (0..slots)
                .map(|i| {
                    Arc::new(GameEnv {
                        affinity: Some(crate::sandbox::affinity::share(cpus, slots, i)),
                        ..(*self.env).clone()
                    })
                })
                .collect();
        }
        let busy: std::collections::BTreeSet<usize> = self.slot_of.values().copied().collect();
        let slot = (0..slots).find(|s| !busy.contains(s)).unwrap_or(0);
        (Arc::clone(&self.slot_envs[slot]), Some(slot))
    }

    /// Aborts every running game and waits until each task has ended (its bots killed), e.g. when an
    /// SPRT has decided and the games still running would not count. The games not yet started are
    /// dropped: [`GamePool::next`] then returns [`Next::Done`].
    pub async fn abandon(&mut self) {
        self.running.abort_all();
        while self.running.join_next().await.is_some() {}
        self.slot_of.clear();
        self.queue = Vec::new().into_iter();
    }
}

/// The error of a pool stopped by a game the arena could not set up: "game g0007: …; the games
/// recorded so far are kept". Found in an error's chain by [`Stopped::by_queue`].
#[derive(Debug, thiserror::Error)]
#[error("{error}; the {kept} recorded so far are kept")]
pub struct Stopped {
    /// The game that could not be set up, and why.
    pub error: SetupError,
    /// What the runner kept (`games`, `iterations`).
    pub kept: &'static str,
}

impl Stopped {
    /// Whether `e` (with any context around it) stopped a pool because the contest server's game queue
    /// was out of reach ([`SetupError::queue`]), so that the same run may be played again later.
    pub fn by_queue(e: &anyhow::Error) -> bool {
        e.chain()
            .any(|c| c.downcast_ref::<Stopped>().is_some_and(|s| s.error.queue))
    }
}

/// A stop future for [`GamePool::next`] from a `watch` channel: resolves once the value is `true`, or
/// at once if the sender is gone (a run whose signal task has ended is stopping).
pub async fn stopped(stop: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::player::Playing;
    use anyhow::Context;
    use std::collections::BTreeSet;
    use std::sync::Mutex;

    /// A player whose games take 1–20 ms and check that no two running games share a CPU.
    struct Pinned {
        running: Arc<Mutex<BTreeSet<usize>>>,
        seen: Arc<Mutex<Vec<Vec<usize>>>>,
    }

    impl Player for Pinned {
        fn slots(&self, plan: &Plan) -> usize {
            plan.concurrency
        }

        fn play(&self, _plan: Arc<Plan>, game: ScheduledGame, env: Arc<GameEnv>) -> Playing {
            let (running, seen) = (Arc::clone(&self.running), Arc::clone(&self.seen));
            Box::pin(async move {
                let cpus = env.affinity.clone().expect("pinned");
                for c in &cpus {
                    assert!(running.lock().unwrap().insert(*c), "CPU {c} is in use");
                }
                seen.lock().unwrap().push(cpus.clone());
                let n: u64 = game.id[1..].parse().unwrap();
                tokio::time::sleep(std::time::Duration::from_millis(1 + n * 7 % 20)).await;
                for c in &cpus {
                    running.lock().unwrap().remove(c);
                }
                let mut r = GameRecord::example("a", "b", crate::record::GameResult::FirstWins);
                r.id = game.id;
                Ok(r)
            })
        }
    }

    /// Each game plays in a free slot, on that slot's CPUs only, and a slot is free again once its
    /// game ended: 24 games of uneven lengths, 3 at once, on 6 CPUs.
    #[test]
    fn games_at_once_never_share_a_slot_and_slots_are_reused() {
        let text =
            "name = \"t\"\ngames_per_pair = 4\nconcurrency = 3\n[game]\nname = \"tictactoe\"\n\
                    [time_control]\ntime_ms = 1000\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
                    [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n[[bots]]\nname = \"c\"\n\
                    builtin = \"random\"\n[[bots]]\nname = \"d\"\nbuiltin = \"random\"\n";
        let path = std::path::Path::new("t.toml");
        let config = crate::config::Config::parse(text, path).unwrap();
        let plan = Arc::new(Plan::new(&config, path, std::path::Path::new("/bin/arena")).unwrap());
        let games = crate::plan::schedule::schedule(&plan);
        assert_eq!(games.len(), 24);
        let env = Arc::new(GameEnv {
            logs: None,
            containment: crate::sandbox::Containment::bare(),
            work_root: None,
            hide: None,
            watch: None,
            affinity: Some(vec![0, 1, 2, 3, 8, 9]),
        });
        let player = Pinned {
            running: Arc::default(),
            seen: Arc::default(),
        };
        let seen = Arc::clone(&player.seen);
        let mut pool = GamePool::new(plan, env, games).played_by(Arc::new(player));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let ended = rt.block_on(async {
            let mut ended = 0;
            loop {
                match pool.next(std::future::pending()).await.unwrap() {
                    Next::Game(_) => ended += 1,
                    Next::Done => break ended,
                    Next::Interrupted => unreachable!(),
                }
            }
        });
        assert_eq!(ended, 24);
        assert!(pool.slot_of.is_empty());
        let seen = seen.lock().unwrap();
        let shares: BTreeSet<&Vec<usize>> = seen.iter().collect();
        assert_eq!(
            shares.into_iter().cloned().collect::<Vec<_>>(),
            vec![vec![0, 1], vec![2, 3], vec![8, 9]],
            "each of the 3 slots, each with its 2 CPUs"
        );
    }

    fn stopped(queue: bool) -> anyhow::Error {
        let e: Result<()> = Err(Stopped {
            error: SetupError {
                game: "g0007".into(),
                message: "the game queue: connection refused".into(),
                queue,
            },
            kept: "games",
        }
        .into());
        e.context("check of version 3").unwrap_err()
    }

    #[test]
    fn a_pool_stopped_by_the_queue_is_told_by_type_through_context() {
        let by_queue = stopped(true);
        assert!(Stopped::by_queue(&by_queue));
        assert_eq!(
            format!("{by_queue:#}"),
            "check of version 3: game g0007: the game queue: connection refused; the games \
             recorded so far are kept"
        );
        // The same words from a containment failure are not the queue's.
        assert!(!Stopped::by_queue(&stopped(false)));
        assert!(!Stopped::by_queue(&anyhow::anyhow!("the game queue: gone")));
    }
}
