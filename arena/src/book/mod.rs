//! `arena book connect4`: builds the Connect Four opening book ([`bots::c4_solver::book`]) with the
//! project's own solver.
//!
//! The positions are visited ply by ply from the empty board. Each is solved exactly (one solver, one
//! big transposition table kept for the whole run, so later positions reuse the proofs of earlier
//! ones) and its best move chosen: the move the solver's narrowing named when it reaches the score,
//! else the first that does in centre-first order. Its children are then queued as the book's content
//! asks (every move up to `all_depth` plies; past that, for the perfect player's tree only the best
//! move on its own turns). Mirror images are visited once.
//!
//! Every solved position is appended at once to `<out>.progress` (`key score best` per line, the
//! canonical key as in the book), so a run that stops resumes where it was: solved positions are read
//! back instead of solved again. The book file itself is written at the end.

use std::collections::{BTreeMap, HashMap};
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use bots::c4_solver::board::{Board, Std7x6};
use bots::c4_solver::book::{canonical, Book, BookEntry};
use bots::c4_solver::solver::{Budget, Solved, Solver};

/// What to build.
#[derive(Clone, Debug)]
pub struct BookOptions {
    /// The deepest positions, plies.
    pub depth: u32,
    /// Every position of at most this many plies is included, plies.
    pub all_depth: u32,
    /// The book file to write; the progress file is this path with `.progress` appended.
    pub out: PathBuf,
    /// The solver's transposition table, MiB.
    pub hash_mb: usize,
    /// An indicatif bar on a terminal (else one line per ply).
    pub progress_bar: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct BookSummary {
    /// Entries in the book.
    pub entries: usize,
    /// Of which solved in this run (the others came from the progress file).
    pub solved: usize,
    /// Wall-clock time, s.
    pub seconds: f64,
}

/// The side whose perfect play the book follows: bit 1 the first player, bit 2 the second.
type Sides = u8;
const BOTH: Sides = 3;

/// The path of the progress file of book `out`.
pub fn progress_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
}

