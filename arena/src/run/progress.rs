//! Progress on the console and the record of finished games: the two [`Sink`]s every run feeds; and the
//! live PGN and SGF ([`LiveSink`]) that a run with `--pgnout` or `--sgfout` feeds besides them.

use std::io::IsTerminal;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use crate::record::{GameRecord, MoveEval};
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

/// The form a live file writes each game in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveFormat {
    /// PGN, cutechess's `-pgnout`: [`crate::formats::pgn::game`] with the bots' scores (`pgnout`).
    Pgn,
    /// SGF for Dots: [`crate::formats::sgf::commented`], one game tree per game (`sgfout`).
    Sgf,
}

impl LiveFormat {
    /// `PGN` or `SGF`, for messages.
    fn name(self) -> &'static str {
        match self {
            LiveFormat::Pgn => "PGN",
            LiveFormat::Sgf => "SGF",
        }
    }
}

/// One file a [`LiveSink`] appends to.
#[derive(Debug)]
struct LiveFile {
    path: std::path::PathBuf,
    file: std::fs::File,
    format: LiveFormat,
}

/// The live game files: the live PGN (cutechess's `-pgnout`) and the live SGF of Dots games
/// (`--sgfout`). Appends each finished game to each file as it is recorded, each bot move commented
/// with the score and depth the bot last gave before it and the move's time
/// ([`crate::formats::pgn::move_comment`]). The scores come from its [`Evals`], the run's games' watch,
/// shared by the files.
#[derive(Debug)]
pub struct LiveSink {
    files: Vec<LiveFile>,
    event: String,
    evals: std::sync::Arc<Evals>,
}

impl LiveSink {
    /// Opens each of `files` for appending in its format (created when missing, never truncated);
    /// `event` is the tournament's name (PGN's `Event`, SGF's `EV`).
    ///
    /// # Errors
    /// A file that cannot be opened, with its path.
    pub fn open(files: &[(LiveFormat, &std::path::Path)], event: &str) -> Result<LiveSink> {
        use anyhow::Context;
        let files = files
            .iter()
            .map(|&(format, path)| {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| {
                        format!("opening the {} file {}", format.name(), path.display())
                    })?;
                Ok(LiveFile {
                    path: path.to_path_buf(),
                    file,
                    format,
                })
            })
            .collect::<Result<_>>()?;
        Ok(LiveSink {
            files,
            event: event.to_string(),
            evals: std::sync::Arc::default(),
        })
    }

    /// The watch that collects the scores of the games being played, for [`crate::game::referee::GameEnv::watch`].
    pub fn watch(&self) -> std::sync::Arc<Evals> {
        std::sync::Arc::clone(&self.evals)
    }
}

impl Sink for LiveSink {
    /// Appends the game to each file. A file that cannot be written (a full disk) is left for the
    /// rest of the run with a warning on stderr, and the run goes on: the game is already in
    /// `games.csv`, from which `arena export` writes both formats again. A game the SGF cannot hold
    /// is left out of it, with a warning.
    fn game_finished(&mut self, record: &GameRecord, _done: usize, _total: usize) -> Result<()> {
        use std::io::Write;
        let evals = self.evals.take(&record.id);
        let event = &self.event;
        self.files.retain_mut(|f| {
            let text = match f.format {
                LiveFormat::Pgn => crate::formats::pgn::game(record, event, &evals),
                LiveFormat::Sgf => match crate::formats::sgf::commented(record, event, &evals) {
                    Ok(text) => text,
                    Err(e) => {
                        // This game only: the next ones may well be written.
                        crate::errln!(
                            "arena: game {} is not in the SGF file {}: {e}",
                            record.id,
                            f.path.display()
                        );
                        return true;
                    }
                },
            };
            // One write per game: appended whole, even with another run appending to the same file.
            let written = f
                .file
                .write_all(text.as_bytes())
                .and_then(|()| f.file.flush());
            match written {
                Ok(()) => true,
                Err(e) => {
                    crate::errln!(
                        "arena: writing game {} to the {} file {}: {e:#}; the run goes on without \
                         that file (games.csv has every game; `arena export` writes it again)",
                        record.id,
                        f.format.name(),
                        f.path.display()
                    );
                    false
                }
            }
        });
        Ok(())
    }
}

/// The bots' scores of the games in play, by game id, kept from the referee's
/// [`crate::game::referee::Watch::evaluated`] until the game is written.
#[derive(Debug, Default)]
pub struct Evals(std::sync::Mutex<std::collections::HashMap<String, Vec<Option<MoveEval>>>>);

impl Evals {
    /// The scores of game `id`, forgotten here; empty when none were kept.
    fn take(&self, id: &str) -> Vec<Option<MoveEval>> {
        self.0
            .lock()
            .ok()
            .and_then(|mut m| m.remove(id))
            .unwrap_or_default()
    }
}

impl crate::game::referee::Watch for Evals {
    fn moved(&self, _record: &GameRecord, _position: &crate::game::referee::Position) {}
    fn ended(&self, _id: &str) {}
    fn evaluated(&self, record: &GameRecord, evals: &[Option<MoveEval>]) {
        if evals.iter().any(Option::is_some) {
            if let Ok(mut m) = self.0.lock() {
                m.insert(record.id.clone(), evals.to_vec());
            }
        }
    }
}

/// Two watches of the same games: the run's own ([`super::Setup::watch`]) and the live files'.
#[derive(Debug)]
pub(crate) struct BothWatch(
    pub(crate) std::sync::Arc<dyn crate::game::referee::Watch>,
    pub(crate) std::sync::Arc<dyn crate::game::referee::Watch>,
);

impl crate::game::referee::Watch for BothWatch {
    fn moved(&self, record: &GameRecord, position: &crate::game::referee::Position) {
        self.0.moved(record, position);
        self.1.moved(record, position);
    }
    fn ended(&self, id: &str) {
        self.0.ended(id);
        self.1.ended(id);
    }
    fn evaluated(&self, record: &GameRecord, evals: &[Option<MoveEval>]) {
        self.0.evaluated(record, evals);
        self.1.evaluated(record, evals);
    }
}
