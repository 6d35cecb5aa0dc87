//! Kalah, the mancala game of seed `001_a997fca1c543fbab.txt` (Wetherell, "Etudes for Programmers",
//! ch. 14), under the standard rules of `docs/kalah-rules.md`: two rows of `pits` pits with `seeds`
//! seeds each, a store (kalah) per player; a move sows one pit's seeds counter-clockwise, past the
//! opponent's store; a last seed in one's own store gives **another move** (the side to move does not
//! alternate); a last seed in one's own empty pit captures it with the seeds opposite; the game ends
//! when a side is empty, each player keeping the seeds left on their own side.
//!
//! A move is the pit's number: `1`..`N` are the first player's pits, left to right along the bottom
//! (the way the seeds go), `N+1`..`2N` the second player's, right to left along the top. The stores
//! are not moves.
//!
//! ```
//! use games::kalah::{Kalah, KalahVariant};
//! use games::{Game, Player};
//!
//! let mut pos = Kalah::start(KalahVariant { pits: 6, seeds: 4 });
//! // Pit 3's four seeds go to pits 4, 5, 6 and the store: the first player moves again.
//! pos.play("3".parse().unwrap()).unwrap();
//! assert_eq!((pos.turn(), pos.store(Player::First)), (Player::First, 1));
//! assert_eq!(
//!     pos.to_string(),
//!     "     4  4  4  4  4  4\n  0                    1\n     4  4  0  5  5  5\n"
//! );
//! ```

mod eval;
mod frame;
mod variant;

use std::fmt;
use std::str::FromStr;

pub use eval::KalahEval;
pub use variant::{KalahVariant, MAX_PITS, MAX_SEEDS};

use crate::{Frame, Game, Outcome, ParseMoveError, PlayError, Player};

/// Cells of the largest board: two sides of [`MAX_PITS`] pits and two stores.
const CELLS: usize = 2 * MAX_PITS as usize + 2;

/// A move: sow pit `pit`, numbered 1..=2N (see the module docs).
///
/// Notation (`Display`/`FromStr`): the number, `1` to `255` without a sign or a leading zero; whether it
/// names a pit of the board, of the side to move, with seeds, is [`Game::check`]'s business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The pit's number, 1-based.
    pub pit: u8,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pit)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.is_empty() {
            return Err(ParseMoveError::new(s, "empty move"));
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 3 {
            return Err(ParseMoveError::new(s, "expected a pit number"));
        }
        if s.starts_with('0') {
            return Err(ParseMoveError::new(
                s,
                "pits are numbered from 1, without a leading zero",
            ));
        }
        s.parse::<u8>()
            .map(|pit| Move { pit })
            .map_err(|_| ParseMoveError::new(s, "a pit number is at most 255"))
    }
}

/// What undoing a move restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Played {
    cells: [u16; CELLS],
    turn: Player,
    over: bool,
    mv: Move,
}

/// A Kalah position: the seeds of every pit and store, who moves, and the moves played (for
/// [`Game::undo`]).
///
/// Cells are laid out the way the seeds go: the first player's pits (index 0..N, pits 1..N), its
/// store (N), the second player's pits (N+1..=2N, pits N+1..2N), its store (2N+1).
///
/// `Display` draws the second player's pits along the top (pit 2N at the left), the stores at the
/// ends of the middle line (the second player's at the left), the first player's pits along the
/// bottom; `{:#}` adds the pit numbers above and below.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kalah {
    pits: u8,
    seeds: u8,
    cells: [u16; CELLS],
    turn: Player,
    over: bool,
    history: Vec<Played>,
}

impl Kalah {
    /// Pits a side.
    pub fn pits(&self) -> u8 {
        self.pits
    }

    /// Seeds a pit at the start.
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// The cells in play: `2N + 2`.
    fn len(&self) -> usize {
        2 * usize::from(self.pits) + 2
    }

    /// The cell of pit `pit` (1..=2N).
    fn index(&self, pit: u8) -> usize {
        if pit <= self.pits {
            usize::from(pit) - 1
        } else {
            usize::from(pit)
        }
    }

    /// The pit number of cell `i` (not a store).
    fn pit_of(&self, i: usize) -> u8 {
        if i < usize::from(self.pits) {
            i as u8 + 1
        } else {
            i as u8
        }
    }

