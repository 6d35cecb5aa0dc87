//! The results folder of a tournament: `results/<name>/games.csv`, `standings.csv`, `config.toml`,
//! `logs/`. Games are appended and flushed one by one as they end, so nothing recorded is lost.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

pub mod combine;
pub mod fingerprint;
pub mod missing;
pub mod recorded;
pub mod verify;

/// The file of a results folder that holds the absolute path of the config its `config.toml` was copied
/// from, so the copy's relative paths (openings, bot commands) resolve as they did in the run.
pub const CONFIG_ORIGIN: &str = "config.origin";

use crate::record::{GameRecord, GameRow};

/// How long [`ResultsDir::lock`] waits for a folder's lock to free itself before calling the folder in
/// use.
pub const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// The folder of one tournament's results.
#[derive(Clone, Debug)]
pub struct ResultsDir {
    /// `results/<name>`.
    pub path: PathBuf,
}

impl ResultsDir {
    /// The folder for tournament `name` under `root` (usually `results`).
    pub fn new(root: &Path, name: &str) -> ResultsDir {
        ResultsDir {
            path: root.join(name),
        }
    }

    /// `games.csv`: one row per finished game.
    pub fn games_csv(&self) -> PathBuf {
        self.path.join("games.csv")
    }

    /// `standings.csv`.
    pub fn standings_csv(&self) -> PathBuf {
        self.path.join("standings.csv")
    }

    /// `logs/`: transcripts (`<id>.log`) and bots' stderr (`<id>-<side>-<bot>.stderr`).
    pub fn logs(&self) -> PathBuf {
        self.path.join("logs")
    }

    /// Takes the folder for this run: an exclusive lock on `<folder>/.lock` (created, with the folder,
    /// if missing), held until the returned [`RunLock`] is dropped or the process ends, however it ends.
    /// Two runs writing one `games.csv` would play and record the same games twice.
    ///
    /// # Errors
    /// The folder is in use by another run (another `arena run`, `probe` or `merge` on it), or a
    /// file-system error, with the path.
    pub fn lock(&self) -> Result<RunLock> {
        fs::create_dir_all(&self.path)
            .with_context(|| format!("creating {}", self.path.display()))?;
        let path = self.path.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        // A run killed by SIGKILL may leave, for a few ms, a child that was between fork and exec (and
        // so still shares the lock) dying: a lock that frees itself within LOCK_PATIENCE was not another
        // run's.
        let until = std::time::Instant::now() + LOCK_PATIENCE;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(RunLock { _file: file }),
                Err(fs::TryLockError::WouldBlock) if std::time::Instant::now() < until => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(fs::TryLockError::WouldBlock) => bail!(
                    "{} is in use by another run of this tournament; wait for it to end (or stop it) first",
                    self.path.display()
                ),
                Err(fs::TryLockError::Error(e)) => {
                    return Err(e).with_context(|| format!("locking {}", path.display()))
                }
            }
        }
    }

    /// Creates the folder and takes it for this run ([`ResultsDir::lock`]). With `fresh`, an existing
    /// folder (not in use) is first moved aside to `<name>.<unix seconds>` (never deleted); returns
    /// the lock and where the old folder went.
    ///
    /// # Errors
    /// The folder is in use by another run; file-system errors, with the path.
    pub fn prepare(&self, fresh: bool) -> Result<(RunLock, Option<PathBuf>)> {
        let mut moved = None;
        let existed = self.path.exists();
        // Checked before anything, `--fresh` included, touches the folder.
        let mut lock = self.lock()?;
        if fresh && existed {
            drop(lock);
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            let mut aside = self.path.with_file_name(format!(
                "{}.{secs}",
                self.path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or("old")
            ));
            let mut k = 1;
            while aside.exists() {
                aside = self.path.with_file_name(format!(
                    "{}.{secs}-{k}",
                    self.path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or("old")
                ));
                k += 1;
            }
            fs::rename(&self.path, &aside).with_context(|| {
                format!(
                    "moving {} aside to {}",
                    self.path.display(),
                    aside.display()
                )
            })?;
            moved = Some(aside);
            lock = self.lock()?;
        }
        fs::create_dir_all(self.logs())
            .with_context(|| format!("creating {}", self.logs().display()))?;
        Ok((lock, moved))
    }

    /// Reads every recorded game. A last line cut short (the arena was killed mid-write) is removed
    /// from the file first, so appending goes on cleanly.
    ///
    /// # Errors
    /// An unreadable file, or a row that does not parse (with its line number).
    pub fn read_games(&self) -> Result<Vec<GameRecord>> {
        let path = self.games_csv();
        if !path.exists() {
            return Ok(Vec::new());
        }
        repair_last_line(&path).with_context(|| format!("repairing {}", path.display()))?;
        read_games_csv(&path)
    }

    /// The games of an existing results folder, for the commands that read one (`arena report`,
    /// `export`, `ratings`, `replay`, `analyze`, knockout seeds): [`read_games`](Self::read_games), but a
    /// folder without `games.csv` is an error rather than an empty tournament.
    ///
    /// # Errors
    /// `<dir> has no games.csv`, or those of [`read_games`](Self::read_games).
    pub fn read_existing_games(&self) -> Result<Vec<GameRecord>> {
        if !self.games_csv().exists() {
            bail!("{} has no games.csv", self.path.display());
        }
        self.read_games()
    }

    /// Opens `games.csv` for appending, writing the header if the file is new or empty. A file written
    /// by an older arena, whose header lacks today's columns, is first rewritten whole with today's header
    /// (its rows keep their values; the new columns stay empty in them), through a temporary file and a
    /// rename, so a cut-off rewrite leaves the old file whole.
    ///
    /// # Errors
    /// File-system errors, with the path.
    pub fn appender(&self) -> Result<GameWriter> {
        let path = self.games_csv();
        upgrade_header(&path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
        let writer = csv::WriterBuilder::new()
            .has_headers(empty)
            .from_writer(file);
        Ok(GameWriter { writer, path })
    }
}

