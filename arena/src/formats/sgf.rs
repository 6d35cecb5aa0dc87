//! SGF for Dots (`GM[40]`, "Kropki" in the SGF list of games), written and read as the Dots programs do.
//!
//! The conventions, each taken from a program that writes or reads such files:
//! - `FF[4]GM[40]SZ[W:H]`, the start dots as `AB` (first player) and `AW` (second player) in the root, one
//!   move per node `B[..]` / `W[..]`, `PB`/`PW`, `DT`, `RE`, time left after each move in seconds as
//!   `BL`/`WL`, and `TM` the main time in seconds: zagram.org's records (e.g. game 352562, kept in
//!   oppai-rs's `sgf` crate as a test file), whose four start crosses stand at random points.
//! - Coordinates: two letters, column then row, `a`–`z` for 1–26 and `A`–`Z` for 27–52 (SGF 4's
//!   letters), the row counted from the **top**: point `x-y` (y from the bottom, R2) is
//!   `letter(x − 1) letter(H − y)`. Boards wider or taller than 52 have no SGF coordinates and are refused.
//! - A capture may be followed by its enclosing chain, `B[nk.mjlkmlnkmj]` (zagram): read and ignored here,
//!   since the rules find the enclosure themselves; never written.
//! - Grounding (R13) is a move with an empty value, `B[]` / `W[]`: how the Kotlin "dots-game" program
//!   (successor of KvanTTT's DotsGame) writes it for itself and for KataGo's Dots fork, and how it reads an
//!   empty move ("grounding as pass"); its word `grounding` is read too.
//! - `RE`: `B+n` / `W+n` (the winner and the capture difference), `0` a draw (`Draw` is read too), `B+T`
//!   / `W+T` a win on time, `B+F` / `W+F` a win by forfeit (a crash, an illegal move, a protocol breach:
//!   SGF 4's forfeit), `B+R` / `W+R` a resignation (written and read); `B+G` (notago's "won by grounding") is read. `B` is the
//!   first player, who moves first (R3).
//!
//! The arena adds `EV` (tournament), `RO` (round), `GN` (game id), `RU[russian]` (as oppai-rs) and a game
//! comment `GC` with the termination and its detail (`timeout: b: took 1203 ms, allowed 1000 ms`), which
//! [`SgfGame::to_record`] reads back, so an exported game imports with the same ending. The live SGF of
//! `sgfout` ([`commented`]) gives each move node a comment `C[..]` too: the live PGN's comment of that move
//! (`+12/6 0.12s`), which [`read`] skips.

use std::fmt::Write as _;

use games::dots::{Dots, DotsVariant, Point};
use games::{DotsStart, Game, GameSpec, GameVisitor, Outcome, Player, RecordFormat, Setup};
use sgf_parse::unknown_game::Prop;
use sgf_parse::GameTree;

use crate::config::time_control::RecordedTimeControl;
use crate::formats::seconds;
use crate::record::{GameRecord, GameResult, MoveEval, Termination};

/// The largest board side SGF's letters reach (`a`–`z`, `A`–`Z`).
pub const MAX_SIDE: u8 = 52;

/// A file that cannot be read or a game that cannot be written as SGF.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SgfError {
    /// The text is not an SGF collection.
    #[error("not an SGF file: {0}")]
    Syntax(String),
    /// Game tree `game` (1-based) of the file is not a Dots game the arena can play.
    #[error("SGF game {game}: {reason}")]
    Read { game: usize, reason: String },
    /// Game `id` of a results folder has no SGF form.
    #[error("game {id}: {reason}")]
    Write { id: String, reason: String },
}

/// The letter of 0-based coordinate `i`: `a`–`z`, then `A`–`Z`.
fn letter(i: u8) -> Option<char> {
    match i {
        0..=25 => Some(char::from(b'a' + i)),
        26..=51 => Some(char::from(b'A' + i - 26)),
        _ => None,
    }
}

