//! STUB — being written (tic-tac-toe as the m,n,k-game).
use crate::{Game, GameSpec, Outcome, ParseMoveError, PlayError, Player};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    w: u8,
    h: u8,
    k: u8,
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
impl TicTacToe {
    pub fn new(w: u8, h: u8, k: u8) -> Self {
        TicTacToe { w, h, k }
    }
}
impl Default for TicTacToe {
    fn default() -> Self {
        Self::new(3, 3, 3)
    }
}
impl fmt::Display for TicTacToe {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Ok(())
    }
}
impl Game for TicTacToe {
    type Move = Move;
    fn spec(&self) -> GameSpec {
        GameSpec::TicTacToe {
            width: self.w,
            height: self.h,
            k: self.k,
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