/// A results folder taken by one run ([`ResultsDir::lock`]); dropping it frees the folder.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// Loads the rules the folder of `games.csv` file `path` kept (its modules, its referee programs), so
/// that its games are parsed and re-refereed through the rules they were played with.
fn load_rules(path: &Path) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    crate::modules::load_kept(dir)?;
    crate::referee_programs::load_kept_in(dir)
}

/// Reads a `games.csv` file.
///
/// # Errors
/// An unreadable file, a row that does not parse (with its line number), a second header line or a game
/// recorded twice (the marks of two runs writing the file at once).
pub fn read_games_csv(path: &Path) -> Result<Vec<GameRecord>> {
    load_rules(path)?;
    let reader =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    parse_games(reader, path, 0, &mut Default::default())
}

/// The games of the `games.csv` at `path` while a run may be appending to it (the contest server's
/// pages): its lines up to the last newline, read without repairing the file; none when it is
/// missing. Errors as [`read_games_csv`].
///
/// # Errors
/// See [`read_games_csv`].
pub fn read_games_live(path: &Path) -> Result<Vec<GameRecord>> {
    load_rules(path)?;
    let bytes = complete_lines(path)?;
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    parse_games(
        csv::Reader::from_reader(&bytes[..]),
        path,
        0,
        &mut Default::default(),
    )
}

/// What [`read_games_more`] has read of a `games.csv`: its complete lines up to `len` bytes.
#[derive(Clone, Debug, Default)]
pub struct GamesRead {
    /// Bytes read: whole lines, the header's included; 0 for a missing or empty file.
    pub len: u64,
    /// Every game of them, re-refereed ([`verify`]), in the file's order.
    pub games: Vec<GameRecord>,
    /// The header line, newline included.
    header: Vec<u8>,
    /// The ids of `games`.
    ids: std::collections::HashSet<String>,
}

