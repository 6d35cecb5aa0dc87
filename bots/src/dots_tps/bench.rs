//! `dots-tps --bench`: the article's table on our tactical suite.
//!
//! Source: seed `000_71d76f5b75d0c15c.txt`, the table of "Динамическое отсечение траекторий": one
//! position, depth 3 full moves, four rows (all moves of the play range; useful moves only; plus
//! heuristic 1; plus heuristics 1 and 2) with the nodes searched, the time and whether the right
//! move was found (its hardest mode: 65,409 nodes, 11 s on a Celeron 400 MHz). We run every
//! position of [`super::tactics`] at depth 3 in each mode and print one row per mode with the sums.
//! The row of mode `all` is capped at [`ALL_MOVES_NODE_CAP`] nodes per position.
//!
//! Two tables: the engine as it plays (alpha-beta in the tree), and the article's plain minimax
//! (option `alphabeta` off), where every mode is capped at [`MINIMAX_NODE_CAP`] nodes per position.

use std::io::{self, Write};
use std::time::Instant;

use games::dots::Start;
use games::{Dots, Player};

use super::patterns::{Grid, PatternTable};
use super::tactics::{suite, Tactic};
use super::trajectories::{simulate_with, Range, Simulation};
use super::{think, Budget, Config, Control, Decision, Prune};

/// The node cap per position of the mode `all` (tree and simulations together).
pub const ALL_MOVES_NODE_CAP: u64 = 5_000_000;

/// The node cap per position of every mode of the plain-minimax table.
pub const MINIMAX_NODE_CAP: u64 = 2_000_000;

/// The benchmark's depth, full moves (the article's table).
pub const BENCH_DEPTH: u32 = 3;

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The pruning mode.
    pub mode: Prune,
    /// Tree nodes, all positions.
    pub nodes: u64,
    /// Simulation nodes, all positions.
    pub sim_nodes: u64,
    /// Time, µs, all positions.
    pub time_us: u64,
    /// Positions answered right.
    pub right: usize,
    /// Positions.
    pub positions: usize,
    /// Positions stopped by the node cap.
    pub capped: usize,
}

/// Searches `t` at `depth` full moves in `mode` (everything else as `cfg`), at most `cap` nodes.
pub fn run_one(
    t: &Tactic,
    cfg: &Config,
    table: &PatternTable,
    mode: Prune,
    depth: u32,
    cap: Option<u64>,
) -> Decision {
    let cfg = Config {
        prune: mode,
        ..cfg.clone()
    };
    let budget = Budget {
        depth,
        nodes: cap,
        time_ms: None,
        soft_ms: None,
        iterative: false,
        start: None,
    };
    think(&t.pos, &cfg, table, &budget, &mut |_| {})
}

/// The cap of `mode` per position, nodes: [`ALL_MOVES_NODE_CAP`] for `all` with alpha-beta,
/// [`MINIMAX_NODE_CAP`] for every mode without.
pub fn cap(mode: Prune, alphabeta: bool) -> Option<u64> {
    if !alphabeta {
        Some(MINIMAX_NODE_CAP)
    } else {
        (mode == Prune::All).then_some(ALL_MOVES_NODE_CAP)
    }
}

/// The four rows for `tactics` at `depth` full moves, with or without alpha-beta; `detail` gets one
/// line per position and mode (the decision and the time in µs).
pub fn rows(
    tactics: &[Tactic],
    depth: u32,
    alphabeta: bool,
    detail: &mut dyn FnMut(&Tactic, Prune, &Decision, u64),
) -> Vec<Row> {
    let cfg = Config {
        alphabeta,
        ..Config::article()
    };
    let table = PatternTable::default();
    Prune::ALL
        .iter()
        .map(|&mode| {
            let mut row = Row {
                mode,
                nodes: 0,
                sim_nodes: 0,
                time_us: 0,
                right: 0,
                positions: tactics.len(),
                capped: 0,
            };
            for t in tactics {
                let start = Instant::now();
                let d = run_one(t, &cfg, &table, mode, depth, cap(mode, alphabeta));
                let us = start.elapsed().as_micros() as u64;
                row.nodes += d.nodes;
                row.sim_nodes += d.sim_nodes;
                row.time_us += us;
                row.capped += usize::from(d.stopped);
                row.right += usize::from(d.best.is_some_and(|b| t.bench_answers.contains(&b)));
                detail(t, mode, &d, us);
            }
            row
        })
        .collect()
}

