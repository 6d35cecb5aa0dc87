//! `arena-bot.toml`: how to start an uploaded bot, read from the root of its archive and checked
//! against the archive's entries.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;

use serde::{Deserialize, Serialize};

use super::tree::{Node, Tree, Unresolved};
use super::UploadError;
use crate::config::ProtocolKind;

/// The manifest's file name, at the root of an uploaded archive.
pub const MANIFEST: &str = "arena-bot.toml";

/// The largest manifest read, bytes.
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;

/// `arena-bot.toml`, at the root of an archive: how to start the bot, with the same keys and meanings
/// as a bot of a tournament config ([`crate::config::BotConfig`]). Unknown keys are refused.
///
/// ```toml
/// command = "./bin/mybot"   # or a program on PATH: "python3", with args = ["bot.py"]
/// args = ["--quiet"]
/// protocol = "ugi"          # or "codecup"
/// options = { depth = 4 }
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// A path inside the archive (with a `/`: `./mybot`, `bin/mybot`), relative to the bot's folder,
    /// which is also its working directory; or a bare program name looked up on `PATH` (`python3`).
    /// After [`super::store`], a path is normalized to `./bin/mybot` (no `.` or empty components).
    pub command: String,
    /// Arguments passed to the command.
    #[serde(default)]
    pub args: Vec<String>,
    /// `ugi` (default) or `codecup`.
    #[serde(default)]
    pub protocol: ProtocolKind,
    /// Engine options sent with `setoption` (UGI only).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
}

impl Manifest {
    /// The manifest of a single executable stored as `file_name` in the bot's folder: command
    /// `./<file_name>`, no args, protocol UGI, no options.
    pub fn executable(file_name: &str) -> Manifest {
        Manifest {
            command: format!("./{file_name}"),
            args: Vec::new(),
            protocol: ProtocolKind::Ugi,
            options: BTreeMap::new(),
        }
    }

    /// Parses manifest text (only the TOML and its keys; [`super::store`] also checks the command).
    ///
    /// # Errors
    /// [`UploadError::Manifest`] with the 1-based line and column of a syntax error, an unknown key, a
    /// missing `command` or a value of the wrong type; an option `setoption` could not send
    /// ([`crate::plan::option_text`]: not one word, a line break, an array or table); options for a
    /// CodeCup bot, which is sent none.
    pub fn parse(text: &str) -> Result<Manifest, UploadError> {
        let manifest: Manifest = Manifest::parse_toml(text)?;
        let problem = |detail: String| UploadError::Manifest { detail };
        if manifest.protocol == ProtocolKind::Codecup && !manifest.options.is_empty() {
            return Err(problem(
                "options are sent with UGI's setoption, and a CodeCup bot is sent none: leave \
                 out [options] or use protocol = \"ugi\""
                    .into(),
            ));
        }
        for (name, value) in &manifest.options {
            crate::plan::option_text(name, value).map_err(problem)?;
        }
        Ok(manifest)
    }

    /// The TOML of a manifest, its keys and their types.
    fn parse_toml(text: &str) -> Result<Manifest, UploadError> {
        toml::from_str(text).map_err(|e| {
            let at = e.span().map_or_else(String::new, |span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("line {line}, column {column}: ")
            });
            UploadError::Manifest {
                detail: format!("{at}{}", e.message().trim_end()),
            }
        })
    }
}

