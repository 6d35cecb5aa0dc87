//! The engine side of the arena protocol (`docs/protocol.md`): a UGI loop and a CodeCup loop.
//!
//! UGI is the game-generic form of UCI used by the cutegames runner; the arena adds one command,
//! `game <name> <variant…>`, naming the game (see [`games::GameSpec`]). Both loops are synchronous
//! and line-based: one message per line, output flushed after every message.

use std::io::{self, BufRead, Write};

use games::{Game, GameSpec, GameVisitor, Player, Setup};

use crate::engine::{Engine, Limits, SearchInfo};

/// Serves `engine` over UGI until `quit` or end of input.
///
/// Commands: `ugi`, `isready`, `setoption name N value V`, `game SPEC`, `uginewgame`,
/// `position startpos [setup SETUP] [moves M…]` (a [`Setup`]'s dots put on top of the variant's start, Dots
/// only), `go [p1time T] [p2time T] [p1inc I] [p2inc I] [movetime T] [depth D]
/// [nodes N]`, `stop` (ignored: the search is synchronous), `quit`. Unknown commands are ignored, as UCI
/// engines do; errors are reported as `info string error: …`. A `go` that cannot be answered (no game,
/// an illegal move in `position`, a finished game) prints `bestmove (none)`; an engine that gives up
/// ([`Engine::resigned`]) prints `bestmove resign`.
///
/// # Errors
/// Only I/O errors on `input`/`output`.
pub fn serve<E: Engine>(
    engine: &mut E,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut spec: Option<GameSpec> = None;
    let mut setup = Setup::default();
    let mut moves: Vec<String> = Vec::new();
    for line in input.lines() {
        let line = line?;
        // The clock of a `go` starts when its line has arrived, before anything else is done.
        let received = std::time::Instant::now();
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            continue;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "ugi" | "uci" => {
                writeln!(output, "id name {}", engine.name())?;
                writeln!(output, "id author the arena team")?;
                for option in engine.options() {
                    writeln!(output, "{option}")?;
                }
                writeln!(output, "{command}ok")?;
            }
            "isready" => writeln!(output, "readyok")?,
            "setoption" => match parse_setoption(&rest) {
                Some((name, value)) => {
                    if let Err(e) = engine.set_option(&name, &value) {
                        writeln!(output, "info string error: {e}")?;
                    }
                }
                None => writeln!(
                    output,
                    "info string error: expected setoption name N value V"
                )?,
            },
            "game" => match game_spec(&rest) {
                Ok(s) => spec = Some(s),
                Err(e) => writeln!(output, "info string error: {e}")?,
            },
            "uginewgame" | "ucinewgame" => {
                engine.new_game();
                setup = Setup::default();
                moves.clear();
            }
            "position" => {
                moves.clear();
                setup = Setup::default();
                match parse_position(&rest) {
                    Ok((s, list)) => {
                        setup = s;
                        moves.extend(list.iter().map(|m| m.to_string()));
                    }
                    Err(e) => writeln!(output, "info string error: {e}")?,
                }
            }
            "go" => {
                let reply = match spec {
                    None => Err("no 'game' command before 'go'".to_string()),
                    Some(spec) => spec
                        .visit_with_setup(
                            &setup,
                            Choose {
                                engine: &mut *engine,
                                moves: &moves,
                                go: &rest,
                                received,
                                out: &mut output,
                            },
                        )
                        .unwrap_or_else(|e| Err(e.to_string())),
                };
                match reply {
                    Ok(m) => writeln!(output, "bestmove {m}")?,
                    Err(e) if e.starts_with(RULES_FAILED) => {
                        output.flush()?;
                        return Err(std::io::Error::other(e));
                    }
                    Err(e) => {
                        writeln!(output, "info string error: {e}")?;
                        writeln!(output, "bestmove (none)")?;
                    }
                }
            }
            "quit" => break,
            _ => {}
        }
        output.flush()?;
    }
    output.flush()
}

/// Serves `engine` over the CodeCup protocol for one game of `spec`, until `Quit` or end of input.
///
/// The first player reads `Start`; each player reads the opponent's move, one per line, and writes its own.
/// There is no handshake and no clock in the messages: the engine plays with the `limits` given here.
///
/// # Errors
/// I/O errors, and an `InvalidData` error for a line that is neither `Start`, `Quit` nor a legal move.
pub fn serve_codecup<E: Engine>(
    engine: &mut E,
    spec: GameSpec,
    limits: Limits,
    input: impl BufRead,
    output: impl Write,
) -> io::Result<()> {
    spec.visit(CodeCup {
        engine,
        limits,
        input,
        output,
    })
}

struct CodeCup<'a, E, R, W> {
    engine: &'a mut E,
    limits: Limits,
    input: R,
    output: W,
}

