//! Move ordering, kept apart from the search as Stockfish keeps its move picker: the game's guess
//! ([`Evaluation::order_key`]) and the previous iteration's best move first. Seed
//! `002_d88c0e1c38cad7fe.txt`: the gain of alpha-beta depends on the order the moves are tried in.

use games::Game;

use crate::eval::Evaluation;

/// Sorts `moves` by the game's key, highest first, keeping the given order among equal keys; then
/// puts `first` (the previous iteration's move here), if it is among them, in front. `keyed` is scratch.
pub fn order<G: Game, E: Evaluation<G>>(
    pos: &G,
    eval: &E,
    moves: &mut [G::Move],
    keyed: &mut Vec<(i32, G::Move)>,
    first: Option<G::Move>,
) {
    keyed.clear();
    keyed.extend(moves.iter().map(|&m| (eval.order_key(pos, m), m)));
    // Stable: equal keys keep the generation order (or the root's seeded shuffle).
    keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    for (slot, &(_, m)) in moves.iter_mut().zip(keyed.iter()) {
        *slot = m;
    }
    put_first(moves, first);
}

/// Moves `first`, if present, to the front of `moves`, the others keeping their order.
pub fn put_first<M: PartialEq + Copy>(moves: &mut [M], first: Option<M>) {
    if let Some(f) = first {
        if let Some(i) = moves.iter().position(|&m| m == f) {
            moves[..=i].rotate_right(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_first_keeps_the_rest_in_order() {
        let mut v = [1, 2, 3, 4];
        put_first(&mut v, Some(3));
        assert_eq!(v, [3, 1, 2, 4]);
        put_first(&mut v, Some(9));
        assert_eq!(v, [3, 1, 2, 4]);
    }
}
