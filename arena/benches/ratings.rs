//! `cargo bench -p arena --bench ratings`: the time of `arena ratings` on 50 bots (a double round
//! robin with 10 game pairs per pairing: 24,500 games) for a given number of bootstrap samples. The
//! default sample count (`arena::report::DEFAULT_BOOTSTRAP`) is chosen to stay under a second here
//! in a release build; docs/benchmarks.md has the figures. A second group rates a 200-bot field of
//! 7 rounds of game pairs (1,400 games, the contest server's soak test's size) with the server's
//! provisional and full sample counts.

use std::hint::black_box;
use std::time::Duration;

use arena::stats::elo::score_from_elo;
use arena::stats::ratings::{fit, Anchor, RatedGame};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// 50 bots 10 Elo apart, 10 game pairs (20 games, each side first 10 times) per pairing, 30 % draws.
fn tournament() -> Vec<RatedGame> {
    let n = 50;
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let mut games = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            for _ in 0..10 {
                let p = score_from_elo(10.0 * (a as f64 - b as f64) + 30.0);
                let d = 0.3f64.min(2.0 * p).min(2.0 * (1.0 - p));
                let u: f64 = rng.random();
                let first_points = if u < p - d / 2.0 {
                    1.0
                } else if u < p + d / 2.0 {
                    0.5
                } else {
                    0.0
                };
                games.push(RatedGame {
                    first: a,
                    second: b,
                    first_points,
                });
            }
        }
    }
    games
}

/// 200 bots 2 Elo apart, 7 rounds of random pairings, one game pair (each side first once) per
/// pairing: 1,400 games, as the server's 200-bot Swiss soak test plays.
fn field_of_200() -> Vec<RatedGame> {
    use rand::seq::SliceRandom;
    let n = 200;
    let mut rng = ChaCha8Rng::seed_from_u64(200);
    let mut games = Vec::new();
    let mut order: Vec<usize> = (0..n).collect();
    for _ in 0..7 {
        order.shuffle(&mut rng);
        for pair in order.chunks(2) {
            for (a, b) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let p = score_from_elo(2.0 * (a as f64 - b as f64));
                let u: f64 = rng.random();
                games.push(RatedGame {
                    first: a,
                    second: b,
                    first_points: if u < p { 1.0 } else { 0.0 },
                });
            }
        }
    }
    games
}

fn bench(c: &mut Criterion) {
    let games = tournament();
    let mut group = c.benchmark_group("ratings 50 bots, 24500 games");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for samples in [0usize, 1000, arena::report::DEFAULT_BOOTSTRAP] {
        group.bench_with_input(
            BenchmarkId::new("bootstrap samples", samples),
            &samples,
            |bench, &s| bench.iter(|| black_box(fit(50, &games, Anchor::Mean, s, 1))),
        );
    }
    group.finish();

    let games = field_of_200();
    let mut group = c.benchmark_group("ratings 200 bots, 1400 games");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    // The contest server's provisional table (feature `server`), then the report's.
    #[cfg(feature = "server")]
    let provisional = Some(arena::serve::web::standings::PROVISIONAL_BOOTSTRAP);
    #[cfg(not(feature = "server"))]
    let provisional = None;
    for samples in provisional
        .into_iter()
        .chain([arena::report::DEFAULT_BOOTSTRAP])
    {
        group.bench_with_input(
            BenchmarkId::new("bootstrap samples", samples),
            &samples,
            |bench, &s| bench.iter(|| black_box(fit(200, &games, Anchor::Mean, s, 1))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
