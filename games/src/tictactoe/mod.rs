//! Tic-tac-toe as the m,n,k-game: `width` × `height` squares, `k` in a row wins.
//!
//! Squares are named like chess squares: the column letter (`a` = leftmost) then the row number counted
//! from the bottom, 1-based (`a1` is the bottom-left corner, `c3` the top-right one on 3×3).
//!
//! ```
//! use games::{Game, Outcome, Player, TicTacToe};
//!
//! let mut pos = TicTacToe::default();
//! for m in ["a1", "b1", "b2", "c1", "c3"] {
//!     pos.play(m.parse().unwrap()).unwrap();
//! }
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(pos.to_string(), "..X\n.X.\nXOO\n");
//! ```

mod eval;
mod frame;
mod variant;

use std::fmt;
use std::str::FromStr;

pub use eval::TicTacToeEval;
pub use variant::TicTacToeVariant;

use crate::{Frame, Game, Outcome, ParseMoveError, PlayError, Player};

/// A square: `col` 0-based from the left (`a` = 0), `row` 0-based from the bottom (`1` = 0).
///
/// Notation (`Display`/`FromStr`): the column letter `a`..`z` then the 1-based row number, `a1`, `c3`,
/// `z26`. Parsing checks the syntax only (one lowercase letter, then a number 1..=256 without a leading
/// zero or a sign); whether the square is on the board is [`Game::check`]'s business
/// ([`PlayError::OffBoard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Column, 0-based from the left.
    pub col: u8,
    /// Row, 0-based from the bottom.
    pub row: u8,
}

impl Move {
    /// The square at column `col` and row `row`, both 0-based (`Move::new(0, 0)` is `a1`).
    pub const fn new(col: u8, row: u8) -> Move {
        Move { col, row }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Columns past `z` cannot come from parsing; print them as `?` rather than a wrong letter.
        let letter = if self.col < 26 {
            (b'a' + self.col) as char
        } else {
            '?'
        };
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes
            .split_first()
            .ok_or_else(|| ParseMoveError::new(s, "empty move"))?;
        if !letter.is_ascii_lowercase() {
            return Err(ParseMoveError::new(s, "expected a column letter a-z"));
        }
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(ParseMoveError::new(
                s,
                "expected a row number after the letter",
            ));
        }
        if digits[0] == b'0' {
            return Err(ParseMoveError::new(
                s,
                "row numbers start at 1, without leading zeros",
            ));
        }
        // At most three digits can be in 1..=256; more would overflow the check below.
        let row: u32 = if digits.len() > 3 {
            u32::MAX
        } else {
            digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'))
        };
        if row > 256 {
            return Err(ParseMoveError::new(s, "row number too large"));
        }
        Ok(Move {
            col: letter - b'a',
            row: (row - 1) as u8,
        })
    }
}

/// An m,n,k-game position: the board, the moves played (for [`Game::undo`]) and the outcome.
///
/// `Display` prints the rows from the top down, one line per row ending in `\n`, one character per
/// square with no separators: `X` for the first player, `O` for the second, `.` for empty. The alternate
/// form (`{:#}`) adds the row number, right-aligned in two characters and a space, before each row, and
/// a last line of column letters:
///
/// ```text
///  3 ..X
///  2 .X.
///  1 XOO
///    abc
/// ```
///
/// Two positions are equal when they have the same size, `k`, and moves in the same order (so undo
/// restores an equal value).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    width: u8,
    height: u8,
    k: u8,
    /// Square `col + row * width`, row 0 at the bottom.
    cells: Vec<Option<Player>>,
    /// Squares played, as cell indices, in order.
    history: Vec<u16>,
    outcome: Option<Outcome>,
}

impl TicTacToe {
    /// The empty `width` × `height` board where `k` in a row wins.
    ///
    /// # Panics
    /// If `width` or `height` is outside 1..=26 or `k` outside 1..=max(`width`, `height`), the ranges
    /// [`TicTacToeVariant`] validates.
    pub fn new(width: u8, height: u8, k: u8) -> TicTacToe {
        assert!(
            (1..=26).contains(&width) && (1..=26).contains(&height),
            "tic-tac-toe board {width}x{height} out of range 1..=26"
        );
        assert!(
            (1..=width.max(height)).contains(&k),
            "tic-tac-toe k {k} out of range 1..={}",
            width.max(height)
        );
        let squares = usize::from(width) * usize::from(height);
        TicTacToe {
            width,
            height,
            k,
            cells: vec![None; squares],
            history: Vec::with_capacity(squares),
            outcome: None,
        }
    }

