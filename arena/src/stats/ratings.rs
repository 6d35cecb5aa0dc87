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
//!   where the first mover always won, still gets a finite rating. This is *not* BayesElo's prior
//!   (BayesElo spreads its virtual draws over each player's real opponents, which pulls ratings toward
//!   each other, not toward a fixed point); it is a Gaussian-like pull of every raw rating toward 0
//!   of the strength of one drawn game per bot. Its effect is the weight of one game among a bot's
//!   games: negligible with balanced scores, but it shrinks the spread of the ratings by several per
//!   cent when scores are one-sided (measured in the test `prior_shrink`: 1.59 % for three bots 200 Elo
//!   apart with 20 games per ordered pairing, 5.95 % with 5; 5.29 % for three bots 400 apart and 8.25 %
//!   for 512 apart, pairings scored 91–99.7 %, with 30 games per pairing), and it alone sets the rating
//!   of a bot with a 100 % or 0 % score (see Bounds), which, held at a finite rating, pulls the others
//!   together further (the test `bounded_bots_pull_their_neighbours_together`).
//!   docs/statistics.md ("The prior") gives the figures.
//! - **Fitting**: Newton's method on the (strictly concave, thanks to the prior) penalized
//!   log-likelihood, with step halving whenever a full step would not increase it, from all zeros,
//!   until no parameter moves by more than [`TOLERANCE`] Elo.
//! - **95% interval**: parametric bootstrap (Ordo's method): every game is played again from the fitted
//!   model — win, draw, loss with probabilities w, d, l where d is the observed overall draw ratio
//!   (capped at 2·min(P, 1 − P)) and w + d/2 = P — the model refitted with the prior, and the 2.5th and
//!   97.5th percentiles (linear interpolation between order statistics) taken of each bot's anchored
//!   rating. Ordo instead refits without a prior and prints ±1.96 standard deviations of its
//!   simulations; the arena's intervals are narrower, and hold the truth about 95 % of the time in the
//!   simulation of the ignored test `bootstrap_coverage` (docs/statistics.md gives its figures).
//! - **LOS matrix**: `los[i][j]` is the fraction of bootstrap samples in which bot i rated above
//!   bot j, a tie counting ½; ½ on the diagonal.
//! - **Monte Carlo error** of the bootstrap ([`Ratings::mc_error95`]): B samples estimate a LOS p
//!   within ±1.96·√(p(1 − p)/B) (at most ±0.98/√B), and a percentile q within the values at the
//!   order statistics B·q ± 1.96·√(B·q(1 − q)) (the binomial interval of a sample quantile).
//! - **Bounds** ([`Ratings::bound`]): a bot that scored 100 % (0 %) has no finite maximum-likelihood
//!   rating: any higher (lower) rating fits its games better. Its figure is where the prior stops it
//!   and its interval's upper (lower) end is the bootstrap's echo of that, so both are flagged, the
//!   open end of the interval set to +∞ (−∞), as Ordo and BayesElo flag such players.

use std::f64::consts::LN_10;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::normal::Z95;

/// Natural-log units per Elo point: P = σ(K·Δelo) with σ the logistic function.
const K: f64 = LN_10 / 400.0;

/// Virtual draws of each bot against a phantom of raw rating 0 (and of the first-move term): the prior.
pub const PRIOR_DRAWS: f64 = 1.0;

/// Convergence: the fit stops when no parameter's Newton step exceeds this many Elo.
pub const TOLERANCE: f64 = 1e-7;

/// Convergence of each bootstrap refit, Elo: far below the 0.1 Elo the intervals are shown to, and
/// one Newton step cheaper than [`TOLERANCE`].
pub const BOOTSTRAP_TOLERANCE: f64 = 1e-4;

const MAX_ITERATIONS: usize = 200;

