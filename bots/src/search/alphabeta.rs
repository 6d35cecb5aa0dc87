//! Negamax alpha-beta (seed `002_d88c0e1c38cad7fe.txt`, `Alfa-Beta-Max/Min` folded into one
//! function) under iterative deepening (the same seed's `Rask_ėjimą`: search to depth 1, 2, … while
//! the time lasts, keeping the move of the last completed depth).

use games::Game;
use rand::seq::SliceRandom;
use rand::Rng;

use super::{
    clamp_eval, generate, is_mate, movepick, terminal_score, Budget, Control, Score, SearchResult,
    INFINITE,
};
use crate::engine::SearchInfo;
use crate::eval::Evaluation;

/// The search state of one move: counters, per-ply buffers and the principal variation.
struct Searcher<'a, G: Game, E> {
    eval: &'a E,
    ctl: Control,
    /// The root moves in the order of the next iteration.
    root: Vec<G::Move>,
    /// One move list per ply, reused.
    moves: Vec<Vec<G::Move>>,
    /// Scratch for sorting.
    keyed: Vec<(i32, G::Move)>,
    /// Triangular PV table: `pv[ply]` is the best line found from `ply` on.
    pv: Vec<Vec<G::Move>>,
    /// The previous iteration's PV, tried first along its own path.
    prev_pv: Vec<G::Move>,
    /// Whether a leaf was cut by the depth limit (else the value is exact: the game tree was solved).
    horizon: bool,
}

impl<'a, G: Game, E: Evaluation<G>> Searcher<'a, G, E> {
    fn new(eval: &'a E, budget: &Budget, root: Vec<G::Move>) -> Self {
        Searcher {
            eval,
            ctl: Control::new(budget),
            root,
            moves: Vec::new(),
            keyed: Vec::new(),
            pv: Vec::new(),
            prev_pv: Vec::new(),
            horizon: false,
        }
    }

    /// The value of `pos` for its side to move within the window (`alpha`, `beta`), `depth` plies
    /// deep, `ply` plies below the root; fail-soft (a value outside the window is a bound). `on_pv`:
    /// every move so far followed the previous iteration's PV. Meaningless once the budget stops it.
    fn search(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        on_pv: bool,
    ) -> Score {
        // Step 1. Count the node; stop when the budget is spent (the caller discards the value).
        if self.ctl.visit() {
            return 0;
        }
        if self.pv.len() <= ply {
            self.pv.resize_with(ply + 1, Vec::new);
            self.moves.resize_with(ply + 1, Vec::new);
        }
        self.pv[ply].clear();
        // Step 2. A finished game is scored exactly, the nearer the win the better.
        if let Some(outcome) = pos.outcome() {
            return terminal_score(outcome, pos.turn(), ply as u32);
        }
        // Step 3. At the depth limit the static evaluation stands in for the rest of the tree.
        if depth == 0 {
            self.horizon = true;
            return clamp_eval(self.eval.evaluate(pos));
        }
        // Step 4. Moves: the root's kept list, or generated and ordered by the game's hook; the
        // previous iteration's move first while on its PV.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let pv_move = if on_pv {
            self.prev_pv.get(ply).copied()
        } else {
            None
        };
        if ply == 0 {
            moves.clear();
            moves.extend_from_slice(&self.root);
            movepick::put_first(&mut moves, pv_move);
        } else {
            generate(pos, self.eval, &mut moves);
            movepick::order(pos, self.eval, &mut moves, &mut self.keyed, pv_move);
        }
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.horizon = true;
            return clamp_eval(self.eval.evaluate(pos));
        }
        // Step 5. Search each move; a value at or above beta refutes the opponent's last move, so
        // the remaining moves cannot matter (the article's cut-off). A child where the same player
        // moves again (Kalah) is searched with the same window and its value kept, not negated.
        let mut best = -INFINITE;
        let mover = pos.turn();
        for &m in &moves {
            pos.play_unchecked(m);
            let child_on_pv = pv_move == Some(m);
            let v = if pos.turn() == mover {
                self.search(pos, depth - 1, ply + 1, alpha, beta, child_on_pv)
            } else {
                -self.search(pos, depth - 1, ply + 1, -beta, -alpha, child_on_pv)
            };
            pos.undo();
            if self.ctl.stopped {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }

    /// `pv[ply] = m, pv[ply + 1]…`.
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        if let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }
}

/// The alpha-beta value of `pos` (not over) `depth` plies deep for the side to move, with a full
/// window and the game's move ordering, and the nodes visited (every position entered, the root
/// included). Equal to [`minimax_value`](super::minimax_value) at the same depth, visiting a subset of
/// its nodes. No limit but the depth: for tests and benchmarks.
pub fn alpha_beta_value<G: Game, E: Evaluation<G>>(
    pos: &mut G,
    eval: &E,
    depth: u32,
) -> (Score, u64) {
    let mut root = Vec::new();
    generate(pos, eval, &mut root);
    movepick::order(pos, eval, &mut root, &mut Vec::new(), None);
    let mut s = Searcher::new(eval, &Budget::fixed_depth(depth), root);
    let v = s.search(pos, depth, 0, -INFINITE, INFINITE, false);
    (v, s.ctl.nodes)
}

/// Picks a move of `pos` by alpha-beta under iterative deepening within `budget`, reporting an `info`
/// line after every completed depth.
///
/// The root moves are shuffled with `rng` before the game's ordering, so moves the ordering cannot
/// tell apart are tried — and, on equal values, chosen — in a seeded random order. Deepening stops at
/// `budget.depth`, when the nodes or the time run out (the unfinished iteration is thrown away), when
/// the value is exact (no leaf was cut by the depth: the tree is solved) or a forced win or loss, or
/// when half the time is gone (the next depth would not finish). Returns the best move of the last
/// completed iteration, else the first root move; no move only when `pos` is over.
pub fn iterative_deepening<G: Game, E: Evaluation<G>, R: Rng + ?Sized>(
    pos: &G,
    eval: &E,
    budget: &Budget,
    rng: &mut R,
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let mut pos = pos.clone();
    let mut result = SearchResult::none();
    if pos.outcome().is_some() {
        return result;
    }
    // Step 1. Root moves: a seeded shuffle, then the game's order.
    let mut root = Vec::new();
    generate(&pos, eval, &mut root);
    root.shuffle(rng);
    movepick::order(&pos, eval, &mut root, &mut Vec::new(), None);
    result.best = root.first().copied();
    let mut s = Searcher::new(eval, budget, root);
    // Step 2. Deepen one ply at a time.
    for depth in 1..=budget.depth {
        s.horizon = false;
        let score = s.search(&mut pos, depth, 0, -INFINITE, INFINITE, true);
        if s.ctl.stopped {
            break;
        }
        // Step 3. Keep and report the completed iteration.
        result.pv = s.pv[0].clone();
        result.best = result.pv.first().copied().or(result.best);
        result.score = score;
        result.depth = depth;
        result.nodes = s.ctl.nodes;
        result.time_ms = s.ctl.elapsed_ms();
        info(&result.info());
        s.prev_pv = result.pv.clone();
        // Step 4. Stop early when deeper cannot change the answer or cannot finish in time.
        if !s.horizon || is_mate(score) {
            break;
        }
        if budget.time_ms.is_some_and(|t| 2 * s.ctl.elapsed_ms() >= t) {
            break;
        }
    }
    result.nodes = s.ctl.nodes;
    result.time_ms = s.ctl.elapsed_ms();
    result
}
