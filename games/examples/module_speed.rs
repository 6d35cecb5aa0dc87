//! Random games through the example Connect Four module against the built-in Connect Four: games per
//! second, for `docs/benchmarks.md`. `cargo run --release -p games --example module_speed [GAMES]`
//! (after `modules/build.sh`).

use std::time::Instant;

use games::module::{self, Limits, ModuleGame, ModuleVariant};
use games::{Connect4, Game, GameKind};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn random_games<G: Game>(start: &G, games: usize) -> (f64, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut plies = 0;
    let mut moves = Vec::new();
    let t = Instant::now();
    for _ in 0..games {
        let mut pos = start.clone();
        while pos.outcome().is_none() {
            moves.clear();
            pos.legal_moves_into(&mut moves);
            pos.play(*moves.choose(&mut rng).unwrap()).unwrap();
            plies += 1;
        }
        assert!(pos.fault().is_none());
    }
    (t.elapsed().as_secs_f64(), plies)
}

fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .map_or(20_000, |a| a.parse().unwrap());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../modules/out/connect4.wasm");
    let bytes = std::fs::read(path).expect("modules/out/connect4.wasm: run modules/build.sh");
    let t = Instant::now();
    let m = module::load("connect4.wasm", &bytes, Limits::default()).unwrap();
    println!(
        "load (compile and check): {:.2} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    for _ in 0..100 {
        module::Instance::new(m).unwrap();
    }
    println!("one instance: {:.1} µs", t.elapsed().as_secs_f64() * 1e4);
    let variant = ModuleVariant::new(m, "7 6").unwrap();
    let builtin = Connect4::start(GameKind::Connect4.default_spec().variant_of().unwrap());
    let module = ModuleGame::start(variant);
    for (name, (secs, plies)) in [
        ("built-in", random_games(&builtin, games * 10)),
        ("module", random_games(&module, games)),
    ] {
        let n = if name == "module" { games } else { games * 10 };
        println!(
            "{name}: {n} games in {secs:.2} s: {:.0} games/s, {:.2} µs a ply",
            n as f64 / secs,
            secs * 1e6 / plies as f64
        );
    }
}
