//! Helpers for the end-to-end tests: run the real `arena` binary on a config in a temporary folder.

// `tests/it` uses every helper here; the browser tests, which build only with the feature `browser`,
// use a few, and with that feature `tests/it` builds `browser` and uses none of it.
#![cfg_attr(feature = "browser", allow(dead_code))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arena::record::GameRecord;

/// Headless Chromium and the report page's game viewer (feature `browser`).
#[cfg(feature = "browser")]
pub mod browser;

/// The `arena` binary cargo built for these tests.
/// Without the caller's `ARENA_DB`: `arena serve` and `arena worker` read it, and a test meant for
/// SQLite must not write into the PostgreSQL database a developer exported.
pub fn arena() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.env_remove("ARENA_DB");
    cmd
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

/// Runs `arena run <config> --results <dir>/results` with the environment variables `env` added.
pub fn run_env(dir: &Path, config: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = arena();
    cmd.arg("run")
        .arg(config)
        .arg("--results")
        .arg(dir.join("results"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Whether process `pid` is gone (or a zombie nobody reaped yet, which runs no code).
pub fn is_dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => {
            stat.rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next())
                == Some("Z")
        }
    }
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

/// Starts `arena run <config>` into `<dir>/results`, waits until tournament `name` has recorded at
/// least `games` games (at most 60 s), then sends SIGTERM and returns the exit status.
pub fn stop_after(dir: &Path, config: &Path, name: &str, games: usize) -> std::process::ExitStatus {
    signal_after(dir, config, name, games, "TERM")
}

/// [`stop_after`] with another signal: `signal` as `kill` names it (`TERM`, `HUP`, `INT`).
pub fn signal_after(
    dir: &Path,
    config: &Path,
    name: &str,
    games: usize,
    signal: &str,
) -> std::process::ExitStatus {
    let mut child = spawn_run(dir, config);
    wait_for_games(dir, name, games);
    Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    child.wait().unwrap()
}

/// Starts `arena run <config>` into `<dir>/results` in the background, its output discarded.
pub fn spawn_run(dir: &Path, config: &Path) -> std::process::Child {
    arena()
        .arg("run")
        .arg(config)
        .arg("--results")
        .arg(dir.join("results"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until tournament `name` under `<dir>/results` has recorded at least `games` games; panics
/// after 60 s.
pub fn wait_for_games(dir: &Path, name: &str, games: usize) {
    let csv = dir.join("results").join(name).join("games.csv");
    let waited = std::time::Instant::now();
    // The header line, then one line per game.
    while std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < games + 1 {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(60),
            "{name}: not {games} games in 60 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A tiny tuning: the alpha-beta bot at depth 2 on Connect Four, one option, one game pair an
/// iteration; `verify` adds an SPRT of at most one game pair.
pub fn tiny_tune(verify: bool) -> String {
    let verify = if verify { "verify = true\n" } else { "" };
    let sprt = if verify.is_empty() {
        ""
    } else {
        "[sprt]\nelo0 = 0\nelo1 = 20\nmax_pairs = 1\n"
    };
    format!(
        r#"
name = "tiny-tune"
format = "tune"
seed = 3
opening_plies = 2
concurrency = 2
{sprt}
[tune]
iterations = 10
{verify}
[[tune.params]]
name = "c4_centre"
start = 0
min = -20
max = 20
c_end = 4
r_end = 0.05

[game]
name = "connect4"

[time_control]
time_ms = 60000
inc_ms = 1000

[[bots]]
name = "ab"
builtin = "alphabeta"
options = {{ depth = 2 }}
"#
    )
}

/// A fresh database `name` (dropped first if it exists) on the PostgreSQL server of
/// `ARENA_TEST_POSTGRES` (`.ci/run` starts one with deploy/postgres/throwaway.sh): its URL, and the
/// server's. `None`, with the reason printed, where there is none; in CI (`CI` set) that fails instead.
#[cfg(feature = "server")]
pub fn fresh_postgres(name: &str) -> Option<(String, String)> {
    let Ok(server) = std::env::var("ARENA_TEST_POSTGRES") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI runs the server's tests on PostgreSQL too: set ARENA_TEST_POSTGRES \
             (.ci/run starts deploy/postgres/throwaway.sh)"
        );
        eprintln!(
            "skipped: no PostgreSQL (set ARENA_TEST_POSTGRES to a server's URL, e.g. from \
             deploy/postgres/throwaway.sh)"
        );
        return None;
    };
    execute_postgres(
        &server,
        &[
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ],
    );
    let (base, _) = server.rsplit_once('/').expect("a URL ending in /DATABASE");
    Some((format!("{base}/{name}"), server))
}

/// Runs `statements` on the PostgreSQL database `url`.
#[cfg(feature = "server")]
pub fn execute_postgres(url: &str, statements: &[String]) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::{Connection, Executor};
        let mut conn = sqlx::PgConnection::connect(url)
            .await
            .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
        for sql in statements {
            conn.execute(sql.as_str()).await.unwrap();
        }
    });
}
