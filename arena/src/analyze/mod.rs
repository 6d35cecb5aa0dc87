//! `arena analyze`: every move of a solvable game judged by its effect on the game-theoretic value.
//!
//! For each game of a results folder, each position before a move gets its value for the side to
//! move (win, draw or loss under perfect play), and each move the value it leaves its mover. A move is
//! *value-losing* when it leaves less than the position offered: a win thrown away (a won position
//! left drawn or lost) or a draw thrown away (a drawn position left lost). Moves of the opening are
//! not the bots' and are not counted, but they are solved, since they give the value of the first
//! position a bot faces.
//!
//! Solvable games:
//! - tic-tac-toe, any size: full negamax over the `games` crate's rules, memoized by board
//!   ([`tictactoe`]);
//! - Connect Four 7 × 6: the project's exact solver (`bots::c4_solver`, as `arena solve connect4`),
//!   weak null-window searches of each move ([`connect4`]).
//!
//! Each search stops after [`AnalyzeOptions::nodes`] nodes; a move whose value (or whose position's
//! value) was not proved within that cap is counted as *unsolved*, never guessed.
//!
//! Value lost among unsolved moves still shows in the result: a bot's moves can only keep or lower its
//! value and its opponent's only keep or raise it, so a game whose result is worse for a bot than the
//! first value proved after the opening ([`GameAnalysis::start_value`]) had a value-losing move of that
//! bot after that point, proved or not (a forfeit counts: it throws the value away too). These games
//! are counted per bot ([`BotAccuracy::games_below_start`]); the count is a lower bound, since value
//! thrown away and given back does not show in the result.
//!
//! ```
//! use arena::analyze::Value;
//! assert_eq!(-Value::Win, Value::Loss);
//! assert!(Value::Draw > Value::Loss);
//! ```

pub mod connect4;
pub mod judge;
pub mod tictactoe;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::record::{GameRecord, GameResult, Termination};

/// A game-theoretic value from one player's point of view; ordered Loss < Draw < Win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl std::ops::Neg for Value {
    type Output = Value;

    /// The same outcome from the other player's point of view.
    fn neg(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }
}

impl Value {
    /// `win`, `draw` or `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }
}

/// How hard to try.
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeOptions {
    /// Nodes per search (one position's value, or one move's), before the move counts as unsolved.
    pub nodes: u64,
}

/// Default node cap per search: at about 10–20 million nodes a second in a release build, at most
/// a few tenths of a second per unsolved Connect Four move.
pub const DEFAULT_NODES: u64 = 2_000_000;

impl Default for AnalyzeOptions {
    fn default() -> AnalyzeOptions {
        AnalyzeOptions {
            nodes: DEFAULT_NODES,
        }
    }
}

/// The values around one ply, from its mover's point of view; `None`: not proved within the cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyValues {
    /// The value of the position before the move.
    pub before: Option<Value>,
    /// The value the move leaves its mover.
    pub after: Option<Value>,
}

impl PlyValues {
    /// `Some(true)` when the move loses value, `Some(false)` when it keeps it, `None` when unsolved.
    /// A move that reaches a win keeps the value whatever the position was worth.
    pub fn loses_value(&self) -> Option<bool> {
        match (self.before, self.after) {
            (_, Some(Value::Win)) => Some(false),
            (Some(b), Some(a)) => Some(a < b),
            _ => None,
        }
    }
}

/// A recorded game's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameValues {
    /// The value of the game's first position (before any move, the opening's included) for the
    /// first player; `None`: not proved within the cap.
    pub start: Option<Value>,
    /// One entry per move of the record, from each mover's point of view.
    pub plies: Vec<PlyValues>,
}

/// Something that gives the values of a recorded game: its first position's and every ply's.
pub trait Oracle {
    /// The values of `record` (see [`GameValues`]); the first position is valued even when the
    /// record has no move (a bot that crashed at once).
    ///
    /// # Errors
    /// A record whose moves cannot be replayed by the rules.
    fn game_values(&mut self, record: &GameRecord) -> Result<GameValues>;
}

