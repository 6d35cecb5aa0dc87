//! The search and the reference engines on the real games: exact values, equal answers of minimax and
//! alpha-beta, and play against `random`. Every test is exact: fixed seeds, depths and node limits.

use bots::alphabeta::AlphaBetaEngine;
use bots::boardvalue::{BoardValueEngine, TieBreak, VALUE_DRAW};
use bots::engine::{Engine, Limits, SearchInfo};
use bots::eval;
use bots::minimax::MinimaxEngine;
use bots::random::RandomEngine;
use bots::search::{self, Budget, MATE};
use games::dots::Start;
use games::{Connect4, Dots, Game, Outcome, Player, TicTacToe};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Limits without a clock: the engines' own depth limits alone decide, so no result depends on the
/// machine's speed (`go` without any limit would get a default time).
fn no_clock() -> Limits {
    Limits {
        depth: Some(search::MAX_DEPTH),
        ..Limits::default()
    }
}

/// Plays `engines[0]` (first) against `engines[1]` (second) from `pos` to the end.
fn play_out<G: Game>(
    mut pos: G,
    first: &mut impl Engine,
    second: &mut impl Engine,
    limits: &Limits,
) -> G {
    while pos.outcome().is_none() {
        let m = if pos.turn() == Player::First {
            first.choose(&pos, limits, &mut |_| {})
        } else {
            second.choose(&pos, limits, &mut |_| {})
        }
        .expect("a game that is on has a move");
        pos.play(m).expect("engines play legal moves");
    }
    pos
}

#[test]
fn full_depth_tic_tac_toe_from_the_empty_board_is_a_draw_for_every_search() {
    let mut pos = TicTacToe::default();
    let eval = eval::standard(&pos, &Default::default());
    let (mm, mm_nodes) = search::minimax_value(&mut pos, &eval, 9);
    let (ab, ab_nodes) = search::alpha_beta_value(&mut pos, &eval, 9);
    assert_eq!((mm, ab), (0, 0));
    // Every game of tic-tac-toe, each prefix once: 549,946 positions (the root included).
    assert_eq!(mm_nodes, 549_946);
    assert!(ab_nodes * 10 < mm_nodes, "{ab_nodes}");

    let mut reports: Vec<SearchInfo> = Vec::new();
    let mut ab_engine = AlphaBetaEngine::new(9, 1);
    ab_engine.choose(&pos, &no_clock(), &mut |i| reports.push(i.clone()));
    let last = reports.last().unwrap();
    assert_eq!((last.depth, last.score), (9, 0), "{reports:?}");

    let mut bv = BoardValueEngine::new(9, TieBreak::First, 1);
    let valued = bv.board_value(&mut pos);
    assert_eq!(valued.value, VALUE_DRAW);
    // All nine squares draw, so the listing's strict "<" keeps square 1, the top left.
    assert_eq!(valued.best.unwrap().to_string(), "a3");
}

/// Finished games of tic-tac-toe from `pos`.
fn count_games(pos: &mut TicTacToe) -> u64 {
    if pos.outcome().is_some() {
        return 1;
    }
    let mut n = 0;
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        n += count_games(pos);
        pos.undo();
    }
    n
}

#[test]
fn tic_tac_toe_has_the_quarter_million_games_of_the_article() {
    // Seed 004: 9! = 362,880 move orders ignoring early ends, "about a quarter of a million" games.
    assert_eq!(count_games(&mut TicTacToe::default()), 255_168);
}

#[test]
fn minimax_picks_at_random_among_equal_moves_and_the_seed_fixes_the_choice() {
    let pos = TicTacToe::default();
    let first_move = |seed| {
        let mut e = MinimaxEngine::new(9, seed);
        e.choose(&pos, &no_clock(), &mut |_| {}).unwrap()
    };
    let picks: Vec<_> = (1..=12).map(first_move).collect();
    assert_eq!(picks, (1..=12).map(first_move).collect::<Vec<_>>());
    assert!(picks.iter().any(|m| *m != picks[0]), "{picks:?}");
}

#[test]
fn the_boardvalue_listing_finds_the_win_and_blocks_the_loss() {
    let mut bv = BoardValueEngine::new(9, TieBreak::First, 1);
    let mut pos = TicTacToe::default();
    // X: a1 b1, O: a3 b3; X to move wins on c1 at once, or on c3 (square 3, tried before c1 = square
    // 9): O must block c1, then b2 completes a1-b2-c3. The values know no distance, so square 3 it is.
    for m in ["a1", "a3", "b1", "b3"] {
        pos.play(m.parse().unwrap()).unwrap();
    }
    let v = bv.board_value(&mut pos);
    assert_eq!((v.best.unwrap().to_string(), v.value), ("c3".into(), 4));
    // O to move after X's a1 b1 must block on c1.
    let mut pos = TicTacToe::default();
    for m in ["a1", "b2", "b1"] {
        pos.play(m.parse().unwrap()).unwrap();
    }
    let v = bv.board_value(&mut pos);
    assert_eq!(v.best.unwrap().to_string(), "c1");
    // Skill level 1 sees one ply: it takes an immediate win but cannot tell a block from a blunder.
    let mut shallow = BoardValueEngine::new(1, TieBreak::First, 1);
    assert_eq!(shallow.board_value(&mut pos).value, 3);
}

