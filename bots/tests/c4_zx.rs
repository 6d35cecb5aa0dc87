//! `c4-zx`, the Connect Four program of seed `003_b3294bcb59fe041f.txt` (ZX Format #5): the strength
//! `SM` on hand-counted boards, each priority rule of lines 300–550, the two slips and their literal
//! readings, the weights as options, the article's deeper search, the protocol, and games against a
//! random player. All exact: fixed positions, seeded generators, no clock.
//!
//! Boards are written top row first; `X` is the side to move (the article's colour 1), `O` the
//! opponent. Columns in assertions are 0-based (`3` is the notation `4`).

use bots::c4_zx::board::{Board, OPP, OWN};
use bots::c4_zx::deepen::WIN;
use bots::c4_zx::{
    decide, decide_within, priorities, C4Zx, Decision, Params, Priority, TieBreak, TwoPly,
};
use bots::engine::{Engine, Limits, SearchInfo};
use bots::protocol::serve;
use games::{Connect4, Game, Outcome, Player, TicTacToe};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn board(rows: &[&str]) -> Board {
    Board::from_rows(rows).unwrap()
}

fn decide_with(rows: &[&str], params: &Params) -> Decision {
    decide(&board(rows), params, &mut ChaCha8Rng::seed_from_u64(1))
}

fn defaults() -> Params {
    Params::default()
}

// --- SM, subroutine 1000 -------------------------------------------------------------------------

#[test]
fn sm_of_the_empty_board_and_of_one_disc() {
    let empty = board(&["......."; 6]);
    assert_eq!((empty.sm(OWN), empty.sm(OPP)), (0, 0));
    // One own disc: its column's window holds 1; O has only empty windows.
    let one = board(&[
        ".......", ".......", ".......", ".......", ".......", "...X...",
    ]);
    assert_eq!((one.sm(OWN), one.sm(OPP)), (1, 0));
}

#[test]
fn sm_vertical_three_counts_and_an_enemy_disc_on_top_closes_it() {
    let three = board(&[
        ".......", ".......", ".......", "X......", "X......", "X......",
    ]);
    assert_eq!(three.sm(OWN), 3);
    // O on top: every vertical window of column 1 holds it; what is left is the bottom row's
    // window 1–4 (one X, three playable gaps). O's disc: its row and its diagonal (4,1)-(1,4) have
    // floating gaps, its column holds X discs: 0.
    let capped = board(&[
        ".......", ".......", "O......", "X......", "X......", "X......",
    ]);
    assert_eq!((capped.sm(OWN), capped.sm(OPP)), (1, 0));
}

#[test]
fn sm_a_horizontal_three_over_a_floating_gap_counts_nothing() {
    // X's three on row 2 lacks (4, 2), which floats over the empty column 4: the window is closed
    // and X's best is a vertical window in columns 1–3 (one disc). O's three on row 1 has its gap
    // (4, 1) playable: 3.
    let floating = board(&[
        ".......", ".......", ".......", ".......", "XXX....", "OOO....",
    ]);
    assert_eq!((floating.sm(OWN), floating.sm(OPP)), (1, 3));
    // A disc under the gap makes it playable: X reads 3; O's row is now blocked by that X disc,
    // its diagonal (3,1)-(4,2)-(5,3)-(6,4) has floating gaps, and every other O window holds an X.
    let playable = board(&[
        ".......", ".......", ".......", ".......", "XXX....", "OOOX...",
    ]);
    assert_eq!((playable.sm(OWN), playable.sm(OPP)), (3, 0));
}

#[test]
fn sm_diagonals_need_their_gaps_playable() {
    // X: (1,1) (2,2) (3,3) and the gap (4,4) right on top of column 4: 3.
    // O: the diagonal (2,1) (3,2) (4,3) has its gap (5,4) floating over an empty column 5: 0;
    // O's best is the vertical window (4,2)-(4,5) with two discs.
    let rows = [
        ".......", ".......", ".......", "..XO...", ".XOO...", "XOOX...",
    ];
    let b = board(&rows);
    assert_eq!((b.sm(OWN), b.sm(OPP)), (3, 2));
    // Three discs in column 5 make (5,4) playable: O's diagonal now reads 3.
    let filled = board(&[
        ".......", ".......", ".......", "..XOO..", ".XOOX..", "XOOXX..",
    ]);
    assert_eq!((filled.sm(OWN), filled.sm(OPP)), (3, 3));
}

