//! Helpers for the browser tests (feature `browser`, the `headless_chrome` crate): start headless
//! Chromium, watch a tab's console for errors and uncaught exceptions, and step through a game in
//! the game viewer of a `report.html` (the arena's report page, or the contest server's
//! `/competitions/{id}/report.html`), checking the pieces the page draws against the `games` crate's
//! picture of the position ([`games::Game::frame`]) at every ply.
//!
//! Used by `tests/report_browser.rs` (the report page) and `tests/serve_browser.rs` (the contest
//! server), so that both replay a game the same way.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena::record::GameRecord;
use games::{Game, GameSpec, GameVisitor};
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::protocol::cdp::Log::LogEntryLevel;
use headless_chrome::protocol::cdp::Runtime::{ConsoleAPICalledEventTypeOption, RemoteObject};
use headless_chrome::{Browser, LaunchOptions, Tab};

/// The browser: `chromium` on the PATH (Debian's package), or `None`.
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
}

/// `Some(chromium)`, or `None` after printing why the test skips.
pub fn browser_or_skip() -> Option<PathBuf> {
    let exe = chromium();
    if exe.is_none() {
        eprintln!("skipped: no chromium on the PATH (Debian: apt-get install chromium; .ci/run installs it)");
    }
    exe
}

/// Headless Chromium with a fresh profile in `profile`, as root needs it (no sandbox), and no traffic of
/// its own (no component updates, sync, background networking).
pub fn launch(exe: PathBuf, profile: &Path) -> Browser {
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

/// What a tab reported as going wrong, from [`Console::watch`] on: every uncaught JavaScript
/// exception, every `console.error` and `console.assert` that failed, and every entry the browser
/// logged at level error (a resource that failed to load, a response of 4xx or 5xx, a blocked
/// request), each as one line with the page it came from.
#[derive(Clone, Default)]
pub struct Console(Arc<Mutex<Vec<String>>>);

impl Console {
    /// Starts recording the errors of `tab` (its Runtime and Log domains enabled). The recording
    /// follows the tab across navigations.
    pub fn watch(tab: &Tab) -> Console {
        let console = Console::default();
        let seen = Arc::clone(&console.0);
        tab.add_event_listener(Arc::new(move |event: &Event| {
            let line = match event {
                Event::RuntimeExceptionThrown(e) => {
                    let d = &e.params.exception_details;
                    let what = d
                        .exception
                        .as_ref()
                        .and_then(|o| o.description.clone())
                        .unwrap_or_default();
                    Some(format!(
                        "uncaught exception at {}:{}:{}: {} {what}",
                        d.url.as_deref().unwrap_or("?"),
                        d.line_number + 1,
                        d.column_number + 1,
                        d.text
                    ))
                }
                Event::RuntimeConsoleAPICalled(e)
                    if matches!(
                        e.params.Type,
                        ConsoleAPICalledEventTypeOption::Error
                            | ConsoleAPICalledEventTypeOption::Assert
                    ) =>
                {
                    let args: Vec<String> = e.params.args.iter().map(remote_text).collect();
                    let call = format!("{:?}", e.params.Type).to_lowercase();
                    Some(format!("console.{call}: {}", args.join(" ")))
                }
                Event::LogEntryAdded(e) if e.params.entry.level == LogEntryLevel::Error => {
                    let entry = &e.params.entry;
                    Some(format!(
                        "logged by the browser ({:?}) at {}: {}",
                        entry.source,
                        entry.url.as_deref().unwrap_or("?"),
                        entry.text
                    ))
                }
                _ => None,
            };
            if let Some(line) = line {
                seen.lock().expect("the console's lock").push(line);
            }
        }))
        .expect("listening to the tab's events");
        tab.enable_runtime().expect("enabling the Runtime domain");
        tab.enable_log().expect("enabling the Log domain");
        console
    }

    /// The errors recorded so far.
    pub fn errors(&self) -> Vec<String> {
        self.0.lock().expect("the console's lock").clone()
    }

    /// Panics, listing them, if the tab has logged or thrown any error so far.
    pub fn assert_no_errors(&self) {
        let errors = self.errors();
        assert!(
            errors.is_empty(),
            "the pages logged errors or threw:\n{}",
            errors.join("\n")
        );
    }
}

/// A console argument as text: its value, or its description (an Error's message and stack).
fn remote_text(o: &RemoteObject) -> String {
    match (&o.value, &o.description) {
        (Some(serde_json::Value::String(s)), _) => s.clone(),
        (Some(v), _) => v.to_string(),
        (None, Some(d)) => d.clone(),
        (None, None) => format!("{:?}", o.Type),
    }
}

/// One piece as the test compares it: `x y kind owner label faded`, the fields of its frame
/// ([`games::frame::Piece`]), e.g. `4 4 captured second  1` for a captured Dots dot, `3 0 disc first  `
/// for a Connect Four disc, `7 0 pit second 4 ` for a Kalah pit of four seeds.
pub fn piece(p: &games::frame::Piece) -> String {
    let owner = p.owner.map_or(String::new(), |o| o.to_string());
    format!(
        "{} {} {} {owner} {} {}",
        p.x,
        p.y,
        p.kind,
        p.label.as_deref().unwrap_or(""),
        if p.faded { "1" } else { "" }
    )
}

/// The owner (`first`, `second`) of a `piece` that is a house point (Dots, R9: kind `house`), else
/// `None`.
pub fn house_owner(piece: &str) -> Option<&str> {
    let fields: Vec<&str> = piece.split(' ').collect();
    (fields.get(2) == Some(&"house")).then(|| fields[3])
}

/// The pieces the page draws now, the ply it says it shows, its text panel (lines joined by `|`) with
/// its highlighted spots (as [`expected`]) and its line about the last move.
pub fn shown(tab: &Tab) -> (BTreeSet<String>, u64, String, String) {
    let js =
        "JSON.stringify({ply: +document.querySelector('#board svg').getAttribute('data-ply'), \
              panel: Array.from(document.querySelectorAll('#score .panel-line')).map(e => e.textContent).join('|') \
              + ' @' + Array.from(document.querySelectorAll('#board svg .highlight')).map(e => e.dataset.x + ',' + e.dataset.y).join(' '), \
              info: document.getElementById('move-info').textContent, \
              pieces: Array.from(document.querySelectorAll('#board svg .piece')).map(e => \
              [e.dataset.x, e.dataset.y, e.dataset.kind, e.dataset.owner, e.dataset.label || '', \
              e.dataset.faded || ''].join(' '))})";
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
        v["panel"].as_str().unwrap().to_string(),
        v["info"].as_str().unwrap().to_string(),
    )
}