/// Prints the two tables (and, with `verbose`, one line per position and mode) to `out`.
///
/// # Errors
/// I/O errors only.
pub fn run(mut out: impl Write, verbose: bool) -> io::Result<()> {
    let tactics = suite();
    for alphabeta in [true, false] {
        table(&mut out, &tactics, alphabeta, verbose)?;
        writeln!(out)?;
    }
    writeln!(
        out,
        "(the article, one position, depth 3, Celeron 400 MHz: all moves 216,360,144,000 nodes ~1700 h; \
         useful 9,532,753 4:30; + heuristic 1 102,475 0:20; + heuristics 1 and 2 65,409 0:11)"
    )?;
    out.flush()
}

fn table(
    out: &mut impl Write,
    tactics: &[Tactic],
    alphabeta: bool,
    verbose: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "dots-tps bench: {} tactical positions, depth {BENCH_DEPTH} full moves, {}",
        tactics.len(),
        if alphabeta {
            "alpha-beta (as the engine plays)"
        } else {
            "plain minimax (the article's search)"
        }
    )?;
    let mut lines = Vec::new();
    let rows = rows(tactics, BENCH_DEPTH, alphabeta, &mut |t, mode, d, us| {
        lines.push(format!(
            "  {:<24} {:<6} {:>10} nodes {:>8} sim {:>9} us  {:<7} {}{}",
            t.name,
            mode.name(),
            d.nodes,
            d.sim_nodes,
            us,
            d.best.map_or("-".into(), |m| m.to_string()),
            if d.best.is_some_and(|b| t.bench_answers.contains(&b)) {
                "right"
            } else {
                "WRONG"
            },
            if d.stopped { " (capped)" } else { "" },
        ))
    });
    if verbose {
        for l in &lines {
            writeln!(out, "{l}")?;
        }
    }
    writeln!(
        out,
        "{:<40} {:>12} {:>12} {:>10} {:>8}",
        "mode", "tree nodes", "sim nodes", "time ms", "right"
    )?;
    for r in &rows {
        let label = match r.mode {
            Prune::All => "all moves in the play range",
            Prune::Useful => "useful moves only",
            Prune::H1 => "useful + heuristic 1",
            Prune::H12 => "useful + heuristics 1 and 2",
        };
        let capped = if r.capped > 0 {
            format!(
                "  ({} of {} capped at {} nodes)",
                r.capped,
                r.positions,
                cap(r.mode, alphabeta).unwrap_or(0)
            )
        } else {
            String::new()
        };
        writeln!(
            out,
            "{:<40} {:>12} {:>12} {:>10.1} {:>4}/{:<3}{capped}",
            label,
            r.nodes,
            r.sim_nodes,
            r.time_us as f64 / 1000.0,
            r.right,
            r.positions
        )?;
    }
    Ok(())
}

