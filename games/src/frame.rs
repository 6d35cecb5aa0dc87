//! The board picture of a position (a "frame"): what a viewer draws, described by the game in a small
//! vocabulary and serialized as JSON, so that one renderer draws every game (the report's replays, the
//! contest server's live board and replay pages; `docs/games.md` documents the vocabulary).
//!
//! A frame is a [`Board`] (a grid of cells, or a lattice of points), the [`Piece`]s on it (each with an
//! owner, a shape and an optional label), [`Line`]s (walls, winning lines), [`Area`]s (filled polygons:
//! bases), a highlight of the last move's spots, and a text panel (scores, seeds). Coordinates are
//! whole cells or points: `x` from 0 at the left, `y` from 0 at the **bottom**.
//!
//! Nothing here knows a game's rules: [`crate::Game::frame`] builds the picture from the position.
//!
//! ```
//! use games::frame::{Frame, Layout, Shape};
//! use games::{Connect4, Game};
//!
//! let pos = Connect4::from_moves(7, 6, "44").unwrap();
//! let frame = pos.frame();
//! assert_eq!((frame.board.layout, frame.board.cols, frame.board.rows), (Layout::Grid, 7, 6));
//! assert_eq!(frame.pieces.len(), 2);
//! assert!(frame.pieces.iter().all(|p| p.shape == Shape::Disc && p.x == 3));
//! assert_eq!(frame.highlight, vec![[3, 1]]);
//! frame.validate().unwrap();
//! let json = serde_json::to_string(&frame).unwrap();
//! assert_eq!(serde_json::from_str::<Frame>(&json).unwrap(), frame);
//! ```

use serde::{Deserialize, Serialize};

use crate::Player;

/// A spot on the board: `[x, y]`, a cell (grid) or a point (lattice), from the bottom left, 0-based.
pub type Spot = [u16; 2];

/// What a move changed in the picture ([`crate::Game::changed`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The spots whose pieces may differ.
    pub spots: Vec<Spot>,
    /// Whether the areas and lines may differ.
    pub outlines: bool,
}

/// The picture of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Frame {
    /// The board under everything.
    pub board: Board,
    /// Filled polygons (bases), drawn first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<Area>,
    /// Lines (walls, winning lines), drawn over the areas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
    /// The pieces, drawn over the lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<Piece>,
    /// The spots of the last move, marked on top.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub highlight: Vec<Spot>,
    /// Lines of text beside the board: scores, seeds in the stores, who is to move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panel: Vec<Text>,
}

/// Where pieces sit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// `cols` × `rows` cells; a piece fills its cell (tic-tac-toe, Connect Four, Kalah).
    #[default]
    Grid,
    /// `cols` × `rows` points where grid lines cross; a piece sits on a point (Dots).
    Points,
}

/// How the board is painted (the renderer's choice of colours and lines; no rule depends on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Thin lines between the cells on white (tic-tac-toe).
    #[default]
    Lines,
    /// A coloured plate with a round hole per cell (Connect Four).
    Holes,
    /// Light grid lines through the points (Dots).
    Paper,
    /// A wooden board whose pieces are pits and stores (mancala games).
    Wood,
}

/// The board: its layout, size, paint and axis labels.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    pub layout: Layout,
    /// Columns (cells or points) across, at least 1.
    pub cols: u16,
    /// Rows up, at least 1.
    pub rows: u16,
    pub style: Style,
    /// The label under each column, left to right (`a`, `b`, … or `1`, `2`, …); empty strings for
    /// columns left unlabelled, no entries for none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub col_labels: Vec<String>,
    /// The label beside each row, bottom to top.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub row_labels: Vec<String>,
    /// The colours of the first and second player (`#rrggbb`); `None`: the viewer's own two colours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colors: Option<[String; 2]>,
}

/// The shape of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// A filled disc filling its cell (Connect Four).
    Disc,
    /// An ×, the first player's mark of tic-tac-toe.
    Cross,
    /// An ○, the second player's mark.
    Ring,
    /// A small filled dot on a point (Dots).
    Dot,
    /// A small filled square on a point: an empty point that belongs to someone (Dots' dead points).
    Square,
    /// A small hollow square: an empty point someone has a claim on (Dots' house points, R9).
    Outline,
    /// A bowl holding seeds; its label is the count (Kalah's pits and stores).
    Pit,
}

