//! The Connect Four opening book and what uses it: its entries against fresh solves, its content
//! (a perfect player stays in it), `arena solve`'s options, and the `c4-solver` bot's book moves,
//! `pv` and determinism.

use bots::c4_solver::board::{AnySize, Board, Std7x6};
use bots::c4_solver::book::Book;
use bots::c4_solver::solver::{Budget, Solved, Solver};
use bots::c4_solver::{check_solvable, solve_lines_with, C4Solver, SolveOptions};
use bots::engine::{Limits, SearchInfo};
use games::{Connect4, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn builtin() -> Option<&'static Book> {
    let book = Book::builtin();
    if book.is_empty() {
        println!("note: the built-in book is empty; nothing to check");
        None
    } else {
        Some(book)
    }
}

#[test]
fn book_entries_equal_fresh_solves_on_a_seeded_sample() {
    let Some(book) = builtin() else { return };
    let entries: Vec<_> = book.iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut solver = Solver::new(Std7x6, 16).with_book(None);
    let cap = Budget {
        nodes: Some(2_000_000),
        deadline: None,
    };
    let (mut exact, mut bounded) = (0, 0);
    // Entries that solve within the node cap (the deep ones) must equal the fresh score, and their
    // move must reach it; the others must lie within the bounds the capped search proves.
    for _ in 0..entries.len().min(40) {
        let (key, entry) = entries[rng.random_range(0..entries.len())];
        let b = Board::from_key(Std7x6, key).expect("a book key is a position");
        assert_eq!(book.get(&b), Some(entry));
        solver.clear();
        solver.reset_nodes();
        match solver.solve(&b, cap) {
            Solved::Exact { score, .. } => {
                assert_eq!(score, entry.score, "key {key}, {} plies", b.moves());
                let best = entry.best.expect("every entry has a move");
                solver.reset_nodes();
                if let Some(reaches) = solver.move_reaches(&b, best, score, cap) {
                    assert!(reaches, "key {key}: the book's move {best}");
                }
                exact += 1;
            }
            Solved::Partial { lower, upper, .. } => {
                assert!(lower <= entry.score && entry.score <= upper, "key {key}");
                bounded += 1;
            }
        }
    }
    println!("{exact} entries solved exactly, {bounded} within the proved bounds");
}

#[test]
fn each_entry_is_the_negamax_of_its_children_in_the_book() {
    let Some(book) = builtin() else { return };
    let mut checked = 0;
    for (key, e) in book.iter() {
        let b = Board::from_key(Std7x6, key).unwrap();
        let mut best = i32::MIN;
        let mut all = true;
        for c in (0..7).filter(|&c| b.can_play(c)) {
            let v = if b.is_winning_col(c) {
                (43 - b.moves() as i32) / 2
            } else {
                let mut child = b;
                child.play_col(c);
                match book.get(&child) {
                    Some(ce) => -ce.score,
                    None => {
                        all = false;
                        continue;
                    }
                }
            };
            // No child beats the entry's score; the entry's move reaches it.
            assert!(
                v <= e.score,
                "key {key}: column {c} scores {v} > {}",
                e.score
            );
            if Some(c) == e.best {
                assert_eq!(v, e.score, "key {key}: the book's move");
            }
            best = best.max(v);
        }
        if all {
            assert_eq!(best, e.score, "key {key}");
            checked += 1;
        }
    }
    // At least the positions of fewer than `all_depth` plies have every child in the book.
    assert!(checked >= 1, "no entry with all its children in the book");
}

/// Walks the positions a perfect player of `side` (0: first, 1: second) meets when it plays the
/// book's moves, every move of the opponent, from every position of `all_depth` plies; each must be
/// in the book. Returns the positions checked.
fn walk(book: &Book, b: Board<Std7x6>, side: u32, count: &mut usize) {
    let e = book
        .get(&b)
        .unwrap_or_else(|| panic!("not in the book: {b:?}"));
    *count += 1;
    if b.moves() == book.depth() {
        return;
    }
    for c in 0..7 {
        if !b.can_play(c) || b.is_winning_col(c) {
            continue;
        }
        if b.moves() >= book.all_depth() && b.moves() % 2 == side && e.best != Some(c) {
            continue;
        }
        let mut child = b;
        child.play_col(c);
        walk(book, child, side, count);
    }
}

#[test]
fn a_perfect_player_stays_in_the_book_on_either_side() {
    let Some(book) = builtin() else { return };
    for side in 0..2 {
        let mut count = 0;
        walk(book, Board::new(Std7x6), side, &mut count);
        assert!(count > 0);
    }
}

