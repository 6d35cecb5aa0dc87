//! Ratings of many bots from all their games: Bradley–Terry (logistic Elo) maximum likelihood with
//! a first-move advantage, parametric-bootstrap 95% intervals and a LOS matrix (after Ordo and
//! BayesElo).
//!
//! - **Rating** rᵢ (Elo): maximizes Σ_games s·ln P + (1 − s)·ln(1 − P), where s is the first mover's
//!   points (a draw counts as half a win and half a loss) and P = 1/(1 + 10^(−(r_first + adv − r_second)/400)).
//!   Only differences are identified; the scale is shifted so that the mean rating is 0
//!   ([`Anchor::Mean`]) or one bot's is 0 ([`Anchor::Bot`]).
//! - **First-move advantage** `adv` (Elo): fitted jointly; positive when moving first helps.
//! - **Prior**: each bot plays [`PRIOR_DRAWS`] virtual draw(s) against a phantom of raw rating 0, and
//!   `adv` one virtual drawn game between equals, so a bot that won (or lost) every game, or a game
//!   where the first mover always won, still gets a finite rating (the virtual-draw prior of BayesElo;
//!   Ordo instead caps such ratings). Its weight is that of one game among hundreds or thousands.
//! - **Fitting**: Newton's method on the (strictly concave, thanks to the prior) penalized
//!   log-likelihood, with step halving whenever a full step would not increase it, from all zeros,
//!   until no parameter moves by more than [`TOLERANCE`] Elo.
//! - **95% interval**: parametric bootstrap (Ordo's method): every game is played again from the fitted
//!   model — win, draw, loss with probabilities w, d, l where d is the observed overall draw ratio
//!   (capped at 2·min(P, 1 − P)) and w + d/2 = P — the model refitted, and the 2.5th and 97.5th
//!   percentiles (linear interpolation between order statistics) taken of each bot's anchored rating.
//! - **LOS matrix**: `los[i][j]` is the fraction of bootstrap samples in which bot i rated above
//!   bot j, a tie counting ½; ½ on the diagonal.

use std::f64::consts::LN_10;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Natural-log units per Elo point: P = σ(K·Δelo) with σ the logistic function.
const K: f64 = LN_10 / 400.0;

/// Virtual draws of each bot against a phantom of raw rating 0 (and of the first-move term): the prior.
pub const PRIOR_DRAWS: f64 = 1.0;

/// Convergence: the fit stops when no parameter's Newton step exceeds this many Elo.
pub const TOLERANCE: f64 = 1e-7;

const MAX_ITERATIONS: usize = 200;

/// One game for the ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// Index of the bot that moved first.
    pub first: usize,
    /// Index of the bot that moved second.
    pub second: usize,
    /// The first mover's points: 1, ½ or 0 (any value in [0, 1] is read as a fractional score).
    pub first_points: f64,
}

/// Which rating is fixed at 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Anchor {
    /// The mean of all ratings is 0.
    #[default]
    Mean,
    /// The bot with this index is rated 0.
    Bot(usize),
}

/// Fitted ratings, indexed like the bots given to [`fit`]. All figures in Elo.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Maximum-likelihood rating of each bot, anchored.
    pub elo: Vec<f64>,
    /// Bootstrap 95% interval (2.5th, 97.5th percentile) of each rating; (NaN, NaN) without samples.
    pub interval95: Vec<(f64, f64)>,
    /// The first mover's advantage.
    pub first_move_elo: f64,
    /// Its bootstrap 95% interval; (NaN, NaN) without samples.
    pub first_move_interval95: (f64, f64),
    /// `los[i][j]`: the bootstrap probability that bot i is stronger than bot j, in [0, 1];
    /// `los[i][j] + los[j][i] = 1`; ½ on the diagonal; NaN off it without samples.
    pub los: Vec<Vec<f64>>,
}

