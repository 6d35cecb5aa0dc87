//! A game's variant: its parameters, their config keys and their words in the protocol's `game` command.
//!
//! Each game declares its own [`Variant`] type in its folder (`TicTacToeVariant`, `Connect4Variant`,
//! `DotsVariant`, …). The registry ([`mod@crate::registry`]) wraps them into [`GameSpec`](crate::GameSpec),
//! and the arena's `[game]` table is the game's name plus the keys of [`Variant::PARAMS`]: a key that is
//! not one of them is refused with its position in the file.

use std::fmt;
use std::hash::Hash;

use crate::SpecError;

/// One parameter of a variant: its config key (and the position of its word in the protocol's `game`
/// command, by its index in [`Variant::PARAMS`]) and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key in a config's `[game]` table, e.g. `width`.
    pub key: &'static str,
    /// What it means, with its range and default, for `docs/configs.md` and error messages.
    pub doc: &'static str,
}

/// The variant of a game: a small value that builds its start position ([`crate::Game::start`]).
///
/// Text form (`Display`): the parameters as words in the order of [`PARAMS`](Variant::PARAMS), the
/// words after the game's name in the protocol's `game` command (`7 6` for `connect4 7 6`).
/// [`from_params`](Variant::from_params) reads them back, each word or config value as text.
pub trait Variant:
    Copy + fmt::Debug + fmt::Display + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// The game's name in configs, records and the protocol (`connect4`): lower-case letters and digits.
    const NAME: &'static str;
    /// Other names accepted for the game when parsing (`connect-four`).
    const ALIASES: &'static [&'static str] = &[];
    /// The parameters, in the order of their words.
    const PARAMS: &'static [Param];

    /// Builds a variant from the text of each parameter, `params[i]` for `PARAMS[i]` (`None`: the
    /// default). A config's `width = 7` arrives as `Some("7")`.
    ///
    /// # Errors
    /// [`SpecError::Param`] naming the parameter that is not a value of its kind or out of range.
    fn from_params(params: &[Option<&str>]) -> Result<Self, SpecError>;
}

/// Parses the number `text` of parameter `what` and checks it against `lo..=hi`: the usual check of a
/// size parameter.
///
/// # Errors
/// [`SpecError::Param`] of key `what`: not a number, or out of range.
pub fn number(
    what: &'static str,
    text: Option<&str>,
    default: u32,
    lo: u32,
    hi: u32,
) -> Result<u32, SpecError> {
    let v = match text {
        None => default,
        Some(t) => t.parse::<u32>().map_err(|_| SpecError::Param {
            key: what,
            message: format!("{what} {t:?} is not a number"),
        })?,
    };
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(SpecError::Param {
            key: what,
            message: format!("{what} {v} is out of range {lo}..={hi}"),
        })
    }
}
