//! STUB — being written (Dots, shared/DOTS_RULES.md).
pub use crate::spec::DotsStart as Start;
use crate::{Game, GameSpec, Outcome, ParseMoveError, PlayError, Player};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dots {
    w: u8,
    h: u8,
    start: Start,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Put { x: u8, y: u8 },
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
impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, ParseMoveError> {
        Err(ParseMoveError::new(s, "stub"))
    }
}
impl Dots {
    pub fn new(w: u8, h: u8, start: Start) -> Self {
        Dots { w, h, start }
    }
}
impl Default for Dots {
    fn default() -> Self {
        Self::new(39, 32, Start::Cross)
    }
}
impl fmt::Display for Dots {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}
impl Game for Dots {
    type Move = Move;
    fn spec(&self) -> GameSpec {
        GameSpec::Dots {
            width: self.w,
            height: self.h,
            start: self.start,
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
