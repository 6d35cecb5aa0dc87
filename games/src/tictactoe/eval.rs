//! Tic-tac-toe (m,n,k-game) evaluation: open lines by length (seed `002_d88c0e1c38cad7fe.txt`,
//! `Σ Kᵢ·Zᵢ` with the "threats" and "shape" kinds of knowledge).
//!
//! A window is `k` squares in a row, column or diagonal; it is open for a player while it holds no
//! enemy stone. An open window with `c ≥ 1` own stones is worth `ttt_short1` when `c = k − 1`,
//! `ttt_short2` when `c = k − 2`, and `c · ttt_stone` otherwise.

use super::{Move, TicTacToe};
use crate::eval::{Evaluation, Score, Weight, Weights};
use crate::Game;

/// The weights: open lines by how many stones they lack.
pub const WEIGHTS: &[Weight] = &[
    Weight {
        name: "ttt_short1",
        default: 100,
        doc: "an open line (a window of k squares without enemy stones) one stone short of k",
    },
    Weight {
        name: "ttt_short2",
        default: 10,
        doc: "an open line two stones short of k",
    },
    Weight {
        name: "ttt_stone",
        default: 1,
        doc: "per own stone in an open line three or more stones short of k",
    },
];

/// Tables for one board size (every window as a list of squares) and the weights.
#[derive(Clone, Debug)]
pub struct TicTacToeEval {
    short1: Score,
    short2: Score,
    stone: Score,
    width: u8,
    height: u8,
    k: usize,
    /// Each window's squares as (col, row), 0-based from the bottom left.
    windows: Vec<Vec<(u8, u8)>>,
}

impl Evaluation<TicTacToe> for TicTacToeEval {
    const WEIGHTS: &'static [Weight] = WEIGHTS;

    /// The tables for `pos`'s board size and `k`.
    fn new(pos: &TicTacToe, weights: &Weights) -> TicTacToeEval {
        let (w, h, k) = (
            i32::from(pos.width()),
            i32::from(pos.height()),
            i32::from(pos.k()),
        );
        let on = |c: i32, r: i32| (0..w).contains(&c) && (0..h).contains(&r);
        let mut windows = Vec::new();
        for c in 0..w {
            for r in 0..h {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    // A window of one square would be counted four times; k = 1 has no lines.
                    if k > 1 && on(c + (k - 1) * dc, r + (k - 1) * dr) {
                        windows.push(
                            (0..k)
                                .map(|i| ((c + i * dc) as u8, (r + i * dr) as u8))
                                .collect(),
                        );
                    }
                }
            }
        }
        TicTacToeEval {
            short1: weights.get(&WEIGHTS[0]),
            short2: weights.get(&WEIGHTS[1]),
            stone: weights.get(&WEIGHTS[2]),
            width: pos.width(),
            height: pos.height(),
            k: usize::from(pos.k()),
            windows,
        }
    }

    /// `Σ Kᵢ·Zᵢ` for the player to move of `pos`.
    fn evaluate(&self, pos: &TicTacToe) -> Score {
        let me = pos.turn();
        let mut s = 0;
        for win in &self.windows {
            let (mut a, mut b) = (0, 0);
            for &(c, r) in win {
                match pos.get(c, r) {
                    Some(p) if p == me => a += 1,
                    Some(_) => b += 1,
                    None => {}
                }
            }
            if b == 0 {
                s += self.line_value(a);
            } else if a == 0 {
                s -= self.line_value(b);
            }
        }
        s
    }

    /// Centre first: minus the squared distance to the centre of the board (in half-squares).
    fn order_key(&self, _pos: &TicTacToe, m: Move) -> i32 {
        let dc = 2 * i32::from(m.col) - (i32::from(self.width) - 1);
        let dr = 2 * i32::from(m.row) - (i32::from(self.height) - 1);
        -(dc * dc + dr * dr)
    }
}

impl TicTacToeEval {
    fn line_value(&self, own: usize) -> Score {
        match own {
            0 => 0,
            c if c + 1 == self.k => self.short1,
            c if c + 2 == self.k => self.short2,
            c => c as Score * self.stone,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_by_three_has_eight_lines_and_an_open_two_is_worth_short1() {
        let mut pos = TicTacToe::default();
        let e = TicTacToeEval::new(&pos, &Weights::default());
        assert_eq!(e.windows.len(), 8);
        assert_eq!(e.evaluate(&pos), 0);
        for m in ["b2", "a1", "c2"] {
            pos.play(m.parse().unwrap()).unwrap();
        }
        // O to move. X: row 2 has two (100), column b and c, diagonal a3-c1 one each (3 × 10);
        // O: row 1, column a one each (2 × 10); the a1-c3 diagonal and X's lines through a1 are closed.
        assert_eq!(e.evaluate(&pos), -(100 + 30) + 20);
    }
}
