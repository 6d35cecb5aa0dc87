//! The fast enumeration of the one-sided simulations for trajectories of 4 and 5 points (issue 28).
//!
//! The plain enumeration ([`super::trajectories::simulate_with`] with `fast` off) plays every set
//! of at most n candidate points, C(k, n) sets for k candidates. Here only the sets that can matter
//! are played, in the same order of play (the play range's, which matters since a dot put into an
//! enemy house is taken at once unless it captures, R9), and the result is the same `Simulation`:
//!
//! - **Trajectories.** A capture is found by tracing a chain of the mover's live dots through the
//!   dot just put (8-neighbourhood). In a minimal capturing set every new point lies on that chain
//!   (a point off it changes neither the chain nor the flooded region), so the set is the new points
//!   of a closed chain whose other links are the mover's dots. Take the graph whose nodes are the
//!   candidate points and the 8-connected components of the mover's live dots (a component is a
//!   free hop: its dots are already there), with an edge between 8-adjacent points and between a
//!   point and a component it touches. The set is then the points of a simple cycle of that graph
//!   (a chain that passes a component twice splits into two shorter chains through it, one of which
//!   encloses the enemy dot with fewer points), or a single point that touches the mover's dots, or
//!   a ring of new points alone; with at most 5 points such a ring encloses one point only, so it is
//!   the four orthogonal neighbours of an enemy dot (a diamond). The cycles are enumerated once each
//!   from their smallest node (components first), pruned by the fewest points still needed to come
//!   back (a 0-1 breadth-first search per start).
//! - **Gain.** The best set's captures are made by chains, each of which captures on its own (its
//!   enemy dots are inside whatever else is played), so the best set is a union of at most n
//!   *productive* sets (those whose play captured something): the unions of productive sets within
//!   n points are played too, and the gain is the best over every played position.
//!
//! Every set played here is one the plain enumeration plays, in the same order, so nothing is found
//! that it does not find and the gain is never above its; the unit test
//! `the_fast_enumeration_of_four_and_five_points_finds_the_same_as_the_general_one` checks equality
//! on random middle games. It is used for n = 4 and 5 only: for n ≥ 6 rings of new points alone may
//! enclose more than one point (and [`enumerate`] would have to start cycles from every point).

use games::dots::{Move, Point};
use games::{Dots, Game, Player};

use super::patterns::{Cell, Grid};
use super::trajectories::{diff, put_as};
use super::Control;

/// What [`enumerate`] found.
pub(super) struct Enumeration {
    /// The capturing sets found (each played in the order of `cands`, its last point captured and
    /// none before), each sorted by [`Move`]'s order, listed in the order the plain enumeration's
    /// depth-first search finds them (lexicographic on the candidate indices).
    pub found: Vec<Vec<Move>>,
    /// The best change of `player`'s capture difference over every position played (0 at least).
    pub gain: i32,
    /// Whether the budget stopped the enumeration.
    pub stopped: bool,
}

/// Enumerates `player`'s sets of at most `n` points of `cands` (the plain enumeration's candidates,
/// in the play range's order) the fast way (see the module docs). `pos` is restored.
pub(super) fn enumerate(
    pos: &mut Dots,
    grid: &Grid,
    cands: &[Move],
    player: Player,
    n: u32,
    ctl: &mut Control,
) -> Enumeration {
    let n = n as usize;
    let mut sets = cycle_sets(pos, grid, cands, player, n);
    sets.sort_unstable();
    sets.dedup();
    let mut play = Play {
        player,
        root_diff: diff(pos, player),
        cands,
        stack: Vec::with_capacity(n),
        found: Vec::new(),
        gain: 0,
        stopped: false,
    };
    let productive = play.play_all(pos, &sets, ctl);
    if !play.stopped {
        // The points inside an enemy house: a set holding one may capture only after another set
        // has captured (its dot is taken at once otherwise, R9), so it joins the unions too.
        let house: Vec<bool> = cands
            .iter()
            .map(|&m| match m {
                Move::Put { x, y } => pos.point(x, y) == Some(Point::House(player.opponent())),
                Move::Ground => false,
            })
            .collect();
        let pool: Vec<(&[u16], bool)> = sets
            .iter()
            .zip(&productive)
            .filter(|(s, &p)| p || s.iter().any(|&i| house[usize::from(i)]))
            .map(|(s, &p)| (s.as_slice(), p))
            .collect();
        let mut unions = Vec::new();
        let mut cur = Vec::with_capacity(n);
        union_sets(&pool, 0, &mut cur, 0, false, n, &mut unions);
        // Too many to hold (each is played, so no budget would play them all): incomplete.
        let cut_short = unions.len() >= MAX_UNIONS;
        unions.sort_unstable();
        unions.dedup();
        unions.retain(|u| sets.binary_search(u).is_err());
        play.play_all(pos, &unions, ctl);
        play.stopped |= cut_short;
    }
    let mut found = std::mem::take(&mut play.found);
    found.sort_unstable();
    found.dedup();
    Enumeration {
        found: found
            .into_iter()
            .map(|s| {
                let mut t: Vec<Move> = s.iter().map(|&i| cands[usize::from(i)]).collect();
                t.sort();
                t
            })
            .collect(),
        gain: play.gain,
        stopped: play.stopped,
    }
}

