//! The minimax article's claim measured on any game (seed `001_a997fca1c543fbab.txt`: alpha-beta
//! "sometimes allows twice the depth for the same work"): plain minimax and alpha-beta (the game's own
//! move ordering, a full window) valued at each depth from seeded random positions of the game, their
//! nodes summed, and for each minimax depth the deepest alpha-beta search that takes no more nodes.
//! Node counts, not times: the same on every machine.
//!
//! ```text
//! cargo run --release -p bots --example search_nodes -- kalah 6 4
//! cargo run --release -p bots --example search_nodes -- kalah 6 4 --positions 20 --plies 6 --depth 8 --seed 1
//! ```

use bots::eval;
use bots::search::{alpha_beta_value, minimax_value};
use games::{Game, GameSpec, GameVisitor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Options {
    positions: usize,
    plies: usize,
    depth: u32,
    seed: u64,
}

struct Measure<'a>(&'a Options);

/// A position after up to `plies` random moves from `start`, never a finished one.
fn position<G: Game>(start: &G, rng: &mut ChaCha8Rng, plies: usize) -> G {
    let mut pos = start.clone();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        if pos.outcome().is_some() {
            pos.undo();
            break;
        }
    }
    pos
}

impl GameVisitor for Measure<'_> {
    type Output = ();
    fn visit<G: Game>(self, start: G) {
        let o = self.0;
        let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
        let positions: Vec<G> = (0..o.positions)
            .map(|_| {
                let plies = rng.random_range(0..=o.plies);
                position(&start, &mut rng, plies)
            })
            .collect();
        // Alpha-beta up to twice the deepest minimax depth, to see how far the same nodes reach.
        let ab_max = 2 * o.depth;
        let mut mm = vec![0u64; o.depth as usize + 1];
        let mut ab = vec![0u64; ab_max as usize + 1];
        for pos in &positions {
            let e = eval::standard(pos, &Default::default());
            for d in 1..=ab_max {
                let mut p = pos.clone();
                let (va, na) = alpha_beta_value(&mut p, &e, d);
                ab[d as usize] += na;
                if d <= o.depth {
                    let (vm, nm) = minimax_value(&mut p, &e, d);
                    assert_eq!(vm, va, "minimax and alpha-beta disagree at depth {d}");
                    mm[d as usize] += nm;
                }
            }
        }
        println!(
            "{}: {} positions after 0..={} random plies (seed {}); nodes summed over them",
            start.spec(),
            o.positions,
            o.plies,
            o.seed
        );
        println!();
        println!("| depth | minimax nodes | alpha-beta nodes | minimax / alpha-beta | alpha-beta's depth in minimax's nodes |");
        println!("|---|---|---|---|---|");
        for d in 2..=o.depth as usize {
            let reach = (1..=ab_max as usize)
                .filter(|&k| ab[k] <= mm[d])
                .max()
                .unwrap_or(0);
            let reach = if reach == ab_max as usize {
                format!("≥ {reach}")
            } else {
                reach.to_string()
            };
            println!(
                "| {d} | {} | {} | {:.1} | {reach} |",
                mm[d],
                ab[d],
                mm[d] as f64 / ab[d] as f64
            );
        }
        println!();
        println!(
            "alpha-beta's nodes at depths {}..={ab_max}: {:?}",
            o.depth + 1,
            &ab[o.depth as usize + 1..]
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut words = Vec::new();
    let mut o = Options {
        positions: 20,
        plies: 6,
        depth: 8,
        seed: 1,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or_else(|| panic!("{a} needs a number"))
        };
        match a.as_str() {
            "--positions" => o.positions = value() as usize,
            "--plies" => o.plies = value() as usize,
            "--depth" => o.depth = value() as u32,
            "--seed" => o.seed = value(),
            w => words.push(w.to_string()),
        }
    }
    let spec: GameSpec = words
        .join(" ")
        .parse()
        .unwrap_or_else(|e| panic!("usage: search_nodes <game words> [--positions N] [--plies P] [--depth D] [--seed S]: {e}"));
    spec.visit(Measure(&o));
}
