//! `arena bench`: tournament throughput of random bots and the arena's cost per message round trip,
//! next to a bare pipe round trip to the same bot measured in the same run. Figures go in
//! `docs/benchmarks.md`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::config::Config;
use crate::game::process::{BotProcess, Transcript};
use crate::plan::{Launch, Plan};
use crate::protocol::ugi;
use crate::tournament::{self, RunOptions};

pub mod containment;
pub mod field;
pub mod referee;
#[cfg(feature = "server")]
pub mod serve;
pub mod soak;

/// Runs every measurement and prints a Markdown table: `games` games per tournament, `round_trips`
/// `isready`/`readyok` exchanges per round-trip figure.
///
/// # Errors
/// A bot that cannot be started or a results folder that cannot be written.
pub async fn run(games: usize, round_trips: usize) -> Result<()> {
    let exe = std::env::current_exe().context("finding the arena executable")?;
    let bare = bare_round_trip(&exe, round_trips)?;
    let ours = arena_round_trip(&exe, round_trips).await?;
    crate::outln!("| measurement | figure |");
    crate::outln!("|---|---|");
    crate::outln!("| bare pipe round trip (std, blocking), `isready`→`readyok` to `arena bot random` | {:.1} µs |", micros(bare));
    crate::outln!(
        "| arena round trip (BotProcess: tokio, deadline, transcript), same exchange | {:.1} µs |",
        micros(ours)
    );
    crate::outln!(
        "| arena ÷ bare | {:.2}× |",
        ours.as_secs_f64() / bare.as_secs_f64()
    );

    let tmp = std::env::temp_dir().join(format!("arena-bench-{}", std::process::id()));
    let cases = [
        ("tictactoe 3×3", "name = \"tictactoe\"", 2),
        ("connect4 7×6", "name = \"connect4\"", 2),
        ("connect4 7×6", "name = \"connect4\"", 1),
        (
            "dots 20×20 cross",
            "name = \"dots\"\nwidth = 20\nheight = 20",
            2,
        ),
    ];
    for (label, game_table, concurrency) in cases {
        let (secs, plies, played) =
            tournament_throughput(&exe, &tmp, game_table, games, concurrency).await?;
        crate::outln!(
            "| {label}: random vs random, concurrency {concurrency} | {:.1} games/s, {:.0} plies/s, {:.1} µs wall per ply |",
            played as f64 / secs,
            plies as f64 / secs,
            1e6 * secs / plies as f64
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Mean time of one `isready`→`readyok` exchange over plain blocking pipes.
fn bare_round_trip(exe: &Path, n: usize) -> Result<Duration> {
    let mut bot = Command::new(exe);
    bot.args(["bot", "random"]);
    pipe_round_trip(
        &mut bot,
        ugi::ISREADY,
        |line| ugi::BotLine::read(line) == ugi::BotLine::ReadyOk,
        n,
    )
    .context("arena bot random")
}

/// The mean time of `n` exchanges with the process `cmd` starts (after `n / 10` unmeasured, so that
/// its start is not counted): `request` written and flushed, one line read back, which `answered`
/// must accept. Blocking std pipes on one thread: the floor of a round trip.
///
/// # Errors
/// The process cannot be started, or answers otherwise.
pub(crate) fn pipe_round_trip(
    cmd: &mut Command,
    request: &str,
    answered: impl Fn(&str) -> bool,
    n: usize,
) -> Result<Duration> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("starting the process")?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().context("stdout")?);
    let mut line = String::new();
    // Built once: the loop measures the pipe, not the formatting.
    let request = format!("{request}\n");
    let mut exchange = |stdin: &mut std::process::ChildStdin| -> Result<()> {
        stdin.write_all(request.as_bytes())?;
        stdin.flush()?;
        line.clear();
        stdout.read_line(&mut line)?;
        anyhow::ensure!(answered(&line), "unexpected {line:?}");
        Ok(())
    };
    for _ in 0..n / 10 {
        exchange(&mut stdin)?;
    }
    let start = Instant::now();
    for _ in 0..n {
        exchange(&mut stdin)?;
    }
    let mean = start.elapsed() / n.max(1) as u32;
    drop(stdin);
    let _ = child.wait();
    Ok(mean)
}

/// Mean time of the same exchange through [`BotProcess`], the arena's own path.
async fn arena_round_trip(exe: &Path, n: usize) -> Result<Duration> {
    let launch = Launch {
        program: exe.to_owned(),
        args: vec!["bot".into(), "random".into()],
        dir: None,
    };
    let containment = crate::sandbox::Containment::bare();
    let jail = crate::sandbox::Jail::none(&containment);
    let mut bot = BotProcess::spawn("random", &launch, None, Transcript::new(), jail)
        .context("starting arena bot random")?;
    let far = || Instant::now() + Duration::from_secs(10);
    for _ in 0..n / 10 {
        bot.send(ugi::ISREADY, far()).await?;
        bot.read_line(far()).await?;
    }
    let start = Instant::now();
    for _ in 0..n {
        bot.send(ugi::ISREADY, far()).await?;
        let line = bot.read_line(far()).await?;
        anyhow::ensure!(
            ugi::BotLine::read(&line) == ugi::BotLine::ReadyOk,
            "unexpected {line:?}"
        );
    }
    let mean = start.elapsed() / n as u32;
    bot.shutdown(Some(ugi::QUIT), Duration::from_millis(500))
        .await;
    Ok(mean)
}

/// Plays `games` games between two random bots on the `[game]` table `game_table`; returns (seconds, plies, games played).
async fn tournament_throughput(
    exe: &Path,
    tmp: &Path,
    game_table: &str,
    games: usize,
    concurrency: usize,
) -> Result<(f64, u64, usize)> {
    throughput_with(exe, tmp, game_table, games, concurrency, Setup::default()).await
}

/// How a throughput run differs from the plain one: top-level config keys, the containment layers, and
/// whether the random bots are given as executables.
#[derive(Default)]
struct Setup<'a> {
    /// Top-level config keys (`suspend_idle = false`, `[limits]` …).
    extra: &'a str,
    /// The containment layers (`None`: probed).
    containment: Option<Arc<crate::sandbox::Containment>>,
    /// Give the random bot as `command = <arena>` with `args = ["bot", "random"]` (isolated by default)
    /// rather than as `builtin = "random"`.
    as_command: bool,
}

