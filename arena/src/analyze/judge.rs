//! The solver's verdict on one position, for adjudication by the solver (`[adjudication]
//! solver_plies`, as tablebase adjudication in chess) and for the re-refereeing of the games it ended
//! ([`crate::results::verify`]).
//!
//! Each verdict is searched cold: a new solver (Connect Four: `bots::c4_solver` with a 4 MiB table
//! and the built-in 8-ply book; tic-tac-toe: [`super::tictactoe`]'s negamax) for each position, so
//! the verdict on a position depends on nothing but the position and the node cap. The referee's
//! proof is then repeated exactly when `games.csv` is read: the same search, the same nodes.
//!
//! ```
//! use arena::analyze::judge::{self, Verdict};
//! use arena::analyze::Value;
//! let spec = "tictactoe 3 3 3".parse().unwrap();
//! // X has two in the top row and the move: a win.
//! let moves = ["a1", "a2", "b1", "b2"].map(String::from);
//! let v = judge::judge(&spec, &moves, 1_000).unwrap().unwrap();
//! assert_eq!(v.value, Value::Win);
//! ```

use bots::c4_solver::board::{Board, Std7x6};
use bots::c4_solver::solver::{Budget, Solved, Solver};
use games::connect4::Connect4Variant;
use games::tictactoe::TicTacToeVariant;
use games::Player;
use games::{Connect4, Game, GameSpec, TicTacToe};

use super::tictactoe::TicTacToeOracle;
use super::{AnalyzeOptions, Value};
use crate::record::GameResult;

/// The most nodes a verdict may take (the cap of `solver_nodes`, and of the re-refereeing of a record
/// that claims one).
pub const MAX_NODES: u64 = 100_000_000;

/// The Connect Four solver's table for a verdict, MiB: pinned here (not the solver's own default), since
/// the nodes of a proof depend on it and a record's proof is repeated in the nodes it took.
pub const HASH_MB: usize = 4;

/// The largest tic-tac-toe board the solver judges, squares (3 × 4): its memo of at most 3^12 positions
/// stays under about 40 MB whatever the node cap.
pub const MAX_TICTACTOE_SQUARES: u32 = 12;

/// The default `solver_nodes`: at 10–20 million nodes a second, at most about 0.1 s of the arena's
/// CPU a ply until a position is proved.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// A position's value proved by the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The value for the side to move.
    pub value: Value,
    /// The nodes the proof took (Connect Four: the solver's nodes; tic-tac-toe: positions searched).
    pub nodes: u64,
}

impl Verdict {
    /// The result this verdict gives the game, `to_move` being the side to move.
    pub fn result(&self, to_move: Player) -> GameResult {
        match (self.value, to_move) {
            (Value::Draw, _) => GameResult::Draw,
            (Value::Win, Player::First) | (Value::Loss, Player::Second) => GameResult::FirstWins,
            (Value::Win, Player::Second) | (Value::Loss, Player::First) => GameResult::SecondWins,
        }
    }

    /// The record's detail for `result`: `solver: a win for the first player (proved in 1234 nodes)`.
    pub fn detail(&self, result: GameResult) -> String {
        let what = match result {
            GameResult::FirstWins => "a win for the first player",
            GameResult::SecondWins => "a win for the second player",
            GameResult::Draw => "a draw",
        };
        format!("solver: {what} (proved in {} nodes)", self.nodes)
    }
}

/// The nodes a record's detail ([`Verdict::detail`]) says its proof took; `None` when it says none.
pub fn nodes_in(detail: &str) -> Option<u64> {
    let (_, rest) = detail.rsplit_once("(proved in ")?;
    rest.strip_suffix(" nodes)")?.parse().ok()
}

/// Whether the solver can judge games of `spec`: Connect Four 7 × 6 and tic-tac-toe of at most
/// [`MAX_TICTACTOE_SQUARES`] squares.
///
/// # Errors
/// Dots, and Connect Four of any other size, with the reason.
pub fn supports(spec: &GameSpec) -> Result<(), String> {
    if let Some(TicTacToeVariant { width, height, .. }) = spec.variant_of() {
        if u32::from(width) * u32::from(height) > MAX_TICTACTOE_SQUARES {
            return Err(format!(
                "the solver plays tic-tac-toe of at most {MAX_TICTACTOE_SQUARES} squares, not \
                 {width} × {height}"
            ));
        }
        Ok(())
    } else if let Some(Connect4Variant { width, height }) = spec.variant_of() {
        if (width, height) == (7, 6) {
            Ok(())
        } else {
            Err(format!(
                "the solver plays Connect Four 7 6 only, not {width} {height}"
            ))
        }
    } else {
        Err(format!(
            "solving is not available for {}: there is no solver for it (solver adjudication and \
             arena analyze are for Connect Four 7 6 and tic-tac-toe)",
            spec.kind()
        ))
    }
}

/// The value of the position that `moves` (in the games crate's text form, from the start position)
/// reach in `spec`, searched cold within `nodes` nodes; `None` when the game is over there or the
/// position was not proved within the cap.
///
/// # Errors
/// A game [`supports`] refuses, and moves that are not legal in turn.
pub fn judge(spec: &GameSpec, moves: &[String], nodes: u64) -> Result<Option<Verdict>, String> {
    judge_in_order(spec, moves, nodes, false)
}