#[test]
fn sm_four_in_a_row_is_four() {
    let b = board(&[
        ".......", ".......", ".......", ".......", "OOO....", "XXXX...",
    ]);
    assert_eq!(b.sm(OWN), 4);
}

#[test]
fn the_two_ply_table_marks_an_impossible_own_move_with_5() {
    let mut b = board(&[
        "X......", "O......", "X......", "O......", "X......", "O......",
    ]);
    let t = TwoPly::build(&mut b);
    assert_eq!(t.b(0, 3, 1), 5);
    assert_eq!(t.b(0, 3, 2), 0);
    // Own move 2 then reply 2: two discs stacked in column 2, O on top.
    assert_eq!(t.reply(1, 1), Some([1, 1]));
    assert_eq!(t.nodes(), 6 + 6 * 6);
}

// --- The priority rules, lines 300–550 -----------------------------------------------------------

#[test]
fn wins_at_once_when_it_can() {
    let rows = [
        ".......", ".......", ".......", ".......", "OOO....", "XXX....",
    ];
    let d = decide_with(&rows, &defaults());
    assert_eq!(d.priorities[3], Priority::Four);
    assert_eq!(d.column, Some(3));
}

#[test]
fn blocks_the_opponents_immediate_four() {
    // Every move but column 4 lets O complete row 1: 199.
    let rows = [
        ".......", ".......", ".......", ".......", "XX.....", "OOO....",
    ];
    let d = decide_with(&rows, &defaults());
    for m in [0, 1, 2, 4, 5, 6] {
        assert_eq!(d.priorities[m], Priority::OpponentFour, "column {m}");
    }
    assert!(matches!(d.priorities[3], Priority::Weighted(_)));
    assert_eq!(d.column, Some(3));
}

#[test]
fn never_plays_a_full_column_even_when_every_other_move_loses() {
    // O's open three on row 1 cannot be stopped at both ends: every possible move is 199, the full
    // column 1 is 200, and the first 199 (column 2) is played.
    let rows = [
        "O......", "X......", "O......", "X......", "O.XXX..", "X.OOO..",
    ];
    let d = decide_with(&rows, &defaults());
    assert_eq!(d.priorities[0], Priority::Full);
    assert!(d.priorities[1..]
        .iter()
        .all(|&p| p == Priority::OpponentFour));
    assert_eq!(d.column, Some(1));
    assert!(!d.order.contains(&0));
    // No move at all on a full board.
    let full = board(&["XO"; 6]);
    let none = decide(&full, &defaults(), &mut ChaCha8Rng::seed_from_u64(1));
    assert_eq!(none.column, None);
}

#[test]
fn an_open_three_that_survives_every_reply_is_priority_2() {
    // X to move with two on row 1: columns 2 and 5 make three with both ends playable, so after any
    // reply one end is still open (lines 383–398). The first of them is played.
    let rows = [
        ".......", ".......", ".......", ".......", "..OO...", "..XX...",
    ];
    let d = decide_with(&rows, &defaults());
    assert_eq!(d.priorities[1], Priority::OpenThree);
    assert_eq!(d.priorities[4], Priority::OpenThree);
    assert!(d
        .priorities
        .iter()
        .enumerate()
        .all(|(m, &p)| m == 1 || m == 4 || matches!(p, Priority::Weighted(_))));
    assert_eq!(d.column, Some(1));
}

#[test]
fn equal_priorities_go_to_the_leftmost_column_or_a_seeded_random_one() {
    // The empty board: every move scores X = Y = 7 (one disc each, every window open): C = 100.
    let empty = board(&["......."; 6]);
    let d = decide(&empty, &defaults(), &mut ChaCha8Rng::seed_from_u64(1));
    assert!(d
        .priorities
        .iter()
        .all(|&p| p == Priority::Weighted(10_000)));
    assert_eq!(d.column, Some(0));
    let random = Params {
        tiebreak: TieBreak::Random,
        ..defaults()
    };
    let picks: Vec<Option<usize>> = (0..20)
        .map(|s| decide(&empty, &random, &mut ChaCha8Rng::seed_from_u64(s)).column)
        .collect();
    let again: Vec<Option<usize>> = (0..20)
        .map(|s| decide(&empty, &random, &mut ChaCha8Rng::seed_from_u64(s)).column)
        .collect();
    assert_eq!(picks, again);
    assert!(picks.iter().any(|&c| c != Some(0)), "{picks:?}");
}

