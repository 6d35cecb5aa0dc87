//! The `c4-solver`: exact scores on Pascal Pons's test sets, and the engine's basic duties.
//!
//! The test sets live outside the repository, in `shared/data/connect4-pons` next to it (see its
//! README); the tests that need them print a note and pass when the folder is absent.

use std::path::{Path, PathBuf};

use bots::c4_solver::board::{Board, Std7x6};
use bots::c4_solver::solve_lines;
use bots::c4_solver::solver::{Solver, SOLVE_HASH_MB};
use bots::c4_solver::C4Solver;
use bots::engine::{Engine, Limits};
use bots::protocol::serve;
use games::{Connect4, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Pons's test sets, beside the repository (their tests are `#[ignore]`d with this reason, so a clone
/// without them says so in its summary; `.ci/run` runs them with `--ignored`).
const PONS_SETS: &str =
    "needs Pons's test sets in ../shared/data/connect4-pons, beside the repository";

fn data_dir() -> PathBuf {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/connect4-pons"
    ));
    assert!(dir.is_dir(), "{}: {PONS_SETS}", dir.display());
    dir.to_path_buf()
}

/// Solves every line of `set` and checks each score; returns the positions checked.
fn check_set(set: &str) -> usize {
    let dir = data_dir();
    let text = std::fs::read_to_string(dir.join(set)).expect("readable test set");
    let mut solver = Solver::new(Std7x6, SOLVE_HASH_MB);
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let (moves, expected) = line.split_once(' ').expect("<moves> <score>");
        let expected: i32 = expected.trim().parse().expect("a score");
        let b = Board::from_moves(Std7x6, moves).expect("a legal position");
        solver.clear();
        assert_eq!(solver.score(&b), expected, "{set} line {}: {moves}", i + 1);
        checked += 1;
    }
    println!("{set}: {checked} positions exact");
    checked
}

#[test]
#[ignore = "needs Pons's test sets in ../shared/data/connect4-pons, beside the repository"]
fn exact_on_pons_end_easy_set() {
    assert_eq!(check_set("Test_L3_R1"), 1000);
}

#[test]
#[ignore = "needs Pons's test sets in ../shared/data/connect4-pons, beside the repository"]
fn exact_on_pons_middle_easy_set() {
    assert_eq!(check_set("Test_L2_R1"), 1000);
}

#[test]
#[ignore = "needs Pons's test sets in ../shared/data/connect4-pons, beside the repository"]
fn exact_on_pons_middle_medium_set() {
    assert_eq!(check_set("Test_L2_R2"), 1000);
}

fn score(moves: &str) -> i32 {
    let mut s = Solver::new(Std7x6, 4);
    s.score(&Board::from_moves(Std7x6, moves).unwrap())
}

#[test]
fn pons_scores_of_simple_positions() {
    // The first player to move wins with its 4th stone: 22 - 4.
    assert_eq!(score("112233"), 18);
    // The second player faces the double threat 2/6 and loses to the first player's 4th stone.
    assert_eq!(score("31415"), -18);
    // Vertical: X stacks three in column 1 while O plays column 2; X wins with its 4th stone.
    assert_eq!(score("121212"), 18);
    // Line 3 of Test_L3_R1: a draw.
    assert_eq!(score("23163416124767223154467471272416755633"), 0);
}

#[test]
fn wins_are_detected_in_every_direction() {
    for (moves, col) in [
        ("112233", 3),     // horizontal: 4
        ("121212", 0),     // vertical: 1
        ("1223343447", 3), // rising diagonal: 4 on row 4
        ("7665545441", 3), // falling diagonal: 4 on row 4
    ] {
        let b = Board::from_moves(Std7x6, moves).unwrap();
        assert!(b.can_win_next(), "{moves}");
        assert!(b.is_winning_col(col), "{moves}: column {}", col + 1);
        let mut after = Connect4::from_moves(7, 6, moves).unwrap();
        after.play(games::connect4::Move::new(col as u8)).unwrap();
        assert!(after.outcome().is_some(), "{moves}");
    }
}

#[test]
fn solve_lines_prints_position_score_nodes_and_time() {
    let input =
        "2252576253462244111563365343671351441 -1\n\n7422341735647741166133573473242566 1\n12x\n";
    let mut out = Vec::new();
    solve_lines(input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let f: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(f[..2], ["2252576253462244111563365343671351441", "-1"]);
    assert!(f[2].parse::<u64>().unwrap() > 0 && f[3].parse::<u64>().is_ok());
    assert!(lines[1].starts_with("7422341735647741166133573473242566 1 "));
    assert!(lines[2].starts_with("12x invalid:"), "{}", lines[2]);
}

/// Random positions of random games, with a fixed seed.
fn random_positions(seed: u64, games: usize) -> Vec<Connect4> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Connect4::default();
        while pos.outcome().is_none() {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
    }
    out
}

