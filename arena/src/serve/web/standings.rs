//! A competition's standings, computed from its `games.csv` as `arena ratings` computes them (Elo
//! with the 95% interval of Ordo's bootstrap), without the games of disqualified bots, and cached
//! until the file grows (by at most [`STALE`] while the competition runs) or a disqualification
//! changes.

use std::sync::Arc;

use anyhow::Result;
use serde::Serialize;

use crate::record::GameRecord;
use crate::report::{Report, ReportOptions};
use crate::serve::App;

/// One bot's line, best first.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub rank: usize,
    pub bot: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: f64,
    /// Elo; `None` before the bot's first game.
    pub elo: Option<f64>,
    /// The 95% interval's ends.
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    /// Games it lost by forfeit.
    pub forfeits: u32,
}

/// A competition's standings and the games they count.
#[derive(Debug)]
pub struct Table {
    pub rows: Vec<Row>,
    /// The games counted, in `games.csv` order.
    pub records: Vec<GameRecord>,
    /// The report they come from (the crosstable, for the page).
    pub report: Report,
    /// Bots disqualified: their games are not counted.
    pub disqualified: Vec<String>,
}

/// How old the standings of a running competition may be.
pub const STALE: std::time::Duration = std::time::Duration::from_secs(5);

/// A competition's standings as last computed.
#[derive(Debug)]
pub struct Cached {
    /// The length of `games.csv` they were computed from, bytes.
    pub len: u64,
    /// When.
    pub at: std::time::Instant,
    pub table: Arc<Table>,
}

/// The standings of competition `id` (bots in entry order), from the cache when `games.csv` has not
/// grown and no disqualification changed.
///
/// # Errors
/// A `games.csv` that does not read (a row that does not follow from its moves), a database error.
pub async fn of(app: &Arc<App>, id: i64) -> Result<Arc<Table>> {
    let entries = app.db.entries(id).await?;
    let disqualified: Vec<String> = entries
        .iter()
        .filter(|e| e.disqualified)
        .map(|e| e.name.clone())
        .collect();
    let dir = crate::results::ResultsDir {
        path: app.data.competition(id),
    };
    let csv = dir.games_csv();
    let len = std::fs::metadata(&csv).map_or(0, |m| m.len());
    // While a competition runs, standings up to STALE old are served as they are: a field of 200
    // bots takes seconds to rate (docs/benchmarks.md), and a game ends every few milliseconds.
    let running = app
        .db
        .competition(id)
        .await?
        .is_some_and(|c| c.status == "running");
    if let Some(t) = app.standings.lock().expect("the cache's lock").get(&id) {
        let fresh = t.len == len || (running && t.at.elapsed() < STALE);
        if fresh && t.table.disqualified == disqualified {
            return Ok(Arc::clone(&t.table));
        }
    }
    let names: Vec<String> = entries
        .iter()
        .filter(|e| !e.disqualified)
        .map(|e| e.name.clone())
        .collect();
    let table = {
        let path = dir.path.clone();
        let disqualified = disqualified.clone();
        tokio::task::spawn_blocking(move || compute(&path, &names, disqualified)).await??
    };
    let table = Arc::new(table);
    app.standings.lock().expect("the cache's lock").insert(
        id,
        Cached {
            len,
            at: std::time::Instant::now(),
            table: Arc::clone(&table),
        },
    );
    Ok(table)
}

fn compute(dir: &std::path::Path, names: &[String], disqualified: Vec<String>) -> Result<Table> {
    let records: Vec<GameRecord> = crate::results::read_games_live(&dir.join("games.csv"))?
        .into_iter()
        .filter(|r| !disqualified.contains(&r.first) && !disqualified.contains(&r.second))
        .collect();
    let opts = ReportOptions::recorded(dir, names);
    let report = Report::new(names, &records, &opts)?;
    let rows = report
        .standings
        .iter()
        .map(|s| Row {
            rank: s.rank,
            bot: s.bot.clone(),
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            points: s.points,
            elo: s.rating.as_ref().map(|r| r.elo),
            elo_low: s.rating.as_ref().map(|r| r.low),
            elo_high: s.rating.as_ref().map(|r| r.high),
            forfeits: s.forfeits.iter().sum(),
        })
        .collect();
    Ok(Table {
        rows,
        records,
        report,
        disqualified,
    })
}
