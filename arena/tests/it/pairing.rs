//! End to end: Swiss and knockout tournaments of real bot processes through the `arena` binary.

use crate::common;

use std::collections::{BTreeMap, HashSet};

use common::{games, run, stop_after, text, write_config};

fn repo_config(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("configs")
        .join(name)
}

/// (id, first, second, opening, seed) of every recorded game, by id: what the pairing decided.
fn pairings(dir: &std::path::Path, name: &str) -> Vec<(String, String, String, String, u64)> {
    let mut g: Vec<_> = games(dir, name)
        .into_iter()
        .map(|g| (g.id, g.first, g.second, g.opening.join(" "), g.seed))
        .collect();
    g.sort();
    g
}

/// Rows of a results folder's CSV file, as maps from column to value.
fn csv_rows(path: &std::path::Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    r.records()
        .map(|row| {
            header
                .iter()
                .zip(row.unwrap().iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn the_swiss_config_plays_its_rounds_without_rematches_and_one_bye_each() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        tmp.path(),
        &repo_config("swiss-tictactoe.toml"),
        &["--no-progress"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let mut recorded = games(tmp.path(), "swiss-tictactoe");
    // games.csv is in the order games end.
    recorded.sort_by(|a, b| a.id.cmp(&b.id));
    // 9 bots: 4 pairings a round of one game pair each, 4 rounds.
    assert_eq!(recorded.len(), 32);
    let mut met = HashSet::new();
    let mut first_moves: BTreeMap<String, i32> = BTreeMap::new();
    for pair in recorded.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(
            (a.first.as_str(), a.second.as_str()),
            (b.second.as_str(), b.first.as_str())
        );
        assert_eq!(a.pair, b.pair);
        let key = if a.first < a.second {
            (a.first.clone(), a.second.clone())
        } else {
            (a.second.clone(), a.first.clone())
        };
        assert!(met.insert(key), "{} and {} met twice", a.first, a.second);
    }
    for g in &recorded {
        *first_moves.entry(g.first.clone()).or_default() += 1;
        *first_moves.entry(g.second.clone()).or_default() -= 1;
    }
    assert!(first_moves.values().all(|&d| d == 0), "{first_moves:?}");
    let rows = csv_rows(&tmp.path().join("results/swiss-tictactoe/swiss.csv"));
    let byes: Vec<&str> = rows
        .iter()
        .filter(|r| r["note"] == "bye")
        .map(|r| r["bot"].as_str())
        .collect();
    assert_eq!(byes.len(), 4, "{rows:?}");
    assert_eq!(
        byes.iter().collect::<HashSet<_>>().len(),
        4,
        "a bot had two byes: {byes:?}"
    );
    for r in rows.iter().filter(|r| r["note"] == "bye") {
        assert_eq!(r["points"], "2", "a bye scores as a won game pair");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("swiss ranking (points with byes, then buchholz"),
        "{stdout}"
    );
    // Run again: complete, nothing replayed.
    let again = run(
        tmp.path(),
        &repo_config("swiss-tictactoe.toml"),
        &["--no-progress"],
    );
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("is complete"),
        "{}",
        text(&again)
    );
    assert_eq!(games(tmp.path(), "swiss-tictactoe").len(), 32);
}

#[test]
fn a_swiss_stopped_mid_round_resumes_with_the_same_pairings() {
    let whole = tempfile::tempdir().unwrap();
    let config = repo_config("swiss-tictactoe.toml");
    let out = run(whole.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let tmp = tempfile::tempdir().unwrap();
    // Stopped after at least 11 games: inside round 2 or later, never replayed.
    stop_after(tmp.path(), &config, "swiss-tictactoe", 11);
    let partial = games(tmp.path(), "swiss-tictactoe");
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let resumed = games(tmp.path(), "swiss-tictactoe");
    for g in &partial {
        let same = resumed.iter().find(|r| r.id == g.id).unwrap();
        assert_eq!(same.date, g.date, "game {} was played again", g.id);
    }
    // The bots are deterministic (fixed depths and seeds), so the results and hence every later
    // round's pairing match the uninterrupted run's.
    assert_eq!(
        pairings(tmp.path(), "swiss-tictactoe"),
        pairings(whole.path(), "swiss-tictactoe")
    );
}

#[test]
fn two_hundred_random_bots_play_two_swiss_rounds() {
    let tmp = tempfile::tempdir().unwrap();
    let seeds: Vec<String> = (1..=200).map(|s| format!("{{ seed = {s} }}")).collect();
    let config = write_config(
        tmp.path(),
        "swiss200",
        &format!(
            "name = \"swiss200\"\nformat = \"swiss\"\nrounds = 2\nseed = 5\nconcurrency = 2\n\
             [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 20000\n\
             [[bots]]\nname = \"r\"\nbuiltin = \"random\"\nsweep = [{}]\n",
            seeds.join(", ")
        ),
    );
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let mut recorded = games(tmp.path(), "swiss200");
    recorded.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(recorded.len(), 400);
    let mut per_bot: BTreeMap<&str, u32> = BTreeMap::new();
    let mut met = HashSet::new();
    for g in recorded.iter().step_by(2) {
        *per_bot.entry(&g.first).or_default() += 1;
        *per_bot.entry(&g.second).or_default() += 1;
        assert!(met.insert((
            g.first.clone().min(g.second.clone()),
            g.first.clone().max(g.second.clone())
        )));
    }
    assert_eq!(per_bot.len(), 200);
    assert!(
        per_bot.values().all(|&n| n == 2),
        "each bot one pairing a round"
    );
}

#[test]
fn the_knockout_config_plays_its_bracket_and_writes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(
        tmp.path(),
        &repo_config("knockout-connect4.toml"),
        &["--no-progress"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let rows = csv_rows(&tmp.path().join("results/knockout-connect4/bracket.csv"));
    // 6 bots in 8 slots: 4 first-round slots (2 byes), 2 semi-finals, the final.
    assert_eq!(rows.len(), 7, "{rows:?}");
    let byes: Vec<&str> = rows
        .iter()
        .filter(|r| r["decided_by"] == "bye")
        .map(|r| r["higher_seed"].as_str())
        .collect();
    assert_eq!(byes, vec!["1", "2"]);
    let recorded = games(tmp.path(), "knockout-connect4");
    let pairs: u32 = rows
        .iter()
        .map(|r| r["pairs"].parse::<u32>().unwrap())
        .sum();
    assert_eq!(recorded.len() as u32, 2 * pairs);
    let winner = &rows.last().unwrap()["winner"];
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("winner: [") && stdout.contains(winner.as_str()),
        "{stdout}"
    );
    let txt =
        std::fs::read_to_string(tmp.path().join("results/knockout-connect4/bracket.txt")).unwrap();
    let last = rows.last().unwrap();
    let seed = if last["winner"] == last["higher"] {
        &last["higher_seed"]
    } else {
        &last["lower_seed"]
    };
    assert!(txt.contains("final:"), "{txt}");
    assert_eq!(
        txt.lines().last(),
        Some(format!("winner: [{seed}] {winner}").as_str()),
        "{txt}"
    );
    assert!(
        txt.starts_with("bracket (seeded by config order):"),
        "{txt}"
    );
}

#[test]
fn a_knockout_stopped_mid_bracket_resumes_with_the_same_matches() {
    let config = repo_config("knockout-connect4.toml");
    let whole = tempfile::tempdir().unwrap();
    let out = run(whole.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let tmp = tempfile::tempdir().unwrap();
    stop_after(tmp.path(), &config, "knockout-connect4", 6);
    let partial = games(tmp.path(), "knockout-connect4");
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let resumed = games(tmp.path(), "knockout-connect4");
    for g in &partial {
        let same = resumed.iter().find(|r| r.id == g.id).unwrap();
        assert_eq!(same.date, g.date, "game {} was played again", g.id);
    }
    assert_eq!(
        pairings(tmp.path(), "knockout-connect4"),
        pairings(whole.path(), "knockout-connect4")
    );
    let bracket = |d: &std::path::Path| {
        std::fs::read_to_string(d.join("results/knockout-connect4/bracket.csv")).unwrap()
    };
    assert_eq!(bracket(tmp.path()), bracket(whole.path()));
}

#[test]
fn a_level_knockout_match_goes_to_extra_pairs_then_to_the_higher_seed() {
    let tmp = tempfile::tempdir().unwrap();
    // Perfect tic-tac-toe players draw every game: each match is level after its pair and both extra
    // pairs, so the higher seed advances.
    let config = write_config(
        tmp.path(),
        "level",
        "name = \"level\"\nformat = \"knockout\"\nseed = 1\nconcurrency = 2\n[knockout]\npairs = 1\nextra_pairs = 2\n\
         [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 20000\n\
         [[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\nsweep = { depth = [9, 10, 11] }\n",
    );
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let rows = csv_rows(&tmp.path().join("results/level/bracket.csv"));
    assert_eq!(rows.len(), 3, "{rows:?}");
    for r in rows.iter().filter(|r| r["decided_by"] != "bye") {
        assert_eq!(r["decided_by"], "seed", "{r:?}");
        assert_eq!(r["pairs"], "3", "{r:?}");
        assert_eq!(r["winner"], r["higher"], "{r:?}");
    }
    assert_eq!(games(tmp.path(), "level").len(), 12);
    assert!(games(tmp.path(), "level")
        .iter()
        .all(|g| g.result.to_string() == "1/2-1/2"));
}

#[test]
fn swiss_and_knockout_refuse_shards() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["swiss-tictactoe.toml", "knockout-connect4.toml"] {
        let out = run(tmp.path(), &repo_config(name), &["--shard", "1/2"]);
        assert!(!out.status.success(), "{}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot be split into shards"), "{err}");
    }
}
