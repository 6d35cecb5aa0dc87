//! Regression: `arena run configs/smoke.toml 2>&1 | head -1` stopped at the first game with exit status
//! 101: once `head` had gone, the first progress line's `eprintln!` panicked ("failed printing to
//! stderr: Broken pipe", a message nobody could read). The arena's diagnostics now go through
//! `arena::errln!`, which drops them once stderr's reader has gone: the command does all its work and
//! exits with its own status (0, an error's 1, a probe's verdict).
//!
//! As in closed_stdout.rs, the pipe's read end is closed before the command starts, so every write to
//! stderr fails with EPIPE whatever the machine's speed.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{arena, games, tiny_tune, write_config};

/// Runs `cmd` with stderr a pipe whose read end is already closed, stdout captured.
fn with_closed_stderr(mut cmd: Command) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    cmd.stderr(writer)
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs `cmd` as `cmd 2>&1 | head -1` once `head` has gone: stdout and stderr one pipe whose read end
/// is already closed.
fn with_both_closed(mut cmd: Command) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    cmd.stderr(writer.try_clone().unwrap())
        .stdout(writer)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// `arena <args>` into `<dir>/results`, plain progress lines (which go to stderr).
fn arena_into(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = arena();
    cmd.args(args)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress");
    cmd
}

fn repo_config(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../configs")
        .join(name)
}

/// Asserts that `out` ended with exit status `code`; 101 is Rust's status for a panic.
#[track_caller]
fn exited(what: &str, out: &Output, code: i32) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(101), "{what} panicked:\n{stdout}");
    assert_eq!(out.status.code(), Some(code), "{what}:\n{stdout}");
}

#[test]
fn commands_whose_stderr_reader_has_gone_do_all_their_work_and_print_their_output() {
    let tmp = tempfile::tempdir().unwrap();
    let smoke = repo_config("smoke.toml");
    // Two tournaments in one run: the first one's progress lines already fail, the second is played
    // all the same, and both reports reach stdout.
    let second = write_config(
        tmp.path(),
        "smoke-again",
        &std::fs::read_to_string(&smoke)
            .unwrap()
            .replace("name = \"smoke\"", "name = \"smoke-again\""),
    );
    let mut run = arena_into(tmp.path(), &["run"]);
    run.arg(&smoke).arg(&second);
    let out = with_closed_stderr(run);
    exited("arena run", &out, 0);
    assert_eq!(games(tmp.path(), "smoke").len(), 12);
    assert_eq!(games(tmp.path(), "smoke-again").len(), 12);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\nsmoke — tictactoe 3 3 3 — "), "{stdout}");
    assert!(
        stdout.contains("\nsmoke-again — tictactoe 3 3 3 — "),
        "{stdout}"
    );

    // `--fresh` notes on stderr where the old folder went, then plays the tournament again.
    let mut fresh = arena_into(tmp.path(), &["run", "--fresh"]);
    fresh.arg(&smoke);
    exited("arena run --fresh", &with_closed_stderr(fresh), 0);
    assert_eq!(games(tmp.path(), "smoke").len(), 12);

    // A Swiss tournament runs through its own runner, with its own lines on stderr.
    let mut swiss = arena_into(tmp.path(), &["run"]);
    swiss.arg(repo_config("swiss-tictactoe.toml"));
    exited("arena run (swiss)", &with_closed_stderr(swiss), 0);
    assert_eq!(games(tmp.path(), "swiss-tictactoe").len(), 32);

    // A tuning prints a line per iteration; a second call resumes (and says so on stderr).
    let tune = write_config(tmp.path(), "tiny-tune", &tiny_tune(false));
    for iterations in ["1", "2"] {
        let mut cmd = arena_into(tmp.path(), &["tune", "--iterations", iterations]);
        cmd.arg(&tune);
        let out = with_closed_stderr(cmd);
        exited("arena tune", &out, 0);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!(": {iterations} iterations recorded")),
            "{stdout}"
        );
    }
}

#[test]
fn exit_statuses_survive_a_gone_or_closed_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let nowhere = tmp.path().join("nowhere");

    // An error's message has nowhere to go; its status still tells.
    let mut ratings = arena();
    ratings.arg("ratings").arg(&nowhere);
    let out = with_closed_stderr(ratings);
    exited("arena ratings <missing folder>", &out, 1);
    assert!(out.stdout.is_empty());

    // `arena run … 2>&1 | head -1` with `head` gone: nothing can be written anywhere, and the
    // tournament is played and recorded all the same.
    let mut run = arena_into(tmp.path(), &["run"]);
    run.arg(repo_config("smoke.toml"));
    exited("arena run 2>&1 | (gone)", &with_both_closed(run), 0);
    assert_eq!(games(tmp.path(), "smoke").len(), 12);

    // A probe's verdict is its status: a bot that crashes fails it.
    let mut probe = arena_into(tmp.path(), &["probe"]);
    probe
        .args(["--game", "tictactoe", "--games", "2", "--name", "crasher"])
        .args(["--", env!("CARGO_BIN_EXE_arena")])
        .args(["bot", "faulty", "--crash-on-move", "2"]);
    exited("arena probe (crasher)", &with_both_closed(probe), 1);
    // Its forfeits are recorded all the same (status 1 alone is also any error's).
    let probed = games(tmp.path(), "probe-crasher");
    assert_eq!(probed.len(), 2);
    assert!(
        probed.iter().all(|g| g.termination.is_forfeit()),
        "{probed:?}"
    );

    // A closed descriptor (`2>&-`) was never a panic (Rust opens /dev/null in its place); kept so
    // that stays true.
    for (dir, code) in [(tmp.path().join("results/smoke"), 0), (nowhere, 1)] {
        let out = Command::new("sh")
            .args(["-c", "exec \"$0\" \"$@\" 2>&-", env!("CARGO_BIN_EXE_arena")])
            .arg("ratings")
            .arg(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        exited("arena ratings 2>&-", &out, code);
        assert!(out.stderr.is_empty());
        assert_eq!(!out.stdout.is_empty(), code == 0);
    }
}
