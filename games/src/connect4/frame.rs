//! Connect Four's board picture: a blue plate with a hole per cell, yellow and red discs, the last disc
//! highlighted and, when a four ended the game, its discs ringed.

use super::Connect4;
use crate::frame::{self, Board, Frame, Layout, Piece, Shape, Style, Text};
use crate::{Game, Outcome};

impl Connect4 {
    /// The frame of [`Game::frame`].
    pub(super) fn picture(&self) -> Frame {
        let (w, h) = (self.width(), self.height());
        let mut f = Frame::new(Board {
            layout: Layout::Grid,
            cols: w.into(),
            rows: h.into(),
            style: Style::Holes,
            col_labels: frame::numbers(w.into()),
            row_labels: Vec::new(),
            colors: Some(["#f2c81b".into(), "#d8342b".into()]),
        });
        let four = self.winning_four();
        for col in 0..w {
            for row in 0..h {
                if let Some(p) = self.get(col, row) {
                    let mut disc = Piece::new(col.into(), row.into(), Shape::Disc, "disc").owned(Some(p));
                    disc.ring = four.contains(&(col, row));
                    f.pieces.push(disc);
                }
            }
        }
        if let Some(&col) = self.history.last() {
            let row = (0..h).rev().find(|&r| self.get(col, r).is_some()).unwrap_or(0);
            f.highlight.push([col.into(), row.into()]);
        }
        f.panel.push(match self.outcome() {
            Some(Outcome::Win(p)) => Text::new(format!("{p} player wins"), Some(p)),
            Some(Outcome::Draw) => Text::new("draw: the board is full", None),
            None => Text::new(format!("{} to move", self.turn()), Some(self.turn())),
        });
        f
    }

    /// The discs (column, row; 0-based) of every line of four or more through the last disc, when it
    /// won the game; empty otherwise.
    pub fn winning_four(&self) -> Vec<(u8, u8)> {
        let Some(Outcome::Win(who)) = self.outcome() else {
            return Vec::new();
        };
        let Some(&col) = self.history.last() else {
            return Vec::new();
        };
        let Some(row) = (0..self.height()).rev().find(|&r| self.get(col, r).is_some()) else {
            return Vec::new();
        };
        let mine = |x: i32, y: i32| match (u8::try_from(x), u8::try_from(y)) {
            (Ok(x), Ok(y)) => self.get(x, y) == Some(who),
            _ => false,
        };
        let mut cells = Vec::new();
        let (c, r0) = (i32::from(col), i32::from(row));
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let back = (1..).take_while(|&k| mine(c - k * dx, r0 - k * dy)).count() as i32;
            let ahead = (1..).take_while(|&k| mine(c + k * dx, r0 + k * dy)).count() as i32;
            if back + ahead + 1 >= 4 {
                for k in -back..=ahead {
                    let cell = ((c + k * dx) as u8, (r0 + k * dy) as u8);
                    if !cells.contains(&cell) {
                        cells.push(cell);
                    }
                }
            }
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use crate::{Connect4, Game};

    #[test]
    fn the_winning_four_is_ringed_and_the_last_disc_highlighted() {
        // The first player's 4 in column 4 and the diagonal: 4455667 wins on the bottom row.
        let pos = Connect4::from_moves(7, 6, "4455667").unwrap();
        let f = pos.frame();
        f.validate().unwrap();
        let ringed: Vec<(u16, u16)> = f
            .pieces
            .iter()
            .filter(|p| p.ring)
            .map(|p| (p.x, p.y))
            .collect();
        assert_eq!(ringed, vec![(3, 0), (4, 0), (5, 0), (6, 0)]);
        assert_eq!(f.highlight, vec![[6, 0]]);
        let open = Connect4::from_moves(7, 6, "445566").unwrap().frame();
        assert!(open.pieces.iter().all(|p| !p.ring));
        assert_eq!(open.panel[0].text, "first to move");
    }
}