/// The 0-based coordinate of an SGF letter.
fn coordinate(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// The SGF point of `x-y` on a board `h` high (rows from the top).
fn sgf_point(x: u8, y: u8, h: u8) -> Option<String> {
    Some(
        [letter(x.checked_sub(1)?)?, letter(h.checked_sub(y)?)?]
            .iter()
            .collect(),
    )
}

/// The `x-y` point (y from the bottom) of the first two letters of `value`, on a `w` × `h` board.
fn arena_point(value: &str, w: u8, h: u8) -> Result<(u8, u8), String> {
    let b = value.as_bytes();
    let (Some(cx), Some(cy)) = (
        b.first().copied().and_then(coordinate),
        b.get(1).copied().and_then(coordinate),
    ) else {
        return Err(format!("{value:?} is not a point (two letters a-z, A-Z)"));
    };
    if cx >= w || cy >= h {
        return Err(format!("{value:?} is off the {w}×{h} board"));
    }
    Ok((cx + 1, h - cy))
}

/// SGF's SimpleText/Text escaping: `\` and `]` take a backslash.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The dots of `start` on a `w` × `h` board, as a [`Setup`] in [`sorted`] order.
fn start_dots(w: u8, h: u8, start: DotsStart) -> Setup {
    let pos = Dots::new(w, h, start);
    let mut out = Setup::default();
    for (x, y, p) in pos.points() {
        match p {
            Point::Dot(Player::First) => out.first.push((x, y)),
            Point::Dot(Player::Second) => out.second.push((x, y)),
            _ => {}
        }
    }
    sorted(out)
}

/// `s` with each side's dots sorted by x, then y, so two setups with the same dots compare equal.
pub fn sorted(mut s: Setup) -> Setup {
    s.first.sort_unstable();
    s.second.sort_unstable();
    s
}

/// The dots of `all` that are not in `part`, or `None` when `part` holds a dot `all` has not.
fn minus(all: &Setup, part: &Setup) -> Option<Setup> {
    let mut out = Setup::default();
    for p in [Player::First, Player::Second] {
        if part.of(p).iter().any(|d| !all.of(p).contains(d)) {
            return None;
        }
        let rest = all.of(p).iter().filter(|d| !part.of(p).contains(d));
        match p {
            Player::First => out.first.extend(rest),
            Player::Second => out.second.extend(rest),
        }
    }
    Some(out)
}

/// Writes `record` (a Dots game) as one SGF game tree, followed by a line break; `event` names the
/// tournament (`EV`). `arena export --format sgf` writes this, one file per game.
///
/// # Errors
/// [`SgfError::Write`] for a game that is not Dots, a board side over [`MAX_SIDE`], or a record whose
/// setup or moves do not parse.
pub fn write(record: &GameRecord, event: &str) -> Result<String, SgfError> {
    tree(record, event, None)
}

/// [`write()`]'s game tree with a comment `C[..]` on each move node: the text of the live PGN's comment
/// of that move ([`crate::formats::pgn::move_comment`]), `book` for an opening ply, else the mover's
/// score and depth from `evals` (one per move after the opening, as `move_ms`; shorter, or empty, when
/// the bots gave none) and the move's time in seconds: `C[+12/6 0.12s]`, `C[0.12s]`. The live SGF of
/// `sgfout` / `--sgfout` appends this for each Dots game as it ends ([`crate::run::LiveSink`]); one
/// game tree after another makes an SGF collection, which [`read`] reads.
///
/// # Errors
/// As [`write()`].
pub fn commented(
    record: &GameRecord,
    event: &str,
    evals: &[Option<MoveEval>],
) -> Result<String, SgfError> {
    tree(record, event, Some(evals))
}

/// `Ok` when SGF can hold the games of `spec` (Dots on a board whose sides SGF's letters reach), else
/// why not, worded to follow the key or flag that asked for SGF: `sgfout {reason}; use pgnout …`.
/// Checked when a run is planned, so `sgfout` fails before the first game rather than at its end.
///
/// # Errors
/// A game other than Dots, or a Dots board over [`MAX_SIDE`] points a side.
pub fn writable(spec: &GameSpec) -> Result<(), String> {
    match spec.variant_of::<DotsVariant>() {
        Some(DotsVariant { width, height, .. })
            if spec.record_formats().contains(&RecordFormat::Sgf) =>
        {
            if width > MAX_SIDE || height > MAX_SIDE {
                Err(format!(
                    "cannot write this {width}×{height} board: SGF's letters reach {MAX_SIDE} points a side"
                ))
            } else {
                Ok(())
            }
        }
        _ => Err(format!(
            "writes Dots games only (SGF's GM[40]), not {}",
            spec.kind()
        )),
    }
}

/// The game tree of [`write()`], with each move's comment when `evals` is given ([`commented`]).
fn tree(
    record: &GameRecord,
    event: &str,
    evals: Option<&[Option<MoveEval>]>,
) -> Result<String, SgfError> {
    let fail = |reason: String| SgfError::Write {
        id: record.id.clone(),
        reason,
    };
    let spec: GameSpec = format!("{} {}", record.game, record.variant)
        .parse()
        .map_err(|e: games::SpecError| fail(e.to_string()))?;
    let Some(DotsVariant {
        width: w,
        height: h,
        start,
    }) = spec.variant_of()
    else {
        return Err(fail(format!(
            "SGF (GM[40]) is written for Dots only, not {}; use --format pgn",
            record.game
        )));
    };
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(fail(format!(
            "the board is {w}×{h}: SGF's letters reach {MAX_SIDE} points a side"
        )));
    }
    let point = |x: u8, y: u8| {
        sgf_point(x, y, h).ok_or_else(|| fail(format!("{x}-{y} is off the {w}×{h} board")))
    };

    // Step 1. The root: game, board, players, result.
    let mut out = format!("(;FF[4]GM[40]CA[UTF-8]AP[arena]SZ[{w}:{h}]RU[russian]");
    let _ = write!(
        out,
        "EV[{}]RO[{}]GN[{}]PB[{}]PW[{}]",
        escape(event),
        record.round,
        escape(&record.id),
        escape(&record.first),
        escape(&record.second)
    );
    if record.date.len() >= 10 {
        let _ = write!(out, "DT[{}]", &record.date[..10]);
    }
    let tcs = record
        .time_control
        .clone()
        .map(|t| t.parse::<RecordedTimeControl>().ok());
    if let [Some(a), Some(b)] = tcs {
        if let (true, Some(t)) = (a == b, a.time_ms) {
            let _ = write!(out, "TM[{}]", seconds(t));
            if a.inc_ms > 0 {
                let _ = write!(out, "OT[+{} s per move]", seconds(a.inc_ms));
            }
        }
    }
    let _ = write!(out, "RE[{}]", result_text(record));
    let ending = if record.detail.is_empty() {
        record.termination.to_string()
    } else {
        format!("{}: {}", record.termination, record.detail)
    };
    let _ = write!(out, "GC[{}]", escape(&ending));

    // Step 2. The start dots: the variant's (the cross of R4) and the setup's.
    let mut dots = start_dots(w, h, start);
    dots.first.extend(&record.setup.first);
    dots.second.extend(&record.setup.second);
    for (tag, list) in [("AB", &dots.first), ("AW", &dots.second)] {
        if !list.is_empty() {
            out.push_str(tag);
            for &(x, y) in list {
                let _ = write!(out, "[{}]", point(x, y)?);
            }
        }
    }

    // Step 3. The moves, with each side's time left after its move where the clock had a budget.
    let mut left: [Option<u64>; 2] = [0, 1].map(|i| tcs[i].and_then(|t| t.time_ms));
    let inc = [0, 1].map(|i| tcs[i].map_or(0, |t| t.inc_ms));
    let opening = record.opening.len();
    for (k, text) in record.moves.iter().enumerate() {
        let side = k % 2;
        let (mv, time) = if side == 0 { ("B", "BL") } else { ("W", "WL") };
        out.push_str(if k % 10 == 0 { "\n;" } else { ";" });
        let value = match text.parse::<games::dots::Move>() {
            Ok(games::dots::Move::Ground) => String::new(),
            Ok(games::dots::Move::Put { x, y }) => point(x, y)?,
            Err(e) => return Err(fail(format!("ply {}: {e}", k + 1))),
        };
        let _ = write!(out, "{mv}[{value}]");
        let spent = k.checked_sub(opening).and_then(|i| record.move_ms.get(i));
        if let (Some(&ms), Some(l)) = (spent, left[side].as_mut()) {
            *l = l.saturating_sub(ms) + inc[side];
            let _ = write!(out, "{time}[{}]", seconds(*l));
        }
        if let Some(comment) = evals.and_then(|e| crate::formats::pgn::move_comment(record, k, e)) {
            let _ = write!(out, "C[{}]", escape(&comment));
        }
    }
    out.push_str(")\n");
    Ok(out)
}

