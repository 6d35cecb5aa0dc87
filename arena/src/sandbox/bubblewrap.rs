//! The bubblewrap sandbox, on by default for every bot given as an executable (`sandbox = "bubblewrap"`,
//! see [`crate::config::SandboxKind`]): the bot runs under Debian's `bwrap` in new namespaces (no
//! network, so no abstract Unix sockets either; its own process ids, IPC, host name and cgroup view), and
//! sees only:
//!
//! - the system folders, read-only ([`SYSTEM`]: `/usr`, `/etc` and the `/bin`, `/lib*` links or folders),
//!   with every file or folder under them that not everyone may read covered ([`private_entries`]:
//!   `/etc/shadow`, `/etc/ssl/private`, …);
//! - its own folders, read-only: its command's folder, its `dir`, and every file or folder its `args`
//!   name;
//! - a writable folder of its own at a path under the run's folder: its `HOME`, and its working
//!   directory unless the config gives it a `dir` (then that, read-only); a tmpfs of `[limits] disk_mb`
//!   (nothing it writes reaches the host's disk; gone with the game);
//! - a private `/tmp` and `/dev/shm` (tmpfs, each no larger than `disk_mb` nor the bot's memory limit;
//!   the memory cgroup counts their pages; gone with the bot's namespace), a minimal `/dev` and its
//!   own `/proc`.
//!
//! Nothing else of the host exists inside: no `/run`, `/var`, `/home`, `/root`, `/sys`, no other bot's
//! folder, no results folder, so no Unix socket of the host can be reached but one inside the bot's own
//! folders. A folder too broad to show (`/`, a top-level folder such as `/home` or `/tmp`, the user's home)
//! is never shown whole: a program directly in one is shown as its file alone ([`visible`]). Every
//! capability is dropped (bwrap run by root would keep them), and the bot runs in a session of its own
//! (no controlling terminal to push keystrokes into). bwrap itself is started with
//! an empty environment (it is process 1 of the bot's pid namespace, whose `/proc/1/environ` the bot can
//! read), and the bot gets a clean one: `PATH`, `HOME`, `TMPDIR=/tmp`, `LANG=C.UTF-8`. Options follow
//! bubblewrap's manual, bwrap(1); `--size` needs bubblewrap 0.8 (Debian 12).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::config::SandboxKind;

/// The system folders shown read-only inside the sandbox; `/bin`, `/sbin` and `/lib*` are symbolic links
/// into `/usr` on a merged-`/usr` system (Debian 12), and are recreated as such.
pub const SYSTEM: [&str; 8] = [
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The files and folders under the real (not linked) [`SYSTEM`] folders that not everyone may read
/// (`/etc/shadow`, `/etc/ssl/private`, a database's `pg_hba.conf`): a bot run by root keeps uid 0 (without
/// capabilities), which still reads what root owns, so each is covered, a file by an empty one, a folder
/// by an empty folder. Found once per run, when its first sandboxed bot starts
/// ([`super::Containment`] keeps them); a covered folder is not looked into. About 130,000 entries on a
/// Debian machine, a few tenths of a second.
pub fn private_entries() -> Vec<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let Ok(meta) = e.path().symlink_metadata() else {
                continue;
            };
            if meta.file_type().is_symlink() {
                continue;
            }
            let readable = meta.permissions().mode() & 0o004 != 0;
            if !readable && (meta.is_file() || meta.is_dir()) {
                out.push(e.path());
            } else if meta.is_dir() && depth < 8 {
                walk(&e.path(), out, depth + 1);
            }
        }
    }
    let mut out = Vec::new();
    for dir in SYSTEM {
        let path = Path::new(dir);
        if path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
            walk(path, &mut out, 0);
        }
    }
    out
}

/// Whether `path` is too broad to show a bot whole: `/`, a top-level folder (`/home`, `/tmp`, `/run`, …)
/// or the arena user's home folder.
pub fn too_broad(path: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    path.parent().is_none_or(|p| p.parent().is_none()) || home.is_some_and(|h| path == h)
}

/// The `bwrap` executable, if one is on `PATH`.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
}

