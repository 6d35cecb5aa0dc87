//! End to end: the tools for comparing bots — sweeps, opening files, SPRT matches and `arena ratings` —
//! through the real `arena` binary. Deterministic: fixed seeds, fixed depths, one game at a time where
//! the order of finishing games matters.

use crate::common;

use common::{arena, games, run, text, write_config};

const C4_TC: &str = "[game]\nname = \"connect4\"\n[time_control]\ntime_ms = 60000\ninc_ms = 1000\n";

/// Runs `arena merge <sources…> --into <into>`.
fn merge_into(sources: &[&std::path::Path], into: &std::path::Path) -> std::process::Output {
    arena()
        .arg("merge")
        .args(sources)
        .arg("--into")
        .arg(into)
        .output()
        .unwrap()
}

#[test]
fn a_sweep_plays_each_variant_as_its_own_bot_with_its_options() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(
        tmp.path(),
        "sweep",
        &format!(
            "name = \"sweep\"\ngames_per_pair = 2\nseed = 4\nconcurrency = 2\n{C4_TC}\
             [[bots]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = {{ depth = 1 }}\n\
             sweep = {{ depth = [1, 2], c4_centre = [0] }}\n\
             [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n"
        ),
    );
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let records = games(tmp.path(), "sweep");
    // Three bots: 3 pairs × 2 games.
    assert_eq!(records.len(), 6);
    let variants = ["ab[c4_centre=0,depth=1]", "ab[c4_centre=0,depth=2]"];
    for v in variants {
        let mine: Vec<_> = records
            .iter()
            .filter(|r| r.first == v || r.second == v)
            .collect();
        assert_eq!(mine.len(), 4, "{v}: {records:?}");
        // The sweep's value overrides the bot's own option.
        let depth = &v[v.len() - 2..v.len() - 1];
        let log = std::fs::read_to_string(
            tmp.path()
                .join(format!("results/sweep/logs/{}.log", mine[0].id)),
        )
        .unwrap();
        assert!(
            log.contains(&format!("setoption name depth value {depth}"))
                && log.contains("setoption name c4_centre value 0"),
            "{log}"
        );
    }
}

#[test]
fn an_opening_file_gives_each_game_pair_its_line_and_bad_lines_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("book.txt"),
        "# three Connect Four openings\n4 4\n\n3 5 4\n1\n",
    )
    .unwrap();
    let text_cfg = format!(
        "name = \"book\"\ngames_per_pair = 8\nseed = 9\nconcurrency = 2\nopening_plies = 1\n\
         [openings]\nfile = \"book.txt\"\n{C4_TC}\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
    );
    let config = write_config(tmp.path(), "book", &text_cfg);
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let mut records = games(tmp.path(), "book");
    records.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(records.len(), 8);
    let book: [&[&str]; 3] = [&["4", "4"], &["3", "5", "4"], &["1"]];
    for r in &records {
        // Pair k plays line k (wrapping), then one random ply; both games of a pair alike.
        let line = book[(r.pair as usize - 1) % 3];
        assert_eq!(r.opening.len(), line.len() + 1, "{r:?}");
        assert_eq!(&r.opening[..line.len()], line, "{r:?}");
        let twin = records
            .iter()
            .find(|t| t.pair == r.pair && t.id != r.id)
            .unwrap();
        assert_eq!(twin.opening, r.opening);
        assert_eq!(
            (twin.first.as_str(), twin.second.as_str()),
            (r.second.as_str(), r.first.as_str())
        );
    }

    // An illegal line (a column played an eighth time) is refused before any game, with file:line.
    std::fs::write(tmp.path().join("bad.txt"), "4\n1 1 1 1 1 1 1\n").unwrap();
    let bad = write_config(
        tmp.path(),
        "bad",
        &text_cfg
            .replace("\"book\"", "\"bad\"")
            .replace("book.txt", "bad.txt"),
    );
    let out = run(tmp.path(), &bad, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt:2: move 7"), "{err}");
    assert!(!tmp.path().join("results/bad").exists());
}

