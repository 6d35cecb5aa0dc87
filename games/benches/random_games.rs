//! Random full games: from the start position, random legal moves (seeded) until the game ends, then
//! back to the start. Criterion's time per iteration is the time per game, move generation included.
//! Dots has its own benchmark (`benches/dots.rs`).

use criterion::{criterion_group, criterion_main, Criterion};
use games::kalah::KalahVariant;
use games::{Connect4, Game, Kalah, TicTacToe};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays one random game from `start` with `moves` as the reused move buffer; returns its plies.
fn random_game<G: Game>(start: &G, rng: &mut ChaCha8Rng, moves: &mut Vec<G::Move>) -> usize {
    let mut pos = start.clone();
    while pos.outcome().is_none() {
        moves.clear();
        pos.legal_moves_into(moves);
        let &m = moves.choose(rng).expect("a game on has legal moves");
        pos.play_unchecked(m);
    }
    pos.ply()
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, start: G) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let mut moves = Vec::new();
    c.bench_function(&format!("random full games/{name}"), |b| {
        b.iter(|| random_game(&start, &mut rng, &mut moves))
    });
}

fn random_games(c: &mut Criterion) {
    bench_game(c, "tictactoe 3x3", TicTacToe::default());
    bench_game(c, "connect4 7x6", Connect4::default());
    bench_game(c, "kalah 6 4", Kalah::start(KalahVariant::default()));
}

criterion_group!(benches, random_games);
criterion_main!(benches);
