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
//! section 4.1 over the same secular equation. That iteration, fishtest's, cannot start once a
//! bound passes |nElo| ≈ 232 on pairs (≈ 340 on games), whatever the results, and fishtest raises
//! there; and where it settles, it may settle on a local maximum of the likelihood only (the
//! constraint's set of distributions is not convex). The arena's LLR is always the constrained
//! maximum: the better of the iteration's distribution and the maximum of the profile likelihood
//! over the mean (`t_value_profile`). Where fishtest's own figure differs ([`Llr::fishtest`]), the
//! reports print both and say that the decision used the constrained maximum.
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

/// A log-likelihood ratio and, where fishtest's iteration gives another, fishtest's figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Llr {
    /// The GSPRT log-likelihood ratio with each hypothesis's likelihood at its constrained maximum:
    /// what the decision uses.
    pub value: f64,
    /// fishtest's figure (`LLR_normalized`: its fixed-point iteration) where it differs from
    /// [`Llr::value`] by more than [`Llr::TOLERANCE`]: the iteration settled on a local maximum.
    /// `None` where the two agree, and where fishtest gives no figure (it raises).
    pub fishtest: Option<f64>,
}

impl Llr {
    /// How far fishtest's figure may be from the constrained maximum before it is shown: 0.01, the
    /// precision of the printed LLR.
    pub const TOLERANCE: f64 = 0.01;

    /// The note for a report, when fishtest's figure differs: `fishtest's iteration gives −21000.48
    /// (a local maximum); the decision uses the constrained maximum`.
    pub fn note(&self) -> Option<String> {
        self.fishtest.map(|f| {
            format!(
                "fishtest's iteration gives {f:.2} (a local maximum of the likelihood); the decision \
                 uses the constrained maximum, {:.2}",
                self.value
            )
        })
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
    /// pentanomial results). 0 with no pairs, or when no constrained MLE is found: a logistic bound
    /// whose expected score rounds to 0 or 1 (|elo| ≳ 6,400), or an absurd normalized one (1e300).
    /// Every other normalized bound is reached by some distribution with all five classes occupied,
    /// so it has an MLE, found beyond fishtest's reach too (|nElo| > 231.6, where fishtest raises).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        self.llr_detail(p).value
    }

    /// [`Sprt::llr`] with fishtest's own figure where it differs ([`Llr`]).
    pub fn llr_detail(&self, p: &Pentanomial) -> Llr {
        if p.pairs() == 0 {
            return Llr {
                value: 0.0,
                fishtest: None,
            };
        }
        // For pairs, σ is the pair mean's, √2 times smaller than a game's: t scales by √2.
        self.generalized_llr(&PAIR_SCORES, &p.counts, std::f64::consts::SQRT_2)
    }