/// A real game on 20×20 from the cross (oppai-rs Minimax against dots-tps at 20 s + 200 ms, game
/// g0001 of the issue-28 sparring screen, 379 plies, 143:0): the positions of [`simulations`].
pub const REAL_GAME: &str = "7-1 6-6 11-9 10-9 10-8 8-6 9-7 8-9 9-10 9-9 9-11 8-10 8-11 8-7 8-8 9-8 10-7 7-8 11-12 12-11 \
     12-12 6-10 7-10 7-11 7-12 7-9 6-12 10-6 9-6 9-5 8-5 11-8 11-7 12-8 10-5 11-6 9-4 12-9 12-6 11-5 \
     12-4 12-7 12-5 12-10 11-3 5-6 10-4 7-6 7-5 6-5 6-4 7-4 7-3 5-10 8-4 13-8 13-7 6-11 5-12 13-5 \
     13-6 4-6 14-5 13-4 14-3 4-8 13-3 12-3 14-4 12-2 11-2 5-11 4-12 4-11 3-12 13-2 12-1 3-11 2-12 \
     2-11 1-11 14-2 15-2 13-1 14-1 6-7 14-8 13-10 14-9 14-10 15-10 4-5 5-4 4-4 4-3 7-2 6-2 8-1 8-2 \
     13-9 5-3 7-13 8-12 11-13 10-12 12-13 13-12 13-13 14-13 10-13 9-13 15-8 14-7 3-8 14-11 3-7 15-9 \
     14-12 15-12 9-2 16-8 10-2 15-7 8-3 9-3 13-11 7-14 8-13 8-14 9-14 6-13 5-7 10-14 9-15 13-14 11-14 \
     10-15 11-15 10-16 9-16 11-16 12-15 13-16 13-15 14-15 14-14 15-14 15-13 12-16 16-13 9-17 8-16 \
     8-17 7-16 6-17 7-17 7-18 16-14 7-15 16-12 5-16 4-14 6-14 5-14 6-15 5-9 3-15 4-16 4-15 2-13 2-14 \
     1-13 4-13 3-13 3-14 16-11 3-17 16-10 4-17 5-5 3-16 16-9 17-8 17-9 18-9 1-12 11-1 17-12 16-15 \
     10-1 9-1 10-3 18-10 15-16 15-15 6-8 17-16 14-16 18-13 18-12 19-12 18-11 19-11 17-14 18-14 15-11 \
     17-15 16-16 17-17 16-17 16-18 1-14 14-17 15-17 15-18 15-6 16-6 14-6 15-5 11-17 11-18 10-17 12-17 \
     10-18 10-19 9-18 9-19 8-18 8-19 17-7 18-6 16-7 18-7 17-6 17-5 3-10 2-10 3-9 2-9 2-8 1-8 13-18 \
     13-19 13-17 12-18 14-18 14-19 16-4 17-3 16-5 17-4 15-4 16-2 19-9 19-8 18-8 20-9 19-10 20-10 \
     19-14 19-15 18-15 18-16 19-13 20-12 20-13 20-14 5-18 4-19 5-17 5-19 4-18 3-18 6-18 6-20 6-19 \
     7-19 3-5 3-4 11-20 12-20 12-19 11-19 10-20 9-20 19-6 19-5 18-5 20-6 19-7 20-7 18-4 19-3 18-3 \
     18-2 19-4 20-4 16-19 15-20 15-19 16-20 17-19 18-18 17-18 18-19 18-17 17-20 19-17 20-16 19-16 \
     20-15 19-18 20-17 19-19 19-20 18-20 2-4 20-18 2-6 3-6 2-5 2-7 1-7 17-1 18-1 5-1 4-2 17-2 16-1 \
     5-2 4-1 2-19 3-20 3-19 4-20 6-3 1-15 2-15 2-16 15-1 20-20 2-18 1-17 2-17 1-18 1-16 2-20 20-19 \
     1-19 1-3 2-3 2-1 3-2 20-2 19-2 1-4 1-5 3-1 2-2 6-1 1-2 20-3 20-1 19-1 1-1 13-20 14-20 1-10 1-9 \
     20-5 7-20 20-8 1-20 8-20 1-6 20-11 5-20 9-12 3-3";

/// The plies of [`REAL_GAME`] whose positions [`simulations`] measures.
pub const REAL_PLIES: [usize; 14] = [
    20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 280,
];

/// The node cap of one plain simulation in [`simulations`] (positions).
pub const PLAIN_SIM_CAP: u64 = 20_000_000;

/// The point sets of `sim`'s trajectories, sorted (the fast enumeration for n = 3 finds them in
/// another order).
fn sorted_sets(sim: &Simulation) -> Vec<Vec<games::dots::Move>> {
    let mut v: Vec<_> = sim.trajectories.iter().map(|t| t.points.clone()).collect();
    v.sort();
    v
}