/// One game's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub id: String,
    pub first: String,
    pub second: String,
    /// `1-0`, `0-1` or `1/2-1/2`, as in games.csv.
    pub result: String,
    /// Plies of the opening, not counted.
    pub opening_plies: usize,
    /// The moves as recorded, the opening's included (one per entry of [`Self::plies`]).
    pub moves: Vec<String>,
    /// Every ply's values (the opening's included).
    pub plies: Vec<PlyValues>,
    /// The first value-losing bot move: its 1-based ply number (as `arena replay` numbers plies).
    pub first_losing_ply: Option<usize>,
    /// The first value proved from the end of the opening on, for the first player: the value of the
    /// position the bots start from when that is proved, else of the first later one that is.
    pub start_value: Option<Value>,
    /// The side (0: first, 1: second) whose result is worse than its [`Self::start_value`], if any.
    pub below_start: Option<usize>,
}

impl GameAnalysis {
    /// The name of the bot that made ply `ply` (1-based).
    pub fn mover(&self, ply: usize) -> &str {
        if ply % 2 == 1 {
            &self.first
        } else {
            &self.second
        }
    }

    /// The 1-based plies of the bots' value-losing moves (the opening's excluded), in order.
    pub fn value_losing_plies(&self) -> impl Iterator<Item = usize> + '_ {
        self.plies
            .iter()
            .enumerate()
            .skip(self.opening_plies)
            .filter(|(_, v)| v.loses_value() == Some(true))
            .map(|(k, _)| k + 1)
    }
}

/// One bot's accuracy over every game it played; move counts exclude openings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotAccuracy {
    pub bot: String,
    /// Moves the bot made.
    pub moves: u64,
    /// Moves whose effect was not proved within the node cap.
    pub unsolved: u64,
    /// Moves that left a won position drawn or lost.
    pub wins_thrown: u64,
    /// Moves that left a drawn position lost.
    pub draws_thrown: u64,
    /// Games in which it made at least one value-losing move.
    pub games_with_loss: u64,
    /// Games whose result is worse for it than the first value proved after the opening: it lost value
    /// in them, in moves proved or not ([`GameAnalysis::below_start`]).
    pub games_below_start: u64,
    pub games: u64,
}

impl BotAccuracy {
    /// Moves that lost value: wins and draws thrown away.
    pub fn value_losing(&self) -> u64 {
        self.wins_thrown + self.draws_thrown
    }

    /// Moves whose effect was proved.
    pub fn solved(&self) -> u64 {
        self.moves - self.unsolved
    }

    /// Value-losing moves as a share of the solved moves, 0–1; `None` with none solved.
    pub fn losing_share(&self) -> Option<f64> {
        (self.solved() > 0).then(|| self.value_losing() as f64 / self.solved() as f64)
    }
}

/// The analysis of a results folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// `tictactoe 3 3 3`, `connect4 7 6`.
    pub game: String,
    pub games: Vec<GameAnalysis>,
    /// Sorted by name.
    pub bots: Vec<BotAccuracy>,
    pub options: AnalyzeOptions,
}

impl PartialEq for AnalyzeOptions {
    fn eq(&self, other: &AnalyzeOptions) -> bool {
        self.nodes == other.nodes
    }
}