impl<E: Engine, R: BufRead, W: Write> GameVisitor for CodeCup<'_, E, R, W> {
    type Output = io::Result<()>;
    fn visit<G: Game>(mut self, mut pos: G) -> io::Result<()> {
        let invalid = |msg: String| io::Error::new(io::ErrorKind::InvalidData, msg);
        self.engine.new_game();
        // The side this engine plays: the first player's after `Start`, else the other side of the
        // first move it is told.
        let mut me: Option<Player> = None;
        for line in self.input.lines() {
            let line = line?;
            let text = line.trim();
            match text {
                "" => continue,
                "Quit" => break,
                "Start" if pos.ply() == 0 && pos.turn() == Player::First => {
                    me = Some(Player::First);
                }
                _ => {
                    let m: G::Move = text.parse().map_err(|e| invalid(format!("{e}")))?;
                    let mover = pos.turn();
                    if me == Some(mover) {
                        return Err(invalid(format!(
                            "opponent move {text} when this side ({mover}) is to move"
                        )));
                    }
                    me.get_or_insert(mover.opponent());
                    pos.play(m)
                        .map_err(|e| invalid(format!("opponent move {text}: {e}")))?;
                }
            }
            // Move while it is this side's turn: more than once when the rules give another move
            // (Kalah), none while the opponent still has one.
            while pos.outcome().is_none() && Some(pos.turn()) == me {
                let m = self
                    .engine
                    .choose(&pos, &self.limits, &mut |_| {})
                    .ok_or_else(|| invalid("no legal move".into()))?;
                pos.play_unchecked(m);
                writeln!(self.output, "{m}")?;
                self.output.flush()?;
            }
        }
        Ok(())
    }
}

/// The game of a `game` command's words: the game module this bot was started with (`--module`) when
/// the first word is its name, else a built-in game.
pub(crate) fn game_spec(words: &[&str]) -> Result<GameSpec, games::SpecError> {
    if let Some(m) = words.first().and_then(|n| games::module::named(n)) {
        return games::module::ModuleVariant::new(m, &words[1..].join(" ")).map(GameSpec::Module);
    }
    words.join(" ").parse()
}

/// The words after `position`: `startpos [setup SETUP…] [moves M…]`, as the setup and the move words.
fn parse_position<'a>(words: &[&'a str]) -> Result<(Setup, Vec<&'a str>), String> {
    let Some((&"startpos", tail)) = words.split_first() else {
        return Err("only 'position startpos [setup …] [moves …]' is supported".into());
    };
    let (setup_words, moves) = match tail.iter().position(|w| *w == "moves") {
        Some(i) => (&tail[..i], tail[i + 1..].to_vec()),
        None => (tail, Vec::new()),
    };
    let setup = match setup_words.split_first() {
        None => Setup::default(),
        Some((&"setup", dots)) => dots.join(" ").parse::<Setup>().map_err(|e| e.to_string())?,
        Some(_) => return Err("expected 'setup' or 'moves' after startpos".into()),
    };
    Ok((setup, moves))
}

fn parse_setoption(words: &[&str]) -> Option<(String, String)> {
    if words.first() != Some(&"name") {
        return None;
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name_end = value_at.unwrap_or(words.len());
    let name = words[1..name_end].join(" ");
    let value = value_at
        .map(|i| words[i + 1..].join(" "))
        .unwrap_or_default();
    (!name.is_empty()).then_some((name, value))
}

/// Parses the `go` parameters for the side to move (`p1…` belongs to the first player).
pub fn parse_go(words: &[&str], turn: Player) -> Limits {
    let mut limits = Limits::default();
    let (time_key, inc_key, their_time, their_inc) = match turn {
        Player::First => ("p1time", "p1inc", "p2time", "p2inc"),
        Player::Second => ("p2time", "p2inc", "p1time", "p1inc"),
    };
    for pair in words.windows(2) {
        let value = pair[1].parse::<i64>().ok().map(|v| v.max(0) as u64);
        match pair[0] {
            k if k == time_key => limits.time_ms = value,
            k if k == inc_key => limits.inc_ms = value,
            k if k == their_time => limits.opponent_time_ms = value,
            k if k == their_inc => limits.opponent_inc_ms = value,
            "movetime" => limits.movetime_ms = value,
            "depth" => limits.depth = value.map(|v| v.min(u32::MAX as u64) as u32),
            "nodes" => limits.nodes = value,
            _ => {}
        }
    }
    limits
}

struct Choose<'a, E, W> {
    engine: &'a mut E,
    moves: &'a [String],
    go: &'a [&'a str],
    /// When the `go` line arrived ([`Limits::received`]).
    received: std::time::Instant,
    out: &'a mut W,
}

