//! Tie-breaks of the ranking: after points, which of the bots level on points is placed first.
//!
//! Each tie-break splits the groups still tied by the ones before it, as FIDE's tie-break rules (C.07)
//! apply them in order; `head-to-head` is computed inside each such group (the points the tied bots
//! scored against each other), the others are per-bot figures. Bots tied on every tie-break share a
//! rank and are listed by name.

use std::collections::HashMap;

use games::Player;

use crate::config::Tiebreak;
use crate::record::{GameRecord, GameResult};

/// Per-bot figures the tie-breaks read, from the games alone plus points outside games (a Swiss bye).
#[derive(Clone, Debug, Default)]
struct Figures {
    points: f64,
    forfeits: u32,
    wins: u32,
    capture_diff: i64,
    /// (opponent, points scored) per game.
    games: Vec<(usize, f64)>,
}

/// Ranks `bots`: by points (game points plus `extra_points`, e.g. a Swiss bye, indexed like `bots`),
/// then by each of `tiebreaks` in turn. Returns, best first, (index into `bots`, 1-based rank; tied
/// bots share a rank) and, per bot in `bots` order, its points. Games of bots not in `bots` are ignored.
pub fn rank(
    bots: &[String],
    records: &[GameRecord],
    extra_points: &[f64],
    tiebreaks: &[Tiebreak],
) -> (Vec<(usize, usize)>, Vec<f64>) {
    let index: HashMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut f = vec![Figures::default(); bots.len()];
    for (i, x) in extra_points.iter().enumerate().take(bots.len()) {
        f[i].points += x;
    }
    for r in records.iter().filter(|r| r.termination.counts()) {
        let (Some(&a), Some(&b)) = (index.get(r.first.as_str()), index.get(r.second.as_str()))
        else {
            continue;
        };
        for (side, me, them) in [(Player::First, a, b), (Player::Second, b, a)] {
            let p = r.result.points(side);
            let fig = &mut f[me];
            fig.points += p;
            fig.games.push((them, p));
            if p == 1.0 {
                fig.wins += 1;
            }
            let lost = r.result != GameResult::Draw && p == 0.0;
            if lost && r.termination.is_forfeit() {
                fig.forfeits += 1;
            }
            if let Some([x, y]) = r.score {
                let (own, theirs) = if side == Player::First {
                    (x, y)
                } else {
                    (y, x)
                };
                fig.capture_diff += i64::from(own) - i64::from(theirs);
            }
        }
    }
    let points: Vec<f64> = f.iter().map(|x| x.points).collect();
    // Higher is better for every key; half points are exact in f64, products of them too.
    let value = |t: Tiebreak, i: usize, group: &[usize]| -> f64 {
        match t {
            Tiebreak::Points => points[i],
            Tiebreak::Forfeits => -f64::from(f[i].forfeits),
            Tiebreak::Wins => f64::from(f[i].wins),
            Tiebreak::CaptureDifference => f[i].capture_diff as f64,
            Tiebreak::Buchholz => f[i].games.iter().map(|&(o, _)| points[o]).sum(),
            Tiebreak::SonnebornBerger => f[i].games.iter().map(|&(o, p)| points[o] * p).sum(),
            Tiebreak::HeadToHead => f[i]
                .games
                .iter()
                .filter(|(o, _)| group.contains(o))
                .map(|&(_, p)| p)
                .sum(),
        }
    };
    // Groups of bots still tied, best group first; each tie-break splits every group.
    let mut by_points: Vec<usize> = (0..bots.len()).collect();
    by_points.sort_by(|&a, &b| points[b].total_cmp(&points[a]));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in by_points {
        match groups.last_mut() {
            Some(g) if points[g[0]] == points[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    for &t in tiebreaks {
        let mut next = Vec::with_capacity(groups.len());
        for g in groups {
            if g.len() == 1 {
                next.push(g);
                continue;
            }
            let mut keyed: Vec<(f64, usize)> = g.iter().map(|&i| (value(t, i, &g), i)).collect();
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut split: Vec<Vec<usize>> = Vec::new();
            let mut last = f64::NAN;
            for (v, i) in keyed {
                match split.last_mut() {
                    Some(s) if v == last => s.push(i),
                    _ => split.push(vec![i]),
                }
                last = v;
            }
            next.extend(split);
        }
        groups = next;
    }
    let mut out = Vec::with_capacity(bots.len());
    for mut g in groups {
        g.sort_by(|&a, &b| bots[a].cmp(&bots[b]));
        let rank = out.len() + 1;
        out.extend(g.into_iter().map(|i| (i, rank)));
    }
    (out, points)
}

/// Re-orders `rows` (the standings, any order) by points and `tiebreaks` over `records`, and sets their
/// ranks. An empty `tiebreaks` leaves the standings' own order (points, wins, capture difference).
pub fn apply(rows: &mut Vec<super::Standing>, records: &[GameRecord], tiebreaks: &[Tiebreak]) {
    if tiebreaks.is_empty() {
        return;
    }
    let names: Vec<String> = rows.iter().map(|s| s.bot.clone()).collect();
    let (order, _) = rank(&names, records, &[], tiebreaks);
    let mut old: Vec<Option<super::Standing>> = rows.drain(..).map(Some).collect();
    for (i, r) in order {
        if let Some(mut s) = old[i].take() {
            s.rank = r;
            rows.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameRecord, GameResult, Termination};

    fn game(a: &str, b: &str, r: GameResult) -> GameRecord {
        GameRecord::example(a, b, r)
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_round_trip_and_unknown_words_list_the_known_ones() {
        for (t, w) in Tiebreak::ALL {
            assert_eq!(w.parse::<Tiebreak>(), Ok(t));
            assert_eq!(t.to_string(), w);
        }
        let e = "elo".parse::<Tiebreak>().unwrap_err();
        assert!(e.contains("sonneborn-berger"), "{e}");
    }

    #[test]
    fn head_to_head_decides_among_the_tied_bots_only() {
        // a beats b, b beats c, c beats a, then a and c draw a second game.
        use GameResult::*;
        let bots = names(&["a", "b", "c"]);
        let games = [
            game("a", "b", FirstWins),
            game("b", "c", FirstWins),
            game("c", "a", FirstWins),
            game("a", "c", Draw),
        ];
        // a: 1 + ½ = 1.5, c: 1 + ½ = 1.5, b: 1. Between a and c: ½ + 0 vs ½ + 1 → c first.
        let (order, points) = rank(&bots, &games, &[], &[Tiebreak::HeadToHead]);
        assert_eq!(points, vec![1.5, 1.0, 1.5]);
        assert_eq!(order, vec![(2, 1), (0, 2), (1, 3)]);
    }

    #[test]
    fn sonneborn_berger_and_buchholz_weigh_opponents_by_their_points() {
        use GameResult::*;
        let bots = names(&["a", "b", "c", "d"]);
        // a beats c (strong), b beats d (weak); c beats d twice.
        let games = [
            game("a", "c", FirstWins),
            game("b", "d", FirstWins),
            game("c", "d", FirstWins),
            game("c", "d", FirstWins),
        ];
        // Points: a 1, b 1, c 2, d 0. SB: a = 2, b = 0.
        let (order, _) = rank(&bots, &games, &[], &[Tiebreak::SonnebornBerger]);
        assert_eq!(order[..3], [(2, 1), (0, 2), (1, 3)]);
        let (order, _) = rank(&bots, &games, &[], &[Tiebreak::Buchholz]);
        assert_eq!(order[..3], [(2, 1), (0, 2), (1, 3)]);
        // With no tie-break, a and b share second place, listed by name.
        let (order, _) = rank(&bots, &games, &[], &[]);
        assert_eq!(order[..3], [(2, 1), (0, 2), (1, 2)]);
    }

    #[test]
    fn fewer_forfeits_rank_first_and_byes_count_as_points() {
        use GameResult::*;
        let bots = names(&["a", "b", "c"]);
        let mut lost_on_time = game("a", "c", SecondWins);
        lost_on_time.termination = Termination::Timeout;
        let games = [lost_on_time, game("b", "c", SecondWins)];
        let (order, _) = rank(&bots, &games, &[], &[Tiebreak::Forfeits]);
        assert_eq!(order, vec![(2, 1), (1, 2), (0, 3)]);
        let (order, points) = rank(&bots, &games, &[0.0, 2.0, 0.0], &[Tiebreak::Forfeits]);
        assert_eq!(points, vec![0.0, 2.0, 2.0]);
        assert_eq!(order[2], (0, 3));
    }

    #[test]
    fn capture_difference_reads_the_dots_scores() {
        use GameResult::*;
        let bots = names(&["a", "b", "c"]);
        let mut g1 = game("a", "c", FirstWins);
        g1.score = Some([5, 1]);
        let mut g2 = game("b", "c", FirstWins);
        g2.score = Some([9, 0]);
        let (order, _) = rank(&bots, &[g1, g2], &[], &[Tiebreak::CaptureDifference]);
        assert_eq!(order, vec![(1, 1), (0, 2), (2, 3)]);
    }
}
