//! `arena book connect4 W H`: whole books built on a small board (5 × 4, every position solved in
//! milliseconds), checked entry by entry against fresh solves, their content rule walked, and a run
//! resumed from a progress file cut short.

use std::path::Path;

use arena::book::{build_connect4, progress_path, BookOptions};
use bots::c4_solver::board::{AnySize, Board};
use bots::c4_solver::book::Book;
use bots::c4_solver::solver::{Budget, Solver};

const DEPTH: u32 = 8;
const ALL_DEPTH: u32 = 2;

fn geom() -> AnySize {
    AnySize::new(5, 4).unwrap()
}

fn options(dir: &Path, threads: usize) -> BookOptions {
    BookOptions {
        width: 5,
        height: 4,
        depth: DEPTH,
        all_depth: ALL_DEPTH,
        out: dir.join("book.bin"),
        hash_mb: 8,
        threads,
        progress_bar: false,
    }
}

fn load(dir: &Path) -> Book {
    Book::from_bytes(&std::fs::read(dir.join("book.bin")).unwrap()).unwrap()
}

/// Every entry's score equals a fresh solve (no book, a new table) and its move reaches that score.
fn check_entries(book: &Book) {
    check_entries_of(book, geom());
}

/// [`check_entries`] for a book of `g` boards.
fn check_entries_of(book: &Book, g: AnySize) {
    let mut fresh = Solver::new(g, 4).with_book(None);
    for (key, e) in book.iter() {
        let b = Board::from_key(g, key).expect("a position's key");
        fresh.clear();
        assert_eq!(fresh.score(&b), e.score, "{b:?}");
        let best = e.best.expect("some move reaches the score");
        assert_eq!(
            fresh.move_reaches(&b, best, e.score, Budget::UNLIMITED),
            Some(true),
            "column {best} of {b:?}"
        );
    }
}

/// Walks the book's content rule and counts the positions walked in `seen`: every position of fewer
/// than ALL_DEPTH plies has every child walked; from ALL_DEPTH plies on, for a perfect player on either
/// side (`perfect`: 0 the first player, 1 the second), only the book's move on its turns and every move
/// on the other's. Every position walked, to DEPTH plies, must be in the book.
fn walk(book: &Book, b: Board<AnySize>, perfect: Option<u32>, seen: &mut usize) {
    if b.moves() > DEPTH {
        return;
    }
    let e = book
        .get(&b)
        .unwrap_or_else(|| panic!("{b:?} is not in the book"));
    *seen += 1;
    let sides = match perfect {
        None if b.moves() >= ALL_DEPTH => vec![Some(0), Some(1)],
        p => vec![p],
    };
    for p in sides {
        for c in 0..5 {
            if !b.can_play(c) || b.is_winning_col(c) {
                continue;
            }
            if p == Some(b.moves() % 2) && e.best != Some(c) {
                continue;
            }
            let mut child = b;
            child.play_col(c);
            walk(book, child, p, seen);
        }
    }
}

#[test]
fn a_book_is_exact_and_keeps_a_perfect_player_in_it_to_its_depth() {
    let dir = tempfile::tempdir().unwrap();
    let summary = build_connect4(&options(dir.path(), 2)).unwrap();
    let book = load(dir.path());
    assert_eq!(summary.entries, book.len());
    // The empty board and the 3 positions of one ply (mirror images once) come from their children.
    assert_eq!(summary.derived, 4);
    assert_eq!(
        summary.solved + summary.derived,
        book.len(),
        "a first run solves or derives every entry"
    );
    assert_eq!((book.width(), book.height()), (5, 4));
    assert_eq!((book.depth(), book.all_depth()), (DEPTH, ALL_DEPTH));
    check_entries(&book);
    let mut seen = 0;
    walk(&book, Board::new(geom()), None, &mut seen);
    assert!(
        seen > book.len(),
        "{seen} positions walked, {} entries",
        book.len()
    );
}

