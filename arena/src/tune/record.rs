//! `tune.csv`: one flushed row per finished iteration of `arena tune`, the record a tuning run resumes
//! from.
//!
//! Columns: `iteration` (1-based), `games` (played in the iteration), `wins`, `draws`, `losses` (of the
//! θ + c·Δ side, forfeits included), `result` (`wins − losses`, what SPSA's update uses), then one
//! column per tuned parameter, named after it: θ after the iteration's update, unrounded (Rust's
//! shortest text that reads back as the same `f64`, so a resumed run goes on from exactly that θ);
//! then one column per tuned parameter named `flip_<parameter>`: the iteration's perturbation Δ of
//! that parameter, `1` or `-1` (the θ⁺ probe was θ + c_k·Δ).
//!
//! A file written before the `flip_` columns existed (its header ends with the parameters) is still
//! read, its rows without flips; [`rewrite`] writes them back in the current form once the flips are
//! known (they are drawn from the seed and the iteration alone, so the tuning recomputes them).

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
    /// The iteration's perturbation Δ, ±1 per parameter in config order; empty when read from a file
    /// of the older form without `flip_` columns.
    pub flips: Vec<i8>,
}

/// The header line for parameters `names`.
pub fn header(names: &[String]) -> String {
    let mut cols: Vec<String> = FIXED.iter().map(|c| c.to_string()).collect();
    cols.extend(names.iter().cloned());
    cols.extend(names.iter().map(|n| format!("flip_{n}")));
    cols.join(",")
}

/// The header of the older form, without the `flip_` columns.
fn header_without_flips(names: &[String]) -> String {
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
    cols.extend(row.flips.iter().map(i8::to_string));
    cols.join(",")
}

/// Reads `path`'s rows for parameters `names`; a missing file is no rows. A last line cut short (the
/// arena killed mid-write) is cut off the file first, so the next append starts on a fresh line. A
/// file of the older form (no `flip_` columns) gives rows with empty `flips`.
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
    let with_flips = match lines.next() {
        None => return Ok(Vec::new()),
        Some((_, h)) if h == header(names) => true,
        Some((_, h)) if h == header_without_flips(names) => false,
        Some((_, h)) => bail!(
            "{}: its columns are `{h}`, but this config tunes `{}`: restore the config, or run with \
             --fresh to start afresh (the old folder is kept)",
            path.display(),
            header(names)
        ),
    };
    let per_param = if with_flips { 2 } else { 1 };
    let mut rows: Vec<Row> = Vec::new();
    for (i, l) in lines {
        let bad = |what: &str| anyhow::anyhow!("{}:{}: {what}: {l:?}", path.display(), i + 1);
        let cols: Vec<&str> = l.split(',').collect();
        if cols.len() != FIXED.len() + per_param * names.len() {
            return Err(bad("wrong number of columns"));
        }
        let int = |k: usize| cols[k].parse::<i64>().map_err(|_| bad(FIXED[k]));
        let u32_at =
            |k: usize| -> Result<u32> { u32::try_from(int(k)?).map_err(|_| bad(FIXED[k])) };
        let theta = cols[FIXED.len()..FIXED.len() + names.len()]
            .iter()
            .map(|c| c.parse::<f64>().map_err(|_| bad("a parameter value")))
            .collect::<Result<Vec<f64>>>()?;
        let flips = cols[FIXED.len() + names.len()..]
            .iter()
            .map(|c| match *c {
                "1" => Ok(1),
                "-1" => Ok(-1),
                _ => Err(bad("a flip (1 or -1)")),
            })
            .collect::<Result<Vec<i8>>>()?;
        let row = Row {
            iteration: u64::try_from(int(0)?).map_err(|_| bad("iteration"))?,
            games: u32_at(1)?,
            wins: u32_at(2)?,
            draws: u32_at(3)?,
            losses: u32_at(4)?,
            result: int(5)?,
            theta,
            flips,
        };
        if row.iteration != rows.len() as u64 + 1 {
            return Err(bad(&format!("expected iteration {}", rows.len() + 1)));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Writes `rows` (all with their flips) to `path` in the current form, replacing the file at once
/// (a new file renamed over it): how a record of the older form gets its `flip_` columns.
///
/// # Errors
/// A row without flips; file errors, with the path.
pub fn rewrite(path: &Path, names: &[String], rows: &[Row]) -> Result<()> {
    anyhow::ensure!(
        rows.iter().all(|r| r.flips.len() == names.len()),
        "{}: a row without its flips cannot be written",
        path.display()
    );
    let mut text = header(names);
    text.push('\n');
    for r in rows {
        text.push_str(&line(r));
        text.push('\n');
    }
    let new = path.with_extension("csv.new");
    std::fs::write(&new, text).with_context(|| format!("writing {}", new.display()))?;
    std::fs::rename(&new, path).with_context(|| format!("replacing {}", path.display()))
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
        let flips = (0..theta.len())
            .map(|i| {
                if (i as u64 + iteration).is_multiple_of(2) {
                    1
                } else {
                    -1
                }
            })
            .collect();
        Row {
            iteration,
            games: 2,
            wins: 1,
            draws: 1,
            losses: 0,
            result: 1,
            theta,
            flips,
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
        assert_eq!(
            std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .take(2)
                .collect::<Vec<_>>(),
            [
                "iteration,games,wins,draws,losses,result,x,y,flip_x,flip_y",
                "1,2,1,1,0,1,0.30000000000000004,-3,-1,1"
            ]
        );
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

    #[test]
    fn a_record_without_flip_columns_is_read_and_rewritten_in_the_current_form() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let names = vec!["x".to_string()];
        std::fs::write(
            &path,
            "iteration,games,wins,draws,losses,result,x\n1,2,1,1,0,1,2.5\n2,2,0,0,2,-2,0.5\n",
        )
        .unwrap();
        let mut rows = read(&path, &names).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.flips.is_empty()));
        assert_eq!(rows[1].theta, vec![0.5]);
        assert!(rewrite(&path, &names, &rows).is_err());
        rows[0].flips = vec![1];
        rows[1].flips = vec![-1];
        rewrite(&path, &names, &rows).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "iteration,games,wins,draws,losses,result,x,flip_x\n1,2,1,1,0,1,2.5,1\n2,2,0,0,2,-2,0.5,-1\n"
        );
        assert_eq!(read(&path, &names).unwrap(), rows);
        // A flip that is not ±1 is refused.
        std::fs::write(&path, format!("{}\n1,2,1,1,0,1,2.5,0\n", header(&names))).unwrap();
        assert!(read(&path, &names)
            .unwrap_err()
            .to_string()
            .contains("flip"));
    }
}
