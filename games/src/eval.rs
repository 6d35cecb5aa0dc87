//! The static evaluation each game gives the built-in search engines (`bots::search`): `Σ Kᵢ·Zᵢ` over
//! knowledge terms Zᵢ with weights Kᵢ (seed `002_d88c0e1c38cad7fe.txt`, "Euristinis pozicijų
//! vertinimas"; for Kalah, seed `001_a997fca1c543fbab.txt`: the difference of the two stores).
//!
//! A game declares its evaluation as [`crate::Game::Eval`], in its own folder, with its weights
//! ([`Evaluation::WEIGHTS`]); the engines' options are the weights of every registered game
//! ([`crate::weights`]), so a tournament tunes them by name (`c4_line3`, `kalah_store`).
//! A game with no evaluation of its own must say so with [`NoEvaluation`].

use std::collections::BTreeMap;
use std::fmt;

use crate::Game;

/// A position's value for the side to move, in centi-units of the weights (a weight of 100 is "one
/// unit"); the search clamps it well inside its range of forced results.
pub type Score = i32;

/// One weight Kᵢ: its option name, default and meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    /// The engine option's name: the game's prefix and the term (`c4_line1`, `kalah_store`).
    pub name: &'static str,
    /// Its value when no option sets it.
    pub default: i32,
    /// What it weighs, for the option's docs.
    pub doc: &'static str,
}

/// The smallest value a weight takes.
pub const WEIGHT_MIN: i32 = -100_000;
/// The largest value a weight takes.
pub const WEIGHT_MAX: i32 = 100_000;

/// The weights set away from their defaults, by name (an engine's options).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    set: BTreeMap<&'static str, i32>,
}

impl Weights {
    /// The value of `w`: as set, else its default.
    pub fn get(&self, w: &Weight) -> i32 {
        self.set.get(w.name).copied().unwrap_or(w.default)
    }

    /// The value of the weight named `name` among `known`, as [`Weights::get`]; `None` for no such
    /// weight.
    pub fn value(&self, known: &[&'static Weight], name: &str) -> Option<i32> {
        known.iter().find(|w| w.name == name).map(|w| self.get(w))
    }

    /// Sets `w` to `value`, clamped to [`WEIGHT_MIN`]..=[`WEIGHT_MAX`].
    pub fn set(&mut self, w: &'static Weight, value: i32) {
        self.set.insert(w.name, value.clamp(WEIGHT_MIN, WEIGHT_MAX));
    }
}

/// What the search knows about a game beyond its rules: a static value, the moves worth trying, and
/// their order.
///
/// Scores are from the side to move's point of view. Built once per search from the root position
/// ([`Evaluation::new`]: tables may depend on the board's size), then asked at every node.
pub trait Evaluation<G: Game>: fmt::Debug + Send + Sized {
    /// The weights of the terms, each an engine option of the built-in engines.
    const WEIGHTS: &'static [Weight];

    /// The evaluation for positions of `pos`'s variant with `weights`.
    fn new(pos: &G, weights: &Weights) -> Self;

    /// The static value of `pos` (not over) for the player to move.
    fn evaluate(&self, pos: &G) -> Score;

    /// Appends the moves the search tries in `pos` to `out` (which is not cleared). Default: every
    /// legal move. A game may leave out moves it judges useless (Dots: points far from every dot), but
    /// must give at least one move while the game is on.
    fn moves(&self, pos: &G, out: &mut Vec<G::Move>) {
        pos.legal_moves_into(out);
    }

    /// How promising `m` looks before searching it: higher is tried first (ties keep the order of
    /// [`moves`](Evaluation::moves)). Default 0 for every move.
    fn order_key(&self, pos: &G, m: G::Move) -> i32 {
        let _ = (pos, m);
        0
    }
}

/// The evaluation of a game that has none: every position is worth 0, so only finished games count
/// (a search must reach the end to tell moves apart). A game says so explicitly; nothing falls back to
/// it silently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoEvaluation;

impl<G: Game> Evaluation<G> for NoEvaluation {
    const WEIGHTS: &'static [Weight] = &[];

    fn new(_: &G, _: &Weights) -> Self {
        NoEvaluation
    }

    fn evaluate(&self, _: &G) -> Score {
        0
    }
}
