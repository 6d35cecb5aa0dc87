//! The deterministic schedule: which bots meet in which order, with which opening and seed.
//!
//! Modelled on fastchess's round-robin scheduler: a pure function of the plan, unit-tested without any
//! process. Every game has a stable id (`g0001`, …) so a run can be resumed or split.

use games::{Game, GameSpec, GameVisitor};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::config::{Format, OpeningOrder};
use crate::plan::openings::Opening;
use crate::plan::Plan;

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Stable id: `g` and the 1-based game number, zero-padded to 4 digits.
    pub id: String,
    /// 1-based game number in schedule order.
    pub number: usize,
    /// 1-based round: in a round-robin each bot plays at most one game pair per round (circle method).
    pub round: u32,
    /// 1-based game-pair number; both games of a pair share the opening, sides swapped.
    pub pair: u32,
    /// Index into [`Plan::bots`] of the first player.
    pub first: usize,
    /// Index into [`Plan::bots`] of the second player.
    pub second: usize,
    /// The opening, in the game's move notation: the book line (with `[openings]`), then the random
    /// plies; empty without either.
    pub opening: Vec<String>,
    /// Dots setup dots of the book's opening (an SGF opening's start dots over the variant's); empty for
    /// the variant's own start.
    pub setup: games::Setup,
    /// This game's seed, in 1..=i64::MAX, sent to bots that declare a `seed` option.
    pub seed: u64,
}

/// One of `count` parts of a schedule, for splitting a tournament across machines (`arena run --shard
/// K/N`, then `arena merge`). A shard holds whole game pairs: pair p belongs to shard ((p − 1) mod N) + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based, at most `count`.
    pub index: u32,
    /// At least 1.
    pub count: u32,
}

impl Shard {
    /// Whether `game` is played by this shard.
    pub fn contains(&self, game: &ScheduledGame) -> bool {
        (game.pair - 1) % self.count == self.index - 1
    }

