//! The random games of the Dots rules benchmark, shared by `benches/dots.rs` and
//! `examples/dots_count.rs` (included there with `#[path]`), so the timed and the counted games are
//! the same.

use games::dots::Move;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The seeds of the measured games.
pub const SEEDS: [u64; 3] = [3, 5, 7];

/// Every point of a `width` × `height` board, shuffled by `seed`: with [`games::Dots::play_in_order`]
/// one random full game, as oppai-rs's `field_benchmark` plays it.
pub fn shuffled_points(width: u8, height: u8, seed: u64) -> Vec<Move> {
    let mut moves: Vec<Move> = (1..=height)
        .flat_map(|y| (1..=width).map(move |x| Move::Put { x, y }))
        .collect();
    moves.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    moves
}
