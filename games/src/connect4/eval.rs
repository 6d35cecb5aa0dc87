//! Connect Four evaluation on the bitboards of [`Connect4`] (Pons's layout: bit
//! `col * (height + 1) + row`).
//!
//! Terms, each own minus the opponent's (seed `002_d88c0e1c38cad7fe.txt`, `Σ Kᵢ·Zᵢ`; the open-window
//! count is the strength `SM` of seed `003_b3294bcb59fe041f.txt` summed instead of maximised):
//! open windows of four by own discs (`c4_line1..3`), discs in the centre column (`c4_centre`),
//! threats (`c4_threat`) and threats on the row parity that favours their owner (`c4_parity`).

use super::{Connect4, Move};
use crate::eval::{Evaluation, Score, Weight, Weights};
use crate::{Game, Player};

/// The weights: open windows by own discs, centre discs, threats and their row parity.
pub const WEIGHTS: &[Weight] = &[
    Weight {
        name: "c4_line1",
        default: 1,
        doc: "an open window of four (no enemy disc) holding one own disc",
    },
    Weight {
        name: "c4_line2",
        default: 5,
        doc: "an open window holding two own discs",
    },
    Weight {
        name: "c4_line3",
        default: 20,
        doc: "an open window holding three own discs",
    },
    Weight {
        name: "c4_centre",
        default: 4,
        doc: "each own disc in the centre column (both middle columns on an even width)",
    },
    Weight {
        name: "c4_threat",
        default: 30,
        doc: "each threat, an empty cell that would complete an own four",
    },
    Weight {
        name: "c4_parity",
        default: 20,
        doc: "bonus per threat on a row of the right parity (odd rows, counted from 1 at the \
              bottom, for the first player; even rows for the second), the rows zugzwang hands to that player",
    },
];

/// Tables for one board size (the windows of four and the row masks) and the weights.
#[derive(Clone, Debug)]
pub struct Connect4Eval {
    /// `[0, c4_line1, c4_line2, c4_line3, c4_line3]`, by own discs in an open window.
    line: [Score; 5],
    centre_w: Score,
    threat_w: Score,
    parity_w: Score,
    width: u8,
    height: u32,
    /// Every line of four cells (vertical, horizontal, both diagonals) as a bit mask.
    windows: Vec<u128>,
    /// The centre column, or both middle columns of an even width.
    centre: u128,
    /// Every playable cell (no sentinels).
    board: u128,
    /// Cells on odd rows counted from 1 at the bottom (row index 0, 2, …): the first player's.
    odd_rows: u128,
}

impl Evaluation<Connect4> for Connect4Eval {
    const WEIGHTS: &'static [Weight] = WEIGHTS;

