//! Reference engines for the arena's games and the loop that serves any engine over the protocol.
//!
//! - [`engine`]: the [`Engine`](engine::Engine) trait: options, new game, a move for a position.
//! - [`protocol`]: the UGI loop ([`serve`](protocol::serve)) and the CodeCup loop.
//! - [`random`], [`faulty`]: the bots of this crate so far.
//! - [`oppai`]: the wrapper that serves the outside engine oppai-rs (binary `oppai-wrapper`), for sparring.
//! - [`cli`]: the command line every bot executable shares; `arena bot <name>` calls [`cli::run`].

pub mod alphabeta;
pub mod boardvalue;
pub mod c4_solver;
pub mod c4_zx;
pub mod cli;
pub mod dots_tps;
pub mod engine;
pub mod eval;
pub mod faulty;
pub mod human;
pub mod minimax;
pub mod oppai;
pub mod protocol;
pub mod random;
pub mod search;
