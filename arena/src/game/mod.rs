//! One game: the bot processes ([`process`]), the check of a config's options against what a bot
//! declares ([`options`]), the [`clock`] each bot plays under, and the [`referee`] that plays one
//! scheduled game between two processes and returns its record ([`crate::record`]).
//!
//! Imports point down: a game reads the validated plan ([`crate::plan`]) and the words of the bot
//! protocols ([`crate::protocol`]); the runners of many games ([`crate::run`]) call it.

pub mod clock;
pub mod options;
pub mod process;
pub mod referee;
