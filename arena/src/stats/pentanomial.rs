//! Pentanomial figures: game pairs (the same opening played twice, sides swapped) as the unit of
//! observation, which removes the opening's bias from the variance (fishtest, fastchess).
//!
//! - **Counts** `[LL, LD, WL+DD, WD, WW]`: pairs by the bot's total points in the pair, 0, ½, 1, 1½, 2.
//! - **Elo ± error95**: as for games (see [`super::elo`]) with the mean per-game score s of the pairs
//!   and σ² the variance of the pair's mean score (pair points / 2), over N pairs (fastchess
//!   `EloPentanomial`, fishtest `stat_util.get_elo` on pentanomial results).
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
    /// `EloPentanomial::los`). ½ with no pairs; 1 (0) when every pair scored the same above (below) ½.
    pub fn los(&self) -> f64 {
        self.sample().map_or(0.5, |s| s.los())
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
        assert!((p.los() - 0.999_970_393_008_431).abs() < 1e-12);
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
        assert!((p.los() + p.reversed().los() - 1.0).abs() < 1e-15);
    }

    #[test]
    #[should_panic(expected = "not a game result")]
    fn add_pair_rejects_non_results() {
        Pentanomial::default().add_pair(0.25, 1.0);
    }

    #[test]
    fn degenerate_pairs_are_guarded() {
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(Pentanomial::default().los(), 0.5);
        let all_ww = Pentanomial {
            counts: [0, 0, 0, 0, 4],
        };
        assert_eq!(all_ww.elo(), None);
        assert_eq!(all_ww.normalized_elo(), None);
        assert_eq!(all_ww.los(), 1.0);
        let even = Pentanomial {
            counts: [0, 0, 8, 0, 0],
        };
        assert_eq!(even.elo().unwrap().elo, 0.0);
        assert_eq!(even.elo().unwrap().error95, None);
        assert_eq!(even.normalized_elo(), None);
    }
}
