//! Group safety (ours, option `safety`, issue 28): how many dots the opponent still needs to cut
//! a group from the board's edge, and which points those are.
//!
//! The article's importance and its search see an enclosure only within `reach` points; against
//! oppai-rs the full-board games were lost to rings of 20–60 moves around large groups, built one
//! quiet move at a time. This module gives the root a longer view:
//!
//! - A **group** is a 4-connected component of a player's live dots: an enemy ring cannot pass
//!   between two dots side by side, but it can pass between two diagonal ones (its own diagonal
//!   link crosses theirs; the rules forbid nothing there), so a group is captured whole or not at
//!   all.
//! - Its **cut** is the least number of empty points the enemy must take so that no 4-connected
//!   path of the group's player's dots, bases and empty points leads from it to the board's edge
//!   (where nothing can be enclosed: a ring is made of dots only, R1): an 8-connected wall of
//!   enemy dots is exactly what blocks every 4-connected path. It is a vertex min-cut (Menger's theorem), found by augmenting paths
//!   (Edmonds–Karp on the split-vertex graph: each empty point carries one path, a dot of the player
//!   any number), stopped once the cut exceeds [`MAX_CUT`]: such a group is safe enough. A group
//!   with a grounded dot (R12) has no finite cut.
//! - The **points at stake** of a group with cut `c ≤ MAX_CUT` and `s` dots are the `c` points of
//!   its min-cut nearest to the group (the source side's frontier after the last augmentation):
//!   playing one is the most direct attack on the group (for the enemy) or defence of it (for its
//!   player, whose dot there forces the cut elsewhere, usually further out).
//!
//! [`bonus`] adds `weight · s / c` thousandths to the importance of each point at stake, for the
//! mover's groups and the opponent's alike (a point on several cuts adds each), within ±999 as the
//! other importance terms so that `k1·I < k2`: a capture the search finds still decides.

use games::dots::{Move, Point};
use games::{Dots, Player};

/// The largest cut [`bonus`] looks at, points: a group that needs more enemy moves to cut off is
/// left alone.
pub const MAX_CUT: u32 = 8;

/// A capacity no augmenting path exhausts (a dot of the group's player).
const INF: u32 = u32::MAX / 2;

/// A group of one player's live dots and its cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Its dots, as indices `(y − 1)·W + (x − 1)`.
    pub dots: Vec<usize>,
    /// Its cut, points; `None`: more than [`MAX_CUT`], grounded, or 0 (no path out at all, which a
    /// live group does not have).
    pub cut: Option<u32>,
    /// The points of its min-cut nearest to it (as many as `cut`), indices as `dots`.
    pub at_stake: Vec<usize>,
}

/// One directed edge of the flow graph and its residual capacity; its reverse edge is `self ^ 1`.
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: u32,
    cap: u32,
}

/// The split-vertex graph of one player's escapes: node `2i` is point `i`'s entry, `2i + 1` its
/// exit, then the sink; the source's edges are added per group.
struct Flow {
    edges: Vec<Edge>,
    /// Per node, the indices of its edges.
    out: Vec<Vec<u32>>,
    /// The number of edges before any group's source edges.
    base: usize,
    source: u32,
    sink: u32,
}

impl Flow {
    fn add(&mut self, from: u32, to: u32, cap: u32) {
        self.out[from as usize].push(self.edges.len() as u32);
        self.edges.push(Edge { to, cap });
        self.out[to as usize].push(self.edges.len() as u32);
        self.edges.push(Edge { to: from, cap: 0 });
    }

    /// One shortest augmenting path's bottleneck, pushed; 0 when none is left. `parent` is scratch.
    fn augment(&mut self, parent: &mut [u32]) -> u32 {
        parent.fill(u32::MAX);
        let mut queue = std::collections::VecDeque::new();
        queue.push_back(self.source);
        parent[self.source as usize] = u32::MAX - 1;
        'search: while let Some(u) = queue.pop_front() {
            for &e in &self.out[u as usize] {
                let Edge { to, cap } = self.edges[e as usize];
                if cap > 0 && parent[to as usize] == u32::MAX {
                    parent[to as usize] = e;
                    if to == self.sink {
                        break 'search;
                    }
                    queue.push_back(to);
                }
            }
        }
        if parent[self.sink as usize] == u32::MAX {
            return 0;
        }
        let mut bottleneck = INF;
        let mut v = self.sink;
        while v != self.source {
            let e = parent[v as usize] as usize;
            bottleneck = bottleneck.min(self.edges[e].cap);
            v = self.edges[e ^ 1].to;
        }
        let mut v = self.sink;
        while v != self.source {
            let e = parent[v as usize] as usize;
            self.edges[e].cap -= bottleneck;
            self.edges[e ^ 1].cap += bottleneck;
            v = self.edges[e ^ 1].to;
        }
        bottleneck
    }

    /// The nodes the source reaches in the residual graph.
    fn reached(&self) -> Vec<bool> {
        let mut seen = vec![false; self.out.len()];
        let mut stack = vec![self.source];
        seen[self.source as usize] = true;
        while let Some(u) = stack.pop() {
            for &e in &self.out[u as usize] {
                let Edge { to, cap } = self.edges[e as usize];
                if cap > 0 && !seen[to as usize] {
                    seen[to as usize] = true;
                    stack.push(to);
                }
            }
        }
        seen
    }
}