/// Whether `bwrap` can start a sandbox here (it needs user namespaces, or root) with the options the
/// bots get (`sizes`: with `--size`, [`sizes`]): runs `true` in one.
///
/// # Errors
/// What bwrap said, in one line.
pub fn works(bwrap: &Path, sizes: bool) -> Result<(), String> {
    let probe = std::env::temp_dir();
    let args = command_line(
        Path::new("/bin/true"),
        &[],
        &Folders {
            work: &probe,
            cwd: None,
            hide: None,
            visible: &[],
            tmpfs_bytes: sizes.then_some(1 << 20),
            work_bytes: sizes.then_some(1 << 20),
            private: &[],
        },
    );
    let out = std::process::Command::new(bwrap)
        .args(&args)
        .env_clear()
        .output()
        .map_err(|e| format!("{}: {e}", bwrap.display()))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "{} cannot start a sandbox here: {}",
            bwrap.display(),
            err.lines().next().unwrap_or("no reason given").trim()
        ))
    }
}

/// Whether this `bwrap` takes `--size` (bubblewrap 0.8 and later; Ubuntu 22.04 has 0.6).
pub fn sizes(bwrap: &Path) -> bool {
    std::process::Command::new(bwrap)
        .arg("--help")
        .env_clear()
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("--size"))
}

/// The folders of one sandboxed bot process.
#[derive(Clone, Copy, Debug)]
pub struct Folders<'a> {
    /// Its writable folder (it must exist): its `HOME`, and its working directory unless `cwd` is given.
    pub work: &'a Path,
    /// Its working directory when the config gives one (`dir`, shown read-only among `visible`).
    pub cwd: Option<&'a Path>,
    /// The results folder, covered if a visible folder holds it.
    pub hide: Option<&'a Path>,
    /// Its own folders and files, shown read-only at their paths.
    pub visible: &'a [PathBuf],
    /// The size of its `/tmp` and of its `/dev/shm`, bytes each (`None`: tmpfs's default, half the RAM;
    /// also when this bwrap has no `--size`, which came with bubblewrap 0.8: the memory cgroup still
    /// counts their pages).
    pub tmpfs_bytes: Option<u64>,
    /// The size of its writable folder, bytes: `work` is then a tmpfs of this size instead of the host
    /// folder bound (`None`: the host folder, where what it writes reaches the disk).
    pub work_bytes: Option<u64>,
    /// What to cover under the system folders ([`private_entries`]).
    pub private: &'a [PathBuf],
}

/// The folders and files a bot's launch needs to see, read-only, each by its real path (links and `..`
/// resolved): the program's folder (unless a system folder shows it already) and, for a symbolic link,
/// its target's; its `dir`; and every argument that names an existing file or folder (taken relative to
/// `dir`, else to the arena's working directory, as [`absolute_args`] passes it). A folder that is
/// [`too_broad`] is never shown: a program in one is shown as its file alone, an argument naming one is
/// not shown.
pub fn visible(program: &Path, args: &[String], dir: Option<&Path>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut show = |p: PathBuf| {
        let Ok(p) = std::fs::canonicalize(&p) else {
            return;
        };
        let shown = SYSTEM.iter().any(|s| p.starts_with(s)) || out.iter().any(|o| p.starts_with(o));
        if !shown && !too_broad(&p) {
            out.push(p);
        }
    };
    if let Some(dir) = dir {
        show(dir.to_path_buf());
    }
    for program in [
        Some(program.to_path_buf()),
        std::fs::canonicalize(program).ok(),
    ]
    .into_iter()
    .flatten()
    {
        match program.parent() {
            Some(parent) if !std::fs::canonicalize(parent).is_ok_and(|p| too_broad(&p)) => {
                show(parent.to_path_buf())
            }
            _ => show(program),
        }
    }
    for a in args {
        let p = match dir {
            Some(d) => d.join(a),
            None => PathBuf::from(a),
        };
        if p.exists() {
            show(p);
        }
    }
    out
}

