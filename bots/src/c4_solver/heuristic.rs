//! The move for positions the solver cannot prove in time: iterative deepening of a depth-limited
//! alpha-beta over [`Board`] with the solver's forced-move pruning and a threat-counting evaluation.
//!
//! Scores: a win or loss found inside the horizon is [`PROVED`] × Pons's score (so it ranks by how
//! soon); anything else is the evaluation, within ±[`PROVED`] − 1.

use std::time::Instant;

use super::board::{non_losing, winning_spots, Board, Geometry};
use super::solver::Budget;

/// The factor between Pons's score and the engine's reported score for a proved result.
pub const PROVED: i32 = 1000;

/// The result of one completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Plies searched.
    pub depth: u32,
    /// Score of the best move, for the side to move.
    pub score: i32,
    /// The best column (0-based) and the other columns with the same score.
    pub best: u32,
    pub ties: Vec<u32>,
}

/// A depth-limited searcher; it keeps no table between calls.
pub struct Heuristic<G: Geometry> {
    geom: G,
    nodes: u64,
    budget: Budget,
    aborted: bool,
    order: Vec<u32>,
    /// Squares on rows 1, 3, 5, … (1-based) from the bottom: the first player's good threats.
    odd_rows: u64,
}

impl<G: Geometry> Heuristic<G> {
    /// A searcher for boards of geometry `geom`.
    pub fn new(geom: G) -> Self {
        let w = geom.width() as i32;
        let order = (0..w)
            .map(|i| (w / 2 + if i % 2 == 1 { -(i + 1) / 2 } else { i / 2 }) as u32)
            .collect();
        let mut row = 0u64;
        for r in (0..geom.height()).step_by(2) {
            row |= 1 << r;
        }
        Heuristic {
            geom,
            nodes: 0,
            budget: Budget::UNLIMITED,
            aborted: false,
            order,
            odd_rows: geom.bottom() * row,
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `b` (which must have a non-losing move and no immediate win) to `depth` plies.
    /// `None` when the budget ran out first. `first` is tried first at the root.
    pub fn search_root(
        &mut self,
        b: &Board<G>,
        depth: u32,
        first: Option<u32>,
        budget: Budget,
    ) -> Option<Iteration> {
        self.budget = budget;
        self.aborted = false;
        let moves = b.possible_non_losing_moves();
        let mut cols: Vec<u32> = self
            .order
            .iter()
            .copied()
            .filter(|&c| moves & self.geom.column(c) != 0)
            .collect();
        if let Some(f) = first {
            if let Some(i) = cols.iter().position(|&c| c == f) {
                cols[..=i].rotate_right(1);
            }
        }
        let mut best: Option<(i32, u32)> = None;
        let mut ties = Vec::new();
        for &c in &cols {
            let mut child = *b;
            child.play(moves & self.geom.column(c));
            // One below the best so far, so that a move as good comes back exact: the ties.
            let alpha = best.map_or(-i32::MAX + 1, |(s, _)| s - 1);
            let s = -self.negamax(&child, depth.saturating_sub(1), -i32::MAX, -alpha);
            if self.aborted {
                return None;
            }
            match best {
                Some((bs, _)) if s < bs => {}
                Some((bs, _)) if s == bs => ties.push(c),
                _ => {
                    best = Some((s, c));
                    ties.clear();
                }
            }
        }
        let (score, best) = best?;
        Some(Iteration {
            depth,
            score,
            best,
            ties,
        })
    }

    fn negamax(&mut self, b: &Board<G>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
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
        let geom = self.geom;
        let sq = geom.squares() as i32;
        let n = b.moves() as i32;
        if b.can_win_next() {
            return PROVED * ((sq + 1 - n) / 2);
        }
        let moves = b.possible_non_losing_moves();
        if moves == 0 {
            return -PROVED * ((sq - n) / 2);
        }
        if n >= sq - 2 {
            return 0;
        }
        if depth == 0 {
            return self.evaluate(b);
        }
        // Order: the winning squares each move makes, centre first among equals.
        let mut list: Vec<(u32, u64)> = Vec::with_capacity(geom.width() as usize);
        for (rank, &c) in self.order.iter().enumerate() {
            let bit = moves & geom.column(c);
            if bit != 0 {
                let threats = winning_spots(geom, b.current() | bit, b.mask()).count_ones();
                let replies = (b.possible() ^ bit) | ((bit << 1) & geom.board());
                if non_losing(
                    replies,
                    winning_spots(geom, b.current() | bit, b.mask() | bit),
                ) == 0
                {
                    return PROVED * ((sq - 1 - n) / 2);
                }
                list.push((threats << 4 | (15 - rank as u32), bit));
            }
        }
        list.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        let mut best = -i32::MAX;
        for &(_, bit) in &list {
            let mut child = *b;
            child.play(bit);
            let s = -self.negamax(&child, depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The position for the player to move, within ±(`PROVED` − 1): threats (empty squares that
    /// complete a four) count double on the rows where they tend to decide the game (odd rows for
    /// the first player, even rows for the second: Allis's zugzwang rule of thumb), a threat right
    /// above one of the opponent's counts for nothing, and stones in the centre column count a little.
    pub fn evaluate(&self, b: &Board<G>) -> i32 {
        let geom = self.geom;
        let ours = b.winning_spots();
        let theirs = b.opponent_winning_spots();
        let first_to_move = b.moves() & 1 == 0;
        let (our_rows, their_rows) = if first_to_move {
            (self.odd_rows, !self.odd_rows)
        } else {
            (!self.odd_rows, self.odd_rows)
        };
        let value = |threats: u64, enemy: u64, good: u64| -> i32 {
            let live = threats & !(enemy << 1);
            (2 * (live & good).count_ones() + (live & !good).count_ones()) as i32
        };
        let mut score = 16 * (value(ours, theirs, our_rows) - value(theirs, ours, their_rows));
        let centre = geom.column((geom.width() - 1) / 2);
        let mine = b.current() & centre;
        let yours = (b.current() ^ b.mask()) & centre;
        score += 3 * (mine.count_ones() as i32 - yours.count_ones() as i32);
        score.clamp(-(PROVED - 1), PROVED - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Std7x6;
    use super::*;

    #[test]
    fn finds_a_forced_win_inside_the_horizon() {
        // X to move makes the double threat 2/6 with column 5 (index 4): a win with its 4th stone.
        let b = Board::from_moves(Std7x6, "3141").unwrap();
        let mut h = Heuristic::new(Std7x6);
        let it = h.search_root(&b, 3, None, Budget::UNLIMITED).unwrap();
        assert_eq!(it.score, PROVED * 18);
        assert_eq!(it.best, 4, "{it:?}");
    }

    #[test]
    fn the_evaluation_is_antisymmetric_in_the_empty_start() {
        let h = Heuristic::new(Std7x6);
        assert_eq!(h.evaluate(&Board::new(Std7x6)), 0);
    }
}