    /// The GSPRT log-likelihood ratio of games read as independent (trinomial; fishtest on
    /// 3-element results). 0 with no games or when no constrained MLE is found (as for
    /// [`Sprt::llr`]; fishtest's iteration gives out beyond |nElo| = 340.4 here).
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr_wdl_detail(wdl).value
    }

    /// [`Sprt::llr_wdl`] with fishtest's own figure where it differs ([`Llr`]).
    pub fn llr_wdl_detail(&self, wdl: &Wdl) -> Llr {
        if wdl.games() == 0 {
            return Llr {
                value: 0.0,
                fishtest: None,
            };
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

    fn generalized_llr(&self, scores: &[f64], counts: &[u64], t_scale: f64) -> Llr {
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZATION } else { c as f64 })
            .collect();
        let total: f64 = regularized.iter().sum();
        let phat: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let llr = |p0: &[f64], p1: &[f64]| {
            total
                * phat
                    .iter()
                    .zip(p0.iter().zip(p1))
                    .map(|(q, (a, b))| q * (b.ln() - a.ln()))
                    .sum::<f64>()
        };
        let none = Llr {
            value: 0.0,
            fishtest: None,
        };
        match self.model {
            // The logistic constraint is linear: its MLE is unique, fishtest's and the arena's alike.
            SprtModel::Logistic => {
                let mle = |elo: f64| mle_expected(scores, &phat, score_from_elo(elo));
                let (Some(p0), Some(p1)) = (mle(self.elo0), mle(self.elo1)) else {
                    return none;
                };
                Llr {
                    value: llr(&p0, &p1),
                    fishtest: None,
                }
            }
            SprtModel::Normalized => {
                let mle = |elo: f64| mle_t_value(scores, &phat, 0.5, elo / NELO_PER_T * t_scale);
                let ((p0, f0), (p1, f1)) = (mle(self.elo0), mle(self.elo1));
                let (Some(p0), Some(p1)) = (p0, p1) else {
                    return none;
                };
                let value = llr(&p0, &p1);
                let fishtest = match (f0, f1) {
                    (Some(f0), Some(f1)) => Some(llr(&f0, &f1)),
                    _ => None,
                };
                Llr {
                    value,
                    fishtest: fishtest.filter(|f| (f - value).abs() > Llr::TOLERANCE),
                }
            }
        }
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

/// The multinomial on `scores` closest in likelihood to `phat` with t-value (μ − `reference`)/σ =
/// `t` (Van den Bergh, "Comments on Normalized Elo", section 4.1; fishtest `MLE_t_value`): the
/// better of fishtest's fixed-point iteration ([`t_value_fixed_point`]) and the maximum of the
/// profile likelihood ([`t_value_profile`]). The iteration cannot start whenever |t| > 0.943 on
/// pairs (|nElo| > 231.6) or |t| > 0.980 on games (|nElo| > 340.4), whatever the data: at the
/// uniform distribution it starts from, every φᵢ then has the sign of −t. fishtest raises there
/// (`ValueError`, or `AssertionError` when 10 rounds miss the constraint); and where it settles it
/// may settle on a local maximum. Returns (the better of the two, the iteration's alone).
fn mle_t_value(
    scores: &[f64],
    phat: &[f64],
    reference: f64,
    t: f64,
) -> (Option<Vec<f64>>, Option<Vec<f64>>) {
    let fixed = t_value_fixed_point(scores, phat, reference, t);
    let best = best_of(
        phat,
        fixed.clone(),
        t_value_profile(scores, phat, reference, t),
    );
    (best, fixed)
}

/// Of two candidate distributions, the one more likely to give `phat` (the greater Σ p̂ᵢ ln pᵢ).
fn best_of(phat: &[f64], a: Option<Vec<f64>>, b: Option<Vec<f64>>) -> Option<Vec<f64>> {
    let log_likelihood = |p: &[f64]| phat.iter().zip(p).map(|(q, x)| q * x.ln()).sum::<f64>();
    match (a, b) {
        (Some(a), Some(b)) => Some(if log_likelihood(&b) > log_likelihood(&a) {
            b
        } else {
            a
        }),
        (a, b) => a.or(b),
    }
}

/// fishtest's fixed-point iteration for [`mle_t_value`]: from the uniform distribution, repeatedly
/// solve the secular equation with φᵢ = aᵢ − reference − t·σ·(1 + ((aᵢ − μ)/σ)²)/2 for the current
/// μ, σ, until the distribution moves by less than 1e-12 (at most 100 rounds; fishtest stops at
/// 1e-9 or 10 rounds). `None` when a round's φ are all of one sign (the secular equation has no
/// root: fishtest's `ValueError`), or when the rounds end unsettled or off the constraint. Where it
/// settles it gives fishtest's distribution, even in the rare case where that is a local maximum
/// only (see the test `fixed_point_keeps_fishtests_figure_at_a_local_maximum`).
fn t_value_fixed_point(scores: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..100 {
        let (mu, sigma) = mean_sd(scores, &p);
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
            let (mu, sigma) = mean_sd(scores, &p);
            let met = ((mu - reference) / sigma - t).abs() <= 1e-9 * (1.0 + t.abs());
            return met.then_some(p);
        }
    }
    None
}

/// The mean and standard deviation of the distribution `p` on `scores`.
fn mean_sd(scores: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = scores.iter().zip(p).map(|(a, q)| a * q).sum();
    let var: f64 = scores
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mu).powi(2))
        .sum();
    (mu, var.sqrt())
}

