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
