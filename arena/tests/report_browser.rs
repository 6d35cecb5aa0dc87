//! End-to-end test of `report.html` in a real browser: for each game, a small tournament of built-in
//! bots runs into a temporary folder, headless Chromium opens the report through the DevTools protocol
//! (the `headless_chrome` crate), a game is clicked, and after every ply stepped (buttons, arrow keys,
//! the slider) the pieces drawn on the SVG board (their `data-x`, `data-y`, `data-kind`, `data-owner`,
//! `data-label`, `data-faded` attributes) and the text panel must equal the picture of the position the
//! `games` crate reaches after that many plies ([`games::Game::frame`]). Besides tournaments of built-in bots, Dots games are written straight into a results
//! folder: random full games on 39×32 and a game made to go through the house rule (R9), whose tests
//! assert that the plies they compare hold house points. No page may log an error or throw.
//!
//! Needs Debian's `chromium` (`.ci/run` installs it); without it the test prints why and skips.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arena::record::GameRecord;
use common::browser::{browser_or_skip, check, launch, open_game, slide_to, step_through, Console};
use games::{Dots, Game};
use headless_chrome::{Browser, Tab};

/// Runs `config` (a tournament named `name`) into `dir`, opens its report in Chromium, clicks game `pick`
/// of its records, and checks the board at every ply ([`step_through`]). Returns the game checked.
fn replay_in_browser(
    exe: PathBuf,
    config: &str,
    name: &str,
    pick: fn(&[GameRecord]) -> usize,
) -> GameRecord {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write_config(dir.path(), name, config);
    let out = common::run(dir.path(), &path, &["--no-progress"]);
    assert!(out.status.success(), "{}", common::text(&out));
    let records = common::games(dir.path(), name);
    let r = records[pick(&records)].clone();
    let report = dir.path().join("results").join(name).join("report.html");
    assert!(report.is_file(), "the run wrote no report.html");

    let browser = launch(exe, &dir.path().join("profile"));
    let (tab, console) = open_report(&browser, &report);
    step_through(&tab, &r);
    console.assert_no_errors();
    r
}

/// A new tab of `browser` on the page `report`, and the errors it logs or throws from the start.
fn open_report(browser: &Browser, report: &Path) -> (Arc<Tab>, Console) {
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    let console = Console::watch(&tab);
    tab.navigate_to(&format!("file://{}", report.display()))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    (tab, console)
}

/// Writes `records` into the results folder `results` (its `games.csv`) and runs `arena report` on it.
/// Returns the `report.html` written.
fn report_of(results: &Path, records: &[GameRecord]) -> PathBuf {
    std::fs::create_dir_all(results).unwrap();
    let mut writer = arena::results::ResultsDir {
        path: results.to_path_buf(),
    }
    .appender()
    .unwrap();
    for r in records {
        writer.append(r).unwrap();
    }
    drop(writer);
    let out = common::arena().arg("report").arg(results).output().unwrap();
    assert!(out.status.success(), "{}", common::text(&out));
    results.join("report.html")
}

/// A Dots game record of `moves` from `variant` (`W H start`), with the result and score of `pos`, the
/// position they lead to, and 1 ms for every move.
fn dots_record(k: u32, variant: &str, moves: Vec<String>, pos: &Dots) -> GameRecord {
    use arena::record::{GameResult, Termination};
    use games::Outcome;
    GameRecord {
        id: format!("g{k:04}"),
        round: 1,
        pair: k,
        game: "dots".into(),
        variant: variant.into(),
        first: "a".into(),
        second: "b".into(),
        // A game cut short (the house game) is recorded as adjudicated by its score, as the arena
        // records a game stopped at `max_plies`: `arena report` re-referees every row.
        result: match pos.outcome() {
            Some(o) => GameResult::from_winner(Outcome::winner(o)),
            None => pos.score().map_or(GameResult::Draw, GameResult::from_score),
        },
        termination: match pos.outcome() {
            Some(_) => Termination::Normal,
            None => Termination::Adjudicated,
        },
        detail: String::new(),
        plies: moves.len() as u32,
        score: pos.score(),
        time_ms: [0, 0],
        time_control: [String::new(), String::new()],
        move_ms: vec![1; moves.len()],
        opening: Vec::new(),
        setup: games::Setup::default(),
        moves,
        seed: k.into(),
        date: String::new(),
    }
}

#[test]
fn tic_tac_toe_boards_in_the_report_follow_the_rules_ply_by_ply() {
    let Some(exe) = browser_or_skip() else { return };
    let config = r#"
name = "ttt"
games_per_pair = 2
seed = 3
concurrency = 1
[game]
name = "tictactoe"
[time_control]
time_ms = 20000
[[bots]]
name = "random-1"
builtin = "random"
options = { seed = 1 }
[[bots]]
name = "random-2"
builtin = "random"
options = { seed = 2 }
"#;
    // The longest game.
    let r = replay_in_browser(exe, config, "ttt", |g| {
        (0..g.len()).max_by_key(|&k| g[k].moves.len()).unwrap()
    });
    assert!(r.moves.len() >= 5);
}

