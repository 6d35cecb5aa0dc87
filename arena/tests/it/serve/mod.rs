//! End to end through the `arena` binary and a real SQLite file: `arena serve` with accounts, uploads
//! (good, broken, hostile), checks, a scheduled and an organiser-started competition, standings,
//! downloads, forged requests, and SIGKILL at the worst moments.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arena::serve::client::{multipart, Answer};

/// [`arena::serve::client::request`], which must reach the server.
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    arena::serve::client::request(addr, method, path, headers, body).unwrap()
}
use serde_json::{json, Value};

use arena::bench::serve::SH_BOT;

/// A bot that dies at once: its check fails.
/// Names its own path on stderr (as a traceback would): the check log must not show the server's.
const CRASHING_BOT: &str = "#!/bin/sh\necho \"cannot start: out of luck in $0\" >&2\nexit 3\n";

/// Answers `go` with `move 4` instead of `bestmove 4`: lost on time, and its page names the mistake.
const MOVE_BOT: &str = "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    \
     ugi) echo ugiok ;;\n    isready) echo readyok ;;\n    go) echo 'move 4' ;;\n    quit) exit 0 ;;\n  \
     esac\ndone\n";

/// The database a test's server runs on: the SQLite file beside its data (the default), or a fresh
/// database on the PostgreSQL server of `ARENA_TEST_POSTGRES` (a URL such as
/// `postgres://postgres@127.0.0.1:55432/postgres`; `.ci/run` starts a throw-away cluster and sets it).
#[derive(Clone, Copy)]
enum Database {
    Sqlite,
    Postgres,
}

/// Runs a scenario `fn name(db: Database)` as two tests, `name::sqlite` and `name::postgres`.
macro_rules! on_both_databases {
    ($name:ident) => {
        mod $name {
            #[test]
            fn sqlite() {
                super::$name(super::Database::Sqlite)
            }
            #[test]
            fn postgres() {
                super::$name(super::Database::Postgres)
            }
        }
    };
}

// After the macro, which it uses.
mod security;

impl Database {
    /// Readies the database of the test folder `dir`: for PostgreSQL, creates a database of its own
    /// and writes its URL to `dir/db-url` (read by [`serve`]). `false`: no PostgreSQL here (skipped
    /// with a printed reason; in CI, where `.ci/run` provides one, that fails instead).
    fn prepare(self, dir: &Path) -> bool {
        let Database::Postgres = self else {
            return true;
        };
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let name = format!(
            "arena_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let Some((url, _)) = crate::common::fresh_postgres(&name) else {
            return false;
        };
        std::fs::write(dir.join("db-url"), url).unwrap();
        true
    }
}

/// `arena serve CONTEST` run in `dir`, on the database [`Database::prepare`] chose for it.
fn serve(dir: &Path, contest: &Path) -> Command {
    let mut cmd = crate::common::arena();
    cmd.current_dir(dir)
        .args(["serve", contest.to_str().unwrap()]);
    if let Ok(url) = std::fs::read_to_string(dir.join("db-url")) {
        cmd.args(["--db", url.trim()]);
    }
    cmd
}

/// `arena worker CONTEST --name NAME` run in `dir` on the test's database (its log in
/// `dir/worker-NAME.log`), killed with SIGKILL when dropped.
struct WorkerProcess(Child);

