//! Referee programs (`docs/referees.md`): a game's rules as a separate process that speaks a line
//! protocol, for organisers who write Python or C++ rather than a game module. `[game] referee = {
//! command, args }` is resolved like a bot's command ([`Referee`]), given an identity (the SHA-256 of
//! its words and of the files they name), and registered with [`games::module`] as the rules of a
//! [`games::module::ModuleVariant`]: everything that plays a module game plays a referee's.
//!
//! A game slot keeps its referee process from game to game: a process whose game ends goes back to an
//! idle pool ([`RefereeProgram`]), and the next game takes it and says `new`. A process whose call
//! failed (it crashed, hung, answered nonsense) is killed; the game is void.

mod process;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::Context;
use games::frame::Frame;
use games::module::{self, Judge, Loaded, ModuleError, Program, Verdict};
use games::{Outcome, Player};
use serde::{Deserialize, Serialize};

pub use process::{Session, MAX_LINE, MAX_STRAY, TAG, VERSION};

use crate::config::SandboxKind;
use crate::sandbox::Containment;

/// `[game] referee = { command, args, timeout_ms, sandbox }` as written in a config.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RefereeConfig {
    /// The executable: a path relative to the config's folder when it has a `/`, else found on `PATH`.
    pub command: String,
    /// Its arguments; one that names a file relative to the config's folder is that file.
    #[serde(default)]
    pub args: Vec<String>,
    /// The longest wait for one answer, ms (default [`DEFAULT_TIMEOUT_MS`]).
    pub timeout_ms: Option<u64>,
    /// The longest wait for the first answer (`hello`), ms: the program's start (default
    /// [`DEFAULT_STARTUP_MS`]).
    pub startup_ms: Option<u64>,
    /// Its sandbox (default: the config's `sandbox`, else bubblewrap).
    pub sandbox: Option<SandboxKind>,
}

/// The wait for one answer when `timeout_ms` is not given, ms.
pub const DEFAULT_TIMEOUT_MS: u64 = 5000;
/// The wait for `hello` when `startup_ms` is not given, ms (an interpreter's start on a loaded machine).
pub const DEFAULT_STARTUP_MS: u64 = 10_000;

/// A referee program ready to start: how a results folder keeps it (`modules/<identity>.referee.toml`)
/// and how a built-in bot is told of it (`arena bot NAME --referee JSON`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Referee {
    /// The command as written (`python3`, `./referee`).
    pub command: String,
    /// The executable, absolute.
    pub program: PathBuf,
    /// The arguments, those that name files absolute.
    pub args: Vec<String>,
    /// The longest wait for one answer, ms.
    pub timeout_ms: u64,
    /// The longest wait for `hello`, ms.
    pub startup_ms: u64,
    pub sandbox: SandboxKind,
    /// Its name in messages: the command and the arguments, files by their names.
    pub label: String,
    /// The SHA-256 of its words and files ([`identity`]): the identity in records.
    pub identity: String,
}

impl Referee {
    /// Resolves `config` against `base`, the config file's folder (`sandbox`: the config's own
    /// `sandbox`, the default when the referee names none).
    ///
    /// # Errors
    /// A command that is not found or not executable, a file that cannot be read, a zero timeout.
    pub fn resolve(
        config: &RefereeConfig,
        base: &Path,
        sandbox: Option<SandboxKind>,
    ) -> Result<Referee, String> {
        let sandbox = config
            .sandbox
            .or(sandbox)
            .unwrap_or(SandboxKind::Bubblewrap);
        let program = crate::sandbox::launch::resolve_command(
            &config.command,
            base,
            sandbox == SandboxKind::Bubblewrap,
        )?;
        let args = crate::sandbox::launch::resolve_args(&config.args, base, false)?;
        let timeout_ms = config.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        let startup_ms = config.startup_ms.unwrap_or(DEFAULT_STARTUP_MS);
        if timeout_ms == 0 || startup_ms == 0 {
            return Err("timeout_ms and startup_ms must be positive".into());
        }
        let name = |w: &str| {
            let p = Path::new(w);
            if p.is_absolute() && p.is_file() {
                p.file_name()
                    .map_or_else(|| w.to_string(), |n| n.to_string_lossy().into_owned())
            } else {
                w.to_string()
            }
        };
        let label = std::iter::once(name(&config.command))
            .chain(args.iter().map(|a| name(a)))
            .collect::<Vec<_>>()
            .join(" ");
        let mut referee = Referee {
            command: config.command.clone(),
            program,
            args,
            timeout_ms,
            startup_ms,
            sandbox,
            label,
            identity: String::new(),
        };
        referee.identity = identity(&referee)?;
        Ok(referee)
    }
}

impl Referee {
    /// `referee WORDS`: how messages name it (as [`Loaded::describe`] does).
    pub fn describe(&self) -> String {
        format!("referee {}", self.label)
    }
}

