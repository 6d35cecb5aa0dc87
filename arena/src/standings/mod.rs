//! Standings: points, wins, draws, losses and forfeits per bot, from game records alone.

use std::fmt::Write as _;
use std::path::Path;

pub mod crosstable;
pub mod head_to_head;
pub mod tiebreak;

use anyhow::{Context, Result};
use games::Player;

use crate::record::{GameRecord, GameResult, Termination};
use crate::stats::elo::signed;
use crate::stats::ratings::Bound;

/// One bot's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based; bots with equal points, wins and capture difference share a rank.
    pub rank: usize,
    pub bot: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Win 1, draw ½.
    pub points: f64,
    /// Games lost by forfeit, by kind, in the order of [`Termination::FORFEITS`] (timeout, crash,
    /// illegal, protocol, limit).
    pub forfeits: [u32; 5],
    /// Own score minus the opponents' over all games, in a game that keeps a score ([`games::Game::score`]:
    /// Dots' captured dots, Kalah's stores); `None` for other games.
    pub capture_diff: Option<i64>,
    /// Time spent on its moves over all games, ms (as each game's clock charged it).
    pub time_ms: u64,
    /// Moves it made over all games, the openings' plies excluded ([`GameRecord::moves_by`]).
    pub moves: u32,
    /// The bot's Elo rating and its 95% interval, when computed (see [`crate::report`]).
    pub rating: Option<Rating>,
}

/// An Elo rating with its 95% interval (Elo units; the scale's zero is the mean or the anchor bot).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    /// Lower end of the 95% interval; −∞ for a bot that lost every point.
    pub low: f64,
    /// Upper end of the 95% interval; +∞ for a bot that won every point.
    pub high: f64,
    /// `Some` when the bot scored 100 % or 0 %: `elo` is then only where the prior stops the fit, and
    /// the rating is a bound ([`crate::stats::ratings::Bound`]).
    pub bound: Option<Bound>,
}

impl Standing {
    /// Mean time per move, ms: [`Standing::time_ms`] over [`Standing::moves`]; `None` with no moves.
    /// A move that forfeited on time is charged but not counted, so a bot that times out shows more.
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.time_ms as f64 / f64::from(self.moves))
    }

    /// Points as a percentage of games, 0–100 (0 with no games).
    pub fn score_pct(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * self.points / self.games as f64
        }
    }
}

