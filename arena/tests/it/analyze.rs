//! `arena analyze`: a tic-tac-toe tournament of random bots analyzed end to end, a hand-checked
//! tic-tac-toe game whose first value-losing move is known from the game's theory, and a Connect Four
//! game with a known blunder built on a position of Pascal Pons's test sets (whose values his solver
//! computed: `shared/data/connect4-pons`, beside the repository; the test is skipped without them).

use crate::common;

use std::path::{Path, PathBuf};

use arena::analyze::{analyze, AnalyzeOptions, Value};
use arena::record::{GameRecord, GameResult, Termination};
use common::{arena, games, run, text, write_config};
use games::{Connect4, Game, Outcome};

fn record(
    game: &str,
    variant: &str,
    opening: usize,
    moves: &[&str],
    result: GameResult,
) -> GameRecord {
    GameRecord {
        id: "g0001".into(),
        round: 1,
        pair: 1,
        game: game.into(),
        variant: variant.into(),
        first: "x".into(),
        second: "o".into(),
        result,
        termination: Termination::Normal,
        detail: String::new(),
        plies: moves.len() as u32,
        score: None,
        time_ms: [0, 0],
        time_control: ["1000+0".into(), "1000+0".into()],
        move_ms: vec![],
        opening: moves[..opening].iter().map(|m| m.to_string()).collect(),
        setup: Default::default(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        seed: 1,
        date: String::new(),
    }
}

#[test]
fn an_edge_reply_to_the_centre_throws_the_draw_away() {
    // Tic-tac-toe is a draw, and against a centre opening only a corner reply holds it: the edge
    // reply b1 (ply 2) loses. X then wins by force: a1 threatens c3, and after o's block a3 threatens
    // both a2 and c1. So o's b1 is the first value-losing move, a draw thrown away, and no other
    // move loses value (x keeps its win; o, lost, has nothing left to lose).
    let moves = ["b2", "b1", "a1", "c3", "a3", "a2", "c1"];
    let r = record("tictactoe", "3 3 3", 0, &moves, GameResult::FirstWins);
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    let g = &a.games[0];
    assert_eq!(g.first_losing_ply, Some(2));
    assert_eq!(g.mover(2), "o");
    assert_eq!(g.plies[0].before, Some(Value::Draw));
    assert_eq!(g.plies[1].before, Some(Value::Draw));
    assert_eq!(g.plies[1].after, Some(Value::Loss));
    let o = a.bots.iter().find(|b| b.bot == "o").unwrap();
    assert_eq!(
        (o.moves, o.draws_thrown, o.wins_thrown, o.unsolved),
        (3, 1, 0, 0)
    );
    let x = a.bots.iter().find(|b| b.bot == "x").unwrap();
    assert_eq!((x.moves, x.value_losing(), x.unsolved), (4, 0, 0));
    // The same game with b2 b1 as its opening: no bot move loses value.
    let r = record("tictactoe", "3 3 3", 2, &moves, GameResult::FirstWins);
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].first_losing_ply, None);
    assert_eq!(a.bots.iter().map(|b| b.moves).sum::<u64>(), 5);
}

#[test]
fn a_result_below_the_start_value_is_charged_to_its_bot() {
    // From the empty board tic-tac-toe is a draw, and x won: o ended below its start value.
    let moves = ["b2", "b1", "a1", "c3", "a3", "a2", "c1"];
    let r = record("tictactoe", "3 3 3", 0, &moves, GameResult::FirstWins);
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].start_value, Some(Value::Draw));
    assert_eq!(a.games[0].below_start, Some(1));
    let below = |a: &arena::analyze::Analysis, bot: &str| {
        a.bots
            .iter()
            .find(|b| b.bot == bot)
            .unwrap()
            .games_below_start
    };
    assert_eq!((below(&a, "x"), below(&a, "o")), (0, 1));
    // After the opening b2 b1 x is winning, and won: nobody is below.
    let r = record("tictactoe", "3 3 3", 2, &moves, GameResult::FirstWins);
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].start_value, Some(Value::Win));
    assert_eq!(a.games[0].below_start, None);
    // The same won position, but x lost on time after three more plies: x threw the win away.
    let mut r = record("tictactoe", "3 3 3", 2, &moves[..5], GameResult::SecondWins);
    r.termination = Termination::Timeout;
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].below_start, Some(0));
    assert_eq!(a.games[0].first_losing_ply, None);
    assert_eq!((below(&a, "x"), below(&a, "o")), (1, 0));
    // A forfeit before any bot move: after the opening b2 b1 x crashed at once. The start is the
    // position the opening left, so x is below it though it made no move.
    let mut r = record("tictactoe", "3 3 3", 2, &moves[..2], GameResult::SecondWins);
    r.termination = Termination::Crash;
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].start_value, Some(Value::Win));
    assert_eq!(a.games[0].below_start, Some(0));
    // The same with no opening and no move at all: the empty board's value is the start.
    let mut r = record("tictactoe", "3 3 3", 0, &[], GameResult::SecondWins);
    r.termination = Termination::Crash;
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].start_value, Some(Value::Draw));
    assert_eq!((below(&a, "x"), below(&a, "o")), (1, 0));
    // A draw adjudicated at the ply limit is no game-theoretic result: nobody is below its start.
    let mut r = record("tictactoe", "3 3 3", 2, &moves[..4], GameResult::Draw);
    r.termination = Termination::Adjudicated;
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    assert_eq!(a.games[0].start_value, Some(Value::Win));
    assert_eq!(a.games[0].below_start, None);
}

