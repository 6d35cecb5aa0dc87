//! `arena tune`: SPSA tuning of one bot's options through the normal tournament path.
//!
//! A `format = "tune"` config names one bot (`[[bots]]`, no sweep) and, in `[tune]`, the spin options to
//! tune with fishtest's SPSA settings ([`spsa`], where the algorithm and its source are described). Each
//! iteration draws a seeded ±1 perturbation Δ, plays `pairs_per_iteration` game pairs (one opening per
//! pair, sides swapped) between the bot with θ + c_k·Δ and the bot with θ − c_k·Δ (integer options
//! rounded stochastically from seeded draws, as fishtest's worker rounds them; θ stays unrounded), as
//! processes under the config's clocks, limits and containment ([`crate::game::referee::play_game`]), then
//! updates θ. The games of an iteration run at once, up to `concurrency`.
//!
//! Results go to `results/<name>/`: `tune.csv` (one flushed row per finished iteration, see
//! [`record`]), `tune.svg` (each parameter over the iterations, see [`chart`]), `tuned.toml` (the final
//! values as a `[[bots]]` entry to paste), and with `verify = true`
//! the SPRT of the tuned values against the start values in `verify-<iterations>/` (an ordinary `format = "sprt"`
//! match with the config's `[sprt]`). A run stopped by Ctrl-C, SIGTERM or SIGKILL resumes from the last
//! row of `tune.csv`; the unfinished iteration is played again with the same Δ and openings.
//!
//! Example (`configs/tune-alphabeta-connect4.toml`, docs/tuning.md):
//!
//! ```toml
//! name = "tune-x"
//! format = "tune"
//! [tune]
//! iterations = 500
//! [[tune.params]]
//! name = "c4_centre"
//! start = 0
//! min = -20
//! max = 60
//! c_end = 3
//! r_end = 0.002
//! ```

pub mod chart;
pub mod record;
pub mod sent;
pub mod spsa;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use games::Player;
use indicatif::{ProgressBar, ProgressStyle};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::{Config, Format, OpeningOrder};
use crate::plan::openings::Opening;
use crate::plan::schedule::{game_seed, mix, random_opening, ScheduledGame};
use crate::plan::{BotPlan, Plan};
use crate::record::GameRecord;
use crate::results::fingerprint::Fingerprint;
use crate::results::ResultsDir;
use crate::run::{ConfigCopy, Flow, Played, Run, Setup};
use crate::sandbox::Containment;
use crate::tournament::{self, RunOptions, RunSummary};

use spsa::{Param, Spsa};

pub use crate::config::tune::{TuneConfig, TuneParam};

/// How to run a tuning.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// The folder holding the run's folder (usually `results`).
    pub results_root: PathBuf,
    /// Stop when this many iterations are recorded (default: `[tune] iterations`).
    pub iterations: Option<u64>,
    /// Move an existing results folder aside and start afresh.
    pub fresh: bool,
    /// Show a progress bar when on a terminal.
    pub progress_bar: bool,
    /// No progress lines (tests).
    pub quiet: bool,
    /// The containment layers to use; `None`: probe the machine.
    pub containment: Option<Arc<Containment>>,
}

/// What a tuning run did.
#[derive(Debug)]
pub struct TuneSummary {
    /// The results folder.
    pub dir: PathBuf,
    /// Iterations recorded in `tune.csv`, this run's included.
    pub iterations: u64,
    /// Games played by this run.
    pub played: usize,
    /// Whether a signal stopped the run.
    pub interrupted: bool,
    /// θ after the last recorded iteration (unrounded), in parameter order.
    pub theta: Vec<f64>,
    /// The options as sent in `tuned.toml` (rounded to the nearest integer where `integer`), in
    /// parameter order.
    pub values: Vec<(String, String)>,
    /// The ready `[[bots]]` snippet, as written to `tuned.toml`.
    pub snippet: String,
    /// The verifying SPRT, when `verify = true` and the run reached its iterations.
    pub verify: Option<RunSummary>,
}

/// A tune config, checked: the SPSA schedule and the plan its games are played under.
#[derive(Clone, Debug)]
pub struct Tuning {
    pub config: Config,
    pub config_path: PathBuf,
    pub tune: TuneConfig,
    pub spsa: Spsa,
    /// Two bots, the tuned bot as `<name>+` (θ + c·Δ) and `<name>-` (θ − c·Δ), options at the start
    /// values; each iteration sets the probes' values.
    pub base: Plan,
    /// The bot's name in the config.
    pub bot: String,
    /// The book's lines in the order game pairs take them.
    book_order: Vec<usize>,
}

