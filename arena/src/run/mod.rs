//! One run's lifecycle, shared by every way the arena plays games: `arena run`'s round-robin, gauntlet
//! and SPRT match ([`crate::tournament`]), Swiss and knockout round by round ([`crate::tournament::pairing::run`]),
//! `arena tune`'s iterations ([`crate::tune`]) and `arena play` ([`crate::play`]). They only decide which
//! games to play and what to do with each finished one; a [`Run`] does the rest, in this order:
//!
//! 1. [`Run::open`]: reads the config, takes the results folder (moves an old one aside with `--fresh`,
//!    then an exclusive lock held until the run is dropped) and starts listening for Ctrl-C, SIGTERM and
//!    SIGHUP;
//! 2. [`Run::check_fingerprint`]: a folder that holds games is resumed only under the same fingerprint;
//!    then [`Run::record_config`] copies the config into the folder as `config.toml` with
//!    `config.origin`, the folder its relative paths resolve against (`arena merge` and `arena report`
//!    read both);
//! 3. [`Run::env`], before the first game: the containment layers probed and checked against the plan,
//!    the bots' options checked against their declarations (warnings printed), then the fingerprint
//!    recorded;
//! 4. [`Run::play`]: a [`GamePool`] of games, each finished game handed to the caller, until the games
//!    are done, the caller stops (an SPRT decided), or a signal comes;
//! 5. [`Run::finish`]: the games-per-second line.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use tokio::sync::watch;

use crate::game::referee::GameEnv;
use crate::plan::schedule::{ScheduledGame, Shard};
use crate::plan::Plan;
use crate::record::GameRecord;
use crate::report::Report;
use crate::results::fingerprint::Fingerprint;
use crate::results::{ResultsDir, RunLock, CONFIG_ORIGIN};
use crate::run::pool::{stopped, GamePool, Next};
use crate::sandbox::Containment;
use crate::stats::sprt::SprtDecision;

pub mod player;
pub mod pool;
mod progress;

pub use progress::{Evals, LiveFormat, LiveSink, Progress, Sink};

/// The config a run records in its folder.
#[derive(Clone, Debug)]
pub enum ConfigCopy {
    /// Copy this file (the config the run was started with); it is also the origin of its relative
    /// paths. Nothing is copied when it is the folder's own `config.toml` (`arena run
    /// results/x/config.toml`: a file copied onto itself is emptied).
    File(PathBuf),
    /// Write this text, a config derived from the file at `origin` (a tuning's verifying SPRT), whose
    /// relative paths resolve against `origin`'s folder.
    Derived { text: String, origin: PathBuf },
}

impl ConfigCopy {
    /// The config file at `path`, or `derived` text whose relative paths resolve against `path`'s
    /// folder ([`RunOptions::derived_config`]).
    pub fn of(path: &Path, derived: Option<&String>) -> ConfigCopy {
        match derived {
            Some(text) => ConfigCopy::Derived {
                text: text.clone(),
                origin: path.to_path_buf(),
            },
            None => ConfigCopy::File(path.to_path_buf()),
        }
    }
}

/// Where and how a run keeps its results.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The folder holding every run's folder (usually `results`).
    pub results_root: PathBuf,
    /// The run's folder under it: the tournament's name, a shard's `<name>.shard-K-of-N`.
    pub folder: String,
    /// The config recorded in the folder.
    pub config: ConfigCopy,
    /// Move an existing folder aside and start afresh.
    pub fresh: bool,
    /// No messages at all (benchmarks).
    pub quiet: bool,
    /// Keep each game's transcript and the bots' stderr in `logs/` (a tuning, which plays tens of
    /// thousands of short games, keeps none).
    pub logs: bool,
    /// The containment layers to use; `None`: probe the machine ([`Containment::probe`]).
    pub containment: Option<Arc<Containment>>,
    /// A stop besides the signals: the run stops as on Ctrl-C once it holds `true` (the contest server
    /// pausing or cancelling a competition, or shutting down).
    pub stop: Option<watch::Receiver<bool>>,
    /// Sees each game as it is played ([`GameEnv::watch`]).
    pub watch: Option<Arc<dyn crate::game::referee::Watch>>,
    /// Who plays the games; `None`: this process ([`player::Local`]).
    pub player: Option<Arc<dyn player::Player>>,
    /// Append each recorded game to this PGN file ([`LiveSink`]); `None`: no live PGN.
    pub pgnout: Option<PathBuf>,
    /// The CPUs the game slots share out ([`crate::sandbox::affinity`]); `None`: the bots run anywhere.
    pub affinity: Option<crate::config::affinity::Cpus>,
    /// Append each recorded game, a Dots game, to this SGF file as one game tree ([`LiveSink`]); `None`:
    /// no live SGF.
    pub sgfout: Option<PathBuf>,
}

