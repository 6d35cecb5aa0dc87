//! Tic-tac-toe (m,n,k-game) evaluation: open lines by length (seed `002_d88c0e1c38cad7fe.txt`,
//! `Σ Kᵢ·Zᵢ` with the "threats" and "shape" kinds of knowledge).
//!
//! A window is `k` squares in a row, column or diagonal; it is open for a player while it holds no
//! enemy stone. An open window with `c ≥ 1` own stones is worth `ttt_short1` when `c = k − 1`,
//! `ttt_short2` when `c = k − 2`, and `c · ttt_stone` otherwise.

use games::{Game, TicTacToe};

use super::Weights;
use crate::search::Score;

/// Tables for one board size: every window as a list of squares.
#[derive(Clone, Debug)]
pub struct TicTacToeEval {
    width: u8,
    height: u8,
    k: usize,
    /// Each window's squares as (col, row), 0-based from the bottom left.
    windows: Vec<Vec<(u8, u8)>>,
}

impl TicTacToeEval {
    /// The tables for `pos`'s board size and `k`.
    pub fn new(pos: &TicTacToe) -> TicTacToeEval {
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
            width: pos.width(),
            height: pos.height(),
            k: usize::from(pos.k()),
            windows,
        }
    }

    fn line_value(&self, own: usize, w: &Weights) -> Score {
        match own {
            0 => 0,
            c if c + 1 == self.k => w.ttt_short1,
            c if c + 2 == self.k => w.ttt_short2,
            c => c as Score * w.ttt_stone,
        }
    }

    /// `Σ Kᵢ·Zᵢ` for the player to move of `pos`.
    pub fn evaluate(&self, pos: &TicTacToe, w: &Weights) -> Score {
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
                s += self.line_value(a, w);
            } else if a == 0 {
                s -= self.line_value(b, w);
            }
        }
        s
    }

    /// Centre first: minus the squared distance to the centre of the board (in half-squares).
    pub fn order_key(&self, _pos: &TicTacToe, m: games::tictactoe::Move) -> i32 {
        let dc = 2 * i32::from(m.col) - (i32::from(self.width) - 1);
        let dr = 2 * i32::from(m.row) - (i32::from(self.height) - 1);
        -(dc * dc + dr * dr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_by_three_has_eight_lines_and_an_open_two_is_worth_short1() {
        let mut pos = TicTacToe::default();
        let e = TicTacToeEval::new(&pos);
        assert_eq!(e.windows.len(), 8);
        assert_eq!(e.evaluate(&pos, &Weights::default()), 0);
        for m in ["b2", "a1", "c2"] {
            pos.play(m.parse().unwrap()).unwrap();
        }
        // O to move. X: row 2 has two (100), column b and c, diagonal a3-c1 one each (3 × 10);
        // O: row 1, column a one each (2 × 10); the a1-c3 diagonal and X's lines through a1 are closed.
        assert_eq!(e.evaluate(&pos, &Weights::default()), -(100 + 30) + 20);
    }
}