/// The groups of `player` in `pos`, each with its cut and points at stake (board order of their
/// first dot, rows from the bottom). Cost: per group at most `MAX_CUT + 1` breadth-first searches
/// of a graph of 2·W·H nodes.
pub fn groups(pos: &Dots, player: Player) -> Vec<Group> {
    let (w, h) = (usize::from(pos.width()), usize::from(pos.height()));
    let n = w * h;
    let at = |i: usize| {
        pos.point((i % w) as u8 + 1, (i / w) as u8 + 1)
            .expect("on the board")
    };
    // Per point: its capacity as a link of the player's escape (0: blocked).
    let cap: Vec<u32> = (0..n)
        .map(|i| match at(i) {
            // Its dots, and the insides of its bases: their empty points and the enemy dots it
            // captured (R12 counts both as its own).
            Point::Dot(p) | Point::Dead(p) if p == player => INF,
            Point::Captured(q) if q != player => INF,
            Point::Empty => 1,
            Point::House(p) if p == player => 1,
            _ => 0,
        })
        .collect();
    let neighbours = |i: usize| {
        let (x, y) = (i % w, i / w);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (y + 1 < h).then(|| i + w),
        ]
        .into_iter()
        .flatten()
    };
    let on_edge = |i: usize| i.is_multiple_of(w) || i % w == w - 1 || i / w == 0 || i / w == h - 1;
    let mut flow = Flow {
        edges: Vec::new(),
        out: vec![Vec::new(); 2 * n + 2],
        base: 0,
        source: 2 * n as u32,
        sink: 2 * n as u32 + 1,
    };
    for i in 0..n {
        if cap[i] == 0 {
            continue;
        }
        let (entry, exit) = (2 * i as u32, 2 * i as u32 + 1);
        flow.add(entry, exit, cap[i]);
        for j in neighbours(i) {
            if cap[j] > 0 {
                flow.add(exit, 2 * j as u32, INF);
            }
        }
        if on_edge(i) {
            flow.add(exit, flow.sink, INF);
        }
    }
    flow.base = flow.edges.len();
    let fresh: Vec<u32> = flow.edges.iter().map(|e| e.cap).collect();

    let mut seen = vec![false; n];
    let mut parent = vec![0u32; 2 * n + 2];
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] || !matches!(at(start), Point::Dot(p) if p == player) {
            continue;
        }
        let mut dots = vec![start];
        seen[start] = true;
        let mut k = 0;
        while k < dots.len() {
            for j in neighbours(dots[k]) {
                if !seen[j] && matches!(at(j), Point::Dot(p) if p == player) {
                    seen[j] = true;
                    dots.push(j);
                }
            }
            k += 1;
        }
        // This group's source edges, on the graph's fresh capacities.
        for (e, &c) in flow.edges.iter_mut().zip(&fresh) {
            e.cap = c;
        }
        flow.edges.truncate(flow.base);
        for v in flow.out.iter_mut() {
            while v.last().is_some_and(|&e| e as usize >= flow.base) {
                v.pop();
            }
        }
        for &d in &dots {
            flow.add(flow.source, 2 * d as u32, INF);
        }
        let mut cut = 0u32;
        let bounded = loop {
            let pushed = flow.augment(&mut parent);
            if pushed == 0 {
                break true;
            }
            cut = cut.saturating_add(pushed);
            if cut > MAX_CUT {
                break false;
            }
        };
        let (cut, at_stake) = if bounded && cut > 0 {
            let reached = flow.reached();
            let stake = (0..n)
                .filter(|&i| cap[i] == 1 && reached[2 * i] && !reached[2 * i + 1])
                .collect();
            (Some(cut), stake)
        } else {
            (None, Vec::new())
        };
        out.push(Group {
            dots,
            cut,
            at_stake,
        });
    }
    out
}

