//! Naming a game and its variant: the words of the protocol's `game` command and of a config's `[game]`.

use std::fmt;
use std::str::FromStr;

use crate::{Connect4, Dots, Game, Setup, SetupError, TicTacToe};

/// The three games, by the names used in configs and in the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// `tictactoe`: the m,n,k-game.
    TicTacToe,
    /// `connect4`.
    Connect4,
    /// `dots`.
    Dots,
}

impl GameKind {
    /// Every kind, in a fixed order.
    pub const ALL: [GameKind; 3] = [GameKind::TicTacToe, GameKind::Connect4, GameKind::Dots];

    /// The protocol name: `tictactoe`, `connect4` or `dots`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "tictactoe",
            GameKind::Connect4 => "connect4",
            GameKind::Dots => "dots",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        match s {
            "tictactoe" | "tic-tac-toe" | "mnk" => Ok(GameKind::TicTacToe),
            "connect4" | "connect-four" => Ok(GameKind::Connect4),
            "dots" => Ok(GameKind::Dots),
            _ => Err(SpecError::UnknownGame(s.to_string())),
        }
    }
}

/// The start position of a Dots game (R4 of `docs/dots-rules.md`); [`crate::Setup`] adds dots of a game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DotsStart {
    /// No dots.
    Empty,
    /// The cross of R4 at the centre (the standard start).
    #[default]
    Cross,
    /// Four crosses (tensu 4.4), placed as in KataGoDots: one per quadrant.
    FourCrosses,
}

impl fmt::Display for DotsStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DotsStart::Empty => "empty",
            DotsStart::Cross => "cross",
            DotsStart::FourCrosses => "four-crosses",
        })
    }
}

impl FromStr for DotsStart {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        match s {
            "empty" => Ok(DotsStart::Empty),
            "cross" => Ok(DotsStart::Cross),
            "four-crosses" => Ok(DotsStart::FourCrosses),
            _ => Err(SpecError::Invalid(format!(
                "unknown Dots start {s:?} (expected empty, cross or four-crosses)"
            ))),
        }
    }
}

/// A game with its variant, validated: constructing the start position from it cannot fail.
///
/// Text form (the protocol's `game` command without the word `game`): `tictactoe M N K`,
/// `connect4 W H`, `dots W H START`; trailing parameters may be omitted and take the defaults
/// (3 3 3; 7 6; 39 32 cross).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSpec {
    /// m,n,k-game: `width` columns (1..=26, letters), `height` rows (1..=26), `k` in a row (1..=max).
    TicTacToe { width: u8, height: u8, k: u8 },
    /// Connect Four: `width` columns and `height` rows, each 1..=9; four in a row wins.
    Connect4 { width: u8, height: u8 },
    /// Dots: `width` × `height` points, each 4..=64 (R1), and the start position (R4).
    Dots {
        width: u8,
        height: u8,
        start: DotsStart,
    },
}

/// A game name or variant that is not supported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown game {0:?} (expected tictactoe, connect4 or dots)")]
    UnknownGame(String),
    #[error("{0}")]
    Invalid(String),
}

/// Something to do with the start position of a game whose type is only known at run time.
///
/// [`GameSpec::visit`] calls [`visit`](GameVisitor::visit) with the concrete game, so generic code
/// (a referee, an engine loop) is monomorphised once per game instead of going through trait objects.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, start: G) -> Self::Output;
}

impl GameSpec {
    /// The default variant of `kind`: 3×3 k=3, 7×6, 39×32 with the cross.
    pub fn default_for(kind: GameKind) -> GameSpec {
        match kind {
            GameKind::TicTacToe => GameSpec::TicTacToe {
                width: 3,
                height: 3,
                k: 3,
            },
            GameKind::Connect4 => GameSpec::Connect4 {
                width: 7,
                height: 6,
            },
            GameKind::Dots => GameSpec::Dots {
                width: 39,
                height: 32,
                start: DotsStart::Cross,
            },
        }
    }

