//! The keys of the formats whose pairings depend on results (Swiss `rounds`, `[knockout]`), `cycles` and
//! `tiebreaks`, checked against the format at the plan stage; the Swiss and knockout themselves are
//! [`crate::tournament::pairing`].

use std::path::Path;

use games::{Game, GameSpec, GameVisitor};

use super::{BotPlan, KnockoutPlan};
use crate::config::{Config, Format, Tiebreak};

/// The validated format keys of a config, for [`super::Plan`].
#[derive(Clone, Debug, PartialEq)]
pub struct Formats {
    /// Swiss rounds (0 for the other formats).
    pub swiss_rounds: u32,
    /// The knockout's rules (`None` for the other formats).
    pub knockout: Option<KnockoutPlan>,
    /// Round-robin repetitions, ≥ 1 (1 for the other formats).
    pub cycles: u32,
    /// The ranking's tie-breaks after points; empty: the default.
    pub tiebreaks: Vec<Tiebreak>,
}

/// Checks `rounds`, `[knockout]`, `cycles` and `tiebreaks` of `config` against its format and `bots`
/// (the plan's players, variants expanded); `base` is the config file's folder.
///
/// # Errors
/// A message naming the key: a key given to a format that ignores it, `rounds` missing or out of range,
/// `pairs = 0`, `games_per_pair` in a knockout, `cycles = 0`, an
/// unknown or repeated tie-break, `capture-difference` in a game without a score ([`games::Game::score`]).
pub fn plan_formats(
    config: &Config,
    spec: &GameSpec,
    bots: &[BotPlan],
    base: &Path,
) -> Result<Formats, String> {
    let n = bots.len();
    let swiss_rounds = match (config.format, config.rounds) {
        (Format::Swiss, None) => return Err("format = \"swiss\" needs rounds = N".into()),
        (Format::Swiss, Some(r)) => {
            let most = if n.is_multiple_of(2) { n - 1 } else { n };
            if r == 0 || r as usize > most {
                return Err(format!(
                    "rounds = {r}: a Swiss of {n} bots has 1 to {most} rounds (a round-robin's)"
                ));
            }
            r
        }
        (_, Some(_)) => return Err("rounds is for format = \"swiss\"".into()),
        (_, None) => 0,
    };
    let knockout = match (config.format, &config.knockout) {
        (Format::Knockout, k) => {
            if config.games_per_pair.is_some() {
                return Err(
                    "a knockout has no games_per_pair: [knockout] pairs gives each match's game pairs"
                        .into(),
                );
            }
            let k = k.clone().unwrap_or_default();
            let pairs = k.pairs.unwrap_or(1);
            let extra_pairs = k.extra_pairs.unwrap_or(2);
            if pairs == 0 {
                return Err("[knockout] pairs must be at least 1".into());
            }
            if u64::from(pairs) + u64::from(extra_pairs) > u64::from(super::MAX_GAMES_PER_PAIR / 2)
            {
                return Err(format!(
                    "[knockout] pairs + extra_pairs is more than {} game pairs",
                    super::MAX_GAMES_PER_PAIR / 2
                ));
            }
            // Config order until the runner reads `seeds_from` ([`crate::tournament::pairing::seed`]).
            Some(KnockoutPlan {
                pairs,
                extra_pairs,
                seeding: (0..n).collect(),
                seeded_by: "config order".to_string(),
                seeds_from: k
                    .seeds_from
                    .as_ref()
                    .map(|f| (base.join(f), f.display().to_string())),
            })
        }
        (_, Some(_)) => return Err("a [knockout] table needs format = \"knockout\"".into()),
        (_, None) => None,
    };
    let cycles = match (config.format, config.cycles) {
        (_, Some(0)) => return Err("cycles must be at least 1".into()),
        (Format::RoundRobin, Some(c)) => c,
        (_, Some(_)) => return Err("cycles is for format = \"round-robin\"".into()),
        (_, None) => 1,
    };
    let mut tiebreaks = Vec::new();
    for word in config.tiebreaks.iter().flatten() {
        let t: Tiebreak = word.parse().map_err(|e| format!("tiebreaks: {e}"))?;
        if tiebreaks.contains(&t) {
            return Err(format!("tiebreaks: {word} is listed twice"));
        }
        if t == Tiebreak::CaptureDifference && !keeps_score(spec) {
            return Err(format!(
                "tiebreaks: capture-difference is for games that keep a score (Dots, Kalah), not {}",
                spec.kind()
            ));
        }
        tiebreaks.push(t);
    }
    Ok(Formats {
        swiss_rounds,
        knockout,
        cycles,
        tiebreaks,
    })
}

/// Whether the game of `spec` keeps a score ([`Game::score`]: Dots' captures, Kalah's stores), which the
/// tie-break `capture-difference` compares.
pub fn keeps_score(spec: &GameSpec) -> bool {
    struct Score;
    impl GameVisitor for Score {
        type Output = bool;
        fn visit<G: Game>(self, start: G) -> bool {
            start.score().is_some()
        }
    }
    spec.visit(Score)
}
