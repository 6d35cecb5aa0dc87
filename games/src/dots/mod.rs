//! Dots (Точки) under the Russian rules of `docs/dots-rules.md` (R1–R14).
//!
//! Players put dots on the points of a W×H grid (each 4..=64, standard 39×32, R1) and capture enemy
//! dots by enclosing them in a cycle of their own live dots (R6–R8). Captures are found by tracing
//! chains at the placed dot, as oppai-rs's field engine does (see the `capture` module): the cost of
//! a move is the length of the chains plus the captured area, never a scan of the board. Every
//! random game of `shared/data/dots-random-games` (oppai-rs's output) is reproduced score for score.
//!
//! The board is a flat array of `u8` flags with a border of padding (`index = row * (W + 1) + x`,
//! rows from the top), and every change is logged as (index, old value) so that
//! [`undo`](Game::undo) is exact.
//!
//! ```
//! use games::dots::{Dots, Move, Start};
//! use games::{Game, Player};
//!
//! // Blue (first) surrounds Red's dot on 5-5; Red plays elsewhere.
//! let mut pos = Dots::new(8, 8, Start::Empty);
//! for m in ["5-6", "5-5", "4-5", "1-1", "6-5", "1-8", "5-4"] {
//!     pos.play(m.parse().unwrap()).unwrap();
//! }
//! assert_eq!(pos.score(), Some([1, 0]));
//! assert_eq!(pos.captures(Player::First), 1);
//! assert_eq!(pos.point(5, 5), Some(games::dots::Point::Captured(Player::Second)));
//! assert!(!pos.is_legal(Move::Put { x: 5, y: 5 }));
//! ```

mod capture;
mod cell;
mod eval;
mod frame;
mod notation;
mod variant;

use std::fmt;

pub use eval::DotsEval;
pub use notation::Move;
pub use variant::{DotsStart as Start, DotsVariant};

use crate::{Game, Outcome, PlayError, Player, RecordFormat, Setup, SetupError};
use capture::Scratch;
use cell::{is_free, is_live, BORDER, CAPTURED, HOUSE, PLAYER, PUT};

/// What is on one point of the board, as [`Dots::point`] reports it and `Display` draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Point {
    /// `.`: an empty point outside every base and house; legal (R5).
    Empty,
    /// `+` (first player's) or `-` (second's): an empty point inside that player's house, legal for
    /// both players (R5); an enemy dot played here is captured by the owner unless it captures
    /// something itself (R9).
    House(Player),
    /// `,`: an empty point inside a base of that player: dead, never legal again (R7).
    Dead(Player),
    /// `X` (first player's) or `O` (second's): a live dot.
    Dot(Player),
    /// `x` (first player's) or `o` (second's): a dot of that player captured by the other (R7), or
    /// handed over by its player's `ground` (R13).
    Captured(Player),
}

impl Point {
    /// The character `Display` draws for this point.
    pub fn symbol(self) -> char {
        match self {
            Point::Empty => '.',
            Point::House(Player::First) => '+',
            Point::House(Player::Second) => '-',
            Point::Dead(_) => ',',
            Point::Dot(Player::First) => 'X',
            Point::Dot(Player::Second) => 'O',
            Point::Captured(Player::First) => 'x',
            Point::Captured(Player::Second) => 'o',
        }
    }
}

pub use crate::MovesError;

/// One played move and what undoing it restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    mv: Move,
    log_len: u32,
    scores: [i32; 2],
    free: u32,
    /// Bases made before the move (their walls are kept for the board picture).
    bases: u32,
}