    /// The tables for `pos`'s board size.
    fn new(pos: &Connect4, weights: &Weights) -> Connect4Eval {
        let (w, h) = (i32::from(pos.width()), i32::from(pos.height()));
        let bit = |c: i32, r: i32| 1u128 << (c * (h + 1) + r);
        let on = |c: i32, r: i32| (0..w).contains(&c) && (0..h).contains(&r);
        let mut windows = Vec::new();
        for c in 0..w {
            for r in 0..h {
                for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if on(c + 3 * dc, r + 3 * dr) {
                        windows.push((0..4).fold(0, |m, i| m | bit(c + i * dc, r + i * dr)));
                    }
                }
            }
        }
        let column = |c: i32| (0..h).fold(0u128, |m, r| m | bit(c, r));
        let centre = column((w - 1) / 2) | column(w / 2);
        let board = (0..w).fold(0, |m, c| m | column(c));
        let odd_rows = (0..w).fold(0, |m, c| (0..h).step_by(2).fold(m, |m, r| m | bit(c, r)));
        let k = |i: usize| weights.get(&WEIGHTS[i]);
        Connect4Eval {
            line: [0, k(0), k(1), k(2), k(2)],
            centre_w: k(3),
            threat_w: k(4),
            parity_w: k(5),
            width: pos.width(),
            height: h as u32,
            windows,
            centre,
            board,
            odd_rows,
        }
    }

    /// `Σ Kᵢ·Zᵢ` for the player to move of `pos`.
    fn evaluate(&self, pos: &Connect4) -> Score {
        let mask = pos.mask();
        let own = pos.current();
        let opp = mask ^ own;
        let mut s: Score = 0;
        for &win in &self.windows {
            let a = (win & own).count_ones() as usize;
            let b = (win & opp).count_ones() as usize;
            if b == 0 {
                s += self.line[a];
            } else if a == 0 {
                s -= self.line[b];
            }
        }
        let count = |m: u128| m.count_ones() as Score;
        s += self.centre_w * (count(own & self.centre) - count(opp & self.centre));
        let (t_own, t_opp) = (self.threats(own, mask), self.threats(opp, mask));
        s += self.threat_w * (count(t_own) - count(t_opp));
        let rows_of = |p: Player| match p {
            Player::First => self.odd_rows,
            Player::Second => self.board & !self.odd_rows,
        };
        let me = pos.turn();
        s += self.parity_w * (count(t_own & rows_of(me)) - count(t_opp & rows_of(me.opponent())));
        s
    }

    /// Centre first: `-|2·col − (width − 1)|`, so the middle column has the highest key.
    fn order_key(&self, _pos: &Connect4, m: Move) -> i32 {
        -(2 * i32::from(m.col) - (i32::from(self.width) - 1)).abs()
    }
}

impl Connect4Eval {
    /// The empty cells where `stones` would complete four: Pons's `compute_winning_position`
    /// ("Solving Connect 4", part "Better move ordering"), for any height.
    fn threats(&self, stones: u128, mask: u128) -> u128 {
        let p = stones;
        let h = self.height;
        let mut r = (p << 1) & (p << 2) & (p << 3);
        for s in [h + 1, h, h + 2] {
            let t = (p << s) & (p << (2 * s));
            r |= t & (p << (3 * s));
            r |= t & (p >> s);
            let t = (p >> s) & (p >> (2 * s));
            r |= t & (p << s);
            r |= t & (p >> (3 * s));
        }
        r & self.board & !mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standard_board_has_69_windows_and_threats_are_empty_cells() {
        let pos = Connect4::from_moves(7, 6, "445566").unwrap();
        let e = Connect4Eval::new(&pos, &Weights::default());
        assert_eq!(e.windows.len(), 69);
        // First to move holds 4, 5, 6 on the bottom row: 3 and 7 complete four.
        let t = e.threats(pos.current(), pos.mask());
        assert_eq!(t, (1u128 << (2 * 7)) | (1u128 << (6 * 7)));
        // The second player's three on row 2 also have two threats, on its own parity (even rows).
        let only = |threat, parity| {
            let mut w = Weights::default();
            for (k, v) in [0, 0, 0, 0, threat, parity].into_iter().enumerate() {
                w.set(&WEIGHTS[k], v);
            }
            Connect4Eval::new(&pos, &w)
        };
        assert_eq!(only(1, 0).evaluate(&pos), 0);
        assert_eq!(only(0, 1).evaluate(&pos), 0);
        // Without its third disc the second player, to move, faces two threats.
        let pos = Connect4::from_moves(7, 6, "44556").unwrap();
        assert!(e.evaluate(&pos) < -2 * (30 + 20));
    }

    #[test]
    fn the_empty_board_is_even_and_the_centre_is_tried_first() {
        let pos = Connect4::default();
        let e = Connect4Eval::new(&pos, &Weights::default());
        assert_eq!(e.evaluate(&pos), 0);
        let mut cols: Vec<_> = pos.legal_moves();
        cols.sort_by_key(|&m| -e.order_key(&pos, m));
        assert_eq!(
            cols.iter().map(|m| m.col + 1).collect::<Vec<_>>()[..3],
            [4, 3, 5]
        );
    }
}
