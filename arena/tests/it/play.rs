//! `arena play`: a person against a bot, with the person's moves piped into the arena's stdin (as a
//! script would type them), through the real binary.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use arena::record::Termination;
use common::arena;
use games::{Game, TicTacToe};

/// Plays `arena play` with `input` as the person's typing; returns (status, stdout, stderr).
fn play(dir: &std::path::Path, args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = arena()
        .arg("play")
        .args(args)
        .arg("--results")
        .arg(dir.join("results"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The one game recorded under `<dir>/results/play-*`.
fn recorded(dir: &std::path::Path) -> arena::record::GameRecord {
    let folders: Vec<_> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("play-")
        })
        .collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    let games = arena::results::read_games_csv(&folders[0].join("games.csv")).unwrap();
    assert_eq!(games.len(), 1);
    games.into_iter().next().unwrap()
}

#[test]
fn a_person_plays_tic_tac_toe_against_a_bot_and_the_game_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    // A line that is no move, then every square in order: each one already taken is refused with the
    // reason, and the next line is tried, so the game always goes on to its end.
    let input = "banana\na1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n";
    let (ok, stdout, stderr) = play(
        dir.path(),
        &["--game", "tictactoe", "--vs", "random", "--set", "seed=7"],
        input,
    );
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("not a move"), "{stdout}");
    assert!(stdout.contains("your move"), "{stdout}");
    assert!(stdout.contains("you play X"), "{stdout}");
    assert!(stdout.contains("Clocks: you no clock, bot 0:"), "{stdout}");
    assert!(stdout.contains("recorded as g0001"), "{stdout}");

    let game = recorded(dir.path());
    assert_eq!(
        (game.first.as_str(), game.second.as_str()),
        ("you", "random")
    );
    assert_eq!(game.termination, Termination::Normal);
    // The record is a legal game that ended by the rules, and the person's moves are the first legal
    // ones of the typed order at each turn.
    let mut pos = TicTacToe::new(3, 3, 3);
    let typed = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    for (ply, text) in game.moves.iter().enumerate() {
        if ply % 2 == 0 {
            let expected = typed
                .iter()
                .find(|t| pos.is_legal(t.parse().unwrap()))
                .unwrap();
            assert_eq!(text, expected, "ply {}", ply + 1);
        }
        pos.play(text.parse().unwrap()).unwrap();
    }
    assert!(pos.outcome().is_some());
    assert!(
        stdout.contains(&format!("you {} random", game.result)),
        "{stdout}"
    );
}

/// Regression: a person's resignation was recorded as a `protocol` forfeit (`bestmove (none)`).
#[test]
fn a_person_who_stops_typing_resigns_and_loses_the_game_by_resignation() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr) = play(
        dir.path(),
        &["--game", "connect4", "7", "6", "--vs", "random", "--second"],
        "4\n",
    );
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("you play O"), "{stdout}");
    assert!(stdout.contains("end of input"), "{stdout}");
    let game = recorded(dir.path());
    assert_eq!(
        (game.first.as_str(), game.second.as_str()),
        ("random", "you")
    );
    assert_eq!(game.result, arena::record::GameResult::FirstWins);
    assert_eq!(game.termination, Termination::Resign, "{game:?}");
    assert!(!game.termination.is_forfeit());
    assert_eq!(game.detail, "you: resigned");
    assert_eq!(game.moves.len(), 3, "{:?}", game.moves);
    assert!(
        stdout.contains("random 1-0 you: resign (you: resigned)"),
        "{stdout}"
    );
}

#[test]
fn a_person_who_types_resign_loses_by_resignation_on_the_first_move() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr) = play(
        dir.path(),
        &["--game", "tictactoe", "--vs", "random"],
        "resign\nb2\n",
    );
    assert!(ok, "stdout:\n{stdout}\nstderr:\n{stderr}");
    let game = recorded(dir.path());
    assert_eq!(
        (game.first.as_str(), game.second.as_str()),
        ("you", "random")
    );
    assert_eq!(game.result, arena::record::GameResult::SecondWins);
    assert_eq!(
        (game.termination, game.detail.as_str()),
        (Termination::Resign, "you: resigned")
    );
    assert!(game.moves.is_empty(), "{:?}", game.moves);
    // The person's side answered `bestmove resign` (the transcript shows what the arena read).
    let folder = std::fs::read_dir(dir.path().join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("games.csv").is_file())
        .unwrap();
    let log =
        std::fs::read_to_string(folder.join("logs").join(format!("{}.log", game.id))).unwrap();
    assert!(log.contains("bestmove resign"), "{log}");
}

#[test]
fn an_unknown_bot_is_a_clear_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, _stdout, stderr) = play(dir.path(), &["--game", "tictactoe", "--vs", "randm"], "");
    assert!(!ok);
    assert!(stderr.contains("not a built-in bot"), "{stderr}");
}

/// `arena play … > file`: the boards and the summary follow each other in the file, none written over
/// another (the person's side reopens the arena's stdout by its `/proc` path, which for a file is a
/// second open file with an offset of its own).
#[test]
fn a_game_played_into_a_file_keeps_every_board_and_the_summary_after_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let mut child = arena()
        .args(["play", "--game", "tictactoe", "--vs", "random"])
        .arg("--results")
        .arg(dir.path().join("results"))
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&file).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", common::text(&out));
    let shown = std::fs::read_to_string(&file).unwrap();
    // The first board, asking for the first move, comes first; the summary last.
    assert!(
        shown.trim_start().starts_with("1 2 3") || shown.contains("ply 0, you play X"),
        "{shown}"
    );
    let first = shown.find("ply 0, you play X").unwrap_or(usize::MAX);
    let summary = shown.find("recorded as g0001").unwrap_or(0);
    assert!(first < summary, "{shown}");
    assert_eq!(shown.matches("recorded as").count(), 1, "{shown}");
    assert!(!shown.contains('\0'), "{shown:?}");
}
