//! End to end: real tournaments of real bot processes through the `arena` binary.

use crate::common;

use std::collections::HashSet;

use common::{games, run, text, write_config};

fn repo_config(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("configs")
        .join(name)
}

#[test]
fn the_smoke_tournament_records_every_game_and_the_standings() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(tmp.path(), &repo_config("smoke.toml"), &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "smoke");
    assert_eq!(recorded.len(), 12);
    let ids: HashSet<_> = recorded.iter().map(|g| g.id.clone()).collect();
    assert_eq!(ids.len(), 12);
    for g in &recorded {
        assert_eq!(g.game, "tictactoe");
        assert!(g.termination.as_str() == "normal", "{g:?}");
        assert!((5..=9).contains(&g.plies), "{g:?}");
        assert_eq!(g.moves.len(), g.plies as usize);
    }
    // Every pair met twice with sides swapped.
    let bots = ["random-1", "random-2", "random-3", "random-codecup"];
    for a in bots {
        for b in bots {
            if a != b {
                assert_eq!(
                    recorded
                        .iter()
                        .filter(|g| g.first == a && g.second == b)
                        .count(),
                    1,
                    "{a} vs {b}"
                );
            }
        }
    }
    let standings =
        std::fs::read_to_string(tmp.path().join("results/smoke/standings.csv")).unwrap();
    assert!(
        standings.starts_with("rank,bot,games,wins,draws,losses,points,score_pct,"),
        "{standings}"
    );
    assert_eq!(standings.lines().count(), 5);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("random-codecup"), "{stdout}");
    // The transcripts name both bots' lines.
    let log = std::fs::read_to_string(tmp.path().join("results/smoke/logs/g0001.log")).unwrap();
    assert!(log.contains("> ugi") && log.contains("< ugiok"), "{log}");
}

#[test]
fn report_every_prints_interim_standings_of_the_games_recorded_so_far() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        tmp.path(),
        &repo_config("smoke.toml"),
        &["--report-every", "5", "--no-progress"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let blocks: Vec<&str> = stderr.split("standings after ").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{stderr}");
    for (block, done) in blocks.iter().zip([5, 10]) {
        assert!(
            block.starts_with(&format!("{done} of 12 games:\nrank")),
            "{block}"
        );
        // Each game counts for both of its bots.
        let games: u32 = block
            .lines()
            .skip(2)
            .take(4)
            .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u32>().unwrap())
            .sum();
        assert_eq!(games, 2 * done, "{block}");
    }
}

#[test]
fn a_finished_tournament_is_left_alone_and_fresh_keeps_the_old_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let config = repo_config("smoke.toml");
    assert!(run(tmp.path(), &config, &[]).status.success());
    let csv = tmp.path().join("results/smoke/games.csv");
    let before = std::fs::read(&csv).unwrap();
    let again = run(tmp.path(), &config, &[]);
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("is complete"),
        "{}",
        text(&again)
    );
    assert_eq!(std::fs::read(&csv).unwrap(), before);
    let fresh = run(tmp.path(), &config, &["--fresh"]);
    assert!(fresh.status.success(), "{}", text(&fresh));
    let aside: Vec<_> = std::fs::read_dir(tmp.path().join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("smoke."))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read(tmp.path().join("results").join(&aside[0]).join("games.csv")).unwrap(),
        before
    );
    assert_eq!(games(tmp.path(), "smoke").len(), 12);
}

#[test]
fn an_interrupted_run_resumes_without_replaying_or_losing_games() {
    let tmp = tempfile::tempdir().unwrap();
    let config = repo_config("smoke.toml");
    assert!(run(tmp.path(), &config, &[]).status.success());
    let csv = tmp.path().join("results/smoke/games.csv");
    let full = games(tmp.path(), "smoke");
    // Keep the header and five games, plus half a line, as if the arena was killed mid-write.
    let text_before = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text_before.lines().collect();
    let partial = format!("{}\n{}", lines[..6].join("\n"), &lines[6][..10]);
    std::fs::write(&csv, partial).unwrap();
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("5 of 12 games already recorded"),
        "{}",
        text(&out)
    );
    let resumed = games(tmp.path(), "smoke");
    assert_eq!(resumed.len(), 12);
    assert_eq!(resumed[..5], full[..5]);
    let ids: HashSet<_> = resumed.iter().map(|g| g.id.clone()).collect();
    assert_eq!(ids.len(), 12);
}

