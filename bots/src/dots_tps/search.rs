//! The tree search of one depth: root moves scored by `F = k1·Importance + k2·MinMax`, the inner
//! nodes a negamax over the capture difference restricted by the pruning mode.
//!
//! Source: seed `000_71d76f5b75d0c15c.txt`: formula (1) of "Оценочная функция", the bounds of
//! "Предварительная работа с деревом вариантов", the useful moves of "Усечение дерева вариантов",
//! heuristics 1 and 2 of "Динамическое отсечение траекторий" and the root ordering after the
//! article's table. The article searched plain minimax; alpha-beta (on by default, option
//! `alphabeta`) returns the same values with fewer nodes, and the root keeps exact `F` by giving
//! each move the window it needs to beat the best `F` so far.

use games::dots::Move;
use games::{Dots, Game, Player};

use super::exposure::Exposure;
use super::inner::Inner;
use super::progress::Progress;
use super::trajectories::{diff, heuristic2, simulate, Simulation, Trajectory, PASS};
use super::tt::{node_key, point_key, Bound, Entry, Table};
use super::{Config, Control, Prune};
use crate::dots_tps::patterns::Grid;

/// Above every value.
const INF: i32 = 1 << 20;

/// The value of a win by grounding (option `threats`), less the plies below the root it happens
/// at: above every capture difference.
pub const WIN: i32 = 1 << 16;

/// What the searches of one move share across iterations: the transposition table (option `tt`)
/// and the history counters (option `history`).
pub struct Memory {
    table: Option<Table>,
    /// Per player, per point id: the sum of plies² of the cut-offs the point caused.
    history: [Vec<u32>; 2],
    /// The last complete one-sided simulations (mover's, opponent's) and their length `n`: a
    /// deeper iteration with the same `n` (option `reach`) reuses them.
    sims: Option<(u32, [Simulation; 2])>,
    /// Added to the iteration number of the table's entries: a pass with other trajectories (option
    /// `widen`) sets it, so that its entries cut nothing of another pass at the same depth.
    pub tag: u8,
}

/// The table's size, log2 entries (2^18 × 24 bytes = 6 MiB).
pub const TABLE_BITS: u32 = 18;

impl Memory {
    /// The memory for searches from `pos` under `cfg` (a table only with `cfg.tt`).
    pub fn new(cfg: &Config, pos: &Dots) -> Memory {
        let n = (usize::from(pos.width()) + 2) * (usize::from(pos.height()) + 2);
        Memory {
            table: cfg.tt.then(|| Table::new(TABLE_BITS)),
            history: [vec![0; n], vec![0; n]],
            sims: None,
            tag: 0,
        }
    }
}

/// What one depth found at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The best move so far (`None` only with no legal point).
    pub best: Option<Move>,
    /// Its minimax capture difference, root mover's view (`kill2 − kill1`).
    pub value: i32,
    /// Its `F = k1·importance + k2·value` (importance in thousandths).
    pub f: i64,
    /// Whether every root move was searched (or the bounds proved the rest useless).
    pub complete: bool,
    /// Whether the best move was searched to this depth (false: it only comes from importance).
    pub searched: bool,
    /// How the move was chosen: `"search"`, `"fmax"` (stopped at the upper bound) or `"shortcut"`
    /// (`Fmin = Fmax`: importance alone).
    pub how: &'static str,
    /// Root moves searched by the tree (useful points, or the whole range in mode `all`).
    pub root_moves: usize,
    /// Trajectories used (after heuristic 2 in mode `h12`): the mover's and the opponent's.
    pub trajectories: [usize; 2],
    /// `Fmax − current` and `current − Fmin` of the one-sided simulations, capture units.
    pub gains: [i32; 2],
    /// Whether the best move is a quiet point (on no trajectory) chosen by importance alone, its
    /// value that of a pass or of `Fmin = Fmax`: every quiet point scores the same `MinMax`.
    pub quiet: bool,
    /// The points on a trajectory (the tree's root moves); empty at the shortcut.
    pub useful: Vec<Move>,
}

