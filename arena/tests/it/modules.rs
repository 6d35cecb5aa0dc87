//! End to end: game modules through the `arena` binary (`docs/modules.md`): the example Connect Four
//! module played by the built-in engines, its records kept with the module and re-refereed through
//! it; a module that traps voids its games, which count for nobody, and the run goes on; a module
//! changed under a results folder is refused on resume.

use std::path::{Path, PathBuf};

use arena::record::Termination;

use crate::common::{games, run, text, write_config};
use crate::match_cmd::arena_match;

/// `modules/out/<name>.wasm` (built by `modules/build.sh`); `None` with the reason printed when it was
/// not built, unless `ARENA_REQUIRE_MODULES` is set (as `.ci/run` sets it).
fn example_module(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../modules/out")
        .join(format!("{name}.wasm"));
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("ARENA_REQUIRE_MODULES").is_none(),
        "{} is missing: modules/build.sh builds it",
        path.display()
    );
    eprintln!("skipped: {} not built (modules/build.sh)", path.display());
    None
}

/// Writes the tiny game of `modules/fixtures/tiny.wat` to `dir/<file>`, with the bodies named in
/// `replace` (`turn`, `legal`, `play`, between their markers) replaced.
fn tiny(dir: &Path, file: &str, replace: &[(&str, &str)]) -> PathBuf {
    let mut wat = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../modules/fixtures/tiny.wat"),
    )
    .unwrap();
    for (name, body) in replace {
        let (open, close) = (format!("(; {name} ;)"), format!("(; /{name} ;)"));
        let (a, b) = (wat.find(&open).unwrap(), wat.find(&close).unwrap());
        wat.replace_range(a..b + close.len(), body);
    }
    let path = dir.join(file);
    std::fs::write(&path, wat::parse_str(&wat).unwrap()).unwrap();
    path
}

/// The one results folder under `dir/results` (an `arena match` names its own) and its name.
fn only_folder(dir: &Path) -> (PathBuf, String) {
    let folder = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let name = folder.file_name().unwrap().to_str().unwrap().to_string();
    (folder, name)
}

