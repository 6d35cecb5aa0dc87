//! Why an upload is refused: one variant per check, each a sentence a participant can act on.

use std::io;

use super::{Kind, MANIFEST};

/// An upload that [`super::store`] refused, or could not store. Every variant but [`UploadError::Read`]
/// and [`UploadError::Store`] is the participant's to fix, and its `Display` says what is wrong and, in
/// an archive, names the entry (its path as written in the archive, control characters escaped).
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The uploaded file could not be read (the server's problem, not the participant's).
    #[error("the upload could not be read: {0}")]
    Read(#[source] io::Error),
    /// The bot could not be written under the store folder (the server's problem: disk full,
    /// permissions); `what` says which step failed.
    #[error("the bot could not be stored ({what}): {source}")]
    Store {
        /// The step, e.g. `writing bin/mybot`.
        what: String,
        source: io::Error,
    },
    /// A file of 0 bytes.
    #[error("the upload is empty")]
    Empty,
    /// More than [`super::Limits::max_upload_bytes`].
    #[error("the upload is {bytes} bytes; at most {max} bytes are accepted")]
    TooLarge {
        /// The upload's size, bytes (at least `max + 1`: reading stops there).
        bytes: u64,
        /// The cap, bytes.
        max: u64,
    },
    /// The first bytes are none of ELF, `#!`, gzip or zip.
    #[error(
        "the upload is not an executable, a .tar.gz or a .zip: its first bytes are none of a Linux \
         executable's (ELF), a script's (`#!`), gzip's or zip's"
    )]
    NotABot,
    /// Text without a `#!` line: a script the server could not start.
    #[error(
        "the upload is a script without a `#!` line, so it cannot be started: add `#!/usr/bin/env \
         {interpreter}` as its first line{or}"
    )]
    NoShebang {
        /// The interpreter its name suggests (`python3` for `.py`, …).
        interpreter: &'static str,
        /// ", or the line of your language's interpreter" when the name suggests none.
        or: &'static str,
    },
    /// Starts like a gzip or zip file but cannot be read as a .tar.gz or .zip (truncated, damaged, an
    /// unsupported zip compression: only stored and deflate are read).
    #[error("the upload starts like a {kind} but cannot be read as one: {detail}")]
    Corrupt {
        /// [`Kind::TarGz`] or [`Kind::Zip`].
        kind: Kind,
        /// The reader's own words, with the entry when known.
        detail: String,
    },
    /// An entry path that is absolute, climbs out with `..`, is empty, not UTF-8 or too long (1,024
    /// bytes, 255 a name), or holds a control character, a backslash or an empty component.
    #[error("the archive entry `{entry}` {reason}")]
    BadPath {
        /// The path as written in the archive.
        entry: String,
        /// E.g. `has an absolute path; paths must be relative to the archive's root`.
        reason: &'static str,
    },
    /// Two entries with the same path (after dropping `.` components and a trailing `/`).
    #[error("the archive holds `{entry}` more than once")]
    Duplicate {
        /// The path, normalized.
        entry: String,
    },
    /// A zip whose central directory lists the same name twice (the zip reader keeps one of them, so
    /// the name itself is not known).
    #[error(
        "the .zip lists {listed} entries but only {distinct} different paths: some path appears \
         more than once"
    )]
    ZipDuplicates {
        /// Entries in the end-of-central-directory record.
        listed: u64,
        /// Distinct names.
        distinct: usize,
    },
    /// An entry under a path that the archive also holds as a file or a symlink (writing through a
    /// symlink could leave the archive).
    #[error(
        "the archive entry `{entry}` lies under `{parent}`, which the archive also holds as a file \
         or a symlink; only folders may hold entries"
    )]
    NotAFolder {
        /// The entry, normalized.
        entry: String,
        /// Its ancestor that is not a folder.
        parent: String,
    },
    /// A hard link, a device, a fifo, a socket or an entry type the arena does not know.
    #[error(
        "the archive entry `{entry}` is {what}; only regular files, folders and symlinks are \
         accepted"
    )]
    Special {
        /// The entry, normalized.
        entry: String,
        /// E.g. `a hard link (to etc/passwd)`, `a character device`, `a fifo`.
        what: String,
    },
    /// A symlink whose target is absolute, leads outside the archive (lexically or through other
    /// symlinks), is not in the archive, loops, or is not a UTF-8 path.
    #[error("the archive entry `{entry}` is a symlink to `{target}`, {reason}")]
    Symlink {
        /// The symlink, normalized.
        entry: String,
        /// Its target as written.
        target: String,
        /// E.g. `which leads outside the archive`.
        reason: &'static str,
    },
    /// A zip entry that needs a password.
    #[error("the zip entry `{entry}` is encrypted; upload the zip without a password")]
    Encrypted {
        /// The entry as written.
        entry: String,
    },
    /// The bytes unpacked (counted while decompressing, whatever the headers say) passed
    /// [`super::Limits::max_unpacked_bytes`]; unpacking stopped there.
    #[error(
        "the archive unpacks to more than {max} bytes; at most {max} bytes are accepted unpacked"
    )]
    TooBigUnpacked {
        /// The cap, bytes.
        max: u64,
    },
    /// More than [`super::Limits::max_files`] entries.
    #[error(
        "the archive holds more than {max} entries (files, folders and symlinks); at most {max} are \
         accepted"
    )]
    TooManyFiles {
        /// The cap, entries.
        max: usize,
    },
    /// No `arena-bot.toml` anywhere in the archive.
    #[error(
        "the archive has no {MANIFEST} at its root: add one that says how to start the bot, \
         e.g. `command = \"./mybot\"`"
    )]
    NoManifest,
    /// `arena-bot.toml` only deeper than the root (an archive of the folder rather than of its contents).
    #[error(
        "{MANIFEST} must be at the archive's root; found it at `{found}` (pack the folder's contents, \
         not the folder)"
    )]
    ManifestNotAtRoot {
        /// The shallowest `…/arena-bot.toml` found.
        found: String,
    },
    /// `arena-bot.toml` is not a readable TOML file of the right keys (the detail gives the line and
    /// column of a syntax error, an unknown or missing key).
    #[error("{MANIFEST}: {detail}")]
    Manifest {
        /// What is wrong.
        detail: String,
    },
    /// An argument of the manifest that would show the bot files outside its folder.
    #[error("{MANIFEST}: the argument `{arg}` {reason}")]
    Arg {
        /// The argument as written.
        arg: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The manifest's `command` is a path that is absolute, leads outside the archive, is not in it, or
    /// is not an executable file; or a bare name that is no program of the sandbox's `PATH`.
    #[error("{MANIFEST}: the command `{command}` {reason}")]
    Command {
        /// The command as written.
        command: String,
        /// E.g. `is not executable: \`chmod +x\` it before packing`.
        reason: &'static str,
    },
}

impl UploadError {
    /// A [`UploadError::Store`] for the step `what`.
    pub(super) fn store(what: impl Into<String>) -> impl FnOnce(io::Error) -> UploadError {
        let what = what.into();
        move |source| UploadError::Store { what, source }
    }
}