/// The pieces of the games crate's picture of the position after the first `ply` plies of `r`
/// ([`Game::frame`]), and its text panel (lines joined by `|`) followed by ` @` and its highlighted
/// spots (`x,y`, space-separated).
pub fn expected(r: &GameRecord, ply: usize) -> (BTreeSet<String>, String) {
    struct At<'a>(&'a [String]);
    impl GameVisitor for At<'_> {
        type Output = games::Frame;
        fn visit<G: Game>(self, mut pos: G) -> games::Frame {
            games::play_moves(&mut pos, self.0.iter().map(String::as_str)).unwrap();
            pos.frame()
        }
    }
    let spec: GameSpec = format!("{} {}", r.game, r.variant).parse().unwrap();
    let frame = spec
        .visit_with_setup(&r.setup, At(&r.moves[..ply]))
        .unwrap();
    let panel: Vec<&str> = frame.panel.iter().map(|t| t.text.as_str()).collect();
    let highlight: Vec<String> = frame
        .highlight
        .iter()
        .map(|[x, y]| format!("{x},{y}"))
        .collect();
    (
        frame.pieces.iter().map(piece).collect(),
        format!("{} @{}", panel.join("|"), highlight.join(" ")),
    )
}

/// Asserts that the page shows `r` after `ply` plies. Returns the number of house points (Dots, R9) of
/// the first and of the second player in that position, so that a test can tell it compared some.
pub fn check(tab: &Tab, r: &GameRecord, ply: usize) -> [usize; 2] {
    let (pieces, shown_ply, panel, info) = shown(tab);
    let (want, want_panel) = expected(r, ply);
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
    assert_eq!(
        panel, want_panel,
        "{} after {ply} plies: the text panel",
        r.id
    );
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

/// Clicks game `r` in the list of the page in `tab` and waits for its board (at its last ply).
pub fn open_game(tab: &Tab, r: &GameRecord) {
    tab.wait_for_element(&format!("#game-list tr[data-game=\"{}\"]", r.id))
        .unwrap()
        .click()
        .unwrap();
    tab.wait_for_element(&format!("#board svg[data-game=\"{}\"]", r.id))
        .unwrap();
}

/// Moves the ply slider of the page in `tab` to `ply`, as a user drags it: its value, then an input
/// event.
pub fn slide_to(tab: &Tab, ply: usize) {
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
pub fn step_through(tab: &Tab, r: &GameRecord) -> [usize; 2] {
    open_game(tab, r);
    check_every_ply(tab, r)
}

/// Checks the board of game `r`, open at its last ply in the viewer of the page in `tab` (the
/// report's, or the contest server's replay page, which has the same controls), at every ply as
/// [`step_through`] does.
pub fn check_every_ply(tab: &Tab, r: &GameRecord) -> [usize; 2] {
    let mut houses = [0; 2];
    let mut add = |h: [usize; 2]| {
        houses[0] += h[0];
        houses[1] += h[1];
    };
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
