//! What a finished game leaves behind: its result, how it ended, and one row of `games.csv`.

use std::fmt;
use std::str::FromStr;

use games::{Player, Setup};
use serde::{Deserialize, Serialize};

/// The start of the detail of a void game that was never played (the contest server's game of a bot
/// disqualified after its competition began): `not played: <bot> was disqualified by the organiser`.
pub const NOT_PLAYED: &str = "not played: ";

/// The result from the first player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    FirstWins,
    /// `0-1`.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The result where `winner` won (`None`: a draw).
    pub fn from_winner(winner: Option<Player>) -> GameResult {
        match winner {
            Some(Player::First) => GameResult::FirstWins,
            Some(Player::Second) => GameResult::SecondWins,
            None => GameResult::Draw,
        }
    }

    /// The result of a game adjudicated by its score (Dots captures, `[first, second]`): the higher
    /// score wins, equal scores draw.
    pub fn from_score([x, y]: [u32; 2]) -> GameResult {
        GameResult::from_winner(match x.cmp(&y) {
            std::cmp::Ordering::Greater => Some(Player::First),
            std::cmp::Ordering::Less => Some(Player::Second),
            std::cmp::Ordering::Equal => None,
        })
    }

    /// The result where `loser` lost.
    pub fn loss_of(loser: Player) -> GameResult {
        GameResult::from_winner(Some(loser.opponent()))
    }

    /// Points of `p`: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self, p: Player) -> f64 {
        match (self, p) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::FirstWins, Player::First) | (GameResult::SecondWins, Player::Second) => {
                1.0
            }
            _ => 0.0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

impl FromStr for GameResult {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "1-0" => Ok(GameResult::FirstWins),
            "0-1" => Ok(GameResult::SecondWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            _ => Err(format!("unknown result {s:?}")),
        }
    }
}

/// How a game ended (after fastchess's `MatchTermination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// By the rules: a win on the board, a draw, a full board.
    Normal,
    /// Dots: a player answered `ground` (R13).
    Ground,
    /// A player resigned (`bestmove resign`, as `arena play`'s person does): a loss, not a forfeit.
    Resign,
    /// Forfeit: a bot exceeded its time (or the startup deadline).
    Timeout,
    /// Forfeit: a bot exited, crashed or could not be started.
    Crash,
    /// Forfeit: a bot sent an illegal or unparsable move.
    Illegal,
    /// Forfeit: a bot broke the protocol (a line over 64 KiB, `bestmove` without a move, …).
    Protocol,
    /// Forfeit: a bot went over a resource limit of its config (memory, processes, CPU time, file
    /// size); the detail names the limit.
    Limit,
    /// The `max_plies` limit, or `[adjudication]`'s draw rule: decided by score (Dots) or drawn. (Its
    /// resign rule is recorded as [`Termination::Resign`], the detail saying `adjudicated`.)
    Adjudicated,
    /// `[adjudication]`'s solver rule: the game's value under perfect play was proved (Connect Four,
    /// tic-tac-toe; [`crate::analyze::judge`]), and is its result.
    Solved,
    /// Voided: the game module that gives the rules failed (trapped, ran out of fuel or memory, broke
    /// the ABI; the detail names it), so the game cannot be judged. Neither bot's fault: the game counts
    /// in no standings, rating or statistic (its result field says `1/2-1/2` and means nothing).
    Void,
}

impl Termination {
    /// Every termination; the forfeits among them in the order of the standings' forfeit columns.
    pub const ALL: [Termination; 11] = [
        Termination::Normal,
        Termination::Ground,
        Termination::Resign,
        Termination::Timeout,
        Termination::Crash,
        Termination::Illegal,
        Termination::Protocol,
        Termination::Limit,
        Termination::Adjudicated,
        Termination::Solved,
        Termination::Void,
    ];

    /// The five kinds of forfeit.
    pub const FORFEITS: [Termination; 5] = [
        Termination::Timeout,
        Termination::Crash,
        Termination::Illegal,
        Termination::Protocol,
        Termination::Limit,
    ];

    /// Whether the game counts: every game but a voided one ([`Termination::Void`]).
    pub fn counts(self) -> bool {
        self != Termination::Void
    }

    /// Whether a bot lost by its own fault.
    pub fn is_forfeit(self) -> bool {
        Termination::FORFEITS.contains(&self)
    }

    /// The word in `games.csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Ground => "ground",
            Termination::Resign => "resign",
            Termination::Timeout => "timeout",
            Termination::Crash => "crash",
            Termination::Illegal => "illegal",
            Termination::Protocol => "protocol",
            Termination::Limit => "limit",
            Termination::Adjudicated => "adjudicated",
            Termination::Solved => "solved",
            Termination::Void => "void",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| format!("unknown termination {s:?}"))
    }
}

