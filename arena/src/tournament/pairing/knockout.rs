//! A seeded single-elimination bracket: the standard seeding (seed 1 and seed 2 can only meet in the
//! final, 1 meets the lowest seed in round 1), byes for the top seeds when the field is not a power of
//! two, each match a number of game pairs, a tie decided by extra game pairs one at a time up to a cap,
//! and then by seed: the higher seed (lower number) advances.
//!
//! Pure: [`crate::tournament::pairing::run`] plays the games and asks [`decide`] after each batch.

use std::fmt::Write as _;

/// The seeds (1-based) in bracket-slot order for a bracket of `size` slots (a power of two): adjacent
/// slots meet in round 1, e.g. 8 → `[1, 8, 4, 5, 2, 7, 3, 6]`.
///
/// # Panics
/// If `size` is not a power of two.
pub fn slot_order(size: usize) -> Vec<usize> {
    assert!(size.is_power_of_two(), "a bracket of {size} slots");
    let mut order = vec![1];
    while order.len() < size {
        let m = 2 * order.len() + 1;
        order = order.iter().flat_map(|&s| [s, m - s]).collect();
    }
    order
}

/// The bracket's size for `n` bots: the least power of two ≥ n.
pub fn size(n: usize) -> usize {
    n.next_power_of_two()
}

/// Rounds of a bracket of `n` bots (log2 of its size).
pub fn rounds(n: usize) -> u32 {
    size(n).trailing_zeros()
}

/// The 0-based index of match `i` of round `round` (1-based) among every match slot of the bracket, in
/// round order: round 1's slots first. Game ids are allotted by this index, so they do not depend on
/// the results of other matches.
pub fn match_index(n: usize, round: u32, i: usize) -> usize {
    let size = size(n);
    (1..round).map(|r| size >> r).sum::<usize>() + i
}

/// The first round: (higher seed, lower seed or `None` for a bye), seeds 1-based, in bracket order.
pub fn first_round(n: usize) -> Vec<(usize, Option<usize>)> {
    slot_order(size(n))
        .chunks(2)
        .map(|c| {
            let (a, b) = (c[0].min(c[1]), c[0].max(c[1]));
            (a, (b <= n).then_some(b))
        })
        .collect()
}

/// How a match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// The other side had a bye.
    Bye,
    /// More points over the match's game pairs.
    Points,
    /// More points after extra game pairs.
    ExtraPairs,
    /// Still level after every extra pair: the higher seed advances.
    Seed,
}

impl DecidedBy {
    /// The word in `bracket.csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecidedBy::Bye => "bye",
            DecidedBy::Points => "points",
            DecidedBy::ExtraPairs => "extra-pairs",
            DecidedBy::Seed => "seed",
        }
    }
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// Play game pairs until this many have been played in all.
    Play(u32),
    /// Over: whether the higher seed won, and how.
    Decided { higher_wins: bool, by: DecidedBy },
}

/// The state of a match after `played` complete game pairs in which the higher seed scored
/// `higher_half` and the lower seed `lower_half` half points, with `pairs` game pairs a match and at
/// most `extra` extra pairs.
pub fn decide(
    pairs: u32,
    extra: u32,
    played: u32,
    higher_half: u32,
    lower_half: u32,
) -> MatchState {
    if played < pairs {
        return MatchState::Play(pairs);
    }
    if higher_half != lower_half {
        let by = if played > pairs {
            DecidedBy::ExtraPairs
        } else {
            DecidedBy::Points
        };
        return MatchState::Decided {
            higher_wins: higher_half > lower_half,
            by,
        };
    }
    if played < pairs + extra {
        return MatchState::Play(played + 1);
    }
    MatchState::Decided {
        higher_wins: true,
        by: DecidedBy::Seed,
    }
}

/// One match as the bracket shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchLine {
    /// 1-based round.
    pub round: u32,
    /// 1-based match number within the round.
    pub number: usize,
    /// (seed, bot name) of the higher seed.
    pub higher: (usize, String),
    /// (seed, bot name) of the lower seed; `None` for a bye.
    pub lower: Option<(usize, String)>,
    /// Points of the higher and the lower seed (1 a win, ½ a draw).
    pub points: (f64, f64),
    /// Game pairs played.
    pub pairs: u32,
    /// The winner's name and how; `None` while the match is on.
    pub winner: Option<(String, DecidedBy)>,
}

/// The bracket as text, one block per round: `[1] alpha 2–0 [8] theta → alpha`.
pub fn text(lines: &[MatchLine], total_rounds: u32) -> String {
    let mut out = String::new();
    let mut round = 0;
    for m in lines {
        if m.round != round {
            round = m.round;
            let name = match total_rounds - round {
                0 => "final".to_string(),
                1 => "semi-finals".to_string(),
                2 => "quarter-finals".to_string(),
                _ => format!("round {round}"),
            };
            let _ = writeln!(out, "{name}:");
        }
        let higher = format!("[{}] {}", m.higher.0, m.higher.1);
        let line = match &m.lower {
            None => format!("  {higher} — bye"),
            Some((s, b)) => format!(
                "  {higher} {}–{} [{s}] {b}{}",
                points(m.points.0),
                points(m.points.1),
                match m.pairs {
                    1 => " (1 game pair)".to_string(),
                    k => format!(" ({k} game pairs)"),
                }
            ),
        };
        let result = match &m.winner {
            Some((w, DecidedBy::Seed)) => format!(" → {w} (level: the higher seed)"),
            Some((w, DecidedBy::ExtraPairs)) => format!(" → {w} (after extra pairs)"),
            Some((w, _)) => format!(" → {w}"),
            None => " …".to_string(),
        };
        let _ = writeln!(out, "{line}{result}");
    }
    out
}

