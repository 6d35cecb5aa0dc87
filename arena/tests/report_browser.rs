//! End-to-end test of `report.html` in a real browser: for each game, a small tournament of built-in
//! bots runs into a temporary folder, headless Chromium opens the report through the DevTools protocol
//! (the `headless_chrome` crate), a game is clicked, and after every ply stepped (buttons, arrow keys,
//! the slider) the pieces drawn on the SVG board (their `data-cell`, `data-owner`, `data-captured`,
//! `data-dead`, `data-house` attributes) must equal the position the `games` crate reaches after that
//! many plies. Besides tournaments of built-in bots, Dots games are written straight into a results
//! folder: random full games on 39×32 and a game made to go through the house rule (R9), whose tests
//! assert that the plies they compare hold house points.
//!
//! Needs Debian's `chromium` (`.ci/run` installs it); without it the test prints why and skips.

mod common;

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use arena::record::GameRecord;
use games::dots::Point;
use games::{Connect4, Dots, Game, GameSpec, TicTacToe};
use headless_chrome::{Browser, LaunchOptions, Tab};

/// The browser: `chromium` on the PATH (Debian's package), or `None`.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
}

/// Headless Chromium with a fresh profile in `profile`, as root needs it (no sandbox), and no traffic of
/// its own (no component updates, sync, background networking).
fn launch(exe: PathBuf, profile: &Path) -> Browser {
    let args: Vec<&OsStr> = [
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(OsStr::new)
    .collect();
    let opts = LaunchOptions::default_builder()
        .path(Some(exe))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1200, 1000)))
        .user_data_dir(Some(profile.to_path_buf()))
        .idle_browser_timeout(Duration::from_secs(120))
        .args(args)
        .build()
        .expect("launch options");
    Browser::new(opts).expect("starting chromium")
}

/// One piece as the test compares it: `cell owner captured dead house`, e.g. `5-5 second 1  ` for a
/// captured dot, `4-4 first  1 ` for an empty point inside a base of the first player, `6-2 second   1`
/// for an empty point inside a house of the second player.
fn piece(cell: &str, owner: games::Player, captured: &str, dead: &str, house: &str) -> String {
    format!("{cell} {owner} {captured} {dead} {house}")
}

/// The owner (`first`, `second`) of a `piece` that is a house point (its fifth field is `1`), else
/// `None`.
fn house_owner(piece: &str) -> Option<&str> {
    let fields: Vec<&str> = piece.split(' ').collect();
    (fields.get(4) == Some(&"1")).then(|| fields[1])
}

/// The pieces the page draws now, the ply and score it says it shows, and its line about the last move.
fn shown(tab: &Tab) -> (BTreeSet<String>, u64, String, String) {
    let js =
        "JSON.stringify({ply: +document.querySelector('#board svg').getAttribute('data-ply'), \
              score: document.querySelector('#board svg').getAttribute('data-score') || '', \
              info: document.getElementById('move-info').textContent, \
              pieces: Array.from(document.querySelectorAll('#board [data-cell]')).map(e => \
              [e.dataset.cell, e.dataset.owner, e.dataset.captured || '', e.dataset.dead || '', \
              e.dataset.house || ''].join(' '))})";
    let value = tab.evaluate(js, false).expect("evaluate").value;
    let text = value
        .and_then(|v| v.as_str().map(str::to_string))
        .expect("a string");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pieces = v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    (
        pieces,
        v["ply"].as_u64().unwrap(),
        v["score"].as_str().unwrap().to_string(),
        v["info"].as_str().unwrap().to_string(),
    )
}

/// The pieces of the games crate's position after the first `ply` plies of `r`, and the Dots score
/// (`a:b`, empty for the other games).
fn expected(r: &GameRecord, ply: usize) -> (BTreeSet<String>, String) {
    let spec: GameSpec = format!("{} {}", r.game, r.variant).parse().unwrap();
    let moves = r.moves[..ply].iter().map(String::as_str);
    let mut out = BTreeSet::new();
    match spec {
        GameSpec::TicTacToe { width, height, k } => {
            let mut pos = TicTacToe::new(width, height, k);
            games::play_moves(&mut pos, moves).unwrap();
            for col in 0..width {
                for row in 0..height {
                    if let Some(p) = pos.get(col, row) {
                        let cell = format!("{}{}", char::from(b'a' + col), row + 1);
                        out.insert(piece(&cell, p, "", "", ""));
                    }
                }
            }
            (out, String::new())
        }
        GameSpec::Connect4 { width, height } => {
            let mut pos = Connect4::new(width, height);
            games::play_moves(&mut pos, moves).unwrap();
            for col in 0..width {
                for row in 0..height {
                    if let Some(p) = pos.get(col, row) {
                        out.insert(piece(&format!("{}-{}", col + 1, row + 1), p, "", "", ""));
                    }
                }
            }
            (out, String::new())
        }
        GameSpec::Dots {
            width,
            height,
            start,
        } => {
            let mut pos = Dots::with_setup(width, height, start, &r.setup).unwrap();
            games::play_moves(&mut pos, moves).unwrap();
            for (x, y, point) in pos.points() {
                let cell = format!("{x}-{y}");
                match point {
                    Point::Dot(p) => out.insert(piece(&cell, p, "0", "", "")),
                    Point::Captured(p) => out.insert(piece(&cell, p, "1", "", "")),
                    Point::Dead(p) => out.insert(piece(&cell, p, "", "1", "")),
                    Point::House(p) => out.insert(piece(&cell, p, "", "", "1")),
                    Point::Empty => false,
                };
            }
            let s = pos.score().unwrap();
            (out, format!("{}:{}", s[0], s[1]))
        }
    }
}