/// What a bot said of one of its moves, cutechess's move evaluation: the score and depth of its last
/// `info` line with a score before its `bestmove`. Kept in memory while a run plays the game (for
/// `--pgnout`), not in `games.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEval {
    pub score: Score,
    /// The `depth` of that `info` line, if it gave one.
    pub depth: Option<u32>,
}

/// A bot's score of its position, from the mover's side, as UGI's `info score` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp X`: centi-units (centipawns in chess; whatever the bot's evaluation counts otherwise).
    Cp(i64),
    /// `score mate N`: a win in N moves (a loss when negative).
    Mate(i64),
    /// `score S`, the arena's own protocol (`docs/protocol.md`): in the bot's own units.
    Units(i64),
}

impl fmt::Display for MoveEval {
    /// As cutechess writes a move's evaluation in a PGN comment: `+0.32/10`, `-1.05/7`, `0.00/3`,
    /// `+M3/12` (mate in 3, as the bot counts it), without `/D` when the bot gave no depth; a score in
    /// the bot's own units as it gave it, signed: `+12/6`, `0/4`, `-3/2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Cp(0) => f.write_str("0.00")?,
            Score::Cp(cp) => write!(
                f,
                "{}{}.{:02}",
                if cp > 0 { '+' } else { '-' },
                cp.unsigned_abs() / 100,
                cp.unsigned_abs() % 100
            )?,
            Score::Units(0) => f.write_str("0")?,
            Score::Units(x) => write!(f, "{x:+}")?,
            Score::Mate(n) => write!(f, "{}M{}", if n >= 0 { '+' } else { '-' }, n.unsigned_abs())?,
        }
        match self.depth {
            Some(d) => write!(f, "/{d}"),
            None => Ok(()),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The schedule's stable id (`g0001`).
    pub id: String,
    pub round: u32,
    /// Game-pair number (the two games with the same opening and swapped sides).
    pub pair: u32,
    /// `tictactoe`, `connect4` or `dots`.
    pub game: String,
    /// The variant words, e.g. `7 6` or `39 32 cross`.
    pub variant: String,
    /// Name of the first player.
    pub first: String,
    /// Name of the second player.
    pub second: String,
    pub result: GameResult,
    pub termination: Termination,
    /// Who and what: the bad line, the exit status, the scores (empty for a plain ending).
    pub detail: String,
    /// Plies played, the opening included (none when a bot lost in the handshake: see
    /// [`GameRecord::opening`]).
    pub plies: u32,
    /// Dots: captured dots of [first, second] (R11); other games: `None`.
    pub score: Option<[u32; 2]>,
    /// Time spent on moves by [first, second], ms.
    pub time_ms: [u64; 2],
    /// The time control each side played under, [first, second], as [`crate::config::time_control::TimeControl`]'s
    /// text (`10000+100`); empty in rows recorded before the column existed.
    pub time_control: [String; 2],
    /// The time each move took, ms, one per ply after the opening (the bots' moves, in order); a move
    /// that was never made (a forfeit) has none. Empty in rows recorded before the column existed.
    pub move_ms: Vec<u64>,
    /// Opening moves: the first moves of `moves`, except in a game a bot lost before any bot was asked
    /// for a move (in its handshake), whose opening was never played: its `moves` are empty.
    pub opening: Vec<String>,
    /// Dots placed on top of the variant's start before the first ply (an SGF opening's `AB`/`AW`);
    /// empty for the variant's own start.
    pub setup: Setup,
    /// Every move played, in order, in the game's notation.
    pub moves: Vec<String>,
    /// The game's seed.
    pub seed: u64,
    /// When the game ended, UTC, RFC 3339 to the second (`2025-03-01T17:04:05Z`); empty in rows
    /// recorded before the column existed.
    pub date: String,
}

