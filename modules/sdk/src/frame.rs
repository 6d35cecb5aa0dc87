//! The board picture a module gives (`arena_frame`), in the vocabulary of the arena's frames
//! (`docs/games.md`, "The board picture"; `games/src/frame.rs`), written as JSON without a library.
//!
//! Coordinates are whole cells (a grid) or points (a lattice): `x` from 0 at the left, `y` from 0 at
//! the **bottom**.

use crate::Side;

/// Where pieces sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Cells; a piece fills its cell.
    Grid,
    /// Points where grid lines cross.
    Points,
}

/// How the board is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Thin lines between the cells (tic-tac-toe).
    Lines,
    /// A plate with a hole per cell (Connect Four).
    Holes,
    /// Light lines through the points (Dots, Go-like boards).
    Paper,
    /// Wood, pits and stores (mancala games).
    Wood,
}

/// The shape of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Disc,
    Cross,
    Ring,
    Dot,
    Square,
    Outline,
    Pit,
}

/// What a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A wall in the owner's colour.
    Wall,
    /// The line that won the game.
    Win,
}

/// One piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub x: u16,
    pub y: u16,
    /// Cells spanned across and up (1 each by default).
    pub w: u16,
    pub h: u16,
    pub owner: Option<Side>,
    pub shape: Shape,
    pub label: Option<String>,
    pub faded: bool,
    pub ring: bool,
    /// What it is in the game's words (`disc`, `stone`): a class for the viewer, never a rule.
    pub kind: String,
}

impl Piece {
    /// A 1 × 1 piece of `owner` at `x`, `y`.
    pub fn new(x: u16, y: u16, owner: Option<Side>, shape: Shape, kind: &str) -> Piece {
        Piece {
            x,
            y,
            w: 1,
            h: 1,
            owner,
            shape,
            label: None,
            faded: false,
            ring: false,
            kind: kind.to_string(),
        }
    }
}

/// A polyline through spots `[x, y]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub points: Vec<[u16; 2]>,
    pub owner: Option<Side>,
    pub kind: LineKind,
}

/// A filled polygon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    pub points: Vec<[u16; 2]>,
    pub owner: Option<Side>,
    pub kind: String,
}

/// The picture of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub layout: Layout,
    pub cols: u16,
    pub rows: u16,
    pub style: Style,
    /// One label per column (left to right) or none.
    pub col_labels: Vec<String>,
    /// One label per row (bottom to top) or none.
    pub row_labels: Vec<String>,
    /// The two players' colours, `#rrggbb`; `None`: the viewer's.
    pub colors: Option<[String; 2]>,
    pub areas: Vec<Area>,
    pub lines: Vec<Line>,
    pub pieces: Vec<Piece>,
    /// The spots of the last move.
    pub highlight: Vec<[u16; 2]>,
    /// Lines of text beside the board, each in its owner's colour.
    pub panel: Vec<(String, Option<Side>)>,
}

impl Frame {
    /// An empty `cols` × `rows` grid with thin lines.
    pub fn grid(cols: u16, rows: u16) -> Frame {
        Frame {
            layout: Layout::Grid,
            cols,
            rows,
            style: Style::Lines,
            col_labels: Vec::new(),
            row_labels: Vec::new(),
            colors: None,
            areas: Vec::new(),
            lines: Vec::new(),
            pieces: Vec::new(),
            highlight: Vec::new(),
            panel: Vec::new(),
        }
    }

