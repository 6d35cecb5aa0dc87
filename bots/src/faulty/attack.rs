//! Attacks of a hostile bot on its opponent, the arena and the results, for the arena's tests of its
//! isolation (`docs/reliability.md`). Each runs once, on the bot's first `go`, reports what it achieved
//! on stderr as `faulty: attack NAME: OUTCOME`, and the bot then plays on as a random player. Under the
//! arena's default sandbox every one of them must find nothing to act on.
//!
//! They look for their targets through `/proc`, as a real attacker would: the other processes running
//! the same executable as the bot (`arena bot …`, its opponent; `arena run …`, the arena), never the
//! bot's own ancestors, so that an unsandboxed run in a test harms nothing outside the arena that
//! started it. They are Linux-only.

use std::io::Write;
use std::path::{Path, PathBuf};

/// What a hostile bot attacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attack {
    /// SIGKILL every other bot process it can see (`arena bot …`, the same executable as its own).
    KillOpponent,
    /// SIGSTOP every other bot process it can see.
    StopOpponent,
    /// SIGSTOP every arena process it can see (`arena run …`), its own ancestors included.
    StopArena,
    /// Rewrite every `games.csv` it can find from its working directory upwards (and the arena's, through
    /// `/proc/<pid>/cwd`): turn the latest decisive game's result around.
    ForgeResults,
    /// Read every `/proc/<pid>/environ` it can, looking for this text.
    ReadEnviron(String),
    /// Connect to the Unix socket at this path and send a line.
    ConnectSocket(PathBuf),
    /// Fill `/dev/shm` with files of 8 MiB, this many MiB in all.
    ShmFlood(u32),
}

impl std::str::FromStr for Attack {
    type Err = String;

    /// `kill-opponent`, `stop-opponent`, `stop-arena`, `forge-results`, `read-environ:TEXT`,
    /// `connect-socket:PATH`, `shm-flood:MB`.
    fn from_str(s: &str) -> Result<Attack, String> {
        let (name, arg) = s.split_once(':').unwrap_or((s, ""));
        Ok(match name {
            "kill-opponent" => Attack::KillOpponent,
            "stop-opponent" => Attack::StopOpponent,
            "stop-arena" => Attack::StopArena,
            "forge-results" => Attack::ForgeResults,
            "read-environ" if !arg.is_empty() => Attack::ReadEnviron(arg.into()),
            "connect-socket" if !arg.is_empty() => Attack::ConnectSocket(arg.into()),
            "shm-flood" => Attack::ShmFlood(
                arg.parse()
                    .map_err(|_| format!("shm-flood:MB, not {s:?}"))?,
            ),
            _ => {
                return Err(format!(
                    "unknown attack {s:?}; known: kill-opponent, stop-opponent, stop-arena, \
                     forge-results, read-environ:TEXT, connect-socket:PATH, shm-flood:MB"
                ))
            }
        })
    }
}

impl Attack {
    fn name(&self) -> &'static str {
        match self {
            Attack::KillOpponent => "kill-opponent",
            Attack::StopOpponent => "stop-opponent",
            Attack::StopArena => "stop-arena",
            Attack::ForgeResults => "forge-results",
            Attack::ReadEnviron(_) => "read-environ",
            Attack::ConnectSocket(_) => "connect-socket",
            Attack::ShmFlood(_) => "shm-flood",
        }
    }

    /// Carries the attack out and reports its outcome on stderr.
    pub fn run(&self) {
        let outcome = match self {
            Attack::KillOpponent => signal_all(is_bot, libc::SIGKILL),
            Attack::StopOpponent => signal_all(is_bot, libc::SIGSTOP),
            Attack::StopArena => signal_all(
                |argv| argv.get(1).is_some_and(|a| a == "run"),
                libc::SIGSTOP,
            ),
            Attack::ForgeResults => forge_results(),
            Attack::ReadEnviron(text) => read_environ(text),
            Attack::ConnectSocket(path) => connect_socket(path),
            Attack::ShmFlood(mb) => shm_flood(*mb),
        };
        eprintln!("faulty: attack {}: {outcome}", self.name());
    }
}

fn is_bot(argv: &[String]) -> bool {
    argv.get(1).is_some_and(|a| a == "bot")
}

/// Every process visible in `/proc`, by pid.
fn pids() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// This process and its ancestors.
fn ancestors() -> Vec<i32> {
    let mut out = vec![std::process::id() as i32];
    let mut pid = std::process::id() as i32;
    while let Some(parent) = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("PPid:"))
                .and_then(|p| p.trim().parse::<i32>().ok())
        })
        .filter(|&p| p > 0)
    {
        out.push(parent);
        pid = parent;
    }
    out
}