/// The 8 neighbours' offsets, (dx, dy).
pub(super) const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The sets to play first: the points of every simple cycle through a component of `player`'s dots
/// with at most `n` points, every point touching `player`'s dots and every diamond around an enemy
/// dot (rings of new points alone, exact for n ≤ 5). Each set holds indices into `cands`, ascending.
fn cycle_sets(pos: &Dots, grid: &Grid, cands: &[Move], player: Player, n: usize) -> Vec<Vec<u16>> {
    let (w, h) = (i32::from(pos.width()), i32::from(pos.height()));
    let cell = |x: i32, y: i32| (y * w + x) as usize;
    let xy = |m: Move| match m {
        Move::Put { x, y } => (i32::from(x) - 1, i32::from(y) - 1),
        Move::Ground => (-1, -1),
    };
    let on = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h;
    // The 8-connected components of the player's live dots.
    const NONE: u32 = u32::MAX;
    let mut comp = vec![NONE; (w * h) as usize];
    let mut comps = 0u32;
    let mut stack = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if grid.at(x, y) != Cell::Dot(player) || comp[cell(x, y)] != NONE {
                continue;
            }
            comp[cell(x, y)] = comps;
            stack.push((x, y));
            while let Some((a, b)) = stack.pop() {
                for (dx, dy) in AROUND {
                    let (u, v) = (a + dx, b + dy);
                    if on(u, v) && grid.at(u, v) == Cell::Dot(player) && comp[cell(u, v)] == NONE {
                        comp[cell(u, v)] = comps;
                        stack.push((u, v));
                    }
                }
            }
            comps += 1;
        }
    }
    let mut at = vec![u16::MAX; (w * h) as usize];
    for (i, &m) in cands.iter().enumerate() {
        let (x, y) = xy(m);
        if on(x, y) {
            at[cell(x, y)] = i as u16;
        }
    }
    // Nodes: the components that touch a candidate (renumbered 0..c), then the candidates.
    let mut renum = vec![NONE; comps as usize];
    let mut c = 0u32;
    let mut touches: Vec<Vec<u32>> = vec![Vec::new(); cands.len()];
    let mut point_adj: Vec<Vec<u32>> = vec![Vec::new(); cands.len()];
    for (i, &m) in cands.iter().enumerate() {
        let (x, y) = xy(m);
        for (dx, dy) in AROUND {
            let (u, v) = (x + dx, y + dy);
            if !on(u, v) {
                continue;
            }
            let k = comp[cell(u, v)];
            if k != NONE {
                if renum[k as usize] == NONE {
                    renum[k as usize] = c;
                    c += 1;
                }
                let r = renum[k as usize];
                if !touches[i].contains(&r) {
                    touches[i].push(r);
                }
            }
            let j = at[cell(u, v)];
            if j != u16::MAX {
                point_adj[i].push(u32::from(j));
            }
        }
    }
    let nodes = c as usize + cands.len();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); nodes];
    for i in 0..cands.len() {
        let p = c + i as u32;
        for &r in &touches[i] {
            adj[r as usize].push(p);
            adj[p as usize].push(r);
        }
        for &j in &point_adj[i] {
            adj[p as usize].push(c + j);
        }
    }

    let mut out: Vec<Vec<u16>> = Vec::new();
    // Single points touching the player's dots.
    for (i, t) in touches.iter().enumerate() {
        if !t.is_empty() {
            out.push(vec![i as u16]);
        }
    }
    // Diamonds around enemy dots.
    if n >= 4 {
        for y in 0..h {
            for x in 0..w {
                if grid.at(x, y) != Cell::Dot(player.opponent()) {
                    continue;
                }
                let mut d: Vec<u16> = Vec::with_capacity(4);
                for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    let (u, v) = (x + dx, y + dy);
                    if on(u, v) && at[cell(u, v)] != u16::MAX {
                        d.push(at[cell(u, v)]);
                    }
                }
                if d.len() == 4 {
                    d.sort_unstable();
                    out.push(d);
                }
            }
        }
    }
    // Simple cycles, each from its smallest node.
    debug_assert!(
        n <= 5,
        "rings of new points alone are diamonds only up to 5 points"
    );
    let starts = c as usize;
    let cost = |v: u32| usize::from(v >= c);
    let mut dist = vec![usize::MAX; nodes];
    let mut deque = std::collections::VecDeque::new();
    let mut path: Vec<u32> = Vec::with_capacity(2 * n + 2);
    let mut on_path = vec![false; nodes];
    for s in 0..starts as u32 {
        // dist[v]: the fewest points strictly between v and s on a path through nodes above s.
        dist.fill(usize::MAX);
        deque.clear();
        for &v in &adj[s as usize] {
            if v > s && dist[v as usize] != 0 {
                dist[v as usize] = 0;
                deque.push_front(v);
            }
        }
        while let Some(u) = deque.pop_front() {
            let du = dist[u as usize] + cost(u);
            if du > n {
                continue;
            }
            for &v in &adj[u as usize] {
                if v > s && du < dist[v as usize] {
                    dist[v as usize] = du;
                    if cost(u) == 0 {
                        deque.push_front(v);
                    } else {
                        deque.push_back(v);
                    }
                }
            }
        }
        path.clear();
        path.push(s);
        on_path[s as usize] = true;
        cycles_from(
            &adj,
            &dist,
            c,
            n,
            cost(s),
            &mut path,
            &mut on_path,
            &mut out,
        );
        on_path[s as usize] = false;
    }
    out
}