impl GameRecord {
    /// Who made each move of [`GameRecord::moves`], by the rules ([`games::movers`]: the side to move
    /// need not alternate, as in Kalah); `None` for a move from where the game or a move does not replay.
    pub fn movers(&self) -> Vec<Option<Player>> {
        struct Movers<'a>(&'a [String]);
        impl games::GameVisitor for Movers<'_> {
            type Output = Vec<Option<Player>>;
            fn visit<G: games::Game>(self, start: G) -> Vec<Option<Player>> {
                games::movers(start, self.0.iter().map(String::as_str))
            }
        }
        format!("{} {}", self.game, self.variant)
            .parse::<games::GameSpec>()
            .ok()
            .and_then(|spec| spec.visit_with_setup(&self.setup, Movers(&self.moves)).ok())
            .unwrap_or_else(|| vec![None; self.moves.len()])
    }

    /// Moves `side` chose itself, the opening's plies excluded: in a game whose sides alternate
    /// ([`games::Game::ALTERNATES`]) by counting, the first player moving next when the opening has an
    /// even number of plies; otherwise by the rules ([`GameRecord::movers`]), and by counting where
    /// the moves do not replay.
    pub fn moves_by(&self, side: Player) -> u32 {
        struct Alternates;
        impl games::GameVisitor for Alternates {
            type Output = bool;
            fn visit<G: games::Game>(self, _: G) -> bool {
                G::ALTERNATES
            }
        }
        let alternates = format!("{} {}", self.game, self.variant)
            .parse::<games::GameSpec>()
            .map_or(true, |spec| spec.visit(Alternates));
        let movers = if alternates { vec![] } else { self.movers() };
        if !alternates && self.plies as usize == movers.len() && movers.iter().all(Option::is_some)
        {
            let opening = self.opening.len().min(movers.len());
            return movers[opening..]
                .iter()
                .filter(|&&m| m == Some(side))
                .count() as u32;
        }
        let opening = u32::try_from(self.opening.len()).unwrap_or(u32::MAX);
        let own = self.plies.saturating_sub(opening);
        let first = if opening % 2 == 0 {
            own.div_ceil(2)
        } else {
            own / 2
        };
        match side {
            Player::First => first,
            Player::Second => own - first,
        }
    }
}

#[cfg(test)]
impl GameRecord {
    /// A Connect Four 7×6 game of `first` against `second` for unit tests, pair 1, id `g`, whose moves
    /// give `result` ([`crate::results::verify`]): a win in column 4 by the winner (7 or 8 plies), a draw
    /// adjudicated before any move.
    pub(crate) fn example(first: &str, second: &str, result: GameResult) -> GameRecord {
        let (moves, termination): (&[&str], _) = match result {
            GameResult::FirstWins => (&["4", "5", "4", "5", "4", "5", "4"], Termination::Normal),
            GameResult::SecondWins => (
                &["1", "4", "1", "4", "2", "4", "2", "4"],
                Termination::Normal,
            ),
            GameResult::Draw => (&[], Termination::Adjudicated),
        };
        GameRecord {
            id: "g".into(),
            round: 1,
            pair: 1,
            game: "connect4".into(),
            variant: "7 6".into(),
            first: first.into(),
            second: second.into(),
            result,
            termination,
            detail: String::new(),
            plies: moves.len() as u32,
            score: None,
            time_ms: [0, 0],
            time_control: ["1000+0".into(), "1000+0".into()],
            move_ms: vec![],
            opening: vec![],
            setup: Setup::default(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            seed: 1,
            date: String::new(),
        }
    }
}

/// One row of `games.csv`: the flat, documented form of a [`GameRecord`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub id: String,
    pub round: u32,
    pub pair: u32,
    pub game: String,
    pub variant: String,
    pub first: String,
    pub second: String,
    pub result: String,
    pub termination: String,
    pub detail: String,
    pub plies: u32,
    pub score_first: Option<u32>,
    pub score_second: Option<u32>,
    pub time_first_ms: u64,
    pub time_second_ms: u64,
    /// Space-separated.
    pub opening: String,
    /// Space-separated.
    pub moves: String,
    pub seed: u64,
    /// The first player's time control (`10000+100`, ms).
    #[serde(default)]
    pub tc_first: String,
    /// The second player's time control.
    #[serde(default)]
    pub tc_second: String,
    /// Space-separated ms per ply after the opening.
    #[serde(default)]
    pub move_ms: String,
    /// Dots setup dots ([`Setup`]'s text: `first 12-22 … second 12-21 …`); empty for none.
    #[serde(default)]
    pub setup: String,
    /// When the game ended, UTC, RFC 3339.
    #[serde(default)]
    pub date: String,
}

impl GameRow {
    /// The column names of `games.csv`, in order (its header line).
    pub const HEADER: [&'static str; 23] = [
        "id",
        "round",
        "pair",
        "game",
        "variant",
        "first",
        "second",
        "result",
        "termination",
        "detail",
        "plies",
        "score_first",
        "score_second",
        "time_first_ms",
        "time_second_ms",
        "opening",
        "moves",
        "seed",
        "tc_first",
        "tc_second",
        "move_ms",
        "setup",
        "date",
    ];
}

impl From<&GameRecord> for GameRow {
    fn from(r: &GameRecord) -> GameRow {
        GameRow {
            id: r.id.clone(),
            round: r.round,
            pair: r.pair,
            game: r.game.clone(),
            variant: r.variant.clone(),
            first: r.first.clone(),
            second: r.second.clone(),
            result: r.result.to_string(),
            termination: r.termination.to_string(),
            detail: r.detail.clone(),
            plies: r.plies,
            score_first: r.score.map(|s| s[0]),
            score_second: r.score.map(|s| s[1]),
            time_first_ms: r.time_ms[0],
            time_second_ms: r.time_ms[1],
            opening: r.opening.join(" "),
            moves: r.moves.join(" "),
            seed: r.seed,
            tc_first: r.time_control[0].clone(),
            tc_second: r.time_control[1].clone(),
            move_ms: r
                .move_ms
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            setup: r.setup.to_string(),
            date: r.date.clone(),
        }
    }
}

