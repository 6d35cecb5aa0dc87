//! Logging in and out, and registering when the contest is open to it. A logged-out form carries the
//! token of the `arena_form` cookie, which its hidden `csrf` field must repeat.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use axum_extra::extract::cookie::{Cookie, SameSite};
use axum_extra::extract::CookieJar;
use maud::html;
use serde::Deserialize;

use super::layout::page;
use crate::serve::auth;
use crate::serve::db::now_ms;
use crate::serve::web::listen::Client;
use crate::serve::web::{HttpError, PageError, Viewer};
use crate::serve::App;

/// The password checks and hashes that may run at once.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// A cookie of this site: HttpOnly, SameSite=Strict, and `Secure` when the request came over HTTPS.
fn cookie(name: &'static str, value: String, https: bool) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(https)
        .path("/")
        .build()
}

/// The `arena_form` token of `jar`, or a new one (with the cookie to set).
fn form_token(jar: &CookieJar, https: bool) -> (String, Option<Cookie<'static>>) {
    match jar.get(auth::FORM_COOKIE) {
        Some(c) if c.value().len() == 64 => (c.value().to_string(), None),
        _ => {
            let t = auth::random_token();
            (t.clone(), Some(cookie(auth::FORM_COOKIE, t, https)))
        }
    }
}

fn check_form_token(jar: &CookieJar, csrf: &str) -> Result<(), HttpError> {
    match jar.get(auth::FORM_COOKIE) {
        Some(c) if !csrf.is_empty() && auth::same(c.value(), csrf) => Ok(()),
        _ => Err(HttpError::forbidden(
            "the form's CSRF token is missing or wrong: reload the page and try again",
        )),
    }
}

fn with_cookie(set: Option<Cookie<'static>>, body: impl IntoResponse) -> Response {
    match set {
        Some(c) => ([(SET_COOKIE, c.to_string())], body).into_response(),
        None => body.into_response(),
    }
}

pub async fn login_form(viewer: Viewer, client: Client, jar: CookieJar) -> Response {
    let (token, set) = form_token(&jar, client.https);
    let body = html! {
        form method="post" action="/login" {
            input type="hidden" name="csrf" value=(token);
            label { "Name " input type="text" name="name" required autocomplete="username"; }
            label { "Password " input type="password" name="password" required autocomplete="current-password"; }
            button type="submit" { "Log in" }
        }
    };
    with_cookie(set, page("Log in", &viewer, body))
}

#[derive(Deserialize)]
pub struct LoginForm {
    name: String,
    password: String,
    #[serde(default)]
    csrf: String,
}

/// Opens a session: its cookie (HttpOnly, SameSite=Strict) and its forms' CSRF token.
async fn open_session(
    app: &App,
    user: i64,
    https: bool,
) -> Result<(Cookie<'static>, String), HttpError> {
    let token = auth::random_token();
    let csrf = auth::random_token();
    app.db
        .add_session(
            &auth::sha256_hex(&token),
            user,
            &csrf,
            now_ms() + auth::SESSION_MS,
        )
        .await?;
    Ok((cookie(auth::SESSION_COOKIE, token, https), csrf))
}

pub async fn login(
    State(app): State<Arc<App>>,
    client: Client,
    jar: CookieJar,
    Form(f): Form<LoginForm>,
) -> Result<Response, PageError> {
    check_form_token(&jar, &f.csrf)?;
    // Refused before any password is hashed. A name no account can have counts on the address
    // alone (the limiter keeps only names that may exist).
    let account = crate::serve::contest::valid_name(&f.name).then_some(f.name.as_str());
    app.logins
        .attempt(account, client.address)
        .map_err(|refused| HttpError::too_many(&refused))?;
    let user = app.db.user_by_name(&f.name).await?;
    let hash = user.as_ref().map(|u| u.password_hash.clone());
    let password = f.password.clone();
    // At most two password checks at once (argon2 takes tens of ms and 19 MiB each): a flood of
    // logins waits here instead of taking the cores from the games.
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // The same work for an unknown name as for a wrong password.
    let ok = tokio::task::spawn_blocking(move || match hash {
        Some(h) => auth::verify_password(&password, &h),
        None => {
            let _ = auth::hash_password(&password);
            false
        }
    })
    .await
    .map_err(|e| anyhow::anyhow!("checking a password: {e}"))?;
    let Some(user) = user.filter(|_| ok) else {
        return Err(HttpError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "wrong name or password",
        )
        .into());
    };
    let (session, _) = open_session(&app, user.id, client.https).await?;
    Ok((jar.add(session), Redirect::to("/")).into_response())
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}

pub async fn logout(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    jar: CookieJar,
    Form(f): Form<CsrfForm>,
) -> Result<Response, PageError> {
    viewer.check_csrf(&f.csrf)?;
    if let Some(s) = &viewer.session {
        app.db.delete_session(s).await?;
    }
    Ok((
        jar.remove(Cookie::from(auth::SESSION_COOKIE)),
        Redirect::to("/"),
    )
        .into_response())
}

fn registration_open(app: &App) -> Result<(), HttpError> {
    if app.contest.config.registration {
        Ok(())
    } else {
        Err(HttpError::forbidden(
            "registration is closed: ask the organiser for an account",
        ))
    }
}

pub async fn register_form(
    State(app): State<Arc<App>>,
    viewer: Viewer,
    client: Client,
    jar: CookieJar,
) -> Result<Response, PageError> {
    registration_open(&app)?;
    let (token, set) = form_token(&jar, client.https);
    let body = html! {
        form method="post" action="/register" {
            input type="hidden" name="csrf" value=(token);
            label { "Name " input type="text" name="name" required pattern="[A-Za-z0-9_\\-]{1,32}"; }
            label { "Password (8 characters or more) " input type="password" name="password" required minlength="8" autocomplete="new-password"; }
            button type="submit" { "Register" }
        }
    };
    Ok(with_cookie(set, page("Register", &viewer, body)))
}

pub async fn register(
    State(app): State<Arc<App>>,
    client: Client,
    jar: CookieJar,
    Form(f): Form<LoginForm>,
) -> Result<Response, PageError> {
    registration_open(&app)?;
    check_form_token(&jar, &f.csrf)?;
    app.logins
        .attempt(None, client.address)
        .map_err(|refused| HttpError::too_many(&refused))?;
    if !crate::serve::contest::valid_name(&f.name) {
        return Err(HttpError::bad("the name: use 1–32 letters, digits, - or _").into());
    }
    auth::password_ok(&f.password).map_err(HttpError::bad)?;
    let password = f.password.clone();
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))?
        .map_err(anyhow::Error::msg)?;
    let token = auth::random_token();
    let Some(id) = app
        .db
        .add_user(&f.name, &hash, &auth::sha256_hex(&token), false)
        .await?
    else {
        return Err(HttpError::new(
            axum::http::StatusCode::CONFLICT,
            format!(
                "the name {:?} is taken (names are unique regardless of case)",
                f.name
            ),
        )
        .into());
    };
    let (session, csrf) = open_session(&app, id, client.https).await?;
    let user = app.db.user_by_name(&f.name).await?;
    // As the next page will see it, so its Log out button works.
    let viewer = Viewer {
        user,
        csrf: Some(csrf),
        session: None,
    };
    let body = html! {
        p { "Welcome, " (f.name) ". Your API token, for scripts (shown only now):" }
        pre { (token) }
        p { a href="/bots/new" { "Upload a bot" } }
    };
    Ok((jar.add(session), page("Registered", &viewer, body)).into_response())
}
