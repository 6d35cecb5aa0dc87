//! The bots: the list, a bot's page (versions with their checks, its competitions and forfeits;
//! its check logs and stderr to its author only), the upload form and the organiser's
//! disqualification.

use std::sync::Arc;

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use maud::html;

use super::layout::{page, page_refreshing, when};
use crate::serve::db::CheckStatus;
use crate::serve::web::service::bots::{
    authored, check_log_text, check_summary, stderr_of, without_server_paths,
};
use crate::serve::web::service::public::public_detail;
use crate::serve::web::{standings, HttpError, PageError, PathIds, Viewer};
use crate::serve::App;

pub async fn list(State(app): State<Arc<App>>, viewer: Viewer) -> Result<Response, PageError> {
    let mut rows = Vec::new();
    for b in app.db.bots().await? {
        let versions = app.db.versions(b.id).await?;
        rows.push((b, versions));
    }
    let body = html! {
        @if rows.is_empty() { p { "No bot yet." } } @else {
            table {
                tr { th { "Bot" } th { "Author" } th { "Active version" } th { "Newest version" } th { "Its check" } }
                @for (b, vs) in &rows {
                    @let active = vs.iter().find(|v| Some(v.id) == b.active_version);
                    tr {
                        td { a href={ "/bots/" (b.id) } { (b.name) } @if b.disqualified { " (disqualified)" } }
                        td { (b.owner_name) }
                        td { @if let Some(v) = active { "v" (v.number) } @else { "—" } }
                        td { @if let Some(v) = vs.first() { "v" (v.number) } }
                        td { @if let Some(v) = vs.first() { span class=(v.check_status.word()) { (v.check_status.word()) } } }
                    }
                }
            }
        }
        @if viewer.user.is_some() { p { a href="/bots/new" { "Upload a bot" } } }
    };
    Ok(page("Bots", &viewer, body).into_response())
}

pub async fn upload_form(
    State(app): State<Arc<App>>,
    viewer: Viewer,
) -> Result<Response, PageError> {
    viewer.required()?;
    Ok(upload_page(&app, &viewer, "", None))
}

/// The upload form, with the bot's `name` filled in and the refusal `error` of the last try above it
/// (its status kept), so that a refused upload is tried again without typing anything twice.
fn upload_page(app: &App, viewer: &Viewer, name: &str, error: Option<HttpError>) -> Response {
    let u = &app.contest.config.upload;
    let body = html! {
        @if let Some(e) = &error { p.error { "Not uploaded: " (e.message) } }
        p { "A single executable (ELF or a script with #!), or a .tar.gz or .zip holding "
            code { "arena-bot.toml" } " at its root:" }
        pre { (include_str!("../../../../../configs/upload-example/arena-bot.toml")) }
        p { "At most " (u.max_mb) " MiB; " (u.max_unpacked_mb) " MiB and " (u.max_files) " files unpacked. "
            "Uploading under a name you own adds a version; the newest version that passes its check plays." }
        form method="post" action="/bots" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
            label { "Bot name " input type="text" name="name" value=(name) required pattern="[A-Za-z0-9_\\-]{1,32}"; }
            label { "File " input type="file" name="file" required; }
            button type="submit" { "Upload" }
        }
    };
    let status = error.map_or(StatusCode::OK, |e| e.status);
    (status, page("Upload a bot", viewer, body)).into_response()
}

pub async fn upload(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    form: Multipart,
) -> Result<Response, PageError> {
    let user = viewer.required()?.clone();
    if let Err(e) = crate::serve::web::upload::within_quota(&app, &user, 0).await {
        return Ok(upload_page(&app, &viewer, "", Some(e)));
    }
    let received = crate::serve::web::upload::receive(&app, form, Some(&viewer)).await?;
    let name = received.name.clone();
    match crate::serve::web::upload::accept(&app, &user, received).await {
        Ok((id, _)) => Ok(Redirect::to(&format!("/bots/{id}")).into_response()),
        // The server's own failure is an error page; the participant's, the form again.
        Err(e) if e.status.is_server_error() => Err(e.into()),
        Err(e) => Ok(upload_page(&app, &viewer, &name, Some(e))),
    }
}

