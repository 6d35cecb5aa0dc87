//! Dots evaluation: the capture difference (seed `000_71d76f5b75d0c15c.txt`: `kill2 − kill1`, here
//! through [`Game::score`]) weighted by `dots_captures`, plus a tiny reach term `dots_mobility`: legal
//! points next to own live dots minus those next to the enemy's (seed `002_d88c0e1c38cad7fe.txt`'s
//! "mobility" knowledge).
//!
//! The search tries only legal points next to a dot (any colour, 8-neighbourhood), in the spirit of
//! seed 000's play range (the rectangle around the dots plus one): a point far from every dot cannot
//! take part in a capture within a few plies. With no dot on the board every legal point is tried.
//! `ground` is never tried (it is not a listed move either; see [`Dots`]).

use std::cell::RefCell;

use super::{Dots, Move, Point};
use crate::eval::{Evaluation, Score, Weight, Weights};
use crate::{Game, Player};

/// The weights: captures and reach.
pub const WEIGHTS: &[Weight] = &[
    Weight {
        name: "dots_captures",
        default: 100,
        doc: "per captured enemy dot, own captures minus the enemy's (R11 of docs/dots-rules.md)",
    },
    Weight {
        name: "dots_mobility",
        default: 1,
        doc: "per legal point next to an own live dot (8-neighbourhood), own minus the enemy's: \
              room to grow, a tiny mobility term",
    },
];

/// Cell codes of the scratch grid.
const LEGAL: u8 = 0;
const DEAD: u8 = 1;
const LIVE: [u8; 2] = [2, 3];
const CAPTURED: u8 = 4;
const PAD: u8 = 5;

/// A padded copy of the board, refilled for each call (the search is single-threaded).
#[derive(Debug)]
pub struct DotsEval {
    captures: Score,
    mobility: Score,
    width: usize,
    height: usize,
    grid: RefCell<Vec<u8>>,
}

impl DotsEval {
    fn index(&self, x: usize, y: usize) -> usize {
        y * (self.width + 2) + x
    }

    fn neighbours(&self, i: usize) -> [usize; 8] {
        let s = self.width + 2;
        [
            i - s - 1,
            i - s,
            i - s + 1,
            i - 1,
            i + 1,
            i + s - 1,
            i + s,
            i + s + 1,
        ]
    }

    fn fill(&self, pos: &Dots, grid: &mut [u8]) {
        // Row by row with `point` (the `points` iterator is a nested `flat_map` the compiler does not
        // always flatten: this loop is the evaluation's hot path).
        for y in 1..=self.height {
            let row = self.index(0, y);
            for x in 1..=self.width {
                let p = pos.point(x as u8, y as u8).unwrap_or(Point::Empty);
                grid[row + x] = match p {
                    Point::Empty | Point::House(_) => LEGAL,
                    Point::Dead(_) => DEAD,
                    Point::Dot(p) => LIVE[p.index()],
                    Point::Captured(_) => CAPTURED,
                };
            }
        }
    }
}

impl Evaluation<Dots> for DotsEval {
    const WEIGHTS: &'static [Weight] = WEIGHTS;

    /// Scratch space for `pos`'s board size.
    fn new(pos: &Dots, w: &Weights) -> DotsEval {
        let (width, height) = (usize::from(pos.width()), usize::from(pos.height()));
        DotsEval {
            captures: w.get(&WEIGHTS[0]),
            mobility: w.get(&WEIGHTS[1]),
            width,
            height,
            grid: RefCell::new(vec![PAD; (width + 2) * (height + 2)]),
        }
    }

    /// `Σ Kᵢ·Zᵢ` for the player to move of `pos`.
    fn evaluate(&self, pos: &Dots) -> Score {
        let me = pos.turn();
        let [a, b] = pos.score().unwrap_or([0, 0]);
        let (own, opp) = match me {
            Player::First => (a, b),
            Player::Second => (b, a),
        };
        let mut s = self.captures * (own as Score - opp as Score);
        if self.mobility != 0 {
            // One pass, no scratch grid: the rules keep each point's live neighbours as masks.
            let mut reach = [0 as Score; 2];
            for y in 1..=self.height as u8 {
                for x in 1..=self.width as u8 {
                    if matches!(pos.point(x, y), Some(Point::Empty | Point::House(_))) {
                        reach[0] += Score::from(pos.touches(x, y, Player::First));
                        reach[1] += Score::from(pos.touches(x, y, Player::Second));
                    }
                }
            }
            s += self.mobility * (reach[me.index()] - reach[me.opponent().index()]);
        }
        s
    }