/// Analyzes `records` (all of one game and variant), in the order given.
///
/// # Errors
/// Games that cannot be solved (Dots, Connect Four other than 7 × 6), records of mixed games, and
/// records whose moves do not replay.
pub fn analyze(records: &[GameRecord], options: AnalyzeOptions) -> Result<Analysis> {
    let Some(first) = records.first() else {
        return Ok(Analysis {
            game: String::new(),
            games: Vec::new(),
            bots: Vec::new(),
            options,
        });
    };
    let game = format!("{} {}", first.game, first.variant);
    if let Some(r) = records
        .iter()
        .find(|r| (&r.game, &r.variant) != (&first.game, &first.variant))
    {
        bail!(
            "game {} is {} {}, game {} is {game}: analyze one game and variant at a time",
            r.id,
            r.game,
            r.variant,
            first.id
        );
    }
    let spec: games::GameSpec = game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    // The games a solver exists for: the solvers are engines (`bots`), so they are found here, by the
    // game's variant type, not declared in the game's folder.
    let mut oracle: Box<dyn Oracle> = if spec
        .variant_of::<games::tictactoe::TicTacToeVariant>()
        .is_some()
    {
        Box::new(tictactoe::TicTacToeOracle::new(&first.variant, options)?)
    } else if spec
        .variant_of::<games::connect4::Connect4Variant>()
        .is_some()
    {
        Box::new(connect4::Connect4Oracle::new(&first.variant, options)?)
    } else {
        bail!(
            "analysis is not available for {}: arena analyze solves tic-tac-toe and Connect Four 7 × 6",
            spec.kind()
        )
    };
    let mut games = Vec::with_capacity(records.len());
    let mut bots: BTreeMap<String, BotAccuracy> = BTreeMap::new();
    for r in records {
        let GameValues { start, plies } = oracle
            .game_values(r)
            .with_context(|| format!("analyzing game {}", r.id))?;
        let opening = r.opening.len().min(plies.len());
        let mut g = GameAnalysis {
            id: r.id.clone(),
            first: r.first.clone(),
            second: r.second.clone(),
            result: r.result.to_string(),
            opening_plies: opening,
            moves: r.moves.clone(),
            first_losing_ply: None,
            start_value: start_value(start, &plies, opening),
            below_start: None,
            plies,
        };
        let result = match r.result {
            GameResult::FirstWins => Value::Win,
            GameResult::Draw => Value::Draw,
            GameResult::SecondWins => Value::Loss,
        };
        // A game adjudicated at the ply limit has no game-theoretic result to compare.
        g.below_start = match g.start_value {
            _ if r.termination == Termination::Adjudicated => None,
            Some(v) if result < v => Some(0),
            Some(v) if result > v => Some(1),
            _ => None,
        };
        let mut lost_in_game: [bool; 2] = [false, false];
        for (k, v) in g.plies.iter().enumerate().skip(opening) {
            let ply = k + 1;
            let name = g.mover(ply).to_string();
            let acc = bots.entry(name.clone()).or_insert_with(|| BotAccuracy {
                bot: name,
                ..BotAccuracy::default()
            });
            acc.moves += 1;
            match v.loses_value() {
                None => acc.unsolved += 1,
                Some(false) => {}
                Some(true) => {
                    if v.before == Some(Value::Win) {
                        acc.wins_thrown += 1;
                    } else {
                        acc.draws_thrown += 1;
                    }
                    lost_in_game[k % 2] = true;
                    g.first_losing_ply.get_or_insert(ply);
                }
            }
        }
        for (side, name) in [&g.first, &g.second].into_iter().enumerate() {
            let acc = bots.entry(name.clone()).or_insert_with(|| BotAccuracy {
                bot: name.clone(),
                ..BotAccuracy::default()
            });
            acc.games += 1;
            acc.games_with_loss += u64::from(lost_in_game[side]);
            acc.games_below_start += u64::from(g.below_start == Some(side));
        }
        games.push(g);
    }
    Ok(Analysis {
        game,
        games,
        bots: bots.into_values().collect(),
        options,
    })
}

/// The value of the position the bots start from, for the first player: the first position's
/// (`start`) with no opening, else what the opening's last ply left; when that is not proved, the
/// first value proved after it (each ply's value before the move, then after it, turned to the first
/// player's point of view).
fn start_value(start: Option<Value>, plies: &[PlyValues], opening: usize) -> Option<Value> {
    let for_first = |k: usize, x: Value| if k.is_multiple_of(2) { x } else { -x };
    let at_start = match opening {
        0 => start,
        n => plies
            .get(n - 1)
            .and_then(|v| v.after)
            .map(|x| for_first(n - 1, x)),
    };
    at_start.or_else(|| {
        plies
            .iter()
            .enumerate()
            .skip(opening)
            .find_map(|(k, v)| v.before.or(v.after).map(|x| for_first(k, x)))
    })
}

fn value_text(v: Option<Value>) -> &'static str {
    v.map_or("?", Value::as_str)
}

