//! End to end: `arena match`, a match between two bots from the command line, through the `arena`
//! binary. The bots search to a fixed depth under a generous clock and the seeds are fixed, so the
//! games do not depend on the machine's speed.

use crate::common;

use std::path::Path;
use std::process::Output;

use arena::record::GameRecord;
use common::{arena, games, text};

/// Runs `arena match <args> --results <dir>/results --no-progress` in the folder `dir`.
fn arena_match(dir: &Path, args: &[&str]) -> Output {
    arena()
        .arg("match")
        .args(args)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress")
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Wins, losses and draws of `bot` in `recorded`.
fn wld(bot: &str, recorded: &[GameRecord]) -> (u64, u64, u64) {
    let mut n = (0, 0, 0);
    for g in recorded {
        let side = if g.first == bot {
            games::Player::First
        } else {
            games::Player::Second
        };
        let points = g.result.points(side);
        if points == 1.0 {
            n.0 += 1;
        } else if points == 0.0 {
            n.1 += 1;
        } else {
            n.2 += 1;
        }
    }
    n
}

/// The counts of stdout's `Score of A vs B: W - L - D  [0.xxx] N` line: (W, L, D, score text, N).
fn score_line(stdout: &str, a: &str, b: &str) -> (u64, u64, u64, String, u64) {
    let prefix = format!("Score of {a} vs {b}: ");
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in\n{stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 7, "{line}");
    assert_eq!((words[1], words[3]), ("-", "-"), "{line}");
    let n = |i: usize| words[i].parse::<u64>().unwrap();
    (n(0), n(2), n(4), words[5].to_string(), n(6))
}

#[test]
fn a_match_prints_cutechess_score_line_with_the_counts_of_its_games() {
    let tmp = tempfile::tempdir().unwrap();
    let out = arena_match(
        tmp.path(),
        &[
            "builtin:alphabeta",
            "builtin:random",
            "--game",
            "connect4",
            "--games",
            "6",
            "--tc",
            "10+0.1",
            "--set-a",
            "depth=2",
            "--random-plies",
            "2",
            "--seed",
            "5",
            "--concurrency",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let recorded = games(tmp.path(), "alphabeta-vs-random-connect4");
    assert_eq!(recorded.len(), 6);
    let (w, l, d) = wld("alphabeta", &recorded);
    let (sw, sl, sd, score, n) = score_line(&stdout, "alphabeta", "random");
    assert_eq!((sw, sl, sd, n), (w, l, d, 6), "{stdout}");
    assert_eq!(
        score,
        format!("[{:.3}]", (w as f64 + d as f64 / 2.0) / 6.0),
        "{stdout}"
    );
    // Then the head-to-head Elo block of a two-bot match, from A's side.
    let block = stdout.split_once("Score of").unwrap().1;
    assert!(
        block.contains("alphabeta vs random: 6 games, 3 complete pairs"),
        "{stdout}"
    );
    assert!(
        block.contains(&format!("W/D/L {w}/{d}/{l}"))
            && block.contains("  Elo ")
            && block.contains("Ptnml"),
        "{stdout}"
    );
    // Recorded as any tournament: the options, the clock, the report.
    let dir = tmp.path().join("results/alphabeta-vs-random-connect4");
    assert!(dir.join("report.html").is_file() && dir.join("standings.csv").is_file());
    for g in &recorded {
        assert_eq!((g.game.as_str(), g.plies >= 2), ("connect4", true), "{g:?}");
    }
    let log = std::fs::read_to_string(dir.join("logs/g0001.log")).unwrap();
    assert!(log.contains("setoption name depth value 2"), "{log}");
    assert!(log.contains("p1time 10000"), "{log}");
}

#[test]
fn save_config_writes_the_match_that_arena_run_plays() {
    let tmp = tempfile::tempdir().unwrap();
    // An executable given by a relative path: the arena itself, serving its alpha-beta bot.
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_arena"), tmp.path().join("mybot")).unwrap();
    let flags = [
        "./mybot",
        "builtin:random",
        "--arg-a",
        "bot",
        "--arg-a",
        "alphabeta",
        "--set-a",
        "depth=2",
        "--game",
        "tictactoe",
        "--tc",
        "10+0.1",
        "--games",
        "4",
        "--random-plies",
        "1",
        "--seed",
        "3",
        "--sandbox",
        "none",
        "--concurrency",
        "2",
    ];
    let saved = tmp.path().join("m.toml");
    let out = arena_match(
        tmp.path(),
        &[&flags[..], &["--save-config", "m.toml"]].concat(),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("arena run m.toml"),
        "{}",
        text(&out)
    );
    assert!(!tmp.path().join("results").exists(), "nothing is played");
    let config = arena::config::Config::load(&saved).unwrap();
    assert_eq!(config.name, "mybot-vs-random-tictactoe");
    assert_eq!(config.games_per_pair, Some(4));
    assert_eq!((config.seed, config.opening_plies), (3, 1));
    assert_eq!(
        (config.time_control.time_ms, config.time_control.inc_ms),
        (Some(10_000), 100)
    );
    assert_eq!(config.sandbox, Some(arena::config::SandboxKind::None));
    let a = &config.bots[0];
    assert_eq!(
        a.command.as_deref().map(Path::new),
        Some(tmp.path().join("mybot").as_path()),
        "a relative path is written absolute"
    );
    assert_eq!(a.args, ["bot", "alphabeta"]);
    assert_eq!(a.options["depth"], toml::Value::Integer(2));
    assert_eq!(config.bots[1].builtin.as_deref(), Some("random"));

    // The match itself, then the saved config run from another folder: the same tournament, so it
    // has nothing left to play.
    let out = arena_match(tmp.path(), &flags);
    assert!(out.status.success(), "{}", text(&out));
    let (w, l, d, _, n) = score_line(&String::from_utf8_lossy(&out.stdout), "mybot", "random");
    let played = games(tmp.path(), "mybot-vs-random-tictactoe");
    assert_eq!((w, l, d, n), {
        let (w, l, d) = wld("mybot", &played);
        (w, l, d, 4)
    });
    let out = arena()
        .arg("run")
        .arg(&saved)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .current_dir("/")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("mybot-vs-random-tictactoe is complete (4 games recorded); nothing to play"),
        "{}",
        text(&out)
    );
    // Played afresh elsewhere, the saved config gives the same games.
    let again = tmp.path().join("again");
    let out = arena()
        .arg("run")
        .arg(&saved)
        .arg("--results")
        .arg(&again)
        .arg("--no-progress")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let replayed =
        arena::results::read_games_csv(&again.join("mybot-vs-random-tictactoe").join("games.csv"))
            .unwrap();
    let key = |g: &GameRecord| (g.id.clone(), g.first.clone(), g.moves.clone(), g.result);
    let mut x: Vec<_> = played.iter().map(key).collect();
    let mut y: Vec<_> = replayed.iter().map(key).collect();
    x.sort_by(|a, b| a.0.cmp(&b.0));
    y.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(x, y);
}

#[test]
fn a_missing_executable_and_a_bad_clock_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = arena_match(tmp.path(), args);
        assert!(!out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run(&[
        "./no-such-bot",
        "builtin:random",
        "--game",
        "connect4",
        "--tc",
        "1+0.01",
    ]);
    assert!(
        err.contains("./no-such-bot: no such file")
            && err.contains(&tmp.path().join("no-such-bot").display().to_string()),
        "{err}"
    );
    let c4 = ["builtin:alphabeta", "builtin:random", "--game", "connect4"];
    let err = run(&[&c4[..], &["--tc", "40/60"]].concat());
    assert!(
        err.contains("'40/60'") && err.contains("moves per period"),
        "{err}"
    );
    let err = run(&[&c4[..], &["--tc", "10+x"]].concat());
    assert!(err.contains("TIME+INC"), "{err}");
    let err = run(&c4);
    assert!(err.contains("--tc"), "a clock is required: {err}");
    let err = run(&[&c4[..], &["--tc", "10", "--games", "3"]].concat());
    assert!(err.contains("even"), "{err}");
    let err = run(&[
        "alphabeta",
        "builtin:random",
        "--game",
        "connect4",
        "--tc",
        "1",
    ]);
    assert!(err.contains("builtin:alphabeta"), "{err}");
    assert!(!tmp.path().join("results").exists(), "no game was played");
}

#[test]
fn an_sprt_match_prints_the_state_of_its_test() {
    let tmp = tempfile::tempdir().unwrap();
    let out = arena_match(
        tmp.path(),
        &[
            "builtin:alphabeta",
            "builtin:random",
            "--game",
            "connect4",
            "--tc",
            "10+0.1",
            "--set-a",
            "depth=2",
            "--sprt",
            "0",
            "200",
            "0.1",
            "0.1",
            "--sprt-model",
            "logistic",
            "--rounds",
            "20",
            "--random-plies",
            "2",
            "--seed",
            "9",
            "--concurrency",
            "1",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let recorded = games(tmp.path(), "alphabeta-vs-random-connect4");
    let (_, _, _, _, n) = score_line(&stdout, "alphabeta", "random");
    assert_eq!(n as usize, recorded.len(), "{stdout}");
    // Alpha-beta is far stronger than random: the test accepts H1 after a few pairs, well before the
    // 20 of --rounds, and only complete pairs are recorded (one game at a time here).
    assert!(
        recorded.len() < 40 && recorded.len().is_multiple_of(2),
        "{} games: {stdout}",
        recorded.len()
    );
    let llr = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("LLR "))
        .unwrap_or_else(|| panic!("no LLR line in\n{stdout}"));
    assert!(
        llr.contains("[0.00, 200.00] logistic: H1 accepted"),
        "{llr}"
    );
    assert!(
        stdout.contains("\nSPRT: H1 accepted: alphabeta is stronger than random"),
        "{stdout}"
    );
    let config = arena::config::Config::load(
        &tmp.path()
            .join("results/alphabeta-vs-random-connect4/config.toml"),
    )
    .unwrap();
    assert_eq!(config.format, arena::config::Format::Sprt);
    assert_eq!(
        config.sprt.map(|s| (s.elo1, s.max_pairs)),
        Some((200.0, 20))
    );
}
