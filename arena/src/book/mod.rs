//! `arena book connect4 [W H]`: builds the Connect Four opening book ([`bots::c4_solver::book`]) with
//! the project's own solver, for 7 × 6 (the book built into the bots) or any size the book format holds
//! (at most 7 columns, `W × (H + 1) <= 55`; small boards make the builder testable end to end).
//!
//! First every position of at most `all_depth` plies (`full`): those of `all_depth` plies are solved,
//! the shallower ones derived from their children's scores, bottom up, with no search. Then the
//! perfect player's tree is visited ply by ply from there. The positions of a ply not solved yet are
//! shared among `threads` solvers, each with its own transposition table kept for the whole run (so later
//! positions reuse the proofs of earlier ones). Each position is solved exactly and its best move chosen:
//! the move the solver's narrowing named when it reaches the score, else the first that does in
//! centre-first order. Its children are then queued, in key order, as the book's content asks (for
//! the perfect player's tree only the best move on its own turns, every move on the other's). Mirror
//! images are visited once.
//!
//! Every solved position is appended at once to `<out>.progress` (`key score best` per line, the
//! canonical key as in the book), so a run that stops resumes where it was: solved positions are read
//! back instead of solved again (derived ones are not written: they are derived again in no time). The
//! book file itself is written at the end.
//!
//! The scores never depend on the run; the best move does when several reach the score, since which
//! one the narrowing names depends on what the table holds (a resumed run, another thread count).

use std::collections::{BTreeMap, HashMap};
use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use bots::c4_solver::board::{AnySize, Board, Geometry, Std7x6};
use bots::c4_solver::book::{canonical, Book, BookEntry};
use bots::c4_solver::solver::{Budget, Solved, Solver};

mod full;

/// What to build.
#[derive(Clone, Debug)]
pub struct BookOptions {
    /// Columns (at most 7: the book stores a column in 3 bits).
    pub width: u32,
    /// Rows; `width * (height + 1) <= 55`.
    pub height: u32,
    /// The deepest positions, plies.
    pub depth: u32,
    /// Every position of at most this many plies is included, plies.
    pub all_depth: u32,
    /// The book file to write; the progress file is this path with `.progress` appended.
    pub out: PathBuf,
    /// The solvers' transposition tables together, MiB (each of the `threads` gets its share).
    pub hash_mb: usize,
    /// Solvers working at once, each on a thread of its own (at least 1).
    pub threads: usize,
    /// An indicatif bar on a terminal (else one line per ply).
    pub progress_bar: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct BookSummary {
    /// Entries in the book.
    pub entries: usize,
    /// Of which solved by a search in this run (the others came from the progress file or were
    /// derived from their children).
    pub solved: usize,
    /// Of which derived from their children's scores with no search (positions of fewer than
    /// `all_depth` plies not in the progress file).
    pub derived: usize,
    /// Wall-clock time, s.
    pub seconds: f64,
}

/// Solved positions: canonical key → (exact score, best move in the canonical orientation).
type Known = HashMap<u64, (i32, Option<u32>)>;

/// The side whose perfect play the book follows: bit 1 the first player, bit 2 the second.
type Sides = u8;
const BOTH: Sides = 3;

/// The path of the progress file of book `out`.
pub fn progress_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".progress");
    PathBuf::from(p)
}

/// Builds (or resumes) the `width` × `height` book described by `opts` and writes it to `opts.out`.
///
/// # Errors
/// I/O errors on the progress or book file, a malformed progress file (with its line number), an
/// `all_depth` above `depth`, a `depth` that reaches the full board, a size the book cannot hold, or
/// no thread.
pub fn build_connect4(opts: &BookOptions) -> Result<BookSummary> {
    anyhow::ensure!(opts.threads >= 1, "--threads must be at least 1");
    anyhow::ensure!(
        (1..=7).contains(&opts.width) && opts.height >= 1,
        "a book holds boards of 1 to 7 columns (a column is stored in 3 bits), not {} × {}",
        opts.width,
        opts.height
    );
    if (opts.width, opts.height) == (7, 6) {
        return build(Std7x6, opts);
    }
    match AnySize::new(opts.width, opts.height) {
        Some(geom) => build(geom, opts),
        None => anyhow::bail!(
            "{} × {} does not fit the solver's 64-bit board",
            opts.width,
            opts.height
        ),
    }
}

