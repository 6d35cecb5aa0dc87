//! Dots's variant: the board's `width` and `height` (R1) and the start position (R4).

use std::fmt;
use std::str::FromStr;

use crate::variant::{number, Param, Variant};
use crate::SpecError;

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

/// `width` × `height` points, each 4..=64 (R1), and the start (R4); default 39 32 cross. Words:
/// `W H START`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DotsVariant {
    pub width: u8,
    pub height: u8,
    pub start: DotsStart,
}

impl Default for DotsVariant {
    fn default() -> Self {
        DotsVariant {
            width: 39,
            height: 32,
            start: DotsStart::Cross,
        }
    }
}

impl fmt::Display for DotsVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.width, self.height, self.start)
    }
}

impl Variant for DotsVariant {
    const NAME: &'static str = "dots";
    const PARAMS: &'static [Param] = &[
        Param {
            key: "width",
            doc: "points across, 4..=64 (R1); default 39",
        },
        Param {
            key: "height",
            doc: "points up, 4..=64 (R1); default 32",
        },
        Param {
            key: "start",
            doc: "the start position (R4): empty, cross or four-crosses; default cross",
        },
    ];

    fn from_params(params: &[Option<&str>]) -> Result<Self, SpecError> {
        let at = |i: usize| params.get(i).copied().flatten();
        let d = DotsVariant::default();
        Ok(DotsVariant {
            width: number("width", at(0), d.width.into(), 4, 64)? as u8,
            height: number("height", at(1), d.height.into(), 4, 64)? as u8,
            start: at(2)
                .map(str::parse)
                .transpose()
                .map_err(|e: SpecError| SpecError::Param {
                    key: "start",
                    message: e.to_string(),
                })?
                .unwrap_or(d.start),
        })
    }
}
