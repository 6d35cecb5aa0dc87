//! Real Ordo beside the arena's rating intervals, on the simulated fields of the ignored test
//! `bootstrap_coverage` (arena/src/stats/ratings.rs; docs/statistics.md, "The bootstrap's intervals
//! and Ordo's").
//!
//! ```text
//! cargo run --release -p arena --example ordo_fields -- --ordo /path/to/ordo [--tournaments 1000] [--seed 1000]
//!     [--simulations 1000] [--ordo-ml] [--ordo-draw-rate PCT] [--ordo-scale ELO] [--work-dir DIR] [--keep]
//! ```
//!
//! Ordo is not part of the arena: build it from its source (GPL) outside the repository and give the
//! path of its binary with `--ordo`.
//!
//! For each field (six bots at true ratings (i − 2.5)·step for step 180 and 240 Elo, mean 0) and each
//! of `--tournaments` round robins (each ordered pairing 15 games, so each pairing 30; first-move
//! advantage 60 Elo; 10 % draws), the games are drawn as the test draws them, by
//! [`arena::stats::ratings::synthetic`] seeded with `seed + t` (with the default seed and 1,000
//! tournaments the arena's counts and widths below are the test's, to the digit). Then:
//!
//! - **arena**: [`arena::stats::ratings::fit`] with the mean anchored at 0, `arena ratings`'s default
//!   1,500 bootstrap samples and seed 1, as the test and `arena ratings` do: the 2.5th–97.5th
//!   percentile interval of each bot;
//! - **Ordo**: the tournament is written as a PGN file (`[White]`, `[Black]`, `[Result]`), and Ordo is
//!   run on it as `ordo -q -p FILE -a 0 -W -D -s 1000 -z 200.24… -n 1 -N 3 -o TXT -c CSV`: pool
//!   average 0 (the arena's mean anchor), white advantage fitted (`-W`), the draw rate between equal
//!   opponents fitted (`-D`; Ordo's simulations otherwise assume 50 % draws between equals), 1,000
//!   simulations for the errors, the logistic scale of the arena (`-z`: the rating difference that
//!   scores 76 %, 400·log₁₀(0.76/0.24) = 200.24 Elo; Ordo's default is 202), one thread (Ordo's
//!   simulations use a fixed seed, so one thread makes them reproducible). Ordo's interval is its
//!   RATING ± ERROR (ERROR: the standard deviation of its simulations times 1.96, `-F 95`).
//!   Variants: `--ordo-ml` adds `-M` (Ordo's maximum-likelihood routine instead of its default
//!   iteration, about 4× slower: with `-D` it fits the draw model's likelihood, without it the
//!   scores); `--ordo-draw-rate PCT` gives `-d PCT` instead of `-D`; `--ordo-scale 202` is Ordo's
//!   default scale.
//!
//! Printed per field: how often each kind of interval holds the bot's true rating and its mean width,
//! the arena's width as a share of Ordo's, the same per bot, and the first-move (white) advantage's
//! coverage (Ordo prints one standard deviation for it; the interval counted is ±1.96 of them).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use anyhow::{bail, ensure, Context, Result};
use arena::report::DEFAULT_BOOTSTRAP;
use arena::stats::normal::Z95;
use arena::stats::ratings::{fit, synthetic, Anchor, RatedGame};

/// The fields of the test: bots this many Elo apart.
const STEPS: [f64; 2] = [180.0, 240.0];
const BOTS: usize = 6;
/// The test's first-move advantage (Elo), draw ratio and games per ordered pairing.
const ADV: f64 = 60.0;
const DRAW: f64 = 0.1;
const PER_PAIRING: usize = 15;
/// The seed of the arena's bootstrap (the test's and `arena ratings`'s default).
const BOOTSTRAP_SEED: u64 = 1;

struct Options {
    ordo: PathBuf,
    tournaments: u64,
    seed: u64,
    simulations: u32,
    draw_rate: Option<f64>,
    ml: bool,
    scale: f64,
    work_dir: PathBuf,
    keep: bool,
}