/// `dots-tps --sims [--verbose]`: the cost of the one-sided simulations (both players, the play
/// range of margin 2, as the engine's root) for trajectories of `n` = 3, 4 and 5 points, with the
/// fast enumerations and with the plain one (every set of at most n candidates, capped at
/// [`PLAIN_SIM_CAP`] positions per simulation), on the tactical suite and on the positions of
/// [`REAL_GAME`] at [`REAL_PLIES`]. Prints, per n and way, the simulated positions (the counter
/// `sim_nodes`), the time (ms, all positions and the slowest one) and whether the trajectories (as sets)
/// and gains of both ways agree (among the positions where the plain way was not capped); with `verbose`, one line per position.
///
/// # Errors
/// I/O errors only.
pub fn simulations(mut out: impl Write, verbose: bool) -> io::Result<()> {
    let moves: Vec<&str> = REAL_GAME.split_whitespace().collect();
    let mut positions: Vec<(String, Dots)> = suite()
        .into_iter()
        .map(|t| (format!("tactic {}", t.name), t.pos))
        .collect();
    for &ply in &REAL_PLIES {
        let pos = Dots::from_moves(20, 20, Start::Cross, &moves[..ply].join(" "))
            .expect("REAL_GAME replays");
        positions.push((format!("real ply {ply}"), pos));
    }
    writeln!(
        out,
        "dots-tps sims: one-sided simulations of both players, {} positions ({} tactical, {} of a real 20x20 game)",
        positions.len(),
        positions.len() - REAL_PLIES.len(),
        REAL_PLIES.len()
    )?;
    writeln!(
        out,
        "{:<4} {:<6} {:>14} {:>10} {:>12} {:>12} {:>12}",
        "n", "way", "positions", "time ms", "slowest ms", "real mean ms", "agree"
    )?;
    for n in [3u32, 4, 5] {
        let mut results = Vec::new();
        for fast in [true, false] {
            let (mut nodes, mut us, mut slowest, mut real_us, mut capped) =
                (0u64, 0u64, 0u64, 0u64, 0);
            let mut sims = Vec::new();
            for (name, pos) in &positions {
                let mut pos = pos.clone();
                let range = Range::of(&pos, 2);
                let pts = range.legal_points(&pos);
                let grid = Grid::new(&pos);
                let start = Instant::now();
                let mut here = 0;
                let mut pair = Vec::new();
                for p in [Player::First, Player::Second] {
                    let cap = (!fast).then_some(PLAIN_SIM_CAP);
                    let mut ctl = Control::new(cap, None);
                    let sim = simulate_with(&mut pos, &grid, &pts, p, n, &mut ctl, fast);
                    here += ctl.sim_nodes;
                    capped += usize::from(!sim.complete);
                    pair.push(sim);
                }
                let t = start.elapsed().as_micros() as u64;
                nodes += here;
                us += t;
                slowest = slowest.max(t);
                if name.starts_with("real") {
                    real_us += t;
                }
                if verbose {
                    writeln!(
                        out,
                        "  n {n} {:<5} {name:<28} {here:>10} positions {:>9.1} ms, trajectories {}+{}, gains {}/{}",
                        if fast { "fast" } else { "plain" },
                        t as f64 / 1000.0,
                        pair[0].trajectories.len(),
                        pair[1].trajectories.len(),
                        pair[0].gain,
                        pair[1].gain
                    )?;
                }
                sims.push(pair);
            }
            results.push((fast, nodes, us, slowest, real_us, capped, sims));
        }
        let agree = results[0]
            .6
            .iter()
            .zip(&results[1].6)
            .filter(|(f, p)| {
                p.iter().all(|s| s.complete)
                    && f.iter()
                        .zip(p.iter())
                        .all(|(a, b)| a.gain == b.gain && sorted_sets(a) == sorted_sets(b))
            })
            .count();
        let comparable = results[1]
            .6
            .iter()
            .filter(|p| p.iter().all(|s| s.complete))
            .count();
        for (fast, nodes, us, slowest, real_us, capped, _) in &results {
            writeln!(
                out,
                "{n:<4} {:<6} {nodes:>14} {:>10.1} {:>12.1} {:>12.1} {:>12}{}",
                if *fast { "fast" } else { "plain" },
                *us as f64 / 1000.0,
                *slowest as f64 / 1000.0,
                *real_us as f64 / 1000.0 / REAL_PLIES.len() as f64,
                if *fast {
                    format!("{agree}/{comparable}")
                } else {
                    String::new()
                },
                if *capped > 0 {
                    format!("  ({capped} simulations capped at {PLAIN_SIM_CAP} positions)")
                } else {
                    String::new()
                }
            )?;
        }
    }
    out.flush()
}