/// [`mle_t_value`] as the maximum of the profile likelihood over the mean μ. The t-value fixes σ =
/// (μ − reference)/t, and for each μ the MLE with that mean and variance is pᵢ = p̂ᵢ/(1 + λ·gᵢ), gᵢ
/// = (aᵢ − μ, (aᵢ − μ)² − σ²), λ the maximizer of the concave Σ p̂ᵢ ln(1 + λ·gᵢ) (the
/// empirical-likelihood dual, [`moment_dual`]), whose maximum is the likelihood's loss. The means a
/// distribution with full support can have with that σ form up to two intervals between
/// neighbouring scores ([`feasible_means`]); each is searched on a grid and every grid maximum
/// refined by golden section, since the profile can have more than one local maximum when the bound
/// lies beyond the data (the constraint's set of distributions is then not convex). `scores`
/// ascending.
fn t_value_profile(scores: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    if t == 0.0 {
        return mle_expected(scores, phat, reference);
    }
    // The likelihood's loss at μ (+∞ where no full-support distribution has that μ and σ).
    let loss = |mu: f64| {
        moment_dual(scores, phat, mu, (mu - reference) / t).map_or(f64::INFINITY, |(d, _)| d)
    };
    // Grid points per interval: over 4,000 random results and bounds, 32 found the maximum that
    // 2,000 found, to 2e-7 in log-likelihood.
    let grid = 32;
    let mut best = (f64::INFINITY, f64::NAN);
    for (lo, hi) in feasible_means(scores, reference, t) {
        let at = |k: usize| lo + (hi - lo) * k as f64 / (grid + 1) as f64;
        // Interior grid points; the ends are where the loss runs to +∞.
        let values: Vec<f64> = (0..=grid + 1)
            .map(|k| {
                if k == 0 || k == grid + 1 {
                    f64::INFINITY
                } else {
                    loss(at(k))
                }
            })
            .collect();
        for k in 1..=grid {
            if values[k].is_finite() && values[k] <= values[k - 1] && values[k] <= values[k + 1] {
                let mu = golden_section_min(&loss, at(k - 1), at(k + 1));
                let value = loss(mu);
                if value < best.0 {
                    best = (value, mu);
                }
            }
        }
    }
    let (_, lambda) = moment_dual(scores, phat, best.1, (best.1 - reference) / t)?;
    let p: Vec<f64> = scores
        .iter()
        .zip(phat)
        .map(|(a, q)| {
            q / (1.0
                + lambda[0] * (a - best.1)
                + lambda[1] * ((a - best.1).powi(2) - ((best.1 - reference) / t).powi(2)))
        })
        .collect();
    let total: f64 = p.iter().sum();
    p.iter()
        .all(|x| *x > 0.0 && x.is_finite())
        .then(|| p.iter().map(|x| x / total).collect())
}