/// The games of the `games.csv` at `path` while a run may be appending to it, as
/// [`read_games_live`] reads them, but reading (and re-refereeing) only the lines after the `before.len`
/// bytes that `before` read: the contest server's standings, kept while games come in, in a file only
/// its run appends to. The file is read whole again when its header changed or it is shorter than
/// `before`; an earlier line changed in place, at the same length, is not seen.
///
/// # Errors
/// See [`read_games_csv`]; the line numbers are the file's.
pub fn read_games_more(path: &Path, before: Option<&GamesRead>) -> Result<GamesRead> {
    let bytes = complete_lines(path)?;
    if bytes.is_empty() {
        return Ok(GamesRead::default());
    }
    let header_len = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    let header = &bytes[..header_len];
    let before = before.filter(|b| {
        b.header == header && b.len as usize >= header_len && b.len as usize <= bytes.len()
    });
    let Some(before) = before else {
        let mut ids = std::collections::HashSet::new();
        let games = parse_games(csv::Reader::from_reader(&bytes[..]), path, 0, &mut ids)?;
        return Ok(GamesRead {
            len: bytes.len() as u64,
            games,
            header: header.to_vec(),
            ids,
        });
    };
    let from = before.len as usize;
    // The new lines behind the header: the first of them is the text's line 2 and the file's line
    // (newlines before it) + 1.
    let mut text = header.to_vec();
    text.extend_from_slice(&bytes[from..]);
    let newlines = bytes[..from].iter().filter(|&&b| b == b'\n').count() as u64;
    let mut ids = before.ids.clone();
    let more = parse_games(
        csv::Reader::from_reader(&text[..]),
        path,
        newlines - 1,
        &mut ids,
    )?;
    let mut games = before.games.clone();
    games.extend(more);
    Ok(GamesRead {
        len: bytes.len() as u64,
        games,
        header: header.to_vec(),
        ids,
    })
}

/// The bytes of the file at `path` up to its last newline (a run may be appending the next line);
/// empty when it is missing.
///
/// # Errors
/// A file that exists but cannot be read.
pub fn complete_lines(path: &Path) -> Result<Vec<u8>> {
    let mut bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    bytes.truncate(bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1));
    Ok(bytes)
}

/// The games of `reader`, each re-refereed; `line_offset` is added to the reader's line numbers in
/// errors (the lines of the file before the reader's), and `seen` holds the ids read before (a game
/// recorded twice is an error), to which these are added.
fn parse_games<R: std::io::Read>(
    mut reader: csv::Reader<R>,
    path: &Path,
    line_offset: u64,
    seen: &mut std::collections::HashSet<String>,
) -> Result<Vec<GameRecord>> {
    let header = reader
        .headers()
        .with_context(|| format!("reading {}", path.display()))?
        .clone();
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.with_context(|| format!("{}", path.display()))?;
        let line = record.position().map_or(0, |p| p.line()) + line_offset;
        if record == header {
            bail!(
                "{}: a second header at line {line}: two runs wrote this file at once; \
                 remove the extra header (and any game recorded twice) or start afresh with --fresh",
                path.display()
            );
        }
        let row: GameRow = record
            .deserialize(Some(&header))
            .with_context(|| format!("{}: line {line}", path.display()))?;
        let id = row.id.clone();
        if !seen.insert(id.clone()) {
            bail!(
                "{}: game {id} is recorded twice (again at line {line}): two runs played this \
                 tournament at once; keep one row per game or start afresh with --fresh",
                path.display()
            );
        }
        let game = GameRecord::try_from(row)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{}: game {id}", path.display()))?;
        if let Err(why) = verify::verify(&game) {
            // A module's or referee program's game: the rules themselves may judge differently now.
            let rules = if game.game == "module" {
                "; or the game module or referee program judges these moves differently from when \
                 they were played (it is not deterministic)"
            } else {
                ""
            };
            bail!(
                "{}: line {line}, game {id}: the row does not follow from its moves: {why} (edited \
                 by hand or by a bot? restore the row, or start afresh with --fresh{rules})",
                path.display()
            );
        }
        out.push(game);
    }
    Ok(out)
}

/// Rewrites `games.csv` with today's header ([`GameRow::HEADER`]) if its header is another (an older
/// arena's). A missing or empty file is left alone.
fn upgrade_header(path: &Path) -> Result<()> {
    let Ok(text) = fs::read_to_string(path) else {
        return Ok(());
    };
    let Some(header) = text.lines().next() else {
        return Ok(());
    };
    if header == GameRow::HEADER.join(",") {
        return Ok(());
    }
    let games = read_games_csv(path)?;
    write_games_csv(path, &games)
}