/// A Dots position: the board, the scores, and the moves played (for [`Game::undo`]).
///
/// The first player is Blue and moves first, then strict alternation (R3); the start position's
/// dots (R4) are not plies. [`Game::legal_moves`] lists the legal points (R5: empty and not inside a
/// base; house points included) in the order of `Display` (rows from the top, `y` = H down to 1, `x`
/// from 1 to W), but **not** `ground`: grounding is legal whenever the game is on
/// ([`Game::check`]`(Move::Ground)` is `Ok`), but it ends the game (R13), so it is left out for
/// random and search players not to resign by chance. The game is over when no legal point is left
/// or after `ground` (R13); the result compares the scores (R14). [`Game::score`] is
/// `[first player's captures, second player's captures]` (R11, with R10's liberations subtracted,
/// and the dots a `ground` hands over added).
///
/// `Display` draws the board, one line per row from the top (`y` = H) down, each ending in `\n`, one
/// character per point with no separators (see [`Point`]):
///
/// | char | point |
/// |---|---|
/// | `X` / `O` | live dot of the first / second player |
/// | `x` / `o` | captured dot of the first / second player |
/// | `.` | empty point, legal |
/// | `+` / `-` | empty point in a house of the first / second player, legal |
/// | `,` | empty point inside a base, dead |
///
/// A player's own dots inside its new base stay live dots, sealed in by the base (as in oppai-rs,
/// whose results the oracle of `shared/data/dots-random-games` holds); if the enemy later encloses
/// the base they are captured with it. The start position's dots are placed without resolving
/// captures (when W or H is below 7, the four crosses of `four-crosses` touch).
///
/// ```
/// use games::dots::{Dots, Start};
/// use games::Game;
///
/// let pos = Dots::from_moves(6, 4, Start::Empty, "3-3 3-2 2-2 1-1 3-1 6-1 4-2 6-4 5-3").unwrap();
/// assert_eq!(pos.to_string(), "\
/// .....O
/// ..X.X.
/// .XoX..
/// O.X..O
/// ");
/// ```
#[derive(Clone)]
pub struct Dots {
    w: u8,
    h: u8,
    start: Start,
    /// Dots placed on top of `start`'s before the first ply (empty for the variant's own start).
    setup: Vec<(u8, u8, Player)>,
    /// `W + 1`: one padding column shared by the two ends of consecutive rows.
    stride: usize,
    /// Index offsets of N, NE, E, SE, S, SW, W, NW (rows from the top).
    dirs: [isize; 8],
    /// `(H + 2) * stride + 1` cells of [`cell`] flags: a padding row above and below.
    cells: Vec<u8>,
    /// Per point, bit `d` for direction `d`: the neighbour is a live dot of the first / second
    /// player, or padding (the bits of `edges`, merged in so that the walk loads one mask per
    /// step). Derived from `cells` (kept in step by `set` and `undo`), so left out of equality.
    links: Vec<[u8; 2]>,
    /// Per point, bit `d` for direction `d`: the neighbour is padding; twice, so that `reset`
    /// copies it into `links` in one go (the two bytes are equal).
    edges: Vec<[u8; 2]>,
    /// The walk's step table for this stride (shared, see [`capture::turns`]).
    turns: &'static capture::Turns,
    /// Captures of each player (R11); may dip below zero only transiently.
    scores: [i32; 2],
    /// Number of legal points (R5).
    free: u32,
    /// Who played `ground`, if anyone (R13).
    grounded: Option<Player>,
    played: Vec<Played>,
    /// The wall dots of every base made, one chain after another (point indices), for the board
    /// picture; left out of equality (the cells hold the game).
    walls: Vec<u16>,
    /// Per base made: its player and the end of its chain in `walls`.
    bases: Vec<(Player, u32)>,
    /// Undo log: `index << 8 | old cell value`.
    log: Vec<u32>,
    scratch: Scratch,
}

impl PartialEq for Dots {
    fn eq(&self, other: &Dots) -> bool {
        self.w == other.w
            && self.h == other.h
            && self.start == other.start
            && self.setup == other.setup
            && self.cells == other.cells
            && self.scores == other.scores
            && self.free == other.free
            && self.grounded == other.grounded
            && self.played == other.played
    }
}

