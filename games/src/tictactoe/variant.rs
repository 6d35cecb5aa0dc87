//! Tic-tac-toe's variant: the m,n,k-game's `width`, `height` and `k`.

use std::fmt;

use crate::variant::{number, Param, Variant};
use crate::SpecError;

/// `width` columns (1..=26, the letters), `height` rows (1..=26), `k` in a row to win (1..=the larger
/// side); default 3 3 3. Words: `W H K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToeVariant {
    pub width: u8,
    pub height: u8,
    pub k: u8,
}

impl Default for TicTacToeVariant {
    fn default() -> Self {
        TicTacToeVariant {
            width: 3,
            height: 3,
            k: 3,
        }
    }
}

impl fmt::Display for TicTacToeVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.width, self.height, self.k)
    }
}

impl Variant for TicTacToeVariant {
    const NAME: &'static str = "tictactoe";
    const ALIASES: &'static [&'static str] = &["tic-tac-toe", "mnk"];
    const PARAMS: &'static [Param] = &[
        Param {
            key: "width",
            doc: "columns, 1..=26 (the letters a..z); default 3",
        },
        Param {
            key: "height",
            doc: "rows, 1..=26; default 3",
        },
        Param {
            key: "k",
            doc: "stones in a row to win, 1..=max(width, height); default 3",
        },
    ];

    fn from_params(params: &[Option<&str>]) -> Result<Self, SpecError> {
        let at = |i: usize| params.get(i).copied().flatten();
        let d = TicTacToeVariant::default();
        let width = number("width", at(0), d.width.into(), 1, 26)? as u8;
        let height = number("height", at(1), d.height.into(), 1, 26)? as u8;
        let k = number("k", at(2), d.k.into(), 1, width.max(height).into())? as u8;
        Ok(TicTacToeVariant { width, height, k })
    }
}
