//! Swiss pairing by the Monrad (Danish) system, with a backtracking search for pairings without rematches.
//!
//! Each round, the bots are ordered by score (best first), bots level on score by a fixed seeded shuffle
//! drawn once for the event (a random initial ranking, so round 1 pairs at random). The pairing takes the
//! highest-placed unpaired bot and gives it the nearest bot below it in that order that it has not met
//! (Monrad: 1–2, 3–4, … where no rematch forces a change), backtracking depth first when the rest cannot
//! be paired. So bots meet opponents of equal or near score. With an odd field, first the lowest-placed
//! bot that has had no bye gets the bye (FIDE C.04.1: one pairing-allocated bye per player, scored as a
//! win: here the points of winning every game of the pairing). Only when no pairing without a rematch
//! exists (or the search gives up after [`SEARCH_BUDGET`] steps) are rematches allowed, first of pairs
//! that met once, then twice, ….
//!
//! Each pairing is played as game pairs (the same opening with the sides swapped), so every bot moves
//! first in exactly half its games; which bot opens the pairing's first game goes to the one that opened
//! fewer pairings so far (on a tie, the higher-placed bot in odd rounds, the other in even ones).
//!
//! Pure: no process, no file. [`crate::tournament::pairing::run`] replays the recorded rounds through
//! [`SwissState::add_round`] to pair the next round, so a resumed run recomputes the same pairings.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Search steps (bots tried as a partner) per level of the pairing search before it gives up on that
/// level and allows more rematches. Enough for every field the tests try (up to 300 bots, and every
/// round of a round-robin's length for small fields); a field where it runs out is paired with a
/// rematch it might have avoided, and [`Pairing::exhausted`] says so.
pub const SEARCH_BUDGET: u64 = 2_000_000;

/// The standings a Swiss pairing reads: scores, who met whom, byes, pairings opened.
#[derive(Clone, Debug)]
pub struct SwissState {
    n: usize,
    /// Score per bot in half points (a win 2, a draw 1), byes included.
    score: Vec<u32>,
    /// `met[a * n + b]`: pairings between a and b so far.
    met: Vec<u16>,
    /// Byes per bot.
    byes: Vec<u32>,
    /// Pairings whose first game the bot moved first in, minus those its opponent did.
    opened: Vec<i32>,
    /// Tie order among equal scores: `tie[bot]`, lower is placed higher.
    tie: Vec<usize>,
    /// Rounds added so far.
    rounds: u32,
}

/// One round's pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// (opener, other): the opener moves first in the pairing's first game. In placement order.
    pub pairs: Vec<(usize, usize)>,
    /// The bot without an opponent this round (odd fields only).
    pub bye: Option<usize>,
    /// Pairings between bots that had met before.
    pub rematches: usize,
    /// Whether the search ran out of steps on some level (the rematches may then have been avoidable).
    pub exhausted: bool,
}

