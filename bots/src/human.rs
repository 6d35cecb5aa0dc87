//! A person at a terminal as an engine: `arena play` seats it against a bot.
//!
//! The arena talks to this engine over the protocol like any bot (so the game is refereed, clocked and
//! recorded exactly as a tournament game); the person talks to it through two files given as options,
//! `input` and `output` (a terminal such as `/dev/tty`, or `arena play`'s own stdin and stdout as
//! `/proc/<pid>/fd/0` and `/proc/<pid>/fd/1`). On each `go` it draws the board and both clocks, reads a
//! move in the game's notation ([`Game::Move`]'s `FromStr`), answers a line that is not a legal move with
//! the reason and asks again. `resign`, or the end of the input, gives up the game (`bestmove resign`, which
//! the arena records as a loss by resignation, termination `resign`).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};

use games::Game;

use crate::engine::{Engine, EngineOption, Limits, OptionError, SearchInfo};

/// The person's side of `arena play`: reads moves from `input`, draws the game on `output` (opened for
/// appending).
#[derive(Debug)]
pub struct Human {
    input_path: String,
    output_path: String,
    io: Option<(BufReader<File>, File)>,
    /// Whether the last `choose` ended in `resign` or the end of the input.
    resigned: bool,
}

impl Default for Human {
    /// Reads and draws on the controlling terminal, `/dev/tty`.
    fn default() -> Human {
        Human {
            input_path: "/dev/tty".into(),
            output_path: "/dev/tty".into(),
            io: None,
            resigned: false,
        }
    }
}

/// `m:ss.s` for a clock in ms.
fn clock_text(ms: u64) -> String {
    format!("{}:{:04.1}", ms / 60_000, (ms % 60_000) as f64 / 1000.0)
}

impl Human {
    fn open(&mut self) -> std::io::Result<&mut (BufReader<File>, File)> {
        if self.io.is_none() {
            let input = File::open(&self.input_path)?;
            // Appending: `arena play … > file` names the arena's stdout, a file that the arena writes
            // too, through an open file of its own (a write at an offset of ours would overwrite).
            let output = OpenOptions::new().append(true).open(&self.output_path)?;
            self.io = Some((BufReader::new(input), output));
        }
        Ok(self.io.as_mut().expect("just opened"))
    }
}

impl Engine for Human {
    fn name(&self) -> String {
        "human".into()
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption::string("input", "/dev/tty"),
            EngineOption::string("output", "/dev/tty"),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        match name {
            "input" => self.input_path = value.into(),
            "output" => self.output_path = value.into(),
            _ => return Err(OptionError::Unknown(name.into())),
        }
        self.io = None;
        Ok(())
    }

    /// Draws `pos` and asks for a move until a legal one is typed. `None` after `resign` or at the end of
    /// the input ([`Engine::resigned`] then says so), or when the terminal cannot be opened (the reason
    /// goes to stderr, which the arena keeps).
    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        _info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        self.resigned = false;
        let me = pos.turn();
        let example = pos.legal_moves().first().map(|m| m.to_string());
        let (input, output) = match self.open() {
            Ok(io) => io,
            Err(e) => {
                eprintln!("human: cannot open the terminal: {e}");
                return None;
            }
        };
        let mark = G::MARKS[me.index()];
        let clocks = |who: &str, ms: Option<u64>, inc: Option<u64>| match ms {
            Some(ms) => format!(
                "{who} {}{}",
                clock_text(ms),
                inc.filter(|&i| i > 0)
                    .map_or(String::new(), |i| format!(" (+{:.1} s)", i as f64 / 1000.0))
            ),
            None => format!("{who} no clock"),
        };
        let _ = write!(
            output,
            "\n{pos:#}{}\nply {}, you play {mark}. Clocks: {}, {}\n",
            G::LEGEND,
            pos.ply(),
            clocks("you", limits.time_ms, limits.inc_ms),
            clocks("bot", limits.opponent_time_ms, limits.opponent_inc_ms),
        );
        loop {
            let _ = write!(
                output,
                "your move{}> ",
                example
                    .as_deref()
                    .map_or(String::new(), |e| format!(" (e.g. {e})"))
            );
            let _ = output.flush();
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    let _ = writeln!(output, "\n(end of input: you resign)");
                    self.resigned = true;
                    return None;
                }
                Ok(_) => {}
            }
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if text == "resign" {
                self.resigned = true;
                return None;
            }
            let m: G::Move = match text.parse() {
                Ok(m) => m,
                Err(e) => {
                    let _ = writeln!(output, "not a move: {e}");
                    continue;
                }
            };
            match pos.check(m) {
                Ok(()) => {
                    let _ = writeln!(output, "the bot is thinking…");
                    let _ = output.flush();
                    return Some(m);
                }
                Err(e) => {
                    let _ = writeln!(output, "illegal: {e}");
                }
            }
        }
    }

    fn resigned(&self) -> bool {
        self.resigned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::connect4::Connect4;

    #[test]
    fn clock_text_reads_minutes_and_tenths() {
        assert_eq!(clock_text(0), "0:00.0");
        assert_eq!(clock_text(61_250), "1:01.2");
        assert_eq!(clock_text(600_000), "10:00.0");
    }

    #[test]
    fn answers_bad_input_with_the_reason_and_asks_again() {
        let dir = std::env::temp_dir().join(format!("human-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in");
        let output = dir.join("out");
        std::fs::write(&input, "banana\n9\n4\n").unwrap();
        std::fs::write(&output, "").unwrap();
        let mut human = Human::default();
        human.set_option("input", input.to_str().unwrap()).unwrap();
        human
            .set_option("output", output.to_str().unwrap())
            .unwrap();
        let pos = Connect4::new(7, 6);
        let limits = Limits {
            time_ms: Some(60_000),
            opponent_time_ms: Some(59_000),
            ..Limits::default()
        };
        let m = human.choose(&pos, &limits, &mut |_| {});
        assert_eq!(m.map(|m| m.to_string()).as_deref(), Some("4"));
        let shown = std::fs::read_to_string(&output).unwrap();
        assert!(shown.contains("not a move"), "{shown}");
        assert!(shown.contains("illegal: 9 is off the board"), "{shown}");
        assert!(shown.contains("you 1:00.0, bot 0:59.0"), "{shown}");
        assert!(!human.resigned());
        // The end of the input resigns.
        assert_eq!(human.choose(&pos, &limits, &mut |_| {}), None);
        assert!(human.resigned());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
