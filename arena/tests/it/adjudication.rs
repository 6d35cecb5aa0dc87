//! End to end: `[adjudication]` (games ended by the bots' own scores, as cutechess's `-resign` and
//! `-draw`) and the config's `pgnout`, through the `arena` binary. The bots are the arena's random bot
//! behind a filter that reports a fixed score before each of its moves, so the scores do not depend on
//! any search.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use arena::record::{GameResult, Termination};
use common::{games, run, text, write_config};
use games::Player;

/// Writes `scored.sh`: runs `$1 bot random` and writes `info depth 3 score $2` before each of its
/// `bestmove` lines.
fn scored_bot(dir: &Path) -> String {
    let script = dir.join("scored.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n\"$1\" bot random | sed -u \"s/^bestmove/info depth 3 score $2\\nbestmove/\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

/// A Connect Four round-robin of `bots` (TOML `[[bots]]` entries) with `extra` keys, 4 games.
fn config(dir: &Path, name: &str, extra: &str, bots: &str) -> std::path::PathBuf {
    write_config(
        dir,
        name,
        &format!(
            "name = \"{name}\"\ngames_per_pair = 4\nseed = 1\nconcurrency = 2\nsandbox = \"none\"\n{extra}\n\
             [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n{bots}"
        ),
    )
}

/// `arena export --format pgn` of the results folder `name` under `dir`: the PGN's text.
fn exported_pgn(dir: &Path, name: &str) -> String {
    let out = common::arena()
        .args(["export"])
        .arg(dir.join("results").join(name))
        .args(["--format", "pgn", "--out"])
        .arg(dir.join(format!("pgn-{name}")))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    std::fs::read_to_string(dir.join(format!("pgn-{name}/games.pgn"))).unwrap()
}

fn scored(name: &str, script: &str, score: i64) -> String {
    format!(
        "[[bots]]\nname = \"{name}\"\ncommand = {script:?}\nargs = [{:?}, \"{score}\"]\n",
        env!("CARGO_BIN_EXE_arena")
    )
}

#[test]
fn a_bot_whose_scores_stay_lost_resigns_and_the_record_says_adjudicated() {
    let tmp = tempfile::tempdir().unwrap();
    let script = scored_bot(tmp.path());
    let bots = format!(
        "{}[[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
        scored("loser", &script, -900)
    );
    let path = config(
        tmp.path(),
        "resign",
        "[adjudication]\nresign_moves = 2\nresign_score = 500\n",
        &bots,
    );
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "resign");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        let loser = if g.first == "loser" {
            Player::First
        } else {
            Player::Second
        };
        assert_eq!(g.result, GameResult::loss_of(loser), "{g:?}");
        assert_eq!(g.termination, Termination::Resign, "{g:?}");
        assert_eq!(
            g.detail, "loser: adjudicated: its score was -500 or worse on its last 2 moves",
            "{g:?}"
        );
        // Its second bad score made, it resigns when next to move: two moves of its own.
        assert_eq!(g.moves_by(loser), 2, "{g:?}");
    }
    // The export says adjudication.
    let pgn = exported_pgn(tmp.path(), "resign");
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        4,
        "{pgn}"
    );
}

#[test]
fn quiet_scores_draw_the_game_after_the_move_number() {
    let tmp = tempfile::tempdir().unwrap();
    let script = scored_bot(tmp.path());
    let bots = format!("{}{}", scored("a", &script, 5), scored("b", &script, -3));
    let path = config(
        tmp.path(),
        "draw",
        "pgnout = \"out/live.pgn\"\n[adjudication]\ndraw_after = 3\ndraw_moves = 2\ndraw_score = 10\n",
        &bots,
    );
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    // Run from another folder: the config's pgnout is relative to the config's folder.
    let out = common::arena()
        .arg("run")
        .arg(&path)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .current_dir("/")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "draw");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        // Connect Four cannot end before ply 7: after 3 full moves, both bots had two quiet moves.
        assert_eq!(
            (g.result, g.termination, g.plies),
            (GameResult::Draw, Termination::Adjudicated, 6),
            "{g:?}"
        );
        assert_eq!(
            g.detail, "draw adjudication: both scores within ±10 on their last 2 moves",
            "{g:?}"
        );
    }
    let pgn = std::fs::read_to_string(tmp.path().join("out/live.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"draw\"]").count(), 4, "{pgn}");
    assert_eq!(
        pgn.matches("{+5/3 ").count(),
        12,
        "three moves of a a game\n{pgn}"
    );
    assert_eq!(pgn.matches("{-3/3 ").count(), 12, "{pgn}");

    // Half a rule is an error naming the table.
    let bad = config(tmp.path(), "bad", "[adjudication]\ndraw_moves = 2\n", &bots);
    let out = run(tmp.path(), &bad, &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[adjudication]: draw_moves and draw_score come together"),
        "{stderr}"
    );
}