/// Standings of `bots` over `records`, best first: by points, then wins, then capture difference, then name.
pub fn standings(bots: &[String], records: &[GameRecord]) -> Vec<Standing> {
    let dots = records.iter().any(|r| r.score.is_some());
    let mut rows: Vec<Standing> = bots
        .iter()
        .map(|b| Standing {
            rank: 0,
            bot: b.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            points: 0.0,
            forfeits: [0; 5],
            capture_diff: dots.then_some(0),
            time_ms: 0,
            moves: 0,
            rating: None,
        })
        .collect();
    // A voided game (its game module failed) counts for nobody.
    for r in records.iter().filter(|r| r.termination.counts()) {
        for (side, name) in [(Player::First, &r.first), (Player::Second, &r.second)] {
            let Some(row) = rows.iter_mut().find(|s| s.bot == *name) else {
                continue;
            };
            row.games += 1;
            row.points += r.result.points(side);
            row.time_ms += r.time_ms[side.index()];
            row.moves += r.moves_by(side);
            match (r.result, side) {
                (GameResult::Draw, _) => row.draws += 1,
                (GameResult::FirstWins, Player::First)
                | (GameResult::SecondWins, Player::Second) => row.wins += 1,
                _ => {
                    row.losses += 1;
                    if let Some(k) = Termination::FORFEITS
                        .iter()
                        .position(|t| *t == r.termination)
                    {
                        row.forfeits[k] += 1;
                    }
                }
            }
            if let (Some(diff), Some([a, b])) = (row.capture_diff.as_mut(), r.score) {
                let (own, theirs) = if side == Player::First {
                    (a, b)
                } else {
                    (b, a)
                };
                *diff += own as i64 - theirs as i64;
            }
        }
    }
    let key = |s: &Standing| {
        (
            -(s.points * 2.0) as i64,
            -(s.wins as i64),
            -s.capture_diff.unwrap_or(0),
        )
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.bot.cmp(&b.bot)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

/// Writes `standings.csv`: rank, bot, games, wins, draws, losses, points, score_pct, forfeits by kind,
/// capture_diff (empty outside Dots), ms_per_move (empty with no moves), and elo, elo_low, elo_high
/// (empty when not rated; `inf`/`-inf` for the open end of a bound) and elo_bound (`lower` for a 100 %
/// score, `upper` for 0 %, else empty).
///
/// # Errors
/// Write errors, with the path.
pub fn write_csv(path: &Path, rows: &[Standing]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "rank",
        "bot",
        "games",
        "wins",
        "draws",
        "losses",
        "points",
        "score_pct",
        "forfeits_timeout",
        "forfeits_crash",
        "forfeits_illegal",
        "forfeits_protocol",
        "forfeits_limit",
        "capture_diff",
        "ms_per_move",
        "elo",
        "elo_low",
        "elo_high",
        "elo_bound",
    ])?;
    for s in rows {
        let mut rec = vec![
            s.rank.to_string(),
            s.bot.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            format!("{}", s.points),
            format!("{:.1}", s.score_pct()),
        ];
        rec.extend(s.forfeits.iter().map(u32::to_string));
        rec.push(s.capture_diff.map(|d| d.to_string()).unwrap_or_default());
        rec.push(
            s.ms_per_move()
                .map(|t| format!("{t:.1}"))
                .unwrap_or_default(),
        );
        match s.rating {
            Some(r) => {
                rec.extend([r.elo, r.low, r.high].map(|x| format!("{:.1}", tenths(x))));
                rec.push(
                    match r.bound {
                        Some(Bound::Lower) => "lower",
                        Some(Bound::Upper) => "upper",
                        None => "",
                    }
                    .to_string(),
                );
            }
            None => rec.extend([String::new(), String::new(), String::new(), String::new()]),
        }
        w.write_record(&rec)?;
    }
    w.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// `x` rounded to 0.1, with a negative zero (−0.04 rounds to it) made +0, so files never say `-0.0`.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// The standings as an aligned text table for the console.
pub fn table(rows: &[Standing]) -> String {
    let width = rows.iter().map(|s| s.bot.len()).max().unwrap_or(3).max(3);
    let dots = rows.iter().any(|s| s.capture_diff.is_some());
    let mut out = format!(
        "{:>4}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>6}  {:>19}",
        "rank", "bot", "games", "won", "drew", "lost", "points", "score", "forfeits t/c/i/p/l"
    );
    if dots {
        // Own score minus the opponents' (Dots: captured dots; Kalah: seeds in the stores).
        let _ = write!(out, "  {:>10}", "score±");
    }
    out.push_str("  ms/move");
    let rated = rows.iter().any(|s| s.rating.is_some());
    if rated {
        out.push_str("     Elo   (95% interval)");
    }
    out.push('\n');
    for s in rows {
        let f = s.forfeits;
        let _ = write!(
            out,
            "{:>4}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>5.1}%  {:>19}",
            s.rank,
            s.bot,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.points,
            s.score_pct(),
            format!("{}/{}/{}/{}/{}", f[0], f[1], f[2], f[3], f[4])
        );
        if let Some(d) = s.capture_diff {
            let _ = write!(out, "  {d:>+10}");
        }
        match s.ms_per_move() {
            Some(t) => {
                let _ = write!(out, "  {t:>7.1}");
            }
            None => out.push_str("        -"),
        }
        match s.rating {
            Some(r) => {
                let [elo, low, high] = [r.elo, r.low, r.high].map(|x| signed(x, 0));
                let flag = if r.bound.is_some() { "*" } else { " " };
                let _ = write!(out, "  {elo:>6}{flag} ({low}, {high})");
            }
            None if rated => out.push_str("       -"),
            None => {}
        }
        out.push('\n');
    }
    for note in rows.iter().filter_map(bound_note) {
        let _ = writeln!(out, "* {note}");
    }
    out
}

/// What the `*` of a bound rating means, for a bot that won or lost every point (`None` for the
/// others): the console's standings and `report.html` print it under the table.
pub fn bound_note(s: &Standing) -> Option<String> {
    let r = s.rating?;
    Some(match r.bound? {
        Bound::Lower => format!(
            "{} won every point (100 %): no finite rating fits its games, so its Elo is only where the \
             prior stops the fit; read it as at least {} (95%), with no upper limit.",
            s.bot,
            signed(r.low, 0)
        ),
        Bound::Upper => format!(
            "{} lost every point (0 %): no finite rating fits its games, so its Elo is only where the \
             prior stops the fit; read it as at most {} (95%), with no lower limit.",
            s.bot,
            signed(r.high, 0)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(
        first: &str,
        second: &str,
        result: GameResult,
        termination: Termination,
        score: Option<[u32; 2]>,
    ) -> GameRecord {
        GameRecord {
            termination,
            score,
            ..GameRecord::example(first, second, result)
        }
    }

    #[test]
    fn ratings_print_no_negative_zero() {
        let shown = |x: f64| format!("{:.1}", tenths(x));
        assert_eq!(shown(-0.0), "0.0");
        assert_eq!(shown(-0.04), "0.0");
        assert_eq!(shown(-0.06), "-0.1");
        assert_eq!(shown(137.64), "137.6");
    }

    #[test]
    fn points_forfeits_and_capture_difference_add_up() {
        let bots = ["a".to_string(), "b".to_string(), "c".to_string()];
        let records = vec![
            game(
                "a",
                "b",
                GameResult::FirstWins,
                Termination::Normal,
                Some([5, 1]),
            ),
            game(
                "b",
                "a",
                GameResult::Draw,
                Termination::Normal,
                Some([2, 2]),
            ),
            game(
                "c",
                "a",
                GameResult::FirstWins,
                Termination::Timeout,
                Some([0, 3]),
            ),
            game(
                "b",
                "c",
                GameResult::SecondWins,
                Termination::Illegal,
                Some([0, 0]),
            ),
        ];
        let s = standings(&bots, &records);
        let a = s.iter().find(|x| x.bot == "a").unwrap();
        assert_eq!(
            (a.games, a.wins, a.draws, a.losses, a.points),
            (3, 1, 1, 1, 1.5)
        );
        assert_eq!(a.forfeits, [1, 0, 0, 0, 0]);
        assert_eq!(a.capture_diff, Some(4 + 3));
        let b = s.iter().find(|x| x.bot == "b").unwrap();
        assert_eq!(b.forfeits, [0, 0, 1, 0, 0]);
        assert_eq!(s[0].bot, "c");
        assert_eq!(s[0].rank, 1);
        assert_eq!((s[1].bot.as_str(), s[1].rank), ("a", 2));
    }

    #[test]
    fn time_per_move_is_the_clock_time_over_the_moves_made() {
        let bots = ["x".to_string(), "y".to_string()];
        let mut g1 = game("x", "y", GameResult::FirstWins, Termination::Normal, None);
        (g1.plies, g1.time_ms) = (7, [400, 30]);
        let mut g2 = game("y", "x", GameResult::Draw, Termination::Normal, None);
        (g2.plies, g2.time_ms) = (9, [50, 200]);
        let s = standings(&bots, &[g1, g2]);
        let x = s.iter().find(|r| r.bot == "x").unwrap();
        // x: 4 moves first (400 ms), 4 moves second (200 ms).
        assert_eq!((x.time_ms, x.moves), (600, 8));
        assert_eq!(x.ms_per_move(), Some(75.0));
        let y = s.iter().find(|r| r.bot == "y").unwrap();
        assert_eq!((y.time_ms, y.moves), (80, 8));
        assert!(table(&s).contains("     75.0"), "{}", table(&s));
        let none = standings(&bots, &[]);
        assert_eq!(none[0].ms_per_move(), None);
    }

    #[test]
    fn equal_bots_share_a_rank() {
        let bots = ["x".to_string(), "y".to_string()];
        let s = standings(
            &bots,
            &[game("x", "y", GameResult::Draw, Termination::Normal, None)],
        );
        assert_eq!((s[0].rank, s[1].rank), (1, 1));
        assert_eq!(s[0].capture_diff, None);
    }
}
