//! Control groups for bot processes: one cgroup per bot per game, so that the whole process tree ends
//! with the game (`cgroup.kill`, `setsid` or not), its memory and process count are capped, and it can be
//! frozen while its opponent thinks.
//!
//! Works on the unified hierarchy (cgroup v2) and on hybrid machines, where the unified hierarchy has
//! `cgroup.kill` and `cgroup.freeze` but the memory, pids and freezer controllers are mounted as v1
//! hierarchies: each resource is taken from the first hierarchy that has it (v2, then v1). That mix is
//! why this is a small module of its own rather than `cgroups-rs`, whose `hierarchies::auto()` picks one
//! hierarchy per machine. Files and semantics: the kernel's `Documentation/admin-guide/cgroup-v2.rst`
//! and `cgroup-v1/{memory,pids,freezer-subsystem}.rst`.
//!
//! Layout: `<parent>/arena-<pid>-<start>/` per arena process (no processes of its own, so controllers can be
//! enabled below it), `<parent>/arena-<pid>-<start>/<n>-<bot>/` per bot process, where `<parent>` is the arena's
//! own cgroup, or the hierarchy's root if only that one is writable (root on a systemd machine).
//! Folders of arenas that died without cleaning up (SIGKILL) are emptied and removed by the next arena.

use std::fs;
use std::io::Write as _;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A cgroup hierarchy version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// The unified hierarchy.
    V2,
    /// A legacy hierarchy of one controller.
    V1,
}

/// Where one resource is controlled: the hierarchy's version and the arena's run folder in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub version: Version,
    /// `…/arena-<pid>-<start>`: the folder under which each bot gets its own.
    pub run_dir: PathBuf,
}

/// The cgroups this arena can use, probed once ([`Cgroups::probe`]).
#[derive(Debug, Default)]
pub struct Cgroups {
    /// The unified hierarchy's run folder, if the arena may create cgroups there: `cgroup.kill` and
    /// `cgroup.freeze` come with every v2 cgroup.
    pub v2: Option<PathBuf>,
    /// Whether `cgroup.kill` exists (Linux 5.14 and later).
    pub v2_kill: bool,
    /// The memory controller (`memory.max` or `memory.limit_in_bytes`).
    pub memory: Option<Place>,
    /// The pids controller (`pids.max`).
    pub pids: Option<Place>,
    /// The freezer (`cgroup.freeze` or `freezer.state`).
    pub freezer: Option<Place>,
    /// Why a layer is missing, for `arena doctor`.
    pub notes: Vec<String>,
}

/// One line of `/proc/self/mountinfo` that mounts a cgroup hierarchy.
#[derive(Clone, Debug)]
struct Mount {
    point: PathBuf,
    version: Version,
    /// v1: its controllers (`memory`, `pids`, …); v2: empty.
    controllers: Vec<String>,
}

fn mounts() -> Vec<Mount> {
    let Ok(text) = fs::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in text.lines() {
        // `id parent major:minor root mountpoint options [optional…] - fstype source superoptions`
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let point = left.split(' ').nth(4).map(unescape);
        let mut r = right.split(' ');
        let (fstype, super_opts) = (r.next(), r.nth(1));
        let (Some(point), Some(fstype)) = (point, fstype) else {
            continue;
        };
        match fstype {
            "cgroup2" => out.push(Mount {
                point: point.into(),
                version: Version::V2,
                controllers: Vec::new(),
            }),
            "cgroup" => out.push(Mount {
                point: point.into(),
                version: Version::V1,
                controllers: super_opts
                    .unwrap_or("")
                    .split(',')
                    .map(str::to_string)
                    .collect(),
            }),
            _ => {}
        }
    }
    out
}

/// mountinfo escapes spaces and the like as `\040`.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 < b.len() && b[i + 1..i + 4].iter().all(u8::is_ascii_digit) {
            let n = (b[i + 1] - b'0') * 64 + (b[i + 2] - b'0') * 8 + (b[i + 3] - b'0');
            out.push(n);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The arena's own cgroup path in the hierarchy of `controller` (`""` for v2), from `/proc/self/cgroup`.