    /// Columns on the board.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows on the board.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Stones in a row needed to win.
    pub fn k(&self) -> u8 {
        self.k
    }

    /// Who holds the square at `col` (0-based from the left) and `row` (0-based from the bottom).
    /// `None` for an empty square or one off the board.
    pub fn get(&self, col: u8, row: u8) -> Option<Player> {
        if col < self.width && row < self.height {
            self.cells[self.index(col, row)]
        } else {
            None
        }
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|&i| self.square(usize::from(i)))
    }

    fn index(&self, col: u8, row: u8) -> usize {
        usize::from(col) + usize::from(row) * usize::from(self.width)
    }

    fn square(&self, i: usize) -> Move {
        let w = usize::from(self.width);
        Move::new((i % w) as u8, (i / w) as u8)
    }

    /// Whether the stone on `m` (owned by `p`) completes `k` in a row: counts `p`'s stones on the four
    /// lines through `m` only.
    fn wins_through(&self, m: Move, p: Player) -> bool {
        let k = i32::from(self.k);
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        let owned = |c: i32, r: i32| {
            c >= 0 && r >= 0 && c < w && r < h && self.cells[(c + r * w) as usize] == Some(p)
        };
        let (c0, r0) = (i32::from(m.col), i32::from(m.row));
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut c, mut r) = (c0 + sign * dc, r0 + sign * dr);
                while run < k && owned(c, r) {
                    run += 1;
                    c += sign * dc;
                    r += sign * dr;
                }
            }
            run >= k
        })
    }
}