fn sprt_config(name: &str, sprt: &str, strong: &str) -> String {
    format!(
        "name = \"{name}\"\nformat = \"sprt\"\nseed = 5\nconcurrency = 1\nopening_plies = 2\n\
         [sprt]\n{sprt}\n{C4_TC}\
         [[bots]]\nname = \"strong\"\n{strong}\n\
         [[bots]]\nname = \"random\"\nbuiltin = \"random\"\n"
    )
}

#[test]
fn an_sprt_match_stops_at_a_pair_boundary_once_decided_and_stays_decided() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(
        tmp.path(),
        "sprt",
        &sprt_config(
            "sprt",
            "elo0 = 0\nelo1 = 100\nmodel = \"logistic\"\nmax_pairs = 200",
            "builtin = \"minimax\"\noptions = { depth = 4 }",
        ),
    );
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("SPRT: H1 accepted"), "{}", text(&out));
    assert!(stdout.contains("LLR"), "{stdout}");
    let records = games(tmp.path(), "sprt");
    // Stopped early, and only at a pair boundary: with one game at a time every pair is whole.
    assert!(
        records.len() < 400 && records.len().is_multiple_of(2),
        "{}",
        records.len()
    );
    let h2h = arena::standings::head_to_head::HeadToHead::new("strong", "random", &records);
    assert_eq!(h2h.pentanomial.pairs() as usize * 2, records.len());

    // Run again: the recorded pairs decide, nothing more is played.
    let again = run(tmp.path(), &config, &[]);
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("is complete"),
        "{}",
        text(&again)
    );
    assert_eq!(games(tmp.path(), "sprt").len(), records.len());
}

#[test]
fn an_sprt_match_without_a_decision_ends_inconclusive_at_max_pairs() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(
        tmp.path(),
        "even",
        &sprt_config("even", "max_pairs = 3", "builtin = \"random\""),
    );
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("SPRT: inconclusive"),
        "{}",
        text(&out)
    );
    assert_eq!(games(tmp.path(), "even").len(), 6);

    // A broken [sprt] is an error before any game.
    for (bad, says) in [
        ("elo0 = 5\nelo1 = 0\nmax_pairs = 3", "elo0"),
        ("max_pairs = 3\nalpha = 1.5", "alpha"),
        ("max_pairs = 3\nmodel = \"bayes\"", "bayes"),
    ] {
        let path = write_config(
            tmp.path(),
            "broken",
            &sprt_config("broken", bad, "builtin = \"random\""),
        );
        let out = run(tmp.path(), &path, &[]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{}",
            text(&out)
        );
    }
}

