//! Replays the random games of `shared/data/dots-random-games` (scores after every move computed by
//! oppai-rs's field engine, see its README) and checks every move's legality, both scores after
//! every move, the end of the game, and undo back to the start.

use std::path::Path;

use games::dots::{Dots, Move, Start};
use games::Game;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/data/dots-random-games"
);

struct Record {
    file: String,
    number: String,
    width: u8,
    height: u8,
    start: Start,
    /// Each move with both scores after it.
    moves: Vec<(Move, [u32; 2])>,
    end: [u32; 2],
}

fn scores(a: &str, b: &str) -> [u32; 2] {
    [a.parse().unwrap(), b.parse().unwrap()]
}

fn read_games() -> Option<Vec<Record>> {
    let dir = Path::new(DIR);
    assert!(
        dir.is_dir(),
        "{DIR}: the oracle's games live beside the repository"
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut games = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["game", number, size, start] => {
                    let (w, h) = size.split_once('x').unwrap();
                    let start = match start.strip_prefix("start=").unwrap() {
                        "empty" => Start::Empty,
                        "cross" => Start::Cross,
                        other => panic!("{file}: unknown start {other}"),
                    };
                    games.push(Record {
                        file: file.clone(),
                        number: number.to_string(),
                        width: w.parse().unwrap(),
                        height: h.parse().unwrap(),
                        start,
                        moves: Vec::new(),
                        end: [0; 2],
                    });
                }
                ["end", a, b] => games.last_mut().unwrap().end = scores(a, b),
                [m, a, b] => games
                    .last_mut()
                    .unwrap()
                    .moves
                    .push((m.parse().unwrap(), scores(a, b))),
                [] => {}
                _ => panic!("{file}: bad line {line:?}"),
            }
        }
    }
    Some(games)
}

/// Replays one game; the first discrepancy as a message with the board.
fn replay(g: &Record) -> Result<Dots, String> {
    let mut pos = Dots::new(g.width, g.height, g.start);
    for (k, &(m, expected)) in g.moves.iter().enumerate() {
        let before = pos.clone();
        let here = format!("{} game {} move {} ({m})", g.file, g.number, k + 1);
        pos.play(m)
            .map_err(|e| format!("{here}: {e}; board before:\n{before}"))?;
        let got = pos.score().unwrap();
        if got != expected {
            return Err(format!(
                "{here}: score {got:?}, oracle {expected:?}\nbefore:\n{before}\nafter:\n{pos}"
            ));
        }
    }
    let here = format!("{} game {} end", g.file, g.number);
    if pos.free_points() != 0 || !pos.legal_moves().is_empty() {
        return Err(format!(
            "{here}: {} legal points left\n{pos}",
            pos.free_points()
        ));
    }
    if pos.outcome().is_none() || pos.score() != Some(g.end) {
        return Err(format!(
            "{here}: outcome {:?} score {:?}, oracle {:?}\n{pos}",
            pos.outcome(),
            pos.score(),
            g.end
        ));
    }
    Ok(pos)
}

#[test]
#[ignore = "needs the oracle games in ../shared/data/dots-random-games, beside the repository"]
fn every_oracle_game_replays_with_the_same_scores() {
    let games = read_games().expect("the oracle's games");
    assert!(games.len() >= 430, "only {} games read", games.len());
    let mut failures = Vec::new();
    for g in &games {
        if let Err(e) = replay(g) {
            failures.push(e);
        }
    }
    for f in failures.iter().take(3) {
        eprintln!("{f}\n");
    }
    assert!(
        failures.is_empty(),
        "{} of {} oracle games fail",
        failures.len(),
        games.len()
    );
    eprintln!("{} oracle games replayed", games.len());
}

#[test]
#[ignore = "needs the oracle games in ../shared/data/dots-random-games, beside the repository"]
fn undo_all_the_way_back_restores_the_start() {
    let games = read_games().expect("the oracle's games");
    for g in games.iter().step_by(7) {
        let start = Dots::new(g.width, g.height, g.start);
        let mut pos = replay(g).unwrap();
        let n = pos.ply();
        for _ in 0..n {
            pos.undo();
        }
        assert_eq!(pos, start, "{} game {}", g.file, g.number);
        assert_eq!(pos.to_string(), start.to_string());
        assert_eq!(pos.score(), Some([0, 0]));
        assert_eq!(pos.legal_moves(), start.legal_moves());
    }
}

#[test]
#[ignore = "needs the oracle games in ../shared/data/dots-random-games, beside the repository"]
fn every_move_undoes_to_an_equal_position() {
    let games = read_games().expect("the oracle's games");
    for g in games.iter().step_by(37) {
        let mut pos = Dots::new(g.width, g.height, g.start);
        for &(m, _) in &g.moves {
            let before = pos.clone();
            pos.play(m).unwrap();
            let after = pos.clone();
            pos.undo();
            assert_eq!(pos, before, "{} game {} undo of {m}", g.file, g.number);
            pos.play(m).unwrap();
            assert_eq!(pos, after, "{} game {} replay of {m}", g.file, g.number);
        }
    }
}