/// The text `setoption` sends for the final or start value `x`: rounded to the nearest integer for an
/// integer option. (The probes of an iteration are rounded stochastically instead: [`Tuning::probe_plan`].)
pub fn sent(x: f64, integer: bool) -> String {
    if integer {
        format!("{}", x.round() as i64)
    } else {
        format!("{x}")
    }
}

impl Tuning {
    /// Checks `config` (read from `config_path`); `self_exe` serves `builtin` bots.
    ///
    /// # Errors
    /// Not `format = "tune"` or no `[tune]` table; not exactly one `[[bots]]` entry, or one with a sweep;
    /// a tuned option also set in the bot's `options`; `pairs_per_iteration` or `iterations` 0;
    /// `verify` without `[sprt]` or the other way round; a bad SPSA setting ([`Spsa::new`]); anything [`Plan::new`] refuses.
    pub fn new(config: &Config, config_path: &Path, self_exe: &Path) -> Result<Tuning> {
        let at = || config_path.display().to_string();
        anyhow::ensure!(
            config.format == Format::Tune,
            "{}: arena tune plays format = \"tune\" configs",
            at()
        );
        let Some(tune) = config.tune.clone() else {
            bail!("{}: format = \"tune\" needs a [tune] table", at());
        };
        let [bot] = config.bots.as_slice() else {
            bail!(
                "{}: a tune config names exactly one bot (its two probes play each other), found {}",
                at(),
                config.bots.len()
            );
        };
        anyhow::ensure!(
            bot.sweep.is_none(),
            "{}: the tuned bot cannot have a sweep",
            at()
        );
        anyhow::ensure!(
            !config.noswap.unwrap_or(false) && !config.reverse.unwrap_or(false),
            "{}: noswap and reverse are not for a tuning: each of its game pairs gives both probes the \
             first move once",
            at()
        );
        anyhow::ensure!(
            config.pgnout.is_none(),
            "{}: pgnout is not for a tuning (its games are not kept); `arena export` writes the PGN \
             of its verifying match",
            at()
        );
        anyhow::ensure!(
            config.sgfout.is_none(),
            "{}: sgfout is not for a tuning (its games are not kept); `arena export --format sgf` \
             writes the SGF of its verifying match",
            at()
        );
        if let Some(p) = tune
            .params
            .iter()
            .find(|p| bot.options.contains_key(&p.name))
        {
            bail!(
                "{}: option {} is tuned, so it cannot also be set in the bot's options",
                at(),
                p.name
            );
        }
        if let Some(p) = tune
            .params
            .iter()
            .find(|p| p.integer && (p.min.fract() != 0.0 || p.max.fract() != 0.0))
        {
            bail!(
                "{}: option {} is an integer option (integer = true), so its min and max must be \
                 integers (the probes are rounded up or down at random and must stay in range), got {} and {}",
                at(),
                p.name,
                p.min,
                p.max
            );
        }
        anyhow::ensure!(
            tune.iterations > 0 && tune.pairs_per_iteration > 0,
            "{}: [tune] iterations and pairs_per_iteration must be at least 1",
            at()
        );
        anyhow::ensure!(
            tune.verify == config.sprt.is_some(),
            "{}: [tune] verify = true goes with an [sprt] table (the test of the tuned against the \
             start values), and an [sprt] table with verify = true",
            at()
        );
        let params = tune
            .params
            .iter()
            .map(|p| Param {
                name: p.name.clone(),
                start: p.start,
                min: p.min,
                max: p.max,
                c_end: p.c_end,
                r_end: p.r_end,
            })
            .collect();
        let spsa = Spsa::new(
            params,
            tune.a_big,
            tune.alpha,
            tune.gamma,
            tune.iterations * u64::from(tune.pairs_per_iteration),
        )
        .map_err(|m| anyhow::anyhow!("{}: [tune]: {m}", at()))?;
        let mut probes = config.clone();
        probes.format = Format::RoundRobin;
        probes.tune = None;
        probes.sprt = None;
        probes.games_per_pair = None;
        probes.bots = ["+", "-"]
            .iter()
            .map(|side| {
                let mut b = bot.clone();
                b.name = format!("{}{side}", bot.name);
                b
            })
            .collect();
        let mut base = Plan::new(&probes, config_path, self_exe)?;
        let start_values = {
            let start = spsa.start();
            tune.params
                .iter()
                .zip(start)
                .map(|(p, x)| (p.name.clone(), sent(x, p.integer)))
                .collect::<Vec<_>>()
        };
        for b in &mut base.bots {
            set_options(b, &start_values);
        }
        let mut book_order: Vec<usize> = (0..base.openings.len()).collect();
        if base.opening_order == OpeningOrder::Random {
            book_order.shuffle(&mut ChaCha8Rng::seed_from_u64(mix(base.seed ^ 0x0b00c)));
        }
        Ok(Tuning {
            config: config.clone(),
            config_path: config_path.to_owned(),
            tune,
            spsa,
            base,
            bot: bot.name.clone(),
            book_order,
        })
    }

