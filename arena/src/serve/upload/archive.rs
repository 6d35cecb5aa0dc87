//! Walking a .tar.gz or a .zip entry by entry into a [`Tree`]: raw paths checked, entry types checked,
//! data copied through the tree's caps. Nothing here calls a library's `unpack`/`extract`, which skip
//! or rewrite bad entries instead of refusing them.

use std::cell::Cell;
use std::io::{self, Cursor, Read};
use std::rc::Rc;

use tar::EntryType;
use zip::ZipArchive;

use super::tree::{entry_path, shown, Tree, MAX_TARGET};
use super::{Kind, UploadError};

/// Bytes of tar stream allowed per entry on top of the unpacked cap: its header, long-name and pax
/// records, padding (a pax record larger than this is refused as [`UploadError::TooBigUnpacked`]).
const STREAM_PER_ENTRY: u64 = 8 * 1024;

/// Unix file-type bits of a mode (`S_IFMT`) and the types among them.
const S_IFMT: u32 = 0o170_000;
const S_IFSOCK: u32 = 0o140_000;
const S_IFLNK: u32 = 0o120_000;
const S_IFREG: u32 = 0o100_000;
const S_IFBLK: u32 = 0o060_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFCHR: u32 = 0o020_000;
const S_IFIFO: u32 = 0o010_000;

fn corrupt(kind: Kind, detail: impl std::fmt::Display) -> UploadError {
    UploadError::Corrupt {
        kind,
        detail: detail.to_string(),
    }
}

/// How much of a stream has been read, and how much may be.
struct Meter {
    read: Cell<u64>,
    cap: Cell<u64>,
}

impl Meter {
    fn over(&self) -> bool {
        self.read.get() > self.cap.get()
    }
}

/// A reader that fails once its meter reads more than its cap.
struct Metered<R> {
    inner: R,
    meter: Rc<Meter>,
}

impl<R: Read> Read for Metered<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let meter = &self.meter;
        meter.read.set(meter.read.get().saturating_add(n as u64));
        if meter.over() {
            return Err(io::Error::other("the tar stream passed its cap"));
        }
        Ok(n)
    }
}

/// Unpacks the gzip-compressed tar `bytes` into `tree`, then checks its symlinks.
///
/// The decompressed tar stream as a whole (headers, long names and pax records too, which the tar
/// reader holds in memory) is capped at the unpacked cap plus [`STREAM_PER_ENTRY`] per entry read so
/// far and one more.
///
/// # Errors
/// [`UploadError::Corrupt`] for a stream that is not gzip or not tar; per entry, as [`entry_path`] and
/// the `add_*` methods of [`Tree`]; [`UploadError::Special`] for hard links, devices, fifos and unknown
/// types; [`UploadError::TooBigUnpacked`] when the stream passes its cap; [`UploadError::Symlink`] from
/// [`Tree::check_symlinks`]. pax global headers (`git archive` writes one) are skipped.
pub(super) fn unpack_tar_gz(bytes: &[u8], tree: &mut Tree) -> Result<(), UploadError> {
    let max = tree.limits().max_unpacked_bytes;
    let meter = Rc::new(Meter {
        read: Cell::new(0),
        cap: Cell::new(max.saturating_add(STREAM_PER_ENTRY)),
    });
    let stream = Metered {
        inner: flate2::read::MultiGzDecoder::new(bytes),
        meter: Rc::clone(&meter),
    };
    let read_error = |e: io::Error| {
        if meter.over() {
            UploadError::TooBigUnpacked { max }
        } else {
            corrupt(Kind::TarGz, e)
        }
    };
    let mut archive = tar::Archive::new(stream);
    for entry in archive.entries().map_err(&read_error)? {
        let mut entry = entry.map_err(&read_error)?;
        tree.count_entry()?;
        meter
            .cap
            .set(meter.cap.get().saturating_add(STREAM_PER_ENTRY));
        let header = entry.header();
        let kind = header.entry_type();
        if kind.is_pax_global_extensions() {
            continue;
        }
        let mode = header.mode().map_err(|e| {
            corrupt(
                Kind::TarGz,
                format!("entry `{}`: {e}", shown(&entry.path_bytes())),
            )
        })?;
        let exec = mode & 0o111 != 0;
        let raw = entry.path_bytes().into_owned();
        let Some(path) = entry_path(&raw)? else {
            if kind.is_dir() {
                continue; // `./`, the root itself
            }
            return Err(UploadError::BadPath {
                entry: shown(&raw),
                reason: "names the archive's root but is not a folder",
            });
        };
        let special = |what: String| UploadError::Special {
            entry: path.clone(),
            what,
        };
        match kind {
            EntryType::Regular | EntryType::Continuous | EntryType::GNUSparse => {
                let entry_error = |e: io::Error| match read_error(e) {
                    UploadError::Corrupt { kind, detail } => UploadError::Corrupt {
                        kind,
                        detail: format!("entry `{path}`: {detail}"),
                    },
                    other => other,
                };
                tree.add_file(&path, exec, &mut entry, &entry_error)?;
            }
            EntryType::Directory => tree.add_dir(&path)?,
            EntryType::Symlink => {
                let target = entry.link_name_bytes().unwrap_or_default().into_owned();
                tree.add_symlink(&path, &target)?;
            }
            EntryType::Link => {
                let target = entry.link_name_bytes().unwrap_or_default();
                return Err(special(format!("a hard link (to `{}`)", shown(&target))));
            }
            EntryType::Char => return Err(special("a character device".into())),
            EntryType::Block => return Err(special("a block device".into())),
            EntryType::Fifo => return Err(special("a fifo".into())),
            other => {
                return Err(special(format!(
                    "a tar entry of type `{}`",
                    shown(&[other.as_byte()])
                )))
            }
        }
    }
    tree.check_symlinks()
}

