//! Trinomial figures: one bot's wins, draws and losses against another, read as independent games.
//!
//! - **Elo ± error95**: the logistic Elo difference of the mean score s, elo(s) = −400·log₁₀(1/s − 1),
//!   and half the width of the image of the 95% normal interval s ± 1.959964·√(σ²/N), where σ² is the
//!   per-game variance of the score (fastchess `EloWDL`).
//! - **nElo ± error95**: normalized Elo, t · 800/ln 10 with t = (s − ½)/σ (Van den Bergh, "Comments on
//!   Normalized Elo"): the score's distance from even in per-game standard deviations, scaled so that
//!   nElo ≈ Elo at a draw ratio of 0. As fishtest computes it (`LLRcalc.results_to_pdf`, `stats_ex`
//!   and `t_conf` in its `tests_stats.mak`): empty classes count 0.001 (`LLRcalc.regularize`), and the
//!   error is 1.959964 · 800/ln 10 · √(Var(t)/N) with Var(t) = 1 − t·skewness + ¼t²(excess kurtosis + 2),
//!   the delta-method variance of t that counts the uncertainty of σ too. (fastchess's error,
//!   1.959964·800/ln 10/√N, leaves that out and is far too small when the scores are one-sided.)
//! - **LOS** (likelihood of superiority): Φ((s − ½)/√(σ²/N)), the normal approximation of the
//!   probability that the bot is the stronger (fastchess `EloWDL::los`); [`los`] is cutechess's
//!   draw-free variant from wins and losses alone.
//! - **Draw ratio**: draws / games.

use super::normal::{erf, Z95};

/// 800/ln 10 ≈ 347.4: the nElo per unit of t = (s − ½)/σ (fishtest `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The logistic Elo difference of a mean score in [0, 1]: −400·log₁₀(1/s − 1).
///
/// −∞ at 0, +∞ at 1, NaN outside [0, 1].
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference: 1 / (1 + 10^(−elo/400)), in (0, 1).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Likelihood of superiority from wins and losses alone (draws ignored), in [0, 1]:
/// ½·(1 + erf((w − l)/√(2(w + l)))) (cutechess `EloCalculator::LOS`). ½ when w + l = 0.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    let (w, l) = (wins as f64, losses as f64);
    0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
}

/// Wins, draws and losses of one bot against another (or against the field).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// An Elo difference and the half-width of its 95% interval, both in Elo units: `elo ± error95`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Half the width of the 95% interval; +∞ when the score interval reaches 0 or 1 (very few games);
    /// `None` when it cannot be estimated: every observation had the same result, so the sample's
    /// variance is 0 (one pair, or all draws), which says nothing about the true variance.
    pub error95: Option<f64>,
}

/// `x` with `decimals` decimals and a sign, except that a value that rounds to zero prints as plain
/// `0.00` (never `-0.00` or `+0.00`). ±∞ print as `+∞` and `-∞`, NaN as `n/a`.
pub fn signed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return "n/a".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "+∞" } else { "-∞" }.to_string();
    }
    let text = format!("{:.*}", decimals, x.abs());
    if text.bytes().all(|b| b == b'0' || b == b'.') {
        text
    } else if x < 0.0 {
        format!("-{text}")
    } else {
        format!("+{text}")
    }
}

impl std::fmt::Display for EloEstimate {
    /// `+40.70 ± 30.43`, `+12.00 ± ∞`, or `0.00 (error cannot be estimated: every result the same)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.error95 {
            Some(e) if e.is_finite() => write!(f, "{} ± {e:.2}", signed(self.elo, 2)),
            Some(_) => write!(f, "{} ± ∞", signed(self.elo, 2)),
            None => write!(
                f,
                "{} (error cannot be estimated: every result the same)",
                signed(self.elo, 2)
            ),
        }
    }
}

impl Wdl {
    /// Adds one game from the bot's side: `points` 1 (win), ½ (draw) or 0 (loss).
    ///
    /// # Panics
    /// If `points` is none of 0, 0.5, 1.
    pub fn add(&mut self, points: f64) {
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.5 {
            self.draws += 1;
        } else if points == 0.0 {
            self.losses += 1;
        } else {
            panic!("Wdl::add: {points} points is not a game result");
        }
    }

