//! A participant's uploaded bot, checked and stored: [`store`] takes the uploaded file (a single
//! executable, a `.tar.gz` or a `.zip`, told apart by their first bytes), unpacks it entry by entry
//! under caps, refuses anything that could reach outside its folder, reads its [`Manifest`], and keeps
//! it under `store_root/<sha256 of the upload>`, so that the same bytes are stored once.
//!
//! ```no_run
//! use arena::serve::upload::{store, Limits};
//! use std::path::Path;
//!
//! let limits = Limits::default();
//! let stored = store(Path::new("/tmp/upload-1"), "mybot.tar.gz", Path::new("bots"), &limits)?;
//! println!("{} in {}: {}", stored.hash, stored.dir.display(), stored.manifest.command);
//! # Ok::<(), arena::serve::upload::UploadError>(())
//! ```
//!
//! What is accepted: regular files (written by us with mode 0o755 when the entry had any execute bit,
//! else 0o644, never setuid, setgid or sticky), folders (0o755), and symlinks whose relative target
//! resolves, through the archive's own entries, to an entry inside it. Refused: absolute paths, `..`,
//! empty or odd path components, duplicates, entries under a file or a symlink, hard links, devices,
//! fifos, sockets, encrypted zip entries, and archives past [`Limits`] (bytes counted as they are
//! decompressed, whatever the headers say).

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

mod archive;
mod error;
mod manifest;
mod tree;

pub use error::UploadError;
pub use manifest::{Manifest, MANIFEST};

use tree::Tree;

/// Size caps of one upload, in bytes and entries. In a server config, a `[upload]`-style table whose
/// keys left out take the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// The largest upload, bytes (default 20 MiB).
    pub max_upload_bytes: u64,
    /// The most an archive may unpack to, bytes of file data and symlink targets (default 200 MiB).
    pub max_unpacked_bytes: u64,
    /// The most entries an archive may hold: files, folders and symlinks (default 10,000).
    pub max_files: usize,
}

impl Default for Limits {
    /// 20 MiB uploaded, 200 MiB unpacked, 10,000 entries.
    fn default() -> Limits {
        Limits {
            max_upload_bytes: 20 << 20,
            max_unpacked_bytes: 200 << 20,
            max_files: 10_000,
        }
    }
}

/// What an upload is, from its first bytes (never from its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A single file starting with ELF's `\x7fELF` or a script's `#!`.
    Executable,
    /// gzip (`\x1f\x8b`), read as a gzip-compressed tar.
    TarGz,
    /// zip (`PK\x03\x04`).
    Zip,
}

impl Kind {
    /// The kind of an upload that starts with `head`; `None` for anything else.
    pub fn sniff(head: &[u8]) -> Option<Kind> {
        if head.starts_with(b"\x1f\x8b") {
            Some(Kind::TarGz)
        } else if head.starts_with(b"PK\x03\x04") {
            Some(Kind::Zip)
        } else if head.starts_with(b"\x7fELF") || head.starts_with(b"#!") {
            Some(Kind::Executable)
        } else {
            None
        }
    }
}

/// Why `bytes` (named `file_name`) is no bot: a script without its `#!` line when they are text
/// (UTF-8 without NUL in the first 4 KiB), with the interpreter its extension suggests.
fn not_a_bot(bytes: &[u8], file_name: &str) -> UploadError {
    let head = &bytes[..bytes.len().min(4096)];
    let text = !head.contains(&0)
        && match std::str::from_utf8(head) {
            Ok(_) => true,
            // A character cut at 4 KiB.
            Err(e) => e.error_len().is_none(),
        };
    if !text {
        return UploadError::NotABot;
    }
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    let interpreter = match extension.as_deref() {
        Some("py") => Some("python3"),
        Some("js" | "mjs") => Some("node"),
        Some("sh") => Some("sh"),
        Some("rb") => Some("ruby"),
        Some("pl") => Some("perl"),
        Some("lua") => Some("lua"),
        _ => None,
    };
    UploadError::NoShebang {
        interpreter: interpreter.unwrap_or("python3"),
        or: if interpreter.is_some() {
            ""
        } else {
            ", or the line of your language's interpreter"
        },
    }
}

impl std::fmt::Display for Kind {
    /// `executable`, `.tar.gz` or `.zip`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Executable => "executable",
            Kind::TarGz => ".tar.gz",
            Kind::Zip => ".zip",
        })
    }
}

/// An upload checked and stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// Lowercase hex SHA-256 of the uploaded bytes (64 characters).
    pub hash: String,
    /// `store_root/<hash>`: the unpacked bot (its working directory), not to be changed from now on.
    pub dir: PathBuf,
    /// How to start it; for a single executable: command `./<its file name>`, no args, protocol UGI.
    pub manifest: Manifest,
    /// What the upload was.
    pub kind: Kind,
    /// The upload's size, bytes.
    pub bytes: u64,
}

/// A fresh folder under the store root that is removed when dropped, unless kept.
struct Scratch {
    path: PathBuf,
    keep: bool,
}

