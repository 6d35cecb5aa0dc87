//! The competitions: the list (the home page) with the organiser's form to start one, a
//! competition's page (standings with Elo and its interval, crosstable, latest games, downloads,
//! the organiser's pause, resume, cancel and re-rate), its replayable report and its downloads.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use maud::html;

use super::layout::{elo, page_refreshing, when};
use crate::serve::web::api::check_word;
use crate::serve::web::{standings, HttpError, PageError, PathIds, Viewer};
use crate::serve::App;

/// The most bots whose crosstable the competition's page shows (a 200-bot table is 40,000 cells:
/// the report has it).
const CROSSTABLE_MAX: usize = 32;

/// Creates a competition of `kind` (`test` or `final`) among the active versions now, and wakes the
/// competition loop.
///
/// # Errors
/// Another kind (400), a database error.
pub async fn create(app: &App, kind: &str) -> Result<i64, HttpError> {
    if kind != "test" && kind != "final" {
        return Err(HttpError::bad(format!(
            "kind {kind:?}: a competition is a test or the final"
        )));
    }
    // At least two entries, or the competition could only fail.
    let references = app.contest.playing_references();
    let bots = app.db.playing_bots().await? as usize;
    if references.len() + bots < 2 {
        return Err(HttpError::new(
            axum::http::StatusCode::CONFLICT,
            format!(
                "a competition needs two bots or more: it would have {} (no participant's bot has \
                 passed its check yet, or every one is disqualified)",
                references.len() + bots
            ),
        ));
    }
    let id = app.db.add_competition(kind, &references).await?;
    app.wake_competitions.notify_one();
    Ok(id)
}

/// The organiser's `action` on competition `id`: `pause`, `resume`, `cancel` or `rerate` (the
/// standings recomputed and, once it is over, its `standings.csv` and `report.html` rewritten).
/// A cancellation's `reason` is shown on the competition's page. Returns its status after.
///
/// # Errors
/// No such competition or action (404), an action its status does not allow (409).
pub async fn act(app: &Arc<App>, id: i64, action: &str, reason: &str) -> Result<String, HttpError> {
    let c = crate::serve::web::competition_or_404(app, id).await?;
    let conflict = || {
        HttpError::new(
            axum::http::StatusCode::CONFLICT,
            format!("competition {id} is {}: it cannot {action}", c.status),
        )
    };
    let stop = || {
        if let Some(tx) = app.stops.lock().expect("the stops' lock").get(&id) {
            let _ = tx.send(true);
        }
    };
    match action {
        "pause" => {
            if !app
                .db
                .set_status(id, Some(&["scheduled", "running"]), "paused")
                .await?
            {
                return Err(conflict());
            }
            stop();
        }
        "resume" => {
            if !app.db.set_status(id, Some(&["paused"]), "running").await? {
                return Err(conflict());
            }
            app.db.set_detail(id, "").await?;
            app.wake_competitions.notify_one();
        }
        "cancel" => {
            if !app
                .db
                .set_status(id, Some(&["scheduled", "running", "paused"]), "cancelled")
                .await?
            {
                return Err(conflict());
            }
            stop();
            if !reason.is_empty() {
                app.db
                    .set_detail(id, &format!("cancelled by the organiser: {reason}"))
                    .await?;
            }
        }
        "rerate" => {
            app.standings.lock().expect("the cache's lock").remove(&id);
            let table = standings::of(app, id).await?;
            if matches!(c.status.as_str(), "finished" | "cancelled") {
                let dir = app.data.competition(id);
                table.report.write(&dir)?;
                crate::report::html::write(
                    &dir,
                    &format!("competition-{id}"),
                    &table.records,
                    &table.report,
                )?;
            }
        }
        _ => {
            return Err(HttpError::not_found(format!(
                "action {action:?}: pause, resume, cancel or rerate"
            )))
        }
    }
    Ok(app
        .db
        .competition(id)
        .await?
        .map(|c| c.status)
        .unwrap_or_default())
}

