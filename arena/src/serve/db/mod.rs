//! The contest's database: accounts, sessions, bots and their versions with their checks,
//! competitions and their entries. SQLite (a file beside the contest's data folder) by default, or
//! PostgreSQL (`arena serve --db postgres://…`) when the contest outgrows one machine. Each has its
//! migrations (`migrations/sqlite/`, `migrations/postgres/`: the same tables, versions and meanings),
//! applied when the server starts; the queries are one set, through sqlx's `Any` driver, in the SQL
//! both share (`$N` placeholders, `RETURNING`, integers for flags).
//!
//! Every change that spans rows is one transaction, so a server killed at any moment leaves either
//! all of it or none.

use std::time::Duration;

use anyhow::{Context, Result};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, FromRow, Row};

mod queue;
mod status;

pub use queue::{Claim, QueueCounts, Wakeup, Worker};
pub use status::{CheckStatus, CompetitionStatus, Kind, UnknownWord};

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// An account.
#[derive(Clone, Debug)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    pub admin: bool,
}

/// A bot: a name owned by one account, with its versions.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Bot {
    pub id: i64,
    pub name: String,
    pub owner: i64,
    pub owner_name: String,
    /// The id of the version competitions take, if any passed its check.
    pub active_version: Option<i64>,
    pub disqualified: bool,
    /// Why the organiser disqualified it (empty when it is not).
    pub disqualified_reason: String,
}

/// One upload of a bot.
#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct Version {
    pub id: i64,
    pub bot_id: i64,
    /// 1, 2, … per bot.
    pub number: i64,
    pub hash: String,
    pub manifest: String,
    pub kind: String,
    pub bytes: i64,
    pub uploaded_ms: i64,
    #[sqlx(try_from = "String")]
    pub check_status: CheckStatus,
    pub check_detail: String,
    pub checked_ms: Option<i64>,
}

/// A competition.
#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct Competition {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub kind: Kind,
    #[sqlx(try_from = "String")]
    pub status: CompetitionStatus,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    /// Why it stopped by itself, if it did (it is then paused).
    pub detail: String,
}

/// A bot in a competition, as snapshotted when it was created.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Entry {
    pub name: String,
    /// `None`: a reference bot.
    pub bot_id: Option<i64>,
    /// The row id of the version it plays (internal: the API shows `version`).
    #[serde(skip)]
    pub version_id: Option<i64>,
    /// The number of the version it plays, as its bot's page and log URLs number it (`None`: a
    /// reference bot).
    pub version: Option<i64>,
    pub disqualified: bool,
    /// Why its bot was disqualified (empty when it was not).
    pub disqualified_reason: String,
}

/// A flag column (0 or 1 in both databases) as a `bool`.
fn flag(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    Ok(row.try_get::<i64, _>(column)? != 0)
}

impl FromRow<'_, AnyRow> for User {
    fn from_row(row: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(User {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            password_hash: row.try_get("password_hash")?,
            admin: flag(row, "admin")?,
        })
    }
}

impl FromRow<'_, AnyRow> for Bot {
    fn from_row(row: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Bot {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            owner: row.try_get("owner")?,
            owner_name: row.try_get("owner_name")?,
            active_version: row.try_get("active_version")?,
            disqualified: flag(row, "disqualified")?,
            disqualified_reason: row.try_get("disqualified_reason")?,
        })
    }
}

impl FromRow<'_, AnyRow> for Entry {
    fn from_row(row: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Entry {
            name: row.try_get("name")?,
            bot_id: row.try_get("bot_id")?,
            version_id: row.try_get("version_id")?,
            version: row.try_get("version")?,
            disqualified: flag(row, "disqualified")?,
            disqualified_reason: row.try_get("disqualified_reason")?,
        })
    }
}

