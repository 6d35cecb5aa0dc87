//! Connect Four evaluation on the bitboards of [`games::Connect4`] (Pons's layout: bit
//! `col * (height + 1) + row`).
//!
//! Terms, each own minus the opponent's (seed `002_d88c0e1c38cad7fe.txt`, `Σ Kᵢ·Zᵢ`; the open-window
//! count is the strength `SM` of seed `003_b3294bcb59fe041f.txt` summed instead of maximised):
//! open windows of four by own discs (`c4_line1..3`), discs in the centre column (`c4_centre`),
//! threats (`c4_threat`) and threats on the row parity that favours their owner (`c4_parity`).

use games::{Connect4, Game, Player};

use super::Weights;
use crate::search::Score;

/// Tables for one board size: the windows of four and the row masks.
#[derive(Clone, Debug)]
pub struct Connect4Eval {
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

impl Connect4Eval {
    /// The tables for `pos`'s board size.
    pub fn new(pos: &Connect4) -> Connect4Eval {
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
        Connect4Eval {
            width: pos.width(),
            height: h as u32,
            windows,
            centre,
            board,
            odd_rows,
        }
    }

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

    /// `Σ Kᵢ·Zᵢ` for the player to move of `pos`.
    pub fn evaluate(&self, pos: &Connect4, w: &Weights) -> Score {
        let mask = pos.mask();
        let own = pos.current();
        let opp = mask ^ own;
        let line = [0, w.c4_line1, w.c4_line2, w.c4_line3, w.c4_line3];
        let mut s: Score = 0;
        for &win in &self.windows {
            let a = (win & own).count_ones() as usize;
            let b = (win & opp).count_ones() as usize;
            if b == 0 {
                s += line[a];
            } else if a == 0 {
                s -= line[b];
            }
        }
        let count = |m: u128| m.count_ones() as Score;
        s += w.c4_centre * (count(own & self.centre) - count(opp & self.centre));
        let (t_own, t_opp) = (self.threats(own, mask), self.threats(opp, mask));
        s += w.c4_threat * (count(t_own) - count(t_opp));
        let rows_of = |p: Player| match p {
            Player::First => self.odd_rows,
            Player::Second => self.board & !self.odd_rows,
        };
        let me = pos.turn();
        s += w.c4_parity * (count(t_own & rows_of(me)) - count(t_opp & rows_of(me.opponent())));
        s
    }

    /// Centre first: `-|2·col − (width − 1)|`, so the middle column has the highest key.
    pub fn order_key(&self, _pos: &Connect4, m: games::connect4::Move) -> i32 {
        -(2 * i32::from(m.col) - (i32::from(self.width) - 1)).abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_standard_board_has_69_windows_and_threats_are_empty_cells() {
        let pos = Connect4::from_moves(7, 6, "445566").unwrap();
        let e = Connect4Eval::new(&pos);
        assert_eq!(e.windows.len(), 69);
        // First to move holds 4, 5, 6 on the bottom row: 3 and 7 complete four.
        let t = e.threats(pos.current(), pos.mask());
        assert_eq!(t, (1u128 << (2 * 7)) | (1u128 << (6 * 7)));
        // The second player's three on row 2 also have two threats, on its own parity (even rows).
        let only = |c4_threat, c4_parity| Weights {
            c4_line1: 0,
            c4_line2: 0,
            c4_line3: 0,
            c4_centre: 0,
            c4_threat,
            c4_parity,
            ..Weights::default()
        };
        assert_eq!(e.evaluate(&pos, &only(1, 0)), 0);
        assert_eq!(e.evaluate(&pos, &only(0, 1)), 0);
        let w = Weights::default();
        // Without its third disc the second player, to move, faces two threats.
        let pos = Connect4::from_moves(7, 6, "44556").unwrap();
        assert!(e.evaluate(&pos, &w) < -2 * (w.c4_threat + w.c4_parity));
    }

    #[test]
    fn the_empty_board_is_even_and_the_centre_is_tried_first() {
        let pos = Connect4::default();
        let e = Connect4Eval::new(&pos);
        assert_eq!(e.evaluate(&pos, &Weights::default()), 0);
        let mut cols: Vec<_> = pos.legal_moves();
        cols.sort_by_key(|&m| -e.order_key(&pos, m));
        assert_eq!(
            cols.iter().map(|m| m.col + 1).collect::<Vec<_>>()[..3],
            [4, 3, 5]
        );
    }
}