#[test]
fn a_full_book_solves_its_deepest_ply_only_and_derives_the_rest_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = options(dir.path(), 2);
    (o.depth, o.all_depth) = (6, 6);
    let summary = build_connect4(&o).unwrap();
    let book = load(dir.path());
    let at_ply = |p: u32| {
        book.iter()
            .filter(|&(k, _)| Board::from_key(geom(), k).unwrap().moves() == p)
            .count()
    };
    assert_eq!(
        summary.solved,
        at_ply(6),
        "only the 6-ply positions are searched"
    );
    assert_eq!(summary.derived, (0..6).map(at_ply).sum::<usize>());
    assert!(summary.derived > 100, "{summary:?}");
    check_entries(&book);
    // Every position of at most 6 plies is in the book, mirror images once.
    fn count(b: Board<AnySize>, seen: &mut std::collections::HashSet<u64>) {
        let key = b.key().min(b.mirror_key());
        if b.moves() > 6 || !seen.insert(key) {
            return;
        }
        for c in 0..5 {
            if b.can_play(c) && !b.is_winning_col(c) {
                let mut child = b;
                child.play_col(c);
                count(child, seen);
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    count(Board::new(geom()), &mut seen);
    let keys: std::collections::HashSet<u64> = book.iter().map(|(k, _)| k).collect();
    assert!(
        keys == seen,
        "the book's positions are not those of at most 6 plies"
    );
}

/// A 4 × 3 book of every position to the last empty square, each entry checked against a fresh solve:
/// only the positions of 11 plies are searched, and the derivation meets immediate wins at every ply.
#[test]
fn a_full_book_to_the_last_square_is_exact() {
    let g = AnySize::new(4, 3).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let summary = build_connect4(&BookOptions {
        width: 4,
        height: 3,
        depth: 11,
        all_depth: 11,
        out: dir.path().join("book.bin"),
        hash_mb: 1,
        threads: 2,
        progress_bar: false,
    })
    .unwrap();
    let book = load(dir.path());
    check_entries_of(&book, g);
    let (mut last, mut wins_now) = (0, 0);
    for (key, _) in book.iter() {
        let b = Board::from_key(g, key).unwrap();
        last += usize::from(b.moves() == 11);
        wins_now += usize::from(b.moves() < 11 && b.can_win_next());
    }
    assert_eq!(
        summary.solved, last,
        "only the 11-ply positions are searched"
    );
    assert_eq!(summary.derived + summary.solved, book.len());
    assert!(wins_now > 0, "no derived position wins at once");
}

#[test]
fn a_run_cut_short_resumes_from_its_progress_file() {
    let dir = tempfile::tempdir().unwrap();
    let first = build_connect4(&options(dir.path(), 1)).unwrap();
    let before = load(dir.path());
    // Keep half the solved positions, and a line torn in the middle by a kill.
    let progress = progress_path(&dir.path().join("book.bin"));
    let text = std::fs::read_to_string(&progress).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# connect4 5 4", "the size comes first");
    assert_eq!(lines.len(), 1 + first.solved);
    let kept = lines.len() / 2;
    let torn = &lines[kept][..lines[kept].len() / 2];
    std::fs::write(&progress, format!("{}\n{torn}", lines[..kept].join("\n"))).unwrap();
    std::fs::remove_file(dir.path().join("book.bin")).unwrap();

    let second = build_connect4(&options(dir.path(), 2)).unwrap();
    let after = load(dir.path());
    assert!(
        second.solved > 0 && second.solved < after.len(),
        "{} of {} solved again",
        second.solved,
        after.len()
    );
    // The torn line was cut, not completed by the next entry: every line is `key score best`.
    let text = std::fs::read_to_string(&progress).unwrap();
    assert!(text.ends_with('\n'));
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 3, "{line:?}");
        assert!(
            f[0].parse::<u64>().is_ok() && f[1].parse::<i32>().is_ok(),
            "{line:?}"
        );
    }
    check_entries(&after);
    // Scores do not depend on the run (the best moves may, where several reach the score).
    let scores: std::collections::HashMap<u64, i32> =
        before.iter().map(|(k, e)| (k, e.score)).collect();
    let common = after
        .iter()
        .filter(|(k, e)| {
            scores.get(k).is_some_and(|&s| {
                assert_eq!(s, e.score);
                true
            })
        })
        .count();
    assert!(common >= kept, "{common} entries in both books");
}

#[test]
fn a_progress_file_of_another_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = options(dir.path(), 1);
    o.depth = 2;
    build_connect4(&o).unwrap();
    (o.width, o.height) = (4, 4);
    let e = build_connect4(&o).unwrap_err().to_string();
    assert!(e.contains("another board") && e.contains("5 4"), "{e}");
    // A file without the size line is a 7 × 6 one (as written before other sizes could be booked).
    let progress = progress_path(&o.out);
    let text = std::fs::read_to_string(&progress).unwrap();
    std::fs::write(&progress, text.replacen("# connect4 5 4\n", "", 1)).unwrap();
    (o.width, o.height) = (5, 4);
    let e = build_connect4(&o).unwrap_err().to_string();
    assert!(e.contains("7 6"), "{e}");
}

#[test]
fn sizes_the_book_cannot_hold_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h, why) in [
        (8, 4, "1 to 7 columns"),
        (7, 7, "does not fit"),
        (5, 4, "depth <"),
    ] {
        let mut o = options(dir.path(), 1);
        (o.width, o.height) = (w, h);
        if why == "depth <" {
            o.depth = 20;
        }
        let e = build_connect4(&o).unwrap_err().to_string();
        assert!(e.contains(why), "{w} × {h}: {e}");
    }
    let mut o = options(dir.path(), 0);
    o.depth = 3;
    assert!(build_connect4(&o)
        .unwrap_err()
        .to_string()
        .contains("--threads"));
}

/// The book in the repository is what its progress file rebuilds, byte for byte, with no search, by
/// `arena book connect4` with its default depths: the command in docs/benchmarks.md reproduces it (the
/// progress file may hold more, for a deeper book under way).
#[test]
fn the_repository_book_is_rebuilt_from_its_progress_file() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots/data");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("connect4-book.bin");
    std::fs::copy(data.join("connect4-book.bin.progress"), progress_path(&out)).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "book",
            "connect4",
            "--no-progress",
            "--hash-mb",
            "1",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let entries = format!("{} entries (0 solved", Book::builtin().len());
    assert!(
        stdout.contains(&entries),
        "every position is in the progress file: {stdout}"
    );
    assert!(
        std::fs::read(&out).unwrap() == std::fs::read(data.join("connect4-book.bin")).unwrap(),
        "the rebuilt book differs from bots/data/connect4-book.bin"
    );
}