impl Scratch {
    /// Creates `root/.upload-<random>` with mode 0o700 (nobody else looks in while it fills).
    fn new(root: &Path) -> Result<Scratch, UploadError> {
        let mut tries = 0;
        loop {
            let path = root.join(format!(".upload-{:016x}", rand::random::<u64>()));
            match fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(Scratch { path, keep: false }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
                Err(e) => return Err(UploadError::store("creating a temporary folder")(e)),
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep {
            // Best effort: nothing to report to from here (remove_dir_all does not follow symlinks).
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// `file_name` (as the client gave it) made a safe file name: its last `/` or `\` component, only
/// `[A-Za-z0-9._-]` kept, at most 64 characters; `bot` when nothing usable (or `.`, `..`) is left.
fn sanitize_file_name(file_name: &str) -> String {
    let last = file_name.rsplit(['/', '\\']).next().unwrap_or("");
    let name: String = last
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(64)
        .collect();
    if name.is_empty() || name == "." || name == ".." {
        "bot".to_string()
    } else {
        name
    }
}

/// The uploaded file's bytes, at most `max` of them.
///
/// # Errors
/// [`UploadError::Read`], [`UploadError::Empty`], [`UploadError::TooLarge`].
fn read_upload(upload: &Path, max: u64) -> Result<Vec<u8>, UploadError> {
    let file = fs::File::open(upload).map_err(UploadError::Read)?;
    let size = file.metadata().map_err(UploadError::Read)?.len();
    if size > max {
        return Err(UploadError::TooLarge { bytes: size, max });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // Read again under the cap: the file may have grown since.
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(UploadError::Read)?;
    let bytes_read = bytes.len() as u64;
    if bytes_read > max {
        return Err(UploadError::TooLarge {
            bytes: bytes_read,
            max,
        });
    }
    if bytes.is_empty() {
        return Err(UploadError::Empty);
    }
    Ok(bytes)
}

/// Checks the uploaded file `upload` (already on disk, at most `limits.max_upload_bytes` bytes: checked
/// again here) whose client-given name is `file_name`, unpacks it into a fresh temporary folder
/// `store_root/.upload-<16 hex digits>` (`store_root` is created if missing), validates it, and renames
/// that folder to `store_root/<hash>`. A listing of stored bots should skip names starting with `.`:
/// a server killed while unpacking leaves its temporary folder behind.
///
/// `file_name` only names a single executable: its last `/` or `\` component, only `[A-Za-z0-9._-]`
/// kept, at most 64 characters, `bot` when nothing (or `.`, `..`) is left; `C:\fakepath\my bot` is
/// stored as `mybot`. An upload's kind is told by its first bytes, never by its name.
///
/// If `store_root/<hash>` already exists (the same bytes uploaded before), it is reused and the new
/// copy removed. The whole upload is held in memory (at most `max_upload_bytes`), so the bytes hashed
/// are the bytes unpacked.
///
/// # Errors
/// Any [`UploadError`]; on every error nothing is left under `store_root` (the temporary folder is
/// removed). [`UploadError::Read`] and [`UploadError::Store`] are the server's problems, the others the
/// participant's.
pub fn store(
    upload: &Path,
    file_name: &str,
    store_root: &Path,
    limits: &Limits,
) -> Result<Stored, UploadError> {
    let bytes = read_upload(upload, limits.max_upload_bytes)?;
    let kind = Kind::sniff(&bytes).ok_or_else(|| not_a_bot(&bytes, file_name))?;
    let hash: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    fs::create_dir_all(store_root).map_err(UploadError::store("creating the store folder"))?;
    let mut scratch = Scratch::new(store_root)?;
    let manifest = match kind {
        Kind::Executable => {
            let name = sanitize_file_name(file_name);
            let path = scratch.path.join(&name);
            let writing = || UploadError::store(format!("writing {name}"));
            fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o755)
                .open(&path)
                .and_then(|mut file| io::Write::write_all(&mut file, &bytes))
                .map_err(writing())?;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).map_err(writing())?;
            Manifest::executable(&name)
        }
        Kind::TarGz | Kind::Zip => {
            let mut tree = Tree::new(&scratch.path, limits);
            if kind == Kind::TarGz {
                archive::unpack_tar_gz(&bytes, &mut tree)?;
            } else {
                archive::unpack_zip(&bytes, &mut tree)?;
            }
            manifest::read(&tree)?
        }
    };
    fs::set_permissions(&scratch.path, fs::Permissions::from_mode(0o755))
        .map_err(UploadError::store("opening the temporary folder"))?;
    let dir = store_root.join(&hash);
    match fs::rename(&scratch.path, &dir) {
        Ok(()) => scratch.keep = true,
        // Stored before (or just now by a concurrent upload of the same bytes): `scratch` goes.
        Err(_) if dir.is_dir() => {}
        Err(e) => return Err(UploadError::store(format!("renaming to {hash}"))(e)),
    }
    Ok(Stored {
        hash,
        dir,
        manifest,
        kind,
        bytes: bytes.len() as u64,
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_refused;
