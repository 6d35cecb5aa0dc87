//! The generalized sequential probability ratio test (GSPRT) of fishtest and fastchess.
//!
//! - **LLR**: the log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0), where each
//!   hypothesis's likelihood is that of the maximum-likelihood multinomial distribution of pair
//!   results constrained to that Elo (fishtest `LLRcalc.LLR_logistic` / `LLR_normalized`, fastchess
//!   `SPRT::getLLR`; Michel Van den Bergh, "Comments on Normalized Elo", cantate.be/Fishtest).
//! - **Bounds** (Wald): stop and accept H0 when LLR ≤ ln(β/(1−α)), accept H1 when LLR ≥ ln((1−β)/α).
//!
//! Logistic bounds constrain the expected score to s = 1/(1 + 10^(−elo/400)) (Proposition 1.1: the
//! constrained MLE is pᵢ = p̂ᵢ/(1 + θ(aᵢ − s)) with θ the root of the secular equation
//! Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0). Normalized bounds constrain t = (μ − ½)/σ to nElo/(800/ln 10)
//! per game (×√2 for pairs, since σ is then a pair's), solved by the fixed-point iteration of
//! section 4.1 over the same secular equation.
//!
//! Empty classes are regularized as fishtest does: a count of 0 is replaced by 0.001 (a tiny prior,
//! so that the MLE exists and no log is of 0).

use std::fmt;
use std::str::FromStr;

use super::elo::{score_from_elo, Wdl, NELO_PER_T};
use super::pentanomial::{Pentanomial, PAIR_SCORES};

/// The count standing for an empty class (fishtest `LLRcalc.regularize`).
pub const REGULARIZATION: f64 = 1e-3;

/// How `elo0` and `elo1` are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Normalized Elo (nElo): bounds on the score's distance from ½ in standard deviations; the
    /// test's length hardly depends on the draw ratio (fishtest's default since 2023).
    #[default]
    Normalized,
    /// Logistic Elo: bounds on the expected score, 1/(1 + 10^(−elo/400)).
    Logistic,
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        })
    }
}

impl FromStr for SprtModel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            _ => Err(format!(
                "unknown SPRT model {s:?} (expected \"normalized\" or \"logistic\")"
            )),
        }
    }
}

/// A GSPRT of H0: Elo = `elo0` against H1: Elo = `elo1`, with error rates `alpha` (accepting H1
/// when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of H0, in the unit of `model`.
    pub elo0: f64,
    /// The Elo of H1, in the unit of `model`; greater than `elo0`.
    pub elo1: f64,
    /// False positive rate, in (0, 1).
    pub alpha: f64,
    /// False negative rate, in (0, 1).
    pub beta: f64,
    /// Logistic or normalized Elo.
    pub model: SprtModel,
}

impl Default for Sprt {
    /// elo0 = 0, elo1 = 5 (normalized), α = β = 0.05.
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        }
    }
}

/// What the test says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    Continue,
    /// LLR ≤ lower bound: Elo = elo0 is accepted (the change fails).
    AcceptH0,
    /// LLR ≥ upper bound: Elo = elo1 is accepted (the change passes).
    AcceptH1,
}