fn main() -> Result<()> {
    let mut opts = Options {
        ordo: PathBuf::new(),
        tournaments: 1000,
        seed: 1000,
        simulations: 1000,
        draw_rate: None,
        ml: false,
        // The Elo difference that scores 76 % on the arena's scale (P = 1/(1 + 10^(−Δ/400))).
        scale: 400.0 * (0.76f64 / 0.24).log10(),
        work_dir: std::env::temp_dir().join(format!("ordo_fields-{}", std::process::id())),
        keep: false,
    };
    let mut ordo = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().context("a flag without its value");
        match a.as_str() {
            "--ordo" => ordo = Some(PathBuf::from(value()?)),
            "--tournaments" => opts.tournaments = value()?.parse()?,
            "--seed" => opts.seed = value()?.parse()?,
            "--simulations" => opts.simulations = value()?.parse()?,
            "--ordo-draw-rate" => opts.draw_rate = Some(value()?.parse()?),
            "--ordo-ml" => opts.ml = true,
            "--ordo-scale" => opts.scale = value()?.parse()?,
            "--work-dir" => opts.work_dir = PathBuf::from(value()?),
            "--keep" => opts.keep = true,
            other => bail!(
                "unknown argument {other:?}; usage: ordo_fields --ordo PATH [--tournaments N] \
                 [--seed S] [--simulations N] [--ordo-ml] [--ordo-draw-rate PCT] [--ordo-scale ELO] \
                 [--work-dir DIR] [--keep]"
            ),
        }
    }
    opts.ordo = ordo.context("--ordo PATH (the Ordo binary) is required")?;
    ensure!(opts.tournaments > 0, "--tournaments must be at least 1");
    ensure!(
        opts.simulations > 1,
        "--simulations must be at least 2 (Ordo prints no errors otherwise)"
    );
    fs::create_dir_all(&opts.work_dir)
        .with_context(|| format!("creating {}", opts.work_dir.display()))?;

    let version = Command::new(&opts.ordo)
        .arg("-v")
        .output()
        .with_context(|| format!("running {} -v", opts.ordo.display()))?;
    println!(
        "Ordo: {} ({})",
        String::from_utf8_lossy(&version.stdout).trim(),
        opts.ordo.display()
    );
    println!(
        "Ordo's command per tournament: {} {}",
        opts.ordo.display(),
        ordo_args(
            &opts,
            Path::new("T.pgn"),
            Path::new("T.txt"),
            Path::new("T.csv")
        )
        .join(" ")
    );
    println!(
        "{} tournaments per field, seeds {}..={}, arena bootstrap {DEFAULT_BOOTSTRAP} samples (seed \
         {BOOTSTRAP_SEED})\n",
        opts.tournaments,
        opts.seed,
        opts.seed + opts.tournaments - 1
    );

    let mut summary = String::new();
    for step in STEPS {
        summary.push_str(&run_field(&opts, step)?);
    }
    println!("{summary}");
    if !opts.keep {
        fs::remove_dir_all(&opts.work_dir).ok();
    }
    Ok(())
}

/// Holds-the-truth count, intervals counted, summed finite widths and intervals with an infinite end.
#[derive(Clone, Copy, Default)]
struct Tally {
    held: u32,
    total: u32,
    width_sum: f64,
    widths: u32,
    open: u32,
}

impl Tally {
    fn add(&mut self, lo: f64, hi: f64, truth: f64) {
        self.held += u32::from(lo <= truth && truth <= hi);
        self.total += 1;
        if lo.is_finite() && hi.is_finite() {
            self.width_sum += hi - lo;
            self.widths += 1;
        } else {
            self.open += 1;
        }
    }
    fn share(&self) -> f64 {
        100.0 * f64::from(self.held) / f64::from(self.total)
    }
    fn width(&self) -> f64 {
        self.width_sum / f64::from(self.widths)
    }
}

