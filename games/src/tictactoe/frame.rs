//! Tic-tac-toe's board picture: a grid of squares with thin lines, × and ○ marks, the last move
//! highlighted, the winning line drawn.

use super::TicTacToe;
use crate::frame::{self, Board, Frame, Layout, Line, LineKind, Piece, Shape, Style, Text};
use crate::{Game, Outcome, Player};

impl TicTacToe {
    /// The frame of [`Game::frame`].
    pub(super) fn picture(&self) -> Frame {
        let (w, h) = (u16::from(self.width()), u16::from(self.height()));
        let mut f = Frame::new(Board {
            layout: Layout::Grid,
            cols: w,
            rows: h,
            style: Style::Lines,
            col_labels: frame::letters(w),
            row_labels: frame::numbers(h),
            colors: None,
        });
        for row in 0..self.height() {
            for col in 0..self.width() {
                if let Some(p) = self.get(col, row) {
                    let (shape, kind) = match p {
                        Player::First => (Shape::Cross, "cross"),
                        Player::Second => (Shape::Ring, "ring"),
                    };
                    f.pieces
                        .push(Piece::new(col.into(), row.into(), shape, kind).owned(Some(p)));
                }
            }
        }
        if let Some(last) = self.moves().last() {
            f.highlight.push([last.col.into(), last.row.into()]);
            if let Some(Outcome::Win(p)) = self.outcome() {
                if let Some((a, b)) = self.line_through(last, p) {
                    f.lines.push(Line {
                        points: vec![a, b],
                        owner: Some(p),
                        kind: LineKind::Win,
                    });
                }
            }
        }
        f.panel.push(Text::new(
            match self.outcome() {
                Some(Outcome::Win(p)) => format!("{p} player wins"),
                Some(Outcome::Draw) => "draw".into(),
                None => format!("{} to move", self.turn()),
            },
            match self.outcome() {
                Some(Outcome::Win(p)) => Some(p),
                Some(Outcome::Draw) => None,
                None => Some(self.turn()),
            },
        ));
        f
    }

    /// The two ends of the longest run of `p`'s stones through `m`, if it is `k` long or more.
    fn line_through(&self, m: super::Move, p: Player) -> Option<([u16; 2], [u16; 2])> {
        let (c0, r0) = (i32::from(m.col), i32::from(m.row));
        let mine = |c: i32, r: i32| {
            c >= 0 && r >= 0 && self.get(c as u8, r as u8) == Some(p) && c < 256 && r < 256
        };
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let back = (1..).take_while(|&k| mine(c0 - k * dc, r0 - k * dr)).count() as i32;
            let ahead = (1..).take_while(|&k| mine(c0 + k * dc, r0 + k * dr)).count() as i32;
            if back + ahead + 1 >= i32::from(self.k()) {
                let end = |k: i32| [(c0 + k * dc) as u16, (r0 + k * dr) as u16];
                return Some((end(-back), end(ahead)));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::frame::{LineKind, Shape};
    use crate::{Game, TicTacToe};

    #[test]
    fn marks_the_last_move_and_the_winning_line() {
        let mut pos = TicTacToe::default();
        for m in ["a1", "b1", "b2", "c1", "c3"] {
            pos.play(m.parse().unwrap()).unwrap();
        }
        let f = pos.frame();
        f.validate().unwrap();
        assert_eq!(f.pieces.len(), 5);
        assert_eq!(
            f.pieces.iter().filter(|p| p.shape == Shape::Cross).count(),
            3
        );
        assert_eq!(f.highlight, vec![[2, 2]]);
        assert_eq!(f.lines.len(), 1);
        assert_eq!(f.lines[0].kind, LineKind::Win);
        assert_eq!(f.lines[0].points, vec![[0, 0], [2, 2]]);
        assert_eq!(f.panel[0].text, "first player wins");
    }
}
