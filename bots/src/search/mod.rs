//! One search for every game, through the [`Game`] trait, in Stockfish's shape:
//! [`iterative_deepening`] → `search` (negamax alpha-beta) → a separate move ordering
//! ([`movepick`]); plus the plain depth-limited [`minimax`] it is measured against.
//!
//! Sources: seed `002_d88c0e1c38cad7fe.txt` (MiniMax as Max/Min, `Alfa-Beta-Max/Min`, iterative
//! deepening `Rask_ėjimą`, the evaluation `Σ Kᵢ·Zᵢ`, "the gain of alpha-beta depends on move order") and
//! seed `001_a997fca1c543fbab.txt` (depth-d minimax with a static evaluation at the leaves and a random
//! choice among equal moves; alpha-beta "sometimes allows twice the depth for the same work").
//!
//! Both searches are written in negamax form: a position's value is from the side to move's point of
//! view, and a child's value is negated, which is the article's Max/Min pair folded into one function;
//! where the same player moves again (Kalah's extra move, [`Game::turn`]) the child's value is kept
//! as it is and, in alpha-beta, searched with the same window.
//!
//! Scores ([`Score`], `i32`): static evaluations lie within ±[`EVAL_LIMIT`]; a finished game is
//! `±(MATE − plies from the root)` for a win or loss (so a faster win scores higher, a slower loss less
//! badly) and 0 for a draw.
//!
//! Limits ([`Budget`]): depth in plies, nodes (every position the search enters, the root included),
//! and time in ms, read from the clock only every [`CHECK_EVERY`] nodes so the clock costs nothing.
//!
//! ```
//! use bots::eval;
//! use bots::search::{self, Budget};
//! use games::{Connect4, Game};
//! use rand::SeedableRng;
//!
//! // Connect Four: the first player has 4, 5, 6 on the bottom row (the second 1, 2, 3): 7 wins.
//! let pos = Connect4::from_moves(7, 6, "415263").unwrap();
//! let eval = eval::standard(&pos, &Default::default());
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let budget = Budget::fixed_depth(4);
//! let result = search::iterative_deepening(&pos, &eval, &budget, &mut rng, &mut |_| {});
//! assert_eq!(result.best.map(|m| m.to_string()).as_deref(), Some("7"));
//! assert_eq!(result.score, search::MATE - 1);
//! ```

mod alphabeta;
pub mod engine;
mod minimax;
pub mod movepick;
pub mod settings;

pub use alphabeta::{alpha_beta_value, iterative_deepening};
pub use minimax::{minimax, minimax_value};

use std::time::Instant;

use games::{Game, Outcome, Player};

use crate::engine::{Limits, SearchInfo};

/// A position's value for the side to move; see the module docs for the scale.
pub type Score = i32;

/// The value of winning at the root itself; a win `n` plies ahead is `MATE - n`.
pub const MATE: Score = 1_000_000;

/// Scores at or beyond ±`MATE_BOUND` are forced wins or losses (within `MATE − MATE_BOUND` plies).
pub const MATE_BOUND: Score = MATE - 100_000;

/// Static evaluations are clamped to ±`EVAL_LIMIT`, so they never look like a forced result.
pub const EVAL_LIMIT: Score = MATE_BOUND - 1;

/// Above every score: the initial window (−INFINITE, INFINITE).
pub const INFINITE: Score = MATE + 1;

/// The clock is read once every this many nodes.
pub const CHECK_EVERY: u64 = 256;

/// The deepest search allowed, plies: beyond every board of the `games` crate but tic-tac-toe 26×26.
pub const MAX_DEPTH: u32 = 1024;

/// The time a move may take with no limit of any kind in `go`, ms.
pub const DEFAULT_MOVE_MS: u64 = 1000;

/// The value of a finished game for `mover` (the player to move in it), found `ply` plies below
/// the root.
pub fn terminal_score(outcome: Outcome, mover: Player, ply: u32) -> Score {
    match outcome.winner() {
        None => 0,
        Some(p) if p == mover => MATE - ply as Score,
        Some(_) => -(MATE - ply as Score),
    }
}

/// Whether `score` is a forced win or loss rather than an evaluation.
pub fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// What one search may spend: plies, nodes and ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Maximum depth, plies (at least 1).
    pub depth: u32,
    /// Maximum nodes, or `None`.
    pub nodes: Option<u64>,
    /// Time for the move, ms, or `None`.
    pub time_ms: Option<u64>,
}

