//! The transposition table of the tree (ours, not the article's): Zobrist keys of the dots the
//! tree has put since the root, with the side to move and both capture counts.
//!
//! One search ([`super::think`]) starts from one root, so a node is its root plus the dots put
//! below it; the key is the XOR of one random 64-bit word per (point, player) of those dots
//! ([`point_key`], Zobrist hashing), of [`TURN_KEY`] when the second player is to move and of a mix
//! of the two capture counts ([`node_key`]). Captures of the same dots played in another order
//! almost always agree; when they do not, the capture counts usually tell the positions apart.
//! Entries are replaced always; a cut-off uses an entry of the same iteration and the same
//! plies left only (the trajectories, hence the moves tried, change with the depth), the best move
//! orders the moves of any later iteration.

use games::{Dots, Player};

/// The word XORed into the key when the second player is to move.
pub const TURN_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The Zobrist word of a dot of `player` on point id `point` (any flat index of the board).
#[inline]
pub fn point_key(point: usize, player: Player) -> u64 {
    mix(((point as u64) << 1 | player.index() as u64).wrapping_add(0x2545_f491_4f6c_dd1d))
}

/// The word of a trajectory found below the root (option `inner`): its owner and its point ids,
/// mixed so that the XOR of the words of a set of trajectories does not equal the word of another
/// trajectory (as a plain XOR of [`point_key`]s would: {a} and {b} against {a, b}).
pub fn trajectory_key(owner: Player, points: &[usize]) -> u64 {
    let xor = points.iter().fold(0u64, |k, &p| k ^ point_key(p, owner));
    mix(xor ^ (points.len() as u64).wrapping_mul(0x3c6e_f372_fe94_f82b))
}

/// The key of the node `pos` whose tree dots hash to `dots` (XOR of [`point_key`]s).
#[inline]
pub fn node_key(dots: u64, pos: &Dots) -> u64 {
    use games::Game;
    let turn = if pos.turn() == Player::Second {
        TURN_KEY
    } else {
        0
    };
    let caps =
        u64::from(pos.captures(Player::First)) << 32 | u64::from(pos.captures(Player::Second));
    dots ^ turn ^ mix(caps ^ 0x6a09_e667_f3bc_c909)
}

/// What an entry's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// The exact negamax value.
    #[default]
    Exact,
    /// At least the value (a cut-off: the value reached beta).
    Lower,
    /// At most the value (no move reached alpha).
    Upper,
}

/// One entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Entry {
    /// The full key (0: empty).
    pub key: u64,
    /// The value, side to move's view (capture difference, or ± a grounding win).
    pub value: i32,
    /// The best move's point id (0: none).
    pub best: u16,
    /// Plies left when it was stored.
    pub plies: u8,
    /// The iteration (full moves) that stored it.
    pub iteration: u8,
    /// What `value` is.
    pub bound: Bound,
}

/// A table of `2^bits` entries, indexed by the key's low bits.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each); `bits = 0` gives one entry.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// The entry of `key`, if stored and not overwritten.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && key != 0).then_some(e)
    }

    /// Stores `e` (always replaces).
    #[inline]
    pub fn store(&mut self, e: Entry) {
        self.entries[e.key as usize & self.mask] = e;
    }
}
