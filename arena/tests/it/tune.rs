//! End-to-end tests of `arena tune`: the real binary tunes a bot through bot processes, writes
//! `tune.csv`, its chart and snippet, and resumes from its record.

use crate::common;

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
        "iteration,games,wins,draws,losses,result,c4_centre,flip_c4_centre"
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
        assert!(["1", "-1"].contains(&cols[7]), "{row}");
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
    let sent_first = sent_rows(tmp.path());
    assert_sent_is_rounded(&first, &sent_first);

    // The second run goes on from iteration 3, leaving the recorded rows as they were.
    let out = tune(tmp.path(), &path, &["--iterations", "3"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming tiny-tune: 2 iterations"));
    let second = rows(tmp.path());
    assert_eq!(second.len(), 4, "{second:?}");
    assert_eq!(second[..3], first[..]);
    assert!(second[3].starts_with("3,2,"), "{second:?}");
    let sent_second = sent_rows(tmp.path());
    assert_eq!(sent_second[..5], sent_first[..], "the recorded probes kept");
    assert_sent_is_rounded(&second, &sent_second);

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

fn sent_rows(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("results/tiny-tune/tune-sent.csv"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `tune-sent.csv` against `tune.csv`: per iteration a `+` and a `-` row, each value an integer next
/// to its probe θ ± c_k·Δ (the stochastic rounding goes to one of the two; tiny_tune's c_k by
/// fishtest's formula, as in `assert_fishtest_updates`).
fn assert_sent_is_rounded(tune_rows: &[String], sent: &[String]) {
    assert_eq!(sent[0], "iteration,probe,bot,c4_centre");
    assert_eq!(sent.len(), 1 + 2 * (tune_rows.len() - 1), "{sent:?}");
    let c_base = 4.0f64 * 10f64.powf(0.101);
    let mut theta = 0.0f64;
    for (k, row) in tune_rows[1..].iter().enumerate() {
        let cols: Vec<&str> = row.split(',').collect();
        let flip: f64 = cols[7].parse().unwrap();
        let c = c_base / (k as f64 + 1.0).powf(0.101);
        for (j, (probe, x)) in [('+', theta + c * flip), ('-', theta - c * flip)]
            .into_iter()
            .enumerate()
        {
            let line = &sent[1 + 2 * k + j];
            let s: Vec<&str> = line.split(',').collect();
            assert_eq!(s[0], (k + 1).to_string(), "{line}");
            assert_eq!(s[1], probe.to_string(), "{line}");
            let value: i64 = s[3]
                .parse()
                .unwrap_or_else(|_| panic!("an integer: {line}"));
            let x = x.clamp(-20.0, 20.0);
            assert!(
                value == x.floor() as i64 || value == x.ceil() as i64,
                "{line}: the probe was {x}"
            );
        }
        theta = cols[6].parse().unwrap();
    }
}

/// θ of each row from the previous row's θ, the row's result and its recorded flip, by fishtest's
/// formulas written out here (tiny_tune: N = 10 iterations × 1 game pair, A = 0.1·N, c_end 4, r_end
/// 0.05, θ in −20..20, α 0.602, γ 0.101; fishtest `server/fishtest/spsa_workflow.py`).
fn assert_fishtest_updates(rows: &[String]) {
    let (n, alpha, gamma) = (10.0f64, 0.602, 0.101);
    let big_a = 0.1 * n;
    let (c_end, r_end) = (4.0f64, 0.05);
    let c_base = c_end * n.powf(gamma);
    let a = r_end * c_end * c_end * (big_a + n).powf(alpha);
    let mut theta = 0.0f64;
    for (pairs_done, row) in rows[1..].iter().enumerate() {
        let cols: Vec<&str> = row.split(',').collect();
        let result: f64 = cols[5].parse().unwrap();
        let flip: f64 = cols[7].parse().unwrap();
        let k = pairs_done as f64 + 1.0;
        let c = c_base / k.powf(gamma);
        let r = a / (big_a + k).powf(alpha) / (c * c);
        theta = (theta + r * c * result * flip).clamp(-20.0, 20.0);
        let recorded: f64 = cols[6].parse().unwrap();
        assert!(
            (recorded - theta).abs() < 1e-12,
            "{row}: fishtest's θ is {theta}"
        );
    }
}

#[test]
fn the_recorded_theta_follows_fishtests_update_and_an_older_record_gets_its_flips() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_config(tmp.path(), "tiny", &tiny_tune(false));
    let out = tune(tmp.path(), &path, &["--iterations", "3"]);
    assert!(out.status.success(), "{}", text(&out));
    let recorded = rows(tmp.path());
    assert_eq!(recorded.len(), 4);
    assert_fishtest_updates(&recorded);
    // The same file without its flip_ columns, as arena tune wrote it before they existed: the next
    // run adds them back (the same Δ, drawn from the seed and the iteration) and goes on.
    let older: Vec<String> = recorded
        .iter()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect();
    let csv = tmp.path().join("results/tiny-tune/tune.csv");
    std::fs::write(&csv, older.join("\n") + "\n").unwrap();
    let out = tune(tmp.path(), &path, &["--iterations", "4"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("added the flip_ columns"),
        "{}",
        text(&out)
    );
    let after = rows(tmp.path());
    assert_eq!(after[..4], recorded[..]);
    assert_eq!(after.len(), 5);
    assert_fishtest_updates(&after);
    // A recorded flip that the seed does not give is refused.
    let flipped: Vec<String> = after
        .iter()
        .enumerate()
        .map(|(i, l)| match (i, l.rsplit_once(',')) {
            (1, Some((head, "1"))) => format!("{head},-1"),
            (1, Some((head, _))) => format!("{head},1"),
            _ => l.clone(),
        })
        .collect();
    std::fs::write(&csv, flipped.join("\n") + "\n").unwrap();
    let out = tune(tmp.path(), &path, &["--iterations", "5"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("perturbation"), "{}", text(&out));
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
    // The verifying run's folder holds its own config (the SPRT of the two bots), not the tuning's, so
    // `arena report` and `ratings` there read it as the run did (they once read the tune config).
    let verify = tmp.path().join("results/tiny-tune/verify-1");
    let copy = arena::config::Config::load(&verify.join("config.toml")).unwrap();
    assert_eq!(copy.name, "verify-1");
    assert_eq!(copy.format, arena::config::Format::Sprt);
    assert!(copy.tune.is_none());
    let names: Vec<&str> = copy.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["ab-tuned", "ab-start"]);
    let origin = std::fs::read_to_string(verify.join("config.origin")).unwrap();
    assert_eq!(
        origin.trim(),
        std::path::absolute(&path).unwrap().display().to_string()
    );
    let ratings = common::arena()
        .arg("ratings")
        .arg(&verify)
        .output()
        .unwrap();
    assert!(ratings.status.success(), "{}", text(&ratings));
    let printed = String::from_utf8_lossy(&ratings.stdout);
    assert!(printed.contains("LLR"), "the SPRT's state: {printed}");
}