#[test]
fn connect4_value_lost_in_unsolved_moves_shows_against_the_start_value() {
    // The opening book (every position of at most 8 plies) proves the two-ply opening `4 4` won for
    // the first player, and x's moves at plies 3, 5 and 7 keep the win (`4`, `4`, then `3`, one of
    // the two winning columns); past the book 1,000 nodes prove nothing, so no move is found
    // value-losing, yet the first player lost: its unsolved move at ply 9 threw the win away (`7`
    // only draws, by `arena solve connect4 --analyze`), and a later move (or its clock) the draw.
    let moves = ["4", "4", "4", "4", "4", "3", "3", "5", "7", "1"];
    let r = record("connect4", "7 6", 2, &moves, GameResult::SecondWins);
    let a = analyze(&[r], AnalyzeOptions { nodes: 1000 }).unwrap();
    let g = &a.games[0];
    assert_eq!(g.start_value, Some(Value::Win));
    assert_eq!(g.first_losing_ply, None);
    assert_eq!(g.below_start, Some(0));
    let x = a.bots.iter().find(|b| b.bot == "x").unwrap();
    assert_eq!((x.moves, x.unsolved, x.games_below_start), (4, 1, 1));
}

#[test]
fn a_random_tictactoe_tournament_is_analyzed() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(
        tmp.path(),
        "ttt",
        "name = \"ttt\"\nformat = \"round-robin\"\ngames_per_pair = 6\nopening_plies = 1\nseed = 11\n\
         [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\ninc_ms = 100\n\
         [[bots]]\nname = \"r1\"\nbuiltin = \"random\"\n[[bots]]\nname = \"r2\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"r3\"\nbuiltin = \"random\"\n",
    );
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "ttt");
    assert_eq!(recorded.len(), 18);
    let dir = tmp.path().join("results").join("ttt");
    let out = arena().arg("analyze").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("value-losing") && stdout.contains("r1"),
        "{stdout}"
    );

    // Every bot move counted once, none unsolved (the 3×3 game is solved whole), and the CSV says
    // what the library computes.
    let a = analyze(&recorded, AnalyzeOptions::default()).unwrap();
    let bot_moves: u64 = recorded
        .iter()
        .map(|r| (r.moves.len() - r.opening.len()) as u64)
        .sum();
    assert_eq!(a.bots.iter().map(|b| b.moves).sum::<u64>(), bot_moves);
    assert!(a.bots.iter().all(|b| b.unsolved == 0 && b.games == 12));
    // Random players blunder: some games have a value-losing move, and a won game's loser made one
    // (a drawn start cannot be lost without one).
    assert!(a.bots.iter().any(|b| b.value_losing() > 0));
    for (r, g) in recorded.iter().zip(&a.games) {
        if r.result != GameResult::Draw {
            assert!(
                g.first_losing_ply.is_some() || r.opening.len() == 9,
                "{r:?}"
            );
        }
        if let Some(p) = g.first_losing_ply {
            assert!(p > r.opening.len());
        }
    }
    let csv = std::fs::read_to_string(dir.join("analysis.csv")).unwrap();
    for b in &a.bots {
        let row = format!(
            "{},{},{},{},{},{},{},",
            b.bot,
            b.games,
            b.moves,
            b.unsolved,
            b.value_losing(),
            b.wins_thrown,
            b.draws_thrown
        );
        assert!(csv.contains(&row), "{row} in {csv}");
    }
    let per_game = std::fs::read_to_string(dir.join("analysis-games.csv")).unwrap();
    assert_eq!(per_game.lines().count(), 19);
    // One row per value-losing move, naming its game, ply, mover and move as recorded.
    let per_move = std::fs::read_to_string(dir.join("analysis-moves.csv")).unwrap();
    let mut rows = per_move.lines();
    assert_eq!(
        rows.next(),
        Some("id,ply,bot,move,value_before,value_after")
    );
    let rows: Vec<Vec<&str>> = rows.map(|l| l.split(',').collect()).collect();
    let losing: u64 = a.bots.iter().map(|b| b.value_losing()).sum();
    assert_eq!(rows.len() as u64, losing);
    let mut order = Vec::new();
    for row in &rows {
        let (r, g) = recorded
            .iter()
            .zip(&a.games)
            .find(|(r, _)| r.id == row[0])
            .expect("a recorded game");
        let k = per_game
            .lines()
            .position(|l| l.starts_with(&format!("{},", row[0])))
            .expect("the game's row in analysis-games.csv");
        let ply: usize = row[1].parse().unwrap();
        order.push((k, ply));
        assert!(ply > r.opening.len());
        assert_eq!(row[2], g.mover(ply));
        assert_eq!(row[3], r.moves[ply - 1]);
        let v = g.plies[ply - 1];
        assert_eq!(v.loses_value(), Some(true));
        let text = |x: Option<Value>| x.expect("proved").as_str();
        assert_eq!((row[4], row[5]), (text(v.before), text(v.after)));
    }
    // In the order of analysis-games.csv, then ply order.
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    for g in &a.games {
        assert_eq!(
            g.value_losing_plies().next(),
            g.first_losing_ply,
            "{}",
            g.id
        );
    }
}

