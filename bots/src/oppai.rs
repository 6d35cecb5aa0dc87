//! `oppai-wrapper`: the Dots engine oppai-rs as a bot of the arena, for sparring (`docs/dots-tps.md`,
//! "Sparring against oppai-rs").
//!
//! oppai-rs is a program outside this repository (AGPL-3.0): nothing of its code is here. This module
//! only speaks to its command-line program (the one whose binary is called `main`) through the text
//! protocol that program reads on stdin: one JSON object a line, one answer a line.
//!
//! | request | answer |
//! |---|---|
//! | `{"command":"Init","width":W,"height":H}` | `{"command":"Init"}` (a new empty field) |
//! | `{"command":"PutPoint","coords":{"x":X,"y":Y},"player":"Red"}` | `{"command":"PutPoint","put":true}` |
//! | `{"command":"Analyze","player":"Red","constraint":{"type":"Time","value":MS}}` | `{"command":"Analyze","moves":[{"coords":{"x":X,"y":Y},"weight":W},…]}` |
//!
//! Its points are 0-based with `y` counted from the **top** (as SGF counts rows); the arena's are 1-based
//! with `y` from the bottom (R2 of `docs/dots-rules.md`), so `x-y` is oppai's `(x − 1, H − y)`
//! ([`to_oppai`], [`from_oppai`]). Its colours are `Red` and `Black`: the arena's first player is `Red`,
//! so the cross of R4 on an even board is exactly the cross oppai-rs puts for its own games (first
//! player on the top left and bottom right dot of the 2×2 square, in its rows from the top). Its field
//! follows the Russian rules the referee follows (the oracle games of `games/tests/dots_oracle.rs` were
//! computed by it), and it never plays `ground`.
//!
//! The wrapper keeps one oppai-rs process for its whole life, and for each `go` brings oppai's field up
//! to the arena's position: the dots already sent stay (so oppai-rs's UCT can reuse its tree between
//! moves); a position that does not extend them (a new game, another board) starts over with `Init`.
//! Then it asks for an analysis within the move's time ([`move_budget_ms`]) and plays the move of the
//! highest weight, a tie broken at random (as oppai-rs's own choice does; seeded by the option `seed`).
//! A move the referee would refuse, or no move at all, is reported on stderr and replaced by the first
//! legal point, so a pilot run shows whether that ever happens ([`Stats`], printed at the end).

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use games::dots::{Dots, Move, Point};
use games::{Game, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::engine::{
    concrete, generic_move, Engine, EngineOption, Limits, OptionError, SearchInfo,
};

/// The arena's point `x`-`y` on a board `height` high as oppai-rs's `(x, y)`: 0-based, rows from the top.
pub fn to_oppai(x: u8, y: u8, height: u8) -> (u32, u32) {
    (u32::from(x) - 1, u32::from(height - y))
}

/// oppai-rs's point `(x, y)` as the arena's `x`-`y` on a `width` × `height` board; `None` off the board.
pub fn from_oppai(x: u32, y: u32, width: u8, height: u8) -> Option<(u8, u8)> {
    if x >= u32::from(width) || y >= u32::from(height) {
        return None;
    }
    Some((x as u8 + 1, height - y as u8))
}

/// oppai-rs's colour of a player: the first player (Blue, R3) is `Red`.
pub fn colour(player: Player) -> &'static str {
    match player {
        Player::First => "Red",
        Player::Second => "Black",
    }
}

/// One dot oppai-rs's field must hold: the arena's `x`, `y` and its player.
pub type Placement = (u8, u8, Player);

/// Every dot of `pos` in the order it was put: the variant's start dots (R4), the setup dots, then
/// each move with its mover (the first player moves first, R3).
///
/// # Errors
/// A `ground` among the moves (a grounded game is over and is never sent to a bot).
pub fn placements(pos: &Dots) -> Result<Vec<Placement>, String> {
    let mut out: Vec<Placement> = Dots::new(pos.width(), pos.height(), pos.start())
        .points()
        .filter_map(|(x, y, p)| match p {
            Point::Dot(player) => Some((x, y, player)),
            _ => None,
        })
        .collect();
    out.extend(pos.setup().dots());
    let mut mover = Player::First;
    for m in pos.moves() {
        match m {
            Move::Put { x, y } => out.push((x, y, mover)),
            Move::Ground => return Err("a game that was grounded is over".into()),
        }
        mover = mover.opponent();
    }
    Ok(out)
}