/// The referee program of `config`'s `[game] referee`, resolved against the config's folder `base`;
/// `None` for another game.
///
/// # Errors
/// A value that is not a referee table, or a referee that cannot be resolved ([`Referee::resolve`]).
pub fn of_config(config: &crate::config::Config, base: &Path) -> Result<Option<Referee>, String> {
    let Some(value) = config.game.keys.get("referee") else {
        return Ok(None);
    };
    let table: RefereeConfig = value.clone().try_into().map_err(|e| {
        format!("expected {{ command = \"…\", args = […] }} (docs/referees.md): {e}")
    })?;
    Referee::resolve(&table, base, config.sandbox).map(Some)
}

/// The referee program of the config file `path` (`[game] referee`), started, and the config's
/// `variant` words (`""` when it names none): what `arena check-game` and `arena bench referee` take.
///
/// # Errors
/// The config cannot be read, has no referee, or the referee cannot be resolved or started.
pub fn of_config_file(path: &Path) -> Result<(&'static Loaded, String), String> {
    let config = crate::config::Config::load(path).map_err(|e| e.to_string())?;
    let base = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let referee = of_config(&config, base)
        .map_err(|e| format!("{}: [game] referee: {e}", path.display()))?
        .ok_or_else(|| format!("{}: its [game] has no referee", path.display()))?;
    let words = match config.game.keys.get("variant") {
        Some(toml::Value::String(s)) => s.clone(),
        Some(toml::Value::Integer(n)) => n.to_string(),
        _ => String::new(),
    };
    Ok((register(referee)?, words))
}

/// The identity of `referee`: the SHA-256 (lower-case hex) of `arena referee 1` and a line per word —
/// `file SHA-256` for the command given as a path and for every argument that is a file (their
/// contents), `word TEXT` for the others. So the same program gives the same identity wherever its
/// files lie, and a changed file gives another.
///
/// # Errors
/// A file that cannot be read.
pub fn identity(referee: &Referee) -> Result<String, String> {
    let file = |p: &Path| {
        std::fs::read(p)
            .map(|bytes| format!("file {}\n", module::sha256(&bytes)))
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    let mut text = String::from("arena referee 1\n");
    if referee.command.contains('/') {
        text += &file(&referee.program)?;
    } else {
        text += &format!("word {}\n", referee.command);
    }
    for a in &referee.args {
        let p = Path::new(a);
        if p.is_absolute() && p.is_file() {
            text += &file(p)?;
        } else {
            text += &format!("word {a}\n");
        }
    }
    Ok(module::sha256(text.as_bytes()))
}

/// The containment of referee processes: bubblewrap and rlimits, no cgroups (a referee is the
/// organiser's, and lives across games).
fn containment() -> &'static Arc<Containment> {
    static C: OnceLock<Arc<Containment>> = OnceLock::new();
    C.get_or_init(Containment::for_referees)
}

/// The folder under which sandboxed referees get their work folders.
fn work_root() -> PathBuf {
    std::env::temp_dir().join(format!("arena-referees-{}", std::process::id()))
}

/// The idle processes of one referee program.
struct Pool {
    referee: Referee,
    idle: Mutex<Vec<Session>>,
}

impl Pool {
    /// The most idle processes kept (one a game slot; more are ended).
    const MAX_IDLE: usize = 64;

    fn take(&self) -> Result<Session, ModuleError> {
        loop {
            let s = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
            match s {
                Some(mut s) => {
                    if s.reusable() {
                        return Ok(s);
                    }
                }
                None => break,
            }
        }
        let root = work_root();
        if self.referee.sandbox == SandboxKind::Bubblewrap {
            std::fs::create_dir_all(&root).map_err(|e| ModuleError {
                module: self.referee.describe(),
                what: format!("cannot create {}: {e}", root.display()),
            })?;
        }
        Session::start(&self.referee, containment(), &root)
    }

    fn give_back(&self, mut s: Session) {
        if s.reusable() {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < Pool::MAX_IDLE {
                idle.push(s);
            }
        }
    }
}

/// A referee program as [`games::module`] sees it: each [`Program::open`] leases a process.
pub struct RefereeProgram(Arc<Pool>);

impl Program for RefereeProgram {
    fn open(&self) -> Result<Box<dyn Judge>, ModuleError> {
        Ok(Box::new(Lease {
            session: Some(self.0.take()?),
            pool: Arc::clone(&self.0),
        }))
    }
}

/// A process lent to one game, given back to the pool when the game's positions are gone.
struct Lease {
    session: Option<Session>,
    pool: Arc<Pool>,
}

impl Lease {
    fn s(&mut self) -> &mut Session {
        self.session.as_mut().expect("held until dropped")
    }
}