impl Sprt {
    /// A validated test.
    ///
    /// # Errors
    /// If an argument is not finite, `alpha` or `beta` is outside (0, 1), α + β ≥ 1 (the bounds
    /// would cross), or `elo0 >= elo1`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, String> {
        if ![elo0, elo1, alpha, beta].iter().all(|x| x.is_finite()) {
            return Err("SPRT: elo0, elo1, alpha and beta must be finite numbers".into());
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0) {
            return Err(format!(
                "SPRT: alpha ({alpha}) and beta ({beta}) must be between 0 and 1"
            ));
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT: alpha + beta ({}) must be less than 1",
                alpha + beta
            ));
        }
        if elo0 >= elo1 {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Wald's (lower, upper) LLR bounds: (ln(β/(1−α)), ln((1−β)/α)); ±2.944 for α = β = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The GSPRT log-likelihood ratio of the pairs (fishtest `LLR_logistic` / `LLR_normalized` on
    /// pentanomial results). 0 with no pairs, or when a constrained MLE does not exist (a normalized
    /// bound so far out that no distribution on [0, 1] reaches it).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        // For pairs, σ is the pair mean's, √2 times smaller than a game's: t scales by √2.
        self.generalized_llr(&PAIR_SCORES, &p.counts, std::f64::consts::SQRT_2)
    }

    /// The GSPRT log-likelihood ratio of games read as independent (trinomial; fishtest on
    /// 3-element results). 0 with no games or when a constrained MLE does not exist.
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        self.generalized_llr(&[0.0, 0.5, 1.0], &[wdl.losses, wdl.draws, wdl.wins], 1.0)
    }

    /// The decision for the pairs so far.
    pub fn decide(&self, p: &Pentanomial) -> SprtDecision {
        self.decide_llr(self.llr(p))
    }

    /// The decision for an LLR.
    pub fn decide_llr(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    fn generalized_llr(&self, scores: &[f64], counts: &[u64], t_scale: f64) -> f64 {
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZATION } else { c as f64 })
            .collect();
        let total: f64 = regularized.iter().sum();
        let phat: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let mle = |elo: f64| match self.model {
            SprtModel::Logistic => mle_expected(scores, &phat, score_from_elo(elo)),
            SprtModel::Normalized => mle_t_value(scores, &phat, 0.5, elo / NELO_PER_T * t_scale),
        };
        let (Some(p0), Some(p1)) = (mle(self.elo0), mle(self.elo1)) else {
            return 0.0;
        };
        total
            * phat
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(q, (a, b))| q * (b.ln() - a.ln()))
                .sum::<f64>()
    }
}

