//! The wire notation of a Dots move (R2): `x-y` or `ground`.

use std::fmt;
use std::str::FromStr;

use crate::ParseMoveError;

/// A Dots move (R2, R13).
///
/// Notation (`Display`/`FromStr`): `x-y` for a dot, 1-based, `x` from the left and `y` from the
/// bottom (`1-1` is the lower left corner), two positive decimal numbers without signs or leading
/// zeros joined by `-`; `ground` for the grounding move that ends the game (R13). Parsing checks the
/// syntax only (a coordinate must fit in a `u8`); whether the point is on the board is
/// [`Game::check`](crate::Game::check)'s business ([`PlayError::OffBoard`](crate::PlayError::OffBoard)).
///
/// ```
/// use games::dots::Move;
///
/// assert_eq!("20-17".parse::<Move>().unwrap(), Move::Put { x: 20, y: 17 });
/// assert_eq!(Move::Ground.to_string(), "ground");
/// assert!("020-17".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A dot on point `x`-`y`: 1-based, `x` from the left, `y` from the bottom.
    Put { x: u8, y: u8 },
    /// Ground (STOP, R13): the game ends and the mover's ungrounded dots go to the opponent.
    Ground,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Put { x, y } => write!(f, "{x}-{y}"),
            Move::Ground => f.write_str("ground"),
        }
    }
}

/// One coordinate: a positive decimal number without sign or leading zero that fits a `u8`.
fn coordinate(t: &str) -> Result<u8, &'static str> {
    if t.is_empty() {
        return Err("expected x-y with two numbers, or ground");
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err("coordinates are decimal numbers without signs or spaces");
    }
    if t.starts_with('0') {
        return Err("coordinates start at 1 and have no leading zeros");
    }
    t.parse::<u8>().map_err(|_| "coordinate too large")
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s == "ground" {
            return Ok(Move::Ground);
        }
        let (a, b) = s
            .split_once('-')
            .ok_or_else(|| ParseMoveError::new(s, "expected x-y or ground"))?;
        let x = coordinate(a).map_err(|r| ParseMoveError::new(s, r))?;
        let y = coordinate(b).map_err(|r| ParseMoveError::new(s, r))?;
        Ok(Move::Put { x, y })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_rejects_bad_syntax() {
        for s in ["1-1", "39-32", "64-64", "255-1", "ground"] {
            assert_eq!(s.parse::<Move>().unwrap().to_string(), s);
        }
        for s in [
            "", "-", "1-", "-1", "0-1", "1-0", "01-1", "1-01", "+1-1", "1--1", "1-1-1", " 1-1",
            "1-1 ", "1 -1", "a-1", "256-1", "Ground", "GROUND", "ground ", "1x1", "1_1",
        ] {
            assert!(s.parse::<Move>().is_err(), "{s:?} parsed");
        }
    }
}