/// `RE`'s value for `record`: the winner's colour and the capture difference, `R` for a resignation, or
/// `T`/`F` for a forfeit.
fn result_text(record: &GameRecord) -> String {
    let winner = match record.result {
        GameResult::FirstWins => "B",
        GameResult::SecondWins => "W",
        GameResult::Draw => return "0".into(),
    };
    let how = match record.termination {
        Termination::Timeout => "T".to_string(),
        Termination::Resign => "R".to_string(),
        Termination::Crash | Termination::Illegal | Termination::Protocol | Termination::Limit => {
            "F".to_string()
        }
        // Dots games are never `solved` or voided (no module); the arm keeps the match whole.
        Termination::Normal
        | Termination::Ground
        | Termination::Adjudicated
        | Termination::Solved
        | Termination::Void => match record.score {
            Some([a, b]) => a.abs_diff(b).to_string(),
            None => "?".to_string(),
        },
    };
    format!("{winner}+{how}")
}

/// `RE` of a file: who won and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfResult {
    /// `0` or `Draw`.
    Draw,
    /// `B+…` or `W+…`: the winner and what follows the `+` (`3`, `R`, `T`, `F`, `G`, `?`).
    Win { winner: Player, by: String },
}

/// One game tree of an SGF file: its main line, in the arena's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfGame {
    /// Board width and height (`SZ`).
    pub width: u8,
    pub height: u8,
    /// Every start dot (`AB` first player, `AW` second player), [`sorted`].
    pub dots: Setup,
    /// The main line's moves in the move notation (`x-y`, `ground`), up to the end or a word such as
    /// `resign` that ends it without a move.
    pub moves: Vec<String>,
    /// `PB` and `PW` (empty when missing).
    pub first: String,
    pub second: String,
    /// `RE`, when present and readable.
    pub result: Option<SgfResult>,
    /// `DT`, `EV`, `RO`, `GN`, `GC` as written (empty when missing).
    pub date: String,
    pub event: String,
    pub round: String,
    pub name: String,
    pub comment: String,
}