    /// The same games from the opponent's side.
    pub fn reversed(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Games played: wins + draws + losses.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean points per game, (w + d/2)/n in [0, 1]; ½ with no games.
    pub fn score(&self) -> f64 {
        self.sample().map_or(0.5, |s| s.mean)
    }

    /// Draws / games in [0, 1]; 0 with no games.
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.draws as f64 / self.games() as f64
        }
    }

    /// Likelihood of superiority with draws, Φ((s − ½)/√(σ²/N)) in [0, 1] (fastchess `EloWDL::los`).
    ///
    /// 1 (0) when every game was won (lost). `None` with no games, and when every game was drawn:
    /// the variance is 0 at a score of ½, so the LOS cannot be estimated (fastchess prints NaN).
    pub fn los(&self) -> Option<f64> {
        self.sample()?.los()
    }

    /// Elo difference ± its 95% error (fastchess `EloWDL`; see the module docs).
    ///
    /// `None` with no games, or when the score is 0 or 1 (every game lost or won: the estimate is ∓∞).
    pub fn elo(&self) -> Option<EloEstimate> {
        self.sample()?.elo()
    }

    /// Normalized Elo ± its 95% error: t·800/ln 10, t = (s − ½)/σ with σ the per-game standard
    /// deviation, and fishtest's error (see the module docs; fishtest `tests_stats.mak`, `nelo3`).
    ///
    /// `None` with no games or when σ = 0 (every game the same result).
    pub fn normalized_elo(&self) -> Option<EloEstimate> {
        normalized_elo_fishtest(&[self.losses, self.draws, self.wins])
    }

    fn sample(&self) -> Option<Sample> {
        Sample::new(&[0.0, 0.5, 1.0], &[self.losses, self.draws, self.wins])
    }
}

/// The empirical distribution of per-game scores (of one game, or the mean of a game pair).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    /// Number of observations (games or pairs).
    pub n: f64,
    /// Mean score in [0, 1].
    pub mean: f64,
    /// Variance of one observation (not of the mean).
    pub var: f64,
}

impl Sample {
    /// `None` when every count is 0.
    pub fn new(values: &[f64], counts: &[u64]) -> Option<Sample> {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean = values
            .iter()
            .zip(counts)
            .map(|(a, &c)| a * c as f64)
            .sum::<f64>()
            / n;
        let var = values
            .iter()
            .zip(counts)
            .map(|(a, &c)| c as f64 * (a - mean).powi(2))
            .sum::<f64>()
            / n;
        Some(Sample { n, mean, var })
    }

    /// Standard error of the mean.
    fn se(&self) -> f64 {
        (self.var / self.n).sqrt()
    }

    /// `None` when the mean is 0 or 1; the bounds of the score interval are clamped to [0, 1], so the
    /// error is +∞ when one reaches them.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.mean <= 0.0 || self.mean >= 1.0 {
            return None;
        }
        let lower = (self.mean - Z95 * self.se()).clamp(0.0, 1.0);
        let upper = (self.mean + Z95 * self.se()).clamp(0.0, 1.0);
        Some(EloEstimate {
            elo: elo_from_score(self.mean),
            error95: (self.var > 0.0)
                .then(|| (elo_from_score(upper) - elo_from_score(lower)) / 2.0),
        })
    }

    /// Likelihood of superiority, Φ((mean − ½)/se). With no variance: 1 (0) above (below) ½, and
    /// `None` at ½ (0/0: it cannot be estimated).
    pub fn los(&self) -> Option<f64> {
        if self.var == 0.0 {
            return match self.mean {
                m if m > 0.5 => Some(1.0),
                m if m < 0.5 => Some(0.0),
                _ => None,
            };
        }
        Some(0.5 * (1.0 + erf((self.mean - 0.5) / (2.0 * self.se() * self.se()).sqrt())))
    }
}

