//! Random Dots games on an empty 39×32 board, measured like oppai-rs's `field_benchmark`: all points
//! shuffled by a seeded generator; going through the list, each point legal for the side to move is
//! played (players alternating) until the list is exhausted; then the board is reset for the next
//! game (the allocation is reused). One iteration is one whole game (about 1 000 moves).
//!
//! `cargo bench -p games --bench dots -- --warm-up-time 1 --measurement-time 5`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use games::dots::{Dots, Start};
use games::Game;

#[path = "support/dots_points.rs"]
mod dots_points;
use dots_points::{shuffled_points, SEEDS};

fn random_games(c: &mut Criterion) {
    for seed in SEEDS {
        let moves = shuffled_points(39, 32, seed);
        let mut pos = Dots::new(39, 32, Start::Empty);
        pos.play_in_order(&moves);
        let plies = pos.ply();
        let score = pos.score().unwrap();
        c.bench_function(
            &format!(
                "dots_random_game_39x32_seed{seed} ({plies} plies, {}:{})",
                score[0], score[1]
            ),
            |b| b.iter(|| pos.play_in_order(black_box(&moves))),
        );
    }
}

criterion_group!(benches, random_games);
criterion_main!(benches);