/// Writes `games` as a whole `games.csv` at `path`: to `<path>.partial` first, then renamed over `path`,
/// so a write cut short leaves the old file whole.
///
/// # Errors
/// File-system errors, with the path.
pub fn write_games_csv(path: &Path, games: &[GameRecord]) -> Result<()> {
    let partial = path.with_extension("csv.partial");
    {
        let mut w = csv::Writer::from_path(&partial)
            .with_context(|| format!("writing {}", partial.display()))?;
        for r in games {
            w.serialize(GameRow::from(r))?;
        }
        w.flush()
            .with_context(|| format!("writing {}", partial.display()))?;
        w.get_ref()
            .sync_all()
            .with_context(|| format!("writing {}", partial.display()))?;
    }
    fs::rename(&partial, path).with_context(|| format!("writing {}", path.display()))
}

fn repair_last_line(path: &Path) -> io::Result<()> {
    let mut f = OpenOptions::new().read(true).write(true).open(path)?;
    let len = f.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::Start(len - 1))?;
    f.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(());
    }
    let mut text = Vec::new();
    f.seek(SeekFrom::Start(0))?;
    f.read_to_end(&mut text)?;
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    f.set_len(keep as u64)
}

/// Appends game rows to `games.csv`, flushing after each.
pub struct GameWriter {
    writer: csv::Writer<File>,
    path: PathBuf,
}

impl GameWriter {
    /// Appends one game and flushes it to the file.
    ///
    /// # Errors
    /// Write errors, with the path.
    pub fn append(&mut self, record: &GameRecord) -> Result<()> {
        self.writer
            .serialize(GameRow::from(record))
            .with_context(|| format!("writing {}", self.path.display()))?;
        self.writer
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))?;
        Ok(())
    }
}

/// Whether two records of one game id are the same play: equal in everything but when it was played
/// and how long each move took (`date`, `time_ms`, `move_ms`), which differ whenever a game is played
/// again with the same moves.
fn same_play(a: &GameRecord, b: &GameRecord) -> bool {
    let timeless = |r: &GameRecord| GameRecord {
        date: String::new(),
        time_ms: [0, 0],
        move_ms: Vec::new(),
        ..r.clone()
    };
    timeless(a) == timeless(b)
}

/// Whether two records are the same game started again: the same players, opening, seed and time
/// control.
fn same_start(a: &GameRecord, b: &GameRecord) -> bool {
    (
        &a.first, &a.second, &a.opening, &a.setup, a.seed, &a.variant,
    ) == (
        &b.first, &b.second, &b.opening, &b.setup, b.seed, &b.variant,
    )
}

