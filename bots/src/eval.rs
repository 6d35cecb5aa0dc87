//! The evaluation weights as engine options: each game declares its evaluation in its own folder
//! ([`games::Game::Eval`], `Σ Kᵢ·Zᵢ` of seed `002_d88c0e1c38cad7fe.txt`), and the search engines offer
//! every registered game's weights as spin options ([`options`]), so a tournament tunes them by name
//! (`c4_line3`, `dots_captures`, `kalah_store`). Options are declared before the `game` command, so
//! an engine declares the weights of every game.

pub use games::eval::{Evaluation, Score, Weight, Weights, WEIGHT_MAX, WEIGHT_MIN};

use games::Game;

use crate::engine::{EngineOption, OptionError};

/// The evaluation of `pos`'s game with `weights`: the game's own ([`Game::Eval`]).
pub fn standard<G: Game>(pos: &G, weights: &Weights) -> G::Eval {
    G::Eval::new(pos, weights)
}

/// Every registered game's weights as engine options (spin, [`WEIGHT_MIN`]..=[`WEIGHT_MAX`], default
/// the weight's own), in the registry's order.
pub fn options() -> Vec<EngineOption> {
    games::weights()
        .into_iter()
        .map(|w| {
            EngineOption::spin(
                w.name,
                i64::from(w.default),
                i64::from(WEIGHT_MIN),
                i64::from(WEIGHT_MAX),
            )
        })
        .collect()
}

/// Sets the weight `name` in `weights` from option text.
///
/// # Errors
/// `Ok(false)` if `name` is not a weight (the caller tries its other options);
/// [`OptionError::BadValue`] if the value is not an integer in [`WEIGHT_MIN`]..=[`WEIGHT_MAX`].
pub fn set(weights: &mut Weights, name: &str, value: &str) -> Result<bool, OptionError> {
    let Some(w) = games::weights().into_iter().find(|w| w.name == name) else {
        return Ok(false);
    };
    let option = EngineOption::spin(
        w.name,
        i64::from(w.default),
        i64::from(WEIGHT_MIN),
        i64::from(WEIGHT_MAX),
    );
    let v = option.parse(value)?.unwrap_or(0);
    // In range by the option's bounds, which fit an i32.
    weights.set(w, v as i32);
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_weight_is_an_option_and_can_be_set() {
        let mut w = Weights::default();
        let all = games::weights();
        assert_eq!(options().len(), all.len());
        for &weight in &all {
            assert_eq!(w.get(weight), weight.default);
            assert_eq!(set(&mut w, weight.name, "-7"), Ok(true));
            assert_eq!(w.get(weight), -7);
        }
        assert_eq!(set(&mut w, "depth", "3"), Ok(false));
        assert!(set(&mut w, "c4_line1", "x").is_err());
        assert!(set(&mut w, "c4_line1", "100001").is_err());
    }
}