/// `args` as a sandboxed bot gets them: an argument that names an existing file or folder is passed by
/// its real path (links and `..` resolved), as [`visible`] shows it; without a `dir` the bot starts in its
/// own work folder, so a relative one is taken from the arena's working directory
/// (`bots/examples/bot.py` → `/home/me/arena/bots/examples/bot.py`). With a `dir`, a relative argument is
/// left as written: the bot starts there.
pub fn absolute_args(args: &[String], dir: Option<&Path>) -> Vec<String> {
    args.iter()
        .map(|a| {
            let p = Path::new(a);
            if dir.is_some() && p.is_relative() {
                return a.clone();
            }
            std::fs::canonicalize(p).map_or_else(|_| a.clone(), |real| real.display().to_string())
        })
        .collect()
}

/// The command line that runs `program args` inside the sandbox: `bwrap <options> -- program args`.
/// Mounts apply in order: the system, the bot's own folders, the cover over the results folder, then the
/// working folder (which may lie under the covered folder).
pub fn command_line(program: &Path, args: &[String], f: &Folders<'_>) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&OsStr]| a.extend(items.iter().map(|s| s.to_os_string()));
    push(&[
        "--unshare-all".as_ref(),
        "--die-with-parent".as_ref(),
        "--cap-drop".as_ref(),
        "ALL".as_ref(),
    ]);
    for dir in SYSTEM {
        let path = Path::new(dir);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    push(&["--symlink".as_ref(), target.as_os_str(), path.as_os_str()]);
                }
            }
            Ok(m) if m.is_dir() => {
                push(&["--ro-bind".as_ref(), path.as_os_str(), path.as_os_str()])
            }
            _ => {}
        }
    }
    let cover_size = f.tmpfs_bytes.map(|_| OsString::from("65536"));
    for secret in f.private {
        if secret.is_dir() {
            if let Some(size) = &cover_size {
                push(&["--size".as_ref(), size.as_os_str()]);
            }
            push(&["--tmpfs".as_ref(), secret.as_os_str()]);
        } else {
            push(&[
                "--ro-bind".as_ref(),
                "/dev/null".as_ref(),
                secret.as_os_str(),
            ]);
        }
    }
    push(&[
        "--dev".as_ref(),
        "/dev".as_ref(),
        "--proc".as_ref(),
        "/proc".as_ref(),
    ]);
    let size = f.tmpfs_bytes.map(|b| OsString::from(b.to_string()));
    for tmp in ["/tmp", "/dev/shm"] {
        if let Some(size) = &size {
            push(&["--size".as_ref(), size.as_os_str()]);
        }
        push(&["--tmpfs".as_ref(), tmp.as_ref()]);
    }
    for v in f.visible {
        push(&["--ro-bind".as_ref(), v.as_os_str(), v.as_os_str()]);
    }
    if let Some(h) = f
        .hide
        .filter(|h| f.visible.iter().any(|v| h.starts_with(v)))
    {
        // A small cover: it only holds the mount points of the work folder below it.
        if let Some(size) = &cover_size {
            push(&["--size".as_ref(), size.as_os_str()]);
        }
        push(&["--tmpfs".as_ref(), h.as_os_str()]);
    }
    match f.work_bytes.map(|b| OsString::from(b.to_string())) {
        // Its writable folder in memory, of a capped size: nothing it writes reaches the host's disk.
        Some(size) => push(&[
            "--size".as_ref(),
            size.as_os_str(),
            "--tmpfs".as_ref(),
            f.work.as_os_str(),
        ]),
        None => push(&["--bind".as_ref(), f.work.as_os_str(), f.work.as_os_str()]),
    }
    push(&["--chdir".as_ref(), f.cwd.unwrap_or(f.work).as_os_str()]);
    push(&["--clearenv".as_ref()]);
    push(&[
        "--setenv".as_ref(),
        "PATH".as_ref(),
        SandboxKind::PATH.as_ref(),
    ]);
    push(&["--setenv".as_ref(), "HOME".as_ref(), f.work.as_os_str()]);
    push(&["--setenv".as_ref(), "TMPDIR".as_ref(), "/tmp".as_ref()]);
    push(&["--setenv".as_ref(), "LANG".as_ref(), "C.UTF-8".as_ref()]);
    push(&["--".as_ref(), program.as_os_str()]);
    a.extend(args.iter().map(OsString::from));
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &[OsString]) -> Vec<String> {
        line.iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn the_command_runs_the_bot_last_with_its_folders_shown_after_the_covers() {
        // A bot whose folder holds the results folder (`dir` the checkout, results under it).
        let visible = [PathBuf::from("/r")];
        let line = command_line(
            Path::new("/r/bots/run"),
            &["--level".into(), "3".into()],
            &Folders {
                work: Path::new("/r/t/sandbox/g1"),
                cwd: None,
                hide: Some(Path::new("/r/t")),
                visible: &visible,
                tmpfs_bytes: Some(1 << 30),
                work_bytes: None,
                private: &[PathBuf::from("/etc/ssl/private")],
            },
        );
        let words = words(&line);
        let at = |w: &str| words.iter().position(|x| x == w).unwrap();
        assert_eq!(
            &words[words.len() - 4..],
            ["--", "/r/bots/run", "--level", "3"]
        );
        // The bot's folder is shown, then the results folder in it covered, then the work folder
        // bound.
        let cover = words
            .windows(2)
            .position(|w| w[0] == "--tmpfs" && w[1] == "/r/t")
            .expect("the results folder is covered");
        assert!(at("/r") < cover);
        assert!(cover < at("/r/t/sandbox/g1"));
        assert!(words.contains(&"--unshare-all".to_string()));
        assert!(words.contains(&"--clearenv".to_string()));
        // Never the whole host: no bind of `/`, none of /run, /var, /home or /tmp.
        for (i, w) in words.iter().enumerate() {
            if w == "--ro-bind" || w == "--bind" {
                let src = &words[i + 1];
                assert!(
                    !["/", "/run", "/var", "/home", "/root", "/tmp"].contains(&src.as_str()),
                    "{src} is shown"
                );
            }
        }
        // /tmp and /dev/shm are private and sized by the memory limit; the covers (a root-only folder,
        // the results folder) are small.
        let sized: Vec<(&str, &str)> = words
            .windows(4)
            .filter(|w| w[0] == "--size" && w[2] == "--tmpfs")
            .map(|w| (w[3].as_str(), w[1].as_str()))
            .collect();
        assert_eq!(
            sized,
            [
                ("/etc/ssl/private", "65536"),
                ("/tmp", "1073741824"),
                ("/dev/shm", "1073741824"),
                ("/r/t", "65536")
            ]
        );
        assert!(words
            .windows(2)
            .any(|w| w[0] == "--cap-drop" && w[1] == "ALL"));
    }

    #[test]
    fn the_results_folder_is_covered_only_when_a_shown_folder_holds_it() {
        let line = command_line(
            Path::new("/opt/bot/run"),
            &[],
            &Folders {
                work: Path::new("/r/t/sandbox/g1"),
                cwd: None,
                hide: Some(Path::new("/r")),
                visible: &[PathBuf::from("/opt/bot")],
                tmpfs_bytes: None,
                work_bytes: None,
                private: &[],
            },
        );
        let words = words(&line);
        assert!(!words.windows(2).any(|w| w[0] == "--tmpfs" && w[1] == "/r"));
        assert!(!words.contains(&"--size".to_string()));
    }

    #[test]
    fn a_bot_sees_its_command_folder_its_dir_and_the_files_its_args_name() {
        let tmp = std::env::temp_dir().join(format!("arena-visible-{}", std::process::id()));
        std::fs::create_dir_all(tmp.join("bot")).unwrap();
        std::fs::write(tmp.join("bot/net.bin"), b"").unwrap();
        let script = tmp.join("script.py");
        std::fs::write(&script, b"").unwrap();
        let seen = visible(
            Path::new("/usr/bin/python3"),
            &[
                script.display().to_string(),
                "--depth".into(),
                "3".into(),
                "net.bin".into(),
            ],
            Some(&tmp.join("bot")),
        );
        // python3 lies in a system folder; the script by its absolute path; net.bin inside dir is
        // already shown with it.
        assert_eq!(seen, vec![tmp.join("bot"), script]);
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
