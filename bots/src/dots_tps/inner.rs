//! Trajectories found again below the root (ours, option `inner`, issue 39): the article's
//! one-sided simulations carried into the tree, for the dots the tree puts.
//!
//! Source: seed `000_71d76f5b75d0c15c.txt`, "Предварительная работа с деревом вариантов" and
//! "Усечение дерева вариантов": the article collects the surrounding trajectories once, at the root,
//! by one-sided simulations (the other side puts no dot), and the tree tries only their points,
//! pruned at every node by heuristic 1 ("Динамическое отсечение траекторий"). A dot put below the
//! root is therefore on none of the opponent's trajectories: a ring the opponent closes around it
//! with one to three more dots is not searched, since it enclosed nothing at the root.
//!
//! What this adds: after each dot the tree puts, the same one-sided simulations
//! ([`super::trajectories::simulate`], the same enumeration of sets) are run again, for both
//! players, on the legal points within [`RADIUS`] of that dot only, with at most as many points as
//! the player has moves left below the node (and at most the root's `reach`). The trajectories
//! found join those the node follows: heuristic 1 keeps the alive ones its owner can still
//! complete, and their empty points are tried with the root's useful points (those needing one
//! more dot, a capture or the only defence against it, first). They are pushed on a stack when
//! the dot is put and popped when it is taken back, so a node pays for the region of its last
//! dot only; the dots put earlier on the line keep the trajectories found for them.
//!
//! The move set of a node then depends on the trajectories found along its line, not only on
//! its dots, so the transposition table's key takes the XOR of their [`trajectory_key`]s
//! ([`Inner::key`]): two lines that put the same dots and followed the same trajectories share
//! entries, other lines do not.

use games::dots::{Move, Point};
use games::{Dots, Game, Player};

use super::patterns::{Cell, Grid};
use super::trajectories::simulate;
use super::tt::trajectory_key;
use super::Control;

/// The Chebyshev distance from a dot put below the root within which its trajectories are looked
/// for, points: a 5 × 5 square, enough for a ring of up to three new dots around it (or through it).
pub const RADIUS: i32 = 2;

/// The trajectories found below the root on the current line of the tree.
pub struct Inner {
    /// The root's snapshot with the tree's dots put on it (captures are not replayed: a captured
    /// dot still counts as a live one, which only widens the candidate points).
    grid: Grid,
    /// `W + 2`: point ids are `y * stride + x`, as in the search.
    stride: usize,
    /// The longest trajectory looked for, points (the root simulations' `n`).
    reach: u32,
    /// Per trajectory: its owner.
    owner: Vec<Player>,
    /// Per trajectory: its points, sorted.
    points: Vec<Vec<Move>>,
    /// Per trajectory: its [`trajectory_key`].
    keys: Vec<u64>,
    /// Per dot put: the number of trajectories before it (popped by [`Inner::take`]).
    marks: Vec<usize>,
    /// The XOR of `keys`.
    key: u64,
    /// Per point id: the number of the last [`Inner::extend`] that listed it.
    stamp: Vec<u32>,
    /// The number of the last [`Inner::extend`].
    epoch: u32,
}

impl Inner {
    /// No trajectory yet, for a root whose snapshot is `grid`, point ids `y * stride + x` below
    /// `cells`, trajectories of at most `reach` points.
    pub fn new(grid: Grid, stride: usize, cells: usize, reach: u32) -> Inner {
        Inner {
            grid,
            stride,
            reach,
            owner: Vec::new(),
            points: Vec::new(),
            keys: Vec::new(),
            marks: Vec::new(),
            key: 0,
            stamp: vec![0; cells],
            epoch: 0,
        }
    }

    /// The XOR of the [`trajectory_key`]s of the trajectories followed (0: none).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The number of trajectories followed.
    pub fn len(&self) -> usize {
        self.owner.len()
    }

    /// Whether no trajectory is followed.
    pub fn is_empty(&self) -> bool {
        self.owner.is_empty()
    }

    /// After `player`'s dot on `m` has been played in `pos` (`plies` left at the new node): the
    /// trajectories of both players within [`RADIUS`] of it, of at most `reach` points and at most
    /// the moves each has left, not yet followed, are followed from now on. `pos` is left as it was.
    pub fn put(&mut self, pos: &mut Dots, m: Move, player: Player, plies: u32, ctl: &mut Control) {
        self.marks.push(self.owner.len());
        let Move::Put { x, y } = m else { return };
        let (x, y) = (i32::from(x), i32::from(y));
        self.grid.set(x - 1, y - 1, Cell::Dot(player));
        let to_move = pos.turn();
        let left = |p: Player| {
            if p == to_move {
                plies.div_ceil(2)
            } else {
                plies / 2
            }
        };
        if self
            .reach
            .min(left(Player::First).max(left(Player::Second)))
            == 0
        {
            return;
        }
        let (w, h) = (i32::from(pos.width()), i32::from(pos.height()));
        let mut local = Vec::with_capacity(24);
        // Rows from the top, as the play range lists its points.
        for v in (y - RADIUS..=y + RADIUS).rev() {
            for u in x - RADIUS..=x + RADIUS {
                if (1..=w).contains(&u) && (1..=h).contains(&v) {
                    let q = Move::Put {
                        x: u as u8,
                        y: v as u8,
                    };
                    if pos.is_legal(q) {
                        local.push(q);
                    }
                }
            }
        }
        for p in [player.opponent(), player] {
            let n = self.reach.min(left(p));
            if n == 0 {
                continue;
            }
            let sim = simulate(pos, &self.grid, &local, p, n, ctl);
            for t in sim.trajectories {
                let ids: Vec<usize> = t.points.iter().map(|&q| self.id(q)).collect();
                let k = trajectory_key(p, &ids);
                let known = (0..self.owner.len())
                    .any(|j| self.keys[j] == k && self.owner[j] == p && self.points[j] == t.points);
                if !known {
                    self.owner.push(p);
                    self.points.push(t.points);
                    self.keys.push(k);
                    self.key ^= k;
                }
            }
        }
    }