/// The `Init` request.
pub fn init_request(width: u8, height: u8) -> String {
    format!(r#"{{"command":"Init","width":{width},"height":{height}}}"#)
}

/// The `PutPoint` request of one dot, on a board `height` high.
pub fn put_request((x, y, player): Placement, height: u8) -> String {
    let (ox, oy) = to_oppai(x, y, height);
    format!(
        r#"{{"command":"PutPoint","coords":{{"x":{ox},"y":{oy}}},"player":"{}"}}"#,
        colour(player)
    )
}

/// The `Analyze` request for `player` within `ms` milliseconds.
pub fn analyze_request(player: Player, ms: u64) -> String {
    format!(
        r#"{{"command":"Analyze","player":"{}","constraint":{{"type":"Time","value":{ms}}}}}"#,
        colour(player)
    )
}

/// One move of an analysis, in oppai-rs's coordinates, with its weight (the higher the better; 0 when
/// the analysis gave a single move without a weight, as its minimax does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// oppai-rs's column, 0-based from the left.
    pub x: u32,
    /// oppai-rs's row, 0-based from the top.
    pub y: u32,
    /// oppai-rs's weight of the move (higher is better).
    pub weight: f64,
}

fn parse_json(line: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(line).map_err(|e| format!("oppai-rs answered {line:?}: {e}"))
}

fn expect_command(value: &serde_json::Value, line: &str, command: &str) -> Result<(), String> {
    if value["command"] == command {
        Ok(())
    } else {
        Err(format!(
            "oppai-rs answered {line:?} where {command} was expected"
        ))
    }
}

/// The moves of an `Analyze` answer.
///
/// # Errors
/// Another answer, or one whose moves are not `{"coords":{"x":…,"y":…},"weight":…}`.
pub fn parse_analysis(line: &str) -> Result<Vec<Candidate>, String> {
    let value = parse_json(line)?;
    expect_command(&value, line, "Analyze")?;
    let bad = || format!("oppai-rs answered an analysis this wrapper cannot read: {line:?}");
    value["moves"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|m| {
            Ok(Candidate {
                x: m["coords"]["x"].as_u64().ok_or_else(bad)? as u32,
                y: m["coords"]["y"].as_u64().ok_or_else(bad)? as u32,
                weight: m["weight"].as_f64().ok_or_else(bad)?,
            })
        })
        .collect()
}

/// The `put` of a `PutPoint` answer.
///
/// # Errors
/// Another answer.
pub fn parse_put(line: &str) -> Result<bool, String> {
    let value = parse_json(line)?;
    expect_command(&value, line, "PutPoint")?;
    value["put"]
        .as_bool()
        .ok_or_else(|| format!("oppai-rs answered {line:?}: no put"))
}

/// The candidate of the highest weight; among equal weights one at random (uniformly), as oppai-rs
/// picks its own best move. `None` for no candidate.
pub fn pick(candidates: &[Candidate], rng: &mut impl Rng) -> Option<Candidate> {
    let best = candidates
        .iter()
        .map(|c| c.weight)
        .fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<&Candidate> = candidates.iter().filter(|c| c.weight == best).collect();
    (!ties.is_empty()).then(|| *ties[rng.random_range(0..ties.len())])
}

/// The time oppai-rs may think when none is given (`go` without a clock or `movetime`), ms.
pub const DEFAULT_MOVE_MS: u64 = 1000;