#[test]
fn a_second_run_on_a_folder_in_use_is_refused_and_double_records_are_caught() {
    let tmp = tempfile::tempdir().unwrap();
    // Slow bots and 200 games (well over a minute), so the first run is still playing when the others
    // start; it is killed once they have been refused.
    let slow = "builtin = \"faulty\"\nargs = [\"--delay-ms\", \"50\"]\n";
    let config = write_config(
        tmp.path(),
        "busy",
        &format!(
            "name = \"busy\"\ngames_per_pair = 200\nseed = 1\nconcurrency = 1\n[game]\nname = \"tictactoe\"\n\
             [time_control]\ntime_ms = 10000\n[[bots]]\nname = \"a\"\n{slow}[[bots]]\nname = \"b\"\n{slow}"
        ),
    );
    let mut first = common::spawn_run(tmp.path(), &config);
    common::wait_for_games(tmp.path(), "busy", 1);
    let csv = tmp.path().join("results/busy/games.csv");
    for extra in [&[][..], &["--fresh"][..]] {
        let second = run(tmp.path(), &config, extra);
        assert_eq!(second.status.code(), Some(1), "{}", text(&second));
        assert!(
            String::from_utf8_lossy(&second.stderr).contains("in use by another run"),
            "{}",
            text(&second)
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
    // A folder written twice before this lock existed: the duplicate is named, not counted.
    let text_now = std::fs::read_to_string(&csv).unwrap();
    let row = text_now.lines().nth(1).unwrap().to_string();
    std::fs::write(&csv, format!("{}{row}\n", text_now)).unwrap();
    let out = common::arena()
        .arg("ratings")
        .arg(tmp.path().join("results/busy"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is recorded twice"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_results_folder_of_another_schedule_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let config = repo_config("smoke.toml");
    assert!(run(tmp.path(), &config, &[]).status.success());
    let text_cfg = std::fs::read_to_string(&config).unwrap().replace("seed = 1\n", "seed = 1\nopening_plies = 1\n").replace(
        "protocol = \"codecup\"\nargs = [\"--codecup\", \"tictactoe 3 3 3\", \"--set\", \"seed=44\"]",
        "options = { seed = 44 }",
    );
    let other = write_config(tmp.path(), "smoke", &text_cfg);
    let out = run(tmp.path(), &other, &[]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--fresh"),
        "{}",
        text(&out)
    );
    // Only the seed changed: the games would be seeded differently, so they are refused too.
    let reseeded = std::fs::read_to_string(&config)
        .unwrap()
        .replace("seed = 1\n", "seed = 2\n");
    let other = write_config(tmp.path(), "smoke", &reseeded);
    let out = run(tmp.path(), &other, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the config now gives it seed"),
        "{}",
        text(&out)
    );
}

#[test]
fn broken_configs_fail_before_any_game_with_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(repo_config("smoke.toml")).unwrap();
    let cases = [
        (
            good.replace("games_per_pair = 2", "games_per_pair = 2\nspeed = 3"),
            "broken.toml:6:1: unknown field `speed`",
        ),
        (
            good.replacen("builtin = \"random\"", "command = \"./no-such-bot\"", 1),
            "command ./no-such-bot does not exist",
        ),
        (
            good.replace("games_per_pair = 2", "games_per_pair = 3"),
            "must be even",
        ),
        (
            good.replace("width = 3", "width = 30"),
            "width 30 is out of range",
        ),
    ];
    for (config, expected) in cases {
        let path = write_config(tmp.path(), "broken", &config);
        let out = run(tmp.path(), &path, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "expected {expected:?} in:\n{err}");
        assert!(!tmp.path().join("results/smoke").exists());
    }
}

#[test]
fn a_bot_written_in_python_plays_through_the_same_path() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bots/examples/connect4_first_free.py");
    let config = format!(
        "name = \"python\"\ngames_per_pair = 4\nopening_plies = 2\nseed = 3\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"python-centre\"\ncommand = \"python3\"\nargs = [{:?}]\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
        script.display().to_string()
    );
    let path = write_config(tmp.path(), "python", &config);
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "python");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        assert!(!g.termination.is_forfeit(), "{g:?}");
        assert_eq!(g.opening.len(), 2);
        assert_eq!(g.moves[..2], g.opening[..]);
    }
    // Both games of a pair share the opening.
    assert_eq!(
        recorded
            .iter()
            .filter(|g| g.pair == 1)
            .map(|g| g.opening.clone())
            .collect::<HashSet<_>>()
            .len(),
        1
    );
}

