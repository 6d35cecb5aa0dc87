//! Move-path counts (perft) as data, after shakmaty's perft files: every `tests/perft/*.txt` holds
//! lines `<spec> <depth> <count>` (spec as [`GameSpec`]'s text, `#` starts a comment line), checked
//! by one generic [`perft`]. Simple array-based movers, written independently of the crate (m,n,k with
//! gravity for Connect Four; Kalah), check the smaller counts again, and the 3×3 tic-tac-toe game tree
//! is counted in full.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use games::{Game, GameKind, GameSpec, GameVisitor, Outcome, Player, TicTacToe};

/// Lines whose count is at most this are also checked by the naive mover (it rescans the whole
/// board at every node, so it is ~50 times slower).
const NAIVE_LIMIT: u64 = 1_000_000;

/// The number of move paths of `depth` plies from `pos`; a finished game has no moves, so it counts
/// at depth 0 only.
fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            pos.play_unchecked(m);
            let n = perft(pos, depth - 1);
            pos.undo();
            n
        })
        .sum()
}

fn perft_of_spec(spec: GameSpec, depth: u32) -> u64 {
    struct Perft(u32);
    impl GameVisitor for Perft {
        type Output = u64;
        fn visit<G: Game>(self, mut start: G) -> u64 {
            perft(&mut start, self.0)
        }
    }
    spec.visit(Perft(depth))
}

/// One data line, with where it came from for messages.
struct Case {
    at: String,
    spec: GameSpec,
    depth: u32,
    count: u64,
}

fn perft_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

/// Every case of every `.txt` file in `tests/perft`, in file then line order.
fn cases() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(perft_dir())
        .expect("tests/perft is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = format!("{name}:{}: {line}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            assert!(words.len() >= 3, "{at}: expected <spec> <depth> <count>");
            let (spec, numbers) = words.split_at(words.len() - 2);
            cases.push(Case {
                spec: spec
                    .join(" ")
                    .parse()
                    .unwrap_or_else(|e| panic!("{at}: {e}")),
                depth: numbers[0].parse().unwrap_or_else(|e| panic!("{at}: {e}")),
                count: numbers[1].parse().unwrap_or_else(|e| panic!("{at}: {e}")),
                at,
            });
        }
    }
    cases
}

#[test]
fn perft_files_match() {
    let cases = cases();
    for &kind in GameKind::ALL {
        assert!(
            cases.iter().any(|c| c.spec.kind() == kind),
            "no {kind} perft data in tests/perft"
        );
    }
    for case in &cases {
        assert_eq!(
            perft_of_spec(case.spec, case.depth),
            case.count,
            "{}",
            case.at
        );
    }
}

/// An m,n,k board kept as a plain array, with gravity for Connect Four, that finds lines by scanning
/// the whole board: slow, obvious, and sharing no code with the crate.
#[derive(Clone)]
struct Naive {
    width: usize,
    height: usize,
    k: usize,
    gravity: bool,
    /// `cells[row][col]`, row 0 at the bottom; 0 empty, 1 first player, 2 second.
    cells: Vec<Vec<u8>>,
    to_move: u8,
}

impl Naive {
    fn new(spec: GameSpec) -> Option<Naive> {
        use games::connect4::Connect4Variant;
        use games::tictactoe::TicTacToeVariant;
        let (width, height, k, gravity) = if let Some(v) = spec.variant_of::<TicTacToeVariant>() {
            (v.width, v.height, v.k, false)
        } else if let Some(v) = spec.variant_of::<Connect4Variant>() {
            (v.width, v.height, 4, true)
        } else {
            return None;
        };
        let (width, height) = (usize::from(width), usize::from(height));
        Some(Naive {
            width,
            height,
            k: usize::from(k),
            gravity,
            cells: vec![vec![0; width]; height],
            to_move: 1,
        })
    }