    /// The legal points next to a dot of either colour, in the order of [`Game::legal_moves`]; every
    /// legal point when there is no such point.
    fn moves(&self, pos: &Dots, out: &mut Vec<Move>) {
        let mut grid = self.grid.borrow_mut();
        self.fill(pos, &mut grid);
        let before = out.len();
        for y in (1..=self.height).rev() {
            for x in 1..=self.width {
                let i = self.index(x, y);
                if grid[i] == LEGAL
                    && self
                        .neighbours(i)
                        .iter()
                        .any(|&j| matches!(grid[j], 2 | 3 | CAPTURED))
                {
                    out.push(Move::Put {
                        x: x as u8,
                        y: y as u8,
                    });
                }
            }
        }
        if out.len() == before {
            pos.legal_moves_into(out);
        }
    }

    /// Contact first: the number of live dots of either colour around the point (8-neighbourhood).
    fn order_key(&self, pos: &Dots, m: Move) -> i32 {
        let Move::Put { x, y } = m else {
            return i32::MIN;
        };
        let mut n = 0;
        for dy in -1i32..=1 {
            for dx in -1i32..=1 {
                let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
                if (dx, dy) != (0, 0)
                    && (1..=255).contains(&nx)
                    && (1..=255).contains(&ny)
                    && matches!(pos.point(nx as u8, ny as u8), Some(Point::Dot(_)))
                {
                    n += 1;
                }
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dots::Start;

    #[test]
    fn only_points_next_to_a_dot_are_searched() {
        let pos = Dots::new(8, 8, Start::Cross);
        let e = DotsEval::new(&pos, &Weights::default());
        let mut moves = Vec::new();
        e.moves(&pos, &mut moves);
        // The cross is a 2×2 square: its ring of neighbours has 4 × 4 − 4 = 12 points.
        assert_eq!(moves.len(), 12);
        assert!(moves.iter().all(|&m| pos.is_legal(m)));
        let empty = Dots::new(8, 8, Start::Empty);
        moves.clear();
        e.moves(&empty, &mut moves);
        assert_eq!(moves.len(), 64);
    }

    /// The mobility term counted the plain way: every legal point (empty or a house) with a live dot
    /// of the player among its eight neighbours, from [`Dots::points`] alone.
    fn reach_by_scan(pos: &Dots, p: Player) -> Score {
        let pts: Vec<(u8, u8, Point)> = pos.points().collect();
        let live = |x: i32, y: i32| {
            pts.iter()
                .any(|&(a, b, q)| (i32::from(a), i32::from(b)) == (x, y) && q == Point::Dot(p))
        };
        pts.iter()
            .filter(|(_, _, q)| matches!(q, Point::Empty | Point::House(_)))
            .filter(|&&(x, y, _)| {
                (-1..=1).any(|dy| {
                    (-1..=1)
                        .any(|dx| (dx, dy) != (0, 0) && live(i32::from(x) + dx, i32::from(y) + dy))
                })
            })
            .count() as Score
    }

    #[test]
    fn the_mobility_term_is_the_plain_count_on_random_positions() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut w = Weights::default();
        w.set(&WEIGHTS[0], 0);
        w.set(&WEIGHTS[1], 1);
        for _ in 0..40 {
            let mut pos = Dots::new(9, 7, Start::Cross);
            let plies = rng.random_range(0..50);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            let e = DotsEval::new(&pos, &w);
            let me = pos.turn();
            let expected = reach_by_scan(&pos, me) - reach_by_scan(&pos, me.opponent());
            assert_eq!(e.evaluate(&pos), expected, "\n{pos}");
        }
    }

    #[test]
    fn a_capture_counts_for_the_capturer() {
        // Blue (first) surrounds Red's dot on 5-5 (the example of games::dots); Red is to move.
        let pos = Dots::from_moves(8, 8, Start::Empty, "5-6 5-5 4-5 1-1 6-5 1-8 5-4").unwrap();
        let mut w = Weights::default();
        w.set(&WEIGHTS[1], 0);
        let e = DotsEval::new(&pos, &w);
        assert_eq!(e.evaluate(&pos), -100);
    }
}