    /// What `arena check` prints for a tune config: the run, then one line per parameter.
    pub fn describe(&self) -> String {
        let t = &self.tune;
        let mut out = format!(
            "{}: tournament {:?}, {}, Tune, {} iterations × {} game pairs, A {} alpha {} gamma {}, \
             concurrency {}{}\n",
            self.config_path.display(),
            self.config.name,
            self.base.spec,
            t.iterations,
            t.pairs_per_iteration,
            self.spsa.a_big,
            t.alpha,
            t.gamma,
            self.base.concurrency,
            if t.verify { ", then a verifying SPRT" } else { "" }
        );
        for p in &t.params {
            out.push_str(&format!(
                "  tune {} of {}: start {} in {}..{}, c_end {} r_end {}\n",
                p.name, self.bot, p.start, p.min, p.max, p.c_end, p.r_end
            ));
        }
        out
    }

    /// The tuned parameters' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.tune.params.iter().map(|p| p.name.clone()).collect()
    }

    /// `(option, value as sent)` for θ.
    pub fn values(&self, theta: &[f64]) -> Vec<(String, String)> {
        self.tune
            .params
            .iter()
            .zip(theta)
            .map(|(p, &x)| (p.name.clone(), sent(x, p.integer)))
            .collect()
    }

    /// `(option, value as sent)` for one probe `x` of an iteration: an integer option rounded
    /// stochastically, `floor(x + u)` with the probe's draw u from `draws` (one per parameter, as
    /// [`Spsa::rounding_draws`] gives them for this probe), a decimal one as it is.
    pub fn probe_values(&self, x: &[f64], draws: &[f64]) -> Vec<(String, String)> {
        self.tune
            .params
            .iter()
            .zip(x.iter().zip(draws))
            .map(|(p, (&x, &u))| {
                let value = if p.integer {
                    spsa::round_stochastic(x, u).to_string()
                } else {
                    format!("{x}")
                };
                (p.name.clone(), value)
            })
            .collect()
    }

    /// The plan of one iteration: the base plan with the two probes' option values, integer options
    /// rounded stochastically with the iteration's `draws` ([`Spsa::rounding_draws`]: per parameter,
    /// the draw of θ⁺ then of θ⁻).
    pub fn probe_plan(&self, plus: &[f64], minus: &[f64], draws: &[[f64; 2]]) -> Plan {
        let (u_plus, u_minus): (Vec<f64>, Vec<f64>) = draws.iter().map(|d| (d[0], d[1])).unzip();
        self.plan_with(
            &self.probe_values(plus, &u_plus),
            &self.probe_values(minus, &u_minus),
        )
    }

    /// The base plan with these option values for θ⁺ (`plus`) and θ⁻ (`minus`).
    fn plan_with(&self, plus: &[(String, String)], minus: &[(String, String)]) -> Plan {
        let mut plan = self.base.clone();
        set_options(&mut plan.bots[0], plus);
        set_options(&mut plan.bots[1], minus);
        plan
    }

    /// The games of iteration `iteration` (1-based): per game pair, the `+` probe first in the first
    /// game and second in the other, both from the pair's opening (the book's lines in the config's
    /// order, then `opening_plies` random plies), each with its own seed. Ids are `i0007p1g2`.
    pub fn games(&self, iteration: u64) -> Vec<ScheduledGame> {
        let per = u64::from(self.tune.pairs_per_iteration);
        let mut out = Vec::new();
        for j in 0..per {
            let pair = (iteration - 1) * per + j + 1;
            let pair_seed = mix(self.base.seed ^ mix(pair));
            let no_book = Opening::default();
            let book = match self.book_order.len() {
                0 => &no_book,
                n => &self.base.openings[self.book_order[((pair - 1) % n as u64) as usize]],
            };
            let opening = random_opening(self.base.spec, book, self.base.opening_plies, pair_seed);
            for (k, (first, second)) in [(0, 1), (1, 0)].into_iter().enumerate() {
                out.push(ScheduledGame {
                    id: format!("i{iteration:04}p{}g{}", j + 1, k + 1),
                    number: out.len() + 1,
                    round: u32::try_from(iteration).unwrap_or(u32::MAX),
                    pair: u32::try_from(pair).unwrap_or(u32::MAX),
                    first,
                    second,
                    opening: opening.clone(),
                    setup: book.setup.clone(),
                    seed: game_seed(pair_seed, k as u64),
                });
            }
        }
        out
    }

    /// The run's fingerprint: the probes' plan at the start values, and the SPSA settings.
    pub fn fingerprint(&self) -> Fingerprint {
        let mut fp = Fingerprint::of(&self.base);
        let t = &self.tune;
        fp.insert(
            "tune.schedule",
            format!(
                "iterations={} pairs_per_iteration={} A={} alpha={} gamma={}",
                t.iterations, t.pairs_per_iteration, self.spsa.a_big, t.alpha, t.gamma
            ),
        );
        for p in &t.params {
            fp.insert(
                format!("tune.param.{}", p.name),
                format!(
                    "start={} min={} max={} c_end={} r_end={} integer={}",
                    p.start, p.min, p.max, p.c_end, p.r_end, p.integer
                ),
            );
        }
        fp
    }

    /// The tuned bot as a `[[bots]]` entry of a config, with θ's values (as sent) among its options:
    /// the config file's own entry, so `command`, `args`, time control and other options are kept.
    ///
    /// # Errors
    /// The config file cannot be read again.
    pub fn snippet(&self, theta: &[f64], iterations: u64) -> Result<String> {
        let text = std::fs::read_to_string(&self.config_path)
            .with_context(|| format!("reading {}", self.config_path.display()))?;
        let table: toml::Table = toml::from_str(&text)
            .with_context(|| format!("reading {}", self.config_path.display()))?;
        let mut bot = table
            .get("bots")
            .and_then(|b| b.as_array())
            .and_then(|b| b.first())
            .and_then(|b| b.as_table())
            .cloned()
            .unwrap_or_default();
        let mut options = bot
            .get("options")
            .and_then(|o| o.as_table())
            .cloned()
            .unwrap_or_default();
        for (p, &x) in self.tune.params.iter().zip(theta) {
            let value = if p.integer {
                toml::Value::Integer(x.round() as i64)
            } else {
                toml::Value::Float(x)
            };
            options.insert(p.name.clone(), value);
        }
        bot.insert("options".into(), toml::Value::Table(options));
        let mut doc = toml::Table::new();
        doc.insert(
            "bots".into(),
            toml::Value::Array(vec![toml::Value::Table(bot)]),
        );
        Ok(format!(
            "# {} tuned by `arena tune {}`: {iterations} iterations of SPSA.\n{}",
            self.bot,
            self.config_path.display(),
            toml::to_string(&doc).context("writing the tuned values")?
        ))
    }

    /// The SPRT config of `verify`: the bot with θ's values (`<bot>-tuned`, the candidate) against the
    /// bot with the start values (`<bot>-start`), under the config's `[sprt]`, named `verify-<iterations>`
    /// (the θ of another iteration count is another match, in its own folder).
    pub fn verify_config(&self, theta: &[f64], iterations: u64) -> Config {
        let mut c = self.config.clone();
        c.name = format!("verify-{iterations}");
        c.format = Format::Sprt;
        c.tune = None;
        c.games_per_pair = None;
        let bot = &self.config.bots[0];
        let with = |suffix: &str, values: Vec<(String, String)>| {
            let mut b = bot.clone();
            b.name = format!("{}-{suffix}", bot.name);
            for (k, v) in values {
                b.options.insert(k, toml::Value::String(v));
            }
            b
        };
        c.bots = vec![
            with("tuned", self.values(theta)),
            with("start", self.values(&self.spsa.start())),
        ];
        c
    }
}

