//! SPSA as fishtest runs it: the pure algorithm, no processes.
//!
//! Simultaneous Perturbation Stochastic Approximation (Spall 1992, "Multivariate stochastic
//! approximation using a simultaneous perturbation gradient approximation", IEEE TAC 37(3)) estimates
//! the gradient of a noisy objective from two measurements, θ + c·Δ and θ − c·Δ, where Δ is a random
//! vector of ±1. Here the measurement is a match: game pairs between the bot with the parameters
//! θ + c_k·Δ and the same bot with θ − c_k·Δ.
//!
//! The gains follow fishtest (official-stockfish/fishtest, `server/fishtest/api.py`
//! `parse_spsa_params` and `server/fishtest/spsa_handler.py`), where one step of the schedule is one
//! game pair and `N` is the number of game pairs planned:
//!
//! - per parameter, from its `c_end` and `r_end`: `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`;
//! - before game pair `k` (1-based: `k = pairs played + 1`): `c_k = c / k^γ` and
//!   `R_k = a / (A + k)^α / c_k²`, so that at `k = N` they are exactly `c_end` and `r_end`;
//! - after a batch (one flip, any number of game pairs) that the θ + c_k·Δ side scored `wins − losses`
//!   in: `θ ← clamp(θ + R_k · c_k · (wins − losses) · Δ, min, max)`, and `k` advances by the batch's
//!   game pairs;
//! - the probes are `clamp(θ ± c_k·Δ, min, max)`; defaults α = 0.602, γ = 0.101 (Spall's), and
//!   A = 10 % of `N` (fishtest's "SPSA A ratio" 0.1);
//! - an integer option is given to the bot rounded stochastically, `floor(x + u)` with `u` uniform in
//!   [0, 1) drawn afresh for each probe of each batch (fishtest's worker, `worker/games.py`: "stochastic
//!   rounding", `math.floor(value + random.uniform(0, 1))`), so that x = 3.3 is sent as 4 with
//!   probability 0.3 and as 3 otherwise: on average the bot plays x itself, and a perturbation c_k
//!   below ½ still separates the probes on average, where rounding to the nearest integer would often
//!   give both probes the same value. θ itself is never rounded ([`round_stochastic`],
//!   [`Spsa::rounding_draws`]).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::plan::schedule::mix;

/// One tuned parameter, as a line of fishtest's SPSA form: `name, start, min, max, c_end, r_end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The bot's option name.
    pub name: String,
    /// θ at the start.
    pub start: f64,
    /// The lowest value θ and the probes may take.
    pub min: f64,
    /// The highest value θ and the probes may take.
    pub max: f64,
    /// The perturbation at the last planned game pair, in the parameter's units (`c_k` at `k = N`).
    pub c_end: f64,
    /// The learning rate at the last planned game pair (`R_k` at `k = N`).
    pub r_end: f64,
}

/// The SPSA schedule of a tuning run.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub params: Vec<Param>,
    /// The stability constant A, in game pairs.
    pub a_big: f64,
    /// The exponent of the learning rate's decay (default 0.602).
    pub alpha: f64,
    /// The exponent of the perturbation's decay (default 0.101).
    pub gamma: f64,
    /// N: the game pairs planned (fishtest's `num_iter`, half its `num_games`).
    pub planned_pairs: f64,
}

/// The gains of one parameter before one batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gain {
    /// The perturbation c_k, in the parameter's units.
    pub c: f64,
    /// The learning rate R_k.
    pub r: f64,
}

/// The fraction of the planned game pairs that A defaults to (fishtest's "SPSA A ratio").
pub const A_RATIO: f64 = 0.1;
pub use crate::config::tune::{ALPHA, GAMMA};

