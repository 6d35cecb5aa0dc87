//! The solver's own Connect Four position: two `u64` bitboards in Pascal Pons's layout.
//!
//! Column `c` holds bits `c * (H + 1) .. c * (H + 1) + H`, bottom row first, plus one empty sentinel bit
//! on top (Pons, "Solving Connect 4", part 6 "Bitboard"). `mask` has a bit for every stone, `current`
//! for the stones of the player to move; `current + mask` is a unique key. Any size with
//! `W * (H + 1) <= 64` fits; the board size comes from a [`Geometry`], either the compile-time
//! [`Std7x6`] (the fast path: every mask and shift is a constant) or the run-time [`AnySize`].

use games::Connect4;

/// The size of the board and the masks that follow from it.
pub trait Geometry: Copy + Send + Sync + 'static {
    /// Columns.
    fn width(self) -> u32;
    /// Rows.
    fn height(self) -> u32;
    /// One bit at the bottom of each column.
    fn bottom(self) -> u64;
    /// Every playable square (no sentinels).
    fn board(self) -> u64;

    /// Squares on the board, `W * H`.
    #[inline(always)]
    fn squares(self) -> u32 {
        self.width() * self.height()
    }

    /// Bits used by a key, `W * (H + 1)`.
    #[inline(always)]
    fn key_bits(self) -> u32 {
        self.width() * (self.height() + 1)
    }

    /// The squares of column `col` (0-based), without its sentinel.
    #[inline(always)]
    fn column(self, col: u32) -> u64 {
        ((1u64 << self.height()) - 1) << (col * (self.height() + 1))
    }
}

const fn bottom_mask(width: u32, height: u32) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c < width {
        m |= 1u64 << (c * (height + 1));
        c += 1;
    }
    m
}

/// The standard 7 × 6 board, with every mask a compile-time constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Std7x6;

impl Std7x6 {
    const BOTTOM: u64 = bottom_mask(7, 6);
    const BOARD: u64 = Self::BOTTOM * ((1 << 6) - 1);
}

impl Geometry for Std7x6 {
    #[inline(always)]
    fn width(self) -> u32 {
        7
    }
    #[inline(always)]
    fn height(self) -> u32 {
        6
    }
    #[inline(always)]
    fn bottom(self) -> u64 {
        Self::BOTTOM
    }
    #[inline(always)]
    fn board(self) -> u64 {
        Self::BOARD
    }
}

/// Any size with `W * (H + 1) <= 64`, read at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnySize {
    width: u32,
    height: u32,
    bottom: u64,
    board: u64,
}

impl AnySize {
    /// The geometry of a `width` × `height` board, or `None` when it does not fit 64 bits
    /// (`width * (height + 1) > 64`) or a side is 0.
    pub fn new(width: u32, height: u32) -> Option<AnySize> {
        if width == 0 || height == 0 || width * (height + 1) > 64 {
            return None;
        }
        let bottom = bottom_mask(width, height);
        Some(AnySize {
            width,
            height,
            bottom,
            board: bottom * ((1u64 << height) - 1),
        })
    }
}

impl Geometry for AnySize {
    #[inline(always)]
    fn width(self) -> u32 {
        self.width
    }
    #[inline(always)]
    fn height(self) -> u32 {
        self.height
    }
    #[inline(always)]
    fn bottom(self) -> u64 {
        self.bottom
    }
    #[inline(always)]
    fn board(self) -> u64 {
        self.board
    }
}

/// A position: the stones of the player to move, every stone, and the number of plies played.
///
/// The search functions assume nobody has four in a row yet (a position where the game is over is
/// never searched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board<G: Geometry> {
    geom: G,
    current: u64,
    mask: u64,
    moves: u32,
}

/// Why a move string cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A character that is not a column digit of this board.
    #[error("move {ply}: {ch:?} is not a column")]
    NotAColumn { ply: usize, ch: char },
    /// A full column.
    #[error("move {ply}: column {col} is full")]
    Full { ply: usize, col: u32 },
    /// The move ends the game (four in a row): finished positions have no score to solve.
    #[error("move {ply}: four in a row, the game is over")]
    Won { ply: usize },
    /// The board is full.
    #[error("the board is full")]
    Over,
}

