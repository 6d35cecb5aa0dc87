//! Game records for other programs (`arena export`, `arena replay x.sgf`, SGF openings): golden files for
//! SGF, PGN and Pons's digit strings, the SGF round trip (export → import → the same start, moves and
//! result), and a Dots tournament started from SGF positions with setup dots of their own.
//!
//! The golden files are in `tests/golden/`; after a deliberate change of a format, rewrite them with
//! `UPDATE_GOLDEN=1 cargo test -p arena --test it formats::` and review the diff.

use crate::common;

use std::path::Path;

use arena::formats::{self, sgf, Format};
use arena::record::{GameRecord, GameResult, Termination};
use common::{games, run, text, write_config};
use games::{Game, GameSpec, GameVisitor, Setup};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The end of `moves` played from `spec` with `setup`: (outcome, score).
fn ending(
    spec: GameSpec,
    setup: &Setup,
    moves: &[String],
) -> (Option<games::Outcome>, Option<[u32; 2]>) {
    struct End<'a>(&'a [String]);
    impl GameVisitor for End<'_> {
        type Output = (Option<games::Outcome>, Option<[u32; 2]>);
        fn visit<G: Game>(self, mut pos: G) -> Self::Output {
            games::play_moves(&mut pos, self.0.iter().map(String::as_str)).unwrap();
            (pos.outcome(), pos.score())
        }
    }
    spec.visit_with_setup(setup, End(moves)).unwrap()
}

/// A record of `moves` (space-separated) in `spec`; the result and score come from the rules when the
/// moves end the game, else `result` must say.
#[allow(clippy::too_many_arguments)]
fn record(
    id: &str,
    spec: &str,
    setup: &str,
    moves: &str,
    opening: usize,
    names: [&str; 2],
    ending_: (Termination, Option<GameResult>, &str),
    tc: [&str; 2],
    move_ms: &[u64],
) -> GameRecord {
    let spec: GameSpec = spec.parse().unwrap();
    let setup: Setup = setup.parse().unwrap();
    let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
    let (outcome, score) = ending(spec, &setup, &moves);
    let (termination, result, detail) = ending_;
    let result = result.unwrap_or_else(|| GameResult::from_winner(outcome.unwrap().winner()));
    GameRecord {
        id: id.into(),
        round: 1,
        pair: 1,
        game: spec.kind().to_string(),
        variant: spec.variant(),
        first: names[0].into(),
        second: names[1].into(),
        result,
        termination,
        detail: detail.into(),
        plies: moves.len() as u32,
        score,
        time_ms: [0, 0],
        time_control: tc.map(str::to_string),
        move_ms: move_ms.to_vec(),
        opening: moves[..opening].to_vec(),
        setup,
        moves,
        seed: 7,
        date: "2025-03-01T17:04:05Z".into(),
    }
}

/// The games of the golden files: Connect Four with a book opening, a drawn tic-tac-toe game under a cap
/// per move, a Dots game from the cross with a capture and a grounding, and a Dots game on a board over
/// 26 points wide with setup dots (four crosses at random points) lost on time under differing clocks.
fn golden_records() -> Vec<GameRecord> {
    vec![
        record(
            "g0001",
            "connect4 7 6",
            "",
            "4 3 4 3 4 3 4",
            2,
            ["c4-zx", "alphabeta"],
            (Termination::Normal, None, ""),
            ["10000+100", "10000+100"],
            &[12, 30, 8, 25, 5],
        ),
        record(
            "g0002",
            "tictactoe 3 3 3",
            "",
            "b2 a1 c3 a3 a2 c2 b1 b3 c1",
            0,
            ["minimax", "random"],
            (Termination::Normal, None, ""),
            ["max=2000", "max=2000"],
            &[3, 1, 2, 1, 2, 0, 1, 0, 1],
        ),
        record(
            "g0003",
            "dots 8 8 cross",
            "",
            "3-4 8-8 4-3 1-1 6-6 ground",
            0,
            ["dots-tps", "random"],
            (Termination::Ground, None, "score 2:0"),
            ["5000+50", "5000+50"],
            &[40, 2, 35, 1, 52, 3],
        ),
        record(
            "g0004",
            "dots 30 28 empty",
            "first 3-26 4-25 27-21 28-20 14-4 15-3 22-11 23-10 \
             second 3-25 4-26 27-20 28-21 14-3 15-4 22-10 23-11",
            "15-15 16-15 28-2 1-28",
            2,
            ["alphabeta", "slowbot"],
            (
                Termination::Timeout,
                Some(GameResult::FirstWins),
                "slowbot: took 2103 ms, allowed 2000 ms",
            ),
            ["10000+100", "max=2000"],
            &[250, 1900],
        ),
    ]
}