impl Eq for Dots {}

impl fmt::Debug for Dots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Dots {}x{} {} ply {} score {}:{}{}",
            self.w,
            self.h,
            self.start,
            self.played.len(),
            self.scores[0],
            self.scores[1],
            if self.grounded.is_some() {
                " grounded"
            } else {
                ""
            }
        )?;
        write!(f, "{self}")
    }
}

impl Default for Dots {
    /// The standard game: 39×32 with the cross (R1, R4).
    fn default() -> Dots {
        Dots::new(39, 32, Start::Cross)
    }
}

/// The four dots of a cross with lower left corner `x0`-`y0` (R4): first player on `x0`-`(y0+1)`
/// and `(x0+1)`-`y0`, second on `x0`-`y0` and `(x0+1)`-`(y0+1)`.
fn cross(x0: u8, y0: u8) -> [(u8, u8, Player); 4] {
    [
        (x0, y0 + 1, Player::First),
        (x0 + 1, y0, Player::First),
        (x0, y0, Player::Second),
        (x0 + 1, y0 + 1, Player::Second),
    ]
}

impl Dots {
    /// The start position of a `width` × `height` game (R1) with the start dots of `start` (R4):
    /// none; the cross at x0 = ⌈W/2⌉, y0 = ⌈H/2⌉; or four crosses, one per quadrant, placed as in
    /// KataGoDots (on 39×32 their lower left corners are 12-11, 27-11, 12-21 and 27-21).
    ///
    /// # Panics
    /// If `width` or `height` is outside 4..=64 ([`DotsVariant`] validates them first).
    pub fn new(width: u8, height: u8, start: Start) -> Dots {
        assert!(
            (4..=64).contains(&width) && (4..=64).contains(&height),
            "Dots board {width}x{height} is outside 4..=64"
        );
        let stride = width as usize + 1;
        let len = (height as usize + 2) * stride + 1;
        let s = stride as isize;
        let points = width as usize * height as usize;
        let mut pos = Dots {
            w: width,
            h: height,
            start,
            setup: Vec::new(),
            stride,
            dirs: [-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1],
            cells: vec![0; len],
            links: vec![[0; 2]; len],
            edges: vec![[0; 2]; len],
            turns: capture::turns(stride),
            scores: [0; 2],
            free: 0,
            grounded: None,
            played: Vec::with_capacity(points + 1),
            walls: Vec::new(),
            bases: Vec::new(),
            log: Vec::with_capacity(points * 4),
            scratch: Scratch::new(len),
        };
        // The first reset lays out the padding for `edges`; the second merges `edges` into `links`.
        pos.reset();
        for i in 0..len {
            if pos.cells[i] & BORDER == 0 {
                for (d, &off) in pos.dirs.iter().enumerate() {
                    if pos.cells[i.wrapping_add_signed(off)] & BORDER != 0 {
                        pos.edges[i][0] |= 1 << d;
                        pos.edges[i][1] |= 1 << d;
                    }
                }
            }
        }
        pos.reset();
        pos.mark_padding();
        pos
    }

    /// Back to the start position, keeping the allocations (for benchmarks and playouts).
    pub fn reset(&mut self) {
        let (w, h, stride) = (self.w as usize, self.h as usize, self.stride);
        self.cells.fill(BORDER);
        for row in 1..=h {
            self.cells[row * stride + 1..=row * stride + w].fill(0);
        }
        self.scores = [0; 2];
        self.grounded = None;
        self.played.clear();
        self.walls.clear();
        self.bases.clear();
        self.log.clear();
        self.links.copy_from_slice(&self.edges);
        self.free = (w * h) as u32;
        for (x, y, p) in self.start_dots() {
            let i = self.index(x, y);
            self.cells[i] = PUT | cell::bit(p);
            self.relink(i, 0, self.cells[i]);
            self.free -= 1;
        }
    }