/// Reads every game tree of an SGF collection (the main line of each).
///
/// # Errors
/// [`SgfError::Syntax`] for text that is not SGF; [`SgfError::Read`] for a game that is not Dots
/// (`GM[40]`), has no `SZ` or a size out of 4..=52, a point off the board, setup dots after the first move,
/// or moves that break strict alternation from `B` (R3).
pub fn read(text: &str) -> Result<Vec<SgfGame>, SgfError> {
    let trees = sgf_parse::parse(text).map_err(|e| SgfError::Syntax(e.to_string()))?;
    if trees.is_empty() {
        return Err(SgfError::Syntax("no game tree".into()));
    }
    trees
        .iter()
        .enumerate()
        .map(|(k, tree)| {
            read_tree(tree).map_err(|reason| SgfError::Read {
                game: k + 1,
                reason,
            })
        })
        .collect()
}

fn read_tree(tree: &GameTree) -> Result<SgfGame, String> {
    let GameTree::Unknown(root) = tree else {
        return Err("not a Dots game: GM is 1 (Go) or missing, Dots is GM[40]".into());
    };
    match root.get_property("GM") {
        Some(Prop::GM(40)) => {}
        Some(Prop::GM(n)) => return Err(format!("not a Dots game: GM[{n}], Dots is GM[40]")),
        _ => return Err("not a Dots game: no GM[40]".into()),
    }
    let (w, h) = match root.get_property("SZ") {
        Some(Prop::SZ(size)) => *size,
        _ => return Err("no board size (SZ[W:H])".into()),
    };
    if !(4..=MAX_SIDE).contains(&w) || !(4..=MAX_SIDE).contains(&h) {
        return Err(format!(
            "board {w}×{h}: the arena's Dots boards with SGF coordinates are 4 to {MAX_SIDE} a side"
        ));
    }
    let text = |id: &str| -> String {
        match root.get_property(id) {
            Some(
                Prop::DT(t) | Prop::EV(t) | Prop::RO(t) | Prop::GN(t) | Prop::PB(t) | Prop::PW(t),
            ) => t.text.clone(),
            Some(Prop::RE(t)) => t.text.clone(),
            Some(Prop::GC(t)) => t.text.clone(),
            _ => String::new(),
        }
    };
    let mut game = SgfGame {
        width: w,
        height: h,
        dots: Setup::default(),
        moves: Vec::new(),
        first: text("PB"),
        second: text("PW"),
        result: parse_result(&text("RE")),
        date: text("DT"),
        event: text("EV"),
        round: text("RO"),
        name: text("GN"),
        comment: text("GC"),
    };
    'nodes: for (n, node) in root.main_variation().enumerate() {
        let at = |reason: String| format!("node {}: {reason}", n + 1);
        for prop in node.properties() {
            match prop {
                Prop::AB(points) | Prop::AW(points) => {
                    if !game.moves.is_empty() {
                        return Err(at(
                            "setup dots (AB/AW) after the first move; the arena places them only at the start"
                                .into(),
                        ));
                    }
                    let list = if matches!(prop, Prop::AB(_)) {
                        &mut game.dots.first
                    } else {
                        &mut game.dots.second
                    };
                    for p in points {
                        if p.len() != 2 {
                            return Err(at(format!(
                                "setup point {p:?}: one point of two letters (no compressed lists)"
                            )));
                        }
                        list.push(arena_point(p, w, h).map_err(at)?);
                    }
                }
                Prop::B(value) | Prop::W(value) => {
                    let colour = if matches!(prop, Prop::B(_)) {
                        Player::First
                    } else {
                        Player::Second
                    };
                    let due = if game.moves.len().is_multiple_of(2) {
                        Player::First
                    } else {
                        Player::Second
                    };
                    let Some(mv) = read_move(value, w, h).map_err(at)? else {
                        break 'nodes;
                    };
                    if colour != due {
                        let name = |p: Player| if p == Player::First { "B" } else { "W" };
                        return Err(at(format!(
                            "{} moves at ply {} where the rules give the move to {} (strict alternation from B, R3)",
                            name(colour),
                            game.moves.len() + 1,
                            name(due)
                        )));
                    }
                    game.moves.push(mv);
                }
                Prop::Invalid(id, values) if id == "B" || id == "W" || id == "AB" || id == "AW" => {
                    return Err(at(format!(
                        "{id}{values:?} is not a Dots move or point list"
                    )))
                }
                _ => {}
            }
        }
    }
    game.dots = sorted(std::mem::take(&mut game.dots));
    Ok(game)
}

