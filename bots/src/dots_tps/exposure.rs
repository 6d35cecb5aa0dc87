//! Exposed points (ours, option `exposed`, issue 28): a root point after which the opponent
//! captures more with one move next to it than it could before.
//!
//! The article's tree follows only the trajectories found at the root by one-sided simulations,
//! in which the other side puts no dot. A dot put below the root is therefore on none of the
//! opponent's trajectories, and the tree cannot see the opponent enclose it: a dot played where one
//! more enemy dot closes a ring around it (a "self-atari") looks as good as a pass to the search
//! and to the importance. Against oppai-rs that cost a dot a move for ten moves in a row.
//!
//! [`exposure`] plays each root point, then each of the opponent's legal answers among its eight
//! neighbours, and compares the captures of that answer with those of the same answer without the
//! root point: the largest increase, dots. [`crate::dots_tps::search::iteration`] then caps the
//! value of an exposed point at what the root point itself gains less that increase (on purpose
//! also when the search found more, e.g. a win by grounding: the tree did not see the loss), and
//! picks quiet points among the unexposed ones; [`crate::dots_tps::think`] leaves exposed points
//! out of the random fills.

use games::dots::Move;
use games::{Dots, Game};

use super::cycles::AROUND;
use super::trajectories::{diff, PASS};

/// What playing a root point gives away at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exposure {
    /// The capture difference the point itself makes (the mover's view; negative for a dot put
    /// into an enemy house, R9), dots.
    pub gain: i32,
    /// How many more dots the opponent's best answer next to the point captures than the same
    /// answer would without it, dots (0: not exposed).
    pub loss: i32,
}

/// The [`Exposure`] of each of `points` in `pos` (the mover's points). Cost: one play and undo per
/// point and per legal neighbour of a point, then one per neighbour whose answer captured, without
/// the point. `pos` is left as it was.
pub fn exposure(pos: &mut Dots, points: &[Move]) -> Vec<Exposure> {
    let me = pos.turn();
    let root = diff(pos, me);
    let (w, h) = (i32::from(pos.width()), i32::from(pos.height()));
    let mut out = vec![Exposure::default(); points.len()];
    // Each answer that captured after a point: (the point's index, the answer, dots taken).
    let mut answers: Vec<(usize, Move, i32)> = Vec::new();
    for (k, &p) in points.iter().enumerate() {
        let Move::Put { x, y } = p else { continue };
        pos.play_unchecked(p);
        let after = diff(pos, me);
        out[k].gain = after - root;
        for (dx, dy) in AROUND {
            let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
            if !(1..=w).contains(&nx) || !(1..=h).contains(&ny) {
                continue;
            }
            let q = Move::Put {
                x: nx as u8,
                y: ny as u8,
            };
            if pos.is_legal(q) {
                pos.play_unchecked(q);
                let taken = after - diff(pos, me);
                pos.undo();
                if taken > 0 {
                    answers.push((k, q, taken));
                }
            }
        }
        pos.undo();
    }
    // The same answers without our point (we pass): what they take anyway. Below 0 (the answer would
    // lose a dot into our house, R9) counts as 0.
    pos.play_unchecked(PASS);
    let mut anyway = std::collections::HashMap::new();
    for &(k, q, taken) in &answers {
        let old = *anyway.entry(q).or_insert_with(|| {
            if !pos.is_legal(q) {
                return 0;
            }
            pos.play_unchecked(q);
            let t = root - diff(pos, me);
            pos.undo();
            t.max(0)
        });
        out[k].loss = out[k].loss.max(taken - old);
    }
    pos.undo();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::dots::Start;

    fn at(points: &[Move], e: &[Exposure], x: u8, y: u8) -> Exposure {
        let k = points
            .iter()
            .position(|&m| m == Move::Put { x, y })
            .expect("a root point");
        e[k]
    }

    #[test]
    fn a_dot_between_three_enemy_dots_is_exposed_and_an_open_one_is_not() {
        // Red (second) has 4-5, 6-5 and 5-4 around 5-5; Blue to move. Blue's 5-5 would be closed
        // in by Red's 5-6.
        let mut pos = Dots::from_moves(9, 9, Start::Empty, "1-9 4-5 9-1 6-5 9-9 5-4").unwrap();
        let points = pos.legal_moves();
        let snapshot = |p: &Dots| {
            (
                p.to_string(),
                p.ply(),
                p.turn(),
                p.captures(games::Player::First),
                p.captures(games::Player::Second),
            )
        };
        let before = snapshot(&pos);
        let e = exposure(&mut pos, &points);
        assert_eq!(snapshot(&pos), before, "the position is left as it was");
        assert_eq!(at(&points, &e, 5, 5), Exposure { gain: 0, loss: 1 });
        assert_eq!(at(&points, &e, 2, 7), Exposure::default());
        assert_eq!(at(&points, &e, 5, 6), Exposure::default());
    }

    #[test]
    fn a_capture_the_opponent_had_anyway_is_no_exposure() {
        // Blue's 5-5 is already closed in on three sides: Red's 5-6 captures it with or without
        // Blue's 6-6 next to it, so 6-6 is not exposed.
        let mut pos = Dots::from_moves(9, 9, Start::Empty, "5-5 4-5 1-9 6-5 9-1 5-4").unwrap();
        let points = pos.legal_moves();
        let e = exposure(&mut pos, &points);
        assert_eq!(
            at(&points, &e, 6, 6).loss,
            0,
            "Red's 5-6 takes 5-5 either way"
        );
        // Blue's own 5-6 saves it: no loss there.
        assert_eq!(at(&points, &e, 5, 6), Exposure::default());
    }
}
