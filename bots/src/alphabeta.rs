//! `alphabeta`: negamax alpha-beta with move ordering under iterative deepening, for every game
//! (seed `002_d88c0e1c38cad7fe.txt`: `Alfa-Beta`, `Rask_ėjimą`, `Σ Kᵢ·Zᵢ`).

use games::Game;
use rand_chacha::ChaCha8Rng;

use crate::engine::SearchInfo;
use crate::eval::Evaluation;
use crate::search::engine::{SearchEngine, SearchKind};
use crate::search::{self, Budget, SearchResult};

/// Alpha-beta under iterative deepening with the evaluation of [`crate::eval`]; the clock decides the
/// depth (see [`Budget::from_limits`]: `movetime`, else `time/20 + inc/2`, at most `time/2`).
///
/// Options: `depth` (spin, the maximum depth in plies, default [`search::MAX_DEPTH`], i.e. the clock
/// alone decides), `seed` (spin, 0 = from the operating system; orders moves the evaluation cannot
/// tell apart), and every game's evaluation weights ([`crate::eval::options`]). `go depth` and `go nodes` limit a move
/// further; with a depth or node limit and a generous clock the moves do not depend on the machine.
pub type AlphaBetaEngine = SearchEngine<AlphaBeta>;

/// The search of [`AlphaBetaEngine`]: [`search::iterative_deepening`].
#[derive(Debug)]
pub struct AlphaBeta;

impl SearchKind for AlphaBeta {
    const NAME: &'static str = "alphabeta";
    /// The clock alone decides.
    const DEFAULT_DEPTH: u32 = search::MAX_DEPTH;

    fn search<G: Game, E: Evaluation<G>>(
        pos: &G,
        eval: &E,
        budget: &Budget,
        rng: &mut ChaCha8Rng,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        search::iterative_deepening(pos, eval, budget, rng, info)
    }
}
