//! `tune-sent.csv`: the option values each probe was actually sent, so that the stochastic rounding of
//! integer options ([`super::spsa::round_stochastic`]) can be checked from the output, not only from
//! the code.
//!
//! One row per probe and iteration, written when the iteration's games are over, just before its row
//! of `tune.csv`: `iteration` (1-based), `probe` (`+` for θ + c·Δ, `-` for θ − c·Δ), `bot` (the
//! config's name of that side), then one column per tuned parameter, named after it: the text
//! `setoption` sent (an integer option after its rounding, a decimal one as it is).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The file's name in the results folder.
pub const FILE: &str = "tune-sent.csv";

/// The header line for parameters `names`.
pub fn header(names: &[String]) -> String {
    let mut cols = vec!["iteration".to_string(), "probe".into(), "bot".into()];
    cols.extend(names.iter().cloned());
    cols.join(",")
}

/// Appends the rows of `tune-sent.csv`, each written and flushed at once.
pub struct Writer {
    file: File,
    path: PathBuf,
}

impl Writer {
    /// Opens `path` for appending, writing the header for `names` if the file is new, and keeping
    /// only the rows of iterations `1..=done` (the ones `tune.csv` holds): a run stopped after this
    /// file's rows of an iteration and before its `tune.csv` row plays that iteration again, with the
    /// same values, and writes its rows again.
    ///
    /// # Errors
    /// A header for other parameters; file errors, with the path.
    pub fn open(path: &Path, names: &[String], done: u64) -> Result<Writer> {
        let head = header(names);
        match std::fs::read_to_string(path) {
            Ok(text) if !text.is_empty() => {
                let mut lines = text.lines();
                let first = lines.next().unwrap_or_default();
                if first != head {
                    bail!(
                        "{}: its columns are `{first}`, but this config tunes `{head}`",
                        path.display()
                    );
                }
                // Complete rows of the iterations tune.csv holds, in order.
                let kept: Vec<&str> = lines
                    .take_while(|l| {
                        l.split(',')
                            .next()
                            .and_then(|i| i.parse::<u64>().ok())
                            .is_some_and(|i| i <= done)
                    })
                    .collect();
                let mut keep = head.clone() + "\n";
                for l in &kept {
                    keep.push_str(l);
                    keep.push('\n');
                }
                if keep != text {
                    let new = path.with_extension("csv.new");
                    std::fs::write(&new, &keep)
                        .with_context(|| format!("writing {}", new.display()))?;
                    std::fs::rename(&new, path)
                        .with_context(|| format!("replacing {}", path.display()))?;
                }
            }
            Ok(_) => std::fs::write(path, head + "\n")
                .with_context(|| format!("writing {}", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::write(path, head + "\n")
                .with_context(|| format!("writing {}", path.display()))?,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(Writer {
            file,
            path: path.to_owned(),
        })
    }

    /// Appends the row of one probe: `values` are `(option, text sent)` in parameter order.
    ///
    /// # Errors
    /// File errors, with the path.
    pub fn append(
        &mut self,
        iteration: u64,
        probe: char,
        bot: &str,
        values: &[(String, String)],
    ) -> Result<()> {
        let mut cols = vec![iteration.to_string(), probe.to_string(), bot.to_string()];
        cols.extend(values.iter().map(|(_, v)| v.clone()));
        writeln!(self.file, "{}", cols.join(","))
            .and_then(|()| self.file.flush())
            .with_context(|| format!("writing {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_past_the_last_recorded_iteration_are_dropped_on_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let names = vec!["a".to_string(), "b".to_string()];
        let sent = |a: &str, b: &str| vec![("a".to_string(), a.into()), ("b".into(), b.into())];
        let mut w = Writer::open(&path, &names, 0).unwrap();
        w.append(1, '+', "plus", &sent("4", "0.5")).unwrap();
        w.append(1, '-', "minus", &sent("3", "0.25")).unwrap();
        w.append(2, '+', "plus", &sent("5", "0.5")).unwrap();
        drop(w);
        // tune.csv holds iteration 1 only: iteration 2 is played again.
        let mut w = Writer::open(&path, &names, 1).unwrap();
        w.append(2, '+', "plus", &sent("5", "0.5")).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "iteration,probe,bot,a,b\n1,+,plus,4,0.5\n1,-,minus,3,0.25\n2,+,plus,5,0.5\n"
        );
        let err = Writer::open(&path, &["a".to_string()], 1).err().unwrap();
        assert!(err.to_string().contains("this config tunes"), "{err}");
    }
}