// --- The slips and their literal readings ---------------------------------------------------------

#[test]
fn literal_line310_misses_the_win_that_c_of_b_equals_1_takes() {
    // As written, line 310 assigns to `D(B)` and no move gets priority 1. The winning column 4 is then
    // judged by the table, which plays a reply after the win: O's reply on (4, 2) completes O's row 2,
    // so the winning move reads 199 and the program plays elsewhere.
    let rows = [
        ".......", ".......", ".......", ".......", "OOO....", "XXX....",
    ];
    let literal = Params {
        literal_line310: true,
        ..defaults()
    };
    let d = decide_with(&rows, &literal);
    assert_eq!(d.priorities[3], Priority::OpponentFour);
    assert!(!d.priorities.contains(&Priority::Four));
    assert_ne!(d.column, Some(3));
    assert_eq!(decide_with(&rows, &defaults()).column, Some(3));
}

/// One O disc in column 4, X to move. Hand count for own move 3 (column index 2): X's disc keeps its
/// vertical window except after reply 3 on top of it, so X = 6·f(1) = 6; O's best after the replies
/// 1..7 is 1, 1, 1, 2, 2, 2, 2, so Y = 3 + 4·f(2) = 19. For own move 1: X = 6 again, O's best after
/// replies 1..7 is 1, 2, 2, 2, 2, 2, 2, so Y = 1 + 6·4 = 25.
const ONE_DISC: [&str; 6] = [
    ".......", ".......", ".......", ".......", ".......", "...O...",
];

#[test]
fn fixed_sign_y_minus_x_and_literal_sign_x_minus_y_choose_differently() {
    let fixed = decide_with(&ONE_DISC, &defaults());
    assert_eq!(
        fixed.priorities[2],
        Priority::Weighted(100 * (19 - 6 + 100))
    );
    assert_eq!(
        fixed.priorities[0],
        Priority::Weighted(100 * (25 - 6 + 100))
    );
    // 113 is the least (columns 3 and 5); the first is played: next to the enemy disc.
    assert_eq!(fixed.column, Some(2));
    let literal = Params {
        literal_sign: true,
        ..defaults()
    };
    let lit = decide_with(&ONE_DISC, &literal);
    assert_eq!(lit.priorities[2], Priority::Weighted(100 * (6 - 19 + 100)));
    assert_eq!(lit.priorities[0], Priority::Weighted(100 * (6 - 25 + 100)));
    // 81 is the least: the corner, as far from the fight as possible.
    assert_eq!(lit.column, Some(0));
}

// --- The weights as options -------------------------------------------------------------------------

#[test]
fn the_weights_change_the_choice() {
    // weight_two = 0: O's twos no longer count, Y(col 3) = 3 and Y(col 1) = 1, so C = 97 and 95:
    // column 1 now wins.
    let mut engine = C4Zx::default();
    engine.set_option("weight_two", "0").unwrap();
    let d = decide_with(&ONE_DISC, &engine.params);
    assert_eq!(d.priorities[2], Priority::Weighted(100 * (3 - 6 + 100)));
    assert_eq!(d.priorities[0], Priority::Weighted(100 * (1 - 6 + 100)));
    assert_eq!(d.column, Some(0));
    // opp_weight = 0: only X counts, every move has X = 6 and the leftmost is played.
    let mut engine = C4Zx::default();
    engine.set_option("opp_weight", "0").unwrap();
    let d = decide_with(&ONE_DISC, &engine.params);
    assert!(d
        .priorities
        .iter()
        .all(|&p| p == Priority::Weighted(10_000 - 600)));
    assert_eq!(d.column, Some(0));
    // own_weight and weight_three scale as percent and as f(3).
    let mut engine = C4Zx::default();
    engine.set_option("own_weight", "200").unwrap();
    engine.set_option("weight_three", "30").unwrap();
    let d = decide_with(&ONE_DISC, &engine.params);
    assert_eq!(
        d.priorities[2],
        Priority::Weighted(100 * 19 - 200 * 6 + 10_000)
    );
}

