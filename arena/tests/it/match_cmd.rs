//! End to end: `arena match`, a match between two bots from the command line, through the `arena`
//! binary. The bots search to a fixed depth under a generous clock and the seeds are fixed, so the
//! games do not depend on the machine's speed.

use crate::common;

use std::path::Path;
use std::process::Output;

use arena::record::GameRecord;
use common::{arena, games, text};

/// Runs `arena match <args> --results <dir>/results --no-progress` in the folder `dir`.
pub(crate) fn arena_match(dir: &Path, args: &[&str]) -> Output {
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
        "--affinity",
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
    assert_eq!(
        config.affinity,
        Some(arena::config::AffinityConfig::Cpus("all".into()))
    );
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

#[test]
fn noswap_and_reverse_choose_who_opens_each_game_of_a_pair() {
    let tmp = tempfile::tempdir().unwrap();
    let flags = |name: &str, extra: &[&'static str]| -> Vec<String> {
        let mut f: Vec<String> = [
            "builtin:alphabeta",
            "builtin:random",
            "--set-a",
            "depth=1",
            "--game",
            "tictactoe",
            "--tc",
            "10+0.1",
            "--games",
            "4",
            "--seed",
            "2",
            "--concurrency",
            "2",
            "--name",
            name,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        f.extend(extra.iter().map(|s| s.to_string()));
        f
    };
    let play = |name: &str, extra: &[&'static str]| -> Vec<(String, String)> {
        let f = flags(name, extra);
        let args: Vec<&str> = f.iter().map(String::as_str).collect();
        let out = arena_match(tmp.path(), &args);
        assert!(out.status.success(), "{}", text(&out));
        let mut g = games(tmp.path(), name);
        g.sort_by(|a, b| a.id.cmp(&b.id));
        g.into_iter().map(|g| (g.id, g.first)).collect()
    };
    let firsts =
        |v: &[(String, String)]| -> Vec<String> { v.iter().map(|(_, f)| f.clone()).collect() };
    // Two game pairs: A opens the first, B the second (a round-robin's second cycle).
    let (a, b) = ("alphabeta".to_string(), "random".to_string());
    assert_eq!(
        firsts(&play("swapped", &[])),
        [a.clone(), b.clone(), b.clone(), a.clone()]
    );
    assert_eq!(
        firsts(&play("noswap", &["--noswap"])),
        [a.clone(), a.clone(), b.clone(), b.clone()]
    );
    assert_eq!(
        firsts(&play("reverse", &["--reverse"])),
        [b.clone(), a.clone(), a.clone(), b.clone()]
    );
    assert_eq!(
        firsts(&play("both", &["--noswap", "--reverse"])),
        [b.clone(), b.clone(), a.clone(), a.clone()]
    );
    // Saved as config keys; and a folder is not resumed under the other choice.
    let f = flags(
        "both",
        &["--noswap", "--reverse", "--save-config", "m.toml"],
    );
    let args: Vec<&str> = f.iter().map(String::as_str).collect();
    assert!(arena_match(tmp.path(), &args).status.success());
    let config = arena::config::Config::load(&tmp.path().join("m.toml")).unwrap();
    assert_eq!((config.noswap, config.reverse), (Some(true), Some(true)));
    // cutechess's adjudication words become the [adjudication] table.
    let f = flags(
        "adjudicated",
        &[
            "--resign",
            "movecount=3",
            "score=600",
            "--draw",
            "movenumber=40",
            "movecount=8",
            "score=10",
            "--save-config",
            "a.toml",
        ],
    );
    let args: Vec<&str> = f.iter().map(String::as_str).collect();
    let out = arena_match(tmp.path(), &args);
    assert!(out.status.success(), "{}", text(&out));
    let config = arena::config::Config::load(&tmp.path().join("a.toml")).unwrap();
    let a = config.adjudication.unwrap();
    assert_eq!(
        (
            a.resign_moves,
            a.resign_score,
            a.draw_after,
            a.draw_moves,
            a.draw_score
        ),
        (Some(3), Some(600), Some(40), Some(8), Some(10))
    );
    let f = flags("noswap", &[]);
    let args: Vec<&str> = f.iter().map(String::as_str).collect();
    let out = arena_match(tmp.path(), &args);
    assert!(!out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--fresh"), "{stderr}");
}

/// The PGN's movetext as tokens, comments whole: `1.`, `4`, `{book}`, …, the result last.
pub(crate) fn movetext_tokens(game: &str) -> Vec<String> {
    let body = game
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut rest = body.trim();
    while !rest.is_empty() {
        let end = if rest.starts_with('{') {
            rest.find('}').unwrap() + 1
        } else {
            rest.find(char::is_whitespace).unwrap_or(rest.len())
        };
        out.push(rest[..end].to_string());
        rest = rest[end..].trim_start();
    }
    out
}

/// A live PGN that cannot be written (`/dev/full`: every write fails with "no space left") gets one
/// warning, and the match plays on: every game is in `games.csv`.
#[test]
fn a_pgnout_that_cannot_be_written_is_dropped_with_a_warning_and_the_match_goes_on() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full on this machine");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "builtin:random",
        "builtin:random",
        "--game",
        "tictactoe",
        "--tc",
        "10+0.1",
        "--games",
        "4",
        "--seed",
        "5",
        "--pgnout",
        "/dev/full",
    ];
    let out = arena_match(tmp.path(), &args);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    assert_eq!(
        all.matches("the run goes on without that file").count(),
        1,
        "{all}"
    );
    assert!(all.contains("/dev/full"), "{all}");
    assert_eq!(games(tmp.path(), "random-vs-random-2-tictactoe").len(), 4);
}

#[test]
fn pgnout_appends_each_game_as_it_ends_with_the_bots_scores() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "builtin:alphabeta",
        "builtin:random",
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
        "4",
        "--concurrency",
        "2",
        "--pgnout",
        "live.pgn",
    ];
    let out = arena_match(tmp.path(), &args);
    assert!(out.status.success(), "{}", text(&out));
    let pgn = std::fs::read_to_string(tmp.path().join("live.pgn")).unwrap();
    let recorded = games(tmp.path(), "alphabeta-vs-random-tictactoe");
    // Each game: its tags, an empty line, its movetext, an empty line.
    let blocks: Vec<&str> = pgn.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    let texts: Vec<String> = blocks.chunks(2).map(|c| c.join("\n\n")).collect();
    assert_eq!(texts.len(), 4, "{pgn}");
    assert!(texts
        .iter()
        .all(|t| t.starts_with("[Event \"alphabeta-vs-random-tictactoe\"]")));
    let mut scored = 0;
    for g in &texts {
        let id_white = g
            .lines()
            .find_map(|l| l.strip_prefix("[White \""))
            .unwrap()
            .trim_end_matches("\"]");
        let result = g
            .lines()
            .find_map(|l| l.strip_prefix("[Result \""))
            .unwrap()
            .trim_end_matches("\"]");
        let tokens = movetext_tokens(g);
        // The moves, the comments after each and the closing comment and result.
        let moves: Vec<&String> = tokens
            .iter()
            .filter(|t| !t.starts_with('{') && !t.ends_with('.'))
            .collect();
        assert_eq!(moves.last().map(|s| s.as_str()), Some(result));
        let moves: Vec<String> = moves[..moves.len() - 1]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = recorded
            .iter()
            .find(|r| r.moves == moves && r.first == id_white)
            .unwrap_or_else(|| panic!("no recorded game has the moves {moves:?}\n{g}"));
        assert_eq!(r.result.to_string(), result);
        // Every move is followed by its comment: `{book}` for the opening's ply, then the mover's score
        // and depth (alphabeta reports them; random does not) and the time.
        let comments: Vec<&String> = tokens
            .iter()
            .skip_while(|t| !t.starts_with('{'))
            .filter(|t| t.starts_with('{'))
            .collect();
        assert_eq!(comments.len(), r.moves.len() + 1, "{g}");
        assert_eq!(comments[0], "{book}");
        for (k, c) in comments[1..r.moves.len()].iter().enumerate() {
            let words: Vec<&str> = c.trim_matches(['{', '}']).split(' ').collect();
            let time = words.last().unwrap();
            assert!(time.ends_with('s'), "{c} in\n{g}");
            let mover = if (k + 1) % 2 == 0 {
                &r.first
            } else {
                &r.second
            };
            if mover == "alphabeta" {
                assert_eq!(words.len(), 2, "{c}: score/depth and time\n{g}");
                let (score, depth) = words[0].split_once('/').unwrap();
                assert!(score == "0" || score.starts_with(['+', '-']), "{c} in\n{g}");
                assert!(depth.parse::<u32>().unwrap() >= 1, "{c}");
                scored += 1;
            } else {
                assert_eq!(words.len(), 1, "{c}: random gives no score\n{g}");
            }
        }
    }
    assert!(scored > 0);
    // A complete match played again adds nothing; the file is appended to, never truncated.
    let out = arena_match(tmp.path(), &args);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("live.pgn")).unwrap(),
        pgn
    );

    // python-chess's reader takes the movetext's structure: its tags, moves, comments and result. (Its
    // tokenizer reads only what looks like a chess move: tic-tac-toe's `b2` does; Connect Four's digits
    // and Dots' `12-22` it skips as it skips any text it does not know, reading the tags, comments and
    // result all the same.)
    let have_chess = std::process::Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_chess {
        eprintln!(
            "skipped the python-chess check: `python3 -c 'import chess'` fails (pip install chess)"
        );
        return;
    }
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(PYTHON_CHESS_READER)
        .arg(tmp.path().join("live.pgn"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    for line in lines {
        // White, Black, Result, the number of moves, the number of comments
        let w: Vec<&str> = line.split('\t').collect();
        let r = recorded
            .iter()
            .find(|r| r.first == w[0] && r.second == w[1] && r.moves.len().to_string() == w[3])
            .unwrap_or_else(|| panic!("{line}"));
        assert_eq!(r.result.to_string(), w[2]);
        assert_eq!(
            w[4],
            (r.moves.len() + 1).to_string(),
            "a comment a move, and the closing one: {line}"
        );
    }
}

/// Reads a PGN file with python-chess's reader and a visitor that takes every move token as it is
/// (the games are not chess): prints White, Black, Result, the moves and the comments on moves, a line
/// a game; fails on any error the reader reports but its `unsupported variant` (python-chess knows chess
/// variants only, and goes on with the movetext).
const PYTHON_CHESS_READER: &str = r#"
import sys, chess, chess.pgn

class Board(chess.Board):
    pass

class Reader(chess.pgn.BaseVisitor):
    def begin_game(self):
        self.headers, self.moves, self.comments, self.errors = {}, 0, 0, []
    def visit_header(self, name, value):
        self.headers[name] = value
    def visit_board(self, board):
        pass
    def parse_san(self, board, san):
        return chess.Move.null()
    def visit_move(self, board, move):
        self.moves += 1
    def visit_comment(self, comment):
        self.comments += 1
    def handle_error(self, error):
        # A game it does not know: reported, then read on a chess board, which the visitor never uses.
        if not str(error).startswith("unsupported variant"):
            self.errors.append(error)
    def result(self):
        return self

with open(sys.argv[1]) as f:
    while True:
        game = chess.pgn.read_game(f, Visitor=Reader)
        if game is None:
            break
        if game.errors:
            sys.exit(f"errors: {game.errors}")
        h = game.headers
        print("\t".join([h["White"], h["Black"], h["Result"], str(game.moves), str(game.comments)]))
"#;