/// The state shared by the nodes of one search.
struct Tree<'a> {
    cfg: &'a Config,
    mem: &'a mut Memory,
    /// The XOR of [`point_key`] over the dots put since the root.
    dots_key: u64,
    /// The iteration, full moves.
    iteration: u8,
    /// The plies of the iteration (2m).
    root_plies: u32,
    /// `W + 2`: point ids are `y * stride + x`.
    stride: usize,
    /// The moves an inner node may try, in order: the whole range (mode `all`) or the useful points.
    moves: Vec<Move>,
    /// The trajectories (as point ids, with their owners), the dots of the tree on them and the
    /// points heuristic 1 keeps, updated as dots are put and taken back.
    progress: Progress,
    /// The trajectories found again below the root for the tree's dots (option `inner`).
    inner: Option<Inner>,
}

fn id(stride: usize, m: Move) -> usize {
    match m {
        Move::Put { x, y } => usize::from(y) * stride + usize::from(x),
        Move::Ground => 0,
    }
}

impl<'a> Tree<'a> {
    /// Negamax over the capture difference of the side to move, `plies` deep; `alpha`/`beta` are
    /// ignored without alpha-beta. With `threats`, a side to move 1 to `threat_plies` plies below
    /// the root that wins by grounding gets [`WIN`] less those plies. Returns 0 once the control has stopped.
    fn negamax(
        &mut self,
        pos: &mut Dots,
        plies: u32,
        mut alpha: i32,
        beta: i32,
        ctl: &mut Control,
    ) -> i32 {
        if ctl.visit() {
            return 0;
        }
        let mover = pos.turn();
        if pos.outcome().is_some() {
            return diff(pos, mover);
        }
        if self.cfg.threats {
            let ply = self.root_plies - plies;
            let (mine, theirs) = (pos.captures(mover), pos.captures(mover.opponent()));
            if (1..=self.cfg.threat_plies).contains(&ply)
                && mine > theirs
                && mine > theirs + pos.ungrounded_dots(mover)
            {
                return WIN - ply as i32;
            }
        }
        if plies == 0 {
            return diff(pos, mover);
        }
        let key = node_key(
            self.dots_key ^ self.inner.as_ref().map_or(0, Inner::key),
            pos,
        );
        let mut tt_best = 0u16;
        if let Some(e) = self.mem.table.as_ref().and_then(|t| t.probe(key)) {
            tt_best = e.best;
            if e.iteration == self.iteration && u32::from(e.plies) == plies {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower if e.value >= beta => return e.value,
                    Bound::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
        }
        let mut moves = self.generate(pos, plies, mover);
        if moves.is_empty() {
            // No trajectory can be completed any more: nothing changes within the horizon.
            return diff(pos, mover);
        }
        let stride = self.stride;
        if self.cfg.history {
            let h = &self.mem.history[mover.index()];
            moves.sort_by_key(|&m| std::cmp::Reverse(h[id(stride, m)]));
        }
        if tt_best != 0 {
            if let Some(k) = moves
                .iter()
                .position(|&m| id(stride, m) == usize::from(tt_best))
            {
                moves[..=k].rotate_right(1);
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_id = 0u16;
        for m in moves {
            let i = id(stride, m);
            let z = point_key(i, mover);
            pos.play_unchecked(m);
            self.progress.put(i, mover.index());
            self.dots_key ^= z;
            if let Some(inner) = self.inner.as_mut() {
                inner.put(pos, m, mover, plies - 1, ctl);
            }
            let v = -self.negamax(pos, plies - 1, -beta, -alpha, ctl);
            if let Some(inner) = self.inner.as_mut() {
                inner.take(m);
            }
            self.dots_key ^= z;
            self.progress.take(i, mover.index());
            pos.undo();
            if ctl.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_id = i as u16;
            }
            if self.cfg.alphabeta {
                alpha = alpha.max(v);
                if alpha >= beta {
                    if self.cfg.history {
                        self.mem.history[mover.index()][i] =
                            self.mem.history[mover.index()][i].saturating_add(plies * plies);
                    }
                    break;
                }
            }
        }
        if let Some(t) = self.mem.table.as_mut() {
            let bound = if !self.cfg.alphabeta {
                Bound::Exact
            } else if best >= beta {
                Bound::Lower
            } else if best <= alpha0 {
                Bound::Upper
            } else {
                Bound::Exact
            };
            t.store(Entry {
                key,
                value: best,
                best: best_id,
                plies: plies as u8,
                iteration: self.iteration,
                bound,
            });
        }
        best
    }

    /// The moves of a node with `plies` left for `mover`, in the static order.
    fn generate(&mut self, pos: &Dots, plies: u32, mover: Player) -> Vec<Move> {
        match self.cfg.prune {
            Prune::All => self
                .moves
                .iter()
                .copied()
                .filter(|&m| pos.is_legal(m))
                .collect(),
            Prune::Useful => {
                let mut moves: Vec<Move> = self
                    .moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_legal(m))
                    .collect();
                if let Some(inner) = self.inner.as_mut() {
                    inner.extend(pos, None, &mut moves);
                }
                moves
            }
            Prune::H1 | Prune::H12 => {
                // Heuristic 1: a trajectory needing more points than its owner has moves left, or
                // holding a dot of the other colour, is dropped; a point is tried only while some
                // trajectory still holds it.
                // `Progress` keeps each trajectory's empty points and enemy dots up to date, so
                // only the points of the kept trajectories are read.
                let mut left = [0u32; 2];
                left[mover.index()] = plies.div_ceil(2);
                left[mover.opponent().index()] = plies / 2;
                self.progress.mark(left);
                let stride = self.stride;
                let mut moves: Vec<Move> = self
                    .moves
                    .iter()
                    .copied()
                    .filter(|&m| self.progress.marked(id(stride, m)) && pos.is_legal(m))
                    .collect();
                // Option `inner`: the trajectories found below the root, under the same rule.
                if let Some(inner) = self.inner.as_mut() {
                    inner.extend(pos, Some(left), &mut moves);
                }
                moves
            }
        }
    }
}

/// The per-point data of the root, computed once per move: the legal points of the play range
/// and their importance (thousandths).
pub struct RootPoints {
    /// The legal points of the play range, board order (rows from the top).
    pub points: Vec<Move>,
    /// The importance of each point of `points`.
    pub importance: Vec<i32>,
    /// The snapshot the simulations read.
    pub grid: Grid,
    /// Twice the centre of the play range, (x0 + x1, y0 + y1): ties of importance go to the point
    /// nearest to it.
    pub centre: (i32, i32),
    /// The [`Exposure`] of each point of `points` (option `exposed`); empty: none is exposed.
    pub exposure: Vec<Exposure>,
}

impl RootPoints {
    /// The squared distance of `m` from the centre of the play range, in half points.
    pub fn off_centre(&self, m: Move) -> i32 {
        match m {
            Move::Put { x, y } => {
                let (dx, dy) = (
                    2 * i32::from(x) - self.centre.0,
                    2 * i32::from(y) - self.centre.1,
                );
                dx * dx + dy * dy
            }
            Move::Ground => i32::MAX,
        }
    }