/// `arena match --solver`: Connect Four games end as soon as the built-in solver proves their value
/// from ply 10 on, recorded `solved` with that value as the result. The same match without the rule
/// plays the same moves (depth-limited alpha-beta, seeded random bot) up to that ply and on past it.
#[test]
fn the_solver_ends_connect_four_games_once_their_value_is_proved() {
    use arena::analyze::connect4::Connect4Oracle;
    use arena::analyze::{AnalyzeOptions, Value};
    use bots::c4_solver::board::{Board, Std7x6};

    let tmp = tempfile::tempdir().unwrap();
    let play = |name: &str, extra: &[&str]| {
        let out = common::arena()
            .args([
                "match",
                "builtin:alphabeta",
                "builtin:random",
                "--game",
                "connect4",
            ])
            .args(["--games", "6", "--tc", "10+0.1", "--set-a", "depth=2"])
            .args(["--random-plies", "2", "--seed", "5", "--concurrency", "2"])
            .args(["--name", name, "--no-progress", "--results"])
            .arg(tmp.path().join("results"))
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let mut g = games(tmp.path(), name);
        g.sort_by(|a, b| a.id.cmp(&b.id));
        g
    };
    let solved = play("solved", &["--solver", "plies=10", "nodes=2000000"]);
    let played = play("played", &[]);
    assert_eq!((solved.len(), played.len()), (6, 6));
    let mut oracle = Connect4Oracle::new("7 6", AnalyzeOptions { nodes: 100_000_000 }).unwrap();
    let mut early = 0;
    for (s, p) in solved.iter().zip(&played) {
        assert_eq!(s.id, p.id);
        match s.termination {
            Termination::Solved => {
                assert!(s.plies >= 10, "{s:?}");
                assert!(s.detail.starts_with("solver: "), "{s:?}");
                // Not over: the full game goes on from the same moves.
                assert!(
                    p.moves.starts_with(&s.moves) && p.plies > s.plies,
                    "{s:?}\n{p:?}"
                );
                early += 1;
                // The value, proved again by analyze's solver (exact scores, a warm table).
                let b = Board::from_moves(Std7x6, &s.moves.concat()).unwrap();
                let value = oracle.position_value(&b).expect("proved");
                let to_move = if s.plies % 2 == 0 {
                    Player::First
                } else {
                    Player::Second
                };
                let expected = match value {
                    Value::Draw => GameResult::Draw,
                    Value::Win => GameResult::loss_of(to_move.opponent()),
                    Value::Loss => GameResult::loss_of(to_move),
                };
                assert_eq!(s.result, expected, "{s:?}");
            }
            // A game over by the rules before ply 10, or before a proof: the same game.
            Termination::Normal => assert_eq!(s.moves, p.moves, "{s:?}"),
            other => panic!("{other}: {s:?}"),
        }
    }
    assert!(early > 0, "no game was adjudicated: {solved:?}");
    // The export says adjudication, as cutechess's tablebase adjudication.
    let pgn = exported_pgn(tmp.path(), "solved");
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        early,
        "{pgn}"
    );
}

/// `solver_plies = 0` in tic-tac-toe: every game is a draw before its first move. A game the solver
/// cannot judge is refused with the reason.
#[test]
fn tic_tac_toe_is_solved_at_once_and_dots_has_no_solver() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(
        tmp.path(),
        "ttt",
        "name = \"ttt\"\ngames_per_pair = 4\nseed = 1\nconcurrency = 2\nsandbox = \"none\"\n\
         [adjudication]\nsolver_plies = 0\n[game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
    );
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "ttt");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        assert_eq!(
            (g.result, g.termination, g.plies),
            (GameResult::Draw, Termination::Solved, 0),
            "{g:?}"
        );
        assert!(g.detail.starts_with("solver: a draw (proved in "), "{g:?}");
    }
    let out = common::arena()
        .args([
            "match",
            "builtin:random",
            "builtin:random",
            "--game",
            "dots",
        ])
        .args(["--tc", "10+0.1", "--solver", "plies=4", "--save-config"])
        .arg(tmp.path().join("dots.toml"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[adjudication]: solver_plies: solving is not available for dots"),
        "{stderr}"
    );
}
