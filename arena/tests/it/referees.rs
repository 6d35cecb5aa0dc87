//! End to end: referee programs through the `arena` binary (`docs/referees.md`): the Gomoku referee in
//! Python refereeing a tournament whose folder is read again through it; a referee that crashes,
//! hangs, answers nonsense, floods or contradicts itself voids the game (nobody's loss) and the run
//! goes on; stray output is ignored and named; a referee that does not greet as the protocol says
//! refuses the run; a referee changed under a results folder is refused by its readers; `arena
//! check-game` on a referee config.

use std::path::{Path, PathBuf};

use arena::record::Termination;

use crate::common::{arena, games, run, text, write_config};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn faulty() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/referees/faulty.py")
}

/// A config of two built-in random bots on the `line3` game of the faulty referee in `mode`.
fn faulty_config(dir: &Path, mode: &str, extra: &str) -> PathBuf {
    let config = format!(
        "name = \"faulty\"\ngames_per_pair = 2\nseed = 1\nconcurrency = 1\nsandbox = \"none\"\n\
         [game]\nreferee = {{ command = \"python3\", args = [{:?}, {mode:?}]{extra} }}\n\
         [time_control]\nmax_move_ms = 2000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
        faulty().display().to_string()
    );
    write_config(dir, "faulty", &config)
}

#[test]
fn the_gomoku_referee_referees_a_tournament_and_its_folder_is_read_through_it() {
    let tmp = tempfile::tempdir().unwrap();
    let config = format!(
        "name = \"gomoku\"\ngames_per_pair = 2\nseed = 7\nopening_plies = 2\nsandbox = \"none\"\n\
         [game]\nreferee = {{ command = \"python3\", args = [{:?}] }}\nvariant = \"9 4\"\n\
         [time_control]\nmax_move_ms = 5000\n\
         [[bots]]\nname = \"python\"\ncommand = \"python3\"\nargs = [{:?}]\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
        repo("referees/gomoku/referee.py").display().to_string(),
        repo("referees/gomoku/random_bot.py").display().to_string(),
    );
    let path = write_config(tmp.path(), "gomoku", &config);
    let out = run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let records = games(tmp.path(), "gomoku");
    assert_eq!(records.len(), 2);
    let identity = records[0].variant.split(' ').next().unwrap().to_string();
    for r in &records {
        assert_eq!(r.game, "module");
        assert_eq!(r.variant, format!("{identity} 9 4"), "the normal form");
        assert_eq!(r.termination, Termination::Normal, "{r:?}");
        // Cells of the 9 × 9 board as the referee writes them.
        for m in &r.moves {
            let (col, row) = m.split_at(1);
            assert!(("a"..="i").contains(&col), "{m}");
            assert!((1..=9).contains(&row.parse::<u32>().unwrap()), "{m}");
        }
    }
    // The python bot plays the win it sees, random does not: it wins both games of the pair.
    for r in &records {
        let python = if r.first == "python" {
            games::Player::First
        } else {
            games::Player::Second
        };
        assert_eq!(r.result.points(python), 1.0, "{r:?}");
    }
    let folder = tmp.path().join("results/gomoku");
    let kept = std::fs::read_to_string(
        folder
            .join("modules")
            .join(format!("{identity}.referee.toml")),
    )
    .unwrap();
    assert!(kept.contains("label = \"python3 referee.py\""), "{kept}");
    // Its readers re-referee the records through a referee process of their own.
    for args in [&["report"][..], &["export", "--format", "pgn"]] {
        let out = arena().args(args).arg(&folder).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out));
    }
    // The replays are drawn from the referee's frames: a stone a ply, the win's line at the end.
    let replay = serde_json::to_string(&arena::frames::replay(&records[0])).unwrap();
    assert_eq!(
        replay.matches("\"stone\"").count(),
        records[0].moves.len(),
        "{replay}"
    );
    assert!(replay.contains("\"win\""), "{replay}");
}