/// Compares `text` with the golden file `name`, or rewrites it under `UPDATE_GOLDEN=1`.
fn golden(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(text, want, "{} differs", path.display());
}

#[test]
fn exports_match_the_golden_files() {
    let records = golden_records();
    let tmp = tempfile::tempdir().unwrap();
    let dots: Vec<GameRecord> = records
        .iter()
        .filter(|r| r.game == "dots")
        .cloned()
        .collect();
    let done = formats::export(&dots, "golden", Format::Sgf, tmp.path()).unwrap();
    assert_eq!(done.files.len(), 2);
    for r in &dots {
        let text = std::fs::read_to_string(tmp.path().join(format!("{}.sgf", r.id))).unwrap();
        golden(&format!("{}.sgf", r.id), &text);
    }
    formats::export(&records, "golden", Format::Pgn, tmp.path()).unwrap();
    golden(
        "games.pgn",
        &std::fs::read_to_string(tmp.path().join("games.pgn")).unwrap(),
    );
    formats::export(&records[..1], "golden", Format::Pons, tmp.path()).unwrap();
    golden(
        "games.pons",
        &std::fs::read_to_string(tmp.path().join("games.pons")).unwrap(),
    );
}

#[test]
fn a_game_without_a_form_in_the_format_is_refused_and_nothing_is_written() {
    let records = golden_records();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let e = formats::export(&records, "t", Format::Sgf, &out).unwrap_err();
    assert!(
        e.to_string()
            .contains("game g0001: SGF (GM[40]) is written for Dots only"),
        "{e}"
    );
    let e = formats::export(&records, "t", Format::Pons, &out).unwrap_err();
    assert!(
        e.to_string()
            .contains("game g0002: Pons's notation is for Connect Four"),
        "{e}"
    );
    assert!(!out.exists());
    // SGF's letters end at 52 points a side.
    let mut wide = records[2].clone();
    wide.variant = "53 8 cross".into();
    wide.moves.clear();
    let e = formats::export(&[wide], "t", Format::Sgf, &out).unwrap_err();
    assert!(e.to_string().contains("SGF's letters reach 52"), "{e}");
}

/// The start position of a record, drawn, and its board size: what the round trip must keep.
fn start_board(r: &GameRecord) -> String {
    struct Board;
    impl GameVisitor for Board {
        type Output = String;
        fn visit<G: Game>(self, pos: G) -> String {
            pos.to_string()
        }
    }
    let spec: GameSpec = format!("{} {}", r.game, r.variant).parse().unwrap();
    spec.visit_with_setup(&r.setup, Board).unwrap()
}

/// Export → import of `r`: the same start position, moves, result, ending, score, players and day.
fn round_trip(r: &GameRecord) {
    let text = sgf::write(r, "t").unwrap();
    let back = sgf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.len(), 1);
    let b = back[0]
        .to_record(&r.id)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let what = format!("{}: {text}", r.id);
    assert_eq!(start_board(&b), start_board(r), "{what}");
    assert_eq!(b.moves, r.moves, "{what}");
    assert_eq!(
        (b.result, b.termination, &b.detail, b.score),
        (r.result, r.termination, &r.detail, r.score),
        "{what}"
    );
    assert_eq!((&b.first, &b.second), (&r.first, &r.second), "{what}");
    assert_eq!(b.date, r.date[..10], "{what}");
}

