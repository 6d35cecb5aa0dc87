//! The JSON API (docs/server.md): the same data as the pages, for scripts. Calls that change
//! something authenticate with `Authorization: Bearer <token>` (`arena serve --add-user` prints it);
//! errors are `{"error": "…"}` with a 4xx or 5xx status.

use std::sync::Arc;

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::service::competitions::{self as competition_ops, Action};
use super::service::{bots as bot_files, games};
use super::{standings, ApiError, Bearer, HttpError, PathIds};
use crate::serve::db::Version;
use crate::serve::App;

type ApiResult = Result<Json<Value>, ApiError>;

/// The API's routes, under `/api`.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/health", get(health))
        .route("/workers", get(workers))
        .route("/bots", get(bots).post(upload))
        .route("/bots/{id}", get(bot))
        .route("/bots/{id}/versions/{number}/log", get(check_log))
        .route("/bots/{id}/disqualify", post(disqualify))
        .route("/bots/{id}/active", post(active))
        .route("/competitions", get(competitions).post(create_competition))
        .route("/competitions/{id}", get(competition))
        .route("/competitions/{id}/live", get(live))
        .route("/competitions/{id}/games/{game}", get(game))
        .route("/competitions/{id}/{action}", post(competition_action))
        .fallback(|| async { HttpError::not_found("such API call: see docs/server.md") })
}

async fn health(State(app): State<Arc<App>>) -> ApiResult {
    let bots = app.db.bots().await?.len();
    Ok(Json(
        json!({ "status": "ok", "contest": app.contest.config.name, "bots": bots }),
    ))
}

/// The workers (organiser only): each one's slots, last heartbeat and games, and the queue's games
/// by state.
async fn workers(State(app): State<Arc<App>>, Bearer(user): Bearer) -> ApiResult {
    admin(&user)?;
    let workers = app.db.workers().await?;
    let queue = app.db.queue_counts().await?;
    Ok(Json(json!({ "workers": workers, "queue": queue })))
}

/// A version as the API shows it.
pub fn version_json(v: &Version) -> Value {
    json!({
        "version": v.number,
        "check": v.check_status.word(),
        "detail": v.check_detail,
        "kind": v.kind,
        "bytes": v.bytes,
        "uploaded_ms": v.uploaded_ms,
        "verdict_ms": v.checked_ms.map(|t| t - v.uploaded_ms),
    })
}

async fn upload(
    State(app): State<Arc<App>>,
    Bearer(user): Bearer,
    form: Multipart,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    // Over its limits, its body is not even read.
    super::upload::within_quota(&app, &user, 0).await?;
    let received = super::upload::receive(&app, form, None).await?;
    let (id, version) = super::upload::accept(&app, &user, received).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "version": version, "check": "pending" })),
    ))
}

async fn bots(State(app): State<Arc<App>>) -> ApiResult {
    let mut out = Vec::new();
    for b in app.db.bots().await? {
        out.push(json!({ "id": b.id, "name": b.name, "owner": b.owner_name, "disqualified": b.disqualified }));
    }
    Ok(Json(Value::Array(out)))
}

async fn bot(State(app): State<Arc<App>>, PathIds(id): PathIds<i64>) -> ApiResult {
    let bot = crate::serve::web::bot_or_404(&app, id).await?;
    let versions = app.db.versions(id).await?;
    let latest = versions.first();
    let active = versions.iter().find(|v| Some(v.id) == bot.active_version);
    Ok(Json(json!({
        "id": bot.id,
        "name": bot.name,
        "owner": bot.owner_name,
        "version": latest.map(|v| v.number),
        "check": latest.map(|v| v.check_status.word()),
        "detail": latest.map(|v| v.check_detail.as_str()),
        "active_version": active.map(|v| v.number),
        "disqualified": bot.disqualified,
        "disqualified_reason": bot.disqualified_reason,
        "versions": versions.iter().map(version_json).collect::<Vec<_>>(),
    })))
}

