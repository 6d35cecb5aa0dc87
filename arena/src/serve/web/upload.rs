//! Receiving an upload (the API's `POST /api/bots` and the page's form): the multipart fields
//! `name`, `file` (and the form's `csrf`), the file streamed to `incoming/` under the size cap, then
//! checked and stored by its hash ([`crate::serve::upload::store`]) and recorded as the bot's next
//! version. Every refusal leaves nothing behind: the incoming file is removed, the store holds only
//! whole folders, and the version's row is written last, in one transaction.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::Multipart;
use axum::http::StatusCode;
use tokio::io::AsyncWriteExt;

use super::HttpError;
use crate::serve::contest::valid_name;
use crate::serve::db::{AddVersionError, User};
use crate::serve::upload;
use crate::serve::App;

/// The fields of an upload, its file on disk (removed when dropped).
pub struct Received {
    pub name: String,
    pub csrf: Option<String>,
    file: Incoming,
    file_name: String,
}

struct Incoming(PathBuf);

impl Drop for Incoming {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn multipart_error(e: axum::extract::multipart::MultipartError, max_mb: u64) -> HttpError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large(max_mb);
    }
    HttpError::new(
        e.status(),
        format!("the upload could not be read: {}", e.body_text()),
    )
}

fn too_large(max_mb: u64) -> HttpError {
    HttpError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the file is larger than this contest's {max_mb} MiB"),
    )
}

/// Reads the multipart body: `name` and `csrf` as text, `file` streamed to disk and cut off past
/// `[upload] max_mb`. A page's upload (`form_of`: the session's viewer) must carry the session's
/// CSRF token before its file, which is refused unread otherwise: a forged upload stores nothing,
/// not even for a moment.
///
/// # Errors
/// A body that is not multipart or is cut short, a file over the cap (413), a missing field, a
/// missing or wrong CSRF token (403).
pub async fn receive(
    app: &App,
    mut form: Multipart,
    form_of: Option<&super::Viewer>,
) -> Result<Received, HttpError> {
    let max_mb = app.contest.config.upload.max_mb;
    let max = app.contest.config.upload.limits().max_upload_bytes;
    let multipart_error = |e| multipart_error(e, max_mb);
    let (mut name, mut csrf, mut file) = (None, None, None);
    while let Some(mut field) = form.next_field().await.map_err(multipart_error)? {
        match field.name().unwrap_or("") {
            "name" => name = Some(field.text().await.map_err(multipart_error)?),
            "csrf" => {
                let token = field.text().await.map_err(multipart_error)?;
                if let Some(viewer) = form_of {
                    viewer.check_csrf(&token)?;
                }
                csrf = Some(token);
            }
            "file" if form_of.is_some() && csrf.is_none() => return Err(HttpError::forbidden(
                "the form's CSRF token must come before its file: reload the page and try again",
            )),
            "file" => {
                let file_name = field.file_name().unwrap_or("bot").to_string();
                let path = app
                    .data
                    .incoming()
                    .join(format!("upload-{}", crate::serve::auth::random_token()));
                let guard = Incoming(path.clone());
                let mut out = tokio::fs::File::create(&path)
                    .await
                    .map_err(|e| anyhow::anyhow!("creating {}: {e}", path.display()))?;
                let mut size = 0u64;
                while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
                    size += chunk.len() as u64;
                    if size > max {
                        return Err(too_large(max_mb));
                    }
                    out.write_all(&chunk)
                        .await
                        .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
                }
                out.flush()
                    .await
                    .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
                file = Some((guard, file_name));
            }
            other => {
                return Err(HttpError::bad(format!(
                    "unknown field {other:?}: send name and file"
                )))
            }
        }
    }
    if form_of.is_some() && csrf.is_none() {
        return Err(HttpError::forbidden(
            "the form's CSRF token is missing: reload the page and try again",
        ));
    }
    let name = name.ok_or_else(|| HttpError::bad("no name field: the bot's name"))?;
    let (file, file_name) =
        file.ok_or_else(|| HttpError::bad("no file field: the executable or archive"))?;
    Ok(Received {
        name: name.trim().to_string(),
        csrf,
        file,
        file_name,
    })
}

/// Makes version `number` the active version of bot `id`, on behalf of `user`, who must own it.
///
/// # Errors
/// No such bot (404), another's bot (403), a version that did not pass its check (409).
pub async fn choose_active(app: &App, user: &User, id: i64, number: i64) -> Result<(), HttpError> {
    let bot = super::bot_or_404(app, id).await?;
    if bot.owner != user.id {
        return Err(HttpError::forbidden(
            "only its author chooses a bot's active version",
        ));
    }
    if !app.db.set_active(id, number).await? {
        return Err(HttpError::new(
            StatusCode::CONFLICT,
            format!("version {number} of {} has not passed its check", bot.name),
        ));
    }
    Ok(())
}

