//! Regression: `arena run configs/smoke.toml | head -3` panicked with "failed printing to stdout:
//! Broken pipe" (exit status 101) once `head` had gone. A command whose reader has gone now drops its
//! output and does all its work, then exits with its own status: 0 when all went well, the probe's
//! verdict, an error's 1.
//!
//! The pipe's read end is closed before the command starts, so every write to stdout fails with EPIPE
//! whatever the machine's speed (a reader dropped after a few bytes would race the writer against the
//! 64 KiB pipe buffer).

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{arena, games, write_config};

/// Runs `cmd` with stdout a pipe whose read end is already closed, stderr captured.
fn with_closed_stdout(mut cmd: Command) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    cmd.stdout(writer)
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Asserts that `out` ended with status 0 and no panic.
#[track_caller]
fn quiet_success(what: &str, out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "{what} panicked:\n{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{what}:\n{stderr}"
    );
    assert!(out.status.success(), "{what}: {:?}\n{stderr}", out.status);
}

fn smoke_config() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/smoke.toml")
}

#[test]
fn commands_whose_stdout_reader_has_gone_end_quietly_after_their_work() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");

    // `arena run a.toml b.toml | head -3`: both tournaments are played and recorded all the same
    // (the first one's report already fails to print); only the printed reports have nowhere to go.
    let second = write_config(
        tmp.path(),
        "smoke-again",
        &std::fs::read_to_string(smoke_config())
            .unwrap()
            .replace("name = \"smoke\"", "name = \"smoke-again\""),
    );
    let mut run = arena();
    run.arg("run")
        .arg(smoke_config())
        .arg(&second)
        .arg("--results")
        .arg(&results)
        .arg("--no-progress");
    quiet_success("arena run", &with_closed_stdout(run));
    assert_eq!(games(tmp.path(), "smoke").len(), 12);
    assert!(results.join("smoke/standings.csv").is_file());
    assert_eq!(games(tmp.path(), "smoke-again").len(), 12);

    let folder = results.join("smoke");
    let mut ratings = arena();
    ratings.arg("ratings").arg(&folder);
    quiet_success("arena ratings", &with_closed_stdout(ratings));

    let mut replay = arena();
    replay
        .arg("replay")
        .arg(&folder)
        .arg("g0001")
        .arg("--every");
    quiet_success("arena replay", &with_closed_stdout(replay));

    let mut export = arena();
    export
        .arg("export")
        .arg(&folder)
        .arg("--format")
        .arg("pgn")
        .arg("--out")
        .arg(tmp.path().join("export"));
    quiet_success("arena export", &with_closed_stdout(export));
    // The export's file is written before its one line of output fails.
    let pgn = std::fs::read_to_string(tmp.path().join("export/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 12);
}

#[test]
fn an_error_is_still_reported_when_stdout_is_closed() {
    // The broken pipe is forgiven, nothing else: a missing folder still fails with its message.
    let tmp = tempfile::tempdir().unwrap();
    let mut ratings = arena();
    ratings.arg("ratings").arg(tmp.path().join("nowhere"));
    let out = with_closed_stdout(ratings);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("arena: error:"), "{stderr}");

    // A probe's verdict is its status, with or without a reader: a bot that crashes fails it.
    let mut probe = arena();
    probe
        .args([
            "probe",
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--name",
            "crasher",
        ])
        .arg("--results")
        .arg(tmp.path().join("results"))
        .args(["--no-progress", "--", env!("CARGO_BIN_EXE_arena")])
        .args(["bot", "faulty", "--crash-on-move", "2"]);
    let out = with_closed_stdout(probe);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
