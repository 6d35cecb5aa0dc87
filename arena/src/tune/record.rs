//! `tune.csv`: one flushed row per finished iteration of `arena tune`, the record a tuning run resumes
//! from.
//!
//! Columns: `iteration` (1-based), `games` (played in the iteration), `wins`, `draws`, `losses` (of the
//! θ + c·Δ side, forfeits included), `result` (`wins − losses`, what SPSA's update uses), then one
//! column per tuned parameter, named after it: θ after the iteration's update, unrounded (Rust's
//! shortest text that reads back as the same `f64`, so a resumed run goes on from exactly that θ).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The file's name in the results folder.
pub const FILE: &str = "tune.csv";

const FIXED: [&str; 6] = ["iteration", "games", "wins", "draws", "losses", "result"];

/// One finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 1-based.
    pub iteration: u64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// `wins − losses`.
    pub result: i64,
    /// θ after the update, one value per parameter in config order.
    pub theta: Vec<f64>,
}

/// The header line for parameters `names`.
pub fn header(names: &[String]) -> String {
    let mut cols: Vec<&str> = FIXED.to_vec();
    cols.extend(names.iter().map(String::as_str));
    cols.join(",")
}

fn line(row: &Row) -> String {
    let mut cols = vec![
        row.iteration.to_string(),
        row.games.to_string(),
        row.wins.to_string(),
        row.draws.to_string(),
        row.losses.to_string(),
        row.result.to_string(),
    ];
    cols.extend(row.theta.iter().map(f64::to_string));
    cols.join(",")
}

/// Reads `path`'s rows for parameters `names`; a missing file is no rows. A last line cut short (the
/// arena killed mid-write) is cut off the file first, so the next append starts on a fresh line.
///
/// # Errors
/// A header for other parameters (the config's `[[tune.params]]` changed), a row that does not parse
/// or whose iteration is not the next one, with the line number; file errors.
pub fn read(path: &Path, names: &[String]) -> Result<Vec<Row>> {
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let mut text = String::new();
    file.read_to_string(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    if !text.is_empty() && !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64)
            .with_context(|| format!("repairing {}", path.display()))?;
        text.truncate(keep);
    }
    let mut lines = text.lines().enumerate();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some((_, h)) if h == header(names) => {}
        Some((_, h)) => bail!(
            "{}: its columns are `{h}`, but this config tunes `{}`: restore the config, or run with \
             --fresh to start afresh (the old folder is kept)",
            path.display(),
            header(names)
        ),
    }
    let mut rows: Vec<Row> = Vec::new();
    for (i, l) in lines {
        let bad = |what: &str| anyhow::anyhow!("{}:{}: {what}: {l:?}", path.display(), i + 1);
        let cols: Vec<&str> = l.split(',').collect();
        if cols.len() != FIXED.len() + names.len() {
            return Err(bad("wrong number of columns"));
        }
        let int = |k: usize| cols[k].parse::<i64>().map_err(|_| bad(FIXED[k]));
        let u32_at =
            |k: usize| -> Result<u32> { u32::try_from(int(k)?).map_err(|_| bad(FIXED[k])) };
        let theta = cols[FIXED.len()..]
            .iter()
            .map(|c| c.parse::<f64>().map_err(|_| bad("a parameter value")))
            .collect::<Result<Vec<f64>>>()?;
        let row = Row {
            iteration: u64::try_from(int(0)?).map_err(|_| bad("iteration"))?,
            games: u32_at(1)?,
            wins: u32_at(2)?,
            draws: u32_at(3)?,
            losses: u32_at(4)?,
            result: int(5)?,
            theta,
        };
        if row.iteration != rows.len() as u64 + 1 {
            return Err(bad(&format!("expected iteration {}", rows.len() + 1)));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Appends rows to `tune.csv`, each written and flushed to the file at once.
pub struct Writer {
    file: File,
    path: PathBuf,
}

impl Writer {
    /// Opens `path` for appending, writing the header for `names` if the file is new or empty.
    ///
    /// # Errors
    /// File errors, with the path.
    pub fn open(path: &Path, names: &[String]) -> Result<Writer> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        let len = file
            .seek(SeekFrom::End(0))
            .with_context(|| format!("opening {}", path.display()))?;
        let mut w = Writer {
            file,
            path: path.to_owned(),
        };
        if len == 0 {
            w.write_line(&header(names))?;
        }
        Ok(w)
    }

    /// Appends one row and flushes it to the operating system.
    ///
    /// # Errors
    /// File errors, with the path.
    pub fn append(&mut self, row: &Row) -> Result<()> {
        self.write_line(&line(row))
    }

    fn write_line(&mut self, text: &str) -> Result<()> {
        self.file
            .write_all(format!("{text}\n").as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(iteration: u64, theta: Vec<f64>) -> Row {
        Row {
            iteration,
            games: 2,
            wins: 1,
            draws: 1,
            losses: 0,
            result: 1,
            theta,
        }
    }

    #[test]
    fn rows_read_back_exactly_and_a_cut_last_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let names = vec!["x".to_string(), "y".to_string()];
        let mut w = Writer::open(&path, &names).unwrap();
        let rows = vec![row(1, vec![0.1 + 0.2, -3.0]), row(2, vec![1e-9, 7.25])];
        for r in &rows {
            w.append(r).unwrap();
        }
        drop(w);
        assert_eq!(read(&path, &names).unwrap(), rows);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"3,2,0,0,2,-2,1.5").unwrap();
        assert_eq!(read(&path, &names).unwrap(), rows);
        let mut w = Writer::open(&path, &names).unwrap();
        w.append(&row(3, vec![1.0, 2.0])).unwrap();
        assert_eq!(read(&path, &names).unwrap().len(), 3);
        let other = vec!["x".to_string()];
        assert!(read(&path, &other)
            .unwrap_err()
            .to_string()
            .contains("--fresh"));
    }
}