/// A move value in the arena's notation; `None` for a word that ends the game without a move.
fn read_move(value: &str, w: u8, h: u8) -> Result<Option<String>, String> {
    match value {
        "" | "grounding" => return Ok(Some("ground".into())),
        "resign" | "time" | "draw" | "interrupt" | "unknown" => return Ok(None),
        _ => {}
    }
    // zagram appends the enclosing chain of a capture after a dot: `nk.mjlkmlnkmj`.
    let head = value.split('.').next().unwrap_or(value);
    if head.len() != 2 {
        return Err(format!(
            "{value:?} is not a Dots move (two letters, or empty for grounding)"
        ));
    }
    let (x, y) = arena_point(head, w, h)?;
    Ok(Some(format!("{x}-{y}")))
}

fn parse_result(re: &str) -> Option<SgfResult> {
    let re = re.trim();
    if re == "0" || re.eq_ignore_ascii_case("draw") {
        return Some(SgfResult::Draw);
    }
    let (colour, by) = re.split_once('+')?;
    let winner = match colour {
        "B" => Player::First,
        "W" => Player::Second,
        _ => return None,
    };
    Some(SgfResult::Win {
        winner,
        by: by.to_string(),
    })
}

impl SgfGame {
    /// The start that explains the file's start dots: `cross` or `four-crosses` when the dots are exactly
    /// those of R4 on this board, else `empty` with every dot a setup dot.
    pub fn start(&self) -> (DotsStart, Setup) {
        for start in [DotsStart::Cross, DotsStart::FourCrosses] {
            if start_dots(self.width, self.height, start) == self.dots {
                return (start, Setup::default());
            }
        }
        (DotsStart::Empty, self.dots.clone())
    }

