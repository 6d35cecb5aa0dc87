//! The HTTP side of `arena serve`: server-rendered pages ([`pages`], usable without JavaScript) and a
//! JSON API beside them ([`api`], documented in docs/server.md), on axum. Pages authenticate by a
//! session cookie and check a CSRF token on every form; the API authenticates by
//! `Authorization: Bearer <token>` and takes no cookie, so a forged cross-site request carries no
//! credential it honours.

pub mod api;
pub mod pages;
pub mod standings;
pub mod upload;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use axum_extra::extract::CookieJar;
use tower_http::set_header::SetResponseHeaderLayer;

use super::auth;
use super::db::User;
use super::App;

/// The router of every page and API call.
pub fn router(app: Arc<App>) -> Router {
    // The multipart envelope around the largest upload.
    let limit = (app.contest.config.upload.limits().max_upload_bytes + 64 * 1024) as usize;
    let header = |name, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    Router::new()
        .merge(pages::routes())
        .nest("/api", api::routes())
        .layer(DefaultBodyLimit::max(limit))
        // The pages load nothing from elsewhere, are framed nowhere, and post only to this server.
        .layer(header(
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
        ))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .with_state(app)
}

/// An error with its HTTP status and a message for the user; the API answers it as
/// `{"error": message}`, a page as a page.
#[derive(Debug)]
pub struct HttpError {
    pub status: StatusCode,
    pub message: String,
}

impl HttpError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            message: message.into(),
        }
    }
    pub fn bad(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn forbidden(message: impl Into<String>) -> HttpError {
        HttpError::new(StatusCode::FORBIDDEN, message)
    }
    pub fn not_found(what: impl std::fmt::Display) -> HttpError {
        HttpError::new(StatusCode::NOT_FOUND, format!("no {what}"))
    }
}

impl From<anyhow::Error> for HttpError {
    fn from(e: anyhow::Error) -> HttpError {
        crate::errln!("arena serve: {e:#}");
        HttpError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error (logged by the server)",
        )
    }
}

impl From<sqlx::Error> for HttpError {
    fn from(e: sqlx::Error) -> HttpError {
        anyhow::Error::from(e).into()
    }
}

/// A game's forfeit detail as the public pages show it: without the end of the bot's stderr, which
/// only its author reads (its check log, its stderr page).
pub fn public_detail(detail: &str) -> &str {
    detail
        .split_once(crate::game::process::STDERR_ENDS)
        .map_or(detail, |(before, _)| before)
}

/// Competition `id`, or 404.
///
/// # Errors
/// No such competition (404), a database error.
pub async fn competition_or_404(
    app: &App,
    id: i64,
) -> Result<crate::serve::db::Competition, HttpError> {
    app.db
        .competition(id)
        .await?
        .ok_or_else(|| HttpError::not_found(format!("competition {id}")))
}

/// Bot `id`, or 404.
///
/// # Errors
/// No such bot (404), a database error.
pub async fn bot_or_404(app: &App, id: i64) -> Result<crate::serve::db::Bot, HttpError> {
    app.db
        .bot(id)
        .await?
        .ok_or_else(|| HttpError::not_found(format!("bot {id}")))
}

/// An API error: `{"error": "…"}` with the status.
#[derive(Debug)]
pub struct ApiError(pub HttpError);

impl<E: Into<HttpError>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.0.status,
            axum::Json(serde_json::json!({ "error": self.0.message })),
        )
            .into_response()
    }
}

/// A page's error: a small page with the status and the message.
#[derive(Debug)]
pub struct PageError(pub HttpError);

impl<E: Into<HttpError>> From<E> for PageError {
    fn from(e: E) -> PageError {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let title = self.0.status.canonical_reason().unwrap_or("error");
        let body = pages::layout::page(
            title,
            &Viewer::default(),
            maud::html! { p.error { (self.0.message) } },
        );
        (self.0.status, body).into_response()
    }
}

/// Who is looking at a page: the account of the session cookie, if any, and its CSRF token.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub user: Option<User>,
    pub csrf: Option<String>,
    /// The session cookie's value hashed (to end it).
    pub session: Option<String>,
}

impl Viewer {
    /// The account, or 403 asking to log in.
    ///
    /// # Errors
    /// No session.
    pub fn required(&self) -> Result<&User, HttpError> {
        self.user
            .as_ref()
            .ok_or_else(|| HttpError::forbidden("log in first"))
    }

    /// Checks a form's `csrf` field against the session's token.
    ///
    /// # Errors
    /// No session, or a token that is not the session's (a forged request): 403.
    pub fn check_csrf(&self, csrf: &str) -> Result<&User, HttpError> {
        let user = self.required()?;
        match &self.csrf {
            Some(t) if auth::same(t, csrf) => Ok(user),
            _ => Err(HttpError::forbidden(
                "the form's CSRF token is missing or wrong: reload the page and try again",
            )),
        }
    }

    /// The organiser's account.
    ///
    /// # Errors
    /// As [`Viewer::check_csrf`], or an account that is not an organiser's.
    pub fn check_admin(&self, csrf: &str) -> Result<&User, HttpError> {
        let user = self.check_csrf(csrf)?;
        if user.admin {
            Ok(user)
        } else {
            Err(HttpError::forbidden("only the organiser may do this"))
        }
    }
}

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Viewer, PageError> {
        let jar = CookieJar::from_headers(&parts.headers);
        let Some(cookie) = jar.get(auth::SESSION_COOKIE) else {
            return Ok(Viewer::default());
        };
        let hash = auth::sha256_hex(cookie.value());
        Ok(match app.db.session(&hash).await? {
            Some((user, csrf)) => Viewer {
                user: Some(user),
                csrf: Some(csrf),
                session: Some(hash),
            },
            None => Viewer::default(),
        })
    }
}

/// The account of an API call's `Authorization: Bearer <token>`.
#[derive(Clone, Debug)]
pub struct Bearer(pub User);

impl FromRequestParts<Arc<App>> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Bearer, ApiError> {
        let unauthorized = |m: &str| ApiError(HttpError::new(StatusCode::UNAUTHORIZED, m));
        let value = parts
            .headers
            .get(header::AUTHORIZATION)
            .ok_or_else(|| unauthorized("no Authorization: Bearer <token> header"))?
            .to_str()
            .map_err(|_| unauthorized("a malformed Authorization header"))?;
        let token = value
            .strip_prefix("Bearer ")
            .ok_or_else(|| unauthorized("the Authorization header must be Bearer <token>"))?;
        match app
            .db
            .user_by_token(&auth::sha256_hex(token.trim()))
            .await?
        {
            Some(user) => Ok(Bearer(user)),
            None => Err(unauthorized("unknown API token")),
        }
    }
}
