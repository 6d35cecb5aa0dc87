//! `arena bench serve`: the contest server's figures (docs/benchmarks.md), on this machine, through
//! 127.0.0.1 only, with a bounded number of requests:
//!
//! 1. games per second of a competition played through the server against `arena run`'s
//!    [`crate::tournament::run`] of the same config (two built-in random bots);
//! 2. upload-to-verdict: `uploads` uploads of a small sh bot, each timed from the request to its
//!    verdict (the server's own figure: verdict time − upload time);
//! 3. pages per second: the standings page and its API call for a finished competition of 200 bots
//!    and 2,000 games, the first request (ratings computed) apart from the next `pages` (cached).

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

/// Runs the three measurements in `tmp` and prints a Markdown table. Needs a multi-threaded runtime.
///
/// # Errors
/// A server that does not start, a request that fails, a check that does not pass.
pub async fn run(exe: &Path, tmp: &Path, uploads: usize, pages: usize, games: usize) -> Result<()> {
    std::fs::create_dir_all(tmp)?;
    let contest = tmp.join("contest.toml");
    std::fs::write(
        &contest,
        format!(
            "name = \"bench\"\n[check]\ngames = 2\n[competition]\nformat = \"round-robin\"\n\
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
        db: None,
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
    let config = server.app.contest.competition(1000, Vec::new())?;
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
    let id = db.add_competition("test", &names).await?;
    db.set_status(id, None, "finished").await?;
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