/// Refuses an upload of `bytes` (0 before its body is read) by `owner` beyond the contest's limits of
/// one participant (`[upload] per_hour`, `max_stored_mb`); the organiser has none.
///
/// # Errors
/// Too many uploads in the last hour (429 with `Retry-After`), too many bytes kept (413), a database
/// error.
pub async fn within_quota(app: &App, owner: &User, bytes: u64) -> Result<(), HttpError> {
    if owner.admin {
        return Ok(());
    }
    let config = &app.contest.config.upload;
    let hour_ms = 3_600_000;
    let now = crate::serve::db::now_ms();
    let (count, oldest) = app.db.uploads_since(owner.id, now - hour_ms).await?;
    if count as u64 >= config.per_hour {
        let retry_after_s = oldest.map_or(60, |t| ((t + hour_ms - now) / 1000).max(1) as u64);
        return Err(HttpError {
            retry_after_s: Some(retry_after_s),
            ..HttpError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "you have uploaded {count} versions in the last hour, this contest's limit \
                     ([upload] per_hour = {}): try again in {retry_after_s} s",
                    config.per_hour
                ),
            )
        });
    }
    let kept = app.db.stored_bytes(owner.id).await?.max(0) as u64;
    let cap = config.max_stored_mb << 20;
    if kept + bytes > cap {
        return Err(HttpError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "your versions keep {:.1} MiB; with this upload they would pass the {} MiB a \
                 participant may keep ([upload] max_stored_mb): ask the organiser",
                kept as f64 / (1 << 20) as f64,
                config.max_stored_mb
            ),
        ));
    }
    Ok(())
}

/// Checks, stores and records `upload` as the next version of its bot, owned by `owner`; wakes the
/// check loop. Returns the bot's id and the version's number.
///
/// # Errors
/// A bad name, a bot name of another participant or of a reference bot (409), a participant's limits
/// ([`within_quota`]), a refused file (400 with [`upload::UploadError`]'s message).
pub async fn accept(
    app: &Arc<App>,
    owner: &User,
    upload: Received,
) -> Result<(i64, i64), HttpError> {
    if !valid_name(&upload.name) {
        return Err(HttpError::bad(format!(
            "bot name {:?}: use 1–32 letters, digits, - or _",
            upload.name
        )));
    }
    if app
        .contest
        .reference_names()
        .iter()
        .any(|r| r.eq_ignore_ascii_case(&upload.name))
    {
        return Err(HttpError::new(
            StatusCode::CONFLICT,
            format!(
                "{:?} is a reference bot's name: choose another",
                upload.name
            ),
        ));
    }
    let size = std::fs::metadata(&upload.file.0).map_or(0, |m| m.len());
    within_quota(app, owner, size).await?;
    let limits = app.contest.config.upload.limits();
    let stored = {
        let (path, name, store) = (
            upload.file.0.clone(),
            upload.file_name.clone(),
            app.data.store(),
        );
        tokio::task::spawn_blocking(move || upload::store(&path, &name, &store, &limits))
            .await
            .map_err(|e| anyhow::anyhow!("storing an upload: {e}"))?
            .map_err(|e| HttpError::bad(format!("upload refused: {e}")))?
    };
    let manifest = toml::to_string(&stored.manifest).map_err(anyhow::Error::from)?;
    let kind = stored.kind.to_string();
    // The bytes stored, kept in the database for workers on other machines (the incoming file is
    // removed when `upload` is dropped).
    let bytes = tokio::fs::read(&upload.file.0)
        .await
        .map_err(|e| anyhow::anyhow!("reading the upload back: {e}"))?;
    if crate::serve::auth::sha256_hex_bytes(&bytes) != stored.hash {
        return Err(anyhow::anyhow!("the upload changed while it was stored").into());
    }
    match app
        .db
        .add_version(
            owner.id,
            &upload.name,
            &stored.hash,
            &manifest,
            &kind,
            &bytes,
        )
        .await
    {
        Ok(ids) => {
            app.wake_checks.notify_one();
            Ok(ids)
        }
        Err(AddVersionError::NotYours(n)) => Err(HttpError::new(
            StatusCode::CONFLICT,
            format!("the bot name {n:?} belongs to another participant: choose another"),
        )),
        Err(e @ AddVersionError::OtherCase { .. }) => {
            Err(HttpError::new(StatusCode::CONFLICT, e.to_string()))
        }
        Err(AddVersionError::Db(e)) => Err(e.into()),
    }
}