impl Analysis {
    /// The per-bot table, and a line on the games with a value-losing move.
    pub fn table(&self) -> String {
        let w = self
            .bots
            .iter()
            .map(|b| b.bot.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut out = format!(
            "{:<w$}  {:>6}  {:>8}  {:>12}  {:>11}  {:>11}  {:>8}  {:>12}  {:>11}\n",
            "bot",
            "moves",
            "unsolved",
            "value-losing",
            "wins thrown",
            "draws thrown",
            "share",
            "games w/ loss",
            "below start"
        );
        for b in &self.bots {
            let share = b
                .losing_share()
                .map_or("-".to_string(), |s| format!("{:.2}%", 100.0 * s));
            let _ = writeln!(
                out,
                "{:<w$}  {:>6}  {:>8}  {:>12}  {:>11}  {:>11}  {:>8}  {:>12}  {:>11}",
                b.bot,
                b.moves,
                b.unsolved,
                b.value_losing(),
                b.wins_thrown,
                b.draws_thrown,
                share,
                format!("{}/{}", b.games_with_loss, b.games),
                format!("{}/{}", b.games_below_start, b.games)
            );
        }
        let with_loss = self
            .games
            .iter()
            .filter(|g| g.first_losing_ply.is_some())
            .count();
        let _ = writeln!(
            out,
            "\n{} of {} games have a value-losing move (share: of the moves proved; a search stops \
             after {} nodes and leaves the move unsolved); below start: games whose result is worse for \
             the bot than the first value proved after the opening, so it lost value, in moves proved or not",
            with_loss,
            self.games.len(),
            self.options.nodes
        );
        if let Some(g) = self
            .games
            .iter()
            .filter(|g| g.first_losing_ply.is_some())
            .min_by_key(|g| g.first_losing_ply)
        {
            let ply = g.first_losing_ply.expect("filtered");
            let v = g.plies[ply - 1];
            let _ = writeln!(
                out,
                "earliest: game {} ply {} by {} ({} → {})",
                g.id,
                ply,
                g.mover(ply),
                value_text(v.before),
                value_text(v.after)
            );
        }
        out
    }

    /// Writes `analysis.csv` (one row per bot: bot, games, moves, unsolved, value_losing, wins_thrown,
    /// draws_thrown, losing_share — of the solved moves, 0–1, empty with none — games_with_loss and
    /// games_below_start) and `analysis-games.csv` (one row per game: id, first, second, result,
    /// opening_plies, plies, unsolved, first_losing_ply — empty without one — its mover, the values
    /// before and after it, start_value — for the first player, empty when none was proved — and
    /// below_start_bot, the bot whose result is worse than that, empty for none) and
    /// `analysis-moves.csv` (one row per value-losing bot move, in game order: id, ply — 1-based —
    /// bot, move — as recorded — value_before and value_after, for the mover).
    ///
    /// # Errors
    /// Write errors, with the path.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join("analysis.csv");
        let mut w =
            csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
        w.write_record([
            "bot",
            "games",
            "moves",
            "unsolved",
            "value_losing",
            "wins_thrown",
            "draws_thrown",
            "losing_share",
            "games_with_loss",
            "games_below_start",
        ])?;
        for b in &self.bots {
            w.write_record([
                b.bot.clone(),
                b.games.to_string(),
                b.moves.to_string(),
                b.unsolved.to_string(),
                b.value_losing().to_string(),
                b.wins_thrown.to_string(),
                b.draws_thrown.to_string(),
                b.losing_share()
                    .map(|s| format!("{s:.6}"))
                    .unwrap_or_default(),
                b.games_with_loss.to_string(),
                b.games_below_start.to_string(),
            ])?;
        }
        w.flush()
            .with_context(|| format!("writing {}", path.display()))?;
        let path = dir.join("analysis-games.csv");
        let mut w =
            csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
        w.write_record([
            "id",
            "first",
            "second",
            "result",
            "opening_plies",
            "plies",
            "unsolved",
            "first_losing_ply",
            "first_losing_bot",
            "value_before",
            "value_after",
            "start_value",
            "below_start_bot",
        ])?;
        for g in &self.games {
            let unsolved = g
                .plies
                .iter()
                .skip(g.opening_plies)
                .filter(|v| v.loses_value().is_none())
                .count();
            let (ply, bot, before, after) = match g.first_losing_ply {
                Some(p) => (
                    p.to_string(),
                    g.mover(p).to_string(),
                    value_text(g.plies[p - 1].before),
                    value_text(g.plies[p - 1].after),
                ),
                None => (String::new(), String::new(), "", ""),
            };
            w.write_record([
                g.id.clone(),
                g.first.clone(),
                g.second.clone(),
                g.result.clone(),
                g.opening_plies.to_string(),
                g.plies.len().to_string(),
                unsolved.to_string(),
                ply,
                bot,
                before.to_string(),
                after.to_string(),
                g.start_value.map_or("", Value::as_str).to_string(),
                match g.below_start {
                    Some(0) => g.first.clone(),
                    Some(_) => g.second.clone(),
                    None => String::new(),
                },
            ])?;
        }
        w.flush()
            .with_context(|| format!("writing {}", path.display()))?;
        let path = dir.join("analysis-moves.csv");
        let mut w =
            csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
        w.write_record(["id", "ply", "bot", "move", "value_before", "value_after"])?;
        for g in &self.games {
            for ply in g.value_losing_plies() {
                let v = g.plies[ply - 1];
                w.write_record([
                    g.id.as_str(),
                    &ply.to_string(),
                    g.mover(ply),
                    g.moves.get(ply - 1).map_or("", String::as_str),
                    value_text(v.before),
                    value_text(v.after),
                ])?;
            }
        }
        w.flush()
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }
}