/// Replays a recorded game with the rules and checks its result, score and ending.
struct Replay<'a>(&'a arena::record::GameRecord);

impl games::GameVisitor for Replay<'_> {
    type Output = ();
    fn visit<G: games::Game>(self, mut pos: G) {
        let g = self.0;
        for m in &g.moves {
            pos.play(m.parse().unwrap())
                .unwrap_or_else(|e| panic!("{}: {m}: {e}", g.id));
        }
        assert_eq!(pos.score(), g.score, "{}", g.id);
        if g.termination.as_str() == "normal" {
            let outcome = pos
                .outcome()
                .unwrap_or_else(|| panic!("{}: recorded as over but is not", g.id));
            assert_eq!(
                arena::record::GameResult::from_winner(outcome.winner()),
                g.result,
                "{}",
                g.id
            );
        }
    }
}

#[test]
fn recorded_games_replay_to_their_recorded_result_and_score() {
    let tmp = tempfile::tempdir().unwrap();
    for (game, table) in [
        (
            "tictactoe",
            "name = \"tictactoe\"\nwidth = 4\nheight = 4\nk = 3",
        ),
        ("connect4", "name = \"connect4\""),
        (
            "dots",
            "name = \"dots\"\nwidth = 8\nheight = 8\nstart = \"empty\"",
        ),
    ] {
        let config = format!(
            "name = \"{game}\"\ngames_per_pair = 4\nopening_plies = 1\nseed = 8\n[game]\n{table}\n[time_control]\ntime_ms = 20000\n\
             [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n[[bots]]\nname = \"c\"\nbuiltin = \"random\"\n"
        );
        let path = write_config(tmp.path(), game, &config);
        let out = run(tmp.path(), &path, &[]);
        assert!(out.status.success(), "{}", text(&out));
        let recorded = games(tmp.path(), game);
        assert_eq!(recorded.len(), 12);
        for g in &recorded {
            assert_eq!(g.termination.as_str(), "normal", "{g:?}");
            assert_eq!(g.score.is_some(), game == "dots", "{g:?}");
            let spec: games::GameSpec = format!("{} {}", g.game, g.variant).parse().unwrap();
            spec.visit(Replay(g));
        }
        // `arena replay` shows the same game: every move numbered, the final board, Dots' captures.
        let g = &recorded[0];
        let dir = tmp.path().join("results").join(game);
        let out = common::arena()
            .args(["replay"])
            .arg(&dir)
            .arg(&g.id)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(
            shown.contains(&format!("{}.{}", g.plies, g.moves.last().unwrap())),
            "{shown}"
        );
        assert!(
            shown.contains(&format!("after ply {}:", g.plies)),
            "{shown}"
        );
        if let Some([x, y]) = g.score {
            assert!(
                shown.contains(&format!("captured: first {x}, second {y}")),
                "{shown}"
            );
        }
        let missing = common::arena()
            .args(["replay"])
            .arg(&dir)
            .arg("g9999")
            .output()
            .unwrap();
        assert_eq!(missing.status.code(), Some(1), "{}", text(&missing));
        if game == "dots" {
            let standings =
                std::fs::read_to_string(tmp.path().join("results/dots/standings.csv")).unwrap();
            let column = standings
                .lines()
                .next()
                .unwrap()
                .split(',')
                .position(|c| c == "capture_diff")
                .unwrap();
            let total: i64 = standings
                .lines()
                .skip(1)
                .map(|l| l.split(',').nth(column).unwrap().parse::<i64>().unwrap())
                .sum();
            assert_eq!(total, 0, "capture differences sum to zero:\n{standings}");
        }
    }
}