pub async fn home(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, PageError> {
    let list = app.db.competitions().await?;
    let c = &app.contest.config;
    let game = c
        .competition
        .get("game")
        .and_then(|g| g.get("name"))
        .and_then(|n| n.as_str())
        .unwrap_or("?");
    let active = list
        .iter()
        .any(|c| matches!(c.status.as_str(), "scheduled" | "running"));
    // The leaderboard: the latest finished final, else the latest finished competition (the list is
    // newest first).
    let finished = |c: &&crate::serve::db::Competition| c.status == "finished";
    let latest = list
        .iter()
        .filter(finished)
        .find(|c| c.kind == "final")
        .or_else(|| list.iter().find(finished));
    let leaderboard = match latest {
        Some(l) => Some((l, standings::of(&app, l.id).await?)),
        None => None,
    };
    // When the next test competition starts by itself.
    let next_test = match c.schedule.test_every {
        _ if active => Some("a competition is scheduled or running now".to_string()),
        Some(every) => Some(match list.first() {
            Some(last) => format!(
                "the next test competition starts at {} (UTC)",
                when(last.created_ms + every.as_millis() as i64)
            ),
            None => "the first test competition starts within a minute".to_string(),
        }),
        None => None,
    };
    // The visitor's own bots and the verdict of each one's newest version.
    let mut mine = Vec::new();
    if let Some(user) = &viewer.user {
        for b in app
            .db
            .bots()
            .await?
            .into_iter()
            .filter(|b| b.owner == user.id)
        {
            let newest = app
                .db
                .versions(b.id)
                .await?
                .into_iter()
                .max_by_key(|v| v.number);
            mine.push((b, newest));
        }
    }
    let body = html! {
        p { "Game: " (game) ". Reference bots: " (app.contest.reference_names().join(", ")) ". "
            @if let Some(every) = c.schedule.test_every { "A test competition every " (humantime::format_duration(every)) ". " } }
        @if let Some(next) = &next_test { p.schedule { "Schedule: " (next) "." } }
        @if viewer.user.is_none() {
            p { a href="/login" { "Log in" } @if c.registration { " or " a href="/register" { "register" } } " to upload a bot." }
        }
        @if viewer.user.is_some() {
            h2 { "Your bots" }
            @if mine.is_empty() { p { "None yet: " a href="/bots/new" { "upload one" } "." } } @else {
                table.mine {
                    tr { th { "Bot" } th { "Newest version" } th { "Check" } th { "Detail" } }
                    @for (b, v) in &mine {
                        tr {
                            td { a href={ "/bots/" (b.id) } { (b.name) } @if b.disqualified { " (disqualified)" } }
                            @if let Some(v) = v {
                                td { "v" (v.number) }
                                td { span class=(check_word(&v.check_status)) { (check_word(&v.check_status)) } }
                                td { (v.check_detail) }
                            } @else { td {} td {} td {} }
                        }
                    }
                }
            }
        }
        @if let Some((l, table)) = &leaderboard {
            h2 { "Leaderboard" }
            p { "Competition " a href={ "/competitions/" (l.id) } { (l.id) } " (" (l.kind) ", finished " (l.finished_ms.map(when).unwrap_or_default()) "):" }
            table.leaderboard {
                tr { th { "Rank" } th { "Bot" } th { "Games" } th { "Points" } th { "Elo (95%)" } }
                @for r in table.rows.iter().take(10) {
                    tr { td.n { (r.rank) } td { (r.bot) } td.n { (r.games) } td.n { (r.points) }
                         td.n { (elo(r.elo, r.elo_low, r.elo_high)) } }
                }
            }
        }
        h2 { "Competitions" }
        @if list.is_empty() { p { "None yet." } } @else {
            table {
                tr { th { "#" } th { "Kind" } th { "Status" } th { "Created" } th { "Finished" } }
                @for c in &list {
                    tr {
                        td { a href={ "/competitions/" (c.id) } { (c.id) } }
                        td { (c.kind) } td { (c.status) } td { (when(c.created_ms)) }
                        td { @if let Some(f) = c.finished_ms { (when(f)) } }
                    }
                }
            }
        }
        @if viewer.user.as_ref().is_some_and(|u| u.admin) {
            h2 { "Organiser" }
            form method="post" action="/competitions" {
                input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                label { "Start a " select name="kind" { option value="test" { "test competition" } option value="final" { "final" } } }
                button type="submit" { "Start" }
            }
        }
    };
    Ok(page_refreshing(
        &app.contest.config.name,
        &viewer,
        body,
        active.then_some(10),
    )
    .into_response())
}

#[derive(serde::Deserialize)]
pub struct CreateForm {
    #[serde(default)]
    csrf: String,
    kind: String,
}

pub async fn create_form(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    Form(f): Form<CreateForm>,
) -> Result<Response, PageError> {
    viewer.check_admin(&f.csrf)?;
    let id = create(&app, &f.kind).await?;
    Ok(Redirect::to(&format!("/competitions/{id}")).into_response())
}

/// The organiser's form of an action: cancelling asks for a reason and a ticked confirmation.
#[derive(serde::Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    confirm: String,
}

