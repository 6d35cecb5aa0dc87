//! A competition's standings, computed from its `games.csv` as `arena ratings` computes them (Elo
//! with the 95% interval of Ordo's bootstrap), without the games of disqualified bots, and cached
//! until the file grows or a disqualification changes.

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
    if let Some((l, t)) = app.standings.lock().expect("the cache's lock").get(&id) {
        if *l == len && t.disqualified == disqualified {
            return Ok(Arc::clone(t));
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
    app.standings
        .lock()
        .expect("the cache's lock")
        .insert(id, (len, Arc::clone(&table)));
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