/// Asserts that the page shows `r` after `ply` plies. Returns the number of house points (Dots, R9) of
/// the first and of the second player in that position, so that a test can tell it compared some.
fn check(tab: &Tab, r: &GameRecord, ply: usize) -> [usize; 2] {
    let (pieces, shown_ply, score, info) = shown(tab);
    let (want, want_score) = expected(r, ply);
    let houses = ["first", "second"].map(|owner| {
        want.iter()
            .filter(|p| house_owner(p) == Some(owner))
            .count()
    });
    assert_eq!(
        shown_ply, ply as u64,
        "{}: the page is at another ply",
        r.id
    );
    let missing: Vec<&String> = want.difference(&pieces).collect();
    let extra: Vec<&String> = pieces.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{} after {ply} plies: the page lacks {missing:?} and shows {extra:?} that the rules do not have",
        r.id
    );
    assert_eq!(score, want_score, "{} after {ply} plies: score", r.id);
    // The time the last move took, as games.csv has it (none for an opening ply).
    if let Some(ms) = ply
        .checked_sub(r.opening.len() + 1)
        .and_then(|k| r.move_ms.get(k))
    {
        assert!(
            info.contains(&format!("in {ms} ms")),
            "{} after {ply} plies: {info:?} lacks the move's {ms} ms",
            r.id
        );
    }
    houses
}

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
    let tab = open_report(&browser, &report);
    step_through(&tab, &r);
    r
}

/// A new tab of `browser` on the page `report`.
fn open_report(browser: &Browser, report: &Path) -> std::sync::Arc<Tab> {
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&format!("file://{}", report.display()))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab
}

/// Clicks game `r` in the list of the page in `tab` and waits for its board (at its last ply).
fn open_game(tab: &Tab, r: &GameRecord) {
    tab.wait_for_element(&format!("#game-list tr[data-game=\"{}\"]", r.id))
        .unwrap()
        .click()
        .unwrap();
    tab.wait_for_element(&format!("#board svg[data-game=\"{}\"]", r.id))
        .unwrap();
}

/// Moves the ply slider of the page in `tab` to `ply`, as a user drags it: its value, then an input
/// event.
fn slide_to(tab: &Tab, ply: usize) {
    tab.evaluate(
        &format!(
            "(() => {{ const s = document.getElementById('ply'); s.value = {ply}; \
             s.dispatchEvent(new Event('input')); return 1; }})()"
        ),
        false,
    )
    .unwrap();
}

/// Opens game `r` in the page in `tab` and checks the board at every ply: at its last ply as it opens,
/// from the start with the next button, one back with the left arrow, to the start with Home and to the
/// end with End, then the middle through the slider. Returns the house points of the first and of the
/// second player summed over the plies checked.
fn step_through(tab: &Tab, r: &GameRecord) -> [usize; 2] {
    let mut houses = [0; 2];
    let mut add = |h: [usize; 2]| {
        houses[0] += h[0];
        houses[1] += h[1];
    };
    open_game(tab, r);
    let n = r.moves.len();
    add(check(tab, r, n));
    tab.find_element("#first").unwrap().click().unwrap();
    add(check(tab, r, 0));
    let next = tab.find_element("#next").unwrap();
    for ply in 1..=n {
        next.click().unwrap();
        add(check(tab, r, ply));
    }
    tab.press_key("ArrowLeft").unwrap();
    add(check(tab, r, n - 1));
    tab.press_key("Home").unwrap();
    add(check(tab, r, 0));
    tab.press_key("End").unwrap();
    add(check(tab, r, n));
    slide_to(tab, n / 2);
    add(check(tab, r, n / 2));
    houses
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

/// `Some(chromium)`, or `None` after printing why the test skips.
fn browser_or_skip() -> Option<PathBuf> {
    let exe = chromium();
    if exe.is_none() {
        eprintln!("skipped: no chromium on the PATH (Debian: apt-get install chromium; .ci/run installs it)");
    }
    exe
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
    let tab = open_report(&browser, &report);
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
    let tab = open_report(&browser, &report);
    let houses = step_through(&tab, &r);
    assert!(
        houses[0] > 0 && houses[1] > 0,
        "the plies checked have house points of both players: {houses:?}"
    );
}
