//! Formats whose pairings depend on results: Swiss ([`swiss`]) and knockout ([`knockout`]); the
//! ranking's tie-breaks ([`crate::standings::tiebreak`]); and the checks of their config keys (`rounds`, `[knockout]`,
//! `cycles`, `tiebreaks`). The rounds are played by [`run`], one after another, each round paired from
//! the recorded games of the rounds before it, so a resumed run recomputes the same pairings and replays
//! nothing. See `docs/formats.md`.

use std::path::Path;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::{Format, OpeningOrder};
use crate::plan::openings::Opening;
use crate::plan::schedule::{mix, random_opening, ScheduledGame};
use crate::plan::{BotPlan, Plan};

pub mod knockout;
mod run;
pub mod swiss;

pub use crate::config::Tiebreak;
pub use crate::plan::formats::{plan_formats, Formats};
pub use run::run;

/// Seeds `plan`'s knockout from the ratings in its `[knockout] seeds_from` folder, if it names one: the
/// bots by Elo rating there, best first, bots it has not rated after them in config order. The runner
/// calls it before the bracket (and `arena check` before describing it), so the plan stage reads no
/// results folder.
///
/// # Errors
/// A folder without games (or with unreadable ones), naming the folder.
pub fn seed(plan: &mut Plan) -> anyhow::Result<()> {
    let Some(k) = plan.knockout.as_mut() else {
        return Ok(());
    };
    let Some((dir, written)) = k.seeds_from.clone() else {
        return Ok(());
    };
    k.seeding = seeds_from(&plan.bots, &dir)
        .map_err(|e| anyhow::anyhow!("[knockout] seeds_from: {e:#}"))?;
    k.seeded_by = format!("ratings of {written}");
    Ok(())
}

/// The bots by Elo rating in the results folder `dir`, best first; bots it has not rated follow in
/// config order.
fn seeds_from(bots: &[BotPlan], dir: &Path) -> anyhow::Result<Vec<usize>> {
    let records = crate::results::ResultsDir {
        path: dir.to_path_buf(),
    }
    .read_existing_games()?;
    let opts = crate::report::ReportOptions {
        bootstrap: 1,
        ..Default::default()
    };
    let report = crate::report::Report::new(&[], &records, &opts)?;
    let elo = |name: &str| {
        report
            .standings
            .iter()
            .find(|s| s.bot == name)
            .and_then(|s| s.rating)
            .map(|r| r.elo)
    };
    let mut order: Vec<usize> = (0..bots.len()).collect();
    // Stable: unrated bots keep config order after the rated ones.
    order.sort_by(|&a, &b| match (elo(&bots[a].name), elo(&bots[b].name)) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Ok(order)
}

/// The order in which game pairs take the book's lines, as [`crate::plan::schedule::schedule`] draws it.
fn book_order(plan: &Plan) -> Vec<usize> {
    let mut order: Vec<usize> = (0..plan.openings.len()).collect();
    if plan.opening_order == OpeningOrder::Random {
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(mix(plan.seed ^ 0x0b00c)));
    }
    order
}

/// The two games of game pair `pair_no` (1-based; games `2·pair_no − 1` and `2·pair_no`) in round
/// `round`: `opener` moves first in the first, then the sides swap (as [`crate::plan::PairSides`]
/// says: not with `noswap`, the other way round with `reverse`); the opening and seeds are drawn
/// as the round-robin schedule draws them for the same pair number.
fn game_pair(
    plan: &Plan,
    book_order: &[usize],
    round: u32,
    pair_no: u32,
    (opener, other): (usize, usize),
) -> [ScheduledGame; 2] {
    let pair_seed = mix(plan.seed ^ mix(u64::from(pair_no)));
    let no_book = Opening::default();
    let book = match book_order.len() {
        0 => &no_book,
        n => &plan.openings[book_order[(pair_no as usize - 1) % n]],
    };
    let opening = random_opening(plan.spec, book, plan.opening_plies, pair_seed);
    let game = |k: usize, first: usize, second: usize| {
        let number = 2 * (pair_no as usize - 1) + k + 1;
        ScheduledGame {
            id: format!("g{number:04}"),
            number,
            round,
            pair: pair_no,
            first,
            second,
            opening: opening.clone(),
            setup: book.setup.clone(),
            seed: crate::plan::schedule::game_seed(pair_seed, k as u64),
        }
    };
    let [(a, b), (c, d)] = plan.sides.games(opener, other);
    [game(0, a, b), game(1, c, d)]
}

