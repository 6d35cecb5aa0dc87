//! STUB — being written (Connect Four).
use crate::{Game, GameSpec, Outcome, ParseMoveError, PlayError, Player};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    w: u8,
    h: u8,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u8, u8);
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0) as char, self.1 + 1)
    }
}
impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, ParseMoveError> {
        Err(ParseMoveError::new(s, "stub"))
    }
}
impl Connect4 {
    pub fn new(w: u8, h: u8) -> Self {
        Connect4 { w, h }
    }
}
impl Default for Connect4 {
    fn default() -> Self {
        Self::new(7, 6)
    }
}
impl fmt::Display for Connect4 {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}
impl Game for Connect4 {
    type Move = Move;
    fn spec(&self) -> GameSpec {
        GameSpec::Connect4 {
            width: self.w,
            height: self.h,
        }
    }
    fn turn(&self) -> Player {
        Player::First
    }
    fn ply(&self) -> usize {
        0
    }
    fn legal_moves_into(&self, _out: &mut Vec<Move>) {}
    fn check(&self, _m: Move) -> Result<(), PlayError> {
        Err(PlayError::GameOver)
    }
    fn play_unchecked(&mut self, _m: Move) {}
    fn undo(&mut self) {}
    fn outcome(&self) -> Option<Outcome> {
        Some(Outcome::Draw)
    }
}