fn own_path(version: Version, controller: &str) -> Option<PathBuf> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (id, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = match version {
            Version::V2 => id == "0" && ctrls.is_empty(),
            Version::V1 => ctrls.split(',').any(|c| c == controller),
        };
        if hit {
            return Some(PathBuf::from(path.trim_start_matches('/')));
        }
    }
    None
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    let mut f = fs::OpenOptions::new().write(true).open(path)?;
    f.write_all(text.as_bytes())
}

/// The value of `key` in a flat-keyed file (`memory.events`, `pids.events`, `memory.oom_control`).
fn keyed(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// The name of an arena's run folder: `arena-<pid>-<start>`, `<start>` the process's start time (clock
/// ticks after boot, field 22 of `/proc/<pid>/stat`), so that a dead arena's folder is not taken for a
/// live one when another process reuses its pid.
fn run_name(pid: u32) -> String {
    match start_time(pid) {
        Some(start) => format!("arena-{pid}-{start}"),
        None => format!("arena-{pid}"),
    }
}

/// The start time of process `pid`, clock ticks after boot; `None` if it is gone.
fn start_time(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count from the last `)`.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .parse()
        .ok()
}

/// Whether the arena that made run folder `name` (`arena-<pid>[-<start>]`) still runs: its pid is live
/// and, where the name records it, with the same start time. `None` for a folder that is not a run's.
fn run_is_live(name: &str) -> Option<bool> {
    let rest = name.strip_prefix("arena-")?;
    let (pid, start) = match rest.split_once('-') {
        Some((p, s)) => (p.parse::<u32>().ok()?, Some(s.parse::<u64>().ok()?)),
        None => (rest.parse::<u32>().ok()?, None),
    };
    Some(match start {
        Some(start) => start_time(pid) == Some(start),
        None => Path::new(&format!("/proc/{pid}")).exists(),
    })
}

/// Empties and removes the run folders of arenas that are no longer running under `parent` (left by an
/// arena killed with SIGKILL, whose bots' processes may still run in them).
fn sweep_stale(parent: &Path, version: Version) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        if name.to_str().and_then(run_is_live) != Some(false) {
            continue;
        }
        let dir = e.path();
        if let Ok(bots) = fs::read_dir(&dir) {
            for b in bots.flatten().filter(|b| b.path().is_dir()) {
                kill_dir(&b.path(), version);
                remove_dir(&b.path());
            }
        }
        remove_dir(&dir);
    }
}

/// Creates this arena's run folder in a hierarchy: under its own cgroup, else under the hierarchy's root.
/// v2 only: `want` lists controllers to enable for the bots' folders; the parent that can give more of
/// them wins. Returns the run folder and the controllers available in it.
fn make_run_dir(
    mount: &Mount,
    own: &Path,
    want: &[&str],
    notes: &mut Vec<String>,
) -> Option<(PathBuf, Vec<String>)> {
    let name = run_name(std::process::id());
    let mut candidates = vec![mount.point.join(own)];
    if !own.as_os_str().is_empty() {
        candidates.push(mount.point.clone());
    }
    let mut best: Option<(PathBuf, Vec<String>)> = None;
    for parent in candidates {
        sweep_stale(&parent, mount.version);
        let dir = parent.join(&name);
        if let Err(e) = fs::create_dir(&dir) {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                notes.push(format!(
                    "cannot create a cgroup under {}: {e}",
                    parent.display()
                ));
                continue;
            }
        }
        let got = match mount.version {
            Version::V1 => mount.controllers.clone(),
            Version::V2 => {
                // Controllers the parent hands down; ask for the missing ones (fails if the parent holds
                // processes and is not the root: the "no internal processes" rule).
                let available = |d: &Path| -> Vec<String> {
                    fs::read_to_string(d.join("cgroup.controllers"))
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(str::to_string)
                        .collect()
                };
                let offered: Vec<String> = fs::read_to_string(parent.join("cgroup.controllers"))
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                let mut have = available(&dir);
                for c in want {
                    if offered.iter().any(|o| o == c) && !have.iter().any(|h| h == c) {
                        let _ = write(&parent.join("cgroup.subtree_control"), &format!("+{c}"));
                    }
                }
                have = available(&dir);
                // And hand them on to the bots' folders (the run folder holds no process).
                for c in want {
                    if have.iter().any(|h| h == c) {
                        let _ = write(&dir.join("cgroup.subtree_control"), &format!("+{c}"));
                    }
                }
                let handed: Vec<String> = fs::read_to_string(dir.join("cgroup.subtree_control"))
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                handed
            }
        };
        let score = want.iter().filter(|w| got.iter().any(|g| g == *w)).count();
        let better = best
            .as_ref()
            .is_none_or(|(_, b)| score > want.iter().filter(|w| b.iter().any(|g| g == *w)).count());
        if better {
            if let Some((old, _)) = best.take() {
                remove_dir(&old);
            }
            best = Some((dir, got));
        } else {
            remove_dir(&dir);
        }
    }
    best
}