async fn check_log(
    State(app): State<Arc<App>>,
    Bearer(user): Bearer,
    PathIds((id, number)): PathIds<(i64, i64)>,
) -> Result<String, ApiError> {
    Ok(bot_files::check_log_text(&app, Some(&user), id, number).await?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Disqualify {
    disqualified: bool,
    /// Why (required to disqualify; shown to the author and on the competition pages).
    #[serde(default)]
    reason: String,
}

async fn disqualify(
    State(app): State<Arc<App>>,
    Bearer(user): Bearer,
    PathIds(id): PathIds<i64>,
    body: Result<Json<Disqualify>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    admin(&user)?;
    let Json(d) = body.map_err(json_error)?;
    crate::serve::web::bot_or_404(&app, id).await?;
    let reason = if d.disqualified {
        super::reason_of(&d.reason)?
    } else {
        String::new()
    };
    app.db.set_disqualified(id, d.disqualified, &reason).await?;
    Ok(Json(
        json!({ "id": id, "disqualified": d.disqualified, "reason": reason }),
    ))
}

/// `{"version": N}`: the version new competitions take.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Active {
    version: i64,
}

/// The author's choice of the bot's active version.
async fn active(
    State(app): State<Arc<App>>,
    Bearer(user): Bearer,
    PathIds(id): PathIds<i64>,
    body: Result<Json<Active>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    let Json(a) = body.map_err(json_error)?;
    super::upload::choose_active(&app, &user, id, a.version).await?;
    Ok(Json(json!({ "id": id, "active_version": a.version })))
}

fn admin(user: &crate::serve::db::User) -> Result<(), HttpError> {
    if user.admin {
        Ok(())
    } else {
        Err(HttpError::forbidden("only the organiser may do this"))
    }
}

fn json_error(e: axum::extract::rejection::JsonRejection) -> HttpError {
    HttpError::new(e.status(), format!("malformed JSON: {}", e.body_text()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewCompetition {
    #[serde(default = "test")]
    kind: String,
}

fn test() -> String {
    "test".into()
}

async fn create_competition(
    State(app): State<Arc<App>>,
    Bearer(user): Bearer,
    body: Result<Json<NewCompetition>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    admin(&user)?;
    let Json(c) = body.map_err(json_error)?;
    let id = competition_ops::create(&app, competition_ops::kind_of(&c.kind)?).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))))
}

async fn competitions(State(app): State<Arc<App>>) -> ApiResult {
    let list = app.db.competitions().await?;
    Ok(Json(
        serde_json::to_value(list).map_err(anyhow::Error::from)?,
    ))
}

/// `scheduled` | `running` | `paused` | `finished` | `cancelled`, with the standings.
async fn competition(State(app): State<Arc<App>>, PathIds(id): PathIds<i64>) -> ApiResult {
    let c = crate::serve::web::competition_or_404(&app, id).await?;
    let table = standings::of(&app, id).await?;
    let entries = app.db.entries(id).await?;
    Ok(Json(json!({
        "id": c.id,
        "kind": c.kind,
        "status": c.status,
        "detail": c.detail,
        "created_ms": c.created_ms,
        "started_ms": c.started_ms,
        "finished_ms": c.finished_ms,
        "games": table.records.len(),
        "entries": entries,
        "standings": table.rows,
    })))
}

/// `{"reason": "…"}` of an action (optional; a cancellation's is shown on the competition's page).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    #[serde(default)]
    reason: String,
}

async fn competition_action(
    State(app): State<Arc<App>>,
    Bearer(user): Bearer,
    PathIds((id, action)): PathIds<(i64, String)>,
    body: axum::body::Bytes,
) -> ApiResult {
    admin(&user)?;
    let a: ActionBody = if body.iter().all(u8::is_ascii_whitespace) {
        ActionBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| HttpError::bad(format!("malformed JSON: {e}")))?
    };
    let reason = match a.reason.trim() {
        "" => String::new(),
        r => super::reason_of(r)?,
    };
    let status = competition_ops::act(&app, id, Action::of(&action)?, &reason).await?;
    Ok(Json(json!({ "id": id, "status": status })))
}

/// The games of competition `id` in progress: `[{"id", "first", "second", "moves", "board"}]`.
async fn game(
    State(app): State<Arc<App>>,
    PathIds((id, game)): PathIds<(i64, String)>,
) -> ApiResult {
    let g = games::finished(&app, id, &game).await?;
    Ok(Json(serde_json::to_value(g).map_err(anyhow::Error::from)?))
}

async fn live(State(app): State<Arc<App>>, PathIds(id): PathIds<i64>) -> ApiResult {
    crate::serve::web::competition_or_404(&app, id).await?;
    let games = crate::serve::runner::live::games(&app.live, &app.db, id).await?;
    Ok(Json(
        serde_json::to_value(games).map_err(anyhow::Error::from)?,
    ))
}