/// One field: every tournament rated by the arena and by Ordo; returns the summary lines.
fn run_field(opts: &Options, step: f64) -> Result<String> {
    let truth: Vec<f64> = (0..BOTS).map(|i| (i as f64 - 2.5) * step).collect();
    let (mut arena_all, mut ordo_all) = (Tally::default(), Tally::default());
    let (mut arena_bot, mut ordo_bot) = ([Tally::default(); BOTS], [Tally::default(); BOTS]);
    let (mut arena_adv, mut ordo_adv) = (Tally::default(), Tally::default());
    let (mut point_diff, mut draw_rate_sum) = (0.0f64, 0.0f64);
    let (mut arena_adv_sum, mut ordo_adv_sum) = (0.0f64, 0.0f64);
    let started = Instant::now();
    for t in 0..opts.tournaments {
        let games = synthetic(&truth, ADV, DRAW, PER_PAIRING, opts.seed + t);
        let stem = opts
            .work_dir
            .join(format!("field{step}-t{}", opts.seed + t));
        let (pgn, txt, csv) = (
            stem.with_extension("pgn"),
            stem.with_extension("txt"),
            stem.with_extension("csv"),
        );
        write_pgn(&pgn, &games)?;
        // Ordo runs on one core while the arena's bootstrap runs here.
        let child = spawn_ordo(opts, &pgn, &txt, &csv)?;
        let r = fit(
            BOTS,
            &games,
            Anchor::Mean,
            DEFAULT_BOOTSTRAP,
            BOOTSTRAP_SEED,
        );
        let ordo = wait_ordo(child, &csv, &txt)?;
        for i in 0..BOTS {
            let (lo, hi) = r.interval95[i];
            arena_all.add(lo, hi, truth[i]);
            arena_bot[i].add(lo, hi, truth[i]);
            let (rating, error) = ordo.bots[i];
            ordo_all.add(rating - error, rating + error, truth[i]);
            ordo_bot[i].add(rating - error, rating + error, truth[i]);
            point_diff += (rating - r.elo[i]).abs();
        }
        let (lo, hi) = r.first_move_interval95;
        arena_adv.add(lo, hi, ADV);
        let (wa, wa_sd) = ordo.white_advantage;
        ordo_adv.add(wa - Z95 * wa_sd, wa + Z95 * wa_sd, ADV);
        draw_rate_sum += ordo.draw_rate;
        arena_adv_sum += r.first_move_elo;
        ordo_adv_sum += wa;
        if !opts.keep {
            for f in [&pgn, &txt, &csv] {
                fs::remove_file(f).ok();
            }
        }
        if (t + 1) % 50 == 0 || t + 1 == opts.tournaments {
            eprintln!(
                "field {step}: {} of {} tournaments, {:.0} s",
                t + 1,
                opts.tournaments,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let n = opts.tournaments as f64;
    let mut s = String::new();
    writeln!(
        s,
        "bots {step} Elo apart (true ratings {truth:?}), {} tournaments:",
        opts.tournaments
    )?;
    for (name, tally) in [("arena", &arena_all), ("Ordo ", &ordo_all)] {
        writeln!(
            s,
            "  {name}: {} of {} intervals hold the true rating ({:.1} %), mean width {:.1} Elo{}",
            tally.held,
            tally.total,
            tally.share(),
            tally.width(),
            if tally.open > 0 {
                format!(" ({} intervals with an infinite end left out)", tally.open)
            } else {
                String::new()
            }
        )?;
    }
    writeln!(
        s,
        "  the arena's mean width is {:.1} % of Ordo's",
        100.0 * arena_all.width() / ordo_all.width()
    )?;
    writeln!(
        s,
        "  per bot (true rating: arena held, width | Ordo held, width | arena/Ordo):"
    )?;
    for i in 0..BOTS {
        writeln!(
            s,
            "    {:+7.1}: {:5.1} % {:6.1} | {:5.1} % {:6.1} | {:5.1} %",
            truth[i],
            arena_bot[i].share(),
            arena_bot[i].width(),
            ordo_bot[i].share(),
            ordo_bot[i].width(),
            100.0 * arena_bot[i].width() / ordo_bot[i].width()
        )?;
    }
    writeln!(
        s,
        "  first-move advantage {ADV}: mean estimate arena {:.1}, Ordo {:.1}; the arena's interval \
         holds it in {} of {} ({:.1} %, mean width {:.1}), Ordo's ±1.96 SD in {} ({:.1} %, mean \
         width {:.1})",
        arena_adv_sum / n,
        ordo_adv_sum / n,
        arena_adv.held,
        arena_adv.total,
        arena_adv.share(),
        arena_adv.width(),
        ordo_adv.held,
        ordo_adv.share(),
        ordo_adv.width()
    )?;
    writeln!(
        s,
        "  mean |Ordo's rating − the arena's| {:.2} Elo; Ordo's mean fitted draw rate between equals \
         {:.2} %\n",
        point_diff / (n * BOTS as f64),
        100.0 * draw_rate_sum / n
    )?;
    Ok(s)
}

/// The games as PGN: the first mover is White, bot i is named `b<i>`.
fn write_pgn(path: &Path, games: &[RatedGame]) -> Result<()> {
    let mut pgn = String::with_capacity(games.len() * 64);
    for g in games {
        let result = if g.first_points == 1.0 {
            "1-0"
        } else if g.first_points == 0.0 {
            "0-1"
        } else {
            "1/2-1/2"
        };
        writeln!(
            pgn,
            "[White \"b{}\"]\n[Black \"b{}\"]\n[Result \"{result}\"]\n\n{result}\n",
            g.first, g.second
        )?;
    }
    fs::write(path, pgn).with_context(|| format!("writing {}", path.display()))
}

fn ordo_args(opts: &Options, pgn: &Path, txt: &Path, csv: &Path) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "-q".into(),
        "-p".into(),
        pgn.display().to_string(),
        "-a".into(),
        "0".into(),
        "-W".into(),
    ];
    match opts.draw_rate {
        Some(d) => args.extend(["-d".into(), format!("{d}")]),
        None => args.push("-D".into()),
    }
    if opts.ml {
        args.push("-M".into());
    }
    args.extend([
        "-s".into(),
        opts.simulations.to_string(),
        "-z".into(),
        format!("{:.6}", opts.scale),
        "-n".into(),
        "1".into(),
        "-N".into(),
        "3".into(),
        "-o".into(),
        txt.display().to_string(),
        "-c".into(),
        csv.display().to_string(),
    ]);
    args
}

fn spawn_ordo(opts: &Options, pgn: &Path, txt: &Path, csv: &Path) -> Result<Child> {
    Command::new(&opts.ordo)
        .args(ordo_args(opts, pgn, txt, csv))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("running {}", opts.ordo.display()))
}

