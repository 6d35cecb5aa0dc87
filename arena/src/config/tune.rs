//! `[tune]` of a `format = "tune"` config: the options `arena tune` tunes and fishtest's SPSA settings
//! (the tuning itself is [`crate::tune`]).

use serde::{Deserialize, Serialize};

/// Spall's and fishtest's default α, the learning rate's decay exponent.
pub const ALPHA: f64 = 0.602;
/// Spall's and fishtest's default γ, the perturbation's decay exponent.
pub const GAMMA: f64 = 0.101;

/// `[tune]`: what to tune and fishtest's SPSA settings.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TuneConfig {
    /// Iterations planned: with `pairs_per_iteration`, fishtest's N (game pairs), which sets the gains'
    /// schedule. `arena tune --iterations` may stop earlier or go on further without changing it.
    pub iterations: u64,
    /// Game pairs per iteration, each from its own opening, under one Δ (fishtest's batch). Default 1.
    #[serde(default = "one")]
    pub pairs_per_iteration: u32,
    /// The stability constant A, in game pairs. Default: 10 % of the planned pairs (fishtest).
    #[serde(rename = "A")]
    pub a_big: Option<f64>,
    /// The learning rate's decay exponent α (default 0.602).
    #[serde(default = "alpha")]
    pub alpha: f64,
    /// The perturbation's decay exponent γ (default 0.101).
    #[serde(default = "gamma")]
    pub gamma: f64,
    /// At the end, play an SPRT of the tuned values against the start values, with the config's
    /// `[sprt]` (required then). Default false.
    #[serde(default)]
    pub verify: bool,
    /// The options to tune, in order (the columns of `tune.csv`).
    pub params: Vec<TuneParam>,
}

fn one() -> u32 {
    1
}
fn alpha() -> f64 {
    ALPHA
}
fn gamma() -> f64 {
    GAMMA
}

/// `[[tune.params]]`: one option, as a line of fishtest's SPSA form.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TuneParam {
    /// The bot's option (sent with `setoption`).
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation c at the last planned game pair, in the option's units.
    pub c_end: f64,
    /// The learning rate R at the last planned game pair.
    pub r_end: f64,
    /// An integer option (a UGI `spin`). Default true: the probes are sent `floor(x + u)`, u a seeded
    /// uniform draw in [0, 1) (fishtest's stochastic rounding, `crate::tune::spsa::round_stochastic`), and the
    /// tuned and start values of `tuned.toml` and the verifying SPRT θ rounded to the nearest integer;
    /// `min` and `max` must then be integers. False sends the value as a decimal number (an option of
    /// type `string` that reads one).
    #[serde(default = "yes")]
    pub integer: bool,
}

fn yes() -> bool {
    true
}