#[test]
fn sgf_round_trip_keeps_the_golden_games() {
    for r in golden_records().iter().filter(|r| r.game == "dots") {
        round_trip(r);
    }
}

/// A resignation (`arena play`'s person typing `resign`) is written as SGF's `W+R` / `B+R` and PGN's
/// `normal` ending with a `{resign: …}` comment, and reads back from SGF as a resignation, with or
/// without the arena's `GC`.
#[test]
fn a_resignation_is_written_and_read_as_one_not_as_a_forfeit() {
    let r = record(
        "g0001",
        "dots 8 8 cross",
        "",
        "3-4 8-8 4-3",
        0,
        ["you", "dots-tps"],
        (
            Termination::Resign,
            Some(GameResult::SecondWins),
            "you: resigned",
        ),
        ["max=3600000", "5000+50"],
        &[900, 12, 1500],
    );
    assert!(!r.termination.is_forfeit());
    let text = sgf::write(&r, "play").unwrap();
    assert!(text.contains("RE[W+R]"), "{text}");
    assert!(text.contains("GC[resign: you: resigned]"), "{text}");
    round_trip(&r);
    // Another program's file: `RE[B+R]` alone says who resigned.
    let other = "(;GM[40]FF[4]SZ[8]RE[B+R];B[cd];W[hh])";
    let b = sgf::read(other).unwrap()[0].to_record("x").unwrap();
    assert_eq!(
        (b.result, b.termination),
        (GameResult::FirstWins, Termination::Resign),
        "{other}"
    );
    let pgn = formats::pgn::write(std::slice::from_ref(&r), "play");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("{resign: you: resigned} 0-1"), "{pgn}");
}

/// Seeded random Dots games on boards from 4×4 to 52×52 (letters past `z`), from every start, with
/// random setup dots, ending by the rules (a full board, a grounding) or cut short by a forfeit or the
/// ply limit: each survives the round trip.
#[test]
fn sgf_round_trip_keeps_random_games_on_every_board_size() {
    let sizes = [
        (4, 4),
        (5, 9),
        (8, 8),
        (26, 26),
        (27, 30),
        (39, 32),
        (52, 52),
    ];
    let starts = ["empty", "cross", "four-crosses"];
    for seed in 0..60u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (w, h) = *sizes.choose(&mut rng).unwrap();
        let start = *starts.choose(&mut rng).unwrap();
        let spec: GameSpec = format!("dots {w} {h} {start}").parse().unwrap();
        let Some(games::dots::DotsVariant { start: s, .. }) = spec.variant_of() else {
            unreachable!()
        };
        // Setup dots on free points of the start, a few of each colour.
        let bare = games::Dots::new(w, h, s);
        let free: Vec<(u8, u8)> = bare
            .points()
            .filter(|p| p.2 == games::dots::Point::Empty)
            .map(|p| (p.0, p.1))
            .collect();
        let mut setup = Setup::default();
        if rng.random_bool(0.5) {
            let dots: Vec<_> = free.choose_multiple(&mut rng, 6).copied().collect();
            setup.first = dots[..3].to_vec();
            setup.second = dots[3..].to_vec();
        }
        let mut pos = games::Dots::with_setup(w, h, s, &setup).unwrap();
        let limit = rng.random_range(0..(w as usize * h as usize).min(400));
        let mut moves = Vec::new();
        while pos.outcome().is_none() && moves.len() < limit {
            let legal = pos.legal_moves();
            let m = if rng.random_bool(0.01) {
                games::dots::Move::Ground
            } else {
                *legal.choose(&mut rng).unwrap()
            };
            pos.play(m).unwrap();
            moves.push(m.to_string());
        }
        let ending = match (pos.outcome(), rng.random_range(0..4)) {
            (Some(_), _) => (Termination::Normal, None, String::new()),
            (None, 0) => (
                Termination::Timeout,
                Some(GameResult::SecondWins),
                "b: took 9 ms".into(),
            ),
            (None, 1) => (
                Termination::Crash,
                Some(GameResult::FirstWins),
                "a: exited".into(),
            ),
            (None, 2) => (
                Termination::Illegal,
                Some(GameResult::SecondWins),
                "b: move 1-1".into(),
            ),
            (None, _) => (
                Termination::Adjudicated,
                Some(GameResult::Draw),
                format!("{limit} plies"),
            ),
        };
        let (termination, result, detail) = ending;
        let mut r = record(
            &format!("g{seed:04}"),
            &spec.to_string(),
            &setup.to_string(),
            &moves.join(" "),
            0,
            ["first bot", "second [bot]"],
            (termination, result, &detail),
            ["1000+10", "1000+10"],
            &[],
        );
        if pos.outcome().is_some() {
            // The rules' own ending, as the referee records it.
            let [a, b] = pos.score().unwrap();
            r.detail = format!("score {a}:{b}");
            if moves.last().map(String::as_str) == Some("ground") {
                r.termination = Termination::Ground;
            }
        }
        round_trip(&r);
    }
}

