//! The trajectories' progress below the root of one search, kept up to date as the tree puts dots
//! and takes them back, so that heuristic 1 costs a node only the trajectories it keeps.
//!
//! Source: heuristic 1 of "Динамическое отсечение траекторий" (seed `000_71d76f5b75d0c15c.txt`):
//! at every node a trajectory is dropped when its owner has fewer moves left than it needs points,
//! or (ours) when a dot of the other colour stands on it. Reading every point of every trajectory at
//! every node (what `Progress::scan` does, the reference the tests compare against) costs the sum
//! of their lengths per node; here each trajectory carries two counters, changed only when a dot is
//! put on or taken off one of its points, so a node reads two counters per trajectory and the
//! points of only the trajectories it keeps. (Filing the live trajectories by owner and points
//! needed, so that a node would not even read the others' counters, was tried: moving them between
//! files at every dot cost more than it saved: 557 M instructions on the benchmark position of
//! `docs/benchmarks.md`, against 545 M for the old full scan and 543 M for these counters.)

/// Per search: the trajectories, their counters and the point → trajectories index.
///
/// Point ids are `y * stride + x` with `stride = W + 2` (as in the search), below `n` (the size
/// given to [`Progress::new`]). Dots are put with [`Progress::put`] and taken back with
/// [`Progress::take`]; the counters depend only on which dots stand where, not on the order.
pub struct Progress {
    /// Per trajectory: the owner, 0 for the first player and 1 for the second (`Player::index`).
    owner: Vec<u8>,
    /// Per trajectory `t`: its point ids are `points[start[t]..start[t + 1]]` (`start` has one
    /// more entry than there are trajectories).
    start: Vec<u32>,
    /// The point ids of every trajectory, one after the other, in the order given to `new`.
    points: Vec<u16>,
    /// Per trajectory: how many of its points hold no dot of the tree, points (its owner needs
    /// that many more moves to complete it).
    empty: Vec<u16>,
    /// Per trajectory: how many of its points hold a dot of the owner's opponent, points; the
    /// trajectory is alive (can still be completed) while this is 0.
    enemy: Vec<u16>,
    /// Per point id `p`: the trajectories through `p` are `on[at[p]..at[p + 1]]`, trajectory
    /// indices, one entry per occurrence (`at` has `n + 1` entries).
    at: Vec<u32>,
    /// The trajectory indices of every point, one point after the other (see `at`).
    on: Vec<u32>,
    /// Per point id: 0 empty, 1 + player index when a dot of the tree stands there.
    placed: Vec<u8>,
    /// Per point id: the number of the last [`Progress::mark`] that found it useful.
    stamp: Vec<u32>,
    /// The number of the last [`Progress::mark`] (0: none yet).
    epoch: u32,
}

impl Progress {
    /// The progress of `trajs` (owner index 0 or 1, point ids below `n`) with no dot put yet.
    ///
    /// # Panics
    ///
    /// If an owner index is not 0 or 1 or a point id is not below `n`.
    pub fn new(trajs: &[(usize, Vec<u16>)], n: usize) -> Progress {
        let mut start = Vec::with_capacity(trajs.len() + 1);
        let mut points = Vec::new();
        let mut count = vec![0u32; n + 1];
        for (_, pts) in trajs {
            start.push(points.len() as u32);
            points.extend_from_slice(pts);
            for &p in pts {
                count[usize::from(p) + 1] += 1;
            }
        }
        start.push(points.len() as u32);
        // Prefix sums: `at[p]` is where the trajectories of point p begin.
        let mut at = count;
        for p in 1..at.len() {
            at[p] += at[p - 1];
        }
        let mut fill = at.clone();
        let mut on = vec![0u32; points.len()];
        for (t, (_, pts)) in trajs.iter().enumerate() {
            for &p in pts {
                on[fill[usize::from(p)] as usize] = t as u32;
                fill[usize::from(p)] += 1;
            }
        }
        for (owner, _) in trajs {
            assert!(*owner < 2, "owner index {owner} is not 0 or 1");
        }
        Progress {
            owner: trajs.iter().map(|t| u8::from(t.0 == 1)).collect(),
            start,
            points,
            empty: trajs.iter().map(|t| t.1.len() as u16).collect(),
            enemy: vec![0; trajs.len()],
            at,
            on,
            placed: vec![0; n],
            stamp: vec![0; n],
            epoch: 0,
        }
    }

    /// Puts a dot of `player` (index 0 or 1) on the empty point `p`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `p` is not empty.
    pub fn put(&mut self, p: usize, player: usize) {
        debug_assert_eq!(self.placed[p], 0, "point {p} is not empty");
        self.placed[p] = 1 + player as u8;
        for k in self.at[p] as usize..self.at[p + 1] as usize {
            let t = self.on[k] as usize;
            self.empty[t] -= 1;
            if usize::from(self.owner[t]) != player {
                self.enemy[t] += 1;
            }
        }
    }

    /// Takes back the dot of `player` (index 0 or 1) on point `p`, the reverse of [`Self::put`].
    ///
    /// # Panics
    ///
    /// In debug builds, if no dot of `player` stands on `p`.
    pub fn take(&mut self, p: usize, player: usize) {
        debug_assert_eq!(
            self.placed[p],
            1 + player as u8,
            "no dot of {player} on {p}"
        );
        self.placed[p] = 0;
        for k in self.at[p] as usize..self.at[p + 1] as usize {
            let t = self.on[k] as usize;
            self.empty[t] += 1;
            if usize::from(self.owner[t]) != player {
                self.enemy[t] -= 1;
            }
        }
    }