    /// The start position of [`Dots::new`] with the dots of `setup` put on top, without resolving
    /// captures (as the variant's own start dots are put, R4): the start of a game recorded with setup
    /// dots, e.g. an SGF game's `AB`/`AW`.
    ///
    /// # Errors
    /// [`SetupError::OffBoard`] for a dot outside the board, [`SetupError::Taken`] for one on a start
    /// dot or on another setup dot.
    ///
    /// # Panics
    /// As [`Dots::new`].
    ///
    /// ```
    /// use games::dots::{Dots, Point, Start};
    /// use games::{Game, Player, Setup};
    ///
    /// let setup: Setup = "first 2-2 second 3-3".parse().unwrap();
    /// let pos = Dots::with_setup(5, 5, Start::Empty, &setup).unwrap();
    /// assert_eq!(pos.point(3, 3), Some(Point::Dot(Player::Second)));
    /// assert_eq!((pos.ply(), pos.turn()), (0, Player::First));
    /// assert!(Dots::with_setup(5, 5, Start::Empty, &"first 6-1".parse().unwrap()).is_err());
    /// ```
    pub fn with_setup(
        width: u8,
        height: u8,
        start: Start,
        setup: &Setup,
    ) -> Result<Dots, SetupError> {
        let mut pos = Dots::new(width, height, start);
        if setup.is_empty() {
            return Ok(pos);
        }
        let mut taken: Vec<(u8, u8)> = pos.start_dots().iter().map(|&(x, y, _)| (x, y)).collect();
        for (x, y, p) in setup.dots() {
            let text = || Move::Put { x, y }.to_string();
            if !pos.on_board(x, y) {
                return Err(SetupError::OffBoard(text()));
            }
            if taken.contains(&(x, y)) {
                return Err(SetupError::Taken(text()));
            }
            taken.push((x, y));
            pos.setup.push((x, y, p));
        }
        pos.reset();
        Ok(pos)
    }

    /// The setup dots put on top of the variant's start ([`Dots::with_setup`]); empty for the
    /// variant's own start.
    pub fn setup(&self) -> Setup {
        let mut out = Setup::default();
        for &(x, y, p) in &self.setup {
            match p {
                Player::First => out.first.push((x, y)),
                Player::Second => out.second.push((x, y)),
            }
        }
        out
    }

    /// The dots of the start position: the variant's (R4), then the setup's.
    fn start_dots(&self) -> Vec<(u8, u8, Player)> {
        let mut dots = self.variant_dots();
        dots.extend_from_slice(&self.setup);
        dots
    }

    /// The dots of the variant's start (R4).
    fn variant_dots(&self) -> Vec<(u8, u8, Player)> {
        let (w, h) = (self.w, self.h);
        match self.start {
            Start::Empty => Vec::new(),
            Start::Cross => cross(w.div_ceil(2), h.div_ceil(2)).to_vec(),
            Start::FourCrosses => {
                // KataGoDots: 0-based offsets from the top left corner of the cross's top left dot.
                let (ox, oy) = if (w, h) == (39, 32) {
                    (11, 10)
                } else {
                    ((w - 3) / 3, (h - 3) / 3)
                };
                let (sx, sy) = (w - 2 - ox, h - 2 - oy);
                let at = |ox: u8, oy: u8| cross(ox + 1, h - oy - 1);
                [at(ox, oy), at(sx, oy), at(sx, sy), at(ox, sy)].concat()
            }
        }
    }

    /// One game of oppai-rs's rules benchmark (`field_benchmark`): back to the start position
    /// ([`Dots::reset`]), then each move of `moves` in turn is played by the side to move when it is
    /// legal and skipped otherwise, until the list is exhausted. With every point of the board
    /// shuffled as `moves`, that is a random full game (`games/benches/dots.rs`,
    /// `games/examples/dots_count.rs`). Returns the final score.
    pub fn play_in_order(&mut self, moves: &[Move]) -> [u32; 2] {
        self.reset();
        for &m in moves {
            if self.is_legal(m) {
                self.play_unchecked(m);
            }
        }
        [self.captures(Player::First), self.captures(Player::Second)]
    }

