//! `cargo bench -p bots --bench search`: nodes per second of plain minimax and of alpha-beta on fixed
//! positions of each game at fixed depths, and the node ratio minimax : alpha-beta at equal depth
//! (seed `001_a997fca1c543fbab.txt`: alpha-beta "sometimes allows twice the depth for the same work").
//!
//! Before the timings it prints one table, the benchmark's signature in Stockfish's sense: the nodes of
//! each search (exact, machine-independent: a search change that changes a count shows at once) and
//! the ratio. Criterion then times each search; its throughput line is nodes per second.
//!
//! One more group times the default `dots-tps` engine (its own search, not the shared negamax) at a
//! fixed depth on a 20×20 middle game; its node count is printed the same way. A last group times
//! two root terms of `dots-tps` on positions of a real 20×20 game: group safety (option `safety`:
//! every group's min-cut, both players) and exposed points (option `exposed`), after printing what
//! they find. The group of option `inner` (issue 39) times the same searches with and without the
//! trajectories found again below the root: the tactical suite with the article's engine at its
//! depth 3, the 20×20 middle game above and two positions of the real 20×20 game with the default
//! engine, after printing each search's nodes and move both ways.

use std::hint::black_box;

use bots::dots_tps::patterns::PatternTable;
use bots::dots_tps::{think, Budget, Config};
use bots::eval;
use bots::search;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use games::dots::Start;
use games::{Connect4, Dots, Game, TicTacToe};
use rand::SeedableRng;

/// One benchmark position: a name, the position, the depth in plies.
struct Case<G> {
    name: &'static str,
    pos: G,
    depth: u32,
}

fn ttt() -> Case<TicTacToe> {
    Case {
        name: "tictactoe 3x3 empty (full depth)",
        pos: TicTacToe::default(),
        depth: 9,
    }
}

fn connect4() -> Case<Connect4> {
    Case {
        name: "connect4 7x6 after 4453",
        pos: Connect4::from_moves(7, 6, "4453").unwrap(),
        depth: 7,
    }
}

fn dots() -> Case<Dots> {
    let pos = Dots::from_moves(
        12,
        12,
        Start::Cross,
        "5-5 8-8 5-8 8-5 4-6 9-7 6-4 7-9 4-7 9-6",
    )
    .unwrap();
    Case {
        name: "dots 12x12 cross after 10 plies",
        pos,
        depth: 3,
    }
}

/// The `dots-tps` case: 20×20 from the cross after 36 plies of the engine against itself (50,000
/// nodes a move), the default engine at `depth` full moves, iterative deepening as it plays.
fn dots_tps() -> Case<Dots> {
    let pos = Dots::from_moves(
        20,
        20,
        Start::Cross,
        "9-12 9-13 11-13 11-12 10-12 10-13 9-14 8-13 10-14 8-12 9-11 8-14 8-11 9-10 8-10 7-13 \
         10-15 6-13 6-12 7-12 7-11 6-14 6-15 7-14 7-15 8-15 9-15 8-16 9-16 7-16 6-16 11-15 \
         11-14 6-10 7-10 6-11",
    )
    .unwrap();
    Case {
        name: "dots-tps 20x20 cross after 36 plies",
        pos,
        depth: 5,
    }
}

/// Times the default `dots-tps` on `case` at `case.depth` full moves (tree and simulation nodes
/// as the throughput) after printing its signature: the move, the nodes of the tree and of the
/// simulations.
fn bench_dots_tps(c: &mut Criterion, case: &Case<Dots>) {
    let cfg = Config::default();
    let table = PatternTable::default();
    let budget = Budget::depth(case.depth);
    let d = think(&case.pos, &cfg, &table, &budget, &mut |_| {});
    println!(
        "{:<34} depth {:>2} full moves  tree {:>9} nodes  simulations {:>9} nodes  move {}",
        case.name,
        case.depth,
        d.nodes,
        d.sim_nodes,
        d.best.map_or("(none)".to_string(), |m| m.to_string())
    );
    let mut group = c.benchmark_group(case.name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(d.nodes + d.sim_nodes));
    group.bench_function(BenchmarkId::new("default", case.depth), |b| {
        b.iter(|| think(black_box(&case.pos), &cfg, &table, &budget, &mut |_| {}))
    });
    group.finish();
}