#[test]
fn a_referee_that_crashes_hangs_floods_or_talks_nonsense_voids_the_game_and_the_run_goes_on() {
    // The fourth move is the first judged wrong: crash, hang, garbage and flood void the game on it
    // (four moves in the record, the bot's fourth among them). An answer given twice is found at the
    // next command: the arena's fifth move, or a built-in bot's own referee process, which stops the bot
    // (then the game is void at the fourth, the detail the bot's).
    for (mode, extra, expected, moves) in [
        (
            "crash",
            "",
            "exited with status 3 while answering `play ",
            4,
        ),
        ("hang", ", timeout_ms = 300", "did not answer `play ", 4),
        ("garbage", "", "answered `@ref banana` to `play ", 4),
        ("flood", "", "untagged lines before answering `play ", 4),
        (
            "twice",
            "",
            "wrote `@ref ok next 0` when nothing was asked (an answer too many)",
            5,
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let path = faulty_config(tmp.path(), mode, extra);
        let out = run(tmp.path(), &path, &["--no-progress"]);
        assert!(out.status.success(), "{mode}: {}", text(&out));
        let records = games(tmp.path(), "faulty");
        assert_eq!(records.len(), 2, "{mode}: the run goes on");
        for r in &records {
            assert_eq!(r.termination, Termination::Void, "{mode}: {r:?}");
            assert!(
                r.detail
                    .contains(&format!("referee python3 faulty.py {mode}: "))
                    && r.detail.contains(expected),
                "{mode}: {}",
                r.detail
            );
            let plies = r.moves.len();
            assert!(
                plies == moves || mode == "twice" && plies == 4,
                "{mode}: {r:?}"
            );
        }
        let standings =
            std::fs::read_to_string(tmp.path().join("results/faulty/standings.csv")).unwrap();
        for line in standings.lines().skip(1) {
            assert_eq!(line.split(',').nth(2), Some("0"), "{mode}: {line}");
        }
    }
}

#[test]
fn stray_output_of_a_referee_is_ignored_and_named() {
    let tmp = tempfile::tempdir().unwrap();
    let path = faulty_config(tmp.path(), "chatty", "");
    let out = run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    for r in games(tmp.path(), "faulty") {
        assert_eq!(r.termination, Termination::Normal, "{r:?}");
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "referee python3 faulty.py chatty: ignored an untagged line: debug: thinking"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("further lines of this process are not shown"),
        "{stderr}"
    );
}

/// The fixture's `nondeterministic` mode refuses, from its second game on, a move that its own legal
/// moves list: a contradiction, not the bot's illegal move.
#[test]
fn a_referee_that_refuses_a_move_it_lists_voids_the_game_and_the_next_game_gets_a_new_process() {
    let tmp = tempfile::tempdir().unwrap();
    let path = faulty_config(tmp.path(), "nondeterministic", "");
    let out = run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let records = games(tmp.path(), "faulty");
    // One slot. Its process checked the variant with a game of its own first, so the first game is
    // its second: void, and the process is killed. The second game's process is new: this is its
    // first game, which it judges right. (The built-in bots' own referee processes refuse the same
    // moves in their second games: a bot whose own rules fail stops, and that too voids the game.)
    assert_eq!(records.len(), 2);
    for r in &records {
        assert!(
            r.termination != Termination::Void
                || r.detail.contains("that its own legal moves list"),
            "{r:?}"
        );
    }
    assert_eq!(records[0].termination, Termination::Void, "{records:?}");
    assert!(
        records
            .iter()
            .all(|r| r.termination != Termination::Illegal),
        "nobody's loss: {records:?}"
    );
}

#[test]
fn a_referee_that_does_not_greet_as_the_protocol_says_refuses_the_run() {
    for (mode, extra, expected) in [
        ("badhello", "", "speaks protocol version 2"),
        ("badname", "", "named its game \"Bad_Name\""),
        (
            "slowstart",
            ", startup_ms = 300",
            "did not answer `hello 1` within 300 ms",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let path = faulty_config(tmp.path(), mode, extra);
        let out = run(tmp.path(), &path, &["--no-progress"]);
        assert!(!out.status.success(), "{mode}: {}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("[game] referee") || stderr.contains("referee python3 faulty.py"),
            "{mode}: {stderr}"
        );
        assert!(stderr.contains(expected), "{mode}: {stderr}");
        assert!(
            !tmp.path().join("results/faulty/games.csv").exists(),
            "{mode}: nothing played"
        );
    }
}

#[test]
fn a_referee_changed_under_its_results_folder_is_refused_by_its_readers() {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("faulty.py");
    std::fs::copy(faulty(), &copy).unwrap();
    let config = "name = \"faulty\"\ngames_per_pair = 2\nseed = 1\nsandbox = \"none\"\n\
         [game]\nreferee = { command = \"python3\", args = [\"faulty.py\", \"none\"] }\n\
         [time_control]\nmax_move_ms = 2000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let path = write_config(tmp.path(), "faulty", config);
    let out = run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let mut source = std::fs::read_to_string(&copy).unwrap();
    source.push_str("\n# changed\n");
    std::fs::write(&copy, source).unwrap();
    let out = arena()
        .arg("report")
        .arg(tmp.path().join("results/faulty"))
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "the referee program python3 faulty.py none changed since these games were played"
        ),
        "{}",
        text(&out)
    );
}

