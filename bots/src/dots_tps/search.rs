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

use super::trajectories::{diff, heuristic2, simulate, Trajectory, PASS};
use super::{Config, Control, Prune};
use crate::dots_tps::patterns::Grid;

/// Above every capture difference.
const INF: i32 = 1 << 20;

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
}

/// The state shared by the nodes of one search.
struct Tree<'a> {
    cfg: &'a Config,
    /// `W + 2`: point ids are `y * stride + x`.
    stride: usize,
    /// Trajectories as point ids, with their owners.
    trajs: Vec<(Player, Vec<u16>)>,
    /// The moves an inner node may try, in order: the whole range (mode `all`) or the useful points.
    moves: Vec<Move>,
    /// Per point id: 0 empty, 1 + player index when a dot of the tree stands there.
    placed: Vec<u8>,
    /// Per point id: the node number that marked it useful.
    stamp: Vec<u32>,
    epoch: u32,
}

fn id(stride: usize, m: Move) -> usize {
    match m {
        Move::Put { x, y } => usize::from(y) * stride + usize::from(x),
        Move::Ground => 0,
    }
}

impl<'a> Tree<'a> {
    /// Negamax over the capture difference of the side to move, `plies` deep; `alpha`/`beta` are
    /// ignored without alpha-beta. Returns 0 once the control has stopped.
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
        if plies == 0 || pos.outcome().is_some() {
            return diff(pos, mover);
        }
        let moves = self.generate(pos, plies, mover);
        if moves.is_empty() {
            // No trajectory can be completed any more: nothing changes within the horizon.
            return diff(pos, mover);
        }
        let mut best = -INF;
        for m in moves {
            let i = id(self.stride, m);
            pos.play_unchecked(m);
            self.placed[i] = 1 + mover.index() as u8;
            let v = -self.negamax(pos, plies - 1, -beta, -alpha, ctl);
            self.placed[i] = 0;
            pos.undo();
            if ctl.stopped {
                return 0;
            }
            best = best.max(v);
            if self.cfg.alphabeta {
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The moves of a node with `plies` left for `mover`, in the static order.
    fn generate(&mut self, pos: &Dots, plies: u32, mover: Player) -> Vec<Move> {
        match self.cfg.prune {
            Prune::All | Prune::Useful => self
                .moves
                .iter()
                .copied()
                .filter(|&m| pos.is_legal(m))
                .collect(),
            Prune::H1 | Prune::H12 => {
                // Heuristic 1: a trajectory needing more points than its owner has moves left, or
                // holding a dot of the other colour, is dropped; a point is tried only while some
                // trajectory still holds it.
                let mut left = [0u32; 2];
                left[mover.index()] = plies.div_ceil(2);
                left[mover.opponent().index()] = plies / 2;
                self.epoch += 1;
                let epoch = self.epoch;
                for (owner, pts) in &self.trajs {
                    let own = 1 + owner.index() as u8;
                    let mut need = 0;
                    let mut alive = true;
                    for &p in pts {
                        match self.placed[p as usize] {
                            0 => need += 1,
                            v if v == own => {}
                            _ => {
                                alive = false;
                                break;
                            }
                        }
                    }
                    if alive && need > 0 && need <= left[owner.index()] {
                        for &p in pts {
                            if self.placed[p as usize] == 0 {
                                self.stamp[p as usize] = epoch;
                            }
                        }
                    }
                }
                let stride = self.stride;
                self.moves
                    .iter()
                    .copied()
                    .filter(|&m| self.stamp[id(stride, m)] == epoch && pos.is_legal(m))
                    .collect()
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
}

/// Searches `m` full moves (2m plies) from `pos` for its side to move. `prev` (the best move of
/// the previous depth) is tried first when the ordering is on.
pub fn iteration(
    pos: &mut Dots,
    cfg: &Config,
    root: &RootPoints,
    m: u32,
    prev: Option<Move>,
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
    };
    if root.points.is_empty() {
        return it;
    }
    // The most important point; ties to the one nearest the centre of the range, then board order.
    let by_importance = |pts: &mut dyn Iterator<Item = Move>| -> Option<Move> {
        let mut best: Option<((i32, i32), Move)> = None;
        for p in pts {
            let key = (imp_of(p), -root.off_centre(p));
            if best.is_none_or(|b| key > b.0) {
                best = Some((key, p));
            }
        }
        best.map(|b| b.1)
    };

    // Step 1. One-sided simulations: the bounds and the trajectories.
    let need_sims = cfg.prune != Prune::All || cfg.bounds;
    let mut trajs: Vec<Trajectory> = Vec::new();
    let mut sims_complete = true;
    if need_sims {
        for p in [me, me.opponent()] {
            let sim = simulate(pos, &root.grid, &root.points, p, m, ctl);
            it.gains[usize::from(p != me)] = sim.gain;
            sims_complete &= sim.complete;
            trajs.extend(sim.trajectories);
        }
        if ctl.stopped {
            return it;
        }
    }
    let bounds = cfg.bounds && sims_complete;
    let fmax = root_diff + it.gains[0];

    // Step 2. Fmin = Fmax: no capture is possible at this depth, importance alone decides.
    if bounds && it.gains == [0, 0] {
        let best = by_importance(&mut root.points.iter().copied());
        it.best = best;
        it.f = best.map_or(0, |b| {
            cfg.k1 * i64::from(imp_of(b)) + cfg.k2 * i64::from(root_diff)
        });
        it.complete = true;
        it.how = "shortcut";
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
    let mut tree = Tree {
        cfg,
        stride,
        trajs: trajs
            .iter()
            .map(|t| {
                (
                    t.owner,
                    t.points.iter().map(|&p| id(stride, p) as u16).collect(),
                )
            })
            .collect(),
        moves: useful.clone(),
        placed: vec![0; count.len()],
        stamp: vec![0; count.len()],
        epoch: 0,
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

    let score = |imp: i32, v: i32| cfg.k1 * i64::from(imp) + cfg.k2 * i64::from(v);

    // Step 5. The useless points all get the value of doing nothing there: a pass.
    if cfg.prune != Prune::All && order.len() < root.points.len() {
        pos.play_unchecked(PASS);
        let v = -tree.negamax(pos, plies - 1, -INF, INF, ctl);
        pos.undo();
        if ctl.stopped {
            return it;
        }
        let best = by_importance(&mut root.points.iter().copied().filter(|p| !order.contains(p)));
        if let Some(b) = best {
            it.best = Some(b);
            it.value = v;
            it.f = score(imp_of(b), v);
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
        pos.play_unchecked(mv);
        tree.placed[i] = 1 + me.index() as u8;
        let v = -tree.negamax(pos, plies - 1, -beta, -alpha, ctl);
        tree.placed[i] = 0;
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