#[test]
fn the_built_in_engines_play_a_module_game_and_its_folder_keeps_the_module() {
    let Some(module) = example_module("connect4") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = arena_match(
        tmp.path(),
        &[
            "builtin:alphabeta",
            "builtin:random",
            "--game",
            &format!("{} 6 5", module.display()),
            "--games",
            "4",
            "--movetime",
            "5",
            "--set-a",
            "depth=3",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let (folder, name) = only_folder(tmp.path());
    let records = games(tmp.path(), &name);
    assert_eq!(records.len(), 4);
    let sha = records[0].variant.split(' ').next().unwrap().to_string();
    for r in &records {
        assert_eq!(r.game, "module");
        assert_eq!(r.variant, format!("{sha} 6 5"));
        assert_eq!(r.termination, Termination::Normal, "{r:?}");
        // Connect Four's columns, as the module writes them: 1 to 6 on a 6-wide board.
        assert!(
            r.moves.iter().all(|m| ("1"..="6").contains(&m.as_str())),
            "{:?}",
            r.moves
        );
    }
    assert!(
        records
            .iter()
            .filter(
                |r| r.result.points(games::Player::First) == 1.0 && r.first == "alphabeta"
                    || r.result.points(games::Player::Second) == 1.0 && r.second == "alphabeta"
            )
            .count()
            >= 3,
        "alphabeta beats random: {records:?}"
    );
    let kept = folder.join("modules").join(format!("{sha}.wasm"));
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        std::fs::read(&module).unwrap()
    );

    // A reader of the folder re-referees the records through the kept module: the PGN export.
    let out = crate::common::arena()
        .args(["export", "--format", "pgn"])
        .arg(&folder)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let pgn = std::fs::read_to_string(folder.join("export/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result \"").count(), 4, "{pgn}");
}

#[test]
fn a_module_that_traps_voids_its_games_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    // Traps on the third `a` (its first two are played).
    let module = tiny(
        tmp.path(),
        "traps.wasm",
        &[(
            "play",
            "(if (i32.ge_s (global.get $ply) (i32.const 2)) (then (unreachable)))
             (global.set $ply (i32.add (global.get $ply) (i32.const 1))) (i32.const 0)",
        )],
    );
    let out = arena_match(
        tmp.path(),
        &[
            "builtin:random",
            "builtin:minimax",
            "--game",
            module.to_str().unwrap(),
            "--games",
            "4",
            "--movetime",
            "0.05",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let (folder, name) = only_folder(tmp.path());
    let records = games(tmp.path(), &name);
    assert_eq!(records.len(), 4, "{}", text(&out));
    // The arena's instance traps on the third move played; minimax's own traps in its search first
    // when it moves second: it stops, and that too voids the game, naming the module.
    for r in &records {
        assert_eq!(r.termination, Termination::Void, "{r:?}");
        assert!(
            r.detail
                .starts_with("module traps.wasm: arena_play trapped")
                || r.detail.starts_with("minimax: ")
                    && r.detail.contains("module traps.wasm: arena_play trapped"),
            "{}",
            r.detail
        );
        assert!(
            r.moves.len() <= 3 && r.moves.iter().all(|m| m == "a"),
            "{r:?}"
        );
    }
    // Nobody's games: no points, no forfeits.
    let standings = std::fs::read_to_string(folder.join("standings.csv")).unwrap();
    for line in standings.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!(cols[2], "0", "games of {line}");
    }
    // The PGN says no result.
    let out = crate::common::arena()
        .args(["export", "--format", "pgn", "--out"])
        .arg(tmp.path().join("void.pgn"))
        .arg(&folder)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let pgn = std::fs::read_to_string(tmp.path().join("void.pgn/games.pgn")).unwrap();
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
}

/// A module whose outcome traps after two plies: the referee's placeholder answers (a draw) are not
/// recorded; the game is void, and reading the folder again re-referees it as void.
#[test]
fn a_module_whose_outcome_traps_voids_the_game_rather_than_drawing_it() {
    let tmp = tempfile::tempdir().unwrap();
    let module = tiny(
        tmp.path(),
        "outcome.wasm",
        &[(
            "outcome",
            "(if (i32.ge_s (global.get $ply) (i32.const 2)) (then (unreachable))) (i32.const -1)",
        )],
    );
    let out = arena_match(
        tmp.path(),
        &[
            "builtin:random",
            "builtin:random",
            "--game",
            module.to_str().unwrap(),
            "--games",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let (folder, name) = only_folder(tmp.path());
    assert!(
        name.ends_with("-outcome"),
        "the match is named by the module's file: {name}"
    );
    let records = games(tmp.path(), &name);
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!(r.termination, Termination::Void, "{r:?}");
        assert!(
            r.detail
                .contains("module outcome.wasm: arena_outcome trapped"),
            "{}",
            r.detail
        );
    }
    let out = crate::common::arena()
        .arg("report")
        .arg(&folder)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
}

/// Two shards of a module game merged: the merged folder keeps the module, and a new process reads it.
#[test]
fn merged_shards_of_a_module_game_keep_the_module() {
    let tmp = tempfile::tempdir().unwrap();
    tiny(tmp.path(), "game.wasm", &[]);
    let config = "name = \"tiny\"\ngames_per_pair = 4\nseed = 1\n[game]\nmodule = \"game.wasm\"\n\
                  [time_control]\nmax_move_ms = 1000\n\
                  [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let path = write_config(tmp.path(), "tiny", config);
    for shard in ["1/2", "2/2"] {
        let out = run(tmp.path(), &path, &["--no-progress", "--shard", shard]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let results = tmp.path().join("results");
    let out = crate::common::arena()
        .arg("merge")
        .arg(results.join("tiny.shard-1-of-2"))
        .arg(results.join("tiny.shard-2-of-2"))
        .arg("--into")
        .arg(results.join("tiny"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_dir(results.join("tiny/modules"))
            .unwrap()
            .count(),
        1
    );
    let out = crate::common::arena()
        .arg("report")
        .arg(results.join("tiny"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(games(tmp.path(), "tiny").len(), 4);
}

#[test]
fn a_module_changed_under_its_results_folder_is_refused_on_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let module = tiny(tmp.path(), "game.wasm", &[]);
    let config = "name = \"tiny\"\ngames_per_pair = 2\nseed = 1\n[game]\nmodule = \"game.wasm\"\n\
                  [time_control]\nmax_move_ms = 1000\n\
                  [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let path = write_config(tmp.path(), "tiny", config);
    let out = run(tmp.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(games(tmp.path(), "tiny").len(), 2);
    // The same game, but the first player's turn counted otherwise: another module.
    tiny(
        tmp.path(),
        "game.wasm",
        &[(
            "turn",
            "(i32.and (i32.add (global.get $ply) (i32.const 0)) (i32.const 1))",
        )],
    );
    assert_ne!(std::fs::read(&module).unwrap().len(), 0);
    let out = run(tmp.path(), &path, &["--no-progress", "--games", "4"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("game"), "{}", text(&out));
}

#[test]
fn check_game_passes_the_example_and_names_the_first_failure_of_a_broken_module() {
    let tmp = tempfile::tempdir().unwrap();
    if let Some(module) = example_module("connect4") {
        let out = crate::common::arena()
            .args(["check-game", "--games", "20", "--variant", "6 5"])
            .arg(&module)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        assert!(text(&out).contains("passed: 20 games"), "{}", text(&out));
    }
    // Lists no move after the first while the game goes on.
    let broken = tiny(
        tmp.path(),
        "stuck.wasm",
        &[(
            "legal",
            "(if (result i64) (i32.eqz (global.get $ply)) (then (i64.const 1)) (else (i64.const 0)))",
        )],
    );
    let out = crate::common::arena()
        .args(["check-game", "--games", "3"])
        .arg(&broken)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "failed: game 1 (seed 1), after the moves [a]: the game is on but no move is legal"
        ),
        "{}",
        text(&out)
    );
    let junk = tmp.path().join("junk.wasm");
    std::fs::write(&junk, b"\0asm junk").unwrap();
    let out = crate::common::arena()
        .arg("check-game")
        .arg(&junk)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("module junk.wasm: is not a WebAssembly module"),
        "{}",
        text(&out)
    );
}
