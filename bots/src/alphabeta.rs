//! `alphabeta`: negamax alpha-beta with move ordering under iterative deepening, for every game
//! (seed `002_d88c0e1c38cad7fe.txt`: `Alfa-Beta`, `Rask_ėjimą`, `Σ Kᵢ·Zᵢ`).

use games::Game;

use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};
use crate::eval::StandardEval;
use crate::search::settings::Settings;
use crate::search::{self, Budget};

/// Alpha-beta under iterative deepening with the evaluation of [`crate::eval`]; the clock decides the
/// depth (see [`Budget::from_limits`]: `movetime`, else `time/20 + inc/2`, at most `time/2`).
///
/// Options: `depth` (spin, the maximum depth in plies, default [`search::MAX_DEPTH`], i.e. the clock
/// alone decides), `seed` (spin, 0 = from the operating system; orders moves the evaluation cannot
/// tell apart), and the weights of [`crate::eval::Weights`]. `go depth` and `go nodes` limit a move
/// further; with a depth or node limit and a generous clock the moves do not depend on the machine.
#[derive(Debug)]
pub struct AlphaBetaEngine {
    settings: Settings,
}

impl AlphaBetaEngine {
    /// An engine searching at most `depth` plies with `seed` (0: from the operating system).
    pub fn new(depth: u32, seed: u64) -> Self {
        let mut settings = Settings::new(search::MAX_DEPTH, seed);
        settings.depth = depth.clamp(1, search::MAX_DEPTH);
        AlphaBetaEngine { settings }
    }
}

impl Default for AlphaBetaEngine {
    fn default() -> Self {
        Self::new(search::MAX_DEPTH, 0)
    }
}

impl Engine for AlphaBetaEngine {
    fn name(&self) -> String {
        "alphabeta".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        self.settings.options()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.settings.set(name, value)
    }

    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        let eval = StandardEval::new(pos, &self.settings.weights);
        let budget = Budget::from_limits(limits, self.settings.depth);
        search::iterative_deepening(pos, &eval, &budget, &mut self.settings.rng, info).best
    }
}