impl Cgroups {
    /// Finds the hierarchies and creates this arena's run folders where it may. Never fails: a missing
    /// layer is `None`, with a note saying why. `ARENA_NO_CGROUPS=1` in the environment skips cgroups
    /// altogether (to use or test the fallbacks: rlimits, the subreaper and SIGSTOP).
    pub fn probe() -> Cgroups {
        let mut cg = Cgroups::default();
        if std::env::var_os("ARENA_NO_CGROUPS").is_some_and(|v| v != "0") {
            cg.notes
                .push("cgroups switched off by ARENA_NO_CGROUPS".into());
            return cg;
        }
        let mounts = mounts();
        if let Some(m) = mounts.iter().find(|m| m.version == Version::V2) {
            if let Some(own) = own_path(Version::V2, "") {
                if let Some((dir, ctrls)) =
                    make_run_dir(m, &own, &["memory", "pids"], &mut cg.notes)
                {
                    cg.v2_kill = dir.join("cgroup.kill").exists();
                    let place = || Place {
                        version: Version::V2,
                        run_dir: dir.clone(),
                    };
                    if ctrls.iter().any(|c| c == "memory") {
                        cg.memory = Some(place());
                    }
                    if ctrls.iter().any(|c| c == "pids") {
                        cg.pids = Some(place());
                    }
                    if dir.join("cgroup.freeze").exists() {
                        cg.freezer = Some(place());
                    }
                    cg.v2 = Some(dir);
                }
            }
        } else {
            cg.notes.push("no cgroup v2 hierarchy is mounted".into());
        }
        for (ctrl, slot) in [
            ("memory", &mut cg.memory),
            ("pids", &mut cg.pids),
            ("freezer", &mut cg.freezer),
        ] {
            if slot.is_some() {
                continue;
            }
            let Some(m) = mounts
                .iter()
                .find(|m| m.version == Version::V1 && m.controllers.iter().any(|c| c == ctrl))
            else {
                continue;
            };
            let Some(own) = own_path(Version::V1, ctrl) else {
                continue;
            };
            if let Some((dir, _)) = make_run_dir(m, &own, &[], &mut cg.notes) {
                *slot = Some(Place {
                    version: Version::V1,
                    run_dir: dir,
                });
            }
        }
        cg
    }

    /// Whether any cgroup is in use.
    pub fn any(&self) -> bool {
        self.v2.is_some() || self.memory.is_some() || self.pids.is_some() || self.freezer.is_some()
    }