#[test]
fn ratings_are_recomputed_from_games_csv_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let config = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/smoke.toml");
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let dir = tmp.path().join("results/smoke");
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    assert!(
        standings
            .lines()
            .next()
            .unwrap()
            .ends_with(",elo,elo_low,elo_high,elo_bound"),
        "{standings}"
    );
    let crosstable = std::fs::read_to_string(dir.join("crosstable.csv")).unwrap();
    assert_eq!(crosstable.lines().count(), 5, "{crosstable}");
    // The LOS matrix: each pair's two cells add up to 1.
    let los: Vec<Vec<String>> = std::fs::read_to_string(dir.join("los.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').skip(1).map(str::to_string).collect())
        .collect();
    assert_eq!(los.len(), 4);
    for i in 0..4 {
        for j in 0..4 {
            if i != j {
                let (a, b): (f64, f64) = (los[i][j].parse().unwrap(), los[j][i].parse().unwrap());
                assert!((a + b - 1.0).abs() < 1e-3, "{los:?}");
            }
        }
    }

    let ratings = |extra: &[&str]| {
        let out = arena()
            .arg("ratings")
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = ratings(&[]);
    assert!(
        first.contains("Elo") && first.contains("crosstable") && first.contains("LOS"),
        "{first}"
    );
    // The same games give the same numbers, and the run's standings.csv is what `ratings` writes.
    assert_eq!(ratings(&[]), first);
    assert_eq!(
        std::fs::read_to_string(dir.join("standings.csv")).unwrap(),
        standings
    );
    let anchored = ratings(&["--anchor", "random-1", "--pair", "random-1", "random-2"]);
    assert!(anchored.contains("random-1 vs random-2"), "{anchored}");
    assert!(anchored.contains("Ptnml"), "{anchored}");
    let out = arena()
        .arg("ratings")
        .arg(&dir)
        .args(["--anchor", "nobody"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

#[test]
fn the_config_anchor_rates_its_bot_zero_in_the_run_and_in_arena_ratings() {
    let tmp = tempfile::tempdir().unwrap();
    let smoke = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/smoke.toml"),
    )
    .unwrap();
    let config = write_config(
        tmp.path(),
        "smoke",
        &smoke.replace("seed = 1\n", "seed = 1\nanchor = \"random-2\"\n"),
    );
    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let dir = tmp.path().join("results/smoke");
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    let header: Vec<&str> = standings.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let elo = |bot: &str| -> f64 {
        let row: Vec<&str> = standings
            .lines()
            .find(|l| l.split(',').nth(column("bot")) == Some(bot))
            .unwrap()
            .split(',')
            .collect();
        row[column("elo")].parse().unwrap()
    };
    assert_eq!(elo("random-2"), 0.0, "{standings}");
    // Twelve games between random players: some bot is rated away from the anchor.
    assert!(
        ["random-1", "random-3", "random-codecup"]
            .iter()
            .any(|b| elo(b) != 0.0),
        "{standings}"
    );
    // `arena ratings` reads the anchor from the run's config copy and writes the same standings.
    let out = arena().arg("ratings").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("standings.csv")).unwrap(),
        standings
    );
}

#[test]
fn a_config_anchor_without_games_falls_back_to_the_mean_and_merge_rates_by_it() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(
        tmp.path(),
        "anchored",
        "name = \"anchored\"\nformat = \"gauntlet\"\ngames_per_pair = 2\nseed = 3\nconcurrency = 1\n\
         anchor = \"c\"\n[game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 5000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"c\"\nbuiltin = \"random\"\n",
    );
    // The gauntlet's first pair is a–b: shard 1 of 2 never sees the anchor c.
    let out = run(tmp.path(), &config, &["--shard", "1/2"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("the anchor c has no game yet"),
        "{}",
        text(&out)
    );
    let out = run(tmp.path(), &config, &["--shard", "2/2"]);
    assert!(out.status.success(), "{}", text(&out));
    let results = tmp.path().join("results");
    let merged = results.join("anchored");
    let out = merge_into(
        &[
            &results.join("anchored.shard-1-of-2"),
            &results.join("anchored.shard-2-of-2"),
        ],
        &merged,
    );
    assert!(out.status.success(), "{}", text(&out));
    let standings = std::fs::read_to_string(merged.join("standings.csv")).unwrap();
    let elo_of = |bot: &str| {
        let header: Vec<&str> = standings.lines().next().unwrap().split(',').collect();
        let col = header.iter().position(|h| *h == "elo").unwrap();
        let row = standings
            .lines()
            .find(|l| l.split(',').nth(1) == Some(bot))
            .unwrap();
        row.split(',').nth(col).unwrap().parse::<f64>().unwrap()
    };
    assert_eq!(elo_of("c"), 0.0, "{standings}");
    // An anchor the user names on the command line must have played.
    let out = arena()
        .arg("ratings")
        .arg(results.join("anchored.shard-1-of-2"))
        .args(["--anchor", "c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

#[test]
fn an_interrupted_sprt_match_resumes_without_losing_or_double_counting_pairs() {
    let tmp = tempfile::tempdir().unwrap();
    // Slow bots (40 ms a move) so the match is still going when it is stopped after its first game,
    // with a pair half played.
    let slow = "builtin = \"faulty\"\nargs = [\"--delay-ms\", \"40\"]\n";
    let config = write_config(
        tmp.path(),
        "halves",
        &format!(
            "name = \"halves\"\nformat = \"sprt\"\nseed = 3\nconcurrency = 1\n[sprt]\nmax_pairs = 3\n\
             [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 10000\n\
             [[bots]]\nname = \"a\"\n{slow}[[bots]]\nname = \"b\"\n{slow}"
        ),
    );
    let status = common::stop_after(tmp.path(), &config, "halves", 1);
    assert_eq!(status.code(), Some(130));
    let kept = games(tmp.path(), "halves");
    assert!(!kept.is_empty() && kept.len() < 6, "{} games", kept.len());

    let out = run(tmp.path(), &config, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let all = games(tmp.path(), "halves");
    assert_eq!(
        all[..kept.len()],
        kept[..],
        "recorded games are kept as they were"
    );
    let mut ids: Vec<_> = all.iter().map(|g| g.id.clone()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6, "every game of the 3 pairs once");
    let h2h = arena::standings::head_to_head::HeadToHead::new("a", "b", &all);
    assert_eq!(h2h.pentanomial.pairs(), 3);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Ptnml"),
        "{}",
        text(&out)
    );
}

#[test]
fn shards_played_apart_and_merged_equal_the_whole_tournament() {
    let tmp = tempfile::tempdir().unwrap();
    let config = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/smoke.toml");
    for shard in ["1/2", "2/2"] {
        let out = run(tmp.path(), &config, &["--shard", shard]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let one = games(tmp.path(), "smoke.shard-1-of-2");
    let two = games(tmp.path(), "smoke.shard-2-of-2");
    assert_eq!((one.len(), two.len()), (6, 6));
    assert!(one.iter().all(|g| g.pair % 2 == 1) && two.iter().all(|g| g.pair % 2 == 0));

    let results = tmp.path().join("results");
    let merge = |into: &str| {
        merge_into(
            &[
                &results.join("smoke.shard-1-of-2"),
                &results.join("smoke.shard-2-of-2"),
            ],
            &results.join(into),
        )
    };
    // One shard alone: its 6 games merge, and the other shard's 6 are named as missing; with
    // `--complete` the merge fails.
    let partial = |complete: bool| {
        let mut cmd = arena();
        cmd.arg("merge")
            .arg(results.join("smoke.shard-1-of-2"))
            .arg("--into")
            .arg(results.join(if complete { "part-c" } else { "part" }));
        if complete {
            cmd.arg("--complete");
        }
        cmd.output().unwrap()
    };
    let out = partial(false);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut expected: Vec<&str> = two.iter().map(|g| g.id.as_str()).collect();
    expected.sort();
    assert!(
        stdout.contains("6 scheduled games are missing")
            && stdout.contains(&format!("shard 2/2: 6 games: {}", expected.join(" "))),
        "{}",
        text(&out)
    );
    let out = partial(true);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("6 scheduled games are missing"),
        "{}",
        text(&out)
    );

    let out = merge("smoke");
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("12 games") && stdout.contains("every scheduled game is recorded"),
        "{}",
        text(&out)
    );
    // Merging again changes nothing; the merged folder is a complete tournament.
    assert!(merge("smoke").status.success());
    let merged = games(tmp.path(), "smoke");
    assert_eq!(merged.len(), 12);
    let out = run(tmp.path(), &config, &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("is complete"),
        "{}",
        text(&out)
    );

    // The same games as one unsplit run.
    let whole = tempfile::tempdir().unwrap();
    assert!(run(whole.path(), &config, &[]).status.success());
    let mut unsplit = games(whole.path(), "smoke");
    unsplit.sort_by(|a, b| a.id.cmp(&b.id));
    let strip = |g: &[arena::record::GameRecord]| -> Vec<_> {
        g.iter()
            .map(|r| (r.id.clone(), r.moves.clone(), r.result))
            .collect()
    };
    assert_eq!(strip(&merged), strip(&unsplit));
    // The unsplit run's games are the same plays at other times (its dates set back a day, so that
    // they differ however fast the runs were): they merge into the same 12 games.
    let csv = whole.path().join("results/smoke/games.csv");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let earlier: String = rows
        .lines()
        .map(|line| match line.rsplit_once(',') {
            Some((head, date)) if date.ends_with('Z') => format!("{head},2000-01-01T00:00:00Z\n"),
            _ => format!("{line}\n"),
        })
        .collect();
    assert_ne!(rows, earlier);
    std::fs::write(&csv, earlier).unwrap();
    let out = merge_into(
        &[&whole.path().join("results/smoke")],
        &results.join("smoke"),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        games(tmp.path(), "smoke"),
        merged,
        "the records first merged are kept"
    );
    // A game of the same start (players, opening, seed) with another result, as a re-run shard of
    // time-dependent bots would give: refused, and the message says why. (Its moves must give its result,
    // or the re-refereeing refuses it first: here a crash in the handshake, lost by the side that won.)
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (result, termination, plies, moves, opening, move_ms) = (
        at("result"),
        at("termination"),
        at("plies"),
        at("moves"),
        at("opening"),
        at("move_ms"),
    );
    let mut rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let first = rows[0].clone();
    let opening_plies = first[opening].split_whitespace().count().to_string();
    let flipped: Vec<String> = first
        .iter()
        .enumerate()
        .map(|(i, f)| match i {
            i if i == result && f == "1-0" => "0-1".to_string(),
            i if i == result => "1-0".to_string(),
            i if i == termination => "crash".to_string(),
            i if i == plies => opening_plies.clone(),
            i if i == moves => first[opening].to_string(),
            i if i == move_ms => String::new(),
            _ => f.to_string(),
        })
        .collect();
    rows[0] = csv::StringRecord::from(flipped);
    let mut writer = csv::Writer::from_path(&csv).unwrap();
    writer.write_record(&header).unwrap();
    for row in &rows {
        writer.write_record(row).unwrap();
    }
    writer.flush().unwrap();
    let out = merge_into(
        &[&whole.path().join("results/smoke")],
        &results.join("smoke"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("was played twice"),
        "{}",
        text(&out)
    );
    assert_eq!(
        games(tmp.path(), "smoke"),
        merged,
        "a refused merge writes nothing"
    );

    // A folder of another tournament does not merge.
    let other = tempfile::tempdir().unwrap();
    let cfg = write_config(
        other.path(),
        "smoke",
        &std::fs::read_to_string(&config)
            .unwrap()
            .replace("seed = 1\n", "seed = 2\n"),
    );
    assert!(run(other.path(), &cfg, &[]).status.success());
    let out = merge_into(
        &[&other.path().join("results/smoke")],
        &results.join("smoke"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    // The fingerprints are compared first: the error names what changed, not a differing game.
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("another config")
            && String::from_utf8_lossy(&out.stderr).contains("seed: 1 → 2"),
        "{}",
        text(&out)
    );
    assert_eq!(
        games(tmp.path(), "smoke"),
        merged,
        "a refused merge writes nothing"
    );
    // Nor does it create a new target folder.
    let out = merge_into(
        &[
            &other.path().join("results/smoke"),
            &results.join("smoke.shard-1-of-2"),
        ],
        &results.join("never"),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!results.join("never").exists());
}

#[test]
fn a_merge_rebuilds_the_schedule_of_a_config_with_relative_paths() {
    // The config reads its openings by a path relative to its own folder; the merged folder's copy lives
    // elsewhere, so the missing-games check must resolve the path from where the runs read the config.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("openings.txt"), "a1\nb2\n").unwrap();
    let config = write_config(
        tmp.path(),
        "rel",
        "name = \"rel\"\ngames_per_pair = 2\nseed = 3\n[openings]\nfile = \"openings.txt\"\n\
         [game]\nname = \"tictactoe\"\n[time_control]\ntime_ms = 5000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n\
         [[bots]]\nname = \"c\"\nbuiltin = \"random\"\n",
    );
    for shard in ["1/2", "2/2"] {
        let out = run(tmp.path(), &config, &["--shard", shard]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let results = tmp.path().join("results");
    let out = arena()
        .arg("merge")
        .arg(results.join("rel.shard-1-of-2"))
        .arg(results.join("rel.shard-2-of-2"))
        .arg("--into")
        .arg(tmp.path().join("elsewhere/rel"))
        .arg("--complete")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("every scheduled game is recorded"),
        "{}",
        text(&out)
    );
}