    /// The cell of `p`'s store.
    pub fn store_index(&self, p: Player) -> usize {
        match p {
            Player::First => usize::from(self.pits),
            Player::Second => 2 * usize::from(self.pits) + 1,
        }
    }

    /// The cells of `p`'s pits.
    fn side(&self, p: Player) -> std::ops::Range<usize> {
        let n = usize::from(self.pits);
        match p {
            Player::First => 0..n,
            Player::Second => n + 1..2 * n + 1,
        }
    }

    /// Whose pit cell `i` is (`None` for a store).
    fn owner_of(&self, i: usize) -> Option<Player> {
        let n = usize::from(self.pits);
        if i < n {
            Some(Player::First)
        } else if i > n && i <= 2 * n {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Seeds in pit `pit` (1..=2N); `None` off the board.
    pub fn pit(&self, pit: u8) -> Option<u16> {
        (1..=2 * self.pits)
            .contains(&pit)
            .then(|| self.cells[self.index(pit)])
    }

    /// Seeds in `p`'s store.
    pub fn store(&self, p: Player) -> u16 {
        self.cells[self.store_index(p)]
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|h| h.mv)
    }

    /// Where the last seed of `m` (a legal move) lands, as a cell, and how many seeds it captures
    /// (0 for none): the move ordering's look-ahead, without playing it.
    pub fn landing(&self, m: Move) -> (usize, u16) {
        let mut cells = self.cells;
        let (last, captured) = self.sow(&mut cells, self.index(m.pit), self.turn);
        (last, captured)
    }

    /// Sows cell `from` for `me` on `cells` (the rules' step 1–3); returns the last cell sown and the
    /// seeds captured (moved into `me`'s store).
    fn sow(&self, cells: &mut [u16; CELLS], from: usize, me: Player) -> (usize, u16) {
        let len = self.len();
        let skip = self.store_index(me.opponent());
        let mut seeds = std::mem::take(&mut cells[from]);
        let mut at = from;
        while seeds > 0 {
            at = (at + 1) % len;
            if at == skip {
                continue;
            }
            cells[at] += 1;
            seeds -= 1;
        }
        // A last seed in an own pit that was empty captures the seeds opposite, if there are any.
        if self.owner_of(at) == Some(me) && cells[at] == 1 {
            let opposite = 2 * usize::from(self.pits) - at;
            if cells[opposite] > 0 {
                let captured = cells[opposite] + 1;
                cells[opposite] = 0;
                cells[at] = 0;
                cells[self.store_index(me)] += captured;
                return (at, captured);
            }
        }
        (at, 0)
    }
}

impl fmt::Display for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.pits;
        let row = |f: &mut fmt::Formatter<'_>, pits: &mut dyn Iterator<Item = u8>, numbers: bool| {
            f.write_str("   ")?;
            for p in pits {
                if numbers {
                    write!(f, "{p:>3}")?;
                } else {
                    write!(f, "{:>3}", self.cells[self.index(p)])?;
                }
            }
            f.write_str("\n")
        };
        if f.alternate() {
            row(f, &mut (n + 1..=2 * n).rev(), true)?;
        }
        row(f, &mut (n + 1..=2 * n).rev(), false)?;
        writeln!(
            f,
            "{:>3}{}{:>3}",
            self.store(Player::Second),
            " ".repeat(3 * usize::from(n)),
            self.store(Player::First),
        )?;
        row(f, &mut (1..=n), false)?;
        if f.alternate() {
            row(f, &mut (1..=n), true)?;
        }
        Ok(())
    }
}