    /// How `m` ranks when importance alone decides (the larger the better): its `importance`, then
    /// nearness to the centre of the play range. Equal ranks go to the first in board order, as
    /// every caller scans the points so.
    pub fn rank(&self, importance: i32, m: Move) -> (i32, i32) {
        (importance, -self.off_centre(m))
    }
}

/// Searches `m` full moves (2m plies) from `pos` for its side to move. `prev` (the best move of
/// the previous depth) is tried first when the ordering is on; `mem` carries the transposition
/// table and the history from one depth to the next (make it with [`Memory::new`] once per move).
/// With `root.exposure` (option `exposed`) an exposed root point's value is capped by what it
/// gives away and quiet points are picked among the unexposed ones.
pub fn iteration(
    pos: &mut Dots,
    cfg: &Config,
    root: &RootPoints,
    m: u32,
    prev: Option<Move>,
    mem: &mut Memory,
    ctl: &mut Control,
) -> Iteration {
    let me = pos.turn();
    let stride = usize::from(pos.width()) + 2;
    let root_diff = diff(pos, me);
    let plies = 2 * m;
    let mut imp = vec![0i32; stride * (usize::from(pos.height()) + 2)];
    for (&p, &i) in root.points.iter().zip(&root.importance) {
        imp[id(stride, p)] = i;
    }
    let imp_of = |mv: Move| -> i32 { imp[id(stride, mv)] };
    let mut exposed = vec![Exposure::default(); imp.len()];
    for (&p, &e) in root.points.iter().zip(&root.exposure) {
        exposed[id(stride, p)] = e;
    }
    let safe = |mv: Move| exposed[id(stride, mv)].loss == 0;
    // A value capped by what an exposed point gives away at once (the tree cannot see it).
    let capped = |mv: Move, v: i32| -> i32 {
        let e = exposed[id(stride, mv)];
        if e.loss > 0 {
            v.min(root_diff + e.gain - e.loss)
        } else {
            v
        }
    };
    let mut it = Iteration {
        best: None,
        value: root_diff,
        f: i64::MIN,
        complete: false,
        searched: false,
        how: "search",
        root_moves: 0,
        trajectories: [0, 0],
        gains: [0, 0],
        quiet: false,
        useful: Vec::new(),
    };
    if root.points.is_empty() {
        return it;
    }
    // The most important point; ties to the one nearest the centre of the range, then board order.
    let by_importance = |pts: &mut dyn Iterator<Item = Move>| -> Option<Move> {
        let mut best: Option<((i32, i32), Move)> = None;
        for p in pts {
            let key = root.rank(imp_of(p), p);
            if best.is_none_or(|b| key > b.0) {
                best = Some((key, p));
            }
        }
        best.map(|b| b.1)
    };
    // The most important of the root points `keep` holds, among the unexposed ones when there are any.
    let pick = |keep: &dyn Fn(Move) -> bool| -> Option<Move> {
        let kept = || root.points.iter().copied().filter(|&p| keep(p));
        by_importance(&mut kept().filter(|&p| safe(p))).or_else(|| by_importance(&mut kept()))
    };

    // Step 1. One-sided simulations: the bounds and the trajectories.
    let need_sims = cfg.prune != Prune::All || cfg.bounds;
    let mut trajs: Vec<Trajectory> = Vec::new();
    let mut sims_complete = true;
    let n = if cfg.reach > 0 { m.min(cfg.reach) } else { m };
    if need_sims {
        let sims = match mem.sims.take() {
            Some((k, sims)) if k == n => sims,
            _ => [me, me.opponent()].map(|p| simulate(pos, &root.grid, &root.points, p, n, ctl)),
        };
        for (k, sim) in sims.iter().enumerate() {
            it.gains[k] = sim.gain;
            sims_complete &= sim.complete;
            trajs.extend(sim.trajectories.iter().cloned());
        }
        if sims_complete && !ctl.stopped {
            mem.sims = Some((n, sims));
        }
        if ctl.stopped {
            return it;
        }
    }
    let bounds = cfg.bounds && sims_complete;
    let fmax = root_diff + it.gains[0];

    // Step 2. Fmin = Fmax: no capture is possible at this depth, importance alone decides.
    if bounds && it.gains == [0, 0] {
        let best = pick(&|_| true);
        it.best = best;
        if let Some(b) = best {
            it.value = capped(b, root_diff);
        }
        it.f = best.map_or(0, |b| {
            cfg.k1 * i64::from(imp_of(b)) + cfg.k2 * i64::from(it.value)
        });
        it.complete = true;
        it.how = "shortcut";
        it.quiet = true;
        // No capture is possible: a point after which our `ground` wins cannot be answered.
        if cfg.threats && pos.captures(me) > pos.captures(me.opponent()) {
            let lead = pos.captures(me) - pos.captures(me.opponent());
            let winning: Vec<Move> = root
                .points
                .iter()
                .copied()
                .filter(|&p| {
                    pos.play_unchecked(p);
                    let won = pos.ungrounded_dots(me) < lead;
                    pos.undo();
                    won
                })
                .collect();
            if let Some(b) = by_importance(&mut winning.into_iter()) {
                it.best = Some(b);
                it.quiet = false;
                it.value = WIN - 2;
                it.f = cfg.k1 * i64::from(imp_of(b)) + cfg.k2 * i64::from(it.value);
            }
        }
        return it;
    }

    // Step 3. Heuristic 2, then the useful points with their trajectory counts.
    if cfg.prune == Prune::H12 {
        let keep = heuristic2(&trajs);
        let mut k = keep.iter();
        trajs.retain(|_| *k.next().unwrap_or(&true));
    }
    for t in &trajs {
        it.trajectories[usize::from(t.owner != me)] += 1;
    }
    let mut count = vec![0u32; stride * (usize::from(pos.height()) + 2)];
    for t in &trajs {
        for &p in &t.points {
            count[id(stride, p)] += 1;
        }
    }
    let mut useful: Vec<Move> = match cfg.prune {
        Prune::All => root.points.clone(),
        _ => root
            .points
            .iter()
            .copied()
            .filter(|&p| count[id(stride, p)] > 0)
            .collect(),
    };
    // The inner nodes' order: more trajectories first, then importance (a stable sort keeps the
    // board order for ties).
    useful.sort_by_key(|&p| (std::cmp::Reverse(count[id(stride, p)]), -imp_of(p)));
    let tag = mem.tag;
    let mut tree = Tree {
        cfg,
        mem,
        dots_key: 0,
        iteration: (m as u8).wrapping_add(tag),
        root_plies: plies,
        stride,
        moves: useful.clone(),
        // Only heuristic 1 reads the counters: without it they follow no trajectory, so that
        // putting and taking a dot stays O(1) as before.
        progress: Progress::new(
            &trajs
                .iter()
                .filter(|_| matches!(cfg.prune, Prune::H1 | Prune::H12))
                .map(|t| {
                    (
                        t.owner.index(),
                        t.points.iter().map(|&p| id(stride, p) as u16).collect(),
                    )
                })
                .collect::<Vec<_>>(),
            count.len(),
        ),
        // Option `inner`: the same simulations after every dot the tree puts (not with `prune
        // all`, which tries the whole range anyway).
        inner: (cfg.inner && cfg.prune != Prune::All)
            .then(|| Inner::new(root.grid.clone(), stride, count.len(), n)),
    };

    // Step 4. The root order: the previous depth's best, then the most important point, then by
    // the number of trajectories (the article: the first move is the most important point).
    let mut order = useful.clone();
    if cfg.ordering {
        if let Some(top) = by_importance(&mut useful.iter().copied()) {
            order.retain(|&p| p != top);
            order.insert(0, top);
        }
        if let Some(p) = prev.filter(|p| order.contains(p)) {
            order.retain(|&q| q != p);
            order.insert(0, p);
        }
    } else {
        order = root
            .points
            .iter()
            .copied()
            .filter(|p| useful.contains(p))
            .collect();
    }
    it.root_moves = order.len();
    it.useful = useful.clone();

    let score = |imp: i32, v: i32| cfg.k1 * i64::from(imp) + cfg.k2 * i64::from(v);

    // Step 5. The useless points all get the value of doing nothing there: a pass.
    if cfg.prune != Prune::All && order.len() < root.points.len() {
        pos.play_unchecked(PASS);
        let v = -tree.negamax(pos, plies - 1, -INF, INF, ctl);
        pos.undo();
        if ctl.stopped {
            return it;
        }
        let best = pick(&|p| !order.contains(&p));
        if let Some(b) = best {
            let v = capped(b, v);
            it.best = Some(b);
            it.value = v;
            it.f = score(imp_of(b), v);
            it.quiet = true;
        }
    }

    // Step 6. The useful points, each with the window it needs to beat the best F so far.
    for &mv in &order {
        let imp = imp_of(mv);
        let (alpha, beta) = if cfg.alphabeta && it.f > i64::MIN {
            // The smallest value v with score(imp, v) > best F is t; search with alpha = t - 1.
            let t = (it.f - cfg.k1 * i64::from(imp)).div_euclid(cfg.k2) + 1;
            ((t - 1).clamp(-i64::from(INF), i64::from(INF)) as i32, INF)
        } else {
            (-INF, INF)
        };
        if alpha >= INF {
            continue;
        }
        let i = id(stride, mv);
        let z = point_key(i, me);
        pos.play_unchecked(mv);
        tree.progress.put(i, me.index());
        tree.dots_key ^= z;
        if let Some(inner) = tree.inner.as_mut() {
            inner.put(pos, mv, me, plies - 1, ctl);
        }
        let v = capped(mv, -tree.negamax(pos, plies - 1, -beta, -alpha, ctl));
        if let Some(inner) = tree.inner.as_mut() {
            inner.take(mv);
        }
        tree.dots_key ^= z;
        tree.progress.take(i, me.index());
        pos.undo();
        if ctl.stopped {
            return it;
        }
        let f = score(imp, v);
        if v > alpha && f > it.f {
            it.best = Some(mv);
            it.value = v;
            it.f = f;
            it.searched = true;
            it.quiet = false;
        }
        // The upper bound of the one-sided simulation is reached: nothing can be better (to within
        // the importance).
        if bounds && it.searched && it.value >= fmax {
            it.how = "fmax";
            break;
        }
    }
    it.complete = true;
    it
}