/// Builds (or resumes) the 7 × 6 book described by `opts` and writes it to `opts.out`.
///
/// # Errors
/// I/O errors on the progress or book file, a malformed progress file (with its line number), or an
/// `all_depth` above `depth`.
pub fn build_connect4(opts: &BookOptions) -> Result<BookSummary> {
    anyhow::ensure!(
        opts.all_depth <= opts.depth && opts.depth < 42,
        "need all_depth <= depth < 42 (got all_depth {}, depth {})",
        opts.all_depth,
        opts.depth
    );
    let start = Instant::now();
    let progress = progress_path(&opts.out);
    let mut known = read_progress(&progress)?;
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&progress)
        .with_context(|| format!("opening {}", progress.display()))?;
    let mut solver = Solver::new(Std7x6, opts.hash_mb).with_book(None);
    let mut book = Book::empty(7, 6, opts.depth, opts.all_depth)?;
    let mut level: BTreeMap<u64, (Board<Std7x6>, Sides)> = BTreeMap::new();
    level.insert(0, (Board::new(Std7x6), BOTH));
    let mut solved = 0;
    for ply in 0..=opts.depth {
        let bar = bar(opts.progress_bar, level.len() as u64, ply);
        let mut next: BTreeMap<u64, (Board<Std7x6>, Sides)> = BTreeMap::new();
        let level_start = Instant::now();
        let mut level_solved = 0;
        for (&key, &(b, sides)) in &level {
            let (_, mirrored) = canonical(&b);
            let entry = match known.get(&key) {
                Some(&(score, best)) => BookEntry {
                    score,
                    best: best.map(|c| if mirrored { 6 - c } else { c }),
                },
                None => {
                    let e = solve(&mut solver, &b);
                    let canon_best = e.best.map(|c| if mirrored { 6 - c } else { c });
                    writeln!(log, "{key} {} {}", e.score, fmt_best(canon_best))
                        .and_then(|()| log.flush())
                        .with_context(|| format!("writing {}", progress.display()))?;
                    known.insert(key, (e.score, canon_best));
                    solved += 1;
                    level_solved += 1;
                    e
                }
            };
            book.push_unsorted(&b, entry);
            bar.inc(1);
            if ply == opts.depth {
                continue;
            }
            // The children the book's content asks for.
            let mover: Sides = if ply % 2 == 0 { 1 } else { 2 };
            for c in 0..7 {
                if !b.can_play(c) || b.is_winning_col(c) {
                    continue;
                }
                let mut child_sides = sides & !mover;
                if ply < opts.all_depth || entry.best == Some(c) {
                    child_sides = sides;
                }
                if child_sides == 0 {
                    continue;
                }
                let mut child = b;
                child.play_col(c);
                let (ck, _) = canonical(&child);
                next.entry(ck).or_insert((child, 0)).1 |= child_sides;
            }
        }
        bar.finish_and_clear();
        println!(
            "ply {ply:>2}: {:>8} positions, {:>8} solved now, {:>8.1} s",
            level.len(),
            level_solved,
            level_start.elapsed().as_secs_f64()
        );
        level = next;
    }
    book.finish();
    let tmp = opts.out.with_extension("tmp");
    std::fs::write(&tmp, book.to_bytes())
        .and_then(|()| std::fs::rename(&tmp, &opts.out))
        .with_context(|| format!("writing {}", opts.out.display()))?;
    Ok(BookSummary {
        entries: book.len(),
        solved,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn bar(on: bool, len: u64, ply: u32) -> ProgressBar {
    if !on || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(
            "ply {msg:>2} {bar:30} {pos}/{len} positions  {elapsed_precise} elapsed  ETA {eta_precise}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message(ply.to_string());
    pb
}

fn fmt_best(best: Option<u32>) -> String {
    best.map_or_else(|| "-".into(), |c| c.to_string())
}

/// The exact score of `b` and its best move: the narrowing's when it is proved to reach the score,
/// else the first column in centre-first order that does.
pub fn solve(solver: &mut Solver<Std7x6>, b: &Board<Std7x6>) -> BookEntry {
    let (score, named) = match solver.solve(b, Budget::UNLIMITED) {
        Solved::Exact { score, best } => (score, best),
        Solved::Partial { .. } => unreachable!("no budget, no abort"),
    };
    let reaches = |solver: &mut Solver<Std7x6>, c: u32| {
        solver.move_reaches(b, c, score, Budget::UNLIMITED) == Some(true)
    };
    let best = named.filter(|&c| reaches(solver, c)).or_else(|| {
        [3, 2, 4, 1, 5, 0, 6]
            .into_iter()
            .find(|&c| reaches(solver, c))
    });
    BookEntry { score, best }
}

/// The entries of a progress file: canonical key → (score, best move in the canonical orientation).
/// A last line without its newline (a run killed while writing it) is dropped, and cut from the file
/// so that the next entry starts a line of its own.
fn read_progress(path: &Path) -> Result<HashMap<u64, (i32, Option<u32>)>> {
    let mut known = HashMap::new();
    let mut text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(known),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        let cut = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(cut);
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(cut as u64))
            .with_context(|| format!("repairing {}", path.display()))?;
    }
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut f = line.split_whitespace();
        let parsed = (|| -> Option<(u64, i32, Option<u32>)> {
            let key = f.next()?.parse().ok()?;
            let score = f.next()?.parse().ok()?;
            let best = match f.next()? {
                "-" => None,
                c => Some(c.parse().ok().filter(|&c: &u32| c < 7)?),
            };
            f.next().is_none().then_some((key, score, best))
        })();
        let Some((key, score, best)) = parsed else {
            anyhow::bail!(
                "{}:{}: not `key score best`: {line:?}",
                path.display(),
                i + 1
            );
        };
        known.insert(key, (score, best));
    }
    Ok(known)
}