fn run(input: &str, opts: SolveOptions) -> Vec<String> {
    let mut out = Vec::new();
    solve_lines_with(input.as_bytes(), &mut out, &opts).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn the_first_moves_have_pons_scores_from_the_book() {
    let Some(book) = builtin() else { return };
    assert!(book.all_depth() >= 1);
    let lines = run("1\n2\n3\n4\n5\n6\n7\n", SolveOptions::default());
    let scores: Vec<&str> = lines.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
    // Pons's published scores of the seven first moves, for the second player.
    assert_eq!(scores, ["2", "1", "0", "-1", "0", "1", "2"]);
    // Answered from the book: no node searched.
    assert!(lines.iter().all(|l| l.split(' ').nth(2) == Some("0")));
}

#[test]
fn analyze_gives_every_column_the_score_of_its_child() {
    let opts = SolveOptions {
        analyze: true,
        ..SolveOptions::default()
    };
    let positions = [
        "2252576253462244111563365343671351441",
        "5554224333234511764415115",
    ];
    let mut solver = Solver::new(Std7x6, 4);
    for moves in positions {
        let line = &run(moves, opts)[0];
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 1 + 7 + 2, "{line}");
        let b = Board::from_moves(Std7x6, moves).unwrap();
        for c in 0..7u32 {
            let field = f[1 + c as usize];
            if !b.can_play(c) {
                assert_eq!(field, "-");
                continue;
            }
            let mut child = b;
            child.play_col(c);
            solver.clear();
            let expected = if b.is_winning_col(c) {
                (43 - b.moves() as i32) / 2
            } else {
                -solver.score(&child)
            };
            assert_eq!(field, expected.to_string(), "{moves} column {}", c + 1);
        }
        // The best column has the position's score.
        solver.clear();
        let best = f[1..8].iter().filter_map(|s| s.parse::<i32>().ok()).max();
        assert_eq!(best, Some(solver.score(&b)));
    }
}

#[test]
fn weak_gives_the_sign_of_the_exact_score() {
    let input = "2252576253462244111563365343671351441\n5554224333234511764415115\n\
                 7422341735647741166133573473242566\n";
    let exact = run(input, SolveOptions::default());
    let weak = run(
        input,
        SolveOptions {
            weak: true,
            ..SolveOptions::default()
        },
    );
    for (e, w) in exact.iter().zip(&weak) {
        let e: i32 = e.split(' ').nth(1).unwrap().parse().unwrap();
        let w: i32 = w.split(' ').nth(1).unwrap().parse().unwrap();
        assert_eq!(w, e.signum());
    }
}

#[test]
fn other_sizes_are_solved_and_unsupported_ones_refused() {
    // John Tromp's results: 4 × 4 and 5 × 4 are draws; 4 × 5 too.
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        let opts = SolveOptions {
            width: w,
            height: h,
            ..SolveOptions::default()
        };
        let lines = run("\n1\n", opts);
        let mut solver = Solver::new(AnySize::new(w, h).unwrap(), 1);
        let after = Board::from_moves(AnySize::new(w, h).unwrap(), "1").unwrap();
        assert_eq!(lines.len(), 1, "a blank line is skipped");
        assert_eq!(
            lines[0].split(' ').nth(1),
            Some(solver.score(&after).to_string().as_str())
        );
    }
    let opts = SolveOptions {
        width: 5,
        height: 4,
        ..SolveOptions::default()
    };
    assert!(run("6\n", opts)[0].starts_with("6 invalid:"));
    assert!(check_solvable(8, 8).is_err());
    assert!(check_solvable(10, 4).is_err());
    assert!(check_solvable(9, 6).is_ok());
}

fn choose(engine: &mut C4Solver, moves: &str, limits: &Limits) -> (u32, Vec<SearchInfo>) {
    let pos = Connect4::from_moves(7, 6, moves).unwrap();
    let mut infos = Vec::new();
    let col = engine
        .choose_connect4(&pos, limits, &mut |i| infos.push(i.clone()))
        .unwrap();
    (col, infos)
}

#[test]
fn the_bot_plays_the_books_move_without_a_search() {
    let Some(book) = builtin() else { return };
    let mut engine = C4Solver::new(4, 0);
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let mut played = 0;
    for moves in ["", "4", "1", "7", "44", "45"] {
        let b = Board::from_moves(Std7x6, moves).unwrap();
        let Some(e) = book.get(&b) else {
            assert!(b.moves() > book.all_depth(), "{moves:?} is not in the book");
            continue;
        };
        played += 1;
        let (col, infos) = choose(&mut engine, moves, &limits);
        assert_eq!(Some(col), e.best, "{moves:?}");
        let last = infos.last().unwrap();
        assert_eq!(last.score, 1000 * i64::from(e.score));
        assert_eq!(last.nodes, 0);
    }
    assert!(played >= 2);
}

#[test]
fn pv_and_bestmove_agree_and_seeds_do_not_change_unproved_moves() {
    // Positions past any book, not provable in 3,000 nodes: the heuristic decides.
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20 {
        let mut pos = Connect4::default();
        for _ in 0..rng.random_range(14..20) {
            let moves = pos.legal_moves();
            let m = moves[rng.random_range(0..moves.len())];
            let mut next = pos.clone();
            next.play(m).unwrap();
            if next.outcome().is_some() {
                break;
            }
            pos = next;
        }
        let mut cols = Vec::new();
        for seed in [0, 1, 99] {
            let mut engine = C4Solver::new(4, seed);
            let mut infos: Vec<SearchInfo> = Vec::new();
            let col = engine
                .choose_connect4(&pos, &limits, &mut |i| infos.push(i.clone()))
                .unwrap();
            if let Some(last) = infos.last() {
                assert_eq!(last.pv, vec![(col + 1).to_string()], "{pos:#}");
            }
            let proved = infos
                .last()
                .is_some_and(|i| i.score.abs() >= 1000 || i.depth == 42 - pos.ply() as u32);
            if !proved {
                cols.push(col);
            }
        }
        assert!(cols.windows(2).all(|w| w[0] == w[1]), "{pos:#}: {cols:?}");
    }
}
