//! Kalah's board picture: a wooden board of `N + 2` columns and two rows, the second player's store
//! spanning the left column, the first player's the right one, the first player's pits along the
//! bottom (pit 1 at the left), the second player's along the top (pit N+1 at the right); each pit and
//! store labelled with its seeds, the pit last sown highlighted, the stores and the side to move in the
//! panel.

use super::Kalah;
use crate::frame::{Board, Frame, Layout, Piece, Shape, Style, Text};
use crate::{Game, Outcome, Player};

impl Kalah {
    /// The spot of pit `pit` (1..=2N) on the picture.
    fn spot(&self, pit: u8) -> [u16; 2] {
        let n = u16::from(self.pits());
        let p = u16::from(pit);
        if p <= n {
            [p, 0]
        } else {
            [2 * n + 1 - p, 1]
        }
    }

    /// The frame of [`Game::frame`].
    pub(super) fn picture(&self) -> Frame {
        let n = u16::from(self.pits());
        let mut f = Frame::new(Board {
            layout: Layout::Grid,
            cols: n + 2,
            rows: 2,
            style: Style::Wood,
            col_labels: Vec::new(),
            row_labels: Vec::new(),
            colors: None,
        });
        for (p, x) in [(Player::Second, 0), (Player::First, n + 1)] {
            f.pieces.push(
                Piece::new(x, 0, Shape::Pit, "store")
                    .spanning(1, 2)
                    .owned(Some(p))
                    .labelled(self.store(p).to_string()),
            );
        }
        for pit in 1..=2 * self.pits() {
            let [x, y] = self.spot(pit);
            let owner = if pit <= self.pits() {
                Player::First
            } else {
                Player::Second
            };
            let seeds = self.pit(pit).unwrap_or(0);
            f.pieces.push(
                Piece::new(x, y, Shape::Pit, "pit")
                    .owned(Some(owner))
                    .labelled(seeds.to_string()),
            );
        }
        if let Some(m) = self.moves().last() {
            if (1..=2 * self.pits()).contains(&m.pit) {
                f.highlight.push(self.spot(m.pit));
            }
        }
        for p in [Player::First, Player::Second] {
            f.panel
                .push(Text::new(format!("{p} player's store: {}", self.store(p)), Some(p)));
        }
        let again = self.history.last().is_some_and(|h| h.turn == self.turn());
        f.panel.push(match self.outcome() {
            Some(Outcome::Win(p)) => Text::new(format!("{p} player wins"), Some(p)),
            Some(Outcome::Draw) => Text::new("draw", None),
            None if again => Text::new(format!("{} moves again", self.turn()), Some(self.turn())),
            None => Text::new(format!("{} to move", self.turn()), Some(self.turn())),
        });
        f.panel.push(Text::new(
            format!(
                "pits 1-{n} along the bottom, {}-{} along the top from the right",
                n + 1,
                2 * n
            ),
            None,
        ));
        f
    }
}

#[cfg(test)]
mod tests {
    use crate::kalah::{Kalah, KalahVariant};
    use crate::Game;

    #[test]
    fn the_pits_go_round_the_board_and_the_last_pit_sown_is_highlighted() {
        let mut pos = Kalah::start(KalahVariant { pits: 6, seeds: 4 });
        pos.play("3".parse().unwrap()).unwrap();
        let f = pos.frame();
        f.validate().unwrap();
        assert_eq!((f.board.cols, f.board.rows), (8, 2));
        let at = |x: u16, y: u16| {
            f.pieces
                .iter()
                .find(|p| (p.x, p.y) == (x, y))
                .map(|p| (p.kind.as_str(), p.label.clone().unwrap()))
        };
        assert_eq!(at(3, 0), Some(("pit", "0".into())));
        assert_eq!(at(4, 0), Some(("pit", "5".into())));
        assert_eq!(at(7, 0), Some(("store", "1".into())));
        assert_eq!(at(0, 0), Some(("store", "0".into())));
        // Pit 7 is top right, pit 12 top left.
        assert_eq!(pos.spot(7), [6, 1]);
        assert_eq!(pos.spot(12), [1, 1]);
        assert_eq!(f.highlight, vec![[3, 0]]);
        assert_eq!(f.panel[2].text, "first moves again");
    }
}
