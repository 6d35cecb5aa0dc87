//! Kalah's static evaluation, the article's (seed `001_a997fca1c543fbab.txt`, Wetherell, "Etudes for
//! Programmers", ch. 14): the difference between the stones in the two kalahs (stores), here from the
//! side to move's point of view, weighted by `kalah_store`.

use super::Kalah;
use crate::eval::{Evaluation, Score, Weight, Weights};
use crate::{Game, Player};

/// The weight: per seed, own store minus the opponent's.
pub const WEIGHTS: &[Weight] = &[Weight {
    name: "kalah_store",
    default: 100,
    doc: "per seed, own store minus the opponent's (the article's static evaluation)",
}];

/// The store difference, weighted.
#[derive(Clone, Copy, Debug)]
pub struct KalahEval {
    store: Score,
}

impl Evaluation<Kalah> for KalahEval {
    const WEIGHTS: &'static [Weight] = WEIGHTS;

    fn new(_pos: &Kalah, w: &Weights) -> KalahEval {
        KalahEval {
            store: w.get(&WEIGHTS[0]),
        }
    }

    /// `kalah_store · (own store − opponent's store)` for the side to move.
    fn evaluate(&self, pos: &Kalah) -> Score {
        let me = pos.turn();
        let own = Score::from(pos.store(me));
        let theirs = Score::from(pos.store(me.opponent()));
        self.store * (own - theirs)
    }

    /// A move whose last seed lands in the mover's store (another move) first, then captures, then
    /// the pits nearest the store: the orderings that make alpha-beta cut early in Kalah.
    fn order_key(&self, pos: &Kalah, m: super::Move) -> i32 {
        let (lands, captures) = pos.landing(m);
        let me = pos.turn();
        let near = i32::from(m.pit) - if me == Player::First { 0 } else { i32::from(pos.pits()) };
        if lands == pos.store_index(me) {
            1000 + near
        } else {
            100 * i32::from(captures) + near
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::KalahVariant;

    #[test]
    fn the_value_is_the_store_difference_for_the_side_to_move() {
        let mut pos = Kalah::start(KalahVariant::default());
        let e = KalahEval::new(&pos, &Weights::default());
        assert_eq!(e.evaluate(&pos), 0);
        // Pit 3 (four seeds) ends in the store: one seed there, the first player moves again.
        pos.play("3".parse().unwrap()).unwrap();
        assert_eq!(pos.turn(), Player::First);
        assert_eq!(e.evaluate(&pos), 100);
        // Pit 1: 4 seeds to pits 2..5; now the second player is to move, one seed behind.
        pos.play("1".parse().unwrap()).unwrap();
        assert_eq!(pos.turn(), Player::Second);
        assert_eq!(e.evaluate(&pos), -100);
    }

    #[test]
    fn a_move_into_the_store_is_tried_first() {
        let pos = Kalah::start(KalahVariant::default());
        let e = KalahEval::new(&pos, &Weights::default());
        let mut moves = pos.legal_moves();
        moves.sort_by_key(|&m| -e.order_key(&pos, m));
        assert_eq!(moves[0].to_string(), "3");
    }
}
