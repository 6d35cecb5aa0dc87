//! `arena serve CONTEST.toml`: the contest server. Participants upload bots, each new version is
//! checked against the reference bots, test competitions run on a schedule and the organiser starts
//! the final; the standings, every game and its replay are public. One process: an SQLite database
//! beside the contest's data folder ([`db`]), an HTTP server of pages and a JSON API ([`web`]), and
//! its own pool of games ([`runner`]) through the same run layer as `arena run`. docs/server.md is
//! the user's guide.
//!
//! Nothing is lost when the process is killed: the database commits each change whole, an upload is
//! stored under its hash before its row is committed ([`upload`]), and a competition resumes from
//! its `games.csv`.

pub mod auth;
pub mod client;
pub mod contest;
pub mod db;
pub mod queue;
pub mod runner;
pub mod upload;
pub mod web;
pub mod worker;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use tokio::sync::{watch, Notify};

use crate::sandbox::Containment;
use contest::Contest;
use db::Db;
use runner::DataDirs;

/// The server's state, shared by the web handlers and the runner's loops.
pub struct App {
    pub db: Db,
    pub contest: Arc<Contest>,
    pub data: DataDirs,
    /// Wakes the check loop (a new upload).
    pub wake_checks: Notify,
    /// Wakes the competition loop (a competition created or resumed, a check passed).
    pub wake_competitions: Notify,
    /// The stop of the competition being played, by id (pause, cancel).
    pub stops: Arc<Mutex<HashMap<i64, watch::Sender<bool>>>>,
    /// `true` once the server is shutting down.
    pub shutdown: watch::Receiver<bool>,
    /// The containment layers, probed once.
    pub containment: Option<Arc<Containment>>,
    /// The games in progress.
    pub live: Arc<runner::live::Board>,
    /// Login and registration attempts, limited per account and per address.
    pub logins: web::throttle::LoginLimits,
    /// Standings computed from a competition's `games.csv`, by id.
    pub standings: Mutex<HashMap<i64, web::standings::Cached>>,
    /// Held while standings are computed: one computation at a time, never one per request.
    pub standings_computing: tokio::sync::Mutex<()>,
}

/// Where the contest keeps its data: `<results>/<name>/` and the database `<results>/<name>.sqlite`.
pub fn data_paths(results: &Path, contest: &Contest) -> (PathBuf, PathBuf) {
    let name = &contest.config.name;
    (results.join(name), results.join(format!("{name}.sqlite")))
}

/// How to serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub contest: PathBuf,
    /// The address to listen on.
    pub listen: SocketAddr,
    /// The folder holding the contest's data folder and database (usually `results`).
    pub results: PathBuf,
    /// The database, when not the SQLite file beside the data folder: a `postgres://…` URL.
    pub db: Option<String>,
    /// Games the server plays itself at once (its own worker); `None`: the contest's
    /// `[competition] concurrency`; `Some(0)`: only `arena worker` processes play.
    pub slots: Option<usize>,
}

/// Opens the contest's database (migrating it) and its data folder: the database `db` (a
/// `postgres://…` URL or an SQLite path, see [`Db::open`]), by default the SQLite file
/// `<results>/<name>.sqlite`.
///
/// # Errors
/// A contest file that does not load, a database that cannot be opened.
pub async fn open(
    contest: &Path,
    results: &Path,
    db: Option<&str>,
    exe: &Path,
) -> Result<(Contest, Db, DataDirs)> {
    let (contest, db, data) = open_unmigrated(contest, results, db, exe).await?;
    db.migrate().await?;
    Ok((contest, db, data))
}

/// [`open`] without the database's migrations ([`Db::migrate`]), which a server applies once it holds
/// the contest's data and database.
///
/// # Errors
/// As [`open`].
async fn open_unmigrated(
    contest: &Path,
    results: &Path,
    db: Option<&str>,
    exe: &Path,
) -> Result<(Contest, Db, DataDirs)> {
    let contest = Contest::load(contest, exe)?;
    let (root, db_path) = data_paths(results, &contest);
    std::fs::create_dir_all(&root).with_context(|| format!("creating {}", root.display()))?;
    // Absolute: the bots' folders in the competitions' configs must not depend on where they run.
    let root = std::path::absolute(&root)?;
    let db = match db {
        Some(url) => Db::connect(url).await?,
        None => Db::connect(&db_path.to_string_lossy()).await?,
    };
    Ok((contest, db, DataDirs { root }))
}

