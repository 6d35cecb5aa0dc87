//! Connect Four on a `width` × `height` board (each 1..=9, default 7×6): four in a row wins.
//!
//! The position is two bitboards in Pascal Pons's layout (his solver article "Solving Connect 4", part
//! "Bitboard"): column `c` holds bits `c * (height + 1) ..`, bottom row first, with one empty sentinel bit
//! on top of each column so that shifted boards never run from one column into the next. `mask` has a
//! bit for every stone, `current` for the stones of the player to move. A `u128` fits 9 × (9 + 1) bits.
//!
//! A move is the column number, 1-based from the left (`1`..`9`), as in CodeCup and in Pons's move
//! strings (`"4453"`).
//!
//! ```
//! use games::{Connect4, Game, Outcome, Player};
//!
//! let pos = Connect4::from_moves(7, 6, "4455667").unwrap();
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(pos.to_string(), ".......\n.......\n.......\n.......\n...OOO.\n...XXXX\n");
//! ```

mod eval;
mod frame;
mod variant;

use std::fmt;
use std::str::FromStr;

pub use eval::Connect4Eval;
pub use variant::Connect4Variant;

use crate::{Frame, Game, Outcome, ParseMoveError, PlayError, Player, RecordFormat};

/// A column to drop a stone into: `col` 0-based from the left.
///
/// Notation (`Display`/`FromStr`): the 1-based column number, one digit `1`..`9`. Parsing rejects
/// anything else (`0`, `10`, signs, spaces); a column past the board's width is [`Game::check`]'s
/// business ([`PlayError::OffBoard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Column, 0-based from the left (notation `1` is `col` 0).
    pub col: u8,
}

impl Move {
    /// The move into column `col`, 0-based (`Move::new(0)` is `1`).
    pub const fn new(col: u8) -> Move {
        Move { col }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", u32::from(self.col) + 1)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        match s.as_bytes() {
            [d @ b'1'..=b'9'] => Ok(Move { col: d - b'1' }),
            [] => Err(ParseMoveError::new(s, "empty move")),
            [b'0'] => Err(ParseMoveError::new(s, "columns are numbered from 1")),
            [_] => Err(ParseMoveError::new(s, "expected a column number 1-9")),
            _ => Err(ParseMoveError::new(s, "expected a single digit 1-9")),
        }
    }
}

pub use crate::MovesError;

/// A Connect Four position: the bitboards, the columns played (for [`Game::undo`]) and the outcome.
///
/// `Display` prints the rows from the top down, one line per row ending in `\n`, one character per
/// square with no separators: `X` for the first player, `O` for the second, `.` for empty. The alternate
/// form (`{:#}`) adds a last line of column numbers:
///
/// ```text
/// .......
/// .......
/// .......
/// .......
/// ...OOO.
/// ...XXXX
/// 1234567
/// ```
///
/// Two positions are equal when they have the same size and columns played in the same order (so undo
/// restores an equal value); [`key`](Connect4::key) identifies the stones alone, as for transpositions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    width: u8,
    height: u8,
    /// Stones of the player to move.
    current: u128,
    /// Every stone.
    mask: u128,
    /// Columns played, 0-based, in order.
    history: Vec<u8>,
    outcome: Option<Outcome>,
}

impl Connect4 {
    /// The empty `width` × `height` board.
    ///
    /// # Panics
    /// If `width` or `height` is outside 1..=9, the range [`Connect4Variant`] validates.
    pub fn new(width: u8, height: u8) -> Connect4 {
        assert!(
            (1..=9).contains(&width) && (1..=9).contains(&height),
            "Connect Four board {width}x{height} out of range 1..=9"
        );
        Connect4 {
            width,
            height,
            current: 0,
            mask: 0,
            history: Vec::with_capacity(usize::from(width) * usize::from(height)),
            outcome: None,
        }
    }

    /// The position after the moves of `moves`, a Pons move string: one 1-based column digit per ply
    /// (`"4453"`), no separators.
    ///
    /// # Errors
    /// [`MovesError`] at the first character that is not a column digit or not a legal move (off the
    /// board, a full column, or after the game ended).
    ///
    /// # Panics
    /// If the size is out of range, as [`Connect4::new`].
    pub fn from_moves(width: u8, height: u8, moves: &str) -> Result<Connect4, MovesError> {
        let mut pos = Connect4::new(width, height);
        crate::play_moves(
            &mut pos,
            moves
                .char_indices()
                .map(|(i, ch)| &moves[i..i + ch.len_utf8()]),
        )?;
        Ok(pos)
    }

    /// Columns on the board.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows on the board.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Who holds the square at `col` (0-based from the left) and `row` (0-based from the bottom).
    /// `None` for an empty square or one off the board.
    pub fn get(&self, col: u8, row: u8) -> Option<Player> {
        if col >= self.width || row >= self.height {
            return None;
        }
        let bit = 1u128 << self.bit(col, row);
        if self.mask & bit == 0 {
            None
        } else if self.current & bit != 0 {
            Some(self.turn())
        } else {
            Some(self.turn().opponent())
        }
    }