    /// Marks the useful points of a node where the first player has `left[0]` moves left and the
    /// second `left[1]` (heuristic 1): the empty points of every alive trajectory that needs at
    /// least one and at most its owner's moves. Read the marks with [`Self::marked`].
    pub fn mark(&mut self, left: [u32; 2]) {
        self.epoch += 1;
        for t in 0..self.owner.len() {
            let need = u32::from(self.empty[t]);
            if self.enemy[t] == 0 && need > 0 && need <= left[usize::from(self.owner[t])] {
                let pts = &self.points[self.start[t] as usize..self.start[t + 1] as usize];
                for &p in pts {
                    if self.placed[usize::from(p)] == 0 {
                        self.stamp[usize::from(p)] = self.epoch;
                    }
                }
            }
        }
    }

    /// Whether the last [`Self::mark`] found point `p` useful.
    pub fn marked(&self, p: usize) -> bool {
        self.stamp[p] == self.epoch
    }

    /// The useful points of heuristic 1 as the search found them before this module: every point
    /// of every trajectory read against the dots put, per point id. The reference of the tests.
    #[cfg(test)]
    fn scan(&self, left: [u32; 2]) -> Vec<bool> {
        let mut useful = vec![false; self.placed.len()];
        for t in 0..self.owner.len() {
            let own = 1 + self.owner[t];
            let pts = &self.points[self.start[t] as usize..self.start[t + 1] as usize];
            let mut need = 0;
            let mut alive = true;
            for &p in pts {
                match self.placed[usize::from(p)] {
                    0 => need += 1,
                    v if v == own => {}
                    _ => {
                        alive = false;
                        break;
                    }
                }
            }
            if alive && need > 0 && need <= left[usize::from(self.owner[t])] {
                for &p in pts {
                    if self.placed[usize::from(p)] == 0 {
                        useful[usize::from(p)] = true;
                    }
                }
            }
        }
        useful
    }

    /// Checks every counter against a recount from the dots put.
    ///
    /// # Panics
    ///
    /// On the first disagreement, naming it.
    #[cfg(test)]
    fn check(&self) {
        for t in 0..self.owner.len() {
            let pts = &self.points[self.start[t] as usize..self.start[t + 1] as usize];
            let empty = pts
                .iter()
                .filter(|&&p| self.placed[usize::from(p)] == 0)
                .count();
            let enemy = pts
                .iter()
                .filter(|&&p| {
                    let v = self.placed[usize::from(p)];
                    v != 0 && v != 1 + self.owner[t]
                })
                .count();
            assert_eq!(usize::from(self.empty[t]), empty, "trajectory {t}: empty");
            assert_eq!(usize::from(self.enemy[t]), enemy, "trajectory {t}: enemy");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random trajectories of 1 to 5 distinct points among `n` (a few repeated whole), random
    /// owners; then 4,000 random puts (a random player on a random empty point) and take-backs
    /// (last in, first out, as the tree does; sometimes several in a row). After every step the
    /// counters agree with a recount and the marked points with the full scan, for every pair of
    /// moves left from 0 to 6.
    #[test]
    fn counters_agree_with_a_recount_after_random_puts_and_takes() {
        for seed in 0..4u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let n = 40;
            let mut trajs: Vec<(usize, Vec<u16>)> = Vec::new();
            for _ in 0..60 {
                let len = rng.random_range(1..=5);
                let mut pts: Vec<u16> = Vec::new();
                while pts.len() < len {
                    let p = rng.random_range(1..n as u16);
                    if !pts.contains(&p) {
                        pts.push(p);
                    }
                }
                trajs.push((rng.random_range(0..2), pts));
            }
            // The same point set for both owners, and one trajectory twice.
            trajs.push((0, trajs[0].1.clone()));
            trajs.push((1, trajs[0].1.clone()));
            trajs.push(trajs[1].clone());
            let mut prog = Progress::new(&trajs, n);
            prog.check();
            let mut stack: Vec<(usize, usize)> = Vec::new();
            let (mut puts, mut takes) = (0, 0);
            for _ in 0..4000 {
                if !stack.is_empty() && (stack.len() >= 25 || rng.random_bool(0.45)) {
                    for _ in 0..rng.random_range(1..=stack.len().min(3)) {
                        let (p, player) = stack.pop().unwrap();
                        prog.take(p, player);
                        takes += 1;
                    }
                } else {
                    let empty: Vec<usize> = (1..n).filter(|&p| prog.placed[p] == 0).collect();
                    let p = empty[rng.random_range(0..empty.len())];
                    let player = rng.random_range(0..2);
                    prog.put(p, player);
                    stack.push((p, player));
                    puts += 1;
                }
                prog.check();
                for left in [
                    [0, 0],
                    [1, 0],
                    [0, 1],
                    [1, 1],
                    [2, 1],
                    [1, 2],
                    [3, 3],
                    [6, 6],
                ] {
                    prog.mark(left);
                    let marked: Vec<bool> = (0..n).map(|p| prog.marked(p)).collect();
                    assert_eq!(marked, prog.scan(left), "seed {seed}, left {left:?}");
                }
            }
            assert!(
                puts > 1000 && takes > 1000,
                "seed {seed}: {puts} puts, {takes} takes"
            );
            while let Some((p, player)) = stack.pop() {
                prog.take(p, player);
            }
            prog.check();
            assert!(prog.enemy.iter().all(|&e| e == 0));
            assert!((0..trajs.len()).all(|t| usize::from(prog.empty[t]) == trajs[t].1.len()));
        }
    }
}
