//! `ttt-boardvalue`: R. Stephens's tic-tac-toe minimax `BoardValue` (seed `004_d3df834b16c54b63.txt`,
//! the game-trees chapter), for the 3×3 board.
//!
//! Values for the player to move: WIN = 4, UNKNOWN = 3 (the depth `SkillLevel` was reached), DRAW = 2,
//! LOSE = 1. For each empty square, in the order 1..9, the routine plays it, asks for the opponent's
//! value one ply deeper, takes it back, and keeps the square that leaves the opponent the lowest
//! value, stopping early once the opponent's value is LOSE or lower. Then it converts the opponent's
//! value to its own: WIN → LOSE, LOSE → WIN, DRAW and UNKNOWN unchanged.
//!
//! Where this differs from the listing, and why:
//! - The listing converts with `enemy_value` (the last square tried) where `good_value` (the best) is
//!   meant (`shared/ENGINES.md`); we convert `good_value`. Because of the early stop the two agree
//!   whenever the value is LOSE, so the slip never changes a result; no option keeps it.
//! - The listing tests the depth before the end of the game, so a position decided on the ply that
//!   reaches `SkillLevel` reads UNKNOWN. We test the end first, as the prose lists the three cases
//!   (a win, no move left, the depth reached): a finished game is known at any depth, and
//!   `SkillLevel` 9 is the whole game from the empty board.
//!
//! Squares are numbered 1..9 in reading order, from the top left (as the article's `Board(1..9)` on
//! its form): 1 = `a3`, 2 = `b3`, 3 = `c3`, 4 = `a2`, …, 9 = `c1`.
//!
//! Any other game or board size: the engine plays a seeded uniformly random legal move (the article
//! covers 3×3 only), and says so in its `info` line (depth 0).

use games::tictactoe::Move;
use games::{Game, TicTacToe};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub use crate::engine::TieBreak;
use crate::engine::{
    concrete, generic_move, Engine, EngineOption, Limits, OptionError, SearchInfo,
};
use crate::search::settings::rng_for;

/// The player to move wins.
pub const VALUE_WIN: u8 = 4;
/// The depth limit was reached before the game was decided.
pub const VALUE_UNKNOWN: u8 = 3;
/// The game is drawn.
pub const VALUE_DRAW: u8 = 2;
/// The player to move loses.
pub const VALUE_LOSE: u8 = 1;
/// Above every value: the starting "best so far" (`VALUE_HIGH` in the listing).
const VALUE_HIGH: u8 = 5;

/// The squares 1..9 of the article as moves, in that order.
pub const SQUARES: [Move; 9] = [
    Move::new(0, 2),
    Move::new(1, 2),
    Move::new(2, 2),
    Move::new(0, 1),
    Move::new(1, 1),
    Move::new(2, 1),
    Move::new(0, 0),
    Move::new(1, 0),
    Move::new(2, 0),
];

/// The `BoardValue` engine; see the module docs.
///
/// Options: `SkillLevel` (spin 1..=9, the maximum depth in plies, default 9 = perfect play), `tiebreak`
/// (combo `first` | `random`, default `first`), `seed` (spin, 0 = from the operating system; used by
/// `random` and by the fallback on other games).
#[derive(Debug)]
pub struct BoardValueEngine {
    skill_level: u32,
    /// `First`: the first square in order, as the listing (its "resignation" side effect); `Random`:
    /// a seeded one, and every root square is then searched (no early stop at the root).
    tiebreak: TieBreak,
    seed: u64,
    rng: ChaCha8Rng,
    nodes: u64,
}

/// The result of [`BoardValueEngine::board_value`]: the square chosen and the value for the player to
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valued {
    /// The best square, `None` in a finished game or at the depth limit.
    pub best: Option<Move>,
    /// One of the `VALUE_*` constants, for the player to move.
    pub value: u8,
}

impl BoardValueEngine {
    /// An engine with `SkillLevel` `skill_level` (plies, clamped to 1..=9), `tiebreak` and `seed`
    /// (0: from the operating system).
    pub fn new(skill_level: u32, tiebreak: TieBreak, seed: u64) -> Self {
        BoardValueEngine {
            skill_level: skill_level.clamp(1, 9),
            tiebreak,
            seed,
            rng: rng_for(seed),
            nodes: 0,
        }
    }