/// A Dots tournament whose openings are a folder of SGF files with start dots of their own (not the
/// cross): the bots are sent the setup, games.csv records it, the exported SGF holds the same moves as
/// games.csv, `arena replay` replays an exported file, and PGN holds every game.
#[test]
fn a_tournament_starts_from_sgf_positions_and_exports_its_games() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book");
    std::fs::create_dir(&book).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/crosses.sgf"),
        book.join("a.sgf"),
    )
    .unwrap();
    // A second file of two game trees, one of them with a variation after its first move.
    std::fs::write(
        book.join("b.sgf"),
        "(;FF[4]GM[40]SZ[12:10]AB[ee][ff]AW[ef][fe];B[aa];W[lj])\
         (;FF[4]GM[40]SZ[12:10]AB[bb]AW[kj];B[dd](;W[gg])(;W[hh]))",
    )
    .unwrap();
    let config = write_config(
        tmp.path(),
        "sgfbook",
        "name = \"sgfbook\"\ngames_per_pair = 6\nseed = 3\nmax_plies = 30\n\
         [game]\nname = \"dots\"\nwidth = 12\nheight = 10\nstart = \"empty\"\n\
         [openings]\nfile = \"book\"\nplies = 3\n\
         [time_control]\ntime_ms = 20000\n\
         [[bots]]\nname = \"a\"\nbuiltin = \"random\"\n[[bots]]\nname = \"b\"\nbuiltin = \"alphabeta\"\n\
         options = { depth = 1 }\n",
    );
    let out = run(tmp.path(), &config, &["--no-progress"]);
    assert!(out.status.success(), "{}", text(&out));
    let mut recorded = games(tmp.path(), "sgfbook");
    recorded.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(recorded.len(), 6);
    // Pairs 1, 2, 3 take the book's games in file order: a.sgf, then b.sgf's two trees.
    let setups: Vec<String> = recorded.iter().map(|g| g.setup.to_string()).collect();
    assert_eq!(setups[0], "first 3-8 4-7 8-4 9-3 second 3-7 4-8 8-3 9-4");
    assert_eq!(setups[1], setups[0]);
    assert_eq!(setups[2], "first 5-6 6-5 second 5-5 6-6");
    assert_eq!(setups[4], "first 2-9 second 11-1");
    assert_eq!(recorded[0].opening, ["2-7", "11-1", "3-6"]);
    assert_eq!(recorded[4].opening, ["4-7", "7-4"]);
    let dir = tmp.path().join("results/sgfbook");
    let log = std::fs::read_to_string(dir.join("logs/g0001.log")).unwrap();
    assert!(
        log.contains("position startpos setup first 3-8 4-7 8-4 9-3 second 3-7 4-8 8-3 9-4 moves 2-7 11-1 3-6"),
        "{log}"
    );

    let export = |format: &str| {
        let out = common::arena()
            .args(["export", "--format", format])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out));
    };
    export("sgf");
    export("pgn");
    for g in &recorded {
        let file = dir.join("export").join(format!("{}.sgf", g.id));
        let back = sgf::read(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(back[0].moves, g.moves, "{}", g.id);
        let again = back[0].to_record(&g.id).unwrap();
        assert_eq!((again.result, again.score), (g.result, g.score), "{}", g.id);
    }
    let pgn = std::fs::read_to_string(dir.join("export/games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"sgfbook\"]").count(), 6, "{pgn}");
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 6, "{pgn}");
    let replay = common::arena()
        .arg("replay")
        .arg(dir.join("export/g0005.sgf"))
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay));
    let shown = String::from_utf8_lossy(&replay.stdout);
    assert!(
        shown.starts_with(&format!(
            "g0005 — dots 12 10 empty — {} vs {}",
            recorded[4].first, recorded[4].second
        )),
        "{shown}"
    );
    assert!(shown.contains("setup: first 2-9 second 11-1"), "{shown}");

    // A book of the cross cannot play files without the cross.
    let cross = write_config(
        tmp.path(),
        "cross",
        &std::fs::read_to_string(&config)
            .unwrap()
            .replace("name = \"sgfbook\"", "name = \"cross\"")
            .replace("start = \"empty\"", "start = \"cross\""),
    );
    let out = common::arena().arg("check").arg(&cross).output().unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out).contains("a.sgf:game 1: its start dots lack the dots of start = \"cross\""),
        "{}",
        text(&out)
    );
}