/// The means μ on the side of `reference` that `t` points to for which a distribution with full
/// support on `scores` (ascending) has mean μ and standard deviation σ = (μ − reference)/t: σ² must
/// lie strictly between the least variance of a mean μ, (μ − aⱼ)(aⱼ₊₁ − μ) for aⱼ ≤ μ ≤ aⱼ₊₁, and
/// the most, (μ − a_min)(a_max − μ) (Bhatia–Davis). Both bounds are quadratics in μ, so the means
/// form at most two open intervals between each two neighbouring scores; touching ones are joined.
fn feasible_means(scores: &[f64], reference: f64, t: f64) -> Vec<(f64, f64)> {
    let (min, max) = (scores[0], scores[scores.len() - 1]);
    let (side_lo, side_hi) = if t > 0.0 {
        (reference, max)
    } else {
        (min, reference)
    };
    let k = 1.0 / (t * t);
    // σ² − (μ − a)(b − μ) with σ² = k(μ − reference)²: c₂μ² + c₁μ + c₀.
    let quadratic = |a: f64, b: f64| {
        (
            k + 1.0,
            -2.0 * k * reference - (a + b),
            k * reference * reference + a * b,
        )
    };
    // The real roots of c₂x² + c₁x + c₀ (c₂ > 0), ascending.
    let roots = |(c2, c1, c0): (f64, f64, f64)| -> Option<(f64, f64)> {
        let disc = c1 * c1 - 4.0 * c2 * c0;
        if disc < 0.0 {
            return None;
        }
        let q = -0.5 * (c1 + c1.signum() * disc.sqrt());
        let (r1, r2) = (q / c2, if q != 0.0 { c0 / q } else { 0.0 });
        Some((r1.min(r2), r1.max(r2)))
    };
    // Bhatia–Davis: σ² < (μ − min)(max − μ), between the roots.
    let Some((bd_lo, bd_hi)) = roots(quadratic(min, max)) else {
        return Vec::new();
    };
    let mut out: Vec<(f64, f64)> = Vec::new();
    for pair in scores.windows(2) {
        let lo = pair[0].max(side_lo).max(bd_lo);
        let hi = pair[1].min(side_hi).min(bd_hi);
        if lo >= hi {
            continue;
        }
        // σ² > (μ − aⱼ)(aⱼ₊₁ − μ): outside the roots.
        let pieces = match roots(quadratic(pair[0], pair[1])) {
            None => vec![(lo, hi)],
            Some((r1, r2)) => vec![(lo, hi.min(r1)), (lo.max(r2), hi)],
        };
        for (a, b) in pieces {
            if a < b {
                match out.last_mut() {
                    Some(last) if last.1 == a => last.1 = b,
                    _ => out.push((a, b)),
                }
            }
        }
    }
    out
}

/// For the mean `mu` and standard deviation `sigma`: max over λ of Σ p̂ᵢ ln(1 + λ·gᵢ),
/// gᵢ = (aᵢ − μ, (aᵢ − μ)² − σ²), with its λ. The function is concave: Newton's method from λ = 0,
/// with a backtracking line search until the Newton decrement (twice the distance to the maximum,
/// nearly) falls under 1e-8, then full steps until it stops falling. `None` when the maximum is not
/// found (the moments out of reach of distributions with full support).
fn moment_dual(scores: &[f64], phat: &[f64], mu: f64, sigma: f64) -> Option<(f64, [f64; 2])> {
    let g: Vec<[f64; 2]> = scores
        .iter()
        .map(|a| [a - mu, (a - mu).powi(2) - sigma * sigma])
        .collect();
    let value = |l: [f64; 2]| -> f64 {
        let mut v = 0.0;
        for (gi, q) in g.iter().zip(phat) {
            let d = 1.0 + l[0] * gi[0] + l[1] * gi[1];
            if d.is_nan() || d <= 0.0 {
                return f64::NEG_INFINITY;
            }
            v += q * d.ln();
        }
        v
    };
    let mut lambda = [0.0; 2];
    let mut v = 0.0;
    let mut last = f64::INFINITY;
    for _ in 0..200 {
        let (mut grad, mut h) = ([0.0; 2], [[0.0; 2]; 2]);
        for (gi, q) in g.iter().zip(phat) {
            let d = 1.0 + lambda[0] * gi[0] + lambda[1] * gi[1];
            for r in 0..2 {
                grad[r] += q * gi[r] / d;
                for c in 0..2 {
                    h[r][c] += q * gi[r] * gi[c] / (d * d);
                }
            }
        }
        // The Newton step s solves H·s = ∇, H the negated Hessian (positive definite).
        let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
        if det.is_nan() || det <= 0.0 {
            return None;
        }
        let s = [
            (h[1][1] * grad[0] - h[0][1] * grad[1]) / det,
            (h[0][0] * grad[1] - h[1][0] * grad[0]) / det,
        ];
        let decrement = grad[0] * s[0] + grad[1] * s[1];
        if !decrement.is_finite() {
            return None;
        }
        if decrement < 1e-8 {
            // Quadratic convergence: full steps, until rounding stops the progress.
            if decrement < 1e-28 || decrement >= last {
                return Some((v, lambda));
            }
            last = decrement;
            let next = [lambda[0] + s[0], lambda[1] + s[1]];
            let vn = value(next);
            if !vn.is_finite() {
                return Some((v, lambda));
            }
            (lambda, v) = (next, vn);
            continue;
        }
        let mut step = 1.0;
        loop {
            let next = [lambda[0] + step * s[0], lambda[1] + step * s[1]];
            let vn = value(next);
            if vn >= v + 1e-4 * step * decrement {
                (lambda, v) = (next, vn);
                break;
            }
            step *= 0.5;
            if step < 1e-30 {
                return None;
            }
        }
    }
    None
}

