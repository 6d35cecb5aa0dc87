//! The holes a red team found in the contest server (issue 37), each through the binary: slow and
//! idle connections, login guessing, names that differ only in case, error pages that lost the
//! session, ids that are not numbers.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::{
    add_user, contest, hidden_csrf, log_in, request, test_folder, Database, Server, RANDOM,
};

/// Whether the server closes `stream` (end of file or a reset) within `within`.
fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 256];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            // hyper may answer 408 before it closes.
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn slow_and_idle_connections_are_closed_and_one_address_cannot_hold_them_all() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(
        dir,
        RANDOM,
        2,
        // 5 s: long enough that the four slow connections are still open when the fifth comes, even
        // on a loaded machine.
        "[server]\nheader_timeout_s = 5\nmax_connections_per_address = 4",
    );
    let server = Server::start(dir, &contest);
    assert_eq!(server.get("/api/health", None).status, 200);

    // Four slowloris connections: a head begun and never finished, as the red team's 1,000 were.
    // Each is kept once it is seen open: on a loaded machine the health check's connection may
    // still be counted when one arrives, and that one is closed at once (the cap at work).
    let mut slow: Vec<TcpStream> = Vec::new();
    for _ in 0..20 {
        if slow.len() == 4 {
            break;
        }
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nHost: arena\r\n").unwrap();
        if !closed_within(&mut s, Duration::from_millis(300)) {
            slow.push(s);
        }
    }
    assert_eq!(slow.len(), 4, "four slow connections held open");
    // They hold this address's four connections: a fifth is closed unanswered.
    let fifth = arena::serve::client::request(server.addr, "GET", "/api/health", &[], b"");
    assert!(
        fifth.is_err(),
        "a fifth connection from one address was served: {fifth:?}"
    );
    // Each is closed by the header deadline (5 s), not left open.
    let start = Instant::now();
    for s in &mut slow {
        assert!(
            closed_within(s, Duration::from_secs(30)),
            "a slow connection stayed open"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(30));
    // An idle keep-alive connection after its answer is closed too.
    let mut idle = TcpStream::connect(server.addr).unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: arena\r\n\r\n")
        .unwrap();
    assert!(
        closed_within(&mut idle, Duration::from_secs(30)),
        "an idle keep-alive connection stayed open"
    );
    // And the address is served again.
    assert_eq!(server.get("/api/health", None).status, 200);
}

/// A login through the form with its own form cookie: the answer.
fn try_login(server: &Server, name: &str, password: &str) -> arena::serve::client::Answer {
    let form = server.get("/login", None);
    let cookie = form.cookie("arena_form").unwrap();
    server.form(
        "/login",
        &format!("arena_form={cookie}"),
        format!("name={name}&password={password}&csrf={cookie}"),
    )
}

#[test]
fn login_guesses_are_throttled_per_account_and_per_address() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    let (alice_password, _) = add_user(dir, &contest, "alice", false);
    let (bob_password, _) = add_user(dir, &contest, "bob", false);
    let server = Server::start(dir, &contest);

    for _ in 0..5 {
        assert_eq!(try_login(&server, "alice", "guess-guess").status, 401);
    }
    // The sixth attempt on alice is refused, even with her password, and says when to come back.
    let refused = try_login(&server, "alice", &alice_password);
    assert_eq!(refused.status, 429, "{}", refused.text());
    assert!(refused
        .text()
        .contains("too many login attempts from this account"));
    assert!(refused.cookie("arena_session").is_none());
    let retry: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "Retry-After: {retry}");
    // Bob, from the same address, is not held back by alice's account.
    assert_eq!(try_login(&server, "bob", &bob_password).status, 303);
    // This address has made 7 attempts; guesses at other names spend its 20.
    for i in 0..13 {
        assert_eq!(
            try_login(&server, &format!("nobody{i}"), "guess-guess").status,
            401
        );
    }
    let refused = try_login(&server, "bob", &bob_password);
    assert_eq!(refused.status, 429, "{}", refused.text());
    assert!(refused.text().contains("from this address"));
}

