//! A competition's standings, computed from its `games.csv` as `arena ratings` computes them (Elo
//! with the 95% interval of Ordo's bootstrap), without the games of disqualified bots, and kept: a
//! request reads the kept table and never waits for a full computation, but the first one of a stopped
//! competition. While a competition runs, the table is computed again in the background at most every
//! [`STALE`] as games come in (one computation at a time for the whole server, whatever the number of
//! readers); once it stops, once more for its final games; and at once when a disqualification
//! changes it. The first reader of a running competition with no kept table (a restarted server) gets
//! a provisional table with a [`PROVISIONAL_BOOTSTRAP`]-sample bootstrap (after any computation under
//! way), and the full one is started in the background: with 200 bots the full bootstrap takes
//! seconds of CPU. Each computation reads and
//! re-referees only the games appended since the last ([`crate::results::read_games_more`]): a game
//! ended by the solver is proved again once, not at every computation.

use std::sync::Arc;

use anyhow::Result;
use serde::Serialize;

use crate::record::GameRecord;
use crate::report::{Report, ReportOptions};
use crate::results::GamesRead;
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

/// Bootstrap samples of a provisional table (the first one of a running competition): its intervals
/// and LOS carry a larger Monte Carlo error until the full table
/// ([`crate::report::DEFAULT_BOOTSTRAP`] samples), computed in the background at once, replaces it.
pub const PROVISIONAL_BOOTSTRAP: usize = 100;

/// A competition's standings as last computed.
#[derive(Debug)]
pub struct Cached {
    /// The length of `games.csv` they were computed from, bytes.
    pub len: u64,
    /// When.
    pub at: std::time::Instant,
    pub table: Arc<Table>,
    /// A background computation is under way.
    pub refreshing: bool,
    /// Computed with [`PROVISIONAL_BOOTSTRAP`] samples: replaced as soon as possible.
    pub provisional: bool,
    /// The games read so far, every one re-refereed once: the next computation reads only the lines
    /// appended since ([`crate::results::read_games_more`]).
    pub read: Arc<GamesRead>,
}

/// The standings of competition `id` (bots in entry order): the kept table when `games.csv` has not
/// grown and no disqualification changed, or (while the competition runs) the kept table while a newer
/// one is computed in the background.
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
    let names: Vec<String> = entries
        .iter()
        .filter(|e| !e.disqualified)
        .map(|e| e.name.clone())
        .collect();
    let csv_len =
        || std::fs::metadata(app.data.competition(id).join("games.csv")).map_or(0, |m| m.len());
    let len = csv_len();
    let running = app
        .db
        .competition(id)
        .await?
        .is_some_and(|c| c.status == crate::serve::db::CompetitionStatus::Running);
    {
        let mut cache = app.standings.lock().expect("the cache's lock");
        if let Some(t) = cache
            .get_mut(&id)
            .filter(|t| t.table.disqualified == disqualified)
        {
            if t.len == len && !t.provisional {
                return Ok(Arc::clone(&t.table));
            }
            if running {
                if !t.refreshing && (t.provisional || t.at.elapsed() >= STALE) {
                    t.refreshing = true;
                    spawn_refresh(app, id, names, disqualified);
                }
                return Ok(Arc::clone(&t.table));
            }
        }
    }
    // None kept, a stopped competition's last games, or a disqualification: computed now, one
    // computation at a time (a reader that waited finds the table another one computed); provisional
    // while the competition runs, the full table following in the background.
    let _computing = app.standings_computing.lock().await;
    if let Some(t) = app.standings.lock().expect("the cache's lock").get(&id) {
        if t.len == csv_len() && t.table.disqualified == disqualified && (running || !t.provisional)
        {
            return Ok(Arc::clone(&t.table));
        }
    }
    let table = compute_and_keep(app, id, names.clone(), disqualified.clone(), running).await?;
    if running {
        // The full table at once, after this one (it waits for the lock held here).
        if let Some(t) = app.standings.lock().expect("the cache's lock").get_mut(&id) {
            t.refreshing = true;
        }
        spawn_refresh(app, id, names, disqualified);
    }
    Ok(table)
}