fn build<G: Geometry>(geom: G, opts: &BookOptions) -> Result<BookSummary> {
    let (w, squares) = (geom.width(), geom.squares());
    anyhow::ensure!(
        opts.all_depth <= opts.depth && opts.depth < squares,
        "need all_depth <= depth < {squares} (got all_depth {}, depth {})",
        opts.all_depth,
        opts.depth
    );
    let mut book = Book::empty(w, geom.height(), opts.depth, opts.all_depth)?;
    let start = Instant::now();
    let progress = progress_path(&opts.out);
    let mut known = read_progress(&progress, w, geom.height())?;
    let fresh = !progress.exists();
    let mut log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&progress)
        .with_context(|| format!("opening {}", progress.display()))?;
    if fresh {
        writeln!(log, "{}", size_line(w, geom.height()))
            .with_context(|| format!("writing {}", progress.display()))?;
    }
    let mut solvers: Vec<Solver<G>> = (0..opts.threads)
        .map(|_| Solver::new(geom, (opts.hash_mb / opts.threads).max(1)).with_book(None))
        .collect();
    // Solves `todo` (those not known yet), logging each as it comes; returns how many were solved.
    let mut solve_level = |solvers: &mut [Solver<G>],
                           known: &mut Known,
                           todo: &[(u64, Board<G>)],
                           ply: u32|
     -> Result<usize> {
        let todo: Vec<(u64, Board<G>)> = todo
            .iter()
            .filter(|(key, _)| !known.contains_key(key))
            .copied()
            .collect();
        let bar = bar(opts.progress_bar, todo.len() as u64, ply);
        solve_all(solvers, &todo, |key, score, best| {
            writeln!(log, "{key} {score} {}", fmt_best(best))
                .and_then(|()| log.flush())
                .with_context(|| format!("writing {}", progress.display()))?;
            known.insert(key, (score, best));
            bar.inc(1);
            Ok(())
        })?;
        bar.finish_and_clear();
        Ok(todo.len())
    };
    // 0. Every position of at most `all_depth` plies: the deepest solved, the others derived.
    let full_start = Instant::now();
    let levels = full::levels(geom, opts.all_depth);
    let deepest = &levels[opts.all_depth as usize];
    let mut solved = solve_level(&mut solvers, &mut known, deepest, opts.all_depth)?;
    let derived = full::derive_upwards(&levels, &mut known, solvers[0].centre_first());
    crate::outln!(
        "plies 0-{}: {:>8} positions, {:>8} solved and {} derived now, {:>8.1} s",
        opts.all_depth,
        levels.iter().map(Vec::len).sum::<usize>(),
        solved,
        derived,
        full_start.elapsed().as_secs_f64()
    );

    for (key, _) in levels[..opts.all_depth as usize].iter().flatten() {
        let (score, best) = known[key];
        book.push_raw(*key, score, best);
    }

    // From `all_depth` plies on, the perfect player's tree on either side.
    let mut level: BTreeMap<u64, (Board<G>, Sides)> = levels[opts.all_depth as usize]
        .iter()
        .map(|&(key, b)| (key, (b, BOTH)))
        .collect();
    for ply in opts.all_depth..=opts.depth {
        let level_start = Instant::now();
        // 1. The positions not solved yet, shared among the solvers; each is logged as it comes.
        let todo: Vec<(u64, Board<G>)> = level.iter().map(|(&key, &(b, _))| (key, b)).collect();
        let now = solve_level(&mut solvers, &mut known, &todo, ply)?;
        solved += now;

        // 2. The entries, and the children the book's content asks for, in key order.
        let mut next: BTreeMap<u64, (Board<G>, Sides)> = BTreeMap::new();
        for (&key, &(b, sides)) in &level {
            let (_, mirrored) = canonical(&b);
            let (score, best) = known[&key];
            let entry = BookEntry {
                score,
                best: best.map(|c| if mirrored { w - 1 - c } else { c }),
            };
            book.push_unsorted(&b, entry);
            if ply == opts.depth {
                continue;
            }
            let mover: Sides = if ply % 2 == 0 { 1 } else { 2 };
            for c in 0..w {
                if !b.can_play(c) || b.is_winning_col(c) {
                    continue;
                }
                let child_sides = if entry.best == Some(c) {
                    sides
                } else {
                    sides & !mover
                };
                if child_sides == 0 {
                    continue;
                }
                let mut child = b;
                child.play_col(c);
                let (ck, _) = canonical(&child);
                next.entry(ck).or_insert((child, 0)).1 |= child_sides;
            }
        }
        crate::outln!(
            "ply {ply:>2}: {:>8} positions, {:>8} solved now, {:>8.1} s",
            level.len(),
            now,
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
        derived,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The most positions a solver takes at a time. Runs of `todo` keep siblings together where `todo`
/// lists them so (the `all_depth` level, in the order its positions were first reached; the perfect
/// player's levels are in key order), and a solver that solves siblings one after another reuses their
/// common subtrees in its table (a one-off check, not a benchmark: fewer nodes than two solvers taking
/// turns).
const CHUNK: usize = 64;

/// Solves every position of `todo` (canonical key, board), each solver on a thread of its own taking
/// the next run of unsolved positions (a share of what is left: `left / solvers`, between 1 and
/// [`CHUNK`], so that a short list or the end of a long one still keeps every solver busy), and hands
/// each result to `done` on this thread as it comes: the key, the exact score, the best move in the
/// canonical orientation. After an error from `done` no new position is started; the error is
/// returned once the positions under way are finished.
fn solve_all<G: Geometry>(
    solvers: &mut [Solver<G>],
    todo: &[(u64, Board<G>)],
    mut done: impl FnMut(u64, i32, Option<u32>) -> Result<()>,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let threads = solvers.len().max(1);
    let (tx, rx) = mpsc::channel::<(u64, i32, Option<u32>)>();
    std::thread::scope(|scope| {
        for solver in solvers.iter_mut() {
            let (tx, next) = (tx.clone(), &next);
            let share = |start: usize| ((todo.len() - start) / threads).clamp(1, CHUNK);
            scope.spawn(move || loop {
                let Ok(start) = next.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |start| {
                    (start < todo.len()).then(|| start + share(start))
                }) else {
                    return;
                };
                let chunk = &todo[start..start + share(start)];
                for &(key, b) in chunk {
                    let e = solve(solver, &b);
                    let (_, mirrored) = canonical(&b);
                    let w = b.geom().width();
                    let best = e.best.map(|c| if mirrored { w - 1 - c } else { c });
                    // A closed channel: `done` failed and nothing more is wanted.
                    if tx.send((key, e.score, best)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (key, score, best) in rx {
            done(key, score, best)?;
        }
        Ok(())
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
pub fn solve<G: Geometry>(solver: &mut Solver<G>, b: &Board<G>) -> BookEntry {
    let (score, named) = match solver.solve(b, Budget::UNLIMITED) {
        Solved::Exact { score, best } => (score, best),
        Solved::Partial { .. } => unreachable!("no budget, no abort"),
    };
    let reaches = |solver: &mut Solver<G>, c: u32| {
        solver.move_reaches(b, c, score, Budget::UNLIMITED) == Some(true)
    };
    let best = named.filter(|&c| reaches(solver, c)).or_else(|| {
        let order = solver.centre_first().to_vec();
        order.into_iter().find(|&c| reaches(solver, c))
    });
    BookEntry { score, best }
}

/// The first line of a progress file: the board size its keys are for.
fn size_line(width: u32, height: u32) -> String {
    format!("# connect4 {width} {height}")
}

/// The entries of the progress file of a `width` × `height` book: canonical key → (score, best move
/// in the canonical orientation). Its first line names the size (`# connect4 W H`); a file without it
/// (as written before sizes other than 7 × 6 could be booked) is a 7 × 6 one. A last line without its
/// newline (a run killed while writing it) is dropped, and cut from the file so that the next entry
/// starts a line of its own.
///
/// # Errors
/// A file for another size (its keys would name other positions), an unreadable file, a malformed
/// line (with its number).
fn read_progress(path: &Path, width: u32, height: u32) -> Result<Known> {
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
    let size = match text.lines().next() {
        Some(first) if first.starts_with('#') => first.trim().to_owned(),
        Some(_) => size_line(7, 6),
        None => size_line(width, height),
    };
    anyhow::ensure!(
        size == size_line(width, height),
        "{} holds the positions of another board ({size:?}), not {width} × {height}: give another --out",
        path.display()
    );
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut f = line.split_whitespace();
        let parsed = (|| -> Option<(u64, i32, Option<u32>)> {
            let key = f.next()?.parse().ok()?;
            let score = f.next()?.parse().ok()?;
            let best = match f.next()? {
                "-" => None,
                c => Some(c.parse().ok().filter(|&c: &u32| c < width)?),
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
