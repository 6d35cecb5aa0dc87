//! `random`: a seeded uniformly random player for every game.

use games::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};

/// Plays a uniformly random legal move (never `ground` in Dots, which is not listed as a legal move).
///
/// Option `seed` (spin, default 0): the generator's seed; 0 draws one from the operating system, so
/// two unseeded random bots differ. The arena sends each game's seed to engines that declare `seed`.
#[derive(Debug)]
pub struct RandomEngine {
    seed: u64,
    rng: ChaCha8Rng,
}

impl RandomEngine {
    /// A random engine with a fixed `seed` (0: from the operating system).
    pub fn new(seed: u64) -> Self {
        RandomEngine {
            seed,
            rng: Self::rng_for(seed),
        }
    }

    fn rng_for(seed: u64) -> ChaCha8Rng {
        if seed == 0 {
            ChaCha8Rng::from_os_rng()
        } else {
            ChaCha8Rng::seed_from_u64(seed)
        }
    }

    /// A uniformly random legal move of `pos`, or `None` if there is none.
    pub fn pick<G: Game>(&mut self, pos: &G) -> Option<G::Move> {
        let moves = pos.legal_moves();
        (!moves.is_empty()).then(|| moves[self.rng.random_range(0..moves.len())])
    }
}

impl Default for RandomEngine {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Engine for RandomEngine {
    fn name(&self) -> String {
        "random".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![EngineOption::seed()]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = EngineOption::find(self.options(), name)?;
        let v = spec.parse(value)?.unwrap_or(0);
        self.seed = v as u64;
        self.rng = Self::rng_for(self.seed);
        Ok(())
    }

    fn choose<G: Game>(
        &mut self,
        pos: &G,
        _limits: &Limits,
        _info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        self.pick(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Connect4;

    #[test]
    fn the_same_seed_picks_the_same_moves() {
        let pos = Connect4::default();
        let mut a = RandomEngine::new(7);
        let mut b = RandomEngine::new(7);
        let xs: Vec<_> = (0..20).map(|_| a.pick(&pos)).collect();
        let ys: Vec<_> = (0..20).map(|_| b.pick(&pos)).collect();
        assert_eq!(xs, ys);
        assert!(
            xs.iter().any(|m| *m != xs[0]),
            "20 picks of 7 columns should not all be equal"
        );
    }
}