/// The root θ of the secular equation Σ pᵢaᵢ/(1 + θaᵢ) = 0 on (−1/max a, −1/min a), where the
/// left side falls strictly from +∞ to −∞. Newton steps, kept inside a shrinking bracket by
/// bisection, to full double precision. `None` unless min a < 0 < max a.
fn secular(a: &[f64], p: &[f64]) -> Option<f64> {
    let min = a.iter().copied().fold(f64::INFINITY, f64::min);
    let max = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let mut x = 0.0;
    for _ in 0..200 {
        let (mut f, mut df) = (0.0, 0.0);
        for (ai, pi) in a.iter().zip(p) {
            let d = 1.0 + x * ai;
            f += pi * ai / d;
            df -= pi * ai * ai / (d * d);
        }
        if f == 0.0 {
            return Some(x);
        }
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - f / df;
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// The multinomial on `scores` closest in likelihood to `phat` with expectation `s`
/// (Van den Bergh, "Comments on Normalized Elo", Proposition 1.1; fishtest `MLE_expected`).
fn mle_expected(scores: &[f64], phat: &[f64], s: f64) -> Option<Vec<f64>> {
    let shifted: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let theta = secular(&shifted, phat)?;
    Some(
        phat.iter()
            .zip(&shifted)
            .map(|(p, a)| p / (1.0 + theta * a))
            .collect(),
    )
}

/// The multinomial on `scores` closest in likelihood to `phat` with t-value (μ − `reference`)/σ = `t`
/// (Van den Bergh, "Comments on Normalized Elo", section 4.1; fishtest `MLE_t_value`): from the
/// uniform distribution, repeatedly solve the secular equation with
/// φᵢ = aᵢ − reference − t·σ·(1 + ((aᵢ − μ)/σ)²)/2 for the current μ, σ, until the distribution moves by
/// less than 1e-12 (at most 100 rounds; fishtest stops at 1e-9 or 10 rounds).
fn mle_t_value(scores: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..100 {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        if sigma <= 0.0 || !sigma.is_finite() {
            return None;
        }
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - reference - t * sigma * (1.0 + ((a - mu) / sigma).powi(2)) / 2.0)
            .collect();
        let theta = secular(&phi, phat)?;
        let next: Vec<f64> = phat
            .iter()
            .zip(&phi)
            .map(|(q, f)| q / (1.0 + theta * f))
            .collect();
        let moved = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-12 {
            break;
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round3(x: f64) -> f64 {
        (x * 1000.0).round() / 1000.0
    }

    #[test]
    fn fishtest_logistic_llr() {
        let sprt = Sprt::new(-3.0, 1.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let p = Pentanomial {
            counts: [10789, 19328, 33806, 19402, 10543],
        };
        assert_eq!(round3(sprt.llr(&p)), 2.131);
        // fishtest's algorithm (secular equation by bisection) in Python: 2.131067811785043.
        assert!((sprt.llr(&p) - 2.131_067_811_785).abs() < 1e-7);
        assert_eq!(sprt.decide(&p), SprtDecision::Continue);
    }

    #[test]
    fn fishtest_normalized_llr() {
        let sprt = Sprt::new(0.764, 3.439, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let p = Pentanomial {
            counts: [39, 2226, 31451, 2412, 40],
        };
        assert_eq!(round3(sprt.llr(&p)), 2.163);
        // fishtest's algorithm in Python: 2.1629408695841628.
        assert!((sprt.llr(&p) - 2.162_940_869_584).abs() < 1e-7);
    }

    #[test]
    fn constrained_mles_meet_their_constraints() {
        let phat = [0.1, 0.2, 0.35, 0.2, 0.15];
        let p = mle_expected(&PAIR_SCORES, &phat, 0.53).unwrap();
        let mean: f64 = PAIR_SCORES.iter().zip(&p).map(|(a, q)| a * q).sum();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((mean - 0.53).abs() < 1e-12);
        let p = mle_t_value(&PAIR_SCORES, &phat, 0.5, 0.07).unwrap();
        let mean: f64 = PAIR_SCORES.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = PAIR_SCORES
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mean).powi(2))
            .sum();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-10);
        assert!(((mean - 0.5) / var.sqrt() - 0.07).abs() < 1e-9);
    }

    #[test]
    fn llr_of_the_observed_elo_sits_between() {
        // Data at exactly the midpoint of the bounds: the LLR is near 0; data far above: positive.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let even = Pentanomial {
            counts: [100, 200, 400, 200, 100],
        };
        assert!(sprt.llr(&even) < 0.0);
        assert!(
            sprt.llr(&Pentanomial {
                counts: [50, 150, 400, 250, 150]
            }) > 2.944
        );
        assert_eq!(
            sprt.decide(&Pentanomial {
                counts: [50, 150, 400, 250, 150]
            }),
            SprtDecision::AcceptH1
        );
        assert_eq!(sprt.decide(&even.reversed()), sprt.decide(&even));
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.llr_wdl(&Wdl::default()), 0.0);
        // Empty classes are regularized, not fatal.
        let one = Pentanomial {
            counts: [0, 0, 0, 0, 1],
        };
        assert!(sprt.llr(&one).is_finite());
        let norm = Sprt::default();
        assert!(norm.llr(&one).is_finite());
        assert!(norm
            .llr_wdl(&Wdl {
                wins: 3,
                draws: 0,
                losses: 0
            })
            .is_finite());
    }

    #[test]
    fn trinomial_llr_is_fishtests_three_class_form() {
        // The trinomial and pentanomial LLRs estimate the same quantity; on independent games the
        // pair variance is half the game variance, so both grow alike.
        let sprt = Sprt::new(-3.0, 1.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let wdl = Wdl {
            wins: 5000,
            draws: 10000,
            losses: 5100,
        };
        let llr = sprt.llr_wdl(&wdl);
        assert!(llr < 0.0 && llr.is_finite());
    }

    #[test]
    fn bounds_and_validation() {
        let (lo, hi) = Sprt::default().bounds();
        assert!((lo + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((hi - 2.944_438_979_166_44).abs() < 1e-12);
        assert_eq!(
            Sprt::default(),
            Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap()
        );
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5, SprtModel::Logistic).is_err());
        assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05, SprtModel::Logistic).is_err());
        assert_eq!("logistic".parse::<SprtModel>(), Ok(SprtModel::Logistic));
        assert_eq!("normalized".parse::<SprtModel>(), Ok(SprtModel::Normalized));
        assert!("bayesian".parse::<SprtModel>().is_err());
        assert_eq!(SprtModel::Logistic.to_string(), "logistic");
        assert_eq!(SprtModel::default(), SprtModel::Normalized);
    }
}