impl Spsa {
    /// A schedule over `planned_pairs` game pairs; `a_big` defaults to [`A_RATIO`] of them.
    ///
    /// # Errors
    /// No parameters, two of one name, `min > max`, a start outside `min..=max`, a `c_end` or `r_end`
    /// that is not positive, α, γ or A negative, or no planned game pair; each names the parameter.
    pub fn new(
        params: Vec<Param>,
        a_big: Option<f64>,
        alpha: f64,
        gamma: f64,
        planned_pairs: u64,
    ) -> Result<Spsa, String> {
        if params.is_empty() {
            return Err("no parameters to tune".into());
        }
        for (i, p) in params.iter().enumerate() {
            if params[..i].iter().any(|q| q.name == p.name) {
                return Err(format!("parameter {} is listed twice", p.name));
            }
            let finite = [p.start, p.min, p.max, p.c_end, p.r_end]
                .iter()
                .all(|x| x.is_finite());
            if !finite || p.min > p.max || p.start < p.min || p.start > p.max {
                return Err(format!(
                    "parameter {}: needs min ≤ start ≤ max, got start {} min {} max {}",
                    p.name, p.start, p.min, p.max
                ));
            }
            if p.c_end <= 0.0 || p.r_end <= 0.0 {
                return Err(format!(
                    "parameter {}: c_end and r_end must be positive, got {} and {}",
                    p.name, p.c_end, p.r_end
                ));
            }
        }
        if planned_pairs == 0 {
            return Err("at least one game pair must be planned".into());
        }
        let planned = planned_pairs as f64;
        let a_big = a_big.unwrap_or(A_RATIO * planned);
        for (what, x) in [("A", a_big), ("alpha", alpha), ("gamma", gamma)] {
            if !(x.is_finite() && x >= 0.0) {
                return Err(format!("{what} must be a number ≥ 0, got {x}"));
            }
        }
        Ok(Spsa {
            params,
            a_big,
            alpha,
            gamma,
            planned_pairs: planned,
        })
    }

    /// θ at the start.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// Each parameter's gains before the batch that starts after `pairs_done` game pairs (fishtest's
    /// `iter`; the formulas use `k = pairs_done + 1`).
    pub fn gains(&self, pairs_done: u64) -> Vec<Gain> {
        let k = pairs_done as f64 + 1.0;
        let n = self.planned_pairs;
        self.params
            .iter()
            .map(|p| {
                let c0 = p.c_end * n.powf(self.gamma);
                let a0 = p.r_end * p.c_end * p.c_end * (self.a_big + n).powf(self.alpha);
                let c = c0 / k.powf(self.gamma);
                Gain {
                    c,
                    r: a0 / (self.a_big + k).powf(self.alpha) / (c * c),
                }
            })
            .collect()
    }

    /// The perturbation Δ of iteration `iteration` (1-based): one ±1 per parameter, drawn from `seed`
    /// and the iteration alone, so a resumed run draws the same Δ again.
    pub fn flips(&self, seed: u64, iteration: u64) -> Vec<i8> {
        let mut rng = ChaCha8Rng::seed_from_u64(mix(mix(seed ^ 0x5b5a) ^ iteration));
        self.params
            .iter()
            .map(|_| if rng.random::<bool>() { 1 } else { -1 })
            .collect()
    }

    /// The uniform draws of the stochastic rounding of iteration `iteration` (1-based): per parameter,
    /// `[u for θ + c_k·Δ, u for θ − c_k·Δ]`, each in [0, 1). Each draw has its own generator, a
    /// ChaCha8 seeded with `mix(mix(mix(seed ^ 0x7e0d) ^ iteration) ^ (2·index + probe))` (index the
    /// parameter's 0-based position, probe 0 for θ⁺ and 1 for θ⁻) and read once as an `f64`: a draw
    /// depends on the seed, the iteration, the parameter and the probe alone, never on the order the
    /// games run in, so a resumed run sends the interrupted iteration's values again.
    pub fn rounding_draws(&self, seed: u64, iteration: u64) -> Vec<[f64; 2]> {
        let base = mix(mix(seed ^ 0x7e0d) ^ iteration);
        (0..self.params.len() as u64)
            .map(|i| {
                [0, 1].map(|probe| {
                    ChaCha8Rng::seed_from_u64(mix(base ^ (2 * i + probe))).random::<f64>()
                })
            })
            .collect()
    }

    /// The two probes of a batch: (θ + c_k·Δ, θ − c_k·Δ), each clamped to its parameter's range.
    pub fn probes(&self, theta: &[f64], gains: &[Gain], flips: &[i8]) -> (Vec<f64>, Vec<f64>) {
        let probe = |sign: f64| {
            self.params
                .iter()
                .zip(theta.iter().zip(gains.iter().zip(flips)))
                .map(|(p, (t, (g, &f)))| clamp(p, t + sign * g.c * f64::from(f)))
                .collect()
        };
        (probe(1.0), probe(-1.0))
    }