/// Points as the bracket shows them: `2`, `1½`, `½`.
fn points(p: f64) -> String {
    let whole = p.floor();
    match (whole as u64, p - whole >= 0.5) {
        (0, true) => "½".into(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

/// Writes `bracket.csv` (round, match, higher_seed, higher, lower_seed, lower, higher_points,
/// lower_points, pairs, winner, decided_by) and `bracket.txt` ([`text`]) into `dir`.
///
/// # Errors
/// Write errors, with the path.
pub fn write(dir: &std::path::Path, lines: &[MatchLine], total_rounds: u32) -> anyhow::Result<()> {
    use anyhow::Context;
    let path = dir.join("bracket.csv");
    let mut w =
        csv::Writer::from_path(&path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "round",
        "match",
        "higher_seed",
        "higher",
        "lower_seed",
        "lower",
        "higher_points",
        "lower_points",
        "pairs",
        "winner",
        "decided_by",
    ])?;
    for m in lines {
        let (ls, lb) = m
            .lower
            .as_ref()
            .map_or((String::new(), String::new()), |(s, b)| {
                (s.to_string(), b.clone())
            });
        let (winner, by) = m
            .winner
            .as_ref()
            .map_or((String::new(), ""), |(w, by)| (w.clone(), by.as_str()));
        w.write_record([
            m.round.to_string(),
            m.number.to_string(),
            m.higher.0.to_string(),
            m.higher.1.clone(),
            ls,
            lb,
            m.points.0.to_string(),
            m.points.1.to_string(),
            m.pairs.to_string(),
            winner,
            by.to_string(),
        ])?;
    }
    w.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    let txt = dir.join("bracket.txt");
    std::fs::write(&txt, text(lines, total_rounds))
        .with_context(|| format!("writing {}", txt.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_one_and_two_meet_only_in_the_final() {
        assert_eq!(slot_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        for size in [2, 4, 8, 16, 32, 64] {
            let order = slot_order(size);
            let (top, bottom) = order.split_at(size / 2);
            assert!(top.contains(&1) && bottom.contains(&2), "size {size}");
            // Round 1 pairs seed s with seed size + 1 − s.
            for c in order.chunks(2) {
                assert_eq!(c[0] + c[1], size + 1);
            }
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=size).collect::<Vec<_>>());
        }
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // 6 bots in 8 slots: seeds 1 and 2 have byes.
        let r1 = first_round(6);
        let byes: Vec<usize> = r1
            .iter()
            .filter(|(_, b)| b.is_none())
            .map(|(a, _)| *a)
            .collect();
        assert_eq!(byes, vec![1, 2]);
        assert_eq!(r1.len(), 4);
        assert_eq!(rounds(6), 3);
        assert_eq!(rounds(2), 1);
        assert_eq!(match_index(6, 2, 1), 5);
        assert_eq!(match_index(6, 3, 0), 6);
    }

    #[test]
    fn ties_go_to_extra_pairs_then_to_the_higher_seed() {
        assert_eq!(decide(2, 2, 0, 0, 0), MatchState::Play(2));
        assert_eq!(
            decide(2, 2, 2, 5, 3),
            MatchState::Decided {
                higher_wins: true,
                by: DecidedBy::Points
            }
        );
        assert_eq!(decide(2, 2, 2, 4, 4), MatchState::Play(3));
        assert_eq!(
            decide(2, 2, 3, 5, 7),
            MatchState::Decided {
                higher_wins: false,
                by: DecidedBy::ExtraPairs
            }
        );
        assert_eq!(decide(2, 2, 3, 6, 6), MatchState::Play(4));
        assert_eq!(
            decide(2, 2, 4, 8, 8),
            MatchState::Decided {
                higher_wins: true,
                by: DecidedBy::Seed
            }
        );
        assert_eq!(
            decide(1, 0, 1, 2, 2),
            MatchState::Decided {
                higher_wins: true,
                by: DecidedBy::Seed
            }
        );
    }

    #[test]
    fn the_text_names_the_rounds_and_shows_half_points() {
        let lines = vec![
            MatchLine {
                round: 1,
                number: 1,
                higher: (1, "a".into()),
                lower: None,
                points: (0.0, 0.0),
                pairs: 0,
                winner: Some(("a".into(), DecidedBy::Bye)),
            },
            MatchLine {
                round: 2,
                number: 1,
                higher: (1, "a".into()),
                lower: Some((2, "b".into())),
                points: (1.5, 0.5),
                pairs: 1,
                winner: Some(("a".into(), DecidedBy::Points)),
            },
        ];
        let t = text(&lines, 2);
        assert!(t.contains("semi-finals:\n  [1] a — bye → a"), "{t}");
        assert!(
            t.contains("final:\n  [1] a 1½–½ [2] b (1 game pair) → a"),
            "{t}"
        );
    }
}