pub async fn action_form(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds((id, action)): PathIds<(i64, String)>,
    Form(f): Form<ActionForm>,
) -> Result<Response, PageError> {
    viewer.check_admin(&f.csrf)?;
    let reason = if action == "cancel" {
        crate::serve::web::confirmed(&f.confirm)?;
        crate::serve::web::reason_of(&f.reason)?
    } else {
        String::new()
    };
    act(&app, id, &action, &reason).await?;
    Ok(Redirect::to(&format!("/competitions/{id}")).into_response())
}

pub async fn show(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds(id): PathIds<i64>,
) -> Result<Response, PageError> {
    let c = crate::serve::web::competition_or_404(&app, id).await?;
    let table = standings::of(&app, id).await?;
    let entries = app.db.entries(id).await?;
    let x = &table.report.crosstable;
    let live = matches!(c.status.as_str(), "scheduled" | "running");
    let live_games = crate::serve::runner::live::games(&app.live, &app.db, id).await?;
    let has = |format| {
        table
            .records
            .first()
            .is_some_and(|r| crate::report::html::has(r, format))
    };
    let (sgf, pons) = (
        has(games::RecordFormat::Sgf),
        has(games::RecordFormat::Pons),
    );
    let body = html! {
        p { (c.kind) " competition, " strong { (c.status) } ", " (table.records.len()) " games recorded. Created " (when(c.created_ms))
            @if let Some(s) = c.started_ms { ", started " (when(s)) } @if let Some(f) = c.finished_ms { ", ended " (when(f)) } "." }
        @if !c.detail.is_empty() { p.error { (if c.status == "cancelled" { "Cancelled: " } else { "Stopped: " }) (c.detail) } }
        @if c.status == "paused" { p.error { "Paused: no game is played until the organiser resumes it." } }
        p { "Entries: " @for (i, e) in entries.iter().enumerate() {
            @if i > 0 { ", " }
            @if let Some(b) = e.bot_id { a href={ "/bots/" (b) } { (e.name) } } @else { (e.name) " (reference)" }
            @if e.disqualified { " (disqualified" @if !e.disqualified_reason.is_empty() { ": " (e.disqualified_reason) } ")" }
        } }
        h2 { "Standings" }
        table id="standings" {
            tr { th { "Rank" } th { "Bot" } th { "Games" } th { "Points" } th { "+" } th { "=" } th { "−" } th { "Forfeits" } th { "Elo (95%)" } }
            @for r in &table.rows {
                tr { td.n { (r.rank) } td { (r.bot) } td.n { (r.games) } td.n { (r.points) } td.n { (r.wins) } td.n { (r.draws) } td.n { (r.losses) } td.n { (r.forfeits) }
                     td.n { (elo(r.elo, r.elo_low, r.elo_high)) } }
            }
        }
        h2 { "Crosstable" }
        @if x.bots.len() <= CROSSTABLE_MAX {
            table id="crosstable" {
                tr { th {} @for b in &x.bots { th { (b) } } }
                @for (i, b) in x.bots.iter().enumerate() {
                    tr { th { (b) } @for j in 0..x.bots.len() { td.n { @if i != j && x.games[i][j] > 0 { (x.points[i][j]) "/" (x.games[i][j]) } } } }
                }
            }
        } @else {
            p { (x.bots.len()) " bots: the crosstable is in " a href={ "/competitions/" (id) "/report.html#crosstable" } { "the report" } "." }
        }
        h2 { "Games" }
        @if !live_games.is_empty() && c.status == "running" {
            p { a href={ "/competitions/" (id) "/live" } { (live_games.len()) " game(s) in progress: watch them live" } }
        }
        p { a id="replay" href={ "/competitions/" (id) "/report.html" } { "Every game, with a replay of each" } " · downloads: "
            a href={ "/competitions/" (id) "/games.csv" } { "games.csv" } " · "
            a href={ "/competitions/" (id) "/download/pgn" } { "PGN" }
            // Only the formats its games have.
            @if sgf { " · " a href={ "/competitions/" (id) "/download/sgf" } { "SGF" } }
            @if pons { " · " a href={ "/competitions/" (id) "/download/pons" } { "Pons's digits" } } }
        table id="games" {
            tr { th { "Game" } th { "First" } th { "Second" } th { "Result" } th { "Ending" } th { "Plies" } }
            @for g in table.records.iter().rev().take(50) {
                tr { td { a href={ "/competitions/" (id) "/games/" (g.id) } { (g.id) } } td { (g.first) } td { (g.second) } td { (g.result.to_string()) } td { (g.termination.as_str()) @if g.termination.is_forfeit() { ": " (crate::serve::web::public_detail(&g.detail)) } } td.n { (g.plies) } }
            }
        }
        @if viewer.user.as_ref().is_some_and(|u| u.admin) {
            h2 { "Organiser" }
            // Each action only where the competition's status allows it.
            @let status = c.status.as_str();
            @for action in ["pause", "resume", "rerate"] {
                @if match action { "pause" => matches!(status, "scheduled" | "running"), "resume" => status == "paused", _ => status != "scheduled" } {
                    form.inline method="post" action={ "/competitions/" (id) "/" (action) } {
                        input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                        button type="submit" { (action) }
                    }
                    " "
                }
            }
            @if matches!(status, "scheduled" | "running" | "paused") {
                form.cancel method="post" action={ "/competitions/" (id) "/cancel" } {
                    input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                    label { "Reason (shown on this page) " input type="text" name="reason" required maxlength="500"; }
                    label { input type="checkbox" name="confirm" value="yes" required; " Cancel this competition: its remaining games are not played" }
                    button type="submit" { "cancel" }
                }
            }
        }
    };
    Ok(page_refreshing(
        &format!("Competition {id}"),
        &viewer,
        body,
        live.then_some(5),
    )
    .into_response())
}

