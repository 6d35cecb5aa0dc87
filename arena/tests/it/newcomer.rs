//! End to end: what tripped a newcomer (issue 27's findings): a game ended in its handshake, options
//! checked by `arena check`, config errors with their place, bot arguments that name files, `arena
//! play` into a file.

use crate::common;

use common::{arena, games, run, text, write_config};

/// A game whose bot never finished its handshake records the opening it was scheduled with, but no
/// move played: `plies` 0 and no `moves`, read back and re-refereed as any row, exported and reported.
#[test]
fn a_game_ended_in_its_handshake_records_its_opening_but_no_move() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(
        tmp.path(),
        "handshake",
        "name = \"handshake\"\ngames_per_pair = 2\nseed = 3\nopening_plies = 2\nconcurrency = 1\n\
         [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"quitter\"\ncommand = \"false\"\nsandbox = \"none\"\n",
    );
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "handshake");
    assert_eq!(recorded.len(), 2);
    for g in &recorded {
        assert_eq!(g.termination.as_str(), "crash", "{g:?}");
        assert_eq!(g.opening.len(), 2, "{g:?}");
        assert_eq!((g.plies, g.moves.len()), (0, 0), "{g:?}");
        assert!(g.move_ms.is_empty(), "{g:?}");
    }
    assert_eq!(recorded[0].opening, recorded[1].opening);
    let dir = tmp.path().join("results/handshake");
    for args in [&["report"][..], &["export", "--format", "pgn"]] {
        let out = arena().args(args).arg(&dir).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out));
    }
    // Run again: the folder resumes (its games belong to the schedule, opening included) and plays
    // nothing.
    let again = run(tmp.path(), &config, &["--no-progress"]);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(games(tmp.path(), "handshake").len(), 2);
}

/// A bot's `args` that name a file are taken relative to the config file's folder, as its `command`
/// is, whatever folder the arena starts in: the repository's example bot, run as `python3 <script>`
/// from a config in another folder, plays.
#[test]
fn args_that_name_files_are_relative_to_the_config_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = tmp.path().join("bots");
    let configs = tmp.path().join("configs");
    // Not a sibling of `configs`: `../bots` from there is no folder.
    let elsewhere = tmp.path().join("elsewhere/deeper");
    for d in [&bots, &configs, &elsewhere] {
        std::fs::create_dir_all(d).unwrap();
    }
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bots/examples/connect4_first_free.py"
    );
    std::fs::copy(example, bots.join("centre.py")).unwrap();
    let config = write_config(
        &configs,
        "args",
        "name = \"args\"\ngames_per_pair = 2\nconcurrency = 1\n\
         [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"centre\"\ncommand = \"python3\"\nargs = [\"../bots/centre.py\"]\n",
    );
    let out = arena()
        .current_dir(&elsewhere)
        .arg("run")
        .arg(&config)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .arg("--no-progress")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "args");
    assert_eq!(recorded.len(), 2);
    for g in &recorded {
        assert!(!g.termination.is_forfeit(), "{g:?}");
    }
}

/// An unknown game, an unknown built-in bot and a bot file that does not exist are reported at their
/// place in the config, `file:line:column`, as a syntax error or an unknown key is.
#[test]
fn errors_in_a_config_name_their_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let good = "name = \"t\"\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
                [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\
                [[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let cases = [
        (
            "game",
            good.replace("\"connect4\"", "\"connect5\""),
            "3:8",
            "connect5",
        ),
        (
            "builtin",
            good.replace(
                "name = \"b\"\nbuiltin = \"random\"",
                "name = \"b\"\nbuiltin = \"randon\"",
            ),
            "11:11",
            "unknown builtin \"randon\"",
        ),
        (
            "command",
            good.replace(
                "name = \"b\"\nbuiltin = \"random\"",
                "name = \"b\"\ncommand = \"./no/such/bot\"",
            ),
            "11:11",
            "does not exist",
        ),
    ];
    for (name, config, place, words) in cases {
        let path = write_config(tmp.path(), name, &config);
        let out = arena().arg("check").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let at = format!("{}:{place}: ", path.display());
        assert!(stderr.contains(&at), "{name}: expected {at:?} in {stderr}");
        assert!(stderr.contains(words), "{name}: {stderr}");
    }
}

/// `arena check` finds a misspelled option, as `arena run` would before its first game, and names the
/// option meant: a built-in bot's at once (the arena's own code, started as `arena bot <name>`), a bot
/// given as a command's with `--probe` (started in its sandbox, as a run starts it).
#[test]
fn arena_check_finds_a_misspelled_option_and_says_what_was_meant() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_arena");
    let head = "name = \"t\"\n[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 1000\n\
                [[bots]]\nname = \"r\"\nbuiltin = \"random\"\n";
    let builtin = write_config(
        tmp.path(),
        "builtin",
        &format!(
            "{head}[[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = {{ depht = 3 }}\n"
        ),
    );
    let out = arena().arg("check").arg(&builtin).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "bot \"ab\": option \"depht\" is not an option of this bot; did you mean \"depth\"?"
        ),
        "{stderr}"
    );
    // The same bot as a command: checked when `--probe` allows starting it.
    let command = write_config(
        tmp.path(),
        "command",
        &format!(
            "{head}[[bots]]\nname = \"ab\"\ncommand = {exe:?}\nargs = [\"bot\", \"alphabeta\"]\n\
             sandbox = \"none\"\noptions = {{ depht = 3 }}\n"
        ),
    );
    let out = arena().arg("check").arg(&command).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("--probe"), "{stdout}");
    let out = arena()
        .arg("check")
        .arg("--probe")
        .arg(&command)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did you mean \"depth\"?"),
        "{}",
        text(&out)
    );
    // Options spelled right pass.
    let right = write_config(
        tmp.path(),
        "right",
        &format!(
            "{head}[[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = {{ depth = 3 }}\n"
        ),
    );
    let out = arena().arg("check").arg(&right).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}