#[test]
fn connect_four_boards_in_the_report_follow_the_rules_ply_by_ply() {
    let Some(exe) = browser_or_skip() else { return };
    let config = r#"
name = "c4"
games_per_pair = 2
seed = 4
concurrency = 1
[game]
name = "connect4"
[time_control]
time_ms = 20000
[[bots]]
name = "random"
builtin = "random"
options = { seed = 5 }
[[bots]]
name = "minimax"
builtin = "minimax"
options = { depth = 2, seed = 3 }
"#;
    let r = replay_in_browser(exe, config, "c4", |g| {
        (0..g.len()).max_by_key(|&k| g[k].moves.len()).unwrap()
    });
    assert!(r.moves.len() >= 7);
}

#[test]
fn kalah_boards_in_the_report_follow_the_rules_ply_by_ply_through_extra_moves() {
    let Some(exe) = browser_or_skip() else { return };
    let config = r#"
name = "kalah"
games_per_pair = 2
seed = 6
concurrency = 1
[game]
name = "kalah"
pits = 4
seeds = 3
[time_control]
time_ms = 20000
[[bots]]
name = "random"
builtin = "random"
options = { seed = 5 }
[[bots]]
name = "minimax"
builtin = "minimax"
options = { depth = 2, seed = 3 }
"#;
    // The game with the most extra moves (a side moving twice in a row).
    let r = replay_in_browser(exe, config, "kalah", |g| {
        (0..g.len())
            .max_by_key(|&k| g[k].movers().windows(2).filter(|w| w[0] == w[1]).count())
            .unwrap()
    });
    assert!(
        r.movers().windows(2).any(|w| w[0] == w[1]),
        "no extra move in {}: {:?}",
        r.id,
        r.moves
    );
}

/// A Connect Four game won on the board has its winning four ringed on its last ply, and only there.
#[test]
fn a_connect_four_win_is_ringed_on_its_last_ply() {
    let Some(exe) = browser_or_skip() else { return };
    use arena::record::{GameResult, Termination};
    let dir = tempfile::tempdir().unwrap();
    // The first player's diagonal from 1-1 to 4-4.
    let moves: Vec<String> = "1 2 2 3 3 4 3 4 4 7 4"
        .split(' ')
        .map(String::from)
        .collect();
    let r = GameRecord {
        id: "g0001".into(),
        round: 1,
        pair: 1,
        game: "connect4".into(),
        variant: "7 6".into(),
        first: "a".into(),
        second: "b".into(),
        result: GameResult::FirstWins,
        termination: Termination::Normal,
        detail: String::new(),
        plies: moves.len() as u32,
        score: None,
        time_ms: [0, 0],
        time_control: [String::new(), String::new()],
        move_ms: vec![1; moves.len()],
        opening: Vec::new(),
        setup: games::Setup::default(),
        moves,
        seed: 1,
        date: String::new(),
    };
    let report = report_of(
        &dir.path().join("results").join("c4"),
        std::slice::from_ref(&r),
    );
    let browser = launch(exe, &dir.path().join("profile"));
    let (tab, console) = open_report(&browser, &report);
    open_game(&tab, &r);
    let ringed = || {
        let js =
            "JSON.stringify(Array.from(document.querySelectorAll('#board [data-win]')).map(e => \
                  (+e.dataset.x + 1) + '-' + (+e.dataset.y + 1)).sort())";
        let text = tab.evaluate(js, false).unwrap().value.unwrap();
        serde_json::from_str::<Vec<String>>(text.as_str().unwrap()).unwrap()
    };
    assert_eq!(ringed(), ["1-1", "2-2", "3-3", "4-4"]);
    tab.press_key("ArrowLeft").unwrap();
    check(&tab, &r, r.moves.len() - 1);
    assert!(ringed().is_empty());
    console.assert_no_errors();
}

