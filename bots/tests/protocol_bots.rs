//! The reference search bots over the UGI loop: options, `info` reports and `bestmove`.

use bots::alphabeta::AlphaBetaEngine;
use bots::boardvalue::BoardValueEngine;
use bots::engine::Engine;
use bots::minimax::MinimaxEngine;
use bots::protocol::serve;

fn session(engine: &mut impl Engine, input: &str) -> String {
    let mut out = Vec::new();
    serve(engine, input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn alphabeta_reports_each_depth_then_its_move() {
    let out = session(
        &mut AlphaBetaEngine::default(),
        "ugi\nsetoption name seed value 5\nsetoption name c4_centre value 10\n\
         game connect4 7 6\nisready\nuginewgame\nposition startpos moves 4 4\ngo depth 4\nquit\n",
    );
    for needle in [
        "option name depth type spin",
        "option name seed type spin default 0",
        "option name c4_line3 type spin default 20",
        "ugiok",
        "readyok",
        "info depth 1 score",
        "info depth 4 score",
    ] {
        assert!(out.contains(needle), "{needle:?} in\n{out}");
    }
    assert!(!out.contains("error"), "{out}");
    let best = out.lines().last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best.len() == "bestmove 4".len(),
        "{out}"
    );
}

#[test]
fn minimax_and_boardvalue_answer_and_refuse_bad_options() {
    let out = session(
        &mut MinimaxEngine::default(),
        "setoption name depth value 0\nsetoption name depth value 2\nsetoption name colour value 1\n\
         game tictactoe\nposition startpos\ngo\n",
    );
    assert!(
        out.contains("info string error: bad value \"0\" for option depth"),
        "{out}"
    );
    assert!(
        out.contains("info string error: unknown option \"colour\""),
        "{out}"
    );
    assert!(out.contains("info depth 2 score"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );

    let out = session(
        &mut BoardValueEngine::default(),
        "ugi\nsetoption name tiebreak value sometimes\nsetoption name SkillLevel value 9\n\
         game tictactoe 3 3 3\nposition startpos moves a1 b2 b1\ngo\n",
    );
    assert!(
        out.contains("option name tiebreak type combo default first var first var random"),
        "{out}"
    );
    assert!(
        out.contains("bad value \"sometimes\" for option tiebreak"),
        "{out}"
    );
    // O must block the bottom row; the game is a draw with best play.
    assert!(out.contains("info depth 9 score 2 nodes"), "{out}");
    assert!(out.ends_with("bestmove c1\n"), "{out}");
}

/// `position startpos setup …`: every reference bot that plays Dots searches the position with the setup
/// dots, not the bare variant: on a 4×4 board filled but for 4-1 the only legal point is 4-1 (grounding
/// would only draw: every first-player dot is grounded through column 1).
#[test]
fn every_dots_bot_plays_from_a_setup_start() {
    let input = "ugi\ngame dots 4 4 empty\nisready\nuginewgame\n\
                 position startpos setup first 1-1 1-2 1-3 1-4 2-1 2-2 2-3 2-4 \
                 second 3-1 3-2 3-3 3-4 4-2 4-3 4-4\ngo depth 3\nquit\n";
    let outs = [
        (
            "random",
            session(&mut bots::random::RandomEngine::default(), input),
        ),
        ("minimax", session(&mut MinimaxEngine::default(), input)),
        ("alphabeta", session(&mut AlphaBetaEngine::default(), input)),
        (
            "dots-tps",
            session(&mut bots::dots_tps::DotsTps::default(), input),
        ),
    ];
    for (name, out) in outs {
        assert!(!out.contains("error"), "{name}: {out}");
        assert!(out.ends_with("bestmove 4-1\n"), "{name}: {out}");
    }
    // The setup's dots are on the board: first's 3-2 closes the ring round second's 3-3.
    let out = session(
        &mut AlphaBetaEngine::default(),
        "game dots 6 6 empty\nposition startpos setup first 2-3 3-4 4-3 second 3-3 moves 6-6 1-1\n\
         go depth 2\n",
    );
    assert!(out.ends_with("bestmove 3-2\n"), "{out}");
    // A setup dot off the board or on a taken point is an error, answered with no move.
    let out = session(
        &mut AlphaBetaEngine::default(),
        "game dots 6 6 cross\nposition startpos setup first 3-3\ngo depth 1\n",
    );
    assert!(
        out.contains("info string error: setup dot 3-3 is on a point already taken"),
        "{out}"
    );
    assert!(out.ends_with("bestmove (none)\n"), "{out}");
}