    /// The results folder of this shard of tournament `name`: `<name>.shard-K-of-N`.
    pub fn folder(&self, name: &str) -> String {
        format!("{name}.shard-{}-of-{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    /// `K/N` with 1 ≤ K ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is K/N with 1 ≤ K ≤ N, e.g. 2/3; got {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// SplitMix64: derives independent seeds from the tournament seed (Steele, Lea, Flood 2014).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `k` (0 or 1) of a game pair: in 1..=i64::MAX, so that it fits a UGI `spin` option.
pub fn game_seed(pair_seed: u64, k: u64) -> u64 {
    (mix(pair_seed.wrapping_add(k + 1)) >> 1).max(1)
}

/// The pairs of bot indices that meet, grouped by round: a round-robin by the circle method (each bot
/// once per round, a bye when the count is odd), or a gauntlet (bot 0 against each other bot in turn).
/// An SPRT match is a round-robin of its two bots. Swiss and knockout have no fixed schedule (none).
pub fn rounds(bots: usize, format: Format) -> Vec<Vec<(usize, usize)>> {
    match format {
        Format::Gauntlet => (1..bots).map(|j| vec![(0, j)]).collect(),
        // Paired round by round from the results: `crate::tournament::pairing::run`.
        Format::Swiss | Format::Knockout => Vec::new(),
        Format::RoundRobin | Format::Sprt | Format::Tune => {
            // Circle method: fix slot 0, rotate the others; a phantom slot `bots` is the bye.
            let n = bots + bots % 2;
            let mut slots: Vec<usize> = (0..n).collect();
            let mut out = Vec::with_capacity(n - 1);
            for _ in 0..n - 1 {
                let mut round = Vec::new();
                for i in 0..n / 2 {
                    let (a, b) = (slots[i], slots[n - 1 - i]);
                    if a < bots && b < bots {
                        round.push((a.min(b), a.max(b)));
                    }
                }
                out.push(round);
                slots[1..].rotate_right(1);
            }
            out
        }
    }
}

/// The whole schedule of `plan`, in play order: for each cycle of `games_per_pair / 2`, each round, each
/// pair, a game pair (the lower-indexed bot first in odd cycles, second in even ones; then swapped, unless
/// `noswap`; the other way round with `reverse`: [`crate::plan::PairSides`]).
///
/// Game pair k (1-based) takes book line k − 1 (wrapping around) of [`Plan::openings`] in file order, or
/// in the order of a shuffle drawn from the seed; then `opening_plies` random plies from that position.
pub fn schedule(plan: &Plan) -> Vec<ScheduledGame> {
    let rounds = rounds(plan.bots.len(), plan.format);
    let mut book_order: Vec<usize> = (0..plan.openings.len()).collect();
    if plan.opening_order == OpeningOrder::Random {
        book_order.shuffle(&mut ChaCha8Rng::seed_from_u64(mix(plan.seed ^ 0x0b00c)));
    }
    let mut games = Vec::new();
    let mut pair_no = 0u32;
    for cycle in 0..plan.games_per_pair / 2 {
        for (r, round) in rounds.iter().enumerate() {
            let round_no = cycle * rounds.len() as u32 + r as u32 + 1;
            for &(a, b) in round {
                pair_no += 1;
                let pair_seed = mix(plan.seed ^ mix(pair_no as u64));
                let no_book = Opening::default();
                let book = match book_order.len() {
                    0 => &no_book,
                    n => &plan.openings[book_order[(pair_no as usize - 1) % n]],
                };
                let opening = random_opening(plan.spec, book, plan.opening_plies, pair_seed);
                let (x, y) = if cycle % 2 == 0 { (a, b) } else { (b, a) };
                for (k, (first, second)) in plan.sides.games(x, y).into_iter().enumerate() {
                    let number = games.len() + 1;
                    games.push(ScheduledGame {
                        id: format!("g{number:04}"),
                        number,
                        round: round_no,
                        pair: pair_no,
                        first,
                        second,
                        opening: opening.clone(),
                        setup: book.setup.clone(),
                        seed: game_seed(pair_seed, k as u64),
                    });
                }
            }
        }
    }
    games
}

/// `book`'s moves (legal from the start of `spec` with the book's setup dots, as [`Plan::openings`] holds
/// them), then `plies` random legal moves drawn with `seed`, never ending the game (a draw that would end
/// it is redrawn; after 100 failures the opening is cut short).
pub fn random_opening(spec: GameSpec, book: &Opening, plies: u32, seed: u64) -> Vec<String> {
    struct Random<'a> {
        book: &'a [String],
        plies: u32,
        seed: u64,
    }
    impl GameVisitor for Random<'_> {
        type Output = Vec<String>;
        fn visit<G: Game>(self, mut pos: G) -> Vec<String> {
            games::play_moves(&mut pos, self.book.iter().map(String::as_str))
                .expect("the plan checked the book line");
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
            let mut out = self.book.to_vec();
            let target = self.book.len() + self.plies as usize;
            let mut failures = 0;
            while out.len() < target && failures < 100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                pos.play_unchecked(m);
                if pos.outcome().is_some() {
                    pos.undo();
                    failures += 1;
                    continue;
                }
                out.push(m.to_string());
            }
            out
        }
    }
    if plies == 0 {
        return book.moves.clone();
    }
    spec.visit_with_setup(
        &book.setup,
        Random {
            book: &book.moves,
            plies,
            seed,
        },
    )
    .expect("the plan checked the book's setup")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_round_robin_meets_every_pair_once_and_each_bot_once_per_round() {
        for n in 2..=9 {
            let rs = rounds(n, Format::RoundRobin);
            let mut met = BTreeMap::new();
            for round in &rs {
                let mut seen = vec![false; n];
                for &(a, b) in round {
                    assert!(!seen[a] && !seen[b], "n={n}: a bot plays twice in a round");
                    seen[a] = true;
                    seen[b] = true;
                    *met.entry((a, b)).or_insert(0) += 1;
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n={n}");
            assert!(met.values().all(|&c| c == 1));
        }
    }

    #[test]
    fn a_gauntlet_pits_the_first_bot_against_each_other() {
        let pairs: Vec<_> = rounds(4, Format::Gauntlet).concat();
        assert_eq!(pairs, vec![(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_not_over() {
        let spec: GameSpec = "tictactoe".parse().unwrap();
        for seed in 0..200 {
            let a = random_opening(spec, &Opening::default(), 6, seed);
            assert_eq!(a, random_opening(spec, &Opening::default(), 6, seed));
            let mut pos = games::TicTacToe::default();
            for m in &a {
                pos.play(m.parse().unwrap()).unwrap();
            }
            assert!(
                pos.outcome().is_none(),
                "seed {seed}: opening {a:?} ends the game"
            );
        }
    }

    #[test]
    fn random_opening_order_is_a_seeded_shuffle_that_uses_every_line_before_repeating() {
        let tmp = tempfile::tempdir().unwrap();
        let lines: Vec<String> = (1..=7).map(|c| format!("{c} 4")).collect();
        std::fs::write(tmp.path().join("book.txt"), lines.join("\n")).unwrap();
        let plan = |seed: u64, order: &str| {
            let text = format!(
                "name = \"t\"\nseed = {seed}\ngames_per_pair = 28\n[openings]\nfile = \"book.txt\"\norder = \"{order}\"\n\
                 [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
                 [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
            );
            let path = tmp.path().join("t.toml");
            let config = crate::config::Config::parse(&text, &path).unwrap();
            Plan::new(&config, &path, std::path::Path::new("/bin/arena")).unwrap()
        };
        let firsts = |p: &Plan| -> Vec<String> {
            schedule(p)
                .iter()
                .step_by(2)
                .map(|g| g.opening.join(" "))
                .collect()
        };
        let sequential = firsts(&plan(1, "sequential"));
        assert_eq!(sequential[..7], lines[..]);
        assert_eq!(sequential[7..14], lines[..]);
        let shuffled = firsts(&plan(1, "random"));
        assert_ne!(shuffled[..7], lines[..]);
        let mut used = shuffled[..7].to_vec();
        used.sort();
        assert_eq!(used, lines, "each line once before any repeats");
        assert_eq!(shuffled[7..14], shuffled[..7], "then the same order again");
        assert_eq!(firsts(&plan(1, "random")), shuffled);
        assert_ne!(firsts(&plan(2, "random")), shuffled);
    }

    #[test]
    fn noswap_and_reverse_set_who_opens_each_game_of_a_pair() {
        let plan = |extra: &str| {
            let text = format!(
                "name = \"t\"\ngames_per_pair = 4\nopening_plies = 2\n{extra}\n[game]\nname = \"connect4\"\n\
                 [time_control]\ntime_ms = 1000\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
                 [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
            );
            let path = std::path::Path::new("t.toml");
            let config = crate::config::Config::parse(&text, path).unwrap();
            Plan::new(&config, path, std::path::Path::new("/bin/arena")).unwrap()
        };
        let sides = |p: &Plan| -> Vec<(usize, usize)> {
            schedule(p).iter().map(|g| (g.first, g.second)).collect()
        };
        // Two cycles of one pair of bots: the second cycle's pair opens with the other bot.
        let swapped = plan("");
        assert_eq!(sides(&swapped), [(0, 1), (1, 0), (1, 0), (0, 1)]);
        assert_eq!(
            sides(&plan("noswap = true")),
            [(0, 1), (0, 1), (1, 0), (1, 0)]
        );
        assert_eq!(
            sides(&plan("reverse = true")),
            [(1, 0), (0, 1), (0, 1), (1, 0)]
        );
        assert_eq!(
            sides(&plan("noswap = true\nreverse = true")),
            [(1, 0), (1, 0), (0, 1), (0, 1)]
        );
        // Only the sides change: ids, openings and seeds are the schedule's.
        let key = |p: &Plan| -> Vec<(String, Vec<String>, u64)> {
            schedule(p)
                .into_iter()
                .map(|g| (g.id, g.opening, g.seed))
                .collect()
        };
        assert_eq!(key(&plan("noswap = true\nreverse = true")), key(&swapped));
    }

    #[test]
    fn shards_split_the_schedule_into_whole_pairs() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let games: Vec<ScheduledGame> = (1..=10u32)
            .map(|n| ScheduledGame {
                id: format!("g{n:04}"),
                number: n as usize,
                round: 1,
                pair: n.div_ceil(2),
                first: 0,
                second: 1,
                opening: vec![],
                setup: games::Setup::default(),
                seed: 1,
            })
            .collect();
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k, count: 3 }).collect();
        for g in &games {
            let owners = shards.iter().filter(|s| s.contains(g)).count();
            assert_eq!(owners, 1, "{g:?}");
            let twin = games
                .iter()
                .find(|t| t.pair == g.pair && t.id != g.id)
                .unwrap();
            assert!(shards.iter().all(|s| s.contains(g) == s.contains(twin)));
        }
        assert_eq!(shards[1].folder("c4"), "c4.shard-2-of-3");
    }
}