    /// Takes back the dot on `m`, the reverse of [`Inner::put`]: the trajectories found for it are
    /// no longer followed.
    pub fn take(&mut self, m: Move) {
        if let Move::Put { x, y } = m {
            self.grid
                .set(i32::from(x) - 1, i32::from(y) - 1, Cell::Empty);
        }
        let k = self.marks.pop().unwrap_or(0);
        for &t in &self.keys[k..] {
            self.key ^= t;
        }
        self.owner.truncate(k);
        self.points.truncate(k);
        self.keys.truncate(k);
    }

    fn id(&self, m: Move) -> usize {
        match m {
            Move::Put { x, y } => usize::from(y) * self.stride + usize::from(x),
            Move::Ground => 0,
        }
    }

    /// Adds to `moves` (the root's useful points a node tries, in order) the empty points of the
    /// trajectories followed that are alive (no dot of the other player, no dead point) and, with
    /// `left` (heuristic 1: the moves left of the first and the second player), need no more
    /// points than their owner has moves left. The points of trajectories needing one point (a
    /// capture, or the point that stops one) go first, the others last, the newest trajectories
    /// first; a point already in `moves` stays where it is.
    pub fn extend(&mut self, pos: &Dots, left: Option<[u32; 2]>, moves: &mut Vec<Move>) {
        if self.owner.is_empty() {
            return;
        }
        self.epoch += 1;
        for &m in moves.iter() {
            let i = self.id(m);
            self.stamp[i] = self.epoch;
        }
        let (mut first, mut last) = (Vec::new(), Vec::new());
        let mut empty = Vec::with_capacity(8);
        for t in (0..self.owner.len()).rev() {
            let owner = self.owner[t];
            empty.clear();
            let mut alive = true;
            for &q in &self.points[t] {
                if pos.is_legal(q) {
                    empty.push(q);
                } else if let Move::Put { x, y } = q {
                    if pos.point(x, y) != Some(Point::Dot(owner)) {
                        alive = false;
                        break;
                    }
                }
            }
            let need = empty.len() as u32;
            if !alive || need == 0 || left.is_some_and(|l| need > l[owner.index()]) {
                continue;
            }
            for &q in &empty {
                let i = self.id(q);
                if self.stamp[i] != self.epoch {
                    self.stamp[i] = self.epoch;
                    if need == 1 {
                        first.push(q);
                    } else {
                        last.push(q);
                    }
                }
            }
        }
        if !first.is_empty() {
            first.append(moves);
            *moves = first;
        }
        moves.append(&mut last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dots_tps::tactics::board;

    /// Blue's dot on 5-4 in Red's cup 4-4, 5-5, 6-4: after it, Red's one-point trajectory 5-3 (the
    /// ring that takes it) is followed and tried first; taking the dot back forgets it and restores
    /// the key. With no move left to either side nothing is simulated.
    #[test]
    fn a_dot_put_in_a_cup_gives_the_opponent_the_point_that_closes_it() {
        let mut pos = board(
            &[
                ".......", ".......", "...O...", "..O.O..", ".......", ".......", ".......",
            ],
            Player::First,
        )
        .unwrap();
        let stride = usize::from(pos.width()) + 2;
        let cells = stride * (usize::from(pos.height()) + 2);
        let mut inner = Inner::new(Grid::new(&pos), stride, cells, 3);
        let mut ctl = Control::new(None, None);
        let dot = Move::Put { x: 4, y: 4 };
        let close = Move::Put { x: 4, y: 3 };
        pos.play(dot).unwrap();
        let before = pos.clone();
        inner.put(&mut pos, dot, Player::First, 0, &mut ctl);
        assert!(inner.is_empty() && ctl.sim_nodes == 0);
        inner.take(dot);
        inner.put(&mut pos, dot, Player::First, 1, &mut ctl);
        assert_eq!(pos, before);
        assert!(inner.owner.iter().all(|&o| o == Player::Second));
        assert!(inner.points.contains(&vec![close]), "{:?}", inner.points);
        assert_ne!(inner.key(), 0);
        let mut moves = vec![Move::Put { x: 1, y: 1 }];
        inner.extend(&pos, Some([0, 1]), &mut moves);
        assert_eq!(moves, vec![close, Move::Put { x: 1, y: 1 }]);
        // Red has no move left: its trajectory is not tried.
        let mut moves = Vec::new();
        inner.extend(&pos, Some([1, 0]), &mut moves);
        assert!(moves.is_empty());
        inner.take(dot);
        assert!(inner.is_empty());
        assert_eq!(inner.key(), 0);
    }
}