/// The analysis time of one move, ms, before the time already spent since `go` arrived is taken off.
///
/// `movetime` gives that less `overhead_ms`. A clock of `time` left and `inc` a move gives, with
/// `moves = clamp(free_points / 8, 12, 50)` (the moves the wrapper expects still to play),
/// `reserve = max(time / 20, 4 · overhead_ms)` and `avail = time − reserve`:
/// `min(avail / moves + ¾ · inc, avail / 5) − overhead_ms`. oppai-rs stops at its time limit (it cannot
/// extend a move), and `overhead_ms` covers what comes after: its search winding down, the pipes, a busy
/// scheduler. At least 1 ms.
pub fn move_budget_ms(limits: &Limits, free_points: usize, overhead_ms: u64) -> u64 {
    let budget = if let Some(t) = limits.movetime_ms {
        t.saturating_sub(overhead_ms)
    } else if let Some(time) = limits.time_ms {
        let inc = limits.inc_ms.unwrap_or(0);
        let moves = (free_points as u64 / 8).clamp(12, 50);
        let reserve = (time / 20).max(4 * overhead_ms);
        let avail = time.saturating_sub(reserve);
        (avail / moves + inc * 3 / 4)
            .min(avail / 5)
            .saturating_sub(overhead_ms)
    } else {
        DEFAULT_MOVE_MS
    };
    budget.max(1)
}

/// What oppai-rs's log (its stderr) told of the last analysis, for the `info` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Minimax: the depth of the last completed iteration.
    pub depth: Option<u32>,
    /// Minimax: its estimation then, in captured dots for the side to move.
    pub estimation: Option<i64>,
    /// UCT: the number of playouts.
    pub iterations: Option<u64>,
}

impl Progress {
    /// Takes what one line of oppai-rs's log says: `… Found best move … with estimation E at depth D`
    /// (minimax, after each depth) or `… Iterations count: N.` (UCT, at the end).
    pub fn read(&mut self, line: &str) {
        let number_after = |key: &str| -> Option<&str> {
            let rest = &line[line.find(key)? + key.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '-'))
                .unwrap_or(rest.len());
            Some(&rest[..end])
        };
        if line.contains("Found best move") {
            if let (Some(e), Some(d)) =
                (number_after("with estimation "), number_after("at depth "))
            {
                if let (Ok(e), Ok(d)) = (e.parse(), d.parse()) {
                    self.estimation = Some(e);
                    self.depth = Some(d);
                }
            }
        } else if let Some(n) = number_after("Iterations count: ") {
            self.iterations = n.parse().ok().or(self.iterations);
        }
    }
}

/// The way to oppai-rs: one request line out, one answer line back.
pub trait Transport {
    /// Sends `line` and returns the answer, without its line end.
    ///
    /// # Errors
    /// Why there is no answer (the process died, wrote nothing, …).
    fn request(&mut self, line: &str) -> Result<String, String>;

    /// What its log said since the last call (and forgets it).
    fn take_progress(&mut self) -> Progress {
        Progress::default()
    }

    /// Ends oppai-rs now (before [`std::process::exit`], which runs no destructor).
    fn shutdown(&mut self) {}
}

/// An oppai-rs process. Its log (stderr) is read by [`Progress`]; only its lines that are not `INFO`
/// (warnings, errors, a panic) go on to this process's stderr, which the arena keeps, unless
/// `full_log` forwards every line (its minimax writes a few lines per depth of every move, so a game's
/// log outgrows the 1 MiB the arena keeps of a bot's stderr).
pub struct OppaiProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    progress: Arc<Mutex<Progress>>,
}

impl OppaiProcess {
    /// Starts `program` with `args`.
    ///
    /// # Errors
    /// Why it cannot be started.
    pub fn spawn(program: &Path, args: &[String], full_log: bool) -> io::Result<OppaiProcess> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", program.display())))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let stderr = child.stderr.take().expect("piped");
        let progress = Arc::new(Mutex::new(Progress::default()));
        let shared = Arc::clone(&progress);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                shared.lock().unwrap_or_else(|e| e.into_inner()).read(&line);
                if full_log || !line.contains(" INFO ") {
                    eprintln!("{line}");
                }
            }
        });
        Ok(OppaiProcess {
            child,
            stdin,
            stdout,
            progress,
        })
    }
}

