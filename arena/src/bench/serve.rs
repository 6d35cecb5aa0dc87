//! `arena bench serve`: the contest server's figures (docs/benchmarks.md), on this machine, through
//! 127.0.0.1 only, with a bounded number of requests:
//!
//! 1. games per second of a competition played through the server against `arena run`'s
//!    [`crate::tournament::run`] of the same config (two built-in random bots);
//! 2. upload-to-verdict: `uploads` uploads of a small sh bot, each timed from the request to its
//!    verdict (the server's own figure: verdict time − upload time);
//! 3. pages per second: the standings page and its API call for a finished competition of 200 bots
//!    and 2,000 games, the first request (ratings computed) apart from the next `pages` (cached);
//! 4. games per second with 1, 2 and 4 `arena worker` processes (the server playing none itself);
//! 5. the latency (p50, p99) of `GET /api/competitions/{id}` and of its page under 100 concurrent
//!    clients (10 requests each a path) while two workers play;
//! 6. on PostgreSQL, the database's transactions per game and per idle worker per second (for the
//!    note on 1,000 workers in docs/server.md).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::record::{GameRecord, GameResult, Termination};
use crate::serve::client::{multipart, request, Answer};
use crate::serve::{ServeOptions, Started};

/// The bot uploaded: a UGI Connect Four bot in sh (the most central column that is not full).
pub const SH_BOT: &str = include_str!("../../../configs/upload-example/bot.sh");

/// How much [`run`] measures.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Uploads timed from request to verdict.
    pub uploads: usize,
    /// Standings pages requested after the first.
    pub pages: usize,
    /// Games of each measured competition.
    pub games: usize,
}

/// Runs the measurements in `tmp` and prints a Markdown table; on the PostgreSQL server of `pg` (a
/// URL) in a fresh database, dropped afterwards, else on SQLite. Needs a multi-threaded runtime.
///
/// # Errors
/// A server that does not start, a request that fails, a check that does not pass.
pub async fn run(exe: &Path, tmp: &Path, sizes: &Sizes, pg: Option<&str>) -> Result<()> {
    let db = match pg {
        Some(url) => Some(FreshDb::create(url).await?),
        None => None,
    };
    let result = measure(exe, tmp, sizes, db.as_ref()).await;
    if let Some(db) = db {
        db.drop_it().await;
    }
    result
}

/// A database of its own on a PostgreSQL server.
struct FreshDb {
    /// The server's URL (its maintenance database).
    server: String,
    name: String,
    /// The fresh database's URL.
    url: String,
}

impl FreshDb {
    async fn create(server: &str) -> Result<FreshDb> {
        use sqlx::{Connection, Executor};
        let name = format!("arena_bench_{}", std::process::id());
        let mut c = sqlx::PgConnection::connect(server)
            .await
            .with_context(|| format!("connecting to {}", crate::serve::db::redact(server)))?;
        c.execute(format!("DROP DATABASE IF EXISTS {name}").as_str())
            .await?;
        c.execute(format!("CREATE DATABASE {name}").as_str())
            .await?;
        let (base, _) = server
            .rsplit_once('/')
            .context("a PostgreSQL URL ending in /DATABASE")?;
        Ok(FreshDb {
            server: server.to_string(),
            url: format!("{base}/{name}"),
            name,
        })
    }

    /// Transactions committed in this database so far (`pg_stat_database`).
    async fn commits(&self) -> Result<i64> {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(&self.url).await?;
        // The statistics of this transaction are a snapshot: ask for fresh ones.
        sqlx::query("SELECT pg_stat_clear_snapshot()")
            .execute(&mut c)
            .await?;
        let (n,): (i64,) =
            sqlx::query_as("SELECT xact_commit FROM pg_stat_database WHERE datname = $1")
                .bind(&self.name)
                .fetch_one(&mut c)
                .await?;
        Ok(n)
    }

    async fn drop_it(self) {
        use sqlx::{Connection, Executor};
        if let Ok(mut c) = sqlx::PgConnection::connect(&self.server).await {
            let _ = c
                .execute(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name).as_str())
                .await;
        }
    }
}