/// Starts [`refresh`] in the background; it clears the kept table's `refreshing` when done. Call
/// with `refreshing` set.
fn spawn_refresh(app: &Arc<App>, id: i64, names: Vec<String>, disqualified: Vec<String>) {
    let app = Arc::clone(app);
    tokio::spawn(async move {
        if let Err(e) = refresh(&app, id, names, disqualified).await {
            crate::errln!("arena serve: the standings of competition {id}: {e:#}");
        }
        if let Some(t) = app.standings.lock().expect("the cache's lock").get_mut(&id) {
            t.refreshing = false;
        }
    });
}

/// Computes competition `id`'s table in the background (one computation at a time) and keeps it.
async fn refresh(
    app: &Arc<App>,
    id: i64,
    names: Vec<String>,
    disqualified: Vec<String>,
) -> Result<()> {
    let _computing = app.standings_computing.lock().await;
    compute_and_keep(app, id, names, disqualified, false).await?;
    Ok(())
}

/// Computes competition `id`'s table off the async threads and keeps it: `provisional`, with
/// [`PROVISIONAL_BOOTSTRAP`] samples. Call with `standings_computing` held.
async fn compute_and_keep(
    app: &Arc<App>,
    id: i64,
    names: Vec<String>,
    disqualified: Vec<String>,
    provisional: bool,
) -> Result<Arc<Table>> {
    let path = app.data.competition(id);
    // The length before reading: a game appended meanwhile makes the next reader compute again.
    let len = std::fs::metadata(path.join("games.csv")).map_or(0, |m| m.len());
    let before = app
        .standings
        .lock()
        .expect("the cache's lock")
        .get(&id)
        .map(|t| Arc::clone(&t.read));
    let (table, read) = {
        let disqualified = disqualified.clone();
        tokio::task::spawn_blocking(move || {
            compute(&path, &names, disqualified, before.as_deref(), provisional)
        })
        .await??
    };
    let table = Arc::new(table);
    app.standings.lock().expect("the cache's lock").insert(
        id,
        Cached {
            len,
            at: std::time::Instant::now(),
            table: Arc::clone(&table),
            refreshing: false,
            provisional,
            read: Arc::new(read),
        },
    );
    Ok(table)
}

/// The table of the competition in `dir`, and its games as read (after `before`, when given);
/// `provisional`, with [`PROVISIONAL_BOOTSTRAP`] samples.
fn compute(
    dir: &std::path::Path,
    names: &[String],
    disqualified: Vec<String>,
    before: Option<&GamesRead>,
    provisional: bool,
) -> Result<(Table, GamesRead)> {
    let read = crate::results::read_games_more(&dir.join("games.csv"), before)?;
    let records: Vec<GameRecord> = read
        .games
        .iter()
        .filter(|r| !disqualified.contains(&r.first) && !disqualified.contains(&r.second))
        .cloned()
        .collect();
    let mut opts = ReportOptions::recorded(dir, names);
    if provisional {
        opts.bootstrap = PROVISIONAL_BOOTSTRAP;
    }
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
            // As people read them: 0.1 Elo, whole bounds, no `-0` and no `2.5e-15`.
            elo: s.rating.as_ref().map(|r| rounded(r.elo, 1)),
            elo_low: s.rating.as_ref().map(|r| rounded(r.low, 0)),
            elo_high: s.rating.as_ref().map(|r| rounded(r.high, 0)),
            forfeits: s.forfeits.iter().sum(),
        })
        .collect();
    Ok((
        Table {
            rows,
            records,
            report,
            disqualified,
        },
        read,
    ))
}

/// `x` rounded to `decimals` places, with `-0` made `0`; infinities stay (the API writes them as
/// `null`, the page as ∞).
pub fn rounded(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let r = (x * scale).round() / scale;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

#[cfg(test)]
mod rounding_tests {
    use super::rounded;

    #[test]
    fn ratings_are_rounded_without_negative_zero_or_noise() {
        assert_eq!(rounded(2.5e-15, 1).to_string(), "0");
        assert!(rounded(-0.04, 1).is_sign_positive());
        assert_eq!(rounded(12.345, 1).to_string(), "12.3");
        assert_eq!(rounded(-180.6, 0), -181.0);
        assert_eq!(rounded(f64::INFINITY, 0), f64::INFINITY);
    }
}
