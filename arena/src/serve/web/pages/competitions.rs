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
use crate::serve::db::{CompetitionStatus, Kind};
use crate::serve::web::service::competitions::{self as ops, Action};
use crate::serve::web::service::public::{public_csv, public_detail, public_records};
use crate::serve::web::{standings, HttpError, PageError, PathIds, Viewer};
use crate::serve::App;

/// The most bots whose crosstable the competition's page shows (a 200-bot table is 40,000 cells:
/// the report has it).
const CROSSTABLE_MAX: usize = 32;

pub async fn home(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, PageError> {
    let list = app.db.competitions().await?;
    let c = &app.contest.config;
    let game = c
        .competition
        .get("game")
        .and_then(|g| g.get("name"))
        .and_then(|n| n.as_str())
        .unwrap_or("?");
    let active = list.iter().any(|c| c.status.is_live());
    // The leaderboard: the latest finished final, else the latest finished competition (the list is
    // newest first).
    let finished = |c: &&crate::serve::db::Competition| c.status == CompetitionStatus::Finished;
    let latest = list
        .iter()
        .filter(finished)
        .find(|c| c.kind == Kind::Final)
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
                                td { span class=(v.check_status.word()) { (v.check_status.word()) } }
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
    let id = ops::create(&app, ops::kind_of(&f.kind)?).await?;
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
    let action = Action::of(&action)?;
    let reason = if action == Action::Cancel {
        crate::serve::web::confirmed(&f.confirm)?;
        crate::serve::web::reason_of(&f.reason)?
    } else {
        String::new()
    };
    ops::act(&app, id, action, &reason).await?;
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
    let live = c.status.is_live();
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
        @if !c.detail.is_empty() { p.error { (if c.status == CompetitionStatus::Cancelled { "Cancelled: " } else { "Stopped: " }) (c.detail) } }
        @if c.status == CompetitionStatus::Paused { p.error { "Paused: no game is played until the organiser resumes it." } }
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
        @if !live_games.is_empty() && c.status == CompetitionStatus::Running {
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
                tr { td { a href={ "/competitions/" (id) "/games/" (g.id) } { (g.id) } } td { (g.first) } td { (g.second) } td { (g.result.to_string()) } td { (g.termination.as_str()) @if g.termination.is_forfeit() { ": " (public_detail(&g.detail)) } } td.n { (g.plies) } }
            }
        }
        @if viewer.user.as_ref().is_some_and(|u| u.admin) {
            h2 { "Organiser" }
            // Each action only where the competition's status allows it.
            // A scheduled competition has no standings yet to re-rate.
            @for action in [Action::Pause, Action::Resume, Action::Rerate] {
                @if action.applies_to(c.status) && !(action == Action::Rerate && c.status == CompetitionStatus::Scheduled) {
                    form.inline method="post" action={ "/competitions/" (id) "/" (action.as_str()) } {
                        input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                        button type="submit" { (action.as_str()) }
                    }
                    " "
                }
            }
            @if Action::Cancel.applies_to(c.status) {
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
        &public_records(&table.records),
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
        public_csv(&bytes)?
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
    let records = &public_records(&table.records);
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