    /// Creates the cgroups of one bot process, named `name` (unique in this arena), with its limits, and
    /// opens the files that move the child into them (written between fork and exec, see
    /// [`BotCgroup::enter_fds`]).
    ///
    /// # Errors
    /// A cgroup that cannot be created or limited, with the path (the bot then cannot be contained as
    /// the config asks, so the game is not played).
    pub fn bot(
        &self,
        name: &str,
        memory_bytes: Option<u64>,
        processes: Option<u64>,
    ) -> Result<BotCgroup, String> {
        let mut dirs: Vec<(PathBuf, Version)> = Vec::new();
        let mut add = |run_dir: &Path, version: Version| -> Result<PathBuf, String> {
            let dir = run_dir.join(name);
            if let Some(found) = dirs.iter().find(|(d, _)| *d == dir) {
                return Ok(found.0.clone());
            }
            fs::create_dir(&dir).or_else(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    Ok(())
                } else {
                    Err(format!("creating cgroup {}: {e}", dir.display()))
                }
            })?;
            dirs.push((dir.clone(), version));
            Ok(dir)
        };
        let v2 = match &self.v2 {
            Some(run) => Some(add(run, Version::V2)?),
            None => None,
        };
        let mut memory = None;
        if let (Some(place), Some(bytes)) = (&self.memory, memory_bytes) {
            let dir = add(&place.run_dir, place.version)?;
            let set = |file: &str, value: &str| {
                write(&dir.join(file), value)
                    .map_err(|e| format!("setting {}: {e}", dir.join(file).display()))
            };
            match place.version {
                Version::V2 => {
                    set("memory.max", &bytes.to_string())?;
                    // Swap would let the tree grow past the limit, slowly, instead of being stopped.
                    if dir.join("memory.swap.max").exists() {
                        set("memory.swap.max", "0")?;
                    }
                }
                Version::V1 => {
                    set("memory.limit_in_bytes", &bytes.to_string())?;
                    if dir.join("memory.memsw.limit_in_bytes").exists() {
                        set("memory.memsw.limit_in_bytes", &bytes.to_string())?;
                    }
                }
            }
            memory = Some((dir, place.version));
        }
        let mut pids = None;
        if let (Some(place), Some(n)) = (&self.pids, processes) {
            let dir = add(&place.run_dir, place.version)?;
            write(&dir.join("pids.max"), &n.to_string())
                .map_err(|e| format!("setting {}: {e}", dir.join("pids.max").display()))?;
            pids = Some(dir);
        }
        let freezer = match &self.freezer {
            Some(place) => Some((add(&place.run_dir, place.version)?, place.version)),
            None => None,
        };
        let mut enter = Vec::new();
        for (dir, _) in &dirs {
            let file = "cgroup.procs";
            let f = fs::OpenOptions::new()
                .write(true)
                .open(dir.join(file))
                .map_err(|e| format!("opening {}: {e}", dir.join(file).display()))?;
            enter.push(OwnedFd::from(f));
        }
        Ok(BotCgroup {
            dirs,
            v2,
            v2_kill: self.v2_kill,
            memory,
            pids,
            freezer,
            enter,
        })
    }

    /// Removes this arena's run folders (their bots' folders must be gone already).
    pub fn remove(&self) {
        let mut dirs: Vec<&PathBuf> = Vec::new();
        dirs.extend(self.v2.iter());
        for p in [&self.memory, &self.pids, &self.freezer]
            .into_iter()
            .flatten()
        {
            dirs.push(&p.run_dir);
        }
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            remove_dir(d);
        }
    }
}