pub async fn page_(app: &Arc<App>, viewer: &Viewer, id: i64) -> Result<Response, PageError> {
    let bot = crate::serve::web::bot_or_404(app, id).await?;
    let versions = app.db.versions(id).await?;
    let mine = viewer.user.as_ref().is_some_and(|u| u.id == bot.owner);
    let pending = versions
        .iter()
        .any(|v| matches!(v.check_status, CheckStatus::Pending | CheckStatus::Running));
    // The newest version whose check was played: its score against each reference bot.
    let checked = versions
        .iter()
        .find(|v| v.checked_ms.is_some())
        .and_then(|v| {
            Some((
                v.number,
                check_summary(app, &bot.name, v.number, &v.manifest)?,
            ))
        });
    let mut played = Vec::new();
    for c in app.db.competitions_of(id).await? {
        let table = standings::of(app, c.id).await?;
        let row = table.rows.iter().find(|r| r.bot == bot.name).cloned();
        let forfeits: Vec<(String, String)> = table
            .records
            .iter()
            .filter(|g| {
                g.termination.is_forfeit() && g.detail.starts_with(&format!("{}: ", bot.name))
            })
            .map(|g| (g.id.clone(), public_detail(&g.detail).to_string()))
            .collect();
        played.push((c, row, forfeits));
    }
    let body = html! {
        p { "Author: " (bot.owner_name) @if bot.disqualified { " — " strong.error { "disqualified" } } }
        @if bot.disqualified && !bot.disqualified_reason.is_empty() { p.error { "Disqualified by the organiser: " (bot.disqualified_reason) } }
        h2 { "Versions" }
        table.versions {
            tr { th { "Version" } th { "Uploaded" } th { "Kind" } th { "Bytes" } th { "Check" } th { "Verdict after" } th { "Detail" } @if mine { th { "Log" } } }
            @for v in &versions {
                tr {
                    td { "v" (v.number) @if Some(v.id) == bot.active_version { " (active)" } }
                    td { (when(v.uploaded_ms)) }
                    td { (v.kind) }
                    td.n { (v.bytes) }
                    td { span class=(v.check_status.word()) { (v.check_status.word()) } }
                    td.n { @if let Some(t) = v.checked_ms { (format!("{:.1} s", (t - v.uploaded_ms) as f64 / 1000.0)) } }
                    td { (v.check_detail) }
                    @if mine { td { @if v.checked_ms.is_some() { a href={ "/bots/" (id) "/versions/" (v.number) "/log" } { "transcript and stderr" } }
                        @if v.check_status == CheckStatus::Passed && Some(v.id) != bot.active_version {
                            " "
                            form.inline method="post" action={ "/bots/" (id) "/active" } {
                                input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                                input type="hidden" name="version" value=(v.number);
                                button type="submit" { "make active" }
                            }
                        } } }
                }
            }
        }
        @if let Some((number, check)) = &checked {
            h2 { "Check of v" (number) }
            table.check {
                tr { th { "Against" } th { "Games" } th { "Points" } th { "Forfeits" } }
                @for r in &check.rows {
                    tr { td { (r.reference) } td.n { (r.games) } td.n { (r.points) } td.n { (r.forfeits) } }
                }
            }
            @if mine { @if let Some(hint) = &check.likely_mistake { p.error { "Likely mistake (from what it printed in its first game lost on time): " (hint) } } }
        }
        h2 { "Competitions" }
        @if played.is_empty() { p { "None yet." } }
        @for (c, row, forfeits) in &played {
            h3 { a href={ "/competitions/" (c.id) } { "Competition " (c.id) " (" (c.kind) ", " (c.status) ")" } }
            @if let Some(r) = row {
                p { "Rank " (r.rank) ": " (r.points) " points in " (r.games) " games (+" (r.wins) " =" (r.draws) " −" (r.losses) "), Elo "
                    (super::layout::elo(r.elo, r.elo_low, r.elo_high)) }
            }
            @if !forfeits.is_empty() {
                p { "Forfeits:" }
                ul { @for (g, d) in forfeits { li { "game " a href={ "/competitions/" (c.id) "/games/" (g) } { (g) } ": " (d) } } }
            }
            @if mine { p { a href={ "/bots/" (id) "/competitions/" (c.id) "/stderr" } { "its stderr in this competition" } } }
        }
        @if viewer.user.as_ref().is_some_and(|u| u.admin) {
            h2 { "Organiser" }
            form.disqualify method="post" action={ "/bots/" (id) "/disqualify" } {
                input type="hidden" name="csrf" value=(viewer.csrf.clone().unwrap_or_default());
                input type="hidden" name="disqualified" value=(if bot.disqualified { "false" } else { "true" });
                @if !bot.disqualified {
                    label { "Reason (shown to its author and on the competition pages) " input type="text" name="reason" required maxlength="500"; }
                }
                label { input type="checkbox" name="confirm" value="yes" required;
                    @if bot.disqualified { " Reinstate this bot: it enters new competitions again" }
                    @else { " Disqualify this bot: its games leave every standings table" } }
                button type="submit" { @if bot.disqualified { "Reinstate" } @else { "Disqualify" } }
            }
        }
    };
    Ok(page_refreshing(&bot.name, viewer, body, pending.then_some(3)).into_response())
}

pub async fn show(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds(id): PathIds<i64>,
) -> Result<Response, PageError> {
    page_(&app, &viewer, id).await
}

pub async fn check_log(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds((id, number)): PathIds<(i64, i64)>,
) -> Result<String, PageError> {
    Ok(check_log_text(&app, viewer.user.as_ref(), id, number).await?)
}

pub async fn stderr(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds((id, cid)): PathIds<(i64, i64)>,
) -> Result<String, PageError> {
    let bot = authored(&app, viewer.user.as_ref(), id).await?;
    Ok(without_server_paths(
        &app,
        &stderr_of(&app.data.competition(cid), &bot.name),
    ))
}

#[derive(serde::Deserialize)]
pub struct DisqualifyForm {
    #[serde(default)]
    csrf: String,
    disqualified: bool,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    confirm: String,
}

#[derive(serde::Deserialize)]
pub struct ActiveForm {
    #[serde(default)]
    csrf: String,
    version: i64,
}

/// The author's choice of the version new competitions take.
pub async fn active(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds(id): PathIds<i64>,
    Form(f): Form<ActiveForm>,
) -> Result<Response, PageError> {
    let user = viewer.check_csrf(&f.csrf)?;
    crate::serve::web::upload::choose_active(&app, user, id, f.version).await?;
    Ok(Redirect::to(&format!("/bots/{id}")).into_response())
}

pub async fn disqualify(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds(id): PathIds<i64>,
    Form(f): Form<DisqualifyForm>,
) -> Result<Response, PageError> {
    viewer.check_admin(&f.csrf)?;
    crate::serve::web::bot_or_404(&app, id).await?;
    crate::serve::web::confirmed(&f.confirm)?;
    let reason = if f.disqualified {
        crate::serve::web::reason_of(&f.reason)?
    } else {
        String::new()
    };
    app.db.set_disqualified(id, f.disqualified, &reason).await?;
    Ok(Redirect::to(&format!("/bots/{id}")).into_response())
}