#[test]
fn weighted_sums_keep_their_class_whatever_the_weights() {
    // A huge own weight cannot lift a weighted move above a win or below a loss.
    let params = Params {
        weight_three: 1000,
        own_weight: 1000,
        ..defaults()
    };
    let rows = [
        ".......", ".......", ".......", ".......", "OOO....", "XXX....",
    ];
    let mut b = board(&rows);
    let p = priorities(&TwoPly::build(&mut b), &params);
    assert_eq!(p[3], Priority::Four);
    // As plain numbers these sums would fall below the win's 1.
    assert!(p
        .iter()
        .any(|&q| matches!(q, Priority::Weighted(c) if c < 100)));
    assert_eq!(
        decide(&b, &params, &mut ChaCha8Rng::seed_from_u64(1)).column,
        Some(3)
    );
}

// --- "How to strengthen": the deeper search ----------------------------------------------------------

#[test]
fn deepen_avoids_the_open_two_the_table_cannot_see() {
    // O's two on row 1 has both sides open. The table counts a three as 3 whether one end or both
    // are open: after column 7 (an own vertical two, X = 6·4 = 24) four replies give O a three
    // (Y = 4·10 + 3·4 = 52), C = 128, the least. But O's reply in column 2 or 5 makes a three with
    // both ends playable, which cannot be stopped; three plies more find that loss (own move, O's
    // three, one block, O's four: `WIN − 4`) and play column 2 instead.
    let rows = [
        ".......", ".......", ".......", ".......", ".......", "..OO..X",
    ];
    let plain = decide_with(&rows, &defaults());
    assert_eq!(plain.column, Some(6));
    assert!(plain.deepened.is_empty());
    let deep = Params {
        deepen: 3,
        deepen_plies: 3,
        ..defaults()
    };
    let d = decide_with(&rows, &deep);
    assert_eq!(d.order[..3], plain.order[..3]);
    assert_eq!(d.deepened.len(), 3);
    assert_eq!(d.deepened[0], (6, -(WIN - 4)));
    assert_eq!(d.column, Some(1));
    assert!(d.nodes > plain.nodes);
}

#[test]
fn deepen_within_the_time_for_the_move_deepens_ply_by_ply() {
    let rows = [
        ".......", ".......", ".......", ".......", ".......", "..OO..X",
    ];
    let deep = Params {
        deepen: 3,
        deepen_plies: 3,
        ..defaults()
    };
    let within = |time_ms| {
        decide_within(
            &board(&rows),
            &deep,
            &mut ChaCha8Rng::seed_from_u64(1),
            time_ms,
        )
    };
    // No time for the move: round 0 only, each candidate valued right after it is played, which
    // cannot see the open two (the table's choice stands).
    let none = within(Some(0));
    assert_eq!(none.deepened_plies, 0);
    let zero_plies = decide_with(
        &rows,
        &Params {
            deepen_plies: 0,
            ..deep
        },
    );
    assert_eq!(none.deepened, zero_plies.deepened);
    assert_eq!(none.column, zero_plies.column);
    // An hour: every round, the same answer as with no clock.
    let hour = within(Some(3_600_000));
    let unlimited = decide_with(&rows, &deep);
    assert_eq!(hour.deepened_plies, 3);
    assert_eq!(
        (hour.column, &hour.deepened),
        (unlimited.column, &unlimited.deepened)
    );
    assert_eq!(unlimited.deepened_plies, 3);
    assert_eq!(hour.column, Some(1));
}

#[test]
fn deepen_leaves_a_win_alone() {
    let rows = [
        ".......", ".......", ".......", ".......", "OOO....", "XXX....",
    ];
    let deep = Params {
        deepen: 3,
        ..defaults()
    };
    let d = decide_with(&rows, &deep);
    assert_eq!(d.column, Some(3));
    assert!(d.deepened.is_empty());
}

// --- The engine and the protocol --------------------------------------------------------------------

