//! A finished game as its replay page and the API give it.

use std::sync::Arc;

use serde::Serialize;

use crate::record::GameRecord;
use crate::serve::web::{standings, HttpError};
use crate::serve::App;

/// A finished game as its replay page and `GET /api/competitions/{id}/games/{game}` give it.
#[derive(Debug, Serialize)]
pub struct GameReplay {
    pub id: String,
    pub first: String,
    pub second: String,
    /// `1-0`, `1/2-1/2`, `0-1`.
    pub result: String,
    pub termination: String,
    /// The ending's detail, without a crashed bot's stderr ([`super::public::public_detail`]).
    pub detail: String,
    /// `connect4 7 6`.
    pub game: String,
    /// The moves, the opening's first, in the game's notation.
    pub moves: Vec<String>,
    /// Opening plies.
    pub opening: usize,
    /// The ms of each move after the opening.
    pub move_ms: Vec<u64>,
    /// The board pictures, position by position ([`crate::frames::Replay`]).
    pub replay: crate::frames::Replay,
}

impl GameReplay {
    /// The replay of `r`.
    pub fn of(r: &GameRecord) -> GameReplay {
        GameReplay {
            id: r.id.clone(),
            first: r.first.clone(),
            second: r.second.clone(),
            result: r.result.to_string(),
            termination: r.termination.as_str().to_string(),
            detail: super::public::public_detail(&r.detail).to_string(),
            game: format!("{} {}", r.game, r.variant),
            moves: r.moves.clone(),
            opening: r.opening.len(),
            move_ms: r.move_ms.clone(),
            replay: crate::frames::replay(r),
        }
    }
}

/// Game `game` of competition `id`, finished and recorded.
///
/// # Errors
/// No such competition or game (404), a database error.
pub async fn finished(app: &Arc<App>, id: i64, game: &str) -> Result<GameReplay, HttpError> {
    crate::serve::web::competition_or_404(app, id).await?;
    let table = standings::of(app, id).await?;
    table
        .records
        .iter()
        .find(|r| r.id == game)
        .map(GameReplay::of)
        .ok_or_else(|| HttpError::not_found(format!("finished game {game:?} in competition {id}")))
}
