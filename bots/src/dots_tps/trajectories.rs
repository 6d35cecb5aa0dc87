//! One-sided simulations: the bounds `Fmax`/`Fmin` and the surrounding trajectories.
//!
//! Source: seed `000_71d76f5b75d0c15c.txt`, sections "Предварительная работа с деревом вариантов"
//! (simulate only one side's m moves: the best capture difference it reaches bounds the minimax
//! from above for the mover, from below for the opponent), "Усечение дерева вариантов" (a
//! *surrounding trajectory* is a set of empty points whose filling by one colour captures; the
//! trajectories are collected during the same simulations, as a points × trajectories table) and
//! "Динамическое отсечение траекторий" (heuristic 2, [`heuristic2`]).
//!
//! The article simulates m moves of one side in every order (about 30^m positions); we enumerate
//! *sets* of at most n points instead, each once, in index order, playing them one after the other
//! and sharing prefixes. A set's captures hardly depend on the order its points are played in (the
//! exception: a dot put into an enemy house is taken at once unless it captures, R9). A
//! point of a trajectory of at most n points lies on a capturing chain whose other links are the
//! mover's dots, so it is within ⌈n/2⌉ steps (8-neighbourhood) of a live dot of the mover; for
//! n ≥ 4 a trajectory may also be a ring of new dots around an enemy dot, so the points next to an
//! enemy dot are candidates too. Only the points of the play range are tried. For n = 3, 4 and 5
//! only the sets that can matter are played (see [`simulate_with`] and `cycles.rs`), with the
//! same result.

use games::dots::Move;
use games::{Dots, Game, Player};

use super::patterns::{Cell, Grid};
use super::Control;

/// A rectangle of the board, 1-based inclusive bounds (the play range of the article's section
/// "Предварительный отбор точек").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub x0: u8,
    pub x1: u8,
    pub y0: u8,
    pub y1: u8,
}

impl Range {
    /// The smallest rectangle covering every dot of `pos` (live or captured), grown by `margin`
    /// rows and columns on each side and clipped to the board; the whole board when there is no dot.
    pub fn of(pos: &Dots, margin: u8) -> Range {
        let (mut x0, mut x1, mut y0, mut y1) = (u8::MAX, 0, u8::MAX, 0);
        for (x, y, p) in pos.points() {
            if matches!(
                p,
                games::dots::Point::Dot(_) | games::dots::Point::Captured(_)
            ) {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        if x1 == 0 {
            return Range {
                x0: 1,
                x1: pos.width(),
                y0: 1,
                y1: pos.height(),
            };
        }
        Range {
            x0: x0.saturating_sub(margin).max(1),
            x1: x1.saturating_add(margin).min(pos.width()),
            y0: y0.saturating_sub(margin).max(1),
            y1: y1.saturating_add(margin).min(pos.height()),
        }
    }

    /// Whether 1-based `x`, `y` is inside.
    pub fn contains(&self, x: u8, y: u8) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// The legal points of `pos` inside, in the order of [`Game::legal_moves`] (rows from the top).
    pub fn legal_points(&self, pos: &Dots) -> Vec<Move> {
        let mut out = Vec::new();
        for y in (self.y0..=self.y1).rev() {
            for x in self.x0..=self.x1 {
                let m = Move::Put { x, y };
                if pos.is_legal(m) {
                    out.push(m);
                }
            }
        }
        out
    }
}

/// A surrounding trajectory: empty points (sorted) whose filling by `owner` captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trajectory {
    pub owner: Player,
    pub points: Vec<Move>,
}

/// What the one-sided simulation of one player found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulation {
    /// The minimal trajectories (no one contains another) of at most `n` points.
    pub trajectories: Vec<Trajectory>,
    /// The best change of the player's capture difference over every set of at most `n` points
    /// (0 for the empty set, so never negative): `Fmax − current` for the mover, `current − Fmin`
    /// for the opponent.
    pub gain: i32,
    /// False when the budget stopped the enumeration: then `gain` and `trajectories` are partial.
    pub complete: bool,
}

/// A pass: the off-board point, which `Dots` records as a ply that changes nothing (see
/// [`Dots`]'s `play_unchecked`), so that one side can move twice in a row.
pub(crate) const PASS: Move = Move::Put { x: 0, y: 0 };

/// `player`'s captures minus the opponent's (R11).
pub(crate) fn diff(pos: &Dots, player: Player) -> i32 {
    pos.captures(player) as i32 - pos.captures(player.opponent()) as i32
}