fn pons_sets() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/connect4-pons");
    dir.join("Test_L3_R1").exists().then_some(dir)
}

/// Columns (0-based) after which the opponent can win at once.
fn blunders(pos: &Connect4) -> Vec<u8> {
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let mut p = pos.clone();
        p.play(m).unwrap();
        if p.outcome().is_some() {
            continue;
        }
        let opp_wins = p.legal_moves().into_iter().any(|r| {
            let mut q = p.clone();
            q.play(r).unwrap();
            matches!(q.outcome(), Some(Outcome::Win(_)))
        });
        if opp_wins {
            out.push(m.col);
        }
    }
    out
}

#[test]
#[ignore = "needs Pons's test sets in ../shared/data/connect4-pons, beside the repository"]
fn a_connect4_blunder_from_a_won_position_is_found() {
    let dir = pons_sets().expect("Pons's test sets in ../shared/data/connect4-pons");
    // The first position of Test_L3_R1 that its side to move wins (Pons's score > 0) and where one
    // of its moves lets the opponent win at once: that move throws the win away (hand-checkable: the
    // opponent's next stone makes four). The position's moves are the game's opening, so the blunder
    // is the first bot move.
    let text = std::fs::read_to_string(dir.join("Test_L3_R1")).unwrap();
    let (moves, blunder, win) = text
        .lines()
        .find_map(|line| {
            let (moves, score) = line.split_once(' ')?;
            if score.trim().parse::<i32>().ok()? <= 0 {
                return None;
            }
            let mut pos = Connect4::new(7, 6);
            for c in moves.chars() {
                pos.play(c.to_string().parse().ok()?).ok()?;
            }
            let col = *blunders(&pos).first()?;
            pos.play(games::connect4::Move::new(col)).ok()?;
            let win = pos.legal_moves().into_iter().find(|r| {
                let mut q = pos.clone();
                q.play(*r).unwrap();
                q.outcome().is_some()
            })?;
            Some((moves.to_string(), col, win))
        })
        .expect("a won position with a blunder in Test_L3_R1");
    let mut all: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
    let opening = all.len();
    all.push((blunder + 1).to_string());
    all.push(win.to_string());
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let result = if opening.is_multiple_of(2) {
        GameResult::SecondWins
    } else {
        GameResult::FirstWins
    };
    let r = record("connect4", "7 6", opening, &refs, result);
    let a = analyze(&[r], AnalyzeOptions::default()).unwrap();
    let g = &a.games[0];
    assert_eq!(
        g.first_losing_ply,
        Some(opening + 1),
        "{moves} then {}",
        blunder + 1
    );
    assert_eq!(g.plies[opening].before, Some(Value::Win));
    assert_eq!(g.plies[opening].after, Some(Value::Loss));
    let blunderer = a
        .bots
        .iter()
        .find(|b| b.bot == g.mover(opening + 1))
        .unwrap();
    assert_eq!((blunderer.moves, blunderer.wins_thrown), (1, 1));
    // The winning stone keeps the value.
    assert_eq!(g.plies[opening + 1].loses_value(), Some(false));
}