/// Fits ratings to `games` between `n_bots` bots and bootstraps `bootstrap_samples` times from a
/// ChaCha8 generator seeded with `seed` (deterministic: same input, same output). See the module docs.
///
/// Cost: each Newton iteration is O(n_bots² + distinct pairings + n_bots³); each bootstrap sample
/// draws one random number per game and refits.
///
/// # Panics
/// If a game names a bot index ≥ `n_bots`, a game's `first_points` is outside [0, 1], or
/// `anchor` is `Anchor::Bot(k)` with k ≥ `n_bots`.
pub fn fit(
    n_bots: usize,
    games: &[RatedGame],
    anchor: Anchor,
    bootstrap_samples: usize,
    seed: u64,
) -> Ratings {
    if let Anchor::Bot(k) = anchor {
        assert!(
            k < n_bots,
            "ratings::fit: anchor bot {k} out of {n_bots} bots"
        );
    }
    let cells = aggregate(n_bots, games);
    let theta = maximize(n_bots, &cells, &vec![0.0; n_bots + 1]);
    let elo = anchored(&theta[..n_bots], anchor);
    let first_move_elo = theta[n_bots];

    // Step 1. Bootstrap: replay every game from the fitted model, refit, anchor.
    let draws = games.iter().filter(|g| g.first_points == 0.5).count();
    let draw_ratio = if games.is_empty() {
        0.0
    } else {
        draws as f64 / games.len() as f64
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples: Vec<Vec<f64>> = Vec::with_capacity(bootstrap_samples);
    let mut simulated = cells.clone();
    for _ in 0..bootstrap_samples {
        for (sim, cell) in simulated.iter_mut().zip(&cells) {
            let p = sigmoid(K * (theta[cell.first] + theta[n_bots] - theta[cell.second]));
            let d = draw_ratio.min(2.0 * p).min(2.0 * (1.0 - p));
            let w = p - d / 2.0;
            sim.points = 0.0;
            for _ in 0..cell.games {
                let u: f64 = rng.random();
                sim.points += if u < w {
                    1.0
                } else if u < w + d {
                    0.5
                } else {
                    0.0
                };
            }
        }
        let t = maximize(n_bots, &simulated, &theta);
        let mut sample = anchored(&t[..n_bots], anchor);
        sample.push(t[n_bots]);
        samples.push(sample);
    }

    // Step 2. Percentile intervals and the LOS matrix.
    let interval = |k: usize| {
        let mut column: Vec<f64> = samples.iter().map(|s| s[k]).collect();
        column.sort_by(f64::total_cmp);
        (percentile(&column, 0.025), percentile(&column, 0.975))
    };
    let los = (0..n_bots)
        .map(|i| {
            (0..n_bots)
                .map(|j| {
                    if i == j {
                        return 0.5;
                    }
                    let wins: f64 = samples
                        .iter()
                        .map(|s| match s[i].total_cmp(&s[j]) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        })
                        .sum();
                    wins / samples.len() as f64
                })
                .collect()
        })
        .collect();
    Ratings {
        elo,
        interval95: (0..n_bots).map(interval).collect(),
        first_move_elo,
        first_move_interval95: interval(n_bots),
        los,
    }
}

/// All games between one ordered pair: the likelihood depends on the games only through these sums.
#[derive(Clone, Debug)]
struct Cell {
    first: usize,
    second: usize,
    games: u64,
    points: f64,
}