impl<E: Engine, W: Write> GameVisitor for Choose<'_, E, W> {
    type Output = Result<String, String>;
    fn visit<G: Game>(self, mut pos: G) -> Result<String, String> {
        let rules_failed = |pos: &G| pos.fault().map(|f| format!("{RULES_FAILED}: {f}"));
        for text in self.moves {
            let m: G::Move = text.parse().map_err(|e| format!("{e}"))?;
            let played = pos.play(m);
            if let Some(e) = rules_failed(&pos) {
                return Err(e);
            }
            played.map_err(|e| format!("move {text}: {e}"))?;
        }
        if pos.outcome().is_some() {
            return Err(rules_failed(&pos).unwrap_or_else(|| "the game is over".into()));
        }
        let limits = Limits {
            received: Some(self.received),
            ..parse_go(self.go, pos.turn())
        };
        let out = self.out;
        let mut report = |info: &SearchInfo| {
            // A failed write shows up at the next flush of the loop; nothing to do here.
            let _ = writeln!(out, "{info}");
        };
        let chosen = self.engine.choose(&pos, &limits, &mut report);
        // A module's or referee program's failure inside this bot (its own instance or process): not
        // a move to answer with.
        if let Some(e) = rules_failed(&pos) {
            return Err(e);
        }
        match chosen {
            Some(m) => Ok(m.to_string()),
            None if self.engine.resigned() => Ok("resign".into()),
            None => Err("no legal move".into()),
        }
    }
}

/// The start of the error with which a bot ends when the rules of a module game fail in its own
/// process ([`games::Game::fault`]): the bot exits with it on stderr rather than answer `go`.
pub const RULES_FAILED: &str = "the game's rules failed in this bot's own process";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_names_and_values_may_hold_spaces() {
        assert_eq!(
            parse_setoption(&["name", "Skill", "Level", "value", "3"]),
            Some(("Skill Level".into(), "3".into()))
        );
        assert_eq!(
            parse_setoption(&["name", "x"]),
            Some(("x".into(), String::new()))
        );
        assert_eq!(parse_setoption(&["value", "3"]), None);
    }

    #[test]
    fn position_reads_a_setup_and_the_moves() {
        let words = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        let (setup, moves) = parse_position(&words(
            "startpos setup first 1-1 2-2 second 3-3 moves 4-4 5-5",
        ))
        .unwrap();
        assert_eq!(setup.to_string(), "first 1-1 2-2 second 3-3");
        assert_eq!(moves, ["4-4", "5-5"]);
        let (setup, moves) = parse_position(&words("startpos setup second 3-3")).unwrap();
        assert_eq!((setup.second, moves.len()), (vec![(3, 3)], 0));
        let (setup, moves) = parse_position(&words("startpos moves 4")).unwrap();
        assert_eq!((setup.is_empty(), moves), (true, vec!["4"]));
        for bad in [
            "fen x",
            "startpos 4",
            "startpos setup 1-1",
            "startpos setup first x",
        ] {
            assert!(parse_position(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_reads_the_clock_of_the_side_to_move() {
        let words = [
            "p1time", "9500", "p2time", "9800", "p1inc", "100", "p2inc", "50", "depth", "4",
        ];
        let first = parse_go(&words, Player::First);
        assert_eq!(
            (first.time_ms, first.inc_ms, first.depth),
            (Some(9500), Some(100), Some(4))
        );
        let second = parse_go(&words, Player::Second);
        assert_eq!((second.time_ms, second.inc_ms), (Some(9800), Some(50)));
        assert_eq!(
            (second.opponent_time_ms, second.opponent_inc_ms),
            (Some(9500), Some(100))
        );
    }

    /// Records the limits of each `go`, and when `choose` began, and plays the first legal move.
    #[derive(Default)]
    struct LimitsProbe {
        seen: Vec<(Limits, std::time::Instant)>,
    }

    impl Engine for LimitsProbe {
        fn name(&self) -> String {
            "probe".into()
        }
        fn options(&self) -> Vec<crate::engine::EngineOption> {
            Vec::new()
        }
        fn set_option(&mut self, _: &str, _: &str) -> Result<(), crate::engine::OptionError> {
            Ok(())
        }
        fn choose<G: Game>(
            &mut self,
            pos: &G,
            limits: &Limits,
            _: &mut dyn FnMut(&SearchInfo),
        ) -> Option<G::Move> {
            self.seen.push((*limits, std::time::Instant::now()));
            pos.legal_moves().into_iter().next()
        }
    }

    #[test]
    fn the_loop_tells_the_engine_when_go_arrived() {
        let mut probe = LimitsProbe::default();
        let before = std::time::Instant::now();
        let input = "game tictactoe\nposition startpos moves b2\ngo p1time 900 p2time 800\nquit\n";
        let mut out = Vec::new();
        serve(&mut probe, input.as_bytes(), &mut out).unwrap();
        let after = std::time::Instant::now();
        assert!(String::from_utf8(out).unwrap().contains("bestmove "));
        let [(limits, chosen)] = probe.seen.as_slice() else {
            panic!("one go, one choose: {:?}", probe.seen.len());
        };
        let received = limits.received.expect("the loop sets Limits::received");
        // Taken before `choose` began (when the line arrived), not inside it.
        assert!(before <= received && received < *chosen && *chosen <= after);
        assert_eq!(limits.time_ms, Some(800), "the second player's clock");
    }
}