/// Newton steps no longer than this many Elo are taken without checking that they raise the
/// objective (see `maximize_to`).
const NEWTON_TRUSTED: f64 = 1.0;

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
    /// Per bot: `Some` when its score was 100 % or 0 %, so its rating is only a bound (see the module
    /// docs); the open end of its interval is then ±∞.
    pub bound: Vec<Option<Bound>>,
    /// Bootstrap samples drawn.
    pub samples: usize,
    /// The seed of the bootstrap.
    pub seed: u64,
    /// The Monte Carlo error of the bootstrap figures (95%), NaN without samples.
    pub mc_error95: McError,
}

/// Which way a rating is only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The bot won every point (100 %): its true rating may be anywhere above its interval's low end.
    Lower,
    /// The bot lost every point (0 %): its true rating may be anywhere below its interval's high end.
    Upper,
}

/// The Monte Carlo error of bootstrap figures: how far a run with another seed may move them (95%).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct McError {
    /// The largest ± of any finite interval end (bots and first-move advantage), Elo.
    pub interval_ends: f64,
    /// The largest ± of any LOS entry, as a fraction (0.01 = one percentage point).
    pub los: f64,
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
    let theta = maximize(n_bots, &cells, &vec![0.0; n_bots + 1], PRIOR_DRAWS);
    let elo = anchored(&theta[..n_bots], anchor);
    let first_move_elo = theta[n_bots];

    // Step 1. Bootstrap: replay every game from the fitted model, refit, anchor.
    let draws = games.iter().filter(|g| g.first_points == 0.5).count();
    let draw_ratio = if games.is_empty() {
        0.0
    } else {
        draws as f64 / games.len() as f64
    };
    let samples = bootstrap(
        n_bots,
        &cells,
        &theta,
        draw_ratio,
        anchor,
        bootstrap_samples,
        seed,
        PRIOR_DRAWS,
    );

    // Step 2. Percentile intervals and the LOS matrix.
    let interval = |k: usize| {
        let mut column: Vec<f64> = samples.iter().map(|s| s[k]).collect();
        column.sort_by(f64::total_cmp);
        (percentile(&column, 0.025), percentile(&column, 0.975))
    };
    let los: Vec<Vec<f64>> = (0..n_bots)
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
    // Step 3. Bounds: a 100 % or 0 % score has no finite maximum likelihood.
    let mut points = vec![(0.0, 0u64); n_bots];
    for c in &cells {
        points[c.first].0 += c.points;
        points[c.first].1 += c.games;
        points[c.second].0 += c.games as f64 - c.points;
        points[c.second].1 += c.games;
    }
    let bound: Vec<Option<Bound>> = points
        .iter()
        .map(|&(p, g)| match g {
            0 => None,
            _ if p >= g as f64 => Some(Bound::Lower),
            _ if p <= 0.0 => Some(Bound::Upper),
            _ => None,
        })
        .collect();
    let mut interval95: Vec<(f64, f64)> = (0..n_bots).map(interval).collect();
    for (iv, b) in interval95.iter_mut().zip(&bound) {
        match b {
            Some(Bound::Lower) => iv.1 = f64::INFINITY,
            Some(Bound::Upper) => iv.0 = f64::NEG_INFINITY,
            None => {}
        }
    }

    // Step 4. Monte Carlo error of the interval ends and of the LOS entries.
    let b = samples.len();
    let mc_error95 = if b == 0 {
        McError {
            interval_ends: f64::NAN,
            los: f64::NAN,
        }
    } else {
        let mut ends: f64 = 0.0;
        for k in 0..=n_bots {
            if k < n_bots && matches!(anchor, Anchor::Bot(a) if a == k) {
                continue;
            }
            let mut column: Vec<f64> = samples.iter().map(|s| s[k]).collect();
            column.sort_by(f64::total_cmp);
            for q in [0.025, 0.975] {
                let open = match bound.get(k).copied().flatten() {
                    Some(Bound::Lower) => q > 0.5,
                    Some(Bound::Upper) => q < 0.5,
                    None => false,
                };
                if !open {
                    ends = ends.max(quantile_mc_error95(&column, q));
                }
            }
        }
        let los_max = los
            .iter()
            .enumerate()
            .flat_map(|(i, row)| row.iter().enumerate().filter(move |(j, _)| *j != i))
            // Agresti–Coull's adjusted share (two virtual successes and failures): a LOS of 0 or 1 from
            // few samples is not known exactly, so its error is never estimated as 0.
            .map(|(_, p): (usize, &f64)| {
                let adjusted = (p * b as f64 + 2.0) / (b as f64 + 4.0);
                (adjusted * (1.0 - adjusted)).sqrt()
            })
            .fold(0.0, f64::max);
        McError {
            interval_ends: ends,
            los: Z95 * los_max / (b as f64).sqrt(),
        }
    };
    Ratings {
        elo,
        interval95,
        first_move_elo,
        first_move_interval95: interval(n_bots),
        los,
        bound,
        samples: b,
        seed,
        mc_error95,
    }
}