/// Extends the simple `path` (from its first node, the smallest of the cycle) holding `used` points;
/// records the points of each cycle closed back to the start (once per direction pair).
#[allow(clippy::too_many_arguments)]
fn cycles_from(
    adj: &[Vec<u32>],
    dist: &[usize],
    c: u32,
    n: usize,
    used: usize,
    path: &mut Vec<u32>,
    on_path: &mut [bool],
    out: &mut Vec<Vec<u16>>,
) {
    let s = path[0];
    let v = *path.last().unwrap_or(&s);
    for &w in &adj[v as usize] {
        if w == s {
            // Each cycle twice, once per direction: keep the one whose second node is smaller.
            if path.len() >= 3 && path[1] < v {
                let mut set: Vec<u16> = path
                    .iter()
                    .filter(|&&p| p >= c)
                    .map(|&p| (p - c) as u16)
                    .collect();
                set.sort_unstable();
                out.push(set);
            }
            continue;
        }
        if w < s || on_path[w as usize] {
            continue;
        }
        let u = used + usize::from(w >= c);
        if dist[w as usize] == usize::MAX || u + dist[w as usize] > n {
            continue;
        }
        path.push(w);
        on_path[w as usize] = true;
        cycles_from(adj, dist, c, n, u, path, on_path, out);
        on_path[w as usize] = false;
        path.pop();
    }
}

/// The most unions [`union_sets`] lists (some 60 MB of sets at most): past it the enumeration is
/// reported stopped, as when the node budget runs out, since every union is played and no move's
/// budget plays a million. It bounds the memory, not the time: unions that hold no productive set
/// are still explored, unlisted.
const MAX_UNIONS: usize = 1 << 20;