fn session(engine: &mut impl Engine, input: &str) -> String {
    let mut out = Vec::new();
    serve(engine, input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn protocol_declares_the_options_reports_and_answers() {
    let out = session(
        &mut C4Zx::default(),
        "ugi\nsetoption name weight_three value 12\nsetoption name deepen value 3\n\
         game connect4 7 6\nuginewgame\nposition startpos moves 4 4 3 3 6\ngo movetime 100\nquit\n",
    );
    for needle in [
        "id name c4-zx",
        "option name weight_three type spin default 10 min 0 max 1000",
        "option name weight_two type spin default 4 min 0 max 1000",
        "option name own_weight type spin default 100",
        "option name opp_weight type spin default 100",
        "option name literal_line310 type check default false",
        "option name literal_sign type check default false",
        "option name deepen type spin default 0",
        "option name deepen_plies type spin default 3",
        "option name tiebreak type combo default first var first var random",
        "option name seed type spin default 0",
        "info depth 2 score",
    ] {
        assert!(out.contains(needle), "{needle:?} in\n{out}");
    }
    assert!(!out.contains("error"), "{out}");
    // The mover has 3, 4 and 6 on row 1: 5 wins at once.
    assert_eq!(out.lines().last().unwrap(), "bestmove 5", "{out}");
}

#[test]
fn bad_option_values_are_refused() {
    let mut e = C4Zx::default();
    assert!(e.set_option("weight_three", "-1").is_err());
    assert!(e.set_option("literal_sign", "yes").is_err());
    assert!(e.set_option("tiebreak", "last").is_err());
    assert!(e.set_option("depth", "3").is_err());
    e.set_option("literal_sign", "true").unwrap();
    e.set_option("tiebreak", "random").unwrap();
    assert!(e.params.literal_sign);
    assert_eq!(e.params.tiebreak, TieBreak::Random);
}

#[test]
fn other_games_are_refused() {
    let mut e = C4Zx::default();
    let mut infos = Vec::new();
    let m = e.choose(
        &TicTacToe::default(),
        &Limits::default(),
        &mut |i: &SearchInfo| infos.push(i.clone()),
    );
    assert_eq!(m, None);
    assert!(infos.is_empty());
    let out = session(
        &mut C4Zx::default(),
        "game tictactoe\nposition startpos\ngo\n",
    );
    assert!(out.contains("bestmove (none)"), "{out}");
}

#[test]
fn plays_other_connect_four_sizes() {
    let mut e = C4Zx::default();
    for (w, h) in [(9, 9), (5, 4), (4, 4), (3, 3)] {
        let mut pos = Connect4::new(w, h);
        while pos.outcome().is_none() {
            let m = e
                .choose(&pos, &Limits::default(), &mut |_: &SearchInfo| {})
                .expect("a move");
            pos.play(m).unwrap();
        }
    }
}

// --- Games against a random player ------------------------------------------------------------------

/// One game of `zx` against a uniformly random player seeded `seed`; `zx_first` says who starts.
/// Returns the outcome for `zx`: 1 win, 0 draw, -1 loss.
fn play_random(zx: &mut C4Zx, seed: u64, zx_first: bool) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Connect4::default();
    zx.new_game();
    let zx_side = if zx_first {
        Player::First
    } else {
        Player::Second
    };
    while pos.outcome().is_none() {
        let m = if pos.turn() == zx_side {
            zx.choose(&pos, &Limits::default(), &mut |_: &SearchInfo| {})
                .expect("a move")
        } else {
            let moves = pos.legal_moves();
            moves[rng.random_range(0..moves.len())]
        };
        pos.play(m).unwrap();
    }
    match pos.outcome() {
        Some(Outcome::Win(p)) if p == zx_side => 1,
        Some(Outcome::Win(_)) => -1,
        _ => 0,
    }
}

#[test]
fn beats_random_over_many_seeded_games() {
    let mut zx = C4Zx::default();
    let results: Vec<i32> = (1..=100)
        .map(|seed| play_random(&mut zx, seed, seed % 2 == 0))
        .collect();
    let wins = results.iter().filter(|&&r| r == 1).count();
    let losses = results.iter().filter(|&&r| r == -1).count();
    eprintln!("c4-zx vs random: {wins} wins, {losses} losses of 100");
    assert!(wins >= 95, "{wins} wins, {losses} losses");
}

#[test]
fn literal_slips_play_worse_against_random() {
    // Both slips together: the program neither takes its wins nor fears the opponent's lines.
    let mut zx = C4Zx::default();
    zx.set_option("literal_line310", "true").unwrap();
    zx.set_option("literal_sign", "true").unwrap();
    let wins = (1..=100)
        .filter(|&seed| play_random(&mut zx, seed, seed % 2 == 0) == 1)
        .count();
    let mut fixed = C4Zx::default();
    let fixed_wins = (1..=100)
        .filter(|&seed| play_random(&mut fixed, seed, seed % 2 == 0) == 1)
        .count();
    eprintln!("literal {wins}, fixed {fixed_wins} wins of 100");
    assert!(wins < fixed_wins, "literal {wins}, fixed {fixed_wins}");
}
