//! `minimax`: plain depth-limited minimax for every game (seeds `001_a997fca1c543fbab.txt` and
//! `002_d88c0e1c38cad7fe.txt`), the baseline the alpha-beta engine is measured against.

use games::Game;

use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};
use crate::eval::StandardEval;
use crate::search::settings::Settings;
use crate::search::{self, Budget};

/// Plain minimax to a fixed depth with the evaluation of [`crate::eval`], a seeded random choice
/// among equal moves.
///
/// Options: `depth` (spin, plies, default [`MinimaxEngine::DEFAULT_DEPTH`]; a `go depth` lowers it),
/// `seed` (spin, 0 = from the operating system), and the weights of [`crate::eval::Weights`].
/// The clock is only a safety net (see [`search::minimax`]): choose a depth the time control allows
/// (the tree grows as the number of moves to the power of the depth; on a big Dots board use 2).
#[derive(Debug)]
pub struct MinimaxEngine {
    settings: Settings,
}

impl MinimaxEngine {
    /// The default depth, plies: quick in every game at its default size.
    pub const DEFAULT_DEPTH: u32 = 3;

    /// An engine searching `depth` plies with `seed` (0: from the operating system).
    pub fn new(depth: u32, seed: u64) -> Self {
        let mut settings = Settings::new(Self::DEFAULT_DEPTH, seed);
        settings.depth = depth.clamp(1, search::MAX_DEPTH);
        MinimaxEngine { settings }
    }
}

impl Default for MinimaxEngine {
    fn default() -> Self {
        Self::new(Self::DEFAULT_DEPTH, 0)
    }
}

impl Engine for MinimaxEngine {
    fn name(&self) -> String {
        "minimax".into()
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
        search::minimax(pos, &eval, &budget, &mut self.settings.rng, info).best
    }
}
