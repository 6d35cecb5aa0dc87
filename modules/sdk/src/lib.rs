//! The SDK of arena game modules: write a game as `impl arena_game::Game`, add one line
//! `arena_game::export_game!(MyGame);`, and build it to WebAssembly for the arena
//! (`[game] module = "my-game.wasm"`). The same source builds natively for the author's own tests.
//!
//! The module's exports are the ABI of `docs/modules.md` (version [`ABI_VERSION`]); this crate writes
//! them so an author never sees pointers. It has no dependencies and compiles with Rust 1.63, the
//! `rustc` of Debian 12 that `modules/build.sh` uses (`rustc --target wasm32-unknown-unknown`).
//!
//! ```
//! use arena_game::{Frame, Game, Outcome, Side};
//!
//! /// Nim: take 1 to 3 of the stones; who takes the last one wins.
//! #[derive(Clone)]
//! struct Nim { stones: u32, turn: Side }
//!
//! impl Game for Nim {
//!     type Move = u32;
//!     const NAME: &'static str = "nim";
//!     fn start(variant: &str) -> Result<Nim, String> {
//!         let stones = if variant.is_empty() { 10 } else {
//!             variant.parse().map_err(|_| format!("stones {:?} is not a number", variant))?
//!         };
//!         Ok(Nim { stones, turn: Side::First })
//!     }
//!     fn variant(&self) -> String { "10".into() }
//!     fn turn(&self) -> Side { self.turn }
//!     fn legal_moves(&self, out: &mut Vec<u32>) { out.extend((1..=3).filter(|&k| k <= self.stones)) }
//!     fn play(&mut self, m: u32) -> Result<(), String> {
//!         if m == 0 || m > 3 || m > self.stones { return Err(format!("cannot take {}", m)); }
//!         self.stones -= m;
//!         self.turn = self.turn.other();
//!         Ok(())
//!     }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The player to move has nothing left to take: the other one took the last stone.
//!         if self.stones == 0 { Some(Outcome::Win(self.turn.other())) } else { None }
//!     }
//!     fn move_text(&self, m: u32) -> String { m.to_string() }
//!     fn parse_move(&self, text: &str) -> Result<u32, String> {
//!         text.parse().map_err(|_| "expected a number 1-3".to_string())
//!     }
//!     fn frame(&self) -> Frame { Frame::grid(1, 1) }
//! }
//!
//! let mut nim = Nim::start("").unwrap();
//! nim.play(3).unwrap();
//! assert_eq!(nim.turn(), Side::Second);
//! ```

pub mod frame;
#[doc(hidden)]
pub mod glue;

pub use frame::{Area, Frame, Layout, Line, LineKind, Piece, Shape, Style};

/// The version of the ABI the exports follow (`arena_abi`); the arena refuses another.
pub const ABI_VERSION: i32 = 1;

/// One of the two players; `First` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`.
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// The rules of a two-player game, as a module gives them to the arena: the guest's side of the arena's
/// own `Game` trait (`games/src/lib.rs`).
///
/// Contract (what `arena check-game` tests): every move of [`legal_moves`](Game::legal_moves) is
/// accepted by [`play`](Game::play) and written by [`move_text`](Game::move_text) as text that
/// [`parse_move`](Game::parse_move) reads back; no other move is accepted; the same moves from the same
/// variant give the same position; every game ends. Undo is the glue's: it keeps a copy of each
/// position, so `Clone` should be cheap.
pub trait Game: Clone {
    /// A move in the module's own terms.
    type Move: Copy + PartialEq;

    /// The game's name (lower-case letters, digits and `-`): `connect4`, `gomoku`.
    const NAME: &'static str;

    /// The start position of `variant`, the text after the module in a config (`""` for the default).
    ///
    /// # Errors
    /// Why the variant is refused, e.g. `width 12 is out of range 4..=9`.
    fn start(variant: &str) -> Result<Self, String>;

    /// The variant in its normal form (`7 6` for both `""` and `7 6`): what the records keep.
    fn variant(&self) -> String;

    /// The player to move (after the end: who would move next).
    fn turn(&self) -> Side;

    /// Appends every legal move, in a fixed order; none once the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays `m` after checking it; a refused move leaves the position as it was.
    ///
    /// # Errors
    /// Why the move is illegal here (`column 3 is full`); the arena records it as the bot's forfeit.
    fn play(&mut self, m: Self::Move) -> Result<(), String>;

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The score of each side, where the game keeps one (captures, stones in a store); by default none.
    fn score(&self) -> Option<[u32; 2]> {
        None
    }

    /// The move as the protocol writes it (`4`, `h8`): no spaces, at most 32 bytes.
    fn move_text(&self, m: Self::Move) -> String;

    /// The move written as `text`.
    ///
    /// # Errors
    /// Why `text` is not a move of this game (`expected a column number 1-7`).
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// The board picture (the vocabulary of `docs/games.md`).
    fn frame(&self) -> Frame;
}

/// Writes the module's exports for the game type `$game` (one call per module).
///
/// Built for `wasm32`, it defines the `arena_*` functions of the ABI (`docs/modules.md`) over one game
/// at a time; built natively it defines nothing, so the same crate serves the author's tests.
#[macro_export]
macro_rules! export_game {
    ($game:ty) => {
        #[cfg(target_arch = "wasm32")]
        mod arena_exports {
            use super::*;
            use $crate::glue::{self, Host};

            static mut HOST: Option<Host<$game>> = None;

            fn host() -> &'static mut Host<$game> {
                // SAFETY: a module instance runs one call at a time on one thread.
                unsafe {
                    if HOST.is_none() {
                        HOST = Some(Host::new());
                    }
                    HOST.as_mut().unwrap()
                }
            }

            #[no_mangle]
            pub extern "C" fn arena_abi() -> i32 {
                $crate::ABI_VERSION
            }
            #[no_mangle]
            pub extern "C" fn arena_alloc(len: i32) -> i32 {
                host().alloc(len)
            }
            #[no_mangle]
            pub extern "C" fn arena_name() -> i64 {
                let h = host();
                h.text(<$game as $crate::Game>::NAME.to_string())
            }
            #[no_mangle]
            pub extern "C" fn arena_new(ptr: i32, len: i32) -> i32 {
                glue::new(host(), ptr, len)
            }
            #[no_mangle]
            pub extern "C" fn arena_variant() -> i64 {
                glue::variant(host())
            }
            #[no_mangle]
            pub extern "C" fn arena_turn() -> i32 {
                glue::turn(host())
            }
            #[no_mangle]
            pub extern "C" fn arena_legal() -> i64 {
                glue::legal(host())
            }
            #[no_mangle]
            pub extern "C" fn arena_play(ptr: i32, len: i32) -> i32 {
                glue::play(host(), ptr, len)
            }
            #[no_mangle]
            pub extern "C" fn arena_undo() -> i32 {
                glue::undo(host())
            }
            #[no_mangle]
            pub extern "C" fn arena_outcome() -> i32 {
                glue::outcome(host())
            }
            #[no_mangle]
            pub extern "C" fn arena_score(side: i32) -> i32 {
                glue::score(host(), side)
            }
            #[no_mangle]
            pub extern "C" fn arena_frame() -> i64 {
                glue::frame(host())
            }
            #[no_mangle]
            pub extern "C" fn arena_reason() -> i64 {
                glue::reason(host())
            }
        }
    };
}