impl<G: Geometry> Board<G> {
    /// The empty board.
    pub fn new(geom: G) -> Self {
        Board {
            geom,
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// The board after Pons's move string (`"4453"`: 1-based columns, one digit per ply).
    ///
    /// # Errors
    /// [`BoardError`] at the first character that is not a column of this board, a full column, or a
    /// move that makes four in a row.
    pub fn from_moves(geom: G, moves: &str) -> Result<Self, BoardError> {
        let mut b = Board::new(geom);
        for (i, ch) in moves.chars().enumerate() {
            let ply = i + 1;
            let col = ch
                .to_digit(10)
                .and_then(|d| d.checked_sub(1))
                .filter(|&c| c < geom.width())
                .ok_or(BoardError::NotAColumn { ply, ch })?;
            if !b.can_play(col) {
                return Err(BoardError::Full { ply, col: col + 1 });
            }
            if b.is_winning_col(col) {
                return Err(BoardError::Won { ply });
            }
            b.play_col(col);
        }
        Ok(b)
    }

    /// The board of a rules position, or `None` if the size does not fit `G` (or the game is over).
    pub fn from_game(geom: G, pos: &Connect4) -> Option<Self> {
        use games::Game;
        if u32::from(pos.width()) != geom.width()
            || u32::from(pos.height()) != geom.height()
            || pos.outcome().is_some()
        {
            return None;
        }
        // Same layout as `games::Connect4`, which keeps a `u128`: the low `W * (H + 1)` bits are all.
        let current = u64::try_from(pos.current()).ok()?;
        let mask = u64::try_from(pos.mask()).ok()?;
        Some(Board {
            geom,
            current,
            mask,
            moves: u32::try_from(pos.ply()).ok()?,
        })
    }

    /// The board of a key ([`key`](Board::key)): a column of `k` stones holds `2^k - 1 +` the mover's
    /// stones there, a number in `2^k - 1 ..= 2^(k+1) - 2`, so `k` is the highest bit of the field
    /// plus one. `None` when a field does not fit its column.
    pub fn from_key(geom: G, key: u64) -> Option<Self> {
        let h1 = geom.height() + 1;
        let (mut current, mut mask, mut moves) = (0u64, 0u64, 0u32);
        for c in 0..geom.width() {
            let field = (key >> (c * h1)) & ((1u64 << h1) - 1);
            let k = 63 - (field + 1).leading_zeros();
            if k > geom.height() {
                return None;
            }
            let stones = (1u64 << k) - 1;
            mask |= stones << (c * h1);
            current |= (field - stones) << (c * h1);
            moves += k;
        }
        if key >> (geom.width() * h1) != 0 || current & !mask != 0 {
            return None;
        }
        Some(Board {
            geom,
            current,
            mask,
            moves,
        })
    }

    /// The geometry.
    #[inline(always)]
    pub fn geom(&self) -> G {
        self.geom
    }

    /// Plies played.
    #[inline(always)]
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Stones of the player to move.
    #[inline(always)]
    pub fn current(&self) -> u64 {
        self.current
    }

    /// Every stone.
    #[inline(always)]
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// A unique key of the stones (Pons: `current + mask`), below `2^(W * (H + 1))`.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// Whether column `col` has room.
    #[inline(always)]
    pub fn can_play(&self, col: u32) -> bool {
        self.possible() & self.geom.column(col) != 0
    }

    /// Plays a stone in column `col` (which must have room).
    #[inline(always)]
    pub fn play_col(&mut self, col: u32) {
        self.play(self.possible() & self.geom.column(col));
    }

    /// Plays the move given as its one-bit bitboard (a bit of [`possible`](Board::possible)).
    #[inline(always)]
    pub fn play(&mut self, bit: u64) {
        self.current ^= self.mask;
        self.mask |= bit;
        self.moves += 1;
    }

    /// The squares the player to move can play now: the lowest empty square of each column.
    #[inline(always)]
    pub fn possible(&self) -> u64 {
        (self.mask + self.geom.bottom()) & self.geom.board()
    }

    /// Empty squares that would complete four in a row for the player to move.
    #[inline(always)]
    pub fn winning_spots(&self) -> u64 {
        winning_spots(self.geom, self.current, self.mask)
    }

    /// Empty squares that would complete four in a row for the opponent.
    #[inline(always)]
    pub fn opponent_winning_spots(&self) -> u64 {
        winning_spots(self.geom, self.current ^ self.mask, self.mask)
    }

    /// Whether the player to move can win with this move.
    #[inline(always)]
    pub fn can_win_next(&self) -> bool {
        self.winning_spots() & self.possible() != 0
    }

    /// Whether playing column `col` makes four in a row.
    #[inline(always)]
    pub fn is_winning_col(&self, col: u32) -> bool {
        self.winning_spots() & self.possible() & self.geom.column(col) != 0
    }

    /// The moves that do not let the opponent win at once (Pons part 9): the single forced block if
    /// the opponent has one playable winning square, none if it has two, and never a square right
    /// under an opponent's winning square. Only meaningful when the mover cannot win at once.
    #[inline(always)]
    pub fn possible_non_losing_moves(&self) -> u64 {
        let possible = self.possible();
        let opp_win = self.opponent_winning_spots();
        non_losing(possible, opp_win)
    }

    /// The number of winning squares the mover has after playing `bit` (Pons part 10's move score).
    #[inline(always)]
    pub fn move_score(&self, bit: u64) -> u32 {
        winning_spots(self.geom, self.current | bit, self.mask).count_ones()
    }

    /// The key of the mirror image (columns reversed), for symmetric transpositions.
    #[inline(always)]
    pub fn mirror_key(&self) -> u64 {
        mirror(self.geom, self.key())
    }

    /// Whether the player to move has four in a row (never true for a position reached by legal play
    /// before the game ended; used by tests).
    pub fn opponent_has_four(&self) -> bool {
        has_four(self.geom, self.current ^ self.mask)
    }

    /// Squares left empty.
    #[inline(always)]
    pub fn empty_squares(&self) -> u32 {
        self.geom.squares() - self.moves
    }
}

/// `possible` less the squares that lose at once, given the opponent's winning squares `opp_win`.
#[inline(always)]
pub fn non_losing(possible: u64, opp_win: u64) -> u64 {
    let forced = possible & opp_win;
    let candidates = if forced != 0 {
        if forced & (forced - 1) != 0 {
            return 0;
        }
        forced
    } else {
        possible
    };
    candidates & !(opp_win >> 1)
}

/// The empty squares (of `mask`'s complement) that complete a four of `stones`: for each direction
/// with bit step `s`, a square is winning when it has three stones in line among its neighbours at
/// `-3s..-1s`, `-2s..+1s`, `-1s..+2s` or `+1s..+3s`.
#[inline(always)]
pub fn winning_spots<G: Geometry>(geom: G, stones: u64, mask: u64) -> u64 {
    let h = geom.height();
    // Vertical: only three stones below.
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    for s in [h + 1, h, h + 2] {
        let (l1, l2, l3) = (stones << s, stones << (2 * s), stones << (3 * s));
        let (r1, r2, r3) = (stones >> s, stones >> (2 * s), stones >> (3 * s));
        r |= (l1 & l2 & (l3 | r1)) | (r1 & r2 & (l1 | r3));
    }
    r & (geom.board() ^ mask)
}

/// Whether `stones` hold four in a row.
#[inline(always)]
pub fn has_four<G: Geometry>(geom: G, stones: u64) -> bool {
    let h = geom.height();
    [1, h + 1, h, h + 2].iter().any(|&s| {
        let m = stones & (stones >> s);
        m & (m >> (2 * s)) != 0
    })
}

/// `key` with its columns in the reverse order.
#[inline(always)]
pub fn mirror<G: Geometry>(geom: G, key: u64) -> u64 {
    let w = geom.width();
    let h1 = geom.height() + 1;
    let col = (1u64 << h1) - 1;
    let mut r = 0;
    let mut c = 0;
    while c < w {
        r |= ((key >> (c * h1)) & col) << ((w - 1 - c) * h1);
        c += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_matches_the_rules_crate() {
        let pos = Connect4::from_moves(7, 6, "4453321").unwrap();
        let b = Board::from_game(Std7x6, &pos).unwrap();
        assert_eq!(b, Board::from_moves(Std7x6, "4453321").unwrap());
        assert_eq!(u128::from(b.key()), pos.key());
    }

    #[test]
    fn a_board_is_rebuilt_from_its_key() {
        for moves in ["", "4", "4453321", "1111112222223"] {
            let b = Board::from_moves(Std7x6, moves).unwrap();
            assert_eq!(Board::from_key(Std7x6, b.key()), Some(b), "{moves:?}");
        }
    }

    #[test]
    fn winning_spots_in_each_direction() {
        // X on 1, 2, 3 of the bottom row: the square 4/1 wins.
        let b = Board::from_moves(Std7x6, "172737").unwrap();
        assert_eq!(b.winning_spots(), 1 << (3 * 7));
        assert!(b.can_win_next());
        // Vertical: X three high in column 1.
        let b = Board::from_moves(Std7x6, "121212").unwrap();
        assert_eq!(b.winning_spots(), 1 << 3);
    }

    #[test]
    fn mirror_twice_is_identity_and_mirrors_columns() {
        let a = Board::from_moves(Std7x6, "1123").unwrap();
        let b = Board::from_moves(Std7x6, "7765").unwrap();
        assert_eq!(a.mirror_key(), b.key());
        assert_eq!(mirror(Std7x6, a.mirror_key()), a.key());
        let g = AnySize::new(5, 4).unwrap();
        let a = Board::from_moves(g, "1123").unwrap();
        let b = Board::from_moves(g, "5543").unwrap();
        assert_eq!(a.mirror_key(), b.key());
    }

    #[test]
    fn any_size_matches_std_on_7x6() {
        let g = AnySize::new(7, 6).unwrap();
        assert_eq!(g.bottom(), Std7x6.bottom());
        assert_eq!(g.board(), Std7x6.board());
        assert!(AnySize::new(8, 8).is_none());
        assert!(AnySize::new(9, 6).is_some());
    }
}