    /// The setup dots over the start of `start` (this file's dots less the start's own), for playing the
    /// file as an opening of a tournament whose config names `start`.
    ///
    /// # Errors
    /// When the file lacks a dot of that start (a tournament of `start = "cross"` cannot start from a
    /// file without the cross; `start = "empty"` takes any file).
    pub fn setup_over(&self, start: DotsStart) -> Result<Setup, String> {
        minus(&self.dots, &start_dots(self.width, self.height, start)).ok_or_else(|| {
            format!(
                "its start dots lack the dots of start = \"{start}\"; give the game start = \"empty\" to \
                 play it from its own dots"
            )
        })
    }

    /// The game as a record, for `arena replay`: the start of [`SgfGame::start`], the moves replayed by
    /// the rules. The result and termination come from the rules when the moves end the game (a full board
    /// or `ground`), else from the arena's own `GC` (`timeout: …`) when present, else from `RE`.
    ///
    /// # Errors
    /// A move that is illegal in the replayed position, with its ply.
    pub fn to_record(&self, id: &str) -> Result<GameRecord, String> {
        let (start, setup) = self.start();
        let spec = GameSpec::from(DotsVariant {
            width: self.width,
            height: self.height,
            start,
        });
        let end = spec
            .visit_with_setup(&setup, End(&self.moves))
            .map_err(|e| e.to_string())??;
        let own = self
            .comment
            .split_once(':')
            .map_or_else(|| (self.comment.trim(), ""), |(t, d)| (t.trim(), d.trim()));
        let recorded: Option<Termination> = own.0.parse().ok();
        let winner_result = |r: &Option<SgfResult>| match r {
            Some(SgfResult::Win { winner, .. }) => GameResult::from_winner(Some(*winner)),
            _ => GameResult::Draw,
        };
        let (result, termination, detail) = match (end.outcome, recorded) {
            (Some(o), _) => (
                GameResult::from_winner(o.winner()),
                if self.moves.last().map(String::as_str) == Some("ground") {
                    Termination::Ground
                } else {
                    Termination::Normal
                },
                match end.score {
                    Some([a, b]) => format!("score {a}:{b}"),
                    None => String::new(),
                },
            ),
            (None, Some(t)) => (winner_result(&self.result), t, own.1.to_string()),
            (None, None) => {
                let re = match &self.result {
                    Some(SgfResult::Draw) => "0".to_string(),
                    Some(SgfResult::Win { winner, by }) => {
                        format!("{}+{by}", if *winner == Player::First { "B" } else { "W" })
                    }
                    None => "?".into(),
                };
                let termination = match &self.result {
                    Some(SgfResult::Win { by, .. }) if by == "T" => Termination::Timeout,
                    Some(SgfResult::Win { by, .. }) if by == "F" => Termination::Crash,
                    Some(SgfResult::Win { by, .. }) if by == "R" => Termination::Resign,
                    _ => Termination::Adjudicated,
                };
                (
                    winner_result(&self.result),
                    termination,
                    format!("SGF RE[{re}] before the end of the game by the rules"),
                )
            }
        };
        Ok(GameRecord {
            id: id.to_string(),
            round: self.round.parse().unwrap_or(0),
            pair: 0,
            game: <DotsVariant as games::Variant>::NAME.into(),
            variant: spec.variant(),
            first: self.first.clone(),
            second: self.second.clone(),
            result,
            termination,
            detail,
            plies: self.moves.len() as u32,
            score: end.score,
            time_ms: [0, 0],
            time_control: [String::new(), String::new()],
            move_ms: Vec::new(),
            opening: Vec::new(),
            setup,
            moves: self.moves.clone(),
            seed: 0,
            date: self.date.clone(),
        })
    }
}

