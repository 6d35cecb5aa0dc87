//! End to end: Kalah through the `arena` binary, the game whose side to move does not alternate (K4 of
//! docs/kalah-rules.md): the match of the built-in engines, bots that sow an empty pit or the
//! other player's, a CodeCup bot that writes its extra move with its first, and a config with another
//! game's keys.

use std::io::Read as _;
use std::path::Path;

use base64::Engine as _;

use crate::common::{self, games, run, text, write_config};

/// Writes an executable shell script `name` into `dir`.
fn script(dir: &Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// A two-game Kalah(6,4) tournament of the CodeCup script `bot` against the built-in random bot, one
/// game each way; its records.
fn against_random(dir: &Path, name: &str, bot: &str) -> Vec<arena::record::GameRecord> {
    let config = format!(
        "name = \"{name}\"\ngames_per_pair = 2\nseed = 3\nconcurrency = 1\n[game]\nname = \"kalah\"\n\
         [time_control]\nmax_move_ms = 1000\n\
         [[bots]]\nname = \"script\"\ncommand = {bot:?}\nprotocol = \"codecup\"\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n"
    );
    let path = write_config(dir, name, &config);
    let out = run(dir, &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    games(dir, name)
}

/// The command: `arena match builtin:alphabeta builtin:minimax --game kalah --games 20` (no
/// clock given: the default) plays and records 20 games, whose report carries a picture of every
/// position.
#[test]
fn the_article_s_engines_play_a_twenty_game_kalah_match_and_its_report_has_every_position() {
    let tmp = tempfile::tempdir().unwrap();
    let out = crate::match_cmd::arena_match(
        tmp.path(),
        &[
            "builtin:alphabeta",
            "builtin:minimax",
            "--game",
            "kalah",
            "--games",
            "20",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("no --tc or --movetime given"),
        "{}",
        text(&out)
    );
    let dir = tmp
        .path()
        .join("results")
        .join("alphabeta-vs-minimax-kalah");
    let records = arena::results::ResultsDir { path: dir.clone() }
        .read_existing_games()
        .unwrap();
    assert_eq!(records.len(), 20);
    let mut again = 0;
    for r in &records {
        assert_eq!((r.game.as_str(), r.variant.as_str()), ("kalah", "6 4"));
        assert_eq!(r.termination.as_str(), "normal", "{r:?}");
        let [a, b] = r.score.unwrap();
        assert_eq!(a + b, 48, "every seed ends in a store: {r:?}");
        let movers = r.movers();
        again += movers.windows(2).filter(|w| w[0] == w[1]).count();
        assert_eq!(
            r.moves_by(games::Player::First) + r.moves_by(games::Player::Second),
            r.plies
        );
    }
    assert!(again > 0, "no extra move in 20 games of Kalah");
    // The report: every game's pictures, from the start to the last ply.
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let start = html.find("id=\"frames\">").unwrap() + "id=\"frames\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    // One line a game: its moves and pictures, gzip'd JSON in base64 (arena/src/frames/compact.rs).
    let lines: Vec<&str> = html[start..end].trim().lines().collect();
    assert_eq!(lines.len(), 20);
    for line in lines {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(line)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let plies = v["m"].as_array().unwrap().len();
        assert_eq!(v["f"]["s"].as_array().unwrap().len(), plies + 1);
        assert_eq!(v["f"]["w"].as_str().unwrap().len(), plies);
        assert_eq!(v["f"]["b"]["style"], "wood");
    }
}

#[test]
fn a_codecup_bot_may_write_its_extra_move_with_its_first() {
    let tmp = tempfile::tempdir().unwrap();
    // As first player: pit 3 ends in the store (another move), pit 6 passes the turn; both in one
    // write. Then it never answers again.
    let bot = script(
        tmp.path(),
        "extra.sh",
        "read line\nif [ \"$line\" = Start ]; then printf '3\\n6\\n'; fi\nexec sleep 60",
    );
    let records = against_random(tmp.path(), "extra", &bot);
    let first = records.iter().find(|r| r.first == "script").unwrap();
    assert_eq!(first.moves[..2], ["3", "6"], "{first:?}");
    let movers = first.movers();
    assert_eq!(movers[0], movers[1], "the same side made both moves");
    // Its next move never comes: a timeout, not a protocol fault for the two moves in one write.
    assert_eq!(first.termination.as_str(), "timeout", "{first:?}");
    assert!(first.detail.starts_with("script: "), "{first:?}");
}

/// The extra move written later, after thinking: the bot gets no request for it (CodeCup tells a
/// player only the other's moves), so it must not be frozen as an idle bot after its first move
/// (`arena doctor`'s "idle bot suspended by"), or its second move would never come.
#[test]
fn a_codecup_bot_may_write_its_extra_move_after_its_first() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = script(
        tmp.path(),
        "later.sh",
        "read line\nif [ \"$line\" = Start ]; then echo 3; sleep 0.3; echo 6; fi\nexec sleep 60",
    );
    let records = against_random(tmp.path(), "later", &bot);
    let first = records.iter().find(|r| r.first == "script").unwrap();
    assert_eq!(first.moves[..2], ["3", "6"], "{first:?}");
    assert_eq!(first.termination.as_str(), "timeout", "{first:?}");
    assert!(
        first.move_ms[1] >= 250,
        "the second move's time is the bot's thinking after the first: {first:?}"
    );
}

#[test]
fn sowing_an_empty_pit_or_the_other_player_s_is_a_named_illegal_move() {
    let tmp = tempfile::tempdir().unwrap();
    // First player: pit 3 (another move), then pit 3 again, now empty. Second player: pit 1, the
    // first player's.
    let bot = script(
        tmp.path(),
        "bad.sh",
        "read line\nif [ \"$line\" = Start ]; then printf '3\\n3\\n'; else echo 1; fi\nexec sleep 60",
    );
    let records = against_random(tmp.path(), "bad", &bot);
    let first = records.iter().find(|r| r.first == "script").unwrap();
    assert_eq!(first.termination.as_str(), "illegal", "{first:?}");
    assert_eq!(first.detail, "script: move 3: pit 3 is empty");
    assert_eq!(first.moves, ["3"]);
    let second = records.iter().find(|r| r.second == "script").unwrap();
    assert_eq!(second.termination.as_str(), "illegal", "{second:?}");
    assert_eq!(second.detail, "script: move 1: pit 1 is the other player's");
}

#[test]
fn another_game_s_key_under_kalah_is_refused_at_its_position() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(
        tmp.path(),
        "keys",
        "name = \"keys\"\n[game]\nname = \"kalah\"\npits = 6\nwidth = 7\n[time_control]\ntime_ms = 1000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
    );
    let out = common::arena()
        .arg("check")
        .arg(&path)
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("keys.toml:5:9: [game]: kalah has no key width (its keys: pits, seeds)"),
        "{stderr}"
    );
    // A value out of range is named at its own key.
    let path = write_config(
        tmp.path(),
        "range",
        "name = \"range\"\n[game]\nname = \"kalah\"\nseeds = 99\n[time_control]\ntime_ms = 1000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
    );
    let out = common::arena()
        .arg("check")
        .arg(&path)
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("range.toml:4:9: [game]: seeds 99 is out of range 1..=24"),
        "{stderr}"
    );
}
