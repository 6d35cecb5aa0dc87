//! Pentanomial figures: game pairs (the same opening played twice, sides swapped) as the unit of
//! observation, which removes the opening's bias from the variance (fishtest, fastchess).
//!
//! - **Counts** `[LL, LD, WL+DD, WD, WW]`: pairs by the bot's total points in the pair, 0, ½, 1, 1½, 2.
//! - **Elo ± error95**: as for games (see [`super::elo`]) with the mean per-game score s of the pairs
//!   and σ² the variance of the pair's mean score (pair points / 2), over N pairs (fastchess
//!   `EloPentanomial`). fishtest's `stat_util.get_elo` gives the same figures when every class holds a
//!   pair; with an empty class it differs a little, since it counts that class as 0.001 pairs first
//!   (`LLRcalc.regularize`): the arena follows fastchess (the test
//!   `elo_over_pairs_follows_fastchess_not_fishtests_regularization` measures the difference).
//! - **nElo ± error95**: (s − ½)/√(2σ²) · 800/ln 10 — √(2σ²) is the per-game standard deviation
//!   implied by the pairs — with fishtest's error, which counts the uncertainty of σ too (fishtest
//!   `elo_results.mak`; see [`super::elo`]'s module docs).
//! - **LOS**: Φ((s − ½)/√(σ²/N)) (fastchess `EloPentanomial::los`).

use super::elo::{EloEstimate, Sample};