/// Reads and checks the manifest at the root of the unpacked `tree`; its command, when a path, comes
/// back normalized (`./bin/mybot`).
///
/// # Errors
/// [`UploadError::NoManifest`], or [`UploadError::ManifestNotAtRoot`] naming the shallowest one found
/// deeper; [`UploadError::Manifest`] when it is not a file (or a symlink to one), is larger than
/// 64 KiB, is not UTF-8 or does not parse ([`Manifest::parse`]); [`UploadError::Command`] as
/// [`check_command`].
pub(super) fn read(tree: &Tree) -> Result<Manifest, UploadError> {
    let problem = |detail: &str| UploadError::Manifest {
        detail: detail.to_string(),
    };
    if tree.get(MANIFEST).is_none() {
        let suffix = format!("/{MANIFEST}");
        let deeper = tree
            .nodes()
            .map(|(path, _)| path)
            .filter(|path| path.ends_with(&suffix))
            .min_by_key(|path| (path.matches('/').count(), path.as_str()));
        return Err(match deeper {
            Some(found) => UploadError::ManifestNotAtRoot {
                found: found.clone(),
            },
            None => UploadError::NoManifest,
        });
    }
    let real = tree
        .resolve(MANIFEST, true)
        .map_err(|_| problem("is a symlink that does not lead to a file in the archive"))?;
    if !matches!(tree.get(&real), Some(Node::File { .. })) {
        return Err(problem("is a folder, not a file"));
    }
    let mut bytes = Vec::new();
    fs::File::open(tree.disk_path(&real))
        .and_then(|file| file.take(MAX_MANIFEST_BYTES + 1).read_to_end(&mut bytes))
        .map_err(UploadError::store(format!("reading {MANIFEST}")))?;
    if bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(problem("is larger than 64 KiB"));
    }
    let text = String::from_utf8(bytes).map_err(|_| problem("is not UTF-8 text"))?;
    let mut manifest = Manifest::parse(&text)?;
    if let Some(path) = check_command(tree, &manifest.command)? {
        manifest.command = format!("./{path}");
    }
    check_args(&manifest.args)?;
    Ok(manifest)
}

/// Checks a manifest's `command`: a bare name (no `/`) is a program of the sandbox's `PATH`
/// (`None`); a path must be relative, without `..`, and lead (through symlinks inside the archive) to a
/// regular file with an execute bit; its normalized form (`bin/mybot`) comes back.
///
/// # Errors
/// [`UploadError::Command`] for an empty command, `.` or `..`, an absolute path, a `..` component, the
/// root folder, a path not in the archive or leading out of it, a folder, or a file without an
/// execute bit.
fn check_command(tree: &Tree, command: &str) -> Result<Option<String>, UploadError> {
    let refuse = |reason| UploadError::Command {
        command: command.to_string(),
        reason,
    };
    if command.trim().is_empty() {
        return Err(refuse("is empty"));
    }
    if command == "." || command == ".." {
        return Err(refuse("names a folder, not a program"));
    }
    if !command.contains('/') {
        // Looked up where the sandbox looks (not on the server's PATH, whose folders the sandbox
        // would then show the bot).
        let found = crate::config::SandboxKind::PATH
            .split(':')
            .any(|dir| std::path::Path::new(dir).join(command).is_file());
        return if found {
            Ok(None)
        } else {
            Err(refuse(
                "is not a program in /usr/local/bin, /usr/bin or /bin, the folders a sandboxed bot sees",
            ))
        };
    }
    if command.starts_with('/') {
        return Err(refuse(
            "is an absolute path; give a path inside the archive, such as `./mybot`",
        ));
    }
    let mut parts = Vec::new();
    for part in command.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(refuse(
                    "has a `..` component; give a path inside the archive, such as `./mybot`",
                ))
            }
            _ => parts.push(part),
        }
    }
    if parts.is_empty() {
        return Err(refuse("names the archive's root folder, not a program"));
    }
    let path = parts.join("/");
    let real = tree.resolve(&path, true).map_err(|why| {
        refuse(match why {
            Unresolved::Missing => "is not in the archive",
            Unresolved::Escapes | Unresolved::Absolute => {
                "leads outside the archive through a symlink"
            }
            Unresolved::Loop => "goes through a symlink loop",
        })
    })?;
    match tree.get(&real) {
        Some(Node::File { exec: true }) => Ok(Some(path)),
        Some(Node::File { exec: false }) => {
            Err(refuse("is not executable: `chmod +x` it before packing"))
        }
        _ => Err(refuse("is a folder, not a program")),
    }
}

/// Checks a manifest's `args`: the sandbox shows a bot every file its arguments name, so none may be an
/// absolute path or climb out of the bot's folder with `..` (`..` would show it every upload).
///
/// # Errors
/// [`UploadError::Arg`] naming the first such argument.
fn check_args(args: &[String]) -> Result<(), UploadError> {
    for arg in args {
        let reason = if arg.starts_with('/') {
            "is an absolute path; a bot sees only its own folder (give a path inside the archive)"
        } else if arg.split('/').any(|part| part == "..") {
            "has a `..` component; a bot sees only its own folder"
        } else {
            continue;
        };
        return Err(UploadError::Arg {
            arg: arg.clone(),
            reason,
        });
    }
    Ok(())
}
