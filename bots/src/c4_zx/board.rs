//! The board of the article's listing and its strength formula `SM` (subroutine 1000, with subroutine
//! 2000, the first empty cell of a column), seed `003_b3294bcb59fe041f.txt`, ZX Format #5.
//!
//! The listing's `A(7, 6)` holds 0 (empty), 1 or 2 (the two colours), `A(X, 1)` the bottom row. Here the
//! board is any Connect Four size up to 9×9 (the listing's loops run to the board's width and height
//! instead of 7 and 6); columns and rows are 0-based, row 0 at the bottom.

use std::fmt;

use games::{Connect4, Game};

/// The largest width and height, as [`games::Connect4`] allows.
pub const MAX_SIZE: usize = 9;
/// An empty cell (the listing's 0).
pub const EMPTY: u8 = 0;
/// The colour the engine plays: the article's colour 1 (the computer).
pub const OWN: u8 = 1;
/// The opponent's colour: the article's colour 2.
pub const OPP: u8 = 2;

/// The colour opposite `colour` (the listing's line 1000, `D = 3 − C`).
pub const fn other(colour: u8) -> u8 {
    3 - colour
}

/// A Connect Four board with discs of colours [`OWN`] and [`OPP`]; `width` × `height` cells, each
/// 1..=[`MAX_SIZE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    /// `cells[col][row]`, row 0 at the bottom.
    cells: [[u8; MAX_SIZE]; MAX_SIZE],
    /// Discs per column, which is also the row of the column's first empty cell.
    heights: [usize; MAX_SIZE],
}

/// A board text that [`Board::from_rows`] cannot read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad board: {0}")]
pub struct ParseBoardError(String);

impl Board {
    /// The empty `width` × `height` board.
    ///
    /// # Panics
    /// If a side is outside 1..=[`MAX_SIZE`].
    pub fn new(width: usize, height: usize) -> Board {
        assert!(
            (1..=MAX_SIZE).contains(&width) && (1..=MAX_SIZE).contains(&height),
            "board {width}x{height} out of range 1..={MAX_SIZE}"
        );
        Board {
            width,
            height,
            cells: [[EMPTY; MAX_SIZE]; MAX_SIZE],
            heights: [0; MAX_SIZE],
        }
    }

    /// The position of `pos` seen by its side to move: the mover's discs are [`OWN`], the other's
    /// [`OPP`].
    pub fn from_connect4(pos: &Connect4) -> Board {
        let mut b = Board::new(usize::from(pos.width()), usize::from(pos.height()));
        for col in 0..pos.width() {
            for row in 0..pos.height() {
                if let Some(p) = pos.get(col, row) {
                    let colour = if p == pos.turn() { OWN } else { OPP };
                    b.cells[usize::from(col)][usize::from(row)] = colour;
                    b.heights[usize::from(col)] = usize::from(row) + 1;
                }
            }
        }
        b
    }

    /// A board from text rows, the top row first, as [`games::Connect4`] prints them: `X` a disc of
    /// [`OWN`], `O` of [`OPP`], `.` empty. Whose turn it is does not matter to this module.
    ///
    /// # Errors
    /// Rows of different lengths, a size outside 1..=[`MAX_SIZE`], another character, or a disc above
    /// an empty cell.
    pub fn from_rows(rows: &[&str]) -> Result<Board, ParseBoardError> {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.chars().count());
        if !(1..=MAX_SIZE).contains(&width) || !(1..=MAX_SIZE).contains(&height) {
            return Err(ParseBoardError(format!("size {width}x{height}")));
        }
        let mut b = Board::new(width, height);
        for (i, text) in rows.iter().enumerate() {
            let row = height - 1 - i;
            if text.chars().count() != width {
                return Err(ParseBoardError(format!(
                    "row {:?} is not {width} wide",
                    text
                )));
            }
            for (col, ch) in text.chars().enumerate() {
                b.cells[col][row] = match ch {
                    'X' => OWN,
                    'O' => OPP,
                    '.' => EMPTY,
                    _ => return Err(ParseBoardError(format!("character {ch:?}"))),
                };
            }
        }
        for col in 0..width {
            let h = (0..height)
                .take_while(|&r| b.cells[col][r] != EMPTY)
                .count();
            if (h..height).any(|r| b.cells[col][r] != EMPTY) {
                return Err(ParseBoardError(format!(
                    "a disc floats in column {}",
                    col + 1
                )));
            }
            b.heights[col] = h;
        }
        Ok(b)
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The cell at `col`, `row` (0-based, row 0 at the bottom): [`EMPTY`], [`OWN`] or [`OPP`].
    ///
    /// # Panics
    /// Off the board.
    pub fn get(&self, col: usize, row: usize) -> u8 {
        assert!(col < self.width && row < self.height, "off the board");
        self.cells[col][row]
    }

    /// The row of the first empty cell of `col`, `None` when the column is full: subroutine 2000
    /// (its `Y1 = 8` is our `None`).
    pub fn first_empty(&self, col: usize) -> Option<usize> {
        let h = self.heights[col];
        (h < self.height).then_some(h)
    }