/// The games of the SGF file at `path` as records ([`SgfGame::to_record`]) for `arena replay`: the id of
/// a file's only game is the file's stem (`zagram352562`), of each game of a collection the stem and the
/// game's number (`games-2`).
///
/// # Errors
/// A file that cannot be read, is no SGF, or holds a game the arena cannot replay, with its number.
pub fn read_records(path: &std::path::Path) -> anyhow::Result<Vec<GameRecord>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let games = read(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let stem = path
        .file_stem()
        .map_or_else(|| "sgf".into(), |s| s.to_string_lossy().into_owned());
    let many = games.len() > 1;
    games
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let id = if many {
                format!("{stem}-{}", k + 1)
            } else {
                stem.clone()
            };
            g.to_record(&id)
                .map_err(|m| anyhow::anyhow!("{}: SGF game {}: {m}", path.display(), k + 1))
        })
        .collect()
}

/// How the moves of a file end, replayed by the rules.
struct Ending {
    outcome: Option<Outcome>,
    score: Option<[u32; 2]>,
}

struct End<'a>(&'a [String]);

impl GameVisitor for End<'_> {
    type Output = Result<Ending, String>;
    fn visit<G: Game>(self, mut pos: G) -> Result<Ending, String> {
        games::play_moves(&mut pos, self.0.iter().map(String::as_str))
            .map_err(|e| e.to_string())?;
        Ok(Ending {
            outcome: pos.outcome(),
            score: pos.score(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_use_both_alphabets_and_count_rows_from_the_top() {
        // zagram 352562 on 39×32: AB[lk] is the first player's cross dot 12-22.
        assert_eq!(arena_point("lk", 39, 32), Ok((12, 22)));
        assert_eq!(sgf_point(12, 22, 32).as_deref(), Some("lk"));
        // Columns past 26 take capitals: x = 27 is `A`, x = 52 is `Z`.
        assert_eq!(sgf_point(27, 32, 32).as_deref(), Some("Aa"));
        assert_eq!(sgf_point(52, 1, 52).as_deref(), Some("ZZ"));
        assert_eq!(arena_point("ZZ", 52, 52), Ok((52, 1)));
        assert_eq!(sgf_point(53, 1, 60), None);
        assert!(arena_point("Aa", 26, 26).is_err());
        assert!(arena_point("a", 26, 26).is_err());
        assert_eq!(seconds(9800), "9.8");
        assert_eq!(seconds(10000), "10");
        assert_eq!(seconds(125), "0.125");
    }

    #[test]
    fn a_game_with_crosses_at_random_points_reads_with_its_setup_capture_and_grounding() {
        // Written in zagram.org's form (random crosses as AB/AW, BL/WL, a capture with its chain).
        let text = std::fs::read_to_string("tests/golden/crosses.sgf").unwrap();
        let games = read(&text).unwrap();
        let g = &games[0];
        assert_eq!((g.width, g.height), (12, 10));
        assert_eq!(g.moves, ["2-7", "11-1", "3-6", "12-10", "6-5", "ground"]);
        assert_eq!(
            g.dots.to_string(),
            "first 3-8 4-7 8-4 9-3 second 3-7 4-8 8-3 9-4"
        );
        assert_eq!((g.first.as_str(), g.second.as_str()), ("Alice", "Bob"));
        // Two crosses are no named start: an empty start with eight setup dots.
        let (start, setup) = g.start();
        assert_eq!((start, setup), (DotsStart::Empty, g.dots.clone()));
        assert!(g.setup_over(DotsStart::Cross).is_err());
        let record = g.to_record("crosses").unwrap();
        // 3-6 captures 3-7; W's ground hands over its three dots off the edge (4-8, 8-3, 9-4): 4:0.
        assert_eq!(record.score, Some([4, 0]));
        assert_eq!(
            (record.result, record.termination),
            (GameResult::FirstWins, Termination::Ground)
        );
        assert_eq!(
            g.result,
            Some(SgfResult::Win {
                winner: Player::First,
                by: "4".into()
            })
        );
    }

    /// A Dots game from the cross with a book ply: B captures, then W grounds (golden game g0003).
    fn dots_game(id: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            game: "dots".into(),
            variant: "8 8 cross".into(),
            termination: Termination::Ground,
            detail: "score 2:0".into(),
            score: Some([2, 0]),
            time_control: ["5000+50".into(), "5000+50".into()],
            opening: vec!["3-4".into()],
            move_ms: vec![2, 35, 1, 52, 3],
            moves: ["3-4", "8-8", "4-3", "1-1", "6-6", "ground"]
                .map(String::from)
                .to_vec(),
            plies: 6,
            ..GameRecord::example("dots-tps", "random", GameResult::FirstWins)
        }
    }

    #[test]
    fn live_moves_carry_the_pgn_comments_and_a_collection_of_them_reads_back() {
        use crate::record::Score;
        let g = dots_game("g0003");
        let eval = |score, depth| Some(MoveEval { score, depth });
        // dots-tps (first) reports in its own units; random (second) nothing; one move past the evals.
        let evals = [
            None,
            eval(Score::Units(12), Some(6)),
            None,
            eval(Score::Units(-3), None),
        ];
        let text = commented(&g, "live", &evals).unwrap();
        let moves = text.split_once('\n').unwrap().1;
        assert_eq!(
            moves,
            ";B[ce]C[book];W[ha]WL[5.048]C[0.002s];B[df]BL[5.015]C[+12/6 0.035s];W[ah]WL[5.097]C[0.001s]\
             ;B[fc]BL[5.013]C[-3 0.052s];W[]WL[5.144]C[0.003s])\n"
        );
        // Without the comments, as `arena export` writes it.
        let plain = write(&g, "live").unwrap();
        assert!(!plain.contains("]C["), "{plain}");
        assert_eq!(plain.lines().next(), text.lines().next());

        // Appended one after another, the games read as one collection, each with its moves.
        let other = GameRecord {
            // B grounds its three dots, none on the edge: W takes them.
            moves: vec!["3-4".into(), "8-8".into(), "ground".into()],
            move_ms: vec![7, 9],
            detail: "score 0:3".into(),
            score: Some([0, 3]),
            result: GameResult::SecondWins,
            ..dots_game("g0004")
        };
        let file = [
            commented(&g, "live", &evals).unwrap(),
            commented(&other, "live", &[]).unwrap(),
            commented(&g, "live", &[]).unwrap(),
        ]
        .concat();
        let games = read(&file).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves, g.moves);
        assert_eq!(games[1].moves, other.moves);
        assert_eq!(games[1].name, "g0004");
        let back = games[1].to_record("x").unwrap();
        assert_eq!(
            (back.result, back.termination, back.score),
            (GameResult::SecondWins, Termination::Ground, Some([0, 3]))
        );
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("live.sgf");
        std::fs::write(&path, &file).unwrap();
        let ids: Vec<String> = read_records(&path)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(ids, ["live-1", "live-2", "live-3"]);
    }

    #[test]
    fn only_dots_boards_with_sgf_coordinates_are_writable() {
        let spec = |s: &str| s.parse::<GameSpec>().unwrap();
        assert_eq!(writable(&spec("dots 52 52 cross")), Ok(()));
        assert!(writable(&spec("dots 53 20 cross"))
            .unwrap_err()
            .contains("53×20"));
        assert_eq!(
            writable(&spec("connect4 7 6")).unwrap_err(),
            "writes Dots games only (SGF's GM[40]), not connect4"
        );
    }

    #[test]
    fn files_that_are_no_dots_game_are_refused_with_the_reason() {
        let err = |s: &str| read(s).unwrap_err().to_string();
        assert!(err("(;GM[1]SZ[19];B[aa])").contains("GM is 1"));
        assert!(err("(;GM[40];B[aa])").contains("no board size"));
        assert!(err("(;GM[40]SZ[60:60])").contains("4 to 52"));
        assert!(err("(;GM[40]SZ[8:8];W[aa])").contains("node 2: W moves at ply 1"));
        assert!(err("(;GM[40]SZ[8:8];B[aa];W[ab]AB[cc])").contains("after the first move"));
        assert!(err("(;GM[40]SZ[8:8];B[zz])").contains("off the 8×8 board"));
        assert!(err("(;GM[40]SZ[8:8]AB[aa:cc])").contains("no compressed lists"));
        assert!(err("not sgf").contains("not an SGF file"));
        // A resignation ends the main line without a move; variations after the main line are left.
        let g = &read("(;GM[40]SZ[8:8];B[aa](;W[resign])(;W[bb]))").unwrap()[0];
        assert_eq!(g.moves, ["1-8"]);
    }
}
