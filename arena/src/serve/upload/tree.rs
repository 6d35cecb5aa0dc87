//! The unpacked archive as the arena sees it: every entry's checked path and kind, written to disk by
//! us (never by an archive library's `unpack`), with the size and entry caps counted as we go.
//!
//! Symlinks are checked twice: lexically when added, and after the last entry by resolving them
//! through the archive's own entries as the kernel would ([`Tree::resolve`]), since a target that looks
//! inside (`a/../x`) can leave through another symlink (`a -> ..` under a subfolder).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{Limits, UploadError};

/// Symlinks followed while resolving one path before it counts as a loop (Linux's `MAXSYMLINKS`).
const MAX_HOPS: usize = 40;
/// Path components walked while resolving one path (symlink targets included) before it counts as a
/// loop: bounds the work of [`Tree::check_symlinks`] to this many steps per symlink.
const MAX_STEPS: usize = 1024;
/// The longest symlink target accepted, bytes (Linux's `PATH_MAX`).
pub(super) const MAX_TARGET: u64 = 4096;
/// The longest entry path accepted, bytes.
const MAX_PATH_BYTES: usize = 1024;
/// The longest name of one path component, bytes (Linux's `NAME_MAX`).
const MAX_NAME_BYTES: usize = 255;

/// One entry of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    /// A folder; `explicit` when the archive has an entry for it (not only entries under it).
    Dir { explicit: bool },
    /// A regular file; `exec` when written with mode 0o755.
    File { exec: bool },
    /// A symlink and its target as written (UTF-8, relative).
    Link { target: String },
}

/// Why a path does not resolve inside the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unresolved {
    /// A `..` above the root.
    Escapes,
    /// A symlink to an absolute path.
    Absolute,
    /// A component not in the archive, or under a file.
    Missing,
    /// Too many symlinks or components.
    Loop,
}

impl Unresolved {
    /// The end of a sentence about a symlink's target ("…, which …").
    pub(super) fn symlink_reason(self) -> &'static str {
        match self {
            Unresolved::Escapes => "which leads outside the archive",
            Unresolved::Absolute => {
                "an absolute path; a symlink must point inside the archive with a relative path"
            }
            Unresolved::Missing => "which is not in the archive",
            Unresolved::Loop => {
                "which loops, or goes through more than 40 symlinks or 1,024 path components"
            }
        }
    }
}

/// The entries written so far under `root`, keyed by normalized path (`bin/mybot`, no `.`, no
/// trailing `/`; the root itself is never a key).
pub(super) struct Tree<'a> {
    root: &'a Path,
    limits: &'a Limits,
    nodes: BTreeMap<String, Node>,
    entries: usize,
    unpacked: u64,
}

/// `raw` (an entry's path bytes) as shown in messages: lossy UTF-8, control characters escaped (`\0`,
/// `\n`, `\u{1b}`).
pub(super) fn shown(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The normalized path of an archive entry from its raw bytes: `.` components (tar's leading `./`)
/// are dropped, as is one trailing `/` (`./bin/` → `bin`); `None` for the root itself (`./`).
///
/// # Errors
/// [`UploadError::BadPath`] for a path that is empty, not UTF-8, absolute, longer than 1,024 bytes,
/// has a `..` or an empty component, a name longer than 255 bytes, a control character (NUL included)
/// or a backslash.
pub(super) fn entry_path(raw: &[u8]) -> Result<Option<String>, UploadError> {
    let bad = |reason| UploadError::BadPath {
        entry: shown(raw),
        reason,
    };
    if raw.is_empty() {
        return Err(bad("has an empty path"));
    }
    let text = std::str::from_utf8(raw).map_err(|_| bad("has a path that is not UTF-8"))?;
    if text.chars().any(|c| c.is_control() || c == '\\') {
        return Err(bad(
            "has a control character or a backslash in its path; use plain `/`-separated names",
        ));
    }
    if text.starts_with('/') {
        return Err(bad(
            "has an absolute path; paths must be relative to the archive's root",
        ));
    }
    if text.len() > MAX_PATH_BYTES {
        return Err(bad("has a path longer than 1,024 bytes"));
    }
    let text = text.strip_suffix('/').unwrap_or(text);
    let mut parts = Vec::new();
    for part in text.split('/') {
        match part {
            "." => {}
            ".." => {
                return Err(bad(
                    "has a `..` component; paths must stay inside the archive",
                ))
            }
            "" => return Err(bad("has an empty component (`//`) in its path")),
            _ if part.len() > MAX_NAME_BYTES => {
                return Err(bad("has a name longer than 255 bytes in its path"))
            }
            _ => parts.push(part),
        }
    }
    Ok((!parts.is_empty()).then(|| parts.join("/")))
}

/// `path`'s components with `target` (relative to `path`'s folder) applied lexically; `None` when a
/// `..` climbs above the root.
fn lexical_join(path: &str, target: &str) -> Option<Vec<String>> {
    let mut parts: Vec<String> = path.split('/').map(String::from).collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part.to_string()),
        }
    }
    Some(parts)
}

