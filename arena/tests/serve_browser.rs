//! End-to-end test of the contest server (`arena serve`) in a real browser: the real binary serves a
//! Connect Four contest (configs/contest-connect4.toml made fast: one reference bot, 2 games a pair,
//! 1 s + 10 ms a game, no schedule) from a temporary results folder, and headless Chromium, through
//! the pages only, logs in as a participant, uploads the sh bot of configs/upload-example through
//! the file input, waits for its check to pass on the bot's page (which reloads itself while the
//! check is pending), logs out, logs in as the organiser, starts a test competition from the home
//! page's form, waits for it to finish, reads its standings and crosstable, follows the replay link
//! to its `report.html` and steps through a game ply by ply, checking the board against the `games`
//! crate (as `tests/report_browser.rs` does). No page may log an error or throw. Once on SQLite (the
//! default database) and once on PostgreSQL (`--db`, a fresh database on `ARENA_TEST_POSTGRES`).
//!
//! Needs Debian's `chromium` (`.ci/run` installs it) and bubblewrap (the uploads are sandboxed);
//! without chromium the test prints why and skips, as the PostgreSQL one does without
//! `ARENA_TEST_POSTGRES` (outside CI).
//! Run: `cargo test -p arena --features browser --test serve_browser`.

mod common;

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use arena::record::GameRecord;
use arena::serve::client::{request, Answer};
use common::browser::{browser_or_skip, check_every_ply, launch, step_through, Console};
use headless_chrome::Tab;

/// The uploaded bot's name (the reference bot is `random`).
const BOT: &str = "my-random";

/// How long the test waits for anything: the server to listen, a page to load, a check, a
/// competition. Each is seconds of work; the bound only keeps a broken server from hanging the test.
const PATIENCE: Duration = Duration::from_secs(90);

/// Calls `probe` every 100 ms until it returns `Some`, and returns that; panics with `what` and the
/// last `describe()` after [`PATIENCE`].
fn poll<T>(what: &str, mut probe: impl FnMut() -> Option<T>, describe: impl Fn() -> String) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "waited {PATIENCE:?} for {what}\n{}",
            describe()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The running `arena serve`, stopped (SIGTERM, then SIGKILL after 10 s) when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    addr: SocketAddr,
    stderr: PathBuf,
}

