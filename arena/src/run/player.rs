//! Who plays a scheduled game: this process ([`Local`]: [`play_game`] under the run's containment), or
//! another one (the contest server's game queue, played by `arena worker` processes on any machine:
//! `serve::queue::Remote`, feature `server`). The [`GamePool`](super::pool::GamePool) asks a player for each game
//! and records nothing itself; the run layer records every game the same way, whoever played it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::game::referee::{play_game, GameEnv, SetupError};
use crate::plan::schedule::ScheduledGame;
use crate::plan::Plan;
use crate::record::GameRecord;

/// A game being played: its record, or the arena's own failure to set it up.
pub type Playing = Pin<Box<dyn Future<Output = Result<GameRecord, SetupError>> + Send>>;

/// Plays the games of a run.
pub trait Player: Send + Sync {
    /// How many games of `plan` to keep in play at once (the local pool: `plan.concurrency`; a queue:
    /// as many as its workers may take).
    fn slots(&self, plan: &Plan) -> usize;

    /// Plays `game` of `plan`; `env` is the run's ([`super::Run::env`]): where its logs go. Dropping
    /// the future stops the game (a local one's bots are killed; a queued one is left to the queue).
    fn play(&self, plan: Arc<Plan>, game: ScheduledGame, env: Arc<GameEnv>) -> Playing;
}

/// Plays each game in this process: [`play_game`], `plan.concurrency` at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Local;

impl Player for Local {
    fn slots(&self, plan: &Plan) -> usize {
        plan.concurrency
    }

    fn play(&self, plan: Arc<Plan>, game: ScheduledGame, env: Arc<GameEnv>) -> Playing {
        Box::pin(async move { play_game(&plan, &game, &env).await })
    }
}

impl std::fmt::Debug for dyn Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Player")
    }
}
