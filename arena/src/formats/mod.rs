//! Game records that other programs read: SGF for Dots ([`sgf`]), PGN for every game ([`pgn`]), and
//! Pascal Pons's digit strings for Connect Four ([`pons`]). `arena export` writes them from a results
//! folder ([`export`]); [`sgf`] also reads Dots games played elsewhere, for `arena replay x.sgf` and SGF
//! openings.

pub mod pgn;
pub mod pons;
pub mod sgf;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::record::GameRecord;

/// A record format of `arena export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Dots games as SGF (`GM[40]`), one file per game: `<id>.sgf`.
    Sgf,
    /// Every game as PGN, one file: `games.pgn`.
    Pgn,
    /// Connect Four games as Pons's digit strings, one line per game: `games.pons`.
    Pons,
}

/// What [`export`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// The folder written into.
    pub dir: PathBuf,
    /// The files written, in order.
    pub files: Vec<PathBuf>,
    /// The games they hold.
    pub games: usize,
}

/// Writes `records` in `format` into the folder `out` (created if missing); `event` names the tournament
/// (PGN's `Event`, SGF's `EV`). Every game is converted before the first file is written, so a game that
/// has no form in `format` leaves nothing half-written.
///
/// # Errors
/// A game that has no form in `format` (SGF: not Dots, or a side over 52 points; Pons: not Connect
/// Four), with its id, or a file that cannot be written.
pub fn export(records: &[GameRecord], event: &str, format: Format, out: &Path) -> Result<Exported> {
    let files: Vec<(PathBuf, String)> = match format {
        Format::Sgf => records
            .iter()
            .map(|r| Ok((out.join(format!("{}.sgf", r.id)), sgf::write(r, event)?)))
            .collect::<Result<_>>()?,
        Format::Pgn => vec![(out.join("games.pgn"), pgn::write(records, event))],
        Format::Pons => vec![(
            out.join("games.pons"),
            pons::write(records).map_err(anyhow::Error::msg)?,
        )],
    };
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    for (path, text) in &files {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(Exported {
        dir: out.to_path_buf(),
        files: files.into_iter().map(|(p, _)| p).collect(),
        games: records.len(),
    })
}

/// Milliseconds as seconds with at most three decimals and no trailing zeros: `9.8`, `10`, `0.125`.
pub(crate) fn seconds(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
