//! The pages: competitions (`/`), a competition's standings, crosstable, games and replay
//! (`/competitions/{id}`, its `report.html`, its downloads), a game's replay page and the live board
//! ([`games`]), the bots (`/bots`, `/bots/{id}`), the
//! upload form, logging in. Server-rendered HTML (maud: escaped by default, checked at compile
//! time); a page of something in progress reloads itself every few seconds.

pub mod account;
pub mod bots;
pub mod competitions;
pub mod games;
pub mod layout;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use crate::serve::App;

/// The largest body of a login or registration form, bytes.
const FORM_BYTES: usize = 4096;

/// The pages' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(competitions::home))
        // Browsers ask for it on every site: no icon, and no 404 in their console.
        .route(
            "/favicon.ico",
            get(|| async { axum::http::StatusCode::NO_CONTENT }),
        )
        // A login or registration form is a few hundred bytes: its body is capped at 4 KiB, not at
        // the upload's size.
        .route(
            "/login",
            get(account::login_form)
                .post(account::login)
                .layer(DefaultBodyLimit::max(FORM_BYTES)),
        )
        .route("/logout", post(account::logout))
        .route(
            "/register",
            get(account::register_form)
                .post(account::register)
                .layer(DefaultBodyLimit::max(FORM_BYTES)),
        )
        .route("/bots", get(bots::list).post(bots::upload))
        .route("/bots/new", get(bots::upload_form))
        .route("/bots/{id}", get(bots::show))
        .route("/bots/{id}/versions/{number}/log", get(bots::check_log))
        .route("/bots/{id}/competitions/{cid}/stderr", get(bots::stderr))
        .route("/bots/{id}/disqualify", post(bots::disqualify))
        .route("/bots/{id}/active", post(bots::active))
        .route("/competitions", post(competitions::create_form))
        .route("/competitions/{id}", get(competitions::show))
        .route("/competitions/{id}/report.html", get(competitions::report))
        .route("/competitions/{id}/live", get(games::live))
        .route("/competitions/{id}/games/{game}", get(games::replay))
        .route("/assets/{name}", get(games::asset))
        .route("/competitions/{id}/games.csv", get(competitions::games_csv))
        .route(
            "/competitions/{id}/download/{format}",
            get(competitions::download),
        )
        .route(
            "/competitions/{id}/{action}",
            post(competitions::action_form),
        )
}
