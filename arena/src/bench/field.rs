//! `arena bench field`: how the arena's costs grow with the number of bots. Planning: reading and
//! validating a round-robin config of 10, 100 and 300 bots and building its whole schedule (300 bots:
//! 44,850 pairings, 89,700 games), and pairing Swiss rounds of 300 bots. Playing: games per second of
//! random tic-tac-toe bots in a round-robin of 10, 100 and 300 bots, each time the same number of games
//! (one shard of the schedule, so the whole schedule is still planned and checked), so a per-game cost
//! that grows with the field shows as falling games per second. Figures go in `docs/benchmarks.md`.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;

use crate::config::Config;
use crate::plan::Plan;
use crate::tournament::pairing::swiss::SwissState;
use crate::tournament::{self, RunOptions};

/// The config text of a round-robin of `n` random tic-tac-toe bots (`r[seed=1]`, …).
fn config_text(name: &str, n: usize, concurrency: usize) -> String {
    let seeds: Vec<String> = (1..=n).map(|s| format!("{{ seed = {s} }}")).collect();
    format!(
        "name = \"{name}\"\nseed = 1\nconcurrency = {concurrency}\n[game]\nname = \"tictactoe\"\n\
         [time_control]\ntime_ms = 60000\n[[bots]]\nname = \"r\"\nbuiltin = \"random\"\nsweep = [{}]\n",
        seeds.join(", ")
    )
}

/// Prints the planning table, then plays `games` games per field size at `concurrency` and prints the
/// throughput table (Markdown). `sizes`: the field sizes, e.g. 10, 100, 300.
///
/// # Errors
/// A config that does not plan, a tournament that cannot run.
pub async fn run(
    exe: &Path,
    tmp: &Path,
    games: usize,
    concurrency: usize,
    sizes: &[usize],
) -> Result<()> {
    std::fs::create_dir_all(tmp)?;
    crate::outln!("| planning | bots | figure |");
    crate::outln!("|---|---|---|");
    for &n in sizes {
        let text = config_text("plan", n, 1);
        let path = tmp.join("plan.toml");
        let mut best = f64::INFINITY;
        let mut scheduled = 0;
        for _ in 0..5 {
            let start = Instant::now();
            let config = Config::parse(&text, &path)?;
            let plan = Plan::new(&config, &path, exe)?;
            scheduled = crate::plan::schedule::schedule(&plan).len();
            best = best.min(start.elapsed().as_secs_f64());
        }
        crate::outln!(
            "| round-robin config → plan → schedule ({scheduled} games), best of 5 | {n} | {:.1} ms |",
            best * 1e3
        );
    }
    // Swiss rounds of 300 bots with drawn results (a higher index wins more often).
    let n = 300;
    let rounds = 10;
    let mut state = SwissState::new(n, 1);
    let start = Instant::now();
    let mut rematches = 0;
    for r in 0..rounds {
        let p = state.pair_next();
        rematches += p.rematches;
        let results: Vec<(u32, u32)> = p
            .pairs
            .iter()
            .enumerate()
            .map(|(k, &(a, b))| match (a + b + k + r) % 5 {
                0 => (2, 2),
                1 | 2 => {
                    if a > b {
                        (4, 0)
                    } else {
                        (0, 4)
                    }
                }
                _ => {
                    if a > b {
                        (0, 4)
                    } else {
                        (4, 0)
                    }
                }
            })
            .collect();
        state.add_round(&p, &results, 4);
    }
    crate::outln!(
        "| Swiss pairing, {rounds} rounds, mean per round ({rematches} rematches) | {n} | {:.1} ms |",
        start.elapsed().as_secs_f64() * 1e3 / rounds as f64
    );

    crate::outln!();
    crate::outln!(
        "| playing: round-robin of random tic-tac-toe bots, concurrency {concurrency} | bots | games | \
         run, s | of which the final report, s | games/s without the report |"
    );
    crate::outln!("|---|---|---|---|---|---|");
    for &n in sizes {
        let name = format!("field{n}");
        let text = config_text(&name, n, concurrency);
        let path = tmp.join(format!("{name}.toml"));
        std::fs::write(&path, &text)?;
        let config = Config::parse(&text, &path)?;
        let plan = Plan::new(&config, &path, exe)?;
        let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
        // One shard of about `games` games: whole game pairs, spread over the schedule.
        let pairs = n * (n - 1) / 2;
        let count = (pairs / games.div_ceil(2).max(1)).max(1);
        let shard = format!("1/{count}").parse().map_err(anyhow::Error::msg)?;
        let opts = RunOptions {
            results_root: tmp.to_owned(),
            fresh: true,
            quiet: true,
            shard: Some(shard),
            ..RunOptions::default()
        };
        let start = Instant::now();
        let summary = tournament::run(Arc::new(plan), &opts).await?;
        let secs = start.elapsed().as_secs_f64();
        // The run ends with the report (standings, Elo with bootstrap intervals, LOS): timed again
        // alone, the same computation on the same games, to tell it from the games' own cost.
        let records = crate::results::read_games_csv(&summary.dir.join("games.csv"))?;
        let start = Instant::now();
        crate::report::Report::new(&names, &records, &crate::report::ReportOptions::default())?;
        let report = start.elapsed().as_secs_f64();
        crate::outln!(
            "| planned {} games, played one shard of 1/{count} | {n} | {} | {secs:.1} | {report:.1} | {:.1} |",
            n * (n - 1),
            summary.played,
            summary.played as f64 / (secs - report).max(1e-9)
        );
    }
    Ok(())
}
