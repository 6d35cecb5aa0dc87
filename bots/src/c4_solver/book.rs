//! The opening book: exact scores and best moves of 7 × 6 positions near the start, made by the
//! project's own solver (`arena book connect4`, see docs/benchmarks.md for the command, size and
//! checksum of the book in the repository).
//!
//! # Content
//! Every position of at most `all_depth` plies, plus every position of at most `depth` plies that a
//! perfect player can meet from there, as the first or as the second player: on the perfect
//! player's turns only the book's own best move is followed, on the opponent's turns every move.
//! Mirror images share one entry. So a bot that plays the book's moves stays in the book up to
//! `depth` plies whatever its opponent does (after an opening of at most `all_depth` plies).
//!
//! # Format (`bots/data/connect4-book.bin`)
//! All numbers little-endian.
//! - 8 bytes: the magic `C4BOOK1\n`;
//! - 1 byte each: width, height, `depth`, `all_depth`;
//! - 4 bytes: the number of entries `n`;
//! - `n` × 8 bytes, sorted ascending: `key << 9 | (score + 32) << 3 | best`, where `key` is the
//!   smaller of the position's key (Pons's `current + mask`, [`Board::key`]) and its mirror image's,
//!   `score` Pons's exact score (see [`super::solver`]), `best` the 0-based column of the book's
//!   best move in that orientation (7: none, the position is lost whatever is played).

use std::sync::OnceLock;

use super::board::{mirror, Board, Geometry};

/// The magic bytes that start a book file.
pub const MAGIC: &[u8; 8] = b"C4BOOK1\n";

/// The header's size, bytes.
const HEADER: usize = 16;

/// `best` when no column is stored.
const NO_MOVE: u64 = 7;

/// The book in the repository, built into the binaries.
static BUILTIN_BYTES: &[u8] = include_bytes!("../../data/connect4-book.bin");

/// What the book knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Pons's exact score, for the player to move.
    pub score: i32,
    /// A column (0-based, in the orientation of the board looked up) that reaches `score`.
    pub best: Option<u32>,
}

/// Why a book file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// Not a book file.
    #[error("not a Connect Four book (no {MAGIC:?} header)")]
    Magic,
    /// The size does not match the header.
    #[error("the book is truncated or too long: {len} bytes for {entries} entries")]
    Length { len: usize, entries: usize },
    /// Entries out of order.
    #[error("the book's entries are not sorted (entry {0})")]
    Unsorted(usize),
    /// A size the book format cannot hold (the key needs more than 55 bits).
    #[error("a {0} × {1} board does not fit the book format")]
    Size(u32, u32),
}

/// A loaded book; see the module documentation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    width: u32,
    height: u32,
    depth: u32,
    all_depth: u32,
    entries: Vec<u64>,
}

impl Book {
    /// An empty book for `width` × `height` boards.
    ///
    /// # Errors
    /// [`BookError::Size`] when `width * (height + 1) > 55` or a side does not fit a byte.
    pub fn empty(width: u32, height: u32, depth: u32, all_depth: u32) -> Result<Book, BookError> {
        if width * (height + 1) > 55 || width > 255 || height > 255 {
            return Err(BookError::Size(width, height));
        }
        Ok(Book {
            width,
            height,
            depth,
            all_depth,
            entries: Vec::new(),
        })
    }

