//! Every position of at most `all_depth` plies, bottom up: the positions of `all_depth` plies are
//! solved by search (by the caller), and each shallower one takes the negamax of its children's
//! exact scores, with no search. A position's score is the best of its moves': an immediate win scores
//! Pons's `(W × H + 1 − stones) / 2`, any other move minus its child's score (no move fills the
//! board: the builder asks `all_depth < W × H`). Deriving a level costs nothing next to solving it: a
//! full 8-ply 7 × 6 book needs the searches of its 8-ply positions only.

use std::collections::HashSet;

use bots::c4_solver::board::{Board, Geometry};
use bots::c4_solver::book::canonical;

use super::Known;

/// The positions of each ply from 0 to `all_depth`, every move played (no move after a four: a
/// column that wins at once ends the game), mirror images once: `levels[ply]` lists (canonical key,
/// board) in the order they were first reached, so that siblings stand together.
pub(super) fn levels<G: Geometry>(geom: G, all_depth: u32) -> Vec<Vec<(u64, Board<G>)>> {
    let root = Board::new(geom);
    let mut levels = vec![vec![(canonical(&root).0, root)]];
    for _ in 0..all_depth {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for (_, b) in levels.last().expect("the root's level") {
            for c in 0..geom.width() {
                if !b.can_play(c) || b.is_winning_col(c) {
                    continue;
                }
                let mut child = *b;
                child.play_col(c);
                let (key, _) = canonical(&child);
                if seen.insert(key) {
                    next.push((key, child));
                }
            }
        }
        levels.push(next);
    }
    levels
}

/// Gives every position of `levels` below the last one that `known` lacks its score and best move,
/// the deepest first, from its children's entries (the last level must be in `known`). The best move
/// is the first in `order` (centre first) that reaches the score. Returns how many were derived.
///
/// # Panics
/// If a child is missing from `known` (its level was not solved).
pub(super) fn derive_upwards<G: Geometry>(
    levels: &[Vec<(u64, Board<G>)>],
    known: &mut Known,
    order: &[u32],
) -> usize {
    let mut derived = 0;
    for level in levels.iter().rev().skip(1) {
        for (key, b) in level {
            if known.contains_key(key) {
                continue;
            }
            let (score, best) = derive(b, known, order);
            let (_, mirrored) = canonical(b);
            let w = b.geom().width();
            let best = best.map(|c| if mirrored { w - 1 - c } else { c });
            known.insert(*key, (score, best));
            derived += 1;
        }
    }
    derived
}

/// The exact score of `b` and the first column of `order` that reaches it (in `b`'s orientation),
/// from its children's scores in `known`.
fn derive<G: Geometry>(b: &Board<G>, known: &Known, order: &[u32]) -> (i32, Option<u32>) {
    let sq = b.geom().squares() as i32;
    if let Some(&c) = order.iter().find(|&&c| b.is_winning_col(c)) {
        return ((sq + 1 - b.moves() as i32) / 2, Some(c));
    }
    let mut best: Option<(i32, u32)> = None;
    for &c in order.iter().filter(|&&c| b.can_play(c)) {
        // Never a full board: the builder asks `all_depth < squares`, so a derived position's
        // children have at most `squares - 1` stones.
        let mut child = *b;
        child.play_col(c);
        let (key, _) = canonical(&child);
        let value = -known
            .get(&key)
            .unwrap_or_else(|| panic!("the child {key} of a derived position is not solved"))
            .0;
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, c));
        }
    }
    let (score, col) = best.expect("a position that is not full has a move");
    (score, Some(col))
}
