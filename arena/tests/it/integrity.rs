//! End to end: one results folder never mixes two configs (the run's fingerprint), options a bot would
//! ignore or refuse stop the run before its first game, paths resolve against the config's folder, and
//! a killed arena never loses or duplicates a recorded game.

use crate::common;

use common::{games, run, text, write_config};

const BASE: &str = "name = \"t\"\ngames_per_pair = 4\nseed = 11\nconcurrency = 2\n\
    [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 5000\ninc_ms = 50\n\
    [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";

#[test]
fn a_resume_under_a_changed_config_is_refused_with_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(tmp.path(), "t", BASE);
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    // Every row says the time control it was played under.
    for g in games(tmp.path(), "t") {
        assert_eq!(
            g.time_control,
            ["5000+50".to_string(), "5000+50".to_string()]
        );
        assert_eq!(g.move_ms.len(), g.moves.len() - g.opening.len(), "{g:?}");
    }
    let before = std::fs::read_to_string(tmp.path().join("results/t/games.csv")).unwrap();
    let changes = [
        (
            BASE.replace("inc_ms = 50", "inc_ms = 20"),
            "time_control: 5000+50 startup=5000 margin=0 → 5000+20",
        ),
        (
            BASE.replace(
                "name = \"b\"\nbuiltin = \"random\"",
                "name = \"b\"\nbuiltin = \"random\"\nlimits = { memory_mb = 64 }",
            ),
            "bot b's limits: memory 1024 MiB",
        ),
        (
            BASE.replace("seed = 11", "seed = 11\nsuspend_idle = false"),
            "suspend_idle: true → false",
        ),
        (
            BASE.replace(
                "name = \"b\"\nbuiltin = \"random\"",
                "name = \"b\"\nbuiltin = \"random\"\nargs = [\"--depth\", \"2\"]",
            ),
            "bot b's command: builtin random → builtin random --depth 2",
        ),
    ];
    for (config, expected) in changes {
        // More games, so the run has something to resume.
        let config = config.replace("games_per_pair = 4", "games_per_pair = 6");
        let path = write_config(tmp.path(), "t", &config);
        let out = run(tmp.path(), &path, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("played under another config"), "{err}");
        assert!(err.contains(expected), "expected {expected:?} in {err}");
        assert!(err.contains("--fresh"), "{err}");
        // Nothing was played or changed.
        let after = std::fs::read_to_string(tmp.path().join("results/t/games.csv")).unwrap();
        assert_eq!(after, before);
    }
    // The same config resumes; --fresh starts over under the new one.
    let path = write_config(
        tmp.path(),
        "t",
        &BASE.replace("games_per_pair = 4", "games_per_pair = 6"),
    );
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(games(tmp.path(), "t").len(), 6);
    let path = write_config(tmp.path(), "t", &BASE.replace("inc_ms = 50", "inc_ms = 20"));
    let out = run(tmp.path(), &path, &["--fresh"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(games(tmp.path(), "t")
        .iter()
        .all(|g| g.time_control[0] == "5000+20"));
}

#[test]
fn options_a_bot_would_ignore_or_refuse_stop_the_run_before_its_first_game() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = "[[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\n{opts}\n[[bots]]\nname = \"r\"\nbuiltin = \"random\"\n";
    let cases = [
        (
            "options = { depht = 3 }",
            "option \"depht\" is not an option of this bot; did you mean \"depth\"? it declares",
        ),
        (
            "options = { depth = 0 }",
            "option depth = \"0\" is outside 1..1024",
        ),
        (
            "sweep = { depth = [2, 9999] }",
            "bot \"ab[depth=9999]\": option depth = \"9999\" is outside 1..1024",
        ),
        ("options = { depth = \"deep\" }", "is not an integer"),
    ];
    for (opts, expected) in cases {
        let config =
            BASE.split("[[bots]]").next().unwrap().to_string() + &bots.replace("{opts}", opts);
        let path = write_config(
            tmp.path(),
            "opts",
            &config.replace("name = \"t\"", "name = \"opts\""),
        );
        let out = run(tmp.path(), &path, &[]);
        assert_eq!(out.status.code(), Some(1), "{opts}: {}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(expected),
            "{opts}: expected {expected:?} in {err}"
        );
        let csv = tmp.path().join("results/opts/games.csv");
        assert!(!csv.exists() || std::fs::read_to_string(&csv).unwrap().lines().count() <= 1);
    }
    // A CodeCup bot takes no options at all.
    let config = BASE.replace(
        "name = \"b\"\nbuiltin = \"random\"",
        "name = \"b\"\nbuiltin = \"random\"\nprotocol = \"codecup\"\noptions = { seed = 1 }",
    );
    let path = write_config(tmp.path(), "cc", &config);
    let out = run(tmp.path(), &path, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("codecup protocol has no options"));
}

