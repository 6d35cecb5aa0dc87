//! Static evaluation `Σ Kᵢ·Zᵢ` per game (seed `002_d88c0e1c38cad7fe.txt`, "Euristinis pozicijų
//! vertinimas"), the move generation and ordering hooks the search uses, and the weights Kᵢ as engine
//! options.
//!
//! The search ([`crate::search`]) is generic over `G: Game` and an [`Evaluator<G>`]. The engines get
//! their evaluator from [`StandardEval`], which serves every game: [`Engine::choose`] is generic over
//! `G: Game` with no other bound, so the concrete game is found by an [`Any`] downcast
//! (`G: 'static`; after monomorphisation the `TypeId` comparison is a constant, so the dispatch costs
//! nothing at run time). A game it does not know (a test's toy game) evaluates to 0, so only terminal
//! positions count.
//!
//! Every term is computed from the side to move's point of view: own minus the opponent's.
//!
//! - [`connect4`]: open lines (windows of four holding only own discs) by the number of own discs,
//!   centre control, threats (empty cells that would complete four) with a bonus for the row parity.
//! - [`tictactoe`]: open lines of the m,n,k-game by how close they are to `k`.
//! - [`dots`]: the capture difference ([`Game::score`]) plus a tiny reach term; the search only looks
//!   at points next to a dot.
//!
//! [`Engine::choose`]: crate::engine::Engine::choose

pub mod connect4;
pub mod dots;
pub mod tictactoe;

use std::any::Any;

use games::{Connect4, Dots, Game, TicTacToe};

use crate::engine::{EngineOption, OptionError};
use crate::search::Score;

/// What the search needs to know about a game beyond its rules.
///
/// Scores are from the side to move's point of view, in centi-units of the weights (a weight of 100
/// is "one unit"); the search clamps them well inside the mate range ([`crate::search::EVAL_LIMIT`]).
pub trait Evaluator<G: Game> {
    /// The static value of `pos` (not over) for the player to move.
    fn evaluate(&self, pos: &G) -> Score;

    /// Appends the moves the search tries in `pos` to `out` (which is not cleared). Default: every
    /// legal move. A game may leave out moves it judges useless (Dots: points far from every dot), but
    /// must give at least one move while the game is on.
    fn moves(&self, pos: &G, out: &mut Vec<G::Move>) {
        pos.legal_moves_into(out);
    }

    /// How promising `m` looks before searching it: higher is tried first (ties keep the order of
    /// [`moves`](Evaluator::moves)). Default 0 for every move.
    fn order_key(&self, pos: &G, m: G::Move) -> i32 {
        let _ = (pos, m);
        0
    }
}

/// Declares the weights once: the struct field, its default and doc, and its option name (the field
/// name), so the option list and `set_option` can never disagree.
macro_rules! weights {
    ($( $(#[doc = $doc:literal])* $field:ident = $default:expr, )*) => {
        /// The weights Kᵢ of every game's evaluation, each an engine option of the same name (spin,
        /// [`WEIGHT_MIN`]..=[`WEIGHT_MAX`]). Seed `002_d88c0e1c38cad7fe.txt`: the weights are what
        /// tournaments tune.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Weights {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl Default for Weights {
            fn default() -> Self {
                Weights { $( $field: $default, )* }
            }
        }

        impl Weights {
            /// Every weight's option name and default, in declaration order.
            pub const DEFAULTS: &'static [(&'static str, i32)] = &[ $( (stringify!($field), $default), )* ];

            fn slot_mut(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($field) => Some(&mut self.$field), )*
                    _ => None,
                }
            }

            /// The weight named `name`, if there is one.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($field) => Some(self.$field), )*
                    _ => None,
                }
            }
        }
    };
}

weights! {
    /// Connect Four: an open window of four (no enemy disc) holding one own disc.
    c4_line1 = 1,
    /// Connect Four: an open window holding two own discs.
    c4_line2 = 5,
    /// Connect Four: an open window holding three own discs.
    c4_line3 = 20,
    /// Connect Four: each own disc in the centre column (both middle columns on an even width).
    c4_centre = 4,
    /// Connect Four: each threat, an empty cell that would complete an own four.
    c4_threat = 30,
    /// Connect Four: bonus per threat on a row of the right parity (odd rows, counted from 1 at the
    /// bottom, for the first player; even rows for the second), the rows zugzwang hands to that player.
    c4_parity = 20,
    /// Tic-tac-toe: an open line (a window of `k` squares without enemy stones) one stone short of `k`.
    ttt_short1 = 100,
    /// Tic-tac-toe: an open line two stones short of `k`.
    ttt_short2 = 10,
    /// Tic-tac-toe: per own stone in an open line three or more stones short of `k`.
    ttt_stone = 1,
    /// Dots: per captured enemy dot, own captures minus the enemy's (R11 of `shared/DOTS_RULES.md`).
    dots_captures = 100,
    /// Dots: per legal point next to an own live dot (8-neighbourhood), own minus the enemy's: room to
    /// grow, a tiny mobility term.
    dots_mobility = 1,
}