impl WorkerProcess {
    fn start(dir: &Path, contest: &Path, name: &str) -> WorkerProcess {
        let log = std::fs::File::create(dir.join(format!("worker-{name}.log"))).unwrap();
        let mut cmd = crate::common::arena();
        cmd.current_dir(dir).args([
            "worker",
            contest.to_str().unwrap(),
            "--name",
            name,
            "--slots",
            "1",
        ]);
        if let Ok(url) = std::fs::read_to_string(dir.join("db-url")) {
            cmd.args(["--db", url.trim()]);
        }
        WorkerProcess(cmd.stdout(Stdio::null()).stderr(log).spawn().unwrap())
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The test contest: Connect Four, `references` as `[[reference]]` tables, games_per_pair 2, 1 MiB
/// uploads, and `extra` top-level lines.
fn contest(dir: &Path, references: &str, games_per_pair: u32, extra: &str) -> PathBuf {
    let text = format!(
        "name = \"c4test\"\n{extra}\n[check]\ngames = 2\n[upload]\nmax_mb = 1\nmax_unpacked_mb = 1\nmax_files = 100\n\
         [competition]\nformat = \"round-robin\"\ngames_per_pair = {games_per_pair}\nopening_plies = 2\nconcurrency = 2\n\
         [competition.game]\nname = \"connect4\"\n[competition.time_control]\ntime_ms = 5000\ninc_ms = 50\n{references}"
    );
    let path = dir.join("contest.toml");
    std::fs::write(&path, text).unwrap();
    path
}

const RANDOM: &str = "[[reference]]\nname = \"random\"\nbuiltin = \"random\"\n";

/// `arena serve --add-user`: the password and the API token.
fn add_user(dir: &Path, contest: &Path, name: &str, admin: bool) -> (String, String) {
    let mut cmd = serve(dir, contest);
    cmd.args(["--add-user", name]);
    if admin {
        cmd.arg("--admin");
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let password = text
        .split("password: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .unwrap()
        .to_string();
    let token = text.lines().last().unwrap().to_string();
    assert_eq!(token.len(), 64, "{text}");
    (password, token)
}

/// A running `arena serve`, killed with SIGKILL when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(dir: &Path, contest: &Path) -> Server {
        Server::start_with(dir, contest, &[])
    }

    /// `arena serve` with `args` added (`--slots 0`: only `arena worker` processes play).
    fn start_with(dir: &Path, contest: &Path, args: &[&str]) -> Server {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("serve.log"))
            .unwrap();
        let mut child = serve(dir, contest)
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("the server ended: {}", log_of(dir)))
                .unwrap();
            if let Some(a) = line.strip_prefix("listening on http://") {
                break a.trim_end_matches('/').parse().unwrap();
            }
        };
        Server { child, addr }
    }

    fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        request(self.addr, "GET", path, &headers, b"")
    }

    fn post_json(&self, path: &str, token: &str, body: &str) -> Answer {
        let auth = format!("Bearer {token}");
        request(
            self.addr,
            "POST",
            path,
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            body.as_bytes(),
        )
    }

    /// Posts the urlencoded `body` as a form with the cookie header `cookie` (`name=value`).
    fn form(&self, path: &str, cookie: &str, body: impl AsRef<str>) -> Answer {
        request(
            self.addr,
            "POST",
            path,
            &[
                ("Cookie", cookie),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            body.as_ref().as_bytes(),
        )
    }

    fn upload(&self, token: &str, name: &str, file_name: &str, bytes: &[u8]) -> Answer {
        let (ctype, body) = multipart(&[("name", name)], Some(("file", file_name, bytes)));
        let auth = format!("Bearer {token}");
        request(
            self.addr,
            "POST",
            "/api/bots",
            &[("Authorization", &auth), ("Content-Type", &ctype)],
            &body,
        )
    }

    /// Polls `GET path` until `done` holds of its JSON (at most 3 minutes).
    fn wait_for(&self, path: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let a = self.get(path, None);
            assert_eq!(a.status, 200, "{path}: {}", a.text());
            let v = a.json().unwrap();
            if done(&v) {
                return v;
            }
            assert!(
                start.elapsed() < Duration::from_secs(180),
                "{path} never got there: {v}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A game of competition `id` on the live board once it is past its second move.
    fn live_game(&self, id: i64) -> Value {
        let past_two = |g: &Value| g["moves"].as_array().unwrap().len() > 2;
        let live = self.wait_for(&format!("/api/competitions/{id}/live"), |v| {
            v.as_array().is_some_and(|l| l.iter().any(past_two))
        });
        let game = live.as_array().unwrap().iter().find(|g| past_two(g));
        game.unwrap().clone()
    }

    /// A test competition created by the organiser `org`: its id and its `games.csv` (contest
    /// `c4test` in `dir`).
    fn new_competition(&self, org: &str, dir: &Path) -> (i64, PathBuf) {
        let id = self
            .post_json("/api/competitions", org, "{}")
            .json()
            .unwrap()["id"]
            .as_i64()
            .unwrap();
        let csv = dir.join(format!(
            "results/c4test/competitions/competition-{id}/games.csv"
        ));
        (id, csv)
    }

    /// The first upload: the sh bot as `shbot` by `user`, once its check has passed (bot 1).
    fn upload_first_bot(&self, user: &str) {
        let up = self.upload(user, "shbot", "a.sh", SH_BOT.as_bytes());
        assert_eq!(up.status, 201, "{}", up.text());
        self.wait_for("/api/bots/1", |v| v["check"] == "passed");
    }

    fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn log_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default()
}

/// The test's folder with its database ready ([`Database::prepare`]); `None`, the reason printed,
/// where bubblewrap cannot run or there is no PostgreSQL.
fn test_folder(db: Database) -> Option<tempfile::TempDir> {
    if skip_without_bwrap() {
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    db.prepare(tmp.path()).then_some(tmp)
}

fn skip_without_bwrap() -> bool {
    let ok = Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!(
            "skipped: bubblewrap cannot run here (uploads are sandboxed); .ci/run installs it"
        );
    }
    !ok
}

/// A gzipped tar of `entries` (path, bytes, mode), written raw so that a path may hold `..`.
fn tar_gz(entries: &[(&str, &[u8], u32)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, bytes, mode) in entries {
        let mut header = tar::Header::new_gnu();
        let name = &mut header.as_old_mut().name;
        name[..path.len()].copy_from_slice(path.as_bytes());
        header.set_size(bytes.len() as u64);
        header.set_mode(*mode);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        builder.append(&header, *bytes).unwrap();
    }
    let tar = builder.into_inner().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

/// A zip holding one file of `size` zero bytes, deflated to a few KiB.
fn zip_bomb(size: usize) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("arena-bot.toml", options).unwrap();
    zip.write_all(b"command = \"./bot\"\n").unwrap();
    zip.start_file("bot", options).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..size >> 20 {
        zip.write_all(&zeros).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

on_both_databases!(uploads_checks_an_organisers_competition_standings_and_downloads);
fn uploads_checks_an_organisers_competition_standings_and_downloads(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    let (_, org) = add_user(dir, &contest, "org", true);
    let (alice_password, alice) = add_user(dir, &contest, "alice", false);
    let (_, bob) = add_user(dir, &contest, "bob", false);
    let server = Server::start(dir, &contest);
    let data = dir.join("results/c4test");

    let health = server.get("/api/health", None);
    assert_eq!(
        (health.status, health.json().unwrap()["status"].clone()),
        (200, json!("ok"))
    );

    // A good bot and a broken one.
    let a = server.upload(&alice, "shbot", "shbot.sh", SH_BOT.as_bytes());
    assert_eq!(a.status, 201, "{}", a.text());
    assert_eq!(
        a.json().unwrap(),
        json!({"id": 1, "version": 1, "check": "pending"})
    );
    // The example of docs/server.md, packed as its comment says.
    let mut tar = tar::Builder::new(Vec::new());
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/upload-example");
    tar.append_dir_all(".", &example).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar.into_inner().unwrap()).unwrap();
    let packed = server.upload(&bob, "packed", "shbot.tar.gz", &gz.finish().unwrap());
    assert_eq!(packed.status, 201, "{}", packed.text());
    let b = server.upload(&alice, "crasher", "crasher.sh", CRASHING_BOT.as_bytes());
    assert_eq!(b.status, 201, "{}", b.text());
    let good = server.wait_for("/api/bots/1", |v| v["check"] != "pending");
    assert_eq!(good["check"], "passed", "{good}");
    assert_eq!(good["name"], "shbot");
    assert!(
        good["detail"].as_str().unwrap().contains("no forfeit"),
        "{good}"
    );
    let packed = server.wait_for("/api/bots/2", |v| v["check"] != "pending");
    assert_eq!(
        (
            packed["check"].as_str(),
            packed["versions"][0]["kind"].as_str()
        ),
        (Some("passed"), Some(".tar.gz")),
        "{packed}"
    );
    let bad = server.wait_for("/api/bots/3", |v| v["check"] != "pending");
    assert_eq!(bad["check"], "failed", "{bad}");
    assert!(
        bad["detail"].as_str().unwrap().contains("forfeited"),
        "{bad}"
    );
    // Its stderr reaches its author's log only, not the public verdict.
    assert!(!bad.to_string().contains("out of luck"), "{bad}");

    // The check's transcript and stderr: to the author only.
    let log = server.get("/api/bots/3/versions/1/log", Some(&alice));
    assert_eq!(log.status, 200, "{}", log.text());
    assert!(
        log.text().contains("cannot start: out of luck"),
        "{}",
        log.text()
    );
    assert_eq!(
        server.get("/api/bots/3/versions/1/log", Some(&bob)).status,
        403
    );
    assert_eq!(server.get("/api/bots/3/versions/1/log", None).status, 401);
    // Nothing of the server's folders: its report names its files from the contest's data folder.
    let root = std::fs::canonicalize(dir).unwrap();
    assert!(
        !log.text().contains(root.to_str().unwrap()) && !log.text().contains("results/c4test"),
        "{}",
        log.text()
    );
    assert!(
        log.text().contains("checks/crasher-v1/logs/"),
        "{}",
        log.text()
    );
    let page = server.get("/bots/3/versions/1/log", None);
    assert_eq!(page.status, 403, "{}", page.text());
    assert!(!page.text().contains("out of luck"));

    // Refused: each a clear error, nothing stored.
    let store = count(&data.join("store"));
    let refused: Vec<(Answer, u16, &str)> = vec![
        (
            server.upload(
                &alice,
                "evil",
                "evil.tar.gz",
                &tar_gz(&[
                    ("arena-bot.toml", b"command = \"./bot\"\n", 0o644),
                    ("../escaped", b"#!/bin/sh\n", 0o755),
                ]),
            ),
            400,
            "..",
        ),
        (
            // An option whose value would end the setoption line: refused at upload, not at the check.
            server.upload(
                &alice,
                "injector",
                "injector.tar.gz",
                &tar_gz(&[
                    (
                        "arena-bot.toml",
                        b"command = \"./bot\"\noptions = { book = \"x\\nquit\" }\n",
                        0o644,
                    ),
                    ("bot", SH_BOT.as_bytes(), 0o755),
                ]),
            ),
            400,
            "holds a control character",
        ),
        (
            server.upload(&alice, "bomb", "bomb.zip", &zip_bomb(8 << 20)),
            400,
            "unpacks to more than",
        ),
        (
            server.upload(&alice, "big", "big", &vec![b'#'; 1_200_000]),
            413,
            "1 MiB",
        ),
        (
            server.upload(&alice, "binary", "blob.bin", b"\x00\x01\x02"),
            400,
            "not an executable",
        ),
        (
            // A Python script without its `#!` line: the refusal says what to add.
            server.upload(&alice, "script", "bot.py", b"print('4')\n"),
            400,
            "add `#!/usr/bin/env python3` as its first line",
        ),
        (
            server.upload(&alice, "random", "r.sh", SH_BOT.as_bytes()),
            409,
            "reference bot",
        ),
        (
            server.upload(&bob, "shbot", "a.sh", SH_BOT.as_bytes()),
            409,
            "another participant",
        ),
        (
            server.upload(&alice, "bad name!", "a.sh", SH_BOT.as_bytes()),
            400,
            "letters",
        ),
        (
            server.upload("0000", "x", "a.sh", SH_BOT.as_bytes()),
            401,
            "unknown API token",
        ),
        (
            server.post_json("/api/competitions", &org, "{\"kind\":"),
            400,
            "malformed JSON",
        ),
        (
            server.post_json("/api/competitions", &org, "{\"kind\":\"semi\"}"),
            400,
            "test or the final",
        ),
        (
            server.post_json("/api/competitions", &alice, "{}"),
            403,
            "organiser",
        ),
        (
            server.post_json("/api/competitions", "", "{}"),
            401,
            "Bearer <token>",
        ),
    ];
    for (answer, status, says) in &refused {
        assert_eq!(answer.status, *status, "{}", answer.text());
        assert!(
            answer.text().contains(says),
            "{says:?} not in {}",
            answer.text()
        );
        if answer.status != 413 {
            assert!(
                answer.json().unwrap()["error"].is_string(),
                "{}",
                answer.text()
            );
        }
    }
    assert_eq!(
        count(&data.join("store")),
        store,
        "a refused upload left a stored folder"
    );
    assert_eq!(
        count(&data.join("incoming")),
        0,
        "a refused upload left a file"
    );
    let bots = server.get("/api/bots", None).json().unwrap();
    assert_eq!(bots.as_array().unwrap().len(), 3, "{bots}");

    // The organiser's final: the passing bot and the reference bot.
    let c = server.post_json("/api/competitions", &org, "{\"kind\":\"final\"}");
    assert_eq!(c.status, 201, "{}", c.text());
    let id = c.json().unwrap()["id"].as_i64().unwrap();
    let done = server.wait_for(&format!("/api/competitions/{id}"), |v| {
        v["status"] == "finished"
    });
    let standings = done["standings"].as_array().unwrap();
    let mut names: Vec<&str> = standings
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["packed", "random", "shbot"], "{done}");
    assert_eq!(done["games"], 6);
    for row in standings {
        assert_eq!(row["games"], 4, "{row}");
        assert!(row["elo"].is_number(), "{row}");
    }
    let points: f64 = standings
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 6.0);
    // One version number everywhere: the entry's is the bot page's, and its log answers.
    let shbot = done["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "shbot")
        .unwrap();
    assert_eq!(
        (&shbot["version"], shbot.get("version_id")),
        (&json!(1), None),
        "{shbot}"
    );
    let log = server.get(
        &format!("/api/bots/{}/versions/1/log", shbot["bot_id"]),
        Some(&alice),
    );
    assert_eq!(log.status, 200, "{}", log.text());
    // The report: no inline script or style but its own, by their hashes.
    let report = server.get(&format!("/competitions/{id}/report.html"), None);
    let policy = report
        .header("content-security-policy")
        .unwrap()
        .to_string();
    assert!(
        policy.contains("script-src 'sha256-") && !policy.contains("unsafe-inline"),
        "{policy}"
    );
    assert!(!report.text().contains("arena export"), "{}", report.text());

    // The page, the downloads, and the folder as an ordinary results folder.
    let page = server.get(&format!("/competitions/{id}"), None);
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert!(page.text().contains("shbot") && page.text().contains("finished"));
    let csv = server.get(&format!("/competitions/{id}/games.csv"), None);
    assert_eq!(csv.text().lines().count(), 7, "{}", csv.text());
    let pgn = server.get(&format!("/competitions/{id}/download/pgn"), None);
    assert!(pgn.text().matches("[Event ").count() == 6, "{}", pgn.text());
    let pons = server.get(&format!("/competitions/{id}/download/pons"), None);
    assert_eq!(pons.text().lines().count(), 6, "{}", pons.text());
    assert_eq!(
        server
            .get(&format!("/competitions/{id}/download/sgf"), None)
            .status,
        400
    );
    let report = server.get(&format!("/competitions/{id}/report.html"), None);
    assert!(report.text().contains("shbot"));
    // Every game row opens the game's replay page, drawn by the board renderer from its pictures.
    let first_game = csv
        .text()
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();
    assert!(
        page.text()
            .contains(&format!("href=\"/competitions/{id}/games/{first_game}\"")),
        "{}",
        page.text()
    );
    let replay = server.get(&format!("/competitions/{id}/games/{first_game}"), None);
    assert_eq!(replay.status, 200, "{}", replay.text());
    for part in [
        "id=\"replay\"",
        "src=\"/assets/board.js\"",
        "src=\"/assets/viewer.js\"",
        "id=\"board\"",
    ] {
        assert!(replay.text().contains(part), "{part}: {}", replay.text());
    }
    let g = server
        .get(&format!("/api/competitions/{id}/games/{first_game}"), None)
        .json()
        .unwrap();
    let plies = g["moves"].as_array().unwrap().len();
    assert_eq!(
        g["replay"]["steps"].as_array().unwrap().len(),
        plies + 1,
        "{g}"
    );
    assert_eq!(g["replay"]["board"]["layout"], "grid", "{g}");
    assert_eq!(g["game"], "connect4 7 6");
    let missing = server.get(&format!("/api/competitions/{id}/games/g9999"), None);
    assert_eq!(missing.status, 404);
    assert!(missing.json().unwrap()["error"].is_string());
    assert_eq!(
        server
            .get(&format!("/competitions/{id}/games/g9999"), None)
            .status,
        404
    );
    for asset in ["board.js", "viewer.js"] {
        let js = server.get(&format!("/assets/{asset}"), None);
        assert_eq!(js.status, 200);
        assert!(js
            .header("content-type")
            .unwrap_or_default()
            .starts_with("text/javascript"));
    }
    assert_eq!(server.get("/assets/other.js", None).status, 404);
    let folder = data.join(format!("competitions/competition-{id}"));
    let out = crate::common::arena()
        .args(["ratings", folder.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("shbot"));

    // The bot's page: public verdicts, its stderr only to its author (not even a link for others).
    let bot_page = server.get("/bots/3", None);
    assert!(bot_page.text().contains("failed"));
    assert!(!bot_page.text().contains("/versions/1/log"));
    // Its check against each reference bot: 2 games against random, both forfeited.
    assert!(
        bot_page.text().contains(
            "<td>random</td><td class=\"n\">2</td><td class=\"n\">0</td><td class=\"n\">2</td>"
        ),
        "{}",
        bot_page.text()
    );

    // A bot that answers in another protocol's way: its author's page says what it likely does
    // wrong, as `arena probe` does.
    let mute = server.upload(&alice, "mover", "mover.sh", MOVE_BOT.as_bytes());
    assert_eq!(mute.status, 201, "{}", mute.text());
    let id = mute.json().unwrap()["id"].as_i64().unwrap();
    let verdict = server.wait_for(&format!("/api/bots/{id}"), |v| v["check"] != "pending");
    assert_eq!(verdict["check"], "failed", "{verdict}");
    let jar = format!(
        "arena_session={}",
        log_in(&server, "alice", &alice_password)
    );
    let page = request(
        server.addr,
        "GET",
        &format!("/bots/{id}"),
        &[("Cookie", &jar)],
        b"",
    );
    assert!(
        page.text().contains("Likely mistake")
            && page
                .text()
                .contains("a UGI bot answers `go` with `bestmove 4`"),
        "{}",
        page.text()
    );
    let public = server.get(&format!("/bots/{id}"), None).text();
    assert!(!public.contains("Likely mistake"), "{public}");
}

/// Logs in through the form: the session cookie.
fn log_in(server: &Server, name: &str, password: &str) -> String {
    let form = server.get("/login", None);
    let cookie = form.cookie("arena_form").expect("the form's cookie");
    let csrf = hidden_csrf(&form.text());
    assert_eq!(csrf, cookie);
    let body = format!("name={name}&password={password}&csrf={csrf}");
    let a = server.form("/login", &format!("arena_form={cookie}"), body);
    assert_eq!(a.status, 303, "{}", a.text());
    a.cookie("arena_session").expect("a session cookie")
}

fn hidden_csrf(html: &str) -> String {
    html.split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("a csrf field")
        .to_string()
}

on_both_databases!(forms_log_in_upload_and_refuse_forged_requests);
fn forms_log_in_upload_and_refuse_forged_requests(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "registration = true");
    let (org_password, _) = add_user(dir, &contest, "org", true);
    let (password, _) = add_user(dir, &contest, "alice", false);
    let server = Server::start(dir, &contest);

    // A forged login (no token, another token) is refused before the password is looked at.
    let form = server.get("/login", None);
    let cookie = form.cookie("arena_form").unwrap();
    for (csrf, cookie) in [
        ("", cookie.as_str()),
        ("f00d", cookie.as_str()),
        (cookie.as_str(), ""),
    ] {
        let a = server.form(
            "/login",
            &format!("arena_form={cookie}"),
            format!("name=alice&password={password}&csrf={csrf}"),
        );
        assert_eq!(a.status, 403, "{}", a.text());
        assert!(a.text().contains("CSRF"));
        assert!(a.cookie("arena_session").is_none());
    }
    let wrong = server.form(
        "/login",
        &format!("arena_form={cookie}"),
        format!("name=alice&password=nope&csrf={cookie}"),
    );
    assert_eq!(wrong.status, 401);

    let session = log_in(&server, "alice", &password);
    let jar = format!("arena_session={session}");
    let upload_form = request(server.addr, "GET", "/bots/new", &[("Cookie", &jar)], b"");
    assert_eq!(upload_form.status, 200);
    let csrf = hidden_csrf(&upload_form.text());

    // An upload without the session's token stores nothing.
    let (ctype, body) = multipart(
        &[("csrf", "forged"), ("name", "shbot")],
        Some(("file", "a.sh", SH_BOT.as_bytes())),
    );
    let a = request(
        server.addr,
        "POST",
        "/bots",
        &[("Cookie", &jar), ("Content-Type", &ctype)],
        &body,
    );
    assert_eq!(a.status, 403, "{}", a.text());
    assert_eq!(server.get("/api/bots", None).json().unwrap(), json!([]));
    // Without the session cookie (a cross-site form would carry none: SameSite=Strict).
    let (ctype, body) = multipart(
        &[("csrf", &csrf), ("name", "shbot")],
        Some(("file", "a.sh", SH_BOT.as_bytes())),
    );
    let a = request(
        server.addr,
        "POST",
        "/bots",
        &[("Content-Type", &ctype)],
        &body,
    );
    assert_eq!(a.status, 403, "{}", a.text());
    assert_eq!(server.get("/api/bots", None).json().unwrap(), json!([]));

    // With it: stored, and the page shows the verdict.
    let a = request(
        server.addr,
        "POST",
        "/bots",
        &[("Cookie", &jar), ("Content-Type", &ctype)],
        &body,
    );
    assert_eq!(a.status, 303, "{}", a.text());
    assert_eq!(a.header("location"), Some("/bots/1"));
    server.wait_for("/api/bots/1", |v| v["check"] == "passed");
    let page = request(server.addr, "GET", "/bots/1", &[("Cookie", &jar)], b"");
    assert!(page.text().contains("passed") && page.text().contains("/versions/1/log"));

    // A participant cannot start a competition; the organiser's form can, with its token only.
    let home = request(server.addr, "GET", "/", &[("Cookie", &jar)], b"");
    let a = server.form(
        "/competitions",
        &jar,
        format!("kind=test&csrf={}", hidden_csrf(&home.text())),
    );
    assert_eq!(a.status, 403, "{}", a.text());
    let org = format!("arena_session={}", log_in(&server, "org", &org_password));
    let forged = server.form(
        "/competitions",
        &org,
        format!("kind=test&csrf={}", hidden_csrf(&home.text())),
    );
    assert_eq!(
        forged.status,
        403,
        "another session's token: {}",
        forged.text()
    );
    assert_eq!(
        server.get("/api/competitions", None).json().unwrap(),
        json!([])
    );
    let home = request(server.addr, "GET", "/", &[("Cookie", &org)], b"");
    let a = server.form(
        "/competitions",
        &org,
        format!("kind=test&csrf={}", hidden_csrf(&home.text())),
    );
    assert_eq!(a.status, 303, "{}", a.text());
    server.wait_for("/api/competitions/1", |v| v["status"] == "finished");

    // Registration, then logging out ends the session.
    let form = server.get("/register", None);
    let cookie = form.cookie("arena_form").unwrap();
    let a = server.form(
        "/register",
        &format!("arena_form={cookie}"),
        format!("name=carol&password=longenough&csrf={cookie}"),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let carol = format!("arena_session={}", a.cookie("arena_session").unwrap());
    // The welcome page's own Log out button carries the new session's token.
    let registered = a.text();
    let page = request(server.addr, "GET", "/", &[("Cookie", &carol)], b"");
    assert!(page.text().contains("carol"));
    let a = server.form(
        "/logout",
        &carol,
        format!("csrf={}", hidden_csrf(&registered)),
    );
    assert_eq!(a.status, 303);
    let page = request(server.addr, "GET", "/", &[("Cookie", &carol)], b"");
    assert!(!page.text().contains("carol") && page.text().contains("Log in"));
}

on_both_databases!(a_scheduled_test_competition_starts_by_itself);
fn a_scheduled_test_competition_starts_by_itself(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let two = format!("{RANDOM}[[reference]]\nname = \"random-b\"\nbuiltin = \"random\"\n");
    let contest = contest(dir, &two, 2, "[schedule]\ntest_every = \"1h\"\n");
    // `[schedule]` must come after top-level keys: move it to the end.
    let text = std::fs::read_to_string(&contest).unwrap();
    let text =
        text.replace("[schedule]\ntest_every = \"1h\"\n", "") + "[schedule]\ntest_every = \"1h\"\n";
    std::fs::write(&contest, text).unwrap();
    let (_, alice) = add_user(dir, &contest, "alice", false);
    let server = Server::start(dir, &contest);
    // No competition of the reference bots alone: the first waits for a participant's bot, which
    // brings it at once (the schedule is looked at every 5 s; give it two looks).
    std::thread::sleep(Duration::from_secs(11));
    assert_eq!(
        server.get("/api/competitions", None).json().unwrap(),
        json!([])
    );
    server.upload_first_bot(&alice);
    server.wait_for("/api/competitions", |v| {
        v.as_array().is_some_and(|l| !l.is_empty())
    });
    let c = server.wait_for("/api/competitions/1", |v| v["status"] == "finished");
    assert_eq!(c["kind"], "test");
    // Three bots, a game pair each.
    assert_eq!(c["games"], 6);
    // One server a contest: a second one on its data is refused.
    let second = serve(dir, contest.as_path())
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("in use by another `arena serve`"),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    if let Database::Postgres = db {
        // Nor one with a data folder of its own on the same PostgreSQL database: its advisory lock.
        let elsewhere = serve(dir, contest.as_path())
            .args(["--listen", "127.0.0.1:0", "--results"])
            .arg(dir.join("elsewhere"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&elsewhere.stderr);
        assert!(!elsewhere.status.success(), "{stderr}");
        assert!(
            stderr.contains("the database postgres://")
                && stderr.contains("is in use by another `arena serve`; stop it first"),
            "{stderr}"
        );
    }
    // Not again within the hour.
    assert_eq!(
        server
            .get("/api/competitions", None)
            .json()
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// Waits (2 minutes at most) until the file `csv` has `lines` lines: a header and `lines - 1` games.
fn wait_for_lines(csv: &Path, lines: usize, dir: &Path) {
    let start = Instant::now();
    while std::fs::read_to_string(csv).map_or(0, |t| t.lines().count()) < lines {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no game recorded: {}",
            log_of(dir)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A contest with a slow reference bot (40 ms a move), so a competition of it, `random` and one
/// upload (12 games) is still running seconds after it starts; its organiser's and a participant's
/// tokens.
fn slow_contest(dir: &Path) -> (PathBuf, String, String) {
    slow_contest_with(dir, 40, 4, "")
}

/// The contest of [`contest`] with the references `random` and `slow` (the faulty bot, `delay_ms` a
/// move), `games_per_pair` and `extra`, and the users `org` (organiser) and `alice`: the contest file
/// and the two API tokens.
fn slow_contest_with(
    dir: &Path,
    delay_ms: u32,
    games_per_pair: u32,
    extra: &str,
) -> (PathBuf, String, String) {
    let refs = format!(
        "{RANDOM}[[reference]]\nname = \"slow\"\nbuiltin = \"faulty\"\nargs = [\"--delay-ms\", \"{delay_ms}\"]\n"
    );
    let contest = contest(dir, &refs, games_per_pair, extra);
    let (_, org) = add_user(dir, &contest, "org", true);
    let (_, alice) = add_user(dir, &contest, "alice", false);
    (contest, org, alice)
}

on_both_databases!(sigkill_at_any_moment_loses_nothing);
fn sigkill_at_any_moment_loses_nothing(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let (contest, org, alice) = slow_contest(dir);
    let data = dir.join("results/c4test");

    // Killed while an upload is half sent: nothing recorded.
    let server = Server::start(dir, &contest);
    let (ctype, body) = multipart(
        &[("name", "shbot")],
        Some(("file", "a.sh", SH_BOT.as_bytes())),
    );
    let mut s = std::net::TcpStream::connect(server.addr).unwrap();
    write!(
        s,
        "POST /api/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {alice}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(&body[..body.len() - 40]).unwrap();
    s.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    server.kill9();
    drop(s);
    let server = Server::start(dir, &contest);
    assert_eq!(server.get("/api/bots", None).json().unwrap(), json!([]));
    assert_eq!(count(&data.join("incoming")), 0);

    // Killed right after an upload (its check pending or running): the check is played after the
    // restart.
    assert_eq!(
        server
            .upload(&alice, "shbot", "a.sh", SH_BOT.as_bytes())
            .status,
        201
    );
    server.kill9();
    let server = Server::start(dir, &contest);
    server.wait_for("/api/bots/1", |v| v["check"] == "passed");

    // Killed in the middle of a competition: resumed, every game recorded once.
    let id = server
        .post_json("/api/competitions", &org, "{}")
        .json()
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let csv = data.join(format!("competitions/competition-{id}/games.csv"));
    wait_for_lines(&csv, 3, dir);
    server.kill9();
    let before = std::fs::read_to_string(&csv).unwrap().lines().count() - 1;
    assert!(before < 12, "the competition ended before the kill");
    let server = Server::start(dir, &contest);
    let done = server.wait_for(&format!("/api/competitions/{id}"), |v| {
        v["status"] == "finished"
    });
    assert_eq!(done["games"], 12, "{done}");
    // Each game once (a row twice is refused by the reader), none lost.
    let games = arena::results::read_games_csv(&csv).unwrap();
    let mut ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), 12);
}

on_both_databases!(an_arena_workers_games_show_on_the_live_board);
fn an_arena_workers_games_show_on_the_live_board(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    // A reference bot of 300 ms a move: games of seconds, longer than the worker's LIVE_EVERY (2 s),
    // so that games are written while they are played.
    let (contest, org, alice) = slow_contest_with(dir, 300, 2, "");
    // The server plays nothing itself: an `arena worker` in a process of its own does, and writes
    // its games to the database for the live pages.
    let server = Server::start_with(dir, &contest, &["--slots", "0"]);
    let _worker = WorkerProcess::start(dir, &contest, "live");
    server.upload_first_bot(&alice);
    let (id, _) = server.new_competition(&org, dir);
    let path = format!("/api/competitions/{id}");
    let game = server.live_game(id);
    // A game of this competition in the middle: its players, its moves and the board after them.
    let gid = game["id"].as_str().unwrap();
    assert!(gid.starts_with('g'), "{game}");
    let players = [
        game["first"].as_str().unwrap(),
        game["second"].as_str().unwrap(),
    ];
    assert!(
        players.contains(&"shbot") || players.contains(&"slow"),
        "{game}"
    );
    assert!(
        game["board"].as_str().unwrap().lines().count() >= 6,
        "{game}"
    );
    // Its picture, both clocks and the side to move, for the graphical board.
    assert_eq!(game["frame"]["board"]["cols"], 7, "{game}");
    assert!(
        !game["frame"]["pieces"].as_array().unwrap().is_empty(),
        "{game}"
    );
    assert!(
        game["clocks_ms"][0].is_u64() && game["clocks_ms"][1].is_u64(),
        "{game}"
    );
    assert!(game["to_move"].is_string(), "{game}");
    let page = server.get(&format!("/competitions/{id}/live"), None);
    assert!(page.text().contains(&format!("{gid}: ")), "{}", page.text());
    assert!(page.text().contains("id=\"live\""), "{}", page.text());
    // Once the competition is over, nothing is left on the board.
    server.wait_for(&path, |v| v["status"] == "finished");
    assert_eq!(
        server.get(&format!("{path}/live"), None).json().unwrap(),
        json!([])
    );
}

on_both_databases!(the_organiser_pauses_resumes_disqualifies_and_cancels_and_games_show_live);
fn the_organiser_pauses_resumes_disqualifies_and_cancels_and_games_show_live(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let (contest, org, alice) = slow_contest(dir);
    let server = Server::start(dir, &contest);
    server.upload_first_bot(&alice);
    let (id, _) = server.new_competition(&org, dir);
    let path = format!("/api/competitions/{id}");

    // A game on the live board, then paused: the board empties, the status stays.
    let live = server.wait_for(&format!("{path}/live"), |v| {
        v.as_array()
            .is_some_and(|l| l.iter().any(|g| g["moves"].as_array().unwrap().len() > 2))
    });
    let game = &live.as_array().unwrap()[0];
    assert!(
        game["board"].as_str().unwrap().lines().count() >= 6,
        "{game}"
    );
    let page = server.get(&format!("/competitions/{id}/live"), None);
    assert!(page.text().contains("ply"), "{}", page.text());
    assert_eq!(
        server.post_json(&format!("{path}/resume"), &org, "").status,
        409
    );
    let paused = server.post_json(&format!("{path}/pause"), &org, "");
    assert_eq!(paused.status, 200, "{}", paused.text());
    assert_eq!(paused.json().unwrap()["status"], "paused");
    server.wait_for(&format!("{path}/live"), |v| v == &json!([]));
    let games = server.get(&path, None).json().unwrap()["games"]
        .as_i64()
        .unwrap();
    assert!(games < 12, "{games}");
    assert_eq!(server.get(&path, None).json().unwrap()["status"], "paused");
    assert_eq!(
        server
            .post_json(&format!("{path}/pause"), &alice, "")
            .status,
        403
    );

    // Resumed: every game, once.
    assert_eq!(
        server
            .post_json(&format!("{path}/resume"), &org, "")
            .json()
            .unwrap()["status"],
        "running"
    );
    let done = server.wait_for(&path, |v| v["status"] == "finished");
    assert_eq!(done["games"], 12);

    // Disqualified, with a reason (none is refused): its games leave the standings.
    let d = server.post_json("/api/bots/1/disqualify", &org, "{\"disqualified\": true}");
    assert_eq!(d.status, 400, "{}", d.text());
    assert!(d.text().contains("give a reason"), "{}", d.text());
    let d = server.post_json(
        "/api/bots/1/disqualify",
        &org,
        "{\"disqualified\": true, \"reason\": \"copied another bot\"}",
    );
    assert_eq!(d.status, 200, "{}", d.text());
    assert_eq!(
        server.get("/api/bots/1", None).json().unwrap()["disqualified_reason"],
        "copied another bot"
    );
    let page = server.get(&format!("/competitions/{id}"), None).text();
    assert!(
        page.contains("(disqualified: copied another bot)"),
        "{page}"
    );
    let after = server.get(&path, None).json().unwrap();
    let bots: Vec<&str> = after["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert!(!bots.contains(&"shbot") && bots.len() == 2, "{after}");
    assert_eq!(after["games"], 4);
    assert_eq!(
        server.post_json(&format!("{path}/rerate"), &org, "").status,
        200
    );
    assert!(std::fs::read_to_string(dir.join(format!(
        "results/c4test/competitions/competition-{id}/standings.csv"
    )))
    .is_ok_and(|t| !t.contains("shbot")));
    assert_eq!(
        server.post_json(&format!("{path}/cancel"), &org, "").status,
        409
    );
    assert_eq!(
        server.post_json(&format!("{path}/fly"), &org, "").status,
        404
    );

    // A new competition leaves the disqualified bot out; cancelled, it stops.
    let next = server
        .post_json("/api/competitions", &org, "{}")
        .json()
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let entries = server
        .get(&format!("/api/competitions/{next}"), None)
        .json()
        .unwrap()["entries"]
        .clone();
    assert!(!entries.to_string().contains("shbot"), "{entries}");
    let c = server.post_json(
        &format!("/api/competitions/{next}/cancel"),
        &org,
        "{\"reason\": \"a rule changed\"}",
    );
    assert_eq!(c.json().unwrap()["status"], "cancelled", "{}", c.text());
    let page = server.get(&format!("/competitions/{next}"), None).text();
    assert!(
        page.contains("Cancelled: cancelled by the organiser: a rule changed"),
        "{page}"
    );
}

on_both_databases!(a_competition_that_cannot_resume_waits_paused_with_the_reason);
fn a_competition_that_cannot_resume_waits_paused_with_the_reason(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let (contest, org, _) = slow_contest(dir);
    let server = Server::start(dir, &contest);
    let (id, csv) = server.new_competition(&org, dir);
    wait_for_lines(&csv, 2, dir);
    server.kill9();
    // The organiser changes the time control: the recorded games were played under another.
    let text = std::fs::read_to_string(&contest).unwrap();
    std::fs::write(&contest, text.replace("time_ms = 5000", "time_ms = 6000")).unwrap();
    let server = Server::start(dir, &contest);
    let c = server.wait_for(&format!("/api/competitions/{id}"), |v| {
        v["status"] == "paused"
    });
    let detail = c["detail"].as_str().unwrap();
    assert!(detail.contains("6000"), "{c}");
    let page = server.get(&format!("/competitions/{id}"), None).text();
    assert!(
        page.contains("Stopped: ") && page.contains("6000"),
        "{page}"
    );
}

/// One server a PostgreSQL database: the advisory lock refuses a second one, is taken again after its
/// connection was killed (as by a PostgreSQL restart), and when another server took it meanwhile, the
/// first is told to stop.
#[test]
fn the_server_lock_is_taken_again_after_a_lost_connection_and_lost_to_another() {
    use arena::serve::db::Db;
    let tmp = tempfile::tempdir().unwrap();
    if !Database::Postgres.prepare(tmp.path()) {
        return;
    }
    let url = std::fs::read_to_string(tmp.path().join("db-url")).unwrap();
    let url = url.trim().to_string();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let db = Db::connect(&url).await.unwrap();
        let mut lock = db.lock_server().await.unwrap().expect("a free database");
        assert!(db.lock_server().await.unwrap().is_none(), "a second server");
        assert_eq!(lock.check().await, None);
        // Kills the session holding the lock (classid, objid: the key's high and low 32 bits) and
        // waits until the lock is free.
        let mut admin = sqlx::PgConnection::connect(&url).await.unwrap();
        async fn kill(admin: &mut sqlx::PgConnection) -> u64 {
            sqlx::query(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' \
                 AND classid = 97 AND objid = 1919250017 AND database = \
                 (SELECT oid FROM pg_database WHERE datname = current_database())",
            )
            .execute(admin)
            .await
            .unwrap()
            .rows_affected()
        }
        let free = |db: Db| async move {
            for _ in 0..100 {
                if let Some(l) = db.lock_server().await.unwrap() {
                    return l;
                }
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            panic!("the killed session's lock was never released")
        };
        assert_eq!(kill(&mut admin).await, 1);
        let probe = free(db.clone()).await;
        drop(probe);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert_eq!(lock.check().await, None, "taken again");
        assert!(db.lock_server().await.unwrap().is_none());
        // Killed again, and another server takes the database meanwhile: this one must stop.
        assert_eq!(kill(&mut admin).await, 1);
        let _other = free(db.clone()).await;
        let why = lock.check().await.expect("lost");
        assert!(
            why.contains("another `arena serve` took the database"),
            "{why}"
        );
    });
}

/// A worker started while its database cannot be reached waits for it (every 5 s, up to `--wait-db`
/// seconds) instead of exiting, and still stops at once on SIGTERM; with `--wait-db 0` it exits with
/// the error.
#[test]
fn a_worker_waits_for_a_database_it_cannot_reach_yet() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://arena:hunter2@127.0.0.1:{port}/contest");
    let worker = |extra: &[&str]| {
        let mut cmd = crate::common::arena();
        cmd.current_dir(dir)
            .args(["worker", contest.to_str().unwrap(), "--name", "early"])
            .args(extra)
            .env("ARENA_DB", &url);
        cmd
    };
    let out = worker(&["--wait-db", "0"]).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("opening the database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = dir.join("early.log");
    let mut child = worker(&[])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !std::fs::read_to_string(&log)
        .unwrap()
        .contains("waiting for the database")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "{}",
            std::fs::read_to_string(&log).unwrap()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(child.try_wait().unwrap().is_none(), "it waits");
    // The password stays out of the log.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

on_both_databases!(workers_play_every_game_once_through_killed_workers_and_a_killed_server);
fn workers_play_every_game_once_through_killed_workers_and_a_killed_server(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    // A slow reference bot (40 ms a move), leases of 2 s.
    let (contest, org, alice) = slow_contest_with(dir, 40, 4, "[workers]\nlease_s = 2\n");
    // The server plays nothing itself: two workers do.
    let server = Server::start_with(dir, &contest, &["--slots", "0"]);
    let a = WorkerProcess::start(dir, &contest, "wa");
    let _b = WorkerProcess::start(dir, &contest, "wb");
    let up = server.upload(&alice, "shbot", "a.sh", SH_BOT.as_bytes());
    assert_eq!(up.status, 201, "{}", up.text());
    // The check's games are played by the workers, each with the bot fetched from the database.
    server.wait_for("/api/bots/1", |v| v["check"] == "passed");
    let hash = {
        let stores: Vec<PathBuf> = ["wa", "wb"]
            .iter()
            .map(|w| dir.join(format!("results/c4test.worker-{w}/store")))
            .collect();
        let fetched: Vec<String> = stores
            .iter()
            .flat_map(|s| std::fs::read_dir(s).into_iter().flatten().flatten())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.len() == 64)
            .collect();
        assert!(!fetched.is_empty(), "no worker stored the bot");
        fetched[0].clone()
    };
    assert!(dir.join(format!("results/c4test/store/{hash}")).is_dir());
    // Only the organiser sees the workers.
    assert_eq!(server.get("/api/workers", Some(&alice)).status, 403);
    let w = server.get("/api/workers", Some(&org)).json().unwrap();
    let names: Vec<&str> = w["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"wa") && names.contains(&"wb"), "{w}");

    // A competition: worker wa is killed mid-game, then the server; a third worker comes.
    let (id, csv) = server.new_competition(&org, dir);
    wait_for_lines(&csv, 3, dir);
    drop(a);
    wait_for_lines(&csv, 5, dir);
    server.kill9();
    let before = std::fs::read_to_string(&csv).unwrap().lines().count() - 1;
    assert!(before < 12, "the competition ended before the kills");
    let _c = WorkerProcess::start(dir, &contest, "wc");
    let server = Server::start_with(dir, &contest, &["--slots", "0"]);
    let done = server.wait_for(&format!("/api/competitions/{id}"), |v| {
        v["status"] == "finished"
    });
    assert_eq!(done["games"], 12, "{done}");
    // Each game once (a row twice is refused by the reader), none lost, and the logs came back.
    let games = arena::results::read_games_csv(&csv).unwrap();
    let mut ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 12);
    let logs = csv.parent().unwrap().join("logs");
    for g in &games {
        assert!(
            logs.join(format!("{}.log", g.id)).is_file(),
            "no transcript of {}",
            g.id
        );
    }
    let w = server.get("/api/workers", Some(&org)).json().unwrap();
    let taken: i64 = w["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["games"].as_i64().unwrap())
        .sum();
    // The check's 4 games and the competition's 12 (a game counts for the worker whose result was
    // taken: a reissued game once).
    assert_eq!(taken, 16, "{w}");
}

/// A throw-away PostgreSQL cluster of one test (`deploy/postgres/throwaway.sh`), stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    port: u16,
}

impl Cluster {
    fn script() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/postgres/throwaway.sh")
    }

    /// Starts a cluster; `None` (with the reason printed) where PostgreSQL's server is not installed.
    fn start() -> Option<Cluster> {
        let installed = std::fs::read_dir("/usr/lib/postgresql")
            .map(|d| d.flatten().any(|v| v.path().join("bin/initdb").is_file()))
            .unwrap_or(false);
        if !installed {
            eprintln!(
                "skipped: no PostgreSQL server under /usr/lib/postgresql (.ci/run installs it)"
            );
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        // The server runs as `postgres` when the tests run as root: it must reach the folder.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cluster = Cluster { dir, port };
        cluster.up();
        Some(cluster)
    }

    fn up(&self) {
        let out = Command::new(Cluster::script())
            .args([
                "start",
                self.dir.path().join("pg").to_str().unwrap(),
                &self.port.to_string(),
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn down(&self) {
        let out = Command::new(Cluster::script())
            .args(["stop", self.dir.path().join("pg").to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(Cluster::script())
            .args(["stop", self.dir.path().join("pg").to_str().unwrap()])
            .output();
    }
}

/// GET `path` as JSON, or `None` while the server (or its database) is away.
fn try_json(addr: SocketAddr, path: &str, token: Option<&str>) -> Option<Value> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    let a = std::panic::catch_unwind(|| request(addr, "GET", path, &headers, b"")).ok()?;
    (a.status == 200).then(|| a.json().ok()).flatten()
}

/// Issue 26's soak: a 200-bot Swiss (random and minimax under many names, tic-tac-toe, 7 rounds: 1,400
/// games) on PostgreSQL, played by four `arena worker`s while workers are killed every few seconds,
/// the server once and the database restarted once; then every game is recorded once and the
/// standings equal those of `arena run` on the competition's recorded config (the same seeds).
#[test]
#[ignore = "about two minutes of both cores, and PostgreSQL's server: .ci/run runs it"]
fn a_200_bot_swiss_on_postgres_survives_killed_workers_a_killed_server_and_a_database_restart() {
    if skip_without_bwrap() {
        return;
    }
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::{Connection, Executor};
        let mut c = sqlx::PgConnection::connect(&cluster.url("postgres"))
            .await
            .unwrap();
        c.execute("CREATE DATABASE swiss").await.unwrap();
    });
    std::fs::write(dir.join("db-url"), cluster.url("swiss")).unwrap();
    let mut text = String::from(
        "name = \"swiss200\"\nseed = 26\n[workers]\nlease_s = 2\n[check]\ngames = 2\n\
         [competition]\nformat = \"swiss\"\nrounds = 7\nopening_plies = 1\nconcurrency = 4\n\
         tiebreaks = [\"buchholz\", \"sonneborn-berger\"]\n\
         [competition.game]\nname = \"tictactoe\"\n\
         [competition.time_control]\ntime_ms = 20000\ninc_ms = 100\n",
    );
    for i in 1..=200 {
        if i % 4 == 0 {
            let depth = 1 + (i / 4) % 2;
            text += &format!(
                "[[reference]]\nname = \"minimax{i:03}\"\nbuiltin = \"minimax\"\n\
                 options = {{ depth = {depth} }}\n"
            );
        } else {
            text += &format!("[[reference]]\nname = \"random{i:03}\"\nbuiltin = \"random\"\n");
        }
    }
    let contest = dir.join("contest.toml");
    std::fs::write(&contest, text).unwrap();
    let (_, org) = add_user(dir, &contest, "org", true);
    let mut server = Server::start_with(dir, &contest, &["--slots", "0"]);
    let mut workers: Vec<WorkerProcess> = (1..=4)
        .map(|w| WorkerProcess::start(dir, &contest, &format!("w{w}")))
        .collect();
    let id = server
        .post_json("/api/competitions", &org, "{\"kind\": \"final\"}")
        .json()
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let total = 7 * 100 * 2;
    let csv = dir.join(format!(
        "results/swiss200/competitions/competition-{id}/games.csv"
    ));
    let recorded =
        || std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count().saturating_sub(1));
    let start = Instant::now();
    let mut step = 0;
    let mut next_worker = 5;
    // (ms since the start, games recorded, disturbances done) at each look, for a failure's message.
    let mut trace: Vec<(u128, usize, usize)> = Vec::new();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(900),
            "{} of {total} games after 15 minutes: {}",
            recorded(),
            log_of(dir)
        );
        let done = recorded();
        trace.push((start.elapsed().as_millis(), done, step));
        // The disturbances, each once, as the games come in.
        let due = [
            total / 10,
            total / 5,
            total * 7 / 20,
            total / 2,
            total * 13 / 20,
        ];
        if step < due.len() && done >= due[step] {
            match step {
                // A worker killed and started again under its name: its games come back at once.
                0 => {
                    drop(workers.remove(0));
                    workers.push(WorkerProcess::start(dir, &contest, "w1"));
                }
                // A worker killed for good: its games come back when their leases run out.
                1 | 4 => {
                    drop(workers.remove(0));
                    workers.push(WorkerProcess::start(
                        dir,
                        &contest,
                        &format!("w{next_worker}"),
                    ));
                    next_worker += 1;
                }
                // The server killed and started again.
                2 => {
                    server.kill9();
                    server = Server::start_with(dir, &contest, &["--slots", "0"]);
                }
                // The database restarted under everyone.
                _ => {
                    cluster.down();
                    std::thread::sleep(Duration::from_secs(1));
                    cluster.up();
                }
            }
            step += 1;
        }
        let c = try_json(server.addr, &format!("/api/competitions/{id}"), None);
        if c.is_some_and(|c| c["status"] == "finished") {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(
        step,
        5,
        "the competition ended before every disturbance; (ms, games, disturbances) at each look: {trace:?}"
    );
    eprintln!("(ms, games, disturbances) at each look: {trace:?}");
    // Every game once (the reader refuses a game twice), none missing.
    let games = arena::results::read_games_csv(&csv).unwrap();
    assert_eq!(games.len(), total);
    let w = try_json(server.addr, "/api/workers", Some(&org)).unwrap();
    let taken: i64 = w["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["games"].as_i64().unwrap())
        .sum();
    assert_eq!(taken, total as i64, "{w}");
    // The same competition played by `arena run` from its recorded config: the same standings.
    let folder = csv.parent().unwrap();
    let out = crate::common::arena()
        .current_dir(dir)
        .args([
            "run",
            folder.join("config.toml").to_str().unwrap(),
            "--results",
            "rerun",
            "--no-progress",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every column but the time the bots took (`ms_per_move`, the machine's).
    let table = |path: PathBuf| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let timing = header.iter().position(|h| *h == "ms_per_move").unwrap();
        text.lines()
            .map(|l| {
                let mut cells: Vec<&str> = l.split(',').collect();
                cells.remove(timing);
                cells.join(",")
            })
            .collect()
    };
    let served = table(folder.join("standings.csv"));
    let rerun = table(dir.join(format!("rerun/competition-{id}/standings.csv")));
    assert_eq!(served.len(), 201);
    assert_eq!(served, rerun);
}

/// A contest on a game the arena was not compiled with: the Gomoku referee program. An upload (the
/// example's Python bot, as a `#!` script) is checked against the reference bots through the referee,
/// and a competition's games are refereed, shown on the live board, recorded and replayed from the
/// referee's frames.
#[test]
fn a_contest_on_a_referee_programs_game_checks_uploads_and_plays_its_competitions() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = format!(
        "name = \"c4test\"\n[check]\ngames = 2\n[upload]\nmax_mb = 1\nmax_unpacked_mb = 1\nmax_files = 100\n\
         [competition]\nformat = \"round-robin\"\ngames_per_pair = 2\nconcurrency = 2\n\
         [competition.game]\nreferee = {{ command = \"python3\", args = [{:?}] }}\nvariant = \"9 4\"\n\
         [competition.time_control]\ntime_ms = 20000\ninc_ms = 50\n{RANDOM}         [[reference]]\nname = \"slow\"\nbuiltin = \"faulty\"\nargs = [\"--delay-ms\", \"100\"]\n",
        root.join("referees/gomoku/referee.py").display().to_string()
    );
    let contest = dir.join("contest.toml");
    std::fs::write(&contest, text).unwrap();
    let (_, org) = add_user(dir, &contest, "org", true);
    let (_, alice) = add_user(dir, &contest, "alice", false);
    let server = Server::start(dir, &contest);
    let bot = std::fs::read(root.join("referees/gomoku/random_bot.py")).unwrap();
    let up = server.upload(&alice, "gomoku-py", "bot.py", &bot);
    assert_eq!(up.status, 201, "{}", up.text());
    let checked = server.wait_for("/api/bots/1", |v| v["check"] != "pending");
    assert_eq!(checked["check"], "passed", "{checked}");

    let c = server.post_json("/api/competitions", &org, "{}");
    assert_eq!(c.status, 201, "{}", c.text());
    let id = c.json().unwrap()["id"].as_i64().unwrap();
    // The live board: a game in progress, drawn from the referee's frame (the slow bot's games last
    // seconds).
    let game = server.live_game(id);
    assert_eq!(game["frame"]["board"]["layout"], "points", "{game}");
    assert_eq!(game["frame"]["board"]["cols"], 9, "{game}");
    assert!(
        game["frame"]["pieces"].as_array().unwrap().len() > 2,
        "{game}"
    );
    let done = server.wait_for(&format!("/api/competitions/{id}"), |v| {
        v["status"] == "finished"
    });
    assert_eq!(done["games"], 6, "{done}");
    let csv = server.get(&format!("/competitions/{id}/games.csv"), None);
    let first_game = csv
        .text()
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();
    let g = server
        .get(&format!("/api/competitions/{id}/games/{first_game}"), None)
        .json()
        .unwrap();
    let plies = g["moves"].as_array().unwrap().len();
    assert!(plies >= 7, "{g}");
    assert_eq!(
        g["replay"]["steps"].as_array().unwrap().len(),
        plies + 1,
        "{g}"
    );
    assert_eq!(g["replay"]["board"]["layout"], "points", "{g}");
    assert_eq!(g["replay"]["board"]["cols"], 9, "{g}");
    // The python bot sees the four it can make and the one to block; random and the slow bot do
    // not: it wins its four games.
    let standings = done["standings"].as_array().unwrap();
    let py = standings.iter().find(|r| r["bot"] == "gomoku-py").unwrap();
    assert_eq!(py["points"], 4.0, "{done}");
}

#[test]
fn a_check_asks_for_a_share_of_the_points_against_a_reference_bot() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let references = format!(
        "{RANDOM}[[reference]]\nname = \"ab\"\nbuiltin = \"alphabeta\"\noptions = {{ depth = 4 }}\n"
    );
    let path = contest(dir, &references, 2, "");
    let with = |min_score: &str| {
        let text = std::fs::read_to_string(&path).unwrap().replace(
            "[check]\ngames = 2\n",
            &format!("[check]\ngames = 2\nmin_score = {{ {min_score} }}\n"),
        );
        std::fs::write(&path, text).unwrap();
    };
    // A name that is no reference bot, or a share past 1, is refused when the server starts.
    for (bad, says) in [("rnd = 0.5", "no reference bot"), ("ab = 1.5", "0 to 1")] {
        with(bad);
        let out = serve(dir, &path)
            .args(["--listen", "127.0.0.1:0"])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{err}");
        with_original(&path);
    }
    // The sh bot stacks the middle column: alpha-beta at depth 4 beats it in both games.
    with("ab = 0.25");
    let (_, alice) = add_user(dir, &path, "alice", false);
    let server = Server::start(dir, &path);
    let up = server.upload(&alice, "shbot", "a.sh", SH_BOT.as_bytes());
    assert_eq!(up.status, 201, "{}", up.text());
    let bot = server.wait_for("/api/bots/1", |v| v["check"] != "pending");
    assert_eq!(bot["check"], "failed", "{bot}");
    let detail = bot["detail"].as_str().unwrap();
    assert!(
        detail.contains("against ab, and [check] min_score asks 25%"),
        "{detail}"
    );
}

/// Takes the `min_score` line back out of the contest file at `path`.
fn with_original(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("min_score"))
        .collect();
    std::fs::write(path, kept.join("\n") + "\n").unwrap();
}

#[test]
fn an_author_chooses_which_passing_version_plays() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let path = contest(dir, RANDOM, 2, "");
    let (_, alice) = add_user(dir, &path, "alice", false);
    let (_, bob) = add_user(dir, &path, "bob", false);
    let server = Server::start(dir, &path);
    server.upload_first_bot(&alice);
    let second = format!("{SH_BOT}# the second version\n");
    assert_eq!(
        server
            .upload(&alice, "shbot", "a.sh", second.as_bytes())
            .status,
        201
    );
    let bot = server.wait_for("/api/bots/1", |v| v["active_version"] == 2);
    assert_eq!(bot["check"], "passed", "{bot}");
    let choose = |token: &str, body: &str| server.post_json("/api/bots/1/active", token, body);
    assert_eq!(choose(&bob, "{\"version\": 1}").status, 403);
    assert_eq!(choose(&alice, "{\"version\": 3}").status, 409);
    let a = choose(&alice, "{\"version\": 1}");
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(
        server.get("/api/bots/1", None).json().unwrap()["active_version"],
        1
    );
}

#[test]
fn the_final_plays_its_own_table() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let path = contest(dir, RANDOM, 2, "[final]\ngames_per_pair = 4");
    let (_, org) = add_user(dir, &path, "org", true);
    let (_, alice) = add_user(dir, &path, "alice", false);
    let server = Server::start(dir, &path);
    server.upload_first_bot(&alice);
    let (test, _) = server.new_competition(&org, dir);
    let done = server.wait_for(&format!("/api/competitions/{test}"), |v| {
        v["status"] == "finished"
    });
    assert_eq!(
        (&done["kind"], &done["games"]),
        (&json!("test"), &json!(2)),
        "{done}"
    );
    let c = server.post_json("/api/competitions", &org, "{\"kind\":\"final\"}");
    let id = c.json().unwrap()["id"].as_i64().unwrap();
    let done = server.wait_for(&format!("/api/competitions/{id}"), |v| {
        v["status"] == "finished"
    });
    assert_eq!(
        (&done["kind"], &done["games"]),
        (&json!("final"), &json!(4)),
        "{done}"
    );
    // A [final] key the server sets itself is refused when it starts.
    drop(server);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("[final]\n", "[final]\nseed = 3\n");
    std::fs::write(&path, text).unwrap();
    let out = serve(dir, &path)
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("[final] cannot set `seed`"), "{err}");
}

#[test]
fn a_bot_disqualified_during_a_competition_plays_no_more_of_its_games() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let (contest, org, alice) = slow_contest_with(dir, 100, 4, "");
    let server = Server::start(dir, &contest);
    server.upload_first_bot(&alice);
    let (id, csv) = server.new_competition(&org, dir);
    // Disqualified once its competition has a game recorded (of 12; at most two more in play).
    wait_for_lines(&csv, 2, dir);
    let d = server.post_json(
        "/api/bots/1/disqualify",
        &org,
        "{\"disqualified\": true, \"reason\": \"found out\"}",
    );
    assert_eq!(d.status, 200, "{}", d.text());
    let done = loop {
        let a = server.get(&format!("/api/competitions/{id}"), None);
        assert_eq!(a.status, 200, "{}\n{}", a.text(), log_of(dir));
        let v = a.json().unwrap();
        if v["status"] == "finished" {
            break v;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = std::fs::read_to_string(&csv).unwrap();
    let unplayed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("not played: shbot was disqualified by the organiser"))
        .collect();
    assert!(!unplayed.is_empty(), "{text}\n{done}\n{}", log_of(dir));
    for line in &unplayed {
        assert!(line.contains(",void,"), "{line}");
    }
    // Its games left the standings; the others' all count.
    let bots: Vec<&str> = done["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert!(!bots.contains(&"shbot"), "{done}");
    assert_eq!(done["games"], 4, "{done}");
    // Its folder reads as an ordinary results folder (every record checked against the rules).
    let out = crate::common::arena()
        .args(["report"])
        .arg(csv.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