    /// Builds a spec from a kind and optional sizes, checking the ranges documented on [`GameSpec`].
    ///
    /// # Errors
    /// [`SpecError::Invalid`] naming the parameter out of range, or a parameter the game does not have.
    pub fn new(
        kind: GameKind,
        width: Option<u32>,
        height: Option<u32>,
        k: Option<u32>,
        start: Option<DotsStart>,
    ) -> Result<GameSpec, SpecError> {
        fn range(what: &str, v: u32, lo: u32, hi: u32) -> Result<u8, SpecError> {
            if (lo..=hi).contains(&v) {
                Ok(v as u8)
            } else {
                Err(SpecError::Invalid(format!(
                    "{what} {v} is out of range {lo}..={hi}"
                )))
            }
        }
        let no = |what: &str, present: bool| {
            if present {
                Err(SpecError::Invalid(format!(
                    "{kind} has no parameter {what}"
                )))
            } else {
                Ok(())
            }
        };
        match GameSpec::default_for(kind) {
            GameSpec::TicTacToe {
                width: w0,
                height: h0,
                k: k0,
            } => {
                no("start", start.is_some())?;
                let width = range("width", width.unwrap_or(w0 as u32), 1, 26)?;
                let height = range("height", height.unwrap_or(h0 as u32), 1, 26)?;
                let k = range("k", k.unwrap_or(k0 as u32), 1, width.max(height) as u32)?;
                Ok(GameSpec::TicTacToe { width, height, k })
            }
            GameSpec::Connect4 {
                width: w0,
                height: h0,
            } => {
                no("start", start.is_some())?;
                no("k", k.is_some())?;
                let width = range("width", width.unwrap_or(w0 as u32), 1, 9)?;
                let height = range("height", height.unwrap_or(h0 as u32), 1, 9)?;
                Ok(GameSpec::Connect4 { width, height })
            }
            GameSpec::Dots {
                width: w0,
                height: h0,
                start: s0,
            } => {
                no("k", k.is_some())?;
                let width = range("width", width.unwrap_or(w0 as u32), 4, 64)?;
                let height = range("height", height.unwrap_or(h0 as u32), 4, 64)?;
                Ok(GameSpec::Dots {
                    width,
                    height,
                    start: start.unwrap_or(s0),
                })
            }
        }
    }

    /// The game's kind.
    pub fn kind(&self) -> GameKind {
        match self {
            GameSpec::TicTacToe { .. } => GameKind::TicTacToe,
            GameSpec::Connect4 { .. } => GameKind::Connect4,
            GameSpec::Dots { .. } => GameKind::Dots,
        }
    }

    /// The variant alone, as the words after the game name: `3 3 3`, `7 6`, `39 32 cross`.
    pub fn variant(&self) -> String {
        match *self {
            GameSpec::TicTacToe { width, height, k } => format!("{width} {height} {k}"),
            GameSpec::Connect4 { width, height } => format!("{width} {height}"),
            GameSpec::Dots {
                width,
                height,
                start,
            } => format!("{width} {height} {start}"),
        }
    }

    /// Calls `v` with the start position of this game with `setup`'s dots put on top
    /// ([`Dots::with_setup`]); an empty setup is [`GameSpec::visit`].
    ///
    /// # Errors
    /// [`SetupError`] for a setup dot off the board or on a taken point, or any setup dot in a game
    /// other than Dots.
    pub fn visit_with_setup<V: GameVisitor>(
        &self,
        setup: &Setup,
        v: V,
    ) -> Result<V::Output, SetupError> {
        if setup.is_empty() {
            return Ok(self.visit(v));
        }
        match *self {
            GameSpec::Dots {
                width,
                height,
                start,
            } => Ok(v.visit(Dots::with_setup(width, height, start, setup)?)),
            _ => Err(SetupError::NoSetups(self.kind())),
        }
    }

    /// Calls `v` with the start position of this game.
    pub fn visit<V: GameVisitor>(&self, v: V) -> V::Output {
        match *self {
            GameSpec::TicTacToe { width, height, k } => v.visit(TicTacToe::new(width, height, k)),
            GameSpec::Connect4 { width, height } => v.visit(Connect4::new(width, height)),
            GameSpec::Dots {
                width,
                height,
                start,
            } => v.visit(Dots::new(width, height, start)),
        }
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind(), self.variant())
    }
}