    /// Plays a whitespace-separated list of moves (`"20-18 21-18 ground"`) from the start position.
    ///
    /// # Errors
    /// [`MovesError`] with the 1-based number of the first move that does not parse or is not legal.
    ///
    /// # Panics
    /// As [`Dots::new`].
    pub fn from_moves(
        width: u8,
        height: u8,
        start: Start,
        moves: &str,
    ) -> Result<Dots, MovesError> {
        let mut pos = Dots::new(width, height, start);
        crate::play_moves(&mut pos, moves.split_whitespace())?;
        Ok(pos)
    }

    /// Board width W (R1).
    pub fn width(&self) -> u8 {
        self.w
    }

    /// Board height H (R1).
    pub fn height(&self) -> u8 {
        self.h
    }

    /// The start position's kind (R4).
    pub fn start(&self) -> Start {
        self.start
    }

    /// The number of enemy dots `player` has captured (R11, after R10's liberations and R13's
    /// handover): `score()[player.index()]`.
    pub fn captures(&self, player: Player) -> u32 {
        self.scores[player.index()].max(0) as u32
    }

    /// The number of legal points left (R5): 0 ends the game (R13).
    pub fn free_points(&self) -> usize {
        self.free as usize
    }

    /// The moves played since the start position, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.played.iter().map(|f| f.mv)
    }

    /// The player who ended the game with `ground`, if one did (R13).
    pub fn grounded_by(&self) -> Option<Player> {
        self.grounded
    }

    /// The flat index of point `x`-`y` (1-based, y from the bottom), which must be on the board.
    #[inline(always)]
    fn index(&self, x: u8, y: u8) -> usize {
        (self.h as usize + 1 - y as usize) * self.stride + x as usize
    }

    /// Whether `x`-`y` is on the board.
    #[inline(always)]
    fn on_board(&self, x: u8, y: u8) -> bool {
        // `1 <= x <= W` as one unsigned comparison (0 wraps round to 255).
        (x.wrapping_sub(1) < self.w) & (y.wrapping_sub(1) < self.h)
    }

    /// What is on point `x`-`y` (1-based, y from the bottom), or `None` off the board.
    #[inline]
    pub fn point(&self, x: u8, y: u8) -> Option<Point> {
        self.on_board(x, y)
            .then(|| Self::classify(self.cells[self.index(x, y)]))
    }

    /// Whether a live dot of `player` is among the eight neighbours of point `x`-`y`; false off the
    /// board. O(1): read from the neighbour masks the capture search keeps.
    #[inline]
    pub fn touches(&self, x: u8, y: u8, player: Player) -> bool {
        if !self.on_board(x, y) {
            return false;
        }
        let i = self.index(x, y);
        self.links[i][player.index()] & !self.edges[i][0] != 0
    }

    #[inline]
    fn classify(c: u8) -> Point {
        let p = cell::player(c);
        if c & PUT != 0 {
            if c & CAPTURED != 0 {
                Point::Captured(p)
            } else {
                Point::Dot(p)
            }
        } else if c & CAPTURED != 0 {
            Point::Dead(p)
        } else if c & HOUSE != 0 {
            Point::House(p)
        } else {
            Point::Empty
        }
    }

    /// Every point as (x, y, what), in the order of `Display`: rows from the top (y = H) down, x
    /// from 1 to W.
    pub fn points(&self) -> impl Iterator<Item = (u8, u8, Point)> + '_ {
        (1..=self.h).rev().flat_map(move |y| {
            (1..=self.w).map(move |x| (x, y, Self::classify(self.cells[self.index(x, y)])))
        })
    }

    /// Whether the dot on `x`-`y` is grounded (R12): a 4-connected path through points owned by
    /// its player (its live dots and the insides of its bases, not houses) reaches the board's edge.
    /// False for an empty or captured point, or off the board. Floods the whole board.
    pub fn is_grounded(&self, x: u8, y: u8) -> bool {
        if !self.on_board(x, y) {
            return false;
        }
        let i = self.index(x, y);
        let c = self.cells[i];
        if c & (PUT | CAPTURED) != PUT {
            return false;
        }
        self.grounded_points(c & PLAYER)[i]
    }

    /// The number of `player`'s live dots that are not grounded (R12): what `player`'s `ground`
    /// would hand to the opponent now (R13). Floods the whole board.
    pub fn ungrounded_dots(&self, player: Player) -> u32 {
        let p = cell::bit(player);
        let g = self.grounded_points(p);
        self.cells
            .iter()
            .zip(&g)
            .filter(|&(&c, &grounded)| is_live(c, p) && !grounded)
            .count() as u32
    }

    /// R13: `player` grounds; its ungrounded live dots are captured by the opponent. Out of line
    /// and cold: it runs at most once a game, and keeping it out of [`Game::play_unchecked`]
    /// keeps that small enough to inline.
    #[cold]
    #[inline(never)]
    fn ground(&mut self, player: Player) {
        let p = cell::bit(player);
        let g = self.grounded_points(p);
        let mut lost = 0;
        for (i, &grounded) in g.iter().enumerate() {
            let c = self.cells[i];
            if is_live(c, p) && !grounded {
                self.set(i, c | CAPTURED);
                lost += 1;
            }
        }
        self.scores[player.opponent().index()] += lost;
        self.grounded = Some(player);
    }

    /// The player who plays ply number `ply` (0-based): first on even plies (R3).
    fn mover(ply: usize) -> Player {
        if ply & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn is_over(&self) -> bool {
        self.free == 0 || self.grounded.is_some()
    }
}