/// `bootstrap_samples` samples: every game of `cells` played again from the fitted `theta` (n ratings,
/// then the first-move advantage) with the observed `draw_ratio`, the model refitted with `prior`
/// virtual draws per bot; each sample is the anchored ratings, then the advantage.
#[allow(clippy::too_many_arguments)]
fn bootstrap(
    n_bots: usize,
    cells: &[Cell],
    theta: &[f64],
    draw_ratio: f64,
    anchor: Anchor,
    bootstrap_samples: usize,
    seed: u64,
    prior: f64,
) -> Vec<Vec<f64>> {
    // Each sample has its own stream of the seeded generator, so the samples are the same however
    // many threads draw them; the threads (one per core) each take every `threads`-th sample.
    let one_sample = |index: usize, simulated: &mut Vec<Cell>| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(index as u64);
        for (sim, cell) in simulated.iter_mut().zip(cells) {
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
        let t = maximize_to(n_bots, simulated, theta, prior, BOOTSTRAP_TOLERANCE);
        let mut sample = anchored(&t[..n_bots], anchor);
        sample.push(t[n_bots]);
        sample
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, bootstrap_samples.max(1));
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let one_sample = &one_sample;
                scope.spawn(move || {
                    let mut simulated = cells.to_vec();
                    (t..bootstrap_samples)
                        .step_by(threads)
                        .map(|i| (i, one_sample(i, &mut simulated)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, Vec<f64>)> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("a bootstrap thread panicked"))
            .collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, s)| s).collect()
    })
}

