//! Tic-tac-toe values: full negamax over the `games` crate's rules, memoized by board.
//!
//! The 3 × 3 game has 5,478 reachable positions, all solved at the first query; larger boards are
//! searched until [`AnalyzeOptions::nodes`] new positions have been visited for one query, and a
//! position not proved by then stays unsolved (and is not memoized, so a later query may finish it).

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use games::{Game, GameSpec, Outcome, TicTacToe};

use super::{chain, AnalyzeOptions, GameValues, Oracle, Value};
use crate::record::GameRecord;

/// The memoized solver of one tic-tac-toe variant.
pub struct TicTacToeOracle {
    start: TicTacToe,
    options: AnalyzeOptions,
    /// Board (one byte per square: 0 empty, 1 first, 2 second) → value for the side to move.
    memo: HashMap<Vec<u8>, Value>,
    nodes: u64,
}

impl TicTacToeOracle {
    /// The solver for `variant` (`3 3 3`: width, height, k).
    ///
    /// # Errors
    /// A variant that is no tic-tac-toe variant.
    pub fn new(variant: &str, options: AnalyzeOptions) -> Result<TicTacToeOracle> {
        let spec: GameSpec = format!("tictactoe {variant}")
            .parse()
            .with_context(|| format!("tic-tac-toe variant {variant:?}"))?;
        let Some(games::tictactoe::TicTacToeVariant { width, height, k }) = spec.variant_of()
        else {
            bail!("{variant:?} is not a tic-tac-toe variant");
        };
        Ok(TicTacToeOracle {
            start: TicTacToe::new(width, height, k),
            options,
            memo: HashMap::new(),
            nodes: 0,
        })
    }

    fn key(pos: &TicTacToe) -> Vec<u8> {
        let mut key = Vec::with_capacity(usize::from(pos.width()) * usize::from(pos.height()));
        for row in 0..pos.height() {
            for col in 0..pos.width() {
                key.push(match pos.get(col, row) {
                    None => 0,
                    Some(games::Player::First) => 1,
                    Some(games::Player::Second) => 2,
                });
            }
        }
        key
    }

    /// The positions the last [`value`](Self::value) searched (not counting those it found memoized).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `pos` for its side to move; `None` when the node cap ran out.
    pub fn value(&mut self, pos: &TicTacToe) -> Option<Value> {
        self.nodes = 0;
        let mut pos = pos.clone();
        self.negamax(&mut pos)
    }

    fn negamax(&mut self, pos: &mut TicTacToe) -> Option<Value> {
        if let Some(o) = pos.outcome() {
            return Some(match o {
                Outcome::Draw => Value::Draw,
                Outcome::Win(p) if p == pos.turn() => Value::Win,
                Outcome::Win(_) => Value::Loss,
            });
        }
        let key = Self::key(pos);
        if let Some(&v) = self.memo.get(&key) {
            return Some(v);
        }
        self.nodes += 1;
        if self.nodes > self.options.nodes {
            return None;
        }
        let mut best = Value::Loss;
        for m in pos.legal_moves() {
            pos.play_unchecked(m);
            let child = self.negamax(pos);
            pos.undo();
            let v = -child?;
            best = best.max(v);
            if best == Value::Win {
                break;
            }
        }
        self.memo.insert(key, best);
        Some(best)
    }
}

impl Oracle for TicTacToeOracle {
    fn game_values(&mut self, record: &GameRecord) -> Result<GameValues> {
        let mut pos = self.start.clone();
        let start = self.value(&pos);
        let mut after = Vec::with_capacity(record.moves.len());
        for (k, text) in record.moves.iter().enumerate() {
            let m: <TicTacToe as Game>::Move = text
                .parse()
                .with_context(|| format!("ply {}: {text:?}", k + 1))?;
            pos.play(m)
                .with_context(|| format!("ply {}: {text}", k + 1))?;
            after.push(self.value(&pos).map(|v| -v));
        }
        Ok(GameValues {
            start,
            plies: chain(start, after),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_after(moves: &[&str]) -> Option<Value> {
        let mut o = TicTacToeOracle::new("3 3 3", AnalyzeOptions::default()).unwrap();
        let mut pos = TicTacToe::default();
        games::play_moves(&mut pos, moves.iter().copied()).unwrap();
        o.value(&pos)
    }

    #[test]
    fn known_values_of_the_3x3_game() {
        // Tic-tac-toe is a draw; after a centre opening, an edge reply loses and a corner reply draws.
        assert_eq!(value_after(&[]), Some(Value::Draw));
        assert_eq!(value_after(&["b2"]), Some(Value::Draw));
        assert_eq!(value_after(&["b2", "b1"]), Some(Value::Win));
        assert_eq!(value_after(&["b2", "a1"]), Some(Value::Draw));
        // A won game: the side to move has lost.
        assert_eq!(
            value_after(&["a1", "b1", "a2", "b2", "a3"]),
            Some(Value::Loss)
        );
    }

    #[test]
    fn the_node_cap_leaves_positions_unsolved() {
        let mut o = TicTacToeOracle::new("3 3 3", AnalyzeOptions { nodes: 10 }).unwrap();
        assert_eq!(o.value(&TicTacToe::default()), None);
        // Deep positions fit in the cap.
        let mut pos = TicTacToe::default();
        games::play_moves(&mut pos, ["b2", "b1", "a1", "c3", "a3"]).unwrap();
        assert_eq!(o.value(&pos), Some(Value::Loss));
    }
}