/// The smallest value a weight option accepts.
pub const WEIGHT_MIN: i64 = -100_000;
/// The largest value a weight option accepts.
pub const WEIGHT_MAX: i64 = 100_000;

impl Weights {
    /// The weights as engine options (spin, default as in [`Weights::default`]).
    pub fn options() -> Vec<EngineOption> {
        Self::DEFAULTS
            .iter()
            .map(|&(name, default)| {
                EngineOption::spin(name, i64::from(default), WEIGHT_MIN, WEIGHT_MAX)
            })
            .collect()
    }

    /// Sets the weight `name` from option text.
    ///
    /// # Errors
    /// `Ok(false)` if `name` is not a weight (the caller tries its other options);
    /// [`OptionError::BadValue`] if the value is not an integer in [`WEIGHT_MIN`]..=[`WEIGHT_MAX`].
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, OptionError> {
        let Some(option) = Self::options().into_iter().find(|o| o.name == name) else {
            return Ok(false);
        };
        let v = option.parse(value)?.unwrap_or(0);
        if let Some(slot) = self.slot_mut(name) {
            // In range by the option's bounds, which fit an i32.
            *slot = v as i32;
        }
        Ok(true)
    }
}

/// The evaluator of the reference engines for every game of the `games` crate.
///
/// Built per search from the root position (tables depend on the board size), then used for every node.
#[derive(Debug)]
pub struct StandardEval {
    weights: Weights,
    connect4: Option<connect4::Connect4Eval>,
    tictactoe: Option<tictactoe::TicTacToeEval>,
    dots: Option<dots::DotsEval>,
}

impl StandardEval {
    /// The evaluator for positions of `pos`'s game and size, with `weights`.
    pub fn new<G: Game>(pos: &G, weights: &Weights) -> StandardEval {
        let any = pos as &dyn Any;
        StandardEval {
            weights: weights.clone(),
            connect4: any
                .downcast_ref::<Connect4>()
                .map(connect4::Connect4Eval::new),
            tictactoe: any
                .downcast_ref::<TicTacToe>()
                .map(tictactoe::TicTacToeEval::new),
            dots: any.downcast_ref::<Dots>().map(dots::DotsEval::new),
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl<G: Game> Evaluator<G> for StandardEval {
    fn evaluate(&self, pos: &G) -> Score {
        let any = pos as &dyn Any;
        let w = &self.weights;
        if let (Some(p), Some(e)) = (any.downcast_ref::<Connect4>(), &self.connect4) {
            e.evaluate(p, w)
        } else if let (Some(p), Some(e)) = (any.downcast_ref::<TicTacToe>(), &self.tictactoe) {
            e.evaluate(p, w)
        } else if let (Some(p), Some(e)) = (any.downcast_ref::<Dots>(), &self.dots) {
            e.evaluate(p, w)
        } else {
            0
        }
    }

    fn moves(&self, pos: &G, out: &mut Vec<G::Move>) {
        let any_out = out as &mut dyn Any;
        if let (Some(p), Some(o), Some(e)) = (
            (pos as &dyn Any).downcast_ref::<Dots>(),
            any_out.downcast_mut::<Vec<games::dots::Move>>(),
            &self.dots,
        ) {
            e.moves(p, o);
        } else {
            pos.legal_moves_into(out);
        }
    }

    fn order_key(&self, pos: &G, m: G::Move) -> i32 {
        let any = pos as &dyn Any;
        let mv = &m as &dyn Any;
        if let (Some(p), Some(m), Some(e)) = (
            any.downcast_ref::<Connect4>(),
            mv.downcast_ref::<games::connect4::Move>(),
            &self.connect4,
        ) {
            e.order_key(p, *m)
        } else if let (Some(p), Some(m), Some(e)) = (
            any.downcast_ref::<TicTacToe>(),
            mv.downcast_ref::<games::tictactoe::Move>(),
            &self.tictactoe,
        ) {
            e.order_key(p, *m)
        } else if let (Some(p), Some(m), Some(e)) = (
            any.downcast_ref::<Dots>(),
            mv.downcast_ref::<games::dots::Move>(),
            &self.dots,
        ) {
            e.order_key(p, *m)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_weight_is_an_option_and_can_be_set() {
        let mut w = Weights::default();
        assert_eq!(Weights::options().len(), Weights::DEFAULTS.len());
        for &(name, default) in Weights::DEFAULTS {
            assert_eq!(w.get(name), Some(default));
            assert_eq!(w.set(name, "-7"), Ok(true));
            assert_eq!(w.get(name), Some(-7));
        }
        assert_eq!(w.set("depth", "3"), Ok(false));
        assert!(w.set("c4_line1", "x").is_err());
        assert!(w.set("c4_line1", "100001").is_err());
    }
}