    fn has_line(&self) -> bool {
        let (w, h, k) = (self.width as i64, self.height as i64, self.k as i64);
        for r in 0..h {
            for c in 0..w {
                let p = self.cells[r as usize][c as usize];
                if p == 0 {
                    continue;
                }
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (ec, er) = (c + (k - 1) * dc, r + (k - 1) * dr);
                    if ec < w
                        && (0..h).contains(&er)
                        && (0..k)
                            .all(|i| self.cells[(r + i * dr) as usize][(c + i * dc) as usize] == p)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The squares (row, col) a move may go to, empty once the game is over.
    fn moves(&self) -> Vec<(usize, usize)> {
        if self.has_line() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for c in 0..self.width {
            for r in 0..self.height {
                if self.cells[r][c] == 0 {
                    out.push((r, c));
                    if self.gravity {
                        break;
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(r, c)| {
                let mut child = self.clone();
                child.cells[r][c] = self.to_move;
                child.to_move = 3 - self.to_move;
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// Kalah as two arrays of pits and two stores, sown by walking a list of places: written from the rules
/// of `docs/kalah-rules.md`, sharing no code with the crate.
#[derive(Clone)]
struct NaiveKalah {
    /// `pits[player][k]`, k from the player's left (sowing order).
    pits: [Vec<u32>; 2],
    stores: [u32; 2],
    turn: usize,
    over: bool,
}

impl NaiveKalah {
    fn new(spec: GameSpec) -> Option<NaiveKalah> {
        let v = spec.variant_of::<games::kalah::KalahVariant>()?;
        let row = vec![u32::from(v.seeds); usize::from(v.pits)];
        Some(NaiveKalah {
            pits: [row.clone(), row],
            stores: [0, 0],
            turn: 0,
            over: false,
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        let n = self.pits[0].len();
        (0..n)
            .filter(|&k| self.pits[self.turn][k] > 0)
            .map(|k| self.sow(k).perft(depth - 1))
            .sum()
    }

    fn sow(&self, k: usize) -> NaiveKalah {
        let mut c = self.clone();
        let (me, n) = (self.turn, self.pits[0].len());
        let mut seeds = std::mem::take(&mut c.pits[me][k]);
        // A place: (side, Some(pit)) or (side, None) for the store.
        let mut at = (me, Some(k));
        while seeds > 0 {
            at = match at {
                (side, Some(p)) if p + 1 < n => (side, Some(p + 1)),
                (side, Some(_)) => (side, None),
                (side, None) => (1 - side, Some(0)),
            };
            match at {
                (side, None) if side != me => continue,
                (side, None) => c.stores[side] += 1,
                (side, Some(p)) => c.pits[side][p] += 1,
            }
            seeds -= 1;
        }
        c.turn = 1 - me;
        match at {
            (side, None) if side == me => c.turn = me,
            (side, Some(p))
                if side == me && c.pits[me][p] == 1 && c.pits[1 - me][n - 1 - p] > 0 =>
            {
                c.stores[me] += 1 + std::mem::take(&mut c.pits[1 - me][n - 1 - p]);
                c.pits[me][p] = 0;
            }
            _ => {}
        }
        if c.pits.iter().any(|side| side.iter().all(|&s| s == 0)) {
            for p in 0..2 {
                c.stores[p] += c.pits[p].iter().sum::<u32>();
                c.pits[p].iter_mut().for_each(|s| *s = 0);
            }
            c.over = true;
        }
        c
    }
}

#[test]
fn independent_movers_agree_with_the_data() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.count <= NAIVE_LIMIT) {
        if let Some(naive) = NaiveKalah::new(case.spec) {
            assert_eq!(
                naive.perft(case.depth),
                case.count,
                "naive Kalah mover: {}",
                case.at
            );
            checked += 1;
        }
        if let Some(naive) = Naive::new(case.spec) {
            assert_eq!(
                naive.perft(case.depth),
                case.count,
                "naive mover: {}",
                case.at
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} lines checked");
}

/// Counts every complete game from `pos` by its outcome, and collects the board texts reached.
fn count_games(pos: &mut TicTacToe, games: &mut [u64; 3], seen: &mut HashSet<String>) {
    seen.insert(pos.to_string());
    match pos.outcome() {
        Some(Outcome::Win(Player::First)) => games[0] += 1,
        Some(Outcome::Win(Player::Second)) => games[1] += 1,
        Some(Outcome::Draw) => games[2] += 1,
        None => {
            for m in pos.legal_moves() {
                pos.play_unchecked(m);
                count_games(pos, games, seen);
                pos.undo();
            }
        }
    }
}

#[test]
fn tictactoe_3x3_has_255168_games_and_5478_positions() {
    let mut games = [0; 3];
    let mut seen = HashSet::new();
    count_games(&mut TicTacToe::default(), &mut games, &mut seen);
    assert_eq!(games.iter().sum::<u64>(), 255_168);
    assert_eq!(games, [131_184, 77_904, 46_080]);
    assert_eq!(seen.len(), 5_478);
}