/// Merges the games of the results folders `sources` (shards of one tournament, or copies from other
/// machines) into the folder `into`, with the games `into` already holds: one `games.csv` sorted by game
/// id, each game once. `into/config.toml` is copied from the first source that has one if missing.
/// Returns every merged game. The sources are only read (a last line cut short is dropped from them first,
/// as a resume would).
///
/// # Errors
/// A folder without `games.csv`, an unreadable row, games of different games or variants, one game id
/// recorded with different moves, results or players in two places (two different tournaments; the
/// same play recorded twice, with other dates or move times, is merged once), folders whose fingerprints differ
/// (played under different configs); `into` in use by a run; nothing is written then.
pub fn merge(sources: &[PathBuf], into: &Path) -> Result<Vec<GameRecord>> {
    let target = ResultsDir {
        path: into.to_owned(),
    };
    // No run may append to the folder while it is read and rewritten; a new folder is made (and
    // locked) only once the sources have passed.
    let existing_lock = if into.exists() {
        Some(target.lock()?)
    } else {
        None
    };
    let mut merged: Vec<(GameRecord, PathBuf)> = target
        .read_games()?
        .into_iter()
        .map(|r| (r, into.to_owned()))
        .collect();
    // Game id → its place in `merged`.
    let mut index: std::collections::HashMap<String, usize> = merged
        .iter()
        .enumerate()
        .map(|(k, (r, _))| (r.id.clone(), k))
        .collect();
    // One fingerprint for all: shards of one tournament were played under one config (checked first,
    // so that folders of two configs are told apart by what changed, not by their first differing game).
    let mut fingerprint: Option<(fingerprint::Fingerprint, PathBuf)> =
        fingerprint::Fingerprint::load(into)?.map(|f| (f, into.to_owned()));
    for source in sources {
        let Some(f) = fingerprint::Fingerprint::load(source)? else {
            continue;
        };
        match &fingerprint {
            Some((seen, at)) => {
                let changes = f.changes_from(seen);
                if !changes.is_empty() {
                    bail!(
                        "{} was played under another config than {}:\n  {}",
                        source.display(),
                        at.display(),
                        changes.join("\n  ")
                    );
                }
            }
            None => fingerprint = Some((f, source.clone())),
        }
    }
    for source in sources {
        // The modules the games were played with go along (a module game's folders).
        crate::modules::copy_kept(source, into)?;
    }
    for source in sources {
        let dir = ResultsDir {
            path: source.clone(),
        };
        if !dir.games_csv().exists() {
            bail!("{} has no games.csv", source.display());
        }
        for r in dir.read_games()? {
            if let Some((first, _)) = merged.first() {
                if (&first.game, &first.variant) != (&r.game, &r.variant) {
                    bail!(
                        "{}: game {} is {} {}, other games are {} {}: not one tournament",
                        source.display(),
                        r.id,
                        r.game,
                        r.variant,
                        first.game,
                        first.variant
                    );
                }
            }
            match index.get(&r.id) {
                // The same game played again (a shard run twice, a copy of a re-run): the record
                // already merged is kept.
                Some(&k) if same_play(&merged[k].0, &r) => {}
                Some(&k) if same_start(&merged[k].0, &r) => bail!(
                    "game {} was played twice, in {} and in {}: same players, opening and seed, other \
                     moves or result (a shard run twice with bots whose play depends on the clock or \
                     their own randomness); merge one run of each shard",
                    r.id,
                    merged[k].1.display(),
                    source.display()
                ),
                Some(&k) => bail!(
                    "game {} differs between {} and {}: not one tournament",
                    r.id,
                    merged[k].1.display(),
                    source.display()
                ),
                None => {
                    index.insert(r.id.clone(), merged.len());
                    merged.push((r, source.clone()));
                }
            }
        }
    }
    let mut games: Vec<GameRecord> = merged.into_iter().map(|(r, _)| r).collect();
    games.sort_by(|a, b| a.id.cmp(&b.id));
    let _lock = match existing_lock {
        Some(lock) => lock,
        None => target.lock()?,
    };

    fs::create_dir_all(target.logs())
        .with_context(|| format!("creating {}", target.logs().display()))?;
    // Written aside, then renamed: a merge cut short leaves the old games.csv whole.
    write_games_csv(&target.games_csv(), &games)?;
    if let Some((f, _)) = &fingerprint {
        f.save(into)?;
    }
    let config = into.join(recorded::CONFIG);
    if !config.exists() {
        if let Some(found) = sources
            .iter()
            .map(|s| s.join(recorded::CONFIG))
            .find(|c| c.exists())
        {
            fs::copy(&found, &config).with_context(|| format!("copying {}", found.display()))?;
        }
    }
    Ok(games)
}

/// A scheduled game as a recorded one must match it to be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The stable id (`g0001`).
    pub id: String,
    /// The first player's name.
    pub first: String,
    /// The second player's name.
    pub second: String,
    /// The opening's moves.
    pub opening: Vec<String>,
    /// The opening's setup dots (Dots).
    pub setup: games::Setup,
    /// The game's seed (sent to bots that declare a `seed` option).
    pub seed: u64,
}

impl Expected {
    /// What the recorded game of `game`, scheduled in `plan`, must match.
    pub fn of(plan: &crate::plan::Plan, game: &crate::plan::schedule::ScheduledGame) -> Expected {
        Expected {
            id: game.id.clone(),
            first: plan.bots[game.first].name.clone(),
            second: plan.bots[game.second].name.clone(),
            opening: game.opening.clone(),
            setup: game.setup.clone(),
            seed: game.seed,
        }
    }
}

