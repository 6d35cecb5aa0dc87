//! `faulty`: a bot that misbehaves on purpose, one flag per failure, for testing the arena.
//!
//! It plays random legal moves (as [`RandomEngine`]) until the move number given to a fault flag, then
//! fails in the way the flag names. Modelled on fastchess's mock engines (`--crash-on-go`, …).

use std::io::Write;
use std::time::Duration;

use games::{Game, GameSpec};

use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};
use crate::random::RandomEngine;

/// How the bot fails, and on which of its own moves (1 = its first `go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Exit with status 3 instead of answering.
    Crash,
    /// Never answer (sleeps forever).
    Hang,
    /// Answer with a move that parses but is off the board.
    Illegal,
    /// Answer `bestmove` with a word that is no move.
    Garbage,
    /// Write a 100 KiB line without a newline, then hang.
    Flood,
    /// Answer `bestmove` with no move at all (a protocol error).
    NoMove,
}

/// The faulty engine: a random player with a scheduled fault and optional delays.
#[derive(Debug, Default)]
pub struct FaultyEngine {
    random: RandomEngine,
    /// The fault and the move number (1-based, counting this bot's `go` commands) it happens on.
    pub fault: Option<(Fault, u32)>,
    /// Sleep this long before every answer, ms (to spend clock time).
    pub delay_ms: u64,
    moves: u32,
}

impl FaultyEngine {
    /// A faulty engine with `fault` on move `on_move` (1-based).
    pub fn new(fault: Option<(Fault, u32)>, delay_ms: u64) -> Self {
        FaultyEngine {
            random: RandomEngine::default(),
            fault,
            delay_ms,
            moves: 0,
        }
    }
}

/// A move string that parses in `spec`'s notation but lies off its board (for Connect Four 9 wide,
/// where no column is off the board, `10`, which does not parse).
pub fn off_board_move(spec: GameSpec) -> String {
    match spec {
        GameSpec::TicTacToe { height, .. } => format!("a{}", height as u32 + 1),
        GameSpec::Connect4 { width, .. } => format!("{}", width as u32 + 1),
        GameSpec::Dots { width, .. } => format!("{}-1", width as u32 + 1),
    }
}

fn raw(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

impl Engine for FaultyEngine {
    fn name(&self) -> String {
        "faulty".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        self.random.options()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.random.set_option(name, value)
    }

    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        self.moves += 1;
        if self.delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(self.delay_ms));
        }
        match self.fault {
            Some((fault, n)) if n == self.moves => match fault {
                Fault::Crash => std::process::exit(3),
                Fault::Hang => hang(),
                Fault::Illegal => raw(&format!("bestmove {}\n", off_board_move(pos.spec()))),
                Fault::Garbage => raw("bestmove banana\n"),
                Fault::Flood => {
                    raw(&"x".repeat(100 * 1024));
                    hang()
                }
                Fault::NoMove => raw("bestmove\n"),
            },
            _ => {}
        }
        // After a written fault the arena has already ruled; answer anyway, as a buggy bot would.
        self.random.choose(pos, limits, info)
    }
}