async fn measure(exe: &Path, tmp: &Path, sizes: &Sizes, pg: Option<&FreshDb>) -> Result<()> {
    let Sizes {
        uploads,
        pages,
        games,
    } = *sizes;
    std::fs::create_dir_all(tmp)?;
    let contest = tmp.join("contest.toml");
    std::fs::write(
        &contest,
        format!(
            // One client address, one participant: the per-address and per-participant limits are
            // raised past the bench's 100 clients and its uploads.
            "name = \"bench\"\n[check]\ngames = 2\n\
             [server]\nmax_connections_per_address = 1000\n\
             [upload]\nmax_mb = 20\nmax_unpacked_mb = 200\nmax_files = 10000\nper_hour = 100000\n\
             max_stored_mb = 100000\n\
             [competition]\nformat = \"round-robin\"\n\
             games_per_pair = {games}\nconcurrency = 2\n[competition.game]\nname = \"connect4\"\n\
             [competition.time_control]\ntime_ms = 10000\ninc_ms = 100\n\
             [[reference]]\nname = \"random-a\"\nbuiltin = \"random\"\n\
             [[reference]]\nname = \"random-b\"\nbuiltin = \"random\"\n"
        ),
    )?;
    let opts = ServeOptions {
        contest: contest.clone(),
        listen: "127.0.0.1:0".parse()?,
        results: tmp.join("results"),
        db: pg.map(|d| d.url.clone()),
        slots: None,
    };
    let (_, db, _) = crate::serve::open(&contest, &opts.results, opts.db.as_deref(), exe).await?;
    let (_, org) = crate::serve::add_user(&db, "org", true).await?;
    let (_, alice) = crate::serve::add_user(&db, "alice", false).await?;
    drop(db);
    println!("| measurement | figure |\n|---|---|");

    // 1. Games per second, through the server and through `arena run`.
    let server = crate::serve::start(&opts, exe).await?;
    let addr = server.addr;
    let id = call(
        addr,
        "POST",
        "/api/competitions",
        &org,
        "application/json",
        b"{}".to_vec(),
    )
    .await?
    .json()?["id"]
        .as_i64()
        .context("a competition id")?;
    let done = wait(addr, &format!("/api/competitions/{id}"), |v| {
        v["status"] == "finished"
    })
    .await?;
    let ms = done["finished_ms"].as_i64().unwrap_or(0) - done["started_ms"].as_i64().unwrap_or(0);
    let played = done["games"].as_f64().unwrap_or(0.0);
    println!(
        "| competition through the server: {played} games of random vs random, 2 at once | {:.1} games/s |",
        played / (ms as f64 / 1000.0)
    );
    let config = server.app.contest.competition(1000, false, Vec::new())?;
    let plan = server.app.contest.plan(&config)?;
    let run_opts = crate::run::RunOptions {
        results_root: tmp.join("direct"),
        fresh: true,
        quiet: true,
        containment: server.app.containment.clone(),
        derived_config: Some(config.to_toml()?),
        ..crate::run::RunOptions::default()
    };
    let t = Instant::now();
    let summary = crate::tournament::run(Arc::new(plan), &run_opts).await?;
    println!(
        "| the same config through `arena run`'s run layer | {:.1} games/s |",
        summary.played as f64 / t.elapsed().as_secs_f64()
    );

    // 4. and 5. Workers, and the API under load while they play (before the uploads, which would
    // enter these competitions).
    server.stop().await?;
    workers(exe, &opts, &org, summary.played as f64, pg).await?;
    let server = crate::serve::start(&opts, exe).await?;
    let addr = server.addr;

    // 2. Upload to verdict.
    let mut server_ms = Vec::new();
    let mut client_ms = Vec::new();
    for k in 0..uploads {
        // A distinct file each time (a comment), so each is unpacked and stored anew.
        let bot = format!("{SH_BOT}# {k}\n");
        let (ctype, body) = multipart(
            &[("name", &format!("sh-{k}"))],
            Some(("file", "bot.sh", bot.as_bytes())),
        );
        let t = Instant::now();
        let a = call(addr, "POST", "/api/bots", &alice, &ctype, body).await?;
        if a.status != 201 {
            bail!("upload {k}: {}", a.text());
        }
        let bot_id = a.json()?["id"].as_i64().context("a bot id")?;
        let v = wait(addr, &format!("/api/bots/{bot_id}"), |v| {
            v["check"] != "pending"
        })
        .await?;
        client_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        if v["check"] != "passed" {
            bail!("upload {k}: the check failed: {v}");
        }
        server_ms.push(v["versions"][0]["verdict_ms"].as_f64().unwrap_or(f64::NAN));
    }
    let spread = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        format!(
            "{:.0} ms median ({:.0}–{:.0})",
            v[v.len() / 2],
            v[0],
            v[v.len() - 1]
        )
    };
    if uploads > 0 {
        println!(
            "| upload to verdict, {uploads} uploads of a sh bot, 2 check games each (server's clock) | {} |",
            spread(server_ms)
        );
        println!("| the same, from the request to the client's poll seeing it (polls every 20 ms) | {} |", spread(client_ms));
    }
    server.stop().await?;

    // 3. A finished 200-bot competition's standings.
    let big = standings_fixture(&opts, exe, 200, 2000).await?;
    let server: Started = crate::serve::start(&opts, exe).await?;
    let addr = server.addr;
    let page = format!("/competitions/{big}");
    let t = Instant::now();
    let first = call(addr, "GET", &page, "", "", Vec::new()).await?;
    if first.status != 200 {
        bail!("{page}: {}", first.text());
    }
    println!(
        "| `GET {page}`, 200 bots, 2,000 games: the first (games read and re-refereed, ratings computed) | {:.0} ms |",
        t.elapsed().as_secs_f64() * 1000.0
    );
    for path in [page, format!("/api/competitions/{big}")] {
        let t = Instant::now();
        let mut bytes = 0;
        for _ in 0..pages {
            bytes = call(addr, "GET", &path, "", "", Vec::new())
                .await?
                .body
                .len();
        }
        println!(
            "| `GET {path}`, the next {pages} one after another (standings cached) | {:.0} pages/s ({} KiB each) |",
            pages as f64 / t.elapsed().as_secs_f64(),
            bytes / 1024
        );
    }
    server.stop().await?;
    Ok(())
}