#[test]
fn ttt_boardvalue_at_full_depth_never_loses_to_random() {
    let limits = Limits::default();
    let mut wins = 0;
    for seed in 1..=100u64 {
        for tiebreak in [TieBreak::First, TieBreak::Random] {
            let mut bv = BoardValueEngine::new(9, tiebreak, seed);
            let mut random = RandomEngine::new(seed);
            let end = play_out(TicTacToe::default(), &mut bv, &mut random, &limits);
            assert_ne!(end.outcome(), Some(Outcome::Win(Player::Second)), "{end}");
            wins += usize::from(end.outcome() == Some(Outcome::Win(Player::First)));
            let end = play_out(TicTacToe::default(), &mut random, &mut bv, &limits);
            assert_ne!(end.outcome(), Some(Outcome::Win(Player::First)), "{end}");
            wins += usize::from(end.outcome() == Some(Outcome::Win(Player::Second)));
        }
    }
    assert!(wins > 300, "{wins} wins of 400 games");
}

#[test]
fn ttt_boardvalue_plays_a_random_move_in_other_games() {
    let mut bv = BoardValueEngine::new(9, TieBreak::First, 5);
    let pos = Connect4::default();
    let m = bv.choose(&pos, &Limits::default(), &mut |_| {}).unwrap();
    assert!(pos.is_legal(m));
    let big = TicTacToe::new(4, 4, 3);
    assert!(big.is_legal(bv.choose(&big, &Limits::default(), &mut |_| {}).unwrap()));
}

/// A position of `start`'s game after up to `plies` seeded random moves, never a finished one.
fn random_position<G: Game>(mut pos: G, seed: u64, plies: usize) -> G {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
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

/// Minimax and alpha-beta values and node counts of `pos` at `depth`.
fn both<G: Game>(mut pos: G, depth: u32) -> ((i32, u64), (i32, u64)) {
    let eval = eval::standard(&pos, &Default::default());
    let mm = search::minimax_value(&mut pos, &eval, depth);
    let ab = search::alpha_beta_value(&mut pos, &eval, depth);
    (mm, ab)
}

fn fixed_config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(fixed_config(48, 2026))]

    #[test]
    fn alpha_beta_agrees_with_minimax_on_tic_tac_toe(seed in any::<u64>(), plies in 0usize..7, big in any::<bool>()) {
        let (start, depth) = if big { (TicTacToe::new(4, 4, 3), 4) } else { (TicTacToe::default(), 9) };
        let ((mm, mm_nodes), (ab, ab_nodes)) = both(random_position(start, seed, plies), depth);
        prop_assert_eq!(mm, ab);
        prop_assert!(ab_nodes <= mm_nodes);
    }

    #[test]
    fn alpha_beta_agrees_with_minimax_on_connect_four(seed in any::<u64>(), plies in 0usize..30, depth in 1u32..=5) {
        let ((mm, mm_nodes), (ab, ab_nodes)) = both(random_position(Connect4::default(), seed, plies), depth);
        prop_assert_eq!(mm, ab);
        prop_assert!(ab_nodes <= mm_nodes);
    }
}

proptest! {
    #![proptest_config(fixed_config(16, 2027))]

    #[test]
    fn alpha_beta_agrees_with_minimax_on_dots(seed in any::<u64>(), plies in 0usize..30, depth in 1u32..=3) {
        let start = Dots::new(6, 6, Start::Cross);
        let ((mm, mm_nodes), (ab, ab_nodes)) = both(random_position(start, seed, plies), depth);
        prop_assert_eq!(mm, ab);
        prop_assert!(ab_nodes <= mm_nodes);
    }
}

