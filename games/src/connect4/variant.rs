//! Connect Four's variant: the board's `width` and `height`.

use std::fmt;

use crate::variant::{number, Param, Variant};
use crate::SpecError;

/// `width` columns and `height` rows, each 1..=9 (a `u128` bitboard with a sentinel row); default 7 6.
/// Four in a row wins on every size. Words: `W H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4Variant {
    pub width: u8,
    pub height: u8,
}

impl Default for Connect4Variant {
    fn default() -> Self {
        Connect4Variant {
            width: 7,
            height: 6,
        }
    }
}

impl fmt::Display for Connect4Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.width, self.height)
    }
}

impl Variant for Connect4Variant {
    const NAME: &'static str = "connect4";
    const ALIASES: &'static [&'static str] = &["connect-four"];
    const PARAMS: &'static [Param] = &[
        Param {
            key: "width",
            doc: "columns, 1..=9; default 7",
        },
        Param {
            key: "height",
            doc: "rows, 1..=9; default 6",
        },
    ];

    fn from_params(params: &[Option<&str>]) -> Result<Self, SpecError> {
        let at = |i: usize| params.get(i).copied().flatten();
        let d = Connect4Variant::default();
        Ok(Connect4Variant {
            width: number("width", at(0), d.width.into(), 1, 9)? as u8,
            height: number("height", at(1), d.height.into(), 1, 9)? as u8,
        })
    }
}