impl Game for Kalah {
    type Move = Move;
    type Variant = KalahVariant;
    type Eval = KalahEval;
    const SCORE: &'static str = "in the stores";
    const ALTERNATES: bool = false;
    const MARKS: [&'static str; 2] = ["the bottom pits", "the top pits"];
    const LEGEND: &'static str =
        "the first player's pits along the bottom, the second's along the top, stores at the ends \
         (the second's at the left); a move is a pit number: 1-N yours along the bottom if you move \
         first, N+1-2N along the top (right to left) if second; a last seed in your store moves again";

    fn start(v: KalahVariant) -> Kalah {
        let mut cells = [0; CELLS];
        let n = usize::from(v.pits);
        for (i, c) in cells.iter_mut().enumerate().take(2 * n + 1) {
            if i != n {
                *c = u16::from(v.seeds);
            }
        }
        Kalah {
            pits: v.pits,
            seeds: v.seeds,
            cells,
            turn: Player::First,
            over: false,
            history: Vec::new(),
        }
    }

    fn variant(&self) -> KalahVariant {
        KalahVariant {
            pits: self.pits,
            seeds: self.seeds,
        }
    }

    /// The player to move: the same player again after a last seed in their own store.
    fn turn(&self) -> Player {
        self.turn
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    /// The side to move's pits with seeds, by pit number.
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.over {
            return;
        }
        for i in self.side(self.turn) {
            if self.cells[i] > 0 {
                out.push(Move {
                    pit: self.pit_of(i),
                });
            }
        }
    }

    /// # Errors
    /// [`PlayError::GameOver`] once the game is over; [`PlayError::OffBoard`] for a number past the
    /// pits, [`PlayError::NotYours`] for the other player's pit, [`PlayError::Empty`] for a pit
    /// without seeds.
    fn check(&self, m: Move) -> Result<(), PlayError> {
        if self.over {
            return Err(PlayError::GameOver);
        }
        let name = || format!("pit {}", m.pit);
        if m.pit == 0 || m.pit > 2 * self.pits {
            return Err(PlayError::OffBoard(name()));
        }
        let i = self.index(m.pit);
        if self.owner_of(i) != Some(self.turn) {
            return Err(PlayError::NotYours(name()));
        }
        if self.cells[i] == 0 {
            return Err(PlayError::Empty(name()));
        }
        Ok(())
    }

    fn play_unchecked(&mut self, m: Move) {
        self.history.push(Played {
            cells: self.cells,
            turn: self.turn,
            over: self.over,
            mv: m,
        });
        if m.pit == 0 || m.pit > 2 * self.pits {
            // Not a pit: a ply that changes nothing but the turn.
            self.turn = self.turn.opponent();
            return;
        }
        let me = self.turn;
        let mut cells = self.cells;
        let (last, _) = self.sow(&mut cells, self.index(m.pit), me);
        self.cells = cells;
        if last != self.store_index(me) {
            self.turn = me.opponent();
        }
        // The end: a side without seeds. Each player keeps what is left on their own side.
        let empty = |p: Player| self.side(p).all(|i| self.cells[i] == 0);
        if empty(Player::First) || empty(Player::Second) {
            for p in [Player::First, Player::Second] {
                let left: u16 = self.side(p).map(|i| std::mem::take(&mut self.cells[i])).sum();
                let store = self.store_index(p);
                self.cells[store] += left;
            }
            self.over = true;
        }
    }

    fn undo(&mut self) {
        let h = self
            .history
            .pop()
            .expect("undo at the start position: no move to take back");
        self.cells = h.cells;
        self.turn = h.turn;
        self.over = h.over;
    }

    /// Over when a side is empty; more seeds in the store wins, equal stores draw.
    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        Some(
            match self.store(Player::First).cmp(&self.store(Player::Second)) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::First),
                std::cmp::Ordering::Less => Outcome::Win(Player::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            },
        )
    }

    /// The seeds in each store.
    fn score(&self) -> Option<[u32; 2]> {
        Some([
            u32::from(self.store(Player::First)),
            u32::from(self.store(Player::Second)),
        ])
    }

    fn frame(&self) -> Frame {
        self.picture()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kalah(pits: u8, seeds: u8, moves: &str) -> Kalah {
        let mut pos = Kalah::start(KalahVariant { pits, seeds });
        crate::play_moves(&mut pos, moves.split_whitespace()).unwrap();
        pos
    }

    #[test]
    fn notation_is_a_pit_number_from_1() {
        for m in ["1", "12", "255"] {
            assert_eq!(m.parse::<Move>().unwrap().to_string(), m);
        }
        for bad in ["", "0", "01", "-1", "+1", "a", "256", "1 "] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn a_last_seed_in_the_store_gives_another_move() {
        let pos = kalah(6, 4, "3");
        assert_eq!(pos.turn(), Player::First);
        assert_eq!(pos.store(Player::First), 1);
        // The second player's pit 10 (4 seeds: 11, 12, its store, pit 1): the turn passes.
        let pos = kalah(6, 4, "3 1 10");
        assert_eq!(pos.turn(), Player::First);
        assert_eq!(pos.store(Player::Second), 1);
        assert_eq!(pos.pit(1), Some(1));
    }

    #[test]
    fn sowing_skips_the_opponents_store() {
        // Kalah(1,1) with 9 seeds cannot happen; use Kalah(2,6): pit 2's six seeds go to the store,
        // 3, 4, (not the second's store) 1, 2, then the store again.
        let pos = kalah(2, 6, "2");
        assert_eq!(pos.store(Player::Second), 0);
        assert_eq!(pos.store(Player::First), 2);
        assert_eq!((pos.pit(1), pos.pit(2), pos.pit(3), pos.pit(4)), (Some(7), Some(1), Some(7), Some(7)));
        assert_eq!(pos.turn(), Player::First);
    }

    #[test]
    fn a_side_left_empty_ends_the_game_and_the_other_keeps_its_seeds() {
        // Kalah(3,1). First: 3 -> its store (again), 1 -> pit 2 (2 seeds). Second: 6 -> its store
        // (again), 4 -> pit 5 (2 seeds). First: 2 -> pit 3, store (again), 3 -> store: the first
        // side is empty, the second keeps pit 5's two seeds.
        let mut pos = kalah(3, 1, "3 1 6 4 2");
        assert_eq!(pos.turn(), Player::First);
        assert_eq!((pos.pit(3), pos.store(Player::First)), (Some(1), 2));
        pos.play("3".parse().unwrap()).unwrap();
        assert_eq!(pos.score(), Some([3, 3]));
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.check("5".parse().unwrap()), Err(PlayError::GameOver));
    }

    #[test]
    fn a_last_seed_in_an_own_empty_pit_captures_the_pit_opposite() {
        // Kalah(4,1). First 1 -> pit 2. Second 8 -> its store (again), 6 -> pit 7. First 4 -> its
        // store (again), then 3 -> pit 4, empty: it takes pit 5's seed opposite, 2 seeds in all.
        let mut pos = kalah(4, 1, "1 8 6 4 3");
        assert_eq!((pos.pit(4), pos.pit(5)), (Some(0), Some(0)));
        assert_eq!(pos.store(Player::First), 1 + 2);
        assert_eq!(pos.turn(), Player::Second);
        pos.undo();
        assert_eq!((pos.pit(4), pos.pit(5)), (Some(0), Some(1)));
        // No capture when the pit opposite is empty: Kalah(4,1), 4 -> store (again), 3 -> pit 4
        // (empty, and pit 5 opposite holds a seed): a capture; but after the second player has
        // emptied pit 5 there is none.
        let pos = kalah(4, 1, "1 5 4 3");
        assert_eq!((pos.pit(4), pos.pit(5)), (Some(1), Some(0)));
        assert_eq!(pos.store(Player::First), 1);
    }

    #[test]
    fn illegal_moves_are_named() {
        let pos = kalah(6, 4, "");
        let err = |m: &str| pos.check(m.parse().unwrap()).unwrap_err().to_string();
        assert_eq!(err("13"), "pit 13 is off the board");
        assert_eq!(err("9"), "pit 9 is the other player's");
        let pos = kalah(6, 4, "1");
        assert_eq!(
            pos.check("1".parse().unwrap()),
            Err(PlayError::NotYours("pit 1".into()))
        );
        // After pit 3 the first player moves again, and pit 3 is empty.
        let pos = kalah(6, 4, "3");
        assert_eq!(
            pos.check("3".parse().unwrap()),
            Err(PlayError::Empty("pit 3".into()))
        );
    }

    #[test]
    fn the_board_text_shows_the_stores_at_the_ends() {
        let pos = kalah(6, 4, "3 1");
        assert_eq!(
            format!("{pos:#}"),
            "    12 11 10  9  8  7\n     4  4  4  4  4  4\n  0                    1\n     0  5  1  6  6  5\n     1  2  3  4  5  6\n"
        );
    }
}
