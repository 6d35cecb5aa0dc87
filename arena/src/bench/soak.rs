//! `arena bench soak`: a long tournament of random bots, with the arena's own open file descriptors,
//! resident memory and processes sampled while it runs (at the start, the middle and the end, and the
//! largest values seen), so leaks of any of them show as growth. Figures go in `docs/reliability.md`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::config::Config;
use crate::plan::Plan;
use crate::tournament::{self, RunOptions};

/// One reading of the arena's resources.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// Games recorded so far.
    pub games: usize,
    /// Open file descriptors of the arena (`/proc/self/fd`).
    pub fds: usize,
    /// Resident memory of the arena, KiB (`VmRSS`).
    pub rss_kib: u64,
    /// Live processes descended from the arena (its bots and theirs), zombies included.
    pub descendants: usize,
    /// Zombies among them.
    pub zombies: usize,
}

/// Reads the arena's resources now; `games` is passed through.
pub fn sample(games: usize) -> Sample {
    let fds = std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count());
    let rss_kib = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0);
    let me = std::process::id() as i32;
    let procs = crate::sandbox::reaper::snapshot();
    let mut mine: std::collections::HashSet<i32> = std::collections::HashSet::from([me]);
    // Parents come before children often but not always: iterate to a fixed point.
    loop {
        let before = mine.len();
        for p in &procs {
            if mine.contains(&p.ppid) {
                mine.insert(p.pid);
            }
        }
        if mine.len() == before {
            break;
        }
    }
    let desc: Vec<_> = procs
        .iter()
        .filter(|p| p.pid != me && mine.contains(&p.pid))
        .collect();
    Sample {
        games,
        fds,
        rss_kib,
        descendants: desc.len(),
        zombies: desc.iter().filter(|p| p.state == 'Z').count(),
    }
}

/// Plays `games` games of Connect Four between two random bots at `concurrency`, sampling every
/// 200 ms, and prints the samples at the start, at 10 %, 50 % and 90 % of the games, at the end, and the
/// largest values.
///
/// # Errors
/// A tournament that cannot run.
pub async fn run(exe: &Path, tmp: &Path, games: usize, concurrency: usize) -> Result<()> {
    let text = format!(
        "name = \"soak\"\ngames_per_pair = {}\nseed = 1\nconcurrency = {concurrency}\n[game]\nname = \"connect4\"\n\
         [time_control]\ntime_ms = 60000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        games.div_ceil(2).max(1) * 2
    );
    let path = tmp.join("soak.toml");
    std::fs::create_dir_all(tmp)?;
    std::fs::write(&path, &text)?;
    let config = Config::parse(&text, &path)?;
    let plan = Plan::new(&config, &path, exe)?;
    let opts = RunOptions {
        results_root: tmp.to_owned(),
        fresh: true,
        quiet: true,
        ..RunOptions::default()
    };
    let csv = tmp.join("soak").join("games.csv");
    let recorded =
        || std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count().saturating_sub(1));
    let start = sample(0);
    let started = Instant::now();
    let run = tournament::run(Arc::new(plan), &opts);
    tokio::pin!(run);
    let mut samples = vec![start];
    let summary = loop {
        tokio::select! {
            done = &mut run => break done?,
            _ = tokio::time::sleep(Duration::from_millis(200)) => samples.push(sample(recorded())),
        }
    };
    let end = sample(summary.recorded);
    let total = summary.recorded;
    let at = |share: usize| {
        samples
            .iter()
            .copied()
            .min_by_key(|s| s.games.abs_diff(total * share / 100))
            .unwrap_or(start)
    };
    let max = |f: fn(&Sample) -> u64| samples.iter().map(f).max().unwrap_or(0);
    crate::outln!(
        "{total} games of random vs random Connect Four at concurrency {concurrency} in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    crate::outln!(
        "| when | games recorded | open fds | RSS | processes under the arena (zombies) |"
    );
    crate::outln!("|---|---|---|---|---|");
    let rows = [
        ("start".to_string(), start),
        ("10 %".to_string(), at(10)),
        ("middle".to_string(), at(50)),
        ("90 %".to_string(), at(90)),
        ("end".to_string(), end),
    ];
    for (label, s) in rows {
        crate::outln!(
            "| {label} | {} | {} | {:.1} MiB | {} ({}) |",
            s.games,
            s.fds,
            s.rss_kib as f64 / 1024.0,
            s.descendants,
            s.zombies
        );
    }
    crate::outln!(
        "| largest of {} samples | | {} | {:.1} MiB | {} ({}) |",
        samples.len(),
        max(|s| s.fds as u64),
        max(|s| s.rss_kib) as f64 / 1024.0,
        max(|s| s.descendants as u64),
        max(|s| s.zombies as u64)
    );
    Ok(())
}