pub async fn report(
    State(app): State<Arc<App>>,
    PathIds(id): PathIds<i64>,
) -> Result<Response, PageError> {
    crate::serve::web::competition_or_404(&app, id).await?;
    let table = standings::of(&app, id).await?;
    let dir = app.data.competition(id);
    let html = crate::report::html::public_page_of(
        &dir,
        &format!("competition-{id}"),
        &crate::serve::web::public_records(&table.records),
        &table.report,
    );
    Ok((
        [(
            axum::http::header::CONTENT_SECURITY_POLICY,
            crate::report::html::content_security_policy(),
        )],
        axum::response::Html(html),
    )
        .into_response())
}

pub async fn games_csv(
    State(app): State<Arc<App>>,
    PathIds(id): PathIds<i64>,
) -> Result<Response, PageError> {
    crate::serve::web::competition_or_404(&app, id).await?;
    let bytes = crate::results::complete_lines(&app.data.competition(id).join("games.csv"))?;
    // A crashed bot's stderr stays with its author.
    let bytes = if bytes.is_empty() {
        bytes
    } else {
        crate::serve::web::public_csv(&bytes)?
    };
    Ok((
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"competition-{id}.csv\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

pub async fn download(
    State(app): State<Arc<App>>,
    PathIds((id, format)): PathIds<(i64, String)>,
) -> Result<Response, PageError> {
    crate::serve::web::competition_or_404(&app, id).await?;
    let table = standings::of(&app, id).await?;
    let event = format!("{} competition {id}", app.contest.config.name);
    let records = &crate::serve::web::public_records(&table.records);
    let (text, ext) = match format.as_str() {
        "pgn" => (crate::formats::pgn::write(records, &event), "pgn"),
        "pons" => (
            crate::formats::pons::write(records).map_err(HttpError::bad)?,
            "pons",
        ),
        // An SGF collection: one game tree after another.
        "sgf" => (
            records
                .iter()
                .map(|r| crate::formats::sgf::write(r, &event))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| HttpError::bad(e.to_string()))?
                .join("\n"),
            "sgf",
        ),
        other => {
            return Err(HttpError::not_found(format!("format {other:?}: pgn, sgf or pons")).into())
        }
    };
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"competition-{id}.{ext}\""),
            ),
        ],
        text,
    )
        .into_response())
}