/// As [`judge`], but Connect Four's proof asks "won?" before "not lost?"
/// ([`Solver::solve_weak_won_first`]), the order of the solver before 54b44b8: a won position's proof
/// then takes one probe, where [`judge`]'s takes two (1226317544: 6.4 M nodes against 7.7 M, in
/// [`Solver::solve_weak_won_first`]'s comment). Tic-tac-toe's verdict is [`judge`]'s.
///
/// # Errors
/// As [`judge`].
pub fn judge_won_first(
    spec: &GameSpec,
    moves: &[String],
    nodes: u64,
) -> Result<Option<Verdict>, String> {
    judge_in_order(spec, moves, nodes, true)
}

/// [`judge`], Connect Four asking "won?" first when `won_first`.
fn judge_in_order(
    spec: &GameSpec,
    moves: &[String],
    nodes: u64,
    won_first: bool,
) -> Result<Option<Verdict>, String> {
    supports(spec)?;
    if let Some(Connect4Variant { width, height }) = spec.variant_of() {
        {
            let pos: Connect4 = replay(Connect4::new(width, height), moves)?;
            let Some(b) = Board::from_game(Std7x6, &pos) else {
                return Ok(None);
            };
            let mut solver = Solver::new(Std7x6, HASH_MB);
            let budget = Budget {
                nodes: Some(nodes),
                deadline: None,
            };
            // The weak search settles win, draw or loss, or runs out (its bounds then still hold two).
            let solved = if won_first {
                solver.solve_weak_won_first(&b, budget)
            } else {
                solver.solve_weak(&b, budget)
            };
            let value = match solved {
                Solved::Exact { score, .. } => Some(score.signum()),
                Solved::Partial { .. } => None,
            };
            Ok(value.map(|s| Verdict {
                value: match s {
                    1 => Value::Win,
                    0 => Value::Draw,
                    _ => Value::Loss,
                },
                nodes: solver.nodes(),
            }))
        }
    } else if let Some(TicTacToeVariant { width, height, k }) = spec.variant_of() {
        {
            let pos = replay(TicTacToe::new(width, height, k), moves)?;
            if pos.outcome().is_some() {
                return Ok(None);
            }
            let variant = format!("{width} {height} {k}");
            let mut oracle = TicTacToeOracle::new(&variant, AnalyzeOptions { nodes })
                .map_err(|e| format!("{e:#}"))?;
            Ok(oracle.value(&pos).map(|value| Verdict {
                value,
                nodes: oracle.nodes(),
            }))
        }
    } else {
        unreachable!("refused by supports")
    }
}

fn replay<G: Game>(mut pos: G, moves: &[String]) -> Result<G, String> {
    for (i, text) in moves.iter().enumerate() {
        let m: G::Move = text
            .parse()
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.play(m)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn connect_four_verdicts_are_the_solvers() {
        let spec: GameSpec = "connect4 7 6".parse().unwrap();
        // The first player has three in column a and the move.
        let v = judge(&spec, &moves("1 2 1 2 1 2"), 1_000).unwrap().unwrap();
        assert_eq!(v.value, Value::Win);
        // The book knows the start position: a win for the first player, at no search cost.
        assert_eq!(judge(&spec, &[], 1).unwrap().unwrap().value, Value::Win);
        // Over: no verdict.
        assert_eq!(judge(&spec, &moves("1 2 1 2 1 2 1"), 1_000), Ok(None));
        // Past the book, 12 nodes prove nothing; a full search does, and the same one twice.
        let mid = moves("4 4 4 4 4 3 3 3 3 5 5");
        assert_eq!(judge(&spec, &mid, 12), Ok(None));
        let full = judge(&spec, &mid, MAX_NODES).unwrap().unwrap();
        assert!(full.nodes > 12, "{full:?}");
        assert_eq!(judge(&spec, &mid, full.nodes), Ok(Some(full)));
        assert!(judge(&spec, &moves("1 9"), 1)
            .unwrap_err()
            .contains("move 2"));
    }

    #[test]
    fn a_verdict_is_a_result_and_a_detail_that_reads_back() {
        let v = Verdict {
            value: Value::Loss,
            nodes: 4321,
        };
        let r = v.result(Player::Second);
        assert_eq!(r, GameResult::FirstWins);
        assert_eq!(v.result(Player::First), GameResult::SecondWins);
        let detail = v.detail(r);
        assert_eq!(
            detail,
            "solver: a win for the first player (proved in 4321 nodes)"
        );
        assert_eq!(nodes_in(&detail), Some(4321));
        assert_eq!(nodes_in("solver: a draw"), None);
    }

    #[test]
    fn tic_tac_toe_and_the_games_without_a_solver() {
        let spec: GameSpec = "tictactoe 3 3 3".parse().unwrap();
        assert_eq!(
            judge(&spec, &[], 100_000).unwrap().unwrap().value,
            Value::Draw
        );
        let v = judge(&spec, &moves("b2 a2"), 100_000).unwrap().unwrap();
        assert_eq!(v.value, Value::Win, "an edge reply to the centre loses");
        assert_eq!(judge(&spec, &[], 3), Ok(None), "3 positions are not enough");
        let dots: GameSpec = "dots 20 20 cross".parse().unwrap();
        assert!(judge(&dots, &[], 1)
            .unwrap_err()
            .contains("not available for dots"));
        let wide: GameSpec = "connect4 8 7".parse().unwrap();
        assert!(supports(&wide).unwrap_err().contains("7 6 only"));
        let big: GameSpec = "tictactoe 4 4 3".parse().unwrap();
        assert!(supports(&big).unwrap_err().contains("at most 12 squares"));
        assert!(supports(&"tictactoe 4 3 3".parse().unwrap()).is_ok());
    }
}
