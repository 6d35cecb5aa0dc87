//! `arena replay`: a recorded game played again from `games.csv` by the rules, shown as boards.
//!
//! The moves of a [`GameRecord`] are replayed with checked play from the start position of its game and
//! variant (with its setup dots, for a Dots game started from an SGF position), so a replay also proves
//! the record is a legal game. The board after the chosen ply is drawn
//! with the game's own text board (coordinates on, the `{:#}` form of its `Display`).

use std::fmt::Write as _;

use games::{Game, GameSpec, GameVisitor};

use crate::record::GameRecord;

/// Why a record cannot be replayed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReplayError {
    /// The record's game and variant name no game of the `games` crate.
    #[error("game {id}: {spec:?} is not a known game and variant: {reason}")]
    Spec {
        id: String,
        spec: String,
        reason: String,
    },
    /// Move number `ply` (1-based) does not parse or is illegal in the replayed position.
    #[error("game {id}: ply {ply}, {mv:?}: {reason}")]
    Move {
        id: String,
        ply: usize,
        mv: String,
        reason: String,
    },
    /// The record's setup dots cannot be put on its board.
    #[error("game {id}: {reason}")]
    Setup { id: String, reason: String },
    /// `--ply` beyond the game's end.
    #[error("game {id} has {plies} plies; there is no ply {asked}")]
    Ply {
        id: String,
        plies: usize,
        asked: usize,
    },
}

/// The text of a replay: the moves numbered by ply, then the board after `upto` plies (all of them when
/// `None`); or, when `every` is set, the start position and the board after every ply up to `upto`.
///
/// # Errors
/// [`ReplayError`] when the record's game is unknown, a move is illegal, or `upto` is past the end.
pub fn replay(
    record: &GameRecord,
    upto: Option<usize>,
    every: bool,
) -> Result<String, ReplayError> {
    let text = format!("{} {}", record.game, record.variant);
    let spec: GameSpec = text
        .parse()
        .map_err(|e: games::SpecError| ReplayError::Spec {
            id: record.id.clone(),
            spec: text.clone(),
            reason: e.to_string(),
        })?;
    let plies = record.moves.len();
    let upto = match upto {
        Some(n) if n > plies => {
            return Err(ReplayError::Ply {
                id: record.id.clone(),
                plies,
                asked: n,
            })
        }
        Some(n) => n,
        None => plies,
    };
    spec.visit_with_setup(
        &record.setup,
        Replayer {
            record,
            upto,
            every,
        },
    )
    .map_err(|e| ReplayError::Setup {
        id: record.id.clone(),
        reason: e.to_string(),
    })?
}

/// The widest line of the numbered move list, in bytes.
const LINE_WIDTH: usize = 100;

struct Replayer<'a> {
    record: &'a GameRecord,
    upto: usize,
    every: bool,
}

impl GameVisitor for Replayer<'_> {
    type Output = Result<String, ReplayError>;

    fn visit<G: Game>(self, mut pos: G) -> Self::Output {
        let r = self.record;
        let mut out = String::new();
        let mut line = String::new();
        if self.every {
            let _ = writeln!(out, "start:\n{pos:#}");
        }
        for (i, text) in r.moves.iter().take(self.upto).enumerate() {
            let bad = |reason: String| ReplayError::Move {
                id: r.id.clone(),
                ply: i + 1,
                mv: text.clone(),
                reason,
            };
            let m: G::Move = text.parse().map_err(|_| bad("does not parse".into()))?;
            pos.play(m).map_err(|e| bad(e.to_string()))?;
            let book = if i < r.opening.len() {
                " (opening)"
            } else {
                ""
            };
            if self.every {
                let _ = writeln!(out, "ply {}: {text}{book}\n{pos:#}", i + 1);
                continue;
            }
            let numbered = format!("{}.{text}", i + 1);
            if !line.is_empty() && line.len() + 1 + numbered.len() > LINE_WIDTH {
                let _ = writeln!(out, "{line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&numbered);
        }
        if !self.every {
            if !line.is_empty() {
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(out, "after ply {}:\n{pos:#}", self.upto);
        }
        if let Some([x, y]) = pos.score() {
            let _ = writeln!(out, "{}: first {x}, second {y}", G::SCORE);
        }
        let _ = writeln!(out, "{}", G::LEGEND);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;

    fn ttt(moves: &[&str]) -> GameRecord {
        let mut r = GameRecord::example("a", "b", GameResult::FirstWins);
        r.game = "tictactoe".into();
        r.variant = "3 3 3".into();
        r.moves = moves.iter().map(|m| m.to_string()).collect();
        r
    }

    #[test]
    fn the_board_after_the_chosen_ply_is_drawn_with_coordinates() {
        let r = ttt(&["a1", "b2", "a2", "c3", "a3"]);
        let all = replay(&r, None, false).unwrap();
        assert!(
            all.starts_with("1.a1 2.b2 3.a2 4.c3 5.a3\nafter ply 5:\n"),
            "{all}"
        );
        assert!(all.contains(" 3 X.O\n 2 XO.\n 1 X..\n   abc\n"), "{all}");
        let two = replay(&r, Some(2), false).unwrap();
        assert!(two.contains(" 3 ...\n 2 .O.\n 1 X..\n"), "{two}");
        // A long game's move list wraps.
        let mut big = ttt(&[]);
        big.variant = "9 9 9".into();
        // Row by row: no nine in a row within 40 plies.
        big.moves = (0..40u8)
            .map(|i| format!("{}{}", (b'a' + i % 9) as char, i / 9 + 1))
            .collect();
        let text = replay(&big, None, false).unwrap();
        let list: Vec<&str> = text
            .lines()
            .take_while(|l| !l.starts_with("after"))
            .collect();
        assert!(
            list.len() > 1 && list.iter().all(|l| l.len() <= LINE_WIDTH),
            "{text}"
        );
        assert_eq!(list.join(" ").split(' ').count(), 40, "{text}");
        let every = replay(&r, Some(2), true).unwrap();
        assert_eq!(every.matches("ply ").count(), 2, "{every}");
        // The start position comes first, even when no ply is asked for.
        assert!(
            every.starts_with("start:\n 3 ...\n 2 ...\n 1 ...\n"),
            "{every}"
        );
        let start = replay(&r, Some(0), true).unwrap();
        assert!(
            start.starts_with("start:\n") && !start.contains("ply "),
            "{start}"
        );
    }

    #[test]
    fn a_bad_record_says_which_ply_and_why() {
        let e = replay(&ttt(&["a1", "a1"]), None, false).unwrap_err();
        assert!(
            matches!(&e, ReplayError::Move { ply: 2, mv, .. } if mv == "a1"),
            "{e}"
        );
        let e = replay(&ttt(&["a1", "zz"]), None, false).unwrap_err();
        assert!(
            e.to_string().contains("ply 2, \"zz\": does not parse"),
            "{e}"
        );
        let e = replay(&ttt(&["a1"]), Some(3), false).unwrap_err();
        assert_eq!(e.to_string(), "game g has 1 plies; there is no ply 3");
        let mut r = ttt(&[]);
        r.setup = "first 1-1".parse().unwrap();
        assert_eq!(
            replay(&r, None, false).unwrap_err().to_string(),
            "game g: tictactoe has no setup dots (only dots has)"
        );
        r.game = "chess".into();
        assert!(matches!(
            replay(&r, None, false),
            Err(ReplayError::Spec { .. })
        ));
    }
}