impl Server {
    /// Starts `arena serve contest --listen 127.0.0.1:0 --results results [--db db]` and waits for
    /// its `listening on http://ADDR/` line.
    fn start(contest: &Path, results: &Path, db: Option<&str>, logs: &Path) -> Server {
        let stdout = logs.join("serve.stdout");
        let stderr = logs.join("serve.stderr");
        let child = common::arena()
            .arg("serve")
            .arg(contest)
            .args(["--listen", "127.0.0.1:0", "--results"])
            .arg(results)
            .args(db.map(|url| ["--db", url]).into_iter().flatten())
            .stdin(Stdio::null())
            .stdout(File::create(&stdout).unwrap())
            .stderr(File::create(&stderr).unwrap())
            .spawn()
            .expect("starting arena serve");
        let mut server = Server {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            stderr,
        };
        let start = Instant::now();
        loop {
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!(
                    "arena serve exited ({status}) before listening\n{}",
                    server.log()
                );
            }
            let text = std::fs::read_to_string(&stdout).unwrap_or_default();
            if let Some(addr) = text
                .lines()
                .find_map(|l| l.strip_prefix("listening on http://"))
                .filter(|_| text.ends_with('\n'))
            {
                server.addr = addr
                    .trim_end_matches('/')
                    .parse()
                    .unwrap_or_else(|e| panic!("arena serve listens on {addr:?}: {e}"));
                return server;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for arena serve to print `listening on http://ADDR/`\n{}",
                server.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `http://ADDR` followed by `path`.
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// What the server wrote on stderr so far, for failure messages.
    fn log(&self) -> String {
        format!(
            "arena serve's stderr:\n{}",
            std::fs::read_to_string(&self.stderr).unwrap_or_default()
        )
    }

    /// SIGTERM, then waits for it to exit (SIGKILL after 10 s). Returns its exit status.
    fn stop(&mut self) -> ExitStatus {
        if let Some(status) = self.child.try_wait().unwrap() {
            return status;
        }
        let pid = nix::unistd::Pid::from_raw(i32::try_from(self.child.id()).unwrap());
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        self.child.wait().unwrap()
    }

    /// `GET path` (the library's client: one connection, closed after).
    fn get(&self, path: &str) -> Answer {
        request(self.addr, "GET", path, &[], &[])
            .unwrap_or_else(|e| panic!("GET {path}: {e:#}\n{}", self.log()))
    }

    /// `GET path`, which must answer 200 with JSON.
    fn get_json(&self, path: &str) -> serde_json::Value {
        let answer = self.get(path);
        assert_eq!(answer.status, 200, "GET {path}: {}", answer.text());
        answer
            .json()
            .unwrap_or_else(|e| panic!("GET {path}: {e:#}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The configs/contest-connect4.toml contest made fast: no `[schedule]` (only the organiser starts
/// competitions), 2 games a pair, 1 s + 10 ms a game, the builtin `random` as the only reference bot.
fn contest_config() -> String {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../configs/contest-connect4.toml"
    );
    let text = std::fs::read_to_string(example).unwrap();
    let mut c: toml::Table = text.parse().unwrap();
    c.remove("schedule");
    let competition = c["competition"].as_table_mut().unwrap();
    competition.insert("games_per_pair".into(), 2.into());
    let tc = competition["time_control"].as_table_mut().unwrap();
    tc.insert("time_ms".into(), 1000.into());
    tc.insert("inc_ms".into(), 10.into());
    let mut random = toml::Table::new();
    random.insert("name".into(), "random".into());
    random.insert("builtin".into(), "random".into());
    c.insert("reference".into(), vec![toml::Value::from(random)].into());
    toml::to_string(&c).unwrap()
}

/// `arena serve contest --results results [--db db] --add-user name [--admin]`: the account's
/// password.
fn add_user(contest: &Path, results: &Path, db: Option<&str>, name: &str, admin: bool) -> String {
    add_user_token(contest, results, db, name, admin).0
}

/// [`add_user`]'s password and the account's API token.
fn add_user_token(
    contest: &Path,
    results: &Path,
    db: Option<&str>,
    name: &str,
    admin: bool,
) -> (String, String) {
    let mut cmd = common::arena();
    cmd.arg("serve")
        .arg(contest)
        .arg("--results")
        .arg(results)
        .args(db.map(|url| ["--db", url]).into_iter().flatten())
        .args(["--add-user", name]);
    if admin {
        cmd.arg("--admin");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "--add-user {name}: {}",
        common::text(&out)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let role = if admin { "organiser" } else { "participant" };
    let password = lines[0]
        .strip_prefix(&format!("added {role} {name}; password: "))
        .unwrap_or_else(|| panic!("--add-user {name} printed {stdout:?}"));
    let token = lines.last().unwrap();
    assert!(
        token.len() == 64 && token.chars().all(|c| c.is_ascii_hexdigit()),
        "--add-user {name}: the last line is the API token: {stdout:?}"
    );
    (password.to_string(), token.to_string())
}

/// Evaluates `js` in `tab`: its value as a string, or `None` while the page is between documents (a
/// navigation or the page's own reload under way) or the value is not a string.
fn eval_string(tab: &Tab, js: &str) -> Option<String> {
    tab.evaluate(js, false)
        .ok()?
        .value?
        .as_str()
        .map(str::to_string)
}

/// The path of the page in `tab` once it has loaded, or `None`.
fn loaded_path(tab: &Tab) -> Option<String> {
    eval_string(
        tab,
        "document.readyState === 'complete' ? location.pathname : ''",
    )
    .filter(|p| !p.is_empty())
}

/// The text of the page in `tab` (for failure messages).
fn page_text(tab: &Tab) -> String {
    let url = eval_string(tab, "location.href").unwrap_or_default();
    let text = eval_string(tab, "document.body ? document.body.innerText : ''").unwrap_or_default();
    format!("the page {url}:\n{text}")
}

/// Waits until the page in `tab` is a loaded document whose path `want` accepts; returns that path.
fn wait_for_page(tab: &Tab, server: &Server, what: &str, want: impl Fn(&str) -> bool) -> String {
    poll(
        what,
        || loaded_path(tab).filter(|p| want(p)),
        || format!("{}\n{}", page_text(tab), server.log()),
    )
}

/// Opens `path` of the server in `tab` and waits for it to load.
fn open(tab: &Tab, server: &Server, path: &str) {
    tab.navigate_to(&server.url(path))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    wait_for_page(tab, server, &format!("{path} to load"), |p| p == path);
}

/// Enters `text` into the form field `selector` of the page in `tab`: a click on the field, then the
/// text as one input, as a paste or an input method sends it (`type_str`'s two key events a character
/// take seconds for a password on a loaded machine).
fn fill(tab: &Tab, selector: &str, text: &str) {
    tab.wait_for_element(selector).unwrap().click().unwrap();
    tab.send_character(text).unwrap();
    let value = tab
        .find_element(selector)
        .unwrap()
        .call_js_fn("function () { return this.value; }", vec![], false)
        .unwrap()
        .value;
    assert_eq!(
        value.as_ref().and_then(|v| v.as_str()),
        Some(text),
        "the field {selector} holds what was entered"
    );
}

/// Who the header shows as logged in (`span.me`: `NAME`, or `NAME (organiser)`), empty when logged
/// out.
fn logged_in_as(tab: &Tab) -> String {
    eval_string(
        tab,
        "(() => { const me = document.querySelector('header .me'); \
         return me && me.querySelector('form[action=\"/logout\"]') ? \
         me.firstChild.textContent.trim() : ''; })()",
    )
    .unwrap_or_default()
}

/// Logs in through the form of `/login`: lands on `/` with the header showing `shown` (the name, and
/// ` (organiser)` for the organiser).
fn log_in(tab: &Tab, server: &Server, name: &str, password: &str, shown: &str) {
    open(tab, server, "/login");
    let csrf = eval_string(
        tab,
        "document.querySelector('form[action=\"/login\"] input[name=csrf]').value",
    )
    .unwrap_or_default();
    assert_eq!(csrf.len(), 64, "the login form carries a CSRF token");
    fill(tab, "form[action=\"/login\"] input[name=name]", name);
    fill(
        tab,
        "form[action=\"/login\"] input[name=password]",
        password,
    );
    tab.find_element("form[action=\"/login\"] button[type=submit]")
        .unwrap()
        .click()
        .unwrap();
    wait_for_page(tab, server, "the login to land on /", |p| p == "/");
    assert_eq!(
        logged_in_as(tab),
        shown,
        "after logging in\n{}",
        page_text(tab)
    );
}

/// Logs out with the header's button: lands on `/`, logged out.
fn log_out(tab: &Tab, server: &Server) {
    let from = loaded_path(tab).unwrap();
    assert_ne!(
        from, "/",
        "log out from another page than / (to see the move)"
    );
    tab.find_element("header form[action=\"/logout\"] button")
        .unwrap()
        .click()
        .unwrap();
    wait_for_page(tab, server, "the logout to land on /", |p| p == "/");
    assert_eq!(
        logged_in_as(tab),
        "",
        "after logging out\n{}",
        page_text(tab)
    );
    assert!(
        tab.find_element("header a[href=\"/login\"]").is_ok(),
        "the header offers to log in again"
    );
}

/// The cells of the rows of the table `selector` (the header row left out), as text.
fn table(tab: &Tab, selector: &str) -> Vec<Vec<String>> {
    let js = format!(
        "JSON.stringify(Array.from(document.querySelectorAll('{selector} tr')).slice(1).map(tr => \
         Array.from(tr.children).map(c => c.textContent.trim())))"
    );
    let text = eval_string(tab, &js).unwrap_or_else(|| panic!("no table {selector}"));
    serde_json::from_str(&text).unwrap()
}

/// Uploads `bot` as [`BOT`] through the form of `/bots/new` (logged in as a participant), lands on
/// the bot's page and waits there until its check passes. Returns the bot's id.
fn upload(tab: &Tab, server: &Server, bot: &Path) -> u64 {
    open(tab, server, "/bots/new");
    fill(tab, "form[action=\"/bots\"] input[name=name]", BOT);
    tab.wait_for_element("form[action=\"/bots\"] input[type=file][name=file]")
        .unwrap()
        .set_input_files(&[bot.to_str().unwrap()])
        .unwrap();
    tab.find_element("form[action=\"/bots\"] button[type=submit]")
        .unwrap()
        .click()
        .unwrap();
    let page = wait_for_page(tab, server, "the upload to land on /bots/{id}", |p| {
        p.strip_prefix("/bots/")
            .is_some_and(|id| id.parse::<u64>().is_ok())
    });
    let id: u64 = page["/bots/".len()..].parse().unwrap();
    assert!(
        eval_string(tab, "document.querySelector('main h1').textContent").as_deref() == Some(BOT),
        "the bot's page is titled with its name\n{}",
        page_text(tab)
    );

    // Its check: pending, then passed; the page reloads itself every 3 s meanwhile.
    let verdict = poll(
        "the check's verdict on the bot's page",
        || {
            eval_string(
                tab,
                "(() => { const s = document.querySelector('main table span.passed, main table span.failed'); \
                 return s ? s.className + ': ' + s.closest('tr').innerText : ''; })()",
            )
            .filter(|v| !v.is_empty())
        },
        || format!("{}\n{}", page_text(tab), server.log()),
    );
    assert!(
        verdict.starts_with("passed: "),
        "the check failed: {verdict}\n{}",
        server.log()
    );
    // The page that shows the verdict, once it has loaded (it reloads itself no more).
    wait_for_page(tab, server, "the bot's page to load", |p| p == page);
    let versions = table(tab, "main table.versions");
    assert_eq!(versions.len(), 1, "one version: {versions:?}");
    // The check against each reference bot: the contest's one, two games, no forfeit.
    let check = table(tab, "main table.check");
    assert_eq!(check.len(), 1, "{check:?}");
    assert_eq!(
        (
            check[0][0].as_str(),
            check[0][1].as_str(),
            check[0][3].as_str()
        ),
        ("random", "2", "0"),
        "{check:?}"
    );
    assert!(versions[0][0].starts_with("v1"), "{versions:?}");
    assert_eq!(versions[0][2], "executable", "{versions:?}");
    let api = server.get_json(&format!("/api/bots/{id}"));
    assert_eq!(api["name"], BOT, "{api}");
    assert_eq!(api["check"], "passed", "{api}");
    assert_eq!(api["active_version"], 1, "{api}");
    id
}

/// Starts a test competition with the form of the home page (logged in as the organiser), lands on
/// its page and waits (through the API) until it is over; then reloads its page, which must say it
/// finished. Returns its id.
fn run_competition(tab: &Tab, server: &Server) -> u64 {
    tab.evaluate(
        "document.querySelector('form[action=\"/competitions\"] select[name=kind]').value = 'test'",
        false,
    )
    .unwrap();
    tab.find_element("form[action=\"/competitions\"] button[type=submit]")
        .unwrap()
        .click()
        .unwrap();
    let page = wait_for_page(
        tab,
        server,
        "starting a competition to land on /competitions/{id}",
        |p| {
            p.strip_prefix("/competitions/")
                .is_some_and(|id| id.parse::<u64>().is_ok())
        },
    );
    let id: u64 = page["/competitions/".len()..].parse().unwrap();

    let api = format!("/api/competitions/{id}");
    let status = poll(
        "the competition to end",
        || {
            let c = server.get_json(&api);
            let s = c["status"].as_str().unwrap().to_string();
            (!matches!(s.as_str(), "scheduled" | "running")).then_some(s)
        },
        || format!("{}\n{}", server.get_json(&api), server.log()),
    );
    let c = server.get_json(&api);
    assert_eq!(status, "finished", "{c}\n{}", server.log());
    assert_eq!(c["kind"], "test", "{c}");
    assert_eq!(c["games"], 2, "{c}");

    // Its page, which reloads itself while the competition runs, now says it finished.
    open(tab, server, &page);
    let shown = eval_string(tab, "document.querySelector('main p strong').textContent");
    assert_eq!(shown.as_deref(), Some("finished"), "{}", page_text(tab));
    id
}

/// Checks the competition page in `tab`: bot `bot_id` among its entries (a link to the bot's page),
/// and its standings and crosstable: the uploaded bot and the reference bot, 2 games each, no
/// forfeit.
fn check_standings(tab: &Tab, bot_id: u64) {
    assert!(
        tab.find_element(&format!("main p a[href=\"/bots/{bot_id}\"]"))
            .is_ok(),
        "the entries link to the uploaded bot's page\n{}",
        page_text(tab)
    );
    let standings = table(tab, "table#standings");
    let mut names: Vec<&str> = standings.iter().map(|r| r[1].as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, [BOT, "random"], "standings: {standings:?}");
    for row in &standings {
        assert_eq!(row[2], "2", "{} played 2 games: {standings:?}", row[1]);
        assert_eq!(row[7], "0", "{} forfeited nothing: {standings:?}", row[1]);
    }
    let points: Vec<f64> = standings.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(
        (points.iter().sum::<f64>() - 2.0).abs() < 1e-9,
        "2 games, 2 points: {standings:?}"
    );
    let crosstable = table(tab, "table#crosstable");
    let mut rows: Vec<&str> = crosstable.iter().map(|r| r[0].as_str()).collect();
    rows.sort_unstable();
    assert_eq!(rows, [BOT, "random"], "crosstable: {crosstable:?}");
}

/// The games of competition `id` as the server offers them for download (`games.csv`, saved into
/// `dir` to be read): 2 games between the uploaded bot and the reference bot.
fn games_of(server: &Server, id: u64, dir: &Path) -> Vec<GameRecord> {
    let answer = server.get(&format!("/competitions/{id}/games.csv"));
    let csv = answer.text();
    assert_eq!(answer.status, 200, "games.csv: {csv}");
    let path = dir.join("games.csv");
    std::fs::write(&path, csv).unwrap();
    let records = arena::results::read_games_csv(&path).unwrap();
    assert_eq!(records.len(), 2, "{records:?}");
    for r in &records {
        let mut pair = [r.first.as_str(), r.second.as_str()];
        pair.sort_unstable();
        assert_eq!(pair, [BOT, "random"], "game {}", r.id);
    }
    records
}

/// Follows the replay link of the competition page in `tab` to its `report.html`, which must list
/// every game of `records`, and steps through the longest game ply by ply.
fn replay(tab: &Tab, server: &Server, id: u64, records: &[GameRecord]) {
    tab.find_element("a#replay").unwrap().click().unwrap();
    let report = format!("/competitions/{id}/report.html");
    wait_for_page(tab, server, "the replay link to open report.html", |p| {
        p == report
    });
    let listed = eval_string(
        tab,
        "JSON.stringify(Array.from(document.querySelectorAll('#game-list tr[data-game]')).map(tr => tr.dataset.game))",
    )
    .unwrap();
    let mut listed: Vec<String> = serde_json::from_str(&listed).unwrap();
    listed.sort_unstable();
    let mut ids: Vec<String> = records.iter().map(|r| r.id.clone()).collect();
    ids.sort_unstable();
    assert_eq!(listed, ids, "the report lists every game");
    let r = records.iter().max_by_key(|r| r.moves.len()).unwrap();
    assert!(r.moves.len() >= 7, "{}: {:?}", r.id, r.moves);
    step_through(tab, r);
}

/// Opens competition `id`'s page in `tab`, follows the link of game `r`'s row to its replay page, and
/// steps through it ply by ply, checking the board against the `games` crate.
fn replay_page(tab: &Tab, server: &Server, id: u64, r: &GameRecord) {
    open(tab, server, &format!("/competitions/{id}"));
    let link = format!("/competitions/{id}/games/{}", r.id);
    tab.find_element(&format!("table#games a[href=\"{link}\"]"))
        .unwrap_or_else(|_| panic!("no row links to {link}\n{}", page_text(tab)))
        .click()
        .unwrap();
    wait_for_page(tab, server, "a game row to open its replay page", |p| {
        p == link
    });
    tab.wait_for_element(&format!("#board svg[data-game=\"{}\"]", r.id))
        .unwrap();
    check_every_ply(tab, r);
}

#[test]
fn a_participant_uploads_a_bot_and_the_organisers_competition_replays_in_the_browser() {
    the_contest_in_the_browser(None);
}

#[test]
fn the_same_on_postgres() {
    if browser_or_skip().is_none() {
        return;
    }
    let name = format!("arena_browser_{}", std::process::id());
    let Some((url, _)) = common::fresh_postgres(&name) else {
        return;
    };
    the_contest_in_the_browser(Some(&url));
}

/// The test, on the SQLite file in the results folder (`db` `None`) or on the PostgreSQL database `db`.
/// One at a time: two Chromiums and two servers at once would only race for the machine's cores.
fn the_contest_in_the_browser(db: Option<&str>) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(chromium) = browser_or_skip() else {
        return;
    };
    // Canonical: Chromium refuses to upload a path with `..` in it (the form's POST fails with
    // ERR_ACCESS_DENIED).
    let bot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../configs/upload-example/bot.sh")
        .canonicalize()
        .unwrap();
    let started = Instant::now();
    let lap = |what: &str| eprintln!("{:6.1} s  {what}", started.elapsed().as_secs_f64());
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let contest = common::write_config(dir.path(), "contest", &contest_config());
    let organiser = add_user(&contest, &results, db, "organiser", true);
    let participant = add_user(&contest, &results, db, "alice", false);
    let mut server = Server::start(&contest, &results, db, dir.path());
    assert_eq!(server.get_json("/api/health")["status"], "ok");
    let browser = launch(chromium, &dir.path().join("profile"));
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    let console = Console::watch(&tab);
    lap("arena serve listening, chromium started");

    log_in(&tab, &server, "alice", &participant, "alice");
    let bot_id = upload(&tab, &server, &bot);
    lap("bot uploaded, its check passed");

    log_out(&tab, &server);
    log_in(
        &tab,
        &server,
        "organiser",
        &organiser,
        "organiser (organiser)",
    );
    let id = run_competition(&tab, &server);
    check_standings(&tab, bot_id);
    lap("competition played");

    let records = games_of(&server, id, dir.path());
    replay(&tab, &server, id, &records);
    lap("game replayed in the report");
    let r = records.iter().max_by_key(|r| r.moves.len()).unwrap();
    replay_page(&tab, &server, id, r);
    lap("game replayed on its own page");

    let pages = [
        "/".to_string(),
        format!("/competitions/{id}"),
        format!("/bots/{bot_id}"),
        format!("/competitions/{id}/games/{}", r.id),
    ];
    no_overflow(&tab, &server, &pages);
    lap("pages at 1280 and 390 px");
    console.assert_no_errors();

    // Last, as the browser logs their 404s: error pages, and the bot disqualified (its games then
    // leave the standings and their replay pages).
    errors_keep_the_session(&tab, &server);
    disqualify(&tab, &server, bot_id);
    lap("an error page, a disqualification with its reason");
    let status = server.stop();
    assert!(
        status.success(),
        "arena serve stopped with {status}\n{}",
        server.log()
    );
}

/// An address that is no page, and an id that is no number, answer a 404 page in the site's layout,
/// with the session still shown in the header.
fn errors_keep_the_session(tab: &Tab, server: &Server) {
    let before = logged_in_as(tab);
    assert!(!before.is_empty(), "{}", page_text(tab));
    for path in ["/bots/abc", "/no/such/page"] {
        tab.navigate_to(&server.url(path))
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        wait_for_page(tab, server, &format!("{path} to load"), |p| p == path);
        let text = page_text(tab);
        assert!(text.contains("no such page"), "{text}");
        assert_eq!(logged_in_as(tab), before, "{text}");
    }
}

/// The organiser disqualifies bot `id` from its page: a reason and a ticked box, then the reason on
/// the page.
fn disqualify(tab: &Tab, server: &Server, id: u64) {
    let path = format!("/bots/{id}");
    open(tab, server, &path);
    fill(
        tab,
        "form.disqualify input[name=reason]",
        "plays a copied engine",
    );
    tab.find_element("form.disqualify input[name=confirm]")
        .unwrap()
        .click()
        .unwrap();
    tab.find_element("form.disqualify button")
        .unwrap()
        .click()
        .unwrap();
    poll(
        "the disqualification's reason on the bot's page",
        || {
            let text = eval_string(tab, "document.body ? document.body.innerText : ''")?;
            text.contains("Disqualified by the organiser: plays a copied engine")
                .then_some(())
        },
        || page_text(tab),
    );
}

/// Each of `paths` at 1280 and 390 px wide: the page no wider than the window (a wide table scrolls
/// in its own box), a screenshot of each in the tests' folder of the target directory.
fn no_overflow(tab: &Tab, server: &Server, paths: &[String]) {
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screens");
    std::fs::create_dir_all(&shots).unwrap();
    for width in [1280, 390] {
        // The viewport of a desktop, then of a phone (as the browser's device toolbar sets it).
        tab.call_method(
            headless_chrome::protocol::cdp::Emulation::SetDeviceMetricsOverride {
                width,
                height: 900,
                device_scale_factor: 1.0,
                mobile: width < 500,
                scale: None,
                screen_width: None,
                screen_height: None,
                position_x: None,
                position_y: None,
                dont_set_visible_size: None,
                screen_orientation: None,
                viewport: None,
                display_feature: None,
                device_posture: None,
            },
        )
        .unwrap();
        for path in paths {
            open(tab, server, path);
            let wide = eval_string(
                tab,
                "String(document.documentElement.scrollWidth - document.documentElement.clientWidth)",
            );
            assert_eq!(
                wide.as_deref(),
                Some("0"),
                "{path} at {width} px is wider than the window\n{}",
                page_text(tab)
            );
            let png = tab
                .capture_screenshot(
                    headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption::Png,
                    None,
                    None,
                    true,
                )
                .unwrap();
            let name = format!("{width}{}.png", path.replace('/', "_"));
            std::fs::write(shots.join(name), png).unwrap();
        }
    }
}

/// A contest of `game` (a `[competition.game]` table's lines) between the reference bot random and a
/// second one, `other` (its `builtin` and `args`), alone, 2 games of 30 s a bot.
fn references_contest(name: &str, game: &str, other: &str) -> String {
    format!(
        "name = \"{name}\"\nregistration = true\nreferences_play = true\nseed = 7\n\
         [check]\ngames = 2\n[competition]\nformat = \"round-robin\"\ngames_per_pair = 2\nconcurrency = 1\n\
         [competition.game]\n{game}\n[competition.time_control]\ntime_ms = 30000\n\
         [[reference]]\nname = \"random\"\nbuiltin = \"random\"\n\
         [[reference]]\nname = \"other\"\n{other}\n"
    )
}

/// Starts a contest of `game` whose organiser starts a competition of its reference bots (through the
/// API); returns the server, the competition's id and the temporary folder.
fn references_competition(name: &str, game: &str, other: &str) -> (Server, u64, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let contest = common::write_config(
        dir.path(),
        "contest",
        &references_contest(name, game, other),
    );
    let (_, token) = add_user_token(&contest, &results, None, "organiser", true);
    let server = Server::start(&contest, &results, None, dir.path());
    let auth = format!("Bearer {token}");
    let answer = request(
        server.addr,
        "POST",
        "/api/competitions",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        b"{\"kind\":\"test\"}",
    )
    .unwrap();
    assert_eq!(answer.status, 201, "{}\n{}", answer.text(), server.log());
    let id = answer.json().unwrap()["id"].as_u64().unwrap();
    (server, id, dir)
}

/// Waits for competition `id` to finish; its games.
fn finished_games(server: &Server, id: u64, dir: &Path) -> Vec<GameRecord> {
    let api = format!("/api/competitions/{id}");
    poll(
        "the competition to finish",
        || (server.get_json(&api)["status"] == "finished").then_some(()),
        || format!("{}\n{}", server.get_json(&api), server.log()),
    );
    let answer = server.get(&format!("/competitions/{id}/games.csv"));
    let path = dir.join("games.csv");
    std::fs::write(&path, answer.text()).unwrap();
    arena::results::read_games_csv(&path).unwrap()
}

/// Kalah on the site: the live board draws the game in progress (the board, both players with their
/// sides and clocks, who moves), then every finished game's row opens its replay page, stepped through
/// ply by ply, extra moves included. No page logs an error.
#[test]
fn a_kalah_competition_on_the_live_board_and_its_replay_pages() {
    let Some(chromium) = browser_or_skip() else {
        return;
    };
    // The other bot waits 400 ms before each move: a game lasts about 10 s, long enough to be watched
    // even when Chromium starts slowly beside other tests (at 150 ms both games could end first).
    let (mut server, id, dir) = references_competition(
        "kalah-contest",
        "name = \"kalah\"",
        "builtin = \"faulty\"\nargs = [\"--delay-ms\", \"400\"]",
    );
    let browser = launch(chromium, &dir.path().join("profile"));
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    let console = Console::watch(&tab);
    open(&tab, &server, &format!("/competitions/{id}/live"));
    // A game in progress, drawn: two sides with a clock each, one of them to move, the pits.
    let card = poll(
        "a game on the live board",
        || {
            eval_string(
                &tab,
                "(() => { const g = document.querySelector('#live .live-game'); if (!g || !g.querySelector('svg .piece')) return null; \
                 return JSON.stringify({sides: Array.from(g.querySelectorAll('.side')).map(s => [s.dataset.side, s.querySelector('.clock').textContent]), \
                 moving: g.querySelectorAll('.side.to-move').length, pits: g.querySelectorAll('svg .piece[data-kind=pit]').length, \
                 stores: g.querySelectorAll('svg .piece[data-kind=store]').length}); })()",
            )
        },
        || page_text(&tab),
    );
    let card: serde_json::Value = serde_json::from_str(&card).unwrap();
    assert_eq!(card["pits"], 12, "{card}");
    assert_eq!(card["stores"], 2, "{card}");
    assert_eq!(card["moving"], 1, "{card}");
    let sides = card["sides"].as_array().unwrap();
    assert_eq!(
        (sides[0][0].as_str(), sides[1][0].as_str()),
        (Some("first"), Some("second")),
        "{card}"
    );
    for side in sides {
        let clock = side[1].as_str().unwrap();
        assert!(
            clock.contains(':') && clock.contains('.'),
            "a clock m:ss.s: {card}"
        );
    }
    let records = finished_games(&server, id, dir.path());
    assert_eq!(records.len(), 2);
    for r in &records {
        let movers = r.movers();
        if movers.windows(2).any(|w| w[0] == w[1]) {
            eprintln!("{}: {} plies, with extra moves", r.id, r.moves.len());
        }
        replay_page(&tab, &server, id, r);
    }
    console.assert_no_errors();
    assert!(server.stop().success(), "{}", server.log());
}

/// Dots on the site: a finished game's replay page shows its captures and bases ply by ply.
#[test]
fn a_dots_competition_s_games_replay_on_their_pages() {
    let Some(chromium) = browser_or_skip() else {
        return;
    };
    let (mut server, id, dir) = references_competition(
        "dots-contest",
        "name = \"dots\"\nwidth = 8\nheight = 8\nstart = \"cross\"",
        "builtin = \"alphabeta\"\noptions = { depth = 2 }",
    );
    let browser = launch(chromium, &dir.path().join("profile"));
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    let console = Console::watch(&tab);
    let records = finished_games(&server, id, dir.path());
    let r = records.iter().max_by_key(|r| r.moves.len()).unwrap();
    replay_page(&tab, &server, id, r);
    console.assert_no_errors();
    assert!(server.stop().success(), "{}", server.log());
}