/// The plies' values from the start position's value and each move's value for its mover: the
/// position before ply k+1 is worth to its mover what ply k left the opponent, negated.
pub(crate) fn chain(start: Option<Value>, after: Vec<Option<Value>>) -> Vec<PlyValues> {
    let mut before = start;
    after
        .into_iter()
        .map(|a| {
            let v = PlyValues { before, after: a };
            before = a.map(|v| -v);
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_loses_value_only_when_it_leaves_less() {
        let p = |b, a| PlyValues {
            before: b,
            after: a,
        };
        use Value::*;
        assert_eq!(p(Some(Win), Some(Draw)).loses_value(), Some(true));
        assert_eq!(p(Some(Draw), Some(Loss)).loses_value(), Some(true));
        assert_eq!(p(Some(Loss), Some(Loss)).loses_value(), Some(false));
        assert_eq!(p(None, Some(Win)).loses_value(), Some(false));
        assert_eq!(p(None, Some(Draw)).loses_value(), None);
        assert_eq!(p(Some(Draw), None).loses_value(), None);
    }

    #[test]
    fn unsolvable_and_mixed_games_are_refused() {
        use crate::record::GameResult;
        let mut dots = GameRecord::example("a", "b", GameResult::Draw);
        (dots.game, dots.variant) = ("dots".into(), "20 20 cross".into());
        let err = analyze(&[dots], AnalyzeOptions::default()).unwrap_err();
        assert!(
            err.to_string()
                .contains("analysis is not available for dots"),
            "{err}"
        );
        let mut big = GameRecord::example("a", "b", GameResult::Draw);
        big.variant = "8 7".into();
        assert!(analyze(&[big], AnalyzeOptions::default()).is_err());
        let c4 = GameRecord::example("a", "b", GameResult::Draw);
        let mut ttt = GameRecord::example("a", "b", GameResult::Draw);
        (ttt.game, ttt.variant) = ("tictactoe".into(), "3 3 3".into());
        let err = analyze(&[c4, ttt], AnalyzeOptions::default()).unwrap_err();
        assert!(err.to_string().contains("one game and variant"), "{err}");
        assert!(analyze(&[], AnalyzeOptions::default())
            .unwrap()
            .games
            .is_empty());
    }

    #[test]
    fn chain_negates_between_plies() {
        use Value::*;
        let v = chain(Some(Draw), vec![Some(Draw), Some(Loss), None, Some(Win)]);
        assert_eq!(v[1].before, Some(Draw));
        assert_eq!(v[2].before, Some(Win));
        assert_eq!(v[3].before, None);
    }
}
