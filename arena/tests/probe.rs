//! End to end: `arena probe` plays a bot executable against a reference bot and says whether it behaves.

mod common;

use common::{arena, games, text};

/// Runs `arena probe` with `flags`, then `--` and `bot` (the command line of the probed bot).
fn probe(dir: &std::path::Path, flags: &[&str], bot: &[&str]) -> std::process::Output {
    arena()
        .arg("probe")
        .args(flags)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress")
        .arg("--")
        .args(bot)
        .output()
        .unwrap()
}

#[test]
fn a_bot_that_plays_by_the_rules_behaves() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_arena");
    let out = probe(
        tmp.path(),
        &["--game", "connect4", "--name", "ab", "--set", "depth=2"],
        &[exe, "bot", "alphabeta"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("handshake: id name alphabeta;"), "{stdout}");
    assert!(stdout.contains("verdict: ab behaves"), "{stdout}");
    let played = games(tmp.path(), "probe-ab");
    assert_eq!(played.len(), 4);
    // Game pairs: the bot moves first in one game of each pair, second in the other.
    assert_eq!(played.iter().filter(|g| g.first == "ab").count(), 2);
    assert!(played.iter().all(|g| !g.termination.is_forfeit()));
    // The probe's config is kept beside its games, and is a config `arena run` accepts.
    let config = tmp.path().join("results/probe-ab/config.toml");
    let check = arena().arg("check").arg(&config).output().unwrap();
    assert!(check.status.success(), "{}", text(&check));
}

#[test]
fn a_bot_that_crashes_is_reported_with_its_reason_transcript_and_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_arena");
    let out = probe(
        tmp.path(),
        &["--game", "tictactoe", "--games", "2", "--name", "crasher"],
        &[exe, "bot", "faulty", "--crash-on-move", "2"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("crash: crasher: exited with status 3"),
        "{stdout}"
    );
    assert!(stdout.contains("the end of "), "{stdout}");
    assert!(
        stdout.contains("crasher < [exited with status 3]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verdict: crasher MISBEHAVES: it forfeited 2 of 2 games"),
        "{stdout}"
    );
}

#[test]
fn a_broken_probe_is_an_error_before_any_game() {
    let tmp = tempfile::tempdir().unwrap();
    let out = probe(tmp.path(), &["--game", "connect4"], &["./no/such/bot"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not exist"),
        "{}",
        text(&out)
    );
    let out = probe(
        tmp.path(),
        &["--game", "connect4", "--games", "3"],
        &["true"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--games 3 must be even"),
        "{}",
        text(&out)
    );
    assert!(!tmp.path().join("results").exists());
}