    /// θ after a batch in which the θ + c_k·Δ side scored `result` = wins − losses (over all its
    /// games, forfeits included): `θ + R_k · c_k · result · Δ`, clamped.
    pub fn update(&self, theta: &[f64], gains: &[Gain], flips: &[i8], result: i64) -> Vec<f64> {
        self.params
            .iter()
            .zip(theta.iter().zip(gains.iter().zip(flips)))
            .map(|(p, (t, (g, &f)))| clamp(p, t + g.r * g.c * result as f64 * f64::from(f)))
            .collect()
    }
}

fn clamp(p: &Param, x: f64) -> f64 {
    x.clamp(p.min, p.max)
}

/// Stochastic rounding (fishtest's worker): `floor(x + u)` for a draw `u` uniform in [0, 1), so the
/// result is ⌈x⌉ with probability x − ⌊x⌋ and ⌊x⌋ otherwise, and its mean is x. An integer x stays x.
pub fn round_stochastic(x: f64, u: f64) -> i64 {
    (x + u).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64, c_end: f64, r_end: f64) -> Param {
        Param {
            name: name.into(),
            start,
            min: -100.0,
            max: 100.0,
            c_end,
            r_end,
        }
    }

    #[test]
    fn the_gains_reach_c_end_and_r_end_at_the_last_planned_pair() {
        let s = Spsa::new(vec![param("x", 0.0, 4.0, 0.002)], None, ALPHA, GAMMA, 1000).unwrap();
        assert_eq!(s.a_big, 100.0);
        let last = s.gains(999)[0];
        assert!((last.c - 4.0).abs() < 1e-12, "{last:?}");
        assert!((last.r - 0.002).abs() < 1e-12, "{last:?}");
        // At the first pair: c_1 = c_end · N^γ, R_1 = r_end · c_end² · (A + N)^α / (A + 1)^α / c_1².
        let first = s.gains(0)[0];
        let c1 = 4.0 * 1000f64.powf(GAMMA);
        assert!((first.c - c1).abs() < 1e-12);
        let r1 = 0.002 * 16.0 * 1100f64.powf(ALPHA) / 101f64.powf(ALPHA) / (c1 * c1);
        assert!((first.r - r1).abs() < 1e-15);
    }

    #[test]
    fn an_update_moves_along_the_flip_by_r_c_result_and_clamps() {
        let s = Spsa::new(
            vec![param("x", 0.0, 4.0, 0.5), param("y", 99.0, 4.0, 0.5)],
            Some(0.0),
            ALPHA,
            GAMMA,
            1,
        )
        .unwrap();
        let g = s.gains(0);
        // k = N = 1: c = 4, R = 0.5; result 3 with Δ = (+1, +1): θ += 0.5 · 4 · 3 = 6, y clamped.
        let theta = s.update(&[0.0, 99.0], &g, &[1, 1], 3);
        assert_eq!(theta, vec![6.0, 100.0]);
        let theta = s.update(&[0.0, 99.0], &g, &[-1, 1], -1);
        assert_eq!(theta, vec![2.0, 97.0]);
        let (plus, minus) = s.probes(&[0.0, 99.0], &g, &[1, -1]);
        assert_eq!((plus, minus), (vec![4.0, 95.0], vec![-4.0, 100.0]));
    }

    #[test]
    fn flips_depend_on_the_seed_and_iteration_only() {
        let params = (0..16)
            .map(|i| param(&format!("p{i}"), 0.0, 1.0, 0.1))
            .collect();
        let s = Spsa::new(params, None, ALPHA, GAMMA, 10).unwrap();
        assert_eq!(s.flips(3, 7), s.flips(3, 7));
        assert_ne!(s.flips(3, 7), s.flips(3, 8));
        assert_ne!(s.flips(3, 7), s.flips(4, 7));
        assert!(s.flips(3, 7).iter().all(|f| *f == 1 || *f == -1));
    }

    #[test]
    fn stochastic_rounding_is_unbiased_and_its_draws_are_fixed_by_seed_iteration_and_probe() {
        assert_eq!(round_stochastic(3.3, 0.69), 3);
        assert_eq!(round_stochastic(3.3, 0.7), 4);
        assert_eq!(round_stochastic(-3.3, 0.29), -4);
        assert_eq!(round_stochastic(-3.3, 0.3), -3);
        assert_eq!(round_stochastic(5.0, 0.999), 5);
        let params = (0..3)
            .map(|i| param(&format!("p{i}"), 0.0, 1.0, 0.1))
            .collect();
        let s = Spsa::new(params, None, ALPHA, GAMMA, 10).unwrap();
        let d = s.rounding_draws(3, 7);
        assert_eq!(d, s.rounding_draws(3, 7));
        assert_ne!(d, s.rounding_draws(3, 8));
        assert_ne!(d, s.rounding_draws(4, 7));
        assert_ne!(d[0][0], d[0][1]);
        assert!(d.iter().flatten().all(|u| (0.0..1.0).contains(u)));
        // Over many iterations the draws are uniform, so x = 0.3 is sent as 1 about 30 % of the time
        // and its mean is x: with nearest rounding it would always be 0.
        let n = 20_000u64;
        let ones: i64 = (1..=n)
            .map(|k| round_stochastic(0.3, s.rounding_draws(1, k)[1][0]))
            .sum();
        let share = ones as f64 / n as f64;
        // 4.4 standard deviations of a binomial share √(0.3·0.7/20000) = 0.0032.
        assert!((share - 0.3).abs() < 0.014, "{share}");
    }

    #[test]
    fn bad_schedules_are_refused_with_the_parameter_named() {
        let bad = |p: Param| Spsa::new(vec![p], None, ALPHA, GAMMA, 10).unwrap_err();
        assert!(bad(param("x", 200.0, 1.0, 0.1)).contains("parameter x"));
        assert!(bad(param("x", 0.0, 0.0, 0.1)).contains("c_end"));
        assert!(Spsa::new(vec![], None, ALPHA, GAMMA, 10).is_err());
        let twice = vec![param("x", 0.0, 1.0, 0.1), param("x", 0.0, 1.0, 0.1)];
        assert!(Spsa::new(twice, None, ALPHA, GAMMA, 10)
            .unwrap_err()
            .contains("twice"));
    }

    /// A synthetic match whose strength is a known function of the parameters: a bot with θ is rated
    /// `E(θ) = −Σ wᵢ·(θᵢ − oᵢ)²` Elo, and a game between θ⁺ and θ⁻ is won by θ⁺ with the logistic
    /// expectation of the Elo difference, `1 / (1 + 10^(−(E(θ⁺) − E(θ⁻))/400))`, without draws. SPSA
    /// driven by these games alone (seeded, one game pair per batch as fishtest counts) must bring θ
    /// from a start far from the optimum o (98.5 away) to within a quarter of that distance.
    #[test]
    fn spsa_converges_toward_the_optimum_of_a_synthetic_match() {
        let optimum = [30.0, -20.0, 60.0];
        let weight = [0.05, 0.02, 0.01]; // Elo per unit² away from the optimum
        let elo = |t: &[f64]| -> f64 {
            t.iter()
                .zip(optimum.iter().zip(weight))
                .map(|(x, (o, w))| -w * (x - o) * (x - o))
                .sum()
        };
        let distance = |t: &[f64]| -> f64 {
            t.iter()
                .zip(optimum)
                .map(|(x, o)| (x - o) * (x - o))
                .sum::<f64>()
                .sqrt()
        };
        let params = vec![
            param("a", -30.0, 5.0, 0.05),
            param("b", 30.0, 6.0, 0.05),
            param("c", 0.0, 8.0, 0.05),
        ];
        let pairs = 4000u64;
        let s = Spsa::new(params, None, ALPHA, GAMMA, pairs).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let mut theta = s.start();
        let start = distance(&theta);
        for k in 0..pairs {
            let gains = s.gains(k);
            let flips = s.flips(1, k + 1);
            let (plus, minus) = s.probes(&theta, &gains, &flips);
            let p = 1.0 / (1.0 + 10f64.powf(-(elo(&plus) - elo(&minus)) / 400.0));
            let wins = (0..2).filter(|_| rng.random::<f64>() < p).count() as i64;
            theta = s.update(&theta, &gains, &flips, wins - (2 - wins));
        }
        let end = distance(&theta);
        assert!(
            end < start / 4.0,
            "distance to the optimum {start:.1} → {end:.1}, θ = {theta:?}"
        );
    }
}
