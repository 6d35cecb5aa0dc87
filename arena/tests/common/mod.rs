//! Helpers for the end-to-end tests: run the real `arena` binary on a config in a temporary folder.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arena::record::GameRecord;

/// The `arena` binary cargo built for these tests.
pub fn arena() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arena"))
}

/// Writes `text` as `<dir>/<name>.toml` and returns its path.
pub fn write_config(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `arena run <config> --results <dir>/results` plus `extra` flags.
pub fn run(dir: &Path, config: &Path, extra: &[&str]) -> Output {
    let out = arena()
        .arg("run")
        .arg(config)
        .arg("--results")
        .arg(dir.join("results"))
        .args(extra)
        .output()
        .unwrap();
    out
}

/// Every game recorded for tournament `name`.
pub fn games(dir: &Path, name: &str) -> Vec<GameRecord> {
    arena::results::read_games_csv(&dir.join("results").join(name).join("games.csv")).unwrap()
}

pub fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