impl FromStr for GameSpec {
    type Err = SpecError;

    /// Parses `connect4 7 6`, `tictactoe 4 4 3`, `dots 20 20 empty`, or a bare name for the default.
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let mut words = s.split_whitespace();
        let kind: GameKind = words
            .next()
            .ok_or_else(|| SpecError::UnknownGame(String::new()))?
            .parse()?;
        let rest: Vec<&str> = words.collect();
        let num = |i: usize, what: &str| -> Result<Option<u32>, SpecError> {
            rest.get(i)
                .map(|w| {
                    w.parse::<u32>()
                        .map_err(|_| SpecError::Invalid(format!("{what} {w:?} is not a number")))
                })
                .transpose()
        };
        let (max_words, spec) = match kind {
            GameKind::TicTacToe => (
                3,
                GameSpec::new(
                    kind,
                    num(0, "width")?,
                    num(1, "height")?,
                    num(2, "k")?,
                    None,
                ),
            ),
            GameKind::Connect4 => (
                2,
                GameSpec::new(kind, num(0, "width")?, num(1, "height")?, None, None),
            ),
            GameKind::Dots => {
                let start = rest.get(2).map(|w| w.parse()).transpose()?;
                (
                    3,
                    GameSpec::new(kind, num(0, "width")?, num(1, "height")?, None, start),
                )
            }
        };
        if rest.len() > max_words {
            return Err(SpecError::Invalid(format!(
                "too many parameters for {kind}: {s:?}"
            )));
        }
        spec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_and_defaults_fill_in() {
        for text in [
            "tictactoe 3 3 3",
            "tictactoe 4 5 4",
            "connect4 7 6",
            "connect4 9 9",
            "dots 39 32 cross",
            "dots 4 64 empty",
        ] {
            let spec: GameSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "dots".parse::<GameSpec>().unwrap(),
            GameSpec::default_for(GameKind::Dots)
        );
        assert_eq!(
            "connect4 8".parse::<GameSpec>().unwrap(),
            GameSpec::Connect4 {
                width: 8,
                height: 6
            }
        );
    }

    #[test]
    fn setups_are_placed_on_dots_only_and_never_on_a_taken_point() {
        struct Board;
        impl GameVisitor for Board {
            type Output = String;
            fn visit<G: Game>(self, pos: G) -> String {
                pos.to_string()
            }
        }
        let setup = |s: &str| s.parse::<Setup>().unwrap();
        let spec: GameSpec = "dots 4 4 cross".parse().unwrap();
        assert_eq!(
            spec.visit_with_setup(&setup("first 1-1 second 4-4"), Board)
                .unwrap(),
            "...O\n.XO.\n.OX.\nX...\n"
        );
        // 2-2 and 3-3 hold the cross's second-player dots (R4).
        assert_eq!(
            spec.visit_with_setup(&setup("second 2-2"), Board),
            Err(SetupError::Taken("2-2".into()))
        );
        assert_eq!(
            spec.visit_with_setup(&setup("first 1-1 second 1-1"), Board),
            Err(SetupError::Taken("1-1".into()))
        );
        assert_eq!(
            spec.visit_with_setup(&setup("first 5-1"), Board),
            Err(SetupError::OffBoard("5-1".into()))
        );
        let c4: GameSpec = "connect4".parse().unwrap();
        assert_eq!(
            c4.visit_with_setup(&setup("first 1-1"), Board),
            Err(SetupError::NoSetups(GameKind::Connect4))
        );
        assert!(c4.visit_with_setup(&Setup::default(), Board).is_ok());
    }

    #[test]
    fn out_of_range_variants_are_rejected_with_the_parameter_named() {
        let err = |s: &str| s.parse::<GameSpec>().unwrap_err().to_string();
        assert!(err("connect4 10 6").contains("width 10"));
        assert!(err("dots 3 20").contains("width 3"));
        assert!(err("dots 20 65").contains("height 65"));
        assert!(err("tictactoe 3 3 4").contains("k 4"));
        assert!(err("dots 20 20 spiral").contains("spiral"));
        assert!(err("chess").contains("unknown game"));
        assert!(err("connect4 7 6 4").contains("too many"));
    }
}
