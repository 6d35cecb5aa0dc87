//! Kalah's variant: pits a side and seeds a pit, Kalah(6,4) by default (`docs/kalah-rules.md`).

use std::fmt;

use crate::variant::{number, Param, Variant};
use crate::SpecError;

/// The most pits a side.
pub const MAX_PITS: u8 = 12;
/// The most seeds a pit at the start.
pub const MAX_SEEDS: u8 = 24;

/// `pits` a side (1..=[`MAX_PITS`]) and `seeds` in each pit at the start (1..=[`MAX_SEEDS`]); default
/// 6 4, Kalah(6,4). Words: `PITS SEEDS` (`kalah 6 6`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahVariant {
    pub pits: u8,
    pub seeds: u8,
}

impl Default for KalahVariant {
    fn default() -> Self {
        KalahVariant { pits: 6, seeds: 4 }
    }
}

impl fmt::Display for KalahVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.pits, self.seeds)
    }
}

impl Variant for KalahVariant {
    const NAME: &'static str = "kalah";
    const ALIASES: &'static [&'static str] = &["kalaha"];
    const PARAMS: &'static [Param] = &[
        Param {
            key: "pits",
            doc: "pits a side, 1..=12; default 6",
        },
        Param {
            key: "seeds",
            doc: "seeds in each pit at the start, 1..=24; default 4",
        },
    ];

    fn from_params(params: &[Option<&str>]) -> Result<Self, SpecError> {
        let at = |i: usize| params.get(i).copied().flatten();
        let d = KalahVariant::default();
        Ok(KalahVariant {
            pits: number("pits", at(0), d.pits.into(), 1, MAX_PITS.into())? as u8,
            seeds: number("seeds", at(1), d.seeds.into(), 1, MAX_SEEDS.into())? as u8,
        })
    }
}