/// Removes an empty cgroup folder, retrying briefly: a cgroup whose last process just died may still
/// count as populated for a moment.
fn remove_dir(dir: &Path) {
    let until = Instant::now() + Duration::from_millis(500);
    while fs::remove_dir(dir).is_err() && dir.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The processes in a cgroup folder.
fn procs(dir: &Path) -> Vec<i32> {
    fs::read_to_string(dir.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Kills every process in a cgroup folder: `cgroup.kill` where it exists, else SIGKILL to each listed
/// process until none is left (a v1 freezer is thawed after, since frozen tasks die only when thawed).
fn kill_dir(dir: &Path, version: Version) {
    if version == Version::V2 && dir.join("cgroup.kill").exists() {
        let _ = write(&dir.join("cgroup.kill"), "1");
    } else {
        // A forking tree may add processes while they are killed: loop until the folder is empty.
        for _ in 0..100 {
            let list = procs(dir);
            if list.is_empty() {
                break;
            }
            for pid in list {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    if version == Version::V1 && dir.join("freezer.state").exists() {
        let _ = write(&dir.join("freezer.state"), "THAWED");
    }
}

/// The cgroups of one bot process. Dropping it does not remove them: call [`BotCgroup::kill`] and
/// [`BotCgroup::remove`].
#[derive(Debug)]
pub struct BotCgroup {
    /// Every folder the bot is in, one per hierarchy.
    dirs: Vec<(PathBuf, Version)>,
    v2: Option<PathBuf>,
    v2_kill: bool,
    memory: Option<(PathBuf, Version)>,
    pids: Option<PathBuf>,
    freezer: Option<(PathBuf, Version)>,
    /// Open `cgroup.procs` files, one per folder.
    enter: Vec<OwnedFd>,
}

impl BotCgroup {
    /// The raw descriptors of the `cgroup.procs` files the child writes `0` to, between fork and exec,
    /// to enter its cgroups before it can run any code of its own.
    pub fn enter_fds(&self) -> Vec<i32> {
        self.enter.iter().map(AsRawFd::as_raw_fd).collect()
    }

    /// Closes the descriptors of [`BotCgroup::enter_fds`] (after the child has started).
    pub fn entered(&mut self) {
        self.enter.clear();
    }

    /// Whether the bot's processes can be frozen through a cgroup.
    pub fn can_freeze(&self) -> bool {
        self.freezer.is_some()
    }

    /// Freezes (`true`) or thaws every process of the bot. Returns whether the freezer took the request.
    pub fn freeze(&self, frozen: bool) -> bool {
        match &self.freezer {
            Some((dir, Version::V2)) => {
                write(&dir.join("cgroup.freeze"), if frozen { "1" } else { "0" }).is_ok()
            }
            Some((dir, Version::V1)) => write(
                &dir.join("freezer.state"),
                if frozen { "FROZEN" } else { "THAWED" },
            )
            .is_ok(),
            None => false,
        }
    }

    /// Kills every process of the bot, escaped descendants included, in every hierarchy it is in.
    pub fn kill(&self) {
        if let (Some(dir), true) = (&self.v2, self.v2_kill) {
            let _ = write(&dir.join("cgroup.kill"), "1");
        }
        for (dir, version) in &self.dirs {
            kill_dir(dir, *version);
        }
    }

    /// Whether any process is still in the bot's cgroups.
    pub fn populated(&self) -> bool {
        self.dirs.iter().any(|(d, _)| !procs(d).is_empty())
    }

    /// Whether the memory controller killed a process of the bot for going over its limit
    /// (`memory.events` `oom_kill`, or v1 `memory.oom_control` `oom_kill`).
    pub fn hit_memory_limit(&self) -> bool {
        match &self.memory {
            Some((dir, Version::V2)) => {
                keyed(&dir.join("memory.events"), "oom_kill").unwrap_or(0) > 0
            }
            Some((dir, Version::V1)) => {
                keyed(&dir.join("memory.oom_control"), "oom_kill").unwrap_or(0) > 0
            }
            None => false,
        }
    }

    /// Whether a fork or clone of the bot was refused for its process limit (`pids.events` `max`).
    pub fn hit_process_limit(&self) -> bool {
        self.pids
            .as_ref()
            .is_some_and(|d| keyed(&d.join("pids.events"), "max").unwrap_or(0) > 0)
    }

    /// Kills what is left and removes the bot's folders.
    pub fn remove(self) {
        self.kill();
        for (dir, _) in &self.dirs {
            remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_folder_is_live_only_while_its_arena_runs_with_the_same_start_time() {
        let me = std::process::id();
        let name = run_name(me);
        assert_eq!(run_is_live(&name), Some(true), "{name}");
        // The same pid with another start time: a reused pid, so the folder is stale.
        let start = start_time(me).unwrap();
        assert_eq!(
            run_is_live(&format!("arena-{me}-{}", start + 1)),
            Some(false)
        );
        // The old name without a start time still reads by the pid alone.
        assert_eq!(run_is_live(&format!("arena-{me}")), Some(true));
        assert_eq!(run_is_live("arena-4194304-1"), Some(false));
        assert_eq!(run_is_live("not-a-run"), None);
        assert_eq!(run_is_live("arena-x"), None);
    }

    #[test]
    fn mountinfo_escapes_are_undone() {
        assert_eq!(unescape("/sys/fs/cgroup"), "/sys/fs/cgroup");
        assert_eq!(unescape("/mnt/a\\040b"), "/mnt/a b");
    }

    #[test]
    fn keyed_files_give_their_counts() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("memory.events");
        fs::write(&f, "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n").unwrap();
        assert_eq!(keyed(&f, "oom_kill"), Some(1));
        assert_eq!(keyed(&f, "max"), Some(12));
        assert_eq!(keyed(&f, "nothing"), None);
    }
}