fn aggregate(n_bots: usize, games: &[RatedGame]) -> Vec<Cell> {
    let mut table: Vec<Option<Cell>> = vec![None; n_bots * n_bots];
    for g in games {
        assert!(
            g.first < n_bots && g.second < n_bots,
            "ratings::fit: game between bots {} and {} out of {n_bots}",
            g.first,
            g.second
        );
        assert!(
            (0.0..=1.0).contains(&g.first_points),
            "ratings::fit: first mover's points {} outside [0, 1]",
            g.first_points
        );
        let cell = table[g.first * n_bots + g.second].get_or_insert(Cell {
            first: g.first,
            second: g.second,
            games: 0,
            points: 0.0,
        });
        cell.games += 1;
        cell.points += g.first_points;
    }
    table.into_iter().flatten().collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// ln σ(x), without overflow for large |x|.
fn log_sigmoid(x: f64) -> f64 {
    -((-x).max(0.0) + (-x.abs()).exp().ln_1p())
}

/// The penalized log-likelihood; `theta` is n ratings then the first-move advantage.
fn objective(n: usize, cells: &[Cell], theta: &[f64]) -> f64 {
    let mut f = 0.0;
    for c in cells {
        let x = K * (theta[c.first] + theta[n] - theta[c.second]);
        f += c.points * log_sigmoid(x) + (c.games as f64 - c.points) * log_sigmoid(-x);
    }
    for t in theta {
        f += PRIOR_DRAWS * 0.5 * (log_sigmoid(K * t) + log_sigmoid(-K * t));
    }
    f
}

/// Newton's method with step halving, from `start`.
fn maximize(n: usize, cells: &[Cell], start: &[f64]) -> Vec<f64> {
    let m = n + 1;
    let mut theta = start.to_vec();
    let mut value = objective(n, cells, &theta);
    for _ in 0..MAX_ITERATIONS {
        // Gradient g of the objective and h = −Hessian (positive definite).
        let mut g = vec![0.0; m];
        let mut h = vec![0.0; m * m];
        for c in cells {
            let p = sigmoid(K * (theta[c.first] + theta[n] - theta[c.second]));
            let slope = K * (c.points - c.games as f64 * p);
            let curvature = K * K * c.games as f64 * p * (1.0 - p);
            let terms = [(c.first, 1.0), (n, 1.0), (c.second, -1.0)];
            for &(a, ca) in &terms {
                g[a] += ca * slope;
                for &(b, cb) in &terms {
                    h[a * m + b] += ca * cb * curvature;
                }
            }
        }
        for (i, t) in theta.iter().enumerate() {
            let p = sigmoid(K * t);
            g[i] += PRIOR_DRAWS * K * (0.5 - p);
            h[i * m + i] += PRIOR_DRAWS * K * K * p * (1.0 - p);
        }
        let step = cholesky_solve(&mut h, &g, m);
        let mut scale = 1.0;
        loop {
            let trial: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            let trial_value = objective(n, cells, &trial);
            if trial_value >= value || scale < 1e-12 {
                theta = trial;
                value = trial_value;
                break;
            }
            scale /= 2.0;
        }
        if step.iter().all(|s| (scale * s).abs() <= TOLERANCE) {
            break;
        }
    }
    theta
}

/// Solves h·x = g for a symmetric positive definite `m`×`m` matrix (row-major, overwritten).
fn cholesky_solve(h: &mut [f64], g: &[f64], m: usize) -> Vec<f64> {
    // Lower triangle: h = L·Lᵀ.
    for j in 0..m {
        let mut d = h[j * m + j];
        for k in 0..j {
            d -= h[j * m + k] * h[j * m + k];
        }
        // The prior keeps the diagonal ≥ K²/4·PRIOR_DRAWS·σ(1−σ) > 0; guard rounding anyway.
        let d = d.max(1e-300).sqrt();
        h[j * m + j] = d;
        for i in j + 1..m {
            let mut s = h[i * m + j];
            for k in 0..j {
                s -= h[i * m + k] * h[j * m + k];
            }
            h[i * m + j] = s / d;
        }
    }
    let mut y = vec![0.0; m];
    for i in 0..m {
        let s: f64 = (0..i).map(|k| h[i * m + k] * y[k]).sum();
        y[i] = (g[i] - s) / h[i * m + i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        let s: f64 = (i + 1..m).map(|k| h[k * m + i] * x[k]).sum();
        x[i] = (y[i] - s) / h[i * m + i];
    }
    x
}

fn anchored(ratings: &[f64], anchor: Anchor) -> Vec<f64> {
    let zero = match anchor {
        Anchor::Mean if ratings.is_empty() => 0.0,
        Anchor::Mean => ratings.iter().sum::<f64>() / ratings.len() as f64,
        Anchor::Bot(k) => ratings[k],
    };
    ratings.iter().map(|r| r - zero).collect()
}

/// The q-quantile of sorted values, interpolating linearly between order statistics (Hyndman & Fan
/// type 7, R's and NumPy's default). NaN when empty.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        len => {
            let h = (len - 1) as f64 * q;
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(len - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::score_from_elo;

    /// `per_pairing` games for every ordered pair, each won/drawn/lost from the true ratings, the
    /// first-move advantage and a draw ratio, as in the bootstrap's own model.
    fn synthetic(
        true_elo: &[f64],
        adv: f64,
        draw: f64,
        per_pairing: usize,
        seed: u64,
    ) -> Vec<RatedGame> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut games = Vec::new();
        for _ in 0..per_pairing {
            for first in 0..true_elo.len() {
                for second in 0..true_elo.len() {
                    if first == second {
                        continue;
                    }
                    let p = score_from_elo(true_elo[first] + adv - true_elo[second]);
                    let d = draw.min(2.0 * p).min(2.0 * (1.0 - p));
                    let u: f64 = rng.random();
                    let first_points = if u < p - d / 2.0 {
                        1.0
                    } else if u < p + d / 2.0 {
                        0.5
                    } else {
                        0.0
                    };
                    games.push(RatedGame {
                        first,
                        second,
                        first_points,
                    });
                }
            }
        }
        games
    }

    #[test]
    fn recovers_known_strengths() {
        // 4 bots at −200, 0, 100, 300 (mean 50), first-move advantage 50, 25% draws, 300 games per
        // ordered pairing: 3600 games, 1800 per bot. The standard error of a rating is then about
        // 6 Elo (1/(K·√(Σ P(1−P))) over a bot's games; the bootstrap's half-widths come out ≈ 12), as
        // is the first-move term's: 30 Elo is five standard errors, 20 over three. (Seeded: the fit
        // is off by 2–8 Elo and the advantage by 9.)
        let truth = [-200.0, 0.0, 100.0, 300.0];
        let games = synthetic(&truth, 50.0, 0.25, 300, 7);
        assert_eq!(games.len(), 3600);
        let r = fit(4, &games, Anchor::Mean, 200, 1);
        for (i, t) in truth.iter().enumerate() {
            let expected = t - 50.0;
            assert!(
                (r.elo[i] - expected).abs() < 30.0,
                "bot {i}: {} vs {expected}",
                r.elo[i]
            );
            let (lo, hi) = r.interval95[i];
            assert!(
                lo < r.elo[i] && r.elo[i] < hi,
                "bot {i}: {lo} {} {hi}",
                r.elo[i]
            );
            assert!(
                hi - lo > 15.0 && hi - lo < 80.0,
                "bot {i}: interval {lo}..{hi}"
            );
        }
        assert!(
            (r.first_move_elo - 50.0).abs() < 20.0,
            "adv {}",
            r.first_move_elo
        );
        let (lo, hi) = r.first_move_interval95;
        assert!(lo < r.first_move_elo && r.first_move_elo < hi);
        assert!(r.elo.iter().sum::<f64>().abs() < 1e-9);
        // 100 Elo apart over 1800 games each: never in doubt.
        assert!(r.los[3][2] > 0.99 && r.los[2][3] < 0.01);
        for i in 0..4 {
            assert_eq!(r.los[i][i], 0.5);
            for j in 0..4 {
                assert!((r.los[i][j] + r.los[j][i] - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn maximum_likelihood_is_a_stationary_point() {
        // Without a prior the gradient vanishes at the ML; with one it is tiny: at the fit, each bot's
        // expected points match its actual points to within its prior weight.
        let games = synthetic(&[0.0, 50.0, 120.0], 30.0, 0.3, 100, 3);
        let r = fit(3, &games, Anchor::Mean, 0, 0);
        for bot in 0..3 {
            let (mut actual, mut expected) = (0.0, 0.0);
            for g in &games {
                let p = score_from_elo(r.elo[g.first] + r.first_move_elo - r.elo[g.second]);
                if g.first == bot {
                    actual += g.first_points;
                    expected += p;
                } else if g.second == bot {
                    actual += 1.0 - g.first_points;
                    expected += 1.0 - p;
                }
            }
            assert!(
                (actual - expected).abs() < PRIOR_DRAWS,
                "bot {bot}: {actual} vs {expected}"
            );
        }
        assert!(r
            .interval95
            .iter()
            .all(|(lo, hi)| lo.is_nan() && hi.is_nan()));
        assert!(r.los[0][1].is_nan() && r.los[1][1] == 0.5);
    }

    #[test]
    fn anchors_shift_only() {
        let games = synthetic(&[-50.0, 0.0, 80.0], 20.0, 0.2, 50, 5);
        let mean = fit(3, &games, Anchor::Mean, 50, 9);
        let bot1 = fit(3, &games, Anchor::Bot(1), 50, 9);
        assert!(bot1.elo[1].abs() < 1e-12);
        let shift = mean.elo[1];
        for i in 0..3 {
            assert!((mean.elo[i] - shift - bot1.elo[i]).abs() < 1e-9);
        }
        assert_eq!(mean.first_move_elo, bot1.first_move_elo);
        assert_eq!(mean.los, bot1.los);
        assert_eq!(mean.first_move_interval95, bot1.first_move_interval95);
        // The anchor bot's own interval collapses to 0.
        assert_eq!(bot1.interval95[1], (0.0, 0.0));
    }

    #[test]
    fn deterministic_for_a_seed() {
        let games = synthetic(&[0.0, 40.0, 90.0], 10.0, 0.3, 40, 11);
        let a = fit(3, &games, Anchor::Mean, 100, 42);
        let b = fit(3, &games, Anchor::Mean, 100, 42);
        assert_eq!(a, b);
        let c = fit(3, &games, Anchor::Mean, 100, 43);
        assert_eq!(a.elo, c.elo);
        assert_ne!(a.interval95, c.interval95);
    }

    #[test]
    fn all_wins_and_all_losses_stay_finite() {
        // Bot 0 wins every game, bot 2 loses every game, and the first mover always wins between
        // 1 and 3: unbounded maximum likelihood without the prior.
        let mut games = Vec::new();
        for _ in 0..20 {
            games.push(RatedGame {
                first: 0,
                second: 1,
                first_points: 1.0,
            });
            games.push(RatedGame {
                first: 1,
                second: 0,
                first_points: 0.0,
            });
            games.push(RatedGame {
                first: 0,
                second: 2,
                first_points: 1.0,
            });
            games.push(RatedGame {
                first: 1,
                second: 2,
                first_points: 1.0,
            });
            games.push(RatedGame {
                first: 3,
                second: 1,
                first_points: 1.0,
            });
            games.push(RatedGame {
                first: 1,
                second: 3,
                first_points: 1.0,
            });
        }
        let r = fit(4, &games, Anchor::Mean, 50, 0);
        assert!(r.elo.iter().all(|e| e.is_finite()));
        assert!(r.first_move_elo.is_finite());
        assert!(r
            .interval95
            .iter()
            .all(|(lo, hi)| lo.is_finite() && hi.is_finite()));
        assert!(r.elo[0] > r.elo[1] && r.elo[1] > r.elo[2]);
        assert!(r.elo[0] - r.elo[2] > 400.0);
        assert!(r.los[0][2] > 0.99);
    }

    #[test]
    fn empty_and_single_inputs() {
        let r = fit(0, &[], Anchor::Mean, 10, 0);
        assert!(r.elo.is_empty() && r.los.is_empty());
        let r = fit(2, &[], Anchor::Mean, 10, 0);
        assert_eq!(r.elo, vec![0.0, 0.0]);
        assert_eq!(r.first_move_elo, 0.0);
        assert_eq!(r.los[0][1], 0.5);
        let one = [RatedGame {
            first: 0,
            second: 1,
            first_points: 0.5,
        }];
        let r = fit(2, &one, Anchor::Bot(0), 10, 0);
        assert!(r.elo[1].abs() < 1e-9);
    }

    #[test]
    fn percentile_interpolates() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&v, 0.5), 3.0);
        assert_eq!(percentile(&v, 1.0), 5.0);
        assert!((percentile(&v, 0.025) - 1.1).abs() < 1e-12);
        assert!(percentile(&[], 0.5).is_nan());
    }

    #[test]
    #[should_panic(expected = "anchor bot")]
    fn anchor_out_of_range_panics() {
        fit(2, &[], Anchor::Bot(2), 0, 0);
    }
}