/// Every union of two or more of the sets of `pool` (ascending, each with whether it is
/// productive) with at most `n` points and at least one productive set, each ascending: the sets
/// after `start` added to `cur` (`depth` sets so far, `prod` if one of them is productive). Stops
/// once `out` holds [`MAX_UNIONS`].
fn union_sets(
    pool: &[(&[u16], bool)],
    start: usize,
    cur: &mut Vec<u16>,
    depth: usize,
    prod: bool,
    n: usize,
    out: &mut Vec<Vec<u16>>,
) {
    for i in start..pool.len() {
        if out.len() >= MAX_UNIONS {
            return;
        }
        let (set, p) = pool[i];
        let prod = prod || p;
        let mut u = Vec::with_capacity(cur.len() + set.len());
        let (mut a, mut b) = (0, 0);
        let (x, y) = (&cur[..], set);
        while a < x.len() || b < y.len() {
            if b == y.len() || (a < x.len() && x[a] < y[b]) {
                u.push(x[a]);
                a += 1;
            } else if a == x.len() || y[b] < x[a] {
                u.push(y[b]);
                b += 1;
            } else {
                u.push(x[a]);
                a += 1;
                b += 1;
            }
            if u.len() > n {
                break;
            }
        }
        if u.len() > n || u.len() == cur.len() {
            continue;
        }
        if depth >= 1 && prod {
            out.push(u.clone());
        }
        let mut next = u;
        std::mem::swap(cur, &mut next);
        union_sets(pool, i + 1, cur, depth + 1, prod, n, out);
        std::mem::swap(cur, &mut next);
    }
}

/// One point of the sets being played: its candidate index, its plies (0 when it was illegal and
/// skipped, as the plain enumeration skips it), and whether it captured.
struct Step {
    idx: u16,
    plies: usize,
    legal: bool,
    captured: bool,
}

/// Plays sets one after the other, sharing the prefix with the previous set.
struct Play<'a> {
    player: Player,
    root_diff: i32,
    cands: &'a [Move],
    stack: Vec<Step>,
    found: Vec<Vec<u16>>,
    gain: i32,
    stopped: bool,
}

impl Play<'_> {
    /// Plays each of `sets` (ascending, sorted), recording the capturing prefixes and the gain;
    /// returns for each set whether something captured during its play. `pos` is restored.
    fn play_all(&mut self, pos: &mut Dots, sets: &[Vec<u16>], ctl: &mut Control) -> Vec<bool> {
        let mut productive = Vec::with_capacity(sets.len());
        'sets: for set in sets {
            let common = self
                .stack
                .iter()
                .zip(set)
                .take_while(|(s, &i)| s.idx == i)
                .count();
            self.pop_to(pos, common);
            for &i in &set[common..] {
                if ctl.visit_sim() {
                    self.stopped = true;
                    break 'sets;
                }
                let m = self.cands[usize::from(i)];
                if !pos.is_legal(m) {
                    self.stack.push(Step {
                        idx: i,
                        plies: 0,
                        legal: false,
                        captured: false,
                    });
                    continue;
                }
                let clean = !self.stack.iter().any(|s| s.captured);
                let before = pos.captures(self.player);
                let plies = put_as(pos, self.player, m);
                let captured = pos.captures(self.player) > before;
                self.gain = self.gain.max(diff(pos, self.player) - self.root_diff);
                self.stack.push(Step {
                    idx: i,
                    plies,
                    legal: true,
                    captured,
                });
                if captured && clean {
                    self.found.push(
                        self.stack
                            .iter()
                            .filter(|s| s.legal)
                            .map(|s| s.idx)
                            .collect(),
                    );
                }
            }
            productive.push(self.stack.iter().any(|s| s.captured));
        }
        self.pop_to(pos, 0);
        productive
    }

    /// Takes back the steps above the first `len`.
    fn pop_to(&mut self, pos: &mut Dots, len: usize) {
        while self.stack.len() > len {
            if let Some(s) = self.stack.pop() {
                for _ in 0..s.plies {
                    pos.undo();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unions_stop_at_their_cap() {
        // 200 productive one-point sets: C(200, 2) + … + C(200, 5) unions of at most 5 points,
        // far more than the cap.
        let sets: Vec<Vec<u16>> = (0..200).map(|i| vec![i]).collect();
        let pool: Vec<(&[u16], bool)> = sets.iter().map(|s| (s.as_slice(), true)).collect();
        let mut out = Vec::new();
        union_sets(&pool, 0, &mut Vec::new(), 0, false, 5, &mut out);
        assert_eq!(out.len(), MAX_UNIONS);
        // A small pool lists every union: 3 pairs and the triple.
        let mut out = Vec::new();
        union_sets(&pool[..3], 0, &mut Vec::new(), 0, false, 5, &mut out);
        out.sort();
        assert_eq!(out, vec![vec![0, 1], vec![0, 1, 2], vec![0, 2], vec![1, 2]]);
    }
}
