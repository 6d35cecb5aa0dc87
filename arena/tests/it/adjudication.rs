//! End to end: `[adjudication]` (games ended by the bots' own scores, as cutechess's `-resign` and
//! `-draw`) and the config's `pgnout`, through the `arena` binary. The bots are the arena's random bot
//! behind a filter that reports a fixed score before each of its moves, so the scores do not depend on
//! any search.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use arena::record::{GameResult, Termination};
use common::{games, run, text, write_config};
use games::Player;

/// Writes `scored.sh`: runs `$1 bot random` and writes `info depth 3 score $2` before each of its
/// `bestmove` lines.
fn scored_bot(dir: &Path) -> String {
    let script = dir.join("scored.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n\"$1\" bot random | sed -u \"s/^bestmove/info depth 3 score $2\\nbestmove/\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

/// A Connect Four round-robin of `bots` (TOML `[[bots]]` entries) with `extra` keys, 4 games.
fn config(dir: &Path, name: &str, extra: &str, bots: &str) -> std::path::PathBuf {
    write_config(
        dir,
        name,
        &format!(
            "name = \"{name}\"\ngames_per_pair = 4\nseed = 1\nconcurrency = 2\nsandbox = \"none\"\n{extra}\n\
             [game]\nname = \"connect4\"\n[time_control]\ntime_ms = 10000\n{bots}"
        ),
    )
}

fn scored(name: &str, script: &str, score: i64) -> String {
    format!(
        "[[bots]]\nname = \"{name}\"\ncommand = {script:?}\nargs = [{:?}, \"{score}\"]\n",
        env!("CARGO_BIN_EXE_arena")
    )
}

#[test]
fn a_bot_whose_scores_stay_lost_resigns_and_the_record_says_adjudicated() {
    let tmp = tempfile::tempdir().unwrap();
    let script = scored_bot(tmp.path());
    let bots = format!(
        "{}[[bots]]\nname = \"random\"\nbuiltin = \"random\"\n",
        scored("loser", &script, -900)
    );
    let path = config(
        tmp.path(),
        "resign",
        "[adjudication]\nresign_moves = 2\nresign_score = 500\n",
        &bots,
    );
    let out = run(tmp.path(), &path, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "resign");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        let loser = if g.first == "loser" {
            Player::First
        } else {
            Player::Second
        };
        assert_eq!(g.result, GameResult::loss_of(loser), "{g:?}");
        assert_eq!(g.termination, Termination::Resign, "{g:?}");
        assert_eq!(
            g.detail, "loser: adjudicated: its score was -500 or worse on its last 2 moves",
            "{g:?}"
        );
        // Its second bad score made, it resigns when next to move: two moves of its own.
        assert_eq!(g.moves_by(loser), 2, "{g:?}");
    }
    // The export says adjudication.
    let out = common::arena()
        .args(["export"])
        .arg(tmp.path().join("results/resign"))
        .args(["--format", "pgn", "--out"])
        .arg(tmp.path().join("pgn"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let pgn = std::fs::read_to_string(tmp.path().join("pgn/games.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        4,
        "{pgn}"
    );
}

#[test]
fn quiet_scores_draw_the_game_after_the_move_number() {
    let tmp = tempfile::tempdir().unwrap();
    let script = scored_bot(tmp.path());
    let bots = format!("{}{}", scored("a", &script, 5), scored("b", &script, -3));
    let path = config(
        tmp.path(),
        "draw",
        "pgnout = \"out/live.pgn\"\n[adjudication]\ndraw_after = 3\ndraw_moves = 2\ndraw_score = 10\n",
        &bots,
    );
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    // Run from another folder: the config's pgnout is relative to the config's folder.
    let out = common::arena()
        .arg("run")
        .arg(&path)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .current_dir("/")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let recorded = games(tmp.path(), "draw");
    assert_eq!(recorded.len(), 4);
    for g in &recorded {
        // Connect Four cannot end before ply 7: after 3 full moves, both bots had two quiet moves.
        assert_eq!(
            (g.result, g.termination, g.plies),
            (GameResult::Draw, Termination::Adjudicated, 6),
            "{g:?}"
        );
        assert_eq!(
            g.detail, "draw adjudication: both scores within ±10 on their last 2 moves",
            "{g:?}"
        );
    }
    let pgn = std::fs::read_to_string(tmp.path().join("out/live.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"draw\"]").count(), 4, "{pgn}");
    assert_eq!(
        pgn.matches("{+5/3 ").count(),
        12,
        "three moves of a a game\n{pgn}"
    );
    assert_eq!(pgn.matches("{-3/3 ").count(), 12, "{pgn}");

    // Half a rule is an error naming the table.
    let bad = config(tmp.path(), "bad", "[adjudication]\ndraw_moves = 2\n", &bots);
    let out = run(tmp.path(), &bad, &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[adjudication]: draw_moves and draw_score come together"),
        "{stderr}"
    );
}
