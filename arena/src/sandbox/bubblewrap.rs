//! The optional sandbox, `sandbox = "bubblewrap"`: the bot runs under Debian's `bwrap` in new
//! namespaces (no network, its own process ids, IPC and host name), the whole system mounted read-only,
//! an empty `/tmp` and an empty results folder of its own, its working directory a writable folder of its
//! own under the run's folder (removed after the game), and a clean environment (`PATH`, `HOME` = that
//! folder, `TMPDIR=/tmp`, `LANG=C.UTF-8`). Its command's folder and its `dir` stay visible, read-only.
//! Options follow bubblewrap's manual, bwrap(1).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The `bwrap` executable, if one is on `PATH`.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
}

/// Whether `bwrap` can start a sandbox here (it needs user namespaces, or root): runs `true` in one.
///
/// # Errors
/// What bwrap said, in one line.
pub fn works(bwrap: &Path) -> Result<(), String> {
    let out = std::process::Command::new(bwrap)
        .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"])
        .args(["--dev", "/dev", "--proc", "/proc", "--", "true"])
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

/// The command line that runs `program args` inside the sandbox: `bwrap <options> -- program args`.
/// `work` is the bot's writable working directory (it must exist), `hide` the results folder to hide
/// (the other bots' logs and work folders), `visible` the read-only folders to show again after `/tmp`
/// and `hide` are covered (the command's folder, the bot's `dir`).
pub fn command_line(
    program: &Path,
    args: &[String],
    work: &Path,
    hide: Option<&Path>,
    visible: &[PathBuf],
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&std::ffi::OsStr]| a.extend(items.iter().map(|s| s.to_os_string()));
    push(&["--unshare-all".as_ref(), "--die-with-parent".as_ref()]);
    push(&["--ro-bind".as_ref(), "/".as_ref(), "/".as_ref()]);
    push(&[
        "--dev".as_ref(),
        "/dev".as_ref(),
        "--proc".as_ref(),
        "/proc".as_ref(),
    ]);
    push(&["--tmpfs".as_ref(), "/tmp".as_ref()]);
    if let Some(h) = hide {
        push(&["--tmpfs".as_ref(), h.as_os_str()]);
    }
    for v in visible {
        push(&["--ro-bind".as_ref(), v.as_os_str(), v.as_os_str()]);
    }
    push(&["--bind".as_ref(), work.as_os_str(), work.as_os_str()]);
    push(&["--chdir".as_ref(), work.as_os_str()]);
    push(&["--clearenv".as_ref()]);
    push(&[
        "--setenv".as_ref(),
        "PATH".as_ref(),
        "/usr/local/bin:/usr/bin:/bin".as_ref(),
    ]);
    push(&["--setenv".as_ref(), "HOME".as_ref(), work.as_os_str()]);
    push(&["--setenv".as_ref(), "TMPDIR".as_ref(), "/tmp".as_ref()]);
    push(&["--setenv".as_ref(), "LANG".as_ref(), "C.UTF-8".as_ref()]);
    push(&["--".as_ref(), program.as_os_str()]);
    a.extend(args.iter().map(OsString::from));
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_runs_the_bot_last_with_its_folders_shown_after_the_covers() {
        let line = command_line(
            Path::new("/opt/bot/run"),
            &["--level".into(), "3".into()],
            Path::new("/r/t/sandbox/g1"),
            Some(Path::new("/r")),
            &[PathBuf::from("/opt/bot")],
        );
        let words: Vec<String> = line
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        let at = |w: &str| words.iter().position(|x| x == w).unwrap();
        assert_eq!(
            &words[words.len() - 4..],
            ["--", "/opt/bot/run", "--level", "3"]
        );
        // Mounts apply in order: the covers first, then what is shown again.
        assert!(at("/tmp") < at("/opt/bot"));
        assert!(at("/r") < at("/r/t/sandbox/g1"));
        assert!(words.contains(&"--unshare-all".to_string()));
        assert!(words.contains(&"--clearenv".to_string()));
    }
}