/// The article's Max/Min without negamax (seed `001_a997fca1c543fbab.txt`): the value for the first
/// player, the maximum over the children where the first player moves and the minimum where the second
/// does, whoever moved before (Kalah's extra move), the static evaluation at `depth` 0 turned to the
/// first player's side, a finished game scored as the searches score it.
fn max_min<G: Game, E: eval::Evaluation<G>>(pos: &mut G, e: &E, depth: u32, ply: u32) -> i32 {
    let first = pos.turn() == Player::First;
    if let Some(o) = pos.outcome() {
        let v = search::terminal_score(o, Player::First, ply);
        return v;
    }
    if depth == 0 {
        let v = e
            .evaluate(pos)
            .clamp(-search::EVAL_LIMIT, search::EVAL_LIMIT);
        return if first { v } else { -v };
    }
    let values: Vec<i32> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            pos.play_unchecked(m);
            let v = max_min(pos, e, depth - 1, ply + 1);
            pos.undo();
            v
        })
        .collect();
    if first {
        values.into_iter().max().unwrap()
    } else {
        values.into_iter().min().unwrap()
    }
}

proptest! {
    #![proptest_config(fixed_config(48, 2028))]

    /// Where a player moves again the searches keep the child's value (and, in alpha-beta, the
    /// window) instead of negating it: both equal the article's Max/Min.
    #[test]
    fn the_searches_agree_with_max_min_on_kalah_and_its_extra_moves(
        seed in any::<u64>(), plies in 0usize..40, depth in 1u32..=6, six in any::<bool>()
    ) {
        let start = games::Kalah::start(games::kalah::KalahVariant { pits: if six { 6 } else { 3 }, seeds: if six { 4 } else { 3 } });
        let mut pos = random_position(start, seed, plies);
        let e = eval::standard(&pos, &Default::default());
        let want = max_min(&mut pos, &e, depth, 0);
        let first = pos.turn() == Player::First;
        let ((mm, mm_nodes), (ab, ab_nodes)) = both(pos, depth);
        prop_assert_eq!(if first { mm } else { -mm }, want);
        prop_assert_eq!(mm, ab);
        prop_assert!(ab_nodes <= mm_nodes);
    }
}

/// From Kalah(6,4)'s start, pits 3 to 6 each put a seed in the store (+100 at depth 1), but only
/// pit 3's last seed lands there, so at depth 2 its extra move sows pit 6 for a second seed (+200);
/// after 4, 5 or 6 the opponent answers in kind.
#[test]
fn at_depth_two_minimax_takes_the_extra_move_in_kalah() {
    let pos = games::Kalah::start(games::kalah::KalahVariant::default());
    let eval = eval::standard(&pos, &Default::default());
    for seed in 1..=5 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let r = search::minimax(&pos, &eval, &Budget::fixed_depth(1), &mut rng, &mut |_| {});
        assert_eq!(r.score, 100);
        assert!(["3", "4", "5", "6"].contains(&r.best.unwrap().to_string().as_str()));
        let r = search::minimax(&pos, &eval, &Budget::fixed_depth(2), &mut rng, &mut |_| {});
        assert_eq!(
            (r.best.unwrap().to_string(), r.score),
            ("3".to_string(), 200)
        );
    }
}

#[test]
fn alpha_beta_visits_far_fewer_nodes_on_average() {
    let mut totals = [(0u64, 0u64); 3];
    for seed in 0..10u64 {
        let (a, b) = both(random_position(TicTacToe::new(4, 4, 3), seed, 3), 5);
        assert_eq!(a.0, b.0);
        totals[0].0 += a.1;
        totals[0].1 += b.1;
        let (a, b) = both(random_position(Connect4::default(), seed, 8), 6);
        assert_eq!(a.0, b.0);
        totals[1].0 += a.1;
        totals[1].1 += b.1;
        let (a, b) = both(random_position(Dots::new(6, 6, Start::Cross), seed, 8), 3);
        assert_eq!(a.0, b.0);
        totals[2].0 += a.1;
        totals[2].1 += b.1;
    }
    for (game, (mm, ab)) in ["tictactoe 4x4", "connect4", "dots 6x6"].iter().zip(totals) {
        assert!(ab * 3 < mm, "{game}: alpha-beta {ab} nodes, minimax {mm}");
    }
}

