//! The operations the pages ([`super::pages`]) and the JSON API ([`super::api`]) share, so that
//! neither imports the other: a competition's creation and the organiser's actions, a bot's check log
//! and stderr for its author, a finished game's replay, and what the public sees of a game.

pub mod bots;
pub mod competitions;
pub mod games;
pub mod public;