#[test]
fn dots_boards_in_the_report_show_captures_and_setup_dots_as_the_rules_do() {
    let Some(exe) = browser_or_skip() else { return };
    // An 8×8 board from an SGF start: a cross of setup dots, as zagram deals them.
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("start.sgf");
    std::fs::write(
        &sgf,
        "(;FF[4]GM[40]SZ[8:8]AB[cc][dd]AW[cd][dc])\n(;FF[4]GM[40]SZ[8:8]AB[ef][fe]AW[ee][ff])\n",
    )
    .unwrap();
    let config = format!(
        r#"
name = "dots"
games_per_pair = 4
seed = 5
concurrency = 1
[game]
name = "dots"
width = 8
height = 8
start = "empty"
[openings]
file = "{}"
[time_control]
time_ms = 20000
[[bots]]
name = "random-1"
builtin = "random"
options = {{ seed = 1 }}
[[bots]]
name = "random-2"
builtin = "random"
options = {{ seed = 2 }}
"#,
        sgf.display()
    );
    // The game with the most captures.
    let r = replay_in_browser(exe, &config, "dots", |g| {
        (0..g.len())
            .max_by_key(|&k| g[k].score.map_or(0, |s| s[0] + s[1]))
            .unwrap()
    });
    assert!(!r.setup.is_empty(), "the game has setup dots");
    let s = r.score.unwrap();
    assert!(s[0] + s[1] > 0, "the game checked has a capture: {s:?}");
}

/// Random full games on the standard 39×32 board (about 1,200 plies, dozens of bases, houses and
/// captures of captures), written straight into a results folder, then `arena report`: the board at every
/// 25th ply and at the end must be the rules' position, and the plies checked must hold house points of
/// both players.
#[test]
fn full_random_dots_games_in_the_report_match_the_rules_every_25_plies() {
    use games::dots::Start;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    let Some(exe) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut records = Vec::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    for k in 1..=3 {
        let mut pos = Dots::new(39, 32, Start::Cross);
        let mut order = pos.legal_moves();
        order.shuffle(&mut rng);
        let mut moves = Vec::new();
        for m in order {
            if pos.is_legal(m) {
                pos.play_unchecked(m);
                moves.push(m.to_string());
            }
        }
        records.push(dots_record(k, "39 32 cross", moves, &pos));
    }
    let report = report_of(&dir.path().join("random"), &records);
    // The move times are not what this test checks.
    for r in &mut records {
        r.move_ms.clear();
    }

    let browser = launch(exe, &dir.path().join("profile"));
    let (tab, console) = open_report(&browser, &report);
    for r in &records {
        open_game(&tab, r);
        let n = r.moves.len();
        let mut houses = [0; 2];
        // Forwards, then backwards from the end (from the snapshots the page keeps every 64 plies).
        for ply in (0..n).step_by(25).chain([n, n / 3, 100, 63, 64, 65]) {
            slide_to(&tab, ply);
            let h = check(&tab, r, ply);
            houses = [houses[0] + h[0], houses[1] + h[1]];
        }
        assert!(
            houses[0] > 0 && houses[1] > 0,
            "{}: the plies checked have house points of both players: {houses:?}",
            r.id
        );
    }
    console.assert_no_errors();
}

/// A 12×8 game from an empty board made to go through the house rule (R9) and its exception, checked at
/// every ply: Blue's house on 3-6 (ply 7) and Red's on 2-2 (ply 8); Red's 3-6 taken by Blue's house (ply
/// 10); Red's 7-3 into Blue's house on 7-3 capturing Blue's 7-2 itself, which dissolves the house (ply
/// 18); Blue's two-point house on 10-5 and 11-5 (ply 27), Blue's own dot on 10-5 leaving the house 11-5
/// (ply 29, to the end); Blue's 2-2 taken by Red's house (ply 31). The final board, as `arena replay`
/// draws it (`+`, `-`: house points of Blue, Red):
///
/// ```text
///  8 OO..........
///  7 ..X.........
///  6 .XoX.....XX.
///  5 ..X.....XX+X
///  4 ......X..XX.
///  3 .O...XOX....
///  2 OxO..OxO....
///  1 .O....O.OOOO
/// ```
#[test]
fn dots_houses_in_the_report_follow_the_rules_ply_by_ply() {
    use games::dots::Start;

    let Some(exe) = browser_or_skip() else { return };
    let moves: Vec<String> =
        "3-7 2-3 2-6 1-2 4-6 3-2 3-5 2-1 7-4 3-6 6-3 6-2 8-3 8-2 7-2 7-1 10-6 \
                              7-3 11-6 12-1 12-5 11-1 11-4 10-1 10-4 9-1 9-5 1-8 10-5 2-8 2-2"
            .split_whitespace()
            .map(String::from)
            .collect();
    let mut pos = Dots::new(12, 8, Start::Empty);
    games::play_moves(&mut pos, moves.iter().map(String::as_str)).unwrap();
    assert_eq!(pos.score(), Some([1, 2]), "the game's captures");
    let r = dots_record(1, "12 8 empty", moves, &pos);

    let dir = tempfile::tempdir().unwrap();
    let report = report_of(&dir.path().join("houses"), std::slice::from_ref(&r));
    let browser = launch(exe, &dir.path().join("profile"));
    let (tab, console) = open_report(&browser, &report);
    let houses = step_through(&tab, &r);
    assert!(
        houses[0] > 0 && houses[1] > 0,
        "the plies checked have house points of both players: {houses:?}"
    );
    console.assert_no_errors();
}