impl<'a> Tree<'a> {
    /// An empty tree writing under `root` (an existing, empty folder).
    pub(super) fn new(root: &'a Path, limits: &'a Limits) -> Tree<'a> {
        Tree {
            root,
            limits,
            nodes: BTreeMap::new(),
            entries: 0,
            unpacked: 0,
        }
    }

    /// The caps this tree counts against.
    pub(super) fn limits(&self) -> &'a Limits {
        self.limits
    }

    /// The entry at a normalized path.
    pub(super) fn get(&self, path: &str) -> Option<&Node> {
        self.nodes.get(path)
    }

    /// Every entry, by normalized path in byte order.
    pub(super) fn nodes(&self) -> impl Iterator<Item = (&String, &Node)> {
        self.nodes.iter()
    }

    /// The file of a normalized path on disk.
    pub(super) fn disk_path(&self, path: &str) -> PathBuf {
        self.root.join(path)
    }

    /// Counts one more archive entry (of any kind, including the ones skipped).
    ///
    /// # Errors
    /// [`UploadError::TooManyFiles`] past [`Limits::max_files`].
    pub(super) fn count_entry(&mut self) -> Result<(), UploadError> {
        self.entries += 1;
        if self.entries > self.limits.max_files {
            return Err(UploadError::TooManyFiles {
                max: self.limits.max_files,
            });
        }
        Ok(())
    }

    /// Adds `n` bytes to the unpacked total.
    ///
    /// # Errors
    /// [`UploadError::TooBigUnpacked`] once the total passes [`Limits::max_unpacked_bytes`].
    fn spend(&mut self, n: u64) -> Result<(), UploadError> {
        self.unpacked = self.unpacked.saturating_add(n);
        if self.unpacked > self.limits.max_unpacked_bytes {
            return Err(UploadError::TooBigUnpacked {
                max: self.limits.max_unpacked_bytes,
            });
        }
        Ok(())
    }

    /// Creates the missing folders above `path` and claims `path` itself for a new entry.
    ///
    /// # Errors
    /// [`UploadError::NotAFolder`] when an ancestor is a file or a symlink, [`UploadError::Duplicate`]
    /// when `path` was an entry already (a folder named before only as a parent may become explicit once,
    /// when `dir`), [`UploadError::Store`] when a folder cannot be created.
    fn claim(&mut self, path: &str, dir: bool) -> Result<bool, UploadError> {
        for (i, _) in path.match_indices('/') {
            let parent = &path[..i];
            match self.nodes.get(parent) {
                Some(Node::Dir { .. }) => {}
                Some(_) => {
                    return Err(UploadError::NotAFolder {
                        entry: path.to_string(),
                        parent: parent.to_string(),
                    })
                }
                None => {
                    self.make_dir(parent)?;
                    self.nodes
                        .insert(parent.to_string(), Node::Dir { explicit: false });
                }
            }
        }
        match self.nodes.get(path) {
            None => Ok(false),
            Some(Node::Dir { explicit: false }) if dir => Ok(true),
            Some(Node::Dir { explicit: false }) => Err(UploadError::NotAFolder {
                entry: self
                    .nodes
                    .range(format!("{path}/")..)
                    .next()
                    .map_or_else(|| path.to_string(), |(k, _)| k.clone()),
                parent: path.to_string(),
            }),
            Some(_) => Err(UploadError::Duplicate {
                entry: path.to_string(),
            }),
        }
    }

    fn make_dir(&self, path: &str) -> Result<(), UploadError> {
        let disk = self.disk_path(path);
        fs::create_dir(&disk)
            .and_then(|()| fs::set_permissions(&disk, fs::Permissions::from_mode(0o755)))
            .map_err(UploadError::store(format!("creating the folder {path}")))
    }

    /// Adds a folder entry at a normalized path (mode 0o755).
    ///
    /// # Errors
    /// As the claim of its path: [`UploadError::NotAFolder`], [`UploadError::Duplicate`],
    /// [`UploadError::Store`].
    pub(super) fn add_dir(&mut self, path: &str) -> Result<(), UploadError> {
        if !self.claim(path, true)? {
            self.make_dir(path)?;
        }
        self.nodes
            .insert(path.to_string(), Node::Dir { explicit: true });
        Ok(())
    }

    /// Adds a regular file at a normalized path, mode 0o755 when `exec` else 0o644, copying `data` to
    /// it and counting every byte read against [`Limits::max_unpacked_bytes`].
    ///
    /// # Errors
    /// As [`Tree::add_dir`]; [`UploadError::TooBigUnpacked`] as soon as the total passes the cap;
    /// `read_error(e)` for an error reading `data` (a damaged archive, or a cap of the caller's).
    pub(super) fn add_file(
        &mut self,
        path: &str,
        exec: bool,
        data: &mut dyn Read,
        read_error: &dyn Fn(io::Error) -> UploadError,
    ) -> Result<(), UploadError> {
        self.claim(path, false)?;
        let mode = if exec { 0o755 } else { 0o644 };
        let disk = self.disk_path(path);
        let writing = || UploadError::store(format!("writing {path}"));
        // create_new: never through a symlink or over a file already there.
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&disk)
            .map_err(writing())?;
        self.nodes.insert(path.to_string(), Node::File { exec });
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match data.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(read_error(e)),
            };
            self.spend(n as u64)?;
            file.write_all(&buf[..n]).map_err(writing())?;
        }
        // The umask may have cleared bits of `mode`.
        fs::set_permissions(&disk, fs::Permissions::from_mode(mode)).map_err(writing())
    }

    /// Adds a symlink at a normalized path to `target` (raw bytes, counted against the unpacked cap).
    ///
    /// # Errors
    /// [`UploadError::Symlink`] when the target is empty, longer than 4,096 bytes, not UTF-8, holds a
    /// NUL, is absolute or climbs above the root lexically; [`UploadError::TooBigUnpacked`]; as
    /// [`Tree::add_dir`] otherwise.
    pub(super) fn add_symlink(&mut self, path: &str, target: &[u8]) -> Result<(), UploadError> {
        let refuse = |reason| UploadError::Symlink {
            entry: path.to_string(),
            target: shown(target),
            reason,
        };
        self.spend(target.len() as u64)?;
        if target.len() as u64 > MAX_TARGET {
            return Err(UploadError::Symlink {
                entry: path.to_string(),
                target: format!("{}…", shown(&target[..64])),
                reason: "which is longer than 4,096 bytes",
            });
        }
        let text = std::str::from_utf8(target)
            .ok()
            .filter(|t| !t.is_empty() && !t.contains('\0'))
            .ok_or_else(|| refuse("which is empty, not UTF-8 or holds a NUL"))?;
        if text.starts_with('/') {
            return Err(refuse(Unresolved::Absolute.symlink_reason()));
        }
        if lexical_join(path, text).is_none() {
            return Err(refuse(Unresolved::Escapes.symlink_reason()));
        }
        self.claim(path, false)?;
        std::os::unix::fs::symlink(text, self.disk_path(path))
            .map_err(UploadError::store(format!("creating the symlink {path}")))?;
        self.nodes.insert(
            path.to_string(),
            Node::Link {
                target: text.to_string(),
            },
        );
        Ok(())
    }

    /// Resolves the relative `path` (components separated by `/`, `.` and `..` allowed) from the root
    /// through the archive's entries as the kernel would, following symlinks (the last component's only
    /// when `follow_last`); the normalized path of the entry reached.
    ///
    /// # Errors
    /// [`Unresolved::Escapes`] when a `..` climbs above the root, [`Unresolved::Absolute`] for an
    /// absolute symlink, [`Unresolved::Missing`] for a component that is not in the archive (or lies
    /// under a file), [`Unresolved::Loop`] after [`MAX_HOPS`] symlinks or [`MAX_STEPS`] components.
    pub(super) fn resolve(&self, path: &str, follow_last: bool) -> Result<String, Unresolved> {
        // Components still to walk, the next one last; `at`: the real path reached so far.
        let mut todo: Vec<&str> = path.split('/').rev().collect();
        let mut at = String::new();
        let (mut hops, mut steps) = (0, 0);
        while let Some(part) = todo.pop() {
            steps += 1;
            if steps > MAX_STEPS {
                return Err(Unresolved::Loop);
            }
            match part {
                "" | "." => continue,
                ".." if at.is_empty() => return Err(Unresolved::Escapes),
                ".." => {
                    at.truncate(at.rfind('/').unwrap_or(0));
                    continue;
                }
                _ => {}
            }
            if !at.is_empty() && !matches!(self.nodes.get(&at), Some(Node::Dir { .. })) {
                return Err(Unresolved::Missing);
            }
            let parent = at.len();
            if !at.is_empty() {
                at.push('/');
            }
            at.push_str(part);
            match self.nodes.get(&at) {
                None => return Err(Unresolved::Missing),
                Some(Node::Link { target }) if follow_last || !todo.is_empty() => {
                    hops += 1;
                    if hops > MAX_HOPS {
                        return Err(Unresolved::Loop);
                    }
                    if target.starts_with('/') {
                        return Err(Unresolved::Absolute);
                    }
                    at.truncate(parent);
                    todo.extend(target.split('/').rev());
                }
                Some(_) => {}
            }
        }
        Ok(at)
    }

    /// Checks, after the last entry, that every symlink resolves to an entry inside the archive.
    ///
    /// # Errors
    /// [`UploadError::Symlink`] naming the first symlink (in path order) that does not.
    pub(super) fn check_symlinks(&self) -> Result<(), UploadError> {
        for (path, node) in &self.nodes {
            if let Node::Link { target } = node {
                self.resolve(path, true)
                    .map_err(|why| UploadError::Symlink {
                        entry: path.clone(),
                        target: target.clone(),
                        reason: why.symlink_reason(),
                    })?;
            }
        }
        Ok(())
    }
}
