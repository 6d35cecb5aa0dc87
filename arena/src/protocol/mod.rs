//! The arena's side of the bot protocols of `docs/protocol.md`: every line the arena writes to a bot
//! ([`ugi`]'s commands, [`codecup`]'s `Start`, moves and `Quit`) and how it reads the lines a bot writes.
//!
//! No I/O and no decisions: [`crate::game::process`] carries the lines, the [`crate::game::referee`] decides what a
//! line means for the game (a forfeit, a move), [`crate::game::options`] reads a bot's declared options,
//! [`crate::probe`] reads the lines back from a transcript, and [`crate::bench`] times a round trip; all
//! of them build and read the words here. A declared option is [`EngineOption`], the type the engines of
//! the `bots` crate declare theirs with. The bots' own side is `bots::protocol`.

pub mod codecup;
pub mod ugi;

pub use bots::engine::{EngineOption, OptionKind};

use crate::config::ProtocolKind;

/// The line that ends a game for a bot of `protocol`: `quit` (UGI) or `Quit` (CodeCup).
pub fn quit(protocol: ProtocolKind) -> &'static str {
    match protocol {
        ProtocolKind::Ugi => ugi::QUIT,
        ProtocolKind::Codecup => codecup::QUIT,
    }
}

/// Whether `line` answers a move request: a UGI `bestmove` (the first word decides), or any CodeCup
/// line that is not blank.
pub fn is_answer(protocol: ProtocolKind, line: &str) -> bool {
    match protocol {
        ProtocolKind::Ugi => matches!(ugi::BotLine::read(line), ugi::BotLine::BestMove(_)),
        ProtocolKind::Codecup => codecup::reply(line).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_told_apart_as_the_referee_tells_them() {
        for line in [
            "bestmove 4",
            " bestmove\t4 ponder 5",
            "bestmove",
            "bestmove (none)",
        ] {
            assert!(is_answer(ProtocolKind::Ugi, line), "{line:?}");
        }
        for line in ["bestmoves 4", "readyok", "info depth 1", "", "4"] {
            assert!(!is_answer(ProtocolKind::Ugi, line), "{line:?}");
        }
        assert!(is_answer(ProtocolKind::Codecup, " 4 "));
        assert!(!is_answer(ProtocolKind::Codecup, " \t"));
        assert_eq!(quit(ProtocolKind::Ugi), "quit");
        assert_eq!(quit(ProtocolKind::Codecup), "Quit");
    }
}