/// One request off the async threads (the client blocks).
async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: &str,
    ctype: &str,
    body: Vec<u8>,
) -> Result<Answer> {
    let (method, path, token, ctype) = (
        method.to_string(),
        path.to_string(),
        token.to_string(),
        ctype.to_string(),
    );
    tokio::task::spawn_blocking(move || {
        let auth = format!("Bearer {token}");
        let mut headers = Vec::new();
        if !token.is_empty() {
            headers.push(("Authorization", auth.as_str()));
        }
        if !ctype.is_empty() {
            headers.push(("Content-Type", ctype.as_str()));
        }
        request(addr, &method, &path, &headers, &body)
    })
    .await?
}

/// Polls `GET path` every 20 ms until `done` holds of its JSON (10 minutes at most).
async fn wait(
    addr: SocketAddr,
    path: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> Result<serde_json::Value> {
    let start = Instant::now();
    loop {
        let v = call(addr, "GET", path, "", "", Vec::new()).await?.json()?;
        if done(&v) {
            return Ok(v);
        }
        if start.elapsed() > Duration::from_secs(600) {
            bail!("{path}: not done after 10 minutes: {v}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Writes a finished competition of `bots` bots (`bot-000`, …) and `games` Connect Four games into
/// the contest's database and folder (the server stopped), and returns its id.
async fn standings_fixture(
    opts: &ServeOptions,
    exe: &Path,
    bots: usize,
    games: usize,
) -> Result<i64> {
    let (_, db, data) =
        crate::serve::open(&opts.contest, &opts.results, opts.db.as_deref(), exe).await?;
    let names: Vec<String> = (0..bots).map(|i| format!("bot-{i:03}")).collect();
    let id = db
        .add_competition(crate::serve::db::Kind::Test, &names)
        .await?;
    db.set_status(id, None, crate::serve::db::CompetitionStatus::Finished)
        .await?;
    // Fixed games whose moves give their results (re-refereed when read): a first-player win in 7
    // plies, a second-player win in 8.
    let first: Vec<String> = ["4", "5", "4", "5", "4", "5", "4"]
        .map(String::from)
        .to_vec();
    let second: Vec<String> = ["1", "4", "1", "4", "2", "4", "2", "4"]
        .map(String::from)
        .to_vec();
    let records: Vec<GameRecord> = (0..games)
        .map(|g| {
            let (a, b) = (g % bots, (g * 7 + g / bots + 1) % bots);
            let b = if a == b { (b + 1) % bots } else { b };
            let first_wins = (a * 31 + b * 17 + g) % 3 != 0;
            let moves = if first_wins {
                first.clone()
            } else {
                second.clone()
            };
            GameRecord {
                id: format!("g{:05}", g + 1),
                round: 1,
                pair: g as u32 / 2 + 1,
                game: "connect4".into(),
                variant: "7 6".into(),
                first: names[a].clone(),
                second: names[b].clone(),
                result: if first_wins {
                    GameResult::FirstWins
                } else {
                    GameResult::SecondWins
                },
                termination: Termination::Normal,
                detail: String::new(),
                plies: moves.len() as u32,
                score: None,
                time_ms: [100, 100],
                time_control: ["10000+100".into(), "10000+100".into()],
                move_ms: vec![10; moves.len()],
                opening: Vec::new(),
                setup: Default::default(),
                moves,
                seed: g as u64,
                date: String::new(),
            }
        })
        .collect();
    let dir = data.competition(id);
    std::fs::create_dir_all(&dir)?;
    crate::results::write_games_csv(&dir.join("games.csv"), &records)?;
    Ok(id)
}

/// `arena worker` processes of the bench's contest, killed when dropped.
struct Workers(Vec<std::process::Child>);

impl Workers {
    fn start(exe: &Path, opts: &ServeOptions, n: usize, tag: &str) -> Result<Workers> {
        let mut children = Vec::new();
        for k in 0..n {
            let mut cmd = std::process::Command::new(exe);
            cmd.args(["worker"])
                .arg(&opts.contest)
                .arg("--results")
                .arg(&opts.results)
                .args(["--slots", "1", "--name", &format!("bench-{tag}-{k}")])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            if let Some(db) = &opts.db {
                cmd.args(["--db", db]);
            }
            children.push(cmd.spawn().context("starting arena worker")?);
        }
        Ok(Workers(children))
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        for c in &mut self.0 {
            // SIGTERM: each gives its games back and ends.
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &c.id().to_string()])
                .status();
        }
        for c in &mut self.0 {
            let _ = c.wait();
        }
    }
}

/// Sections 4, 5 and 6: a competition of the bench's config played by 1, 2 and 4 workers (games per
/// second from its start to its end, the server's own slots 0), then one played by two workers while
/// 100 clients read its API call and page.
async fn workers(
    exe: &Path,
    opts: &ServeOptions,
    org: &str,
    games: f64,
    pg: Option<&FreshDb>,
) -> Result<()> {
    let opts = ServeOptions {
        slots: Some(0),
        ..opts.clone()
    };
    let server = crate::serve::start(&opts, exe).await?;
    let addr = server.addr;
    let create = || async {
        anyhow::Ok(
            call(
                addr,
                "POST",
                "/api/competitions",
                org,
                "application/json",
                b"{}".to_vec(),
            )
            .await?
            .json()?["id"]
                .as_i64()
                .context("a competition id")?,
        )
    };
    for n in [1, 2, 4] {
        let before = match pg {
            Some(db) => Some(db.commits().await?),
            None => None,
        };
        let workers = Workers::start(exe, &opts, n, &n.to_string())?;
        let id = create().await?;
        let done = wait(addr, &format!("/api/competitions/{id}"), |v| {
            v["status"] == "finished"
        })
        .await?;
        drop(workers);
        let ms =
            done["finished_ms"].as_i64().unwrap_or(0) - done["started_ms"].as_i64().unwrap_or(0);
        println!(
            "| the same competition ({games} games) played by {n} `arena worker` process(es), 1 slot each, the server's slots 0 | {:.1} games/s |",
            games / (ms as f64 / 1000.0)
        );
        if let (Some(db), Some(before)) = (pg, before) {
            let after = db.commits().await?;
            println!(
                "| PostgreSQL transactions per game, {n} worker(s) (all of them: the server's queueing and polling, the workers' claims, heartbeats, results, the pages' reads) | {:.1} |",
                (after - before) as f64 / games
            );
        }
    }
    if let Some(db) = pg {
        // Idle workers: claims that find nothing (every 2 s once backed off) and heartbeats.
        let workers = Workers::start(exe, &opts, 4, "idle")?;
        tokio::time::sleep(Duration::from_secs(5)).await;
        let before = db.commits().await?;
        let t = Instant::now();
        tokio::time::sleep(Duration::from_secs(20)).await;
        let after = db.commits().await?;
        drop(workers);
        println!(
            "| PostgreSQL transactions per second of an idle worker (4 idle workers for 20 s; the server's own loops included) | {:.2} |",
            (after - before) as f64 / t.elapsed().as_secs_f64() / 4.0
        );
    }
    // 5. Latency under 100 clients while two workers play.
    let workers = Workers::start(exe, &opts, 2, "load")?;
    let id = create().await?;
    wait(addr, &format!("/api/competitions/{id}"), |v| {
        v["games"].as_i64().unwrap_or(0) > 0
    })
    .await?;
    for path in [
        format!("/api/competitions/{id}"),
        format!("/competitions/{id}"),
    ] {
        let mut clients = tokio::task::JoinSet::new();
        for _ in 0..100 {
            let path = path.clone();
            clients.spawn(async move {
                let mut ms = Vec::new();
                for _ in 0..10 {
                    let t = Instant::now();
                    let a = call(addr, "GET", &path, "", "", Vec::new()).await?;
                    if a.status != 200 {
                        bail!("{path}: {}", a.status);
                    }
                    ms.push(t.elapsed().as_secs_f64() * 1000.0);
                }
                anyhow::Ok(ms)
            });
        }
        let mut all = Vec::new();
        while let Some(r) = clients.join_next().await {
            all.extend(r??);
        }
        all.sort_by(f64::total_cmp);
        let at = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
        println!(
            "| `GET {path}` while 2 workers play: 100 clients, 10 requests each | p50 {:.1} ms, p99 {:.1} ms |",
            at(0.50),
            at(0.99)
        );
    }
    drop(workers);
    server.stop().await?;
    Ok(())
}
