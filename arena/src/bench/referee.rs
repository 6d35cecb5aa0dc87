//! `arena bench referee [CONFIG]`: what a referee program costs a move (`docs/referees.md`), for
//! `docs/benchmarks.md`. Seeded random games through the config's referee, each `play` (one round
//! trip: the command written, the referee's answer read by the reader thread, parsed and the state
//! kept) and each `legal` timed, next to a bare round trip to a Python process that answers every line
//! at once (blocking `read_line` on the same thread: the floor that pipes and the interpreter set). The
//! difference between the two is the arena's own cost a move.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use games::module::{ModuleGame, ModuleVariant};
use games::Game;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays `games` seeded random games through the referee of `config` (a config with `[game]
/// referee`) and times `round_trips` bare round trips; prints a Markdown table.
///
/// # Errors
/// A config without a referee, a referee that cannot be started or faults, no `python3`.
pub fn run(config: &Path, games: usize, round_trips: usize) -> Result<()> {
    let (loaded, words) =
        crate::referee_programs::of_config_file(config).map_err(anyhow::Error::msg)?;
    let label = loaded.label.clone();
    let variant = ModuleVariant::new(loaded, &words).map_err(anyhow::Error::msg)?;

    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut plays, mut play_time, mut legals, mut legal_time) =
        (0u32, Duration::ZERO, 0u32, Duration::ZERO);
    let t = Instant::now();
    for _ in 0..games {
        let mut pos = ModuleGame::start(variant);
        while pos.outcome().is_none() {
            let l = Instant::now();
            let moves = pos.legal_moves();
            legal_time += l.elapsed();
            legals += 1;
            let m = *moves
                .choose(&mut rng)
                .context("no legal move in a game on")?;
            let p = Instant::now();
            pos.play(m).map_err(|e| anyhow::anyhow!("{e}"))?;
            play_time += p.elapsed();
            plays += 1;
        }
        if let Some(f) = pos.fault() {
            anyhow::bail!("{f}");
        }
    }
    let total = t.elapsed();
    let bare = bare_round_trip(round_trips)?;
    let per = |d: Duration, n: u32| d.as_secs_f64() * 1e6 / f64::from(n.max(1));
    let play_us = per(play_time, plays);
    crate::outln!(
        "referee {label}, variant {:?}: {games} random games, {plays} moves in {:.2} s",
        variant.words(),
        total.as_secs_f64()
    );
    crate::outln!("| measurement | figure |");
    crate::outln!("|---|---|");
    crate::outln!(
        "| a move through the referee (`play` → `@ref ok STATE`, parsed) | {play_us:.1} µs |"
    );
    crate::outln!(
        "| the legal moves through the referee (`legal` → `@ref legal …`) | {:.1} µs |",
        per(legal_time, legals)
    );
    crate::outln!(
        "| bare round trip to `python3` answering each line (std, blocking, same thread) | {bare:.1} µs |"
    );
    crate::outln!(
        "| the arena's own cost a move (the first less the bare round trip) | {:.1} µs |",
        play_us - bare
    );
    Ok(())
}

/// The mean time, µs, of `n` round trips to a Python process that answers every line with one line.
fn bare_round_trip(n: usize) -> Result<f64> {
    let mut python = Command::new("python3");
    python.args([
        "-c",
        "import sys\nfor line in sys.stdin:\n    sys.stdout.write('@ref ok next 0\\n')\n    sys.stdout.flush()\n",
    ]);
    let mean = super::pipe_round_trip(&mut python, "play h8", |l| l.starts_with("@ref ok"), n)
        .context("python3")?;
    Ok(mean.as_secs_f64() * 1e6)
}
