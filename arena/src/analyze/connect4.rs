//! Connect Four 7 × 6 values from the project's exact solver (`bots::c4_solver`, the solver of
//! `arena solve connect4`), used through its public API with a node cap per search.
//!
//! A move's value for its mover is settled by at most two null-window searches of the position it
//! leaves (`Solver::move_reaches`: does it score ≥ 1, a win; else ≥ 0, a draw), and the start
//! position's by a budgeted `Solver::solve`. The value before each later move is what the previous
//! move left, negated (`super::chain`), so nothing is searched twice; results (unsolved ones too)
//! are kept by position across games, since openings repeat. The solver's transposition table is
//! kept across searches; a search that runs out of nodes stores nothing wrong in it (it returns before
//! storing).

use std::collections::HashMap;

use anyhow::{bail, Context, Result};
use bots::c4_solver::board::{Board, Std7x6};
use bots::c4_solver::solver::{Budget, Solved, Solver, SOLVE_HASH_MB};
use games::{Connect4, Game};

use super::{chain, AnalyzeOptions, GameValues, Oracle, Value};
use crate::record::GameRecord;

/// The solver and what it has proved so far.
pub struct Connect4Oracle {
    solver: Solver<Std7x6>,
    options: AnalyzeOptions,
    /// (position key, column) → the move's value for its mover; `None`: not proved within the cap.
    moves: HashMap<(u64, u32), Option<Value>>,
    /// Position key → its value for the side to move.
    positions: HashMap<u64, Option<Value>>,
}

impl Connect4Oracle {
    /// The oracle for `variant`, which must be `7 6`.
    ///
    /// # Errors
    /// Any other size: the solver's bitboards are exact for 7 × 6 only here.
    pub fn new(variant: &str, options: AnalyzeOptions) -> Result<Connect4Oracle> {
        if variant.split_whitespace().collect::<Vec<_>>() != ["7", "6"] {
            bail!("Connect Four {variant} cannot be solved here: arena analyze solves 7 × 6 only");
        }
        Ok(Connect4Oracle {
            solver: Solver::new(Std7x6, SOLVE_HASH_MB),
            options,
            moves: HashMap::new(),
            positions: HashMap::new(),
        })
    }

    fn budget(&mut self) -> Budget {
        self.solver.reset_nodes();
        Budget {
            nodes: Some(self.options.nodes),
            deadline: None,
        }
    }

    /// The value of `b` (not full, not over) for its side to move.
    pub fn position_value(&mut self, b: &Board<Std7x6>) -> Option<Value> {
        if let Some(&v) = self.positions.get(&b.key()) {
            return v;
        }
        let budget = self.budget();
        let v = match self.solver.solve(b, budget) {
            Solved::Exact { score, .. } => Some(sign(score)),
            Solved::Partial { lower, .. } if lower > 0 => Some(Value::Win),
            Solved::Partial { upper, .. } if upper < 0 => Some(Value::Loss),
            Solved::Partial { lower, upper, .. } if lower >= 0 && upper <= 0 => Some(Value::Draw),
            Solved::Partial { .. } => None,
        };
        self.positions.insert(b.key(), v);
        v
    }

    /// The value that playing column `col` (0-based, playable) in `b` leaves its mover.
    pub fn move_value(&mut self, b: &Board<Std7x6>, col: u32) -> Option<Value> {
        if let Some(&v) = self.moves.get(&(b.key(), col)) {
            return v;
        }
        let budget = self.budget();
        let v = match self.solver.move_reaches(b, col, 1, budget) {
            Some(true) => Some(Value::Win),
            Some(false) => {
                let budget = self.budget();
                match self.solver.move_reaches(b, col, 0, budget) {
                    Some(true) => Some(Value::Draw),
                    Some(false) => Some(Value::Loss),
                    None => None,
                }
            }
            None => None,
        };
        self.moves.insert((b.key(), col), v);
        v
    }
}

fn sign(score: i32) -> Value {
    match score {
        s if s > 0 => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    }
}

impl Oracle for Connect4Oracle {
    fn game_values(&mut self, record: &GameRecord) -> Result<GameValues> {
        let mut pos = Connect4::new(7, 6);
        let first = Board::from_game(Std7x6, &pos).context("the start position")?;
        let start = self.position_value(&first);
        let mut after = Vec::with_capacity(record.moves.len());
        for (k, text) in record.moves.iter().enumerate() {
            let m: <Connect4 as Game>::Move = text
                .parse()
                .with_context(|| format!("ply {}: {text:?}", k + 1))?;
            // The position before the move, in the solver's form (the rules checked every move so far).
            let b = Board::from_game(Std7x6, &pos)
                .with_context(|| format!("ply {}: {text}: the game is over", k + 1))?;
            pos.play(m)
                .with_context(|| format!("ply {}: {text}", k + 1))?;
            after.push(self.move_value(&b, u32::from(m.col)));
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

    fn board(moves: &str) -> Board<Std7x6> {
        Board::from_moves(Std7x6, moves).unwrap()
    }

    #[test]
    fn immediate_threats_decide_values() {
        let mut o = Connect4Oracle::new("7 6", AnalyzeOptions::default()).unwrap();
        // "121212": each side has three in its column; the first player, to move, wins in column 1.
        let b = board("121212");
        assert_eq!(o.move_value(&b, 0), Some(Value::Win));
        assert_eq!(o.position_value(&b), Some(Value::Win));
        // Not blocking column 1 loses.
        let b = board("12121");
        assert_eq!(o.move_value(&b, 6), Some(Value::Loss));
        assert!(Connect4Oracle::new("8 7", AnalyzeOptions::default()).is_err());
    }

    #[test]
    fn the_node_cap_leaves_early_positions_past_the_book_unsolved() {
        let mut o = Connect4Oracle::new("7 6", AnalyzeOptions { nodes: 1000 }).unwrap();
        // The opening book answers without a search: the first player wins from the start.
        assert_eq!(o.position_value(&board("")), Some(Value::Win));
        assert_eq!(o.position_value(&board("444")), Some(Value::Loss));
        // Past the book (one ply deeper than its entries), 1000 nodes prove nothing this early.
        let depth = bots::c4_solver::book::Book::builtin().depth() as usize;
        let line = "4444443333332";
        assert!(
            depth + 1 < line.len(),
            "the book grew past this test's line"
        );
        assert_eq!(o.position_value(&board(&line[..depth + 1])), None);
        assert_eq!(o.move_value(&board(&line[..depth]), 2), None);
    }
}