impl Setup {
    /// The setup of an `arena run` of `plan` (a tournament, a Swiss, a knockout) into `folder` under
    /// `opts`: its config file (or `opts.derived_config`), transcripts kept, the live PGN of
    /// `opts.pgnout`, else of the config's `pgnout`, and the live SGF of `opts.sgfout`, else of the
    /// config's `sgfout`.
    pub fn of(plan: &Plan, opts: &RunOptions, folder: String) -> Setup {
        Setup {
            results_root: opts.results_root.clone(),
            folder,
            config: ConfigCopy::of(&plan.config_path, opts.derived_config.as_ref()),
            fresh: opts.fresh,
            quiet: opts.quiet,
            logs: true,
            containment: opts.containment.clone(),
            stop: opts.stop.clone(),
            watch: opts.watch.clone(),
            player: opts.player.clone(),
            pgnout: opts.pgnout.clone().or_else(|| plan.pgnout.clone()),
            affinity: match &opts.affinity {
                Some(setting) => setting.cpus(),
                None => plan.affinity.clone(),
            },
            sgfout: opts.sgfout.clone().or_else(|| plan.sgfout.clone()),
        }
    }
}

/// What [`Run::play`]'s caller does after a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Play on.
    Continue,
    /// Abandon the games still running (their bots killed, nothing recorded) and return: an SPRT that
    /// has decided.
    Stop,
}

/// How [`Run::play`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// Every game was played.
    Done,
    /// The caller returned [`Flow::Stop`].
    Stopped,
    /// Ctrl-C, SIGTERM or SIGHUP: the running games were stopped and are not recorded.
    Interrupted,
}

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The folder holding every tournament's folder (usually `results`).
    pub results_root: PathBuf,
    /// Move an existing results folder aside and start afresh.
    pub fresh: bool,
    /// Show a progress bar when on a terminal.
    pub progress_bar: bool,
    /// No progress at all (benchmarks).
    pub quiet: bool,
    /// Play only this shard of the schedule, into `<name>.shard-K-of-N/` (see [`Shard`]).
    pub shard: Option<Shard>,
    /// Print the standings every this many recorded games (cutechess's `-ratinginterval`); `None`:
    /// only at the end.
    pub report_every: Option<usize>,
    /// The containment layers to use; `None`: probe the machine ([`Containment::probe`]).
    pub containment: Option<Arc<Containment>>,
    /// The text to record as the folder's `config.toml` when the plan's config was derived from the
    /// file at `plan.config_path` rather than read from it (a tuning's verifying SPRT); `None`: copy
    /// that file.
    pub derived_config: Option<String>,
    /// A stop besides the signals ([`Setup::stop`]).
    pub stop: Option<watch::Receiver<bool>>,
    /// Sees each game as it is played ([`GameEnv::watch`]).
    pub watch: Option<Arc<dyn crate::game::referee::Watch>>,
    /// Who plays the games ([`Setup::player`]); `None`: this process.
    pub player: Option<Arc<dyn player::Player>>,
    /// Append each recorded game to this PGN file (`--pgnout`; over the config's `pgnout`).
    pub pgnout: Option<PathBuf>,
    /// The CPUs the game slots share out, or off (`--affinity`); `None`: the config's `affinity`.
    pub affinity: Option<crate::config::affinity::Setting>,
    /// Append each recorded Dots game to this SGF file (`--sgfout`; over the config's `sgfout`).
    pub sgfout: Option<PathBuf>,
}

