//! The options the search engines share: `depth`, `seed` and the evaluation weights.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::MAX_DEPTH;
use crate::engine::{EngineOption, OptionError};
use crate::eval::{self, Weights};

/// Depth limit, seed and weights of a search engine, with the generator the seed makes.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Depth limit, plies (1..=[`MAX_DEPTH`]).
    pub depth: u32,
    /// The `depth` option's default, plies.
    default_depth: u32,
    /// The seed; 0 draws one from the operating system.
    pub seed: u64,
    /// The evaluation weights.
    pub weights: Weights,
    /// Every random choice of the engine comes from here.
    pub rng: ChaCha8Rng,
}

impl Settings {
    /// Settings with depth `default_depth` plies, `seed` (0: from the operating system) and the
    /// default weights.
    pub fn new(default_depth: u32, seed: u64) -> Settings {
        Settings {
            depth: default_depth,
            default_depth,
            seed,
            weights: Weights::default(),
            rng: rng_for(seed),
        }
    }

    /// The options: `depth` (spin, plies), `seed` (spin, 0 = from the operating system; the arena
    /// sends each game's seed), then every registered game's weights ([`eval::options`]).
    pub fn options(&self) -> Vec<EngineOption> {
        let mut v = vec![
            EngineOption::spin(
                "depth",
                i64::from(self.default_depth),
                1,
                i64::from(MAX_DEPTH),
            ),
            EngineOption::seed(),
        ];
        v.extend(eval::options());
        v
    }

    /// Sets `depth`, `seed` (which restarts the generator) or a weight.
    ///
    /// # Errors
    /// [`OptionError::Unknown`] for another name; [`OptionError::BadValue`] for a value out of range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if eval::set(&mut self.weights, name, value)? {
            return Ok(());
        }
        let option = EngineOption::find(self.options(), name)?;
        let v = option.parse(value)?.unwrap_or(0);
        match name {
            "depth" => self.depth = v as u32,
            _ => {
                self.seed = v as u64;
                self.rng = rng_for(self.seed);
            }
        }
        Ok(())
    }
}

/// The generator for `seed`; 0 draws a seed from the operating system, like the `random` bot.
pub fn rng_for(seed: u64) -> ChaCha8Rng {
    if seed == 0 {
        ChaCha8Rng::from_os_rng()
    } else {
        ChaCha8Rng::seed_from_u64(seed)
    }
}