impl Judge for Lease {
    fn start(&mut self, variant: &str) -> Result<Result<(), String>, ModuleError> {
        self.s().start(variant)
    }
    fn variant(&mut self) -> Result<String, ModuleError> {
        self.s().variant()
    }
    fn turn(&mut self) -> Result<Player, ModuleError> {
        self.s().turn()
    }
    fn legal(&mut self) -> Result<String, ModuleError> {
        self.s().legal()
    }
    fn play(&mut self, text: &str) -> Result<Verdict, ModuleError> {
        self.s().play(text)
    }
    fn undo(&mut self) -> Result<bool, ModuleError> {
        self.s().undo()
    }
    fn outcome(&mut self) -> Result<Option<Outcome>, ModuleError> {
        self.s().outcome()
    }
    fn score(&mut self) -> Result<Option<[u32; 2]>, ModuleError> {
        self.s().score()
    }
    fn frame(&mut self) -> Result<Frame, ModuleError> {
        self.s().frame()
    }
    fn discard(&mut self) {
        self.s().discard();
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(s) = self.session.take() {
            self.pool.give_back(s);
        }
    }
}

/// Registers `referee` as the rules of its game: starts a process, reads its game's name (`hello`),
/// and keeps that process for the first game. The same identity registered before is found again.
///
/// # Errors
/// The referee cannot be started or does not greet as the protocol says.
pub fn register(referee: Referee) -> Result<&'static Loaded, String> {
    if let Some(m) = module::find(&referee.identity) {
        return Ok(m);
    }
    let pool = Arc::new(Pool {
        referee,
        idle: Mutex::new(Vec::new()),
    });
    pools()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(Arc::clone(&pool));
    let session = pool.take().map_err(|e| e.to_string())?;
    let name = session.name.clone();
    pool.give_back(session);
    let loaded = Loaded::program(
        &pool.referee.label,
        pool.referee.identity.clone(),
        &name,
        Box::new(RefereeProgram(Arc::clone(&pool))),
    )
    .map_err(|e| e.to_string())?;
    Ok(module::register(loaded))
}

/// Every pool of this process (a registered referee's), for [`shutdown`].
fn pools() -> &'static Mutex<Vec<Arc<Pool>>> {
    static POOLS: OnceLock<Mutex<Vec<Arc<Pool>>>> = OnceLock::new();
    POOLS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Ends every idle referee process of this process (`quit`, then its process group killed, its work
/// folder removed) and removes the referees' work root: what the arena does before it exits. Games
/// still in progress keep theirs.
pub fn shutdown() {
    for pool in pools().lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let idle = std::mem::take(&mut *pool.idle.lock().unwrap_or_else(|e| e.into_inner()));
        drop(idle);
    }
    let _ = std::fs::remove_dir(work_root());
}

/// The file of results folder `dir` that keeps how to start `referee` again.
pub fn kept(dir: &Path, referee: &Referee) -> PathBuf {
    dir.join(crate::modules::FOLDER).join(format!(
        "{}{}",
        referee.identity,
        crate::modules::KEPT_REFEREE
    ))
}

/// Keeps `referee` in results folder `dir` (`modules/<identity>.referee.toml`), unless kept already.
///
/// # Errors
/// The file cannot be written.
pub fn keep(dir: &Path, referee: &Referee) -> anyhow::Result<()> {
    let to = kept(dir, referee);
    if to.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(to.parent().expect("in a folder"))
        .with_context(|| format!("creating {}", dir.join(crate::modules::FOLDER).display()))?;
    let text = format!(
        "# How to start the referee program these games were played with (docs/referees.md).\n{}",
        toml::to_string(referee).context("writing the referee")?
    );
    let tmp = to.with_extension("toml.tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &to))
        .with_context(|| format!("keeping the referee in {}", to.display()))
}

/// Whether `path` is a kept referee (`<identity>.referee.toml`).
pub fn is_kept_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(crate::modules::KEPT_REFEREE))
}

/// Registers every referee kept in results folder `dir` (none when it has no `modules` folder), so
/// that its records' games parse.
///
/// # Errors
/// See [`load_kept`].
pub fn load_kept_in(dir: &Path) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir.join(crate::modules::FOLDER)) else {
        return Ok(());
    };
    for entry in entries {
        let path = entry?.path();
        if is_kept_file(&path) {
            load_kept(&path)?;
        }
    }
    Ok(())
}

/// Registers the referee kept in `path` (a results folder's `modules/<identity>.referee.toml`).
///
/// # Errors
/// The file cannot be read or parsed; the referee's files changed since (another identity); the
/// referee cannot be started.
pub fn load_kept(path: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
    let referee: Referee =
        toml::from_str(&text).with_context(|| format!("{}: not a kept referee", path.display()))?;
    if module::find(&referee.identity).is_some() {
        return Ok(());
    }
    let stem = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(crate::modules::KEPT_REFEREE))
        .unwrap_or("");
    anyhow::ensure!(
        stem == referee.identity,
        "{}: names identity {} but is kept as {stem}",
        path.display(),
        referee.identity
    );
    let now = identity(&referee)
        .map_err(|e| anyhow::anyhow!("the referee program {}: {e}", referee.label))?;
    anyhow::ensure!(
        now == referee.identity,
        "the referee program {} changed since these games were played: its identity was {}, it is \
         now {now} (docs/referees.md)",
        referee.label,
        referee.identity
    );
    register(referee).map_err(anyhow::Error::msg)?;
    Ok(())
}