/// The minimum of `f` on (`lo`, `hi`), by golden section to the bracket's last bits.
fn golden_section_min(f: &impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..120 {
        if fc <= fd {
            hi = d;
            d = c;
            fd = fc;
            c = hi - r * (hi - lo);
            fc = f(c);
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + r * (hi - lo);
            fd = f(d);
        }
        if hi - lo <= 1e-15 * (lo.abs() + hi.abs()) {
            break;
        }
    }
    0.5 * (lo + hi)
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

    /// LLR figures from a throwaway Python oracle (not in the repository) that follows fishtest's
    /// `LLRcalc.LLR_normalized` as `stat_util` calls it (empty classes count 0.001, the MLE
    /// constrained to the bound's t-value, N·Σ p̂ᵢ ln(p₁ᵢ/p₀ᵢ)), written from reading fishtest, not
    /// copied. It finds each MLE two ways: fishtest's fixed-point iteration from the uniform
    /// distribution (section 4.1), and the maximum of the profile likelihood over the mean (for
    /// each mean, the MLE under the two moment constraints by its convex dual; a 20,000-point grid,
    /// then golden section). Where fishtest gives a figure the two agree to 1e-9. Beyond |nElo| ≈
    /// 232 on pairs fishtest's iteration cannot start (`secular`: "support straddling zero") and
    /// raises: the figures there are the profile's, confirmed by SLSQP from 300 random starts.
    const EXTREME_COUNTS: [([u64; 5], f64, f64, f64); 10] = [
        (
            [0, 0, 0, 22, 178],
            400.0,
            118.931_201_754_8,
            3.915_504_289_5,
        ),
        ([0, 0, 0, 0, 200], 400.0, 123.264_455_245_7, 4.028_749_910_8),
        (
            [200, 0, 0, 0, 0],
            400.0,
            -382.266_293_333_4,
            -4.111_576_210_6,
        ),
        (
            [0, 0, 200, 0, 0],
            400.0,
            -258.989_239_660_2,
            -0.078_240_380_9,
        ),
        (
            [10, 50, 200, 55, 12],
            400.0,
            -305.013_924_061_5,
            0.170_758_523_8,
        ),
        // fishtest's iteration still starts at 231 but misses its 1e-5 check after 10 rounds
        // (AssertionError); the arena's runs on and converges.
        (
            [10, 50, 200, 55, 12],
            231.0,
            -134.226_260_287_1,
            0.170_758_523_8,
        ),
        (
            [10, 50, 200, 55, 12],
            232.0,
            -135.264_132_613_2,
            0.170_758_523_8,
        ),
        // fishtest: 100.8104235040 at 231 (its own figure), a ValueError at 232.
        (
            [0, 0, 0, 22, 178],
            231.0,
            100.810_423_504_0,
            3.915_504_289_5,
        ),
        (
            [0, 0, 0, 22, 178],
            232.0,
            100.989_041_541_1,
            3.915_504_289_5,
        ),
        (
            [0, 0, 0, 22, 178],
            2000.0,
            128.747_919_121_4,
            3.915_504_289_5,
        ),
    ];

    #[test]
    fn normalized_llr_at_extreme_counts_and_bounds() {
        // The issue: [0, 0, 0, 22, 178] with elo1 = 400 gave LLR 0 (the iteration could not start
        // and the failure read as "no MLE"), while elo1 = 5 accepted H1. The pairs are far above
        // both bounds (nElo ≈ 1,470), so elo1 = 400 accepts H1 even more clearly.
        for (counts, elo1, llr_far, llr_5) in EXTREME_COUNTS {
            let p = Pentanomial { counts };
            let far = Sprt::new(0.0, elo1, 0.05, 0.05, SprtModel::Normalized).unwrap();
            let near = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
            let (got_far, got_5) = (far.llr(&p), near.llr(&p));
            eprintln!(
                "{counts:?}: elo1 = {elo1}: {got_far:.10} (oracle {llr_far}), \
                 elo1 = 5: {got_5:.10} (fishtest {llr_5})"
            );
            assert!(
                (got_far - llr_far).abs() < 1e-6,
                "{counts:?} elo1 = {elo1}: {got_far} against {llr_far}"
            );
            // At elo1 = 5 fishtest itself gives these figures (to 1e-10).
            assert!(
                (got_5 - llr_5).abs() < 1e-8,
                "{counts:?} elo1 = 5: {got_5} against {llr_5}"
            );
        }
        let issue = Pentanomial {
            counts: [0, 0, 0, 22, 178],
        };
        let sprt = Sprt::new(0.0, 400.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        assert_eq!(sprt.decide(&issue), SprtDecision::AcceptH1);
        // Mirrored: the same pairs from the loser's side against elo0 = −400.
        let mirrored = Sprt::new(-400.0, 0.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        assert!((mirrored.llr(&issue.reversed()) + 118.931_201_754_8).abs() < 1e-6);
        let mixed = Pentanomial {
            counts: [10, 50, 200, 55, 12],
        };
        assert!((mirrored.llr(&mixed) - 329.638_323_855_4).abs() < 1e-6);
        // The trinomial form has the same limit further out (|nElo| ≈ 340): the oracle's figures.
        let tri = Sprt::new(0.0, 400.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        for ((wins, draws, losses), llr) in [
            ((95, 0, 5), 46.401_192_527_0),
            ((5, 0, 95), -130.794_365_187_2),
            ((20, 60, 20), -52.792_010_985_9),
        ] {
            let got = tri.llr_wdl(&Wdl {
                wins,
                draws,
                losses,
            });
            assert!(
                (got - llr).abs() < 1e-6,
                "W/D/L {wins}/{draws}/{losses}: {got} against {llr}"
            );
        }
    }

    /// The empty classes of `counts` regularized as fishtest does, as a distribution, and the
    /// count.
    fn regularized(counts: &[u64]) -> (Vec<f64>, f64) {
        let r: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZATION } else { c as f64 })
            .collect();
        let total: f64 = r.iter().sum();
        (r.iter().map(|c| c / total).collect(), total)
    }

    #[test]
    fn profile_mle_agrees_with_the_fixed_point_where_both_work() {
        // Where fishtest's iteration settles, the profile likelihood's maximum is the same
        // distribution: the fallback is the same statistic, not another.
        let pair_t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
        let game_t = |nelo: f64| nelo / NELO_PER_T;
        let cases: [(&[u64], &[f64], f64); 9] = [
            (&[39, 2226, 31451, 2412, 40], &PAIR_SCORES, pair_t(0.764)),
            (&[39, 2226, 31451, 2412, 40], &PAIR_SCORES, pair_t(3.439)),
            (&[10, 50, 200, 55, 12], &PAIR_SCORES, pair_t(5.0)),
            (&[10, 50, 200, 55, 12], &PAIR_SCORES, pair_t(-100.0)),
            (&[10, 50, 200, 55, 12], &PAIR_SCORES, pair_t(231.0)),
            (&[0, 0, 0, 22, 178], &PAIR_SCORES, pair_t(5.0)),
            (&[0, 0, 0, 22, 178], &PAIR_SCORES, pair_t(231.0)),
            (&[5100, 10000, 5000], &[0.0, 0.5, 1.0], game_t(-3.0)),
            (&[5, 0, 95], &[0.0, 0.5, 1.0], game_t(300.0)),
        ];
        for (counts, scores, t) in cases {
            let (phat, n) = regularized(counts);
            let fixed = t_value_fixed_point(scores, &phat, 0.5, t).unwrap();
            let profile = t_value_profile(scores, &phat, 0.5, t).unwrap();
            let loglik = |p: &[f64]| n * phat.iter().zip(p).map(|(q, x)| q * x.ln()).sum::<f64>();
            let apart = fixed
                .iter()
                .zip(&profile)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            eprintln!(
                "{counts:?} t = {t}: log-likelihoods {} and {}, apart {apart:e}",
                loglik(&fixed),
                loglik(&profile)
            );
            assert!(
                apart < 1e-6,
                "{counts:?} t = {t}: {fixed:?} against {profile:?}"
            );
            assert!(
                (loglik(&fixed) - loglik(&profile)).abs() < 1e-8,
                "{counts:?} t = {t}"
            );
            let (mu, sigma) = mean_sd(scores, &profile);
            assert!(((mu - 0.5) / sigma - t).abs() < 1e-9);
        }
        // t = 0 is the mean alone (fishtest's `MLE_expected` at ½).
        let (phat, _) = regularized(&[10, 50, 200, 55, 12]);
        let half = mle_expected(&PAIR_SCORES, &phat, 0.5).unwrap();
        assert_eq!(
            t_value_profile(&PAIR_SCORES, &phat, 0.5, 0.0).unwrap(),
            half
        );
    }

    #[test]
    fn a_local_maximum_of_fishtests_iteration_gives_way_to_the_constrained_maximum() {
        // Rarely, on few pairs and a far bound on the data's other side, fishtest's iteration
        // settles on a local maximum of the likelihood. 20 pairs, H0 at −216.7 nElo: fishtest's
        // `LLR_normalized(-216.7, 0, [0, 2, 13, 2, 3])` is 13.007788058588458; with the global
        // maximum under H0 (the oracle's profile likelihood and SLSQP) it is 12.2833912634.
        let sprt = Sprt::new(-216.7, 0.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let llr = sprt.llr_detail(&Pentanomial {
            counts: [0, 2, 13, 2, 3],
        });
        assert!((llr.value - 12.283_391_263_4).abs() < 1e-6, "{llr:?}");
        // (1.9e-8 apart: fishtest stops its rounds at 1e-9, the arena at 1e-12.)
        let fishtest = llr.fishtest.expect("fishtest's figure differs");
        assert!((fishtest - 13.007_788_058_588).abs() < 1e-7, "{llr:?}");
    }

    /// The red team's case: 36,168 pairs and a far bound, where fishtest's iteration settles on a
    /// local maximum and the decision is the same but the figure 3,700 apart. The constrained maxima
    /// from the issue (the brute-force profile); fishtest's `LLR_normalized` figures alongside.
    #[test]
    fn many_pairs_and_a_far_bound_give_the_constrained_maximum_and_name_fishtests_figure() {
        let p = Pentanomial {
            counts: [39, 2226, 31451, 2412, 40],
        };
        for (elo0, elo1, value, fishtest) in [
            (0.0, 231.0, -17_328.28, -21_000.48),
            (-216.7, 0.0, 16_221.32, 19_347.59),
        ] {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05, SprtModel::Normalized).unwrap();
            let llr = sprt.llr_detail(&p);
            assert!(
                (llr.value - value).abs() < 0.01,
                "[{elo0}, {elo1}]: {llr:?}"
            );
            let f = llr.fishtest.expect("fishtest's figure differs");
            assert!((f - fishtest).abs() < 0.01, "[{elo0}, {elo1}]: {llr:?}");
            assert!(llr.note().unwrap().contains(&format!("{fishtest:.2}")));
        }
        // One Elo further the iteration cannot start, and the profile gives −17456.00 (the issue's
        // figure at 232): 128 below the constrained maximum at 231, where fishtest's figure was
        // 3,544 below it.
        let next = Sprt::new(0.0, 232.0, 0.05, 0.05, SprtModel::Normalized)
            .unwrap()
            .llr_detail(&p);
        assert_eq!(next.fishtest, None, "{next:?}");
        assert!((next.value - -17_456.00).abs() < 0.01, "{next:?}");
    }

    #[test]
    fn constrained_mles_meet_their_constraints() {
        let phat = [0.1, 0.2, 0.35, 0.2, 0.15];
        let p = mle_expected(&PAIR_SCORES, &phat, 0.53).unwrap();
        let mean: f64 = PAIR_SCORES.iter().zip(&p).map(|(a, q)| a * q).sum();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((mean - 0.53).abs() < 1e-12);
        let p = mle_t_value(&PAIR_SCORES, &phat, 0.5, 0.07).0.unwrap();
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
