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

#[path = "../benches/support/dots_points.rs"]
mod dots_points;
use dots_points::{shuffled_points, SEEDS};

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