#[test]
fn setup_dots_of_a_game_are_shown_by_replay_and_refused_on_a_taken_point() {
    let r = &golden_records()[3];
    let shown = arena::replay::replay(r, Some(0), false).unwrap();
    // The cross at 27-20 stands on the start board, in columns past 26.
    assert!(
        shown.contains("20 ..........................OX..\n"),
        "{shown}"
    );
    let mut bad = r.clone();
    bad.setup.first.push((3, 25));
    assert!(matches!(
        arena::replay::replay(&bad, None, false),
        Err(arena::replay::ReplayError::Setup { .. })
    ));
}

/// Ordo and BayesElo cannot be built here (docs/records.md), so the PGN is read as their sources read it:
/// Ordo (`pgnget.c`) takes `[White "`, `[Black "` and `[Result "` from any line, up to the line's first
/// `"]`, and counts a game once it has all three; BayesElo (`EloDataFromFile.cpp`) skips every token after
/// the tags up to a game termination token. Both must find each game with its players and result.
#[test]
fn the_pgn_reads_as_ordo_and_bayeselo_read_it() {
    let records = golden_records();
    let pgn = formats::pgn::write(&records, "golden");
    let want: Vec<(String, String, String)> = records
        .iter()
        .map(|r| (r.first.clone(), r.second.clone(), r.result.to_string()))
        .collect();

    let mut ordo = Vec::new();
    let mut tags: [Option<String>; 3] = [None, None, None];
    for line in pgn.lines() {
        for (k, key) in ["[White \"", "[Black \"", "[Result \""].iter().enumerate() {
            if let Some(at) = line.find(key) {
                let end = line
                    .find("\"]")
                    .expect("Ordo stops at a tag without its end");
                tags[k] = Some(line[at + key.len()..end].to_string());
            }
        }
        if tags.iter().all(Option::is_some) {
            let [w, b, r] = std::mem::take(&mut tags).map(Option::unwrap);
            ordo.push((w, b, r));
        }
    }
    assert_eq!(ordo, want);

    let mut terminations = Vec::new();
    let mut in_comment = false;
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        for word in line.split_whitespace() {
            // Comments hold no tokens (a comment ends at its first `}`).
            if word.starts_with('{') {
                in_comment = true;
            }
            if in_comment {
                in_comment = !word.ends_with('}');
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                terminations.push(word.to_string());
            }
        }
    }
    let results: Vec<String> = want.iter().map(|g| g.2.clone()).collect();
    assert_eq!(terminations, results, "{pgn}");
}