/// Plays `m` for `player`, passing first if the opponent is to move; returns the plies played.
pub(super) fn put_as(pos: &mut Dots, player: Player, m: Move) -> usize {
    let mut plies = 1;
    if pos.turn() != player {
        pos.play_unchecked(PASS);
        plies = 2;
    }
    pos.play_unchecked(m);
    plies
}

/// The candidate points of `player`'s trajectories of at most `n` points (see the module docs),
/// in the order of `points`.
fn candidates(grid: &Grid, points: &[Move], player: Player, n: u32) -> Vec<Move> {
    let reach = n.div_ceil(2) as i32;
    points
        .iter()
        .copied()
        .filter(|&m| {
            let Move::Put { x, y } = m else { return false };
            let (x, y) = (i32::from(x) - 1, i32::from(y) - 1);
            for dy in -reach..=reach {
                for dx in -reach..=reach {
                    match grid.at(x + dx, y + dy) {
                        Cell::Dot(p) if p == player => return true,
                        Cell::Dot(_) if n >= 4 && dx.abs() <= 1 && dy.abs() <= 1 => return true,
                        _ => {}
                    }
                }
            }
            false
        })
        .collect()
}

/// Simulates `player` alone putting at most `n` dots on the `points` (the legal points of the play
/// range) of `pos`, and collects the trajectories and the best gain. `pos` is restored.
///
/// For n = 3, 4 and 5 the sets are enumerated the fast ways (see [`simulate_with`]); the result is
/// the same.
pub fn simulate(
    pos: &mut Dots,
    grid: &Grid,
    points: &[Move],
    player: Player,
    n: u32,
    ctl: &mut Control,
) -> Simulation {
    simulate_with(pos, grid, points, player, n, ctl, true)
}

/// [`simulate`], with the fast enumerations on or off (`fast`, for tests; off: every set of at
/// most `n` candidates is played, C(k, n) sets for k candidates).
///
/// The fast way for n = 3: every point of a capturing set of 3 points has two chain neighbours
/// among the mover's dots and the set; so a point with no own dot next to it is the middle of a
/// segment of 3 new points, and both its neighbours in the set have an own dot next to them. Hence
/// all sets of points next to an own dot, plus, for each point 2 steps away, the pairs of such
/// points next to it.
///
/// For n = 4 and 5: the cycles through the mover's dot components and the unions of the productive
/// ones, see `cycles.rs` (n ≥ 6 is enumerated the plain way: its rings of new points alone are
/// not restricted to diamonds, and it is not tested).
pub fn simulate_with(
    pos: &mut Dots,
    grid: &Grid,
    points: &[Move],
    player: Player,
    n: u32,
    ctl: &mut Control,
    fast: bool,
) -> Simulation {
    if fast && (4..=5).contains(&n) {
        let cands = candidates(grid, points, player, n);
        let e = super::cycles::enumerate(pos, grid, &cands, player, n, ctl);
        return minimal(e.found, player, e.gain, !e.stopped);
    }
    let fast = fast && n == 3;
    let cands = candidates(grid, points, player, if fast { 2 } else { n });
    let mut e = Enumerator {
        player,
        root_diff: diff(pos, player),
        cands,
        found: Vec::new(),
        gain: 0,
        stopped: false,
    };
    let mut set = Vec::with_capacity(n as usize);
    if n > 0 {
        e.dfs(pos, 0, n, true, &mut set, ctl);
    }
    if fast && !e.stopped {
        let near = e.cands.clone();
        let touches = |a: Move, b: Move| match (a, b) {
            (Move::Put { x, y }, Move::Put { x: u, y: v }) => {
                x.abs_diff(u) <= 1 && y.abs_diff(v) <= 1
            }
            _ => false,
        };
        'middles: for p in candidates(grid, points, player, 3) {
            if near.contains(&p) {
                continue;
            }
            let adj: Vec<Move> = near.iter().copied().filter(|&a| touches(a, p)).collect();
            for (i, &a) in adj.iter().enumerate() {
                for &b in &adj[i + 1..] {
                    if e.middle(pos, [a, b, p], ctl) {
                        break 'middles;
                    }
                }
            }
        }
    }
    minimal(e.found, player, e.gain, !e.stopped)
}

