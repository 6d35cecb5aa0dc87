//! The live board: the games of the competitions in progress, move by move, as the referee plays
//! them ([`crate::game::referee::Watch`]); the competition's live page and `GET
//! /api/competitions/{id}/live` read it ([`games()`]). The server's own slots write into its [`Board`];
//! an `arena worker` elsewhere keeps a board of its own and writes each of its games to the database
//! every 2 s ([`crate::serve::db::Db::set_live`]), where the server reads them.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::game::referee::{Position, Watch};
use crate::record::GameRecord;
use crate::serve::db::Db;

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    /// The game's id in its competition (`g0007`).
    pub id: String,
    pub first: String,
    pub second: String,
    /// The moves so far, the opening's included, in the protocol's notation.
    pub moves: Vec<String>,
    /// The position after them, as the game prints it (rows of the board).
    pub board: String,
    /// Its picture, which the live page draws ([`games::Game::frame`]); `None` in a row a worker of
    /// an older arena wrote.
    #[serde(default)]
    pub frame: Option<games::Frame>,
    /// Each side's clock, ms left (first, second); `None` for a side without a game clock.
    #[serde(default)]
    pub clocks_ms: [Option<u64>; 2],
    /// The side to move next.
    #[serde(default)]
    pub to_move: Option<games::Player>,
}

/// Every game in progress, by competition and game id.
#[derive(Debug, Default)]
pub struct Board {
    games: Mutex<BTreeMap<(i64, String), LiveGame>>,
}

impl Board {
    /// The games of competition `id` in progress, by game id.
    pub fn of(&self, id: i64) -> Vec<LiveGame> {
        self.games
            .lock()
            .expect("the live board's lock")
            .range((id, String::new())..(id + 1, String::new()))
            .map(|(_, g)| g.clone())
            .collect()
    }
}

impl Board {
    /// Game `game` of competition `id`, if in progress.
    pub fn game(&self, id: i64, game: &str) -> Option<LiveGame> {
        self.games
            .lock()
            .expect("the live board's lock")
            .get(&(id, game.to_string()))
            .cloned()
    }

    /// Forgets the games of competition `id`: its run has stopped (a game abandoned when a run stops
    /// never reaches its end).
    pub fn clear(&self, id: i64) {
        self.games
            .lock()
            .expect("the live board's lock")
            .retain(|(c, _), _| *c != id);
    }
}

/// The games of competition `id` in progress, by game id: those of `board` (the server's own slots)
/// and those the workers wrote to `db` ([`Db::live_games`]; a row that does not read as a
/// [`LiveGame`] is left out).
///
/// # Errors
/// A database error.
pub async fn games(board: &Board, db: &Db, id: i64) -> anyhow::Result<Vec<LiveGame>> {
    let mut games: BTreeMap<String, LiveGame> = board
        .of(id)
        .into_iter()
        .map(|g| (g.id.clone(), g))
        .collect();
    for text in db.live_games(&format!("competition-{id}")).await? {
        if let Ok(g) = serde_json::from_str::<LiveGame>(&text) {
            games.entry(g.id.clone()).or_insert(g);
        }
    }
    Ok(games.into_values().collect())
}

/// The watch of competition `id`'s run, writing into `board`.
#[derive(Debug)]
pub struct CompetitionWatch {
    pub id: i64,
    pub board: Arc<Board>,
}

impl Watch for CompetitionWatch {
    fn moved(&self, record: &GameRecord, position: &Position) {
        let game = LiveGame {
            id: record.id.clone(),
            first: record.first.clone(),
            second: record.second.clone(),
            moves: record.moves.clone(),
            board: position.text.clone(),
            frame: Some(position.frame.clone()),
            clocks_ms: position.clocks_ms,
            to_move: position.to_move,
        };
        self.board
            .games
            .lock()
            .expect("the live board's lock")
            .insert((self.id, record.id.clone()), game);
    }

    fn ended(&self, id: &str) {
        self.board
            .games
            .lock()
            .expect("the live board's lock")
            .remove(&(self.id, id.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_shows_while_it_is_played_and_leaves_when_it_ends() {
        let board = Arc::new(Board::default());
        let w = CompetitionWatch {
            id: 3,
            board: Arc::clone(&board),
        };
        let other = CompetitionWatch {
            id: 4,
            board: Arc::clone(&board),
        };
        let mut r = GameRecord::example("a", "b", crate::record::GameResult::Draw);
        r.id = "g0002".into();
        r.moves = vec!["4".into()];
        let at = |text: &str| Position {
            text: text.into(),
            frame: games::Frame::default(),
            clocks_ms: [Some(1000), None],
            to_move: Some(games::Player::First),
        };
        w.moved(&r, &at("..."));
        r.moves.push("4".into());
        w.moved(&r, &at("..x"));
        other.moved(&r, &at("other"));
        let games = board.of(3);
        assert_eq!(games.len(), 1);
        assert_eq!((games[0].moves.len(), games[0].board.as_str()), (2, "..x"));
        w.ended("g0002");
        assert!(board.of(3).is_empty());
        assert_eq!(board.of(4).len(), 1);
    }
}