    /// Drops a disc of `colour` into `col`; returns its row, or `None` (and changes nothing) when the
    /// column is full (lines 110–125).
    pub fn drop_disc(&mut self, col: usize, colour: u8) -> Option<usize> {
        let row = self.first_empty(col)?;
        self.cells[col][row] = colour;
        self.heights[col] += 1;
        Some(row)
    }

    /// Takes the top disc out of `col` (lines 190–200 and 220–230).
    ///
    /// # Panics
    /// If the column is empty.
    pub fn lift_disc(&mut self, col: usize) {
        let h = self.heights[col];
        assert!(h > 0, "lift from an empty column");
        self.heights[col] = h - 1;
        self.cells[col][h - 1] = EMPTY;
    }

    /// Whether every cell is taken.
    pub fn is_full(&self) -> bool {
        (0..self.width).all(|c| self.heights[c] == self.height)
    }

    /// Whether the disc at `col`, `row` is part of four in a row of its colour (any direction).
    pub fn four_through(&self, col: usize, row: usize) -> bool {
        let colour = self.cells[col][row];
        if colour == EMPTY {
            return false;
        }
        let same = |c: isize, r: isize| {
            c >= 0
                && r >= 0
                && (c as usize) < self.width
                && (r as usize) < self.height
                && self.cells[c as usize][r as usize] == colour
        };
        let (c0, r0) = (col as isize, row as isize);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&k| same(c0 + sign * k * dc, r0 + sign * k * dr))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// The strength `SM` of `colour` (subroutine 1000): the largest number of `colour`'s discs in a
    /// window of four cells (vertical, horizontal, either diagonal) that holds no disc of the other
    /// colour and is *open*. 0..=4; 4 means four in a row, 3 an own three whose missing cell can be
    /// played at once (a threat to win on the next move).
    ///
    /// Open, as the listing tests it: a vertical window counts as it is (lines 1035–1047: discs in a
    /// column always lie below its empty cells, so its next cell is always playable). A horizontal or
    /// diagonal window is scanned cell by cell (lines 1065–1090, 1120–1150, 1220–1250); an own disc
    /// adds one, and an empty cell must be the first empty cell of its column (subroutine 2000: the
    /// next move can fill it) — if it is not, the window scores 0 however many own
    /// discs it holds. So a horizontal or diagonal window counts only when *every* gap in it can be
    /// filled by the next move; one floating gap closes it. (The prose defines an open line as one
    /// the next move can lengthen and later moves can complete to four, which would also admit a
    /// window with a single playable gap; the listing is stricter, the same way three times, so we
    /// follow the listing.) Line 1030's skip of windows that start on an enemy disc changes
    /// nothing (those windows hold an enemy disc) and is only a speed-up.
    ///
    /// One more letter we do not follow: lines 1070, 1130 and 1230 put `NEXT B` after `THEN`, so when
    /// the window's last cell is an own disc the finished loop falls through into lines 1080/1140/1240
    /// with `B = 4` and tests the cell *beyond* the window — off the board for the last windows of a
    /// row, and able to zero a finished four whose next cell is taken (after which line 310 could not
    /// see the win). We read that as an accident of the `IF … THEN … NEXT` form, not as a rule: the
    /// test is meant for the window's own gaps.
    pub fn sm(&self, colour: u8) -> u8 {
        let enemy = other(colour);
        let (w, h) = (self.width, self.height);
        let mut best = 0u8;
        // Counts one window of cells `(c0 + b·dc, r0 + b·dr)`, b = 0..3, or 0 if it is closed.
        let window = |c0: usize, r0: usize, dc: isize, dr: isize, check_open: bool| -> u8 {
            let mut s = 0u8;
            for b in 0..4isize {
                let c = (c0 as isize + b * dc) as usize;
                let r = (r0 as isize + b * dr) as usize;
                let cell = self.cells[c][r];
                if cell == enemy {
                    return 0;
                }
                if cell == colour {
                    s += 1;
                } else if check_open && self.heights[c] != r {
                    return 0;
                }
            }
            s
        };
        for x in 0..w {
            for y in 0..h {
                // Line 1030.
                if self.cells[x][y] == enemy {
                    continue;
                }
                if y + 3 < h {
                    best = best.max(window(x, y, 0, 1, false));
                }
                if x + 3 < w {
                    best = best.max(window(x, y, 1, 0, true));
                }
                if x + 3 < w && y + 3 < h {
                    best = best.max(window(x, y, 1, 1, true));
                }
                if x >= 3 && y + 3 < h {
                    best = best.max(window(x, y, -1, 1, true));
                }
            }
        }
        best
    }
}

impl fmt::Display for Board {
    /// The rows from the top down, one line each, `X` for [`OWN`], `O` for [`OPP`], `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                f.write_str(match self.cells[col][row] {
                    OWN => "X",
                    OPP => "O",
                    _ => ".",
                })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