    /// Nodes (positions entered) of the last call of [`board_value`](Self::board_value) or move.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// `BoardValue` of `pos` (3×3, three in a row) for the player to move, the root at depth 0.
    pub fn board_value(&mut self, pos: &mut TicTacToe) -> Valued {
        self.nodes = 0;
        self.value_at(pos, 0)
    }

    fn value_at(&mut self, pos: &mut TicTacToe, depth: u32) -> Valued {
        self.nodes += 1;
        // Step 1. A finished game is known: the last mover won, or the board is full.
        if let Some(outcome) = pos.outcome() {
            let value = match outcome.winner() {
                Some(p) if p == pos.turn() => VALUE_WIN,
                Some(_) => VALUE_LOSE,
                None => VALUE_DRAW,
            };
            return Valued { best: None, value };
        }
        // Step 2. Too deep: the result is unknown.
        if depth >= self.skill_level {
            return Valued {
                best: None,
                value: VALUE_UNKNOWN,
            };
        }
        // Step 3. Try every empty square in order 1..9; keep the lowest value left to the opponent.
        let random_root = depth == 0 && self.tiebreak == TieBreak::Random;
        let mut good: Option<Move> = None;
        let mut good_value = VALUE_HIGH;
        let mut ties: Vec<Move> = Vec::new();
        for m in SQUARES {
            if pos.get(m.col, m.row).is_some() {
                continue;
            }
            pos.play_unchecked(m);
            let enemy_value = self.value_at(pos, depth + 1).value;
            pos.undo();
            if enemy_value < good_value {
                good = Some(m);
                good_value = enemy_value;
                ties.clear();
                ties.push(m);
                // We win: nothing is better (unless all winning squares are wanted for a random pick).
                if good_value <= VALUE_LOSE && !random_root {
                    break;
                }
            } else if enemy_value == good_value {
                ties.push(m);
            }
        }
        if random_root && !ties.is_empty() {
            good = Some(ties[self.rng.random_range(0..ties.len())]);
        }
        // Step 4. The opponent's value as ours (the listing's slip fixed: `good_value` throughout).
        let value = match good_value {
            VALUE_WIN => VALUE_LOSE,
            VALUE_LOSE => VALUE_WIN,
            v => v,
        };
        Valued { best: good, value }
    }
}

impl Default for BoardValueEngine {
    fn default() -> Self {
        Self::new(9, TieBreak::First, 0)
    }
}

impl Engine for BoardValueEngine {
    fn name(&self) -> String {
        "ttt-boardvalue".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption::spin("SkillLevel", 9, 1, 9),
            EngineOption::tiebreak(),
            EngineOption::seed(),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let option = EngineOption::find(self.options(), name)?;
        let v = option.parse(value)?;
        match name {
            "SkillLevel" => self.skill_level = v.unwrap_or(9) as u32,
            "tiebreak" => self.tiebreak = TieBreak::from_option(value),
            _ => {
                self.seed = v.unwrap_or(0) as u64;
                self.rng = rng_for(self.seed);
            }
        }
        Ok(())
    }

    fn choose<G: Game>(
        &mut self,
        pos: &G,
        _limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        let classic =
            concrete::<TicTacToe, G>(pos).filter(|t| (t.width(), t.height(), t.k()) == (3, 3, 3));
        let Some(ttt) = classic else {
            // Not the article's game: a random legal move.
            let moves = pos.legal_moves();
            info(&SearchInfo::default());
            return (!moves.is_empty()).then(|| moves[self.rng.random_range(0..moves.len())]);
        };
        let start = std::time::Instant::now();
        let mut board = ttt.clone();
        let valued = self.board_value(&mut board);
        let best = valued.best?;
        info(&SearchInfo {
            depth: self.skill_level,
            score: i64::from(valued.value),
            nodes: self.nodes,
            time_ms: start.elapsed().as_millis() as u64,
            pv: vec![best.to_string()],
        });
        // `G` is `TicTacToe` here, so the downcast back cannot fail.
        generic_move::<G, _>(best)
    }
}