    /// The frame as the JSON the arena reads (`games::Frame`); defaults are left out.
    pub fn to_json(&self) -> String {
        let mut j = Json(String::with_capacity(256));
        j.0.push_str("{\"board\":{\"layout\":");
        j.str(match self.layout {
            Layout::Grid => "grid",
            Layout::Points => "points",
        });
        j.0.push_str(&format!(
            ",\"cols\":{},\"rows\":{},\"style\":",
            self.cols, self.rows
        ));
        j.str(match self.style {
            Style::Lines => "lines",
            Style::Holes => "holes",
            Style::Paper => "paper",
            Style::Wood => "wood",
        });
        if !self.col_labels.is_empty() {
            j.0.push_str(",\"col_labels\":");
            j.strs(&self.col_labels);
        }
        if !self.row_labels.is_empty() {
            j.0.push_str(",\"row_labels\":");
            j.strs(&self.row_labels);
        }
        if let Some(c) = &self.colors {
            j.0.push_str(",\"colors\":");
            j.strs(c);
        }
        j.0.push('}');
        if !self.areas.is_empty() {
            j.0.push_str(",\"areas\":[");
            for (k, a) in self.areas.iter().enumerate() {
                j.sep(k);
                j.0.push_str("{\"points\":");
                j.spots(&a.points);
                j.owner(a.owner);
                j.0.push_str(",\"kind\":");
                j.str(&a.kind);
                j.0.push('}');
            }
            j.0.push(']');
        }
        if !self.lines.is_empty() {
            j.0.push_str(",\"lines\":[");
            for (k, l) in self.lines.iter().enumerate() {
                j.sep(k);
                j.0.push_str("{\"points\":");
                j.spots(&l.points);
                j.owner(l.owner);
                j.0.push_str(",\"kind\":");
                j.str(match l.kind {
                    LineKind::Wall => "wall",
                    LineKind::Win => "win",
                });
                j.0.push('}');
            }
            j.0.push(']');
        }
        if !self.pieces.is_empty() {
            j.0.push_str(",\"pieces\":[");
            for (k, p) in self.pieces.iter().enumerate() {
                j.sep(k);
                j.0.push_str(&format!("{{\"x\":{},\"y\":{}", p.x, p.y));
                if p.w != 1 {
                    j.0.push_str(&format!(",\"w\":{}", p.w));
                }
                if p.h != 1 {
                    j.0.push_str(&format!(",\"h\":{}", p.h));
                }
                j.owner(p.owner);
                j.0.push_str(",\"shape\":");
                j.str(match p.shape {
                    Shape::Disc => "disc",
                    Shape::Cross => "cross",
                    Shape::Ring => "ring",
                    Shape::Dot => "dot",
                    Shape::Square => "square",
                    Shape::Outline => "outline",
                    Shape::Pit => "pit",
                });
                if let Some(l) = &p.label {
                    j.0.push_str(",\"label\":");
                    j.str(l);
                }
                if p.faded {
                    j.0.push_str(",\"faded\":true");
                }
                if p.ring {
                    j.0.push_str(",\"ring\":true");
                }
                j.0.push_str(",\"kind\":");
                j.str(&p.kind);
                j.0.push('}');
            }
            j.0.push(']');
        }
        if !self.highlight.is_empty() {
            j.0.push_str(",\"highlight\":");
            j.spots(&self.highlight);
        }
        if !self.panel.is_empty() {
            j.0.push_str(",\"panel\":[");
            for (k, (text, owner)) in self.panel.iter().enumerate() {
                j.sep(k);
                j.0.push_str("{\"text\":");
                j.str(text);
                j.owner(*owner);
                j.0.push('}');
            }
            j.0.push(']');
        }
        j.0.push('}');
        j.0
    }
}

/// Labels `1`, `2`, … `n`.
pub fn numbers(n: u16) -> Vec<String> {
    (1..=n).map(|k| k.to_string()).collect()
}

/// Labels `a`, `b`, … (`n` ≤ 26).
pub fn letters(n: u16) -> Vec<String> {
    (0..n)
        .map(|k| ((b'a' + (k % 26) as u8) as char).to_string())
        .collect()
}

struct Json(String);

impl Json {
    fn str(&mut self, s: &str) {
        self.0.push('"');
        for c in s.chars() {
            match c {
                '"' => self.0.push_str("\\\""),
                '\\' => self.0.push_str("\\\\"),
                '\n' => self.0.push_str("\\n"),
                c if (c as u32) < 0x20 => self.0.push_str(&format!("\\u{:04x}", c as u32)),
                c => self.0.push(c),
            }
        }
        self.0.push('"');
    }

    fn strs(&mut self, v: &[String]) {
        self.0.push('[');
        for (k, s) in v.iter().enumerate() {
            self.sep(k);
            self.str(s);
        }
        self.0.push(']');
    }

    fn spots(&mut self, v: &[[u16; 2]]) {
        self.0.push('[');
        for (k, p) in v.iter().enumerate() {
            self.sep(k);
            self.0.push_str(&format!("[{},{}]", p[0], p[1]));
        }
        self.0.push(']');
    }

    fn owner(&mut self, owner: Option<Side>) {
        match owner {
            Some(Side::First) => self.0.push_str(",\"owner\":\"first\""),
            Some(Side::Second) => self.0.push_str(",\"owner\":\"second\""),
            None => {}
        }
    }

    fn sep(&mut self, k: usize) {
        if k > 0 {
            self.0.push(',');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_left_out_and_text_is_escaped() {
        let mut f = Frame::grid(2, 1);
        f.pieces
            .push(Piece::new(1, 0, Some(Side::Second), Shape::Disc, "disc"));
        f.panel.push(("say \"hi\"\n".to_string(), None));
        assert_eq!(
            f.to_json(),
            r#"{"board":{"layout":"grid","cols":2,"rows":1,"style":"lines"},"pieces":[{"x":1,"y":0,"owner":"second","shape":"disc","kind":"disc"}],"panel":[{"text":"say \"hi\"\n"}]}"#
        );
    }
}
