//! The state of one point as bit flags in a `u8`.
//!
//! The flags follow the data model of oppai-rs's `Cell` (the engine behind the oracle of
//! `shared/data/dots-random-games`), so that every quirk of its capture rules is reproduced: the
//! `PLAYER` bit is the colour of a dot, the capturer of a dead empty point, or the owner of a house
//! point; a captured dot keeps its colour; `BOUND` marks the wall dots of a base.

/// Colour of a dot (0 first, 1 second); capturer of a dead empty point; owner of a house point.
pub(super) const PLAYER: u8 = 1;
/// A dot stands here.
pub(super) const PUT: u8 = 2;
/// Inside a base of the other colour (a dot), or of `PLAYER` (an empty point): dead (R7).
pub(super) const CAPTURED: u8 = 4;
/// A dot in the wall of one of its player's bases (the capture flood of that player stops there).
pub(super) const BOUND: u8 = 8;
/// Inside a house of `PLAYER` (an enclosure that captured nothing, R9).
pub(super) const HOUSE: u8 = 16;
/// Padding around the board.
pub(super) const BORDER: u8 = 32;

/// The colour bit of `p`.
#[inline(always)]
pub(super) fn bit(p: crate::Player) -> u8 {
    p as u8
}

/// The player of a colour bit.
#[inline(always)]
pub(super) fn player(bit: u8) -> crate::Player {
    if bit & PLAYER == 0 {
        crate::Player::First
    } else {
        crate::Player::Second
    }
}

/// A live (not captured) dot of colour `p`: the only dots that make chains (R6).
#[inline(always)]
pub(super) fn is_live(c: u8, p: u8) -> bool {
    c & (PUT | CAPTURED | PLAYER) == PUT | p
}

/// A wall dot of a base of colour `p`.
#[inline(always)]
pub(super) const fn is_bound(c: u8, p: u8) -> bool {
    c & (PUT | BOUND | PLAYER) == PUT | BOUND | p
}

/// A legal point: empty, not dead, on the board (R5). House points are legal.
#[inline(always)]
pub(super) fn is_free(c: u8) -> bool {
    c & (PUT | CAPTURED | BORDER) == 0
}

/// The player a point counts for when grounding (R12): a live dot's colour, the capturer of a
/// captured dot or of a dead empty point; `None` for empty points, house points included.
#[inline(always)]
pub(super) fn owner(c: u8) -> Option<u8> {
    match (c & PUT != 0, c & CAPTURED != 0) {
        (true, false) => Some(c & PLAYER),
        (true, true) => Some((c & PLAYER) ^ 1),
        (false, true) => Some(c & PLAYER),
        (false, false) => None,
    }
}
