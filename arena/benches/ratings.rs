//! `cargo bench -p arena --bench ratings`: the time of `arena ratings` on 50 bots (a double round
//! robin with 10 game pairs per pairing: 24,500 games) for a given number of bootstrap samples. The
//! default sample count (`arena::report::DEFAULT_BOOTSTRAP`) is chosen to stay under a second here
//! in a release build; docs/benchmarks.md has the figures.

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
}

criterion_group!(benches, bench);
criterion_main!(benches);