/// Sets `values` among `bot`'s options, replacing those of the same name.
fn set_options(bot: &mut BotPlan, values: &[(String, String)]) {
    for (name, value) in values {
        match bot.options.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1.clone_from(value),
            None => bot.options.push((name.clone(), value.clone())),
        }
    }
}

/// The θ + c·Δ probe's wins, draws and losses in `records` (its name ends in `+`).
fn tally(records: &[GameRecord], plus: &str) -> (u32, u32, u32) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for r in records.iter().filter(|r| r.termination.counts()) {
        let side = if r.first == plus {
            Player::First
        } else {
            Player::Second
        };
        match r.result.points(side) {
            p if p > 0.75 => w += 1,
            p if p > 0.25 => d += 1,
            _ => l += 1,
        }
    }
    (w, d, l)
}

/// Runs (or resumes) the tuning of the config at `config_path`; `self_exe` is the `arena` binary.
///
/// Plays iterations until `opts.iterations` (default `[tune] iterations`) are recorded in `tune.csv`,
/// then writes `tune.svg` and `tuned.toml`, and with `verify = true` plays (or resumes) the SPRT in
/// `verify-<iterations>/`. A signal stops the run between or inside iterations: the running games are abandoned,
/// the finished iterations are kept, the chart and snippet are written for them.
///
/// # Errors
/// A config that is not a tune config or cannot be played; a results folder in use, or whose
/// `tune.csv` or fingerprint belongs to another config; a machine that cannot contain the bots as the
/// config asks; an option the bot does not declare, or a range outside its declared one; file errors.
pub async fn run(config_path: &Path, self_exe: &Path, opts: &TuneOptions) -> Result<TuneSummary> {
    let config = Config::load(config_path)?;
    let tuning = Tuning::new(&config, config_path, self_exe)?;
    let names = tuning.names();
    let mut run = Run::open(Setup {
        results_root: opts.results_root.clone(),
        folder: config.name.clone(),
        config: ConfigCopy::File(config_path.to_path_buf()),
        fresh: opts.fresh,
        quiet: opts.quiet,
        // No transcripts: a tuning plays tens of thousands of short games, and a folder of that many
        // files helps nobody; a forfeit is printed with its reason as it happens.
        logs: false,
        containment: opts.containment.clone(),
        stop: None,
        watch: None,
        player: None,
        pgnout: None,
        affinity: tuning.base.affinity.clone(),
        sgfout: None,
    })?;
    let dir = run.dir.clone();
    let csv = dir.path.join(record::FILE);
    let mut rows = record::read(&csv, &names)?;
    run.check_fingerprint(&tuning.fingerprint(), !rows.is_empty(), "iterations")?;
    if !rows.is_empty() {
        // Step: a record of the older form gets its `flip_` columns, the Δ its iterations were played
        // with (drawn from the seed and the iteration alone); a recorded Δ must be that one.
        let older = rows.iter().any(|r| r.flips.is_empty());
        for r in &mut rows {
            let flips = tuning.spsa.flips(tuning.base.seed, r.iteration);
            if r.flips.is_empty() {
                r.flips = flips;
            } else {
                anyhow::ensure!(
                    r.flips == flips,
                    "{}: iteration {} records the perturbation {:?}, but this config's seed gives {:?}: \
                     restore the config, or run with --fresh to start afresh (the old folder is kept)",
                    csv.display(),
                    r.iteration,
                    r.flips,
                    flips
                );
            }
        }
        if older {
            record::rewrite(&csv, &names, &rows)?;
            if !opts.quiet {
                crate::errln!(
                    "{}: added the flip_ columns (each iteration's perturbation) to its {} rows",
                    csv.display(),
                    rows.len()
                );
            }
        }
    }
    run.record_config()?;
    let target = opts.iterations.unwrap_or(tuning.tune.iterations);
    let mut theta = rows
        .last()
        .map_or_else(|| tuning.spsa.start(), |r| r.theta.clone());
    let mut done = rows.len() as u64;
    let mut history: Vec<(u64, Vec<f64>)> = std::iter::once((0, tuning.spsa.start()))
        .chain(rows.iter().map(|r| (r.iteration, r.theta.clone())))
        .collect();
    drop(rows);
    if done < target {
        if done > 0 && !opts.quiet {
            crate::errln!("resuming {}: {done} iterations recorded", config.name);
        }
        let step = Step {
            tuning: &tuning,
            dir: &dir,
            opts,
        };
        step.iterations(&mut run, &mut theta, &mut done, target, &mut history)
            .await?;
    }
    let (played, interrupted) = (run.played, run.interrupted);
    // Step: the record's products, written for whatever was recorded.
    chart::write_svg(
        &dir.path.join("tune.svg"),
        &format!("{}: SPSA over {done} iterations", config.name),
        &tuning.tune.params,
        &history,
    )?;
    let snippet = tuning.snippet(&theta, done)?;
    let tuned = dir.path.join("tuned.toml");
    std::fs::write(&tuned, &snippet).with_context(|| format!("writing {}", tuned.display()))?;
    drop(run);
    let verify = if tuning.tune.verify && !interrupted && done >= target {
        let vc = tuning.verify_config(&theta, done);
        let plan = Plan::new(&vc, config_path, self_exe)?;
        let run_opts = RunOptions {
            results_root: dir.path.clone(),
            progress_bar: opts.progress_bar,
            quiet: opts.quiet,
            containment: opts.containment.clone(),
            // Its own config, not the tuning's: `arena report` and `merge` read the folder by it.
            derived_config: Some(vc.to_toml()?),
            ..RunOptions::default()
        };
        if !opts.quiet {
            crate::errln!(
                "verifying: an SPRT of {} against {} in {}",
                plan.bots[0].name,
                plan.bots[1].name,
                dir.path.join(&plan.name).display()
            );
        }
        Some(tournament::run(Arc::new(plan), &run_opts).await?)
    } else {
        None
    };
    Ok(TuneSummary {
        dir: dir.path,
        iterations: done,
        played,
        interrupted,
        values: tuning.values(&theta),
        theta,
        snippet,
        verify,
    })
}

