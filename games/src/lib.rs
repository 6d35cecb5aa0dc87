//! Rules of the games the arena referees, with no I/O.
//!
//! One [`Game`] trait serves every game, modelled on shakmaty's `Position` (checked and unchecked play,
//! typed errors, wire formats through `FromStr`/`Display`) and OpenSpiel's `State` (current player, legal
//! actions, undo, terminal test). The games:
//!
//! - [`TicTacToe`]: the m,n,k-game, default 3×3 with three in a row; moves `a1`..`c3`.
//! - [`Connect4`]: W×H up to 9×9, default 7×6, bitboards; a move is the column number `1`..`W`.
//! - [`Dots`]: Точки under the Russian rules of `docs/dots-rules.md` (R1–R14); moves `x-y` and `ground`.
//! - [`Kalah`]: Kalah(N,S) of `docs/kalah-rules.md`; a move is a pit number `1`..`2N`.
//! - any other two-player game a WebAssembly game module gives ([`module`], `docs/modules.md`).
//!
//! A game is one folder: its rules, notation, variant (config keys), evaluation for the built-in
//! engines ([`eval`]) and board picture ([`frame`]), all declared through the [`Game`] trait. The
//! [`mod@registry`] is the one list of the games; [`GameSpec`] names a game and its variant in the words of
//! the protocol's `game` command (`connect4 7 6`, `tictactoe 3 3 3`, `dots 39 32 cross`).
//!
//! ```
//! use games::{Connect4, Game, Outcome, Player};
//!
//! let mut pos = Connect4::default();
//! for m in ["4", "5", "4", "5", "4", "5", "4"] {
//!     let mv = m.parse().unwrap();
//!     pos.play(mv).unwrap();
//! }
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
//! ```

pub mod eval;
pub mod frame;
pub mod module;
#[macro_use]
pub mod registry;
mod setup;
pub mod variant;

pub use dots::Start as DotsStart;
pub use eval::{Evaluation, NoEvaluation, Score, Weight, Weights};
pub use frame::Frame;
pub use registry::{GameVisitor, RecordFormat, SpecError};
pub use setup::{Setup, SetupError};
pub use variant::{Param, Variant};

// The registry: every game the arena knows, one line a game (its folder holds the rest; see
// `docs/games.md`). Each line declares the game's module and re-exports its type.
registry! {
    /// `tictactoe`: the m,n,k-game.
    TicTacToe => tictactoe::TicTacToe,
    /// `connect4`: Connect Four.
    Connect4 => connect4::Connect4,
    /// `dots`: Точки under the Russian rules.
    Dots => dots::Dots,
    /// `kalah`: Kalah(N,S), the mancala game of the article on minimax.
    Kalah => kalah::Kalah,
}

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

/// One of the two players. `First` moves first (Blue in Dots, R3). Serialized as `first`, `second`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// How a finished game ended on the board (forfeits are the arena's business, not the rules').
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// A move string that does not parse in a game's notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unparsable move {text:?}: {reason}")]
pub struct ParseMoveError {
    /// The text that failed, truncated to 64 bytes.
    pub text: String,
    /// Why it failed, e.g. "expected a column number".
    pub reason: &'static str,
}

impl ParseMoveError {
    /// Builds the error, keeping at most 64 bytes of `text` so a flood never ends up in a record.
    pub fn new(text: &str, reason: &'static str) -> Self {
        let mut end = text.len().min(64);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        ParseMoveError {
            text: text[..end].to_string(),
            reason,
        }
    }
}

/// A list of moves that cannot be played from a position; `ply` is the 1-based number of the
/// offending move in the list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// The word is not a move in the game's notation.
    #[error("move {ply}: {error}")]
    Parse { ply: usize, error: ParseMoveError },
    /// The move is not legal there (off the board, taken, or after the end).
    #[error("move {ply}: {error}")]
    Play { ply: usize, error: PlayError },
}

/// Plays `moves` (each in the game's notation) in order on `pos`, checking each.
///
/// # Errors
/// [`MovesError`] at the first move that does not parse or is not legal; the moves before it stay played.
pub fn play_moves<'a, G: Game>(
    pos: &mut G,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(), MovesError> {
    for (k, text) in moves.into_iter().enumerate() {
        let ply = k + 1;
        let m: G::Move = text
            .parse()
            .map_err(|error| MovesError::Parse { ply, error })?;
        pos.play(m)
            .map_err(|error| MovesError::Play { ply, error })?;
    }
    Ok(())
}