#[test]
fn iterative_deepening_reports_every_depth_and_agrees_with_minimax() {
    let pos = random_position(Connect4::default(), 7, 6);
    let eval = eval::standard(&pos, &Default::default());
    let mut reports = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let r = search::iterative_deepening(&pos, &eval, &Budget::fixed_depth(6), &mut rng, &mut |i| {
        reports.push(i.clone())
    });
    assert_eq!(
        reports.iter().map(|i| i.depth).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert!(reports.windows(2).all(|w| w[0].nodes < w[1].nodes));
    let (mm, _) = search::minimax_value(&mut pos.clone(), &eval, 6);
    assert_eq!(r.score, mm);
    assert_eq!(r.pv.first(), r.best.as_ref());
    assert!(pos.is_legal(r.best.unwrap()));
}

#[test]
fn a_node_limit_stops_the_search_at_the_same_move_every_time() {
    let pos = random_position(Connect4::default(), 3, 4);
    let run = || {
        let mut e = AlphaBetaEngine::new(64, 9);
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut last = SearchInfo::default();
        let m = e.choose(&pos, &limits, &mut |i| last = i.clone());
        // Everything but the time is exact.
        last.time_ms = 0;
        (m, last)
    };
    let (m, last) = run();
    assert_eq!(run(), (m, last.clone()));
    assert!(last.nodes <= 20_000 && last.depth >= 4, "{last:?}");
    assert_eq!(last.pv.first(), m.map(|m| m.to_string()).as_ref());
}

#[test]
fn with_no_iteration_completed_the_first_move_is_played() {
    let pos = Dots::new(10, 10, Start::Cross);
    let eval = eval::standard(&pos, &Default::default());
    let budget = Budget {
        depth: 5,
        nodes: Some(1),
        time_ms: None,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let r = search::iterative_deepening(&pos, &eval, &budget, &mut rng, &mut |_| {});
    assert_eq!(r.depth, 0);
    assert!(pos.is_legal(r.best.unwrap()));
    let r = search::minimax(&pos, &eval, &budget, &mut rng, &mut |_| {});
    assert!(pos.is_legal(r.best.unwrap()));
}

#[test]
fn the_time_for_a_move_is_a_share_of_the_clock() {
    let l = |time_ms, inc_ms, movetime_ms| Limits {
        time_ms,
        inc_ms,
        movetime_ms,
        ..Limits::default()
    };
    assert_eq!(
        Budget::time_for_move(&l(Some(10_000), Some(100), None)),
        Some(550)
    );
    assert_eq!(
        Budget::time_for_move(&l(Some(100), Some(1000), None)),
        Some(50)
    );
    assert_eq!(
        Budget::time_for_move(&l(Some(10_000), None, Some(30))),
        Some(24)
    );
    assert_eq!(
        Budget::time_for_move(&l(None, None, Some(5000))),
        Some(4900)
    );
    assert_eq!(Budget::time_for_move(&l(None, Some(100), None)), None);
    let b = Budget::from_limits(
        &Limits {
            depth: Some(4),
            ..Limits::default()
        },
        9,
    );
    assert_eq!((b.depth, b.time_ms), (4, None));
    assert_eq!(
        Budget::from_limits(&Limits::default(), 9).time_ms,
        Some(1000)
    );
}

#[test]
fn a_forced_win_is_found_and_the_faster_one_preferred() {
    // Connect Four: the first player has 4, 5, 6 on the bottom row and wins on 7 at once.
    let pos = Connect4::from_moves(7, 6, "415263").unwrap();
    for engine in 0..2 {
        let mut last = SearchInfo::default();
        let m = match engine {
            0 => MinimaxEngine::new(4, 1).choose(&pos, &no_clock(), &mut |i| last = i.clone()),
            _ => AlphaBetaEngine::new(8, 1).choose(&pos, &no_clock(), &mut |i| last = i.clone()),
        };
        assert_eq!(m.unwrap().to_string(), "7");
        assert_eq!(last.score, i64::from(MATE - 1));
    }
}

/// Points of the engine `make(seed)` against `random` over both colours of `start` for seeds
/// 1..=`seeds` (a win 2, a draw 1), and the most it could score.
fn points_against_random<G: Game, E: Engine>(
    start: &G,
    seeds: u64,
    make: impl Fn(u64) -> E,
) -> (u32, u32) {
    let limits = no_clock();
    let mut points = 0;
    for seed in 1..=seeds {
        let mut random = RandomEngine::new(seed);
        let mut bot = make(seed);
        for me in [Player::First, Player::Second] {
            let end = if me == Player::First {
                play_out(start.clone(), &mut bot, &mut random, &limits)
            } else {
                play_out(start.clone(), &mut random, &mut bot, &limits)
            };
            points += match end.outcome().unwrap() {
                Outcome::Win(p) if p == me => 2,
                Outcome::Draw => 1,
                Outcome::Win(_) => 0,
            };
        }
    }
    (points, 4 * seeds as u32)
}

#[test]
fn minimax_and_alphabeta_beat_random_in_every_game() {
    fn check<G: Game>(start: G, depth: u32, seeds: u64) {
        for (name, (points, max)) in [
            (
                "minimax",
                points_against_random(&start, seeds, |s| MinimaxEngine::new(depth, s)),
            ),
            (
                "alphabeta",
                points_against_random(&start, seeds, |s| AlphaBetaEngine::new(depth, s)),
            ),
        ] {
            assert!(
                points * 10 >= max * 8,
                "{name} in {}: {points} of {max}",
                start.spec()
            );
        }
    }
    check(TicTacToe::default(), 3, 10);
    check(Connect4::default(), 3, 10);
    check(Dots::new(8, 8, Start::Cross), 2, 4);
}
