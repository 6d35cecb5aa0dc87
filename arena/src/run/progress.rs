//! Progress on the console and the record of finished games: the two [`Sink`]s every run feeds.

use std::io::IsTerminal;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use crate::record::GameRecord;
use crate::results::GameWriter;

/// Where finished games go, in the order they end (after ripgrep's `Sink` and fastchess's `IOutput`).
pub trait Sink {
    /// Called once per finished game; `done` counts every recorded game of the tournament, this one included.
    ///
    /// # Errors
    /// A sink that cannot record stops the tournament (games already recorded stay recorded).
    fn game_finished(&mut self, record: &GameRecord, done: usize, total: usize) -> Result<()>;
}

impl Sink for GameWriter {
    fn game_finished(&mut self, record: &GameRecord, _done: usize, _total: usize) -> Result<()> {
        self.append(record)
    }
}

/// Progress on the console: an indicatif bar on a terminal, one plain line per game otherwise.
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    /// A bar if stderr is a terminal and `bar` is true, else plain lines.
    pub fn new(total: usize, done: usize, bar: bool, quiet: bool) -> Progress {
        let bar = (bar && std::io::stderr().is_terminal()).then(|| {
            let pb = ProgressBar::new(total as u64);
            pb.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games  {elapsed_precise} elapsed  ETA {eta_precise}  {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb.set_position(done as u64);
            pb
        });
        Progress { bar, quiet }
    }

    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// A status line (an SPRT's figures): the bar's message on a terminal, else a printed line when
    /// `print` is set.
    pub(crate) fn status(&self, line: &str, print: bool) {
        match &self.bar {
            Some(b) => b.set_message(line.to_string()),
            None if print && !self.quiet => crate::errln!("{line}"),
            None => {}
        }
    }
}

impl Progress {
    /// Prints a block of text (interim standings) above the bar, or as plain lines.
    pub(crate) fn print_block(&self, text: &str) {
        match &self.bar {
            Some(b) => b.println(text.trim_end()),
            None if !self.quiet => crate::errln!("{}", text.trim_end()),
            None => {}
        }
    }
}

impl Sink for Progress {
    fn game_finished(&mut self, r: &GameRecord, done: usize, total: usize) -> Result<()> {
        let detail = if r.detail.is_empty() {
            String::new()
        } else {
            format!(" — {}", r.detail)
        };
        let line = format!(
            "{done}/{total} {} {} vs {} {} ({}){detail}",
            r.id, r.first, r.second, r.result, r.termination
        );
        match &self.bar {
            Some(b) => {
                b.set_position(done as u64);
                if r.termination.is_forfeit() {
                    b.println(line);
                }
            }
            None if !self.quiet => crate::errln!("{line}"),
            None => {}
        }
        Ok(())
    }
}