/// Sends `signal` to every visible process that runs this executable and whose arguments `pick` takes;
/// never to this process, and to its ancestors only for the arena (whose argv is `… run …`).
fn signal_all(pick: impl Fn(&[String]) -> bool, signal: i32) -> String {
    let own_exe = std::fs::read_link("/proc/self/exe").ok();
    let ancestors = ancestors();
    let me = std::process::id() as i32;
    let mut hit = Vec::new();
    for pid in pids() {
        if pid == me || std::fs::read_link(format!("/proc/{pid}/exe")).ok() != own_exe {
            continue;
        }
        let argv: Vec<String> = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| {
                b.split(|&c| c == 0)
                    .map(|w| String::from_utf8_lossy(w).into_owned())
                    .collect()
            })
            .unwrap_or_default();
        if !pick(&argv) || (is_bot(&argv) && ancestors.contains(&pid)) {
            continue;
        }
        // SAFETY: kill only sends a signal.
        if unsafe { libc::kill(pid, signal) } == 0 {
            hit.push(pid);
        }
    }
    if hit.is_empty() {
        "no target found".into()
    } else {
        format!("signalled {hit:?}")
    }
}

/// Turns the latest decisive result around in every `games.csv` it finds.
fn forge_results() -> String {
    let mut places: Vec<PathBuf> = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        places.extend(cwd.ancestors().map(Path::to_path_buf));
    }
    for pid in ancestors() {
        if let Ok(cwd) = std::fs::read_link(format!("/proc/{pid}/cwd")) {
            places.extend(cwd.ancestors().map(Path::to_path_buf));
        }
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let below = |dir: &Path| -> Vec<PathBuf> {
        if dir.starts_with("/proc") || dir.starts_with("/sys") {
            return Vec::new();
        }
        std::fs::read_dir(dir)
            .map(|d| {
                d.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_dir())
                    .collect()
            })
            .unwrap_or_default()
    };
    for dir in places {
        // The file itself, a tournament's folder below, or a results folder's tournament below that.
        let mut candidates = vec![dir.join("games.csv")];
        for sub in below(&dir) {
            candidates.push(sub.join("games.csv"));
            candidates.extend(below(&sub).into_iter().map(|s| s.join("games.csv")));
        }
        for f in candidates {
            if f.is_file() && !files.contains(&f) {
                files.push(f);
            }
        }
    }
    let mut forged = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // The latest decisive game turned around, in place: the same length, so the row stays
        // well-formed and the arena's appends land where they would have.
        let Some(row) = lines
            .iter_mut()
            .skip(1)
            .rev()
            .find(|r| r.contains(",1-0,") || r.contains(",0-1,"))
        else {
            continue;
        };
        *row = if row.contains(",1-0,") {
            row.replacen(",1-0,", ",0-1,", 1)
        } else {
            row.replacen(",0-1,", ",1-0,", 1)
        };
        let body = lines.join("\n") + "\n";
        if std::fs::write(f, body).is_ok() {
            forged.push(f.display().to_string());
        }
    }
    if forged.is_empty() {
        format!("no games.csv found or writable ({} seen)", files.len())
    } else {
        format!("forged {forged:?}")
    }
}

/// Looks for `text` in every readable `/proc/<pid>/environ`.
fn read_environ(text: &str) -> String {
    let mut found = Vec::new();
    let mut read = 0;
    for pid in pids() {
        if let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) {
            read += 1;
            if env.windows(text.len()).any(|w| w == text.as_bytes()) {
                found.push(pid);
            }
        }
    }
    if found.is_empty() {
        format!("not found ({read} environments read)")
    } else {
        format!("found in {found:?}")
    }
}

/// Connects to the Unix socket at `path` and sends a line.
fn connect_socket(path: &Path) -> String {
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(mut s) => match s.write_all(b"hello from faulty\n") {
            Ok(()) => "connected and sent".into(),
            Err(e) => format!("connected, send failed: {e}"),
        },
        Err(e) => format!("refused: {e}"),
    }
}

/// Writes `mb` MiB into `/dev/shm`, 8 MiB a file, and leaves the files there.
fn shm_flood(mb: u32) -> String {
    let chunk = vec![7u8; 8 << 20];
    let mut written = 0;
    for k in 0..mb.div_ceil(8) {
        let path = format!("/dev/shm/faulty-{}-{k}", std::process::id());
        if std::fs::write(&path, &chunk).is_err() {
            break;
        }
        written += 8;
    }
    format!("wrote {written} MiB")
}