impl Default for RunOptions {
    /// Into `results/`, resumed, no progress bar (messages on), every game in this process under the
    /// containment the machine offers.
    fn default() -> RunOptions {
        RunOptions {
            results_root: PathBuf::from("results"),
            fresh: false,
            progress_bar: false,
            quiet: false,
            shard: None,
            report_every: None,
            containment: None,
            derived_config: None,
            stop: None,
            watch: None,
            player: None,
            pgnout: None,
            affinity: None,
            sgfout: None,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Games played by this run.
    pub played: usize,
    /// Games in the schedule.
    pub total: usize,
    /// Games recorded in the results folder, this run's included.
    pub recorded: usize,
    /// Whether the tournament is over: every scheduled game recorded, or the SPRT decided.
    pub complete: bool,
    /// Whether Ctrl-C stopped the run.
    pub interrupted: bool,
    /// An SPRT match: its decision over the complete pairs recorded (`Continue` when it ran out of
    /// pairs or was interrupted).
    pub sprt: Option<SprtDecision>,
    /// Standings, ratings, crosstable over every recorded game.
    pub report: Report,
    /// The results folder.
    pub dir: PathBuf,
}

/// One run in its results folder; see the module's documentation. Dropping it frees the folder.
pub struct Run {
    /// The run's folder.
    pub dir: ResultsDir,
    setup: Setup,
    /// The config's text and origin, read before the folder was taken (a `--fresh` run of the folder's
    /// own `config.toml` moves that file aside), written by [`Run::record_config`].
    config: Option<(String, PathBuf)>,
    _lock: RunLock,
    env: Option<Arc<GameEnv>>,
    /// The live PGN and SGF, opened by [`Run::env`] when the setup names a file.
    live: Option<LiveSink>,
    stop: watch::Receiver<bool>,
    stop_task: tokio::task::JoinHandle<()>,
    started: Instant,
    /// Games played by this run so far.
    pub played: usize,
    /// Whether a signal stopped it.
    pub interrupted: bool,
}

impl Run {
    /// Reads the config and takes the folder `setup.results_root/setup.folder` (step 1 of the module's
    /// documentation). Must be called within a tokio runtime (it listens for signals).
    ///
    /// # Errors
    /// A config file that cannot be read; the folder is in use by another run, or cannot be created or
    /// moved aside.
    pub fn open(setup: Setup) -> Result<Run> {
        let dir = ResultsDir::new(&setup.results_root, &setup.folder);
        let config = match &setup.config {
            ConfigCopy::File(path) => (
                std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?,
                path.clone(),
            ),
            ConfigCopy::Derived { text, origin } => (text.clone(), origin.clone()),
        };
        let (lock, aside) = dir.prepare(setup.fresh)?;
        if let Some(aside) = aside.filter(|_| !setup.quiet) {
            crate::errln!("moved the old results to {}", aside.display());
        }
        let (stop_tx, stop) = watch::channel(false);
        let extra = setup.stop.clone();
        let stop_task = tokio::spawn(async move {
            match extra {
                Some(mut extra) => tokio::select! {
                    _ = stop_signal() => {}
                    _ = stopped(&mut extra) => {}
                },
                None => stop_signal().await,
            }
            let _ = stop_tx.send(true);
        });
        Ok(Run {
            dir,
            setup,
            config: Some(config),
            _lock: lock,
            env: None,
            live: None,
            stop,
            stop_task,
            started: Instant::now(),
            played: 0,
            interrupted: false,
        })
    }

    /// Records the run's config in its folder as `config.toml`, with `config.origin` (the absolute path
    /// of the config it came from, against whose folder its relative paths resolve). Called once the
    /// resume's checks have passed, so a refused resume leaves the folder's config as it was. Once per
    /// run; later calls do nothing.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn record_config(&mut self) -> Result<()> {
        let Some((text, origin)) = self.config.take() else {
            return Ok(());
        };
        let copy = self.dir.path.join(crate::results::recorded::CONFIG);
        // `arena run results/x/config.toml`: the folder's own copy, and its origin, stay as they are.
        let same = matches!((origin.canonicalize(), copy.canonicalize()), (Ok(x), Ok(y)) if x == y);
        if same {
            return Ok(());
        }
        std::fs::write(&copy, text).with_context(|| format!("writing {}", copy.display()))?;
        let origin = std::path::absolute(&origin)
            .with_context(|| format!("the absolute path of {}", origin.display()))?;
        let file = self.dir.path.join(CONFIG_ORIGIN);
        std::fs::write(&file, format!("{}\n", origin.display()))
            .with_context(|| format!("writing {}", file.display()))
    }

    /// Whether messages are off.
    pub fn quiet(&self) -> bool {
        self.setup.quiet
    }

    /// Refuses to add to a folder whose recorded `what` (`games`, a tuning's `iterations`; `has`) were
    /// played under another fingerprint than `now`; without them the new fingerprint simply replaces
    /// the old ([`crate::results::fingerprint::check`]).
    ///
    /// # Errors
    /// Every change, and the advice to restore the config or start afresh.
    pub fn check_fingerprint(&self, now: &Fingerprint, has: bool, what: &str) -> Result<()> {
        crate::results::fingerprint::check(now, &self.dir.path, has, what)
    }

    /// The environment of every game of this run, set up on the first call: the containment layers
    /// checked against `checks` (every bot the run may start; a tuning passes its bot at both ends of
    /// every range), the bots' options checked against what they declare (warnings printed), then
    /// `fingerprint` written into the folder. Later calls return the same environment.
    ///
    /// # Errors
    /// A machine that cannot contain the bots as the config asks, an option a bot would ignore or refuse,
    /// a file error.
    pub async fn env(&mut self, checks: &Plan, fingerprint: &Fingerprint) -> Result<Arc<GameEnv>> {
        if let Some(env) = &self.env {
            return Ok(Arc::clone(env));
        }
        let containment = self
            .setup
            .containment
            .clone()
            .unwrap_or_else(Containment::probe);
        containment
            .check(&checks.confined(), checks.processes_configured)
            .map_err(anyhow::Error::msg)?;
        if let Some(w) = Containment::warning(&checks.confined()).filter(|_| !self.setup.quiet) {
            crate::errln!("{w}");
        }
        // A module or referee game: the folder keeps the module (or how to start the referee), so
        // that its readers re-referee the records through the rules they were played with.
        crate::modules::keep(&self.dir.path, &checks.spec, checks.module.as_deref())?;
        if let Some(referee) = &checks.referee {
            crate::referee_programs::keep(&self.dir.path, referee)?;
        }
        // The live PGN and SGF collect the bots' scores through the games' watch, beside the setup's own.
        let mut files = Vec::new();
        if let Some(path) = &self.setup.pgnout {
            files.push((LiveFormat::Pgn, path.as_path()));
        }
        if let Some(path) = &self.setup.sgfout {
            crate::formats::sgf::writable(&checks.spec).map_err(|reason| {
                anyhow::anyhow!(
                    "sgfout {}: {reason}; use pgnout for these games",
                    path.display()
                )
            })?;
            files.push((LiveFormat::Sgf, path.as_path()));
        }
        if !files.is_empty() {
            self.live = Some(LiveSink::open(&files, &checks.name)?);
        }
        let watch: Option<Arc<dyn crate::game::referee::Watch>> = match (
            self.setup.watch.clone(),
            self.live.as_ref().map(LiveSink::watch),
        ) {
            (Some(w), Some(p)) => Some(Arc::new(progress::BothWatch(w, p))),
            (w, p) => w.or_else(|| p.map(|p| p as Arc<dyn crate::game::referee::Watch>)),
        };
        let env = Arc::new(GameEnv {
            logs: self.setup.logs.then(|| self.dir.logs()),
            containment: Arc::clone(&containment),
            work_root: Some(self.dir.path.join("sandbox")),
            hide: Some(self.setup.results_root.clone()),
            watch,
            affinity: match &self.setup.affinity {
                Some(cpus) => {
                    Some(crate::sandbox::affinity::resolve(cpus).map_err(anyhow::Error::msg)?)
                }
                None => None,
            },
        });
        for warning in crate::game::options::preflight(checks, &env)
            .await
            .map_err(anyhow::Error::msg)?
        {
            if !self.setup.quiet {
                crate::errln!("warning: {warning}");
            }
        }
        // Written once every check has passed, just before the first game.
        fingerprint.save(&self.dir.path)?;
        self.env = Some(Arc::clone(&env));
        Ok(env)
    }

    /// Plays `games` of `plan` in `env` (from [`Run::env`]), at most `plan.concurrency` at once, handing
    /// each finished game to `each` in the order they end (a forfeit included; recording it is the
    /// caller's), then to the live PGN and SGF, if any, once `each` has taken it. `kept` names what the caller keeps when a game cannot be set up ("the {kept} recorded
    /// so far are kept").
    ///
    /// # Errors
    /// A game the arena could not set up, or an error of `each`; the running games are stopped first.
    pub async fn play(
        &mut self,
        plan: Arc<Plan>,
        env: Arc<GameEnv>,
        games: Vec<ScheduledGame>,
        kept: &'static str,
        mut each: impl FnMut(GameRecord) -> Result<Flow>,
    ) -> Result<Played> {
        if *self.stop.borrow() {
            self.interrupted = true;
            return Ok(Played::Interrupted);
        }
        let mut pool = GamePool::new(plan, env, games).keeping(kept);
        if let Some(player) = &self.setup.player {
            pool = pool.played_by(Arc::clone(player));
        }
        let mut stop = self.stop.clone();
        loop {
            let record = match pool.next(stopped(&mut stop)).await? {
                Next::Game(r) => *r,
                Next::Done => return Ok(Played::Done),
                Next::Interrupted => {
                    self.interrupted = true;
                    return Ok(Played::Interrupted);
                }
            };
            self.played += 1;
            let copy = self.live.is_some().then(|| record.clone());
            let flow = each(record)?;
            if let (Some(live), Some(record)) = (self.live.as_mut(), copy) {
                live.game_finished(&record, self.played, 0)?;
            }
            if flow == Flow::Stop {
                pool.abandon().await;
                return Ok(Played::Stopped);
            }
        }
    }

    /// Prints `N games in S s (G games/s)` for the games this run played (none: nothing).
    pub fn finish(&self) {
        if self.played > 0 && !self.setup.quiet {
            let secs = self.started.elapsed().as_secs_f64();
            crate::errln!(
                "{} games in {secs:.1} s ({:.1} games/s)",
                self.played,
                self.played as f64 / secs.max(1e-9)
            );
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.stop_task.abort();
    }
}

/// Resolves on Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed), so each stops a run cleanly
/// with its bots killed.
pub async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) {
        (Ok(mut term), Ok(mut hup)) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
                _ = hup.recv() => {}
            }
        }
        _ => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
