//! Plain depth-limited minimax: every move to the given depth, a static evaluation at the leaves, no
//! pruning. Seed `002_d88c0e1c38cad7fe.txt` (`MiniMax`, `Max`, `Min`) and seed
//! `001_a997fca1c543fbab.txt` (depth-d look-ahead, "choose any of the moves giving this value" — here
//! a seeded random one).

use games::Game;
use rand::Rng;

use super::{
    clamp_eval, generate, movepick, side, terminal_score, Budget, Control, Score, SearchResult,
    INFINITE,
};
use crate::engine::SearchInfo;
use crate::eval::Evaluation;

/// The recursion, with one move buffer per ply so the search allocates only while it deepens.
struct Plain<'a, G: Game, E> {
    eval: &'a E,
    ctl: Control,
    moves: Vec<Vec<G::Move>>,
}

impl<'a, G: Game, E: Evaluation<G>> Plain<'a, G, E> {
    fn new(eval: &'a E, budget: &Budget) -> Self {
        Plain {
            eval,
            ctl: Control::new(budget),
            moves: Vec::new(),
        }
    }

    /// The value of `pos` for its side to move, `depth` plies deep, `ply` plies below the root.
    /// Meaningless (0) once the budget stops the search.
    fn value(&mut self, pos: &mut G, depth: u32, ply: u32) -> Score {
        // Step 1. Count the node; stop when the budget is spent.
        if self.ctl.visit() {
            return 0;
        }
        // Step 2. A finished game is scored exactly, the nearer the win the better.
        if let Some(outcome) = pos.outcome() {
            return terminal_score(outcome, pos.turn(), ply);
        }
        // Step 3. At the depth limit the static evaluation stands in for the rest of the tree.
        if depth == 0 {
            return clamp_eval(self.eval.evaluate(pos));
        }
        // Step 4. Max over the moves of the child's value, negated when the child's mover is the
        // opponent (the article's Max and Min in one); a player who moves again keeps its sign.
        let p = ply as usize;
        if self.moves.len() <= p {
            self.moves.resize_with(p + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[p]);
        generate(pos, self.eval, &mut moves);
        if moves.is_empty() {
            self.moves[p] = moves;
            return clamp_eval(self.eval.evaluate(pos));
        }
        let mut best = -INFINITE;
        let mover = pos.turn();
        for &m in &moves {
            pos.play_unchecked(m);
            let child = self.value(pos, depth - 1, ply + 1);
            let v = side(mover, pos, child);
            pos.undo();
            if self.ctl.stopped {
                break;
            }
            best = best.max(v);
        }
        self.moves[p] = moves;
        best
    }
}

/// The minimax value of `pos` (not over) `depth` plies deep for the side to move, and the nodes
/// visited (every position entered, the root included). No limit but the depth: for tests and
/// benchmarks.
pub fn minimax_value<G: Game, E: Evaluation<G>>(pos: &mut G, eval: &E, depth: u32) -> (Score, u64) {
    let mut s = Plain::new(eval, &Budget::fixed_depth(depth));
    let v = s.value(pos, depth, 0);
    (v, s.ctl.nodes)
}

/// Picks a move of `pos` by plain minimax to `budget.depth` plies, choosing uniformly with `rng`
/// among the moves of equal best value, and reports one `info` line.
///
/// Node and time limits are a safety net, not a way to play: when the budget runs out the move is
/// the best among the root moves searched completely so far (tried in the game's order, the most
/// promising first), or the first move if none was. Returns no move only when `pos` is over.
pub fn minimax<G: Game, E: Evaluation<G>, R: Rng + ?Sized>(
    pos: &G,
    eval: &E,
    budget: &Budget,
    rng: &mut R,
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    let mut pos = pos.clone();
    let mut s = Plain::new(eval, budget);
    let mut result = SearchResult::none();
    if pos.outcome().is_some() {
        return result;
    }
    // Step 1. Root moves in the game's order, so a cut-off search has seen the likeliest ones.
    let mut root = Vec::new();
    generate(&pos, eval, &mut root);
    movepick::order(&pos, eval, &mut root, &mut Vec::new(), None);
    result.best = root.first().copied();
    // Step 2. Value every root move completely.
    s.ctl.visit();
    let mut values = Vec::with_capacity(root.len());
    let mover = pos.turn();
    for &m in &root {
        pos.play_unchecked(m);
        let child = s.value(&mut pos, budget.depth - 1, 1);
        let v = side(mover, &pos, child);
        pos.undo();
        if s.ctl.stopped {
            break;
        }
        values.push((m, v));
    }
    // Step 3. A seeded random choice among the equal best (seed 001).
    if let Some(best) = values.iter().map(|&(_, v)| v).max() {
        let ties: Vec<G::Move> = values
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(m, _)| m)
            .collect();
        let m = ties[rng.random_range(0..ties.len())];
        result.best = Some(m);
        result.pv = vec![m];
        result.score = best;
        if values.len() == root.len() {
            result.depth = budget.depth;
        }
    }
    result.nodes = s.ctl.nodes;
    result.time_ms = s.ctl.elapsed_ms();
    info(&result.info());
    result
}
