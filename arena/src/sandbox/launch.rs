//! How to start a process (a bot's, a referee program's): the executable and its arguments as a config
//! gives them, resolved as a shell would against the config file's folder, for the sandbox to wrap
//! ([`super::Jail::exec`]).

use std::path::{Path, PathBuf};

/// How to start a bot's process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The executable, resolved: an absolute path that exists (a `command` with a `/` taken relative to
    /// the config file's folder, any other name found on `PATH`).
    pub program: PathBuf,
    /// Its arguments; without a `dir`, one that names a file or folder relative to the config file's
    /// folder is that path, made absolute (see `resolve_args`).
    pub args: Vec<String>,
    /// Working directory, absolute (the config's `dir`, relative to the config file's folder); `None` for
    /// the arena's own.
    pub dir: Option<PathBuf>,
}

/// `path` made absolute against the arena's working directory (without resolving symbolic links, so
/// error messages show the path the user gave).
pub fn absolute(path: &Path) -> Result<PathBuf, String> {
    std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `path` (which exists) made absolute with its folder's real path: no `.` or `..` and no symbolic
/// link above it, the last name kept as written (a link stays a link, as the bot's `argv[0]`). A path
/// through `..` would not open inside the sandbox, which mounts only the folders a bot needs, not
/// those the `..` climbs out of.
pub fn real(path: &Path) -> Result<PathBuf, String> {
    let abs = absolute(path)?;
    match (abs.parent(), abs.file_name()) {
        (Some(folder), Some(name)) => std::fs::canonicalize(folder)
            .map(|f| f.join(name))
            .map_err(|e| format!("{}: {e}", folder.display())),
        _ => Ok(abs),
    }
}

/// A bot's `args` as its process gets them. Without a `dir`, an argument that names an existing file or
/// folder relative to `base` (the config file's folder) is passed as that path, made absolute, as a
/// `command` is resolved (`python3 ../bots/bot.py` from a config in `configs/` runs the bot beside
/// `configs/`, whatever folder the arena starts in); any other argument is passed as written. With a
/// `dir` the bot starts there, and its arguments are passed as written, relative to it.
pub fn resolve_args(args: &[String], base: &Path, has_dir: bool) -> Result<Vec<String>, String> {
    args.iter()
        .map(|a| {
            let path = base.join(a);
            if has_dir || Path::new(a).is_absolute() || a.is_empty() || !path.exists() {
                Ok(a.clone())
            } else {
                real(&path).map(|p| p.display().to_string())
            }
        })
        .collect()
}

/// Finds an executable as a shell would: a name with a `/` is a path (relative to `base`, the config
/// file's folder, unless absolute), any other name is looked up on `PATH`; for a `sandboxed` bot first on
/// the sandbox's own `PATH` ([`crate::config::SandboxKind::PATH`]), whose programs it can see (`python3`
/// is then `/usr/bin/python3`, not a shim under a home folder). Returns an absolute path, its folder's
/// real path for a path given ([`real`]).
pub fn resolve_command(command: &str, base: &Path, sandboxed: bool) -> Result<PathBuf, String> {
    let is_executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.is_file()
            && p.metadata()
                .map(|m| m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
    };
    if command.contains('/') {
        let path = base.join(command);
        return if is_executable(&path) {
            real(&path)
        } else if path.exists() {
            Err(format!(
                "command {command} is not an executable file ({})",
                path.display()
            ))
        } else {
            Err(format!(
                "command {command} does not exist ({}: a path in a config is relative to the config \
                 file's folder)",
                path.display()
            ))
        };
    }
    let mut path_var = std::env::var_os("PATH").unwrap_or_default();
    if sandboxed {
        let mut first = std::ffi::OsString::from(crate::config::SandboxKind::PATH);
        first.push(":");
        first.push(&path_var);
        path_var = first;
    }
    let found = std::env::split_paths(&path_var)
        .map(|d| d.join(command))
        .find(|p| is_executable(p))
        .ok_or_else(|| format!("command {command:?} was not found on PATH"))?;
    absolute(&found)
}