/// Normalized Elo ± 95% error of trinomial `[L, D, W]` or pentanomial `[LL, LD, WL+DD, WD, WW]`
/// counts, exactly as fishtest computes it (`elo_results.mak` for pairs, `tests_stats.mak` for games):
/// empty classes count 0.001, t = (μ − ½)/σ over the regularized distribution,
/// Var(t) = 1 − t·skewness + ¼t²(excess kurtosis + 2) (floored at 0), nElo = c·t and
/// error = c·1.959964·√(Var(t)/N), with
/// c = 800/ln 10 for games and 800/ln 10/√2 for pairs (a pair's mean score has half a game's variance).
///
/// `None` with no observations or when every observation fell in one class (variance 0: neither t
/// nor its error can be estimated).
pub(crate) fn normalized_elo_fishtest(counts: &[u64]) -> Option<EloEstimate> {
    let classes = counts.len();
    if counts.iter().filter(|&&c| c > 0).count() < 2 {
        return None;
    }
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = regularized.iter().sum();
    let value = |i: usize| i as f64 / (classes - 1) as f64;
    let moment = |k: i32, mean: f64| {
        regularized
            .iter()
            .enumerate()
            .map(|(i, c)| c / n * (value(i) - mean).powi(k))
            .sum::<f64>()
    };
    let mean = moment(1, 0.0);
    let var = moment(2, mean);
    let skewness = moment(3, mean) / var.powf(1.5);
    let excess_kurtosis = moment(4, mean) / (var * var) - 3.0;
    let t = (mean - 0.5) / var.sqrt();
    let var_t = (1.0 - t * skewness + 0.25 * t * t * (excess_kurtosis + 2.0)).max(0.0);
    let c = if classes == 5 {
        NELO_PER_T / std::f64::consts::SQRT_2
    } else {
        NELO_PER_T
    };
    Some(EloEstimate {
        elo: c * t,
        error95: Some(c * Z95 * (var_t / n).sqrt()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn fastchess_trinomial_example() {
        // The issue's example: W/L/D = 136/96/111 → +40.70 ± 30.43, LOS 99.60%.
        let wdl = Wdl {
            wins: 136,
            draws: 111,
            losses: 96,
        };
        let e = wdl.elo().unwrap();
        let err = e.error95.unwrap();
        assert_eq!((round2(e.elo), round2(err)), (40.70, 30.43));
        assert_eq!(e.to_string(), "+40.70 ± 30.43");
        assert_eq!(round2(wdl.los().unwrap() * 100.0), 99.60);
        assert!((e.elo - 40.702_458_186_527).abs() < 1e-9);
        assert!((err - 30.427_217_943_601).abs() < 1e-9);
        assert_eq!(wdl.games(), 343);
        assert!((wdl.score() - 191.5 / 343.0).abs() < 1e-15);
        assert!((wdl.draw_ratio() - 111.0 / 343.0).abs() < 1e-15);
        // cutechess's draw-free LOS differs a little.
        assert!((los(136, 96) - 0.995_681_891_619_840).abs() < 1e-12);
        // nElo as fishtest's tests_stats.mak computes it (the Python of `fishtest_normalized_elo` below):
        // 49.7684153810 ± 37.3845114016.
        let n = wdl.normalized_elo().unwrap();
        assert!((n.elo - 49.768_415_381_0).abs() < 1e-8, "{n:?}");
        assert!(
            (n.error95.unwrap() - 37.384_511_401_6).abs() < 1e-8,
            "{n:?}"
        );
    }

    #[test]
    fn elo_and_score_round_trip() {
        for elo in [-800.0, -200.0, -1.0, 0.0, 0.5, 40.0, 350.0, 1200.0] {
            assert!(
                (elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9,
                "{elo}"
            );
        }
        for s in [0.001, 0.1, 0.5, 0.76, 0.999] {
            assert!((score_from_elo(elo_from_score(s)) - s).abs() < 1e-14, "{s}");
        }
        assert_eq!(score_from_elo(0.0), 0.5);
        assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-15);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn los_is_symmetric_and_monotone() {
        assert_eq!(los(0, 0), 0.5);
        assert_eq!(los(7, 7), 0.5);
        for (w, l) in [(1, 0), (10, 3), (136, 96), (500, 480)] {
            assert!((los(w, l) + los(l, w) - 1.0).abs() < 1e-15);
            assert!(los(w, l) > 0.5 && los(w + 1, l) > los(w, l));
            let wdl = Wdl {
                wins: w,
                draws: 20,
                losses: l,
            };
            assert!((wdl.los().unwrap() + wdl.reversed().los().unwrap() - 1.0).abs() < 1e-15);
        }
        let even = Wdl {
            wins: 30,
            draws: 5,
            losses: 30,
        };
        assert_eq!(even.los(), Some(0.5));
        assert_eq!(even.elo().unwrap().elo, 0.0);
    }

    #[test]
    fn degenerate_records_are_guarded() {
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(Wdl::default().normalized_elo(), None);
        assert_eq!(Wdl::default().score(), 0.5);
        assert_eq!(Wdl::default().los(), None);
        let all_wins = Wdl {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all_wins.elo(), None);
        assert_eq!(all_wins.normalized_elo(), None);
        assert_eq!(all_wins.los(), Some(1.0));
        assert_eq!(all_wins.reversed().los(), Some(0.0));
        let all_draws = Wdl {
            wins: 0,
            draws: 9,
            losses: 0,
        };
        // Zero variance: no error estimate, and no `± 0.00`.
        assert_eq!(
            all_draws.elo(),
            Some(EloEstimate {
                elo: 0.0,
                error95: None
            })
        );
        assert_eq!(
            all_draws.elo().unwrap().to_string(),
            "0.00 (error cannot be estimated: every result the same)"
        );
        assert_eq!(all_draws.normalized_elo(), None);
        assert_eq!(all_draws.los(), None, "every game drawn: no variance at ½");
        // The 95% score interval passes 1: the error is unbounded, not NaN.
        let few = Wdl {
            wins: 1,
            draws: 1,
            losses: 0,
        };
        assert_eq!(few.elo().unwrap().error95, Some(f64::INFINITY));
        assert_eq!(few.elo().unwrap().to_string(), "+190.85 ± ∞");
    }

    #[test]
    fn negative_zero_prints_as_zero() {
        assert_eq!(signed(-0.0, 2), "0.00");
        assert_eq!(signed(-0.004, 2), "0.00");
        assert_eq!(signed(0.0, 1), "0.0");
        assert_eq!(signed(-0.006, 2), "-0.01");
        assert_eq!(signed(40.702, 2), "+40.70");
        assert_eq!(signed(f64::NEG_INFINITY, 2), "-∞");
        let even = Wdl {
            wins: 3,
            draws: 4,
            losses: 3,
        };
        assert!(even.elo().unwrap().to_string().starts_with("0.00 ± "));
    }

    /// Values from this Python transcription of fishtest's formulas (`LLRcalc.regularize`,
    /// `results_to_pdf`, `stats_ex`, and `t_conf` with `nelo5_coeff` in `elo_results.mak` /
    /// `nelo_divided_by_nt` in `tests_stats.mak`), run with CPython 3:
    ///
    /// ```text
    /// z975 = 1.959963984540054
    /// def pdf(r): r = [x or 1e-3 for x in r]; N = sum(r); return N, [(i/(len(r)-1), x/N) for i, x in enumerate(r)]
    /// def nelo(r):
    ///     c = 800/math.log(10) / (2**0.5 if len(r) == 5 else 1); N, p = pdf(r)
    ///     s = sum(q*v for v, q in p); var = sum(q*(v-s)**2 for v, q in p)
    ///     sk = sum(q*(v-s)**3 for v, q in p)/var**1.5; ek = sum(q*(v-s)**4 for v, q in p)/var**2 - 3
    ///     t = (s-0.5)/var**0.5; vt = max(1 - t*sk + 0.25*t*t*(ek+2), 0)
    ///     return c*t, c*z975*(vt/N)**0.5
    /// ```
    #[test]
    fn fishtest_normalized_elo() {
        let cases: [(&[u64], f64, f64); 4] = [
            (&[96, 111, 136], 49.768_415_381_0, 37.384_511_401_6),
            (&[0, 2, 7], 649.204_402_519_1, 511.688_058_333_8),
            (&[34, 54, 63, 64, 75], 57.935_599_938_1, 29.232_878_458_3),
            // One-sided pairs: fastchess's error would be 152.27, fishtest's is 745.86.
            (&[0, 0, 0, 2, 8], 1_096.475_838_953_9, 745.858_689_248_6),
        ];
        for (counts, elo, error) in cases {
            let n = normalized_elo_fishtest(counts).unwrap();
            assert!((n.elo - elo).abs() < 1e-8, "{counts:?}: {n:?}");
            assert!(
                (n.error95.unwrap() - error).abs() < 1e-8,
                "{counts:?}: {n:?}"
            );
        }
        assert_eq!(normalized_elo_fishtest(&[0, 0, 5, 0, 0]), None);
        assert_eq!(normalized_elo_fishtest(&[0, 0, 0]), None);
    }

    #[test]
    fn add_counts_points() {
        let mut wdl = Wdl::default();
        for p in [1.0, 0.5, 0.0, 1.0] {
            wdl.add(p);
        }
        assert_eq!(
            wdl,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
    }
}
