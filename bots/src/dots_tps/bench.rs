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

use super::patterns::PatternTable;
use super::tactics::{suite, Tactic};
use super::{think, Budget, Config, Decision, Prune};

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