impl Budget {
    /// A budget of `depth` plies with no node or time limit (for tests and benchmarks).
    pub fn fixed_depth(depth: u32) -> Budget {
        Budget {
            depth: depth.clamp(1, MAX_DEPTH),
            nodes: None,
            time_ms: None,
        }
    }

    /// The budget of one move under `limits` for an engine whose own depth limit is `max_depth` plies:
    /// the smaller of `max_depth` and `go depth`, `go nodes`, and the time of [`Budget::time_for_move`].
    /// With no limit at all in `go` (no clock, no movetime, depth or nodes) the move gets
    /// [`DEFAULT_MOVE_MS`], since the protocol loop cannot be told to `stop`.
    pub fn from_limits(limits: &Limits, max_depth: u32) -> Budget {
        let depth = limits
            .depth
            .map_or(max_depth, |d| d.min(max_depth))
            .clamp(1, MAX_DEPTH);
        let mut time_ms = Self::time_for_move(limits);
        if time_ms.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
            time_ms = Some(DEFAULT_MOVE_MS);
        }
        Budget {
            depth,
            nodes: limits.nodes,
            time_ms,
        }
    }

    /// The time for one move, ms: `movetime` less a reserve of a fifth, at most 100 ms (the arena
    /// flags a move that takes longer than `movetime`, and the clock is read only every
    /// [`CHECK_EVERY`] nodes); else `time/20 + inc/2` but never more than `time/2` (a game lasts more
    /// than 20 moves; the increment comes back after the move); `None` without a clock.
    pub fn time_for_move(limits: &Limits) -> Option<u64> {
        if let Some(t) = limits.movetime_ms {
            return Some(t - (t / 5).min(100));
        }
        let time = limits.time_ms?;
        let inc = limits.inc_ms.unwrap_or(0);
        Some((time / 20 + inc / 2).min(time / 2))
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play: from the last completed iteration, else the first move tried; `None` only
    /// when there is no move.
    pub best: Option<M>,
    /// Its value for the side to move (0 when no iteration completed).
    pub score: Score,
    /// The depth of the last completed iteration, plies (0: none completed).
    pub depth: u32,
    /// Nodes visited, all iterations together.
    pub nodes: u64,
    /// Time spent, ms.
    pub time_ms: u64,
    /// The principal variation, best move first.
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    /// Nothing found yet: no move, no completed depth, no nodes.
    pub fn none() -> Self {
        SearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            pv: Vec::new(),
        }
    }
}

impl<M: std::fmt::Display> SearchResult<M> {
    /// The protocol report of this result.
    pub fn info(&self) -> SearchInfo {
        SearchInfo {
            depth: self.depth,
            score: i64::from(self.score),
            nodes: self.nodes,
            time_ms: self.time_ms,
            pv: self.pv.iter().map(|m| m.to_string()).collect(),
        }
    }
}

/// Node counting and the stop rule, shared by both searches.
#[derive(Debug)]
struct Control {
    start: Instant,
    time_ms: Option<u64>,
    node_limit: Option<u64>,
    nodes: u64,
    stopped: bool,
}

impl Control {
    fn new(budget: &Budget) -> Control {
        Control {
            start: Instant::now(),
            time_ms: budget.time_ms,
            node_limit: budget.nodes,
            nodes: 0,
            stopped: false,
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Counts a node; true when the search must stop (the node limit is passed, or the time is up at
    /// one of the clock checks).
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.node_limit.is_some_and(|n| self.nodes > n) {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(ms) = self.time_ms {
                if self.elapsed_ms() >= ms {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }
}

/// The value `child_value` of the position `child` (for its own side to move) for `mover`, who moved
/// into it: negated when the opponent moves in `child` (negamax), kept when `mover` moves again
/// (Kalah's extra move).
#[inline]
fn side<G: Game>(mover: Player, child: &G, child_value: Score) -> Score {
    if child.turn() == mover {
        child_value
    } else {
        -child_value
    }
}

/// Clamps a static evaluation into ±[`EVAL_LIMIT`].
fn clamp_eval(s: Score) -> Score {
    s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The moves searched in `pos` (not over), in the evaluator's order; at least one while the game is on.
fn generate<G: Game, E: crate::eval::Evaluation<G>>(pos: &G, eval: &E, out: &mut Vec<G::Move>) {
    out.clear();
    eval.moves(pos, out);
}