/// Which database a [`Db`] speaks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Why an upload cannot be recorded.
#[derive(Debug, thiserror::Error)]
pub enum AddVersionError {
    #[error("the bot name {0:?} belongs to another participant")]
    NotYours(String),
    #[error("your bot is named {taken:?}: upload its new version under that name (names differ in more than case)")]
    OtherCase { asked: String, taken: String },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The key of the advisory lock one `arena serve` holds on its PostgreSQL database ([`Db::lock_server`]):
/// "arena" in ASCII.
pub const SERVER_LOCK_KEY: i64 = 0x61_72_65_6e_61;

/// A database taken by one server ([`Db::lock_server`]): the connection that holds PostgreSQL's advisory
/// lock (released when it closes, with this value or the process). A connection lost (PostgreSQL
/// restarted, a network cut) loses the lock with it: [`ServerLock::check`] takes it again.
#[derive(Debug)]
pub struct ServerLock {
    /// The connection holding the lock; `None` on SQLite, or while PostgreSQL is out of reach.
    conn: Option<sqlx::AnyConnection>,
    /// PostgreSQL's URL; `None` on SQLite (nothing to hold).
    url: Option<String>,
}

/// `pg_try_advisory_lock(SERVER_LOCK_KEY)` on `conn`: whether this session holds the lock now (a
/// session that holds it already takes it once more).
async fn try_lock(conn: &mut sqlx::AnyConnection) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
        .bind(SERVER_LOCK_KEY)
        .fetch_one(conn)
        .await
}

impl ServerLock {
    /// Checks the lock, to be called now and then while the server runs: on its connection, or when
    /// that was lost, on a new one that takes the lock again. `Some(reason)` when another server took
    /// it meanwhile, so that the caller stops this one; `None` while it holds it (or cannot tell:
    /// PostgreSQL out of reach), and always on SQLite.
    pub async fn check(&mut self) -> Option<String> {
        let url = self.url.clone()?;
        if let Some(conn) = self.conn.as_mut() {
            match try_lock(conn).await {
                Ok(true) => return None,
                Ok(false) => {
                    return Some(format!(
                        "another `arena serve` took the database {}",
                        redact(&url)
                    ))
                }
                Err(_) => self.conn = None,
            }
        }
        use sqlx::Connection;
        let mut conn = sqlx::AnyConnection::connect(&url).await.ok()?;
        match try_lock(&mut conn).await {
            Ok(true) => {
                self.conn = Some(conn);
                None
            }
            Ok(false) => Some(format!(
                "another `arena serve` took the database {} while this one had lost its connection",
                redact(&url)
            )),
            Err(_) => None,
        }
    }
}

/// The database: a pool of connections to one SQLite file or one PostgreSQL database.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// The PostgreSQL URL, for the queue's LISTEN connections ([`Wakeup`]).
    url: Option<String>,
    /// Wakes this process's workers and result pollers at once (every clone shares it).
    wakes: std::sync::Arc<queue::Wakes>,
}

const USER: &str = "SELECT id, name, password_hash, admin FROM users";
const BOT: &str = "SELECT b.id, b.name, b.owner, u.name AS owner_name, b.active_version, \
                   b.disqualified, b.disqualified_reason FROM bots b JOIN users u ON u.id = b.owner";
const VERSION: &str = "SELECT id, bot_id, number, hash, manifest, kind, bytes, uploaded_ms, \
                       check_status, check_detail, checked_ms FROM versions";
const COMPETITION: &str =
    "SELECT id, kind, status, created_ms, started_ms, finished_ms, detail FROM competitions";

impl Db {
    /// Opens the database `url`: `postgres://…` (a PostgreSQL database, which must exist), or
    /// `sqlite:PATH` / a plain file path (created if missing), and applies the migrations it lacks.
    ///
    /// SQLite runs in WAL mode with `synchronous = FULL` (a commit is on disk before it returns) and
    /// foreign keys on; PostgreSQL commits durably by default.
    ///
    /// # Errors
    /// A database that cannot be reached, opened or created; a migration that fails; a database
    /// written by a newer arena (a migration it does not know).
    pub async fn open(url: &str) -> Result<Db> {
        let db = Db::connect(url).await?;
        db.migrate().await?;
        Ok(db)
    }