/// The 95% Monte Carlo error of the q-quantile of `sorted` bootstrap values: half the spread between
/// the values at ranks (B − 1)·q ± 1.96·√(B·q(1 − q)), clamped to the sample (the binomial
/// distribution-free interval of a quantile).
fn quantile_mc_error95(sorted: &[f64], q: f64) -> f64 {
    let b = sorted.len() as f64;
    let spread = Z95 * (b * q * (1.0 - q)).sqrt();
    let h = (b - 1.0) * q;
    let lo = percentile(sorted, ((h - spread) / (b - 1.0).max(1.0)).clamp(0.0, 1.0));
    let hi = percentile(sorted, ((h + spread) / (b - 1.0).max(1.0)).clamp(0.0, 1.0));
    (hi - lo) / 2.0
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

/// Newton's method with step halving, from `start`, to [`TOLERANCE`].
fn maximize(n: usize, cells: &[Cell], start: &[f64], prior: f64) -> Vec<f64> {
    maximize_to(n, cells, start, prior, TOLERANCE)
}

/// Newton's method with step halving, from `start`, until no step exceeds `tolerance` Elo.
fn maximize_to(n: usize, cells: &[Cell], start: &[f64], prior: f64, tolerance: f64) -> Vec<f64> {
    let m = n + 1;
    let mut theta = start.to_vec();
    let (mut g, mut h) = (vec![0.0; m], vec![0.0; m * m]);
    let (mut trial_g, mut trial_h) = (vec![0.0; m], vec![0.0; m * m]);
    // The objective at `theta`, when it was computed there.
    let mut value = Some(evaluate(n, cells, &theta, prior, &mut g, &mut h, true));
    for _ in 0..MAX_ITERATIONS {
        let step = cholesky_solve(&mut h, &g, m);
        let largest = step.iter().fold(0.0f64, |a, s| a.max(s.abs()));
        // Far from the maximum a full Newton step may overshoot: it must not lower the objective, else
        // it is halved. Within [`NEWTON_TRUSTED`] Elo of it the step of this concave, smooth
        // likelihood is trusted as it is, which spares the logarithm per cell the objective costs.
        let checked = largest > NEWTON_TRUSTED;
        let current = match value {
            Some(v) => v,
            None if checked => evaluate(n, cells, &theta, prior, &mut trial_g, &mut trial_h, true),
            None => f64::NAN,
        };
        let mut scale = 1.0;
        loop {
            let trial: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            let trial_value =
                evaluate(n, cells, &trial, prior, &mut trial_g, &mut trial_h, checked);
            if !checked || trial_value >= current || scale < 1e-12 {
                theta = trial;
                value = checked.then_some(trial_value);
                std::mem::swap(&mut g, &mut trial_g);
                std::mem::swap(&mut h, &mut trial_h);
                break;
            }
            scale /= 2.0;
        }
        if scale * largest <= tolerance {
            break;
        }
    }
    theta
}

/// The penalized log-likelihood at `theta` (n ratings, then the first-move advantage), when
/// `with_value` (else NaN), with its gradient into `g` and the negated Hessian (positive definite)
/// into `h`, row-major `(n+1)²`.
fn evaluate(
    n: usize,
    cells: &[Cell],
    theta: &[f64],
    prior: f64,
    g: &mut [f64],
    h: &mut [f64],
    with_value: bool,
) -> f64 {
    let m = n + 1;
    g.fill(0.0);
    h.fill(0.0);
    let mut f = 0.0;
    for c in cells {
        let x = K * (theta[c.first] + theta[n] - theta[c.second]);
        let games = c.games as f64;
        let p = if with_value {
            let (p, ls) = sigmoid_and_log(x);
            // ln σ(−x) = ln σ(x) − x.
            f += c.points * ls + (games - c.points) * (ls - x);
            p
        } else {
            sigmoid(x)
        };
        let slope = K * (c.points - games * p);
        let curvature = K * K * games * p * (1.0 - p);
        let terms = [(c.first, 1.0), (n, 1.0), (c.second, -1.0)];
        for &(a, ca) in &terms {
            g[a] += ca * slope;
            for &(b, cb) in &terms {
                h[a * m + b] += ca * cb * curvature;
            }
        }
    }
    for (i, t) in theta.iter().enumerate() {
        let (p, ls) = sigmoid_and_log(K * t);
        f += prior * 0.5 * (2.0 * ls - K * t);
        g[i] += prior * K * (0.5 - p);
        h[i * m + i] += prior * K * K * p * (1.0 - p);
    }
    if with_value {
        f
    } else {
        f64::NAN
    }
}

/// σ(x) and ln σ(x) with one exponential, without overflow for large |x|.
fn sigmoid_and_log(x: f64) -> (f64, f64) {
    let e = (-x.abs()).exp();
    let ls = -((-x).max(0.0) + e.ln_1p());
    let p = if x >= 0.0 {
        1.0 / (1.0 + e)
    } else {
        e / (1.0 + e)
    };
    (p, ls)
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

/// A simulated round robin for checking the ratings: `per_pairing` games for every ordered pair of
/// bots at `true_elo` (Elo), each won, drawn or lost from the true ratings, the first-move advantage
/// `adv` (Elo) and the draw ratio `draw` (capped where the expected score leaves no room), as in the
/// bootstrap's own model; ChaCha8 seeded with `seed`, one uniform draw a game. The tests of this
/// module (`bootstrap_coverage`) and `arena/examples/ordo_fields.rs` (real Ordo on the same fields)
/// play their fields with it.
pub fn synthetic(
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
                let p = super::elo::score_from_elo(true_elo[first] + adv - true_elo[second]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::score_from_elo;

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
        // Bots 0 and 2 are bounds: their open ends are infinite, the others finite.
        assert_eq!(
            r.bound,
            [Some(Bound::Lower), None, Some(Bound::Upper), None]
        );
        assert!(r.interval95[0].0.is_finite() && r.interval95[0].1 == f64::INFINITY);
        assert!(r.interval95[2].0 == f64::NEG_INFINITY && r.interval95[2].1.is_finite());
        assert!(r.interval95[1].0.is_finite() && r.interval95[1].1.is_finite());
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

    /// Every ordered pairing plays `per_pairing` games scored at exactly the expected score of true
    /// ratings (fractional points): the unpenalized maximum likelihood is the truth itself.
    fn exact(truth: &[f64], per_pairing: usize) -> Vec<RatedGame> {
        let mut games = Vec::new();
        for _ in 0..per_pairing {
            for first in 0..truth.len() {
                for second in 0..truth.len() {
                    if first != second {
                        games.push(RatedGame {
                            first,
                            second,
                            first_points: score_from_elo(truth[first] - truth[second]),
                        });
                    }
                }
            }
        }
        games
    }

    /// The spread of the fitted ratings over the true spread, 1 − (r_last − r_first)/(t_last − t_first),
    /// with the prior, on `exact` games.
    fn shrink(truth: &[f64], per_pairing: usize) -> f64 {
        let n = truth.len();
        let cells = aggregate(n, &exact(truth, per_pairing));
        let free = maximize(n, &cells, &vec![0.0; n + 1], 1e-9);
        let spread = truth[n - 1] - truth[0];
        assert!(((free[n - 1] - free[0]) - spread).abs() < 1e-3, "{free:?}");
        let with = maximize(n, &cells, &vec![0.0; n + 1], PRIOR_DRAWS);
        1.0 - (with[n - 1] - with[0]) / spread
    }

    #[test]
    fn prior_shrink() {
        // The prior's effect, as docs/statistics.md states it: the spread of the fitted ratings over
        // the true spread. Without a prior (1e-9 draws) the fit is the truth.
        // (Deterministic: the figures docs/statistics.md quotes, to 0.01 %;
        // `cargo test -p arena --lib prior_shrink -- --nocapture` prints them.)
        let mut failures = Vec::new();
        for (truth, per_pairing, expected_pct) in [
            // Balanced: 50 Elo steps, 20 games per ordered pairing.
            (vec![0.0, 50.0, 100.0], 20, 0.87),
            // One-sided: 200 Elo steps (top against bottom scores 91 %).
            (vec![0.0, 200.0, 400.0], 20, 1.59),
            (vec![0.0, 200.0, 400.0], 5, 5.95),
            (vec![0.0, 200.0, 400.0], 50, 0.64),
            // Very one-sided: 400 Elo steps (top against bottom 99 %).
            (vec![0.0, 400.0, 800.0], 20, 4.06),
            // Pairings scored 95–99 % (steps of 512 Elo, 94.9 % and 99.7 %; of 400, 90.9 % and 99.0 %)
            // at 30 games per pairing (15 per ordered pairing).
            (vec![0.0, 400.0, 800.0], 15, 5.29),
            (vec![0.0, 512.0, 1024.0], 15, 8.25),
            (vec![0.0, 512.0, 1024.0], 50, 2.75),
            // Six bots 200 apart (neighbours 76 %, top against bottom 99.7 %), 30 games per pairing.
            (vec![0.0, 200.0, 400.0, 600.0, 800.0, 1000.0], 15, 2.69),
        ] {
            let shrink = shrink(&truth, per_pairing);
            let last = truth[truth.len() - 1];
            eprintln!(
                "{truth:?} × {per_pairing} per ordered pairing (top vs bottom {:.1} %, neighbours {:.1} %): \
                 shrink {:.4} %",
                100.0 * score_from_elo(last),
                100.0 * score_from_elo(truth[1] - truth[0]),
                100.0 * shrink
            );
            failures.extend(
                ((100.0 * shrink - expected_pct).abs() >= 0.005)
                    .then(|| format!("{truth:?} × {per_pairing}: shrink {shrink}")),
            );
        }
        assert!(failures.is_empty(), "{failures:?}");
    }

    /// Games at exactly the expected score among `inner` bots (true ratings), plus a bot that wins
    /// every game and one that loses every game against everybody, `per_pairing` games per ordered
    /// pairing: the bounded bots are indices `inner.len()` (100 %) and `inner.len() + 1` (0 %).
    fn with_bounded(inner: &[f64], per_pairing: usize) -> Vec<RatedGame> {
        let mut games = exact(inner, per_pairing);
        let (top, bottom) = (inner.len(), inner.len() + 1);
        for _ in 0..per_pairing {
            for other in (0..inner.len()).chain([bottom]) {
                games.push(RatedGame {
                    first: top,
                    second: other,
                    first_points: 1.0,
                });
                games.push(RatedGame {
                    first: other,
                    second: top,
                    first_points: 0.0,
                });
            }
            for other in 0..inner.len() {
                games.push(RatedGame {
                    first: bottom,
                    second: other,
                    first_points: 0.0,
                });
                games.push(RatedGame {
                    first: other,
                    second: bottom,
                    first_points: 1.0,
                });
            }
        }
        games
    }

    #[test]
    fn bounded_bots_pull_their_neighbours_together() {
        // Plain maximum likelihood puts a 100 % (0 %) bot at +∞ (−∞), where its games say nothing about
        // the others: the others' ratings are those of their games among themselves. The arena's prior
        // holds the bounded bots at a finite rating instead, so the losses to the top bot (the wins
        // over the bottom one) count against (for) the others, the more so the nearer they are to it.
        // Measured: the spread of the inner bots with the prior and all games, with the prior and
        // only their own games, and without a prior (the truth, since the games score exactly).
        // (Deterministic; `cargo test -p arena --lib bounded_bots -- --nocapture` prints the figures.)
        let mut failures = Vec::new();
        for (inner, per_pairing, expected_total, expected_prior) in [
            (vec![0.0, 200.0, 400.0, 600.0], 15, 4.20, 2.24),
            (vec![0.0, 300.0, 600.0, 900.0], 15, 7.12, 3.97),
        ] {
            let n = inner.len();
            let spread = inner[n - 1] - inner[0];
            let own = aggregate(n, &exact(&inner, per_pairing));
            let free = maximize(n, &own, &vec![0.0; n + 1], 1e-9);
            assert!(((free[n - 1] - free[0]) - spread).abs() < 1e-3, "{free:?}");
            let prior_only = maximize(n, &own, &vec![0.0; n + 1], PRIOR_DRAWS);
            let all = aggregate(n + 2, &with_bounded(&inner, per_pairing));
            let with = maximize(n + 2, &all, &vec![0.0; n + 3], PRIOR_DRAWS);
            let total = 1.0 - (with[n - 1] - with[0]) / spread;
            let prior = 1.0 - (prior_only[n - 1] - prior_only[0]) / spread;
            eprintln!(
                "inner {inner:?} × {per_pairing} per ordered pairing, a 100 % and a 0 % bot: inner spread \
                 {:.1} with them ({:.2} % narrower than plain ML), {:.1} without them ({:.2} %), truth \
                 {spread}; the bounded bots at {:+.1} and {:+.1} (inner mean {:+.1})",
                with[n - 1] - with[0],
                100.0 * total,
                prior_only[n - 1] - prior_only[0],
                100.0 * prior,
                with[n],
                with[n + 1],
                with[..n].iter().sum::<f64>() / n as f64
            );
            failures.extend(
                ((100.0 * total - expected_total).abs() >= 0.005
                    || (100.0 * prior - expected_prior).abs() >= 0.005)
                    .then(|| format!("{inner:?}: total {total}, prior alone {prior}")),
            );
        }
        assert!(failures.is_empty(), "{failures:?}");
    }

    /// Coverage of the bootstrap's 95% intervals, by simulation: `TOURNAMENTS` round robins of six bots
    /// at known true ratings (each pairing 30 games, 15 with each bot first; first-move advantage 60
    /// Elo, 10 % draws), each fitted and bootstrapped as `arena ratings` does (1,500 samples, seed 1),
    /// counting how often each bot's interval holds its true rating (true ratings have mean 0, as the
    /// fit is anchored). The same samples also give the symmetric interval ±1.96·SD around the fit, and
    /// a bootstrap without the prior (1e-9 virtual draws: plain maximum likelihood, as Ordo fits) gives
    /// Ordo's interval, ±1.96·SD of its samples around the plain fit (Ordo 1.2.6 prints the standard
    /// deviation of its simulations times the confidence factor). Two fields: bots 180 Elo apart
    /// (neighbours 74 %, top against bottom 99.5 %) and 240 apart (80 %, 99.9 %). Ignored (about a
    /// minute): `cargo test -p arena --lib bootstrap_coverage -- --ignored --nocapture` prints the
    /// figures docs/statistics.md quotes (seeded: the same every run).
    #[test]
    #[ignore]
    fn bootstrap_coverage() {
        const TOURNAMENTS: u64 = 1000;
        const SAMPLES: usize = 1500;
        let (adv, draw, per_pairing) = (60.0, 0.1, 15);
        let names = [
            "arena: prior, percentile",
            "prior, ±1.96·SD",
            "no prior, percentile",
            "Ordo: no prior, ±1.96·SD",
        ];
        for step in [180.0, 240.0] {
            let truth: Vec<f64> = (0..6).map(|i| (f64::from(i) - 2.5) * step).collect();
            let n = truth.len();
            // Per method: intervals holding the truth, intervals, summed widths.
            let mut tally = [(0u32, 0u32, 0.0f64); 4];
            let mut adv_held = 0;
            for t in 0..TOURNAMENTS {
                let games = synthetic(&truth, adv, draw, per_pairing, 1000 + t);
                let cells = aggregate(n, &games);
                let draw_ratio = games.iter().filter(|g| g.first_points == 0.5).count() as f64
                    / games.len() as f64;
                let r = fit(n, &games, Anchor::Mean, SAMPLES, 1);
                let (lo, hi) = r.first_move_interval95;
                if lo <= adv && adv <= hi {
                    adv_held += 1;
                }
                for (k, prior) in [(0, PRIOR_DRAWS), (2, 1e-9)] {
                    let theta = maximize(n, &cells, &vec![0.0; n + 1], prior);
                    let point = anchored(&theta[..n], Anchor::Mean);
                    let samples = bootstrap(
                        n,
                        &cells,
                        &theta,
                        draw_ratio,
                        Anchor::Mean,
                        SAMPLES,
                        1,
                        prior,
                    );
                    for i in 0..n {
                        let mut column: Vec<f64> = samples.iter().map(|s| s[i]).collect();
                        column.sort_by(f64::total_cmp);
                        let percentile_iv =
                            (percentile(&column, 0.025), percentile(&column, 0.975));
                        if k == 0 && r.bound[i].is_none() {
                            // The samples are those `fit` draws: the same interval.
                            assert!((percentile_iv.0 - r.interval95[i].0).abs() < 1e-9);
                            assert!((percentile_iv.1 - r.interval95[i].1).abs() < 1e-9);
                        }
                        let mean = column.iter().sum::<f64>() / SAMPLES as f64;
                        let sd = (column.iter().map(|x| (x - mean).powi(2)).sum::<f64>()
                            / (SAMPLES - 1) as f64)
                            .sqrt();
                        let symmetric = (point[i] - Z95 * sd, point[i] + Z95 * sd);
                        for (m, (lo, hi)) in [(k, percentile_iv), (k + 1, symmetric)] {
                            tally[m].0 += u32::from(lo <= truth[i] && truth[i] <= hi);
                            tally[m].1 += 1;
                            tally[m].2 += hi - lo;
                        }
                    }
                }
            }
            let width = |m: usize| tally[m].2 / f64::from(tally[m].1);
            eprintln!("bots {step} Elo apart, {TOURNAMENTS} tournaments:");
            for (m, name) in names.iter().enumerate() {
                let share = f64::from(tally[m].0) / f64::from(tally[m].1);
                eprintln!(
                    "  {name}: {} of {} intervals hold the true rating ({:.1} %), mean width {:.1} \
                     Elo ({:.1} % of Ordo's)",
                    tally[m].0,
                    tally[m].1,
                    100.0 * share,
                    width(m),
                    100.0 * width(m) / width(3)
                );
            }
            eprintln!(
                "  first-move advantage: {adv_held} of {TOURNAMENTS} intervals hold {adv} ({:.1} %)",
                100.0 * f64::from(adv_held) / TOURNAMENTS as f64
            );
            // Loose bounds, so that only a broken bootstrap fails: 95 % intervals (not independent:
            // six bots of one tournament) should hold the truth 90–99 % of the time.
            for (held, total, _) in tally {
                let share = f64::from(held) / f64::from(total);
                assert!((0.90..=0.99).contains(&share), "{step}: {share}");
            }
        }
    }

    #[test]
    fn perfect_scores_are_flagged_as_bounds() {
        // Bot 0 wins every game, bot 2 loses every game, bot 1 is in between.
        let mut games = Vec::new();
        for k in 0..10 {
            let (a, b) = if k % 2 == 0 { (0, 1) } else { (1, 0) };
            games.push(RatedGame {
                first: a,
                second: b,
                first_points: if a == 0 { 1.0 } else { 0.0 },
            });
            let (c, d) = if k % 2 == 0 { (1, 2) } else { (2, 1) };
            games.push(RatedGame {
                first: c,
                second: d,
                first_points: if c == 1 { 1.0 } else { 0.0 },
            });
            games.push(RatedGame {
                first: 0,
                second: 2,
                first_points: 1.0,
            });
        }
        let r = fit(3, &games, Anchor::Mean, 100, 3);
        assert_eq!(r.bound, vec![Some(Bound::Lower), None, Some(Bound::Upper)]);
        assert_eq!(r.interval95[0].1, f64::INFINITY);
        assert!(r.interval95[0].0.is_finite() && r.interval95[0].0 < r.elo[0]);
        assert_eq!(r.interval95[2].0, f64::NEG_INFINITY);
        assert!(r.interval95[1].0.is_finite() && r.interval95[1].1.is_finite());
    }

    #[test]
    fn monte_carlo_error_shrinks_with_samples() {
        let games = synthetic(&[0.0, 40.0, 90.0], 10.0, 0.3, 40, 11);
        let few = fit(3, &games, Anchor::Mean, 100, 1);
        let many = fit(3, &games, Anchor::Mean, 1600, 1);
        assert_eq!((few.samples, many.samples, many.seed), (100, 1600, 1));
        // LOS: at most 1.96·0.5/√B.
        assert!(few.mc_error95.los <= Z95 * 0.5 / 10.0 + 1e-12);
        assert!(many.mc_error95.los <= Z95 * 0.5 / 40.0 + 1e-12);
        // Interval ends: about 1/√B, so 16× the samples give about a quarter of the error.
        let ratio = many.mc_error95.interval_ends / few.mc_error95.interval_ends;
        assert!((0.1..0.5).contains(&ratio), "{ratio}");
        // The actual change between seeds stays within a few times the stated error.
        let other = fit(3, &games, Anchor::Mean, 1600, 2);
        for i in 0..3 {
            for (a, b) in [
                (many.interval95[i].0, other.interval95[i].0),
                (many.interval95[i].1, other.interval95[i].1),
            ] {
                assert!(
                    (a - b).abs() < 3.0 * many.mc_error95.interval_ends,
                    "{a} {b}"
                );
            }
        }
        assert!(fit(3, &games, Anchor::Mean, 0, 1).mc_error95.los.is_nan());
    }

    #[test]
    fn quantile_error_matches_the_binomial_ranks() {
        // 0..1000 evenly: the 2.5% quantile's ranks 24.975 ± 1.96·√(1000·0.025·0.975) = ± 9.677.
        let v: Vec<f64> = (0..1000).map(f64::from).collect();
        let e = quantile_mc_error95(&v, 0.025);
        assert!(
            (e - Z95 * (1000.0f64 * 0.025 * 0.975).sqrt()).abs() < 1e-9,
            "{e}"
        );
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