/// `importance` of `points` (thousandths) plus `weight · s / c` for each group of either player
/// with `s` dots and cut `c ≤ MAX_CUT` whose points at stake hold the point, kept within ±999.
/// `weight` 0 leaves it unchanged.
///
/// # Panics
/// If `importance` is shorter than `points`.
pub fn bonus(pos: &Dots, points: &[Move], mut importance: Vec<i32>, weight: i32) -> Vec<i32> {
    if weight == 0 {
        return importance;
    }
    let w = usize::from(pos.width());
    let mut add = vec![0i64; w * usize::from(pos.height())];
    for player in [Player::First, Player::Second] {
        for g in groups(pos, player) {
            if let Some(c) = g.cut {
                let b = i64::from(weight) * g.dots.len() as i64 / i64::from(c);
                for &i in &g.at_stake {
                    add[i] += b;
                }
            }
        }
    }
    for (k, &m) in points.iter().enumerate() {
        if let Move::Put { x, y } = m {
            let i = (usize::from(y) - 1) * w + usize::from(x) - 1;
            importance[k] = (i64::from(importance[k]) + add[i]).clamp(-999, 999) as i32;
        }
    }
    importance
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::dots::Start;

    fn index(w: usize, x: usize, y: usize) -> usize {
        (y - 1) * w + x - 1
    }

    #[test]
    fn a_lone_dot_in_the_open_has_a_cut_of_four_its_neighbours() {
        // Red's 1-1 is on the edge (grounded: no cut); Blue's 5-5 needs its four sides.
        let pos = Dots::from_moves(9, 9, Start::Empty, "5-5 1-1").unwrap();
        let g = groups(&pos, Player::First);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].cut, Some(4));
        let mut stake = g[0].at_stake.clone();
        stake.sort();
        let want = [(5, 4), (4, 5), (6, 5), (5, 6)].map(|(x, y)| index(9, x, y));
        let mut want = want.to_vec();
        want.sort();
        assert_eq!(stake, want);
        assert_eq!(groups(&pos, Player::Second)[0].cut, None, "on the edge");
    }

    #[test]
    fn a_wall_lowers_the_cut_and_the_stake_is_the_gap() {
        // Red builds a wall around Blue's 5-5 with one gap at 5-6 (Red's dots at 4-5, 6-5, 5-4,
        // 4-6, 6-6): Blue's only way out is 5-6 and then up.
        let pos = Dots::from_moves(
            9,
            9,
            Start::Empty,
            "5-5 4-5 1-9 6-5 9-1 5-4 9-9 4-6 1-1 6-6",
        )
        .unwrap();
        let g = groups(&pos, Player::First);
        let blue = g
            .iter()
            .find(|g| g.dots == vec![index(9, 5, 5)])
            .expect("Blue's 5-5");
        assert_eq!(blue.cut, Some(1));
        assert_eq!(blue.at_stake, vec![index(9, 5, 6)]);
        // Red's pairs 4-5 4-6 and 6-5 6-6 have five liberties each, 5-6 among them.
        let red = groups(&pos, Player::Second);
        for pair in [[(4, 5), (4, 6)], [(6, 5), (6, 6)]] {
            let dots = pair.map(|(x, y)| index(9, x, y)).to_vec();
            let g = red.iter().find(|g| g.dots == dots).expect("a Red pair");
            assert_eq!(g.cut, Some(5));
            assert!(g.at_stake.contains(&index(9, 5, 6)));
        }
        // 5-6: 100 · 1/1 for Blue's dot, 100 · 2/5 for each Red pair; 3-3 is at no stake.
        let points = [Move::Put { x: 5, y: 6 }, Move::Put { x: 3, y: 3 }];
        assert_eq!(bonus(&pos, &points, vec![0, 0], 100), vec![180, 0]);
        assert_eq!(bonus(&pos, &points, vec![900, 0], 100), vec![999, 0]);
        assert_eq!(bonus(&pos, &points, vec![7, 3], 0), vec![7, 3]);
    }

    #[test]
    fn a_group_with_a_grounded_dot_or_a_wide_front_has_no_cut() {
        // A Blue line from the edge: grounded.
        let pos = Dots::from_moves(9, 9, Start::Empty, "1-5 9-9 2-5 9-8 3-5 9-7").unwrap();
        let g = groups(&pos, Player::First);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].cut, None);
        // A Blue line of five in the middle needs 12 points: more than MAX_CUT.
        let pos = Dots::from_moves(
            13,
            13,
            Start::Empty,
            "3-7 1-1 4-7 1-2 5-7 1-3 6-7 1-4 7-7 1-5",
        )
        .unwrap();
        let g = groups(&pos, Player::First);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].dots.len(), 5);
        assert_eq!(g[0].cut, None);
    }

    #[test]
    fn a_way_out_through_the_players_own_base_counts() {
        // Blue closes Red's 5-5 in with 4-5, 6-5, 5-4 and 5-6: four groups of one dot, joined by
        // the base's captured dot. Blue's 4-5 is cut off only with the ring's 8 outer sides taken,
        // not with its own 3 (the base is Blue's, R12).
        let pos = Dots::from_moves(9, 9, Start::Empty, "4-5 5-5 6-5 1-1 5-4 1-2 5-6").unwrap();
        assert_eq!(pos.captures(Player::First), 1);
        let g = groups(&pos, Player::First);
        assert_eq!(g.len(), 4);
        let west = g
            .iter()
            .find(|g| g.dots == vec![index(9, 4, 5)])
            .expect("Blue's 4-5");
        assert_eq!(west.cut, Some(8));
    }

    #[test]
    fn diagonal_dots_are_separate_groups() {
        let pos = Dots::from_moves(9, 9, Start::Empty, "5-5 1-1 6-6 1-2").unwrap();
        let g = groups(&pos, Player::First);
        assert_eq!(g.len(), 2);
        // They share two liberties (6-5 and 5-6) and each has two more: 4 each.
        assert!(g.iter().all(|g| g.cut == Some(4)));
    }
}