/// What Ordo printed for one tournament.
struct OrdoOutput {
    /// (rating, error) of bot i, error = 1.96·SD of the simulations.
    bots: [(f64, f64); BOTS],
    /// White advantage and its SD over the simulations.
    white_advantage: (f64, f64),
    /// The fitted draw rate between equal opponents, as a fraction.
    draw_rate: f64,
}

fn wait_ordo(child: Child, csv: &Path, txt: &Path) -> Result<OrdoOutput> {
    let out = child.wait_with_output()?;
    ensure!(
        out.status.success(),
        "Ordo failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // CSV: "#","PLAYER","RATING","ERROR","POINTS","PLAYED","(%)"
    let table = fs::read_to_string(csv).with_context(|| format!("reading {}", csv.display()))?;
    let mut bots = [(f64::NAN, f64::NAN); BOTS];
    for line in table.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line
            .split(',')
            .map(|c| c.trim().trim_matches('"'))
            .collect();
        ensure!(cols.len() >= 4, "Ordo's CSV line {line:?}");
        let i: usize = cols[1]
            .strip_prefix('b')
            .and_then(|k| k.parse().ok())
            .with_context(|| format!("Ordo's CSV player in {line:?}"))?;
        ensure!(i < BOTS, "Ordo's CSV player in {line:?}");
        let rating: f64 = cols[2]
            .parse()
            .with_context(|| format!("Ordo's rating in {line:?}"))?;
        let error: f64 = cols[3]
            .parse()
            .with_context(|| format!("Ordo's error in {line:?}"))?;
        bots[i] = (rating, error);
    }
    ensure!(
        bots.iter().all(|(r, e)| r.is_finite() && e.is_finite()),
        "Ordo's CSV lacks a player: {table}"
    );
    // Text: "White advantage = 56.23 +/- 26.70", "Draw rate (equal opponents) = 12.86 % +/- 2.70".
    let text = fs::read_to_string(txt).with_context(|| format!("reading {}", txt.display()))?;
    let after = |key: &str| -> Result<Vec<f64>> {
        let line = text
            .lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .with_context(|| format!("no {key:?} in Ordo's output"))?;
        Ok(line
            .split(|c: char| c.is_whitespace() || c == '=' || c == '%' || c == '+' || c == '/')
            .filter_map(|w| w.parse().ok())
            .collect())
    };
    let wa = after("White advantage")?;
    let dr = after("Draw rate (equal opponents)")?;
    ensure!(
        wa.len() == 2 && !dr.is_empty(),
        "Ordo's white advantage or draw rate: {text}"
    );
    Ok(OrdoOutput {
        bots,
        white_advantage: (wa[0], wa[1]),
        draw_rate: dr[0] / 100.0,
    })
}