    /// The columns played so far, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|&c| Move::new(c))
    }

    /// Every stone, as a bitboard: bit `col * (height + 1) + row` (row 0 at the bottom).
    pub fn mask(&self) -> u128 {
        self.mask
    }

    /// The stones of the player to move, in the layout of [`mask`](Connect4::mask).
    pub fn current(&self) -> u128 {
        self.current
    }

    /// A key that identifies the stones on the board (not the order they were played in): Pons's
    /// `current + mask`, unique for a given size.
    pub fn key(&self) -> u128 {
        self.current + self.mask
    }

    fn bit(&self, col: u8, row: u8) -> u32 {
        u32::from(col) * (u32::from(self.height) + 1) + u32::from(row)
    }

    /// The squares of column `col`, without its sentinel.
    fn column_mask(&self, col: u8) -> u128 {
        ((1u128 << self.height) - 1) << self.bit(col, 0)
    }

    /// Whether `stones` hold four in a row: for each direction, `m` marks stones with a neighbour
    /// `s` bits below, and `m & m >> 2s` one with three such neighbours in a line.
    fn has_four(&self, stones: u128) -> bool {
        let h = u32::from(self.height);
        // Vertical, horizontal, and the two diagonals.
        [1, h + 1, h, h + 2].iter().any(|&s| {
            let m = stones & (stones >> s);
            m & (m >> (2 * s)) != 0
        })
    }
}

impl Default for Connect4 {
    /// The standard 7 × 6 board.
    fn default() -> Connect4 {
        Connect4::new(7, 6)
    }
}