/// Adds the account `name` with a random password; returns that password and the account's API
/// token (both shown once: only their hashes are stored).
///
/// # Errors
/// A bad or taken name, a database error.
pub async fn add_user(db: &Db, name: &str, admin: bool) -> Result<(String, String)> {
    anyhow::ensure!(
        contest::valid_name(name),
        "user name {name:?}: use 1–32 letters, digits, - or _"
    );
    let password = auth::random_token()[..20].to_string();
    let token = auth::random_token();
    let hash = {
        let p = password.clone();
        tokio::task::spawn_blocking(move || auth::hash_password(&p))
            .await?
            .map_err(anyhow::Error::msg)?
    };
    db.add_user(name, &hash, &auth::sha256_hex(&token), admin)
        .await?
        .with_context(|| {
            format!("the user name {name:?} is taken (names are unique regardless of case)")
        })?;
    Ok((password, token))
}

/// A server started by [`start`]: its address and state; [`Started::stop`] stops it.
pub struct Started {
    /// The address it listens on (the port chosen when `listen` asked for port 0).
    pub addr: SocketAddr,
    pub app: Arc<App>,
    /// Checks requeued at the start (left running by a stopped server).
    pub requeued: u64,
    shutdown: watch::Sender<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// The contest's data folder, held until the server stops.
    _lock: crate::results::RunLock,
    /// The contest's database ([`Db::lock_server`]), held until the server stops.
    _db_lock: Arc<tokio::sync::Mutex<db::ServerLock>>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Started {
    /// Stops the server: no new request is taken, the running games are stopped unrecorded (played
    /// again at the next start), everything recorded is kept.
    ///
    /// # Errors
    /// The HTTP server's own failure while it ran.
    pub async fn stop(self) -> Result<()> {
        let _ = self.shutdown.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
        self.server.await?.context("serving")
    }
}

/// Starts the server on `opts.listen` with its check and competition loops, on the current tokio
/// runtime (a multi-threaded one: the loops and the HTTP server are spawned tasks).
///
/// # Errors
/// A contest that does not load, a database that cannot be opened, an address that cannot be bound,
/// a machine that cannot isolate bots as the contest asks.
pub async fn start(opts: &ServeOptions, exe: &Path) -> Result<Started> {
    let (contest, db, data) =
        open_unmigrated(&opts.contest, &opts.results, opts.db.as_deref(), exe).await?;
    // One server a contest: a second one would empty the first's incoming uploads, requeue its
    // running checks and play its competitions a second time.
    let lock = crate::results::ResultsDir {
        path: data.root.clone(),
    }
    .lock()
    .map_err(|_| {
        anyhow::anyhow!(
            "{} is in use by another `arena serve` of this contest; stop it first",
            data.root.display()
        )
    })?;
    // And one server a database: a second contest folder on the same PostgreSQL database would do the
    // same harm.
    let db_lock = db.lock_server().await?.ok_or_else(|| {
        anyhow::anyhow!(
            "the database {} is in use by another `arena serve`; stop it first",
            opts.db.as_deref().map_or_else(String::new, db::redact)
        )
    })?;
    // Only now, holding both, may it change the database.
    db.migrate().await?;
    // Uploads cut short by a killed server: nothing refers to them.
    let _ = std::fs::remove_dir_all(data.incoming());
    for dir in [
        data.incoming(),
        data.store(),
        data.checks(),
        data.competitions(),
    ] {
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // Folders an upload was being unpacked into when the server was killed (`.upload-*`).
    for entry in std::fs::read_dir(data.store())?.flatten() {
        if entry.file_name().to_string_lossy().starts_with('.') {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let requeued = db.requeue_checks().await?;
    let containment = Containment::probe();
    // Refused now, not at the first check: a machine that cannot isolate the bots as asked.
    let mut candidate = contest.config.reference[0].clone();
    candidate.builtin = None;
    candidate.command = Some("/bin/true".into());
    candidate.name = "sample-upload".into();
    let uploads = contest.plan(&contest.check("sample-upload", candidate)?)?;
    containment
        .check(&uploads.confined(), uploads.processes_configured)
        .map_err(anyhow::Error::msg)
        .context("the contest's uploads cannot be isolated on this machine")?;
    let (shutdown_tx, shutdown) = watch::channel(false);
    let logins = web::throttle::LoginLimits::new(&contest.config.server);
    let app = Arc::new(App {
        db,
        contest: Arc::new(contest),
        data,
        wake_checks: Notify::new(),
        wake_competitions: Notify::new(),
        stops: Arc::new(Mutex::new(HashMap::new())),
        shutdown,
        containment: Some(containment),
        standings: Mutex::new(HashMap::new()),
        standings_computing: tokio::sync::Mutex::new(()),
        live: Arc::default(),
        logins,
    });
    let listener = tokio::net::TcpListener::bind(opts.listen)
        .await
        .with_context(|| format!("listening on {}", opts.listen))?;
    let addr = listener.local_addr()?;
    let slots = match opts.slots {
        Some(n) => n,
        // The contest's `[competition] concurrency` (the check's plan has it too).
        None => uploads.concurrency,
    };
    let mut tasks = vec![
        tokio::spawn(runner::checks::run(Arc::clone(&app))),
        tokio::spawn(runner::competitions::run(Arc::clone(&app))),
    ];
    if slots > 0 {
        // The server's own slots: one more worker on the queue, with the server's store.
        let worker = worker::WorkerOptions {
            name: "server".to_string(),
            slots,
            data: app.data.clone(),
            hide: app.data.root.join("runs"),
            board: Some(Arc::clone(&app.live)),
        };
        let (db, contest, stop) = (
            app.db.clone(),
            Arc::clone(&app.contest),
            app.shutdown.clone(),
        );
        let containment = app.containment.clone().unwrap_or_else(Containment::probe);
        tasks.push(tokio::spawn(async move {
            if let Err(e) = worker::work(db, contest, containment, worker, stop).await {
                crate::errln!("arena serve: the server's own worker: {e:#}");
            }
        }));
    }
    // The database's lock, checked every 30 s while the server runs (and taken again after a lost
    // connection): lost to another server, this one stops. It is released last, with `Started`.
    let db_lock = Arc::new(tokio::sync::Mutex::new(db_lock));
    {
        let (shutdown, mut stop, db_lock) = (
            shutdown_tx.clone(),
            app.shutdown.clone(),
            Arc::clone(&db_lock),
        );
        tasks.push(tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(std::time::Duration::from_secs(30)) => {}
                    _ = crate::run::pool::stopped(&mut stop) => return,
                }
                if let Some(why) = db_lock.lock().await.check().await {
                    crate::errln!("arena serve: {why}; stopping");
                    let _ = shutdown.send(true);
                    return;
                }
            }
        }));
    }
    let router = web::router(Arc::clone(&app));
    let (stop, limits) = (app.shutdown.clone(), app.contest.config.server.clone());
    let server =
        tokio::spawn(async move { web::listen::serve(listener, router, &limits, stop).await });
    Ok(Started {
        addr,
        app,
        requeued,
        shutdown: shutdown_tx,
        tasks,
        server,
        _lock: lock,
        _db_lock: db_lock,
    })
}

/// `arena serve`: [`start`], prints the address to open, and serves until Ctrl-C or SIGTERM.
///
/// # Errors
/// Those of [`start`] and [`Started::stop`].
pub async fn serve(opts: &ServeOptions, exe: &Path) -> Result<()> {
    let started = start(opts, exe).await?;
    let db = match &opts.db {
        Some(url) => crate::serve::db::redact(url),
        None => data_paths(&opts.results, &started.app.contest)
            .1
            .display()
            .to_string(),
    };
    crate::errln!(
        "arena serve: contest {} (database {db}); {} check(s) requeued",
        started.app.contest.config.name,
        started.requeued
    );
    // The last line the organiser reads: where to open the contest (tests read it too).
    crate::outln!("listening on http://{}/", started.addr);
    crate::run::stop_signal().await;
    started.stop().await?;
    crate::errln!("arena serve: stopped; everything recorded is kept");
    Ok(())
}