impl SwissState {
    /// The state before round 1 of `n` bots; `seed` draws the tie order among equal scores.
    pub fn new(n: usize, seed: u64) -> SwissState {
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(crate::plan::schedule::mix(
            seed ^ 0x5_1155,
        )));
        let mut tie = vec![0; n];
        for (place, &bot) in order.iter().enumerate() {
            tie[bot] = place;
        }
        SwissState {
            n,
            score: vec![0; n],
            met: vec![0; n * n],
            byes: vec![0; n],
            opened: vec![0; n],
            tie,
            rounds: 0,
        }
    }

    /// Bots in the field.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the field is empty.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Score of `bot` in half points (byes included).
    pub fn half_points(&self, bot: usize) -> u32 {
        self.score[bot]
    }

    /// Pairings between `a` and `b` so far.
    pub fn met(&self, a: usize, b: usize) -> u16 {
        self.met[a * self.n + b]
    }

    /// Byes `bot` has had.
    pub fn byes(&self, bot: usize) -> u32 {
        self.byes[bot]
    }

    /// Rounds added so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Bots best first: by score, then the seeded tie order.
    pub fn placement(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.n).collect();
        order.sort_by_key(|&b| (std::cmp::Reverse(self.score[b]), self.tie[b]));
        order
    }

    /// Adds a played round: `pairing` and, per pair in its order, the half points the opener and the
    /// other bot scored; the bye scores `bye_half_points`.
    ///
    /// # Panics
    /// If `half_points` has not one entry per pair.
    pub fn add_round(
        &mut self,
        pairing: &Pairing,
        half_points: &[(u32, u32)],
        bye_half_points: u32,
    ) {
        assert_eq!(
            pairing.pairs.len(),
            half_points.len(),
            "one result per pair"
        );
        for (&(a, b), &(pa, pb)) in pairing.pairs.iter().zip(half_points) {
            self.score[a] += pa;
            self.score[b] += pb;
            self.met[a * self.n + b] += 1;
            self.met[b * self.n + a] += 1;
            self.opened[a] += 1;
            self.opened[b] -= 1;
        }
        if let Some(x) = pairing.bye {
            self.byes[x] += 1;
            self.score[x] += bye_half_points;
        }
        self.rounds += 1;
    }

    /// Pairs the next round (see the module's documentation for the rules).
    pub fn pair_next(&self) -> Pairing {
        let order = self.placement();
        let mut exhausted = false;
        let max_met = self.met.iter().copied().max().unwrap_or(0);
        // Bye candidates: bots without a bye, lowest placed first; everyone if all had one.
        let mut candidates: Vec<Option<usize>> = if self.n % 2 == 1 {
            let fresh: Vec<usize> = order
                .iter()
                .rev()
                .copied()
                .filter(|&b| self.byes[b] == 0)
                .collect();
            let pool = if fresh.is_empty() {
                order.iter().rev().copied().collect()
            } else {
                fresh
            };
            pool.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        if candidates.is_empty() {
            candidates.push(None);
        }
        for level in 0..=max_met {
            let mut budget = SEARCH_BUDGET;
            for &bye in &candidates {
                let rest: Vec<usize> = order.iter().copied().filter(|&b| Some(b) != bye).collect();
                match self.search(&rest, level, &mut budget) {
                    Search::Found(pairs) => return self.finish(pairs, bye, exhausted),
                    Search::NotFound => {}
                    Search::OutOfSteps => {
                        exhausted = true;
                        break;
                    }
                }
            }
        }
        // Unreachable at the top level (every pairing is allowed there) unless the search ran out of
        // steps: then Monrad's plain order.
        let bye = candidates[0];
        let rest: Vec<usize> = order.into_iter().filter(|&b| Some(b) != bye).collect();
        let pairs = rest.chunks(2).map(|c| (c[0], c[1])).collect();
        self.finish(pairs, bye, true)
    }

    /// Depth-first search for a pairing of `rest` (in placement order) where no pair met more than
    /// `level` times.
    fn search(&self, rest: &[usize], level: u16, budget: &mut u64) -> Search {
        let mut pairs = Vec::with_capacity(rest.len() / 2);
        let mut free = vec![false; self.n];
        for &b in rest {
            free[b] = true;
        }
        match self.dfs(rest, &mut free, level, budget, &mut pairs) {
            Some(true) => Search::Found(pairs),
            Some(false) => Search::NotFound,
            None => Search::OutOfSteps,
        }
    }

    /// `Some(true)`: `pairs` completed; `Some(false)`: no pairing; `None`: out of steps.
    fn dfs(
        &self,
        rest: &[usize],
        free: &mut [bool],
        level: u16,
        budget: &mut u64,
        pairs: &mut Vec<(usize, usize)>,
    ) -> Option<bool> {
        let Some(pos) = rest.iter().position(|&b| free[b]) else {
            return Some(true);
        };
        let top = rest[pos];
        // Forward check: a free bot with no allowed free partner dooms this branch.
        for &x in &rest[pos..] {
            if free[x]
                && !rest[pos..]
                    .iter()
                    .any(|&y| y != x && free[y] && self.met(x, y) <= level)
            {
                return Some(false);
            }
        }
        free[top] = false;
        for &other in &rest[pos + 1..] {
            if !free[other] || self.met(top, other) > level {
                continue;
            }
            if *budget == 0 {
                free[top] = true;
                return None;
            }
            *budget -= 1;
            free[other] = false;
            pairs.push((top, other));
            match self.dfs(rest, free, level, budget, pairs) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => {
                    free[top] = true;
                    free[other] = true;
                    pairs.pop();
                    return None;
                }
            }
            pairs.pop();
            free[other] = true;
        }
        free[top] = true;
        Some(false)
    }

    /// Orders each pair (opener first) and counts rematches.
    fn finish(&self, pairs: Vec<(usize, usize)>, bye: Option<usize>, exhausted: bool) -> Pairing {
        let odd_round = self.rounds.is_multiple_of(2); // the next round is rounds + 1
        let pairs: Vec<(usize, usize)> = pairs
            .into_iter()
            .map(|(high, low)| {
                let high_opens = match self.opened[high].cmp(&self.opened[low]) {
                    std::cmp::Ordering::Less => true,
                    std::cmp::Ordering::Greater => false,
                    std::cmp::Ordering::Equal => odd_round,
                };
                if high_opens {
                    (high, low)
                } else {
                    (low, high)
                }
            })
            .collect();
        let rematches = pairs.iter().filter(|&&(a, b)| self.met(a, b) > 0).count();
        Pairing {
            pairs,
            bye,
            rematches,
            exhausted,
        }
    }
}