/// The same referee (its files unchanged) that judges a recorded game otherwise when its folder is
/// read: the reader refuses the folder and says the rules may be at fault.
#[test]
fn a_referee_that_judges_a_record_otherwise_on_re_refereeing_is_named_by_the_reader() {
    let tmp = tempfile::tempdir().unwrap();
    let path = faulty_config(tmp.path(), "none", "");
    let out = run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(games(tmp.path(), "faulty")
        .iter()
        .all(|r| r.termination != Termination::Void));
    // Read again by a referee that refuses, from its second game on, a move it lists as legal.
    let out = arena()
        .arg("report")
        .arg(tmp.path().join("results/faulty"))
        .env("FAULTY_MODE", "nondeterministic")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the row does not follow from its moves")
            && stderr.contains("referee python3 faulty.py none")
            && stderr.contains("judges these moves differently from when they were played"),
        "{stderr}"
    );
}

/// `--game CONFIG.toml [VARIANT…]`: a config's referee on the command line, its paths relative to the
/// config's folder wherever the command runs.
#[test]
fn arena_match_takes_a_referee_config_as_its_game() {
    let tmp = tempfile::tempdir().unwrap();
    let config = repo("configs/referee-gomoku.toml");
    let out = crate::match_cmd::arena_match(
        tmp.path(),
        &[
            "builtin:random",
            "builtin:minimax",
            "--game",
            &format!("{} 9 4", config.display()),
            "--games",
            "2",
            "--set-b",
            "depth=1",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let records = games(tmp.path(), "random-vs-minimax-referee");
    assert_eq!(records.len(), 2);
    for r in &records {
        assert!(r.variant.ends_with(" 9 4"), "{r:?}");
        assert_eq!(r.termination, Termination::Normal, "{r:?}");
    }
}

#[test]
fn check_game_runs_the_conformance_test_on_a_referee_config() {
    let tmp = tempfile::tempdir().unwrap();
    let good = faulty_config(tmp.path(), "none", "");
    let out = arena()
        .args(["check-game", "--games", "5"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("the referee program python3 faulty.py none, the game \"line3\""),
        "{stdout}"
    );
    assert!(stdout.contains("passed: 5 games"), "{stdout}");

    let bad = faulty_config(tmp.path(), "garbage", "");
    let out = arena()
        .args(["check-game", "--games", "5"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("answered `@ref banana`"),
        "{}",
        text(&out)
    );
}
