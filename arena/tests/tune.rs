//! End-to-end tests of `arena tune`: the real binary tunes a bot through bot processes, writes
//! `tune.csv`, its chart and snippet, and resumes from its record.

mod common;

use std::path::Path;
use std::process::Output;

use common::{arena, text, tiny_tune, write_config};

fn tune(dir: &Path, config: &Path, extra: &[&str]) -> Output {
    arena()
        .arg("tune")
        .arg(config)
        .arg("--results")
        .arg(dir.join("results"))
        .arg("--no-progress")
        .args(extra)
        .output()
        .unwrap()
}

fn rows(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("results/tiny-tune/tune.csv"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn tune_writes_a_row_per_iteration_and_a_second_run_continues_the_count() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(tmp.path(), "tiny", &tiny_tune(false));
    let out = tune(tmp.path(), &path, &["--iterations", "2"]);
    assert!(out.status.success(), "{}", text(&out));
    let first = rows(tmp.path());
    assert_eq!(
        first[0],
        "iteration,games,wins,draws,losses,result,c4_centre"
    );
    assert_eq!(first.len(), 3, "{first:?}");
    for (i, row) in first[1..].iter().enumerate() {
        let cols: Vec<&str> = row.split(',').collect();
        let n = |k: usize| cols[k].parse::<i64>().unwrap();
        assert_eq!(n(0), i as i64 + 1, "{row}");
        assert_eq!(n(1), 2, "a game pair per iteration: {row}");
        assert_eq!(n(2) + n(3) + n(4), 2, "{row}");
        assert_eq!(n(5), n(2) - n(4), "{row}");
        let theta: f64 = cols[6].parse().unwrap();
        assert!((-20.0..=20.0).contains(&theta), "{row}");
    }
    let folder = tmp.path().join("results/tiny-tune");
    let svg = std::fs::read_to_string(folder.join("tune.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("c4_centre"));
    let tuned = std::fs::read_to_string(folder.join("tuned.toml")).unwrap();
    let snippet: toml::Table = toml::from_str(&tuned).unwrap();
    let options = &snippet["bots"][0]["options"];
    assert_eq!(options["depth"].as_integer(), Some(2), "{tuned}");
    let last: f64 = first[2].split(',').nth(6).unwrap().parse().unwrap();
    assert_eq!(
        options["c4_centre"].as_integer(),
        Some(last.round() as i64),
        "{tuned}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("c4_centre"));

    // The second run goes on from iteration 3, leaving the recorded rows as they were.
    let out = tune(tmp.path(), &path, &["--iterations", "3"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming tiny-tune: 2 iterations"));
    let second = rows(tmp.path());
    assert_eq!(second.len(), 4, "{second:?}");
    assert_eq!(second[..3], first[..]);
    assert!(second[3].starts_with("3,2,"), "{second:?}");

    // A run with the iterations already recorded plays nothing; a changed config is refused.
    let out = tune(tmp.path(), &path, &["--iterations", "3"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(rows(tmp.path()).len(), 4);
    let changed = write_config(
        tmp.path(),
        "tiny",
        &tiny_tune(false).replace("c_end = 4", "c_end = 5"),
    );
    let out = tune(tmp.path(), &changed, &["--iterations", "4"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("c_end=4") && text(&out).contains("--fresh"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_killed_tuning_resumes_from_its_last_complete_iteration() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(tmp.path(), "tiny", &tiny_tune(false));
    let csv = tmp.path().join("results/tiny-tune/tune.csv");
    let mut child = arena()
        .arg("tune")
        .arg(&path)
        .arg("--results")
        .arg(tmp.path().join("results"))
        .args(["--no-progress", "--iterations", "1000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 3 {
        assert!(waited.elapsed().as_secs() < 120, "no 2 iterations in 120 s");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let before = rows(tmp.path());
    let recorded = before.len() - 1;
    let out = tune(
        tmp.path(),
        &path,
        &["--iterations", &(recorded + 1).to_string()],
    );
    assert!(out.status.success(), "{}", text(&out));
    let after = rows(tmp.path());
    assert_eq!(after.len(), recorded + 2, "{after:?}");
    assert_eq!(after[..before.len()], before[..]);
    assert!(after[recorded + 1].starts_with(&format!("{},", recorded + 1)));
}

#[test]
fn verify_plays_an_sprt_of_the_tuned_against_the_start_values() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(tmp.path(), "tiny", &tiny_tune(true));
    let out = tune(tmp.path(), &path, &["--iterations", "1"]);
    assert!(out.status.success(), "{}", text(&out));
    let games =
        arena::results::read_games_csv(&tmp.path().join("results/tiny-tune/verify-1/games.csv"))
            .unwrap();
    assert_eq!(games.len(), 2, "one game pair (max_pairs = 1)");
    assert!(games
        .iter()
        .all(|g| [&g.first, &g.second].contains(&&"ab-tuned".to_string())
            && [&g.first, &g.second].contains(&&"ab-start".to_string())));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verify"));
}