#[test]
fn the_same_config_plays_the_same_games_even_for_bots_seeded_by_the_arena() {
    let tmp = tempfile::tempdir().unwrap();
    let config = repo_config("smoke.toml");
    let moves = |dir: &std::path::Path| {
        let mut g: Vec<_> = games(dir, "smoke")
            .into_iter()
            .map(|g| (g.id, g.moves, g.seed))
            .collect();
        g.sort();
        g
    };
    assert!(run(tmp.path(), &config, &[]).status.success());
    let first = moves(tmp.path());
    assert!(run(tmp.path(), &config, &["--fresh"]).status.success());
    assert_eq!(moves(tmp.path()), first);
    assert!(first
        .iter()
        .all(|(_, _, seed)| (1..=i64::MAX as u64).contains(seed)));
}

/// The `.toml` files of `dir`, sorted.
fn toml_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut configs: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    configs.sort();
    configs
}

#[test]
fn every_shipped_config_passes_arena_check() {
    let configs = toml_files(&repo_config(""));
    assert!(configs.len() >= 5, "{configs:?}");
    let out = common::arena()
        .arg("check")
        .args(&configs)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for path in &configs {
        // A contest file of `arena serve` is checked as the server loads it.
        let contest = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("contest-"));
        let what = if contest { "contest" } else { "tournament" };
        assert!(
            stdout.contains(&format!("{}: {what}", path.display())),
            "{} not checked:\n{stdout}",
            path.display()
        );
    }
}

#[test]
fn every_baseline_and_sparring_config_parses() {
    // configs/baseline/ holds strength measurements against older builds of the arena, whose binaries
    // (target/dots-tps-<commit>/arena) a clone does not have, and configs/sparring/ matches against
    // outside engines (target/sparring/), so a plan cannot be built for those: parsing
    // (`Config::load`) is enough for them. A config whose bots are all built in is planned too.
    let configs: Vec<_> = ["baseline", "sparring"]
        .into_iter()
        .flat_map(|d| {
            let configs = toml_files(&repo_config(d));
            assert!(!configs.is_empty(), "no configs in configs/{d}");
            configs
        })
        .collect();
    for path in &configs {
        let config = arena::config::Config::load(path)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
        if config.bots.iter().all(|b| b.builtin.is_some()) {
            let arena = std::path::Path::new(env!("CARGO_BIN_EXE_arena"));
            if let Err(e) = arena::plan::Plan::new(&config, path, arena) {
                panic!("{} does not plan: {e}", path.display());
            }
        }
    }
}

#[test]
fn every_config_shown_in_the_docs_is_part_of_a_config_file() {
    // Each ```toml block of README.md and docs/*.md is a config of configs/ or an excerpt of one (its
    // lines, in any selection, are lines of that file), so the examples are configs the tests above
    // check, not text that can drift from what the arena accepts.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files_in = |dir: &std::path::Path, ext: &str| -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        files
    };
    let configs: Vec<String> = files_in(&root.join("configs"), "toml")
        .into_iter()
        .chain(files_in(&root.join("configs/baseline"), "toml"))
        .chain(files_in(&root.join("configs/upload-example"), "toml"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let docs = std::iter::once(root.join("README.md")).chain(files_in(&root.join("docs"), "md"));
    let mut shown = 0;
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        for block in text.split("```toml\n").skip(1) {
            let block = block.split("```").next().unwrap();
            let lines: Vec<&str> = block.lines().filter(|l| !l.trim().is_empty()).collect();
            let found = configs
                .iter()
                .any(|config| lines.iter().all(|l| config.lines().any(|c| c == *l)));
            assert!(
                found,
                "{}: a toml block that is no part of any file of configs/:\n{block}",
                doc.display()
            );
            shown += 1;
        }
    }
    assert!(shown >= 1, "no toml block found in README.md or docs/");
}