#[test]
fn paths_in_a_config_are_relative_to_its_folder_wherever_the_arena_starts() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let conf_dir = tmp.path().join("contest");
    std::fs::create_dir_all(conf_dir.join("bots/mine")).unwrap();
    std::fs::create_dir_all(conf_dir.join("books")).unwrap();
    // A bot script that checks its working directory is the config's `dir`.
    let script = conf_dir.join("bots/mine/run.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n[ -f ./marker ] || { echo 'not in my dir' >&2; exit 9; }\nexec \"$1\" bot random\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(conf_dir.join("bots/mine/marker"), "").unwrap();
    std::fs::write(conf_dir.join("books/ttt.txt"), "b2\nb2 a1\n").unwrap();
    let config = BASE.replace(
        "name = \"a\"\nbuiltin = \"random\"",
        // The program the script runs is named in its args, so that the default sandbox shows it.
        &format!(
            "name = \"a\"\ncommand = \"bots/mine/run.sh\"\ndir = \"bots/mine\"\nargs = [{:?}]",
            env!("CARGO_BIN_EXE_arena")
        ),
    ) + "[openings]\nfile = \"books/ttt.txt\"\n";
    let path = write_config(
        &conf_dir,
        "paths",
        &config.replace("name = \"t\"", "name = \"paths\""),
    );
    // Started from another folder, with the config given by an absolute path.
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = common::arena()
        .current_dir(&elsewhere)
        .arg("run")
        .arg(&path)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "paths");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        assert_eq!(g.termination.as_str(), "normal", "{g:?}");
        assert!(g.opening[0] == "b2", "{g:?}");
    }
}

/// A pseudo-random sequence from a seed (SplitMix64), for the kill times.
fn delays(seed: u64, n: usize) -> Vec<u64> {
    let mut z = seed;
    (0..n)
        .map(|_| {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^= x >> 31;
            50 + x % 600
        })
        .collect()
}

#[test]
fn sigkill_at_random_moments_never_loses_or_duplicates_a_recorded_game() {
    let tmp = tempfile::tempdir().unwrap();
    // Bots that take a few ms a move, so kills land mid-game, mid-write and between games alike.
    let config = "name = \"kill\"\ngames_per_pair = 60\nseed = 4\nconcurrency = 2\n\
        [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 20000\nstartup_ms = 20000\n\
        [[bots]]\nname = \"a\"\nbuiltin = \"faulty\"\nargs = [\"--delay-ms\", \"3\"]\n\
        [[bots]]\nname = \"b\"\nbuiltin = \"faulty\"\nargs = [\"--delay-ms\", \"3\"]\n";
    let path = write_config(tmp.path(), "kill", config);
    let csv = tmp.path().join("results/kill/games.csv");
    let mut seen: Vec<arena::record::GameRecord> = Vec::new();
    for (k, ms) in delays(2026, 6).into_iter().enumerate() {
        let mut child = common::spawn_run(tmp.path(), &path);
        std::thread::sleep(std::time::Duration::from_millis(ms));
        child.kill().unwrap();
        child.wait().unwrap();
        if !csv.exists() {
            continue;
        }
        // Read as a resume reads it (a last line cut short is dropped).
        let dir = arena::results::ResultsDir {
            path: tmp.path().join("results/kill"),
        };
        let now = dir.read_games().unwrap();
        let ids: std::collections::HashSet<&str> = now.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids.len(), now.len(), "kill {k}: a game recorded twice");
        for old in &seen {
            assert!(
                now.iter().any(|g| g == old),
                "kill {k}: game {} was lost or changed",
                old.id
            );
        }
        seen = now;
    }
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let all = games(tmp.path(), "kill");
    assert_eq!(all.len(), 60);
    let mut ids: Vec<String> = all.iter().map(|g| g.id.clone()).collect();
    ids.sort();
    let expected: Vec<String> = (1..=60).map(|n| format!("g{n:04}")).collect();
    assert_eq!(ids, expected);
    for old in &seen {
        assert!(
            all.iter().any(|g| g == old),
            "game {} lost at the end",
            old.id
        );
    }
}