#[test]
fn names_are_unique_regardless_of_case() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    let (_, alice) = add_user(dir, &contest, "alice", false);
    let (_, bob) = add_user(dir, &contest, "bob", false);
    let out = super::serve(dir, &contest)
        .args(["--add-user", "ALICE"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"ALICE\" is taken"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let server = Server::start(dir, &contest);
    let bot = arena::bench::serve::SH_BOT.as_bytes();
    // A reference bot's name in other letters.
    let a = server.upload(&alice, "Random", "a.sh", bot);
    assert_eq!(a.status, 409, "{}", a.text());
    assert!(a.text().contains("reference bot"));
    assert_eq!(server.upload(&alice, "shbot", "a.sh", bot).status, 201);
    // Another participant's bot in other letters.
    let b = server.upload(&bob, "SHBOT", "a.sh", bot);
    assert_eq!(b.status, 409, "{}", b.text());
    assert!(b.text().contains("belongs to another participant"));
    // Her own, in other letters: she is told its name.
    let c = server.upload(&alice, "ShBot", "a.sh", bot);
    assert_eq!(c.status, 409, "{}", c.text());
    assert!(
        c.text().contains("your bot is named \\\"shbot\\\""),
        "{}",
        c.text()
    );
    let bots = server.get("/api/bots", None).json().unwrap();
    assert_eq!(bots.as_array().unwrap().len(), 1, "{bots}");
}

/// `work` on a connection of its own to the database `url` (SQLite or PostgreSQL).
fn on_database<T>(url: &str, work: impl AsyncFnOnce(&mut sqlx::AnyConnection) -> T) -> T {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
        work(&mut conn).await
    })
}

/// Runs `statements` one by one on the database `url`, each one's error as text.
fn execute(url: &str, statements: &[&str]) -> Vec<Result<(), String>> {
    on_database(url, async |conn| {
        use sqlx::Executor;
        let mut results = Vec::new();
        for s in statements {
            results.push(
                conn.execute(*s)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string()),
            );
        }
        results
    })
}

/// The number the query `sql` answers on the database `url`.
fn count(url: &str, sql: &str) -> i64 {
    on_database(url, async |conn| {
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(conn)
            .await
            .unwrap()
    })
}