/// The simulation of `player` from the capturing sets `found` (in the order found), keeping the
/// minimal ones in that order.
fn minimal(found: Vec<Vec<Move>>, player: Player, gain: i32, complete: bool) -> Simulation {
    // Keep the minimal sets only: a set recorded when its last point captured may hold a point
    // the capture did not need, and then its subset without that point was recorded too.
    let mut found = found;
    found.sort_by_key(|t| t.len());
    let mut kept: Vec<Vec<Move>> = Vec::new();
    for t in found {
        if !kept.iter().any(|k| k.iter().all(|p| t.contains(p))) {
            kept.push(t);
        }
    }
    Simulation {
        trajectories: kept
            .into_iter()
            .map(|points| Trajectory {
                owner: player,
                points,
            })
            .collect(),
        gain,
        complete,
    }
}

struct Enumerator {
    player: Player,
    root_diff: i32,
    cands: Vec<Move>,
    found: Vec<Vec<Move>>,
    gain: i32,
    stopped: bool,
}

impl Enumerator {
    /// Plays the three points of `abp` in the order of the play range (rows from the top), as
    /// [`Enumerator::dfs`] would, since a dot put into an enemy house is taken at once unless it
    /// captures (R9), so the order matters; records the set when the last one captures and the
    /// others did not. Returns true when the budget stopped the enumeration.
    fn middle(&mut self, pos: &mut Dots, mut abp: [Move; 3], ctl: &mut Control) -> bool {
        abp.sort_by_key(|&m| match m {
            Move::Put { x, y } => (std::cmp::Reverse(y), x),
            Move::Ground => (std::cmp::Reverse(0), 0),
        });
        let mut plies = 0;
        let mut clean = true;
        for (k, &m) in abp.iter().enumerate() {
            if ctl.visit_sim() {
                self.stopped = true;
                break;
            }
            if !pos.is_legal(m) {
                break;
            }
            let before = pos.captures(self.player);
            plies += put_as(pos, self.player, m);
            let captured = pos.captures(self.player) > before;
            if k == 2 {
                self.gain = self.gain.max(diff(pos, self.player) - self.root_diff);
                if captured && clean {
                    let mut t = abp.to_vec();
                    t.sort();
                    self.found.push(t);
                }
            } else if captured {
                // {a} or {a, b} captures: covered by the sets of points next to own dots.
                clean = false;
            }
        }
        for _ in 0..plies {
            pos.undo();
        }
        self.stopped
    }

    /// Extends `set` by each candidate after `start`; `clean` while nothing in `set` captured.
    fn dfs(
        &mut self,
        pos: &mut Dots,
        start: usize,
        left: u32,
        clean: bool,
        set: &mut Vec<Move>,
        ctl: &mut Control,
    ) {
        for i in start..self.cands.len() {
            if ctl.visit_sim() {
                self.stopped = true;
                return;
            }
            let m = self.cands[i];
            if !pos.is_legal(m) {
                continue;
            }
            let before = pos.captures(self.player);
            let plies = put_as(pos, self.player, m);
            set.push(m);
            let captured = pos.captures(self.player) > before;
            self.gain = self.gain.max(diff(pos, self.player) - self.root_diff);
            if captured && clean {
                let mut t = set.clone();
                t.sort();
                self.found.push(t);
            }
            if left > 1 {
                self.dfs(pos, i + 1, left - 1, clean && !captured, set, ctl);
            }
            set.pop();
            for _ in 0..plies {
                pos.undo();
            }
            if self.stopped {
                return;
            }
        }
    }
}