/// How many games a Swiss or knockout plan plays, for `arena check`: `4 rounds of 4 pairings, 32 games`,
/// `a bracket of 6 bots in 8 slots (3 rounds, seeded by config order), 2 game pairs a match (+ at most
/// 2 to break a tie)`. `None` for the formats with a fixed schedule.
pub fn describe(plan: &Plan) -> Option<String> {
    let n = plan.bots.len();
    match (plan.format, &plan.knockout) {
        (Format::Swiss, _) => Some(format!(
            "{} rounds of {} pairings ({} games a pairing{}), {} games",
            plan.swiss_rounds,
            n / 2,
            plan.games_per_pair,
            if n % 2 == 1 { ", a bye a round" } else { "" },
            plan.swiss_rounds as usize * (n / 2) * plan.games_per_pair as usize
        )),
        (Format::Knockout, Some(k)) => Some(format!(
            "a bracket of {n} bots in {} slots ({} rounds, seeded by {}), {} game pairs a match (+ at most {} to break a tie)",
            knockout::size(n),
            knockout::rounds(n),
            k.seeded_by,
            k.pairs,
            k.extra_pairs
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::record::{GameRecord, GameResult};

    /// A plan of `bots` random bots named b1, b2, … with `extra` top-level keys; tables in `extra`
    /// go after a `|`; a knockout seeded as its runner seeds it ([`seed`]).
    fn plan(dir: &Path, extra: &str, bots: usize, game: &str) -> Result<Plan, String> {
        let (top, tables) = extra.split_once('|').unwrap_or((extra, ""));
        let mut text = format!(
            "name = \"t\"\n{top}\n{tables}\n[game]\nname = \"{game}\"\n[time_control]\ntime_ms = 1000\n"
        );
        for i in 1..=bots {
            text.push_str(&format!(
                "[[bots]]\nname = \"b{i}\"\nbuiltin = \"random\"\n"
            ));
        }
        let path = dir.join("t.toml");
        let config = Config::parse(&text, &path).map_err(|e| e.to_string())?;
        let mut plan =
            Plan::new(&config, &path, Path::new("/bin/arena")).map_err(|e| e.to_string())?;
        seed(&mut plan).map_err(|e| format!("{e:#}"))?;
        Ok(plan)
    }

    #[test]
    fn swiss_needs_rounds_within_a_round_robins_length() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        assert!(plan(d, "format = \"swiss\"", 4, "connect4")
            .unwrap_err()
            .contains("needs rounds"));
        assert!(plan(d, "format = \"swiss\"\nrounds = 4", 4, "connect4")
            .unwrap_err()
            .contains("1 to 3 rounds"));
        assert_eq!(
            plan(d, "format = \"swiss\"\nrounds = 5", 5, "connect4")
                .unwrap()
                .swiss_rounds,
            5
        );
        assert!(plan(d, "rounds = 2", 4, "connect4")
            .unwrap_err()
            .contains("for format = \"swiss\""));
        let p = plan(d, "format = \"swiss\"\nrounds = 3", 9, "connect4").unwrap();
        assert_eq!(
            describe(&p).unwrap(),
            "3 rounds of 4 pairings (2 games a pairing, a bye a round), 24 games"
        );
    }

    #[test]
    fn swiss_and_knockout_pairs_follow_noswap_and_reverse() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let sides = |extra: &str| {
            let p = plan(
                d,
                &format!("format = \"swiss\"\nrounds = 1\n{extra}"),
                4,
                "connect4",
            )
            .unwrap();
            game_pair(&p, &book_order(&p), 1, 1, (2, 3)).map(|g| (g.first, g.second))
        };
        assert_eq!(sides(""), [(2, 3), (3, 2)]);
        assert_eq!(sides("noswap = true"), [(2, 3), (2, 3)]);
        assert_eq!(sides("reverse = true"), [(3, 2), (2, 3)]);
        assert_eq!(sides("noswap = true\nreverse = true"), [(3, 2), (3, 2)]);
    }

    #[test]
    fn cycles_repeat_the_round_robin() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let p = plan(d, "cycles = 3\ngames_per_pair = 4", 3, "connect4").unwrap();
        assert_eq!(p.games_per_pair, 12);
        assert_eq!(crate::plan::schedule::schedule(&p).len(), 3 * 12);
        assert!(plan(d, "cycles = 0", 3, "connect4")
            .unwrap_err()
            .contains("at least 1"));
        assert!(plan(d, "format = \"gauntlet\"\ncycles = 2", 3, "connect4")
            .unwrap_err()
            .contains("round-robin"));
    }

    #[test]
    fn tiebreaks_are_checked_words_and_capture_difference_is_for_dots() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let p = plan(
            d,
            "tiebreaks = [\"forfeits\", \"head-to-head\"]",
            3,
            "connect4",
        )
        .unwrap();
        assert_eq!(p.tiebreaks, vec![Tiebreak::Forfeits, Tiebreak::HeadToHead]);
        assert!(plan(d, "tiebreaks = [\"elo\"]", 3, "connect4")
            .unwrap_err()
            .contains("unknown tie-break"));
        assert!(plan(d, "tiebreaks = [\"wins\", \"wins\"]", 3, "connect4")
            .unwrap_err()
            .contains("twice"));
        assert!(
            plan(d, "tiebreaks = [\"capture-difference\"]", 3, "connect4")
                .unwrap_err()
                .contains("games that keep a score")
        );
        assert!(plan(d, "tiebreaks = [\"capture-difference\"]", 3, "dots").is_ok());
    }

    #[test]
    fn a_knockout_takes_its_seeds_from_a_results_folders_ratings() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let p = plan(d, "format = \"knockout\"", 5, "connect4").unwrap();
        let k = p.knockout.as_ref().unwrap();
        assert_eq!(
            (k.pairs, k.extra_pairs, k.seeding.clone()),
            (1, 2, vec![0, 1, 2, 3, 4])
        );
        assert!(plan(
            d,
            "format = \"knockout\"\ngames_per_pair = 2",
            5,
            "connect4"
        )
        .unwrap_err()
        .contains("no games_per_pair"));
        assert!(plan(
            d,
            "format = \"knockout\"|[knockout]\npairs = 0",
            5,
            "connect4"
        )
        .unwrap_err()
        .contains("at least 1"));
        assert!(plan(d, "|[knockout]\npairs = 2", 5, "connect4")
            .unwrap_err()
            .contains("needs format"));
        assert!(plan(
            d,
            "format = \"knockout\"|[knockout]\nseeds_from = \"nowhere\"",
            5,
            "connect4"
        )
        .unwrap_err()
        .contains("has no games.csv"));
        // b4 beats everyone, b2 beats b1 and b3; b5 played no game.
        let mut games = Vec::new();
        for (w, l) in [
            ("b4", "b1"),
            ("b4", "b2"),
            ("b4", "b3"),
            ("b2", "b1"),
            ("b2", "b3"),
            ("b1", "b3"),
        ] {
            for k in 0..3 {
                let mut g = GameRecord::example(w, l, GameResult::FirstWins);
                g.id = format!("g{w}{l}{k}");
                games.push(g);
            }
        }
        std::fs::create_dir(d.join("old")).unwrap();
        crate::results::write_games_csv(&d.join("old/games.csv"), &games).unwrap();
        let p = plan(
            d,
            "format = \"knockout\"|[knockout]\nseeds_from = \"old\"\nextra_pairs = 0",
            5,
            "connect4",
        )
        .unwrap();
        let k = p.knockout.unwrap();
        assert_eq!(k.seeding, vec![3, 1, 0, 2, 4]);
        assert_eq!(k.seeded_by, "ratings of old");
        assert_eq!(k.extra_pairs, 0);
    }
}
