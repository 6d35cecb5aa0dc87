//! A game on the site: the replay page of every finished game (`/competitions/{id}/games/{game}`,
//! linked from every game row) and the live board of a competition's games in progress
//! (`/competitions/{id}/live`). Both are drawn in the browser by the one board renderer
//! ([`crate::frames::BOARD_JS`], served as `/assets/board.js`) from the board pictures the games crate
//! draws ([`crate::frames`]); the page script is `/assets/viewer.js`.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use maud::{html, PreEscaped};
use serde::Serialize;

use super::layout::page;
use crate::serve::web::service::games::finished;
use crate::serve::web::{HttpError, PageError, PathIds, Viewer};
use crate::serve::App;

/// The page script of the replay and live pages.
const VIEWER_JS: &str = include_str!("../assets/viewer.js");

/// The style sheet of every page.
const SITE_CSS: &str = include_str!("../assets/site.css");

/// `GET /assets/{name}`: the board renderer (`board.js`), the page script (`viewer.js`) and the
/// style sheet (`site.css`).
///
/// # Errors
/// Any other name (404).
pub async fn asset(PathIds(name): PathIds<String>) -> Result<Response, PageError> {
    let (text, kind) = match name.as_str() {
        "board.js" => (crate::frames::BOARD_JS, "text/javascript; charset=utf-8"),
        "viewer.js" => (VIEWER_JS, "text/javascript; charset=utf-8"),
        "site.css" => (SITE_CSS, "text/css; charset=utf-8"),
        _ => return Err(HttpError::not_found(format!("asset {name:?}")).into()),
    };
    Ok((
        [(CONTENT_TYPE, kind), (CACHE_CONTROL, "public, max-age=300")],
        text,
    )
        .into_response())
}

/// JSON inside `<script>`: no `<` at all, so no `</script>` or `<!--` can end or confuse it.
fn script_json<T: Serialize>(value: &T) -> Result<PreEscaped<String>, HttpError> {
    let text = serde_json::to_string(value).map_err(anyhow::Error::from)?;
    Ok(PreEscaped(text.replace('<', "\\u003c")))
}

/// `GET /competitions/{id}/games/{game}`: the replay page.
pub async fn replay(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds((id, game)): PathIds<(i64, String)>,
) -> Result<Response, PageError> {
    let g = finished(&app, id, &game).await?;
    let data = script_json(&g)?;
    let body = html! {
        p.info {
            a href={ "/competitions/" (id) } { "Competition " (id) } " · " (g.game) " · "
            span.first { (g.first) } " (first) vs " span.second { (g.second) } " (second) · "
            strong { (g.result) } ", " (g.termination) @if !g.detail.is_empty() { " (" (g.detail) ")" }
            ", " (g.moves.len()) " plies" @if g.opening > 0 { ", " (g.opening) " of them the opening" }
        }
        @if let Some(e) = &g.replay.error { p.error { "The pictures stop early: " (e) } }
        div.viewer {
            div #board {}
            div.side {
                div.controls {
                    button #first title="first (Home)" { "|◀" } " "
                    button #prev title="previous (←)" { "◀" } " "
                    button #next title="next (→)" { "▶" } " "
                    button #last title="last (End)" { "▶|" } " "
                    span #ply-label {}
                }
                input #ply type="range" min="0" max="0" value="0";
                p #move-info {}
                div #score {}
                div #moves {}
            }
        }
        noscript { p { "The board needs JavaScript; the moves: " (g.moves.join(" ")) } }
        script #replay type="application/json" { (data) }
        script src="/assets/board.js" {}
        script src="/assets/viewer.js" {}
    };
    Ok(page(
        &format!(
            "Game {} of competition {id}: {} vs {}",
            g.id, g.first, g.second
        ),
        &viewer,
        body,
    )
    .into_response())
}

/// `GET /competitions/{id}/live`: the games in progress, graphical, each with both clocks and who
/// plays which side; the page polls `GET /api/competitions/{id}/live` every 2 s.
pub async fn live(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    PathIds(id): PathIds<i64>,
) -> Result<Response, PageError> {
    let c = crate::serve::web::competition_or_404(&app, id).await?;
    let games = crate::serve::runner::live::games(&app.live, &app.db, id).await?;
    let data = script_json(&games)?;
    let body = html! {
        p { a href={ "/competitions/" (id) } { "Competition " (id) } " is " (c.status) "; the board follows its games as they are played." }
        div #live data-src={ "/api/competitions/" (id) "/live" } {}
        noscript {
            @for g in &games {
                section {
                    h2 { (g.id) ": " (g.first) " – " (g.second) ", ply " (g.moves.len()) }
                    pre.board { (g.board) }
                }
            }
        }
        script #live-data type="application/json" { (data) }
        script src="/assets/board.js" {}
        script src="/assets/viewer.js" {}
    };
    Ok(page(&format!("Competition {id}: live"), &viewer, body).into_response())
}
