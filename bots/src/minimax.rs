//! `minimax`: plain depth-limited minimax for every game (seeds `001_a997fca1c543fbab.txt` and
//! `002_d88c0e1c38cad7fe.txt`), the baseline the alpha-beta engine is measured against.

use games::Game;
use rand_chacha::ChaCha8Rng;

use crate::engine::SearchInfo;
use crate::eval::Evaluation;
use crate::search::engine::{SearchEngine, SearchKind};
use crate::search::{self, Budget, SearchResult};

/// Plain minimax to a fixed depth with the evaluation of [`crate::eval`], a seeded random choice
/// among equal moves.
///
/// Options: `depth` (spin, plies, default [`Minimax::DEFAULT_DEPTH`], 3; a `go depth` lowers it),
/// `seed` (spin, 0 = from the operating system), and every game's evaluation weights ([`crate::eval::options`]).
/// The clock is only a safety net (see [`search::minimax`]): choose a depth the time control allows
/// (the tree grows as the number of moves to the power of the depth; on a big Dots board use 2).
pub type MinimaxEngine = SearchEngine<Minimax>;

/// The search of [`MinimaxEngine`]: [`search::minimax`].
#[derive(Debug)]
pub struct Minimax;

impl SearchKind for Minimax {
    const NAME: &'static str = "minimax";
    /// Quick in every game at its default size.
    const DEFAULT_DEPTH: u32 = 3;

    fn search<G: Game, E: Evaluation<G>>(
        pos: &G,
        eval: &E,
        budget: &Budget,
        rng: &mut ChaCha8Rng,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        search::minimax(pos, eval, budget, rng, info)
    }
}