    /// [`Db::open`] without the migrations ([`Db::migrate`]): for a server, which takes the database
    /// ([`Db::lock_server`]) before it changes anything in it.
    ///
    /// # Errors
    /// A database that cannot be reached, opened or created.
    pub async fn connect(url: &str) -> Result<Db> {
        sqlx::any::install_default_drivers();
        let (backend, url) = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (Backend::Postgres, url.to_string())
        } else {
            // sqlx percent-decodes the path: `%`, `?` and `#` in a file name are encoded.
            let path = url.strip_prefix("sqlite:").unwrap_or(url);
            let path = path
                .replace('%', "%25")
                .replace('?', "%3F")
                .replace('#', "%23");
            (Backend::Sqlite, format!("sqlite:{path}?mode=rwc"))
        };
        let shown = redact(&url);
        let options = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 8 })
            .acquire_timeout(Duration::from_secs(30));
        let options = if backend == Backend::Sqlite {
            options.after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute(
                        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;",
                    )
                    .await?;
                    Ok(())
                })
            })
        } else {
            options
        };
        if backend == Backend::Postgres {
            // One connection first: a server out of reach is an error at once (the pool would retry
            // until its acquire timeout, 30 s, and then say only that it timed out).
            use sqlx::Connection;
            sqlx::AnyConnection::connect(&url)
                .await
                .with_context(|| format!("opening the database {shown}"))?
                .close()
                .await
                .with_context(|| format!("opening the database {shown}"))?;
        }
        let pool = options
            .connect(&url)
            .await
            .with_context(|| format!("opening the database {shown}"))?;
        Ok(Db {
            pool,
            url: (backend == Backend::Postgres).then_some(url),
            backend,
            wakes: std::sync::Arc::default(),
        })
    }

    /// The migrations of this database's kind.
    pub fn migrator(backend: Backend) -> sqlx::migrate::Migrator {
        match backend {
            Backend::Sqlite => sqlx::migrate!("src/serve/db/migrations/sqlite"),
            Backend::Postgres => sqlx::migrate!("src/serve/db/migrations/postgres"),
        }
    }

    /// Applies the migrations the database lacks. Each runs in a transaction: one that fails
    /// changes nothing.
    ///
    /// # Errors
    /// A migration that fails; a database written by a newer arena (a migration it does not know);
    /// names that differ only in case (migration 6 makes them unique regardless of case), each
    /// named with its id, so that the organiser renames all but one.
    pub async fn migrate(&self) -> Result<()> {
        let migrated = Db::migrator(self.backend).run(&self.pool).await;
        let what = || match &self.url {
            Some(url) => format!("migrating the database {}", redact(url)),
            None => "migrating the database".to_string(),
        };
        if let Err(e) = migrated {
            // Names differing only in case stop migration 6; the database's own error follows.
            let clashes = self.names_differing_in_case().await.unwrap_or_default();
            if !clashes.is_empty() {
                anyhow::bail!(
                    "{}: names must be unique regardless of case, and these differ only in case: \
                     {}. Rename all but one of each (e.g. `UPDATE users SET name = 'alice-2' WHERE \
                     id = 7`) and start again ({e})",
                    what(),
                    clashes.join("; ")
                );
            }
            return Err(anyhow::Error::new(e).context(what()));
        }
        Ok(())
    }

    /// The user and bot names that another of their table has under another case, as `users:
    /// alice (id 1), ALICE (id 2)`, a group per name.
    ///
    /// # Errors
    /// A database error (no such table yet, too).
    async fn names_differing_in_case(&self) -> Result<Vec<String>> {
        let mut groups = Vec::new();
        for table in ["users", "bots"] {
            let rows: Vec<(i64, String)> = sqlx::query_as(&format!(
                "SELECT id, name FROM {table} WHERE lower(name) IN \
                 (SELECT lower(name) FROM {table} GROUP BY lower(name) HAVING COUNT(*) > 1) \
                 ORDER BY lower(name), id"
            ))
            .fetch_all(&self.pool)
            .await?;
            for chunk in rows.chunk_by(|a, b| a.1.eq_ignore_ascii_case(&b.1)) {
                let names: Vec<String> = chunk
                    .iter()
                    .map(|(id, name)| format!("{name} (id {id})"))
                    .collect();
                groups.push(format!("{table}: {}", names.join(", ")));
            }
        }
        Ok(groups)
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Takes the database for this server alone: on PostgreSQL a session advisory lock
    /// (`pg_try_advisory_lock`, [`SERVER_LOCK_KEY`]) on a connection of its own, held while the
    /// [`ServerLock`] lives; `None` when another server holds it. (SQLite: nothing to take; the lock
    /// on the contest's data folder covers its file.) Workers do not take it: any number may share
    /// the database with its one server.
    ///
    /// # Errors
    /// A database that cannot be reached.
    pub async fn lock_server(&self) -> Result<Option<ServerLock>> {
        let Some(url) = self.url.clone() else {
            return Ok(Some(ServerLock {
                conn: None,
                url: None,
            }));
        };
        use sqlx::Connection;
        let mut conn = sqlx::AnyConnection::connect(&url)
            .await
            .with_context(|| format!("connecting to {}", redact(&url)))?;
        let taken = try_lock(&mut conn)
            .await
            .context("taking the server's advisory lock")?;
        Ok(taken.then_some(ServerLock {
            conn: Some(conn),
            url: Some(url),
        }))
    }

    /// A transaction for a change. On SQLite it takes the write lock at once (`BEGIN IMMEDIATE`): one
    /// that read first and wrote later could fail at once with `SQLITE_BUSY` when another writer
    /// committed between (the busy timeout does not wait in that case), and lose an upload. On
    /// PostgreSQL a plain `BEGIN` (read committed; the statements that must not race are single
    /// statements or keyed by unique constraints).
    async fn write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    // ---- accounts and sessions

    /// Adds an account; `Ok(None)` when the name is taken.
    ///
    /// # Errors
    /// A database error.
    pub async fn add_user(
        &self,
        name: &str,
        password_hash: &str,
        token_hash: &str,
        admin: bool,
    ) -> Result<Option<i64>> {
        // Unique regardless of case: `ALICE` is refused beside `alice`. Two registrations in the
        // same instant both pass the WHERE on PostgreSQL; the second then meets migration 6's index,
        // and ON CONFLICT without a target covers it (SQLite wants the WHERE before ON CONFLICT).
        let id: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO users (name, password_hash, token_hash, admin, created_ms) \
             SELECT $1, $2, $3, $4, $5 \
             WHERE NOT EXISTS (SELECT 1 FROM users WHERE lower(name) = lower($1)) \
             ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(name)
        .bind(password_hash)
        .bind(token_hash)
        .bind(i64::from(admin))
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        Ok(id.map(|(id,)| id))
    }

    /// The account named `name`.
    ///
    /// # Errors
    /// A database error.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        Ok(sqlx::query_as(&format!("{USER} WHERE name = $1"))
            .bind(name)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The account whose API token hashes to `token_hash`.
    ///
    /// # Errors
    /// A database error.
    pub async fn user_by_token(&self, token_hash: &str) -> Result<Option<User>> {
        Ok(sqlx::query_as(&format!("{USER} WHERE token_hash = $1"))
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Opens a session for `user` until `expires_ms`.
    ///
    /// # Errors
    /// A database error.
    pub async fn add_session(
        &self,
        token_hash: &str,
        user: i64,
        csrf: &str,
        expires_ms: i64,
    ) -> Result<()> {
        let now = now_ms();
        sqlx::query("DELETE FROM sessions WHERE expires_ms < $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, csrf, expires_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(user)
        .bind(csrf)
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The account and CSRF token of the unexpired session `token_hash`.
    ///
    /// # Errors
    /// A database error.
    pub async fn session(&self, token_hash: &str) -> Result<Option<(User, String)>> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT csrf FROM sessions WHERE token_hash = $1 AND expires_ms > $2")
                .bind(token_hash)
                .bind(now_ms())
                .fetch_optional(&self.pool)
                .await?;
        let Some((csrf,)) = row else {
            return Ok(None);
        };
        let user: Option<User> = sqlx::query_as(&format!(
            "{USER} WHERE id = (SELECT user_id FROM sessions WHERE token_hash = $1)"
        ))
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(user.map(|u| (u, csrf)))
    }

    /// Ends the session `token_hash`.
    ///
    /// # Errors
    /// A database error.
    pub async fn delete_session(&self, token_hash: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    // ---- bots and versions

    /// Records a stored upload as the next version of the bot `name` of `owner`, creating the bot on
    /// its first upload; its check is pending. The upload's bytes (`upload`, whose SHA-256 is `hash`)
    /// are kept for the workers of other machines. Returns the bot's id and the version's number.
    ///
    /// # Errors
    /// [`AddVersionError::NotYours`] when another account owns the name; a database error.
    pub async fn add_version(
        &self,
        owner: i64,
        name: &str,
        hash: &str,
        manifest: &str,
        kind: &str,
        upload: &[u8],
    ) -> Result<(i64, i64), AddVersionError> {
        // Two uploads of one bot at once: on PostgreSQL the second transaction's insert of the same
        // bot or version number fails on a unique key (SQLite serialises them); it is tried again,
        // and then finds the first one's rows.
        let mut tries = 0;
        loop {
            match self
                .add_version_once(owner, name, hash, manifest, kind, upload)
                .await
            {
                Err(AddVersionError::Db(sqlx::Error::Database(e)))
                    if e.is_unique_violation() && tries < 5 =>
                {
                    tries += 1;
                }
                other => return other,
            }
        }
    }

    async fn add_version_once(
        &self,
        owner: i64,
        name: &str,
        hash: &str,
        manifest: &str,
        kind: &str,
        upload: &[u8],
    ) -> Result<(i64, i64), AddVersionError> {
        let mut tx = self.write().await?;
        sqlx::query(
            "INSERT INTO blobs (hash, bytes) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING",
        )
        .bind(hash)
        .bind(upload.to_vec())
        .execute(&mut *tx)
        .await?;
        // One bot a name regardless of case: `Random` is not a new bot beside `random`.
        let bot: Option<(i64, i64, String)> =
            sqlx::query_as("SELECT id, owner, name FROM bots WHERE lower(name) = lower($1)")
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
        let bot = match bot {
            Some((_, o, _)) if o != owner => return Err(AddVersionError::NotYours(name.into())),
            Some((_, _, taken)) if taken != name => {
                return Err(AddVersionError::OtherCase {
                    asked: name.into(),
                    taken,
                })
            }
            Some((id, _, _)) => id,
            None => {
                sqlx::query_as::<_, (i64,)>(
                    "INSERT INTO bots (name, owner, created_ms) VALUES ($1, $2, $3) RETURNING id",
                )
                .bind(name)
                .bind(owner)
                .bind(now_ms())
                .fetch_one(&mut *tx)
                .await?
                .0
            }
        };
        let (number,): (i64,) =
            sqlx::query_as("SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE bot_id = $1")
                .bind(bot)
                .fetch_one(&mut *tx)
                .await?;
        sqlx::query(
            "INSERT INTO versions (bot_id, number, hash, manifest, kind, bytes, uploaded_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(bot)
        .bind(number)
        .bind(hash)
        .bind(manifest)
        .bind(kind)
        .bind(upload.len() as i64)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok((bot, number))
    }

    /// Every bot, by name.
    ///
    /// # Errors
    /// A database error.
    pub async fn bots(&self) -> Result<Vec<Bot>> {
        Ok(sqlx::query_as(&format!("{BOT} ORDER BY b.name"))
            .fetch_all(&self.pool)
            .await?)
    }

    /// The bot `id`.
    ///
    /// # Errors
    /// A database error.
    pub async fn bot(&self, id: i64) -> Result<Option<Bot>> {
        Ok(sqlx::query_as(&format!("{BOT} WHERE b.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The bot named `name`.
    ///
    /// # Errors
    /// A database error.
    pub async fn bot_by_name(&self, name: &str) -> Result<Option<Bot>> {
        Ok(sqlx::query_as(&format!("{BOT} WHERE b.name = $1"))
            .bind(name)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The versions of bot `id`, newest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn versions(&self, bot: i64) -> Result<Vec<Version>> {
        Ok(
            sqlx::query_as(&format!("{VERSION} WHERE bot_id = $1 ORDER BY number DESC"))
                .bind(bot)
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// The version `id`.
    ///
    /// # Errors
    /// A database error.
    pub async fn version(&self, id: i64) -> Result<Option<Version>> {
        Ok(sqlx::query_as(&format!("{VERSION} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Takes the next pending check, shared fairly between participants: of the participant whose
    /// last check ended longest ago (never first), its oldest pending version. One participant's dozen
    /// uploads thus delay another's by one check, not by twelve. Marks it running and returns it.
    ///
    /// # Errors
    /// A database error.
    pub async fn take_check(&self) -> Result<Option<Version>> {
        let mut tx = self.write().await?;
        let v: Option<Version> = sqlx::query_as(
            "SELECT v.id, v.bot_id, v.number, v.hash, v.manifest, v.kind, v.bytes, v.uploaded_ms, \
             v.check_status, v.check_detail, v.checked_ms \
             FROM versions v JOIN bots b ON b.id = v.bot_id \
             WHERE v.check_status = 'pending' \
             ORDER BY (SELECT COALESCE(MAX(w.checked_ms), 0) FROM versions w \
                       JOIN bots c ON c.id = w.bot_id WHERE c.owner = b.owner), v.id \
             LIMIT 1",
        )
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(v) = &v {
            sqlx::query("UPDATE versions SET check_status = 'running' WHERE id = $1")
                .bind(v.id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(v)
    }

    /// The uploads of `owner` since `since_ms`: how many, and when the oldest of them was made.
    ///
    /// # Errors
    /// A database error.
    pub async fn uploads_since(&self, owner: i64, since_ms: i64) -> Result<(i64, Option<i64>)> {
        Ok(sqlx::query_as(
            "SELECT COUNT(*), MIN(v.uploaded_ms) FROM versions v JOIN bots b ON b.id = v.bot_id \
             WHERE b.owner = $1 AND v.uploaded_ms > $2",
        )
        .bind(owner)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?)
    }

    /// The bytes of every version `owner` has uploaded, summed.
    ///
    /// # Errors
    /// A database error.
    pub async fn stored_bytes(&self, owner: i64) -> Result<i64> {
        let (bytes,): (i64,) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(v.bytes), 0) AS BIGINT) FROM versions v \
             JOIN bots b ON b.id = v.bot_id WHERE b.owner = $1",
        )
        .bind(owner)
        .fetch_one(&self.pool)
        .await?;
        Ok(bytes)
    }

    /// Puts checks left running by a stopped server back in the queue.
    ///
    /// # Errors
    /// A database error.
    pub async fn requeue_checks(&self) -> Result<u64> {
        Ok(sqlx::query(
            "UPDATE versions SET check_status = 'pending' WHERE check_status = 'running'",
        )
        .execute(&self.pool)
        .await?
        .rows_affected())
    }

    /// Records the verdict of version `id`'s check; a pass makes it its bot's active version (the
    /// newest passing version is active).
    ///
    /// # Errors
    /// A database error.
    pub async fn set_verdict(&self, id: i64, passed: bool, detail: &str) -> Result<()> {
        let mut tx = self.write().await?;
        sqlx::query(
            "UPDATE versions SET check_status = $1, check_detail = $2, checked_ms = $3 WHERE id = $4",
        )
        .bind(if passed { CheckStatus::Passed } else { CheckStatus::Failed }.as_str())
        .bind(detail)
        .bind(now_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if passed {
            sqlx::query(
                "UPDATE bots SET active_version = (SELECT MAX(v.id) FROM versions v \
                 WHERE v.bot_id = bots.id AND v.check_status = 'passed') \
                 WHERE id = (SELECT bot_id FROM versions WHERE id = $1)",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// How many bots a competition created now would take: those with an active version, not
    /// disqualified.
    ///
    /// # Errors
    /// A database error.
    pub async fn playing_bots(&self) -> Result<i64> {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM bots WHERE active_version IS NOT NULL AND disqualified = 0",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// Makes version `number` of bot `bot` its active version (the one new competitions take), if that
    /// version passed its check; returns whether it did.
    ///
    /// # Errors
    /// A database error.
    pub async fn set_active(&self, bot: i64, number: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE bots SET active_version = (SELECT v.id FROM versions v WHERE v.bot_id = $1 \
             AND v.number = $2 AND v.check_status = 'passed') \
             WHERE id = $1 AND EXISTS (SELECT 1 FROM versions v WHERE v.bot_id = $1 \
             AND v.number = $2 AND v.check_status = 'passed')",
        )
        .bind(bot)
        .bind(number)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Disqualifies bot `id` (or reinstates it): it enters no new competition and its games leave
    /// the standings of every competition it is in.
    ///
    /// # Errors
    /// A database error.
    pub async fn set_disqualified(&self, bot: i64, disqualified: bool, reason: &str) -> Result<()> {
        let mut tx = self.write().await?;
        sqlx::query("UPDATE bots SET disqualified = $1, disqualified_reason = $2 WHERE id = $3")
            .bind(i64::from(disqualified))
            .bind(if disqualified { reason } else { "" })
            .bind(bot)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE entries SET disqualified = $1 WHERE bot_id = $2")
            .bind(i64::from(disqualified))
            .bind(bot)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    // ---- competitions

    /// Creates a competition of `kind`, scheduled, whose entries are the active
    /// version of every bot not disqualified (snapshotted now) and `references`.
    ///
    /// # Errors
    /// A database error.
    pub async fn add_competition(&self, kind: Kind, references: &[String]) -> Result<i64> {
        let mut tx = self.write().await?;
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO competitions (kind, status, created_ms) \
             VALUES ($1, 'scheduled', $2) RETURNING id",
        )
        .bind(kind.as_str())
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        for name in references {
            sqlx::query("INSERT INTO entries (competition_id, name) VALUES ($1, $2)")
                .bind(id)
                .bind(name)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "INSERT INTO entries (competition_id, name, bot_id, version_id) \
             SELECT $1, name, id, active_version FROM bots \
             WHERE active_version IS NOT NULL AND disqualified = 0",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Every competition, newest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn competitions(&self) -> Result<Vec<Competition>> {
        Ok(sqlx::query_as(&format!("{COMPETITION} ORDER BY id DESC"))
            .fetch_all(&self.pool)
            .await?)
    }

    /// The competition `id`.
    ///
    /// # Errors
    /// A database error.
    pub async fn competition(&self, id: i64) -> Result<Option<Competition>> {
        Ok(sqlx::query_as(&format!("{COMPETITION} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The entries of competition `id`, reference bots and bots by name.
    ///
    /// # Errors
    /// A database error.
    pub async fn entries(&self, id: i64) -> Result<Vec<Entry>> {
        Ok(sqlx::query_as(
            "SELECT e.name, e.bot_id, e.version_id, v.number AS version, e.disqualified, \
             COALESCE(b.disqualified_reason, '') AS disqualified_reason \
             FROM entries e LEFT JOIN versions v ON v.id = e.version_id \
             LEFT JOIN bots b ON b.id = e.bot_id \
             WHERE e.competition_id = $1 ORDER BY e.bot_id IS NOT NULL, e.name",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The competitions bot `id` is in, newest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn competitions_of(&self, bot: i64) -> Result<Vec<Competition>> {
        Ok(sqlx::query_as(&format!(
            "{COMPETITION} WHERE id IN (SELECT competition_id FROM entries WHERE bot_id = $1) \
             ORDER BY id DESC"
        ))
        .bind(bot)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The next competition to play: one left running or paused-then-resumed (`running`), else the
    /// oldest scheduled one.
    ///
    /// # Errors
    /// A database error.
    pub async fn next_competition(&self) -> Result<Option<Competition>> {
        Ok(sqlx::query_as(&format!(
            "{COMPETITION} WHERE status IN ('running', 'scheduled') \
             ORDER BY status = 'scheduled', id LIMIT 1"
        ))
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Sets competition `id`'s status to `to`, with its start or finish time when it starts or ends,
    /// if its status is now one of `from` (any, when `None`): one statement, so a change that races
    /// with the runner's is decided by the database. Returns whether it changed.
    ///
    /// # Errors
    /// A database error.
    pub async fn set_status(
        &self,
        id: i64,
        from: Option<&[CompetitionStatus]>,
        to: CompetitionStatus,
    ) -> Result<bool> {
        let from = from.unwrap_or(CompetitionStatus::ALL);
        // The enum's own words, never a request's: safe inside the statement.
        let list = from
            .iter()
            .map(|s| format!("'{s}'"))
            .collect::<Vec<_>>()
            .join(", ");
        let r = sqlx::query(&format!(
            "UPDATE competitions SET status = $1, \
             started_ms = CASE WHEN $1 = 'running' AND started_ms IS NULL THEN $2 ELSE started_ms END, \
             finished_ms = CASE WHEN $1 IN ('finished', 'cancelled') THEN $2 ELSE finished_ms END \
             WHERE id = $3 AND status IN ({list})"
        ))
        .bind(to.as_str())
        .bind(now_ms())
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Sets why competition `id` stopped by itself (empty: clears it).
    ///
    /// # Errors
    /// A database error.
    pub async fn set_detail(&self, id: i64, detail: &str) -> Result<()> {
        sqlx::query("UPDATE competitions SET detail = $1 WHERE id = $2")
            .bind(detail)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// When the newest competition of `kind` was created, if any.
    ///
    /// # Errors
    /// A database error.
    pub async fn last_created(&self, kind: Kind) -> Result<Option<i64>> {
        let row: (Option<i64>,) =
            sqlx::query_as("SELECT MAX(created_ms) FROM competitions WHERE kind = $1")
                .bind(kind.as_str())
                .fetch_one(&self.pool)
                .await?;
        Ok(row.0)
    }

    /// Whether a competition is scheduled, running or paused.
    ///
    /// # Errors
    /// A database error.
    pub async fn competition_pending(&self) -> Result<bool> {
        let row: (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM competitions WHERE status IN ('scheduled', 'running', 'paused')",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(row.0 > 0)
    }
}

/// `url` with its password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let auth = &url[s + 3..at];
            match auth.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}