impl fmt::Display for Dots {
    /// One line per row, the top row (y = H) first, one [`Point::symbol`] per point. The alternate form
    /// (`{:#}`) adds the coordinates of the move notation: each row's y on its left, and below the board
    /// each column's x, written downwards (its tens digit over its units digit when W > 9).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::with_capacity(self.w as usize + 4);
        for y in (1..=self.h).rev() {
            line.clear();
            if f.alternate() {
                line.push_str(&format!("{y:>2} "));
            }
            for x in 1..=self.w {
                line.push(Self::classify(self.cells[self.index(x, y)]).symbol());
            }
            line.push('\n');
            f.write_str(&line)?;
        }
        if f.alternate() {
            let digit = |d: u8| char::from(b'0' + d);
            if self.w > 9 {
                let tens: String = (1..=self.w)
                    .map(|x| if x < 10 { ' ' } else { digit(x / 10) })
                    .collect();
                writeln!(f, "   {tens}")?;
            }
            let units: String = (1..=self.w).map(|x| digit(x % 10)).collect();
            writeln!(f, "   {units}")?;
        }
        Ok(())
    }
}

impl Game for Dots {
    type Move = Move;
    type Variant = DotsVariant;
    type Eval = DotsEval;
    const RECORD_FORMATS: &'static [RecordFormat] = &[RecordFormat::Sgf];
    const SCORE: &'static str = "captured";
    const LEGEND: &'static str =
        "X/O dots; x/o captured dots of X/O; +/- empty points in X's/O's house; , dead points \
         inside a base; a move is x-y (1-based, y up), e.g. 5-7, or `ground`";

    fn start(v: DotsVariant) -> Dots {
        Dots::new(v.width, v.height, v.start)
    }

    fn start_with_setup(v: DotsVariant, setup: &Setup) -> Result<Dots, SetupError> {
        Dots::with_setup(v.width, v.height, v.start, setup)
    }

    fn variant(&self) -> DotsVariant {
        DotsVariant {
            width: self.w,
            height: self.h,
            start: self.start,
        }
    }

