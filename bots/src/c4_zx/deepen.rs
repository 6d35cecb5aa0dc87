//! The article's way to a stronger program (seed `003_b3294bcb59fe041f.txt`, ZX Format #5, after
//! line 550): keep not the one best move of `C(7)` but about three, play each in turn, search again
//! some plies from there, and pick the move from those results.
//!
//! What we do: each candidate is played and valued by a negamax alpha-beta search of
//! [`Params::deepen_plies`] further plies, with the article's strength `SM` as the evaluation. The
//! article leaves the rule open; part #6 (ZX Format #6) lists, among its ways of reading such a
//! table, the column whose smallest entry is largest (minimax), and that is the one used here.
//!
//! - A move that makes four ends the line: [`WIN`] less the plies to it, so nearer wins count more.
//!   A full board is 0.
//! - At the horizon, the side to move with `SM = 3` wins on its next move (an open three's gap is
//!   playable by the definition of `SM`), so it is valued as that win.
//! - Otherwise the value for [`OWN`] is `own_weight · f(SM(OWN)) − opp_weight · f(SM(OPP))`, `f` the
//!   weights of lines 440–470 ([`weight`]), in the same hundredths as the table's sums; negated for
//!   [`OPP`]. The sign is always the fixed one ([`Params::literal_sign`] concerns line 500 only).

use super::board::{other, Board, OPP, OWN};
use super::rules::weight;
use super::Params;

/// The value of a win for the side to move at the root of a search, less one per ply to it.
pub const WIN: i64 = 1_000_000_000;

/// The value for [`OWN`] of own move `col` on `board` (which must be possible), searched
/// `plies` further plies (0: the evaluation right after the move). Adds the positions visited to
/// `nodes`. `board` is restored before returning.
///
/// # Panics
/// If column `col` is full.
pub fn candidate_value(
    board: &mut Board,
    col: usize,
    plies: u32,
    params: &Params,
    nodes: &mut u64,
) -> i64 {
    let row = board
        .drop_disc(col, OWN)
        .expect("a candidate is a possible move");
    *nodes += 1;
    let value = if board.four_through(col, row) {
        WIN - 1
    } else if board.is_full() {
        0
    } else {
        -negamax(board, OPP, plies, 1, -WIN, WIN, params, nodes)
    };
    board.lift_disc(col);
    value
}

/// Negamax with alpha-beta for `side` to move, `depth` plies left, `ply` plies from the root; the
/// last move did not end the game.
#[allow(clippy::too_many_arguments)]
fn negamax(
    board: &mut Board,
    side: u8,
    depth: u32,
    ply: i64,
    mut alpha: i64,
    beta: i64,
    params: &Params,
    nodes: &mut u64,
) -> i64 {
    if depth == 0 {
        return evaluate(board, side, ply, params);
    }
    let mut best = -WIN;
    for col in 0..board.width() {
        let Some(row) = board.drop_disc(col, side) else {
            continue;
        };
        *nodes += 1;
        let value = if board.four_through(col, row) {
            WIN - (ply + 1)
        } else if board.is_full() {
            0
        } else {
            -negamax(
                board,
                other(side),
                depth - 1,
                ply + 1,
                -beta,
                -alpha,
                params,
                nodes,
            )
        };
        board.lift_disc(col);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The horizon value for `side` to move, `ply` plies from the root.
fn evaluate(board: &Board, side: u8, ply: i64, params: &Params) -> i64 {
    let own = board.sm(side);
    if own >= 3 {
        return WIN - (ply + 1);
    }
    let sm_own = if side == OWN { own } else { board.sm(OWN) };
    let sm_opp = if side == OPP { own } else { board.sm(OPP) };
    let for_own =
        params.own_weight * weight(sm_own, params) - params.opp_weight * weight(sm_opp, params);
    if side == OWN {
        for_own
    } else {
        -for_own
    }
}
