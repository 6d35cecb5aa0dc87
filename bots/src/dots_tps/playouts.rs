//! Flat Monte Carlo among quiet root points (ours, option `playouts`): when the search finds no
//! capture that depends on the root move, the article leaves the choice to the importance of the
//! points alone (formula (1) with a constant `MinMax`). Here the most important quiet points are
//! instead compared by random games: each candidate is played, the rest of the board is filled in a
//! random order (every point in turn when it is legal, as oppai-rs's rules benchmark and
//! [`Dots::play_in_order`] do), and the final capture difference is averaged per candidate.
//! [`crate::dots_tps::think`] then plays the candidate of the best `mean + importance / 1000`
//! (the importance in captures: 0.40 adds 0.4).

use games::dots::Move;
use games::{Dots, Game};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Control;

/// The mean capture difference (the mover's view) of random fills after each candidate, and how
/// many fills each got.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// Per candidate: the sum of the final capture differences, captures.
    pub sum: Vec<i64>,
    /// Per candidate: the random fills played.
    pub games: Vec<u32>,
}

impl Tally {
    /// The mean capture difference of candidate `k` (0 with no fill).
    pub fn mean(&self, k: usize) -> f64 {
        if self.games[k] == 0 {
            0.0
        } else {
            self.sum[k] as f64 / f64::from(self.games[k])
        }
    }
}

/// Random fills after each of `candidates` in turn, round robin, until `ctl` stops (every ply of a
/// fill, the candidate's included, is a simulation node) or `rounds` rounds are done; a fill cut
/// by the stop is not counted. The random order comes from `seed`, so under a node limit the tally
/// is the same on every run. `pos` is left as it was.
pub fn tally(
    pos: &mut Dots,
    candidates: &[Move],
    rounds: u32,
    seed: u64,
    ctl: &mut Control,
) -> Tally {
    let me = pos.turn();
    let mut t = Tally {
        sum: vec![0; candidates.len()],
        games: vec![0; candidates.len()],
    };
    let mut empties: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Put { .. }))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    'rounds: for _ in 0..rounds {
        for (k, &c) in candidates.iter().enumerate() {
            empties.shuffle(&mut rng);
            pos.play_unchecked(c);
            let mut played = 1;
            let mut stopped = ctl.visit_sim();
            for &m in &empties {
                if stopped {
                    break;
                }
                if pos.is_legal(m) {
                    pos.play_unchecked(m);
                    played += 1;
                    stopped = ctl.visit_sim();
                }
            }
            let d = i64::from(pos.captures(me)) - i64::from(pos.captures(me.opponent()));
            for _ in 0..played {
                pos.undo();
            }
            if stopped {
                break 'rounds;
            }
            t.sum[k] += d;
            t.games[k] += 1;
        }
    }
    t
}