impl Transport for OppaiProcess {
    fn request(&mut self, line: &str) -> Result<String, String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("writing to oppai-rs: {e}"))?;
        let mut answer = String::new();
        match self.stdout.read_line(&mut answer) {
            Ok(0) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map_or_else(|| "still running".into(), |s| s.to_string());
                Err(format!(
                    "oppai-rs closed its output after {line} ({status})"
                ))
            }
            Ok(_) => Ok(answer.trim_end().to_string()),
            Err(e) => Err(format!("reading from oppai-rs: {e}")),
        }
    }

    fn take_progress(&mut self) -> Progress {
        std::mem::take(&mut *self.progress.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn shutdown(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for OppaiProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// What the wrapper did over its life, printed on stderr when it ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Moves answered.
    pub moves: u64,
    /// Times oppai-rs's field was started over (`Init`).
    pub inits: u64,
    /// Analysis time asked for, in total, ms.
    pub asked_ms: u64,
    /// Time from `go` to the answer, in total, ms.
    pub used_ms: u64,
    /// The largest excess of one move's time (from `go`) over the time asked for, ms.
    pub worst_overrun_ms: u64,
    /// Moves replaced by the first legal point: oppai-rs gave no move, or one the referee refuses.
    pub replaced: u64,
}

/// The wrapper as an [`Engine`] of the protocol loop, over a [`Transport`] to oppai-rs.
pub struct OppaiEngine<T: Transport> {
    oppai: T,
    name: String,
    /// The board and the dots oppai-rs's field holds, in the order sent.
    sent: Option<(u8, u8, Vec<Placement>)>,
    overhead_ms: u64,
    rng: ChaCha8Rng,
    /// Totals so far.
    pub stats: Stats,
}

/// The default of `--overhead-ms`: what each move keeps back from oppai-rs's time, ms.
pub const DEFAULT_OVERHEAD_MS: u64 = 40;

impl<T: Transport> OppaiEngine<T> {
    /// An engine named `name` (its `id name`) that keeps `overhead_ms` of each move's time back.
    pub fn new(oppai: T, name: String, overhead_ms: u64) -> OppaiEngine<T> {
        OppaiEngine {
            oppai,
            name,
            sent: None,
            overhead_ms,
            rng: ChaCha8Rng::from_os_rng(),
            stats: Stats::default(),
        }
    }

    /// The transport, for tests.
    pub fn transport(&self) -> &T {
        &self.oppai
    }

    /// Brings oppai-rs's field to `pos`: the dots not yet sent, or `Init` and all of them.
    fn sync(&mut self, pos: &Dots) -> Result<(), String> {
        let want = placements(pos)?;
        let (w, h) = (pos.width(), pos.height());
        let extends = matches!(&self.sent,
            Some((sw, sh, dots)) if (*sw, *sh) == (w, h) && want.starts_with(dots));
        if !extends {
            let answer = self.oppai.request(&init_request(w, h))?;
            expect_command(&parse_json(&answer)?, &answer, "Init")?;
            self.sent = Some((w, h, Vec::new()));
            self.stats.inits += 1;
        }
        let (_, _, dots) = self.sent.as_mut().expect("set above");
        for &p in &want[dots.len()..] {
            let answer = self.oppai.request(&put_request(p, h))?;
            if !parse_put(&answer)? {
                // Its field and the referee's disagree: start over at the next move.
                self.sent = None;
                let (x, y, player) = p;
                return Err(format!(
                    "oppai-rs refused the dot {x}-{y} of the {player:?} player, which the referee accepted"
                ));
            }
            dots.push(p);
        }
        Ok(())
    }

    /// The move for `pos` (a Dots game that is not over) within `limits`.
    ///
    /// # Errors
    /// oppai-rs failed: it cannot be reached, or its field disagrees with the referee's.
    pub fn think(
        &mut self,
        pos: &Dots,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Move, String> {
        let start = limits.received.unwrap_or_else(Instant::now);
        self.sync(pos)?;
        let budget = move_budget_ms(limits, pos.free_points(), self.overhead_ms)
            .saturating_sub(start.elapsed().as_millis() as u64)
            .max(1);
        let _ = self.oppai.take_progress();
        let answer = self.oppai.request(&analyze_request(pos.turn(), budget))?;
        let candidates = parse_analysis(&answer)?;
        let chosen = pick(&candidates, &mut self.rng);
        let progress = self.oppai.take_progress();
        let legal = chosen
            .and_then(|c| from_oppai(c.x, c.y, pos.width(), pos.height()))
            .map(|(x, y)| Move::Put { x, y })
            .filter(|&m| pos.is_legal(m));
        let m = match legal {
            Some(m) => m,
            None => {
                let fallback = pos
                    .legal_moves()
                    .into_iter()
                    .next()
                    .ok_or("no legal point left, yet the game goes on")?;
                let what = match chosen {
                    None => "no move".to_string(),
                    Some(c) => format!("({}, {}) in its coordinates", c.x, c.y),
                };
                eprintln!(
                    "oppai-wrapper: oppai-rs gave {what}, not a legal point here; playing {fallback} instead"
                );
                self.stats.replaced += 1;
                fallback
            }
        };
        let elapsed = start.elapsed().as_millis() as u64;
        eprintln!(
            "oppai-wrapper: ply {}: {m} after {elapsed} ms, {budget} ms asked; depth {}, estimation {}, playouts {}",
            pos.ply() + 1,
            progress.depth.map_or("-".into(), |d| d.to_string()),
            progress.estimation.map_or("-".into(), |e| e.to_string()),
            progress.iterations.map_or("-".into(), |n| n.to_string()),
        );
        self.stats.moves += 1;
        self.stats.asked_ms += budget;
        self.stats.used_ms += elapsed;
        self.stats.worst_overrun_ms = self
            .stats
            .worst_overrun_ms
            .max(elapsed.saturating_sub(budget));
        // Minimax: its depth and estimation (in dots). UCT: the chosen move's win rate w as
        // 1000·(2w − 1), and its playouts as nodes.
        let score = match (progress.estimation, chosen) {
            (Some(e), _) => Some(e),
            (None, Some(c)) if progress.iterations.is_some() => {
                Some((1000.0 * (2.0 * c.weight - 1.0)).round() as i64)
            }
            _ => None,
        };
        if let Some(score) = score {
            info(&SearchInfo {
                depth: progress.depth.unwrap_or(0),
                score,
                nodes: progress.iterations.unwrap_or(0),
                time_ms: elapsed,
                pv: vec![m.to_string()],
            });
        }
        Ok(m)
    }
}

impl<T: Transport> Engine for OppaiEngine<T> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn options(&self) -> Vec<EngineOption> {
        vec![EngineOption::seed()]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = EngineOption::find(self.options(), name)?;
        let seed = spec.parse(value)?.unwrap_or(0) as u64;
        self.rng = if seed == 0 {
            ChaCha8Rng::from_os_rng()
        } else {
            ChaCha8Rng::seed_from_u64(seed)
        };
        Ok(())
    }

    fn new_game(&mut self) {
        self.sent = None;
    }

    fn choose<G: Game>(
        &mut self,
        pos: &G,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<G::Move> {
        let Some(dots) = concrete::<Dots, G>(pos) else {
            self.oppai.shutdown();
            fatal("oppai-rs plays Dots only");
        };
        match self.think(dots, limits, info) {
            Ok(m) => generic_move::<G, Move>(m),
            Err(e) => {
                self.oppai.shutdown();
                fatal(&e)
            }
        }
    }
}

/// Ends the wrapper with status 3 and `why` on stderr: the arena records a crash whose detail ends with
/// that line, a clearer forfeit than a `bestmove` without a move. Callers end oppai-rs first
/// ([`Transport::shutdown`]): `exit` runs no destructor.
fn fatal(why: &str) -> ! {
    eprintln!("oppai-wrapper: {why}");
    std::process::exit(3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::dots::Start;

    #[test]
    fn points_translate_both_ways_on_every_board_shape() {
        for (w, h) in [(4, 4), (5, 7), (20, 20), (39, 32), (64, 64)] {
            for x in 1..=w {
                for y in 1..=h {
                    let (ox, oy) = to_oppai(x, y, h);
                    assert!(ox < u32::from(w) && oy < u32::from(h));
                    assert_eq!(from_oppai(ox, oy, w, h), Some((x, y)), "{w}x{h} {x}-{y}");
                }
            }
            assert_eq!(from_oppai(u32::from(w), 0, w, h), None);
            assert_eq!(from_oppai(0, u32::from(h), w, h), None);
        }
        // Corners: 1-1 is the lower left, oppai's (0, H − 1); 1-H is its (0, 0).
        assert_eq!(to_oppai(1, 1, 20), (0, 19));
        assert_eq!(to_oppai(1, 20, 20), (0, 0));
        assert_eq!(to_oppai(20, 1, 20), (19, 19));
    }

    /// The cross oppai-rs puts for its own games on a W×H board, with its first player `Red`: in its
    /// coordinates (0-based, rows from the top), with w = W/2 and h = H/2, Red on (w−1, h−1) and (w, h),
    /// Black on (w−1, h) and (w, h−1).
    fn oppai_cross(w: u32, h: u32) -> Vec<(u32, u32, &'static str)> {
        let (w2, h2) = (w / 2, h / 2);
        let mut v = vec![
            (w2 - 1, h2 - 1, "Red"),
            (w2, h2, "Red"),
            (w2 - 1, h2, "Black"),
            (w2, h2 - 1, "Black"),
        ];
        v.sort();
        v
    }

    #[test]
    fn the_arena_cross_is_oppais_cross_on_even_boards() {
        for (w, h) in [(20, 20), (30, 30), (39, 32), (8, 8)] {
            let pos = Dots::new(w, h, Start::Cross);
            let mut ours: Vec<(u32, u32, &str)> = placements(&pos)
                .unwrap()
                .into_iter()
                .map(|(x, y, p)| {
                    let (ox, oy) = to_oppai(x, y, h);
                    (ox, oy, colour(p))
                })
                .collect();
            ours.sort();
            if h % 2 == 0 && w % 2 == 0 {
                assert_eq!(ours, oppai_cross(w.into(), h.into()), "{w}x{h}");
            } else {
                // On an odd width the arena's cross (x0 = ⌈W/2⌉) stands one column right of oppai-rs's
                // own; the wrapper sends the arena's dots, so both fields still agree.
                assert_eq!(ours.len(), 4);
            }
        }
        // 20×20: the arena's first player on 10-11 and 11-10 (R4), Red on oppai's (9, 9) and (10, 10).
        assert_eq!(
            put_request((10, 11, Player::First), 20),
            r#"{"command":"PutPoint","coords":{"x":9,"y":9},"player":"Red"}"#
        );
    }

    #[test]
    fn placements_are_the_start_the_setup_then_the_moves_with_their_movers() {
        let setup: games::Setup = "first 1-1 second 2-2".parse().unwrap();
        let mut pos = Dots::with_setup(8, 8, Start::Cross, &setup).unwrap();
        for m in ["1-8", "8-8", "8-1"] {
            pos.play(m.parse().unwrap()).unwrap();
        }
        let p = placements(&pos).unwrap();
        assert_eq!(p.len(), 4 + 2 + 3);
        assert_eq!(
            &p[4..],
            &[
                (1, 1, Player::First),
                (2, 2, Player::Second),
                (1, 8, Player::First),
                (8, 8, Player::Second),
                (8, 1, Player::First)
            ]
        );
    }

    #[test]
    fn requests_and_answers_are_oppais_json_lines() {
        assert_eq!(
            init_request(20, 20),
            r#"{"command":"Init","width":20,"height":20}"#
        );
        assert_eq!(
            analyze_request(Player::Second, 450),
            r#"{"command":"Analyze","player":"Black","constraint":{"type":"Time","value":450}}"#
        );
        for line in [
            init_request(3, 4),
            put_request((1, 1, Player::Second), 4),
            analyze_request(Player::First, 1),
        ] {
            assert!(
                serde_json::from_str::<serde_json::Value>(&line).is_ok(),
                "{line}"
            );
        }
        let moves = parse_analysis(
            r#"{"command":"Analyze","moves":[{"coords":{"x":1,"y":2},"weight":0.5},{"coords":{"x":3,"y":4},"weight":32.0}]}"#,
        )
        .unwrap();
        assert_eq!(
            moves,
            [
                Candidate {
                    x: 1,
                    y: 2,
                    weight: 0.5
                },
                Candidate {
                    x: 3,
                    y: 4,
                    weight: 32.0
                }
            ]
        );
        assert_eq!(
            parse_analysis(r#"{"command":"Analyze","moves":[]}"#),
            Ok(vec![])
        );
        assert!(parse_analysis(r#"{"command":"Init"}"#).is_err());
        assert!(parse_analysis("Error: EOF").is_err());
        assert_eq!(
            parse_put(r#"{"command":"PutPoint","put":false}"#),
            Ok(false)
        );
    }

    #[test]
    fn the_pick_is_the_highest_weight_and_a_tie_is_broken_at_random() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let c = |x, weight| Candidate { x, y: 0, weight };
        assert_eq!(pick(&[], &mut rng), None);
        assert_eq!(pick(&[c(0, 0.0)], &mut rng), Some(c(0, 0.0)));
        assert_eq!(
            pick(&[c(0, 0.4), c(1, 0.6), c(2, 0.5)], &mut rng),
            Some(c(1, 0.6))
        );
        let ties = [c(0, 10.0), c(1, 32.0), c(2, 32.0), c(3, 32.0)];
        let mut seen = [0; 4];
        for _ in 0..300 {
            seen[pick(&ties, &mut rng).unwrap().x as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&n| n > 50), "{seen:?}");
    }

    #[test]
    fn the_budget_is_a_share_of_the_clock_with_a_margin() {
        let clock = |time, inc| Limits {
            time_ms: Some(time),
            inc_ms: Some(inc),
            ..Limits::default()
        };
        // 20 s + 200 ms at the start of 20×20 (392 free points: 49 moves expected).
        let b = move_budget_ms(&clock(20_000, 200), 392, 40);
        assert_eq!(b, (19_000 / 49 + 150) - 40);
        // Never more than a fifth of what is left, however few moves remain.
        for time in [0, 10, 100, 500, 1_000, 5_000, 60_000] {
            for free in [0, 10, 100, 400] {
                let b = move_budget_ms(&clock(time, 200), free, 40);
                assert!(b >= 1);
                assert!(b == 1 || b <= time / 5, "{time} {free}: {b}");
            }
        }
        let movetime = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(move_budget_ms(&movetime, 100, 40), 960);
        assert_eq!(move_budget_ms(&Limits::default(), 100, 40), DEFAULT_MOVE_MS);
    }

    #[test]
    fn progress_reads_minimax_and_uct_log_lines() {
        let mut p = Progress::default();
        p.read("[2026-01-01T00:00:00Z INFO  oppai_minimax::minimax] Found best move Some((10, 8)) with estimation -3 at depth 7");
        p.read("[2026-01-01T00:00:00Z INFO  oppai_minimax::minimax] Starting parallel alpha beta with depth 8, player Red and beta 0.");
        assert_eq!((p.depth, p.estimation), (Some(7), Some(-3)));
        p.read("[2026-01-01T00:00:00Z INFO  oppai_uct::uct] Iterations count: 89580.");
        assert_eq!(p.iterations, Some(89580));
    }

    /// oppai-rs's protocol played by the referee itself, for games from the cross: its field is the
    /// referee's, whose first four dots must be the cross with the right colours and whose moves must
    /// come in turn; `Analyze` answers every legal point (weight 1, the bottom row's weight 2), or the
    /// move `bad` when one is set.
    struct FakeOppai {
        field: Option<Dots>,
        puts: usize,
        requests: Vec<String>,
        bad: Option<(u32, u32)>,
    }

    impl Transport for FakeOppai {
        fn request(&mut self, line: &str) -> Result<String, String> {
            self.requests.push(line.to_string());
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let number = |v: &serde_json::Value| v.as_u64().unwrap() as u32;
            match v["command"].as_str().unwrap() {
                "Init" => {
                    let (w, h) = (number(&v["width"]), number(&v["height"]));
                    self.field = Some(Dots::new(w as u8, h as u8, Start::Cross));
                    self.puts = 0;
                    Ok(r#"{"command":"Init"}"#.into())
                }
                "PutPoint" => {
                    let field = self.field.as_mut().unwrap();
                    let (x, y) = (number(&v["coords"]["x"]), number(&v["coords"]["y"]));
                    let (ax, ay) = from_oppai(x, y, field.width(), field.height()).unwrap();
                    let player = v["player"].as_str().unwrap();
                    self.puts += 1;
                    let put = if self.puts <= 4 {
                        field
                            .point(ax, ay)
                            .is_some_and(|p| matches!(p, Point::Dot(q) if colour(q) == player))
                    } else {
                        colour(field.turn()) == player
                            && field.play(Move::Put { x: ax, y: ay }).is_ok()
                    };
                    Ok(format!(r#"{{"command":"PutPoint","put":{put}}}"#))
                }
                "Analyze" => {
                    let field = self.field.as_ref().unwrap();
                    assert_eq!(v["player"].as_str(), Some(colour(field.turn())));
                    if let Some((x, y)) = self.bad {
                        return Ok(format!(
                            r#"{{"command":"Analyze","moves":[{{"coords":{{"x":{x},"y":{y}}},"weight":0.0}}]}}"#
                        ));
                    }
                    let moves: Vec<String> = field
                        .legal_moves()
                        .into_iter()
                        .map(|m| {
                            let Move::Put { x, y } = m else {
                                unreachable!()
                            };
                            let (ox, oy) = to_oppai(x, y, field.height());
                            let weight = if y == 1 { 2.0 } else { 1.0 };
                            format!(r#"{{"coords":{{"x":{ox},"y":{oy}}},"weight":{weight:.1}}}"#)
                        })
                        .collect();
                    Ok(format!(
                        r#"{{"command":"Analyze","moves":[{}]}}"#,
                        moves.join(",")
                    ))
                }
                other => Err(format!("unknown {other}")),
            }
        }
    }

    fn fake() -> OppaiEngine<FakeOppai> {
        OppaiEngine::new(
            FakeOppai {
                field: None,
                puts: 0,
                requests: Vec::new(),
                bad: None,
            },
            "fake".into(),
            DEFAULT_OVERHEAD_MS,
        )
    }

    #[test]
    fn a_game_sends_each_dot_once_and_every_answer_is_legal() {
        let mut engine = fake();
        let mut pos = Dots::new(6, 5, Start::Cross);
        let mut infos = 0;
        while pos.outcome().is_none() {
            let m = engine
                .think(&pos, &Limits::default(), &mut |_| infos += 1)
                .unwrap();
            let Move::Put { y, .. } = m else {
                panic!("ground")
            };
            // The weight-2 row (the bottom one, y = 1) is taken first while it has a point.
            if pos
                .legal_moves()
                .iter()
                .any(|m| matches!(m, Move::Put { y: 1, .. }))
            {
                assert_eq!(y, 1);
            }
            pos.play(m).unwrap();
        }
        let requests = &engine.transport().requests;
        let count = |c: &str| requests.iter().filter(|r| r.contains(c)).count();
        assert_eq!(count("\"Init\""), 1);
        // The cross once, then each move once (the last one was never sent: the game was over).
        assert_eq!(count("PutPoint"), 4 + pos.ply() - 1);
        assert_eq!(count("Analyze"), engine.stats.moves as usize);
        assert_eq!(engine.stats.replaced, 0);
        assert_eq!(infos, 0, "the fake writes no log, so no info line");
        // A new game, or a position that does not extend what was sent, starts over.
        engine.new_game();
        let pos = Dots::from_moves(6, 5, Start::Cross, "1-1").unwrap();
        engine.think(&pos, &Limits::default(), &mut |_| {}).unwrap();
        let pos = Dots::from_moves(6, 5, Start::Cross, "1-2").unwrap();
        engine.think(&pos, &Limits::default(), &mut |_| {}).unwrap();
        assert_eq!(engine.stats.inits, 3);
    }

    #[test]
    fn an_illegal_answer_is_replaced_by_a_legal_point_and_counted() {
        let mut engine = fake();
        let pos = Dots::new(6, 5, Start::Cross);
        // The cross's own point 3-3 (oppai's (2, 2) on a board 5 high), and a point off the board.
        for bad in [(2, 2), (6, 0)] {
            engine.oppai.bad = Some(bad);
            let m = engine.think(&pos, &Limits::default(), &mut |_| {}).unwrap();
            assert!(pos.is_legal(m));
        }
        assert_eq!(engine.stats.replaced, 2);
    }
}