/// Why a well-formed move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The move names a point or column outside the board.
    #[error("{0} is off the board")]
    OffBoard(String),
    /// The target is taken: an occupied square, a full column, a dot or a base's inside (R5).
    #[error("{0} is occupied")]
    Occupied(String),
    /// The move names something of the other player's (a Kalah pit on the opponent's side).
    #[error("{0} is the other player's")]
    NotYours(String),
    /// The move names an empty source (a Kalah pit without seeds).
    #[error("{0} is empty")]
    Empty(String),
    /// A game module refused the move, for the reason it gives ([`module`]).
    #[error("{0}")]
    Refused(String),
}

/// The rules of a two-player, perfect-information game, and what the arena needs to know of it besides:
/// its variant and config keys, its evaluation for the built-in engines, its board picture.
///
/// The side to move need not alternate: [`turn`](Game::turn) says who moves after each ply (Kalah gives
/// another move to a player whose last seed lands in their store), and every user of the trait (the
/// referee, the protocols, the searches, the records) asks it rather than counting plies.
///
/// Positions are values: `Clone` gives an independent copy, `Eq`/`Hash` compare the whole position
/// including history that matters for undo. `Display` draws the board as text (first player `X`, second
/// `O`, empty `.`; Dots adds its own marks for captured points).
///
/// Contract, checked for every game by the conformance test (`games/tests/conformance.rs`):
/// - every move in [`legal_moves`](Game::legal_moves) is accepted by [`play`](Game::play);
/// - [`undo`](Game::undo) after [`play_unchecked`](Game::play_unchecked) restores an equal position;
/// - `m.to_string().parse() == Ok(m)` for every legal move;
/// - a game where each side always plays some legal move ends;
/// - every [`frame`](Game::frame) is valid ([`Frame::validate`]).
pub trait Game: Clone + fmt::Debug + fmt::Display + PartialEq + Eq + Send + Sync + 'static {
    /// A move; its `Display`/`FromStr` are the wire notation of the protocol.
    type Move: Copy
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = ParseMoveError>
        + PartialEq
        + Eq
        + Hash
        + Send
        + Sync
        + 'static;

    /// The variant: the game's name, its parameters and config keys ([`Variant`]).
    type Variant: Variant + Into<GameSpec>;

    /// The static evaluation of the built-in search engines ([`eval`]); [`NoEvaluation`] for none.
    type Eval: Evaluation<Self>;

    /// The record formats beyond PGN that apply to this game's records.
    const RECORD_FORMATS: &'static [RecordFormat] = &[];

    /// What the marks of the text board (`Display`) mean and how a move is written, in one line for a
    /// person at a terminal (`arena play`): `X first player, O second; a move is a column number, e.g. 4`.
    const LEGEND: &'static str;

    /// What [`Game::score`] counts, as the text commands name it (`arena replay`: `captured: first 3,
    /// second 5`): Dots `captured`, Kalah `in the stores`; `score` by default.
    const SCORE: &'static str = "score";

    /// Whether the sides always alternate, each legal move passing the turn (checked by the conformance
    /// test). `false` where a side may move again (Kalah): the arena then finds who made each move of
    /// a record by replaying it ([`movers`]); otherwise by counting.
    const ALTERNATES: bool = true;

    /// How the text board marks each side, for a person at a terminal (`arena play`'s `you play X`):
    /// `X` and `O` by default.
    const MARKS: [&'static str; 2] = ["X", "O"];

    /// The start position of `variant`.
    fn start(variant: Self::Variant) -> Self;

    /// The start position of `variant` with `setup`'s dots put on top (an SGF game's `AB`/`AW`).
    ///
    /// # Errors
    /// [`SetupError`] for a dot the game cannot place; by default any setup at all
    /// ([`SetupError::NoSetups`]): only Dots has setups.
    fn start_with_setup(variant: Self::Variant, setup: &Setup) -> Result<Self, SetupError> {
        if setup.is_empty() {
            Ok(Self::start(variant))
        } else {
            Err(SetupError::NoSetups(<Self::Variant as Variant>::NAME))
        }
    }

    /// The variant of this position.
    fn variant(&self) -> Self::Variant;

    /// The game and variant of this position.
    fn spec(&self) -> GameSpec {
        self.variant().into()
    }

    /// The player to move. After the game is over, the player who would move next.
    fn turn(&self) -> Player;

    /// Plies played since the start position (the start position's own dots, as the Dots cross, are not plies).
    fn ply(&self) -> usize;

    /// Appends every legal move to `out` (which is not cleared). Empty once the game is over.
    /// Dots lists points only: the move `ground` is legal whenever the game is on but not listed (see [`Dots`]).
    fn legal_moves_into(&self, out: &mut Vec<Self::Move>);

    /// Every legal move, in a fixed order (the game's own: squares, columns or points by index).
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.legal_moves_into(&mut v);
        v
    }

    /// Checks `m` without playing it.
    ///
    /// # Errors
    /// [`PlayError`] saying why the move is not legal here.
    fn check(&self, m: Self::Move) -> Result<(), PlayError>;

    /// Whether `m` is legal here.
    fn is_legal(&self, m: Self::Move) -> bool {
        self.check(m).is_ok()
    }

    /// Plays a move after checking it; on error the position is unchanged.
    ///
    /// # Errors
    /// [`PlayError`] if the move is not legal here.
    fn play(&mut self, m: Self::Move) -> Result<(), PlayError> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a legal move without checking it (for search). An illegal move leaves the position
    /// unspecified (but memory-safe).
    fn play_unchecked(&mut self, m: Self::Move);

    /// Takes back the last move played.
    ///
    /// # Panics
    /// If no move has been played since the start position.
    fn undo(&mut self);

    /// The result if the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The score of each side where the game keeps one, indexed by [`Player::index`]: Dots gives the
    /// captured enemy dots (R11), Kalah the seeds in each store, the others `None`.
    fn score(&self) -> Option<[u32; 2]> {
        None
    }

    /// The board picture of this position ([`frame`]): the last move highlighted, the score in the
    /// panel.
    fn frame(&self) -> Frame;

    /// What the last move may have changed in the picture, for drawing every position of long games
    /// fast (a report of thousands of Dots games): with [`frame_at`](Game::frame_at) of it, the picture
    /// before the move gives the picture after it. `None` (the default, and at the start): anything, so
    /// the whole [`frame`](Game::frame) is drawn. The conformance test checks that the two ways give
    /// the same picture.
    fn changed(&self) -> Option<frame::Changed> {
        None
    }

    /// The picture of what `changed` names: the pieces on its spots, the areas and lines whole when
    /// it says they may have changed (else they are the ones before and may be left out), the highlight
    /// and panel whole; the board is left to the caller (a game's board does not change: it may be
    /// default). Default: [`frame`](Game::frame) with the other pieces left out.
    fn frame_at(&self, changed: &frame::Changed) -> Frame {
        let mut f = self.frame();
        f.pieces.retain(|p| changed.spots.contains(&[p.x, p.y]));
        f
    }

    /// Why the rules could not be run, where they run outside the crate: a game module
    /// ([`module::ModuleGame`]) that trapped, ran out of fuel or memory, or broke the ABI. The position
    /// then reads as over (a draw, no legal moves), so every caller that reports a result (the
    /// referee, the re-referee of a record) asks this first: the game is voided, not scored. `None`
    /// for the built-in games, whose rules cannot fail.
    fn fault(&self) -> Option<String> {
        None
    }
}

/// The player who made each move of `moves` from the start of `pos` (or `None` from the first move
/// that does not parse or is not legal): the arena's records keep the moves alone, and the side to
/// move need not alternate ([`Game::turn`]).
pub fn movers<'a, G: Game>(
    mut pos: G,
    moves: impl IntoIterator<Item = &'a str>,
) -> Vec<Option<Player>> {
    let mut out = Vec::new();
    let mut ok = true;
    for text in moves {
        let who = pos.turn();
        ok = ok
            && text
                .parse::<G::Move>()
                .ok()
                .is_some_and(|m| pos.play(m).is_ok());
        out.push(ok.then_some(who));
    }
    out
}
