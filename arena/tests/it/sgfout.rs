//! End to end: the live SGF of Dots games (`arena match --sgfout`, `arena run --sgfout`, the config's
//! `sgfout`), through the `arena` binary. alphabeta searches 2 plies (a depth limit) under a generous
//! clock and the seeds are fixed, so the games do not depend on the machine's speed; alphabeta reports
//! a score and depth with each move, random none.

use std::path::Path;
use std::process::Output;

use arena::formats::sgf;
use arena::record::GameRecord;
use sgf_parse::unknown_game::Prop;
use sgf_parse::GameTree;

use crate::common::{self, games, text, write_config};
use crate::match_cmd::{arena_match, movetext_tokens};

/// `arena match` of alphabeta (depth 2) against random on an 8×8 Dots board from the cross, four games,
/// then `extra`.
fn dots_match(extra: &[&str]) -> Vec<String> {
    [
        "builtin:alphabeta",
        "builtin:random",
        "--set-a",
        "depth=2",
        "--game",
        "dots",
        "--width",
        "8",
        "--height",
        "8",
        "--tc",
        "10+0.1",
        "--games",
        "4",
        "--seed",
        "4",
        "--concurrency",
        "2",
    ]
    .iter()
    .chain(extra)
    .map(|s| s.to_string())
    .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The comment `C[..]` of each move node (`B` or `W`) of each game tree of `text`, read by sgf-parse
/// (empty for a move without one).
fn move_comments(text: &str) -> Vec<Vec<String>> {
    sgf_parse::parse(text)
        .unwrap()
        .iter()
        .map(|tree| {
            let GameTree::Unknown(root) = tree else {
                panic!("not a GM[40] tree: {tree:?}")
            };
            root.main_variation()
                .filter(|n| n.properties().any(|p| matches!(p, Prop::B(_) | Prop::W(_))))
                .map(|n| {
                    n.properties()
                        .find_map(|p| match p {
                            Prop::C(t) => Some(t.text.clone()),
                            _ => None,
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect()
}

/// `tree` without its move comments: every `C[..]` that follows another property's `]`.
fn without_comments(tree: &str) -> String {
    let mut out = String::new();
    let mut rest = tree;
    while let Some(at) = rest.find("]C[") {
        out.push_str(&rest[..=at]);
        let after = &rest[at + 3..];
        rest = &after[after.find(']').unwrap() + 1..];
    }
    out.push_str(rest);
    out
}

/// The game trees of a live SGF file as text, each with its closing `)` and line break.
fn tree_texts(text: &str) -> Vec<String> {
    text.split_inclusive(")\n").map(str::to_string).collect()
}

/// The live PGN's games as text (tags and movetext).
fn pgn_games(pgn: &str) -> Vec<String> {
    let blocks: Vec<&str> = pgn.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    blocks.chunks(2).map(|c| c.join("\n\n")).collect()
}

#[test]
fn sgfout_appends_each_dots_game_as_one_tree_commented_as_the_live_pgn() {
    let tmp = tempfile::tempdir().unwrap();
    let args = dots_match(&[
        "--random-plies",
        "1",
        "--sgfout",
        "live.sgf",
        "--pgnout",
        "live.pgn",
    ]);
    let out = arena_match(tmp.path(), &strs(&args));
    assert!(out.status.success(), "{}", text(&out));
    let name = "alphabeta-vs-random-dots";
    let recorded = games(tmp.path(), name);
    assert_eq!(recorded.len(), 4);
    let live = std::fs::read_to_string(tmp.path().join("live.sgf")).unwrap();

    // One game tree per game of games.csv, in the order they ended (the order games.csv has too).
    let trees = sgf::read(&live).unwrap();
    let ids: Vec<&str> = trees.iter().map(|t| t.name.as_str()).collect();
    let recorded_ids: Vec<&str> = recorded.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, recorded_ids, "{live}");
    let texts = tree_texts(&live);
    assert_eq!(texts.len(), 4, "{live}");
    let comments = move_comments(&live);
    let pgn = pgn_games(&std::fs::read_to_string(tmp.path().join("live.pgn")).unwrap());
    assert_eq!(pgn.len(), 4);
    let mut scored = 0;
    for (((tree, r), notes), tree_text) in trees.iter().zip(&recorded).zip(&comments).zip(&texts) {
        assert_eq!(tree.moves, r.moves, "{}", r.id);
        assert_eq!((&tree.first, &tree.second), (&r.first, &r.second));
        // Without its comments, the tree is what `arena export --format sgf` writes of the game.
        assert_eq!(
            without_comments(tree_text),
            sgf::write(r, name).unwrap(),
            "{tree_text}"
        );
        // Each move's comment is the live PGN's of the same move: `book`, then score/depth and time.
        let pgn_game = pgn
            .iter()
            .find(|g| {
                g.contains(&format!("[White \"{}\"]", r.first)) && {
                    let t = movetext_tokens(g);
                    let moves: Vec<&String> = t
                        .iter()
                        .filter(|t| !t.starts_with('{') && !t.ends_with('.'))
                        .collect();
                    moves[..moves.len() - 1] == r.moves.iter().collect::<Vec<_>>()
                }
            })
            .unwrap_or_else(|| panic!("{}: no PGN game with its moves", r.id));
        let pgn_notes: Vec<String> = movetext_tokens(pgn_game)
            .into_iter()
            .filter(|t| t.starts_with('{'))
            .map(|t| t.trim_matches(['{', '}']).to_string())
            .take(r.moves.len())
            .collect();
        assert_eq!(notes, &pgn_notes, "{}", r.id);
        assert_eq!(notes.len(), r.moves.len());
        assert_eq!(notes[0], "book");
        for (k, c) in notes.iter().enumerate().skip(1) {
            let words: Vec<&str> = c.split(' ').collect();
            assert!(words.last().unwrap().ends_with('s'), "{c} in\n{tree_text}");
            let mover = if k % 2 == 0 { &r.first } else { &r.second };
            if mover == "alphabeta" {
                assert_eq!(words.len(), 2, "{c}: score/depth and time\n{tree_text}");
                let (score, depth) = words[0].split_once('/').unwrap();
                assert!(score == "0" || score.starts_with(['+', '-']), "{c}");
                assert!(depth.parse::<u32>().unwrap() >= 1, "{c}");
                scored += 1;
            } else {
                assert_eq!(words.len(), 1, "{c}: random gives no score\n{tree_text}");
            }
        }
    }
    assert!(scored > 0);

    // `arena replay` reads the collection: its second game is `live-2`.
    let out = common::arena()
        .arg("replay")
        .arg(tmp.path().join("live.sgf"))
        .arg("live-2")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let r = &recorded[1];
    let stdout = String::from_utf8_lossy(&out.stdout);
    let head = format!(
        "live-2 — dots 8 8 cross — {} vs {}: {} ({}",
        r.first, r.second, r.result, r.termination
    );
    assert!(stdout.starts_with(&head), "{head:?} in\n{stdout}");
    assert!(
        stdout
            .lines()
            .next()
            .unwrap()
            .ends_with(&format!(", {} plies", r.plies)),
        "{stdout}"
    );

    // SGF openings read the collection: another match opens its game pairs with the first three plies
    // of the file's games, in order.
    let from_live = dots_match(&[
        "--openings",
        "live.sgf",
        "--openings-plies",
        "3",
        "--name",
        "from-live",
    ]);
    let out = arena_match(tmp.path(), &strs(&from_live));
    assert!(out.status.success(), "{}", text(&out));
    for g in games(tmp.path(), "from-live") {
        let book = &trees[g.pair as usize - 1].moves[..3];
        assert_eq!(g.opening, book, "{g:?}");
    }

    // Played again, the complete match adds nothing: the file is appended to, never truncated.
    let out = arena_match(tmp.path(), &strs(&args));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("live.sgf")).unwrap(),
        live
    );
}

/// `arena run <config> --results <dir>/results --no-progress` plus `extra`, in the folder `cwd`.
fn run_in(cwd: &Path, dir: &Path, config: &Path, extra: &[&str]) -> Output {
    common::arena()
        .arg("run")
        .arg(config)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress")
        .args(extra)
        .current_dir(cwd)
        .output()
        .unwrap()
}

/// The ids and moves of the game trees of `text`.
fn ids_and_moves(text: &str) -> Vec<(String, Vec<String>)> {
    sgf::read(text)
        .unwrap()
        .into_iter()
        .map(|t| (t.name, t.moves))
        .collect()
}

fn ids_and_moves_of(records: &[GameRecord]) -> Vec<(String, Vec<String>)> {
    records
        .iter()
        .map(|r| (r.id.clone(), r.moves.clone()))
        .collect()
}

#[test]
fn a_resumed_run_appends_only_the_games_it_plays() {
    let tmp = tempfile::tempdir().unwrap();
    // 12 games of about 16 moves of a bot that waits 10 ms a move: long enough to be stopped midway.
    let config = write_config(
        tmp.path(),
        "live",
        "name = \"live\"\ngames_per_pair = 12\nopening_plies = 1\nseed = 5\nconcurrency = 1\n\
         sgfout = \"out/live.sgf\"\n[game]\nname = \"dots\"\nwidth = 6\nheight = 6\n\
         [time_control]\ntime_ms = 10000\ninc_ms = 100\n\
         [[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = { depth = 2 }\n\
         [[bots]]\nname = \"slow\"\nbuiltin = \"faulty\"\nargs = [\"--delay-ms\", \"10\"]\n",
    );
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    let file = tmp.path().join("out/live.sgf");
    // Stopped (SIGTERM) after a few games: the file holds exactly the games recorded, in their order.
    // (The run's working directory is not the config's folder: sgfout is relative to the latter.)
    let status = common::stop_after(tmp.path(), &config, "live", 2);
    assert_eq!(status.code(), Some(130));
    let first = std::fs::read_to_string(&file).unwrap();
    let kept = games(tmp.path(), "live");
    assert!(kept.len() >= 2 && kept.len() < 12, "{} games", kept.len());
    assert_eq!(ids_and_moves(&first), ids_and_moves_of(&kept));

    // Resumed and stopped again: it appends the games it played, and no other.
    let status = common::stop_after(tmp.path(), &config, "live", kept.len() + 2);
    assert_eq!(status.code(), Some(130));
    let second = std::fs::read_to_string(&file).unwrap();
    let added = second
        .strip_prefix(first.as_str())
        .expect("the file is appended to");
    let now = games(tmp.path(), "live");
    assert!(now.len() < 12, "{} games", now.len());
    assert_eq!(ids_and_moves(added), ids_and_moves_of(&now[kept.len()..]));

    // Resumed to the end with `--sgfout` (relative to the working directory), which takes the place of
    // the config's file: the rest of the games go there.
    let out = run_in(tmp.path(), tmp.path(), &config, &["--sgfout", "flag.sgf"]);
    assert!(out.status.success(), "{}", text(&out));
    let all = games(tmp.path(), "live");
    assert_eq!(all.len(), 12);
    let flag = std::fs::read_to_string(tmp.path().join("flag.sgf")).unwrap();
    assert_eq!(ids_and_moves(&flag), ids_and_moves_of(&all[now.len()..]));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), second);
}

#[test]
fn sgfout_for_a_game_other_than_dots_is_refused_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let refused = |out: &Output, expected: &str| {
        assert_eq!(out.status.code(), Some(1), "{}", text(out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{expected:?} in\n{stderr}");
        assert!(!tmp.path().join("results").exists(), "{stderr}");
        assert!(!tmp.path().join("x.sgf").exists(), "{stderr}");
    };
    // arena match --sgfout: the match's config holds it as its sgfout.
    let out = arena_match(
        tmp.path(),
        &[
            "builtin:random",
            "builtin:random",
            "--game",
            "tictactoe",
            "--tc",
            "10+0.1",
            "--sgfout",
            "x.sgf",
        ],
    );
    refused(
        &out,
        "sgfout writes Dots games only (SGF's GM[40]), not tictactoe; use pgnout for these games",
    );

    // arena run --sgfout with a Connect Four config, named with the flag.
    let c4 = "name = \"c4\"\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n\
              [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let config = write_config(tmp.path(), "c4", c4);
    let out = run_in(tmp.path(), tmp.path(), &config, &["--sgfout", "x.sgf"]);
    refused(
        &out,
        "c4.toml: --sgfout writes Dots games only (SGF's GM[40]), not connect4; use --pgnout for \
         these games",
    );

    // The config's key, with its line and column.
    let config = write_config(tmp.path(), "c4", &format!("sgfout = \"x.sgf\"\n{c4}"));
    let out = run_in(tmp.path(), tmp.path(), &config, &[]);
    refused(
        &out,
        "c4.toml:1:10: sgfout writes Dots games only (SGF's GM[40]), not connect4",
    );

    // A Dots board wider than SGF's letters reach.
    let wide = c4.replace(
        "name = \"connect4\"",
        "name = \"dots\"\nwidth = 60\nheight = 40",
    );
    let config = write_config(tmp.path(), "wide", &format!("sgfout = \"x.sgf\"\n{wide}"));
    let out = run_in(tmp.path(), tmp.path(), &config, &[]);
    refused(
        &out,
        "sgfout cannot write this 60×40 board: SGF's letters reach 52 points a side; use pgnout",
    );
}
