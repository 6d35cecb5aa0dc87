//! Boards too big for the solver's `u64` bitboards (`W * (H + 1) > 64`: 8 × 8, 9 × 7 and up): a plain
//! iterative-deepening alpha-beta over [`games::Connect4`] that takes wins, blocks losses and otherwise
//! prefers the centre. Not a solver: it proves only what falls inside its horizon.

use std::time::Instant;

use games::{Connect4, Game, Outcome};

use super::heuristic::PROVED;
use super::solver::Budget;

/// Searches `pos` (not over) by iterative deepening within `budget` and `max_depth`; returns the best
/// column (0-based), its score (proved results as [`PROVED`] × plies-to-spare, else 0 or a centre
/// bonus), the depth completed and the nodes searched, reporting each depth through `report`.
pub fn choose(
    pos: &Connect4,
    budget: Budget,
    max_depth: u32,
    report: &mut dyn FnMut(u32, i32, u64),
) -> Option<u32> {
    let mut s = Fallback {
        nodes: 0,
        budget,
        aborted: false,
    };
    let mut pos = pos.clone();
    let mut moves = pos.legal_moves();
    let centre = i32::from(pos.width() - 1) / 2;
    moves.sort_by_key(|m| (i32::from(m.col) - centre).abs());
    let mut best = *moves.first()?;
    let empties = u32::from(pos.width()) * u32::from(pos.height()) - pos.ply() as u32;
    for depth in 1..=max_depth.min(empties) {
        let mut iter_best = None;
        let mut alpha = -i32::MAX;
        for &m in &moves {
            pos.play_unchecked(m);
            let v = -s.negamax(&mut pos, depth - 1, -i32::MAX, -alpha);
            pos.undo();
            if s.aborted {
                return Some(u32::from(best.col));
            }
            if v > alpha {
                alpha = v;
                iter_best = Some(m);
            }
        }
        if let Some(m) = iter_best {
            best = m;
            // Best first next time.
            if let Some(i) = moves.iter().position(|&x| x == m) {
                moves[..=i].rotate_right(1);
            }
        }
        report(depth, alpha, s.nodes);
        if alpha.abs() >= PROVED {
            break;
        }
    }
    Some(u32::from(best.col))
}

struct Fallback {
    nodes: u64,
    budget: Budget,
    aborted: bool,
}

impl Fallback {
    fn negamax(&mut self, pos: &mut Connect4, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(limit) = self.budget.nodes {
            self.aborted |= self.nodes > limit;
        }
        if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.budget.deadline {
                self.aborted |= Instant::now() >= deadline;
            }
        }
        if self.aborted {
            return 0;
        }
        match pos.outcome() {
            // The player who just moved won: the mover lost, the sooner the worse.
            Some(Outcome::Win(_)) => return -PROVED * (depth as i32 + 1),
            Some(Outcome::Draw) => return 0,
            None => {}
        }
        if depth == 0 {
            return 0;
        }
        let centre = i32::from(pos.width() - 1) / 2;
        let mut moves = pos.legal_moves();
        moves.sort_by_key(|m| (i32::from(m.col) - centre).abs());
        let mut best = -i32::MAX;
        for m in moves {
            pos.play_unchecked(m);
            let v = -self.negamax(pos, depth - 1, -beta, -alpha);
            pos.undo();
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_win_and_blocks_one_on_9x9() {
        // X has 1, 2, 3 on the bottom row: column 4 wins.
        let pos = Connect4::from_moves(9, 9, "192939").unwrap();
        let col = choose(&pos, Budget::UNLIMITED, 3, &mut |_, _, _| {});
        assert_eq!(col, Some(3));
        // O to move must block column 4.
        let pos = Connect4::from_moves(9, 9, "19293").unwrap();
        let col = choose(&pos, Budget::UNLIMITED, 4, &mut |_, _, _| {});
        assert_eq!(col, Some(3));
    }
}