#[test]
fn the_engine_never_misses_a_win_in_one_and_always_blocks_a_loss_in_one() {
    let mut engine = C4Solver::new(4, 0);
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let (mut wins, mut blocks) = (0, 0);
    for pos in random_positions(7, 60) {
        let wins_now: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut p = pos.clone();
                p.play(m).unwrap();
                p.outcome().is_some_and(|o| o.winner().is_some())
            })
            .collect();
        // The squares where the opponent would win, playable now.
        let b = Board::from_game(Std7x6, &pos).unwrap();
        let threats = (b.opponent_winning_spots() & b.possible()).count_ones();
        let m = engine.choose(&pos, &limits, &mut |_| {}).unwrap();
        assert!(pos.is_legal(m), "{pos:#}");
        if !wins_now.is_empty() {
            assert!(
                wins_now.contains(&m),
                "missed a win in one with {m}:\n{pos:#}"
            );
            wins += 1;
        } else if threats == 1 {
            // Any other move loses at once (the block may lose too, a move later).
            let square = b.opponent_winning_spots() & b.possible();
            let col = square.trailing_zeros() / 7;
            assert_eq!(u32::from(m.col), col, "did not block:\n{pos:#}");
            blocks += 1;
        }
    }
    assert!(
        wins > 20 && blocks > 20,
        "{wins} wins, {blocks} blocks seen"
    );
}

/// Solves `moves` with the engine at a depth that reaches the end of the game, checks that its move
/// keeps the exact score `expected` (Pons's convention), and returns whether it searched (a forced move
/// or a win in one is played without a search).
fn plays_the_best_exact_move(engine: &mut C4Solver, moves: &str, expected: i32) -> bool {
    // A depth limit that reaches the end of the game: no time limit, a full solve.
    let limits = Limits {
        depth: Some(42),
        ..Limits::default()
    };
    let pos = Connect4::from_moves(7, 6, moves).unwrap();
    let mut last = None;
    let m = engine
        .choose(&pos, &limits, &mut |i| last = Some(i.clone()))
        .unwrap();
    let mut after = pos.clone();
    after.play(m).unwrap();
    if after.outcome().is_some() {
        // An immediate win: the best score there is.
        assert_eq!(expected, (43 - moves.len() as i32) / 2, "{moves}");
    } else {
        assert_eq!(score(&format!("{moves}{m}")), -expected, "{moves}: {m}");
    }
    // A forced move is played without a search; otherwise the last report is the proof.
    let last = last.expect("a report");
    let proved = last.depth == 42 - moves.len() as u32;
    if proved {
        assert_eq!(last.score, 1000 * i64::from(expected), "{moves}");
    }
    proved
}

#[test]
fn the_engine_plays_the_best_exact_move_when_it_can_solve() {
    let mut engine = C4Solver::new(4, 0);
    assert!(plays_the_best_exact_move(&mut engine, "274552224131661", 0));
}

#[test]
#[ignore = "needs Pons's test sets in ../shared/data/connect4-pons, beside the repository"]
fn the_engine_plays_the_best_exact_move_on_pons_positions() {
    let mut engine = C4Solver::new(4, 0);
    let text = std::fs::read_to_string(data_dir().join("Test_L2_R1")).unwrap();
    let mut proved = 0;
    for line in text.lines().take(100) {
        let (moves, expected) = line.split_once(' ').unwrap();
        proved += usize::from(plays_the_best_exact_move(
            &mut engine,
            moves,
            expected.parse().unwrap(),
        ));
    }
    // The others were wins in one or forced moves.
    assert!(proved > 30, "{proved} of 100 searched");
}

#[test]
fn the_same_seed_and_limits_give_the_same_game() {
    let play = || {
        let mut engine = C4Solver::new(4, 3);
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut pos = Connect4::default();
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            let m = engine.choose(&pos, &limits, &mut |_| {}).unwrap();
            pos.play(m).unwrap();
            moves.push(m);
        }
        moves
    };
    assert_eq!(play(), play());
}

#[test]
fn other_games_are_refused_over_the_protocol() {
    let input = "ugi\ngame tictactoe\nposition startpos\ngo depth 2\nquit\n";
    let mut out = Vec::new();
    serve(&mut C4Solver::default(), input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("info string error"), "{text}");
    assert!(text.contains("bestmove (none)"), "{text}");
}

#[test]
fn other_sizes_are_played() {
    // 5 x 4 fits the solver's 64 bits: solved to a draw from the start.
    let mut engine = C4Solver::new(4, 0);
    let pos = Connect4::new(5, 4);
    let mut last = None;
    let limits = Limits {
        depth: Some(20),
        ..Limits::default()
    };
    let m = engine
        .choose(&pos, &limits, &mut |i| last = Some(i.clone()))
        .unwrap();
    assert!(pos.is_legal(m));
    let last = last.unwrap();
    assert_eq!((last.depth, last.score), (20, 0));
    // 9 x 9 does not: the fallback still takes a win in one.
    let pos = Connect4::from_moves(9, 9, "192939").unwrap();
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let m = engine.choose(&pos, &limits, &mut |_| {}).unwrap();
    assert_eq!(m.to_string(), "4");
}
