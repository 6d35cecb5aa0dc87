//! The HTTP side of `arena serve`: server-rendered pages ([`pages`], usable without JavaScript) and a
//! JSON API beside them ([`api`], documented in docs/server.md), on axum. Pages authenticate by a
//! session cookie and check a CSRF token on every form; the API authenticates by
//! `Authorization: Bearer <token>` and takes no cookie, so a forged cross-site request carries no
//! credential it honours.

pub mod api;
pub mod listen;
pub mod pages;
pub mod service;
pub mod standings;
pub mod throttle;
pub mod upload;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use axum_extra::extract::CookieJar;
use tower_http::set_header::SetResponseHeaderLayer;

use super::auth;
use super::db::User;
use super::App;

/// The Content-Security-Policy of every page but report.html: nothing inline, nothing from elsewhere.
pub const SITE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
     form-action 'self'";

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
        .fallback(|| async { HttpError::not_found("such page") })
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            render_errors,
        ))
        .layer(DefaultBodyLimit::max(limit))
        // The pages load nothing from elsewhere, run no inline script or style (their scripts and
        // style sheet are /assets/ files), are framed nowhere, and post only to this server. The
        // competition's report.html sets its own policy (its inline scripts by their hashes).
        .layer(header(header::CONTENT_SECURITY_POLICY, SITE_POLICY))
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .with_state(app)
}

/// An error with its HTTP status and a message for the user. A handler's error becomes a response
/// carrying it ([`render_errors`] draws it): under `/api/` as `{"error": message}`, elsewhere as a
/// page in the site's layout, seen by the request's own session.
#[derive(Clone, Debug)]
pub struct HttpError {
    pub status: StatusCode,
    pub message: String,
    /// `Retry-After`, s (a 429).
    pub retry_after_s: Option<u64>,
}

impl HttpError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            message: message.into(),
            retry_after_s: None,
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
    /// 429 with `Retry-After` from a throttle's refusal.
    pub fn too_many(refused: &throttle::TooMany) -> HttpError {
        HttpError {
            retry_after_s: Some(refused.retry_after_s),
            ..HttpError::new(StatusCode::TOO_MANY_REQUESTS, refused.to_string())
        }
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

impl IntoResponse for HttpError {
    /// The status with the error as an extension, drawn by [`render_errors`] (a plain-text body
    /// where no such layer runs).
    fn into_response(self) -> Response {
        let mut response = (self.status, self.message.clone()).into_response();
        if let Some(s) = self.retry_after_s {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        response.extensions_mut().insert(self);
        response
    }
}

/// Draws every [`HttpError`] response: as `{"error": "…"}` under `/api/`, elsewhere as a page in
/// the site's layout with the header of the request's session (an error does not log anyone out).
/// Headers the handler set (a cookie) are kept.
pub async fn render_errors(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let api = path == "/api" || path.starts_with("/api/");
    let cookies = request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .cloned()
        .collect::<Vec<_>>();
    let response = next.run(request).await;
    if response.extensions().get::<HttpError>().is_some() {
        return render(&app, response, api, cookies).await;
    }
    let status = response.status();
    if !api || status.is_success() || status.is_redirection() {
        return response;
    }
    // axum's own refusals (a 405, a 413 or 415 of a body extractor) are plain text: under `/api/`
    // they become JSON too.
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let message = String::from_utf8_lossy(&text).trim().to_string();
    let message = if message.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        message
    };
    let mut response = Response::from_parts(parts, axum::body::Body::empty());
    response
        .extensions_mut()
        .insert(HttpError::new(status, message));
    render(&app, response, true, cookies).await
}

/// Draws `response`'s [`HttpError`] (JSON when `api`, else a page seen by the session of
/// `cookies`), keeping the headers it has.
async fn render(app: &App, response: Response, api: bool, cookies: Vec<HeaderValue>) -> Response {
    let Some(error) = response.extensions().get::<HttpError>().cloned() else {
        return response;
    };
    let (mut parts, _) = response.into_parts();
    let body = if api {
        parts.headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        serde_json::json!({ "error": error.message }).to_string()
    } else {
        let mut headers = axum::http::HeaderMap::new();
        for c in cookies {
            headers.append(header::COOKIE, c);
        }
        let viewer = Viewer::of(app, &headers).await.unwrap_or_default();
        let title = error.status.canonical_reason().unwrap_or("error");
        parts.headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        pages::layout::page(title, &viewer, maud::html! { p.error { (error.message) } }).0
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// Path parameters (`/bots/{id}`); a 404 when they do not parse (`/bots/abc` is no page).
pub struct PathIds<T>(pub T);

impl<T, S> FromRequestParts<S> for PathIds<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<PathIds<T>, HttpError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(t)) => Ok(PathIds(t)),
            Err(_) => Err(HttpError::not_found(format!(
                "such page: {}",
                parts.uri.path()
            ))),
        }
    }
}

/// A ticked confirmation box (`confirm=yes`).
///
/// # Errors
/// Not ticked (400).
pub fn confirmed(confirm: &str) -> Result<(), HttpError> {
    if confirm == "yes" {
        Ok(())
    } else {
        Err(HttpError::bad("tick the confirmation box to go ahead"))
    }
}

/// An organiser's reason, trimmed: 1 to 500 characters.
///
/// # Errors
/// Empty or longer (400).
pub fn reason_of(text: &str) -> Result<String, HttpError> {
    let reason = text.trim();
    match reason.chars().count() {
        0 => Err(HttpError::bad(
            "give a reason: it is shown to the author and on the pages",
        )),
        501.. => Err(HttpError::bad("the reason is longer than 500 characters")),
        _ => Ok(reason.to_string()),
    }
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

/// An API handler's error (drawn as `{"error": "…"}` by [`render_errors`]).
#[derive(Debug)]
pub struct ApiError(pub HttpError);

impl<E: Into<HttpError>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.0.into_response()
    }
}

/// A page handler's error (drawn as a page by [`render_errors`]).
#[derive(Debug)]
pub struct PageError(pub HttpError);

impl<E: Into<HttpError>> From<E> for PageError {
    fn from(e: E) -> PageError {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        self.0.into_response()
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
        Ok(Viewer::of(app, &parts.headers).await?)
    }
}

impl Viewer {
    /// The viewer of a request with `headers`: its session cookie's account, or nobody.
    ///
    /// # Errors
    /// A database error.
    pub async fn of(app: &App, headers: &axum::http::HeaderMap) -> Result<Viewer, HttpError> {
        let jar = CookieJar::from_headers(headers);
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
