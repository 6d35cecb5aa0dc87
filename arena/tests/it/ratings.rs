//! `arena ratings` end to end on written results folders: the head-to-head block once, several
//! folders pooled (and folders of different games refused), bounds for perfect scores, figures that
//! cannot be estimated, and the bootstrap's seed and Monte Carlo error.

use crate::common;

use std::path::{Path, PathBuf};

use arena::record::{GameRecord, GameResult, Termination};
use common::{arena, text};

/// Game `id` of pair `pair` in a Connect Four 7×6 folder, with moves that give `result` (the arena
/// re-referees every row it reads): the winner's four in column 4, or a draw adjudicated at once.
fn game(id: &str, pair: u32, first: &str, second: &str, result: GameResult) -> GameRecord {
    let (moves, termination): (&[&str], _) = match result {
        GameResult::FirstWins => (&["4", "5", "4", "5", "4", "5", "4"], Termination::Normal),
        GameResult::SecondWins => (
            &["1", "4", "1", "4", "2", "4", "2", "4"],
            Termination::Normal,
        ),
        GameResult::Draw => (&[], Termination::Adjudicated),
    };
    GameRecord {
        id: id.into(),
        round: 1,
        pair,
        game: "connect4".into(),
        variant: "7 6".into(),
        first: first.into(),
        second: second.into(),
        result,
        termination,
        detail: String::new(),
        plies: moves.len() as u32,
        score: None,
        time_ms: [0, 0],
        time_control: ["1000+0".into(), "1000+0".into()],
        move_ms: vec![],
        opening: vec![],
        setup: Default::default(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        seed: 1,
        date: String::new(),
    }
}

fn folder(root: &Path, name: &str, games: &[GameRecord]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    arena::results::write_games_csv(&dir.join("games.csv"), games).unwrap();
    dir
}

fn ratings(args: &[&str]) -> (bool, String) {
    let out = arena().arg("ratings").args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &text(&out),
    )
}

/// `n` pairs between a and b: a wins as first, the second game drawn.
fn pairs(n: u32, a: &str, b: &str, prefix: &str) -> Vec<GameRecord> {
    (0..n)
        .flat_map(|p| {
            [
                game(
                    &format!("{prefix}{}", 2 * p),
                    p,
                    a,
                    b,
                    GameResult::FirstWins,
                ),
                game(&format!("{prefix}{}", 2 * p + 1), p, b, a, GameResult::Draw),
            ]
        })
        .collect()
}

#[test]
fn pair_block_is_printed_once_from_the_named_side() {
    let tmp = tempfile::tempdir().unwrap();
    let mut games = pairs(4, "a", "b", "g");
    games.push(game("g9", 9, "b", "a", GameResult::FirstWins));
    let dir = folder(tmp.path(), "ab", &games);
    let dir = dir.to_str().unwrap();
    let (ok, out) = ratings(&[dir, "--pair", "b", "a", "--bootstrap", "50"]);
    assert!(ok, "{out}");
    let stdout = out.split("status").next().unwrap();
    assert_eq!(stdout.matches("b vs a:").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("a vs b:").count(), 0, "{stdout}");
    // b: 1 win, 4 draws, 4 losses; LOS from games and from pairs side by side.
    assert!(stdout.contains("W/D/L 1/4/4"), "{stdout}");
    assert!(
        stdout.contains("(games)  ") && stdout.contains("% (pairs)"),
        "{stdout}"
    );
    let (ok, out) = ratings(&[dir, "--pair", "b", "zed"]);
    assert!(!ok && out.contains("\"zed\" played no game"), "{out}");
}

#[test]
fn zero_variance_says_the_error_cannot_be_estimated() {
    // One pair, both games drawn.
    let tmp = tempfile::tempdir().unwrap();
    let dir = folder(
        tmp.path(),
        "draws",
        &[
            game("g1", 1, "a", "b", GameResult::Draw),
            game("g2", 1, "b", "a", GameResult::Draw),
        ],
    );
    let (ok, out) = ratings(&[dir.to_str().unwrap(), "--bootstrap", "20"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("0.00 (error cannot be estimated: every result the same) (games)"),
        "{out}"
    );
    assert!(!out.contains("± 0.00") && !out.contains("-0.00"), "{out}");
    assert!(out.contains("nElo cannot be estimated"), "{out}");
}

#[test]
fn a_perfect_score_is_flagged_as_a_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let mut games = Vec::new();
    for p in 0..5 {
        games.push(game(
            &format!("g{p}a"),
            p,
            "top",
            "mid",
            GameResult::FirstWins,
        ));
        games.push(game(
            &format!("g{p}b"),
            p,
            "mid",
            "top",
            GameResult::SecondWins,
        ));
        games.push(game(
            &format!("g{p}c"),
            10 + p,
            "mid",
            "low",
            GameResult::FirstWins,
        ));
        games.push(game(
            &format!("g{p}d"),
            10 + p,
            "low",
            "mid",
            GameResult::Draw,
        ));
    }
    let dir = folder(tmp.path(), "top", &games);
    let (ok, out) = ratings(&[dir.to_str().unwrap(), "--bootstrap", "100"]);
    assert!(ok, "{out}");
    let top = out.lines().find(|l| l.contains(" top ")).unwrap();
    assert!(top.contains("* (") && top.ends_with(", +∞)"), "{top}");
    assert!(out.contains("* top won every point (100 %)"), "{out}");
    let csv = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    let row = csv.lines().find(|l| l.contains(",top,")).unwrap();
    assert!(row.ends_with(",inf,lower"), "{row}");
}