impl Default for TicTacToe {
    /// The classic game: 3×3, three in a row.
    fn default() -> TicTacToe {
        TicTacToe::new(3, 3, 3)
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            if f.alternate() {
                write!(f, "{:>2} ", u32::from(row) + 1)?;
            }
            for col in 0..self.width {
                f.write_str(match self.cells[self.index(col, row)] {
                    Some(Player::First) => "X",
                    Some(Player::Second) => "O",
                    None => ".",
                })?;
            }
            f.write_str("\n")?;
        }
        if f.alternate() {
            f.write_str("   ")?;
            for col in 0..self.width {
                write!(f, "{}", (b'a' + col) as char)?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl Game for TicTacToe {
    type Move = Move;
    type Variant = TicTacToeVariant;
    type Eval = TicTacToeEval;
    const LEGEND: &'static str =
        "X first player, O second; a move is a column letter and a row number, e.g. b2";

    fn start(v: TicTacToeVariant) -> TicTacToe {
        TicTacToe::new(v.width, v.height, v.k)
    }

    fn variant(&self) -> TicTacToeVariant {
        TicTacToeVariant {
            width: self.width,
            height: self.height,
            k: self.k,
        }
    }

    fn frame(&self) -> Frame {
        self.picture()
    }

    fn turn(&self) -> Player {
        // Not `is_multiple_of`: it needs Rust 1.87 and the workspace allows 1.80.
        match self.history.len() % 2 {
            0 => Player::First,
            _ => Player::Second,
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    /// Empty squares by row from the bottom, then by column from the left: `a1`, `b1`, `c1`, `a2`, ….
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        out.extend(
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_none())
                .map(|(i, _)| self.square(i)),
        );
    }

    /// # Errors
    /// [`PlayError::GameOver`] once the game is over, else [`PlayError::OffBoard`] for a square outside
    /// the board, [`PlayError::Occupied`] for a taken one.
    fn check(&self, m: Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if m.col >= self.width || m.row >= self.height {
            return Err(PlayError::OffBoard(m.to_string()));
        }
        if self.cells[self.index(m.col, m.row)].is_some() {
            return Err(PlayError::Occupied(m.to_string()));
        }
        Ok(())
    }

    fn play_unchecked(&mut self, m: Move) {
        let p = self.turn();
        let i = self.index(m.col, m.row);
        self.cells[i] = Some(p);
        self.history.push(i as u16);
        if self.wins_through(m, p) {
            self.outcome = Some(Outcome::Win(p));
        } else if self.history.len() == self.cells.len() {
            self.outcome = Some(Outcome::Draw);
        }
    }

    fn undo(&mut self) {
        let i = self
            .history
            .pop()
            .expect("undo at the start position: no move to take back");
        self.cells[usize::from(i)] = None;
        // Moves are only played while the game is on, so before the last one it was on.
        self.outcome = None;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn play_all(pos: &mut TicTacToe, moves: &str) {
        for m in moves.split_whitespace() {
            pos.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn notation_round_trips_and_names_squares_from_the_bottom_left() {
        assert_eq!(mv("a1"), Move::new(0, 0));
        assert_eq!(mv("c2"), Move::new(2, 1));
        assert_eq!(mv("z26"), Move::new(25, 25));
        assert_eq!(mv("b256"), Move::new(1, 255));
        for m in ["a1", "c3", "j10", "z26", "a256"] {
            assert_eq!(mv(m).to_string(), m);
        }
    }

    #[test]
    fn notation_rejects_everything_but_a_letter_and_a_positive_number() {
        for bad in [
            "",
            "a",
            "1",
            "a0",
            "a01",
            "A1",
            "1a",
            "a1 ",
            " a1",
            "a+1",
            "a-1",
            "aa1",
            "a1b",
            "a257",
            "a99999999999",
            "é1",
            "a１",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn off_board_occupied_and_game_over_are_told_apart() {
        let mut pos = TicTacToe::default();
        assert_eq!(pos.check(mv("d1")), Err(PlayError::OffBoard("d1".into())));
        assert_eq!(pos.check(mv("a4")), Err(PlayError::OffBoard("a4".into())));
        play_all(&mut pos, "a1 b2");
        assert_eq!(pos.check(mv("b2")), Err(PlayError::Occupied("b2".into())));
        play_all(&mut pos, "c3 a3 b1 c1");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
        assert_eq!(pos.check(mv("c2")), Err(PlayError::GameOver));
        assert!(pos.legal_moves().is_empty());
    }

    #[test]
    fn rows_columns_and_both_diagonals_win() {
        for (moves, winner) in [
            ("a1 a2 b1 b2 c1", Player::First),     // row
            ("a1 b1 a2 b2 c3 b3", Player::Second), // column
            ("a1 a2 b2 a3 c3", Player::First),     // rising diagonal
            ("a3 a1 b2 b1 c1", Player::First),     // falling diagonal
        ] {
            let mut pos = TicTacToe::default();
            play_all(&mut pos, moves);
            assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{moves}");
        }
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let mut pos = TicTacToe::default();
        play_all(&mut pos, "b2 a1 c1 a3 a2 c2 b1 b3 c3");
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        assert_eq!(pos.ply(), 9);
    }

    #[test]
    fn a_line_completed_in_the_middle_wins_for_k4_on_5x5() {
        let mut pos = TicTacToe::new(5, 5, 4);
        // X on b2, c3, e5 (not a line of four), then d4 joins the diagonal b2-e5.
        play_all(&mut pos, "b2 a1 c3 a2 e5 a3");
        assert_eq!(pos.outcome(), None);
        play_all(&mut pos, "d4");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));

        // Three in a row is not enough for k = 4; the falling diagonal a5-d2 is.
        let mut pos = TicTacToe::new(5, 5, 4);
        play_all(&mut pos, "a5 e1 b4 e2 c3");
        assert_eq!(pos.outcome(), None);
        play_all(&mut pos, "e3 d2");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn lines_do_not_wrap_around_the_board_edge() {
        // Row-major indices e1 (4) and a2 (5) are neighbours in memory, not on the board.
        let mut pos = TicTacToe::new(5, 5, 3);
        play_all(&mut pos, "d1 a5 e1 b5");
        play_all(&mut pos, "a2");
        assert_eq!(pos.outcome(), None);
    }

    #[test]
    fn k1_wins_at_once_and_a_1x1_board_works() {
        let mut pos = TicTacToe::new(1, 1, 1);
        assert_eq!(pos.legal_moves(), vec![mv("a1")]);
        play_all(&mut pos, "a1");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn legal_moves_go_by_row_from_the_bottom_then_by_column() {
        let mut pos = TicTacToe::new(3, 2, 3);
        play_all(&mut pos, "b1");
        let names: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
        assert_eq!(names, ["a1", "c1", "a2", "b2", "c2"]);
    }

    #[test]
    fn display_draws_the_top_row_first() {
        let mut pos = TicTacToe::new(4, 3, 3);
        play_all(&mut pos, "a1 d3");
        assert_eq!(pos.to_string(), "...O\n....\nX...\n");
        assert_eq!(format!("{pos:#}"), " 3 ...O\n 2 ....\n 1 X...\n   abcd\n");
    }

    #[test]
    fn undo_restores_an_equal_position() {
        let mut pos = TicTacToe::default();
        play_all(&mut pos, "a1 a2 b1 b2");
        let before = pos.clone();
        play_all(&mut pos, "c1");
        assert!(pos.outcome().is_some());
        pos.undo();
        assert_eq!(pos, before);
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn k_larger_than_the_board_panics() {
        TicTacToe::new(3, 3, 4);
    }
}