impl TryFrom<GameRow> for GameRecord {
    type Error = String;
    fn try_from(r: GameRow) -> Result<GameRecord, String> {
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let score = match (r.score_first, r.score_second) {
            (Some(a), Some(b)) => Some([a, b]),
            (None, None) => None,
            _ => return Err(format!("{}: only one score", r.id)),
        };
        let move_ms = r
            .move_ms
            .split_whitespace()
            .map(|w| w.parse::<u64>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: move_ms: {e}", r.id))?;
        let setup = r
            .setup
            .parse::<Setup>()
            .map_err(|e| format!("{}: {e}", r.id))?;
        Ok(GameRecord {
            setup,
            date: r.date,
            time_control: [r.tc_first, r.tc_second],
            move_ms,
            result: r.result.parse()?,
            termination: r.termination.parse()?,
            opening: words(&r.opening),
            moves: words(&r.moves),
            score,
            time_ms: [r.time_first_ms, r.time_second_ms],
            id: r.id,
            round: r.round,
            pair: r.pair,
            game: r.game,
            variant: r.variant,
            first: r.first,
            second: r.second,
            detail: r.detail,
            plies: r.plies,
            seed: r.seed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_constant_is_the_order_rows_are_written_in() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(GameRow::from(&GameRecord::example(
            "a",
            "b",
            GameResult::Draw,
        )))
        .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), GameRow::HEADER.join(","));
    }

    #[test]
    fn rows_written_before_the_time_columns_still_read() {
        let old =
            "id,round,pair,game,variant,first,second,result,termination,detail,plies,score_first,\
                   score_second,time_first_ms,time_second_ms,opening,moves,seed\n\
                   g0001,1,1,connect4,7 6,a,b,1-0,normal,,7,,,3,4,,4 4 4 3 4 2 4,9\n";
        let mut r = csv::Reader::from_reader(old.as_bytes());
        let row: GameRow = r.deserialize().next().unwrap().unwrap();
        let record = GameRecord::try_from(row).unwrap();
        assert_eq!(record.moves.len(), 7);
        assert_eq!(record.time_control, [String::new(), String::new()]);
        assert!(record.move_ms.is_empty());
        assert!(record.setup.is_empty() && record.date.is_empty());
        // And a row of today keeps its per-move times through the round trip.
        let mut g = GameRecord::example("a", "b", GameResult::Draw);
        g.move_ms = vec![3, 0, 17];
        g.setup = "first 1-1 second 2-2 3-3".parse().unwrap();
        g.date = "2025-03-01T17:04:05Z".into();
        let back = GameRecord::try_from(GameRow::from(&g)).unwrap();
        assert_eq!(back, g);
    }

    #[test]
    fn move_evals_read_as_cutechess_writes_them() {
        let e = |score, depth| MoveEval { score, depth }.to_string();
        assert_eq!(e(Score::Cp(32), Some(10)), "+0.32/10");
        assert_eq!(e(Score::Cp(-105), Some(7)), "-1.05/7");
        assert_eq!(e(Score::Cp(0), Some(3)), "0.00/3");
        assert_eq!(e(Score::Cp(-5), None), "-0.05");
        assert_eq!(e(Score::Cp(12345), Some(1)), "+123.45/1");
        assert_eq!(e(Score::Mate(3), Some(12)), "+M3/12");
        assert_eq!(e(Score::Mate(-2), None), "-M2");
        assert_eq!(e(Score::Units(12), Some(6)), "+12/6");
        assert_eq!(e(Score::Units(-3), Some(2)), "-3/2");
        assert_eq!(e(Score::Units(0), None), "0");
    }

    #[test]
    fn each_side_moved_its_half_of_the_plies_after_the_opening() {
        let mut r = GameRecord::example("a", "b", GameResult::FirstWins);
        let by = |r: &GameRecord| (r.moves_by(Player::First), r.moves_by(Player::Second));
        r.plies = 7;
        assert_eq!(by(&r), (4, 3));
        // One opening ply: the second player moves first after it.
        r.opening = vec!["4".into()];
        assert_eq!(by(&r), (3, 3));
        r.plies = 8;
        assert_eq!(by(&r), (3, 4));
        r.opening = vec!["4".into(), "4".into()];
        assert_eq!(by(&r), (3, 3));
        // A game that ended inside its opening (no such game is scheduled, but the sum never underflows).
        r.plies = 1;
        assert_eq!(by(&r), (0, 0));
    }
}
