//! Speed of the `c4-solver` on Pascal Pons's test sets: `cargo bench -p bots --bench c4_solver`.
//!
//! Solves every position of each set (the table cleared before each, as Pons's harness does) and prints,
//! set by set, the mean time and nodes per position and whether every score was exact. Arguments (after
//! `--`): set names to run instead of the default ones (`Test_L1_R3`, …), and `--every K` to take only
//! every K-th line, `--first N` to take only the first N lines, `--hash MB` for the table size,
//! `--no-book` to search without the built-in opening book (positions it holds take no search).
//!
//! `mean µs` is wall-clock time per position, as Pons's harness measures it; `mean cpu µs` (Linux only)
//! leaves out the time the thread waited for a core, which is what to compare on a busy machine.

use std::path::Path;
use std::time::Instant;

use bots::c4_solver::board::{Board, Std7x6};
use bots::c4_solver::solver::{Solver, SOLVE_HASH_MB};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/data/connect4-pons"
);
const DEFAULT_SETS: &[&str] = &[
    "Test_L3_R1",
    "Test_L2_R1",
    "Test_L2_R2",
    "Test_L1_R1",
    "Test_L1_R2",
];

fn main() {
    let mut sets: Vec<String> = Vec::new();
    let mut every = 1usize;
    let mut first = usize::MAX;
    let mut hash_mb = SOLVE_HASH_MB;
    let mut book = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--every" => every = args.next().and_then(|v| v.parse().ok()).unwrap_or(1),
            "--first" => {
                first = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(usize::MAX)
            }
            "--hash" => hash_mb = args.next().and_then(|v| v.parse().ok()).unwrap_or(hash_mb),
            "--no-book" => book = false,
            "--bench" => {}
            s if s.starts_with("Test_") => sets.push(s.to_string()),
            _ => {}
        }
    }
    if sets.is_empty() {
        sets = DEFAULT_SETS.iter().map(|s| s.to_string()).collect();
    }
    let dir = Path::new(DATA);
    if !dir.is_dir() {
        println!("no test sets at {}: nothing to benchmark", dir.display());
        return;
    }
    let mut solver = Solver::new(Std7x6, hash_mb);
    if !book {
        solver.set_book(None);
    }
    println!(
        "{:<12} {:>6} {:>12} {:>14} {:>6} {:>12}",
        "set", "lines", "mean µs", "mean nodes", "exact", "mean cpu µs"
    );
    for set in &sets {
        let Ok(text) = std::fs::read_to_string(dir.join(set)) else {
            println!("{set:<12} missing");
            continue;
        };
        let (mut n, mut us, mut nodes, mut wrong) = (0u64, 0u128, 0u64, 0u64);
        let cpu_start = cpu_ns();
        for line in text.lines().step_by(every).take(first) {
            let mut parts = line.split_whitespace();
            let (Some(moves), Some(expected)) = (parts.next(), parts.next()) else {
                continue;
            };
            let expected: i32 = expected.parse().expect("score");
            let b = Board::from_moves(Std7x6, moves).expect("legal position");
            solver.clear();
            solver.reset_nodes();
            let start = Instant::now();
            let score = solver.score(&b);
            us += start.elapsed().as_micros();
            nodes += solver.nodes();
            n += 1;
            if score != expected {
                wrong += 1;
                eprintln!("{set}: {moves}: got {score}, expected {expected}");
            }
        }
        let n1 = n.max(1);
        let cpu_us = cpu_ns()
            .zip(cpu_start)
            .map(|(b, a)| (b - a) as f64 / 1000.0 / n1 as f64);
        println!(
            "{set:<12} {n:>6} {:>12.1} {:>14.1} {:>6} {}",
            us as f64 / n1 as f64,
            nodes as f64 / n1 as f64,
            if wrong == 0 {
                "yes".to_string()
            } else {
                format!("{wrong} wrong")
            },
            cpu_us.map_or(String::new(), |c| format!("{c:>12.1}"))
        );
    }
}

/// CPU time of this thread, ns, where Linux tells it (`/proc/thread-self/schedstat`): unlike the wall
/// clock it leaves out the time the thread waited for a core on a busy machine.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