#[test]
fn several_folders_are_rated_together_and_other_games_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let a = folder(tmp.path(), "day1", &pairs(3, "x", "y", "g"));
    let b = folder(tmp.path(), "day2", &pairs(3, "x", "z", "g"));
    let (ok, out) = ratings(&[
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--bootstrap",
        "50",
    ]);
    assert!(ok, "{out}");
    assert!(out.contains("12 games rated together"), "{out}");
    for bot in ["x", "y", "z"] {
        assert!(
            out.lines().any(|l| l.contains(&format!(" {bot} "))),
            "{out}"
        );
    }
    // Nothing written into either folder by a pooled rating.
    assert!(!a.join("standings.csv").exists() && !b.join("standings.csv").exists());
    let mut other = pairs(1, "x", "y", "g");
    for g in &mut other {
        g.game = "tictactoe".into();
        g.variant = "3 3 3".into();
        if !g.moves.is_empty() {
            // The first player's column a.
            g.moves = ["a1", "b1", "a2", "b2", "a3"].map(String::from).to_vec();
            g.plies = 5;
        }
    }
    let c = folder(tmp.path(), "ttt", &other);
    let (ok, out) = ratings(&[a.to_str().unwrap(), c.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(out.contains("one game and variant"), "{out}");
}

#[test]
fn the_seed_moves_only_the_bootstrap_and_its_error_is_stated() {
    let tmp = tempfile::tempdir().unwrap();
    let mut games = pairs(6, "x", "y", "a");
    games.extend(pairs(6, "y", "z", "b"));
    games.extend(pairs(3, "z", "x", "c"));
    let dir = folder(tmp.path(), "s", &games);
    let dir = dir.to_str().unwrap();
    let run = |seed: &str| ratings(&[dir, "--bootstrap", "400", "--seed", seed]).1;
    let (one, again, two) = (run("1"), run("1"), run("2"));
    assert_eq!(one, again);
    assert_ne!(one, two);
    assert!(
        one.contains("bootstrap: 400 samples, seed 1; Monte Carlo error (95%)"),
        "{one}"
    );
}

/// `arena report` on a finished run rewrites the same `standings.csv` the run wrote, its tie-breaks
/// included (it once ranked points-tied bots by the default order), and `arena ratings` on an SPRT
/// match's folder prints the SPRT's state once (it once dropped it).
#[test]
fn report_and_ratings_read_a_folder_as_its_run_reported() {
    let tmp = tempfile::tempdir().unwrap();
    // Six random tic-tac-toe players, one game pair each: many points-ties, broken by the config's
    // tie-breaks (forfeits, then head-to-head, then Sonneborn–Berger) rather than by wins.
    let mut config = String::from(
        "name = \"tied\"\ngames_per_pair = 2\nseed = 11\nconcurrency = 2\n\
         tiebreaks = [\"forfeits\", \"head-to-head\", \"sonneborn-berger\"]\n\
         [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n",
    );
    for k in 1..=6 {
        config.push_str(&format!(
            "[[bots]]\nname = \"r{k}\"\nbuiltin = \"random\"\n"
        ));
    }
    let path = common::write_config(tmp.path(), "tied", &config);
    let out = common::run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let dir = tmp.path().join("results/tied");
    let written = std::fs::read(dir.join("standings.csv")).unwrap();
    std::fs::remove_file(dir.join("standings.csv")).unwrap();
    let report = arena().arg("report").arg(&dir).output().unwrap();
    assert!(report.status.success(), "{}", text(&report));
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(dir.join("standings.csv")).unwrap()),
        String::from_utf8_lossy(&written),
        "arena report's standings.csv differs from the run's"
    );

    let sprt = "name = \"match\"\nformat = \"sprt\"\nseed = 2\nconcurrency = 2\n\
        [sprt]\nelo0 = 0\nelo1 = 200\nmax_pairs = 6\n\
        [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n\
        [[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = { depth = 2 }\n\
        [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n";
    let path = common::write_config(tmp.path(), "match", sprt);
    let out = common::run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let (ok, printed) = ratings(&[tmp.path().join("results/match").to_str().unwrap()]);
    assert!(ok, "{printed}");
    assert!(printed.contains("LLR"), "no SPRT state in: {printed}");
    let stdout = String::from_utf8_lossy(
        &arena()
            .arg("ratings")
            .arg(tmp.path().join("results/match"))
            .output()
            .unwrap()
            .stdout,
    )
    .into_owned();
    assert_eq!(stdout.matches("Ptnml").count(), 1, "{stdout}");
}