    /// Reads a book file's bytes.
    ///
    /// # Errors
    /// [`BookError`] when the bytes are not a well-formed book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(BookError::Magic);
        }
        let n = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        if bytes.len() != HEADER + 8 * n {
            return Err(BookError::Length {
                len: bytes.len(),
                entries: n,
            });
        }
        let mut book = Book::empty(
            u32::from(bytes[8]),
            u32::from(bytes[9]),
            u32::from(bytes[10]),
            u32::from(bytes[11]),
        )?;
        book.entries = bytes[HEADER..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        if let Some(i) = book.entries.windows(2).position(|w| w[0] >> 9 >= w[1] >> 9) {
            return Err(BookError::Unsorted(i + 1));
        }
        Ok(book)
    }

    /// The book in the repository (`bots/data/connect4-book.bin`), read once.
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_bytes(BUILTIN_BYTES).expect("the built-in book is valid"))
    }

    /// The file's bytes: header and sorted entries.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 8 * self.entries.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[
            self.width as u8,
            self.height as u8,
            self.depth as u8,
            self.all_depth as u8,
        ]);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.to_le_bytes());
        }
        out
    }

    /// Columns of the boards this book is for.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows of the boards this book is for.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The deepest positions held, plies.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Every position of at most this many plies is held.
    pub fn all_depth(&self) -> u32 {
        self.all_depth
    }

    /// Entries (mirror images counted once).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the book is for boards of `geom`'s size.
    pub fn fits<G: Geometry>(&self, geom: G) -> bool {
        geom.width() == self.width && geom.height() == self.height
    }

    /// The entry of `b`, or of its mirror image, if held. `None` too for a board of another size.
    #[inline]
    pub fn get<G: Geometry>(&self, b: &Board<G>) -> Option<BookEntry> {
        if b.moves() > self.depth || !self.fits(b.geom()) {
            return None;
        }
        let (key, mirrored) = canonical(b);
        let i = self.entries.binary_search_by(|e| (e >> 9).cmp(&key)).ok()?;
        Some(decode(self.entries[i], mirrored, self.width))
    }

    /// All entries as `(canonical key, entry in the canonical orientation)`, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, BookEntry)> + '_ {
        let w = self.width;
        self.entries
            .iter()
            .map(move |&e| (e >> 9, decode(e, false, w)))
    }

    /// Adds or replaces the entry of `b` (`best` in `b`'s orientation). Keeps the entries sorted:
    /// O(n) per call, so for building, add with [`push_unsorted`](Book::push_unsorted) then
    /// [`finish`](Book::finish).
    pub fn insert<G: Geometry>(&mut self, b: &Board<G>, entry: BookEntry) {
        self.push_unsorted(b, entry);
        self.finish();
    }

    /// Adds the entry of `b` without sorting; call [`finish`](Book::finish) before any lookup.
    pub fn push_unsorted<G: Geometry>(&mut self, b: &Board<G>, entry: BookEntry) {
        let (key, mirrored) = canonical(b);
        let best = entry
            .best
            .map(|c| if mirrored { self.width - 1 - c } else { c });
        self.push_raw(key, entry.score, best);
    }

    /// Adds an entry by its canonical key, `best` in the canonical orientation, without sorting.
    pub fn push_raw(&mut self, key: u64, score: i32, best: Option<u32>) {
        let best = best.map_or(NO_MOVE, u64::from);
        let score = (score + 32).clamp(0, 63) as u64;
        self.entries.push(key << 9 | score << 3 | best);
    }

    /// Sorts the entries and drops repeated keys (the last added wins).
    pub fn finish(&mut self) {
        // Stable: of equal keys the last pushed stays last, then `dedup` keeps the first of each run,
        // so reverse around it.
        self.entries.sort_by_key(|e| e >> 9);
        self.entries.reverse();
        self.entries.dedup_by_key(|e| *e >> 9);
        self.entries.reverse();
    }
}

/// The canonical key of `b` (the smaller of its key and its mirror image's) and whether it is the
/// mirror image's.
pub fn canonical<G: Geometry>(b: &Board<G>) -> (u64, bool) {
    let k = b.key();
    let m = mirror(b.geom(), k);
    if m < k {
        (m, true)
    } else {
        (k, false)
    }
}

fn decode(e: u64, mirrored: bool, width: u32) -> BookEntry {
    let best = (e & 7 != NO_MOVE).then(|| {
        let c = (e & 7) as u32;
        if mirrored {
            width - 1 - c
        } else {
            c
        }
    });
    BookEntry {
        score: ((e >> 3) & 63) as i32 - 32,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Std7x6;
    use super::*;

    #[test]
    fn entries_round_trip_through_bytes_and_mirror_images() {
        let mut book = Book::empty(7, 6, 4, 1).unwrap();
        let a = Board::from_moves(Std7x6, "1123").unwrap();
        let b = Board::from_moves(Std7x6, "44").unwrap();
        book.push_unsorted(
            &a,
            BookEntry {
                score: -3,
                best: Some(1),
            },
        );
        book.push_unsorted(
            &b,
            BookEntry {
                score: 2,
                best: None,
            },
        );
        book.finish();
        let book = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!((book.depth(), book.all_depth()), (4, 1));
        assert_eq!(
            book.get(&a),
            Some(BookEntry {
                score: -3,
                best: Some(1)
            })
        );
        // The mirror image, with the column mirrored.
        let m = Board::from_moves(Std7x6, "7765").unwrap();
        assert_eq!(
            book.get(&m),
            Some(BookEntry {
                score: -3,
                best: Some(5)
            })
        );
        assert_eq!(book.get(&b).map(|e| e.best), Some(None));
        assert_eq!(book.get(&Board::from_moves(Std7x6, "45").unwrap()), None);
    }

    #[test]
    fn bad_files_are_refused_with_their_reason() {
        assert_eq!(Book::from_bytes(b"hello"), Err(BookError::Magic));
        let mut bytes = Book::empty(7, 6, 0, 0).unwrap().to_bytes();
        bytes[12] = 1;
        assert!(matches!(
            Book::from_bytes(&bytes),
            Err(BookError::Length { .. })
        ));
    }
}
