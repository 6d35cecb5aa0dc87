//! Setup dots: a start position with dots of its own, on top of a variant's start (an SGF game's `AB`/`AW`).

use std::fmt;
use std::str::FromStr;

use crate::dots::Move;
use crate::Player;

/// Dots placed before the first ply, on top of the start dots of the variant (R4): what an SGF record
/// of a Dots game holds in `AB` (first player) and `AW` (second player), e.g. zagram's four crosses at
/// random points. Only Dots has setups; an empty setup is the variant's own start.
///
/// Text form (`Display`/`FromStr`), the words of the protocol's `position startpos setup …` and of the
/// `setup` column of `games.csv`: the word `first` followed by the first player's dots, then `second`
/// followed by the second player's, each dot `x-y` in the move notation (1-based, x from the left, y from
/// the bottom, R2); a side without dots is left out, and an empty setup is the empty string.
///
/// ```
/// use games::Setup;
///
/// let s: Setup = "first 12-22 13-21 second 12-21".parse().unwrap();
/// assert_eq!(s.first, vec![(12, 22), (13, 21)]);
/// assert_eq!(s.to_string(), "first 12-22 13-21 second 12-21");
/// assert!("".parse::<Setup>().unwrap().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The first player's dots, (x, y), in the order given.
    pub first: Vec<(u8, u8)>,
    /// The second player's dots, (x, y), in the order given.
    pub second: Vec<(u8, u8)>,
}

impl Setup {
    /// Whether there are no setup dots.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty() && self.second.is_empty()
    }

    /// Every dot with its player: the first player's, then the second's.
    pub fn dots(&self) -> impl Iterator<Item = (u8, u8, Player)> + '_ {
        self.first
            .iter()
            .map(|&(x, y)| (x, y, Player::First))
            .chain(self.second.iter().map(|&(x, y)| (x, y, Player::Second)))
    }

    /// The dots of `player`.
    pub fn of(&self, player: Player) -> &[(u8, u8)] {
        match player {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for (word, dots) in [("first", &self.first), ("second", &self.second)] {
            if dots.is_empty() {
                continue;
            }
            write!(f, "{sep}{word}")?;
            for &(x, y) in dots {
                write!(f, " {x}-{y}")?;
            }
            sep = " ";
        }
        Ok(())
    }
}

impl FromStr for Setup {
    type Err = SetupError;

    /// Parses the text form; the syntax only (whether the dots fit a board is [`SetupError::OffBoard`]'s
    /// business, when the position is built).
    ///
    /// # Errors
    /// [`SetupError::Parse`] for a dot before `first`/`second`, a word that is not a dot `x-y`, or a side
    /// named twice.
    fn from_str(s: &str) -> Result<Setup, SetupError> {
        let mut setup = Setup::default();
        let mut side: Option<Player> = None;
        let mut seen = [false; 2];
        for word in s.split_whitespace() {
            match word {
                "first" | "second" => {
                    let p = if word == "first" {
                        Player::First
                    } else {
                        Player::Second
                    };
                    if std::mem::replace(&mut seen[p.index()], true) {
                        return Err(SetupError::Parse(format!("{word} is named twice")));
                    }
                    side = Some(p);
                }
                _ => {
                    let Some(p) = side else {
                        return Err(SetupError::Parse(format!(
                            "{word:?} before the word first or second"
                        )));
                    };
                    let dot = match word.parse::<Move>() {
                        Ok(Move::Put { x, y }) => (x, y),
                        _ => {
                            return Err(SetupError::Parse(format!(
                                "{word:?} is not a dot x-y (or the word first or second)"
                            )))
                        }
                    };
                    match p {
                        Player::First => setup.first.push(dot),
                        Player::Second => setup.second.push(dot),
                    }
                }
            }
        }
        Ok(setup)
    }
}

/// A setup that cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The text is not a setup.
    #[error("setup: {0}")]
    Parse(String),
    /// A setup dot is outside the board.
    #[error("setup dot {0} is off the board")]
    OffBoard(String),
    /// A setup dot is on a point taken by a start dot or by another setup dot.
    #[error("setup dot {0} is on a point already taken")]
    Taken(String),
    /// The game (named) has no setups (only Dots has).
    #[error("{0} has no setup dots (only dots has)")]
    NoSetups(&'static str),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_and_rejects_stray_words() {
        for s in [
            "",
            "first 1-1",
            "second 5-5 6-6",
            "first 1-2 3-4 second 5-6",
        ] {
            assert_eq!(s.parse::<Setup>().unwrap().to_string(), s);
        }
        // A side named without dots reads as no dots.
        assert_eq!(
            "first second 2-2".parse::<Setup>().unwrap().to_string(),
            "second 2-2"
        );
        for s in [
            "1-1",
            "first 1-1 first 2-2",
            "first ground",
            "first 0-1",
            "third 1-1",
        ] {
            assert!(s.parse::<Setup>().is_err(), "{s:?} parsed");
        }
    }
}