/// Nodes of minimax and alpha-beta on `case`, after checking that they agree on the value.
fn counts<G: Game>(case: &Case<G>) -> (u64, u64) {
    let eval = eval::standard(&case.pos, &Default::default());
    let (mm, mm_nodes) = search::minimax_value(&mut case.pos.clone(), &eval, case.depth);
    let (ab, ab_nodes) = search::alpha_beta_value(&mut case.pos.clone(), &eval, case.depth);
    assert_eq!(mm, ab, "{}: minimax and alpha-beta disagree", case.name);
    (mm_nodes, ab_nodes)
}

/// The deepest alpha-beta search of `case` that costs no more nodes than minimax at `case.depth`,
/// and whether it covers the whole game tree (a deeper search would visit the same nodes).
fn same_work_depth<G: Game>(case: &Case<G>, budget: u64) -> (u32, bool) {
    let eval = eval::standard(&case.pos, &Default::default());
    let mut depth = case.depth;
    let mut nodes = search::alpha_beta_value(&mut case.pos.clone(), &eval, depth).1;
    loop {
        let (_, deeper) = search::alpha_beta_value(&mut case.pos.clone(), &eval, depth + 1);
        if deeper == nodes {
            return (depth, true);
        }
        if deeper > budget {
            return (depth, false);
        }
        depth += 1;
        nodes = deeper;
    }
}

/// Nodes of iterative deepening to `case.depth` (all iterations; the root shuffle seeded with 1).
fn id_nodes<G: Game>(case: &Case<G>) -> u64 {
    let eval = eval::standard(&case.pos, &Default::default());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let budget = search::Budget::fixed_depth(case.depth);
    search::iterative_deepening(&case.pos, &eval, &budget, &mut rng, &mut |_| {}).nodes
}

fn signature_row<G: Game>(case: &Case<G>) {
    let (mm, ab) = counts(case);
    let id = id_nodes(case);
    let (depth, whole) = same_work_depth(case, mm);
    println!(
        "{:<34} depth {:>2}  minimax {:>10} nodes  alpha-beta {:>9} nodes  ratio {:>6.1}  \
         iterative deepening {:>9} nodes  alpha-beta depth for the same work {:>2}{}",
        case.name,
        case.depth,
        mm,
        ab,
        mm as f64 / ab as f64,
        id,
        depth,
        if whole { " (the whole tree)" } else { "" }
    );
}

fn bench_case<G: Game>(c: &mut Criterion, case: &Case<G>) {
    let (mm_nodes, ab_nodes) = counts(case);
    let eval = eval::standard(&case.pos, &Default::default());
    let mut group = c.benchmark_group(case.name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(mm_nodes));
    group.bench_function(BenchmarkId::new("minimax", case.depth), |b| {
        b.iter(|| {
            search::minimax_value(
                black_box(&mut case.pos.clone()),
                &eval,
                black_box(case.depth),
            )
        })
    });
    group.throughput(Throughput::Elements(ab_nodes));
    group.bench_function(BenchmarkId::new("alphabeta", case.depth), |b| {
        b.iter(|| {
            search::alpha_beta_value(
                black_box(&mut case.pos.clone()),
                &eval,
                black_box(case.depth),
            )
        })
    });
    group.finish();
}

/// Times [`bots::dots_tps::safety::bonus`] (both players' groups and cuts, then the bonus of every
/// legal point) and [`bots::dots_tps::exposure::exposure`] (every legal point) at plies 100, 200 and
/// 300 of `bench::REAL_GAME`, after printing per position the groups, those with a cut of at most
/// `MAX_CUT` and their dots, and the exposed points.
fn bench_safety(c: &mut Criterion) {
    use bots::dots_tps::{bench::REAL_GAME, exposure, safety};
    let moves: Vec<&str> = REAL_GAME.split_whitespace().collect();
    let mut group = c.benchmark_group("dots-tps root terms on the real 20x20 game");
    group.sample_size(20);
    for ply in [100, 200, 300] {
        let pos = Dots::from_moves(20, 20, Start::Cross, &moves[..ply].join(" ")).unwrap();
        let gs: Vec<_> = [games::Player::First, games::Player::Second]
            .into_iter()
            .flat_map(|p| safety::groups(&pos, p))
            .collect();
        let cut: Vec<_> = gs.iter().filter(|g| g.cut.is_some()).collect();
        println!(
            "safety at ply {ply:>3}: {:>3} groups, {:>3} with a cut of at most {} ({} dots)",
            gs.len(),
            cut.len(),
            safety::MAX_CUT,
            cut.iter().map(|g| g.dots.len()).sum::<usize>()
        );
        let points = pos.legal_moves();
        group.bench_function(BenchmarkId::new("bonus", ply), |b| {
            b.iter(|| safety::bonus(black_box(&pos), &points, vec![0; points.len()], 100))
        });
        let exposed = exposure::exposure(&mut pos.clone(), &points);
        println!(
            "exposure at ply {ply:>3}: {:>3} of {} legal points exposed",
            exposed.iter().filter(|e| e.loss > 0).count(),
            points.len()
        );
        group.bench_function(BenchmarkId::new("exposure", ply), |b| {
            let mut work = pos.clone();
            b.iter(|| exposure::exposure(black_box(&mut work), &points))
        });
    }
    group.finish();
}

