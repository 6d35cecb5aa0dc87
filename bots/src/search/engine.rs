//! A search of this module served as an [`Engine`]: the options of [`Settings`] (`depth`, `seed`, the
//! evaluation weights), the game's own evaluation ([`games::Game::Eval`]), the clock through [`Budget::from_limits`].
//! The bots `minimax` and `alphabeta` are this engine with their own search ([`crate::minimax`],
//! [`crate::alphabeta`]).

use std::marker::PhantomData;

use games::Game;
use rand_chacha::ChaCha8Rng;

use super::settings::Settings;
use super::{Budget, SearchResult, MAX_DEPTH};
use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};
use crate::eval::Evaluation;

/// Which search an engine runs: its name, its default depth, and the search itself.
pub trait SearchKind {
    /// The engine's name in `id name` and in `arena bot <name>`.
    const NAME: &'static str;
    /// The `depth` option's default, plies.
    const DEFAULT_DEPTH: u32;
    /// Searches `pos` within `budget`, drawing random choices from `rng`, reporting to `info`.
    fn search<G: Game, E: Evaluation<G>>(
        pos: &G,
        eval: &E,
        budget: &Budget,
        rng: &mut ChaCha8Rng,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move>;
}

/// The engine running search `K` (see the type aliases `MinimaxEngine` and `AlphaBetaEngine`).
#[derive(Debug)]
pub struct SearchEngine<K> {
    settings: Settings,
    kind: PhantomData<K>,
}

impl<K: SearchKind> SearchEngine<K> {
    /// An engine searching at most `depth` plies (clamped to 1..=[`MAX_DEPTH`]) with `seed` (0: from
    /// the operating system).
    pub fn new(depth: u32, seed: u64) -> Self {
        let mut settings = Settings::new(K::DEFAULT_DEPTH, seed);
        settings.depth = depth.clamp(1, MAX_DEPTH);
        SearchEngine {
            settings,
            kind: PhantomData,
        }
    }
}

impl<K: SearchKind> Default for SearchEngine<K> {
    fn default() -> Self {
        Self::new(K::DEFAULT_DEPTH, 0)
    }
}

impl<K: SearchKind> Engine for SearchEngine<K> {
    fn name(&self) -> String {
        K::NAME.into()
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
        let eval = G::Eval::new(pos, &self.settings.weights);
        let budget = Budget::from_limits(limits, self.settings.depth);
        K::search(pos, &eval, &budget, &mut self.settings.rng, info).best
    }
}
