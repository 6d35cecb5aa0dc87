//! UGI (`docs/protocol.md`, "UGI"): the commands the arena writes and the bot's lines as it reads them.
//!
//! The arena reads leniently, as UCI GUIs do: a line is split on whitespace and its first word decides
//! (`ugiok ` is `ugiok`, ` bestmove\t4 ponder 5` is `bestmove 4`), except `readyok`, which must be the
//! whole line (without the whitespace around it).

use std::fmt;

use games::{GameSpec, Setup};

/// Starts the handshake; the bot answers `id` and `option` lines, then `ugiok`.
pub const UGI: &str = "ugi";
/// Asks the bot to answer `readyok`: the end of the handshake, and the sync point of every move request.
pub const ISREADY: &str = "isready";
/// A new game starts.
pub const UGINEWGAME: &str = "uginewgame";
/// The first word of a move request ([`Go`]).
pub const GO: &str = "go";
/// The line that ends the game.
pub const QUIT: &str = "quit";
/// The move of `bestmove (none)`: the bot has no move (a forfeit while the game goes on).
pub const NO_MOVE: &str = "(none)";
/// The move of `bestmove resign`: the bot gives the game up (a loss, not a forfeit).
pub const RESIGN: &str = "resign";

/// `setoption name <name> value <value>`.
pub fn setoption(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

/// The `setoption` lines of a game's handshake (`docs/protocol.md`, "The seed"): the config's
/// `options` in order, then `seed` with the game's `seed` when the bot `declared` an option named
/// exactly `seed` and the config does not set it.
pub fn setoptions(options: &[(String, String)], declared: &[String], seed: u64) -> Vec<String> {
    let mut lines: Vec<String> = options.iter().map(|(n, v)| setoption(n, v)).collect();
    if declared.iter().any(|d| d == "seed") && !options.iter().any(|(n, _)| n == "seed") {
        lines.push(setoption("seed", &seed.to_string()));
    }
    lines
}

/// `game <name> <variant…>`: the arena's own command, naming the game and its variant. A module game
/// is named by the module's own name (`game gomoku 15 15`), not by its file or SHA-256.
pub fn game(spec: &GameSpec) -> String {
    match spec {
        GameSpec::Module(v) if v.words().is_empty() => format!("game {}", v.module().name),
        GameSpec::Module(v) => format!("game {} {}", v.module().name, v.words()),
        _ => format!("game {spec}"),
    }
}

/// `position startpos [setup <dots>] [moves <m1> <m2> …]`: the game so far, from the variant's start
/// with `setup`'s dots on it (Dots only), the words of each part left out when it is empty.
pub fn position(setup: &Setup, moves: &[String]) -> String {
    let mut line = String::from("position startpos");
    if !setup.is_empty() {
        line.push_str(&format!(" setup {setup}"));
    }
    if !moves.is_empty() {
        line.push_str(&format!(" moves {}", moves.join(" ")));
    }
    line
}

/// A `go` command; `Display` writes it: `go [p1time <ms>] [p2time <ms>] [p1inc <ms>] [p2inc <ms>]
/// [movetime <ms>]`, `p1` the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Go {
    /// What is left on each clock, ms; `None`: that side has no game clock (and no increment is sent).
    pub time_ms: [Option<u64>; 2],
    /// Each side's increment per move, ms.
    pub inc_ms: [u64; 2],
    /// The per-move time, ms: for a mover without a game clock whose moves are capped.
    pub movetime_ms: Option<u64>,
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(GO)?;
        for (i, t) in self.time_ms.iter().enumerate() {
            if let Some(t) = t {
                write!(f, " p{}time {t}", i + 1)?;
            }
        }
        for (i, (t, inc)) in self.time_ms.iter().zip(self.inc_ms).enumerate() {
            if t.is_some() {
                write!(f, " p{}inc {inc}", i + 1)?;
            }
        }
        if let Some(ms) = self.movetime_ms {
            write!(f, " movetime {ms}")?;
        }
        Ok(())
    }
}