impl fmt::Display for Connect4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                f.write_str(match self.get(col, row) {
                    Some(Player::First) => "X",
                    Some(Player::Second) => "O",
                    None => ".",
                })?;
            }
            f.write_str("\n")?;
        }
        if f.alternate() {
            for col in 0..self.width {
                write!(f, "{}", col + 1)?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl Game for Connect4 {
    type Move = Move;
    type Variant = Connect4Variant;
    type Eval = Connect4Eval;
    const RECORD_FORMATS: &'static [RecordFormat] = &[RecordFormat::Pons];
    const LEGEND: &'static str = "X first player, O second; a move is a column number, e.g. 4";

    fn start(v: Connect4Variant) -> Connect4 {
        Connect4::new(v.width, v.height)
    }

    fn variant(&self) -> Connect4Variant {
        Connect4Variant {
            width: self.width,
            height: self.height,
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

    /// The columns that are not full, left to right.
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let top_row = 1u128 << (self.height - 1);
        out.extend(
            (0..self.width)
                .filter(|&c| self.mask & (top_row << self.bit(c, 0)) == 0)
                .map(Move::new),
        );
    }

    /// # Errors
    /// [`PlayError::GameOver`] once the game is over, else [`PlayError::OffBoard`] for a column past
    /// the width, [`PlayError::Occupied`] for a full one.
    fn check(&self, m: Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if m.col >= self.width {
            return Err(PlayError::OffBoard(m.to_string()));
        }
        if self.mask & (1u128 << self.bit(m.col, self.height - 1)) != 0 {
            return Err(PlayError::Occupied(m.to_string()));
        }
        Ok(())
    }

    fn play_unchecked(&mut self, m: Move) {
        // An off-board column would shift past bit 127 (a panic in debug builds); keep it in range.
        let col = m.col.min(self.width - 1);
        // Pons: the opponent's stones become `current`; adding the column's bottom bit to the mask
        // carries up to the column's first empty square.
        self.current ^= self.mask;
        self.mask |= self.mask + (1u128 << self.bit(col, 0));
        self.history.push(col);
        if self.has_four(self.current ^ self.mask) {
            self.outcome = Some(Outcome::Win(self.turn().opponent()));
        } else if self.history.len() == usize::from(self.width) * usize::from(self.height) {
            self.outcome = Some(Outcome::Draw);
        }
    }

    fn undo(&mut self) {
        let col = self
            .history
            .pop()
            .expect("undo at the start position: no move to take back");
        let in_col = self.mask & self.column_mask(col);
        let top = 1u128 << (127 - in_col.leading_zeros());
        self.mask ^= top;
        self.current ^= self.mask;
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

    #[test]
    fn notation_is_one_digit_from_1() {
        assert_eq!(mv("1"), Move::new(0));
        assert_eq!(mv("9"), Move::new(8));
        for m in ["1", "4", "9"] {
            assert_eq!(mv(m).to_string(), m);
        }
        for bad in ["", "0", "10", "01", "a", "+1", "-1", " 1", "1 ", "٣", "١"] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn off_board_full_column_and_game_over_are_told_apart() {
        let mut pos = Connect4::from_moves(7, 6, "111111").unwrap();
        assert_eq!(pos.check(mv("8")), Err(PlayError::OffBoard("8".into())));
        assert_eq!(pos.check(mv("1")), Err(PlayError::Occupied("1".into())));
        assert_eq!(pos.legal_moves().len(), 6);
        for m in "2323232".chars() {
            pos.play(mv(&m.to_string())).unwrap();
        }
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
        assert_eq!(pos.check(mv("4")), Err(PlayError::GameOver));
        assert!(pos.legal_moves().is_empty());
    }

    #[test]
    fn from_moves_reports_the_ply_that_fails() {
        assert_eq!(
            Connect4::from_moves(7, 6, "44x"),
            Err(MovesError::Parse {
                ply: 3,
                error: ParseMoveError::new("x", "expected a column number 1-9"),
            })
        );
        assert_eq!(
            Connect4::from_moves(7, 6, "4448"),
            Err(MovesError::Play {
                ply: 4,
                error: PlayError::OffBoard("8".into()),
            })
        );
        assert_eq!(
            Connect4::from_moves(7, 6, "45454545"),
            Err(MovesError::Play {
                ply: 8,
                error: PlayError::GameOver,
            })
        );
        assert_eq!(
            Connect4::from_moves(7, 6, "1111111"),
            Err(MovesError::Play {
                ply: 7,
                error: PlayError::Occupied("1".into()),
            })
        );
    }

    #[test]
    fn four_in_a_row_wins_in_every_direction() {
        for (moves, winner) in [
            ("1122334", Player::First),     // horizontal
            ("7171717", Player::First),     // vertical
            ("12233434474", Player::First), // rising diagonal 1-4
            ("76655454414", Player::First), // falling diagonal 7-4
            ("71122334", Player::Second),   // horizontal for the second player
        ] {
            let pos = Connect4::from_moves(7, 6, moves).unwrap();
            assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{moves}");
        }
        // Three is not four.
        assert_eq!(
            Connect4::from_moves(7, 6, "112233").unwrap().outcome(),
            None
        );
    }

    #[test]
    fn a_diagonal_ending_in_the_corner_of_9x9_wins() {
        // X: 9 (9/1), 8 (8/2), 7 (7/3), 6 (6/4); O fills below them, X waits in column 1.
        let before = Connect4::from_moves(9, 9, "988717761616").unwrap();
        assert_eq!(before.outcome(), None, "{before}");
        let pos = Connect4::from_moves(9, 9, "9887177616166").unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)), "{pos}");
    }

    /// Every set of four squares evenly spaced in the bit layout (spacing 1, H, H + 1, H + 2): the shift
    /// test must find exactly those that are lines on the board, on every size. Regression guard for
    /// lines that would run through the sentinel row into the next column.
    #[test]
    fn shift_test_finds_exactly_the_lines_on_every_size() {
        for width in 1..=9u8 {
            for height in 1..=9u8 {
                let pos = Connect4::new(width, height);
                let h1 = u32::from(height) + 1;
                let square = |bit: u32| {
                    let (c, r) = (bit / h1, bit % h1);
                    (c < u32::from(width) && r < u32::from(height)).then_some((c as i32, r as i32))
                };
                for s in [1, h1 - 1, h1, h1 + 1] {
                    for b in 0..u32::from(width) * h1 {
                        let sq: Option<Vec<(i32, i32)>> =
                            (0..4).map(|i| square(b + i * s)).collect();
                        let Some(sq) = sq else { continue };
                        let (dc, dr) = (sq[1].0 - sq[0].0, sq[1].1 - sq[0].1);
                        let line = [(1, 0), (0, 1), (1, 1), (1, -1)].contains(&(dc, dr))
                            && sq
                                .windows(2)
                                .all(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1) == (dc, dr));
                        let stones = sq
                            .iter()
                            .fold(0u128, |m, &(c, r)| m | 1u128 << pos.bit(c as u8, r as u8));
                        assert_eq!(pos.has_four(stones), line, "{width}x{height} {sq:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_column_fills_and_a_full_board_is_a_draw() {
        let mut pos = Connect4::new(2, 3);
        for c in "121212".chars() {
            assert_eq!(pos.outcome(), None);
            pos.play(mv(&c.to_string())).unwrap();
        }
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        assert_eq!(pos.to_string(), "XO\nXO\nXO\n");
    }

    #[test]
    fn display_draws_the_top_row_first() {
        let pos = Connect4::from_moves(3, 2, "112").unwrap();
        assert_eq!(pos.to_string(), "O..\nXX.\n");
        assert_eq!(format!("{pos:#}"), "O..\nXX.\n123\n");
        assert_eq!(pos.get(0, 1), Some(Player::Second));
        assert_eq!(pos.get(1, 0), Some(Player::First));
        assert_eq!(pos.get(2, 0), None);
    }

    #[test]
    fn undo_restores_an_equal_position_and_key() {
        let mut pos = Connect4::from_moves(7, 6, "445566").unwrap();
        let before = pos.clone();
        pos.play(mv("7")).unwrap();
        assert!(pos.outcome().is_some());
        pos.undo();
        assert_eq!(pos, before);
        assert_eq!(pos.key(), before.key());
        // Transpositions share the key but not equality.
        let other = Connect4::from_moves(7, 6, "664455").unwrap();
        assert_eq!(other.key(), pos.key());
        assert_ne!(other, pos);
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn ten_columns_panic() {
        Connect4::new(10, 6);
    }
}