/// One piece on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// The cell or point, from the bottom left.
    pub x: u16,
    pub y: u16,
    /// Cells the piece spans across and up (a store spanning both rows of a Kalah board); 1 each.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub w: u16,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub h: u16,
    /// Whose it is; `None`: nobody's (an empty pit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Player>,
    pub shape: Shape,
    /// Text drawn on it (a seed count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Drawn pale: a captured dot, a dead point.
    #[serde(default, skip_serializing_if = "is_false")]
    pub faded: bool,
    /// Drawn with a bright ring: a winning line's pieces.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ring: bool,
    /// What the piece is in the game's own words (`dot`, `captured`, `dead`, `house`, `disc`, `pit`,
    /// `store`): a class for the viewer's stylesheet and for tests, never read as a rule.
    pub kind: String,
}

fn one() -> u16 {
    1
}

fn is_one(v: &u16) -> bool {
    *v == 1
}

fn is_false(v: &bool) -> bool {
    !*v
}

impl Piece {
    /// A 1 × 1 piece of `shape` and `kind` at `x`, `y`, nobody's, unlabelled.
    pub fn new(x: u16, y: u16, shape: Shape, kind: &str) -> Piece {
        Piece {
            x,
            y,
            w: 1,
            h: 1,
            owner: None,
            shape,
            label: None,
            faded: false,
            ring: false,
            kind: kind.to_string(),
        }
    }

    /// The same piece owned by `owner`.
    pub fn owned(mut self, owner: Option<Player>) -> Piece {
        self.owner = owner;
        self
    }

    /// The same piece with `label` written on it.
    pub fn labelled(mut self, label: impl Into<String>) -> Piece {
        self.label = Some(label.into());
        self
    }

    /// The same piece spanning `w` × `h` cells.
    pub fn spanning(mut self, w: u16, h: u16) -> Piece {
        self.w = w;
        self.h = h;
        self
    }

    /// The same piece, drawn pale when `faded`.
    pub fn faded(mut self, faded: bool) -> Piece {
        self.faded = faded;
        self
    }
}

/// What a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// A wall between pieces, in the owner's colour (a base's wall in Dots).
    Wall,
    /// The line that won the game, bright.
    Win,
}

/// A polyline through spots.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Line {
    /// At least two spots.
    pub points: Vec<Spot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Player>,
    pub kind: LineKind,
}

/// A filled polygon (its outline in the owner's colour): a base.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Area {
    /// At least three spots, the outline in order.
    pub points: Vec<Spot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Player>,
    /// What it is in the game's words (`base`), as [`Piece::kind`].
    pub kind: String,
}

/// A line of the text panel, in the owner's colour when it has one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Text {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Player>,
}

impl Text {
    /// A panel line in `owner`'s colour.
    pub fn new(text: impl Into<String>, owner: Option<Player>) -> Text {
        Text {
            text: text.into(),
            owner,
        }
    }
}

/// A frame that breaks the vocabulary's rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("the board is {0} × {1}: both sides must be at least 1")]
    EmptyBoard(u16, u16),
    #[error("{what} at {x},{y} is off the {cols} × {rows} board")]
    OffBoard {
        what: String,
        x: u16,
        y: u16,
        cols: u16,
        rows: u16,
    },
    #[error("{0} spans no cell (w or h is 0)")]
    NoSpan(String),
    #[error("a {kind} line has {points} point(s): at least 2")]
    ShortLine { kind: String, points: usize },
    #[error("a {kind} area has {points} point(s): at least 3")]
    SmallArea { kind: String, points: usize },
    #[error("{which} labels: {given} for {want} {what}")]
    Labels {
        which: &'static str,
        given: usize,
        want: u16,
        what: &'static str,
    },
}

impl Frame {
    /// A frame of `board` with nothing on it.
    pub fn new(board: Board) -> Frame {
        Frame {
            board,
            ..Frame::default()
        }
    }