/// The iteration loop's context.
struct Step<'a> {
    tuning: &'a Tuning,
    dir: &'a ResultsDir,
    opts: &'a TuneOptions,
}

impl Step<'_> {
    /// Plays iterations `done + 1 ..= target`, appending each to `tune.csv`; returns the games played
    /// and whether a signal stopped it.
    async fn iterations(
        &self,
        run: &mut Run,
        theta: &mut Vec<f64>,
        done: &mut u64,
        target: u64,
        history: &mut Vec<(u64, Vec<f64>)>,
    ) -> Result<()> {
        let (tuning, dir, opts) = (self.tuning, self.dir, self.opts);
        let names = tuning.names();
        // Step 1. Containment, then the options against what the bot declares, at both ends of every
        // range, before any game.
        let lows: Vec<f64> = tuning.spsa.params.iter().map(|p| p.min).collect();
        let highs: Vec<f64> = tuning.spsa.params.iter().map(|p| p.max).collect();
        let ends = tuning.plan_with(&tuning.values(&lows), &tuning.values(&highs));
        let env = run.env(&ends, &tuning.fingerprint()).await?;
        let mut writer = record::Writer::open(&dir.path.join(record::FILE), &names)?;
        let mut sent_file = sent::Writer::open(&dir.path.join(sent::FILE), &names, *done)?;

        // Step 2. The iterations.
        let bar = (opts.progress_bar && !opts.quiet && std::io::stderr().is_terminal()).then(|| {
            let pb = ProgressBar::new(target);
            pb.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} iterations  {elapsed_precise} elapsed  ETA {eta_precise}  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb.set_position(*done);
            pb
        });
        let per = u64::from(tuning.tune.pairs_per_iteration);
        let plus_name = tuning.base.bots[0].name.clone();
        let minus_name = tuning.base.bots[1].name.clone();
        while *done < target {
            let iteration = *done + 1;
            let gains = tuning.spsa.gains(*done * per);
            let flips = tuning.spsa.flips(tuning.base.seed, iteration);
            let (plus, minus) = tuning.spsa.probes(theta, &gains, &flips);
            let draws = tuning.spsa.rounding_draws(tuning.base.seed, iteration);
            // The values as sent (integer options rounded stochastically), for the plan and
            // tune-sent.csv alike.
            let (u_plus, u_minus): (Vec<f64>, Vec<f64>) =
                draws.iter().map(|d| (d[0], d[1])).unzip();
            let sent_plus = tuning.probe_values(&plus, &u_plus);
            let sent_minus = tuning.probe_values(&minus, &u_minus);
            let plan = Arc::new(tuning.plan_with(&sent_plus, &sent_minus));
            let mut records = Vec::new();
            let played = run
                .play(
                    plan,
                    Arc::clone(&env),
                    tuning.games(iteration),
                    "iterations",
                    |r| {
                        if r.termination.is_forfeit() && !opts.quiet {
                            let line = format!(
                                "{} {} vs {} {} ({}) — {}",
                                r.id, r.first, r.second, r.result, r.termination, r.detail
                            );
                            match &bar {
                                Some(b) => b.println(line),
                                None => crate::errln!("{line}"),
                            }
                        }
                        records.push(r);
                        Ok(Flow::Continue)
                    },
                )
                .await?;
            if played == Played::Interrupted {
                break;
            }
            let (wins, draws, losses) = tally(&records, &plus_name);
            let result = i64::from(wins) - i64::from(losses);
            *theta = tuning.spsa.update(theta, &gains, &flips, result);
            *done = iteration;
            sent_file.append(iteration, '+', &plus_name, &sent_plus)?;
            sent_file.append(iteration, '-', &minus_name, &sent_minus)?;
            writer.append(&record::Row {
                iteration,
                games: u32::try_from(records.len()).unwrap_or(u32::MAX),
                wins,
                draws,
                losses,
                result,
                theta: theta.clone(),
                flips: flips.clone(),
            })?;
            history.push((iteration, theta.clone()));
            let values: Vec<String> = tuning
                .tune
                .params
                .iter()
                .zip(theta.iter())
                .map(|(p, x)| format!("{}={x:.1}", p.name))
                .collect();
            let line = format!(
                "iteration {iteration}/{target}: {result:+} (+{wins} ={draws} -{losses})  {}",
                values.join(" ")
            );
            match &bar {
                Some(b) => {
                    b.set_position(iteration);
                    b.set_message(values.join(" "));
                }
                None if !opts.quiet => crate::errln!("{line}"),
                None => {}
            }
        }
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        run.finish();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    const CONFIG: &str = r#"
name = "t"
format = "tune"
seed = 5
[game]
name = "connect4"
[time_control]
time_ms = 1000
[tune]
iterations = 10
pairs_per_iteration = 2
[[tune.params]]
name = "c4_centre"
start = 0
min = -10
max = 10
c_end = 2
r_end = 0.01
[[bots]]
name = "ab"
builtin = "alphabeta"
options = { depth = 2 }
"#;

    fn tuning(text: &str) -> Result<Tuning> {
        let c = Config::parse(text, Path::new("t.toml"))?;
        Tuning::new(&c, Path::new("t.toml"), Path::new("/bin/sh"))
    }

    #[test]
    fn an_iteration_plays_game_pairs_of_the_two_probes_with_their_values() {
        let t = tuning(CONFIG).unwrap();
        let games = t.games(3);
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].id, "i0003p1g1");
        assert_eq!((games[0].first, games[1].first), (0, 1));
        assert_eq!(games[2].pair, 6);
        // Integer options are rounded stochastically: floor(x + u) with each probe's own draw.
        let plan = t.probe_plan(&[3.4], &[-3.6], &[[0.59, 0.61]]);
        assert_eq!(plan.bots[0].name, "ab+");
        assert!(plan.bots[0]
            .options
            .contains(&("c4_centre".into(), "3".into())));
        assert!(plan.bots[1]
            .options
            .contains(&("c4_centre".into(), "-3".into())));
        let plan = t.probe_plan(&[3.4], &[-3.6], &[[0.6, 0.39]]);
        assert!(plan.bots[0]
            .options
            .contains(&("c4_centre".into(), "4".into())));
        assert!(plan.bots[1]
            .options
            .contains(&("c4_centre".into(), "-4".into())));
        assert!(plan.bots[1].options.contains(&("depth".into(), "2".into())));
        assert_eq!(t.spsa.planned_pairs, 20.0);
    }

    #[test]
    fn configs_that_cannot_tune_are_refused() {
        let err = |text: String| tuning(&text).unwrap_err().to_string();
        assert!(
            err(CONFIG.replace("options = { depth = 2 }", "options = { c4_centre = 2 }"))
                .contains("cannot also be set")
        );
        assert!(err(CONFIG.replace("[tune]\n", "[tune]\nverify = true\n")).contains("[sprt]"));
        assert!(err(CONFIG.replace("start = 0", "start = 20")).contains("min ≤ start ≤ max"));
        assert!(err(CONFIG.replace("max = 10", "max = 10.5")).contains("must be integers"));
        assert!(tuning(&CONFIG.replace("max = 10", "max = 10.5\ninteger = false")).is_ok());
        let two = format!("{CONFIG}[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n");
        assert!(err(two).contains("exactly one bot"));
        for key in ["noswap = true", "reverse = true"] {
            assert!(
                err(CONFIG.replace("[game]", &format!("{key}\n[game]")))
                    .contains("not for a tuning"),
                "{key}"
            );
        }
        for key in ["pgnout = \"x.pgn\"", "sgfout = \"x.sgf\""] {
            assert!(
                err(CONFIG.replace("[game]", &format!("{key}\n[game]")))
                    .contains("not for a tuning"),
                "{key}"
            );
        }
        // `arena run` refuses a tune config instead of ignoring its [tune] table.
        let c = Config::parse(CONFIG, Path::new("t.toml")).unwrap();
        let e = Plan::new(&c, Path::new("t.toml"), Path::new("/bin/sh")).unwrap_err();
        assert!(e.to_string().contains("arena tune"), "{e}");
    }

    #[test]
    fn the_snippet_and_the_verify_match_carry_the_values_as_sent() {
        let t = tuning(CONFIG).unwrap();
        let v = t.verify_config(&[6.6], 4);
        assert_eq!(v.name, "verify-4");
        assert_eq!(v.format, Format::Sprt);
        assert_eq!(v.bots[0].name, "ab-tuned");
        assert_eq!(
            v.bots[0].options["c4_centre"],
            toml::Value::String("7".into())
        );
        assert_eq!(
            v.bots[1].options["c4_centre"],
            toml::Value::String("0".into())
        );
    }

    /// A few iterations of the code under test (gains, Δ, probes, the options each probe is sent, the
    /// update) against fishtest's formulas, re-derived here step by step as fishtest's server and worker
    /// compute them (official-stockfish/fishtest, `server/fishtest/spsa_workflow.py`:
    /// `parse_spsa_params` c = c_end·N^γ, a = r_end·c_end²·(A + N)^α; `build_spsa_worker_step`
    /// c_k = c/(iter + 1)^γ, R_k = a/(A + iter + 1)^α/c_k²; `clip_spsa_param_value`;
    /// `apply_spsa_result_updates` θ ← clip(θ + R_k·c_k·result·flip), iter += game pairs; and
    /// `worker/games.py`: an option is sent as floor(value + uniform(0, 1))), the uniform draws taken
    /// from the generator that `Spsa::rounding_draws` documents, seeded here by hand.
    #[test]
    fn a_few_iterations_follow_fishtests_formulas() {
        let more = "[[tune.params]]\nname = \"c4_line2\"\nstart = 5\nmin = 0\nmax = 6\nc_end = 0.3\n\
                    r_end = 0.2\n[[tune.params]]\nname = \"c4_threat\"\nstart = 1.5\nmin = -3\nmax = 3\n\
                    c_end = 0.5\nr_end = 0.05\ninteger = false\n[[bots]]";
        let config = CONFIG.replace("[[bots]]", more);
        let t = tuning(&config).unwrap();
        // name, start, min, max, c_end, r_end, integer: the config's [[tune.params]].
        let params = [
            ("c4_centre", 0.0, -10.0, 10.0, 2.0, 0.01, true),
            ("c4_line2", 5.0, 0.0, 6.0, 0.3, 0.2, true),
            ("c4_threat", 1.5, -3.0, 3.0, 0.5, 0.05, false),
        ];
        let seed: u64 = 5;
        let pairs_per_batch = 2.0;
        let num_iter = 10.0 * pairs_per_batch; // fishtest's num_iter: num_games / 2
        let big_a = 0.1 * num_iter;
        let (alpha, gamma) = (0.602, 0.101);
        let mut theta_fishtest: Vec<f64> = params.iter().map(|p| p.1).collect();
        let mut iter_fishtest = 0.0; // fishtest's spsa["iter"]: game pairs done
        let mut theta = t.spsa.start();
        let (mut clipped, mut separated) = (0, 0);
        for (i, result) in [4i64, -3, 2, 4, -4, 1].into_iter().enumerate() {
            let iteration = i as u64 + 1;
            // The code under test, as the iteration loop calls it.
            let gains = t.spsa.gains((iteration - 1) * 2);
            let flips = t.spsa.flips(seed, iteration);
            let (plus, minus) = t.spsa.probes(&theta, &gains, &flips);
            let draws = t.spsa.rounding_draws(seed, iteration);
            let plan = t.probe_plan(&plus, &minus, &draws);
            theta = t.spsa.update(&theta, &gains, &flips, result);
            // fishtest, one parameter at a time.
            for (j, &(name, _, min, max, c_end, r_end, integer)) in params.iter().enumerate() {
                let c_base = c_end * f64::powf(num_iter, gamma);
                let a = r_end * c_end * c_end * f64::powf(big_a + num_iter, alpha);
                let iter_local = iter_fishtest + 1.0;
                let c = c_base / f64::powf(iter_local, gamma);
                let r = a / f64::powf(big_a + iter_local, alpha) / (c * c);
                let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * y.abs().max(1.0);
                assert!(
                    close(gains[j].c, c),
                    "{iteration} {name}: c {gains:?} vs {c}"
                );
                assert!(
                    close(gains[j].r, r),
                    "{iteration} {name}: R {gains:?} vs {r}"
                );
                let flip = f64::from(flips[j]);
                assert!(flip == 1.0 || flip == -1.0);
                let clip = |x: f64| x.max(min).min(max);
                let w_value = clip(theta_fishtest[j] + c * flip);
                let b_value = clip(theta_fishtest[j] - c * flip);
                let uniform = |probe: u64| -> f64 {
                    let s = mix(mix(mix(seed ^ 0x7e0d) ^ iteration) ^ (2 * j as u64 + probe));
                    ChaCha8Rng::seed_from_u64(s).random::<f64>()
                };
                let (w_sent, b_sent) = if integer {
                    let (w, b) = (
                        (w_value + uniform(0)).floor(),
                        (b_value + uniform(1)).floor(),
                    );
                    if w != b && w_value.round() == b_value.round() {
                        separated += 1;
                    }
                    (format!("{w}"), format!("{b}"))
                } else {
                    (format!("{w_value}"), format!("{b_value}"))
                };
                let option = |bot: usize| {
                    plan.bots[bot]
                        .options
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| v.clone())
                        .unwrap()
                };
                assert_eq!(option(0), w_sent, "{iteration} {name}: θ⁺ {w_value}");
                assert_eq!(option(1), b_sent, "{iteration} {name}: θ⁻ {b_value}");
                let unclipped = theta_fishtest[j] + r * c * result as f64 * flip;
                theta_fishtest[j] = clip(unclipped);
                if theta_fishtest[j] != unclipped {
                    clipped += 1;
                }
                assert!(
                    close(theta[j], theta_fishtest[j]),
                    "{iteration} {name}: θ {} vs fishtest's {}",
                    theta[j],
                    theta_fishtest[j]
                );
            }
            iter_fishtest += pairs_per_batch;
        }
        // The run exercised the clip and a batch whose probes nearest rounding would have merged.
        assert!(clipped > 0 && separated > 0, "{clipped} {separated}");
    }
}