/// Per-game mean score of each pentanomial class.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game pairs counted by the first-named bot's points in the pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `[LL, LD, WL+DD, WD, WW]`: pairs where the bot scored 0, ½, 1, 1½, 2 points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts one pair; `a` and `b` are the bot's points (0, ½ or 1) in its two games, in either order.
    ///
    /// # Panics
    /// If `a` or `b` is none of 0, 0.5, 1.
    pub fn add_pair(&mut self, a: f64, b: f64) {
        for p in [a, b] {
            assert!(
                p == 0.0 || p == 0.5 || p == 1.0,
                "Pentanomial::add_pair: {p} points is not a game result"
            );
        }
        // a + b ∈ {0, ½, 1, 1½, 2}: exact in binary.
        self.counts[((a + b) * 2.0) as usize] += 1;
    }

    /// The same pairs from the opponent's side.
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean points per game over all pairs, in [0, 1]; ½ with no pairs.
    pub fn score(&self) -> f64 {
        self.sample().map_or(0.5, |s| s.mean)
    }

    /// Likelihood of superiority, Φ((s − ½)/√(σ²/N)) over N pairs, in [0, 1] (fastchess
    /// `EloPentanomial::los`). 1 (0) when every pair scored the same above (below) ½. `None` with no
    /// pairs, and when every pair scored ½ (`[0, 0, N, 0, 0]`): the variance is 0 at ½, so the LOS
    /// cannot be estimated (fastchess prints NaN).
    pub fn los(&self) -> Option<f64> {
        self.sample()?.los()
    }

    /// Elo difference ± its 95% error from the pairs (fastchess `EloPentanomial`).
    ///
    /// `None` with no pairs, or when the score is 0 or 1.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.sample()?.elo()
    }

    /// Normalized Elo ± its 95% error: (s − ½)/√(2σ²) · 800/ln 10 with σ² the variance of a pair's
    /// mean score, as fishtest computes it (`elo_results.mak`: empty classes count 0.001, and the
    /// error counts the uncertainty of σ; see [`super::elo`]).
    ///
    /// `None` with no pairs or when σ = 0 (every pair in one class).
    pub fn normalized_elo(&self) -> Option<EloEstimate> {
        super::elo::normalized_elo_fishtest(&self.counts)
    }

    fn sample(&self) -> Option<Sample> {
        Sample::new(&PAIR_SCORES, &self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn fastchess_pentanomial_example() {
        // The example: [34, 54, 63, 64, 75] → +55.58 ± 27.65.
        let p = Pentanomial {
            counts: [34, 54, 63, 64, 75],
        };
        let e = p.elo().unwrap();
        let err = e.error95.unwrap();
        assert_eq!((round2(e.elo), round2(err)), (55.58, 27.65));
        assert!((e.elo - 55.579_780_420_445_88).abs() < 1e-9);
        assert!((err - 27.653_429_506_393_45).abs() < 1e-9);
        assert_eq!(p.pairs(), 290);
        assert!((p.los().unwrap() - 0.999_970_393_008_431).abs() < 1e-12);
        // fishtest's nElo (the Python in `stats::elo`'s test `fishtest_normalized_elo`):
        // 57.9355999381 ± 29.2328784583.
        let n = p.normalized_elo().unwrap();
        assert!((n.elo - 57.935_599_938_1).abs() < 1e-8, "{n:?}");
        assert!(
            (n.error95.unwrap() - 29.232_878_458_3).abs() < 1e-8,
            "{n:?}"
        );
    }

    #[test]
    fn add_pair_classes() {
        let mut p = Pentanomial::default();
        for (a, b) in [
            (0.0, 0.0),
            (0.5, 0.0),
            (0.0, 0.5),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.0, 1.0),
        ] {
            p.add_pair(a, b);
        }
        p.add_pair(1.0, 0.5);
        p.add_pair(1.0, 1.0);
        assert_eq!(p.counts, [1, 2, 3, 1, 1]);
        assert_eq!(p.reversed().counts, [1, 1, 3, 2, 1]);
        assert!((p.los().unwrap() + p.reversed().los().unwrap() - 1.0).abs() < 1e-15);
    }

    #[test]
    #[should_panic(expected = "not a game result")]
    fn add_pair_rejects_non_results() {
        Pentanomial::default().add_pair(0.25, 1.0);
    }

    #[test]
    fn degenerate_pairs_are_guarded() {
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(Pentanomial::default().los(), None);
        let all_ww = Pentanomial {
            counts: [0, 0, 0, 0, 4],
        };
        assert_eq!(all_ww.elo(), None);
        assert_eq!(all_ww.normalized_elo(), None);
        assert_eq!(all_ww.los(), Some(1.0));
        let even = Pentanomial {
            counts: [0, 0, 8, 0, 0],
        };
        assert_eq!(even.elo().unwrap().elo, 0.0);
        assert_eq!(even.elo().unwrap().error95, None);
        assert_eq!(even.normalized_elo(), None);
        assert_eq!(even.los(), None, "every pair scored ½: no variance at ½");
    }

    /// fishtest's Elo ± error over game pairs, written out here as its `stat_util.get_elo` computes it
    /// on pentanomial results: empty classes count 0.001 (`LLRcalc.regularize`), then `stats`
    /// (games = 2·pairs, per-game mean μ and variance σ²), the interval μ ± 1.959964·σ/√games, and Elo
    /// of a score clamped to [0.001, 0.999].
    fn fishtest_elo(counts: [u64; 5]) -> (f64, f64) {
        let r: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let games = r.iter().sum::<f64>() * 2.0;
        let mu = r
            .iter()
            .enumerate()
            .map(|(i, c)| c * i as f64 / 2.0)
            .sum::<f64>()
            / games;
        let var = r
            .iter()
            .enumerate()
            .map(|(i, c)| c * (i as f64 / 2.0 - 2.0 * mu).powi(2))
            .sum::<f64>()
            / games;
        let elo = |x: f64| -400.0 * (1.0 / x.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
        let half = 1.959_963_984_540_054 * var.sqrt() / games.sqrt();
        (elo(mu), (elo(mu + half) - elo(mu - half)) / 2.0)
    }

    #[test]
    fn elo_over_pairs_follows_fastchess_not_fishtests_regularization() {
        // With every class occupied the two agree.
        let full = Pentanomial {
            counts: [34, 54, 63, 64, 75],
        };
        let (elo, error) = fishtest_elo(full.counts);
        let e = full.elo().unwrap();
        assert!((e.elo - elo).abs() < 1e-9 && (e.error95.unwrap() - error).abs() < 1e-9);
        // With an empty class they differ: fishtest counts it 0.001 pairs before the mean and the
        // variance, the arena (like fastchess) does not. The cases of 15 game pairs below, then the
        // largest difference over every result of 15 pairs with an empty class whose Elo and error the
        // arena gives finite. (`cargo test -p arena --lib elo_over_pairs -- --nocapture` prints them.)
        let mut report = Vec::new();
        for counts in [
            [0, 1, 3, 5, 6],
            [0, 0, 2, 5, 8],
            [0, 0, 1, 3, 11],
            [2, 3, 5, 5, 0],
        ] {
            let e = Pentanomial { counts }.elo().unwrap();
            let (elo, error) = fishtest_elo(counts);
            eprintln!(
                "{counts:?}: arena {:+.2} ± {:.2}, fishtest {elo:+.2} ± {error:.2}",
                e.elo,
                e.error95.unwrap()
            );
            report.push((e.elo - elo, e.error95.unwrap() - error));
        }
        let (mut most_elo, mut most_error) = (([0; 5], 0.0f64), ([0; 5], 0.0f64));
        let mut cases = 0;
        for a in 0..=15u64 {
            for b in 0..=15 - a {
                for c in 0..=15 - a - b {
                    for d in 0..=15 - a - b - c {
                        let counts = [a, b, c, d, 15 - a - b - c - d];
                        if !counts.contains(&0) {
                            continue;
                        }
                        let Some(EloEstimate {
                            elo,
                            error95: Some(error),
                        }) = Pentanomial { counts }.elo()
                        else {
                            continue;
                        };
                        if !error.is_finite() {
                            continue;
                        }
                        cases += 1;
                        let (f_elo, f_error) = fishtest_elo(counts);
                        if (elo - f_elo).abs() > most_elo.1.abs() {
                            most_elo = (counts, elo - f_elo);
                        }
                        if (error - f_error).abs() > most_error.1.abs() {
                            most_error = (counts, error - f_error);
                        }
                    }
                }
            }
        }
        eprintln!(
            "{cases} results of 15 pairs with an empty class: the Elo differs by at most {:.2} ({:?}), \
             the error by at most {:.2} ({:?})",
            most_elo.1.abs(),
            most_elo.0,
            most_error.1.abs(),
            most_error.0
        );
        let rounded: Vec<(f64, f64)> = report
            .iter()
            .map(|&(a, b)| (round2(a), round2(b)))
            .collect();
        assert_eq!(
            rounded,
            [(0.05, -0.02), (0.13, -0.08), (0.24, -0.49), (-0.02, -0.01)],
            "{report:?}"
        );
        assert_eq!(cases, 2792);
        assert_eq!((most_elo.0, round2(most_elo.1)), ([11, 4, 0, 0, 0], -0.38));
        assert_eq!(
            (most_error.0, round2(most_error.1)),
            ([1, 0, 0, 4, 10], 1.09)
        );
    }
}