/// Heuristic 2 of the article (applied once, before the search): which trajectories to keep.
/// A trajectory is dropped when it shares no point with any trajectory of the other player and
/// has more than one point that belongs to no other trajectory at all: the opponent can cut it at
/// any time by taking one of those points. Returns one flag per trajectory, true = keep.
pub fn heuristic2(trajectories: &[Trajectory]) -> Vec<bool> {
    trajectories
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let crosses = trajectories
                .iter()
                .any(|o| o.owner != t.owner && o.points.iter().any(|p| t.points.contains(p)));
            if crosses {
                return true;
            }
            let alone = t
                .points
                .iter()
                .filter(|p| {
                    !trajectories
                        .iter()
                        .enumerate()
                        .any(|(j, o)| j != i && o.points.contains(p))
                })
                .count();
            alone <= 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::dots::Start;

    fn t(owner: Player, pts: &[(u8, u8)]) -> Trajectory {
        Trajectory {
            owner,
            points: pts.iter().map(|&(x, y)| Move::Put { x, y }).collect(),
        }
    }

    #[test]
    fn the_fast_enumeration_of_three_points_finds_the_same_as_the_general_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut compared = 0;
        for game in 0..60 {
            let mut pos = Dots::new(9, 9, Start::Cross);
            for _ in 0..(10 + game % 30) {
                let moves = pos.legal_moves();
                pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            let range = Range::of(&pos, 1);
            let pts = range.legal_points(&pos);
            let grid = Grid::new(&pos);
            for p in [Player::First, Player::Second] {
                let mut ctl = Control::new(None, None);
                let fast = simulate_with(&mut pos, &grid, &pts, p, 3, &mut ctl, true);
                let fast_nodes = ctl.sim_nodes;
                let mut ctl = Control::new(None, None);
                let general = simulate_with(&mut pos, &grid, &pts, p, 3, &mut ctl, false);
                let sorted = |s: &Simulation| {
                    let mut v: Vec<Vec<Move>> =
                        s.trajectories.iter().map(|t| t.points.clone()).collect();
                    v.sort();
                    v
                };
                assert_eq!(sorted(&fast), sorted(&general), "game {game}\n{pos}");
                assert_eq!(fast.gain, general.gain, "game {game}\n{pos}");
                assert!(fast_nodes <= ctl.sim_nodes);
                compared += usize::from(!general.trajectories.is_empty());
            }
        }
        assert!(
            compared > 20,
            "only {compared} simulations found a trajectory"
        );
    }

    /// A middle game: `plies` random moves from the cross on `w`×`h`, seeded, most of them (all
    /// but one in `wild`) next to a dot, as players play.
    fn middle_game(seed: u64, w: u8, h: u8, plies: usize, wild: usize) -> Dots {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut pos = Dots::new(w, h, Start::Cross);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let near: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let Move::Put { x, y } = m else { return false };
                    (-1i32..=1).any(|dx| {
                        (-1i32..=1).any(|dy| {
                            let (u, v) = (i32::from(x) + dx, i32::from(y) + dy);
                            u >= 1
                                && v >= 1
                                && matches!(
                                    pos.point(u as u8, v as u8),
                                    Some(games::dots::Point::Dot(_))
                                )
                        })
                    })
                })
                .collect();
            let from = if near.is_empty() || rng.random_range(0..wild.max(1)) == 0 && wild > 0 {
                &moves
            } else {
                &near
            };
            if from.is_empty() {
                break;
            }
            pos.play(from[rng.random_range(0..from.len())]).unwrap();
        }
        pos
    }

    /// Compares the fast enumeration with the plain one for both players of `pos` at `n` points:
    /// the same trajectories in the same order, the same gain, both complete, and no more positions.
    /// Returns the positions of each (fast, plain) and whether a trajectory was found.
    fn compare(pos: &mut Dots, margin: u8, n: u32, what: &str) -> (u64, u64, bool) {
        let before = pos.clone();
        let range = Range::of(pos, margin);
        let pts = range.legal_points(pos);
        let grid = Grid::new(pos);
        let (mut fast_nodes, mut plain_nodes, mut any) = (0, 0, false);
        for p in [Player::First, Player::Second] {
            let mut ctl = Control::new(None, None);
            let fast = simulate_with(pos, &grid, &pts, p, n, &mut ctl, true);
            fast_nodes += ctl.sim_nodes;
            assert_eq!(*pos, before);
            let mut ctl = Control::new(None, None);
            let plain = simulate_with(pos, &grid, &pts, p, n, &mut ctl, false);
            plain_nodes += ctl.sim_nodes;
            assert_eq!(*pos, before);
            assert!(fast.complete && plain.complete);
            assert_eq!(
                fast.trajectories, plain.trajectories,
                "{what} {p:?} n={n}\n{pos}"
            );
            assert_eq!(fast.gain, plain.gain, "{what} {p:?} n={n}\n{pos}");
            any |= !plain.trajectories.is_empty();
        }
        assert!(
            fast_nodes <= plain_nodes,
            "{what}: {fast_nodes} > {plain_nodes}"
        );
        (fast_nodes, plain_nodes, any)
    }

    /// [`compare`] on the middle game of case `k` and `seed`: `side`×`side`, `from + (7·seed mod
    /// spread)` plies, `wild` as in [`middle_game`], at `n` points and `margin`. Adds the positions of
    /// each way, and 1 if a trajectory was found, to `totals`.
    fn compare_case(
        k: usize,
        seed: u64,
        (side, n, from, spread, wild, margin): (u8, u32, usize, usize, usize, u8),
        totals: &mut (u64, u64, usize),
    ) {
        let plies = from + (seed as usize * 7) % spread;
        let mut pos = middle_game(1000 * k as u64 + seed, side, side, plies, wild);
        let what = format!("case {k} seed {seed} ({side}x{side}, {plies} plies)");
        let (f, p, any) = compare(&mut pos, margin, n, &what);
        totals.0 += f;
        totals.1 += p;
        totals.2 += usize::from(any);
    }

    #[test]
    fn the_fast_enumeration_of_four_and_five_points_finds_the_same_as_the_general_one() {
        // (board side, n, positions, plies from, plies spread, wild 1 in, margin)
        let cases: [(u8, u32, u64, usize, usize, usize, u8); 5] = [
            (7, 5, 40, 8, 24, 0, 1),
            (9, 4, 80, 10, 40, 0, 1),
            (9, 4, 40, 10, 40, 1, 1),
            (12, 4, 40, 20, 60, 4, 1),
            (20, 4, 8, 30, 50, 0, 2),
        ];
        let mut totals = (0, 0, 0);
        for (k, &(side, n, count, from, spread, wild, margin)) in cases.iter().enumerate() {
            for seed in 0..count {
                compare_case(k, seed, (side, n, from, spread, wild, margin), &mut totals);
            }
        }
        eprintln!(
            "fast {} plain {} positions, {} positions with a trajectory",
            totals.0, totals.1, totals.2
        );
        assert!(
            totals.2 > 100,
            "only {} positions with a trajectory",
            totals.2
        );
    }

    /// Exploration: `FAST_ENUM_SEEDS=k` (default 200) more seeds per board than the unit test
    /// above, from seed `FAST_ENUM_FROM` (default 100,000), n = 4 and 5.
    #[test]
    #[ignore]
    fn stress_the_fast_enumeration() {
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let (count, from_seed) = (env("FAST_ENUM_SEEDS", 200), env("FAST_ENUM_FROM", 100_000));
        let cases: [(u8, u32, usize, usize, usize, u8); 7] = [
            (6, 5, 6, 20, 0, 1),
            (7, 5, 8, 30, 2, 1),
            (8, 5, 8, 14, 0, 1),
            (9, 4, 10, 60, 0, 1),
            (9, 4, 10, 60, 1, 1),
            (14, 4, 20, 80, 3, 1),
            (20, 4, 20, 60, 0, 2),
        ];
        let mut totals = (0, 0, 0);
        for (k, &case) in cases.iter().enumerate() {
            let count = if case.0 == 20 { count / 10 } else { count };
            for seed in from_seed..from_seed + count {
                compare_case(k, seed, case, &mut totals);
            }
            eprintln!(
                "case {k}: fast {} plain {} ({} with a trajectory)",
                totals.0, totals.1, totals.2
            );
        }
    }

    #[test]
    fn heuristic2_drops_a_lonely_trajectory_with_two_points_of_its_own() {
        let a = t(Player::First, &[(1, 1), (2, 2)]);
        let b = t(Player::First, &[(1, 1), (3, 3)]);
        let c = t(Player::First, &[(5, 5), (6, 6)]);
        let d = t(Player::Second, &[(6, 6), (7, 7)]);
        let e = t(Player::First, &[(9, 9), (8, 8)]);
        assert_eq!(
            heuristic2(&[a, b, c, d, e]),
            vec![true, true, true, true, false]
        );
    }

    #[test]
    fn a_one_move_capture_is_a_one_point_trajectory() {
        // Blue (first) around Red's 5-5 on three sides; Blue to move: 5-4 captures.
        let mut pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8").unwrap();
        let before = pos.clone();
        let range = Range::of(&pos, 1);
        let pts = range.legal_points(&pos);
        let grid = Grid::new(&pos);
        let mut ctl = Control::new(None, None);
        let sim = simulate(&mut pos, &grid, &pts, Player::First, 1, &mut ctl);
        assert_eq!(pos, before);
        assert!(sim.complete);
        assert_eq!(sim.gain, 1);
        assert_eq!(sim.trajectories, vec![t(Player::First, &[(5, 4)])]);
        // With two moves, every other trajectory holds 5-4 or is a new one of two points.
        let sim2 = simulate(&mut pos, &grid, &pts, Player::First, 2, &mut ctl);
        assert!(sim2.trajectories.contains(&t(Player::First, &[(5, 4)])));
        assert!(sim2.trajectories.iter().all(|t| t.points.len() <= 2));
        assert_eq!(pos, before);
    }
}