/// The lines of a move request: `isready` first (the sync point: everything the bot wrote before its
/// `readyok` was written before it read this request), then `position` and `go`, sent together.
pub fn move_request(setup: &Setup, moves: &[String], go: &Go) -> [String; 3] {
    [ISREADY.to_string(), position(setup, moves), go.to_string()]
}

/// A line a UGI bot wrote, as the arena reads it (see the module's docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotLine<'a> {
    /// `id name <words…>`: the words joined by single spaces (empty when there are none).
    IdName(String),
    /// `option name <words…> [type …]`: the name, the words up to `type` (or to the end) joined by
    /// single spaces, however broken the rest (the whole declaration: [`super::EngineOption`]).
    OptionName(String),
    /// `ugiok`: the end of the handshake's declarations.
    UgiOk,
    /// `readyok`, the whole line.
    ReadyOk,
    /// `bestmove [<move>]`: the second word, `None` when there is none; a move may be [`NO_MOVE`] or
    /// [`RESIGN`].
    BestMove(Option<&'a str>),
    /// Anything else (`info …`, `id author …`): logged and ignored.
    Other,
}

impl<'a> BotLine<'a> {
    /// Reads one line (without its newline).
    pub fn read(line: &'a str) -> BotLine<'a> {
        if line.trim() == "readyok" {
            return BotLine::ReadyOk;
        }
        let mut words = line.split_whitespace();
        match words.next() {
            Some("ugiok") => BotLine::UgiOk,
            Some("bestmove") => BotLine::BestMove(words.next()),
            Some("id") if words.next() == Some("name") => {
                BotLine::IdName(words.collect::<Vec<_>>().join(" "))
            }
            Some("option") if words.next() == Some("name") => {
                let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                BotLine::OptionName(name.join(" "))
            }
            _ => BotLine::Other,
        }
    }
}

/// The score and depth of an `info` line (`info depth 6 score 12 nodes 900 pv 4 3`, the arena's own
/// protocol; or UCI's `score cp 32`, `score mate 3`): `None` for any
/// other line and for an `info` line without a score. Read as UCI GUIs read it: the words in any order
/// until `pv` or `string` (the rest is moves or free text), `lowerbound` and `upperbound` ignored.
pub fn info_eval(line: &str) -> Option<crate::record::MoveEval> {
    use crate::record::{MoveEval, Score};
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let (mut score, mut depth) = (None, None);
    while let Some(w) = words.next() {
        match w {
            "pv" | "string" => break,
            "depth" => depth = words.next().and_then(|d| d.parse::<u32>().ok()),
            "score" => {
                score = match words.next() {
                    Some("cp") => words.next().and_then(|x| x.parse().ok()).map(Score::Cp),
                    Some("mate") => words.next().and_then(|n| n.parse().ok()).map(Score::Mate),
                    // The arena's own protocol: `score S` in the bot's units (docs/protocol.md).
                    Some(x) => x.parse().ok().map(Score::Units),
                    None => None,
                }
                .or(score)
            }
            _ => {}
        }
    }
    score.map(|score| MoveEval { score, depth })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn commands_are_written_as_docs_protocol_md_shows_them() {
        assert_eq!(
            setoption("weight_three", "12"),
            "setoption name weight_three value 12"
        );
        let spec: GameSpec = "connect4 7 6".parse().unwrap();
        assert_eq!(game(&spec), "game connect4 7 6");
        let none = Setup::default();
        assert_eq!(position(&none, &[]), "position startpos");
        assert_eq!(
            position(&none, &strings(&["4", "4", "3"])),
            "position startpos moves 4 4 3"
        );
        let setup: Setup = "first 3-8 4-7 second 3-7".parse().unwrap();
        assert_eq!(
            position(&setup, &strings(&["2-7"])),
            "position startpos setup first 3-8 4-7 second 3-7 moves 2-7"
        );
        assert_eq!(
            position(&setup, &[]),
            "position startpos setup first 3-8 4-7 second 3-7"
        );
        let go = Go {
            time_ms: [Some(9500), Some(9800)],
            inc_ms: [100, 100],
            movetime_ms: None,
        };
        assert_eq!(
            go.to_string(),
            "go p1time 9500 p2time 9800 p1inc 100 p2inc 100"
        );
        // A side without a game clock gets neither time nor increment; a capped mover gets movetime.
        let go = Go {
            time_ms: [None, Some(700)],
            inc_ms: [100, 50],
            movetime_ms: Some(500),
        };
        assert_eq!(go.to_string(), "go p2time 700 p2inc 50 movetime 500");
        let go = Go {
            time_ms: [None, None],
            inc_ms: [0, 0],
            movetime_ms: None,
        };
        assert_eq!(
            move_request(&none, &strings(&["c2"]), &go),
            ["isready", "position startpos moves c2", "go"]
        );
    }

    #[test]
    fn the_seed_is_sent_only_to_a_bot_that_declares_it_and_is_not_given_one() {
        let given = vec![("depth".to_string(), "3".to_string())];
        let declared = strings(&["depth", "seed"]);
        assert_eq!(
            setoptions(&given, &declared, 7),
            [
                "setoption name depth value 3",
                "setoption name seed value 7"
            ]
        );
        assert_eq!(
            setoptions(&given, &declared[..1], 7),
            ["setoption name depth value 3"]
        );
        let seeded = vec![("seed".to_string(), "1".to_string())];
        assert_eq!(
            setoptions(&seeded, &declared, 7),
            ["setoption name seed value 1"]
        );
    }

    #[test]
    fn info_lines_give_their_score_and_depth() {
        use crate::record::{MoveEval, Score};
        let e = |score, depth| Some(MoveEval { score, depth });
        assert_eq!(
            info_eval("info depth 10 score cp 32 nodes 900 pv 4 3"),
            e(Score::Cp(32), Some(10))
        );
        assert_eq!(
            info_eval(" info score mate -3 depth 7"),
            e(Score::Mate(-3), Some(7))
        );
        assert_eq!(
            info_eval("info score cp 15 lowerbound"),
            e(Score::Cp(15), None)
        );
        // The arena's own bots: a bare score, in their units.
        assert_eq!(
            info_eval("info depth 6 score -12 nodes 10432 time 3"),
            e(Score::Units(-12), Some(6))
        );
        // Words after pv or string are moves or text, not fields.
        assert_eq!(
            info_eval("info depth 2 score cp 1 pv depth 9"),
            e(Score::Cp(1), Some(2))
        );
        for none in [
            "info depth 5 nodes 100",
            "info string score cp 40",
            "bestmove 4",
            "information score cp 3",
            "info score cp x",
            "info score",
            "info score x",
        ] {
            assert_eq!(info_eval(none), None, "{none}");
        }
    }

    #[test]
    fn lines_are_read_leniently_by_their_first_word() {
        assert_eq!(BotLine::read("ugiok "), BotLine::UgiOk);
        assert_eq!(BotLine::read("ugiokay"), BotLine::Other);
        assert_eq!(BotLine::read(" readyok\r"), BotLine::ReadyOk);
        assert_eq!(BotLine::read("readyok now"), BotLine::Other);
        assert_eq!(
            BotLine::read("\tbestmove\t5 ponder 6"),
            BotLine::BestMove(Some("5"))
        );
        assert_eq!(BotLine::read("bestmove"), BotLine::BestMove(None));
        assert_eq!(BotLine::read("bestmoves 4"), BotLine::Other);
        assert_eq!(
            BotLine::read("id  name   Lenient   Bot"),
            BotLine::IdName("Lenient Bot".into())
        );
        assert_eq!(BotLine::read("id name "), BotLine::IdName(String::new()));
        assert_eq!(BotLine::read("id author x"), BotLine::Other);
        assert_eq!(
            BotLine::read(" option name my depth  type spin default 4"),
            BotLine::OptionName("my depth".into())
        );
        // A broken declaration still names its option (the seed rule reads only the name).
        assert_eq!(
            BotLine::read("option name seed"),
            BotLine::OptionName("seed".into())
        );
        assert_eq!(BotLine::read("option seed"), BotLine::Other);
    }
}