enum Search {
    Found(Vec<(usize, usize)>),
    NotFound,
    OutOfSteps,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::Rng;

    /// Plays `rounds` rounds of a Swiss of `n` bots with results drawn from `seed` (a stronger bot, by
    /// index, wins more often), each pairing worth 4 half points; returns the state, the pairings and,
    /// per pair, the gap between the two scores when they were paired (half points).
    fn simulate(n: usize, rounds: u32, seed: u64) -> (SwissState, Vec<Pairing>, Vec<u32>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = SwissState::new(n, seed);
        let (mut all, mut gaps) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let p = s.pair_next();
            gaps.extend(
                p.pairs
                    .iter()
                    .map(|&(a, b)| s.half_points(a).abs_diff(s.half_points(b))),
            );
            let results: Vec<(u32, u32)> = p
                .pairs
                .iter()
                .map(|&(a, b)| {
                    // Two games; P(a wins a game) grows with b − a.
                    let mut pa = 0;
                    for _ in 0..2 {
                        let edge = 0.5 + (b as f64 - a as f64) / (4.0 * n as f64);
                        let x: f64 = rng.random();
                        pa += if x < edge - 0.1 {
                            2
                        } else if x < edge + 0.1 {
                            1
                        } else {
                            0
                        };
                    }
                    (pa, 4 - pa)
                })
                .collect();
            s.add_round(&p, &results, 4);
            all.push(p);
        }
        (s, all, gaps)
    }

    /// Whether the bots of `rest` can be paired with no pair that met before (brute force).
    fn rematch_free_exists(s: &SwissState, rest: &[usize]) -> bool {
        let Some((&first, others)) = rest.split_first() else {
            return true;
        };
        others.iter().enumerate().any(|(i, &o)| {
            if s.met(first, o) > 0 {
                return false;
            }
            let mut left = others.to_vec();
            left.remove(i);
            rematch_free_exists(s, &left)
        })
    }

    fn check_round(s: &SwissState, p: &Pairing) {
        let n = s.len();
        let mut seen = vec![0; n];
        for &(a, b) in &p.pairs {
            seen[a] += 1;
            seen[b] += 1;
        }
        if let Some(x) = p.bye {
            seen[x] += 1;
        }
        assert!(seen.iter().all(|&c| c == 1), "every bot once: {p:?}");
        assert_eq!(p.bye.is_some(), n % 2 == 1);
    }

    proptest! {
        // A fixed seed: the same 64 cases every run (the project's tests are deterministic).
        #![proptest_config(ProptestConfig {
            cases: 64,
            rng_seed: proptest::test_runner::RngSeed::Fixed(2026),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// No rematch while one can be avoided (checked by brute force over every bye and pairing),
        /// at most one bye per bot, every bot once per round.
        #[test]
        fn rematches_only_when_unavoidable_and_byes_at_most_once(n in 2usize..=11, seed in any::<u64>()) {
            let max_rounds = if n % 2 == 0 { n - 1 } else { n } as u32;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = SwissState::new(n, seed);
            for _ in 0..max_rounds {
                let p = s.pair_next();
                check_round(&s, &p);
                prop_assert!(!p.exhausted);
                if let Some(x) = p.bye {
                    prop_assert_eq!(s.byes(x), 0, "a second bye for {}", x);
                }
                if p.rematches > 0 {
                    // No choice of bye (among bots without one) and pairing avoids every rematch.
                    let order = s.placement();
                    let byes: Vec<Option<usize>> = if n % 2 == 1 {
                        order.iter().copied().filter(|&b| s.byes(b) == 0).map(Some).collect()
                    } else {
                        vec![None]
                    };
                    for bye in byes {
                        let rest: Vec<usize> = order.iter().copied().filter(|&b| Some(b) != bye).collect();
                        prop_assert!(!rematch_free_exists(&s, &rest), "an avoidable rematch: {:?}", p);
                    }
                }
                let results: Vec<(u32, u32)> = p.pairs.iter().map(|_| {
                    let a = rng.random_range(0..=4);
                    (a, 4 - a)
                }).collect();
                s.add_round(&p, &results, 4);
            }
        }

        /// Openers: each bot opens about half its pairings, within 3 over 7 rounds (the rule is greedy
        /// and gives no tighter bound: 2 fails for some fields). The pairing's two games give each bot
        /// the first move once, so the first-move counts over games are equal exactly.
        #[test]
        fn pairing_openers_stay_balanced(n in 4usize..=40, seed in any::<u64>()) {
            let rounds = 7.min(n as u32 - 1);
            let (_, all, _) = simulate(n, rounds, seed);
            let mut opened = vec![0i32; n];
            for p in &all {
                for &(a, b) in &p.pairs {
                    opened[a] += 1;
                    opened[b] -= 1;
                }
            }
            for (bot, d) in opened.iter().enumerate() {
                prop_assert!(d.abs() <= 3, "bot {} opened {:+} more pairings than it followed", bot, d);
            }
        }
    }

    #[test]
    fn two_hundred_random_bots_pair_near_scores_without_rematches() {
        for (n, seed) in [(200, 0), (200, 1), (201, 2)] {
            let (s, all, gaps) = simulate(n, 9, seed);
            let mut met = std::collections::HashSet::new();
            for p in &all {
                check_round(&s, p);
                assert_eq!(p.rematches, 0);
                assert!(!p.exhausted);
                for &(a, b) in &p.pairs {
                    assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
                }
            }
            let level = gaps.iter().filter(|&&g| g == 0).count();
            let max_gap = gaps.iter().copied().max().unwrap_or(0);
            eprintln!(
                "n={n} seed={seed}: {level} of {} pairs level, largest gap {max_gap} half points",
                gaps.len()
            );
            assert!(
                level * 10 >= gaps.len() * 8,
                "{level} of {} pairs level on score",
                gaps.len()
            );
            assert!(max_gap <= 4, "a pair {max_gap} half points apart");
            let (_, again, _) = simulate(n, 9, seed);
            assert_eq!(again, all, "the pairings are deterministic");
        }
    }

    #[test]
    fn an_odd_field_gives_the_lowest_placed_bot_without_a_bye_the_bye() {
        let mut s = SwissState::new(5, 1);
        let p = s.pair_next();
        let last = *s.placement().last().unwrap();
        assert_eq!(p.bye, Some(last));
        s.add_round(&p, &[(2, 2), (2, 2)], 4);
        // The bye holder now leads (4 half points); the next bye goes to another bot.
        let q = s.pair_next();
        assert_ne!(q.bye, Some(last));
        assert_eq!(s.half_points(last), 4);
    }
}