    /// Checks the vocabulary's rules: a board of at least 1 × 1, every piece (with its span), line point,
    /// area point and highlight on the board, lines of at least 2 points, areas of at least 3, as many
    /// labels as columns and rows (or none).
    ///
    /// # Errors
    /// The first [`FrameError`] found.
    pub fn validate(&self) -> Result<(), FrameError> {
        let Board {
            cols,
            rows,
            col_labels,
            row_labels,
            ..
        } = &self.board;
        let (cols, rows) = (*cols, *rows);
        if cols == 0 || rows == 0 {
            return Err(FrameError::EmptyBoard(cols, rows));
        }
        for (which, given, want, what) in [
            ("column", col_labels.len(), cols, "columns"),
            ("row", row_labels.len(), rows, "rows"),
        ] {
            if given != 0 && given != usize::from(want) {
                return Err(FrameError::Labels {
                    which,
                    given,
                    want,
                    what,
                });
            }
        }
        let on = |what: &str, x: u16, y: u16| {
            if x < cols && y < rows {
                Ok(())
            } else {
                Err(FrameError::OffBoard {
                    what: what.to_string(),
                    x,
                    y,
                    cols,
                    rows,
                })
            }
        };
        for p in &self.pieces {
            let what = format!("a {} piece", p.kind);
            if p.w == 0 || p.h == 0 {
                return Err(FrameError::NoSpan(what));
            }
            on(&what, p.x, p.y)?;
            // A span past the largest coordinate (from a game module's JSON) is off every board.
            let far = |a: u16, span: u16| a.saturating_add(span - 1);
            on(&what, far(p.x, p.w), far(p.y, p.h))?;
        }
        for l in &self.lines {
            let kind = format!("{:?}", l.kind).to_lowercase();
            if l.points.len() < 2 {
                return Err(FrameError::ShortLine {
                    kind,
                    points: l.points.len(),
                });
            }
            for &[x, y] in &l.points {
                on(&format!("a point of a {kind} line"), x, y)?;
            }
        }
        for a in &self.areas {
            if a.points.len() < 3 {
                return Err(FrameError::SmallArea {
                    kind: a.kind.clone(),
                    points: a.points.len(),
                });
            }
            for &[x, y] in &a.points {
                on(&format!("a point of a {} area", a.kind), x, y)?;
            }
        }
        for &[x, y] in &self.highlight {
            on("the highlight", x, y)?;
        }
        Ok(())
    }
}

/// Labels `1`, `2`, … `n`.
pub fn numbers(n: u16) -> Vec<String> {
    (1..=n).map(|k| k.to_string()).collect()
}

/// Labels `a`, `b`, … for `n` ≤ 26 columns.
pub fn letters(n: u16) -> Vec<String> {
    (0..n)
        .map(|k| char::from(b'a' + (k as u8 % 26)).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_what_is_off_the_board() {
        let board = Board {
            cols: 3,
            rows: 2,
            ..Board::default()
        };
        let mut f = Frame::new(board);
        f.validate().unwrap();
        f.pieces.push(Piece::new(2, 1, Shape::Disc, "disc"));
        f.validate().unwrap();
        f.pieces
            .push(Piece::new(2, 0, Shape::Pit, "store").spanning(1, 3));
        let e = f.validate().unwrap_err().to_string();
        assert!(e.contains("store piece at 2,2"), "{e}");
        f.pieces.pop();
        f.lines.push(Line {
            points: vec![[0, 0]],
            owner: None,
            kind: LineKind::Win,
        });
        assert!(matches!(
            f.validate(),
            Err(FrameError::ShortLine { points: 1, .. })
        ));
        f.lines.clear();
        f.board.col_labels = numbers(2);
        assert!(f
            .validate()
            .unwrap_err()
            .to_string()
            .contains("column labels"));
        // A span past the largest coordinate (a game module's JSON) is off the board, not an overflow.
        f.board.col_labels = Vec::new();
        f.pieces
            .push(Piece::new(2, 0, Shape::Pit, "store").spanning(u16::MAX, 1));
        assert!(matches!(f.validate(), Err(FrameError::OffBoard { .. })));
        f.pieces.pop();
        f.board.col_labels = letters(3);
        f.highlight.push([3, 0]);
        assert!(f.validate().unwrap_err().to_string().contains("highlight"));
    }

    #[test]
    fn defaults_are_left_out_of_the_json() {
        let p = Piece::new(1, 2, Shape::Dot, "dot").owned(Some(Player::Second));
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"x":1,"y":2,"owner":"second","shape":"dot","kind":"dot"}"#
        );
    }
}