/// [`tournament_throughput`] with `extra` top-level config keys (`suspend_idle = false`, `[limits]`
/// lines go last, so give them as a table) and the given containment layers (`None`: probed).
async fn throughput_with(
    exe: &Path,
    tmp: &Path,
    game_table: &str,
    games: usize,
    concurrency: usize,
    setup: Setup<'_>,
) -> Result<(f64, u64, usize)> {
    let Setup {
        extra,
        containment,
        as_command,
    } = setup;
    let pairs = games.div_ceil(2).max(1);
    // The same random player, as a built-in bot or as an executable given by its path (which the
    // default config isolates).
    let bot = if as_command {
        format!(
            "command = {:?}\nargs = [\"bot\", \"random\"]",
            exe.display().to_string()
        )
    } else {
        "builtin = \"random\"".to_string()
    };
    let text = format!(
        "name = \"bench\"\ngames_per_pair = {}\nseed = 1\nconcurrency = {concurrency}\n{extra}\n[game]\n{game_table}\n[time_control]\ntime_ms = 60000\n\
         [[bots]]\nname = \"a\"\n{bot}\n[[bots]]\nname = \"b\"\n{bot}\n",
        pairs * 2
    );
    let path = PathBuf::from("bench.toml");
    let config = Config::parse(&text, &path)?;
    let plan = Plan::new(&config, &path, exe)?;
    let opts = RunOptions {
        results_root: tmp.to_owned(),
        fresh: true,
        quiet: true,
        containment,
        // No file behind `bench.toml`: the run records the text itself.
        derived_config: Some(text.clone()),
        ..RunOptions::default()
    };
    let start = Instant::now();
    let summary = tournament::run(Arc::new(plan), &opts).await?;
    let secs = start.elapsed().as_secs_f64();
    let records = crate::results::read_games_csv(&summary.dir.join("games.csv"))?;
    let plies = records.iter().map(|r| r.plies as u64).sum();
    Ok((secs, plies, summary.played))
}
