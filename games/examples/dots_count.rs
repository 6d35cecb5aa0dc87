//! Plays a fixed number of random Dots games on an empty 39×32 board the way `benches/dots.rs`
//! (and oppai-rs's `field_benchmark`) does, for counting instructions, which do not depend on the
//! machine's load:
//!
//! `cargo build --release -p games --example dots_count`
//! `valgrind --tool=callgrind target/release/examples/dots_count 20`
//!
//! The argument is the number of games (default 20), played with the seeds 3, 5, 7 in turn; the
//! output is the plies and the scores summed over all games, which must not change when the engine
//! only gets faster.

use games::dots::{Dots, Move, Start};
use games::Game;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The seeds of `benches/dots.rs`.
const SEEDS: [u64; 3] = [3, 5, 7];

/// Every point of a `width` × `height` board, shuffled by `seed` (as in `benches/dots.rs`).
fn shuffled_points(width: u8, height: u8, seed: u64) -> Vec<Move> {
    let mut moves: Vec<Move> = (1..=height)
        .flat_map(|y| (1..=width).map(move |x| Move::Put { x, y }))
        .collect();
    moves.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    moves
}

fn main() {
    let games: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 20,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("usage: dots_count [GAMES]: {e}");
            std::process::exit(2);
        }
    };
    let lists: Vec<Vec<Move>> = SEEDS.iter().map(|&s| shuffled_points(39, 32, s)).collect();
    let mut pos = Dots::new(39, 32, Start::Empty);
    let (mut plies, mut scores) = (0, [0u64; 2]);
    for g in 0..games {
        let score = pos.play_in_order(&lists[g % lists.len()]);
        plies += pos.ply();
        scores[0] += u64::from(score[0]);
        scores[1] += u64::from(score[1]);
    }
    println!(
        "{games} games, {plies} plies, scores {}:{}",
        scores[0], scores[1]
    );
}