/// The number of entries the end-of-central-directory record of `bytes` lists, when it can be found
/// and is not a zip64 placeholder.
fn listed_entries(bytes: &[u8]) -> Option<u64> {
    const EOCD: &[u8] = b"PK\x05\x06";
    // The record is 22 bytes plus a comment of at most 65,535.
    let from = bytes.len().saturating_sub(22 + 65_535);
    let at = bytes[from..].windows(4).rposition(|w| w == EOCD)? + from;
    let field = bytes.get(at + 10..at + 12)?;
    let total = u16::from_le_bytes([field[0], field[1]]);
    (total != u16::MAX).then_some(u64::from(total))
}

/// Unpacks the zip `bytes` into `tree`, then checks its symlinks.
///
/// An entry's type comes from the Unix mode in its external attributes when there is one
/// (`S_IFLNK`: a symlink whose data is its target), else from its name (a trailing `/`: a folder);
/// its execute bit from that mode (none: 0o644).
///
/// # Errors
/// [`UploadError::Corrupt`] for an unreadable zip, a damaged entry (CRC) or a compression other than
/// stored and deflate; [`UploadError::TooManyFiles`] from the central directory's count, before any
/// data is read; [`UploadError::ZipDuplicates`]; [`UploadError::Encrypted`]; [`UploadError::BadPath`]
/// (also when the zip reader's `enclosed_name` refuses the name); [`UploadError::Special`] for devices,
/// fifos and sockets; as the `add_*` methods of [`Tree`] and [`Tree::check_symlinks`].
pub(super) fn unpack_zip(bytes: &[u8], tree: &mut Tree) -> Result<(), UploadError> {
    let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| corrupt(Kind::Zip, e))?;
    if zip.len() > tree.limits().max_files {
        return Err(UploadError::TooManyFiles {
            max: tree.limits().max_files,
        });
    }
    if let Some(listed) = listed_entries(bytes).filter(|&n| n > zip.len() as u64) {
        return Err(UploadError::ZipDuplicates {
            listed,
            distinct: zip.len(),
        });
    }
    for i in 0..zip.len() {
        tree.count_entry()?;
        let (raw, encrypted, mode, enclosed) = {
            let file = zip.by_index_raw(i).map_err(|e| corrupt(Kind::Zip, e))?;
            let enclosed = file.enclosed_name().is_some();
            (
                file.name_raw().to_vec(),
                file.encrypted(),
                file.unix_mode(),
                enclosed,
            )
        };
        let entry = shown(&raw);
        if encrypted {
            return Err(UploadError::Encrypted { entry });
        }
        let Some(path) = entry_path(&raw)? else {
            continue; // `./`, the root itself
        };
        if !enclosed {
            return Err(UploadError::BadPath {
                entry,
                reason: "has a path the zip reader refuses as leaving the archive",
            });
        }
        let named_dir = raw.ends_with(b"/");
        let kind = mode.map_or(0, |m| m & S_IFMT);
        let special = |what: &str| UploadError::Special {
            entry: path.clone(),
            what: what.to_string(),
        };
        let read_error = |e: io::Error| corrupt(Kind::Zip, format!("entry `{entry}`: {e}"));
        let mut file = zip
            .by_index(i)
            .map_err(|e| corrupt(Kind::Zip, format!("entry `{entry}`: {e}")))?;
        match kind {
            S_IFLNK => {
                let mut target = Vec::new();
                (&mut file)
                    .take(MAX_TARGET + 1)
                    .read_to_end(&mut target)
                    .map_err(read_error)?;
                tree.add_symlink(&path, &target)?;
            }
            S_IFDIR => tree.add_dir(&path)?,
            0 | S_IFREG if named_dir => tree.add_dir(&path)?,
            0 | S_IFREG => {
                let exec = mode.is_some_and(|m| m & 0o111 != 0);
                tree.add_file(&path, exec, &mut file, &read_error)?;
            }
            S_IFCHR => return Err(special("a character device")),
            S_IFBLK => return Err(special("a block device")),
            S_IFIFO => return Err(special("a fifo")),
            S_IFSOCK => return Err(special("a socket")),
            _ => return Err(special("of an unknown Unix file type")),
        }
    }
    tree.check_symlinks()
}