    fn frame(&self) -> crate::Frame {
        self.picture()
    }

    /// The points the last move wrote: its dot, and the captures and bases it made.
    fn changed(&self) -> Option<crate::frame::Changed> {
        self.changed_spots()
    }

    fn frame_at(&self, changed: &crate::frame::Changed) -> crate::Frame {
        self.picture_at(changed)
    }

    /// First (Blue) on even plies, strict alternation (R3).
    fn turn(&self) -> Player {
        Self::mover(self.played.len())
    }

    fn ply(&self) -> usize {
        self.played.len()
    }

    /// The legal points (R5) in `Display` order; never `ground` (see [`Dots`]).
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.is_over() {
            return;
        }
        out.reserve(self.free as usize);
        for y in (1..=self.h).rev() {
            let row = self.index(0, y);
            for x in 1..=self.w {
                if is_free(self.cells[row + x as usize]) {
                    out.push(Move::Put { x, y });
                }
            }
        }
    }

    /// `ground` is legal whenever the game is on; a point must be on the board (else
    /// [`PlayError::OffBoard`]), empty and not inside a base (else [`PlayError::Occupied`], R5).
    fn check(&self, m: Move) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        match m {
            Move::Ground => Ok(()),
            Move::Put { x, y } => {
                if !self.on_board(x, y) {
                    Err(PlayError::OffBoard(m.to_string()))
                } else if !is_free(self.cells[self.index(x, y)]) {
                    Err(PlayError::Occupied(m.to_string()))
                } else {
                    Ok(())
                }
            }
        }
    }

    // Inlinable across crates: random playouts call it on every point.
    #[inline]
    fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Ground => !self.is_over(),
            Move::Put { x, y } => {
                self.on_board(x, y) && is_free(self.cells[self.index(x, y)]) && !self.is_over()
            }
        }
    }

    /// Plays the move (an illegal point is recorded as a ply that changes nothing).
    // Inlinable: a caller that has just checked `is_legal` (random playouts) shares the index
    // arithmetic, and the common move is a few stores and a table look-up (see `Dots::put`).
    #[inline(always)]
    fn play_unchecked(&mut self, m: Move) {
        let p = Self::mover(self.played.len());
        // The point to put on, looked up before the frame is pushed (a push may reallocate), so
        // that after an inlined `is_legal` the compiler can reuse its look-up.
        let put = match m {
            Move::Put { x, y } if self.on_board(x, y) => {
                let i = self.index(x, y);
                let c = self.cells[i];
                is_free(c).then_some((i, c))
            }
            _ => None,
        };
        self.played.push(Played {
            mv: m,
            log_len: self.log.len() as u32,
            scores: self.scores,
            free: self.free,
            bases: self.bases.len() as u32,
        });
        if let Some((i, c)) = put {
            self.put(i, c, cell::bit(p));
        } else if m == Move::Ground {
            self.ground(p);
        }
    }

    fn undo(&mut self) {
        let frame = self.played.pop().expect("undo with no move played");
        for k in (frame.log_len as usize..self.log.len()).rev() {
            let e = self.log[k];
            let i = (e >> 8) as usize;
            let now = self.cells[i];
            self.cells[i] = e as u8;
            self.relink(i, now, e as u8);
        }
        self.log.truncate(frame.log_len as usize);
        self.scores = frame.scores;
        self.free = frame.free;
        if self.bases.len() > frame.bases as usize {
            self.bases.truncate(frame.bases as usize);
            self.walls
                .truncate(self.bases.last().map_or(0, |&(_, end)| end as usize));
        }
        if frame.mv == Move::Ground {
            self.grounded = None;
        }
    }

    /// Over when no legal point is left or after `ground` (R13); more captures wins, equal draws
    /// (R14).
    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn score(&self) -> Option<[u32; 2]> {
        Some([self.captures(Player::First), self.captures(Player::Second)])
    }
}