/// One search of the `inner` group: positions searched one after the other by `cfg` at `depth`
/// full moves (fixed depth, iterative deepening as it plays).
struct InnerCase {
    name: String,
    positions: Vec<Dots>,
    cfg: Config,
    depth: u32,
}

/// Times each case with and without option `inner` (the throughput: tree nodes, so that criterion's
/// elements per second is tree nodes per second, the simulations below the root counted in their
/// cost), after printing per case and setting the tree and simulation nodes and the moves.
fn bench_inner(c: &mut Criterion) {
    use bots::dots_tps::{bench::REAL_GAME, tactics};
    let real: Vec<&str> = REAL_GAME.split_whitespace().collect();
    let at = |ply: usize| Dots::from_moves(20, 20, Start::Cross, &real[..ply].join(" ")).unwrap();
    let cases = [
        InnerCase {
            name: "suite, article, depth 3".into(),
            positions: tactics::suite().into_iter().map(|t| t.pos).collect(),
            cfg: Config::article(),
            depth: 3,
        },
        InnerCase {
            name: "20x20 cross after 36 plies, default, depth 4".into(),
            positions: vec![dots_tps().pos],
            cfg: Config::default(),
            depth: 4,
        },
        InnerCase {
            name: "real 20x20 game plies 100 and 200, default, depth 4".into(),
            positions: vec![at(100), at(200)],
            cfg: Config::default(),
            depth: 4,
        },
    ];
    let table = PatternTable::default();
    let mut group = c.benchmark_group("dots-tps option inner");
    group.sample_size(10);
    for case in &cases {
        for inner in [false, true] {
            let cfg = Config {
                inner,
                ..case.cfg.clone()
            };
            let budget = Budget::depth(case.depth);
            let run = || -> (u64, u64, Vec<String>) {
                let (mut nodes, mut sims, mut moves) = (0, 0, Vec::new());
                for pos in &case.positions {
                    let d = think(black_box(pos), &cfg, &table, &budget, &mut |_| {});
                    nodes += d.nodes;
                    sims += d.sim_nodes;
                    moves.push(d.best.map_or("(none)".to_string(), |m| m.to_string()));
                }
                (nodes, sims, moves)
            };
            let (nodes, sims, moves) = run();
            println!(
                "inner {inner:<5} {:<52} tree {nodes:>9} nodes  simulations {sims:>9} nodes  moves {}",
                case.name,
                moves.join(" ")
            );
            group.throughput(Throughput::Elements(nodes));
            let id = format!("{} inner {inner}", case.name);
            group.bench_function(BenchmarkId::new(id, case.depth), |b| b.iter(&run));
        }
    }
    group.finish();
}

fn searches(c: &mut Criterion) {
    println!(
        "Search signature (nodes at fixed depth; ratio = minimax / alpha-beta; iterative deepening = \
         alpha-beta over depths 1..d with the previous PV first):"
    );
    signature_row(&ttt());
    signature_row(&connect4());
    signature_row(&dots());
    bench_dots_tps(c, &dots_tps());
    bench_safety(c);
    bench_inner(c);
    bench_case(c, &ttt());
    bench_case(c, &connect4());
    bench_case(c, &dots());
}

criterion_group!(benches, searches);
criterion_main!(benches);