/// A database from before migration 6 holding two names that differ only in case: the server does
/// not start, names both with their ids, and changes nothing; once one is renamed it starts, and the
/// database itself then refuses such a name (as when two registrations race on PostgreSQL).
fn names_differing_in_case_stop_the_migration_and_are_named(db: Database) {
    let Some(tmp) = test_folder(db) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    add_user(dir, &contest, "alice", false);
    let url = std::fs::read_to_string(dir.join("db-url")).map_or_else(
        |_| format!("sqlite:{}", dir.join("results/c4test.sqlite").display()),
        |u| u.trim().to_string(),
    );
    // Back to before migration 6, then a second Alice in other letters.
    let undone = execute(
        &url,
        &[
            "DROP INDEX users_name_regardless_of_case",
            "DROP INDEX bots_name_regardless_of_case",
            "DELETE FROM _sqlx_migrations WHERE version = 6",
            "INSERT INTO users (name, password_hash, token_hash, admin, created_ms) \
             VALUES ('ALICE', 'x', 'y', 0, 0)",
        ],
    );
    assert!(undone.iter().all(Result::is_ok), "{undone:?}");
    let out = super::serve(dir, &contest)
        .args(["--add-user", "bob"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("differ only in case: users: alice (id 1), ALICE (id 2)"),
        "{stderr}"
    );
    // Nothing changed: migration 6 is still not applied, and bob was not added.
    assert_eq!(
        count(
            &url,
            "SELECT COUNT(*) FROM _sqlx_migrations WHERE version = 6"
        ),
        0
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM users WHERE name = 'bob'"),
        0
    );
    // Renamed, the server starts and applies it; the database then refuses a name in other letters.
    let renamed = execute(&url, &["UPDATE users SET name = 'alice-2' WHERE id = 2"]);
    assert!(renamed.iter().all(Result::is_ok), "{renamed:?}");
    add_user(dir, &contest, "bob", false);
    let refused = execute(
        &url,
        &[
            "INSERT INTO users (name, password_hash, token_hash, admin, created_ms) \
           VALUES ('Bob', 'x', 'z', 0, 0)",
        ],
    );
    assert!(refused[0].is_err(), "{refused:?}");
}

on_both_databases!(names_differing_in_case_stop_the_migration_and_are_named);

#[test]
fn error_pages_keep_the_session_and_ids_that_are_not_numbers_are_404() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    let (password, _) = add_user(dir, &contest, "alice", false);
    let server = Server::start(dir, &contest);
    let session = log_in(&server, "alice", &password);
    let jar = format!("arena_session={session}");
    let get = |path: &str| request(server.addr, "GET", path, &[("Cookie", &jar)], b"");

    for path in [
        "/bots/abc",
        "/competitions/1e3",
        "/no/such/page",
        "/bots/99",
    ] {
        let page = get(path);
        assert_eq!(page.status, 404, "{path}: {}", page.text());
        assert!(
            page.header("content-type")
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        let text = page.text();
        assert!(!text.contains("Cannot parse"), "{path}: {text}");
        // Still logged in: her name and the Log out button in the header.
        assert!(
            text.contains("alice") && text.contains("Log out"),
            "{path}: {text}"
        );
    }
    for path in ["/api/bots/abc", "/api/competitions/x/live", "/api/nothing"] {
        let a = get(path);
        assert_eq!(a.status, 404, "{path}");
        let error = a.json().unwrap()["error"].as_str().unwrap().to_string();
        assert!(error.starts_with("no such"), "{path}: {error}");
    }
    // A refused form (a forged token) keeps the session too.
    let upload_form = get("/bots/new");
    assert!(!hidden_csrf(&upload_form.text()).is_empty());
    let forged = server.form("/logout", &jar, "csrf=forged");
    assert_eq!(forged.status, 403);
    assert!(forged.text().contains("CSRF"), "{}", forged.text());
    assert!(forged.text().contains("Log out"), "{}", forged.text());
    // And the session was not ended by it.
    assert!(get("/bots/new").text().contains("Log out"));
}

#[test]
fn uploads_are_limited_per_participant_and_checks_are_shared_fairly() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let path = contest(dir, RANDOM, 2, "");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("[upload]\n", "[upload]\nper_hour = 4\nmax_stored_mb = 1\n");
    std::fs::write(&path, text).unwrap();
    let (_, alice) = add_user(dir, &path, "alice", false);
    let (_, bob) = add_user(dir, &path, "bob", false);
    let server = Server::start(dir, &path);
    let bot = arena::bench::serve::SH_BOT;
    // Alice's three versions, then Bob's one: the same bytes each, a few hundred.
    for _ in 0..3 {
        assert_eq!(
            server.upload(&alice, "a", "a.sh", bot.as_bytes()).status,
            201
        );
    }
    assert_eq!(server.upload(&bob, "b", "b.sh", bot.as_bytes()).status, 201);
    // Bob's check is played second, not after all of Alice's.
    let bob_done = server.wait_for("/api/bots/2", |v| v["check"] != "pending");
    let alice_bot = server.wait_for("/api/bots/1", |v| {
        v["versions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["check"] != "pending")
    });
    let checked = |v: &serde_json::Value| {
        v["uploaded_ms"].as_i64().unwrap() + v["verdict_ms"].as_i64().unwrap()
    };
    let bob_at = checked(&bob_done["versions"][0]);
    let mut alice_at: Vec<i64> = alice_bot["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(checked)
        .collect();
    alice_at.sort();
    assert!(
        alice_at[0] < bob_at && bob_at < alice_at[1],
        "alice {alice_at:?}, bob {bob_at}"
    );

    // A fourth upload within the hour is allowed, a fifth is not, and stores nothing.
    assert_eq!(
        server.upload(&alice, "a", "a.sh", bot.as_bytes()).status,
        201
    );
    let refused = server.upload(&alice, "a", "a.sh", bot.as_bytes());
    assert_eq!(refused.status, 429, "{}", refused.text());
    assert!(
        refused.text().contains("per_hour = 4"),
        "{}",
        refused.text()
    );
    assert!(refused.header("retry-after").is_some());
    // Bob may keep 1 MiB: a 600 KiB script fits once, not twice.
    let big = format!("{bot}\n# {}\n", "x".repeat(600 << 10));
    assert_eq!(
        server.upload(&bob, "big", "big.sh", big.as_bytes()).status,
        201
    );
    let refused = server.upload(&bob, "big", "big.sh", big.as_bytes());
    assert_eq!(refused.status, 413, "{}", refused.text());
    assert!(
        refused.text().contains("max_stored_mb"),
        "{}",
        refused.text()
    );
    let versions = server.get("/api/bots/1", None).json().unwrap()["versions"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(versions, 4);
    let big = server.get("/api/bots/3", None).json().unwrap();
    assert_eq!(big["versions"].as_array().unwrap().len(), 1, "{big}");
}

#[test]
fn the_organiser_s_forms_ask_for_a_confirmation_and_a_reason() {
    let Some(tmp) = test_folder(Database::Sqlite) else {
        return;
    };
    let dir = tmp.path();
    let contest = contest(dir, RANDOM, 2, "");
    let (password, org) = add_user(dir, &contest, "org", true);
    let (_, alice) = add_user(dir, &contest, "alice", false);
    let server = Server::start(dir, &contest);
    // Random alone: no competition (it could only fail).
    let refused = server.post_json("/api/competitions", &org, "{}");
    assert_eq!(refused.status, 409, "{}", refused.text());
    assert!(
        refused.text().contains("two bots or more"),
        "{}",
        refused.text()
    );
    server.upload_first_bot(&alice);
    let session = log_in(&server, "org", &password);
    let jar = format!("arena_session={session}");
    let csrf =
        hidden_csrf(&request(server.addr, "GET", "/bots/1", &[("Cookie", &jar)], b"").text());
    let form = |path: &str, body: String| server.form(path, &jar, body);

    // A competition cancelled from its page: the box ticked and a reason, or nothing happens. It is
    // paused first, so that it cannot end before the form arrives.
    let (id, _) = server.new_competition(&org, dir);
    let paused = server.post_json(&format!("/api/competitions/{id}/pause"), &org, "");
    assert_eq!(paused.status, 200, "{}", paused.text());
    let path = format!("/competitions/{id}/cancel");
    let a = form(&path, format!("csrf={csrf}&reason=wrong+time+control"));
    assert_eq!(a.status, 400, "{}", a.text());
    let a = form(&path, format!("csrf={csrf}&confirm=yes"));
    assert_eq!(a.status, 400, "{}", a.text());
    let a = form(
        &path,
        format!("csrf={csrf}&reason=wrong+time+control&confirm=yes"),
    );
    assert_eq!(a.status, 303, "{}", a.text());
    let page = request(
        server.addr,
        "GET",
        &format!("/competitions/{id}"),
        &[("Cookie", &jar)],
        b"",
    )
    .text();
    assert!(
        page.contains("Cancelled: cancelled by the organiser: wrong time control"),
        "{page}"
    );
    // Over, it offers no pause, resume or cancel.
    assert!(
        !page.contains("/cancel\"") && !page.contains("/pause\"") && !page.contains("/resume\""),
        "{page}"
    );

    // A disqualification: without the box ticked, or without a reason, nothing changes.
    let a = form(
        "/bots/1/disqualify",
        format!("csrf={csrf}&disqualified=true&reason=cheats"),
    );
    assert_eq!(a.status, 400, "{}", a.text());
    let a = form(
        "/bots/1/disqualify",
        format!("csrf={csrf}&disqualified=true&confirm=yes"),
    );
    assert_eq!(a.status, 400, "{}", a.text());
    assert_eq!(
        server.get("/api/bots/1", None).json().unwrap()["disqualified"],
        false
    );
    let a = form(
        "/bots/1/disqualify",
        format!("csrf={csrf}&disqualified=true&confirm=yes&reason=plays+a+copied+engine"),
    );
    assert_eq!(a.status, 303, "{}", a.text());
    // Its author reads why on its page.
    let page = server.get("/bots/1", Some(&alice)).text();
    assert!(
        page.contains("Disqualified by the organiser: plays a copied engine"),
        "{page}"
    );
}