/// Checks that games already recorded belong to this schedule (same id, players, opening and seed), so a
/// resumed run never mixes two different tournaments.
///
/// # Errors
/// The first game that differs, and how.
pub fn check_resumable(
    recorded: &[GameRecord],
    scheduled: &[Expected],
    spec: &str,
    dir: &Path,
) -> Result<()> {
    let by_id: std::collections::HashMap<&str, &Expected> =
        scheduled.iter().map(|g| (g.id.as_str(), g)).collect();
    let fresh = "run with --fresh to start afresh (the old folder is kept)";
    for r in recorded {
        let Some(e) = by_id.get(r.id.as_str()).copied() else {
            bail!(
                "{}: game {} is not in this config's schedule; {fresh}",
                dir.display(),
                r.id
            );
        };
        let recorded_spec = format!("{} {}", r.game, r.variant);
        if recorded_spec != spec
            || r.first != e.first
            || r.second != e.second
            || r.opening != e.opening
            || r.setup != e.setup
        {
            bail!(
                "{}: game {} was {} vs {} ({recorded_spec}), the config now schedules {} vs {} ({spec}); {fresh}",
                dir.display(),
                r.id,
                r.first,
                r.second,
                e.first,
                e.second
            );
        }
        if r.seed != e.seed {
            bail!(
                "{}: game {} was played with seed {}, the config now gives it seed {} (its `seed` \
                 changed?); {fresh}",
                dir.display(),
                r.id,
                r.seed,
                e.seed
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;

    fn game(id: &str) -> GameRecord {
        let mut g = GameRecord::example("a", "b", GameResult::FirstWins);
        g.id = id.into();
        g
    }

    /// The kept standings' reads: only the appended lines are read (and re-refereed), with the file's
    /// line numbers in errors; a file that no longer starts with what was read is read whole.
    #[test]
    fn more_games_are_read_from_where_the_last_read_ended() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("games.csv");
        assert_eq!(read_games_more(&path, None).unwrap().games.len(), 0);
        write_games_csv(&path, &[game("g0001"), game("g0002")]).unwrap();
        let first = read_games_more(&path, None).unwrap();
        assert_eq!(first.games.len(), 2);
        write_games_csv(&path, &[game("g0001"), game("g0002"), game("g0003")]).unwrap();
        // A line being written: not read yet.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        std::io::Write::write_all(&mut f, b"g0004,7,").unwrap();
        let more = read_games_more(&path, Some(&first)).unwrap();
        let ids: Vec<&str> = more.games.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, ["g0001", "g0002", "g0003"]);
        assert_eq!(more.games, read_games_live(&path).unwrap());
        // Nothing new (the partial line gone): the same games.
        let text = std::fs::read_to_string(&path).unwrap();
        let cut = text.rfind('\n').unwrap() + 1;
        std::fs::write(&path, &text[..cut]).unwrap();
        let same = read_games_more(&path, Some(&more)).unwrap();
        assert_eq!(same.games, more.games);
        // An appended row that does not follow from its moves is refused, at its own line.
        let mut bad = game("g0004");
        bad.result = GameResult::SecondWins;
        let three = [game("g0001"), game("g0002"), game("g0003")];
        write_games_csv(&path, &[three.to_vec(), vec![bad]].concat()).unwrap();
        let e = format!("{:#}", read_games_more(&path, Some(&same)).unwrap_err());
        assert!(e.contains("line 5, game g0004"), "{e}");
        // As is a game recorded twice.
        write_games_csv(&path, &[three.to_vec(), vec![game("g0002")]].concat()).unwrap();
        let e = format!("{:#}", read_games_more(&path, Some(&same)).unwrap_err());
        assert!(
            e.contains("game g0002 is recorded twice (again at line 5)"),
            "{e}"
        );
        // A file rewritten shorter is read whole.
        write_games_csv(&path, &[game("g0009")]).unwrap();
        let whole = read_games_more(&path, Some(&same)).unwrap();
        assert_eq!(whole.games.len(), 1);
        assert_eq!(whole.games[0].id, "g0009");
    }
}
