//! Dots's board picture: the lattice of points, the dots (captured ones pale), the empty points inside
//! bases (filled squares in the capturer's colour) and houses (hollow squares, R9), each base whose
//! wall still stands as a filled polygon, the last dot highlighted, the captures in the panel.

use super::{Dots, Move, Point};
use crate::frame::{Area, Board, Changed, Frame, Layout, Piece, Shape, Spot, Style, Text};
use crate::Player;

/// Labels for `n` points: `1`, every fifth, and `n`; the others empty.
fn thinned(n: u8) -> Vec<String> {
    (1..=n)
        .map(|k| {
            if k == 1 || k % 5 == 0 || k == n {
                k.to_string()
            } else {
                String::new()
            }
        })
        .collect()
}

impl Dots {
    /// The frame of [`Game::frame`].
    pub(super) fn picture(&self) -> Frame {
        let mut f = self.frame_without_pieces(Board {
            layout: Layout::Points,
            cols: self.w.into(),
            rows: self.h.into(),
            style: Style::Paper,
            col_labels: thinned(self.w),
            row_labels: thinned(self.h),
            colors: None,
        }, true);
        for (x, y, point) in self.points() {
            f.pieces.extend(piece(x, y, point));
        }
        f
    }

    /// The frame of [`Game::frame_at`]: the pieces on the changed spots only, the board left default,
    /// the bases only when the move may have changed them.
    pub(super) fn picture_at(&self, changed: &Changed) -> Frame {
        let mut f = self.frame_without_pieces(Board::default(), changed.outlines);
        for &[x, y] in &changed.spots {
            let (x, y) = (x as u8 + 1, y as u8 + 1);
            if let Some(point) = self.point(x, y) {
                f.pieces.extend(piece(x, y, point));
            }
        }
        f
    }

    /// What [`Game::changed`] says: the points whose cells the last move wrote (its undo log); the
    /// bases only when it wrote more than its own dot (a base made, a wall captured: only a capture
    /// changes them).
    pub(super) fn changed_spots(&self) -> Option<Changed> {
        let last = self.played.last()?;
        let log = &self.log[last.log_len as usize..];
        let mut spots: Vec<Spot> = log
            .iter()
            .map(|&e| self.coords((e >> 8) as usize))
            .map(|(x, y)| [u16::from(x) - 1, u16::from(y) - 1])
            .collect();
        spots.sort_unstable();
        spots.dedup();
        Some(Changed {
            spots,
            outlines: log.len() > 1,
        })
    }

    /// `board` with the standing bases (when `bases`), the highlight and the panel.
    fn frame_without_pieces(&self, board: Board, bases: bool) -> Frame {
        let mut f = Frame::new(board);
        let spot = |x: u8, y: u8| [u16::from(x) - 1, u16::from(y) - 1];
        // The bases whose walls still stand (none of their wall dots captured since).
        let mut begin = 0;
        for &(p, end) in self.bases.iter().filter(|_| bases) {
            let chain = &self.walls[begin..end as usize];
            begin = end as usize;
            let standing = chain.iter().all(|&i| {
                let (x, y) = self.coords(usize::from(i));
                self.point(x, y) == Some(Point::Dot(p))
            });
            if standing {
                f.areas.push(Area {
                    points: chain
                        .iter()
                        .map(|&i| self.coords(usize::from(i)))
                        .map(|(x, y)| spot(x, y))
                        .collect(),
                    owner: Some(p),
                    kind: "base".into(),
                });
            }
        }
        if let Some(Move::Put { x, y }) = self.moves().last() {
            f.highlight.push(spot(x, y));
        }
        for p in [Player::First, Player::Second] {
            f.panel
                .push(Text::new(format!("captured: {}", self.captures(p)), Some(p)));
        }
        if let Some(p) = self.grounded_by() {
            f.panel.push(Text::new(format!("{p} player grounded"), Some(p)));
        }
        f
    }

    /// The point (x, y) of cell index `i` (1-based, y from the bottom).
    fn coords(&self, i: usize) -> (u8, u8) {
        let x = (i % self.stride) as u8;
        let y = self.h + 1 - (i / self.stride) as u8;
        (x, y)
    }
}

/// The piece on point `x`, `y` (1-based) holding `point`; none on an empty point.
fn piece(x: u8, y: u8, point: Point) -> Option<Piece> {
    let (px, py) = (u16::from(x) - 1, u16::from(y) - 1);
    Some(match point {
        Point::Empty => return None,
        Point::Dot(p) => Piece::new(px, py, Shape::Dot, "dot").owned(Some(p)),
        Point::Captured(p) => Piece::new(px, py, Shape::Dot, "captured")
            .owned(Some(p))
            .faded(true),
        Point::Dead(p) => Piece::new(px, py, Shape::Square, "dead")
            .owned(Some(p))
            .faded(true),
        Point::House(p) => Piece::new(px, py, Shape::Outline, "house").owned(Some(p)),
    })
}

#[cfg(test)]
mod tests {
    use crate::dots::{Dots, Start};
    use crate::frame::Shape;
    use crate::{Game, Player};

    #[test]
    fn a_base_is_an_area_until_its_wall_is_captured() {
        // Blue (first) surrounds Red's dot on 5-5.
        let mut pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8 5-4").unwrap();
        let f = pos.frame();
        f.validate().unwrap();
        assert_eq!(f.areas.len(), 1);
        assert_eq!(f.areas[0].owner, Some(Player::First));
        let mut wall = f.areas[0].points.clone();
        wall.sort();
        assert_eq!(wall, vec![[3, 4], [4, 3], [4, 5], [5, 4]]);
        let captured: Vec<_> = f.pieces.iter().filter(|p| p.kind == "captured").collect();
        assert_eq!((captured.len(), captured[0].x, captured[0].y), (1, 4, 4));
        assert!(captured[0].faded && captured[0].shape == Shape::Dot);
        assert_eq!(f.highlight, vec![[4, 3]]);
        assert_eq!(f.panel[0].text, "captured: 1");
        // Undo takes the base away with the move.
        pos.undo();
        assert!(pos.frame().areas.is_empty());
    }
}
